"""Open-hand (double-dummy) values of play positions, computed by the kernel's solver.

A position is a :class:`thousand.reference.play.Position` (the hands, the trick in
progress, the trump, the leader and what every seat has made so far) and the seat of the
declarer.  Its *value* is the declarer's deal points when the play ends -- card points
of his tricks, his declared marriages, the last-trick bonus (2 players: the set-aside
talon when he takes the last trick, plus ``laid_away_points``, the cards he laid away)
-- with every hand open, the declarer playing for the most and the defenders together
for the least; a declaration is a move of its own wherever the rules allow it.  Points
already made are part of the value.

Queries (each position solved exactly; the kernel runs without the GIL):

* :func:`value` -- the exact value;
* :func:`reaches` -- does the declarer reach a target (one zero-window search, faster);
* :func:`card_values` -- the value of every legal move of the seat to play;
* :func:`hand_off_values` -- the value of each of the declarer's hand-offs (3/4 players)
  or lay-aways (2 players) from his hand with the talon;
* :func:`best_hand_off` -- only the best of them and its value (several times faster);
* :func:`solve_many` -- values (or reaches) of many positions in one kernel call.

A :class:`Workspace` holds the transposition table; make one per thread or worker and
pass it to every call to avoid allocating it again (each call gets one otherwise).

The plain-Python twin is :mod:`thousand.reference.solver`; ``tests/test_solver.py``
holds the two together.

>>> from thousand.cards import parse_hand
>>> from thousand.reference.play import Position
>>> from thousand.rules import CLASSIC
>>> hands = (parse_hand("AH TH"), parse_hand("KH 9S"), parse_hand("QH JS"))
>>> p = Position.start(CLASSIC, hands, active=(0, 1, 2), leader=0)._evolve(trick_index=6)
>>> value(p, declarer=0)                   # both tricks: 11+4+3 and 10+0+2
30
>>> reaches(p, declarer=0, target=31)
False
"""
from __future__ import annotations

import numbers
from dataclasses import dataclass
from typing import Any, Sequence

import numpy as np

from thousand import _fastdeal
from thousand.reference.play import Position, n_tricks
from thousand.rules import Rules

__all__ = ["Workspace", "value", "reaches", "card_values", "hand_off_values", "best_hand_off", "solve_many",
           "SolveStats", "position_row", "check_position", "check_history", "play_start", "FLAG_NO_TABLE", "FLAG_NO_BOUNDS", "FLAG_MTD", "FLAG_NO_ORDER",
           "FLAG_NO_DOMINANCE", "FLAG_NO_RELATIVE"]

# Parts of the search that can be switched off or changed (the value must not change; tests check)
FLAG_NO_TABLE = 1
FLAG_NO_BOUNDS = 2
FLAG_MTD = 4            # exact values by MTD(f) (zero-window searches) instead of one full window
FLAG_NO_ORDER = 8
FLAG_NO_DOMINANCE = 16
FLAG_NO_RELATIVE = 32   # no bounds from positions with the same relative ranks
ALL_FLAGS = FLAG_NO_TABLE | FLAG_NO_BOUNDS | FLAG_MTD | FLAG_NO_ORDER | FLAG_NO_DOMINANCE | FLAG_NO_RELATIVE


def _check_flags(flags: int) -> int:
    """``flags``: an OR of the ``FLAG_*`` switches (1.5 or 999 were taken as they came)."""
    if isinstance(flags, bool) or not isinstance(flags, numbers.Integral) or flags & ~ALL_FLAGS:
        raise ValueError(f"flags must be an OR of the FLAG_* switches (0..{ALL_FLAGS}), got {flags!r}")
    return int(flags)


def _laid_away(rules: Rules, laid_away_points: Any, n: int) -> list[int]:
    """The 2-player declarer's laid-away points, one per position (0 at 3 and 4 players)."""
    laid = _per_position(laid_away_points, n, "laid_away_points", 0, MAX_POINTS)
    if rules.players != 2 and any(laid):
        raise ValueError(f"laid_away_points are the cards the declarer laid away with 2 players; with "
                         f"{rules.players} there are none, got {laid_away_points}")
    return laid

