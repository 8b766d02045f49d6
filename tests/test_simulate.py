"""The simulation runner: chunking and seeding, identical output on any backend, files, resume."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
import tracemalloc
from pathlib import Path

import numpy as np
import polars as pl
import pytest
from polars.testing import assert_frame_equal

from thousand import schema
from thousand import simulate as sim
from thousand.runner import chunks, pool
from thousand.errors import ThousandError
from thousand.rules import parse_rules_spec

def files_of(path: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(path.glob("chunk-*.parquet"))}


# --------------------------------------------------------------------------- seeding
def test_chunk_seed_is_the_kth_spawned_child():
    children = np.random.SeedSequence(2024).spawn(7)
    for k, child in enumerate(children):
        assert (sim.chunk_seed(2024, k).generate_state(4) == child.generate_state(4)).all()


def test_chunk_bounds_cover_every_item_once():
    for n, c in [(1, 5), (10, 5), (11, 5), (1000, 7)]:
        bounds = sim.chunk_bounds(n, c)
        assert sum(size for _, size in bounds) == n
        assert [start for start, _ in bounds] == list(range(0, n, c))
        assert all(1 <= size <= c for _, size in bounds)


def test_same_seed_same_frame_for_any_jobs_and_backend(tmp_path):
    runs = {}
    for backend, jobs in [("loky", 1), ("loky", 2), ("threads", 2), ("threads", 16)]:
        out = tmp_path / f"{backend}{jobs}"
        lf = sim.simulate(20_000, "classic", seed=11, jobs=jobs, backend=backend, out=out, chunk_size=3_000)
        meta = json.loads((out / "metadata.json").read_text())
        assert len(meta.pop("writers")) == 1   # the one token that differs from run to run
        runs[(backend, jobs)] = (lf.collect(), files_of(out), json.dumps(meta))
    (first, first_files, first_meta), *rest = runs.values()
    assert first.height >= 20_000
    for frame, files, meta in rest:
        assert_frame_equal(frame, first)
        assert files == first_files  # byte for byte
        assert meta == first_meta    # the chunks' records in chunk order, not as they finished


def test_chunks_differ_and_seeds_differ(tmp_path):
    a = sim.simulate(6_000, seed=1, chunk_size=2_000, out=tmp_path / "a").collect()
    b = sim.simulate(6_000, seed=2, chunk_size=2_000, out=tmp_path / "b").collect()
    chunks = a.partition_by("chunk", as_dict=True)
    assert len(chunks) == 3
    hands = [c["hand0"].to_list()[:50] for c in chunks.values()]
    assert hands[0] != hands[1] != hands[2]
    assert a["hand0"].to_list()[:50] != b["hand0"].to_list()[:50]


def test_rows_follow_the_schema_and_ids_are_run_wide(tmp_path):
    lf = sim.simulate(5_000, "classic", seed=3, chunk_size=1_000, out=tmp_path / "d")
    df = lf.collect()
    expected = schema.deal_columns(3)
    assert df.columns == list(expected)
    for name, (dtype, _) in expected.items():
        assert df.schema[name] == pl.from_numpy(np.zeros(1, dtype=dtype)).dtypes[0], name
    assert df["deal_id"].to_list() == list(range(df.height))
    assert df["chunk"].to_list() == sorted(df["chunk"].to_list())
    assert set(df["chunk"].unique()) == set(range(5))


def test_deal_id_is_stored_narrow_and_read_back_run_wide(tmp_path):
    out = tmp_path / "d"
    df = sim.simulate(3_000, seed=3, chunk_size=1_000, out=out).collect()
    on_disk = pl.read_parquet(out / sim.chunk_file(1))
    assert on_disk.schema["deal_id"] == pl.Int32
    assert on_disk["deal_id"].to_list() == list(range(on_disk.height))  # counts its chunk's rows
    assert df.schema["deal_id"] == pl.Int64 and df["deal_id"].to_list() == list(range(df.height))
    assert sim.read_metadata(out)["compression"] == sim.PARQUET_COMPRESSION


def _polars_threads(_):
    import polars
    return polars.thread_pool_size()


def test_loky_workers_share_the_cores_among_their_polars_pools():
    from joblib import Parallel, cpu_count, delayed
    jobs = 2
    sizes = Parallel(n_jobs=jobs, backend=pool.loky_backend())(delayed(_polars_threads)(i) for i in range(4))
    expected = int(os.environ.get("POLARS_MAX_THREADS", max(1, cpu_count() // jobs)))
    assert set(sizes) == {expected}


_FAULTS_OF_THE_THIRD_CHUNK = """
import os, resource, sys, tempfile
from thousand import simulate as sim
from thousand.runner import chunks
from thousand.rules import parse_rules_spec
if sys.argv[1] == "off":
    chunks.keep_freed_memory = lambda: False
