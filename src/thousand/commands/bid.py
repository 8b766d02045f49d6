"""``thousand bid``: how likely a hand makes each bid, and what each bid is worth."""
from __future__ import annotations

import argparse
import json
import math
import sys

from thousand.cards import parse_hand
from thousand.commands.common import add_rules_arguments, add_seed_argument, rules_from_args, whole
from thousand.errors import ThousandError, check_name
from thousand.files import write_problem

MAX_SAMPLES = 20_000_000
# pimc's cost a sampled deal of one run (CPU seconds, one core), every bid and the passing
# run each playing its own: `bid "AH TH AD TD AC JS 9S" --strategy pimc --samples 100` (5
# bids) took 5.2 s and the hearts hand's 25 bids at 40 samples 12.3 s on 2026-12-04, about
# 0.011 s a deal; said before such a run, which would otherwise look hung
PIMC_SECONDS_A_DEAL = 0.012
# spelt out here so that building the CLI does not import the analysis stack (a test
# checks it equals thousand.analysis.bids.DEFAULT_SOLVE_SAMPLES)
DEFAULT_SOLVE_SAMPLES = 1000
MAX_SOLVE_SAMPLES = 100_000

NAME = "bid"
HELP = "what to bid with a hand: a recommendation, P(make) and expected score of every bid"
DESCRIPTION = """How high can this hand bid?

The seven cards are made declarer at the given position (the auction skipped); the 17
unseen cards are dealt to the talon and the opponents (sampled, or with --exact every
one of the 2,333,760 completions) and the strategies play the talon, the hand-off and
the tricks (the 3-player game).  For every bid the seat can win with (from 100 for the
forehand, who opens with the forced 100; from 100 + bid_step, 105, for the middle and
rear seats) up to the cap the rules allow for this hand it prints the probability of
making it (95% Wilson interval; none needed with --exact) and the expected score change
of bidding it (then playing or resigning, whichever is better once the talon is seen,
with a 95% interval), next to always playing out, resigning, and passing (the hand
passes at its first chance and the strategies bid and play the rest; always sampled,
--samples deals).

The first line is the recommendation: bid up to N (the highest bid still worth more
than passing once outbid; the forehand, whose 100 is forced, may be told to hold it and
pass once outbid), pass, or demand a redeal (worth 0, before the auction); where the
sample cannot tell the limit from passing at 95% it says so.  Below the table: the
safe bid (the highest made with at least --confidence), the bid with the best expected
score, passing, and the strategy's own raise after the talon.  Bolts are counted: a deal
with no trick (or no points, as bolt_when says) is a bolt, and every third costs
bolt_penalty, so each costs bolt_penalty / 3 (40) in every value.  Not counted: the game
score (each value is one deal from 0, off the barrel).

examples:
  thousand bid "AH TH KH QH AD 9S JC"
  thousand bid "AH TH KH QH AD 9S JC" --position rear --confidence 0.9 --plot bid.png
  thousand bid "A♠ 10♠ K♣ Q♣ A♦ 9♦ J♥" --exact --json
  thousand bid "AH TH KH QH AD 9S JC" --rules russian --samples 20000 --seed 3
  thousand bid "AH TH KH QH AD 9S JC" --per-bid     the strategy's own raise/resign EV per bid
  thousand bid "AH TH KH QH AD 9S JC" --solve       next to it, the open-hand reference (best hand-off)

--solve adds, for every bid, the same figures for the open-hand reference: on a smaller
sample of its own (--solve-samples), the declarer takes the talon, chooses the hand-off
worth the most, and everybody plays with every hand open (the exact solver).  It is a
yardstick to read the advice against, not advice: real defenders see less and err more.

docs/bids.md explains every column.
"""


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("hand", metavar="HAND", help='seven cards, e.g. "AH TH KH QH AD 9S JC" (10 or T for tens, suit letters S C D H or symbols)')
    p.add_argument("--position", default="forehand", choices=("forehand", "middle", "rear"),
                   help="seat of the declarer: forehand (after the dealer), middle, rear (the dealer) (default forehand)")
    add_rules_arguments(p)
    p.add_argument("--strategy", action="append", default=None, metavar="NAME[:k=v,...]",
                   help="strategy of all seats, or repeat three times for declarer, next, other (default standard; "
                        "pimc, the search player, takes about 0.012 s a sampled deal in each bid's run: give --samples in "
                        "the hundreds)")
    mode = p.add_mutually_exclusive_group()
    mode.add_argument("--samples", type=whole, default=100_000, metavar="N",
                      help="completions to sample (default 100,000)")
    mode.add_argument("--exact", action="store_true", help="enumerate all 2,333,760 completions: exact probabilities")
    p.add_argument("--per-bid", action="store_true",
                   help="replay the same completions once per bid, the declarer holding that contract "
                        "(for contract-aware strategies, and always on for pimc, which plays to make or beat the "
                        "contract; also the strategy's own raise/resign EV per bid)")
    p.add_argument("--solve", action="store_true",
                   help="add the open-hand reference: P(make) and EV if the declarer chose the best hand-off and "
                        "everybody played with open hands (--solve-samples completions, each solved exactly; a few seconds)")
    p.add_argument("--solve-samples", type=whole, default=None, metavar="N",
                   help=f"with --solve: completions of the open-hand reference (default {DEFAULT_SOLVE_SAMPLES}; "
                        "about 2-8 ms each on one core)")
    p.add_argument("--jobs", "-j", type=whole, default=None, metavar="J",
                   help="worker processes for --solve, -1 for all cores (default -1); never changes the result")
    p.add_argument("--confidence", type=float, default=0.8, metavar="P",
                   help="probability of making it that the safe bid needs (default 0.8)")
    add_seed_argument(p)
    p.add_argument("--json", action="store_true", help="print one JSON object instead of the table")
    p.add_argument("--no-progress", action="store_true", help="no progress bar even on a terminal (--solve draws one)")
    p.add_argument("--plot", metavar="FILE",
                   help="write a chart: the points distribution, P(make) with its band and EV by bid, with --solve "
                        "the open-hand reference beside them (PNG, SVG, PDF)")


