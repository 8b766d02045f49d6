"""Deals per second: the kernel alone, through `simulate` with Parquet output, 1 and 2 workers.

Run from the repository root::

    .venv/bin/python benchmarks/bench_simulate.py                 # classic, 3 x standard
    .venv/bin/python benchmarks/bench_simulate.py --deals 8000000 --chunk-size 500000

All figures come from one run on the same machine; the ratios printed are the targets of
issue 3: ``simulate`` (1 worker) >= 80% of the kernel, 2 workers >= 1.8x one worker.
The 2-worker pool is started before timing (its start-up is a one-off cost that a long
run amortises), and every measurement is the best of ``--repeat`` runs, because the
machine is shared and a single run can be slowed by a neighbour.  The runs go in
interleaved rounds (kernel, 1 worker, 2 workers, ...), so that a slow spell costs one
round of each configuration and the ratios stay comparable.
"""
from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

import numpy as np

from thousand import kernel, schema
from thousand import simulate as sim
from thousand.runner import pool, store
from thousand.runner.chunks import stored_columns
from thousand.rules import parse_rules_spec


@dataclass
class Rate:
    """Deals per second of wall time, and per second of CPU time (when it can be counted)."""

    wall: float
    cpu: float | None = None
    unit: str = "deals"

    def text(self) -> str:
        cpu = f"   ({self.cpu:,.0f} per CPU-second)" if self.cpu else ""
        return f"{self.wall:>12,.0f} {self.unit}/s{cpu}"


def kernel_rate(n: int, chunk_size: int, rules, strategies, kind: str = "deals") -> Rate:
    """The kernel alone, one core, in chunks of the same size as the runner's."""
    rules_array = rules.to_kernel()
    wall, cpu = time.perf_counter(), time.process_time()
    for k, (_, size) in enumerate(sim.chunk_bounds(n, chunk_size)):
        bitgen = np.random.PCG64(sim.chunk_seed(1, k))
        if kind == "deals":
            kernel.play_deals(bitgen, rules_array, list(strategies), n_deals=size)
        else:
            kernel.play_games(bitgen, rules_array, list(strategies), n_games=size)
    return Rate(n / (time.perf_counter() - wall), n / (time.process_time() - cpu), kind)


def simulate_rate(n: int, chunk_size: int, rules, strategies, jobs: int, backend: str,
                  compression: str, kind: str = "deals") -> Rate:
    """Through :func:`thousand.simulate.run`, writing Parquet to a temporary directory.

    CPU time counts this process and the (already started) loky workers.
    """
    out = Path(tempfile.mkdtemp(prefix="bench-simulate-"))
    try:
        before = _cpu_seconds()
        result = sim.run(kind, n, rules, list(strategies), seed=1, jobs=jobs, backend=backend,
                         out=out / "run", chunk_size=chunk_size, progress=False, compression=compression)
        cpu = _cpu_seconds(before)
        return Rate(result.rate, n / cpu if cpu else None, kind)
    finally:
        shutil.rmtree(out, ignore_errors=True)


@dataclass
class ChunkCost:
    """Milliseconds per chunk in each stage of :func:`thousand.runner.chunks.run_chunk`."""

    rows: float
    kernel: float        # CPU
    frame: float         # CPU: the kernel's columns in schema order and on-disk dtypes
    write: float         # CPU of every thread: encoding and writing the Parquet file
    write_wall: float    # the same write by the wall clock (polars' writer spreads it over its pool)


def chunk_cost(chunk_size: int, rules, strategies, compression: str, chunks: int = 4) -> ChunkCost:
    """The stages of writing a deals chunk, timed in this process (median of ``chunks``)."""
    out = Path(tempfile.mkdtemp(prefix="bench-chunk-"))
    samples = []
    try:
        for k in range(chunks):
            c0 = time.process_time()
            cols = kernel.play_deals(np.random.PCG64(sim.chunk_seed(1, k)), rules.to_kernel(),
                                     list(strategies), n_deals=chunk_size)
            c1 = time.process_time()
            cols["chunk"] = np.full(len(cols["deal_id"]), k, dtype=np.int32)
            columns = stored_columns(cols, schema.deal_columns(rules.players))
            c2, w2 = time.process_time(), time.perf_counter()
            store.write_chunk(columns, out, k, compression, store.new_token())
            c3, w3 = time.process_time(), time.perf_counter()
            samples.append((len(columns["deal_id"]), c1 - c0, c2 - c1, c3 - c2, w3 - w2))
    finally:
        shutil.rmtree(out, ignore_errors=True)
    med = np.median(np.array(samples), axis=0)
    return ChunkCost(med[0], *(1e3 * med[1:]))