rules = parse_rules_spec("classic")
out = tempfile.mkdtemp()
tasks = [chunks.ChunkTask("deals", k, 0, 100_000, 1, rules.to_kernel(), 3, ("standard",) * 3, out, None,
                          sim.PARQUET_COMPRESSION) for k in range(3)]
for task in tasks[:2]:
    chunks.run_chunk(task)
before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
chunks.run_chunk(tasks[2])
print(resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before)
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's mallopt")
def test_a_worker_reuses_the_memory_of_its_last_chunk():
    def faults(mode: str) -> int:
        done = subprocess.run([sys.executable, "-c", _FAULTS_OF_THE_THIRD_CHUNK, mode], capture_output=True,
                              text=True, check=True)
        return int(done.stdout)
    # Without keep_freed_memory every page of the chunk's columns is faulted in again.
    on, off = faults("on"), faults("off")
    assert on < off / 4, (on, off)


def test_metadata_records_what_determines_the_data(tmp_path):
    rules = parse_rules_spec("russian:bolts=off")
    sim.simulate(2_500, rules, strategies=["standard", "random", "greedy"], seed=5, chunk_size=1_000,
                 out=tmp_path / "m")
    meta = json.loads((tmp_path / "m" / "metadata.json").read_text())
    assert meta["kind"] == "deals" and meta["n"] == 2_500 and meta["chunk_size"] == 1_000
    assert meta["n_chunks"] == 3 and meta["seed"] == 5 and meta["status"] == "complete"
    assert meta["rules"] == rules.as_dict() and meta["rules_hash"] == rules.hash
    assert meta["rules_description"] == "russian:bolts=off"
    assert len(meta["strategies"]) == 3 and meta["strategies"][1].startswith("random")
    assert list(meta["schema"]) == list(schema.deal_columns(3))
    assert meta["version"] and "kernel_version" in meta
    assert sorted(p.name for p in (tmp_path / "m").iterdir()) == [
        "chunk-000000.parquet", "chunk-000001.parquet", "chunk-000002.parquet", "metadata.json"]


def test_seed_none_is_drawn_and_recorded(tmp_path):
    sim.simulate(1_000, seed=None, out=tmp_path / "a", chunk_size=500)
    meta = sim.read_metadata(tmp_path / "a")
    assert isinstance(meta["seed"], int)
    again = sim.simulate(1_000, seed=meta["seed"], out=tmp_path / "b", chunk_size=500)
    assert_frame_equal(again.collect(), sim.load(tmp_path / "a").collect())


