"""A played deal's card play (its *line*) and the open-hand value along it.

The value of a play position (:mod:`thousand.solver`) is what the declarer makes from
there with every hand open, points already taken included.  Walking the line of a
played deal through the solver gives one value before each card and the points taken
after the last; the differences say which cards cost points and whom:

* after the declarer's card the value can only stay or drop (he maximises): the drop is
  what the card cost him;
* after a defender's card it can only stay or rise (they minimise): the rise is what the
  card cost the defence.

So ``taken = value at the first lead - declarer's loss + defence's loss``, card by card.
"Could the declarer still make the contract?" at a position is ``value >= contract``
(the solver's zero-window :func:`thousand.solver.reaches` answers the same; a test
checks), and "could the defence still beat it?" is its negation at that position: the
two questions are one question asked of the two sides.  Along a line the answers change
when somebody errs: a failed contract that was makeable at some card, a made one the
defence could have beaten at some card.

Used by ``thousand explain --solve`` and the report's "How well the bots play"
(:mod:`thousand.analysis.play_quality`).

>>> from thousand.cards import parse_card, parse_hand
>>> from thousand.reference.play import Position
>>> from thousand.rules import CLASSIC
>>> hands = (parse_hand("AH 9C"), parse_hand("TH 9S"), parse_hand("KC QC"))
>>> start = Position.start(CLASSIC, hands, active=(0, 1, 2), leader=0)._evolve(trick_index=6)
>>> def line(*cards):
...     return Line(start, declarer=0, contract=100, moves=tuple((s, parse_card(c), False) for s, c in cards))
>>> lv = solve_line(line((0, "9C"), (1, "9S"), (2, "QC"), (2, "KC"), (0, "AH"), (1, "TH")))
>>> lv.values.tolist()        # leading the 9 first gives both tricks away
[24, 0, 0, 0, 0, 0, 0]
>>> lv.costs().tolist(), lv.declarer_loss, lv.defence_loss
([24, 0, 0, 0, 0, 0], 24, 0)
>>> lv = solve_line(line((0, "AH"), (1, "TH"), (2, "KC"), (0, "9C"), (1, "9S"), (2, "QC")))
>>> lv.values.tolist(), lv.defence_loss     # the king on the ace gives the declarer 1 more
([24, 24, 24, 25, 25, 25, 25], 1)
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from thousand import solver
from thousand.cards import card_points
from thousand.reference.play import Position
from thousand.rules import Rules
from thousand.trace import EventKind

__all__ = ["Line", "LineValues", "HandOff", "hand_off_of", "hand_off_of_deal", "hand_off_cards", "hand_off_text",
           "line_from_columns", "line_of_deal", "solve_line", "solve_line_rows"]


@dataclass(frozen=True)
class Line:
    """The card play of a deal: the position at the first lead (after the talon, the
    hand-off or lay-away), the declarer, his contract, the points of the cards he laid
    away (2 players; they count for him) and every card played, ``(seat, card, declare)``
    in order."""

    start: Position
    declarer: int
    contract: int
    moves: tuple[tuple[int, int, bool], ...]
    laid_away_points: int = 0

    def positions(self) -> list[Position]:
        """The position before each move, and the one after the last (the play over)."""
        out = [self.start]
        p = self.start
        for seat, card, declare in self.moves:
            if p.turn != seat:
                raise ValueError(f"the line says seat {seat} plays, but seat {p.turn} is to play")
            p = p.play(card, declare)
            out.append(p)
        if not p.over:
            raise ValueError("the line stops before the end of the play")
        return out

    def taken(self) -> int:
        """The declarer's deal points at the end of the line (laid-away cards included)."""
        return self.positions()[-1].deal_points(self.declarer) + self.laid_away_points


