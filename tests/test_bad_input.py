"""Bad input found by exercising the CLI as a user: each is one line and exit 2, never a traceback."""
import subprocess
import sys

import polars as pl
import pytest

from thousand.errors import ThousandError
from thousand.simulate import simulate


def run_cli(*args: str, cwd=None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "thousand", *args], capture_output=True, text=True,
                          timeout=300, cwd=cwd)


def assert_one_line_error(out: subprocess.CompletedProcess, needle: str) -> None:
    assert out.returncode == 2, out.stderr
    assert "Traceback" not in out.stderr
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1, out.stderr
    assert needle in lines[0], lines[0]


def test_rules_file_that_is_a_directory(tmp_path):
    assert_one_line_error(run_cli("rules", str(tmp_path)), "is a directory")


def test_rules_file_that_is_not_text(tmp_path):
    bad = tmp_path / "bin.toml"
    bad.write_bytes(b"\xff\xfe bolts = 1")
    assert_one_line_error(run_cli("rules", str(bad)), "not UTF-8")


def test_rules_file_with_a_list_for_preset(tmp_path):
    bad = tmp_path / "p.toml"
    bad.write_text('preset = ["a"]\n')
    assert_one_line_error(run_cli("rules", str(bad)), "preset")


@pytest.mark.parametrize("args, needle", [
    (("explain", "--seed", "-1"), "--seed"),
    (("explain", "--seed", "abc"), "--seed"),
    (("explain", "--strategy", "standard:margin=abc"), "margin"),
    (("explain", "--strategy", "standard:margin"), "margin"),
    (("simulate", "--deals", "x"), "--deals"),
    (("nosuchcommand",), "nosuchcommand"),
])
def test_usage_errors_are_one_line(args, needle):
    assert_one_line_error(run_cli(*args), needle)


def test_resume_recomputes_damaged_chunks(tmp_path):
    kw = dict(rules="classic", seed=9, jobs=1, chunk_size=2000, progress=False)
    ref = simulate(8000, out=tmp_path / "ref", **kw).collect()
    out = tmp_path / "run"
    simulate(8000, out=out, **kw)
    (out / "chunk-000001.parquet").write_bytes(b"PAR1 not really")
    (out / "chunk-000002.parquet").write_bytes(b"")
    got = simulate(8000, out=out, resume=True, **kw).collect()
    assert got.equals(ref)


def test_resume_refuses_a_directory_in_place_of_a_chunk(tmp_path):
    out = tmp_path / "run"
    args = ("simulate", "--deals", "4000", "--chunk-size", "2000", "--jobs", "1", "--out", str(out))
    assert run_cli(*args).returncode == 0
    (out / "chunk-000000.parquet").unlink()
    (out / "chunk-000000.parquet").mkdir()
    assert_one_line_error(run_cli(*args, "--resume"), "not a chunk file")


@pytest.mark.parametrize("args, needle", [
    (("simulate", "--deals", "1000000000000000000000"), "at most"),
    (("simulate", "--deals", "1000", "--chunk-size", "100000000"), "chunk size"),
    (("simulate", "--deals", "1000", "--strategy", "standard:margin=nan"), "finite"),
    (("simulate", "--deals", "1000", "--strategy", "standard:margin=1,margin=2"), "twice"),
    (("bid", "AH TH KH QH AD 9S JC", "--samples", "1000000000000"), "--samples"),
])
def test_absurd_sizes_and_parameters_are_refused_at_once(args, needle):
    assert_one_line_error(run_cli(*args), needle)


def test_overrides_are_checked_together_whatever_their_order():
    from thousand.rules import parse_rules_spec
    a = parse_rules_spec("classic", ["target=100", "barrel_at=none"])
    b = parse_rules_spec("classic", ["barrel_at=none", "target=100"])
    c = parse_rules_spec("classic:target=5000", ["barrel_at=4880"])
    assert a == b and a.target == 100 and a.barrel_at is None
    assert c.target == 5000 and c.barrel_at == 4880


def test_many_jobs_on_one_chunk_start_one_worker(tmp_path):
    import time
    t = time.perf_counter()
    lf = simulate(500, seed=3, jobs=64, chunk_size=1000, out=tmp_path / "r", progress=False)
    assert lf.collect().height >= 500
    assert time.perf_counter() - t < 60


def test_a_run_that_wrote_no_chunk_does_not_block_a_new_one(tmp_path):
    import json
    out = tmp_path / "r"
    out.mkdir()
    (out / "metadata.json").write_text(json.dumps({"kind": "deals", "seed": 99}))
    assert simulate(500, seed=3, jobs=1, out=out, progress=False).collect().height >= 500