def run(args: argparse.Namespace) -> int:
    from thousand.analysis import bids

    rules = rules_from_args(args)
    if rules.players != 3:   # before the hand: a 2- or 4-player hand size is not the problem
        raise ThousandError(f"thousand bid analyses the 3-player game; the rules say players={rules.players}")
    hand = parse_hand(args.hand, n=7)
    if not (0 < args.confidence <= 1) or math.isnan(args.confidence):
        raise ThousandError(f"--confidence must be in (0, 1], got {args.confidence}")
    if not args.exact and args.samples < 2:
        raise ThousandError(f"--samples must be at least 2, got {args.samples}")
    if not args.exact and args.samples > MAX_SAMPLES:
        # Every sample is held in memory (~100 bytes); --exact is the complete answer anyway.
        raise ThousandError(f"--samples must be at most {MAX_SAMPLES:,} (use --exact for every completion), "
                            f"got {args.samples:,}")
    if args.solve_samples is not None and not args.solve:   # it would be silently ignored
        raise ThousandError("--solve-samples sizes the open-hand reference of --solve; add --solve "
                            "(or drop --solve-samples)")
    if args.solve_samples is None:
        args.solve_samples = DEFAULT_SOLVE_SAMPLES
    if args.solve and not 2 <= args.solve_samples <= MAX_SOLVE_SAMPLES:
        raise ThousandError(f"--solve-samples must be 2..{MAX_SOLVE_SAMPLES:,}, got {args.solve_samples:,}")
    if args.jobs is not None and not args.solve:   # the strategies' estimate is one process's work
        raise ThousandError("--jobs sets the worker processes of --solve's open-hand reference; add --solve "
                            "(or drop --jobs)")
    if args.jobs is None:
        args.jobs = -1
    if args.jobs == 0 or args.jobs < -1:
        raise ThousandError(f"--jobs must be a positive number of workers or -1 for all cores, got {args.jobs}")
    if args.strategy is not None and len(args.strategy) not in (1, 3):
        raise ThousandError(f"--strategy: give one (all seats) or three (declarer, next, other), got {len(args.strategy)}")
    if args.strategy:
        from thousand.strategies import parse_strategy, plays_to_contract
        for spec in args.strategy:
            parse_strategy(spec)   # a bad name or parameter: one line, before any work
        if any(plays_to_contract(spec) for spec in args.strategy) and not args.exact:   # (--exact refuses it)
            # the search player solves worlds at every card: say what the run will cost first
            n = args.samples
            runs = len(bids.bids_for_hand(hand, rules, args.position)) + 1   # every bid's, and passing
            seconds = n * runs * PIMC_SECONDS_A_DEAL
            if seconds >= 60:
                took = f"{seconds / 3600:.1f} h" if seconds >= 3600 else f"{seconds / 60:.0f} min"
                # (the samples of a minute only where the run takes longer: "1 min; 277 take about a
                # minute" said one thing twice, try-out 35)
                minute = (f"; {int(60 / (runs * PIMC_SECONDS_A_DEAL)):,} take about a minute"
                          if seconds >= 90 else "")
                print(f"note: pimc searches at every card (about {PIMC_SECONDS_A_DEAL} s a sampled deal on one "
                      f"core, in each of {runs} runs: every bid's and passing): {n:,} --samples take about "
                      f"{took}{minute}", file=sys.stderr)
    if args.plot is not None:
        _check_plot_path(args.plot)
        if len(bids.bids_for_hand(hand, rules, args.position)) == 0:   # nothing to draw: say so before any work
            raise ThousandError(f"no bid to plot: from the {args.position} seat the lowest bid that wins the auction is "
                                f"{bids.lowest_bid(args.position, rules)}, above this hand's cap of "
                                f"{bids.bid_cap(hand, rules)}")
    est = bids.estimate_bid(hand, rules, role=args.position, strategies=args.strategy,
                            samples=args.samples, exact=args.exact, seed=args.seed,
                            confidence=args.confidence, per_bid=args.per_bid,
                            solve_samples=args.solve_samples if args.solve else 0, jobs=args.jobs,
                            progress=False if args.no_progress else None)
    # the answer first: a chart that still cannot be written (the disk filled meanwhile)
    # loses nothing of it
    if args.json:
        print(json.dumps(bids.bid_estimate_json(est)))
    else:
        print(bids.format_bid_table(est))
    if args.plot:
        try:
            bids.plot_bid_chart(est, args.plot)
        except OSError as e:
            raise ThousandError(f"--plot {args.plot!r} cannot be written: {e.strerror or e}") from None
        if not args.json:
            print(f"chart written to {args.plot}")
    return 0


def _check_plot_path(path: str) -> None:
    import os

    check_name(path, "--plot", "a .png, .svg or .pdf file")
    ext = os.path.splitext(path)[1].lower()
    if ext not in (".png", ".svg", ".pdf"):
        raise ThousandError(f"--plot {path!r}: use a .png, .svg or .pdf file name")
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise ThousandError(f"--plot {path!r}: folder {folder!r} does not exist")
    # checked before the estimate, so a long --exact run does not end in a failed write
    if os.path.isdir(path):
        raise ThousandError(f"--plot {path!r} is a folder; name a file in it")
    if not os.access(folder, os.W_OK) or (os.path.exists(path) and not os.access(path, os.W_OK)):
        raise ThousandError(f"--plot {path!r}: not writable")
    problem = write_problem(path)   # what the access bits do not tell: /proc, a name too long
    if problem:
        raise ThousandError(f"--plot {path!r} cannot be written: {problem}")
