"""Kernel speed on one core, all figures measured in one run.

Prints played deals per second of ``thousand.kernel.play_deals`` (the kernel plus its
column output; redeal rows come on top) for the ``random``, ``greedy`` and ``standard``
strategies under ``classic``; whole games per second; the forced-declarer mode; and the
ratio kernel / reference engine (the same random deals played by
``thousand.reference.play_deal`` with ``RandomPlayer``).

    .venv/bin/python benchmarks/bench_kernel.py [--deals 1000000] [--repeat 3]

The best of ``--repeat`` runs is reported, as deals per CPU second of this process (the
rate of one core, which other jobs on a shared machine do not change much) and by the
wall clock.
"""
from __future__ import annotations

import argparse
import time

import numpy as np

from thousand import _fastdeal, kernel
from thousand.cards import parse_hand
from thousand.reference import RandomPlayer, Stream, play_deal
from thousand.rules import CLASSIC


def best_rate(fn, count: int, repeat: int) -> tuple[float, float]:
    """Best rate over ``repeat`` runs: by wall clock, and by this process's CPU time (the
    rate of one core when other jobs share the machine)."""
    wall = cpu = float("inf")
    for i in range(repeat):
        t, c = time.perf_counter(), time.process_time()
        fn(i)
        wall = min(wall, time.perf_counter() - t)
        cpu = min(cpu, time.process_time() - c)
    return count / wall, count / cpu


def reference_rate(n: int) -> float:
    """Played deals per CPU second of the reference engine with random players."""
    stream = Stream(np.random.PCG64(1))
    players = [RandomPlayer(stream)] * 3
    t = time.process_time()
    dealer = played = 0
    while played < n:
        res = play_deal(CLASSIC, players, stream, dealer)
        if not res.is_redeal:
            played += 1
            dealer = (dealer + 1) % 3
    return n / (time.process_time() - t)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=1_000_000)
    ap.add_argument("--games", type=int, default=5_000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--reference-deals", type=int, default=3_000)
    a = ap.parse_args()
    built = ", ".join(f"{k} {'on' if v else 'off'}" for k, v in _fastdeal.build_info().items())
    print(f"classic rules, one core, best of {a.repeat}; kernel built with {built}")
    rates = {}
    for strategy in ("random", "greedy", "standard"):
        wall, cpu = best_rate(
            lambda i: kernel.play_deals(np.random.PCG64(i), CLASSIC, strategy, n_deals=a.deals),
            a.deals, a.repeat)
        rates[strategy] = cpu
        print(f"  kernel play_deals {strategy:9s} {cpu:>12,.0f} deals/s per core (CPU time); "
              f"{wall:,.0f} by the wall clock")
    for strategy in ("greedy", "standard"):
        # a batch of games lasts a fraction of a second: more of them, so that the best
        # one is an undisturbed one on this shared machine
        wall, g = best_rate(lambda i: kernel.play_games(np.random.PCG64(i), CLASSIC, strategy, n_games=a.games),
                            a.games, max(a.repeat, 5))
        games, _ = kernel.play_games(np.random.PCG64(0), CLASSIC, strategy, n_games=a.games)
        print(f"  kernel play_games {strategy:9s} {g:>12,.0f} games/s per core "
              f"({games['deals'].mean():.0f} played deals per game)")
    hand = parse_hand("AH TH KH QH AS TS AD")
    t = time.perf_counter()
    kernel.play_forced_declarer(np.random.PCG64(1), CLASSIC, "standard", hand=hand, role="forehand", n_samples=100_000)
    t_sampled = time.perf_counter() - t
    t = time.perf_counter()
    kernel.play_forced_declarer(np.random.PCG64(1), CLASSIC, "standard", hand=hand, role="forehand", n_samples=0,
                                exact=True)
    t_exact = time.perf_counter() - t
    print(f"  forced declarer: 100,000 samples {t_sampled:.2f} s; exact (2,333,760) {t_exact:.2f} s")
    ref = reference_rate(a.reference_deals)
    print(f"  reference engine  random    {ref:>12,.0f} deals/s per core")
    print(f"  kernel / reference (random players): {rates['random'] / ref:,.0f}x")


if __name__ == "__main__":
    main()
