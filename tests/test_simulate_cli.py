"""`thousand simulate` and `thousand games` as a user meets them."""
from __future__ import annotations

import pytest

from thousand import cli
from thousand import simulate as sim

def run(capsys, *args: str) -> tuple[int, str, str]:
    code = cli.main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_simulate_writes_a_dataset_and_a_final_line(tmp_path, capsys):
    code, out, err = run(capsys, "simulate", "--deals", "3000", "--chunk-size", "1000", "--jobs", "2",
                         "--backend", "threads", "--seed", "4", "--out", str(tmp_path / "r"))
    assert code == 0 and err == ""  # not a terminal: no progress bar
    line, = out.splitlines()
    rows = sim.load(tmp_path / "r").collect().height
    assert line.startswith(f"3,000 deals, {rows:,} rows with the redealt deals, in ")
    assert " s: " in line and "deals/s" in line
    meta = sim.read_metadata(tmp_path / "r")
    assert meta["n"] == 3000 and meta["seed"] == 4 and meta["strategies"] == ["standard"] * 3
    assert rows >= 3000


def test_strategy_once_for_all_seats_or_once_per_seat(tmp_path, capsys):
    assert run(capsys, "simulate", "-n", "500", "--strategy", "random", "--out", str(tmp_path / "a"))[0] == 0
    assert sim.read_metadata(tmp_path / "a")["strategies"] == ["random"] * 3
    code, _, _ = run(capsys, "simulate", "-n", "500", "--strategy", "random", "--strategy", "greedy",
                     "--strategy", "standard", "--out", str(tmp_path / "b"))
    assert code == 0
    assert [s.split(":")[0] for s in sim.read_metadata(tmp_path / "b")["strategies"]] == [
        "random", "greedy", "standard"]
    code, out, err = run(capsys, "simulate", "-n", "500", "--strategy", "random", "--strategy", "greedy")
    assert code == 2 and len(err.strip().splitlines()) == 1 and "one per seat" in err


def test_rules_and_set_reach_the_metadata(tmp_path, capsys):
    code, _, _ = run(capsys, "simulate", "-n", "500", "--rules", "russian", "--set", "bolts=off",
                     "--out", str(tmp_path / "r"))
    assert code == 0
    assert sim.read_metadata(tmp_path / "r")["rules_description"] == "russian:bolts=off"


@pytest.mark.parametrize("args, needle", [
    (["--deals", "-3"], "positive"),
    (["--deals", "100", "--backend", "mpi"], "unknown backend"),
    (["--deals", "100", "--jobs", "0"], "jobs"),
    (["--deals", "100", "--resume"], "--resume needs --out"),
    (["--deals", "100", "--scheduler", "tcp://127.0.0.1:9"], "--backend dask"),
    (["--deals", "100", "--rules", "nonsense"], "unknown rule set"),
    (["--deals", "100", "--set", "bolts=maybe"], "bolts"),
])
def test_bad_input_is_one_line_and_exit_2(capsys, args, needle):
    code, out, err = run(capsys, "simulate", *args)
    assert code == 2
    assert len(err.strip().splitlines()) == 1 and needle in err and err.startswith("thousand simulate: error:")


def test_resume_mismatch_and_existing_output_exit_2(tmp_path, capsys):
    out = str(tmp_path / "r")
    assert run(capsys, "simulate", "-n", "1000", "--chunk-size", "500", "--out", out)[0] == 0
    code, _, err = run(capsys, "simulate", "-n", "1000", "--chunk-size", "500", "--out", out)
    assert code == 2 and "--resume" in err
    code, _, err = run(capsys, "simulate", "-n", "1000", "--chunk-size", "500", "--out", out, "--resume",
                       "--seed", "99")
    assert code == 2 and "cannot resume" in err and "seed=" in err and len(err.strip().splitlines()) == 1
    code, out_text, _ = run(capsys, "simulate", "-n", "1000", "--chunk-size", "500", "--out", out, "--resume")
    assert code == 0 and "nothing to compute: all 1,000 deals were already written" in out_text


