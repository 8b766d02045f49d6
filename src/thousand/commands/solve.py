"""``thousand solve``: the open-hand (double-dummy) value of a play position, card by card."""
from __future__ import annotations

import argparse
import json
from typing import TYPE_CHECKING

from thousand.commands.common import (REDEAL_ATTEMPTS, add_rules_arguments, rules_from_args, rules_on_command_line,
                                       seat_strategies, seed_value, WHOLE, whole)
from thousand.errors import IllegalDecision, ThousandError

if TYPE_CHECKING:       # the command imports the kernel only when it runs
    from thousand.lines import HandOff

NAME = "solve"
HELP = "the open-hand value of a play position: what the declarer makes, and what every card is worth"
DESCRIPTION = """Solve a card-play position with every hand open: the declarer plays for the most
deal points, the defenders together for the least (the usual open-hand, double-dummy
assumption).  Prints the value -- the declarer's deal points at the end of the play
(card points of his tricks, his marriages, the last-trick bonus; the points he has
taken so far included) -- which contract levels he reaches (the value decides them all:
a contract is reachable exactly when it is at most the value), and every legal card of
the seat to play with the value after it, best first (for the declarer the highest,
for a defender the lowest; the best marked *).  A lead that may declare a marriage is
listed twice, plainly and with the declaration.

The position is either typed as hands or taken from a simulated deal:

  --hands "H0 | H1 | H2"   the hands in play order, seats 0, 1, 2 (2 players: two hands;
                           4 players: the three who play, the dealer sits out); cards as
                           elsewhere (AH TH 9S, 10♥ ...); every hand holds the cards of the
                           tricks left, one fewer for a seat that has played to --trick
  --declarer SEAT          the declarer (default 0); he leads unless --lead SEAT
  --trump SUIT             S C D H (or ♠ ♣ ♦ ♥, or spades ...), default none
  --trick "CARDS"          the trick in progress, in play order from the leader
  --taken "P0,P1,P2"       deal points each seat has taken so far (card points and
                           marriages); checked against the cards: together they are the
                           completed tricks' card points plus marriages that can have been
                           declared, the trump's among them.  Without it nothing counts as
                           taken (the value is what the declarer makes from here on)

  --seed S                 the deal `thousand explain --seed S` plays (same rules,
                           same --strategy), at the first lead after the hand-off;
                           4 players: its seats numbered as --hands numbers them (the
                           forehand 0; the output names the table seats)
  --trace FILE --at EVENT  a deal trace written by `thousand explain --json`, before its
                           event number EVENT (0-based; a card of the play; default the
                           first lead)
  --hand-off               with --seed or --trace: the deal before the hand-off (below)

The hand-off: when the declarer holds 10 cards and each defender 7 (2 players: 12 and
10), the position is the play's start before the hand-off, and every hand-off is solved
-- a card to each defender (2 players: two cards laid away, their points his) -- with
the best first; the value is then the best hand-off's.  --seed S --hand-off (or --trace
FILE --hand-off) does the same for a deal and marks the hand-off its declarer made.

Positions no play can reach are refused: the first trick led by a defender, a trump no
marriage can have set, points taken that the played cards and marriages do not add up to.
With 2 players typed hands leave out the set-aside talon and the laid-away cards: they
count 0 (a --seed or --trace deal counts both, as the deal does).

examples:
  thousand solve --hands "AH TH | KH 9S | QH JS"
  thousand solve --hands "AH TH KH | QS 9S KS | JH JS JC" --trump H --taken 142,22,18 --json
  thousand solve --hands "TH | KH 9S | QH JS" --trick "AH"        seat 1 to answer the A♥
  thousand solve --hands "AH TH KH QH AD 9S JC KS 9D JH | AS TS QS JS AC KC 9H | TC QC 9C TD KD QD JD"
                                                                which two cards to give away
  thousand solve --seed 7
  thousand solve --seed 7 --hand-off                            the deal's hand-off, the made one marked
  thousand solve --seed 3 --rules russian --strategy greedy
  thousand explain --seed 7 --json > deal.json && thousand solve --trace deal.json --at 26
"""

MAX_TAKEN = 10000   # far above any deal's points (120 + marriages); keeps the kernel's int32 row safe


