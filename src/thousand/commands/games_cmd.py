"""``thousand games``: play whole games in parallel, one row per game (and optionally its deals)."""
from __future__ import annotations

import argparse

from thousand.commands.common import whole
from thousand.commands.simulate_cmd import add_runner_arguments, print_summary, runner_kwargs

NAME = "games"
HELP = "play N whole games in parallel and write one row per game (and optionally its deals)"
DESCRIPTION = """Play whole games to the target score and write one row per game (winner,
deals played, final scores, barrel entries and falls, bolt penalties, resignations,
redeals) to a Parquet dataset directory; with --deals-out, every deal of those games
too (one row per dealt deal, with game_id and deal_no, and after the deal columns
total{s}, each seat's game score after the deal, and forehand), in a second directory;
read each with `thousand.simulate.load(PATH)`.

Chunking, seeding, --jobs, --backend, --resume and --strategy work as in
`thousand simulate`; a chunk here is --chunk-size games.

examples:
  thousand games --games 100000 --out runs/games
  thousand games --games 100000 --rules russian --jobs 2 --out runs/ru-games --deals-out runs/ru-deals
  thousand games --games 20000 --strategy standard --strategy random --strategy random --out runs/vs-random
  thousand games --games 1000000 --out runs/big-games --resume     continue an interrupted run
"""


def add_arguments(p: argparse.ArgumentParser) -> None:
    from thousand.schema import DEFAULT_CHUNK_GAMES
    p.add_argument("--games", "-g", "-n", type=whole, required=True, metavar="N",
                   help="games to play (-g as in compare, match and report; -n as simulate's count)")
    add_runner_arguments(p, "games", DEFAULT_CHUNK_GAMES)
    p.add_argument("--deals-out", default=None, metavar="PATH",
                   help="with --out: also write every deal of the games (one row per dealt deal) to this directory")


def run(args: argparse.Namespace) -> int:
    from thousand.simulate import run as run_simulation
    result = run_simulation("games", args.games, deals_out=args.deals_out, **runner_kwargs(args))
    print_summary(result)
    return 0