def test_unwritable_out_is_exit_2(tmp_path, capsys):
    (tmp_path / "f").write_text("x")
    code, _, err = run(capsys, "simulate", "-n", "100", "--out", str(tmp_path / "f" / "run"))
    assert code == 2 and "cannot create output directory" in err


def test_games_with_deals_out(tmp_path, capsys):
    code, out, err = run(capsys, "games", "--games", "120", "--chunk-size", "50", "--out", str(tmp_path / "g"),
                         "--deals-out", str(tmp_path / "d"), "--jobs", "1")
    assert code == 0, err
    assert out.startswith("120 games in ") and "games/s" in out
    assert sim.load(tmp_path / "g").collect().height == 120
    assert sim.read_metadata(tmp_path / "d")["rows"] == "deals"


def test_help_teaches_with_examples():
    parser = cli.build_parser()
    for command in ("simulate", "games"):
        with pytest.raises(SystemExit) as e:
            parser.parse_args([command, "--help"])
        assert e.value.code == 0
    from thousand.commands import games_cmd, simulate_cmd
    assert "--resume" in simulate_cmd.DESCRIPTION and "thousand simulate --deals" in simulate_cmd.DESCRIPTION
    assert "--deals-out" in games_cmd.DESCRIPTION


@pytest.mark.parametrize("command", ["simulate", "games"])
def test_every_help_example_parses_and_names_real_strategies(command):
    import shlex

    from thousand.commands import games_cmd, simulate_cmd
    from thousand.rules import parse_rules_spec
    description = (simulate_cmd if command == "simulate" else games_cmd).DESCRIPTION
    examples = [line.strip() for line in description.splitlines() if line.strip().startswith("thousand ")]
    assert len(examples) >= 3
    parser = cli.build_parser()
    for line in examples:
        words = shlex.split(line.split("   ")[0])  # drop the trailing comment
        args = parser.parse_args(words[1:])
        assert args.command == command
        rules = parse_rules_spec(args.rules, args.overrides)
        sim.normalize_strategies(args.strategy, rules.players)


NUMPY_REFUSAL = "Unable to allocate 58.6 MiB for an array with shape (7680000,) and data type int64"


def test_a_chunk_out_of_memory_is_one_line_and_keeps_the_chunks_written(tmp_path, capsys, monkeypatch):
    """A refused allocation in a chunk (a container's memory limit) names the chunk's size
    and what to lower, keeps the chunks finished, and --resume finishes the run as if
    nothing had happened."""
    from thousand.runner import chunks
    real = chunks.run_chunk

    def third_refused(task):
        if task.index == 2:
            raise MemoryError(NUMPY_REFUSAL)
        return real(task)
    monkeypatch.setattr(chunks, "run_chunk", third_refused)
    args = ["simulate", "--deals", "1500", "--chunk-size", "500", "--jobs", "1", "--backend", "threads",
            "--seed", "3", "--out", str(tmp_path / "r")]
    code, out, err = run(capsys, *args)
    assert code == 2 and out == ""
    assert err.strip() == (f"thousand simulate: error: out of memory in a chunk of 500 deals (Unable to allocate "
                           f"58.6 MiB): lower --chunk-size or --jobs; 2 of 3 chunks are written in "
                           f"{tmp_path / 'r'}; run the same command with --resume to finish")
    monkeypatch.setattr(chunks, "run_chunk", real)
    assert run(capsys, *args, "--resume")[0] == 0
    assert run(capsys, "simulate", "--deals", "1500", "--chunk-size", "500", "--seed", "3",
               "--out", str(tmp_path / "whole"))[0] == 0
    assert sim.load(tmp_path / "r").collect().equals(sim.load(tmp_path / "whole").collect())


def test_out_of_memory_outside_a_run_is_one_line(capsys, monkeypatch):
    """Any command: a refused allocation is one line naming what to lower, exit 2."""
    from thousand.analysis import bids

    def refused(*a, **k):
        raise MemoryError(NUMPY_REFUSAL)
    monkeypatch.setattr(bids, "estimate_bid", refused)
    code, out, err = run(capsys, "bid", "AH TH KH QH AD 9S JC", "--samples", "100")
    assert code == 2
    assert err.strip() == ("thousand bid: error: out of memory (Unable to allocate 58.6 MiB); lower --jobs")
