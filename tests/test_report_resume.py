"""An interrupted or repeated ``thousand report --out DIR`` reuses the data the runner
already wrote in DIR/data/ (same settings), replaces data made with other settings, and
writes the same tables either way."""
from pathlib import Path

import polars as pl
import pytest

from thousand import simulate as runner
from thousand.runner import chunks
from thousand.analysis import play_quality, thresholds
from thousand.analysis.report import ReportConfig, build_report


def _config(out: Path, logs: list[str], **kw) -> ReportConfig:
    settings = dict(deals=1500, hands=4, samples=4, seed=3, jobs=1, progress=False, play_deals=40, defence_deals=8)
    settings.update(kw)
    return ReportConfig(out=out, log=logs.append, **settings)


def _tables(out: Path) -> dict[str, bytes]:
    tables = {p.name: p.read_bytes() for p in sorted((out / "tables").glob("*.csv"))}
    assert "redeal_frequencies.csv" in tables and "bid_thresholds.csv" in tables
    return tables


def _data_files(out: Path) -> dict[str, int]:
    """Every data file the report simulated, with its modification time in ns."""
    files = [*(out / "data").glob("*/chunk-*.parquet"),
             *(out / "data" / name for name in ("forced_hands.parquet", "play_quality.parquet", "play_defence.parquet"))]
    return {str(p.relative_to(out)): p.stat().st_mtime_ns for p in files}


def _forbid_simulation(monkeypatch) -> None:
    """Make any kernel work fail: chunks of the runner, forced-declarer play and the
    solving of "How well the bots play"."""
    def no_chunk(task):
        raise AssertionError(f"chunk {task.index} of {task.out} was computed again")

    def computed_again(what: str):
        def fail(*a, **k):
            raise AssertionError(f"{what} was computed again")
        return fail
    monkeypatch.setattr(chunks, "run_chunk", no_chunk)
    monkeypatch.setattr(thresholds, "simulate_forced_hands", computed_again("forced-declarer data"))
    monkeypatch.setattr(play_quality, "bot_play_quality", computed_again("the bots' play quality"))
    monkeypatch.setattr(play_quality, "defence_quality", computed_again("the defence comparison"))


@pytest.fixture(scope="module")
def first_report(tmp_path_factory):
    out = tmp_path_factory.mktemp("report")
    logs: list[str] = []
    build_report(_config(out, logs))
    return out, _tables(out), _data_files(out)


def test_a_second_run_reuses_every_dataset_and_writes_the_same_tables(first_report, monkeypatch):
    out, tables, files = first_report
    assert len(files) >= 6  # three presets, the forced-declarer data and the two of the bots' play
    _forbid_simulation(monkeypatch)
    logs: list[str] = []
    result = build_report(_config(out, logs))
    assert result.notes == []
    assert _data_files(out) == files  # nothing rewritten
    assert _tables(out) == tables
    assert any(f"reusing {out / 'data' / 'classic'} (1,500 deals)" in line for line in logs), logs
    for name in ("forced_hands.parquet", "play_quality.parquet", "play_defence.parquet"):
        assert any("reusing" in line and name in line for line in logs), (name, logs)


@pytest.mark.parametrize("change", ["damaged", "other play deals", "other defence deals", "no defence", "no record"])
def test_the_bots_play_data_is_computed_again_only_when_it_is_not_this_reports(first_report, tmp_path, change):
    """A changed setting, a damaged file or a missing record makes the play data computed
    again (to the tables a fresh report writes); a report that does not compute it removes it."""
    import shutil
    out, tables, _ = first_report
    copy = tmp_path / "report"
    shutil.copytree(out, copy, copy_function=shutil.copy2)
    data = copy / "data"
    kw = {}
    if change == "damaged":
        (data / "play_quality.parquet").write_bytes((data / "play_quality.parquet").read_bytes()[:-1] + b"\0")
    elif change == "other play deals":  # fewer than the defence's 8: they are capped at 6 too
        kw = dict(play_deals=6)
    elif change == "other defence deals":
        kw = dict(defence_deals=6)
    elif change == "no defence":
        kw = dict(defence_deals=0)
    else:
        (data / "play_defence.json").unlink()
    logs: list[str] = []
    build_report(_config(copy, logs, **kw))
    reused = {name for name in ("play_quality.parquet", "play_defence.parquet")
              if any("reusing" in line and name in line for line in logs)}
    assert reused == {"damaged": {"play_defence.parquet"}, "other play deals": set(),
                      "other defence deals": {"play_quality.parquet"}, "no defence": {"play_quality.parquet"},
                      "no record": {"play_quality.parquet"}}[change], logs
    if change == "no defence":
        assert not (data / "play_defence.parquet").exists() and not (data / "play_defence.json").exists()
    else:
        assert (data / "play_defence.json").is_file()
    assert (data / "play_quality.json").is_file()
    page = (copy / "report.md").read_text()
    assert ("6 deals (`--defence-deals 8` asks for more: at most as many as the table above solved are used)"
            in page) == (change == "other play deals")
    fresh = tmp_path / "fresh"
    build_report(_config(fresh, [], **kw))
    assert _tables(copy) == _tables(fresh)
    if not kw:
        assert _tables(copy) == tables


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


