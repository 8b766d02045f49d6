"""Worker processes seen from /proc: for tests that kill a run and look for orphans (Linux)."""
from __future__ import annotations

import signal
import subprocess
import time
from pathlib import Path


def _state(pid: int | str) -> str:
    return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]


def loky_workers(pid: int) -> set[int]:
    """Live loky worker processes among the children of ``pid``."""
    out = set()
    for task in Path(f"/proc/{pid}/task").iterdir():
        for child in (task / "children").read_text().split():
            try:
                cmd = Path(f"/proc/{child}/cmdline").read_bytes()
                state = _state(child)
            except OSError:
                continue
            if b"popen_loky_posix" in cmd and state != "Z":
                out.add(int(child))
    return out


def gone(pids: set[int], timeout: float = 15.0) -> bool:
    """Whether every process of ``pids`` has exited (zombies count as gone) within ``timeout``."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        alive = set()
        for p in pids:
            try:
                if _state(p) != "Z":
                    alive.add(p)
            except OSError:
                pass
        if not alive:
            return True
        time.sleep(0.2)
    return False


def orphans_after_sigkill(proc: subprocess.Popen, workers: int = 2, settle: float = 2.0) -> set[int]:
    """Wait until ``proc`` runs ``workers`` loky workers, let them take a chunk, SIGKILL
    ``proc`` (what the out-of-memory killer sends); the workers still alive 15 s later."""
    try:
        deadline = time.monotonic() + 60
        seen: set[int] = set()
        while len(seen) < workers and time.monotonic() < deadline:
            time.sleep(0.3)
            seen = loky_workers(proc.pid)
        assert len(seen) == workers, "the workers never started"
        time.sleep(settle)
        proc.send_signal(signal.SIGKILL)
        proc.wait(10)
        return set() if gone(seen) else seen
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(10)
