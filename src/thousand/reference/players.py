"""Players: what a seat sees (:class:`View`) and the decisions it makes (:class:`Player`).

The deal engine asks a player exactly at the decision points of ``docs/rules.md``, one
method per decision, each with a read-only :class:`View`.  Answers are checked; an
illegal answer raises :class:`thousand.errors.IllegalDecision`.

Players shipped here:

* :class:`RandomPlayer` -- uniform legal choices drawn from a :class:`~thousand.reference.rng.Stream`
  (the draws are specified below so that another engine can reproduce them);
* :class:`TracePlayer` -- answers from a recorded trace (this is how replay works).

The kernel's ``KernelPlayer``, the interactive table and search players implement the
same six methods; :mod:`thousand.players` names them all (a spec -> a player at a seat).
"""
from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Protocol, runtime_checkable

from thousand.cards import iter_cards
from thousand.errors import IllegalDecision
from thousand.rules import Rules
from thousand.trace import REDEAL_KINDS, Event, EventKind

from .legal import can_declare
from .rng import Stream

__all__ = ["View", "TrickRecord", "Player", "RandomPlayer", "TracePlayer", "TraceCursor", "PassivePlayer"]


@dataclass(frozen=True)
class TrickRecord:
    """A completed trick: who led, the plays ``((seat, card), ...)``, the winner, its card points."""

    leader: int
    plays: tuple[tuple[int, int], ...]
    winner: int
    points: int
    trump: int  # trump in force for this trick (-1 none)


@dataclass(frozen=True)
class View:
    """Everything one seat may know at a decision.  Card sets are 24-bit masks.

    Hidden information is zero or -1: ``talon`` is 0 unless this seat can see it,
    ``received`` is -1 unless this seat got a card from the declarer.
    """

    rules: Rules
    seat: int
    phase: str                       # "blind", "redeal", "auction", "talon", "hand_off", "four_nines", "contract", "play"
    dealer: int
    forehand: int
    active: tuple[int, ...]          # active seats in order from the forehand
    hand: int                        # cards this seat holds now
    scores: tuple[int, ...]          # game scores before this deal (after any cut penalty)
    barrel_sitter: int               # seat on the barrel, -1 none
    barrel_count: int                # barrel deals the sitter has used before this one
    went_blind: bool                 # the forehand went blind: the opening is his blind 120 (broken or not)
    bids: tuple[tuple[int, int], ...]  # (seat, value) in order, the forced opening first; 0 = pass
    high_bid: int                    # current highest bid (the forced opening to start with)
    declarer: int                    # -1 before the auction ends
    contract: int                    # current contract (0 before the auction ends)
    blind: bool                      # the deal is played blind (blind or golden kon)
    obligation: bool                 # the declarer plays the forced opening uncontested
    golden: bool                     # a golden-kon deal
    talon: int                       # the declarer's talon if this seat may see it, else 0
    received: int                    # card this seat received in the hand-off, -1 none
    given: tuple[int, ...]           # cards this seat gave (declarer: to next, to other; 2p: laid away)
    trump: int                       # trump suit, -1 none
    trick: tuple[tuple[int, int], ...]  # current trick so far: (seat, card) in play order
    trick_index: int                 # 0-based index of the current trick
    n_tricks: int                    # tricks in the deal (8, or 10 with 2 players)
    tricks: tuple[TrickRecord, ...]  # completed tricks
    played: int                      # mask of all cards played so far
    points: tuple[int, ...]          # card points each seat has won in tricks so far
    declared: tuple[tuple[int, int, int], ...]  # (seat, suit, value) of declarations so far (ace marriage: suit of the ace)
    marriage_points: tuple[int, ...]  # declared points per seat so far
    bolts: tuple[int, ...]           # bolt counts per seat before this deal
    resignations: tuple[int, ...]    # resignations per seat so far in the game


_VIEW_FIELDS = frozenset(f.name for f in fields(View))


def new_view(**values: object) -> View:
    """``View(**values)`` without the frozen ``__init__``'s field-by-field setattr (as
    :meth:`Position._evolve <thousand.reference.play.Position._evolve>` does): the engine
    builds a view for every decision, and the dataclass's own constructor was half of
    :meth:`_Deal.view`'s time in the parity replays.  Every field must be given; the view
    is as frozen as one built by ``View(...)``."""
    if values.keys() != _VIEW_FIELDS:
        raise TypeError(f"new_view: fields {sorted(_VIEW_FIELDS ^ values.keys())} missing or unknown")
    view = object.__new__(View)
    view.__dict__.update(values)
    return view


@runtime_checkable
class Player(Protocol):
    """One method per decision; each gets a :class:`View` of the asking seat."""

    def go_blind(self, view: View) -> bool:
        """Play blind (asked of the forehand before he looks)?"""

    def demand_redeal(self, view: View, kind: str) -> bool:
        """Demand a redeal; ``kind`` is ``"hand"``, ``"talon"`` or ``"four_nines"``."""

    def bid(self, view: View, lowest: int, highest: int) -> int:
        """0 to pass, or a multiple of ``bid_step`` in ``[lowest, highest]``
        (``lowest > highest``: passing is the only choice)."""

    def hand_off(self, view: View) -> tuple[int, int]:
        """Two distinct cards of the hand: to the next seat and to the other opponent
        (2 players: the two cards laid away)."""

    def raise_or_resign(self, view: View, lowest: int, highest: int, may_resign: bool) -> int:
        """The final contract in ``[lowest, highest]`` (steps of ``bid_step`` from ``lowest``),
        or -1 to resign when ``may_resign``."""

    def play(self, view: View, legal: int) -> tuple[int, bool]:
        """A card of the ``legal`` mask and whether to declare a marriage with it."""