# --------------------------------------------------------------------------- games
def test_games_rows_and_their_deals(tmp_path):
    lf = sim.simulate_games(250, seed=4, chunk_size=100, out=tmp_path / "g", deals_out=tmp_path / "gd",
                            jobs=2, backend="threads")
    games = lf.collect()
    assert games.columns[:len(schema.game_columns(3))] == list(schema.game_columns(3))
    assert games["game_id"].to_list() == list(range(250))
    assert games["chunk"].to_list() == [0] * 100 + [1] * 100 + [2] * 50
    deals = sim.load(tmp_path / "gd").collect()
    # Deal rows of games: the schema's columns, then the game scores after each deal.
    assert deals.columns[:len(schema.deal_columns(3))] == list(schema.deal_columns(3))
    assert {"total0", "total1", "total2"} <= set(deals.columns)
    assert set(deals["game_id"].unique()) <= set(range(250))
    assert sim.read_metadata(tmp_path / "gd")["rows"] == "deals"
    # Game ids tie each game row to its own deals across chunks: the played deals match
    # the game's count and the scores after its last deal are its final scores.
    last = (deals.filter(pl.col("redeal") == 0).group_by("game_id")
            .agg(pl.len().alias("played"), pl.col("total0", "total1", "total2").last(),
                 pl.col("chunk").n_unique().alias("chunks")))
    joined = games.join(last, on="game_id", how="left")
    assert joined["played"].to_list() == joined["deals"].to_list()
    for s in range(3):
        assert joined[f"total{s}"].to_list() == joined[f"final{s}"].to_list()
    assert (joined["chunks"] == 1).all() and (joined["chunk"] == joined["game_id"] // 100).all()
    again = sim.simulate_games(250, seed=4, chunk_size=100, out=tmp_path / "g2", deals_out=tmp_path / "gd2")
    assert_frame_equal(again.collect(), games)
    assert_frame_equal(sim.load(tmp_path / "gd2").collect(), deals)


# --------------------------------------------------------------------------- resume
def test_resume_after_lost_chunks_gives_the_same_dataset(tmp_path):
    full = tmp_path / "full"
    sim.simulate(9_000, seed=8, chunk_size=1_000, out=full)
    cut = tmp_path / "cut"
    sim.simulate(9_000, seed=8, chunk_size=1_000, out=cut)
    # What an interruption leaves: some chunk files, a half-written temp file, status running.
    for k in (2, 5, 8):
        (cut / sim.chunk_file(k)).unlink()
    token = sim.read_metadata(cut)["writers"][-1]   # the writer that was cut off
    (cut / f".chunk-000002.parquet.{token}.deadbeef.tmp").write_bytes(b"PAR1 half a file")
    meta = json.loads((cut / "metadata.json").read_text())
    meta["status"] = "running"
    (cut / "metadata.json").write_text(json.dumps(meta))
    with pytest.raises(ThousandError, match="unfinished"):
        sim.load(cut)
    assert sim.load(cut, allow_partial=True).collect()["chunk"].n_unique() == 6

    result = sim.run("deals", 9_000, seed=8, chunk_size=1_000, out=cut, resume=True, jobs=2)
    assert result.computed == 3_000
    assert files_of(cut) == files_of(full)
    assert not list(cut.glob(".*"))
    assert sim.read_metadata(cut)["status"] == "complete"
    assert_frame_equal(sim.load(cut).collect(), sim.load(full).collect())


def test_resume_of_a_finished_run_computes_nothing(tmp_path):
    sim.simulate(3_000, seed=8, chunk_size=1_000, out=tmp_path / "r")
    before = files_of(tmp_path / "r")
    result = sim.run("deals", 3_000, seed=8, chunk_size=1_000, out=tmp_path / "r", resume=True)
    assert result.computed == 0 and files_of(tmp_path / "r") == before


def test_resume_of_a_finished_run_says_nothing_was_left(tmp_path):
    sim.simulate(3_000, seed=8, chunk_size=1_000, out=tmp_path / "r")
    result = sim.run("deals", 3_000, seed=8, chunk_size=1_000, out=tmp_path / "r", resume=True)
    assert result.summary().startswith("nothing to compute: all 3,000 deals were already written")


def test_resume_recomputes_a_chunk_file_that_holds_another_chunk(tmp_path, capsys):
    full, cut = tmp_path / "full", tmp_path / "cut"
    sim.simulate(4_000, seed=8, chunk_size=1_000, out=full)
    sim.simulate(4_000, seed=8, chunk_size=1_000, out=cut)
    # a complete, readable file under the wrong name (a copy gone astray)
    (cut / sim.chunk_file(2)).write_bytes((cut / sim.chunk_file(1)).read_bytes())
    result = sim.run("deals", 4_000, seed=8, chunk_size=1_000, out=cut, resume=True)
    assert result.computed == 1_000
    assert "chunk 2" in capsys.readouterr().err
    assert files_of(cut) == files_of(full)


def test_resume_recomputes_a_chunk_file_of_another_run(tmp_path, capsys):
    full, cut, other = tmp_path / "full", tmp_path / "cut", tmp_path / "other"
    sim.simulate(4_000, seed=8, chunk_size=1_000, out=full)
    sim.simulate(4_000, seed=8, chunk_size=1_000, out=cut)
    sim.simulate(4_000, seed=9, chunk_size=1_000, out=other)
    # same name, same chunk column, complete and readable: only its rows tell
    (cut / sim.chunk_file(3)).write_bytes((other / sim.chunk_file(3)).read_bytes())
    result = sim.run("deals", 4_000, seed=8, chunk_size=1_000, out=cut, resume=True)
    assert result.computed == 1_000 and "not this run's" in capsys.readouterr().err
    assert files_of(cut) == files_of(full)


def test_games_resume_recomputes_deal_rows_of_another_run(tmp_path):
    kw = dict(chunk_size=100, out=tmp_path / "g", deals_out=tmp_path / "d")
    sim.simulate_games(300, seed=4, **kw)
    sim.simulate_games(300, seed=5, chunk_size=100, out=tmp_path / "g5", deals_out=tmp_path / "d5")
    before = files_of(tmp_path / "d")
    (tmp_path / "d" / sim.chunk_file(1)).write_bytes((tmp_path / "d5" / sim.chunk_file(1)).read_bytes())
    result = sim.run("games", 300, seed=4, resume=True, **kw)
    assert result.computed == 100 and files_of(tmp_path / "d") == before


def test_games_resume_into_another_deals_out_is_refused_and_leaves_nothing_behind(tmp_path):
    # a new --deals-out beside an --out with games written: every chunk was computed again
    # while the run's deal rows stayed where it began, without a word (try-out 34)
    kw = dict(seed=4, chunk_size=100, out=tmp_path / "g")
    sim.simulate_games(300, deals_out=tmp_path / "d", **kw)
    (tmp_path / "g" / sim.chunk_file(2)).unlink()            # as an interrupted run leaves it
    before = files_of(tmp_path / "g")
    with pytest.raises(ThousandError, match="cannot resume: --out .* has 2 chunks written, but --deals-out "
                                            ".*other' holds no deal rows of this run"):
        sim.run("games", 300, resume=True, deals_out=tmp_path / "other", **kw)
    assert not (tmp_path / "other").exists() and files_of(tmp_path / "g") == before
    result = sim.run("games", 300, resume=True, deals_out=tmp_path / "d", **kw)
    assert result.computed == 100


def test_a_refused_deals_out_leaves_no_empty_out_behind(tmp_path):
    (tmp_path / "taken").mkdir()
    (tmp_path / "taken" / "x").write_text("not a run")
    with pytest.raises(ThousandError, match="not empty"):
        sim.simulate_games(10, out=tmp_path / "g", deals_out=tmp_path / "taken")
    assert not (tmp_path / "g").exists()


def test_interrupted_run_resumes_to_the_uninterrupted_dataset(tmp_path, monkeypatch):
    full = tmp_path / "full"
    sim.simulate(8_000, seed=9, chunk_size=1_000, out=full)
    real_run_chunk = chunks.run_chunk

    def run_chunk_then_interrupt(task):
        if task.index == 5:
            raise KeyboardInterrupt
        return real_run_chunk(task)
    monkeypatch.setattr(chunks, "run_chunk", run_chunk_then_interrupt)
    cut = tmp_path / "cut"
    with pytest.raises(KeyboardInterrupt):
        sim.simulate(8_000, seed=9, chunk_size=1_000, out=cut, backend="threads", jobs=1)
    written = files_of(cut)
    assert 0 < len(written) < 8 and sim.chunk_file(5) not in written
    monkeypatch.setattr(chunks, "run_chunk", real_run_chunk)
    sim.simulate(8_000, seed=9, chunk_size=1_000, out=cut, resume=True)
    assert files_of(cut) == files_of(full)


def test_threads_interruption_waits_for_the_running_chunks_and_drains_nothing(tmp_path, monkeypatch):
    real_run_chunk = chunks.run_chunk
    interrupting = threading.Event()

    def run_chunk(task):
        if task.index == 3:
            interrupting.set()
            raise KeyboardInterrupt
        if task.index == 2:  # still computing when chunk 3 interrupts the run
            interrupting.wait(10)
            time.sleep(0.3)
        return real_run_chunk(task)
    monkeypatch.setattr(chunks, "run_chunk", run_chunk)
    out = tmp_path / "cut"
    with pytest.raises(KeyboardInterrupt):
        sim.simulate(20_000, seed=4, chunk_size=1_000, out=out, backend="threads", jobs=2)
    written = files_of(out)
    # Chunk 2 was running: it is finished and written before the call returns ...
    assert sim.chunk_file(2) in written and sim.chunk_file(3) not in written
    # ... and nothing queued runs afterwards: no thread is left writing.
    assert not [t for t in threading.enumerate() if t.name.startswith("thousand-chunk")]
    time.sleep(0.5)
    assert files_of(out) == written and len(written) < 20


def test_games_resume_recomputes_a_chunk_whose_deals_are_missing(tmp_path):
    kw = dict(seed=6, chunk_size=50, out=tmp_path / "g", deals_out=tmp_path / "d")
    sim.simulate_games(200, **kw)
    games, deals = files_of(tmp_path / "g"), files_of(tmp_path / "d")
    (tmp_path / "d" / sim.chunk_file(1)).unlink()
    (tmp_path / "g" / sim.chunk_file(3)).unlink()
    result = sim.run("games", 200, resume=True, **kw)
    assert result.computed == 100
    assert files_of(tmp_path / "g") == games and files_of(tmp_path / "d") == deals


@pytest.mark.parametrize("change, said", [
    (dict(seed=2), "seed=1, not 2"),
    (dict(rules="classic:bolts=off"), 'other rules: bolts="always", not "off"'),  # the options, not hashes
    (dict(strategies="random"), "strategies="),
    (dict(chunk_size=500), "chunk_size=1000, not 500"),
    (dict(n_deals=5_000), "n=2000, not 5000"),
])
def test_resume_with_other_settings_is_a_clear_error(tmp_path, change, said):
    base = dict(n_deals=2_000, rules="classic", strategies=None, seed=1, chunk_size=1_000)
    sim.simulate(**base, out=tmp_path / "r")
    with pytest.raises(ThousandError) as e:
        sim.simulate(**{**base, **change}, out=tmp_path / "r", resume=True)
    msg = str(e.value)
    assert "\n" not in msg and "cannot resume" in msg and f"it was run with {said}" in msg


@pytest.mark.parametrize("edit, needle", [
    (lambda m: None, "holds JSON null, not an object"),
    (lambda m: [1, 2], "holds a JSON array"),
    (lambda m: {**m, "n_chunks": 1}, "n_chunks=1 does not fit n=3000 in chunks of 1000 (3)"),
    (lambda m: {**m, "n_chunks": 100}, "n_chunks=100 does not fit"),
    (lambda m: {k: v for k, v in m.items() if k != "n_chunks"}, "n_chunks must be a whole number"),
    (lambda m: {**m, "first_chunk": None}, "first_chunk must be a chunk number"),
    (lambda m: {**m, "first_chunk": 3}, "first_chunk must be a chunk number"),
    (lambda m: {**m, "n": "3000"}, 'n must be a whole number of at least 1, not "3000"'),
    (lambda m: {**m, "rows": "games"}, 'rows="games" does not go with kind="deals"'),
    # an option edited with the hash left as it was (hostile try-out 13: resumed as "nothing to compute")
    (lambda m: {**m, "rules": {**m["rules"], "bolts": "off"}}, "its rules do not match its rules_hash"),
    (lambda m: {**m, "rules": None}, "its rules do not match its rules_hash"),
])
def test_a_damaged_metadata_file_is_a_clear_error_for_load_and_resume(tmp_path, edit, needle):
    # A hand-edited metadata.json must not make load drop chunks silently or a resume
    # report "nothing to compute" for a run it cannot read.
    sim.simulate(3_000, seed=3, chunk_size=1_000, out=tmp_path / "r")
    path = tmp_path / "r" / "metadata.json"
    path.write_text(json.dumps(edit(json.loads(path.read_text()))))
    for attempt in (lambda: sim.load(tmp_path / "r"),
                    lambda: sim.simulate(3_000, seed=3, chunk_size=1_000, out=tmp_path / "r", resume=True)):
        with pytest.raises(ThousandError) as e:
            attempt()
        assert "\n" not in str(e.value) and "is damaged" in str(e.value) and needle in str(e.value)


def test_existing_run_is_not_overwritten_without_resume(tmp_path):
    sim.simulate(1_000, out=tmp_path / "r", chunk_size=500)
    with pytest.raises(ThousandError, match="--resume"):
        sim.simulate(1_000, out=tmp_path / "r", chunk_size=500)
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "notes.txt").write_text("mine")
    with pytest.raises(ThousandError, match="not empty"):
        sim.simulate(1_000, out=tmp_path / "other", chunk_size=500)


