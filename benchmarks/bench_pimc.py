"""Time per decision of the search player ``pimc`` (src/_pimc.pxi), one core.

Classic deals are played by the reference engine with every seat a ``KernelPlayer`` of
the pimc spec asked (so each decision is one call of the kernel's single-decision entry,
``thousand.kernel.decide``, timed from Python around it: the call's overhead, some tens
of microseconds, is counted).  Forced cards (one legal card) are not decisions.  For each
decision kind (card play: as declarer, as defender, and by trick; hand-off; raise/resign)
it prints the count, the mean, the median and the 90th percentile in milliseconds of
the thread's CPU time (time.thread_time: a loaded machine stretches wall clocks, much
less the CPU time).

    .venv/bin/python benchmarks/bench_pimc.py [--deals 30] [--seed 1] [--spec pimc --spec pimc:worlds=8]

Several ``--spec`` run one after the other (a budget curve).  The issue's target (issue
14): at most 5 ms per decision at the default setting.  The figures move with the
machine's load: quote them with the date.
"""
from __future__ import annotations

import argparse
import time
from collections import defaultdict

import numpy as np

from thousand.reference import Stream, play_deal
from thousand.rules import CLASSIC
from thousand.strategies import KernelPlayer, parse_strategy


class TimedPlayer(KernelPlayer):
    """A KernelPlayer recording the time of every kernel call, by decision kind."""

    def __init__(self, spec: str, times: dict, bitgen) -> None:
        p = parse_strategy(spec)
        super().__init__(p.name, p.given or None, bitgen=bitgen)
        self.times = times

    def _decide(self, kind, view, **extra):
        if kind == "play" and not (extra["legal"] & (extra["legal"] - 1)):
            return super()._decide(kind, view, **extra)      # forced: not a decision
        t0 = time.thread_time()
        out = super()._decide(kind, view, **extra)
        dt = (time.thread_time() - t0) * 1e3
        if kind == "play":
            role = "declarer" if view.seat == view.declarer else "defender"
            self.times[f"play ({role})"].append(dt)
            self.times[f"play, trick {view.trick_index + 1}"].append(dt)
            self.times["play (all)"].append(dt)
        elif kind in ("hand_off", "raise"):
            self.times[kind].append(dt)
        return out


def measure(spec: str, deals: int, seed: int) -> dict[str, list[float]]:
    times: dict[str, list[float]] = defaultdict(list)
    bitgen = np.random.PCG64(seed)
    stream = Stream(bitgen)
    players = [TimedPlayer(spec, times, bitgen) for _ in range(3)]
    played = dealer = 0
    while played < deals:
        res = play_deal(CLASSIC, players, stream, dealer)
        if not res.is_redeal:
            played += 1
            dealer = (dealer + 1) % 3
    return times


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--deals", type=int, default=30)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--spec", action="append", help="pimc spec (repeatable; default: the default pimc)")
    args = ap.parse_args()
    for spec in args.spec or ["pimc"]:
        times = measure(spec, args.deals, args.seed)
        every = times["play (all)"] + times["hand_off"] + times["raise"]
        print(f"{spec}: {args.deals} classic deals, {len(every)} decisions, "
              f"{np.mean(every):.2f} ms per decision on average (target <= 5 ms)")
        order = ["play (all)", "play (declarer)", "play (defender)", "hand_off", "raise"]
        order += sorted(k for k in times if k.startswith("play, trick"))
        for k in order:
            v = np.asarray(times.get(k, []))
            if len(v):
                print(f"  {k:18s} n={len(v):5d}  mean {v.mean():7.2f}  median {np.median(v):7.2f}  "
                      f"p90 {np.percentile(v, 90):7.2f} ms")


if __name__ == "__main__":
    main()