POS_FIELDS = 17
_ENTRY_BYTES = 16


class Workspace:
    """The solver's transposition table: ``2 * 2**bits`` entries of 16 bytes (plus a
    header), allocated once and reused by every call given it; one per thread.  The
    default (``bits=15``, 1 MB) serves the hand-offs, which share one table between 90
    play starts; a single position's search (its value, "reaches", its cards' values)
    uses only the first ``2 * 2**12`` entries, which hold what it stores and stay in the
    core's caches (docs/kernel.md, "The table's size")."""

    def __init__(self, bits: int = 15) -> None:
        if not 4 <= bits <= 24:
            raise ValueError(f"bits must be 4..24, not {bits}")
        self.bits = bits
        self.table = np.zeros((1 + 2 * (1 << bits)) * _ENTRY_BYTES, dtype=np.uint8)


def _workspace(ws: Workspace | None) -> Workspace:
    return ws if ws is not None else Workspace()


def _check_active(rules: Rules, active: Sequence[int]) -> None:
    n_active = 2 if rules.players == 2 else 3
    if len(active) != n_active or len(set(active)) != n_active or not all(0 <= s < rules.players for s in active):
        raise ValueError(f"the active seats must be {n_active} distinct seats of {rules.players}")


def check_position(p: Position, declarer: int) -> None:
    """Raise ``ValueError`` naming the problem when ``p`` is not a position the play can
    reach: a declarer who does not play, a card held twice or already played, hands of
    the wrong sizes for the trick, a trump that is not a suit."""
    rules = p.rules
    n_active = 2 if rules.players == 2 else 3
    if len(p.hands) != rules.players:
        raise ValueError(f"the position must give {rules.players} hands (one a seat), got {len(p.hands)}")
    for what in ("leader", "turn", "trick_index"):
        if not _whole(getattr(p, what), -2**31, 2**31 - 1):
            raise ValueError(f"the position's {what} must be a whole number, got {getattr(p, what)!r}")
    _check_active(rules, p.active)
    if declarer not in p.active:
        raise ValueError(f"the declarer (seat {declarer}) does not play")
    if p.leader not in p.active:
        raise ValueError(f"the leader (seat {p.leader}) does not play")
    if isinstance(p.trump, bool) or not isinstance(p.trump, (int, np.integer)) or not -1 <= p.trump < 4:
        raise ValueError(f"trump {p.trump!r} is not a suit (0-3, or -1 for none)")
    if len(p.trick) >= n_active:
        raise ValueError("a trick in progress holds fewer cards than there are players")
    if not 0 <= p.trick_index < n_tricks(rules):
        raise ValueError("the play is over" if p.trick_index == n_tricks(rules) else "bad trick index")
    seen = 0
    for seat, hand in enumerate(p.hands):
        if isinstance(hand, bool) or not isinstance(hand, (int, np.integer)) or hand >> 24 or hand < 0:
            raise ValueError(f"seat {seat}'s hand is not a set of cards")
        if seen & hand:
            raise ValueError("a card is in two hands")
        seen |= hand
    for entry in p.trick:
        if not (isinstance(entry, tuple | list) and len(entry) == 2 and _whole(entry[0], 0, rules.players - 1)
                and _whole(entry[1], 0, 23)):
            raise ValueError(f"the trick in progress must hold (seat, card) pairs of seats and cards (0-23), "
                             f"got {entry!r}")
    seat = p.leader
    for i, (s, c) in enumerate(p.trick):
        if s != seat:
            raise ValueError("the trick in progress is not in play order from its leader")
        if seen >> c & 1:
            raise ValueError("a card of the trick in progress is also in a hand")
        seen |= 1 << c
        seat = p.active[(p.active.index(seat) + 1) % n_active]
    if p.turn != seat:
        raise ValueError(f"seat {p.turn} is not the seat to play")
    for what, values in (("points", p.points), ("marriages", p.marriages), ("bonus", p.bonus)):
        if not isinstance(values, tuple | list) or len(values) != rules.players:
            raise ValueError(f"the position's {what} must give one number a seat ({rules.players}), got {values!r}")
    for what, values in (("points", p.points), ("marriages", p.marriages), ("bonus", p.bonus),
                         ("set_aside_points", (p.set_aside_points,))):
        if not all(_whole(v, 0, MAX_POINTS) for v in values):
            raise ValueError(f"the position's {what} must be whole numbers between 0 and {MAX_POINTS}, "
                             f"got {values}")
    if p.set_aside_points and rules.players != 2:
        raise ValueError(f"set_aside_points are the points of the talon set aside with 2 players; with "
                         f"{rules.players} there is none, got {p.set_aside_points}")
    left = n_tricks(rules) - p.trick_index
    for s in range(rules.players):
        want = (left - (1 if any(t == s for t, _ in p.trick) else 0)) if s in p.active else 0
        if bin(p.hands[s]).count("1") != want:
            raise ValueError(f"seat {s} holds {bin(p.hands[s]).count('1')} cards, not {want}")
    # the trick so far must have been legal: replay it on the reference rules
    q = p._evolve(hands=tuple(h | sum(1 << c for t, c in p.trick if t == s) for s, h in enumerate(p.hands)),
                  trick=(), turn=p.leader)
    for _, c in p.trick:
        if not q.legal() >> c & 1:
            raise ValueError(f"card {c} of the trick in progress is not a legal play")
        q = q._evolve(trick=q.trick + ((q.turn, c),), turn=p.active[(p.active.index(q.turn) + 1) % n_active],
                      hands=tuple(h & ~(1 << c) for h in q.hands))


