"""Duplicate deals: strategy A against strategy B on the same decks, seats rotated.

A stop-gap until ``thousand match`` (issue 14) lands.  Each chunk of deals is played six
times on the same decks (``play_deals(..., decisions=...)``: the chance stream keyed per
deal, the players' draws on their own stream): A in seat s against two B's, and B in seat
s against two A's, for s = 0, 1, 2.  Per deal, the paired difference is the mean over
the three seats of A's deal score in seat s minus B's deal score in seat s (same cards,
same seat, same opponents' kind): card luck cancels.  Printed: points per deal per seat
of A minus B with a 95% Student interval over the deals (analysis/stats.py), and the
same split by whether the seat declared or defended in A's run.  Chunks are appended to
``--out`` (an .npz per chunk) as they finish, so an interrupted run keeps them and
``--report`` prints the totals of what is there.

    .venv/bin/python benchmarks/pimc_duplicate.py --a pimc --b standard --deals 200 --out /tmp/dup
"""
from __future__ import annotations

import argparse
import os
import glob

import numpy as np

from thousand import kernel
from thousand.analysis.stats import mean_interval
from thousand.rules import CLASSIC

PLAYERS = 3


def played(cols: dict) -> dict:
    keep = cols["redeal"] == 0
    return {k: v[keep] for k, v in cols.items()}


def chunk(a: str, b: str, n: int, seed: int, index: int) -> dict:
    scores = {}
    for who, (me, other) in (("a", (a, b)), ("b", (b, a))):
        for s in range(PLAYERS):
            specs = [other] * PLAYERS
            specs[s] = me
            cols = played(kernel.play_deals(np.random.PCG64([seed, index]), CLASSIC, specs, n_deals=n,
                                            decisions=np.random.PCG64([seed, index, 1 + s])))
            scores[f"{who}{s}"] = cols[f"score{s}"][:n].astype(np.int64)
            scores[f"{who}{s}_declared"] = (cols["declarer"][:n] == s)
    return scores


def report(out: str) -> None:
    parts = [dict(np.load(f)) for f in sorted(glob.glob(os.path.join(out, "chunk*.npz")))]
    if not parts:
        print("no chunks yet")
        return
    data = {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}
    diff = np.mean([data[f"a{s}"] - data[f"b{s}"] for s in range(PLAYERS)], axis=0)
    n = len(diff)
    lo, hi = mean_interval(diff.mean(), diff.std(ddof=1), n)
    print(f"{n} duplicate deals ({6 * n} deal plays): A - B = {diff.mean():+.2f} points per deal per seat, "
          f"95% interval [{float(lo):+.2f}, {float(hi):+.2f}]")
    for role, want in (("declarer", True), ("defender", False)):
        d = np.concatenate([(data[f"a{s}"] - data[f"b{s}"])[data[f"a{s}_declared"] == want] for s in range(PLAYERS)])
        lo, hi = mean_interval(d.mean(), d.std(ddof=1), len(d))
        print(f"  seat as {role} in A's run: {d.mean():+.2f} per deal ({len(d)} seat-deals), "
              f"95% [{float(lo):+.2f}, {float(hi):+.2f}]")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--a", default="pimc")
    ap.add_argument("--b", default="standard")
    ap.add_argument("--deals", type=int, default=200)
    ap.add_argument("--chunk", type=int, default=25)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--out", required=True)
    ap.add_argument("--report", action="store_true", help="only print the totals of the chunks in --out")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    if not args.report:
        for index in range(0, (args.deals + args.chunk - 1) // args.chunk):
            path = os.path.join(args.out, f"chunk{index:05d}.npz")
            if os.path.exists(path):
                continue
            np.savez(path + ".tmp.npz", **chunk(args.a, args.b, args.chunk, args.seed, index))
            os.replace(path + ".tmp.npz", path)
    report(args.out)


if __name__ == "__main__":
    main()
