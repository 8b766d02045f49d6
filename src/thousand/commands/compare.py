"""``thousand compare``: house rules against each other on the same shuffles, paired."""
from __future__ import annotations

import argparse
import contextlib
import json
import math
import os
from pathlib import Path

from thousand.commands.common import (
    add_pool_arguments, add_rules_arguments, add_seed_argument, check_pool_arguments, print_result,
    rules_from_args, whole)
from thousand.errors import ThousandError, check_name

NAME = "compare"
HELP = "compare house rules on the same shuffles: paired differences, intervals, Holm p-values"
DESCRIPTION = """Compare two or more rule sets statistically.

Every rule set plays the same seeds (common random numbers: game i starts from the same
shuffle under every rule set), and each variant is compared with the FIRST --rules game
by game, so the differences come from the rules rather than from luck.  The output
leads with the differences that are significant after Holm's correction, in words with
their 95% intervals (bolts off against classic over 2,000 games: "games are 4.05 deals
shorter [3.67, 4.43]; no significant change in who wins"); then the full table.  For each metric and rule set: the value with a 95% interval; for each variant: the paired difference
with its 95% interval, its p-value (column p) and the Holm-corrected p-value (p (Holm)),
and how much the pairing narrowed the interval against an unpaired comparison.  --set
applies to every rule set; the labels show the rule sets as finally applied, in the spec
syntax (classic:bolts=off --set barrel_at=900: classic:bolts=off,barrel_at=900).

Game metrics (--games): deals per game (mean, median), win rate by seat and by position
from the first dealer, barrel entries and falls, bolt penalties, resignations, redeals,
blind and golden-kon outcomes (when enabled), final score spread.  Deal metrics (also
with --deals): declarer success rate, resignations, obligations, redeals, mean contract,
declarer score change, deal points of declarer and defender, score by seat role.
--list-metrics prints them all; --metric picks some.

Notes below the table (and in the JSON's "notes") say when a row of "same" is not a
finding: a rule that sets a rule set apart never came into play (no blind deal with
blind=on: the default strategy never goes blind; try --strategy aggressive), an option
that can never matter (barrel options with barrel_at=none), a metric asked for that
applies to no rule set.  The same rules twice (also after --set) are refused.

Methods: proportions Wilson (paired difference: Newcombe's method 10, McNemar p);
means Student t with n-1 degrees of freedom (paired: mean of differences, paired
t-test); per-deal rates inside games are ratios with a delta-method error clustered by
game (t with n-1 df, n games; shares among them in Wilson's form with that t, at an
effective n of at most the deals counted); the median by order statistics (paired
bootstrap for its difference, no p-value).  Below 30 games (deals) the output warns that the intervals
are wide and, for ratios and quantiles, rough.  See docs/compare.md.

Size: at most 1,000,000,000 games or 10,000,000,000 deals per rule set (also for
--max-games): every rule set is simulated, so that is already days of work.  Memory
does not grow with the size: units are folded into running sums 100,000 at a time.

--out DIR keeps every chunk's unit tables in DIR/units (Parquet, one chunk store a rule
set) as they are computed: an interrupted comparison loses nothing computed, and the same
command with --resume continues it (or, finished, writes its outputs again at once), with
the same numbers as a run never interrupted.

--games N runs exactly N games per rule set (chunks of at most 250, the last one shorter
when they do not divide N; --deals: chunks of 50,000).  --precision X keeps adding
rounds of new games (continuing the same seed sequence, so earlier games are kept)
until every difference interval is narrower than X, or --max-games is reached (never
passed: the last round stops at it).  X is in each metric's own unit: shares as
fractions (0.01 = 1 percentage point), means in their unit (0.5 = half a deal for
deals_mean): pick metrics of one kind with --metric.

examples:
  thousand compare --rules classic --rules classic:bolts=off --games 20000
  thousand compare --rules classic --rules classic:barrel_at=none --rules russian --games 10000 --out cmp
  thousand compare --rules classic --rules classic:barrel_at=none --rules russian --games 10000 --out cmp --resume
  thousand compare --rules classic --rules classic:target=500,barrel_at=none --metric deals_mean --precision 0.5
  thousand compare --rules classic --rules classic:bolts=off --metric declarer_success,win_first_dealer --precision 0.02
  thousand compare --rules classic --rules classic:must_beat=on --deals 500000 --json
  thousand compare --rules classic --rules classic:resign=sixty --set barrel_at=900 --games 5000
"""

DEFAULT_GAMES = 4_000
# The limits compare_rules enforces (thousand.analysis.compare.MAX_UNITS), for --help
# without importing the analysis stack.
MAX_UNITS = {"games": 10**9, "deals": 10**10}


