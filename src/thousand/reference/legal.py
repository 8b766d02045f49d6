"""The small rules every decision is checked against: caps, legal cards, declarations.

These functions are the rules as code; strategies, the interactive table and the kernel's
tests reuse them.  The card-play rules (legal cards, declarations, the trick winner) are
written once, in :mod:`thousand.reference.play`; ``legal_plays``, ``can_declare``,
``declaration_value`` and ``trick_winner`` here are that module's rules under the names
the rest of the code knows.

>>> from thousand.cards import parse_hand, parse_card
>>> from thousand.rules import CLASSIC
>>> bid_cap(CLASSIC, parse_hand("KH QH AS TS 9C JC 9D"))
220
>>> bid_cap(CLASSIC, parse_hand("AH AS TS 9C JC 9D QD"))
120
>>> hand = parse_hand("9H AH 9S KS AD")
>>> format_hand(legal_plays(CLASSIC, hand, [parse_card("QH")], trump=-1))
'9♥ A♥'
>>> format_hand(legal_plays(CLASSIC, hand, [parse_card("QC")], trump=2))
'A♦'
"""
from __future__ import annotations

from thousand.cards import (ACE, JACK, MARRIAGE_VALUES, NINE, card_points, count_rank, format_hand,
                            marriage_points)  # format_hand: used by the examples above
from thousand.rules import Rules

# the card-play rules live in .play; these names are kept for the code and examples using them
from .play import declarable_cards, declaration_value, legal_cards, trick_winner

__all__ = ["bid_cap", "no_cap", "points_to_make", "legal_plays", "can_declare", "declaration_value", "trick_winner",
           "hand_redeal_allowed", "talon_redeal_allowed", "round_defender", "dealer_talon_score",
           "half_bid"]


def no_cap(rules: Rules) -> int:
    """The most a declarer could ever make: ``120 + 280 + ace marriage + last-trick bonus``."""
    return 120 + sum(MARRIAGE_VALUES) + (rules.ace_marriage or 0) + rules.last_trick_bonus


def bid_cap(rules: Rules, hand: int) -> int:
    """Highest bid (or raise) allowed with ``hand``.

    ``bid_cap = marriages``: 120 without a marriage, else 120 + the marriages held.
    ``bid_cap = none``: :func:`no_cap`.
    """
    if rules.bid_cap == "none":
        return no_cap(rules)
    return 120 + marriage_points(hand)


def points_to_make(rules: Rules, contract: int, sitter: bool) -> int:
    """The declarer's deal points that make ``contract`` (a blind 120 aside): a barrel
    ``sitter`` at a contract that would take him off (``barrel_contract`` or more) needs
    ``barrel_target`` points too (docs/rules.md, the barrel).

    >>> from thousand.rules import RUSSIAN
    >>> points_to_make(RUSSIAN, 120, True), points_to_make(RUSSIAN, 100, True), points_to_make(RUSSIAN, 120, False)
    (121, 100, 120)
    """
    if sitter and contract >= rules.barrel_contract:
        return max(contract, rules.barrel_target)
    return contract


def legal_plays(rules: Rules, hand: int, trick: list[int], trump: int) -> int:
    """Mask of the cards of ``hand`` that may be played to ``trick`` (cards in play order).

    Follow suit; with ``must_beat``, beat the best card of the led suit if it is still the
    best card of the trick and you can.  Void: with a trump set and ``must_trump``, play a
    trump if you hold one.  Otherwise anything.  (The rule is
    :func:`thousand.reference.play.legal_cards`.)
    """
    return legal_cards(rules, hand, trick, trump)


def can_declare(rules: Rules, hand: int, card: int, trick_index: int, leading: bool) -> bool:
    """May the player holding ``hand`` declare when playing ``card``?

    Only the leader, only from trick 1 on (or trick 0 with ``marriage_first_trick``), only
    a card that completes a marriage in his hand (or the ace marriage).  (The rule is
    :func:`thousand.reference.play.declarable_cards`.)
    """
    return leading and bool(declarable_cards(rules, hand, trick_index) >> card & 1)


def hand_redeal_allowed(rules: Rules, hand: int) -> bool:
    """Does ``hand`` meet an enabled hand-redeal condition (points, nines, jacks)?"""
    return _meets(hand, rules.redeal_hand_points_max, rules.redeal_hand_nines, rules.redeal_hand_jacks)


def talon_redeal_allowed(rules: Rules, talon: int) -> bool:
    """Does ``talon`` meet an enabled talon-redeal condition (points, nines, jacks)?"""
    return _meets(talon, rules.redeal_talon_points_max, rules.redeal_talon_nines, rules.redeal_talon_jacks)


def _meets(cards: int, points_max: int | None, nines: int | None, jacks: int | None) -> bool:
    return ((points_max is not None and card_points(cards) <= points_max)
            or (nines is not None and count_rank(cards, NINE) >= nines)
            or (jacks is not None and count_rank(cards, JACK) >= jacks))


def round_defender(points: int) -> int:
    """Nearest multiple of 5: last digit 1, 2, 6, 7 rounds down; 3, 4, 8, 9 up.

    >>> [round_defender(p) for p in (41, 42, 43, 44, 45, 46, 47, 48, 49)]
    [40, 40, 45, 45, 45, 45, 45, 50, 50]
    """
    r = points % 5
    return points - r if r <= 2 else points + 5 - r


def half_bid(contract: int) -> int:
    """Half the contract rounded up to a multiple of 5 (what each opponent gets on a resign).

    >>> half_bid(100), half_bid(105), half_bid(120)
    (50, 55, 60)
    """
    return -(-contract // 10) * 5


def dealer_talon_score(rules: Rules, talon: int) -> int:
    """What a sitting-out 4-player dealer scores for ``talon``."""
    if rules.dealer_scores == "aces_40":
        return 40 * count_rank(talon, ACE) + marriage_points(talon)
    return card_points(talon) + marriage_points(talon)

