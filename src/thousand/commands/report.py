"""``thousand report``: the full report (what ``make report`` runs)."""
from __future__ import annotations

import argparse
import sys

from thousand.commands.common import add_seed_argument, whole
from thousand.errors import ThousandError

NAME = "report"
HELP = "simulate and write the full report: redeals, marriages, bid thresholds, rule comparison"
DESCRIPTION = """Run the simulations the report needs, then write DIR/report.html (one
self-contained page, charts embedded, readable offline), DIR/report.md, every chart as PNG
in DIR/charts/, every table as CSV in DIR/tables/ (redeal_frequencies.csv, redeal_calls.csv,
marriages.csv, marriage_value.csv, marriage_points.csv, bid_thresholds.csv, ...) and the
Parquet data it used in DIR/data/.

Rule sets: without --rules the report covers the three presets, classic (the main one),
russian and polish, and compares them; with --rules, the rule sets given (the first is the
main one; several are compared), plus every preset in the redeal section.  --no-presets
keeps to the rule sets given (without --rules: classic alone, no comparison).

Sections: redeal frequencies for every rule set (observed with 95% intervals next to exact
combinatorial probabilities, and how often the strategies call a redeal); marriage
statistics, how well the bots play (the first --play-deals deals solved open-handed card
by card: the points the declarer's and the defenders' cards gave away, and the contracts
decided by a mistake; then --defence-deals other deals played twice on the same cards, once
by the run's players and once with the pimc search player defending, the two defences'
losses side by side) and bidding thresholds (forced-declarer runs, with a rule of thumb and a worked
example) for the main rule set; and, with several rule sets, the house-rule comparison over
--games games each (what changes significantly, in words, then every metric).

There is no --resume: run the same command again and it reuses the data in DIR/data made
with the same settings, so an interrupted report (Ctrl-C) continues where it stopped; data
an earlier report with other settings left there is replaced or removed. The report deletes
only what it wrote itself: a folder of yours where it must write makes it stop before any
work, and your own files in DIR/tables and DIR/charts stay.

examples:
  thousand report --out report                         the default: the presets, 1,000,000 deals each
  thousand report --deals 200000 --hands 300 --play-deals 200 --defence-deals 50 --out quick
  thousand report --rules classic --rules classic:bolts=off --games 20000 --out cmp-report
"""


# The report's defaults, spelt out here so that building the CLI does not import the
# analysis stack (matplotlib, polars); a test checks they equal analysis.report's.
DEFAULT_DEALS = 1_000_000
DEFAULT_GAMES = 2_000
DEFAULT_HANDS = 2_000
DEFAULT_SAMPLES = 100
DEFAULT_PLAY_DEALS = 500
DEFAULT_DEFENCE_DEALS = 300


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--deals", "-n", type=whole, default=DEFAULT_DEALS, metavar="N",
                   help=f"deals simulated per rule set (default {DEFAULT_DEALS:,})")
    p.add_argument("--games", "-g", type=whole, default=DEFAULT_GAMES, metavar="N",
                   help=f"games per rule set for the house-rule comparison (default {DEFAULT_GAMES:,})")
    p.add_argument("--hands", type=whole, default=DEFAULT_HANDS, metavar="N",
                   help=f"random hands for the bidding thresholds (default {DEFAULT_HANDS:,})")
    p.add_argument("--samples", type=whole, default=DEFAULT_SAMPLES, metavar="N",
                   help=f"completions played per hand and seat for the thresholds (default {DEFAULT_SAMPLES})")
    # None: the pipeline's own default (which the test suite lowers, like every report's)
    p.add_argument("--play-deals", type=whole, default=None, metavar="N",
                   help="first deals of the main run solved open-handed for \"How well the bots play\" "
                        f"(default {DEFAULT_PLAY_DEALS:,}; 0 leaves the section out)")
    p.add_argument("--defence-deals", type=whole, default=None, metavar="N",
                   help="deals played twice on the same cards, by the run's players and with the pimc search "
                        "player defending against the run's strategy, to compare the two defences (deals of their "
                        "own, not the --play-deals ones, and at most as many; "
                        f"default {DEFAULT_DEFENCE_DEALS:,}, about 3 s of CPU for each 100; 0 leaves it out)")
    p.add_argument("--rules", action="append", default=None, metavar="SPEC",
                   help="rule set (preset, preset:k=v,... or FILE.toml); repeat to compare; the first is the main one "
                        "(default: classic, russian and polish, compared)")
    p.add_argument("--set", action="append", default=[], metavar="NAME=VALUE", dest="overrides",
                   help="override one rule option in every rule set, e.g. --set bolts=off (repeatable)")
    p.add_argument("--strategy", action="append", default=None, metavar="NAME[:k=v,...]",
                   help="strategy for every seat (once) or for each seat; default standard")
    add_seed_argument(p)
    p.add_argument("--jobs", "-j", type=whole, default=-1, metavar="J",
                   help="parallel workers, -1 for all cores (default -1); never changes the result")
    p.add_argument("--no-presets", action="store_true",
                   help="only the given rule sets (default classic alone): no preset added to the redeal section, "
                        "nor compared")
    p.add_argument("--out", "-o", default="report", metavar="DIR", help="output directory (default report)")
    p.add_argument("--no-progress", action="store_true", help="no progress bars even on a terminal")


