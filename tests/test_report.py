"""The report on a small run: files exist, tables have their columns, numbers agree with
the pipelines run again on the Parquet data the report wrote."""
import json
import re
from pathlib import Path

import polars as pl
import pytest
from polars.testing import assert_frame_equal

from thousand.analysis.marriages import MARRIAGE_COLUMNS, marriage_tables
from thousand.analysis.redeals import FREQUENCY_COLUMNS, redeal_calls, redeal_frequencies
from thousand.analysis.report import ReportConfig, build_report, markdown_to_html
from thousand.cli import main
from thousand.rules import CLASSIC, POLISH, RUSSIAN, parse_rules_spec


def _scan(path: Path) -> pl.LazyFrame:
    return pl.scan_parquet(sorted(str(p) for p in path.glob("*.parquet")))


@pytest.fixture(scope="module")
def small_report(tmp_path_factory):
    out = tmp_path_factory.mktemp("report")
    # 150 hands: enough for some classes of 10 distinct hands (the table and the heatmap)
    # (a module's fixture runs before conftest's small_play_quality_sample: sizes given here)
    cfg = ReportConfig(out=out, deals=4000, hands=150, samples=4, seed=5, jobs=1, progress=False,
                       play_deals=40, defence_deals=8, log=lambda s: None)
    return build_report(cfg)


def test_report_files_exist(small_report):
    r = small_report
    out = r.out
    for name in ("report.html", "report.md", "report.json"):
        assert (out / name).stat().st_size > 0
    for name in ("redeal_frequencies", "redeal_calls", "marriages", "marriage_value", "marriage_points",
                 "bid_thresholds"):
        assert (out / "tables" / f"{name}.csv").exists(), name
    for name in ("redeal_frequencies", "redeal_calls", "marriage_frequencies", "marriage_value",
                 "marriage_points", "bid_threshold_heatmap"):
        png = out / "charts" / f"{name}.png"
        assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n", name
    for label in ("classic", "russian", "polish"):
        assert list((out / "data" / label).glob("*.parquet")), label
    assert (out / "data" / "forced_hands.parquet").exists()
    assert r.notes == []


def test_report_html_is_self_contained(small_report):
    page = (small_report.out / "report.html").read_text()
    n_charts = len(small_report.charts)
    assert page.count('src="data:image/png;base64,') == n_charts
    assert not re.search(r'src="(?!data:)', page)  # nothing loaded from elsewhere
    assert "<link" not in page and "<script" not in page
    md = (small_report.out / "report.md").read_text()
    for png in small_report.charts.values():
        assert f"charts/{png.name}" in md


def test_redeal_table_agrees_with_the_pipeline(small_report):
    out = small_report.out
    csv = pl.read_csv(out / "tables" / "redeal_frequencies.csv")
    for col in ("condition", "observed", "ci_low", "ci_high", "exact"):
        assert col in csv.columns
    assert csv.columns == FREQUENCY_COLUMNS
    again = pl.concat([redeal_frequencies(_scan(out / "data" / label), rules, label).collect()
                       for label, rules in (("classic", CLASSIC), ("russian", RUSSIAN), ("polish", POLISH))])
    assert_frame_equal(csv, again, check_dtypes=False, check_exact=False, rel_tol=1e-12)
    calls = pl.read_csv(out / "tables" / "redeal_calls.csv")
    again = redeal_calls(_scan(out / "data" / "classic"), CLASSIC, "classic").collect()
    assert_frame_equal(calls.filter(pl.col("rules") == "classic"), again, check_dtypes=False,
                       check_exact=False, rel_tol=1e-12)
    # The deals asked for were played (redeals get rows of their own).
    assert (_scan(out / "data" / "classic").filter(pl.col("redeal") == 0).select(pl.len()).collect().item()
            == 4000)


def test_marriage_tables_agree_with_the_pipeline(small_report):
    out = small_report.out
    csv = pl.read_csv(out / "tables" / "marriages.csv")
    assert csv.columns == MARRIAGE_COLUMNS
    again = marriage_tables(_scan(out / "data" / "classic"), CLASSIC)
    assert_frame_equal(csv, again["marriages"], check_dtypes=False, check_exact=False, rel_tol=1e-12)
    value = pl.read_csv(out / "tables" / "marriage_value.csv")
    assert_frame_equal(value, again["marriage_value"], check_dtypes=False, check_exact=False, rel_tol=1e-12)