# ---------------------------------------------------------------------- in-process checks
def cli_error(capsys, *args: str) -> str:
    """Run the CLI in this process; assert exit 2 with one line on stderr, return it."""
    from thousand import cli
    with pytest.raises(SystemExit) as exit_info:  # argparse exits; commands return
        raise SystemExit(cli.main(list(args)))
    err = capsys.readouterr().err
    assert exit_info.value.code == 2, err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in err, err
    return lines[0]


def test_an_unknown_option_is_blamed_on_its_subcommand(capsys):
    line = cli_error(capsys, "bid", "AH TH KH QH AD 9S JC", "--foo")
    assert line.startswith("thousand bid: error: unrecognized arguments: --foo")
    assert "thousand bid --help" in line


def test_an_option_is_never_read_as_a_longer_one_it_begins(capsys, tmp_path, monkeypatch):
    # games has --deals-out but no --deals: a shortened option would write a dataset to ./50
    monkeypatch.chdir(tmp_path)
    line = cli_error(capsys, "games", "--games", "10", "--out", "g", "--deals", "50")
    assert line.startswith("thousand games: error: unrecognized arguments: --deals 50")
    assert "unrecognized arguments: --dea 10" in cli_error(capsys, "simulate", "-n", "10", "--dea", "10")
    assert not any(tmp_path.iterdir())


@pytest.mark.parametrize("spec, needle", [
    ("standard:spread=-30", "spread: must be between 1 and"),
    ("standard:spread=0", "spread"),
    ("standard:margin=1e40", "margin: must be between"),
    ("aggressive:gamble=-1", "gamble"),
    ("passive:x=1", "takes no parameters"),
    ("random:seed=3", "takes no parameters"),
    # counts: the kernel would cut 2.5 to 2, so pimc:worlds=2.5 against pimc:worlds=2 compared a strategy with itself
    ("pimc:worlds=2.5", "worlds: must be a whole number (a count), got 2.5"),
    ("pimc:hand_off_pairs=1.9", "hand_off_pairs: must be a whole number"),
])
def test_strategy_parameters_outside_their_range_are_refused(capsys, spec, needle):
    assert needle in cli_error(capsys, "explain", "--strategy", spec)


def test_replay_refuses_the_options_it_would_ignore(tmp_path, capsys):
    from thousand import cli
    trace = tmp_path / "deal.json"
    assert cli.main(["explain", "--seed", "7", "--rules", "russian", "--json"]) == 0
    trace.write_text(capsys.readouterr().out)
    assert "drop --seed, --strategy" in cli_error(capsys, "explain", "--replay", str(trace), "--seed", "9",
                                                  "--strategy", "random")
    assert "played under russian, not classic:bolts=off" in cli_error(
        capsys, "explain", "--replay", str(trace), "--set", "bolts=off")
    assert cli.main(["explain", "--replay", str(trace)]) == 0
    assert "(rules russian)" in capsys.readouterr().out.splitlines()[0]


def test_files_that_are_not_utf8_are_one_line_errors(tmp_path, capsys):
    from thousand import cli
    binary = tmp_path / "bin.json"
    binary.write_bytes(b"\xff\xfe{")
    assert "trace '" in (err := cli_error(capsys, "explain", "--replay", str(binary))) and "is not UTF-8 text" in err
    run = tmp_path / "run"
    assert cli.main(["simulate", "-n", "100", "--out", str(run)]) == 0
    (run / "metadata.json").write_bytes(b"\xff\xfe{")
    assert "metadata.json' is not UTF-8 text" in cli_error(capsys, "simulate", "-n", "100", "--out", str(run), "--resume")
    bad_name = str(tmp_path) + "/bad" + b"\xff".decode("utf-8", "surrogateescape")
    assert "not a UTF-8 name" in cli_error(capsys, "simulate", "-n", "10", "--out", bad_name)


def test_a_plot_path_that_cannot_be_written_is_refused_before_the_estimate(tmp_path, capsys):
    (tmp_path / "d.png").mkdir()
    assert "is a folder" in cli_error(capsys, "bid", "AH TH KH QH AD 9S JC", "--plot", str(tmp_path / "d.png"))


def test_a_file_system_refusal_is_one_line(tmp_path, capsys, monkeypatch):
    # a failure the commands' own checks cannot foresee (here: the write itself fails)
    from thousand.runner import chunks

    def refuse(columns, where, k, compression, token):
        raise PermissionError(13, "Permission denied", str(where))
    monkeypatch.setattr(chunks, "write_chunk", refuse)
    out = tmp_path / "r"
    line = cli_error(capsys, "simulate", "-n", "100", "--out", str(out), "--jobs", "1", "--backend", "threads",
                     "--no-progress")
    assert line == f"thousand simulate: error: Permission denied: {str(out)!r}"
    # bid names its own option (the chart is written after the answer: tests/test_bid_cli.py)
    import thousand.analysis.bids as bids

    def refuse_chart(est, path):
        raise PermissionError(13, "Permission denied", str(path))
    monkeypatch.setattr(bids, "plot_bid_chart", refuse_chart)
    line = cli_error(capsys, "bid", "AH TH KH QH AD 9S JC", "--samples", "2000", "--plot", str(tmp_path / "b.png"))
    assert line == f"thousand bid: error: --plot {str(tmp_path / 'b.png')!r} cannot be written: Permission denied"


