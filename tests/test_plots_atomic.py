"""A chart is written whole or not at all: a full disk leaves no 0-byte or cut PNG (issue 15)."""
from __future__ import annotations

import errno

import numpy as np
import polars as pl
import pytest
from matplotlib.figure import Figure

from thousand.analysis import charts


@pytest.fixture
def full_disk(monkeypatch):
    """Every savefig writes a few bytes of its file, then the disk is full."""
    def savefig(self, fname, *args, **kwargs):
        with open(fname, "wb") as fh:
            fh.write(b"\x89PNG")
        raise OSError(errno.ENOSPC, "No space left on device")
    monkeypatch.setattr(Figure, "savefig", savefig)


def _only(folder):
    return sorted(p.name for p in folder.iterdir())


def test_charts_save_leaves_nothing_on_a_full_disk(tmp_path, full_disk):
    fig = charts._figure()
    fig.add_subplot().plot([0, 1])
    with pytest.raises(OSError, match="No space left"):
        charts.save(fig, tmp_path / "c.png")
    assert _only(tmp_path) == []


def test_the_heatmap_forest_plot_and_bid_chart_leave_nothing_on_a_full_disk(tmp_path, full_disk):
    from thousand.analysis import bids, thresholds
    from thousand.analysis.compare import compare_rules, forest_plot
    from helpers.compare_toys import toy_simulator

    grid = pl.DataFrame({"points_band": ["<20"], "marriage_value": ["none"], "bid_80": [None], "level_80": [90],
                         "hands": [12]}, schema_overrides={"bid_80": pl.Int64})
    with pytest.raises(OSError):
        thresholds.plot_threshold_heatmap(grid, tmp_path / "heat.png")
    result = compare_rules(["classic", "classic:bolts=off"], n_games=400, seed=2, chunk_size=200,
                           simulator=toy_simulator, metrics=["bolt_penalties"])
    with pytest.raises(OSError):
        forest_plot(result, tmp_path / "forest.png")
    c = bids.Completions(hand=0b1111111, role="forehand", points=np.array([90, 130, 150] * 20),
                         talon=np.zeros(60, dtype=np.uint32))
    est = bids.estimate_from_completions(c, bids.CLASSIC_RULES)
    with pytest.raises(OSError):
        bids.plot_bid_chart(est, tmp_path / "bid.png")
    assert _only(tmp_path) == []


def test_the_reports_comparison_outputs_are_renamed_into_place_whole(tmp_path, monkeypatch):
    from thousand.analysis.compare import compare_rules, write_outputs
    from helpers.compare_toys import toy_simulator

    result = compare_rules(["classic", "classic:bolts=off"], n_games=400, seed=2, chunk_size=200,
                           simulator=toy_simulator, metrics=["bolt_penalties"])

    def write_csv(self, file=None, **kwargs):   # the disk fills up during the table
        with open(file, "w") as fh:
            fh.write("metric,rules\n")
        raise OSError(errno.ENOSPC, "No space left on device")
    monkeypatch.setattr(pl.DataFrame, "write_csv", write_csv)
    with pytest.raises(OSError):
        write_outputs(result, tmp_path, tables_dir=tmp_path / "tables", figures_dir=tmp_path / "charts")
    assert [p.name for p in tmp_path.rglob("*") if p.is_file()] == []


def test_report_pages_and_tables_are_replaced_whole_or_not_at_all(tmp_path, monkeypatch):
    from pathlib import Path

    from thousand.analysis import report

    page = tmp_path / "report.md"
    page.write_text("the earlier page\n")
    real = Path.write_text

    def full(self, data, *args, **kwargs):
        real(self, data[:5], *args, **kwargs)
        raise OSError(errno.ENOSPC, "No space left on device")
    monkeypatch.setattr(Path, "write_text", full)
    with pytest.raises(OSError, match="No space left"):
        report._write_whole(page, "the new page\n")
    with pytest.raises(OSError, match="No space left"):
        report._write_table(pl.DataFrame({"a": [1, 2]}), tmp_path / "t.csv")
    monkeypatch.undo()
    assert page.read_text() == "the earlier page\n" and _only(tmp_path) == ["report.md"]

