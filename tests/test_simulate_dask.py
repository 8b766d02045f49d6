"""The Dask backend on a real dask.distributed cluster gives the same dataset as loky."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from thousand import simulate as sim

import distributed  # part of the test extra: a missing install must fail, not skip
@pytest.fixture(scope="module")
def cluster():
    # Two worker processes: the chunks really run elsewhere and come back only as files.
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=":0") as c:
        yield c


def files_of(path: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(path.glob("chunk-*.parquet"))}


def test_dask_cluster_gives_the_same_files_as_loky(tmp_path, cluster):
    kw = dict(seed=21, chunk_size=2_000)
    sim.simulate(11_000, jobs=1, backend="loky", out=tmp_path / "loky", **kw)
    result = sim.run("deals", 11_000, backend="dask", scheduler=cluster.scheduler_address,
                     out=tmp_path / "dask", **kw)
    assert result.computed == 11_000
    assert files_of(tmp_path / "dask") == files_of(tmp_path / "loky")
    # The chunks were computed by the cluster's workers, not by this process.
    assert any("run_chunk" in prefix for prefix in cluster.scheduler.task_prefixes)


def test_dask_games_and_resume_on_the_cluster(tmp_path, cluster):
    kw = dict(seed=22, chunk_size=40)
    sim.simulate_games(150, out=tmp_path / "ref", deals_out=tmp_path / "refd", **kw)
    sim.simulate_games(150, out=tmp_path / "g", deals_out=tmp_path / "gd", backend="dask",
                       scheduler=cluster.scheduler_address, **kw)
    (tmp_path / "g" / sim.chunk_file(2)).unlink()
    sim.simulate_games(150, out=tmp_path / "g", deals_out=tmp_path / "gd", backend="dask",
                       scheduler=cluster.scheduler_address, resume=True, **kw)
    assert files_of(tmp_path / "g") == files_of(tmp_path / "ref")
    assert files_of(tmp_path / "gd") == files_of(tmp_path / "refd")


def test_compare_goes_to_the_cluster_with_the_same_result(tmp_path, cluster, capsys):
    # compare had no --backend: a comparison could not leave the machine (try-out 6)
    from thousand.cli import main
    argv = ["compare", "--rules", "classic", "--rules", "classic:bolts=off", "--deals", "3000", "--seed", "4",
            "--json", "--no-progress"]
    assert main(argv + ["--jobs", "1"]) == 0
    one = capsys.readouterr().out
    assert main(argv + ["--backend", "dask", "--scheduler", cluster.scheduler_address]) == 0
    assert capsys.readouterr().out == one
    assert any("play_paired_chunk" in prefix for prefix in cluster.scheduler.task_prefixes)
    assert main(argv + ["--scheduler", cluster.scheduler_address]) == 2
    assert "--scheduler goes with --backend dask" in capsys.readouterr().err


def test_dask_without_a_scheduler_starts_a_local_cluster(tmp_path):
    kw = dict(seed=23, chunk_size=1_000)
    sim.simulate(3_000, out=tmp_path / "ref", **kw)
    sim.simulate(3_000, backend="dask", jobs=1, out=tmp_path / "d", **kw)
    assert files_of(tmp_path / "d") == files_of(tmp_path / "ref")


def test_ctrl_c_in_a_terminal_stops_the_runs_own_cluster_in_one_line(tmp_path):
    # A terminal sends Ctrl-C to the whole process group: the LocalCluster the run starts
    # for itself (its nanny and worker processes) must not answer with tracebacks and
    # log warnings of their own; the run stops it and says so in one line.
    import os
    import signal
    import subprocess
    import sys
    import time

    out = tmp_path / "r"
    proc = subprocess.Popen([sys.executable, "-m", "thousand", "simulate", "--deals", "20000000", "--jobs", "2",
                             "--backend", "dask", "--chunk-size", "100000", "--out", str(out)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    deadline = time.monotonic() + 120
    while not list(out.glob("chunk-*.parquet")):   # the cluster is up and computing
        assert proc.poll() is None and time.monotonic() < deadline, proc.communicate()
        time.sleep(0.05)
    os.killpg(proc.pid, signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    # No process of the cluster dies of the Ctrl-C with a traceback, and nothing is
    # logged about the dropped tasks.  (Not checked: on a heavily loaded machine a dask
    # worker torn down mid-task may still print distributed's own "Exception ignored in
    # Client.__del__ ... IOLoop is closed"; docs/runner.md says so.)
    assert "KeyboardInterrupt" not in err and "WARNING" not in err, err
    lines = err.strip().splitlines()
    assert lines[-1] == "thousand simulate: interrupted"
    assert lines[-2].startswith("interrupted: ") and "--resume" in lines[-2]


def test_a_scheduler_without_workers_is_a_one_line_error_not_a_hang(tmp_path, monkeypatch):
    # The chunks would be queued on a scheduler nobody serves, and the run would wait forever.
    from thousand.errors import ThousandError
    from thousand.runner import pool
    monkeypatch.setattr(pool, "DASK_CONNECT_TIMEOUT", "2s")
    import threading
    outcome = []

    def run(address):
        try:
            sim.simulate(1_000, backend="dask", scheduler=address, out=tmp_path / "r")
            outcome.append(None)
        except BaseException as e:
            outcome.append(e)
    with distributed.LocalCluster(n_workers=0, processes=True, dashboard_address=":0") as empty:
        waiting = threading.Thread(target=run, args=(empty.scheduler_address,), daemon=True)
        waiting.start()
        waiting.join(60)
        assert outcome, "the run hangs on a scheduler without workers"
    assert isinstance(outcome[0], ThousandError), outcome
    assert re.search(r"has no workers \(none joined within 2s\); start some with `dask worker tcp://",
                     str(outcome[0]))


def test_a_scheduler_lost_mid_run_is_one_line_and_the_written_chunks_resume(tmp_path):
    # The user's cluster stops under the run: Dask cancels the tasks left ("scheduler-
    # connection-lost"), which came out as a traceback; now it is said like a worker that
    # died, with what is kept, and the same run goes on elsewhere with --resume.
    import subprocess
    import sys
    import threading
    import time

    from thousand.errors import ThousandError
    script = tmp_path / "cluster.py"
    script.write_text("import time, distributed\n"
                      "if __name__ == '__main__':\n"
                      "    c = distributed.LocalCluster(n_workers=2, threads_per_worker=1, dashboard_address=None)\n"
                      "    print(c.scheduler_address, flush=True)\n"
                      "    time.sleep(600)\n")
    proc = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE, text=True, cwd=tmp_path)
    kw = dict(seed=24, chunk_size=10)
    out = tmp_path / "d"
    outcome = []
    try:
        address = proc.stdout.readline().strip()

        def run():
            try:
                sim.simulate(6_000, backend="dask", scheduler=address, out=out, **kw)
                outcome.append(None)
            except BaseException as e:
                outcome.append(e)
        t = threading.Thread(target=run, daemon=True)
        t.start()
        deadline = time.monotonic() + 120
        while not list(out.glob("chunk-*.parquet")) and time.monotonic() < deadline:
            time.sleep(0.01)
        proc.terminate()   # as `kill` does: the scheduler stops, its tasks are cancelled
        t.join(120)
    finally:
        proc.kill()
        proc.wait()
    assert outcome, "the run hangs on a lost scheduler"
    e = outcome[0]
    assert isinstance(e, ThousandError), repr(e)
    assert re.fullmatch(r"the Dask scheduler was lost \([\w-]+\); \d+ of 600 chunks are written in \S+; "
                        r"run the same command with --resume to finish", str(e)), str(e)
    sim.simulate(6_000, out=out, resume=True, backend="threads", **kw)
    sim.simulate(6_000, out=tmp_path / "ref", backend="threads", **kw)
    assert files_of(out) == files_of(tmp_path / "ref")
