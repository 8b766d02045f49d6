"""The report as a reader meets it: the default covers and compares the presets, the header
names every rule set, numbers read one way everywhere, the page is one self-contained file
built from the Markdown by a template, and no chart has text over text."""
from __future__ import annotations

import re

import numpy as np
import polars as pl
import pytest
from matplotlib.figure import Figure

from _overlaps import overlapping_texts
from thousand.analysis import thresholds as T
from thousand.cli import main
from thousand.rules import CLASSIC, PRESETS


@pytest.fixture(scope="module")
def default_report(tmp_path_factory):
    """``thousand report`` without --rules, small; every chart checked for overlaps as saved."""
    out = tmp_path_factory.mktemp("default") / "rep"
    problems: dict[str, list[str]] = {}
    real = Figure.savefig

    def savefig(fig, path, *a, **k):
        # Charts are drawn to a hidden temporary name and renamed (charts.save_figure:
        # .NAME.TOKEN.tmp; compare's outputs: .STEM.partial.SUFFIX): key by the final name.
        name = str(path).rsplit("/", 1)[-1]
        name = re.sub(r"^\.(.+)\.[0-9a-f]{8}\.tmp$", r"\1", name)
        name = re.sub(r"^\.(.+)\.partial(\.\w+)$", r"\1\2", name)
        problems[name] = overlapping_texts(fig)
        return real(fig, path, *a, **k)
    mp = pytest.MonkeyPatch()
    mp.setattr(Figure, "savefig", savefig)
    try:
        assert main(["report", "--deals", "3000", "--games", "12", "--hands", "150", "--samples", "4", "--seed", "2",
                     "--play-deals", "40", "--defence-deals", "8", "--jobs", "1", "--no-progress",
                     "--out", str(out)]) == 0
    finally:
        mp.undo()
    return out, (out / "report.md").read_text(encoding="utf-8"), problems


def test_the_default_report_compares_the_presets(default_report):
    out, md, _ = default_report
    header = md.split("## ")[0]
    assert f"main rule set: `classic` (hash {CLASSIC.hash})" in header
    assert ("compared with it: " + ", ".join(f"`{n}` (hash {PRESETS[n].hash})" for n in ("russian", "polish"))
            in header)
    assert "## House-rule comparison" in md and "- russian against classic:" in md and "- polish against classic:" in md
    assert set(pl.read_csv(out / "tables" / "compare.csv")["rules"]) == set(PRESETS)


def test_presets_added_to_a_given_rule_set_are_named_in_the_header(tmp_path):
    assert main(["report", "--rules", "classic:bolts=off", "--deals", "500", "--hands", "4", "--samples", "2",
                 "--jobs", "1", "--no-progress", "--out", str(tmp_path)]) == 0
    header = (tmp_path / "report.md").read_text(encoding="utf-8").split("## ")[0]
    assert "main rule set: `classic:bolts=off`" in header and "compared with it" not in header
    assert "also covered, as every preset is: `classic` (hash" in header and "`russian`" in header
    assert "## House-rule comparison" not in (tmp_path / "report.md").read_text(encoding="utf-8")


PCT_CI = re.compile(r"(-?\d[\d,]*(?:\.(\d+))?)% \[(-?\d[\d,]*(?:\.(\d+))?)%, (-?\d[\d,]*(?:\.(\d+))?)%\]")


def test_numbers_read_one_way(default_report):
    _, md, _ = default_report
    pairs = PCT_CI.findall(md)
    assert pairs
    for value, d0, lo, d1, hi, d2 in pairs:   # a share and its interval with the same decimals
        assert len(d0) == len(d1) == len(d2) and d0, (value, lo, hi)
    header: list[str] = []
    for line in md.splitlines():
        if not line.startswith("|"):
            header = []
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if not header:
            header = cells
            continue
        for title, cell in zip(header, cells):
            assert not re.fullmatch(r"\d{4,}", cell), line            # counts have thousands separators
            assert not re.fullmatch(r"\d+%", cell), line              # every percentage has its decimals
            if title not in ("R²", "p", "p (Holm)"):                 # R² and p-values are no shares
                assert not re.fullmatch(r"0\.\d+", cell), line        # shares are percentages, not fractions
    rot = md[md.index("### Rule of thumb"):md.index("## House-rule comparison")]
    assert "| rounded rule, held-out |" in rot and re.search(r"\| \d+\.\d% \|", rot)
    assert "bid made with 80%" in md and "P>=0.8" not in md and "points_band" not in md