def _cli(out: Path, *extra: str) -> list[str]:
    return ["report", "--deals", "2500", "--hands", "120", "--samples", "3",
            "--seed", "3", "--jobs", "1", "--no-presets", "--no-progress", "--out", str(out), *extra]


def _interrupt_after(calls: int, real):
    """``real``, raising KeyboardInterrupt (as Ctrl-C does) on call number ``calls + 1``."""
    done = []

    def fake(*args, **kwargs):
        if len(done) == calls:
            raise KeyboardInterrupt
        done.append(1)
        return real(*args, **kwargs)
    return fake


def test_ctrl_c_in_the_deal_runner_says_how_to_continue_and_the_same_command_does(tmp_path, monkeypatch, capsys):
    from thousand.cli import main

    monkeypatch.setattr(runner, "DEFAULT_CHUNK_DEALS", 1000)  # 2,500 deals: three chunks
    fresh = tmp_path / "fresh"
    assert main(_cli(fresh)) == 0
    cut = tmp_path / "cut"
    with monkeypatch.context() as m:
        m.setattr(chunks, "run_chunk", _interrupt_after(1, chunks.run_chunk))
        assert main(_cli(cut)) == 130
    err = capsys.readouterr().err
    # The runner's count, and the way on that this command really has (report has no --resume).
    assert f"interrupted: 1 of 3 chunks are written in {cut / 'data' / 'classic'}" in err
    assert "--resume" not in err and "run the same command again to continue" in err
    chunk0 = cut / "data" / "classic" / runner.chunk_file(0)
    mtime0 = chunk0.stat().st_mtime_ns
    assert main(_cli(cut)) == 0  # the same command, as the message says
    err = capsys.readouterr().err
    assert "continuing" in err and "1 of 3 chunks written" in err
    assert chunk0.stat().st_mtime_ns == mtime0  # kept, not computed again
    assert _tables(cut) == _tables(fresh)


def test_ctrl_c_in_the_forced_declarer_runs_keeps_their_finished_chunks(tmp_path, monkeypatch, capsys):
    from thousand.cli import main

    fresh = tmp_path / "fresh"
    assert main(_cli(fresh)) == 0
    cut = tmp_path / "cut"
    real = thresholds._simulate_chunk
    with monkeypatch.context() as m:  # 120 hands are chunks of 50, 50, 20: stop in the third
        m.setattr(thresholds, "_simulate_chunk", _interrupt_after(2, real))
        assert main(_cli(cut)) == 130
    assert "run the same command again to continue" in capsys.readouterr().err
    parts = cut / "data" / "forced_hands.parts"
    assert len(list(parts.glob("chunk-*.parquet"))) == 2 and not (cut / "data" / "forced_hands.parquet").exists()
    computed = []

    def counting(*args):
        computed.append(args[1])  # the chunk's first hand id
        return real(*args)
    monkeypatch.setattr(thresholds, "_simulate_chunk", counting)
    assert main(_cli(cut)) == 0
    assert computed == [100]  # only the missing chunk was played
    assert not parts.exists()
    forced = "data/forced_hands.parquet"
    assert (cut / forced).read_bytes() == (fresh / forced).read_bytes()
    assert _tables(cut) == _tables(fresh)


