"""Strategies: kernel speed per strategy, and the quality figures of docs/strategies.md.

Run from the repository root::

    .venv/bin/python benchmarks/bench_strategies.py              # speed and quality
    .venv/bin/python benchmarks/bench_strategies.py --speed-only
    .venv/bin/python benchmarks/bench_strategies.py --deals 400000 --games 3000

**Speed**: deals per second of the kernel alone on one core (``Engine.run_deals`` into a
reused column buffer: no Python per deal), ``classic`` rules, the same strategy at all
three seats, for ``random``, ``greedy`` and the sensible family in one run.  Rates are
per CPU second of the process and the best of ``--repeat`` runs, because the machine is
shared.

**Quality** (``classic``):

* three ``standard`` players: the share of played deals in which the declarer makes his
  contract (a resignation counts as not made), the mean score change of the declarer,
  with 95% confidence intervals;
* seat-rotated matches of ``standard`` against two copies of an opponent strategy
  (``random``, ``greedy``) and of each family member against the others: the same deals
  (same seed) are played with the strategy in seat 0, 1 and 2 in turn, so every seat and
  every card deal is played by each side.  Reported: ``standard``'s mean score per
  played deal minus the opponents' mean, and in whole games (seats rotated the same
  way) its win rate against the fair share 1/3, each with a 95% confidence interval
  (normal approximation; deals are independent, the rotations of one seed are paired).
"""
from __future__ import annotations

import argparse
import math
import time

import numpy as np

from thousand import kernel
from thousand.rules import CLASSIC

SPEED_STRATEGIES = ("random", "greedy", "cautious", "standard", "aggressive")


