"""``thousand simulate``: play many deals in parallel and write one row per deal to Parquet."""
from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from thousand.commands.common import (
    add_pool_arguments, add_rules_arguments, add_seed_argument, check_pool_arguments, rules_from_args, whole)

NAME = "simulate"
HELP = "play N deals in parallel and write one row per deal to a Parquet dataset"
DESCRIPTION = """Play many deals and write one row per dealt deal (hands, talon, redeal,
auction, contract, hand-off, points, marriages, tricks, score changes) to a Parquet
dataset directory: one file per chunk plus metadata.json (rules and their hash,
strategies, seed, chunk size, version).  Read it with `thousand.simulate.load(PATH)`
(a Polars LazyFrame); the columns are listed in the README ("Data: the Parquet schema").

The same seed gives the same dataset whatever --jobs and --backend.  The deals are cut
into chunks of --chunk-size deals; chunk k of the run's n_chunks uses
SeedSequence(seed).spawn(n_chunks)[k].  The chunk size is part of what determines the
data, the number of workers is not.

Each chunk file is written whole or not at all.  If a run stops (Ctrl-C, a crash, a
closed laptop), run the same command with --resume: written chunks are kept and only the
missing ones computed.

--strategy NAME[:k=v,...] once sets every seat; give it once per seat to set each seat
(seat 0 first).  Default: standard everywhere.

examples:
  thousand simulate --deals 1000000 --out runs/classic
  thousand simulate --deals 5000000 --rules russian --jobs 2 --out runs/russian
  thousand simulate --deals 1000000 --set bolts=off --seed 7 --out runs/nobolts
  thousand simulate --deals 200000 --strategy random --strategy standard --strategy greedy --out runs/mixed
  thousand simulate --deals 1000000 --strategy standard:margin=25 --out runs/bold
  thousand simulate --deals 50000000 --out runs/big --resume       continue an interrupted run
  thousand simulate --deals 10000000 --backend dask --scheduler tcp://10.0.0.5:8786 --out /shared/runs/big
"""


def add_runner_arguments(p: argparse.ArgumentParser, unit: str, default_chunk: int) -> None:
    """The options ``simulate`` and ``games`` share (rules, strategies, seed, workers, output)."""
    add_rules_arguments(p)
    p.add_argument("--strategy", action="append", default=None, metavar="NAME[:k=v,...]",
                   help="strategy for every seat (once) or for each seat (once per seat); default standard")
    add_seed_argument(p)
    add_pool_arguments(p, local_cluster=True)
    p.add_argument("--out", "-o", default=None, metavar="PATH",
                   help="dataset directory to write (default: a temporary one, removed at exit)")
    p.add_argument("--resume", action="store_true",
                   help="continue an interrupted run in --out: keep its chunks, compute the missing ones")
    p.add_argument("--chunk-size", type=whole, default=default_chunk, metavar="C",
                   help=f"{unit} per chunk and per file (default {default_chunk:,}); part of what fixes the data")
    p.add_argument("--no-progress", action="store_true",
                   help="no progress bar even on a terminal")


if TYPE_CHECKING:
    from thousand.simulate import RunResult


def runner_kwargs(args: argparse.Namespace) -> dict[str, Any]:
    """Keyword arguments of :func:`thousand.simulate.run` from the parsed options."""
    check_pool_arguments(args)
    return dict(
        rules=rules_from_args(args), strategies=args.strategy, seed=args.seed, jobs=args.jobs,
        backend=args.backend, scheduler=args.scheduler, out=args.out, chunk_size=args.chunk_size,
        resume=args.resume, progress=False if args.no_progress else None,
    )


def print_summary(result: RunResult) -> None:
    """The final line (items, seconds, items per second), and a word on temporary output."""
    print(result.summary(), flush=True)
    if result.temporary:
        print("(no --out given: the data was written to a temporary directory and is now removed)")


def add_arguments(p: argparse.ArgumentParser) -> None:
    from thousand.schema import DEFAULT_CHUNK_DEALS
    p.add_argument("--deals", "-n", type=whole, required=True, metavar="N", help="deals to play")
    add_runner_arguments(p, "deals", DEFAULT_CHUNK_DEALS)


def run(args: argparse.Namespace) -> int:
    import sys

    from thousand.rules import deal_run_notes
    from thousand.simulate import run as run_simulation
    kwargs = runner_kwargs(args)
    for note in deal_run_notes(kwargs["rules"]):   # recorded in the metadata, changing no deal
        print(f"note: {note}", file=sys.stderr)
    result = run_simulation("deals", args.deals, **kwargs)
    print_summary(result)
    return 0
