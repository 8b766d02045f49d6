"""A/B speed of two kernel builds, interleaved in one run (the machine is noisy).

Two worker processes, one importing this checkout's ``thousand`` and one importing a copy
of another build (a folder that holds a ``thousand/`` package with its compiled
``_fastdeal``, e.g. the main checkout's ``src``), take turns on the same workloads:
``play_deals`` (random, greedy, standard) and ``play_games`` (standard).  Each round runs
every workload once on each build, the order alternating between rounds, and times it by
the worker's CPU time.  Printed: the best rate of each build and the median of the
per-round ratios new / base (the ratio of two runs made back to back is steadier than
either rate).

    cp -r /work/main/src/thousand /tmp/base_fastdeal/
    .venv/bin/python benchmarks/ab_kernel.py --base /tmp/base_fastdeal [--rounds 7] [--cpu 1]

``--cpu`` pins both workers to one CPU, so that they never run at the same time and
whatever else runs on the machine disturbs both alike.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys

WORKLOADS = {
    "deals random": ("deals", "random"),
    "deals greedy": ("deals", "greedy"),
    "deals standard": ("deals", "standard"),
    "games standard": ("games", "standard"),
}


def worker() -> None:
    """Serve workload requests on stdin: one JSON line in, the CPU seconds out."""
    import time

    import numpy as np

    from thousand import _fastdeal, kernel
    from thousand.rules import CLASSIC

    print(json.dumps({"kernel": _fastdeal.__file__}), flush=True)
    for line in sys.stdin:
        what, strategy, n, seed = json.loads(line)
        t = time.process_time()
        if what == "deals":
            kernel.play_deals(np.random.PCG64(seed), CLASSIC, strategy, n_deals=n)
        else:
            kernel.play_games(np.random.PCG64(seed), CLASSIC, strategy, n_games=n)
        print(json.dumps(time.process_time() - t), flush=True)


def start(pythonpath: str | None, cpu: int | None) -> subprocess.Popen:
    env = dict(os.environ)
    if pythonpath:
        env["PYTHONPATH"] = pythonpath
    p = subprocess.Popen([sys.executable, __file__, "--worker"], stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, text=True, env=env, cwd="/")
    if cpu is not None:
        os.sched_setaffinity(p.pid, {cpu})
    print(f"  {'base' if pythonpath else 'new '}: {json.loads(p.stdout.readline())['kernel']}")
    return p


def ask(p: subprocess.Popen, request: list) -> float:
    p.stdin.write(json.dumps(request) + "\n")
    p.stdin.flush()
    return json.loads(p.stdout.readline())


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--base", help="folder holding the base build's thousand/ package")
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--deals", type=int, default=300_000)
    ap.add_argument("--games", type=int, default=3_000)
    ap.add_argument("--cpu", type=int, help="pin both workers to this CPU")
    ap.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.worker:
        worker()
        return
    if not a.base:
        ap.error("--base FOLDER is needed (the folder holding the base build's thousand/)")
    builds = {"base": start(a.base, a.cpu), "new": start(None, a.cpu)}
    times: dict[str, dict[str, list[float]]] = {w: {"base": [], "new": []} for w in WORKLOADS}
    for r in range(a.rounds):
        order = ("base", "new") if r % 2 == 0 else ("new", "base")
        for name, (what, strategy) in WORKLOADS.items():
            n = a.deals if what == "deals" else a.games
            for b in order:
                times[name][b].append(ask(builds[b], [what, strategy, n, r]))
    for p in builds.values():
        p.stdin.close()
        p.wait()
    print(f"{a.rounds} rounds; rates are the best round's, per core (CPU time)")
    for name, (what, _) in WORKLOADS.items():
        n = a.deals if what == "deals" else a.games
        unit = "deals/s" if what == "deals" else "games/s"
        tb, tn = times[name]["base"], times[name]["new"]
        ratios = [b / n_ for b, n_ in zip(tb, tn)]
        print(f"  {name:15s} base {n / min(tb):>12,.0f} {unit}  new {n / min(tn):>12,.0f} {unit}  "
              f"new/base: median {statistics.median(ratios):.3f} "
              f"(rounds {min(ratios):.3f}-{max(ratios):.3f}), best/best {min(tb) / min(tn):.3f}")


if __name__ == "__main__":
    main()
