"""``thousand match`` on the command line: one-line errors, the JSON schema, --out and --resume."""
import json

import polars as pl
import pytest

from thousand.cli import main

SMALL = ["--deals", "300", "--jobs", "1", "--no-progress"]


def one_line_error(capsys, argv, needle):
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "Traceback" not in err
    assert err.startswith("thousand match: error:") and needle in err, err
    return err


@pytest.mark.parametrize("argv, needle", [
    (["match"], "at least two strategies"),
    (["match", "--strategy", "standard"], "at least two strategies"),
    (["match", "--strategy", "standard", "--strategy", "nobody"], "unknown strategy 'nobody'"),
    (["match", "--strategy", "standard", "--strategy", "standard"], "given twice"),
    (["match", "--strategy", "standard", "--strategy", "standard:margin=10"], "given twice"),
    (["match", "--strategy", "standard", "--strategy", "standard:margin=abc"], "must be a number"),
    (["match", "--strategy", "standard", "--strategy", "greedy", "--rules", "nosuch"], "unknown rule set 'nosuch'"),
    (["match", "--strategy", "standard", "--strategy", "greedy", "--set", "bolts=sometimes"], "bolts: must be one of"),
    (["match", "--strategy", "standard", "--strategy", "greedy", "--deals", "1"], "at least 2"),
    (["match", "--strategy", "standard", "--strategy", "greedy", "--precision", "0"], "--precision must be a positive"),
    (["match", "--strategy", "standard", "--strategy", "greedy", "--precision", "nan"], "--precision must be"),
    (["match", "--strategy", "standard", "--strategy", "greedy", "--cap", "100"], "give --precision too"),
    (["match", "--strategy", "standard", "--strategy", "greedy", "--games", "20", "--precision", "5"],
     "--precision with --games is the width of the win share's interval, below 1"),
    (["match", "--strategy", "standard", "--strategy", "greedy", "--jobs", "0"], "--jobs must be"),
    (["match", "--strategy", "standard", "--strategy", "greedy", "--resume"], "give --out"),
    (["match", "--strategy", "standard", "--strategy", "greedy", "--backend", "mpi"], "unknown backend 'mpi'"),
    (["match", "--strategy", "standard", "--strategy", "greedy", "--out", ""], "--out is an empty name"),
    (["match", "--strategy", "standard", "--strategy", "greedy", "--games", "5", "--control-variate"], "with --deals"),
    (["match", "--strategy", "standard", "--strategy", "greedy", "--set", "players=2", "--control-variate"],
     "3 or 4 players"),
])
def test_bad_input_is_one_line(capsys, argv, needle):
    one_line_error(capsys, argv, needle)


def test_deals_and_games_together_are_refused(capsys):
    with pytest.raises(SystemExit) as e:
        main(["match", "--strategy", "standard", "--strategy", "greedy", "--games", "10", "--deals", "10"])
    assert e.value.code == 2
    assert "not allowed with argument" in capsys.readouterr().err


def test_json_has_one_object_per_pair_and_metric(capsys):
    assert main(["match", "--strategy", "random", "--strategy", "greedy", "--strategy", "standard", *SMALL,
                 "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    pairs = {(o["a"], o["b"]) for o in data if o["b"] != "field"}
    assert pairs == {("random", "greedy"), ("random", "standard"), ("greedy", "standard")}
    for o in data:
        for key in ("a", "b", "metric", "value", "ci_low", "ci_high", "n"):
            assert key in o
        assert o["n"] == 300
        if o["value"] is not None:
            assert o["ci_low"] <= o["value"] <= o["ci_high"]
    metrics = [o["metric"] for o in data if (o["a"], o["b"]) == ("greedy", "standard")]
    assert metrics[0] == "points_per_deal" and len(metrics) == len(set(metrics))
    assert {"points_as_declarer", "points_as_defender", "made_when_declaring", "beaten_when_defending",
            "mean_bid", "resigned"} <= set(metrics)
    ratings = [o for o in data if o["b"] == "field"]
    assert [o["a"] for o in ratings] == ["random", "greedy", "standard"]
    # the per-seat difference is the difference of the two per-seat values
    o = next(o for o in data if o["metric"] == "points_per_deal" and o["a"] == "greedy")
    assert o["value"] == pytest.approx(o["a_value"] - o["b_value"])


def test_games_json_has_the_share_won_alone(capsys):
    assert main(["match", "--strategy", "greedy", "--strategy", "standard", "--games", "12", "--jobs", "1",
                 "--no-progress", "--json"]) == 0
    data = {o["metric"]: o for o in json.loads(capsys.readouterr().out)}
    share = data["win_share_alone"]
    assert share["even"] == pytest.approx(1 / 3) and 0 <= share["ci_low"] <= share["value"] <= share["ci_high"] <= 1
    assert "final_score" in data


def test_out_writes_the_rows_and_resume_finds_the_run_complete(tmp_path, capsys):
    out = tmp_path / "m"
    argv = ["match", "--strategy", "greedy", "--strategy", "standard", *SMALL, "--out", str(out)]
    assert main(argv) == 0
    first = capsys.readouterr().out
    assert "greedy (A) vs standard (B)" in first and "points_per_deal" in first
    rows = pl.read_parquet(sorted(out.glob("chunk-*.parquet")))
    assert rows.height == 300 * 6
    assert {"deal", "seating", "strategy0", "hand0", "score0", "declarer"} <= set(rows.columns)
    one_line_error(capsys, argv, "--resume")
    assert main([*argv, "--resume"]) == 0
    assert capsys.readouterr().out.split("\n")[1:] == first.split("\n")[1:]   # the timing line aside


def test_a_precision_run_resumed_without_its_precision_names_it_not_its_internal_size(tmp_path, capsys):
    # it said "it was run with n=640000, not 300": the cap a --precision run plays up to
    # (hostile try-out, stop 33)
    out = tmp_path / "m"
    argv = ["match", "--strategy", "greedy", "--strategy", "standard", *SMALL, "--out", str(out)]
    assert main([*argv, "--precision", "50"]) == 0
    capsys.readouterr()
    one_line_error(capsys, [*argv, "--resume"], "it was run with --precision 50; give it again to continue")
    one_line_error(capsys, [*argv, "--resume", "--precision", "40"], "it was run with precision=50.0, not 40.0")
    assert main([*argv, "--resume", "--precision", "50"]) == 0