# --------------------------------------------------------------------------- bad input
@pytest.mark.parametrize("kwargs, needle", [
    (dict(n_deals=-5), "positive"),
    (dict(n_deals=0), "positive"),
    (dict(backend="spark"), "unknown backend"),
    (dict(jobs=0), "jobs"),
    (dict(chunk_size=0), "chunk size"),
    (dict(strategies=["standard", "random"]), "one per seat"),
    (dict(seed=-1), "seed"),
    (dict(scheduler="tcp://127.0.0.1:9"), "--backend dask"),
    (dict(resume=True), "--resume needs --out"),
])
def test_bad_arguments_are_one_line_errors(kwargs, needle):
    args = {"n_deals": 1_000, "chunk_size": 500, **kwargs}
    with pytest.raises(ThousandError) as e:
        sim.simulate(**args)
    assert needle in str(e.value) and "\n" not in str(e.value)


def test_unwritable_output_is_an_error(tmp_path):
    blocker = tmp_path / "a_file"
    blocker.write_text("x")
    with pytest.raises(ThousandError, match="cannot create output directory"):
        sim.simulate(1_000, out=blocker / "run", chunk_size=500)


def test_unreachable_scheduler_is_an_error(monkeypatch):
    monkeypatch.setattr(pool, "DASK_CONNECT_TIMEOUT", "1s")
    with pytest.raises(ThousandError, match="cannot reach the Dask scheduler"):
        sim.simulate(1_000, backend="dask", scheduler="tcp://127.0.0.1:9", chunk_size=500)