def _cpu_seconds(since: dict[int, float] | None = None) -> Any:
    """CPU seconds of this process and its worker processes (per pid), or the total since."""
    try:
        import psutil
    except ImportError:  # then only in-process CPU is counted
        psutil = None
    now = {os.getpid(): time.process_time()}
    if psutil is not None:
        for child in psutil.Process().children(recursive=True):
            try:
                t = child.cpu_times()
                now[child.pid] = t.user + t.system
            except psutil.Error:
                pass
    if since is None:
        return now
    return sum(t - since.get(pid, 0.0) for pid, t in now.items())


def one_core_rate(n: int, chunk_size: int, args: argparse.Namespace) -> Rate | None:
    """``simulate`` on one worker confined to one core, or None where affinity cannot be set.

    It runs in a child process whose CPU affinity is set before it starts, so polars'
    writer threads are confined too: one worker then uses exactly one core, the
    baseline against which two workers on two cores measure the scaling.  (Unconfined, one
    worker borrows the second core for part of each Parquet write.)
    """
    if not hasattr(os, "sched_setaffinity"):
        return None
    cpu = min(os.sched_getaffinity(0))
    cmd = [sys.executable, os.path.abspath(__file__), "--one-core-probe", "--deals", str(n),
           "--chunk-size", str(chunk_size), "--rules", args.rules, "--compression", args.compression,
           "--repeat", "1"]
    for spec in args.strategy or []:
        cmd += ["--strategy", spec]
    done = subprocess.run(cmd, preexec_fn=lambda: os.sched_setaffinity(0, {cpu}),
                          capture_output=True, text=True, check=True)
    wall, cpu_rate = (float(x) for x in done.stdout.split())
    return Rate(wall, cpu_rate)


