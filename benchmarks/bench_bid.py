"""Speed of ``thousand bid``: 100,000 samples (target < 3 s) and --exact (target < 15 s).

Measures the whole command as a user runs it (a fresh process: import, simulation,
statistics, output), and the parts in-process: the kernel's forced-declarer run and the
statistics on its output.  Usage::

    .venv/bin/python benchmarks/bench_bid.py [--hand "AH TH KH QH AD 9S JC"] [--repeat 3]

Prints one line per measurement and exits 1 if a target is missed.
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time

TARGETS = {"samples": 3.0, "exact": 15.0}


def wall(cmd: list[str]) -> float:
    t0 = time.perf_counter()
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - t0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--hand", default="AH TH KH QH AD 9S JC")
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()

    from thousand.analysis import bids as B
    from thousand.cards import parse_hand
    from thousand.rules import CLASSIC

    hand = parse_hand(args.hand, n=7)
    print(f"thousand bid benchmark: hand {args.hand}, classic, cpu count {os.cpu_count()}, best of {args.repeat}")
    ok = True
    for label, extra, n in (("samples", ["--samples", "100000"], 100_000), ("exact", ["--exact"], B.N_COMPLETIONS)):
        cmd = [sys.executable, "-m", "thousand", "bid", args.hand, *extra, "--json"]
        best = min(wall(cmd) for _ in range(args.repeat))
        kern = stats = float("inf")
        for _ in range(args.repeat):
            t0 = time.perf_counter()
            c = B.simulate_hand(hand, CLASSIC, "forehand", samples=n, exact=label == "exact", seed=1)
            t1 = time.perf_counter()
            B.estimate_from_completions(c, CLASSIC)
            t2 = time.perf_counter()
            kern, stats = min(kern, t1 - t0), min(stats, t2 - t1)
        target = TARGETS[label]
        verdict = "ok" if best < target else "TOO SLOW"
        ok &= best < target
        print(f"  --{label:<8} {n:>9,} completions: command {best:6.2f} s (target < {target:g} s, {verdict}); "
              f"kernel {kern:6.2f} s ({n / kern:,.0f} deals/s), statistics {stats:5.2f} s")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