def test_a_run_refused_before_any_chunk_leaves_no_directory_it_made(tmp_path, monkeypatch):
    # an unreachable scheduler left --out with a metadata.json "running" (try-out 35); a
    # directory that was there before stays, with what it held
    monkeypatch.setattr(pool, "DASK_CONNECT_TIMEOUT", "1s")
    kw = dict(backend="dask", scheduler="tcp://127.0.0.1:9", chunk_size=500)
    with pytest.raises(ThousandError, match="cannot reach the Dask scheduler"):
        sim.simulate_games(1_000, out=tmp_path / "g", deals_out=tmp_path / "d", **kw)
    assert not (tmp_path / "g").exists() and not (tmp_path / "d").exists()
    (tmp_path / "mine").mkdir()
    with pytest.raises(ThousandError, match="cannot reach the Dask scheduler"):
        sim.simulate(1_000, out=tmp_path / "mine", **kw)
    assert (tmp_path / "mine").is_dir()


def test_a_refused_connection_is_said_at_once_not_after_the_timeout(monkeypatch):
    # distributed retries a refused port until its timeout (10 s; try-out 5)
    monkeypatch.setattr(pool, "DASK_CONNECT_TIMEOUT", "30s")
    started = time.monotonic()
    with pytest.raises(ThousandError, match="the connection was refused"):
        sim.simulate(1_000, backend="dask", scheduler="tcp://127.0.0.1:9", chunk_size=500)
    assert time.monotonic() - started < 10


