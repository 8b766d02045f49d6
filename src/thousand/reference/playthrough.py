"""Readable playthroughs: a deal (or a game) written out decision by decision.

Used by ``thousand explain`` and by the golden files in ``tests/golden/``.
"""
from __future__ import annotations

from collections.abc import Callable

from thousand.cards import SUIT_SYMBOLS, card_name, card_points, format_hand
from thousand.schema import REDEAL_NAMES
from thousand.trace import RESIGN, EventKind

from .deal import DealResult
from .game import GameResult, SettleNotes
from .legal import dealer_talon_score

__all__ = ["format_deal", "format_game", "format_notes"]


def _seat(s: int) -> str:
    return f"seat {s}"


def _signed(v: int) -> str:
    return f"{v:+d}"


def format_deal(res: DealResult, notes: SettleNotes | None = None, title: str | None = None) -> str:
    """The deal as text: hands, auction, talon, hand-off, contract, tricks, points, scores."""
    r = res.rules
    n = r.players
    out: list[str] = []
    if title:
        out.append(title)
    state = res.state
    head = f"dealer {_seat(res.dealer)}, forehand {_seat(res.active[0])}"
    if state is not None:
        head += f"; scores before {state.scores}"
        if state.barrel_sitter >= 0:
            head += f"; {_seat(state.barrel_sitter)} on the barrel ({state.barrel_count} deal(s) used)"
    if res.golden:
        head += "; golden kon"
    out.append(head)
    events = res.trace.events
    for ev in events:
        if ev.kind == EventKind.CUT:
            fine = f", fined {120 * ev.b}" if ev.b else ""
            out.append(f"cut by {_seat(ev.seat)}: {ev.a} nine(s) at the bottom{fine}")
    out.append("hands:")
    for s in range(n):
        if s in res.active:
            out.append(f"  {_seat(s)}: {format_hand(res.hands[s])}  ({card_points(res.hands[s])} points)")
        else:
            out.append(f"  {_seat(s)}: sits out (dealer)")
    out.append(("talons: " if n == 2 else "talon: ") + "  |  ".join(format_hand(t) for t in res.trace.talons))
    # decisions before play, in the order they were made
    auction: list[str] = []
    if res.bid_log:
        f, opening = res.bid_log[0]
        auction.append(f"{_seat(f)} opens {opening}" + (" blind" if res.went_blind else ""))
    d = res.declarer
    declarer_told = False

    def tell_declarer() -> None:
        if auction:
            out.append("auction: " + ", ".join(auction))
        how = ("golden kon: blind 120" if res.golden else "blind 120" if res.blind
               else "on obligation" if res.obligation else f"for {res.winning_bid}")
        if not res.bid_log and not res.golden and state is not None and state.barrel_sitter == d:
            # barrel_takes_talon: the only other way to a declarer without an auction
            how += (f" without an auction: the barrel sitter takes the talon (barrel_takes_talon; he needs "
                    f"{r.barrel_target} to come off)")
        out.append(f"declarer {_seat(d)} {how}")
        if res.talon_taken >= 0:
            out.append(f"{_seat(d)} takes talon {res.talon_taken}: {format_hand(res.talon)}; "
                       f"talon {1 - res.talon_taken} ({format_hand(res.talon2)}) goes to the last trick")
        else:
            out.append(f"talon {format_hand(res.talon)} {'shown' if res.talon_shown else 'face down'}")

    for ev in events:
        k = ev.kind
        if not declarer_told and d >= 0 and (k in (EventKind.HAND_OFF, EventKind.CONTRACT) or
                                             (k == EventKind.REDEAL and ev.b != 1)):
            tell_declarer()
            declarer_told = True
        if k == EventKind.BLIND:
            out.append(f"{_seat(ev.seat)} {'goes blind' if ev.a else 'does not go blind'}")
        elif k == EventKind.REDEAL:
            out.append(f"{_seat(ev.seat)} {'DEMANDS' if ev.a else 'declines'} a {REDEAL_NAMES[ev.b]} redeal")
        elif k == EventKind.BID:
            auction.append(f"{_seat(ev.seat)} {'passes' if ev.a == 0 else f'bids {ev.a}'}")
        elif k == EventKind.HAND_OFF:
            if n == 2:
                out.append(f"{_seat(d)} lays away {card_name(ev.a)} {card_name(ev.b)}")
            else:
                nxt = res.active[(res.active.index(d) + 1) % 3]
                oth = res.active[(res.active.index(d) + 2) % 3]
                out.append(f"hand-off: {card_name(ev.a)} to {_seat(nxt)}, {card_name(ev.b)} to {_seat(oth)}")
        elif k == EventKind.CONTRACT:
            if ev.a == RESIGN:
                out.append(f"{_seat(d)} RESIGNS at {res.contract}")
            elif ev.a > res.winning_bid:
                out.append(f"{_seat(d)} raises to {ev.a}")
            else:
                out.append(f"{_seat(d)} plays for {ev.a}")
    if res.is_redeal:
        if auction and not declarer_told:
            out.append("auction: " + ", ".join(auction))
        out.append(f"REDEAL ({REDEAL_NAMES[res.redeal]}) called by {_seat(res.redeal_by)}; same dealer deals again")
        if any(res.cut_fines):
            out.append("cut fines: " + ", ".join(f"{_seat(s)} -{f}" for s, f in enumerate(res.cut_fines) if f))
        if notes is not None:
            out.extend(format_notes(notes))
        return "\n".join(out)
    declarations = iter(res.declared)
    play_events = iter(e for e in events if e.kind == EventKind.PLAY)
    for i, t in enumerate(res.trick_log):
        plays = []
        for seat, c in t.plays:
            mark = ""
            if next(play_events).b:
                _, suit, value = next(declarations)
                what = "the ace marriage" if c % 6 == 5 else "a marriage"
                mark = f" [declares {what}: {value}; trump {SUIT_SYMBOLS[t.trump] if t.trump >= 0 else 'none'}]"
            plays.append(f"{_seat(seat)} {card_name(c)}{mark}")
        out.append(f"trick {i + 1}: " + ", ".join(plays) + f" -> {_seat(t.winner)} (+{t.points})")
    if not res.resigned:
        parts = []
        for s in sorted(res.active):   # seat order, as the score changes below
            # a blind deal doubles the defenders' card points (not their marriages)
            doubled = " x 2" if res.blind and s != d and res.points[s] else ""
            extra = f" + {res.marriages[s]} marriages" if res.marriages[s] else ""
            extra += f" + {res.bonus[s]} last trick" if res.bonus[s] else ""
            parts.append(f"{_seat(s)} {res.points[s]}{doubled}{extra} in {res.tricks[s]} trick(s)"
                         + _two_player_extras(res, s))
        out.append("points: " + "; ".join(parts))
        out.append(f"declarer {_seat(d)}: {res.declarer_points} for {res.contract} -> {outcome(res)}")
    if n == 4 and res.dealer_talon:
        out.append(f"dealer {_seat(res.dealer)} scores the talon: {res.dealer_talon}")
    elif n == 4 and state is not None and state.barrel_sitter == res.dealer:
        out.append(f"dealer {_seat(res.dealer)} sits on the barrel: the talon's "
                   f"{dealer_talon_score(r, res.talon)} does not score")
    out.append("score changes: " + ", ".join(f"{_seat(s)} {_signed(v)}" for s, v in enumerate(res.scores)))
    bolted = [s for s in range(n) if res.bolts[s]]
    if bolted:
        out.append("bolts: " + ", ".join(_seat(s) for s in bolted) + (" (count double)" if res.bolt_weight == 2 else ""))
    if any(res.cut_fines):
        out.append("cut fines: " + ", ".join(f"{_seat(s)} -{f}" for s, f in enumerate(res.cut_fines) if f))
    if notes is not None:
        out.extend(format_notes(notes))
    return "\n".join(out)


