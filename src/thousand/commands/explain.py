"""``thousand explain``: one deal (or a whole game) played out and written down readably."""
from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from thousand.commands.common import (REDEAL_ATTEMPTS, add_rules_arguments, rules_from_args, rules_on_command_line,
                                       seat_strategies, seed_value, whole)
from thousand.errors import IllegalDecision, ThousandError, check_name
from thousand.files import read_json
from thousand.trace import EventKind

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
plays its lowest legal card); give --strategy once for every seat or once per seat.
--game plays a whole game instead of one deal.
--replay FILE.json reads a recorded deal (or game) trace, checks every decision and
prints it; --json prints the trace (which --replay reads back): of the deal played, so a
deal redealt first gives the last attempt's trace only (the redealt attempts are in the
playthrough).

--solve annotates the card play with the open-hand solver (docs/solve.md): every card
with the value before and after it (the declarer's deal points at the end with every
hand open, the declarer playing for the most and the defenders for the least; points
taken so far included), the cards that cost their side points marked with what they
cost and the best cards instead, and at every trick whether the declarer could still
make the contract and whether the defence could still beat it.  With --json the trace
gets a "solve" object (--replay still reads it).  One deal at a time (not --game).

examples:
  thousand explain --seed 7
  thousand explain --seed 7 --players-random
  thousand explain --seed 7 --rules russian --set blind=on
  thousand explain --seed 3 --set players=4 --strategy passive
  thousand explain --seed 5 --strategy standard --strategy random --strategy random
  thousand explain --seed 1 --game --set max_deals=5
  thousand explain --seed 7 --json > deal.json && thousand explain --replay deal.json
  thousand explain --seed 7 --solve
  thousand explain --replay deal.json --solve --json
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
    p.add_argument("--dealer", type=whole, default=None, metavar="SEAT",
                   help="dealer seat of the one deal (default: drawn from the seed, as a game's first "
                        "dealer; given, the seed's cards are dealt by this dealer instead; not with --game)")
    p.add_argument("--game", action="store_true", help="play a whole game (to target or max_deals)")
    p.add_argument("--replay", default=None, metavar="FILE.json", help="replay a recorded deal or game trace")
    p.add_argument("--json", action="store_true", help="print the trace as JSON instead of the playthrough")
    p.add_argument("--solve", action="store_true",
                   help="annotate every card with its open-hand value before and after (one deal)")