def test_load_rejects_a_directory_without_a_run(tmp_path):
    with pytest.raises(ThousandError, match="not a thousand dataset"):
        sim.load(tmp_path)


# --------------------------------------------------------------------------- progress, memory
def test_progress_bar_only_when_asked_or_on_a_terminal(tmp_path, capsys):
    sim.simulate(2_000, chunk_size=500, out=tmp_path / "a")  # stderr is captured: not a terminal
    assert capsys.readouterr().err == ""
    sim.simulate(2_000, chunk_size=500, out=tmp_path / "b", progress=True)
    err = capsys.readouterr().err
    assert "2.00k/2.00k" in err or "2000/2000" in err


def test_memory_stays_flat_as_the_run_grows(tmp_path):
    def peak(n: int, name: str) -> int:
        tracemalloc.start()
        sim.simulate(n, chunk_size=2_000, out=tmp_path / name, backend="threads", jobs=1)
        _, top = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        return top
    small, large = peak(4_000, "s"), peak(40_000, "l")
    assert large < 1.5 * small + 1_000_000, (small, large)


def test_a_bad_deals_out_leaves_no_trace_in_out(tmp_path):
    sim.simulate_games(40, chunk_size=20, out=tmp_path / "g1", deals_out=tmp_path / "d")
    with pytest.raises(ThousandError, match="already holds a run"):
        sim.simulate_games(40, chunk_size=20, out=tmp_path / "g2", deals_out=tmp_path / "d")
    assert not (tmp_path / "g2" / "metadata.json").exists()  # g2 can still be used afresh


