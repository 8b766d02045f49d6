"""A seat's :class:`~thousand.reference.View` built by hand, to ask a strategy one decision.

The positions are 3-player deals with dealer 0 (seat 1 is the forehand and opens 100):

* :func:`auction_view` -- a seat about to bid, after the given bids;
* :func:`contract_view` -- the declarer after the hand-off, about to raise or resign;
* :func:`blind_view` -- the forehand asked about the blind before he looks.

Ask a kernel strategy through ``thousand.strategies.KernelPlayer`` (the path the reference
engine uses), e.g. ``KernelPlayer("standard").bid(auction_view(hand=h), 105, 220)``.

>>> from thousand.cards import parse_hand
>>> v = auction_view(seat=2, hand=parse_hand("AH TH KH QH AD TD AS"))
>>> (v.forehand, v.active, v.bids, v.high_bid, v.barrel_sitter)
(1, (1, 2, 0), ((1, 100),), 100, -1)
"""
from __future__ import annotations

from thousand.reference import View
from thousand.rules import CLASSIC, Rules

__all__ = ["auction_view", "contract_view", "blind_view"]

DEALER = 0
ACTIVE = (1, 2, 0)


def _view(rules: Rules, seat: int, phase: str, hand: int, scores, sitter: int, bolts, resignations,
          **fields) -> View:
    n = rules.players
    assert n == 3, "these positions are 3-player deals"
    base = dict(
        rules=rules, seat=seat, phase=phase, dealer=DEALER, forehand=ACTIVE[0], active=ACTIVE, hand=hand,
        scores=tuple(scores or (0,) * n), barrel_sitter=sitter, barrel_count=0, went_blind=False, bids=((ACTIVE[0], 100),), high_bid=100,
        declarer=-1, contract=0, blind=False, obligation=False, golden=False, talon=0, received=-1,
        given=(), trump=-1, trick=(), trick_index=0, n_tricks=8, tricks=(), played=0,
        points=(0,) * n, declared=(), marriage_points=(0,) * n,
        bolts=tuple(bolts or (0,) * n), resignations=tuple(resignations or (0,) * n))
    base.update(fields)
    return View(**base)


def auction_view(rules: Rules = CLASSIC, *, seat: int = 2, hand: int, bids=((1, 100),), scores=None,
                 sitter: int = -1, bolts=None, resignations=None) -> View:
    """``seat`` about to bid after ``bids`` ((seat, value) in order, the forced opening
    first; 0 = pass)."""
    high = max(v for _, v in bids)
    return _view(rules, seat, "auction", hand, scores, sitter, bolts, resignations, bids=tuple(bids),
                 high_bid=high)


def contract_view(rules: Rules = CLASSIC, *, seat: int = 1, hand: int, given: tuple[int, int], contract: int,
                  talon: int = 0, scores=None, sitter: int = -1, bolts=None, resignations=None,
                  blind: bool = False, obligation: bool = False) -> View:
    """The declarer ``seat`` holding ``hand`` (8 cards) after handing off ``given``, with
    the auction won at ``contract``, asked to raise or resign."""
    return _view(rules, seat, "contract", hand, scores, sitter, bolts, resignations, declarer=seat,
                 contract=contract, high_bid=contract, given=tuple(given), talon=talon, blind=blind,
                 obligation=obligation)


def blind_view(rules: Rules = CLASSIC, *, scores, sitter: int = -1) -> View:
    """The forehand (seat 1) asked to go blind, his hand hidden."""
    return _view(rules, ACTIVE[0], "blind", 0, scores, sitter, None, None, bids=(), high_bid=0)