class RandomPlayer:
    """Uniform legal choices, drawn from ``stream`` in decision order.

    The draws (so that the kernel can do the same): a yes/no question is
    ``draw_bounded(2) == 1``; a bid picks from ``[pass, lowest, lowest+step, ..., highest]``;
    the hand-off picks the first card from the hand's cards in ascending order, then the
    second from the rest; a raise picks from ``[resign (if allowed), lowest, ..., highest]``;
    a play picks from the legal cards in ascending order, then, if a declaration is
    allowed, asks a yes/no question.  A choice with a single option draws nothing.
    """

    def __init__(self, stream: Stream) -> None:
        self.stream = stream

    def _yes(self) -> bool:
        return self.stream.draw_bounded(2) == 1

    def go_blind(self, view: View) -> bool:
        return self._yes()

    def demand_redeal(self, view: View, kind: str) -> bool:
        return self._yes()

    def bid(self, view: View, lowest: int, highest: int) -> int:
        step = view.rules.bid_step
        return self.stream.choice([0] + list(range(lowest, highest + 1, step)))

    def hand_off(self, view: View) -> tuple[int, int]:
        cards = list(iter_cards(view.hand))
        first = self.stream.choice(cards)
        cards.remove(first)
        return first, self.stream.choice(cards)

    def raise_or_resign(self, view: View, lowest: int, highest: int, may_resign: bool) -> int:
        step = view.rules.bid_step
        return self.stream.choice(([-1] if may_resign else []) + list(range(lowest, highest + 1, step)))

    def play(self, view: View, legal: int) -> tuple[int, bool]:
        card = self.stream.choice(list(iter_cards(legal)))
        leading = not view.trick
        if can_declare(view.rules, view.hand, card, view.trick_index, leading):
            return card, self._yes()
        return card, False


class PassivePlayer:
    """The simplest legal player: never blind, never redeals, passes, hands off and plays its
    lowest cards, keeps the contract, declares whenever it may.  Handy in tests."""

    def go_blind(self, view: View) -> bool:
        return False

    def demand_redeal(self, view: View, kind: str) -> bool:
        return False

    def bid(self, view: View, lowest: int, highest: int) -> int:
        return 0

    def hand_off(self, view: View) -> tuple[int, int]:
        cards = list(iter_cards(view.hand))
        return cards[0], cards[1]

    def raise_or_resign(self, view: View, lowest: int, highest: int, may_resign: bool) -> int:
        return lowest

    def play(self, view: View, legal: int) -> tuple[int, bool]:
        card = next(iter_cards(legal))
        return card, can_declare(view.rules, view.hand, card, view.trick_index, not view.trick)


class TraceCursor:
    """Reads a deal's events in order and checks each is the one the engine expects."""

    def __init__(self, events: list[Event]) -> None:
        self.events = list(events)
        self.pos = 0

    def take(self, kind: EventKind, seat: int) -> Event:
        """The next event, which must be a ``kind`` event of ``seat``."""
        if self.pos >= len(self.events):
            raise IllegalDecision(f"event {self.pos}: the trace ends, but a {kind.name} of seat {seat} is due")
        ev = self.events[self.pos]
        if ev.kind != kind or ev.seat != seat:
            raise IllegalDecision(f"event {self.pos}: a {kind.name} of seat {seat} is due, "
                                  f"but the trace has a {ev.kind.name} of seat {ev.seat}")
        self.pos += 1
        return ev

    def finish(self) -> None:
        """Check nothing is left over once the deal has ended."""
        if self.pos < len(self.events):
            ev = self.events[self.pos]
            raise IllegalDecision(f"event {self.pos}: the deal is over, but the trace goes on "
                                  f"with a {ev.kind.name} of seat {ev.seat}")


class TracePlayer:
    """A seat that answers with the decisions recorded in a trace (shared :class:`TraceCursor`)."""

    def __init__(self, cursor: TraceCursor, seat: int) -> None:
        self.cursor = cursor
        self.seat = seat

    def go_blind(self, view: View) -> bool:
        return self.cursor.take(EventKind.BLIND, self.seat).a

    def demand_redeal(self, view: View, kind: str) -> bool:
        pos = self.cursor.pos
        ev = self.cursor.take(EventKind.REDEAL, self.seat)
        if ev.b != REDEAL_KINDS[kind]:
            raise IllegalDecision(f"event {pos}: seat {self.seat} is asked about a {kind} redeal, "
                                  f"but the trace answers for redeal kind {ev.b}")
        return ev.a

    def bid(self, view: View, lowest: int, highest: int) -> int:
        return self.cursor.take(EventKind.BID, self.seat).a

    def hand_off(self, view: View) -> tuple[int, int]:
        ev = self.cursor.take(EventKind.HAND_OFF, self.seat)
        return ev.a, ev.b

    def raise_or_resign(self, view: View, lowest: int, highest: int, may_resign: bool) -> int:
        return self.cursor.take(EventKind.CONTRACT, self.seat).a

    def play(self, view: View, legal: int) -> tuple[int, bool]:
        ev = self.cursor.take(EventKind.PLAY, self.seat)
        return ev.a, ev.b