def test_the_thresholds_explain_weak_marriage_hands_and_work_an_example(default_report):
    _, md, _ = default_report
    assert "Why a weak hand with a marriage often scores nothing" in md
    assert re.search(r"\d+\.\d+% end with 0 points, though their median is \d+", md)
    example = md[md.index("Worked example"):]
    lines = [line for line in example.splitlines() if line.startswith("- `")][:2]
    assert len(lines) == 2 and "**bid " in lines[0] and "**pass (below 100)**" in lines[1]
    for line in lines:   # the arithmetic shown adds up
        expr, level = re.search(r"\): (.*) = (-?\d+\.\d)", line).groups()
        assert eval(expr.replace(" x ", " * ")) == pytest.approx(float(level), abs=0.05)


def test_the_page_is_one_file_built_from_the_markdown(default_report):
    out, md, _ = default_report
    page = (out / "report.html").read_text(encoding="utf-8")
    titles = re.findall(r"^## (.*)$", md, re.M)
    ids = re.findall(r'<section id="([^"]+)">', page)
    assert len(ids) == len(titles) == len(set(ids)) and "house-rule-comparison" in ids
    nav = re.search(r"<nav>(.*?)</nav>", page, re.S).group(1)
    assert re.findall(r'href="#([^"]+)"', nav) == ids
    assert page.count('src="data:image/png;base64,') == md.count("](charts/")
    assert not re.search(r'(src|href)="(?!data:|#)', page) and "<script" not in page and "<link" not in page


def test_no_chart_has_text_over_text(default_report):
    _, _, problems = default_report
    assert {"redeal_frequencies.png", "marriage_frequencies.png", "bid_threshold_heatmap.png",
            "compare_forest.png"} <= set(problems)
    assert {name: p for name, p in problems.items() if p} == {}


def test_overlap_check_finds_overlaps():
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    fig = Figure(figsize=(3, 2))
    FigureCanvasAgg(fig)
    ax = fig.subplots()
    ax.text(0.5, 0.5, "one label")
    ax.text(0.52, 0.5, "another label")
    assert any(p.startswith("overlap:") for p in overlapping_texts(fig))


def test_rule_of_thumb_worked_out_for_one_hand():
    rule = T.RuleOfThumb(0.8, T.RULE_FEATURES, {}, {"intercept": -6.0, "points": 0.1, "marriage_points": 0.65,
                                                   "aces": 32.0, "aces_with_ten": 15.0},
                         {}, {}, {}, {}, 0, 0)
    row = {"hand_points": 34, "marriage_points": 100, "aces_held": 1, "aces_with_ten_held": 1}
    w = rule.worked(row, CLASSIC)
    assert w["level"] == pytest.approx(0.1 * 34 + 0.65 * 100 + 32 + 15 - 6)     # 109.4
    assert w["bid"] == 105 and [t[2] for t in w["terms"]] == [34, 100, 1, 1]
    w = rule.worked({**row, "aces_held": 0, "aces_with_ten_held": 0}, CLASSIC)   # 62.4: pass
    assert w["bid"] is None and np.isclose(w["level"], 62.4)


def test_the_redeal_calls_chart_keeps_its_words_inside_with_long_rule_names(tmp_path):
    # long --rules labels: the legend sat on a bar's words and the words ran off the axes (try-out 10)
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from thousand.analysis import charts
    long = ["classic:cut_nine_penalty=on,redeal_hand_nines=4", "classic:bolts=off,last_trick_bonus=10,ace_marriage=200",
            "polish"]
    calls = pl.DataFrame({
        "rules": [long[0], long[0], long[1], long[2], long[2]], "kind": ["hand", "talon", "hand", "hand", "four nines"],
        "deals": [100_000] * 5, "eligible": [19_100, 600, 19_000, 19_050, 2_700],
        "per_deal": [0.147, 0.004, 0.146, 0.147, 0.0209], "per_deal_ci_low": [0.145, 0.003, 0.144, 0.145, 0.020],
        "per_deal_ci_high": [0.149, 0.005, 0.148, 0.149, 0.022], "when_eligible": [0.77, 0.66, 0.77, 0.77, 1.0]})
    captured = {}
    real_save = charts.save
    charts.save = lambda fig, path: captured.setdefault("fig", fig) and real_save(fig, path)
    try:
        charts.redeal_calls_chart(calls, tmp_path / "calls.png")
    finally:
        charts.save = real_save
    fig = captured["fig"]
    try:
        assert overlapping_texts(fig) == []
        renderer = fig.canvas.get_renderer()
        ax = fig.axes[0]
        box = ax.get_window_extent(renderer)
        assert all(t.get_window_extent(renderer).x1 <= box.x1 for t in ax.texts)
        legend = ax.get_legend().get_window_extent(renderer)
        bars = [p.get_window_extent(renderer) for p in ax.patches if p.get_width() > 0]
        assert all(legend.y1 <= b.y0 or legend.x1 <= b.x0 for b in bars)    # on no bar
        words = [t.get_window_extent(renderer) for t in ax.texts]
        assert all(legend.y1 <= w.y0 or legend.x1 <= w.x0 or legend.x0 >= w.x1 for w in words)
    finally:
        plt.close(fig)
