"""``thousand match`` on the command line: one-line errors, the JSON schema, --out and --resume."""
import json

import polars as pl
import pytest

from thousand.cli import main
from thousand.rules import CLASSIC, parse_rules_spec

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
    # explain, solve and play take the reference's test player; the kernel's commands say why not (try-out 28)
    (["match", "--strategy", "standard", "--strategy", "passive"],
     "strategy 'passive' is a test player of the reference engine (thousand explain, solve and play take it)"),
    (["match", "--strategy", "standard", "--strategy", "standard"], "given twice"),
    (["match", "--strategy", "standard", "--strategy", "standard:margin=10"], "given twice"),
    # a preset against its branch given the preset's parameters: one strategy (try-out 22)
    (["match", "--strategy", "aggressive", "--strategy",
      "standard:margin=0,raise_margin=25,talon=1.4,redeal_below=85,resign_bias=10,blind_gap=400"], "given twice"),
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
    # one schema for the pairs' rows and the ratings, each naming its rule set (hostile try-out 13)
    assert all(list(o) == list(data[0]) for o in data)
    assert {(o["rules"], o["rules_hash"]) for o in data} == {("classic", CLASSIC.hash)}
    assert all(o["kind"] == "rating" and o["unit"] == "points" and o["a_value"] is None for o in ratings)
    # the per-seat difference is the difference of the two per-seat values
    o = next(o for o in data if o["metric"] == "points_per_deal" and o["a"] == "greedy")
    assert o["value"] == pytest.approx(o["a_value"] - o["b_value"])


def test_the_text_and_the_control_variates_ratings_say_what_they_are(capsys):
    argv = ["match", "--strategy", "random", "--strategy", "greedy", "--strategy", "standard", "--deals", "60",
            "--jobs", "1", "--no-progress", "--rules", "russian", "--control-variate"]
    assert main(argv) == 0
    assert capsys.readouterr().out.splitlines()[1] == f"rules russian (hash {parse_rules_spec('russian').hash})"
    assert main([*argv, "--json"]) == 0
    cv = [o for o in json.loads(capsys.readouterr().out) if o["metric"] == "rating_points_per_deal_cv"]
    assert len(cv) == 3 and all(o["variance_reduction"] is not None and o["variance_reduction"] < 1 for o in cv)