def outcome(res: DealResult) -> str:
    """MADE or FAILED, with the reason when the points reached the contract: a barrel
    sitter at a contract that would take him off needs ``barrel_target`` points too."""
    if res.made:
        return "MADE"
    if not res.blind and res.declarer_points >= res.contract:
        return f"FAILED (on the barrel: {res.rules.barrel_target} points needed)"
    return "FAILED"


def format_notes(notes: SettleNotes, who: Callable[[int], str] = _seat) -> list[str]:
    """What settling a deal did (penalties, the barrel, resets, the game scores), a line each.

    ``who`` names a seat; a seat it calls "you" (the table's person) takes the plain verb."""
    def does(s: int, verb: str, rest: str) -> str:
        name = who(s)
        if name == "you":
            verb = {"is": "are", "pays": "pay", "comes": "come", "falls": "fall", "gets": "get",
                    "hits": "hit"}[verb]
        return f"{name} {verb} {rest}"

    out = []
    for s, k in enumerate(notes.bolt_penalties):
        if k:
            cost = f"-{notes.bolt_penalty}" if k == 1 else f"{k} x -{notes.bolt_penalty}"
            out.append(does(s, "pays", f"a bolt penalty (the third bolt): {cost}"))
    if notes.barrel_void:
        out.append(does(notes.barrel_void_seat, "is", f"on the barrel: the {notes.barrel_void:+d} does not count "
                        f"({notes.barrel_void_why})"))
    if notes.barrel_off >= 0:
        out.append(does(notes.barrel_off, "comes", "off the barrel"))
    for s, why in zip(notes.barrel_falls, notes.barrel_fall_why):
        if notes.barrel_entered >= 0:   # "knocked off by seat N", the new sitter
            why = why.replace(_seat(notes.barrel_entered), who(notes.barrel_entered))
        out.append(does(s, "falls", f"off the barrel ({why})"))
    if notes.barrel_entered >= 0:
        out.append(does(notes.barrel_entered, "gets", "onto the barrel"))
    if notes.barrel_clash:
        out.append(", ".join(who(s) for s in notes.barrel_clash) + " reach the barrel together: nobody sits, "
                   f"each is set to {notes.barrel_clash_score}")
    for s in notes.reset_555:
        out.append(does(s, "hits", "555: back to 0"))
    if notes.golden_reset:
        out.append("nobody made a golden kon: all scores back to 0")
    out.append(f"game scores: {notes.scores}")
    if notes.winner >= 0:
        out.append(f"WINNER: {who(notes.winner)}")
    return out