def check_history(p: Position, declarer: int, points: bool = True) -> None:
    """Raise ``ValueError`` naming the problem when no deal's play can have led to ``p``
    (a position :func:`check_position` accepts): what the play so far must have left
    behind (``docs/solve.md``, "Bad positions").

    * The declarer leads the first trick: at trick index 0 the leader is the declarer.
    * A trump was set by a declaration: a marriage is declared by leading its queen or
      king while holding the other, on the lead of the second trick or later (the first
      too with ``marriage_first_trick``); so a suit's marriage can have been declared only
      if one of its queen and king was played in a completed trick that was not the
      first (unless ``marriage_first_trick``), with a completed trick after it where both
      were, or is the lead of the trick in progress with its partner still in the
      leader's hand.  With ``ace_marriage`` an ace led by
      the seat holding all four declares too (setting its suit trump with
      ``ace_marriage_sets_trump``); then the aces not in completed tricks are one seat's.
    * With ``points``: what all seats have taken is the card points of the completed
      tricks plus the marriages declared -- distinct suits that can have been declared,
      the trump's among them (no trump: none that sets one), at most one per lead that
      could declare.  The completed tricks' card points are the cards in no hand and not
      in the trick in progress (2 players: less the talon set aside and the cards laid
      away, which are not in the position: any ``24 - 2 * 10`` of those cards, so the
      check takes the range).

    A necessary condition, not a proof that a deal reaches ``p``: the order of the
    declarations and who won which trick are not checked.

    >>> from thousand.cards import parse_hand
    >>> from thousand.rules import CLASSIC
    >>> hands = (parse_hand("AH TH"), parse_hand("KH 9S"), parse_hand("QH JS"))
    >>> p = Position.start(CLASSIC, hands, active=(0, 1, 2), leader=0)._evolve(trick_index=6)
    >>> check_history(p, 0)
    Traceback (most recent call last):
    ...
    ValueError: the seats have taken 0 in all, but the completed tricks hold 90 card points and no marriage can have been declared (with no trump none was: a declaration sets one)
    >>> check_history(p._evolve(points=(60, 30, 0)), 0)
    """
    from itertools import combinations

    from thousand.cards import (ACE, KING, MARRIAGE_VALUES, QUEEN, RANK_PLANE, RANK_POINTS, card, card_name,
                                card_points, popcount, rank_of, suit_of)

    rules = p.rules
    if p.trick_index == 0 and p.leader != declarer:
        raise ValueError(f"seat {p.leader} leads the first trick, but the declarer (seat {declarer}) leads it")
    held = 0
    for h in p.hands:
        held |= h
    in_trick = sum(1 << c for _, c in p.trick)
    completed = ((1 << 24) - 1) & ~held & ~in_trick     # 2 players: the set-aside and laid-away cards too
    lead = p.trick[0][1] if p.trick else -1
    first = 0 if rules.marriage_first_trick else 1      # the first trick whose lead may declare
    done_leads = max(0, p.trick_index - first)          # completed tricks whose lead could declare
    lead_may = bool(p.trick) and p.trick_index >= first
    # the declarations that can have been made: (value, the suit it made trump or -1)
    options = []
    declared_now = -1     # the suit whose marriage only the lead in progress can have declared
    for s in range(4):
        q, k = card(QUEEN, s), card(KING, s)
        pair = (1 << q) | (1 << k)
        led_now = lead_may and lead in (q, k) and p.hands[p.leader] >> (q + k - lead) & 1
        # both played in completed tricks: the partner fell in a trick after the declaring lead
        led_before = completed & pair and done_leads >= (2 if completed & pair == pair else 1)
        if led_before or led_now:
            options.append((MARRIAGE_VALUES[s], s))
        if led_now and not led_before:
            declared_now = s
    if rules.ace_marriage:
        aces = RANK_PLANE[ACE]
        holders = {s for s, h in enumerate(p.hands) if h & aces} | {s for s, c in p.trick if aces >> c & 1}
        suits = set()
        # the declaring ace led, the others its holder played in as many later tricks
        if done_leads and len(holders) <= 1 and done_leads >= popcount(completed & aces):
            suits |= {suit_of(c) for c in range(24) if (completed & aces) >> c & 1}
        if lead_may and aces >> lead & 1 and p.hands[p.leader] & aces == aces & ~(1 << lead):
            suits.add(suit_of(lead))
        if suits:
            sets = sorted(suits) if rules.ace_marriage_sets_trump else [-1]
            options.append((rules.ace_marriage, sets))

    def sets_trump(option, t):   # does this declaration make suit t trump
        return t in option[1] if isinstance(option[1], list) else option[1] == t
    names = "SCDH"
    if p.trump >= 0 and not any(sets_trump(o, p.trump) for o in options):
        ace = " (or its ace, for the ace marriage)" if rules.ace_marriage and rules.ace_marriage_sets_trump else ""
        why = (f"no lead so far could declare one: marriages are declared from the "
               f"{'first' if first == 0 else 'second'} trick's lead on" if not done_leads and not lead_may else
               f"a declaration leads the suit's queen or king{ace} keeping the other, and none was led where it "
               "could declare")
        raise ValueError(f"trump {names[p.trump]}: no marriage of that suit can have been declared: {why}")
    if not points:
        return
    if p.trump >= 0 and p.trump == declared_now and not any(
            sets_trump(o, p.trump) for o in options if o[1] != declared_now):
        # the trump was set by the lead in progress: the leader declared, and scored, it
        value = MARRIAGE_VALUES[declared_now]
        if p.deal_points(p.leader) < value:
            raise ValueError(f"trump {names[p.trump]} was set by this trick's lead ({card_name(lead)}) declaring "
                             f"the {value} marriage, so seat {p.leader} has taken at least {value}, not "
                             f"{p.deal_points(p.leader)}")
    taken = sum(p.deal_points(s) for s in p.active)
    unseen = sorted((RANK_POINTS[rank_of(c)] for c in range(24) if completed >> c & 1), reverse=True)
    out = len(unseen) - len(p.active) * p.trick_index    # cards set aside or laid away (2 players)
    total = card_points(completed)
    low, high = (total - sum(unseen[:out]), total - sum(unseen[len(unseen) - out:])) if out > 0 else (total, total)
    leads = done_leads + lead_may
    for r in range(0, min(leads, len(options)) + 1):
        for chosen in combinations(options, r):
            if p.trump >= 0 and not any(sets_trump(o, p.trump) for o in chosen):
                continue
            if p.trump < 0 and any(o[1] != [-1] for o in chosen):
                continue
            if low <= taken - sum(v for v, _ in chosen) <= high:
                return
    played = f"{total}" if low == high else f"{low}..{high}"
    allowed = options if p.trump >= 0 else [o for o in options if o[1] == [-1]]   # no trump: none set one
    values = ", ".join(str(v) for v, _ in allowed)
    marriages = (f"and no set of the marriages that can have been declared ({values}) makes up the rest"
                 if allowed else "and no marriage can have been declared" +
                 (" (with no trump none was: a declaration sets one)" if options else ""))
    trump = "" if p.trump < 0 else " (the trump's among them)"
    raise ValueError(f"the seats have taken {taken} in all, but the completed tricks hold {played} card points "
                     f"{marriages}{trump if allowed else ''}")