def test_forced_declarer_chunks_of_other_settings_are_not_continued(tmp_path, monkeypatch, capsys):
    from thousand.cli import main

    cut = tmp_path / "cut"
    with monkeypatch.context() as m:
        m.setattr(thresholds, "_simulate_chunk", _interrupt_after(2, thresholds._simulate_chunk))
        assert main(_cli(cut)) == 130
    assert main(_cli(cut, "--samples", "4")) == 0
    # The 3-sample chunks were dropped, not mixed in: every hand was played 4 times at each seat.
    assert "continuing" not in capsys.readouterr().err
    hands = pl.read_parquet(cut / "data" / "forced_hands.parquet")
    assert hands.height == 120 * 3 * 4 and hands.group_by("hand_id", "role").len()["len"].unique().to_list() == [4]


@pytest.mark.parametrize("spoil", ["truncate", "swap"])
def test_a_damaged_or_swapped_forced_declarer_file_is_played_again(first_report, tmp_path, spoil):
    out, tables, _ = first_report
    import shutil
    copy = tmp_path / "report"
    shutil.copytree(out, copy, copy_function=shutil.copy2)
    forced = copy / "data" / "forced_hands.parquet"
    if spoil == "truncate":
        forced.write_bytes(forced.read_bytes()[:100])
    else:   # a readable file of the right shape that this report did not write
        pl.read_parquet(forced).head(3).write_parquet(forced)
    logs: list[str] = []
    build_report(_config(copy, logs))
    assert any("is not the file this report wrote" in line for line in logs), logs
    assert _tables(copy) == tables


def test_the_comparison_is_kept_reused_continued_and_replaced_like_the_datasets(tmp_path, monkeypatch, capsys):
    from thousand.rules import parse_rules_spec

    two = dict(rules=[parse_rules_spec("classic"), parse_rules_spec("classic:bolts=off")],
               labels=["classic", "classic:bolts=off"], games=40, presets=False, deals=600, play_deals=5,
               defence_deals=1)
    whole = tmp_path / "whole"
    build_report(_config(whole, [], **two))
    table = (whole / "tables" / "compare.csv").read_bytes()
    kept = {p: p.stat().st_mtime_ns for p in (whole / "data").glob("_compare-*/chunk-*.parquet")}
    assert {p.parent.name for p in kept} == {"_compare-0", "_compare-1"}

    real = chunks.unit_chunk_columns
    played: list[int] = []

    def play(*args, **kwargs):
        played.append(args[4])
        return real(*args, **kwargs)
    monkeypatch.setattr(chunks, "unit_chunk_columns", play)
    logs: list[str] = []
    build_report(_config(whole, logs, **two))    # the same settings: nothing is played again
    assert played == [] and (whole / "tables" / "compare.csv").read_bytes() == table
    assert any("comparison: 2 of 2 chunks reused from" in line for line in logs), logs
    assert {p: p.stat().st_mtime_ns for p in kept} == kept

    stopped = tmp_path / "stopped"

    def stop_in_the_second_rule_set(*args, **kwargs):
        played.append(args[4])
        if len(played) == 2:   # 40 games are one chunk a rule set: stop at the second rule set's
            raise KeyboardInterrupt
        return real(*args, **kwargs)
    monkeypatch.setattr(chunks, "unit_chunk_columns", stop_in_the_second_rule_set)
    with pytest.raises(KeyboardInterrupt):
        build_report(_config(stopped, [], **two))
    assert "run the same `thousand report` command again to continue" in capsys.readouterr().err
    monkeypatch.setattr(chunks, "unit_chunk_columns", play)
    played.clear()
    build_report(_config(stopped, [], **two))
    assert played == [0]                            # only the second rule set's chunk
    assert (stopped / "tables" / "compare.csv").read_bytes() == table

    played.clear()
    build_report(_config(whole, [], **{**two, "games": 60}))   # other settings: played afresh
    assert played == [0, 0]
    assert (whole / "tables" / "compare.csv").read_bytes() != table
    build_report(_config(whole, [], **{**two, "rules": two["rules"][:1], "labels": two["labels"][:1]}))
    assert not list((whole / "data").glob("_compare-*"))   # no comparison now: its data goes