@dataclass(frozen=True)
class LineValues:
    """A line with the open-hand value before every move; ``values[-1]`` (after the last
    move) is the points the declarer took."""

    line: Line
    values: np.ndarray      # int32, len(moves) + 1

    def costs(self) -> np.ndarray:
        """What each move cost its side (>= 0): the value's drop after the declarer's move,
        its rise after a defender's."""
        step = np.diff(self.values.astype(np.int64))
        declarer = np.array([s == self.line.declarer for s, _, _ in self.line.moves], dtype=bool)
        return np.where(declarer, -step, step)

    def _loss(self, of_declarer: bool) -> int:
        mine = np.array([(s == self.line.declarer) == of_declarer for s, _, _ in self.line.moves], dtype=bool)
        return int(self.costs()[mine].sum())

    @property
    def declarer_loss(self) -> int:
        """Sum over the declarer's moves of the value's drops."""
        return self._loss(True)

    @property
    def defence_loss(self) -> int:
        """Sum over the defenders' moves of the value's rises."""
        return self._loss(False)

    @property
    def start_value(self) -> int:
        return int(self.values[0])

    @property
    def taken(self) -> int:
        return int(self.values[-1])

    def makeable(self) -> np.ndarray:
        """Before each move (and at the end): can the declarer still make his contract
        (``value >= contract``); "can the defence still beat it" is the negation."""
        return self.values >= self.line.contract


def line_from_columns(rules: Rules, cols: dict[str, np.ndarray], i: int, events: Any,
                      resigned: bool = False) -> Line | None:
    """The line of row ``i`` of :func:`thousand.kernel.play_deals` columns (or a
    :meth:`~thousand.reference.deal.DealResult.to_row` row as one-element columns) with
    the row's trace ``events`` (``Event`` objects or ``(kind, seat, a, b)`` rows);
    ``None`` when the deal has no play (redealt, nobody declared, or resigned: with
    ``resigned`` the line of a resigned deal is its start with no move, the play the
    declarer declined).  Every table size: 2 players start after the lay-away with the
    set-aside talon for the last trick."""
    d = int(cols["declarer"][i])
    if cols["redeal"][i] or d < 0 or (cols["resigned"][i] and not resigned):
        return None
    laid_away = 0
    if rules.players == 2:
        hands = [int(cols[f"hand{s}"][i]) for s in range(2)]
        a, b = int(cols["handoff_next"][i]), int(cols["handoff_other"][i])
        hands[d] = (hands[d] | int(cols["talon"][i])) & ~((1 << a) | (1 << b))
        laid_away = card_points((1 << a) | (1 << b))
        dealer = int(cols["dealer"][i])
        start = Position.start(rules, hands, ((dealer + 1) % 2, dealer), d, card_points(int(cols["talon2"][i])))
    else:
        found = solver.play_start(rules, cols, i, resigned=resigned)
        assert found is not None
        start, d = found
    moves = tuple((int(e[1]), int(e[2]), bool(e[3])) for e in (tuple(ev) for ev in events)
                  if int(e[0]) == EventKind.PLAY)
    return Line(start, d, int(cols["contract"][i]), moves, laid_away)


@dataclass(frozen=True)
class HandOff:
    """The play's start before the hand-off (2 players: the lay-away), what
    :func:`thousand.solver.hand_off_values` and :func:`~thousand.solver.best_hand_off`
    take: the rules, the hands by seat (the declarer's with the talon), the seats that
    play, the declarer and the set-aside talon's points; and for a played deal the
    hand-off made, ``(a, b)`` as those key it."""

    rules: Rules
    hands: tuple[int, ...]
    active: tuple[int, ...]
    declarer: int
    set_aside_points: int = 0
    made: tuple[int, int] | None = None

    def args(self) -> tuple[tuple[int, ...], tuple[int, ...], int, int]:
        """The arguments after ``rules`` of the solver's hand-off queries."""
        return self.hands, self.active, self.declarer, self.set_aside_points


