"""A chart is written whole or not at all: a full disk leaves no 0-byte or cut PNG (issue 15)."""
from __future__ import annotations

import errno
import re

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


def test_compare_out_leaves_no_staged_file_when_its_record_cannot_be_written(tmp_path, monkeypatch):
    # compare --out stages its four files, then records their checksums: a full disk at the
    # record must not leave the staged files (or a cut record) behind.
    from pathlib import Path

    from thousand.analysis.compare import WRITTEN_FILE, compare_rules, write_outputs
    from helpers.compare_toys import toy_simulator

    result = compare_rules(["classic", "classic:bolts=off"], n_games=400, seed=2, chunk_size=200,
                           simulator=toy_simulator, metrics=["bolt_penalties"])
    real = Path.write_text

    def full_at_the_record(self, data, *args, **kwargs):
        if WRITTEN_FILE in self.name:
            real(self, data[:5], *args, **kwargs)
            raise OSError(errno.ENOSPC, "No space left on device")
        return real(self, data, *args, **kwargs)
    monkeypatch.setattr(Path, "write_text", full_at_the_record)
    with pytest.raises(OSError, match="No space left"):
        write_outputs(result, tmp_path / "cmp", claim=True)
    assert _only(tmp_path / "cmp") == []


def test_the_reports_forced_declarer_data_leaves_no_cut_file_on_a_full_disk(tmp_path, monkeypatch, capsys):
    from thousand.analysis import report, thresholds
    from thousand.cli import main

    monkeypatch.setattr(thresholds, "simulate_forced_hands", lambda *a, **k: pl.DataFrame({"hand": [1]}))
    real = pl.DataFrame.write_parquet

    def full(self, file, *args, **kwargs):
        if re.search(rf"/\.{re.escape(report.FORCED_DATA)}\.[0-9a-f]{{8}}\.tmp$", str(file)):
            with open(file, "wb") as fh:
                fh.write(b"PAR1")
            raise OSError(errno.ENOSPC, "No space left on device")
        return real(self, file, *args, **kwargs)
    monkeypatch.setattr(pl.DataFrame, "write_parquet", full)
    out = tmp_path / "r"
    rc = main(["report", "--deals", "1500", "--hands", "4", "--samples", "3", "--seed", "3", "--jobs", "1",
               "--no-presets", "--no-progress", "--out", str(out)])
    assert rc != 0 and "No space left" in capsys.readouterr().err
    assert [p.name for p in (out / "data").iterdir() if p.name.startswith(".")] == []