def add_arguments(p: argparse.ArgumentParser) -> None:
    src = p.add_mutually_exclusive_group(required=True)
    src.add_argument("--hands", metavar='"H0 | H1 | H2"', help="the hands in play order, separated by |")
    src.add_argument("--seed", type=seed_value, metavar="S",
                     help="solve the deal `thousand explain --seed S` plays, at its first lead")
    src.add_argument("--trace", metavar="FILE.json", help="a deal trace written by `thousand explain --json`")
    p.add_argument("--at", type=whole, default=None, metavar="EVENT",
                   help="with --trace: the position before the trace's event number EVENT (0-based, a card "
                        "of the play; default its first lead)")
    p.add_argument("--declarer", type=whole, default=None, metavar="SEAT", help="the declarer's seat (default 0)")
    p.add_argument("--lead", type=whole, default=None, metavar="SEAT",
                   help="the seat that leads (the trick in progress, if any) (default the declarer)")
    p.add_argument("--trump", default=None, metavar="SUIT",
                   help="trump suit: S C D H (or ♠ ♣ ♦ ♥, spades ... hearts) or none (default none)")
    p.add_argument("--trick", default=None, metavar='"CARDS"', help="the trick in progress, from its leader on")
    p.add_argument("--taken", default=None, metavar='"P0,P1,P2"', help="deal points each seat has taken so far")
    add_rules_arguments(p)
    p.add_argument("--strategy", action="append", default=None, metavar="NAME[:k=v,...]",
                   help="with --seed: the players of the deal, as in thousand explain (default standard)")
    p.add_argument("--hand-off", action="store_true",
                   help="with --seed or --trace: solve the deal's hand-off (the declarer's 10 cards before it), "
                        "the one its declarer made marked; with --hands the hand sizes say so (10 and 7)")
    p.add_argument("--json", action="store_true", help="print one JSON object instead of the text")


def run(args: argparse.Namespace) -> int:
    from thousand import solver

    rules = rules_from_args(args)
    if args.at is not None and args.trace is None:
        raise ThousandError("--at picks an event of a --trace; give --trace FILE.json")
    if args.hand_off and args.hands is not None:
        raise ThousandError("--hand-off solves a --seed or --trace deal's hand-off; with --hands give the declarer "
                            "10 cards (12 with 2 players) and the defenders 7 (10) instead")
    if args.hand_off and args.at is not None:
        raise ThousandError("--at picks a card of the play; --hand-off solves the position before the hand-off: "
                            "drop one of them")
    resigned = None
    laid = 0        # 2 players: the points of the cards laid away (a deal's; typed: not known)
    if args.hands is None:
        mode = "--seed" if args.trace is None else "--trace"
        typed = [flag for flag, v in (("--declarer", args.declarer), ("--lead", args.lead), ("--trump", args.trump),
                                      ("--trick", args.trick), ("--taken", args.taken)) if v is not None]
        if args.trace is not None and args.strategy:
            typed.append("--strategy")
        if typed:
            raise ThousandError(f"{mode} takes the position from the deal; drop {', '.join(typed)}")
        if args.trace is not None:
            pos, declarer, laid, resigned = _trace_position(args, rules, args.hand_off)
            rules = pos.rules
        else:
            pos, declarer, laid, resigned = _seed_position(rules, args.seed, args.strategy, args.hand_off)
    else:
        if args.strategy:
            raise ThousandError("--strategy chooses the players of a --seed deal; --hands needs none")
        pos, declarer = _typed_position(rules, args)
    from thousand.lines import HandOff

    if isinstance(pos, HandOff):
        result = _hand_off_result(pos)
        _print(args, result, lambda: _format_hand_off(pos, result), resigned)
        return 0
    try:
        solver.check_position(pos, declarer)
        # typed positions without --taken count nothing as taken: the value is then what
        # the declarer makes from here on, and the points are not checked
        solver.check_history(pos, declarer, points=args.hands is None or args.taken is not None)
    except ValueError as e:
        raise ThousandError(f"bad position: {e}") from None
    ws = solver.Workspace()
    value = solver.value(pos, declarer, laid, workspace=ws)
    moves = solver.card_values(pos, declarer, laid, workspace=ws)
    result = _result(rules, pos, declarer, value, moves, laid if args.hands is None else None)
    untold = args.hands is not None and args.taken is None    # typed, and nothing said of the points taken
    _print(args, result, lambda: _format(rules, pos, declarer, result, untold), resigned)
    return 0