def run(args: argparse.Namespace) -> int:
    import importlib

    from thousand.rules import PRESETS, parse_rules_spec

    try:
        # A report without the kernel would be mostly empty: say so and stop instead.
        importlib.import_module("thousand.kernel")
    except ImportError as e:
        raise ThousandError(f"the compiled kernel is not available ({e}); run `make build`") from None
    from thousand.analysis.report import ReportConfig, build_report

    # The default report covers (and compares) the presets; --no-presets: classic alone.
    specs = args.rules or (["classic"] if args.no_presets else list(PRESETS))
    rules = [parse_rules_spec(s, args.overrides) for s in specs]
    labels = list(specs)
    if args.overrides:
        labels = [r.describe() for r in rules]
    if len(set(labels)) != len(labels):
        raise ThousandError("the same rule set is given twice; give different --rules")
    # the same rules written two ways (classic and classic:bolts=always, or two files):
    # refused before any work, as compare does (the report's comparison would drop them all)
    from thousand.analysis.compare import refuse_duplicates
    refuse_duplicates(specs, rules, labels, args.overrides)
    cfg = ReportConfig(out=args.out, rules=rules, labels=labels, deals=args.deals, games=args.games,
                       hands=args.hands, samples=args.samples, play_deals=args.play_deals,
                       defence_deals=args.defence_deals, seed=args.seed, jobs=args.jobs,
                       strategies=args.strategy, presets=not args.no_presets,
                       progress=False if args.no_progress else None)
    try:
        result = build_report(cfg)
    except KeyboardInterrupt as e:
        # Said here rather than by the CLI's generic line: the report has no --resume, the
        # same command continues (build_report reuses the data written with these settings).
        print(f"thousand report: interrupted; the data computed so far is kept in {cfg.out / 'data'}: "
              "run the same command again to continue from it", file=sys.stderr)
        return 128 + getattr(e, "signum", 2)   # 130 Ctrl-C, 143 SIGTERM, 129 SIGHUP
    print(f"report: {result.html}")
    print(f"        {result.markdown}; {len(result.tables)} tables in {result.out / 'tables'}; "
          f"{len(result.charts)} charts in {result.out / 'charts'}")
    for note in result.notes:
        print(f"  not shown: {note}")
    if result.failed:
        # The page is written and says what is missing, but a failed section is a failure.
        print(f"thousand report: error: a section failed: {'; '.join(result.failed)}", file=sys.stderr)
        return 1
    return 0
