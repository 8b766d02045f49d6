"""A run killed by Ctrl-C loses nothing written and resumes to the uninterrupted dataset."""
from __future__ import annotations

import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from thousand import simulate as sim
from thousand.runner import pool


def thousand(*args: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "thousand", *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


def files_of(path: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(path.glob("chunk-*.parquet"))}


@pytest.mark.parametrize("backend", ["loky", "threads"])
def test_sigint_mid_run_then_resume_gives_the_full_dataset(tmp_path, backend):
    # Many small chunks: the run lasts long enough to be interrupted mid-way however fast
    # the kernel is, since writing a file costs a few milliseconds.
    args = ["simulate", "--deals", "30000", "--chunk-size", "200", "--seed", "5", "--jobs", "2",
            "--backend", backend]
    cut = tmp_path / "cut"
    proc = thousand(*args, "--out", str(cut))
    deadline = time.monotonic() + 60
    while len(list(cut.glob("chunk-*.parquet"))) < 10:
        assert proc.poll() is None, proc.communicate()
        assert time.monotonic() < deadline
        time.sleep(0.02)
    proc.send_signal(signal.SIGINT)
    sent = time.monotonic()
    out, err = proc.communicate(timeout=60)
    # Prompt: only the chunks being computed (milliseconds each here) are finished first.
    assert time.monotonic() - sent < 10, "the run did not stop promptly"
    assert proc.returncode == 130, err
    assert "interrupted" in err and "--resume" in err
    n_chunks = sim.read_metadata(cut)["n_chunks"]
    written = files_of(cut)
    stamps = {p.name: p.stat().st_mtime_ns for p in cut.glob("chunk-*.parquet")}
    assert 10 <= len(written) < n_chunks, "the run was not interrupted mid-way"
    assert sim.read_metadata(cut)["status"] == "running"

    resume = thousand(*args, "--out", str(cut), "--resume")
    out, err = resume.communicate(timeout=120)
    assert resume.returncode == 0, err
    assert "(of 30,000" in out
    full = tmp_path / "full"  # the uninterrupted run, in this process (the same call the CLI makes)
    sim.simulate(30_000, "classic", seed=5, chunk_size=200, jobs=1, out=full)
    resumed = files_of(cut)
    assert len(resumed) == n_chunks and resumed == files_of(full)
    assert all(written[name] == resumed[name] for name in written)
    assert all((cut / name).stat().st_mtime_ns == stamp for name, stamp in stamps.items())  # kept, not redone
    assert not list(cut.glob(".*.tmp"))


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="PR_SET_PDEATHSIG is Linux's")
def test_killed_run_takes_its_workers_along(tmp_path):
    # SIGKILL (what the out-of-memory killer sends) gives the run no chance to stop its
    # loky workers; they must not go on writing chunks, orphaned.
    from helpers.processes import orphans_after_sigkill
    proc = thousand("simulate", "--deals", "50000000", "--jobs", "2", "--out", str(tmp_path / "r"))
    assert orphans_after_sigkill(proc, settle=1.0) == set()


def test_a_pool_broken_by_ctrl_c_counts_as_the_interrupt():
    from concurrent.futures.process import BrokenProcessPool
    crash = BrokenProcessPool("A worker process managed by the executor was unexpectedly terminated. "
                              "The exit codes of the workers are {SIGKILL(-9)}")
    by_ctrl_c = BrokenProcessPool("... The exit codes of the workers are {SIGINT(-2)}")
    caught = BrokenProcessPool("a task failed")
    caught.__cause__ = KeyboardInterrupt()
    assert not pool.killed_by_interrupt(crash)
    assert pool.killed_by_interrupt(by_ctrl_c) and pool.killed_by_interrupt(caught)


def _blocked_signals(_: int) -> int:
    """In a worker: the mask of blocked signals (SigBlk in /proc/self/status)."""
    status = Path("/proc/self/status").read_text()
    return int(next(line for line in status.splitlines() if line.startswith("SigBlk:")).split()[1], 16)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads the signal mask from /proc")
def test_loky_workers_start_with_ctrl_c_blocked():
    from joblib import Parallel, delayed
    masks = Parallel(n_jobs=2, backend=pool.loky_backend())(delayed(_blocked_signals)(i) for i in range(4))
    assert all(mask & (1 << (signal.SIGINT - 1)) for mask in masks)
    # and the run's own process still takes Ctrl-C
    assert signal.SIGINT not in signal.pthread_sigmask(signal.SIG_BLOCK, set())


def _catches_sigint(pid: int) -> bool:
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return False
    caught = int(next(line for line in status.splitlines() if line.startswith("SigCgt:")).split()[1], 16)
    return bool(caught & (1 << (signal.SIGINT - 1)))


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="finds the workers through /proc")
def test_ctrl_c_in_a_terminal_while_workers_start_prints_one_line(tmp_path):
    # A terminal sends Ctrl-C to the whole process group, workers included; a worker
    # still importing used to die of it with a traceback of its own on the screen.
    import os

    from helpers.processes import gone, loky_workers
    proc = subprocess.Popen([sys.executable, "-m", "thousand", "simulate", "--deals", "50000000", "--jobs", "2",
                             "--out", str(tmp_path / "r")], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, start_new_session=True)
    deadline = time.monotonic() + 60
    workers: set[int] = set()
    # Wait until both workers' Python has installed its Ctrl-C handler (SigCgt): from then
    # on, during the imports that follow, Ctrl-C would raise KeyboardInterrupt in them.
    while len(workers) < 2 or not all(_catches_sigint(w) for w in workers):
        assert proc.poll() is None and time.monotonic() < deadline, proc.communicate()
        time.sleep(0.005)
        workers = loky_workers(proc.pid)
    os.killpg(proc.pid, signal.SIGINT)   # the workers are still starting up
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert "Traceback" not in err and "KeyboardInterrupt" not in err, err
    assert err.splitlines()[-1] == "thousand simulate: interrupted"
    assert gone(workers)