def run(args: argparse.Namespace) -> int:
    from thousand.reference import Stream, play_deal
    from thousand.reference.game import play_game
    from thousand.players import make_player
    from thousand.reference.playthrough import format_deal, format_game

    rules = rules_from_args(args)
    n = rules.players
    if args.replay is not None:
        return _replay(args, rules)

    if args.solve and args.game:
        raise ThousandError("--solve annotates one deal; drop --game (or write one deal's trace and --replay it)")
    if args.players_random and args.strategy:
        raise ThousandError("--players-random is --strategy random for every seat; give one or the other")
    specs = seat_strategies(args.strategy or (["random"] if args.players_random else ["standard"]), n)
    if args.dealer is not None and not 0 <= args.dealer < n:
        raise ThousandError(f"--dealer: must be a seat 0..{n - 1}, got {args.dealer}")
    if args.dealer is not None and args.game:
        # it was checked and then ignored: a game's first dealer is the seed's, as in `games`
        raise ThousandError("--dealer sets one deal's dealer; a --game's first dealer comes from its seed: "
                            "drop --dealer or --game")
    seed = 1 if args.seed is None else args.seed
    stream = Stream(seed)
    players = [make_player(spec, rules, seat, stream) for seat, spec in enumerate(specs)]
    if args.game:
        game = play_game(rules, players, stream)
        print(game.trace.to_json(indent=1) if args.json else format_game(game))
        return 0
    from thousand.rules import deal_run_notes
    for note in deal_run_notes(rules, instead="--game"):   # one deal from 0-0 (golden kon needs a game)
        print(f"note: {note}", file=sys.stderr)
    drawn = stream.draw_bounded(n)    # drawn even with --dealer: the same cards, another dealer
    dealer = drawn if args.dealer is None else args.dealer
    blocks = []
    for attempt in range(REDEAL_ATTEMPTS):
        res = play_deal(rules, players, stream, dealer)
        solved = solve_deal(res) if args.solve and not res.is_redeal else None
        if args.json:
            blocks.append(deal_json(rules, res, solved))
        else:
            blocks.append(format_deal(res, title=f"--- deal (seed {seed}, rules {rules.describe()})"
                                      + (f", attempt {attempt + 1}" if attempt else ""))
                          + ("\n" + format_solve(solved) if solved is not None else ""))
        if not res.is_redeal:
            break
    else:
        # rules that redeal every hand: said, and --solve has no play to solve (try-out 33)
        if args.solve:
            raise ThousandError(f"--solve: seed {seed}: no deal was played in {REDEAL_ATTEMPTS:,} attempts "
                                "(every one redealt)")
        print(f"note: seed {seed}: no deal was played in {REDEAL_ATTEMPTS:,} attempts (every one redealt); "
              "these rules redeal almost every hand", file=sys.stderr)
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
    rules_given = rules_on_command_line(args)
    try:
        if isinstance(data, dict) and ("first_dealer" in data or "deals" in data):   # a game's
            if args.solve:
                raise ThousandError(f"--solve annotates one deal; {args.replay!r} is a game trace "
                                    "(write one deal's trace with thousand explain --seed S --json)")
            game_trace = GameTrace.from_dict(data)
            _check_trace_rules(rules_given, rules, game_trace.rules)
            game = replay_game(game_trace.rules, game_trace)
            print(game.trace.to_json(indent=1) if args.json else format_game(game))
        else:
            rules = trace_rules(data, rules, rules_given)
            deal = replay_deal(rules, DealTrace.from_dict(data))
            note_no_rules(data, rules_given)
            solved = solve_deal(deal) if args.solve else None
            if args.json:   # with its rules, as --seed writes it: --replay reads it back alike
                print(deal_json(rules, deal, solved))
            else:
                print(format_deal(deal, title=f"--- replayed deal {args.replay} (rules {rules.describe()})")
                      + ("\n" + format_solve(solved) if solved is not None else ""))
    except IllegalDecision as e:   # the trace's decisions do not fit the rules it was read under
        raise ThousandError(f"{e}{no_rules_hint(data, rules_given)}") from None
    except (ValueError, KeyError, TypeError, AttributeError) as e:
        if not isinstance(data, dict) or not ({"events", "deals", "hands"} & set(data)):
            raise ThousandError(f"{args.replay!r} is not a deal or game trace "
                                "(write one with thousand explain --json)") from None
        raise ThousandError(f"trace {args.replay!r} is malformed: {e}{no_rules_hint(data, rules_given)}") from None
    return 0


def _check_trace_rules(rules_given: bool, rules, traced) -> None:
    if rules_given and rules != traced:
        raise ThousandError(f"the trace was played under {traced.describe()}, not {rules.describe()}; "
                            "drop --rules/--set (a trace carries its rules)")


def trace_rules(data: dict, rules, rules_given: bool):
    """The rules of a deal trace: its own (``--json`` writes them), checked against any
    given; else the given ones (a trace from the Python API, ``DealTrace.to_json``, has
    none: classic unless --rules/--set say otherwise)."""
    from thousand.trace import GameTrace
    if not _names_rules(data):
        return rules
    traced = GameTrace.from_dict({"rules": data["rules"], "first_dealer": 0, "deals": []}).rules
    _check_trace_rules(rules_given, rules, traced)
    return traced


def _names_rules(data: Any) -> bool:
    """Whether a trace names its rules (``"rules": {}`` or null names none)."""
    return isinstance(data, dict) and data.get("rules") not in (None, {})


def _read_as_classic(data: Any, rules_given: bool) -> bool:
    """A deal trace without rules, read under classic because none were given (a game
    trace must name its rules: it is refused instead)."""
    return isinstance(data, dict) and "deals" not in data and not _names_rules(data) and not rules_given


def note_no_rules(data: dict, rules_given: bool) -> None:
    """Said after such a trace was replayed: other rules would score the same decisions
    otherwise."""
    if _read_as_classic(data, rules_given):
        print("note: the trace names no rules: read under classic (give others with --rules/--set)",
              file=sys.stderr)