def _polars_threads() -> int:
    import polars
    return polars.thread_pool_size()


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--deals", type=int, default=4_000_000, help="deals per measurement (default 4M)")
    p.add_argument("--chunk-size", type=int, default=sim.DEFAULT_CHUNK_DEALS)
    p.add_argument("--rules", default="classic")
    p.add_argument("--strategy", action="append", default=None)
    p.add_argument("--compression", default=sim.PARQUET_COMPRESSION)
    p.add_argument("--games", type=int, default=20_000,
                   help="games for the games line (kernel vs simulate_games, 1 worker); 0 skips it")
    p.add_argument("--repeat", type=int, default=3, help="best of this many rounds (default 3)")
    p.add_argument("--one-core-probe", action="store_true", help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    rules = parse_rules_spec(args.rules)
    strategies = sim.normalize_strategies(args.strategy, rules.players)
    if args.one_core_probe:  # the child of one_core_rate: print wall and CPU rates
        pool.keep_freed_memory()
        r = max((simulate_rate(args.deals, args.chunk_size, rules, strategies, 1, "loky", args.compression)
                 for _ in range(args.repeat)), key=lambda r: r.wall)
        print(r.wall, r.cpu)
        return 0
    # The runner keeps freed memory for the next chunk (no page faults on reused columns);
    # the kernel alone is measured with the same allocator setting, so that the ratio
    # compares the Parquet output and nothing else.
    pool.keep_freed_memory()

    print(f"rules {rules.describe()}, strategies {', '.join(strategies)}, {args.deals:,} deals, "
          f"chunks of {args.chunk_size:,}, Parquet {args.compression}", flush=True)
    kernel_rate(min(args.deals, args.chunk_size), args.chunk_size, rules, strategies)  # warm-up
    simulate_rate(4 * args.chunk_size, args.chunk_size, rules, strategies, 2, "loky", args.compression)  # start the pool

    n, c = args.deals, args.chunk_size
    cost = chunk_cost(c, rules, strategies, args.compression)
    cpu_ms = cost.kernel + cost.frame + cost.write
    print(f"one chunk of {c:,} deals ({cost.rows:,.0f} rows), in this process: kernel {cost.kernel:.0f} ms CPU, "
          f"columns {cost.frame:.1f} ms, Parquet write {cost.write:.0f} ms CPU ({cost.write_wall:.0f} ms wall"
          + (")" if args.compression == "uncompressed" else f" on polars' {_polars_threads()} threads)"))
    wall_ms = cost.kernel + cost.frame + cost.write_wall
    print(f"  so 1 worker reaches at most {cost.kernel / wall_ms:.1%} of the kernel by the wall clock "
          f"({cost.kernel / cpu_ms:.1%} per CPU-second), and 2 workers, each a core, at most "
          f"{2 * wall_ms / cpu_ms:.2f}x one", flush=True)

    # The configurations run in interleaved rounds and each keeps its best round: a
    # neighbour's burst on this shared machine then slows one round of every
    # configuration instead of every round of one, which would skew the ratios.
    def interleaved(runs: dict[str, Callable[[], Rate | None]]) -> dict[str, Rate | None]:
        best: dict[str, Rate | None] = dict.fromkeys(runs)
        for round_no in range(args.repeat):
            for name, run in runs.items():
                rate = run()
                if rate is not None and (best[name] is None or rate.wall > best[name].wall):
                    best[name] = rate
            print(f"  round {round_no + 1} of {args.repeat} done", flush=True)
        return best

    best = interleaved({
        "kernel": lambda: kernel_rate(n, c, rules, strategies),
        "one": lambda: simulate_rate(n, c, rules, strategies, 1, "loky", args.compression),
        "two": lambda: simulate_rate(n, c, rules, strategies, 2, "loky", args.compression),
        "two_threads": lambda: simulate_rate(n, c, rules, strategies, 2, "threads", args.compression),
        "pinned": lambda: one_core_rate(n, c, args),
    })
    kernel, one, two, two_threads, pinned = best.values()
    print(f"kernel alone, 1 core            {kernel.text()}")
    print(f"simulate + Parquet, 1 worker    {one.text()}")
    print(f"simulate + Parquet, 2 loky      {two.text()}")
    print(f"simulate + Parquet, 2 threads   {two_threads.text()}")
    print(f"simulate / kernel, 1 worker:    {one.wall / kernel.wall:6.1%}   (target >= 80%; "
          f"per CPU-second {one.cpu / kernel.cpu:.1%})")
    print(f"2 workers / 1 worker:           {two.wall / one.wall:6.2f}x  (target >= 1.8x; "
          f"threads {two_threads.wall / one.wall:.2f}x)")
    if pinned is not None:
        print(f"simulate + Parquet, 1 worker confined to 1 core {pinned.text()}")
        print(f"2 workers / 1 worker on 1 core: {two.wall / pinned.wall:6.2f}x  "
              f"(threads {two_threads.wall / pinned.wall:.2f}x): two cores against one")

    if args.games:
        gc = min(sim.DEFAULT_CHUNK_GAMES, args.games)
        games = interleaved({
            "kernel": lambda: kernel_rate(args.games, gc, rules, strategies, "games"),
            "one": lambda: simulate_rate(args.games, gc, rules, strategies, 1, "loky", args.compression, "games"),
        })
        print(f"games: kernel alone, 1 core     {games['kernel'].text()}")
        print(f"games: simulate_games, 1 worker {games['one'].text()}   "
              f"{games['one'].wall / games['kernel'].wall:.1%} of the kernel")
    load = os.getloadavg()[0]
    if load > (os.cpu_count() or 1) + 0.5:
        print(f"note: load average {load:.1f} on {os.cpu_count()} cores: other work shared the machine, "
              "so wall-clock ratios understate; the per-CPU-second figures depend on it much less")
    return 0


if __name__ == "__main__":
    sys.exit(main())