@pytest.mark.parametrize("args, needle", [
    (("rules", ""), "empty rule set"),
    (("simulate", "-n", "10", "--rules", " "), "empty rule set"),
    (("simulate", "-n", "10", "--out", ""), "--out is an empty name"),
])
def test_empty_names_are_refused(capsys, args, needle):
    assert needle in cli_error(capsys, *args)


def test_suit_symbols_with_a_presentation_selector_are_read():
    from thousand.cards import parse_hand
    assert parse_hand("A\u2665\ufe0f 10\u2665\ufe0f K\u2665\ufe0e") == parse_hand("AH TH KH")


def test_option_names_are_read_in_any_case():
    from thousand.rules import parse_rules_spec
    assert parse_rules_spec("Classic:BOLTS=off") == parse_rules_spec("classic", ["bolts=off"])


def test_rules_toml_always_names_the_hash(capsys):
    from thousand import cli
    from thousand.rules import PRESETS
    assert cli.main(["rules", "--toml"]) == 0
    assert capsys.readouterr().out.splitlines()[0] == f"# thousand rules: classic (hash {PRESETS['classic'].hash})"


def test_players_random_and_strategy_together_are_refused(capsys):
    assert "give one or the other" in cli_error(capsys, "explain", "--players-random", "--strategy", "greedy")


@pytest.mark.parametrize("args, needle", [
    (("explain", "--replay", ""), "--replay is an empty name"),
    (("bid", "AH TH KH QH AD 9S JC", "--plot", ""), "--plot is an empty name"),
])
def test_empty_file_names_are_refused(capsys, args, needle):
    assert needle in cli_error(capsys, *args)


def test_a_json_file_that_is_no_trace_is_named_so(tmp_path, capsys):
    other = tmp_path / "compare.json"
    other.write_text('[{"metric": "deals_mean"}]')
    assert "is not a deal or game trace" in cli_error(capsys, "explain", "--replay", str(other))


def test_resume_into_a_run_whose_metadata_is_not_an_object(tmp_path):
    simulate(2_000, chunk_size=1_000, out=tmp_path / "r")
    (tmp_path / "r" / "metadata.json").write_text("null")
    assert_one_line_error(run_cli("simulate", "--deals", "2000", "--chunk-size", "1000", "--out", str(tmp_path / "r"),
                                  "--resume"), "metadata.json is damaged: it holds JSON null")


@pytest.mark.parametrize("call, needle", [
    # the Python API's own checks (hostile try-out 14: numpy's errors deep inside, or a
    # string read letter by letter as "unknown rule set 'c'")
    (lambda: _api("compare").compare_rules("classic", n_games=100), "give a list of two or more rule sets, got one"),
    (lambda: _api("compare").compare_rules(["classic", "russian"], n_games=100, jobs=0), "jobs must be a positive"),
    (lambda: _api("match").match("standard", n_deals=100), "give a list of two or more strategies"),
    (lambda: _api("match").match(["greedy", "standard"], n_deals=100, seed=-3), "seed must be a non-negative"),
    (lambda: _api("match").match(["greedy", "standard"], n_deals=100, seed=1.5), "seed must be a non-negative"),
    (lambda: _api("match").match(["greedy", "standard"], n_deals=100, jobs=2.5), "jobs must be a positive"),
    (lambda: _api("match").match(["greedy", "standard"], rules=5, n_deals=100), "rules must be a Rules or a rules"),
    (lambda: _api("bids").estimate_bid(7, "classic", seed=-1), "seed must be a non-negative"),
])
def test_the_python_api_names_a_bad_argument(call, needle):
    with pytest.raises(ThousandError, match=needle):
        call()


def _api(name: str):
    import importlib
    return importlib.import_module(f"thousand.analysis.{name}")


def test_one_item_given_as_a_string_is_a_list_of_one():
    from thousand.rules import parse_rules_spec
    assert parse_rules_spec("classic", "bolts=off") == parse_rules_spec("classic", ["bolts=off"])


def test_games_takes_the_short_option_the_other_commands_give_games(capsys):
    # compare, match and report spell --games -g; games itself had only -n (try-out 16)
    from thousand import cli
    assert cli.main(["games", "-g", "6", "--no-progress"]) == 0
    assert "6 games" in capsys.readouterr().out