@pytest.mark.parametrize("spec", ["classic:players=4", "polish:players=2"])
def test_other_table_sizes_have_a_column_per_seat(tmp_path, spec):
    players = parse_rules_spec(spec).players
    deals = sim.simulate(3_000, spec, chunk_size=1_000, out=tmp_path / "d").collect()
    assert deals.columns == list(schema.deal_columns(players))
    games = sim.simulate_games(20, spec, chunk_size=10, out=tmp_path / "g").collect()
    assert games.columns == list(schema.game_columns(players)) and games.height == 20


def _die_on_chunk_3(task):
    if task.index == 3:
        os._exit(1)  # a worker killed mid-run (out of memory, kill -9)
    return _real_run_chunk(task)


_real_run_chunk = chunks.run_chunk


def test_a_dead_worker_is_a_clear_error_and_the_run_resumes(tmp_path, monkeypatch):
    monkeypatch.setattr(chunks, "run_chunk", _die_on_chunk_3)
    with pytest.raises(ThousandError, match="worker process died.*--resume"):
        sim.simulate(6_000, seed=3, chunk_size=1_000, jobs=2, out=tmp_path / "r")
    monkeypatch.setattr(chunks, "run_chunk", _real_run_chunk)
    sim.simulate(6_000, seed=3, chunk_size=1_000, jobs=2, out=tmp_path / "r", resume=True)
    sim.simulate(6_000, seed=3, chunk_size=1_000, out=tmp_path / "ref")
    assert files_of(tmp_path / "r") == files_of(tmp_path / "ref")


def test_first_chunk_continues_the_same_experiment(tmp_path):
    full = tmp_path / "full"
    sim.simulate(5_000, seed=12, chunk_size=1_000, out=full)
    later = tmp_path / "later"
    result = sim.run("deals", 5_000, seed=12, chunk_size=1_000, out=later, first_chunk=3)
    assert result.computed == 2_000 and result.n == 2_000
    assert files_of(later) == {name: data for name, data in files_of(full).items()
                               if name in (sim.chunk_file(3), sim.chunk_file(4))}
    frame = sim.load(later).collect()
    assert set(frame["chunk"].unique()) == {3, 4}
    expected = sim.load(full).filter(pl.col("chunk") >= 3).drop("deal_id").collect()
    assert_frame_equal(frame.drop("deal_id"), expected)
    with pytest.raises(ThousandError, match="first_chunk="):
        sim.run("deals", 5_000, seed=12, chunk_size=1_000, out=later, first_chunk=2, resume=True)
    with pytest.raises(ThousandError, match="first_chunk must be"):
        sim.run("deals", 5_000, seed=12, chunk_size=1_000, first_chunk=5)


def test_a_chunk_too_large_for_the_stored_row_counter_is_refused():
    # deal_id is stored as int32 (it counts the rows of its chunk): a value past it is an error
    cols = {"deal_id": np.array([0, 2**31], dtype=np.int64)}
    with pytest.raises(ThousandError, match="use a smaller --chunk-size"):
        chunks.stored_columns(cols, ["deal_id"])
    assert chunks.stored_columns({"deal_id": np.array([0, 2**31 - 1], dtype=np.int64)}, ["deal_id"])["deal_id"].dtype == np.int32


def test_too_many_chunks_and_unknown_compression_are_refused_before_any_work(tmp_path):
    with pytest.raises(ThousandError, match=r"make 3,000,000 chunk files, more than 100,000; use a chunk size of at least 30"):
        sim.run("deals", 3_000_000, chunk_size=1, out=tmp_path / "a")
    with pytest.raises(ThousandError, match="unknown compression 'zip'"):
        sim.run("deals", 1_000, compression="zip", out=tmp_path / "b")
    assert not (tmp_path / "a").exists() and not (tmp_path / "b").exists()


def test_an_interrupted_run_without_out_says_nothing_is_kept(monkeypatch, capsys):
    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt
        yield  # pragma: no cover - a generator, as run_tasks is
    monkeypatch.setattr(pool, "run_tasks", interrupted)
    with pytest.raises(KeyboardInterrupt):
        sim.run("deals", 1_000, chunk_size=500)
    err = capsys.readouterr().err
    assert "nothing is kept (no --out was given" in err and "--resume" not in err


def test_deals_out_metadata_lists_every_column_written(tmp_path):
    sim.simulate_games(20, seed=2, chunk_size=10, out=tmp_path / "g", deals_out=tmp_path / "d")
    meta = sim.read_metadata(tmp_path / "d")
    frame = sim.load(tmp_path / "d").collect()
    assert list(meta["schema"]) == frame.columns
    assert {"total0", "total2", "forehand"} <= set(frame.columns)