def _print(args: argparse.Namespace, result: dict, text, resigned: int | None) -> None:
    """The result as JSON or text; for a deal the declarer resigned (``resigned``: his
    contract), said first: what follows is the play he declined."""
    if resigned is not None:    # after `rules`, which comes first (docs/solve.md)
        result = {"rules": result["rules"], "resigned": {"contract": resigned}, **result}
    if args.json:
        print(json.dumps(result, ensure_ascii=False))
        return
    if resigned is not None:
        print(f"the declarer resigned his contract of {resigned} in this deal; below, what open-hand play "
              "would have given him")
    print(text())


def parse_suit(text: str) -> int:
    """A trump suit: a letter, symbol or name; ``none`` (or ``-``) for no trump.

    >>> parse_suit("h"), parse_suit("♠"), parse_suit("none")
    (3, 0, -1)
    """
    from thousand.cards import CardError, parse_suit as card_suit
    if text.strip().lower() in ("none", "-"):
        return -1
    try:
        return card_suit(text)
    except CardError as e:
        raise ThousandError(f"--trump: {e} or none") from None


def _typed_position(rules, args: argparse.Namespace):
    from thousand.cards import card_name, card_points, cards_of, format_hand, parse_cards, parse_hand, popcount
    from thousand.lines import HandOff
    from thousand.reference.play import Position, n_tricks

    n = 2 if rules.players == 2 else 3
    parts = args.hands.split("|")
    if len(parts) != n:
        who = "2 hands" if n == 2 else ("3 hands (the dealer sits out)" if rules.players == 4 else "3 hands")
        raise ThousandError(f"--hands: the rules say players={rules.players}, so give {who} separated by |, "
                            f"got {len(parts)}")
    hands = [parse_hand(h) for h in parts]
    trick = parse_cards(args.trick) if args.trick else []
    seen = 0
    for c in [c for h in hands for c in cards_of(h)] + trick:
        if seen >> c & 1:
            raise ThousandError(f"card {card_name(c, symbols=False)} is given twice (in --hands or --trick)")
        seen |= 1 << c
    declarer = 0 if args.declarer is None else args.declarer
    leader = declarer if args.lead is None else args.lead
    for flag, seat in (("--declarer", declarer), ("--lead", leader)):
        if not 0 <= seat < n:
            raise ThousandError(f"{flag}: must be a seat 0..{n - 1}, got {seat}")
    before, others = HAND_OFF_SIZES[n]
    # the seats holding a hand-off's cards: the play's start before the hand-off with them declaring
    shaped = [s for s in range(n) if popcount(hands[s]) == before
              and all(popcount(h) == others for t, h in enumerate(hands) if t != s)]
    if declarer in shaped:
        # the play's start before the hand-off: the declarer leads, no trump, nothing taken
        # options that only restate that start are taken (--trump none, --taken 0,0,0)
        extra = ((["--trick"] if trick else [])
                 + (["--trump"] if args.trump is not None and parse_suit(args.trump) != -1 else [])
                 + (["--taken"] if args.taken is not None and any(_taken(args.taken, n)) else [])
                 + (["--lead"] if leader != declarer else []))
        if extra:
            raise ThousandError(f"--hands: the declarer holds {before} cards and the defenders {others}: that is the "
                                f"play's start before the hand-off (he leads, no trump, nothing taken); drop "
                                f"{', '.join(extra)}")
        # 2 players: the two cards in neither hand are the talon set aside (22 of 24 are typed)
        aside = card_points(((1 << 24) - 1) & ~seen) if n == 2 else 0
        return HandOff(rules, tuple(hands + [0] * (rules.players - n)), tuple(range(n)), declarer, aside), declarer
    if popcount(hands[declarer]) == before:
        wrong = next(s for s, h in enumerate(hands) if s != declarer and popcount(h) != others)
        raise ThousandError(f"--hands: the declarer holds {before} cards, as before the hand-off, when each defender "
                            f"holds {others}; seat {wrong} holds {popcount(hands[wrong])}")
    if shaped and args.declarer is None:
        # a hand-off position with another declarer than the default seat 0 (try-out 33)
        raise ThousandError(f"--hands: seat {shaped[0]} holds {before} cards and the others {others}: the play's "
                            f"start before the hand-off with seat {shaped[0]} declaring; add --declarer {shaped[0]}")
    if len(trick) >= n:
        raise ThousandError(f"--trick: a trick in progress holds at most {n - 1} cards, got {len(trick)}")
    trump = parse_suit(args.trump) if args.trump is not None else -1
    turn = (leader + len(trick)) % n
    left = popcount(hands[turn])
    tricks = n_tricks(rules)
    if not 1 <= left <= tricks:
        raise ThousandError(f"--hands: seat {turn}, the seat to play, holds {left} cards; "
                            f"it must hold one card for each trick left (1..{tricks})")
    for s in range(n):
        played = 1 if (s - leader) % n < len(trick) else 0
        if popcount(hands[s]) != left - played:
            why = " (it has played to the trick)" if played else ""
            raise ThousandError(f"--hands: seat {s} holds {popcount(hands[s])} card(s), not {left - played}{why}: "
                                f"seat {turn}, the seat to play, holds {left}")
    taken = _taken(args.taken, n)
    # table seats: 4 players seat the three who play as 0, 1, 2 and the dealer (3) sits out
    seats = rules.players
    hands_by_seat = hands + [0] * (seats - n)
    points = tuple(taken + [0] * (seats - n))
    # the trick's cards go back to their seats and are played through the play rules,
    # so an illegal trick in progress is named here, card by card
    for i, c in enumerate(trick):
        hands_by_seat[(leader + i) % n] |= 1 << c
    pos = Position.start(rules, hands_by_seat, tuple(range(n)), leader)
    pos = pos._evolve(trump=trump, trick_index=tricks - left, points=points)
    for c in trick:
        if not pos.legal() >> c & 1:
            raise ThousandError(f"--trick: seat {pos.turn} may not play {card_name(c, symbols=False)} there "
                                f"(legal: {format_hand(pos.legal(), symbols=False)})")
        pos = pos.play(c)
    return pos, declarer