def hand_off_cards(active: tuple[int, ...], declarer: int, pair: tuple[int, int],
                   seat: dict[int, int] | None = None) -> dict:
    """A hand-off as the commands' JSON gives it: ``{"give": {"seat": card, ...}}`` (the
    first card to the seat after the declarer in play order, the second to the other;
    ``seat`` renumbers the table seats) or, with 2 players, ``{"lay_away": [card, card]}``."""
    from thousand.cards import card_name

    a, b = (card_name(c, symbols=False) for c in pair)
    if len(active) == 2:
        return {"lay_away": [a, b]}
    d = active.index(declarer)
    nxt, other = active[(d + 1) % 3], active[(d + 2) % 3]
    if seat is not None:
        nxt, other = seat[nxt], seat[other]
    return {"give": {str(nxt): a, str(other): b}}


def hand_off_text(entry: dict) -> str:
    """:func:`hand_off_cards`' form as the commands print it: ``"9♠ to seat 1, J♣ to seat 2"``
    or, laid away, ``"9♠ J♣"``."""
    from thousand.cards import card_name, parse_card

    if "lay_away" in entry:
        return " ".join(card_name(parse_card(c)) for c in entry["lay_away"])
    return ", ".join(f"{card_name(parse_card(c))} to seat {seat}" for seat, c in entry["give"].items())


def hand_off_of(line: Line, cols: dict[str, np.ndarray], i: int) -> HandOff:
    """The hand-off of row ``i`` of the columns ``line`` was read from
    (:func:`line_from_columns`): the line's start with the cards given or laid away back
    in the declarer's hand."""
    a, b = int(cols["handoff_next"][i]), int(cols["handoff_other"][i])
    hands = list(line.start.hands)
    hands[line.declarer] |= (1 << a) | (1 << b)
    if len(line.start.active) > 2:
        d = line.start.active.index(line.declarer)
        hands[line.start.active[(d + 1) % 3]] &= ~(1 << a)
        hands[line.start.active[(d + 2) % 3]] &= ~(1 << b)
    elif a > b:
        a, b = b, a                     # a lay-away is keyed low card first
    return HandOff(line.start.rules, tuple(hands), tuple(line.start.active), line.declarer,
                   line.start.set_aside_points, (a, b))


def _deal_columns(res: Any) -> dict[str, np.ndarray]:
    """A played deal's row as one-element columns (what :func:`line_from_columns` reads)."""
    return {k: np.array([v]) for k, v in res.to_row().items()}


def line_of_deal(res: Any, resigned: bool = False) -> Line | None:
    """The line of a played :class:`~thousand.reference.deal.DealResult` (``None``
    without a play; ``resigned``: see :func:`line_from_columns`)."""
    return line_from_columns(res.rules, _deal_columns(res), 0, res.trace.events, resigned)


def hand_off_of_deal(res: Any, resigned: bool = False) -> HandOff | None:
    """The hand-off of a played :class:`~thousand.reference.deal.DealResult` (``None``
    without a play; ``resigned``: also of a deal the declarer resigned after it)."""
    cols = _deal_columns(res)
    line = line_from_columns(res.rules, cols, 0, res.trace.events, resigned)
    return None if line is None else hand_off_of(line, cols, 0)


def solve_line_rows(line: Line, positions: list[Position] | None = None) -> tuple[np.ndarray, int]:
    """The solver rows (:func:`thousand.solver.position_row`) of the positions before each
    move, and the points taken at the end: what :func:`solve_line` solves, in a form that
    pickles small for a worker (``solver.solve_many(rules, rows, None)``)."""
    positions = line.positions() if positions is None else positions
    rows = np.stack([solver.position_row(p, line.declarer, line.laid_away_points) for p in positions[:-1]])
    return rows, positions[-1].deal_points(line.declarer) + line.laid_away_points


def solve_line(line: Line, workspace: solver.Workspace | None = None) -> LineValues:
    """The open-hand value before every move of ``line`` (one kernel call), and the
    points taken after the last."""
    positions = line.positions()
    for p in positions[:-1]:
        solver.check_position(p, line.declarer)
    rows, taken = solve_line_rows(line, positions)
    values = solver.solve_many(line.start.rules, rows, line.declarer, workspace=workspace)
    return LineValues(line, np.append(values, np.int32(taken)).astype(np.int32))