def test_output_folder_errors_name_the_option(tmp_path):
    (tmp_path / "afile").write_text("x")
    with pytest.raises(ThousandError, match="--out '.*afile' is a file, not a directory"):
        sim.run("deals", 1_000, out=tmp_path / "afile")
    if os.path.exists("/dev/null"):      # not "a file" (try-out 6)
        with pytest.raises(ThousandError, match="--out '/dev/null' is a device, not a directory"):
            sim.run("deals", 1_000, out=Path("/dev/null"))
    sim.simulate_games(10, chunk_size=10, out=tmp_path / "g1", deals_out=tmp_path / "d1")
    with pytest.raises(ThousandError, match="already holds a run; use --resume to continue it or choose another --deals-out"):
        sim.simulate_games(10, chunk_size=10, out=tmp_path / "g2", deals_out=tmp_path / "d1")
    with pytest.raises(ThousandError, match="--scheduler is empty"):
        sim.run("deals", 1_000, backend="dask", scheduler="", out=tmp_path / "s")
    meta = json.loads((tmp_path / "g1" / "metadata.json").read_text())
    (tmp_path / "g1" / "metadata.json").write_text(json.dumps({**{k: v for k, v in meta.items() if k != "first_chunk"}, "format": 1}))
    with pytest.raises(ThousandError, match="it was run with format=1, not 3"):  # named for what it is
        sim.simulate_games(10, chunk_size=10, out=tmp_path / "g1", deals_out=tmp_path / "d1", resume=True)


def test_load_refuses_a_first_chunk_that_hides_chunk_files(tmp_path):
    # QA: a metadata.json edited to first_chunk=2 made load skip chunks 0 and 1 silently
    sim.simulate(4_000, seed=3, chunk_size=1_000, out=tmp_path / "r")
    path = tmp_path / "r" / "metadata.json"
    path.write_text(json.dumps({**json.loads(path.read_text()), "first_chunk": 2}))
    with pytest.raises(ThousandError, match="is damaged: first_chunk=2, but chunk files before it are there"):
        sim.load(tmp_path / "r")


def test_deals_out_and_out_must_not_nest(tmp_path):
    for out, deals in (("gz/deals", "gz"), ("gz", "gz/deals")):
        with pytest.raises(ThousandError, match="must not be inside one another"):
            sim.simulate_games(10, chunk_size=10, out=tmp_path / out, deals_out=tmp_path / deals)
    assert not (tmp_path / "gz").exists()   # refused before either folder was made


@pytest.mark.parametrize("argv", [
    ["simulate", "--deals", "1000", "--backend", "dask", "--out", "{out}"],
    ["match", "--strategy", "random", "--strategy", "standard", "--deals", "100", "--backend", "dask",
     "--out", "{out}"],
])
def test_the_dask_backend_without_dask_is_one_line_before_any_work(tmp_path, capsys, monkeypatch, argv):
    # it was a traceback (No module named 'distributed') and a half-made run folder
    # (try-out 6): the "dask" extra is not part of a plain install
    import importlib.util

    from thousand.cli import main
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "distributed" else real(name, *a))
    out = tmp_path / "x"
    assert main([a.replace("{out}", str(out)) for a in argv]) == 2
    assert capsys.readouterr().err.strip().endswith(
        "error: the dask backend needs dask[distributed]: pip install 'thousand[dask]'")
    assert not out.exists()


def test_the_disk_room_warning_reads_right(tmp_path, monkeypatch, capsys):
    # "a run of 200,000 deals take about ..." (try-out 27)
    from collections import namedtuple

    import thousand.simulate as simulate_module

    usage = namedtuple("usage", "total used free")
    monkeypatch.setattr(simulate_module.shutil, "disk_usage", lambda path: usage(10**6, 0, 10**5))
    assert simulate_module._check_room("deals", 200_000, 3, str(tmp_path), temporary=False)
    assert capsys.readouterr().err.startswith("warning: a run of 200,000 deals takes about ")
    assert simulate_module._check_room("deals", 5_000, 3, str(tmp_path), temporary=False, left=True)
    assert capsys.readouterr().err.startswith("warning: the 5,000 deals left take about ")