def _taken(text: str | None, n: int) -> list[int]:
    if text is None:
        return [0] * n
    parts = [t.strip() for t in text.replace(";", ",").split(",")]
    try:
        if not all(WHOLE.fullmatch(t) for t in parts):   # ASCII digits: int() also reads "1_0"
            raise ValueError(text)
        taken = [int(t) for t in parts]
    except ValueError:
        raise ThousandError(f"--taken: give {n} whole numbers separated by commas, got {text!r}") from None
    if len(taken) != n or any(not 0 <= t <= MAX_TAKEN for t in taken):
        raise ThousandError(f"--taken: give {n} whole numbers 0..{MAX_TAKEN} (one per seat) separated by commas, "
                            f"got {text!r}")
    return taken


def _seed_position(rules, seed: int, strategies: list[str] | None, hand_off: bool = False):
    """The play's start (after the hand-off; with ``hand_off`` before it, as a
    :class:`thousand.lines.HandOff`) of the deal ``thousand explain --seed`` plays: the same stream,
    players and dealer draw (redeals dealt again, as explain does)."""
    from thousand.players import make_player
    from thousand.reference import Stream, play_deal

    n = rules.players
    specs = seat_strategies(strategies or ["standard"], n)
    stream = Stream(seed)
    players = [make_player(spec, rules, seat, stream) for seat, spec in enumerate(specs)]
    dealer = stream.draw_bounded(n)
    for _ in range(REDEAL_ATTEMPTS):
        res = play_deal(rules, players, stream, dealer)
        if not res.is_redeal:
            break
    else:
        raise ThousandError(f"seed {seed}: no deal was played in {REDEAL_ATTEMPTS:,} attempts (every one redealt)")
    # A resigned deal's hand-off was made: its play is the one the declarer declined,
    # and "could he have made it?" is the question worth answering about it.
    start = _play_start(res, f"seed {seed}", "try another seed", resigned=True)
    resigned = int(res.contract) if res.resigned else None
    if not hand_off:
        return (*start, resigned)
    return _hand_off_start(res), start[1], 0, resigned


def _play_start(res, what: str, advice: str, resigned: bool = False):
    """The play's start (after the hand-off) of a played reference deal, its declarer and
    the points of the cards he laid away (2 players; else 0); ``resigned``: also of a deal
    the declarer resigned, the play he declined.  With 2 players the start holds the
    set-aside talon's points for the last trick, as the deal counts them."""
    from thousand.lines import line_of_deal

    line = line_of_deal(res, resigned=resigned)
    if line is None:
        why = "the declarer resigned" if res.resigned else ("it was redealt" if res.is_redeal else "nobody declared")
        raise ThousandError(f"{what}: the deal has no play to solve ({why}); {advice}")
    return line.start, line.declarer, line.laid_away_points