def position_row(p: Position, declarer: int, laid_away_points: int = 0) -> np.ndarray:
    """The kernel's int32 row of a position (``src/_solver.pxi`` POS_*)."""
    row = np.full(POS_FIELDS, -1, dtype=np.int32)
    row[0:4] = [p.hands[s] if s < len(p.hands) else 0 for s in range(4)]
    row[4:4 + len(p.active)] = p.active
    row[7] = declarer
    row[8] = p.leader
    row[9] = len(p.trick)
    row[10:10 + len(p.trick)] = [c for _, c in p.trick]
    row[13] = p.trump
    row[14] = p.deal_points(declarer) + laid_away_points
    row[15] = p.set_aside_points
    row[16] = p.trick_index
    return row


def value(p: Position, declarer: int, laid_away_points: int = 0, workspace: Workspace | None = None,
          flags: int = 0) -> int:
    """The declarer's deal points with open-hand play from ``p`` on (made points included)."""
    return int(solve_many(p.rules, [p], declarer, laid_away_points, workspace=workspace, flags=flags)[0])


def reaches(p: Position, declarer: int, target: int, laid_away_points: int = 0,
            workspace: Workspace | None = None, flags: int = 0) -> bool:
    """Does the declarer make at least ``target`` deal points with open-hand play from
    ``p``: one zero-window search, cheaper than :func:`value`."""
    return bool(solve_many(p.rules, [p], declarer, laid_away_points, targets=[target], workspace=workspace,
                           flags=flags)[0])


