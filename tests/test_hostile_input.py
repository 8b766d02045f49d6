"""Inputs a hostile try-out found mishandled (2026-12-03): each is one error line that
names the problem in the user's terms, or now does what the user meant."""
import json

import pytest

from thousand import cli
from thousand.cards import CardError, parse_card, parse_suit
from thousand.errors import RulesError
from thousand.rules import parse_rules_spec, rule_notes


def error_line(capsys, *args: str) -> str:
    try:
        code = cli.main(list(args))
    except SystemExit as e:   # argparse's own errors leave through exit()
        code = e.code
    assert code == 2
    captured = capsys.readouterr()
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in captured.err, captured.err
    return lines[0]


def test_an_integer_past_pythons_digit_cap_in_a_rules_file_is_one_line(tmp_path, capsys):
    path = tmp_path / "big.toml"
    path.write_text("bid_step = 1" + "0" * 5000 + "\n")
    line = error_line(capsys, "rules", str(path))
    assert "is not valid TOML: a number has more than 4,300 digits" in line
    assert "set_int_max_str_digits" not in line


def test_an_integer_past_pythons_digit_cap_in_a_trace_is_named_plainly(tmp_path, capsys):
    path = tmp_path / "trace.json"
    path.write_text('{"hands": [1' + "0" * 5000 + "]}")
    line = error_line(capsys, "solve", "--trace", str(path))
    assert "is not valid JSON: a number has more than 4,300 digits" in line
    assert "set_int_max_str_digits" not in line


def test_a_seed_too_long_for_python_says_so(capsys):
    line = error_line(capsys, "explain", "--seed", "1" * 5001)
    assert "must have at most 4,300 digits, got 5,001" in line


def test_an_empty_override_is_refused_as_a_bad_one(capsys):
    for args in (["rules", "classic", "--set", ""], ["rules", "classic:,,"]):
        assert "empty rule override" in error_line(capsys, *args)
    assert parse_rules_spec("classic:") == parse_rules_spec("classic")   # nothing after the colon: the preset


def test_blind_at_two_players_is_noted_as_without_effect():
    notes = rule_notes(parse_rules_spec("classic:players=2,blind=on"))
    assert any(n.startswith("blind has no effect at 2 players") for n in notes)
    assert not any("blind" in n for n in rule_notes(parse_rules_spec("classic:players=3,blind=on")))


def test_golden_kon_at_two_players_is_noted_with_its_double_deal():
    # the engine gives deal 1 and 3 to the same forehand: said, since the sources have 3 players
    notes = rule_notes(parse_rules_spec("classic:players=2,golden_kon=on"))
    assert any(n.startswith("golden_kon at 2 players: the three golden deals go to the forehand in turn") for n in notes)
    for players in (3, 4):
        assert not rule_notes(parse_rules_spec(f"classic:players={players},golden_kon=on"))


def test_a_chart_that_cannot_be_written_names_the_path_given(capsys):
    line = error_line(capsys, "bid", "AH TH KH QH AD 9S JC", "--samples", "50", "--plot", "/proc/x.png")
    assert "'/proc/x.png'" in line and ".tmp" not in line


@pytest.mark.parametrize("text, suit", [("♡", 3), ("♤", 0), ("spade", 0), ("Hearts", 3), ("d", 2), ("♣\ufe0f", 1)])
def test_a_suit_is_read_as_cards_write_it_or_by_name(text, suit):
    assert parse_suit(text) == suit