def test_report_text_quotes_the_tables(small_report):
    out = small_report.out
    md = (out / "report.md").read_text()
    freq = pl.read_csv(out / "tables" / "redeal_frequencies.csv")
    row = freq.filter((pl.col("rules") == "classic") & (pl.col("condition") == "hand nines >= 3")
                      & (pl.col("scope") == "deal")).row(0, named=True)
    assert f"{row['n']:,}" in md
    inside = int(freq["within_ci"].sum())
    assert f"{inside} of {freq['exact'].is_not_null().sum()} exact values" in md
    thresholds = pl.read_csv(out / "tables" / "bid_thresholds.csv")
    assert {"bid_50", "bid_80"} <= set(thresholds.columns)
    meta = json.loads((out / "report.json").read_text())
    assert meta["deals"] == 4000 and set(meta["tables"]) >= {"redeal_frequencies", "marriages", "bid_thresholds"}


def test_report_threshold_counts_are_distinct_hands(small_report):
    out = small_report.out
    t = pl.read_csv(out / "tables" / "bid_thresholds.csv")
    # every hand is played at all three seats: three (hand, seat) rows per hand
    assert t.height and (t["hand_seats"] == 3 * t["hands"]).all() and (t["hands"] >= 10).all()
    md = (out / "report.md").read_text()
    assert "`hands` counts distinct hands" in md
    first = t.row(0, named=True)
    assert f"| {first['points_band']} | {first['marriage_value']} | {first['aces']} | {first['aces_with_ten']} | " \
           f"{first['hands']} |" in md
    assert re.search(r"fitted on \d+ hands \(\d+ \(hand, seat\) rows\) and scored on \d+ held-out hands", md)


def test_a_tiny_report_says_too_few_instead_of_empty_tables_and_charts(tmp_path):
    r = build_report(ReportConfig(out=tmp_path, deals=1, games=2, hands=2, samples=2, seed=1, jobs=1,
                                  presets=False, progress=False, log=lambda s: None))
    md = (tmp_path / "report.md").read_text()
    # one deal (seed 1): nobody held a marriage, every marriage row and chart would be n = 0
    assert "Too few deals: no player of the 1 played deal held a marriage" in md
    assert "marriage_frequencies" not in r.charts and not (tmp_path / "charts" / "marriage_frequencies.png").exists()
    assert "| marriage |" not in md and "| suit | role |" not in md
    # two hands: no class has 10, so no empty table header and no heatmap
    assert "Too few hands: in 2 hands no class of card points and marriage has the 10 hands" in md
    assert "| points_band |" not in md and "bid_threshold_heatmap" not in r.charts
    assert "Full table: `tables/bid_thresholds.csv`" not in md     # not pointed to when there is none
    assert not (tmp_path / "charts" / "bid_threshold_heatmap.png").exists()
    # nor a rule of thumb "fitted on 1 hand"
    assert "Too few hands for a rule of thumb" in md and "rule_of_thumb" not in r.tables
    assert not re.search(r"fitted on \d+ hand", md)
    assert r.notes == []


def test_report_with_two_rule_sets_includes_the_comparison(tmp_path):
    rules = [CLASSIC, parse_rules_spec("classic:bolts=off")]
    cfg = ReportConfig(out=tmp_path, rules=rules, labels=["classic", "classic:bolts=off"], deals=1500, games=30,
                       hands=6, samples=5, seed=3, jobs=1, presets=False, progress=False, log=lambda s: None)
    r = build_report(cfg)
    md = (tmp_path / "report.md").read_text()
    assert "## House-rule comparison" in md and r.notes == []
    assert (tmp_path / "tables" / "compare.csv").exists()
    assert (tmp_path / "charts" / "compare_forest.png").exists()
    assert "charts/compare_forest.png" in md
    compare = pl.read_csv(tmp_path / "tables" / "compare.csv")
    assert set(compare["rules"]) == {"classic", "classic:bolts=off"}
    freq = pl.read_csv(tmp_path / "tables" / "redeal_frequencies.csv")
    assert set(freq["rules"]) == {"classic", "classic:bolts=off"}  # presets=False: only these
    page = (tmp_path / "report.html").read_text()
    assert not re.search(r'src="(?!data:)', page)


