"""A run killed by Ctrl-C loses nothing written and resumes to the uninterrupted dataset."""
from __future__ import annotations

import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from thousand import simulate as sim


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
    from _processes import orphans_after_sigkill
    proc = thousand("simulate", "--deals", "50000000", "--jobs", "2", "--out", str(tmp_path / "r"))
    assert orphans_after_sigkill(proc, settle=1.0) == set()


def test_a_pool_broken_by_ctrl_c_counts_as_the_interrupt():
    from concurrent.futures.process import BrokenProcessPool
    crash = BrokenProcessPool("A worker process managed by the executor was unexpectedly terminated. "
                              "The exit codes of the workers are {SIGKILL(-9)}")
    by_ctrl_c = BrokenProcessPool("... The exit codes of the workers are {SIGINT(-2)}")
    caught = BrokenProcessPool("a task failed")
    caught.__cause__ = KeyboardInterrupt()
    assert not sim.killed_by_interrupt(crash)
    assert sim.killed_by_interrupt(by_ctrl_c) and sim.killed_by_interrupt(caught)
