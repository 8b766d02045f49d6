"""``thousand match``: strategies against each other on the same decks, seats rotated, paired."""
from __future__ import annotations

import argparse
import math

from thousand.commands.common import (
    add_pool_arguments, add_rules_arguments, add_seed_argument, check_pool_arguments, print_result,
    rules_from_args, whole)
from thousand.errors import ThousandError, check_name

NAME = "match"
HELP = "duplicate match of strategies: same decks, seats rotated, paired differences with 95% intervals"
DESCRIPTION = """Play strategies against each other in a duplicate match.

Every deal (or game) is played on the same decks in every seating of every pair of
strategies: A alone in each seat against B's in the others, and B alone in each seat
against A's (six seatings with three players).  In every seat A holds exactly the cards
B holds there, so card luck cancels and every statistic is paired, deal by deal.

Per pair (A vs B), A's value, B's and A minus B with a 95% interval: points per deal per
seat (the score change), split into the points won as declarer and as defender; the
share of deals declared, contracts made when declaring, contracts beaten when defending
(deals the declarer played out), mean bid (the seat's highest bid where it bid), mean
contract, resignations.  With --games instead (games, not deals, are the units): only the
share of games won by one A seated against B's in every other seat (even share: one
third), B's likewise, and the final score per seat.  With three or more strategies, every pair and a rating: each strategy's mean
paired advantage against the field (its points per deal per seat minus its opponent's,
averaged over its opponents, deal by deal), with a 95% interval.

Methods: per-seat means and ratios over deals (games) with the delta method clustered
by deal, Student t with n-1 df (thousand.analysis.stats); shares in Wilson's form.

--precision X plays in doubling rounds until the main interval (points per deal; with
--games the share won alone, so X below 1) of every pair is narrower than X, or --cap units.
--control-variate adjusts the points metrics (rows <metric>_cv) by regression on
each deal's open-hand value: the deal as `standard` plays it at every seat, solved with
open hands from the play's start (a function of the deck alone), with the covariates'
means from a reference sample of 4 x the deals on streams of their own; it reports the
share of the variance removed.  It costs about five solved deals per deal.

--out DIR keeps one Parquet row per seating and deal (game) there, chunk by chunk:
an interrupted match loses nothing written, and --resume continues it.  The same seed
gives the same result for any --jobs and --backend.  See docs/match.md.

examples:
  thousand match --strategy greedy --strategy standard --deals 20000
  thousand match --strategy random --strategy greedy --strategy standard --deals 10000 --json
  thousand match --strategy standard --strategy standard:margin=25 --precision 1.0 --out m1
  thousand match --strategy greedy --strategy standard --games 2000 --jobs 2
"""


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--strategy", action="append", default=None, metavar="NAME[:k=v,...]",
                   help="a strategy of the match (at least two; repeat): a kernel strategy, "
                        "random, greedy, standard, cautious, aggressive or pimc, with its parameters "
                        "(see docs/strategies.md; explain's passive is not one)")
    size = p.add_mutually_exclusive_group()
    size.add_argument("--deals", "-n", type=whole, default=None, metavar="N",
                      help="deals, each played in every seating (default 20,000)")
    size.add_argument("--games", "-g", type=whole, default=None, metavar="N",
                      help="whole games, each played in every seating")
    add_rules_arguments(p)
    add_seed_argument(p)
    add_pool_arguments(p)
    p.add_argument("--precision", type=float, default=None, metavar="X",
                   help="play in rounds until every pair's main interval is narrower than X "
                        "(points; with --games a share: 0.02 = 2 percentage points)")
    p.add_argument("--cap", type=whole, default=None, metavar="N",
                   help="most deals (games) a --precision run plays (default 32 x the first round)")
    p.add_argument("--out", "-o", default=None, metavar="DIR",
                   help="write the rows (one per seating and deal or game) there as Parquet chunks")
    p.add_argument("--resume", action="store_true", help="continue an interrupted match in --out")
    p.add_argument("--control-variate", action="store_true",
                   help="narrow the points intervals with each deal's open-hand value (the solver; "
                        "about 5 solved deals per deal of the match): rows <metric>_cv with the variance reduction")
    p.add_argument("--json", action="store_true",
                   help="print a JSON list: one object per pair and metric (a, b, metric, value = A - B, "
                        "ci_low, ci_high, n, ...), then the ratings")
    p.add_argument("--no-progress", action="store_true", help="no progress bar even on a terminal")


def run(args: argparse.Namespace) -> int:
    specs = args.strategy or []
    if len(specs) < 2:
        raise ThousandError("a match needs at least two strategies, e.g. --strategy greedy --strategy standard")
    check_pool_arguments(args)
    if args.precision is not None and not (args.precision > 0 and math.isfinite(args.precision)):
        raise ThousandError(f"--precision must be a positive number, got {args.precision}")
    if args.resume and not args.out:
        raise ThousandError("--resume continues a match in --out; give --out DIR")
    check_name(args.out, "--out", "the directory to write to")
    rules = rules_from_args(args)

    from thousand.analysis.match import match, result_table

    result = match(specs, rules, n_deals=args.deals, n_games=args.games, seed=args.seed, jobs=args.jobs,
                   backend=args.backend, scheduler=args.scheduler, precision=args.precision, cap=args.cap,
                   out=args.out, resume=args.resume, progress=False if args.no_progress else None,
                   control_variate=args.control_variate)
    print_result(result, args.json, lambda: result_table(result),
                 args.out and f"wrote {args.out}: one row per seating and {result.kind[:-1]}")
    return 0