def no_rules_hint(data: Any, rules_given: bool) -> str:
    """Said after the error such a trace caused."""
    if _read_as_classic(data, rules_given):
        return "; the trace names no rules, so it was read under classic: give its rules with --rules/--set"
    return ""


def deal_json(rules, res, solved: dict | None) -> str:
    """A deal's trace as ``--json`` prints it: with its rules (so that ``--replay`` and
    ``solve --trace`` read it back under them) and, with ``--solve``, the open-hand values."""
    from thousand.trace import GameTrace
    payload = {"rules": GameTrace(rules=rules, first_dealer=0).to_dict()["rules"], **res.trace.to_dict()}
    if solved is not None:
        payload["solve"] = solved
    return json.dumps(payload, indent=1, ensure_ascii=False)


# --------------------------------------------------------------------------- --solve
def solve_deal(res) -> dict:
    """The open-hand values along a played deal: one entry per card (the value before and
    after it, what it cost its side, the best cards where it cost something) and one per
    trick ("could the declarer still make the contract? could the defence still beat
    it?").  Raises ``ThousandError`` for a deal without a play."""
    from thousand import solver
    from thousand.cards import card_name
    from thousand.lines import line_of_deal, solve_line

    # A resigned deal has no card play, but its hand-off was made: the play he declined
    # answers "could he have made it?".
    line = line_of_deal(res, resigned=True)
    if line is None:
        why = "it was redealt" if res.is_redeal else "nobody declared"
        raise ThousandError(f"--solve: the deal has no card play to solve ({why})")
    ws = solver.Workspace()
    if res.resigned:
        return _solve_resigned(res, line, ws)
    lv = solve_line(line, ws)
    if lv.taken != res.declarer_points:   # the line and the deal's own count must agree
        raise ThousandError(f"--solve: the line ends with {lv.taken} points, the deal counted {res.declarer_points}")
    positions = line.positions()
    play_events = [i for i, e in enumerate(res.trace.events) if e.kind == EventKind.PLAY]
    costs = lv.costs()
    n_active = len(line.start.active)
    cards, tricks = [], []
    for k, ((seat, card, declare), p) in enumerate(zip(line.moves, positions)):
        before, after = int(lv.values[k]), int(lv.values[k + 1])
        if not p.trick:
            tricks.append({"trick": p.trick_index + 1, "value": before,
                           "declarer_can_make": before >= line.contract, "defence_can_beat": before < line.contract})
        entry = {"event": play_events[k], "trick": k // n_active + 1, "seat": seat,
                 "card": card_name(card, symbols=False), "declare": declare,
                 "side": "declarer" if seat == line.declarer else "defence",
                 "before": before, "after": after, "cost": int(costs[k])}
        if costs[k]:
            moves = solver.card_values(p, line.declarer, line.laid_away_points, workspace=ws)
            best = max(moves.values()) if seat == line.declarer else min(moves.values())
            entry["best"] = [card_name(m if isinstance(m, int) else m[0], symbols=False)
                             + ("" if isinstance(m, int) else "+declare") for m, v in moves.items() if v == best]
            entry["best_value"] = best
        cards.append(entry)
    # the hand-off (2 players: the lay-away) against every other one, solved the same way
    hand_off = _hand_off_solved(res, lv.start_value, ws)
    return {"declarer": line.declarer, "contract": line.contract, "resigned": False, "hand_off": hand_off,
            "makeable": lv.start_value >= line.contract,
            "start_value": lv.start_value, "taken": lv.taken, "made": lv.taken >= line.contract,
            "declarer_loss": lv.declarer_loss, "defence_loss": lv.defence_loss,
            "laid_away_points": line.laid_away_points, "cards": cards, "tricks": tricks}