HAND_OFF_SIZES = {2: (12, 10), 3: (10, 7)}    # by the seats that play: the declarer's cards, a defender's


def _hand_off_start(res):
    """A played reference deal's start before its hand-off (a :class:`thousand.lines.HandOff`),
    with the hand-off made."""
    from thousand.lines import hand_off_of_deal

    h = hand_off_of_deal(res, resigned=True)
    assert h is not None                    # _play_start has said why a deal has no play
    return h


def _hand_off_result(start: HandOff) -> dict:
    """Every hand-off solved (``solver.hand_off_values``), best first, as the JSON gives it."""
    from thousand import solver
    from thousand.cards import format_hand
    from thousand.lines import hand_off_cards
    from thousand.rules import highest_contract

    values = solver.hand_off_values(start.rules, *start.args())
    order = sorted(values.items(), key=lambda kv: (-kv[1], kv[0]))
    best = order[0][1]
    seat = seat_numbers(start.rules.players, start.active)

    def entry(pair: tuple[int, int], v: int) -> dict:
        return {**hand_off_cards(start.active, start.declarer, pair, seat), "value": v, "best": v == best}

    table = _table_fields(start.rules.players, seat, start.active)
    levels = range(100, highest_contract(start.rules) + 1, start.rules.bid_step)
    return {
        "rules": start.rules.describe(),
        "before_hand_off": True,
        "hands": {str(seat[s]): format_hand(start.hands[s], symbols=False) for s in start.active},
        **table,
        "declarer": seat[start.declarer],
        "value": best,
        "reachable": {str(t): best >= t for t in levels},
        "hand_offs": [entry(k, v) for k, v in order],
        **({"made": entry(start.made, values[start.made])} if start.made is not None else {}),
        # 2 players: the value counts the set-aside talon for the last trick's winner
        **({"set_aside_points": start.set_aside_points} if start.rules.players == 2 else {}),
    }


def _format_hand_off(start: HandOff, result: dict, shown: int = 10) -> str:
    from thousand.cards import format_hand, popcount
    from thousand.lines import hand_off_text

    seat = seat_numbers(start.rules.players, start.active)
    two = start.rules.players == 2
    what = "lay-aways" if two else "hand-offs"
    lines = [f"before the hand-off ({result['rules']}): the declarer holds {popcount(start.hands[start.declarer])} "
             "cards and leads the first trick"]
    lines += _sits_out_lines(result, seat, start.active)
    for s in start.active:
        role = "declarer" if s == start.declarer else "defender"
        lines.append(f"  seat {seat[s]} ({role}): {format_hand(start.hands[s])}")

    value = result["value"]
    lines.append(f"value: {value} -- the declarer's deal points with the best {what[:-1]} and open-hand play"
                 + (f" (the laid-away cards' points included; the talon set aside ({start.set_aside_points}) goes "
                    "with the last trick)" if two else ""))
    lines.append(_contracts_line(result))
    entries = result["hand_offs"]
    lines.append(f"{what}, best first (the value of the play after each; the best marked *), "
                 f"{min(shown, len(entries))} of {len(entries)}:")
    def shown_as(e: dict) -> str:
        return ("lay away " if two else "") + hand_off_text(e)

    width = max(len(shown_as(e)) for e in entries[:shown])
    for e in entries[:shown]:
        lines.append(f"  {'*' if e['best'] else ' '} {shown_as(e):<{width}}  {e['value']:>4}")
    if len(entries) > shown:
        lines.append(f"  ... {len(entries) - shown} more, down to {entries[-1]['value']} (--json lists every one)")
    if "made" in result:
        m = result["made"]
        gap = value - m["value"]
        lines.append(f"the declarer's own {what[:-1]}: {hand_off_text(m)}: {m['value']}"
                     + (" (a best one)" if gap == 0 else f" ({gap} below the best)"))
    return "\n".join(lines)