def test_report_cli(tmp_path, capsys):
    rc = main(["report", "--deals", "800", "--hands", "4", "--samples", "4", "--jobs", "1", "--no-progress",
               "--no-presets", "--out", str(tmp_path / "r")])
    assert rc == 0
    assert "report.html" in capsys.readouterr().out
    assert (tmp_path / "r" / "tables" / "redeal_frequencies.csv").exists()


@pytest.mark.parametrize("argv,msg", [
    (["report", "--deals", "0"], "--deals must be at least 1"),
    (["report", "--rules", "nosuch"], "unknown rule set"),
    (["report", "--rules", "classic", "--rules", "classic"], "given twice"),
    # Limits a section would only meet after the simulations: checked before any work.
    (["report", "--samples", "1"], "--samples must be at least 2, got 1"),
    (["report", "--hands", "1"], "--hands must be at least 2"),
    (["report", "--games", "1", "--rules", "classic", "--rules", "classic:bolts=off"], "--games must be at least 2"),
    (["report", "--jobs", "0"], "--jobs must be a positive number of workers or -1"),
    (["report", "--strategy", "nosuch"], "unknown strategy 'nosuch'"),
    (["report", "--strategy", "standard", "--strategy", "greedy"], "give one for every seat or exactly 3"),
    (["report", "--rules", "classic", "--rules", "classic:players=4"], "the same number of players"),
    (["report", "--play-deals", "-1"], "--play-deals must be at least 0, got -1"),
    (["report", "--defence-deals", "-3"], "--defence-deals must be at least 0, got -3"),
])
def test_report_cli_errors_are_one_line_before_any_work(argv, msg, capsys, tmp_path, monkeypatch):
    import thousand.analysis.report as report_mod

    def no_work(*a, **k):
        raise AssertionError("the report started simulating")
    monkeypatch.setattr(report_mod, "_simulate_deals", no_work)
    rc = main(argv + ["--deals", "500", "--no-progress", "--out", str(tmp_path / "x")] if "--deals" not in argv
              else argv + ["--out", str(tmp_path / "x")])
    captured = capsys.readouterr()
    assert rc == 2 and msg in captured.err and "Traceback" not in captured.err
    assert len(captured.err.strip().splitlines()) == 1 and captured.out == ""
    assert not (tmp_path / "x").exists()  # nothing written, not even the folder


def test_report_jobs_default_is_all_cores_like_the_other_commands():
    from thousand.cli import build_parser

    parser = build_parser()
    for argv in (["simulate", "--deals", "1"], ["compare"], ["report"]):
        assert parser.parse_args(argv).jobs == -1, argv


def test_markdown_to_html_subset(tmp_path):
    md = "## Title\n\nSome `code` and **bold**.\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n- x\n- y\n\n<script>x</script>\n"
    page = markdown_to_html(md, tmp_path)
    assert "<h2>Title</h2>" in page and "<code>code</code>" in page and "<strong>bold</strong>" in page
    assert "<td>1</td>\n<td>2</td>" in page and "<li>x</li>" in page
    assert "<script>" not in page and "&lt;script&gt;" in page   # raw HTML in the Markdown is text


def test_overview_on_a_hand_made_frame():
    from thousand.analysis.deals import frame_of
    from thousand.analysis.report import overview

    f = frame_of({"redeal": [1, 0, 0, 0], "declarer": [-1, 0, 1, 2], "made": [False, True, False, False],
                  "resigned": [False, False, False, True], "contract": [0, 120, 100, 110],
                  "declarer_points": [0, 130, 80, 0]})
    got = overview(f.lazy(), "x").collect()
    assert_frame_equal(
        got.select("rules", "rows", "redeals", "played", "made", "resigned", "mean_contract", "mean_declarer_points"),
        pl.DataFrame({"rules": ["x"], "rows": [4], "redeals": [1], "played": [3], "made": [1], "resigned": [1],
                      "mean_contract": [110.0], "mean_declarer_points": [105.0]}))
    assert got["made_share"][0] == pytest.approx(1 / 3)