def _hand_off_solved(res, start_value: int, ws) -> dict:
    """The hand-off made (2 players: the lay-away) against every other one: its value
    (``start_value``, the play's start as the line solved it), what it cost, the best."""
    from thousand import solver
    from thousand.lines import hand_off_cards, hand_off_of_deal

    h = hand_off_of_deal(res, resigned=True)
    assert h is not None and h.made is not None     # the deal has a line, so a hand-off
    values = solver.hand_off_values(res.rules, *h.args(), workspace=ws)
    if values[h.made] != start_value:    # the hand-off made gives the line's start
        raise ThousandError(f"--solve: the hand-off made is worth {values[h.made]}, the first lead {start_value}")
    top = max(values.values())
    return {**hand_off_cards(h.active, h.declarer, h.made), "value": start_value,
            "cost": top - start_value, "best_value": top,
            "best": [hand_off_cards(h.active, h.declarer, k) for k, v in values.items() if v == top]}


def _solve_resigned(res, line, ws) -> dict:
    """:func:`solve_deal` for a deal the declarer resigned: the open-hand value of the play
    he declined (after the hand-off he made) and of his hand-offs; no card, no trick."""
    from thousand import solver

    v = solver.value(line.start, line.declarer, line.laid_away_points, workspace=ws)
    return {"declarer": line.declarer, "contract": line.contract, "resigned": True,
            "hand_off": _hand_off_solved(res, v, ws), "start_value": v, "makeable": v >= line.contract,
            "taken": None, "made": False, "declarer_loss": None, "defence_loss": None,
            "laid_away_points": line.laid_away_points, "cards": [], "tricks": []}


def format_solve(s: dict) -> str:
    """The text of :func:`solve_deal`'s result, printed after the playthrough."""
    from thousand.cards import card_name, parse_card
    from thousand.lines import hand_off_text

    def name(text: str) -> str:
        card, _, declare = text.partition("+")
        return card_name(parse_card(card)) + (" declaring" if declare else "")

    c = s["contract"]
    out = [f"open-hand values for seat {s['declarer']}'s contract of {c} (the value: his deal points at the end "
           "with every hand open,",
           "  he playing for the most and the defenders for the least; points taken so far included):"]
    h = s["hand_off"]
    what = "lay-away" if "lay_away" in h else "hand-off"
    text = f"{what}: {hand_off_text(h)}, value {h['value']}"
    if h["cost"]:
        best = "; ".join(hand_off_text(b) for b in h["best"][:3]) + (
            f"; {len(h['best']) - 3} more" if len(h["best"]) > 3 else "")
        text += f"  costs the declarer {h['cost']} (best: {h['best_value']} with {best})"
    else:
        text += " (a best one)"
    out.append(text)
    if s.get("resigned"):
        answer = "yes" if s["makeable"] else "no"
        if not s["makeable"] and h["best_value"] >= c:   # the question is of the play after his own
            answer += f" (after this {what}; yes with the best one)"
        out.append(f"resigned: open-handed, the play he declined was worth {s['start_value']} -- could he have "
                   f"made {c}? {answer}")
        return "\n".join(out)
    tricks = {t["trick"]: t for t in s["tricks"]}
    shown = 0
    for e in s["cards"]:
        if e["trick"] != shown:
            shown = e["trick"]
            t = tricks[shown]
            out.append(f"trick {t['trick']}: value {t['value']} -- can the declarer still make {c}? "
                       f"{'yes' if t['declarer_can_make'] else 'no'}; can the defence still beat it? "
                       f"{'yes' if t['defence_can_beat'] else 'no'}")
        card = name(e["card"] + ("+declare" if e["declare"] else ""))
        line = f"  seat {e['seat']} {card:<14} {e['before']:>4} -> {e['after']:<4}"
        if e["cost"]:
            who = "the declarer" if e["side"] == "declarer" else "the defence"
            best = ", ".join(name(b) for b in e["best"])
            line += f"  costs {who} {e['cost']} (best: {e['best_value']} with {best})"
        out.append(line.rstrip())
    out.append(f"taken {s['taken']} for {c} ({'made' if s['made'] else 'failed'}); open-hand value at the first "
               f"lead {s['start_value']}: the declarer's cards cost {s['declarer_loss']}, the defenders' "
               f"{s['defence_loss']} ({s['start_value']} - {s['declarer_loss']} + {s['defence_loss']} = {s['taken']}); "
               f"before it the {what} cost {h['cost']}")
    return "\n".join(out)