def _trace_position(args: argparse.Namespace, rules, hand_off: bool = False):
    """The position before event ``--at`` of a deal trace (replayed, so every decision in
    it is checked), and its declarer; with ``hand_off`` the deal's start before the
    hand-off (a :class:`thousand.lines.HandOff`)."""
    from thousand.commands.explain import MAX_TRACE_BYTES, no_rules_hint, note_no_rules, trace_rules
    from thousand.errors import check_name
    from thousand.files import read_json
    from thousand.reference import replay_deal
    from thousand.trace import DealTrace, EventKind

    check_name(args.trace, "--trace", "the trace file written by thousand explain --json")
    data = read_json(args.trace, "trace", MAX_TRACE_BYTES)
    if not isinstance(data, dict) or "events" not in data:
        raise ThousandError(f"{args.trace!r} is not a deal trace (write one with thousand explain --seed S --json; "
                            "a --game trace holds many deals)")
    rules_given = rules_on_command_line(args)
    try:
        rules = trace_rules(data, rules, rules_given)
        deal = replay_deal(rules, DealTrace.from_dict(data))
        note_no_rules(data, rules_given)
    except IllegalDecision as e:   # the trace's decisions do not fit the rules it was read under
        raise ThousandError(f"{e}{no_rules_hint(data, rules_given)}") from None
    except (ValueError, KeyError, TypeError, AttributeError) as e:
        raise ThousandError(f"trace {args.trace!r} is malformed: {e}{no_rules_hint(data, rules_given)}") from None
    pos, declarer, laid = _play_start(deal, f"trace {args.trace!r}", "nothing was played", resigned=True)
    resigned = int(deal.contract) if deal.resigned else None
    if hand_off:
        return _hand_off_start(deal), declarer, 0, resigned
    if resigned is not None:
        if args.at is not None:
            raise ThousandError(f"--at {args.at}: the declarer resigned, so the trace has no card play; drop --at "
                                "to solve the play he declined")
        return pos, declarer, laid, resigned
    events = deal.trace.events
    plays = [i for i, e in enumerate(events) if e.kind == EventKind.PLAY]
    at = plays[0] if args.at is None else args.at
    if not plays[0] <= at <= plays[-1]:
        raise ThousandError(f"--at {at}: the play is events {plays[0]}..{plays[-1]} of the trace "
                            f"(event {at} is {'before the play' if 0 <= at < plays[0] else 'not in it'})")
    for i in plays:
        if i >= at:
            break
        pos = pos.play(events[i].a, bool(events[i].b))
    return pos, declarer, laid, None


def play_seats(pos) -> dict[int, int]:
    """The seat numbers the command shows, by table seat: the seats that play, numbered in
    play order as ``--hands`` numbers them.  With 4 players the dealer sits out and
    ``--hands`` puts him at seat 3, so a deal's table seats are turned until its dealer is
    at 3 (its forehand 0); with 2 and 3 players every seat plays and keeps its number.

    >>> from thousand.reference.play import Position
    >>> from thousand.rules import CLASSIC
    >>> four = CLASSIC.with_overrides({"players": 4})
    >>> play_seats(Position.start(four, [1, 2, 0, 4], (3, 0, 1), 0))   # table seat 2 deals
    {3: 0, 0: 1, 1: 2}
    """
    return seat_numbers(pos.rules.players, pos.active)


def seat_numbers(players: int, active) -> dict[int, int]:
    """:func:`play_seats` from the table size and the seats that play."""
    if players != 4:
        return {s: s for s in active}
    return {s: i for i, s in enumerate(active)}


def _result(rules, pos, declarer: int, value: int, moves: dict, laid: int | None = None) -> dict:
    """The JSON of a solved position; ``laid``: with 2 players the points of the cards the
    declarer laid away (a deal's, counted in every value; ``None`` for typed hands, where
    they and the set-aside talon are not known and count 0)."""
    from thousand.cards import card_name, format_hand
    from thousand.rules import highest_contract

    levels = range(100, highest_contract(rules) + 1, rules.bid_step)
    maximise = pos.turn == declarer
    order = sorted(moves.items(), key=lambda kv: ((-kv[1] if maximise else kv[1]),
                                                  kv[0] if isinstance(kv[0], int) else kv[0][0],
                                                  not isinstance(kv[0], int)))
    best = order[0][1] if order else None
    cards = [{"card": card_name(k if isinstance(k, int) else k[0], symbols=False),
              "declare": not isinstance(k, int), "value": v, "best": v == best} for k, v in order]
    seat = play_seats(pos)
    table = _table_fields(rules.players, seat, pos.active)
    return {
        "rules": rules.describe(),
        "hands": {str(seat[s]): format_hand(pos.hands[s], symbols=False) for s in pos.active},
        **table,
        "declarer": seat[declarer], "leader": seat[pos.leader], "to_play": seat[pos.turn],
        "trump": "none" if pos.trump < 0 else "SCDH"[pos.trump],
        "trick": [card_name(c, symbols=False) for _, c in pos.trick],
        "tricks_left": _tricks_left(pos),
        "taken": {str(seat[s]): pos.deal_points(s) for s in pos.active},
        # (typed hands: neither is known, both null, as the text says they count 0)
        **({"laid_away_points": laid, "set_aside_points": None if laid is None else pos.set_aside_points}
           if rules.players == 2 else {}),
        "value": value,
        "reachable": {str(t): value >= t for t in levels},
        "cards": cards,
    }


