"""An interrupted or repeated ``thousand report --out DIR`` reuses the data the runner
already wrote in DIR/data/ (same settings), replaces data made with other settings, and
writes the same tables either way."""
from pathlib import Path

import pytest

from thousand import simulate as runner
from thousand.analysis import thresholds
from thousand.analysis.report import ReportConfig, build_report


def _config(out: Path, logs: list[str], **kw) -> ReportConfig:
    settings = dict(deals=1500, hands=4, samples=4, seed=3, jobs=1, progress=False)
    settings.update(kw)
    return ReportConfig(out=out, log=logs.append, **settings)


def _tables(out: Path) -> dict[str, bytes]:
    tables = {p.name: p.read_bytes() for p in sorted((out / "tables").glob("*.csv"))}
    assert "redeal_frequencies.csv" in tables and "bid_thresholds.csv" in tables
    return tables


def _data_files(out: Path) -> dict[str, int]:
    """Every data file the report simulated, with its modification time in ns."""
    files = [*(out / "data").glob("*/chunk-*.parquet"), out / "data" / "forced_hands.parquet"]
    return {str(p.relative_to(out)): p.stat().st_mtime_ns for p in files}


def _forbid_simulation(monkeypatch) -> None:
    """Make any kernel work fail: chunks of the runner and forced-declarer play."""
    def no_chunk(task):
        raise AssertionError(f"chunk {task.index} of {task.out} was computed again")

    def no_forced(*a, **k):
        raise AssertionError("forced-declarer data was simulated again")
    monkeypatch.setattr(runner, "run_chunk", no_chunk)
    monkeypatch.setattr(thresholds, "simulate_forced_hands", no_forced)


@pytest.fixture(scope="module")
def first_report(tmp_path_factory):
    out = tmp_path_factory.mktemp("report")
    logs: list[str] = []
    build_report(_config(out, logs))
    return out, _tables(out), _data_files(out)


def test_a_second_run_reuses_every_dataset_and_writes_the_same_tables(first_report, monkeypatch):
    out, tables, files = first_report
    assert len(files) >= 4  # three presets and the forced-declarer data
    _forbid_simulation(monkeypatch)
    logs: list[str] = []
    result = build_report(_config(out, logs))
    assert result.notes == []
    assert _data_files(out) == files  # nothing rewritten
    assert _tables(out) == tables
    assert any(f"reusing {out / 'data' / 'classic'} (1,500 deals)" in line for line in logs), logs
    assert any("reusing" in line and "forced_hands.parquet" in line for line in logs), logs


def test_an_interrupted_run_is_completed_to_the_same_tables(first_report, tmp_path):
    out, tables, files = first_report
    # A copy interrupted after its first dataset: the later datasets lost their chunks,
    # the forced-declarer data was never written.
    import shutil
    copy = tmp_path / "report"
    shutil.copytree(out, copy, copy_function=shutil.copy2)
    datasets = sorted(p for p in (copy / "data").iterdir() if p.is_dir())
    first = copy / "data" / "classic"
    for d in datasets:
        if d != first:
            for chunk in d.glob("chunk-*.parquet"):
                chunk.unlink()
    (copy / "data" / "forced_hands.parquet").unlink()
    (copy / "data" / "forced_hands.json").unlink()
    kept = {p: p.stat().st_mtime_ns for p in first.glob("chunk-*.parquet")}
    logs: list[str] = []
    build_report(_config(copy, logs))
    assert {p: p.stat().st_mtime_ns for p in first.glob("chunk-*.parquet")} == kept
    assert _tables(copy) == tables
    assert any("continuing" in line for line in logs), logs


def test_a_run_with_another_seed_replaces_the_data(first_report, tmp_path):
    out, tables, _ = first_report
    import shutil
    copy = tmp_path / "report"
    shutil.copytree(out, copy)
    logs: list[str] = []
    build_report(_config(copy, logs, seed=4))  # no "cannot resume" error
    assert not any("reusing" in line or "continuing" in line for line in logs), logs
    assert runner.read_metadata(copy / "data" / "classic")["seed"] == 4
    fresh = tmp_path / "fresh"
    build_report(_config(fresh, [], seed=4))
    assert _tables(copy) == _tables(fresh)
    assert _tables(copy) != tables


def test_a_run_with_other_deals_replaces_the_data(tmp_path):
    logs: list[str] = []
    build_report(_config(tmp_path, logs, deals=900, presets=False, hands=2, samples=2))
    build_report(_config(tmp_path, logs, deals=700, presets=False, hands=2, samples=2))
    assert runner.read_metadata(tmp_path / "data" / "classic")["n"] == 700
    fresh = tmp_path / "fresh"
    build_report(_config(fresh, [], deals=700, presets=False, hands=2, samples=2))
    assert _tables(tmp_path) == _tables(fresh)


def test_a_partly_written_dataset_computes_only_its_missing_chunks(tmp_path):
    """A dataset of two chunks loses its second: only that one is computed again."""
    n = runner.DEFAULT_CHUNK_DEALS + 2000
    kw = dict(deals=n, presets=False, hands=2, samples=2)
    build_report(_config(tmp_path, [], **kw))
    tables = _tables(tmp_path)
    data = tmp_path / "data" / "classic"
    chunk0, chunk1 = data / runner.chunk_file(0), data / runner.chunk_file(1)
    mtime0 = chunk0.stat().st_mtime_ns
    chunk1.unlink()
    logs: list[str] = []
    build_report(_config(tmp_path, logs, **kw))
    assert chunk0.stat().st_mtime_ns == mtime0 and chunk1.is_file()
    assert any("continuing" in line and "1 of 2 chunks" in line for line in logs), logs
    assert _tables(tmp_path) == tables
