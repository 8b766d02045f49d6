"""``thousand explain``: one deal (or a whole game) played out and written down readably."""
from __future__ import annotations

import argparse
import json

from thousand.commands.common import add_rules_arguments, rules_from_args, seat_strategies, seed_value
from thousand.errors import ThousandError, check_name
from thousand.files import read_json

# The longest game a trace can hold (max_deals = 32,767 deals, about 1.7 KB each with
# --json's indentation) is about 60 MB: a larger file is not a trace.
MAX_TRACE_BYTES = 128 << 20

NAME = "explain"
HELP = "play one deal from a seed and print it decision by decision"
DESCRIPTION = """Deal one deal from a seed, play it, and print every step: the hands, the
auction, the talon, the hand-off, the contract, each trick with its winner and any
marriage declared, the points, the score changes and bolts.  Redeals are shown and
dealt again until a deal is played.  The same seed always gives the same deal.

Every seat plays the kernel's `standard` strategy (asked one decision at a time)
unless --strategy names another player: a kernel strategy such as `greedy`, `cautious`
or `standard:margin=20`, `random` (uniform legal choices) or `passive` (always passes,
plays its lowest legal card); give --strategy once for every seat or once per seat.  --game plays a whole game instead of one deal.
--replay FILE.json reads a recorded deal (or game) trace, checks every decision and
prints it; --json prints the trace (which --replay reads back).

examples:
  thousand explain --seed 7
  thousand explain --seed 7 --players-random
  thousand explain --seed 7 --rules russian --set blind=on
  thousand explain --seed 3 --set players=4 --strategy passive
  thousand explain --seed 5 --strategy standard --strategy random --strategy random
  thousand explain --seed 1 --game --set max_deals=5
  thousand explain --seed 7 --json > deal.json && thousand explain --replay deal.json
"""


def add_arguments(p: argparse.ArgumentParser) -> None:
    # no default here: --replay must tell a seed the user typed from none (see run)
    p.add_argument("--seed", type=seed_value, default=None, metavar="S",
                   help="root seed; the same seed gives the same deal (default 1)")
    add_rules_arguments(p)
    p.add_argument("--players-random", action="store_true",
                   help="every seat plays uniformly random legal moves (same as --strategy random)")
    p.add_argument("--strategy", action="append", default=None, metavar="NAME[:k=v,...]",
                   help="player for every seat (once) or each seat (once per seat): random, passive, ...")
    p.add_argument("--dealer", type=int, default=None, metavar="SEAT",
                   help="dealer seat (default: drawn from the seed, as a game's first dealer)")
    p.add_argument("--game", action="store_true", help="play a whole game (to target or max_deals)")
    p.add_argument("--replay", default=None, metavar="FILE.json", help="replay a recorded deal or game trace")
    p.add_argument("--json", action="store_true", help="print the trace as JSON instead of the playthrough")


def run(args: argparse.Namespace) -> int:
    from thousand.reference import Stream, play_deal
    from thousand.reference.game import play_game
    from thousand.players import make_player
    from thousand.reference.playthrough import format_deal, format_game
    from thousand.trace import GameTrace

    rules = rules_from_args(args)
    n = rules.players
    if args.replay is not None:
        return _replay(args, rules)

    if args.players_random and args.strategy:
        raise ThousandError("--players-random is --strategy random for every seat; give one or the other")
    specs = seat_strategies(args.strategy or (["random"] if args.players_random else ["standard"]), n)
    if args.dealer is not None and not 0 <= args.dealer < n:
        raise ThousandError(f"--dealer: must be a seat 0..{n - 1}, got {args.dealer}")
    seed = 1 if args.seed is None else args.seed
    stream = Stream(seed)
    players = [make_player(spec, rules, seat, stream) for seat, spec in enumerate(specs)]
    if args.game:
        game = play_game(rules, players, stream)
        print(game.trace.to_json(indent=1) if args.json else format_game(game))
        return 0
    dealer = stream.draw_bounded(n) if args.dealer is None else args.dealer
    blocks = []
    for attempt in range(1000):
        res = play_deal(rules, players, stream, dealer)
        if args.json:
            payload = {"rules": GameTrace(rules=rules, first_dealer=dealer).to_dict()["rules"], **res.trace.to_dict()}
            blocks.append(json.dumps(payload, indent=1, ensure_ascii=False))
        else:
            blocks.append(format_deal(res, title=f"--- deal (seed {seed}, rules {rules.describe()})"
                                      + (f", attempt {attempt + 1}" if attempt else "")))
        if not res.is_redeal:
            break
    # --json prints the played deal's trace only (the redealt attempts are in the playthrough)
    print(blocks[-1] if args.json else "\n\n".join(blocks))
    return 0


def _replay(args: argparse.Namespace, rules) -> int:
    """Check and print a recorded trace: its decisions are the players, so options that
    choose players or deal cards would be silently ignored; they are refused instead."""
    from thousand.reference import replay_deal
    from thousand.reference.game import replay_game
    from thousand.reference.playthrough import format_deal, format_game
    from thousand.trace import DealTrace, GameTrace

    chosen = [flag for flag, given in (("--seed", args.seed is not None), ("--strategy", args.strategy),
                                       ("--players-random", args.players_random),
                                       ("--dealer", args.dealer is not None), ("--game", args.game)) if given]
    if chosen:
        raise ThousandError(f"--replay takes the deal, the dealer and every decision from the trace; "
                            f"drop {', '.join(chosen)}")
    check_name(args.replay, "--replay", "the trace file written by --json")
    data = read_json(args.replay, "trace", MAX_TRACE_BYTES)
    rules_given = args.rules != "classic" or bool(args.overrides)
    try:
        if isinstance(data, dict) and "first_dealer" in data:
            game_trace = GameTrace.from_dict(data)
            _check_trace_rules(rules_given, rules, game_trace.rules)
            game = replay_game(game_trace.rules, game_trace)
            print(game.trace.to_json(indent=1) if args.json else format_game(game))
        else:
            if isinstance(data, dict) and "rules" in data:  # a trace written by --json carries its rules
                traced = GameTrace.from_dict({"rules": data["rules"], "first_dealer": 0, "deals": []}).rules
                _check_trace_rules(rules_given, rules, traced)
                rules = traced
            deal = replay_deal(rules, DealTrace.from_dict(data))
            print(deal.trace.to_json(indent=1) if args.json
                  else format_deal(deal, title=f"--- replayed deal {args.replay} (rules {rules.describe()})"))
    except (ValueError, KeyError, TypeError, AttributeError) as e:
        if not isinstance(data, dict) or not ({"events", "deals", "hands"} & set(data)):
            raise ThousandError(f"{args.replay!r} is not a deal or game trace "
                                "(write one with thousand explain --json)") from None
        raise ThousandError(f"trace {args.replay!r} is malformed: {e}") from None
    return 0


def _check_trace_rules(rules_given: bool, rules, traced) -> None:
    if rules_given and rules != traced:
        raise ThousandError(f"the trace was played under {traced.describe()}, not {rules.describe()}; "
                            "drop --rules/--set (a trace carries its rules)")