def _tricks_left(pos) -> int:
    from thousand.reference.play import n_tricks
    return n_tricks(pos.rules) - pos.trick_index


def _table_fields(players: int, seat: dict[int, int], active) -> dict:
    """The JSON's 4-player fields: which table seat each shown seat is (thousand explain's
    numbering), and the dealer's, who sits out; none with 2 or 3 players."""
    if players != 4:
        return {}
    return {"table_seats": {str(seat[s]): s for s in active},
            "sits_out": next(s for s in range(4) if s not in active)}


def _sits_out_lines(result: dict, seat: dict[int, int], active) -> list[str]:
    """With 4 players at a deal's table (not the typed one, where seat 3 deals): who sits
    out and which table seat each shown seat is."""
    if "sits_out" not in result or result["sits_out"] == 3:
        return []
    which = ", ".join(f"{seat[s]} = table seat {s}" for s in active)
    return [f"  4 players: table seat {result['sits_out']}, the dealer, sits out; the seats that play "
            f"are numbered in play order as --hands numbers them ({which})"]


def _contracts_line(result: dict) -> str:
    """The contract levels reached and missed, from the result's ``reachable``."""
    reach = [int(t) for t, ok in result["reachable"].items() if ok]
    miss = [int(t) for t, ok in result["reachable"].items() if not ok]
    def span(levels: list[int]) -> str:
        return f"{levels[0]}" if len(levels) == 1 else f"{levels[0]}..{levels[-1]}"
    parts = ([f"reachable {span(reach)}"] if reach else []) + ([f"not {span(miss)}"] if miss else [])
    return f"contracts: {', '.join(parts)} (a contract is reachable exactly when it is at most the value)"


def _format(rules, pos, declarer: int, result: dict, untold: bool = False) -> str:
    from thousand.cards import SUIT_SYMBOLS, card_name, format_hand, parse_card

    trump = "none" if pos.trump < 0 else SUIT_SYMBOLS[pos.trump]
    seat = play_seats(pos)
    lines = [f"position ({rules.describe()}): trump {trump}, {result['tricks_left']} trick(s) left"]
    lines += _sits_out_lines(result, seat, pos.active)
    for s in pos.active:
        role = "declarer" if s == declarer else "defender"
        extra = f", taken {pos.deal_points(s)}" if pos.deal_points(s) else ""
        lines.append(f"  seat {seat[s]} ({role}{extra}): {format_hand(pos.hands[s]) or '-'}")
    if pos.trick:
        lines.append("  trick so far: " + " ".join(f"{card_name(c)} (seat {seat[s]})" for s, c in pos.trick))
    value = result["value"]
    played = pos.trick_index > 0 or bool(pos.trick)
    counted = ("nothing counted as taken so far: --taken gives what the seats took" if played and untold
               else "points taken so far included")
    lines.append(f"value: {value} -- the declarer's deal points with open-hand play from here ({counted})")
    if rules.players == 2:
        laid = result["laid_away_points"]
        lines.append("  2 players: " + (f"the cards laid away ({laid}) are counted in every value, and the talon set "
                                        f"aside ({pos.set_aside_points}) goes with the last trick" if laid is not None
                                        else "typed hands: the cards laid away and the talon set aside are not known "
                                             "and count 0"))
    lines.append(_contracts_line(result))
    side = "the declarer: highest" if pos.turn == declarer else "a defender: lowest"
    lines.append(f"seat {seat[pos.turn]} to play ({side} is best, marked *):")
    for c in result["cards"]:
        name = card_name(parse_card(c["card"])) + (" declaring" if c["declare"] else "")
        lines.append(f"  {'*' if c['best'] else ' '} {name:<14} {c['value']:>4}")
    return "\n".join(lines)
