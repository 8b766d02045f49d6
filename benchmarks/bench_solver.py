"""Speed of the open-hand solver (src/_solver.pxi through thousand.solver), one core.

Deals come from simulated classic play (the kernel's ``standard`` players bid, hand off
and would play them; redeals and resigned deals left out).  For each it measures, with the
kernel's own clock around each position (so Python's call overhead is not counted), and
with the thread's CPU time around each kernel call (``time.thread_time_ns``: on a shared
machine the time spent waiting for a core is not counted; the call's overhead is, about
3-4 µs: the arguments' buffer checks and the clock's own system calls, the arguments
sliced before the clock starts):

* the exact value of the full 8-trick deal from the first lead (median, p99, max);
* "does the declarer reach his contract?" (one zero-window search);
* the value of every legal card at the first lead, against one exact solve of the same
  deal (per deal, the ratio of the medians of the CPU times);
* every hand-off of the declarer's 10 cards (90 play starts, one shared table), timed
  by the CPU time around the kernel call, on ``--hand-offs`` deals; and on the same hands
  only the best of them (``solver.best_hand_off``, what ``thousand bid --solve`` asks).

    .venv/bin/python benchmarks/bench_solver.py [--deals 2000] [--hand-offs 100] [--seed 1]

The issue's targets (issue 13) are printed next to the measurements.  The figures move
with the machine's load (the CPU times much less than the clock): quote them with the
date and the load.
"""
from __future__ import annotations

import argparse
import os
import time

import numpy as np

from thousand import _fastdeal, kernel, solver
from thousand.rules import CLASSIC


def deals(n: int, seed: int) -> tuple[list, list, list, list]:
    """Play starts (after and before the hand-off), declarers and contracts of ``n``
    played classic deals."""
    starts, befores, decls, contracts = [], [], [], []
    bitgen = np.random.PCG64(seed)
    while len(starts) < n:
        cols = kernel.play_deals(bitgen, CLASSIC, None, n_deals=n)
        for i in range(len(cols["declarer"])):
            s = solver.play_start(CLASSIC, cols, i)
            if s is None or len(starts) >= n:
                continue
            starts.append(s[0])
            decls.append(s[1])
            befores.append(solver.play_start(CLASSIC, cols, i, hand_off=False)[0])
            contracts.append(int(cols["contract"][i]))
    return starts, befores, decls, contracts


def line(name: str, us: np.ndarray, target: str) -> None:
    print(f"{name:<34} median {np.median(us):9.1f} µs   p99 {np.percentile(us, 99):10.1f} µs   "
          f"max {us.max():10.1f} µs   ({target})")