def kernel_rate(strategy: str, n: int, chunk: int = 100_000, repeat: int = 3, seed: int = 1) -> float:
    """Best deals/s (CPU time of this process) of ``repeat`` runs of ``n`` deals, played in
    chunks into one reused column buffer.  CPU time, not wall time, because the machine
    is shared: a busy neighbour lengthens the wall clock, not the work done."""
    eng, _ = kernel._engine(np.random.PCG64(seed), CLASSIC, strategy, None)
    cols = kernel._deal_buffer(chunk + chunk // 2 + 16)
    capacity = len(cols["deal_id"])
    best = 0.0
    for _ in range(repeat):
        eng.played = 0
        started = time.process_time()
        target = 0
        while target < n:
            target = min(n, target + chunk)
            eng.run_deals(target, cols, capacity, None, 0, 0)
        best = max(best, n / (time.process_time() - started))
    return best


def mean_ci(x: np.ndarray) -> tuple[float, float]:
    """Mean and the half-width of its 95% normal confidence interval."""
    x = np.asarray(x, dtype=float)
    return float(x.mean()), float(1.96 * x.std(ddof=1) / math.sqrt(len(x)))


def self_play(n: int, seed: int, strategy: str = "standard") -> dict[str, tuple[float, float]]:
    """Make rate and mean declarer score change with three ``strategy`` players."""
    cols = kernel.play_deals(np.random.PCG64(seed), CLASSIC, strategy, n_deals=n)
    played = cols["redeal"] == 0
    decl = cols["declarer"][played]
    scores = np.stack([cols[f"score{s}"] for s in range(3)], 1)[played]
    decl_score = scores[np.arange(len(decl)), decl]
    made = cols["made"][played]
    resigned = cols["resigned"][played]
    return {
        "make_rate": mean_ci(made),
        "make_rate_when_played": mean_ci(made[resigned == 0]),
        "declarer_score": mean_ci(decl_score),
        "resign_rate": mean_ci(resigned),
        "obligation_rate": mean_ci(cols["obligation"][played]),
        "contract": mean_ci(cols["contract"][played]),
    }


def rotated_deals(hero: str, villain: str, n: int, seed: int) -> dict[str, tuple[float, float]]:
    """``hero`` at one seat against two ``villain``: the same deals with the hero in each
    seat.  Per deal: hero's score change minus the mean of the two others'."""
    margins = []
    hero_scores = []
    for seat in range(3):
        specs = [villain] * 3
        specs[seat] = hero
        cols = kernel.play_deals(np.random.PCG64(seed), CLASSIC, specs, n_deals=n)
        played = cols["redeal"] == 0
        sc = np.stack([cols[f"score{s}"] for s in range(3)], 1)[played].astype(float)
        others = np.delete(sc, seat, axis=1).mean(axis=1)
        margins.append(sc[:, seat] - others)
        hero_scores.append(sc[:, seat])
    return {"margin_per_deal": mean_ci(np.concatenate(margins)),
            "hero_score_per_deal": mean_ci(np.concatenate(hero_scores))}


def rotated_games(hero: str, villain: str, n: int, seed: int) -> dict[str, tuple[float, float]]:
    """Whole games, hero in each seat in turn: his win rate (games without a winner at
    ``max_deals`` count as not won)."""
    wins = []
    for seat in range(3):
        specs = [villain] * 3
        specs[seat] = hero
        games, _ = kernel.play_games(np.random.PCG64(seed), CLASSIC, specs, n_games=n)
        wins.append(games["winner"] == seat)
    return {"win_rate": mean_ci(np.concatenate(wins))}


def fmt(ci: tuple[float, float], pct: bool = False) -> str:
    m, h = ci
    if pct:
        return f"{100 * m:.1f}% ± {100 * h:.1f}"
    return f"{m:+.1f} ± {h:.1f}"


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--speed-deals", type=int, default=1_000_000, help="deals per speed measurement")
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--deals", type=int, default=200_000, help="deals per quality measurement")
    p.add_argument("--games", type=int, default=2_000, help="games per seat arrangement")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--speed-only", action="store_true")
    p.add_argument("--quality-only", action="store_true")
    args = p.parse_args(argv)

    if not args.quality_only:
        print(f"kernel alone, classic, one core, best of {args.repeat} x {args.speed_deals:,} deals:")
        for s in SPEED_STRATEGIES:
            print(f"  {s:<11} {kernel_rate(s, args.speed_deals, repeat=args.repeat):>12,.0f} deals/s")
    if args.speed_only:
        return 0

    print(f"\nthree standard players, classic, {args.deals:,} deals (95% CI):")
    q = self_play(args.deals, args.seed)
    print(f"  declarer makes the contract   {fmt(q['make_rate'], True)}")
    print(f"    of contracts not resigned   {fmt(q['make_rate_when_played'], True)}")
    print(f"  mean declarer score change    {fmt(q['declarer_score'])}")
    print(f"  resignations                  {fmt(q['resign_rate'], True)}")
    print(f"  forehand on obligation        {fmt(q['obligation_rate'], True)}")
    for fam in ("cautious", "aggressive"):
        qf = self_play(args.deals, args.seed, fam)
        print(f"  ({fam}: makes {fmt(qf['make_rate'], True)}, declarer {fmt(qf['declarer_score'])})")

    print(f"\nseat-rotated matches, hero vs two copies of the opponent "
          f"({args.deals:,} deals x 3 seats; {args.games:,} games x 3 seats):")
    print(f"  {'hero':<11}{'opponent':<12}{'hero - others per deal':>24}{'hero per deal':>16}{'game win rate':>18}")
    for hero, villain in (("standard", "random"), ("standard", "greedy"), ("standard", "cautious"),
                          ("standard", "aggressive"), ("greedy", "random")):
        d = rotated_deals(hero, villain, args.deals, args.seed)
        g = rotated_games(hero, villain, args.games, args.seed)
        print(f"  {hero:<11}{villain:<12}{fmt(d['margin_per_deal']):>24}"
              f"{fmt(d['hero_score_per_deal']):>16}{fmt(g['win_rate'], True):>18}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
