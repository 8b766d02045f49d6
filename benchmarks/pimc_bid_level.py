"""What a bid table refitted for another play would change: the declarer's deal points on
the same forced hands, played by ``standard`` everywhere (what the bid table is fitted
on) and by another pair of declarer / defender strategies.

Random 7-card hands (forehand, middle and rear in turn) are made declarer at 100 by the
kernel's forced-declarer mode (``kernel.play_forced_declarer``), one completion each
(talon and the other hands), the same completion for both tables: the chance stream is
keyed per hand and the strategies draw on a stream of their own.  Printed: the mean deal
points of the declarer at both tables and their paired difference with a 95% t interval
(``analysis/stats.py``).  docs/strategies.md ("Bidding: why pimc bids with the standard
tables") quotes the figures::

    .venv/bin/python benchmarks/pimc_bid_level.py --hands 1500 --declarer pimc --defenders pimc
    .venv/bin/python benchmarks/pimc_bid_level.py --hands 1500 --declarer pimc --defenders standard
    .venv/bin/python benchmarks/pimc_bid_level.py --hands 1500 --declarer standard --defenders pimc
"""
from __future__ import annotations

import argparse

import numpy as np

from thousand import kernel
from thousand.analysis.bids import ROLES
from thousand.analysis.stats import mean_interval
from thousand.errors import ThousandError
from thousand.kernel import ROLE_SEATS
from thousand.rules import CLASSIC


def declarer_points(hand: int, role: str, specs: list[str], key: int, seed: int) -> int:
    r = kernel.play_forced_declarer(np.random.PCG64([seed, key]), CLASSIC, specs, hand=hand, role=role,
                                    n_samples=1, decisions=np.random.PCG64([seed, key, 1]))
    return int(r.declarer_points[0])


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--hands", type=int, default=1500)
    p.add_argument("--declarer", default="pimc")
    p.add_argument("--defenders", default="pimc")
    p.add_argument("--seed", type=int, default=7, help="the completions' and the decisions' streams")
    p.add_argument("--hands-seed", type=int, default=2026, help="the random hands")
    args = p.parse_args()
    if args.hands < 2:
        p.error("--hands must be at least 2 (an interval needs two)")
    if args.seed < 0 or args.hands_seed < 0:
        p.error("--seed and --hands-seed must be whole numbers >= 0")
    rng = np.random.default_rng(args.hands_seed)
    base, other = np.zeros(args.hands), np.zeros(args.hands)
    for i in range(args.hands):
        hand = int(sum(1 << int(c) for c in rng.choice(24, 7, replace=False)))
        role = ROLES[i % 3]
        seats = [args.declarer if s == ROLE_SEATS[role] else args.defenders for s in range(3)]
        base[i] = declarer_points(hand, role, ["standard"] * 3, i, args.seed)
        other[i] = declarer_points(hand, role, seats, i, args.seed)
    d = other - base
    lo, hi = mean_interval(d.mean(), d.std(ddof=1), len(d))
    print(f"{args.hands} forced hands at 100: standard / standard {base.mean():.1f}, "
          f"{args.declarer} / {args.defenders} {other.mean():.1f}, "
          f"difference {d.mean():+.2f} [{float(lo):+.2f}, {float(hi):+.2f}]")


if __name__ == "__main__":
    try:
        main()
    except ThousandError as e:
        raise SystemExit(f"pimc_bid_level.py: {e}") from None