def test_overview_table_agrees_with_the_pipeline(small_report):
    from thousand.analysis.report import overview

    out = small_report.out
    csv = pl.read_csv(out / "tables" / "overview.csv")
    again = overview(_scan(out / "data" / "classic"), "classic").collect()
    assert_frame_equal(csv.filter(pl.col("rules") == "classic"), again, check_dtypes=False, check_exact=False,
                       rel_tol=1e-12)


def test_a_second_report_in_the_same_place_leaves_nothing_stale(tmp_path):
    # What an earlier report with two rule sets left behind.
    (tmp_path / "tables").mkdir()
    (tmp_path / "charts").mkdir()
    (tmp_path / "tables" / "compare.csv").write_text("metric,rules\nx,y\n")
    (tmp_path / "charts" / "compare_forest.png").write_bytes(b"\x89PNG old")
    (tmp_path / "compare.md").write_text("## House-rule comparison\n")
    (tmp_path / "report.json").write_text(json.dumps({  # the record that makes compare.md the report's
        "tables": {"compare_csv": "tables/compare.csv"}, "charts": {"compare_forest": "charts/compare_forest.png"}}))
    build_report(ReportConfig(out=tmp_path, deals=600, hands=4, samples=4, seed=2, jobs=1, presets=False,
                              progress=False, log=lambda s: None))
    assert not (tmp_path / "tables" / "compare.csv").exists()
    assert not (tmp_path / "charts" / "compare_forest.png").exists()
    assert not (tmp_path / "compare.md").exists()
    assert "House-rule comparison" not in (tmp_path / "report.md").read_text()


def test_a_report_removes_the_datasets_of_an_earlier_report_it_does_not_use(tmp_path):
    small = dict(deals=600, games=4, hands=4, samples=4, seed=2, jobs=1, presets=False, progress=False,
                 log=lambda s: None)
    build_report(ReportConfig(out=tmp_path, rules=[CLASSIC, parse_rules_spec("classic:bolts=off")],
                              labels=["classic", "classic:bolts=off"], **small))
    assert (tmp_path / "data" / "classic_bolts=off" / "metadata.json").is_file()
    # Things of the user's in data/, even one that looks like a dataset: never touched.
    (tmp_path / "data" / "mine").mkdir()
    (tmp_path / "data" / "mine" / "notes.txt").write_text("keep me\n")
    (tmp_path / "data" / "theirs").mkdir()
    (tmp_path / "data" / "theirs" / "metadata.json").write_text("{}\n")
    logs: list[str] = []
    r = build_report(ReportConfig(out=tmp_path, **{**small, "log": logs.append}))
    assert not (tmp_path / "data" / "classic_bolts=off").exists()
    assert any("removing" in line and "classic_bolts=off" in line for line in logs), logs
    assert (tmp_path / "data" / "mine" / "notes.txt").is_file() and (tmp_path / "data" / "theirs").is_dir()
    meta = json.loads((tmp_path / "report.json").read_text())
    want = {"classic", "forced_hands", "play_quality", "play_defence"}
    assert set(meta["data"]) == want and set(r.data) == want
    assert json.loads((tmp_path / "data" / "datasets.json").read_text()) == {"datasets": ["classic"]}


def test_the_datasets_of_a_report_from_before_the_dataset_list_are_recognised(tmp_path):
    # An older report listed its datasets only in report.json.
    old = tmp_path / "data" / "russian"
    build_report(ReportConfig(out=tmp_path, deals=600, hands=4, samples=4, seed=2, jobs=1, presets=True,
                              progress=False, log=lambda s: None))
    assert old.is_dir()
    (tmp_path / "data" / "datasets.json").unlink()
    build_report(ReportConfig(out=tmp_path, deals=600, hands=4, samples=4, seed=2, jobs=1, presets=False,
                              progress=False, log=lambda s: None))
    assert not old.exists() and not (tmp_path / "data" / "polish").exists()
    assert (tmp_path / "data" / "classic").is_dir()


def test_report_without_kernel_shows_only_dealt_card_statistics(tmp_path, monkeypatch):
    import thousand.analysis.report as report_mod

    monkeypatch.setattr(report_mod, "_kernel_available", lambda: False)
    r = build_report(ReportConfig(out=tmp_path, deals=3000, seed=4, jobs=1, progress=False, log=lambda s: None))
    assert (tmp_path / "tables" / "redeal_frequencies.csv").exists()
    freq = pl.read_csv(tmp_path / "tables" / "redeal_frequencies.csv")
    # Dealt cards only: no four-nines rows (they need the hand-off), every exact value present.
    assert freq["exact"].null_count() == 0 and freq.height == 24
    for name in ("marriages", "redeal_calls", "bid_thresholds", "overview"):
        assert not (tmp_path / "tables" / f"{name}.csv").exists(), name
    md = (tmp_path / "report.md").read_text()
    assert "kernel was not available" in md and "no redeal was called" in md
    assert any("kernel" in n for n in r.notes)