def one_by_one(rules, rows, ws, targets) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Solve the rows one kernel call each: results, the kernel's clock (ns), nodes, and
    the thread's CPU time around each call (ns)."""
    n = len(rows)
    out, nanos, nodes, cpu = (np.empty(n, np.int32), np.empty(n, np.int64), np.empty(n, np.int64),
                              np.empty(n, np.int64))
    tg = np.asarray(targets, dtype=np.int32) if targets is not None else np.empty(0, np.int32)
    # each call's arguments sliced before the clock starts: the CPU time is the call's
    calls = [(rows[i:i + 1], tg[i:i + 1], out[i:i + 1], nanos[i:i + 1], nodes[i:i + 1]) for i in range(n)]
    table = ws.table
    solve = _fastdeal._solve_batch
    for i, (row, target, o, ns, nd) in enumerate(calls):
        t = time.thread_time_ns()
        solve(rules, row, table, target, o, ns, nd, 0)
        cpu[i] = time.thread_time_ns() - t
    return out, nanos, nodes, cpu


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=2000)
    ap.add_argument("--hand-offs", type=int, default=100, help="deals whose 90 hand-offs are solved")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--bits", type=int, default=15, help="table size: 2 * 2**bits entries")
    a = ap.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})
    starts, befores, decls, contracts = deals(a.deals, a.seed)
    ws = solver.Workspace(a.bits)
    rules = CLASSIC.to_kernel()
    rows = np.stack([solver.position_row(p, d) for p, d in zip(starts, decls)])
    print(f"{len(starts)} classic deals (seed {a.seed}), table 2 x 2^{a.bits} entries (a single "
          f"position's search uses the first 2 x 2^{min(a.bits, 12)}), "
          f"load average {os.getloadavg()[0]:.1f}, {time.strftime('%Y-%m-%d')}")

    # the host's speed in this run, for comparing runs on other days or hosts (the solver's
    # figures moved by 1.5x within one day on this shared machine while the code did not)
    t = time.thread_time_ns()
    kernel.play_deals(np.random.PCG64(a.seed), CLASSIC, "standard", n_deals=200_000)
    rate = 200_000 / ((time.thread_time_ns() - t) / 1e9)
    print(f"host speed: kernel play_deals (standard) {rate:,.0f} deals a CPU second in this run")

    values, nanos, nodes, cpu = one_by_one(rules, rows, ws, None)
    line("exact value, first lead (CPU)", cpu / 1e3, "target: median <= 100, p99 <= 1000, max <= 10000")
    line("                       (clock)", nanos / 1e3, "the kernel's clock")
    print(f"{'':<34} nodes: median {np.median(nodes):.0f}, max {nodes.max()}; "
          f"{nodes.sum() / cpu.sum() * 1e3:.1f} M nodes a CPU second")
    made, nanos2, _, cpu2 = one_by_one(rules, rows, ws, contracts)
    line("reaches the contract (CPU)", cpu2 / 1e3, "target: median <= 20")
    line("                     (clock)", nanos2 / 1e3, "the kernel's clock")
    print(f"{'':<34} {made.mean():.1%} of the contracts makeable open-handed")

    out = np.empty(48, dtype=np.int32)
    per_card = np.empty(len(rows))
    one = np.empty(len(rows))
    card_nodes = np.empty(len(rows))
    none32, none64, out1 = np.empty(0, np.int32), np.empty(0, np.int64), out[:1]
    for i in range(len(rows)):
        row1, row = rows[i:i + 1], rows[i]
        t = time.thread_time_ns()
        _fastdeal._solve_batch(rules, row1, ws.table, none32, out1, none64, none64, 0)
        t1 = time.thread_time_ns()
        _fastdeal._solve_cards(rules, row, ws.table, out, 0)
        t2 = time.thread_time_ns()
        one[i], per_card[i] = (t1 - t) / 1e3, (t2 - t1) / 1e3
        card_nodes[i] = _fastdeal._solver_last_nodes()
    line("value of every card, first (CPU)", per_card, "target: <= 4x one solve")
    print(f"{'':<34} {np.median(per_card) / np.median(one):.2f}x one solve by the CPU time (medians; one solve "
          f"timed the same way: median {np.median(one):.1f} µs); by the nodes searched "
          f"{np.median(card_nodes / nodes):.2f}x (median of the per-deal ratios), "
          f"{card_nodes.sum() / nodes.sum():.2f}x (all deals)")

    out576 = np.empty(576, dtype=np.int32)
    n_ho = min(a.hand_offs, len(befores))
    ho, ho_nodes, hb, hb_nodes = np.empty(n_ho), np.empty(n_ho), np.empty(n_ho), np.empty(n_ho)
    for i in range(n_ho):
        row = solver.position_row(befores[i], decls[i])
        for best_only, us, nd in ((False, ho, ho_nodes), (True, hb, hb_nodes)):
            t = time.thread_time_ns()
            _fastdeal._solve_hand_offs(rules, row, ws.table, out576, 0, best_only)
            us[i] = (time.thread_time_ns() - t) / 1e3
            nd[i] = _fastdeal._solver_last_nodes()
    line(f"all 90 hand-offs, {n_ho} hands (CPU)", ho, "target: median <= 5000")
    print(f"{'':<34} nodes: median {np.median(ho_nodes):.0f} for the 90 ({np.median(ho_nodes) / 90:.0f} a hand-off, "
          f"against {np.median(nodes):.0f} for one deal alone)")
    line("the best of the 90 hand-offs (CPU)", hb, "bid --solve's query; the same hands")
    print(f"{'':<34} nodes: median {np.median(hb_nodes):.0f} ({np.median(ho / hb):.1f}x faster than every value, "
          f"median of the per-hand ratios)")


if __name__ == "__main__":
    main()