def card_values(p: Position, declarer: int, laid_away_points: int = 0, workspace: Workspace | None = None,
                flags: int = 0) -> dict[int | tuple[int, bool], int]:
    """The value of every move of the seat to play: ``{card: value}`` for each legal card
    played plainly, ``{(card, True): value}`` for each card played with a declaration
    (the same keys as :func:`thousand.reference.solver.card_values`)."""
    check_position(p, declarer)
    laid_away_points, = _laid_away(p.rules, laid_away_points, 1)
    ws = _workspace(workspace)
    out = np.empty(48, dtype=np.int32)
    v = _fastdeal._solve_cards(p.rules.to_kernel(), position_row(p, declarer, laid_away_points), ws.table, out,
                               _check_flags(flags))
    if v < 0:
        raise ValueError("the kernel could not set this position up")
    values: dict[int | tuple[int, bool], int] = {}
    for c in range(24):
        if out[c] >= 0:
            values[c] = int(out[c])
        if out[24 + c] >= 0:
            values[(c, True)] = int(out[24 + c])
    return values


def _hand_offs(rules: Rules, hands: Sequence[int], active: Sequence[int], declarer: int, set_aside_points: int,
               workspace: Workspace | None, flags: int, best_only: bool) -> tuple[np.ndarray, int, int]:
    """The kernel's hand-off query (``_solve_hand_offs``): its 576 values, the best value
    and the best hand-off's index."""
    want = 12 if rules.players == 2 else 10
    if len(hands) != rules.players:
        raise ValueError(f"give {rules.players} hands (one a seat), got {len(hands)}")
    _check_active(rules, active)
    if declarer not in active:
        raise ValueError(f"the declarer (seat {declarer}) does not play")
    hand = hands[declarer]
    if isinstance(hand, bool) or not isinstance(hand, (int, np.integer)) or hand < 0 or hand >> 24:
        raise ValueError(f"the declarer's hand is not a set of cards: {hand!r}")
    if bin(hand).count("1") != want:
        raise ValueError(f"the declarer must hold {want} cards before the hand-off, not {bin(hand).count('1')}")
    for seat, h in enumerate(hands):
        if seat != declarer and isinstance(h, (int, np.integer)) and not isinstance(h, bool) and 0 <= h < 1 << 24:
            need = 0 if seat not in active else n_tricks(rules) if rules.players == 2 else n_tricks(rules) - 1
            if bin(h).count("1") != need:
                raise ValueError(f"seat {seat} must hold {need} cards before the hand-off, not {bin(h).count('1')}")
    after = Position.start(rules, list(hands), tuple(active), declarer, set_aside_points)
    # one hand-off (his two lowest cards) checked as a position: the defenders' hands, a
    # card held twice, the seats and the points; every hand-off moves only his cards
    low = [c for c in range(24) if hand >> c & 1][:2]
    example = list(hands)
    example[declarer] = hand & ~((1 << low[0]) | (1 << low[1]))
    if rules.players != 2:
        i = list(active).index(declarer)
        for k, c in zip((1, 2), low):
            example[active[(i + k) % 3]] |= 1 << c
    check_position(Position.start(rules, example, tuple(active), declarer, set_aside_points), declarer)
    ws = _workspace(workspace)
    out = np.empty(576, dtype=np.int32)
    best, pair = _fastdeal._solve_hand_offs(rules.to_kernel(), position_row(after, declarer), ws.table, out,
                                            _check_flags(flags), best_only)
    if best < 0:
        raise ValueError("the kernel could not set this position up")
    return out, best, pair