def test_report_without_the_thresholds_module_says_so(tmp_path, monkeypatch):
    import sys

    import thousand.analysis

    # As if the module did not exist: not importable, and not an attribute of the package.
    monkeypatch.setitem(sys.modules, "thousand.analysis.thresholds", None)
    monkeypatch.delattr(thousand.analysis, "thresholds", raising=False)
    r = build_report(ReportConfig(out=tmp_path, deals=600, seed=4, jobs=1, presets=False, progress=False,
                                  log=lambda s: None))
    assert not (tmp_path / "tables" / "bid_thresholds.csv").exists()
    assert "bidding-threshold analysis is not available" in (tmp_path / "report.md").read_text()
    assert any("bidding thresholds" in n for n in r.notes)


def test_a_four_player_report_says_why_the_thresholds_are_left_out(tmp_path):
    r = build_report(ReportConfig(out=tmp_path, rules=[parse_rules_spec("classic:players=4")], labels=["four"],
                                  deals=500, hands=4, samples=4, seed=2, jobs=1, presets=False, progress=False,
                                  log=lambda s: None))
    assert r.notes == ["bidding thresholds: they cover the 3-player game, and four has 4 players"]
    assert "Not computed: they cover the 3-player game" in (tmp_path / "report.md").read_text()
    assert not (tmp_path / "data" / "forced_hands.parquet").exists()


def test_the_defence_comparison_runs_only_for_a_standard_declarer_and_says_why_not():
    # report --strategy greedy printed a traceback and exited 1: pimc bids as standard, so
    # greedy's deals change under pimc's defence (try-out 8)
    from thousand.analysis import play_quality as pq
    from thousand.analysis.report import _defence_plan, _defender
    from thousand.errors import ThousandError

    def plan(*strategies):
        return _defence_plan(ReportConfig(out=Path("x"), strategies=list(strategies), play_deals=40,
                                          defence_deals=8))
    for base in ("greedy", "cautious", "random", "aggressive"):
        n, got, why = plan(base)
        assert got is None and f"the run's strategy is {base}" in why and "pimc bids as standard" in why
    n, got, why = plan("standard:margin=20")
    assert why is None and got == "standard:margin=20" and _defender(got) == "pimc:margin=20"
    assert _defender("standard") == "pimc"
    # the defender with the base's parameters bids as it does: the comparison runs ...
    frame = pq.defence_quality(CLASSIC, "standard:margin=20", "pimc:margin=20", 6, seed=3, jobs=1, progress=False)
    assert frame.height > 0
    # ... where a base that bids otherwise is refused (what the plan now says up front)
    with pytest.raises(ThousandError, match="defending changes the deals"):
        pq.defence_quality(CLASSIC, "greedy", "pimc", 6, seed=3, jobs=1, progress=False)


def test_the_thresholds_full_table_is_pointed_to_when_it_has_rows(small_report):
    md = (small_report.out / "report.md").read_text()
    rows = pl.read_csv(small_report.out / "tables" / "bid_thresholds.csv").height
    assert rows > 0 and "Full table: `tables/bid_thresholds.csv`." in md


def test_an_exact_zero_is_said_to_be_impossible(tmp_path):
    # 2 players: "0.0% ... exact 0.00%" for conditions no 10-card hand can meet (try-out 8)
    build_report(ReportConfig(out=tmp_path, rules=[parse_rules_spec("classic:players=2")], deals=1500, games=4,
                              hands=4, samples=2, seed=1, jobs=1, presets=False, progress=False, play_deals=4,
                              defence_deals=0, log=lambda s: None))
    md = (tmp_path / "report.md").read_text()
    assert "| hand points <= 13 | hand | 0.0% | [0.0%, " in md and "| 0 (cannot happen) |" in md
    assert "| 0.00% |" not in md
    # one defender with 2 players, and a lay-away rather than a hand-off (try-out 10)
    assert "| all players | declarer | the defender |" in md and "| defenders |" not in md
    assert "the value of the best two cards to lay away (with 2 players; every pair tried" in md
    assert "and the defender for the least" in md and "defenders together" not in md