def _two_player_extras(res: DealResult, s: int) -> str:
    """With 2 players a seat's card points hold more than its tricks: the declarer's two
    laid-away cards, and the talon set aside for the last trick's winner; said, so that
    the tricks printed above add up."""
    if res.rules.players != 2 or not res.trick_log:
        return ""
    held = []
    if s == res.declarer and res.handoff_next >= 0:
        held.append(f"{card_points((1 << res.handoff_next) | (1 << res.handoff_other))} laid away")
    if s == res.trick_log[-1].winner and res.talon2:
        held.append(f"{card_points(res.talon2)} of the talon set aside")
    return f" (with {' and '.join(held)})" if held else ""


def format_game(game: GameResult) -> str:
    """Every deal of a game (redeals included) with the game scores after each."""
    blocks = [f"game: rules {game.rules.describe()} (hash {game.rules.hash}), first dealer seat {game.first_dealer}"]
    played = 0
    for res, notes in zip(game.deals, game.notes):
        title = f"--- deal {played + 1}" + (" (redealt)" if res.is_redeal else "")
        blocks.append(format_deal(res, notes, title))
        if not res.is_redeal:
            played += 1
    blocks.append(f"final scores {game.final}; " + (f"winner seat {game.winner}" if game.winner >= 0
                                                    else "no winner (max_deals)"))
    return "\n\n".join(blocks)

