"""The card play (``docs/rules.md`` step 10) on a position: legal cards, declarations,
trump, voids, the trick winner and the points.

The plain-Python twin of the kernel's play layer (``src/_play.pxi``).  The rules are the
module functions -- :func:`legal_cards`, :func:`declarable_cards`,
:func:`declaration_value`, :func:`beats`, :func:`trick_winner` and :func:`shown_voids`
(:mod:`.legal` keeps its older names for some of them) -- and a :class:`Position` is one
frozen play position: :meth:`Position.legal`, :meth:`Position.declarable` and
:meth:`Position.play` (which returns the position after a card).  The reference engine
plays every trick through it (:meth:`thousand.reference.deal._Deal.play_tricks`), and
``tests/test_play_layer.py`` holds it to the kernel's functions position by position.

>>> from thousand.cards import format_hand, parse_card, parse_hand
>>> from thousand.rules import CLASSIC
>>> hands = (parse_hand("KH QH AS 9S 9C JC 9D"), parse_hand("AH TH KS QS AC TC AD"),
...          parse_hand("JH 9H TS JS QC KC TD"))
>>> p = Position.start(CLASSIC, hands, active=(0, 1, 2), leader=0)
>>> format_hand(p.declarable())   # no marriage on the first trick in classic rules
''
>>> p = p.play(parse_card("AS")).play(parse_card("QS")).play(parse_card("TS"))
>>> p.winner, p.points, p.leader
(0, (24, 0, 0), 0)
>>> format_hand(p.declarable())
'Q♥ K♥'
>>> p = p.play(parse_card("QH"), declare=True)
>>> p.trump, p.marriages
(3, (100, 0, 0))
>>> format_hand(p.legal())        # seat 1 follows hearts
'10♥ A♥'
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from thousand.cards import (ACE, KING, MARRIAGE_VALUES, QUEEN, RANK_PLANE, RANK_POINTS, SUIT_MASK,
                            held_marriages, rank_of, suit_of)
from thousand.errors import IllegalDecision
from thousand.rules import Rules

__all__ = ["Position", "legal_cards", "declarable_cards", "declaration_value", "trump_after_declaring", "beats",
           "best_card", "trick_winner", "shown_voids", "n_tricks"]


def n_tricks(rules: Rules) -> int:
    """Tricks in a deal: 8, or 10 with 2 players."""
    return 10 if rules.players == 2 else 8


def legal_cards(rules: Rules, hand: int, trick: Sequence[int], trump: int) -> int:
    """Mask of the cards of ``hand`` that may be played to ``trick`` (its cards in play order).

    Follow suit; with ``must_beat``, beat the best card of the led suit if it is still the
    best card of the trick and you can.  Void: with a trump set and ``must_trump``, play a
    trump if you hold one (no duty to over-trump).  Otherwise anything.
    """
    if not trick:
        return hand
    led = suit_of(trick[0])
    in_suit = hand & SUIT_MASK[led]
    if in_suit:
        if rules.must_beat:
            best = best_card(trick, trump)
            if suit_of(best) == led:
                higher = in_suit & ~((2 << best) - 1)  # the cards of the suit above ``best``
                if higher:
                    return higher
        return in_suit
    if trump >= 0 and rules.must_trump and hand & SUIT_MASK[trump]:
        return hand & SUIT_MASK[trump]
    return hand


def _declaring_cards(rules: Rules, hand: int) -> int:
    """The cards of ``hand`` that complete a declaration: the queen and king of each
    marriage held, and with ``ace_marriage`` the aces while all four are held."""
    mask = 0
    for s in held_marriages(hand):
        mask |= (1 << (6 * s + QUEEN)) | (1 << (6 * s + KING))
    aces = RANK_PLANE[ACE]
    if rules.ace_marriage and hand & aces == aces:
        mask |= aces
    return mask


def declaration_value(rules: Rules, hand: int, card: int) -> int:
    """Value scored by leading ``card`` from ``hand`` with a declaration (0: nothing to declare).

    A queen or king whose partner is in ``hand`` declares its suit's marriage; with
    ``ace_marriage`` an ace led while holding all four aces declares the ace marriage.
    """
    if not _declaring_cards(rules, hand) >> card & 1:
        return 0
    return rules.ace_marriage if rank_of(card) == ACE else MARRIAGE_VALUES[suit_of(card)]


def trump_after_declaring(rules: Rules, card: int, trump: int) -> int:
    """The trump once ``card`` is led with a declaration (``trump`` before): the marriage's
    suit, except for the ace marriage without ``ace_marriage_sets_trump``."""
    return suit_of(card) if rank_of(card) != ACE or rules.ace_marriage_sets_trump else trump


def declarable_cards(rules: Rules, hand: int, trick_index: int) -> int:
    """Mask of the cards the leader of trick ``trick_index`` may lead with a declaration:
    from trick 1 on (trick 0 too with ``marriage_first_trick``), a card completing a
    marriage in ``hand`` or, with ``ace_marriage``, an ace while he holds all four."""
    if trick_index == 0 and not rules.marriage_first_trick:
        return 0
    return _declaring_cards(rules, hand)


def beats(card: int, best: int, trump: int) -> bool:
    """Does ``card`` take the trick from ``best``: higher in the same suit (card numbers run
    in rank order), or a trump on a card of another suit."""
    if suit_of(card) == suit_of(best):
        return card > best
    return suit_of(card) == trump


def best_card(trick: Sequence[int], trump: int) -> int:
    """The card winning ``trick`` (cards in play order) so far."""
    best = trick[0]
    for c in trick[1:]:
        if beats(c, best, trump):
            best = c
    return best


def trick_winner(trick: Sequence[tuple[int, int]], trump: int) -> int:
    """Seat that wins ``trick`` (``[(seat, card), ...]`` in play order): highest trump, else
    highest card of the led suit."""
    cards = [c for _, c in trick]
    return trick[cards.index(best_card(cards, trump))][0]


def shown_voids(rules: Rules, led: int, card: int, trump: int) -> int:
    """Suits (as a mask of their cards) a player shows he lacks by following a trick led in
    suit ``led`` with ``card``: the led suit when he does not follow, and with
    ``must_trump`` the trump suit too when he neither follows nor trumps."""
    suit = suit_of(card)
    if suit == led:
        return 0
    voids = SUIT_MASK[led]
    if trump >= 0 and suit != trump and rules.must_trump:
        voids |= SUIT_MASK[trump]
    return voids


@dataclass(frozen=True)
class Position:
    """A position of the card play.  Per-seat tuples have one entry per seat of the table
    (a seat that sits out holds nothing); card sets are 24-bit masks.

    ``points`` are the card points of the tricks each seat won (2 players: the winner of
    the last trick also takes ``set_aside_points``, the set-aside talon's); the laid-away
    cards of a 2-player declarer are not part of the play (the deal adds them).  ``winner``
    is the seat that won the trick the last card closed, -1 when that card closed none.
    """

    rules: Rules
    hands: tuple[int, ...]
    active: tuple[int, ...]                  # seats that play, in order from the forehand
    leader: int                              # who led (or leads) the trick in progress
    turn: int                                # who plays next
    trump: int = -1
    trick: tuple[tuple[int, int], ...] = ()  # the trick in progress: (seat, card) in play order
    trick_index: int = 0                     # n_tricks once the last trick is won
    played: int = 0                          # every card played, the trick in progress included
    points: tuple[int, ...] = ()
    marriages: tuple[int, ...] = ()
    bonus: tuple[int, ...] = ()              # the last-trick bonus
    tricks: tuple[int, ...] = ()             # tricks won
    voids: tuple[int, ...] = ()              # suits (as suit masks) each seat has shown out of
    set_aside_points: int = 0
    winner: int = -1

    @classmethod
    def start(cls, rules: Rules, hands: Sequence[int], active: Sequence[int], leader: int,
              set_aside_points: int = 0) -> "Position":
        """The play of a deal before the first lead (``leader``: the declarer)."""
        zero = (0,) * rules.players
        return cls(rules, tuple(hands), tuple(active), leader, leader, points=zero, marriages=zero, bonus=zero,
                   tricks=zero, voids=zero, set_aside_points=set_aside_points)

    @property
    def over(self) -> bool:
        return self.trick_index == n_tricks(self.rules)

    def legal(self) -> int:
        """The cards the seat to play may play."""
        if not self.trick:
            return self.hands[self.turn]
        return legal_cards(self.rules, self.hands[self.turn], [c for _, c in self.trick], self.trump)

    def declarable(self) -> int:
        """The cards the seat to play may play with a declaration (only when leading)."""
        if self.trick:
            return 0
        return declarable_cards(self.rules, self.hands[self.leader], self.trick_index)

    def trick_winner(self) -> int:
        """The seat winning the trick in progress so far; -1 before its lead."""
        return trick_winner(self.trick, self.trump) if self.trick else -1

    def deal_points(self, seat: int) -> int:
        """What ``seat`` has made in the play so far: card points, marriages, bonus."""
        return self.points[seat] + self.marriages[seat] + self.bonus[seat]

    def play(self, card: int, declare: bool = False) -> "Position":
        """The position after the seat to play plays ``card``, declaring with it when
        ``declare``.  Raises :class:`~thousand.errors.IllegalDecision` for a card or a
        declaration the rules do not allow."""
        seat = self.turn
        hand = self.hands[seat]
        if not (0 <= card < 24 and self.legal() >> card & 1):
            raise IllegalDecision(f"seat {seat} may not play card {card} here")
        if declare and (self.trick or not declarable_cards(self.rules, hand, self.trick_index) >> card & 1):
            raise IllegalDecision(f"seat {seat} may not declare with card {card} here")
        hands = list(self.hands)
        hands[seat] = hand & ~(1 << card)
        trump = self.trump
        marriages = self.marriages
        voids = self.voids
        if declare:
            value = declaration_value(self.rules, hand, card)
            marriages = _add(marriages, seat, value)
            trump = trump_after_declaring(self.rules, card, trump)
        elif self.trick:
            shown = shown_voids(self.rules, suit_of(self.trick[0][1]), card, trump)
            if shown:
                voids = _with(voids, seat, voids[seat] | shown)
        trick = self.trick + ((seat, card),)
        played = self.played | 1 << card
        if len(trick) < len(self.active):
            following = self.active[(self.active.index(seat) + 1) % len(self.active)]
            return self._evolve(hands=tuple(hands), turn=following, trump=trump, trick=trick, played=played,
                                marriages=marriages, voids=voids, winner=-1)
        # the card closes the trick: its winner takes the points and leads the next
        w = trick_winner(trick, trump)
        won = sum(RANK_POINTS[rank_of(c)] for _, c in trick)
        index = self.trick_index + 1
        bonus = self.bonus
        if index == n_tricks(self.rules):
            won += self.set_aside_points
            bonus = _add(bonus, w, self.rules.last_trick_bonus)
        return self._evolve(hands=tuple(hands), leader=w, turn=w, trump=trump, trick=(), trick_index=index, played=played,
                            points=_add(self.points, w, won), marriages=marriages, bonus=bonus,
                            tricks=_add(self.tricks, w, 1), voids=voids, winner=w)

    def _evolve(self, **changes: object) -> "Position":
        # dataclasses.replace without the frozen __init__'s field-by-field setattr (a
        # third of the reference engine's time in the play); the fields are unchanged
        new = object.__new__(Position)
        new.__dict__.update(self.__dict__)
        new.__dict__.update(changes)
        return new


def _add(values: tuple[int, ...], i: int, x: int) -> tuple[int, ...]:
    return _with(values, i, values[i] + x)


def _with(values: tuple[int, ...], i: int, x: int) -> tuple[int, ...]:
    return values[:i] + (x,) + values[i + 1:]