def test_a_rough_rule_of_thumb_is_said_to_be_rough():
    # 150 hands gave "bid = -0.1 x card points + ..." with nothing said; 300 an R² of 0.78
    # fitted against 0.36 held out (try-out 10)
    from types import SimpleNamespace

    from thousand.analysis.report import _rough_rule
    rough = _rough_rule(SimpleNamespace(hands_train=105, train={"r2": 0.78}, test={"r2": 0.36},
                                        rounded={"points": -0.1, "intercept": 90}))
    assert rough.startswith("A rough rule: it is fitted on 105 hands only; it explains much less of the "
                            "held-out hands (R² 0.36) than of those it was fitted on (0.78); more card points "
                            "lower its bid.")
    assert _rough_rule(SimpleNamespace(hands_train=2000, train={"r2": 0.7}, test={"r2": 0.66},
                                       rounded={"points": 0.6, "intercept": 40})) == ""
    assert _rough_rule(SimpleNamespace(hands_train=2000, train={"r2": 0.7}, test={"r2": float("nan")},
                                       rounded={"points": 0.6})) == ""


def test_a_missing_value_in_a_report_table_reads_as_a_dash():
    # a rule set whose only deal was resigned printed "None" as its mean declarer points (try-out 20)
    from thousand.analysis.report import _md_table, _overview_blocks, overview
    from thousand.analysis.deals import frame_of

    f = frame_of({"redeal": [0], "declarer": [0], "made": [False], "resigned": [True], "contract": [100],
                  "declarer_points": [0]})
    table = next(b.frame for b in _overview_blocks(overview(f.lazy(), "x").collect()) if b.kind == "table")
    assert table["mean declarer points"][0] is None
    line = _md_table(table).splitlines()[-1]
    assert "None" not in line and line.endswith("| 100.0 | – |")


def test_blind_and_golden_kon_rule_sets_are_said_to_show_no_blind_deal_outside_games():
    # their deal runs played as without the rule, and the overview said nothing (try-out 20)
    from thousand.analysis.report import _unplayed_rule_notes

    def frame(blind):
        return pl.LazyFrame({"blind": blind})
    sets = [("classic", CLASSIC), ("b", parse_rules_spec("classic:blind=on")), ("g", parse_rules_spec("classic:golden_kon=on")),
            ("b2", parse_rules_spec("classic:blind=on"))]
    frames = {"classic": frame([False]), "b": frame([False, False]), "g": frame([False]), "b2": frame([False, True])}
    note, = _unplayed_rule_notes(sets, frames, compared=True)
    assert note.text.startswith("`b` (blind=on); `g` (golden_kon=on): no deal of these runs was blind")
    assert "`b2`" not in note.text and "`classic`" not in note.text and "comparison below" in note.text
    assert "its notes say whether it did" in note.text
    assert "compare --games" in _unplayed_rule_notes(sets, frames, compared=False)[0].text
    assert _unplayed_rule_notes(sets[:1], frames, compared=True) == []


@pytest.mark.parametrize("pass_cell", [True, False])
def test_the_weak_marriage_paragraph_claims_a_pass_cell_only_when_the_heatmap_has_one(pass_cell):
    from thousand.analysis.report import _weak_marriage_blocks
    from thousand.cards import parse_hand

    weak = parse_hand("KH QH 9S JS 9C JC 9D")       # a marriage, 11 card points
    hands = pl.DataFrame({"hand_id": list(range(12)), "hand": [weak] * 12, "points": [0] * 4 + [130] * 8},
                         schema_overrides={"hand": pl.UInt32})
    grid = pl.DataFrame({"points_band": ["<20", "40-49"], "marriage_value": ["100", "none"],
                         "bid_80": [None if pass_cell else 100, None]}, schema_overrides={"bid_80": pl.Int64})
    text = _weak_marriage_blocks(hands, CLASSIC, grid)[0].text
    assert ("such a cell says `pass` while its median is high" in text) == pass_cell
    assert ("this run's heatmap has no such cell" in text) == (not pass_cell)