def hand_off_values(rules: Rules, hands: Sequence[int], active: Sequence[int], declarer: int,
                    set_aside_points: int = 0, workspace: Workspace | None = None,
                    flags: int = 0) -> dict[tuple[int, int], int]:
    """The value of each of the declarer's hand-offs, every one solved exactly with one
    shared table.  3 or 4 players: ``hands`` by seat with the declarer's 10 cards (his hand
    and the talon) and 7 for each defender; ``{(a, b): value}`` when ``a`` goes to the
    defender after him in play order and ``b`` to the other.  2 players: the declarer's
    12 cards and the defender's 10; ``{(a, b): value}`` for ``a < b`` laid away, their
    points included.  The play starts with his lead, no trump, nothing made.  Where only
    the best one matters, :func:`best_hand_off` is several times faster."""
    out = _hand_offs(rules, hands, active, declarer, set_aside_points, workspace, flags, False)[0]
    return {(a, b): int(out[24 * a + b]) for a in range(24) for b in range(24) if out[24 * a + b] >= 0}


def best_hand_off(rules: Rules, hands: Sequence[int], active: Sequence[int], declarer: int,
                  set_aside_points: int = 0, workspace: Workspace | None = None,
                  flags: int = 0) -> tuple[tuple[int, int], int]:
    """The declarer's best hand-off and its value: ``((a, b), value)`` as in
    :func:`hand_off_values` (the first of equally good ones in the order of its keys), the
    same value as the best of them.  The other hand-offs are only shown no better than the
    best so far (zero-window searches), which costs a fraction of solving each
    (docs/kernel.md, "Hand-offs")."""
    _, best, pair = _hand_offs(rules, hands, active, declarer, set_aside_points, workspace, flags, True)
    return (pair // 24, pair % 24), best


def play_start(rules: Rules, cols: dict[str, np.ndarray], i: int, hand_off: bool = True,
               resigned: bool = False) -> tuple[Position, int] | None:
    """The play's start of row ``i`` of :func:`thousand.kernel.play_deals` columns (3 or
    4 players): the hands after the declarer took the talon and, with ``hand_off``, gave
    the hand-off cards (without: he still holds 10), and the declarer; ``None`` for a
    redeal, a deal without a declarer or (unless ``resigned``: the play he declined, after
    the hand-off he made) one he resigned."""
    if rules.players == 2:
        raise ValueError("play_start takes 3 or 4 players (2 players: the talon taken is in the trace)")
    d = int(cols["declarer"][i])
    if cols["redeal"][i] or d < 0 or (cols["resigned"][i] and not resigned):
        return None
    hands = [int(cols[f"hand{s}"][i]) for s in range(rules.players)]
    hands[d] |= int(cols["talon"][i])
    dealer = int(cols["dealer"][i])
    active = tuple((dealer + 1 + k) % rules.players for k in range(3))
    if rules.players == 4:
        hands[dealer] = 0       # the dealer sits out (his talon score is not part of the play)
    if hand_off:
        nxt, oth = active[(active.index(d) + 1) % 3], active[(active.index(d) + 2) % 3]
        a, b = int(cols["handoff_next"][i]), int(cols["handoff_other"][i])
        hands[d] &= ~((1 << a) | (1 << b))
        hands[nxt] |= 1 << a
        hands[oth] |= 1 << b
    return Position.start(rules, hands, active, d), d


@dataclass(frozen=True)
class SolveStats:
    """Per-position kernel figures from :func:`solve_many` (``stats=True``)."""

    nanos: np.ndarray    # int64: time to set up and solve each position
    nodes: np.ndarray    # int64: positions searched


#: The most deal points a position's figures (points so far, laid-away points, targets) may
#: name: far above any deal (120 card points, 240 of marriages, bonuses), well inside int32.
MAX_POINTS = 10_000


def _whole(v: Any, lo: int, hi: int) -> bool:
    """A whole number (not a bool) in ``lo..hi``."""
    return not isinstance(v, bool) and isinstance(v, (int, np.integer)) and lo <= v <= hi


def _per_position(value: Any, n: int, name: str, lo: int, hi: int) -> list[int]:
    """One whole number for every position: ``value`` itself for all, or one each."""
    values = [value] * n if isinstance(value, (int, np.integer)) else value
    try:
        values = list(values)
    except TypeError:
        raise ValueError(f"{name}: give a whole number or one per position, got {value!r}") from None
    if len(values) != n:
        raise ValueError(f"{name}: give one per position ({n}), got {len(values)}")
    for v in values:
        if not _whole(v, lo, hi):
            raise ValueError(f"{name}: must be whole numbers between {lo} and {hi}, got {v!r}")
    return [int(v) for v in values]


def _check_rows(rules: Rules, rows: np.ndarray) -> None:
    """Rows given as an array are not checked card by card (check_position is for
    positions): but they must be positions the search can walk, or it would search
    nothing, or a table of its own making, and return no value.  Every active seat holds
    the cards of the tricks left, less the one he has put on the trick in progress; the
    active seats are distinct seats of the table and hold the declarer and the leader;
    no card is in two places."""
    players, n_active = rules.players, 2 if rules.players == 2 else 3
    hands = rows[:, 0:4].astype(np.int64)
    held = np.bitwise_count(hands & 0xFFFFFF)
    left = n_tricks(rules) - rows[:, 16].astype(np.int64)
    on_trick = rows[:, 9].astype(np.int64)
    ok = (rows[:, 16] >= 0) & (left > 0) & (on_trick >= 0) & (on_trick < n_active)
    ok &= held.sum(axis=1) + on_trick == n_active * left
    ok &= ((held == left[:, None]) | (held == left[:, None] - 1) | (held == 0)).all(axis=1)
    ok &= ((hands >> 24) == 0).all(axis=1) & (hands[:, players:] == 0).all(axis=1)
    active = rows[:, 4:4 + n_active].astype(np.int64)
    ok &= ((active >= 0) & (active < players)).all(axis=1)
    ok &= (np.sort(active, axis=1)[:, 1:] != np.sort(active, axis=1)[:, :-1]).all(axis=1)
    ok &= (active == rows[:, 7:8]).any(axis=1) & (active == rows[:, 8:9]).any(axis=1)
    cards = held.sum(axis=1)            # the hands' cards and the trick's, each once
    seen = np.bitwise_or.reduce(hands & 0xFFFFFF, axis=1)
    for k in range(3):
        card = rows[:, 10 + k].astype(np.int64)
        in_trick = k < on_trick
        ok &= ~in_trick | ((card >= 0) & (card < 24))
        bit = np.where(in_trick & (card >= 0) & (card < 24), 1 << np.clip(card, 0, 23), 0)
        cards += in_trick
        seen |= bit
    ok &= np.bitwise_count(seen) == cards
    bad = np.flatnonzero(~ok)
    if bad.size:
        raise ValueError(f"position {int(bad[0])} cannot be solved: its hands, active seats or trick are not "
                         f"a position of the rules (a card twice, a seat twice, or the cards of the tricks left "
                         f"missing; check_position it)")


def solve_many(rules: Rules, positions: Sequence[Position] | np.ndarray, declarers: int | Sequence[int] | None,
               laid_away_points: int | Sequence[int] = 0, targets: Sequence[int] | None = None,
               workspace: Workspace | None = None, flags: int = 0, stats: bool = False,
               checked: bool = True) -> np.ndarray | tuple[np.ndarray, SolveStats]:
    """Solve many positions of one rule set in one kernel call without the GIL.

    ``positions`` are :class:`Position` objects (checked, unless ``checked=False``) or
    already an ``(n, 17)`` int32 array of :func:`position_row` rows (each holds its
    declarer: ``declarers`` is then None or the same).  Returns the values
    (int32), or with ``targets`` whether each reaches its target (bool); with ``stats``
    also the time and nodes of each position."""
    flags = _check_flags(flags)
    if isinstance(positions, np.ndarray):
        if not np.issubdtype(positions.dtype, np.integer) or (
                positions.size and (positions.min() < -2**31 or positions.max() >= 2**31)):
            # a float row was cut to int32 unchecked: -0.5 ("no trump", -1 less a half) became 0, spades
            raise ValueError(f"position rows must be whole numbers (int32), got dtype {positions.dtype}")
        rows = np.ascontiguousarray(positions, dtype=np.int32)
        if rows.ndim != 2 or rows.shape[1] != POS_FIELDS:
            raise ValueError(f"position rows must be an (n, {POS_FIELDS}) array, got shape {rows.shape}")
        if np.any(np.asarray(laid_away_points) != 0):
            raise ValueError("laid_away_points are in the rows already (field 14): give 0 with rows")
        if declarers is not None and rows.size and not np.array_equal(
                rows[:, 7], _per_position(declarers, rows.shape[0], "declarers", -2**31, 2**31 - 1)):
            raise ValueError("declarers must be None or the rows' own declarers (field 7), which the rows are "
                             "solved for")
        if rows.size and not ((rows[:, 14] >= 0) & (rows[:, 14] <= 4 * MAX_POINTS)
                              & (rows[:, 15] >= 0) & (rows[:, 15] <= MAX_POINTS)).all():
            # both are added to the search's value (int32): a position's deal points are
            # its points, marriages and bonus (each at most MAX_POINTS) and the laid-away cards'
            raise ValueError(f"position rows' points so far (field 14) must be between 0 and {4 * MAX_POINTS}, "
                             f"and the set-aside talon's (field 15) between 0 and {MAX_POINTS}")
        _check_rows(rules, rows)
    else:
        n = len(positions)
        decl = _per_position(declarers, n, "declarers", -2**31, 2**31 - 1)   # check_position names a bad seat
        laid = _laid_away(rules, laid_away_points, n)
        rows = np.empty((n, POS_FIELDS), dtype=np.int32)
        for i, p in enumerate(positions):
            if p.rules != rules:
                raise ValueError("every position must be played under the given rules")
            if checked:
                check_position(p, decl[i])
            rows[i] = position_row(p, decl[i], laid[i])
    n = rows.shape[0]
    ws = _workspace(workspace)
    out = np.empty(n, dtype=np.int32)
    tg = np.asarray(_per_position(targets, n, "targets", -MAX_POINTS, MAX_POINTS) if targets is not None else [],
                    dtype=np.int32)
    nanos = np.empty(n if stats else 0, dtype=np.int64)
    nodes = np.empty(n if stats else 0, dtype=np.int64)
    bad = _fastdeal._solve_batch(rules.to_kernel(), rows, ws.table, tg, out, nanos, nodes, flags)
    if bad >= 0:
        raise ValueError(f"position {bad} cannot be solved (check_position it)")
    result = out.astype(bool) if targets is not None else out
    return (result, SolveStats(nanos, nodes)) if stats else result