def add_arguments(p: argparse.ArgumentParser) -> None:
    add_rules_arguments(p, multiple=True)
    size = p.add_mutually_exclusive_group()
    size.add_argument("--games", "-g", type=whole, default=None, metavar="N",
                      help=f"whole games per rule set, 2 to {MAX_UNITS['games']:,} (default {DEFAULT_GAMES:,}); "
                           "game and deal metrics")
    size.add_argument("--deals", "-n", type=whole, default=None, metavar="N",
                      help=f"deals per rule set, outside games, 2 to {MAX_UNITS['deals']:,}; deal metrics only")
    p.add_argument("--strategy", action="append", default=None, metavar="NAME[:k=v,...]",
                   help="strategy for every seat (once) or for each seat (once per seat); default standard")
    add_seed_argument(p)
    add_pool_arguments(p)
    p.add_argument("--metric", "-m", action="append", default=None, metavar="NAME[,NAME...]",
                   help="compare only these metrics (repeatable; see --list-metrics)")
    p.add_argument("--precision", type=float, default=None, metavar="X",
                   help="simulate in rounds until every difference interval is narrower than X, in each "
                        "metric's unit (shares as fractions: 0.01 = 1 percentage point)")
    p.add_argument("--max-games", type=whole, default=None, metavar="N",
                   help="cap per rule set for --precision, never exceeded (default 32 x the first round)")
    p.add_argument("--out", "-o", default=None, metavar="DIR",
                   help="write compare.md, compare.csv, compare.json and compare_forest.png there, and their "
                        "record compare_files.json: a later run replaces only files it lists, unchanged; "
                        "every chunk's units are kept in DIR/units as they are computed")
    p.add_argument("--resume", action="store_true",
                   help="continue the comparison kept in --out (after an interruption), or summarise a "
                        "finished one again at once")
    p.add_argument("--json", action="store_true",
                   help="print a JSON list (one object per metric and rule set) instead of the table")
    p.add_argument("--list-metrics", action="store_true", help="list the metric names and exit")
    p.add_argument("--no-progress", action="store_true", help="no progress bar even on a terminal")


def _list_metrics(players: int, as_json: bool = False) -> None:
    """The metrics of a comparison at ``players`` seats (the first --rules' size, else 3):
    the seat metrics follow the table size.  ``as_json``: a list of objects (name, level,
    kind, description)."""
    from thousand.analysis.compare import METHODS, _build_metrics
    if as_json:
        print(json.dumps([{"name": m.name, "level": m.level, "kind": m.kind, "description": m.description,
                           "players": players} for m in _build_metrics(players)], indent=1))
        return
    print(f"metrics with {players} players:")
    for m in _build_metrics(players):
        print(f"  {m.name:<22} {m.level:<5} {m.kind:<17} {m.description}")
    print("\nlevel game: needs --games; kinds: " + "; ".join(f"{k}: {v[0]}" for k, v in METHODS.items()))


def run(args: argparse.Namespace) -> int:
    if args.list_metrics:
        _list_metrics(rules_from_args(args, args.rules[0]).players if args.rules else 3, args.json)
        return 0
    specs = args.rules or []
    if len(specs) < 2:
        raise ThousandError("give at least two rule sets to compare, e.g. --rules classic --rules classic:bolts=off")
    if args.precision is not None and not (args.precision > 0 and math.isfinite(args.precision)):
        raise ThousandError(f"--precision must be a positive number, got {args.precision}")
    check_pool_arguments(args)
    if args.resume and not args.out:
        raise ThousandError("--resume continues a comparison kept in --out; give --out DIR")
    if args.max_games is not None and args.precision is None:
        raise ThousandError("--max-games caps a --precision run; give --precision too")
    check_name(args.out, "--out", "the directory to write to")
    n_games, n_deals = args.games, args.deals
    if n_games is None and n_deals is None:
        n_games = DEFAULT_GAMES

    from thousand.analysis.compare import result_table

    made = bool(args.out) and not os.path.lexists(args.out)
    try:
        result = _compare(args, n_games, n_deals)
    except BaseException:
        if made and os.path.isdir(args.out) and not os.listdir(args.out):
            os.rmdir(args.out)   # refused (or stopped) before anything was written: leave no empty folder
        raise
    print_result(result, args.json, lambda: result_table(result),
                 args.out and f"wrote {os.path.join(args.out, 'compare.md')}, compare.csv, compare.json, "
                              "compare_forest.png, their record compare_files.json, and every chunk's units in "
                              f"{os.path.join(args.out, 'units')} (--resume reads them back)")
    return 0


def _compare(args: argparse.Namespace, n_games: int | None, n_deals: int | None):
    from thousand.analysis.compare import UNITS_DIR, claim_out_dir, compare_rules, write_outputs
    from thousand.runner.store import claim_dir

    specs = args.rules
    with contextlib.ExitStack() as held:
        if args.out:
            claim_out_dir(args.out)  # before the work: never replace a file of the user's, nor fail after it
            held.enter_context(claim_dir(args.out))   # and no second compare writes there meanwhile
        result = compare_rules(
            specs, n_games=n_games, n_deals=n_deals, seed=args.seed, strategies=args.strategy,
            jobs=args.jobs, backend=args.backend, scheduler=args.scheduler, precision=args.precision, max_units=args.max_games, metrics=args.metric,
            overrides=args.overrides, progress=False if args.no_progress else None,
            units=Path(args.out) / UNITS_DIR if args.out else None, resume=args.resume)
        if args.out:
            write_outputs(result, args.out, claim=True)
    return result