def test_games_that_end_without_a_winner_are_counted_and_said(capsys, tmp_path):
    # max_deals=25 stops some games before anyone reaches 1000: no win share counts them
    argv = ["match", "--strategy", "greedy", "--strategy", "standard", "--games", "40", "--jobs", "1",
            "--no-progress", "--set", "max_deals=25", "--out", str(tmp_path / "m")]
    assert main([*argv, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    games = pl.read_parquet(sorted((tmp_path / "m").glob("chunk-*.parquet")))
    share = (games["winner"] < 0).mean()
    assert 0 < share < 1 and all(o["no_winner"] == pytest.approx(share) for o in data)
    assert main([*argv, "--resume"]) == 0
    out = capsys.readouterr().out.splitlines()
    said = next(x for x in out if "with no winner" in x)
    assert said == (f"{100 * share:.1f}% of the games stopped at max_deals=25 with no winner: no share counts them "
                    f"as won, so an even match wins {100 * (1 - share) / 3:.1f}% of the games alone, not 33.3%")
    # the row says the same even share (it said 33.3% beside that line: try-out 28)
    row = next(x for x in out if x.strip().startswith("win_share_alone"))
    assert row.endswith(f"(even {100 * (1 - share) / 3:.1f}%, the no-winner games counted)")
    assert main(["match", "--strategy", "greedy", "--strategy", "standard", "--games", "12", "--jobs", "1",
                 "--no-progress", "--json"]) == 0
    assert {o["no_winner"] for o in json.loads(capsys.readouterr().out)} == {0}


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


def _edit_metadata(folder, **changes):
    path = folder / "metadata.json"
    meta = json.loads(path.read_text())
    meta.update(changes)
    path.write_text(json.dumps(meta))


def test_a_run_of_another_kernel_build_is_not_resumed_into(tmp_path, capsys):
    """--resume refuses units written by another kernel (hostile try-out 5: match and
    compare did not record the kernel's version, simulate did)."""
    out = tmp_path / "m"
    argv = ["match", "--strategy", "greedy", "--strategy", "standard", *SMALL, "--out", str(out)]
    assert main(argv) == 0
    capsys.readouterr()
    _edit_metadata(out, kernel_version=-1)
    one_line_error(capsys, [*argv, "--resume"], "another build of the kernel (kernel_version=-1, not ")
    _edit_metadata(out, kernel_version=None)   # as a match written before the key was
    one_line_error(capsys, [*argv, "--resume"], "a build of the kernel it did not record")
    units = tmp_path / "c"
    cmp = ["compare", "--rules", "classic", "--rules", "classic:bolts=off", "--games", "20", "--jobs", "1",
           "--no-progress", "--out", str(units)]
    assert main(cmp) == 0
    capsys.readouterr()
    first = sorted(units.glob("units/*/metadata.json"))[0].parent
    _edit_metadata(first, kernel_version=-1)
    assert main([*cmp, "--resume"]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "another build of the kernel (kernel_version=-1, not " in err, err


def test_another_commands_data_is_named_not_resumed_into_or_written_beside(tmp_path, capsys):
    match_out, sim_out = tmp_path / "m", tmp_path / "s"
    assert main(["match", "--strategy", "greedy", "--strategy", "standard", *SMALL, "--out", str(match_out)]) == 0
    assert main(["simulate", "--deals", "300", "--jobs", "1", "--out", str(sim_out)]) == 0
    capsys.readouterr()
    assert main(["simulate", "--deals", "300", "--out", str(match_out), "--resume"]) == 2
    assert capsys.readouterr().err.strip() == (
        f"thousand simulate: error: cannot resume {str(match_out)!r}: it holds a thousand match run, not a "
        "thousand simulate run; choose another --out")
    assert main(["games", "--games", "10", "--out", str(sim_out), "--resume"]) == 2
    assert "it holds a thousand simulate run, not a thousand games run" in capsys.readouterr().err
    before = sorted(p.name for p in sim_out.iterdir())
    assert main(["compare", "--rules", "classic", "--rules", "classic:bolts=off", "--games", "20",
                 "--no-progress", "--out", str(sim_out)]) == 2
    assert capsys.readouterr().err.strip() == (
        f"thousand compare: error: {str(sim_out)!r} holds a thousand simulate run; give thousand compare another --out")
    assert sorted(p.name for p in sim_out.iterdir()) == before


def test_few_deals_say_so_and_share_differences_stay_within_100_points(capsys):
    """On 2 deals the delta method's interval of a share's difference reached -457%
    (hostile try-out 5): two shares differ by at most 100 percentage points."""
    assert main(["match", "--strategy", "greedy", "--strategy", "standard", "--deals", "2", "--jobs", "1",
                 "--no-progress", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    shares = [r for r in rows if r["unit"] == "share" and r["kind"] == "difference"]
    assert shares and all(-1 <= r["ci_low"] <= r["value"] <= r["ci_high"] <= 1 for r in shares), shares
    assert main(["match", "--strategy", "greedy", "--strategy", "standard", "--deals", "2", "--jobs", "1",
                 "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert "Only 2 deals: the intervals use Student t with 1 degree of freedom" in out
    assert main(["match", "--strategy", "greedy", "--strategy", "standard", *SMALL]) == 0
    assert "Only" not in capsys.readouterr().out


def test_a_parameter_a_hair_off_its_default_is_another_strategy(capsys):
    # it was shown as standard:margin=10 (the default) and passed the "given twice" check
    assert main(["match", "--strategy", "standard", "--strategy", "standard:margin=10.000000001",
                 "--deals", "20", "--jobs", "1", "--no-progress"]) == 0
    assert "standard (A) vs standard:margin=10.000000001 (B)" in capsys.readouterr().out


def test_match_help_names_every_strategy_it_takes(capsys):
    # explain offers passive, match refused it unannounced (try-out 7): the help says which
    from thousand.strategies import STRATEGIES
    with pytest.raises(SystemExit):
        main(["match", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert all(name in text for name in STRATEGIES) and "passive is not one" in text


def test_the_text_table_has_no_padding_after_its_last_column(capsys):
    # every row ended in spaces, unlike the README's quoted output (try-out 23)
    assert main(["match", "--strategy", "greedy", "--strategy", "standard", "--deals", "300", "--jobs", "1",
                 "--no-progress"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert any("95% interval" in x for x in lines) and all(x == x.rstrip() for x in lines)


def test_with_three_strategies_the_rows_even_share_says_it_assumes_a_winner(capsys):
    # a pair's own no-winner share is not kept apart from the match's: the row says what its
    # 33.3% assumes instead of contradicting the footnote's match-wide figure
    assert main(["match", "--strategy", "random", "--strategy", "greedy", "--strategy", "standard", "--games", "3",
                 "--jobs", "1", "--no-progress", "--set", "max_deals=5"]) == 0
    rows = [x for x in capsys.readouterr().out.splitlines() if x.startswith("  win_share_alone ")]
    assert len(rows) == 3 and all(x.endswith("(even 33.3% if every game had a winner)") for x in rows)