def test_trump_takes_every_suit_spelling_cards_take(capsys):
    hands = "A♡ 10♡ | K♡ 9♤ | Q♡ J♤"
    assert cli.main(["solve", "--hands", hands, "--trump", "♠", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["trump"] == "S"
    assert cli.main(["solve", "--hands", hands, "--trump", "spade", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["trump"] == "S"
    assert "--trump: unknown suit 'x'" in error_line(capsys, "solve", "--hands", hands, "--trump", "x")


@pytest.mark.parametrize("token, needle", [
    ("AHTH", "cards written together; separate them with spaces: AH TH"),
    ("AH10H", "cards written together; separate them with spaces: AH 10H"),
    ("JSpades", "write the suit as a letter or symbol: JS"),
    ("10hearts", "write the suit as a letter or symbol: 10H"),
    ("XH", "unknown rank 'X'"),
])
def test_a_token_that_is_no_card_gets_the_likely_reason(token, needle):
    with pytest.raises(CardError, match=needle):
        parse_card(token)


def test_a_huge_input_quoted_back_is_clipped(capsys):
    for args in (["solve", "--hands", "X" * 5000 + " | AH | KH"], ["rules", "classic", "--set", "bolts=" + "X" * 5000],
                 ["simulate", "--deals", "X" * 5000]):
        line = error_line(capsys, *args)
        assert len(line) < 400 and "(5,00" in line and "characters)" in line


def test_bid_jobs_without_solve_is_refused(capsys):
    line = error_line(capsys, "bid", "AH TH KH QH AD 9S JC", "--jobs", "2")
    assert "--jobs sets the worker processes of --solve" in line


def test_one_reachable_contract_is_written_once(capsys):
    # 120 taken (the heart marriage and 20 card points), the ace of trumps takes the last trick: 138
    assert cli.main(["solve", "--hands", "AH | KS | QS", "--trump", "H", "--taken", "120,41,41",
                     "--set", "bid_step=50", "--set", "barrel_at=none"]) == 0
    line = next(x for x in capsys.readouterr().out.splitlines() if x.startswith("contracts:"))
    assert line.startswith("contracts: reachable 100, not 150..400 (")


def test_rules_error_is_a_value_error_for_callers():
    with pytest.raises(RulesError):
        parse_rules_spec("classic", [""])


@pytest.mark.parametrize("text, shown", [("players = true", "got true"), ("bid_step = 1979-05-27", "got 1979-05-27"),
                                         ("players = [1, 2]", "got [1, 2]")])
def test_a_rules_file_value_is_quoted_as_the_file_wrote_it(tmp_path, capsys, text, shown):
    path = tmp_path / "r.toml"
    path.write_text(text + "\n")
    line = error_line(capsys, "rules", str(path))
    assert line.endswith(shown) and "datetime" not in line and "True" not in line


def _entry_with(main_body: str):
    import subprocess
    import sys
    code = ("import atexit, signal, thousand.cli as c\n"
            f"def main():\n    {main_body}\n"
            "c.main = main\n"
            "atexit.register(lambda: print('ignored' if signal.getsignal(signal.SIGINT) is signal.SIG_IGN else 'live'))\n"
            "from thousand.launch import entry\nentry()\n")
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)


def test_after_the_command_a_ctrl_c_cannot_break_the_workers_shutdown():
    # loky joins its workers at exit: an interrupt there left a traceback or a hang
    done = _entry_with("return 0")
    assert done.returncode == 0 and done.stdout.strip() == "ignored" and done.stderr == ""


def test_a_ctrl_c_while_the_command_loads_is_one_line():
    stopped = _entry_with("raise KeyboardInterrupt")
    assert stopped.returncode == 130 and stopped.stderr.strip() == "thousand: interrupted"


def test_the_console_command_is_the_launcher():
    import tomllib
    from pathlib import Path
    project = tomllib.loads((Path(__file__).parents[1] / "pyproject.toml").read_text())
    assert project["project"]["scripts"]["thousand"] == "thousand.launch:entry"


def test_a_match_too_large_for_its_chunks_is_refused_before_any_work(capsys):
    line = error_line(capsys, "match", "--strategy", "greedy", "--strategy", "standard", "--deals", "1000000000")
    assert "a match plays at most 200,000,000 deals (100,000 chunks of 2,000)" in line
    line = error_line(capsys, "match", "--strategy", "greedy", "--strategy", "standard", "--games", "1000",
                      "--precision", "0.001", "--cap", "10000000")
    assert "--cap 10,000,000: a match plays at most 4,000,000 games" in line
    # with --precision and no --cap, the limit is named, not a --cap the user never gave
    line = error_line(capsys, "match", "--strategy", "greedy", "--strategy", "standard", "--games", "5000000",
                      "--precision", "0.5")
    assert "--games 5,000,000: a match plays at most 4,000,000 games" in line and "--cap" not in line
    line = error_line(capsys, "match", "--strategy", "greedy", "--strategy", "standard", "--deals", "10",
                      "--precision", "1", "--cap", "5")
    assert "--cap 5 is below --deals 10" in line


def test_a_precision_match_says_whether_it_met_its_target(capsys):
    args = ["match", "--strategy", "greedy", "--strategy", "standard", "--deals", "2000", "--precision", "0.1",
            "--cap", "4000", "--no-progress"]
    assert cli.main(args) == 0
    assert "(--precision 0.1: NOT met (--cap reached); the widest main interval is" in capsys.readouterr().out
    assert cli.main([*args, "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert all(r["precision"] == 0.1 and r["precision_met"] is False for r in rows)


def test_polars_full_disk_is_the_oserror_it_is(tmp_path, monkeypatch):
    import errno

    import numpy as np
    import polars as pl

    from thousand.runner import store

    def full(self, *a, **k):
        raise pl.exceptions.ComputeError("parquet: underlying IO error: No space left on device (os error 28)")

    monkeypatch.setattr(pl.DataFrame, "write_parquet", full)
    with pytest.raises(OSError) as e:
        store.write_chunk({"x": np.arange(3)}, tmp_path, 0, "zstd", "tok")
    assert e.value.errno == errno.ENOSPC and e.value.filename == str(tmp_path / store.chunk_file(0))
    assert list(tmp_path.iterdir()) == []   # neither the chunk nor its temporary file, nor a record


def test_deals_out_without_out_is_refused_before_any_work(tmp_path, capsys):
    # without --out an interrupted games run could neither resume nor use its deal chunks
    line = error_line(capsys, "games", "--games", "100", "--deals-out", str(tmp_path / "d"))
    assert "--deals-out needs --out" in line and not (tmp_path / "d").exists()


def test_resuming_with_other_rules_names_the_options_not_hashes(tmp_path, capsys):
    out = str(tmp_path / "r")
    assert cli.main(["simulate", "--deals", "2000", "--out", out, "--no-progress"]) == 0
    capsys.readouterr()
    line = error_line(capsys, "simulate", "--deals", "2000", "--out", out, "--resume", "--set", "bolts=off",
                      "--no-progress")
    assert 'it was run with other rules: bolts="always", not "off"' in line and "hash" not in line


def test_an_interrupted_match_says_what_it_kept(tmp_path, capsys, monkeypatch):
    from thousand.analysis import match

    real = match.run_chunk

    def stop_at_third(task):
        if task.index == 2:
            raise KeyboardInterrupt
        return real(task)

    monkeypatch.setattr(match, "run_chunk", stop_at_third)
    out = tmp_path / "m"
    with pytest.raises(KeyboardInterrupt):
        match.match(["greedy", "standard"], n_deals=8000, out=out, backend="threads", jobs=1, progress=False)
    err = capsys.readouterr().err
    assert f"interrupted: 2 of 4 chunks are written in {out}; run the same command with --resume" in err


# --------------------------------------------------------------------------- third try-out's leftovers
def test_a_strategy_written_with_its_default_values_is_the_same_strategy(tmp_path, capsys):
    from thousand.strategies import canonical
    assert canonical("standard:margin=10") == canonical("standard") == "standard"
    assert canonical("standard:margin=25") == "standard:margin=25"
    out = str(tmp_path / "r")
    assert cli.main(["simulate", "--deals", "1500", "--out", out, "--no-progress"]) == 0
    assert cli.main(["simulate", "--deals", "1500", "--out", out, "--resume", "--strategy", "standard:margin=10",
                     "--no-progress"]) == 0
    assert "nothing to compute" in capsys.readouterr().out
    line = error_line(capsys, "simulate", "--deals", "1500", "--out", out, "--resume", "--strategy",
                      "standard:margin=25", "--no-progress")
    assert "cannot resume" in line and "standard:margin=25" in line


@pytest.mark.parametrize("args, said", [
    (["--set", "bolts=off", "--set", "bolts=always"], "--set bolts is given twice, as off and as always"),
    (["classic:bolts=off,bolts=always"], "rule option bolts is given twice, as off and as always"),
    (["--set", "barrel_at=900,barrel_at=none"], "rule option barrel_at is given twice, as 900 and as none"),
])
def test_one_option_given_two_values_is_refused_not_settled_by_order(capsys, args, said):
    assert said in error_line(capsys, "rules", *args)


@pytest.mark.parametrize("command", [["explain", "--seed", "5"], ["solve", "--seed", "5"]])
def test_a_player_parameter_given_twice_is_refused_as_bid_and_match_refuse_it(capsys, command):
    # explain and solve took the last value without a word (hostile try-out, stop 33)
    line = error_line(capsys, *command, "--strategy", "standard:margin=1,margin=200")
    assert "parameter margin is given twice in 'standard:margin=1,margin=200'" in line


def test_the_same_value_twice_and_a_set_over_the_specs_own_value_are_fine():
    assert parse_rules_spec("classic", ["bolts=off", "bolts=OFF"]).bolts == "off"
    assert parse_rules_spec("classic:bolts=off", ["bolts=always"]).bolts == "always"   # --set wins, as documented


def test_more_jobs_than_cores_gets_a_note_and_runs(capsys, monkeypatch):
    monkeypatch.setattr(cli.os, "cpu_count", lambda: 2)
    assert cli.main(["simulate", "--deals", "300", "--jobs", "3", "--no-progress", "--backend", "threads"]) == 0
    err = capsys.readouterr().err
    assert "note: --jobs 3 is more than this machine's 2 cores" in err
    assert cli.main(["simulate", "--deals", "300", "--jobs", "2", "--no-progress", "--backend", "threads"]) == 0
    assert "note:" not in capsys.readouterr().err
    # a command that refuses its options says only that (the note came first, stop 33)
    line = error_line(capsys, "bid", "AH TH KH QH AD 9S JC", "--samples", "100", "--jobs", "3")
    assert "add --solve (or drop --jobs)" in line


def test_report_names_the_folder_it_cannot_make_and_refuses_a_non_utf8_out_before_making_any(tmp_path, capsys):
    out = tmp_path / "rw"
    out.mkdir()
    (out / "tables").write_text("mine")
    line = error_line(capsys, "report", "--deals", "100", "--out", str(out), "--no-progress")
    assert line.endswith(f"cannot create output directory {str(out / 'tables')!r}: a file is in the way")
    bad = str(tmp_path).encode() + b"/bad\xff"
    import os
    line = error_line(capsys, "report", "--deals", "100", "--out", os.fsdecode(bad), "--no-progress")
    assert "is not a UTF-8 name" in line and os.listdir(tmp_path) == ["rw"]


def test_chunks_whose_metadata_was_deleted_are_named_not_called_foreign(tmp_path, capsys):
    out = tmp_path / "r"
    assert cli.main(["simulate", "--deals", "1000", "--out", str(out), "--no-progress"]) == 0
    capsys.readouterr()
    (out / "metadata.json").unlink()
    line = error_line(capsys, "simulate", "--deals", "1000", "--out", str(out), "--resume", "--no-progress")
    assert "holds chunk files but no metadata.json (deleted?)" in line
    assert sorted(p.name for p in out.iterdir()) == ["chunk-000000.parquet"]   # nothing removed


def test_a_talon_condition_a_two_card_talon_cannot_meet_is_noted():
    notes = rule_notes(parse_rules_spec("classic:players=2,redeal_talon_nines=3"))
    assert "redeal_talon_nines=3 can never be met at 2 players (a talon holds 2 cards)" in notes
    assert not rule_notes(parse_rules_spec("classic:players=3,redeal_talon_nines=3"))
