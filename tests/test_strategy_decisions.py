"""Every decision branch of docs/strategies.md ("Decisions", and greedy's), one hand-built
position each, asked of the kernel directly (``thousand._fastdeal.decide``).

The strategies live only in the kernel, so parity cannot pin them (``KernelPlayer``
replays the kernel's own choices): these cases do.  Each position is built so that the
branch under test decides it and the next branch down the list would choose differently;
the expected card follows from the documented rule, worked out in the comment beside it.
The redeal thresholds are held to their formulas the way tests/test_strategy_situations.py
holds the bid and raise: the estimate is *measured* through the plain bid or raise (where
estimate minus margin reaches the bid), then the redeal must flip exactly there.

Seats: 3 players, dealer 0, active seats (1, 2, 0) in play order from the forehand.
Cards: suit * 6 + rank, suits S C D H, ranks 9 J Q K 10 A.
"""
from __future__ import annotations

import math

import pytest

from thousand import _fastdeal
from thousand.cards import parse_card, parse_hand
from thousand.reference.play import declarable_cards, legal_cards
from thousand.rules import CLASSIC
from thousand.strategies import parse_strategy

ACTIVE = (1, 2, 0)
GREEDY = _fastdeal.STRATEGY_CODES["greedy"]
REDEAL = _fastdeal.REDEAL_CODES
HEARTS = 3


def standard(**params) -> tuple[int, list[float]]:
    spec = "standard" + (":" + ",".join(f"{k}={v}" for k, v in params.items()) if params else "")
    s = parse_strategy(spec)
    return s.code, list(s.params)


def cards(text: str) -> int:
    return parse_hand(text) if text else 0


def play(hand: str, *, seat: int, declarer: int, trick: tuple[tuple[int, str], ...] = (), trump: int = -1,
         played: str = "", trick_index: int = 1, rules=CLASSIC, strategy=None) -> tuple[int, int]:
    """The card (and declaration) ``strategy`` (standard) plays from ``hand`` at ``seat``
    into ``trick`` ((seat, card) in play order); legal cards and declarations by the
    classic rules, as the engine gives them."""
    h = cards(hand)
    trick_cards = [parse_card(c) for _, c in trick]
    legal = legal_cards(rules, h, trick_cards, trump)
    declarable = 0 if trick else legal & declarable_cards(rules, h, trick_index)
    view = dict(hand=h, legal=legal, declarable=declarable, seat=seat, declarer=declarer, active=list(ACTIVE),
                players=3, trump=trump, played=cards(played), trick_index=trick_index,
                ace_marriage=rules.ace_marriage or 0,
                trick_cards=trick_cards, trick_seats=[s for s, _ in trick])
    code, params = strategy or standard()
    return _fastdeal.decide("play", code, params, view)


def card(text: str) -> int:
    return parse_card(text)


# ----------------------------------------------------------------- play, on lead
@pytest.mark.parametrize("hand, ace", [
    ("AS AC AD AH 9H JH TH 9C", "AH"),          # hearts longest (4)
    ("AS AC AD AH 9S JS TS 9C", "AS"),          # spades longest (4)
    ("AS AC AD AH 9S 9C 9D 9H", "AH"),          # all two long: the last suit, hearts
    ("AS AC AD AH 9S JS 9C JC", "AC"),          # spades and clubs three long: clubs
])
def test_lead_declares_the_ace_marriage_with_the_ace_of_its_longest_suit(hand, ace):
    rules = CLASSIC.with_overrides("ace_marriage=200")
    assert play(hand, seat=1, declarer=1, trick_index=1, rules=rules) == (card(ace), 1)


def test_lead_declarer_draws_trumps_with_his_lowest_sure_trump():
    # hearts trump, AH TH sure (nothing unseen above), KH QH 9H JH partly out; AS is a
    # sure winner too, but drawing trumps comes first: the lowest sure trump, TH
    assert play("TH AH AS 9C JC 9D JD QD", seat=1, declarer=1, trump=HEARTS, played="KH") == (card("TH"), 0)


def test_lead_cashes_sure_winners_before_declaring():
    # AS is sure and nobody can ruff (no trump); the marriage waits
    assert play("AS QC KC 9D JD 9H JH", seat=1, declarer=1) == (card("AS"), 0)


def test_lead_declares_the_unbeatable_queen_first_and_leads_the_queen():
    # AS TS are gone: the spade queen cannot be beaten (it keeps the lead for the hearts
    # marriage next), although hearts are worth more; the queen is led, the king kept
    assert play("QS KS QH KH 9C JC 9D JD", seat=1, declarer=1, played="AS TS 9S") == (card("QS"), 1)


def test_lead_declares_the_most_valuable_marriage_when_no_queen_is_safe():
    assert play("QS KS QH KH 9C JC 9D JD", seat=1, declarer=1) == (card("QH"), 1)


def test_lead_low_the_declarer_keeps_his_trumps_and_leads_from_a_short_suit():
    # nothing sure (every card has an unseen one above it); no marriage.  Cheapest: fewest
    # points (the nines), from the shortest suit -- but as declarer not the lone trump 9H
    assert play("9H 9C JC QC 9D JD", seat=1, declarer=1, trump=HEARTS, played="AH") == (card("9D"), 0)


def test_lead_low_a_defender_may_lead_a_lone_low_trump():
    assert play("9H 9C JC QC 9D JD", seat=2, declarer=1, trump=HEARTS, played="AH") == (card("9H"), 0)


# ----------------------------------------------------------------- play, following
def test_last_defender_gives_points_to_the_winning_partner():
    # seat 1 (partner) led KS, the declarer (2) played 9S; QS and JS can't win (TS AS are
    # out): the richer one goes to the partner
    assert play("QS JS 9C JC 9D", seat=0, declarer=2, trick=((1, "KS"), (2, "9S")))[0] == card("QS")


def test_last_to_play_wins_with_its_cheapest_winning_card():
    # the declarer (1) is winning with KS: take it with the ace, not a duck
    assert play("AS JS 9C JC 9D", seat=0, declarer=1, trick=((1, "KS"), (2, "9S")))[0] == card("AS")


def test_second_after_the_declarers_lead_wins_cheaply():
    # the declarer (1) led QS; KS beats it (cheapest winner), 9S would duck
    assert play("KS 9S 9C JC 9D", seat=2, declarer=1, trick=((1, "QS"),))[0] == card("KS")


def test_second_after_a_safe_partner_lead_gives_points():
    # partner (1) led AS: nothing unseen beats it, no trump to ruff it: give the richest
    # spare card (KS, which is no sure winner: TS is unseen)
    assert play("KS 9S 9C JC 9D", seat=2, declarer=0, trick=((1, "AS"),))[0] == card("KS")


def test_second_as_declarer_takes_the_trick_with_a_sure_winner():
    # JS led (2 points, below gamble=4): only a sure winner takes it -- AS
    assert play("AS 9S 9C JC 9D", seat=2, declarer=2, trick=((1, "JS"),))[0] == card("AS")


@pytest.mark.parametrize("led, expected", [("KS", "TS"), ("QS", "9S")])
def test_second_as_declarer_gambles_on_a_led_card_worth_gamble_points(led, expected):
    # TS is no sure winner (AS unseen); standard's gamble is 4: a led king (4 points) is
    # worth overtaking, a queen (3) is not
    assert play("TS 9S 9C JC 9D", seat=2, declarer=2, trick=((1, led),))[0] == card(expected)


# ----------------------------------------------------------------- greedy
def test_greedy_never_goes_blind_and_demands_every_redeal():
    for scores in ([0, 0, 0], [0, 900, 0], [-200, 990, 500]):
        assert _fastdeal.decide("blind", GREEDY, [], dict(seat=1, players=3, score=scores)) == 0
    for kind in REDEAL.values():
        for hand in ("9S JS 9C JC 9D JD 9H", "AS TS AC TC AD TD AH"):
            assert _fastdeal.decide("redeal", GREEDY, [], dict(hand=cards(hand), redeal_kind=kind, seat=1,
                                                            declarer=1, contract=100)) == 1


# ----------------------------------------------------------------- redeals (sensible)
def _view3(**fields):
    return dict(seat=1, players=3, active=list(ACTIVE), **fields)


def measured_bid_estimate(hand: int) -> float:
    """The bid estimate: a seat off the barrel bids ``lowest`` while estimate - margin >= it."""
    def bids(m):
        code, params = standard(margin=m)
        return _fastdeal.decide("bid", code, params, _view3(hand=hand, min_bid=105, max_bid=400)) == 105
    lo, hi = -400.0, 400.0
    assert bids(lo) and not bids(hi)
    while hi - lo > 1e-9:
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if bids(mid) else (lo, mid)
    return 105 + lo


def measured_play_estimate(hand: int, given: tuple[int, int], contract: int = 100) -> float:
    """The declarer's estimate of ``hand``: he raises while int(estimate - raise_margin) >=
    contract + step (no resignation allowed)."""
    def raises(m):
        code, params = standard(raise_margin=m)
        view = _view3(hand=hand, declarer=1, given=list(given), min_bid=contract, max_bid=400, contract=contract)
        return _fastdeal.decide("raise", code, params, view) > contract
    lo, hi = -400.0, 400.0
    assert raises(lo) and not raises(hi)
    while hi - lo > 1e-9:
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if raises(mid) else (lo, mid)
    return contract + 5 + lo


def test_hand_redeal_below_redeal_below():
    hand = cards("9S JS 9C QC 9D KD JH")
    est = measured_bid_estimate(hand)
    for below, expected in ((est + 0.01, 1), (est - 0.01, 0)):
        code, params = standard(redeal_below=below)
        assert _fastdeal.decide("redeal", code, params, _view3(hand=hand, redeal_kind=REDEAL["hand"])) == expected


def test_talon_redeal_when_the_cards_kept_fall_short_of_the_contract():
    hand, talon = cards("9S JS QS 9C QC 9D KD"), cards("JH 9H JD")
    code, params = standard()
    kept = hand | talon
    a, b = _fastdeal.decide("hand_off", code, params, _view3(hand=kept))
    est = measured_play_estimate(kept & ~(1 << a | 1 << b), (a, b))
    floor = math.floor(est)
    assert floor < est, "pick a hand whose estimate is not a whole number"
    for contract, expected in ((floor + 1, 1), (floor, 0)):
        view = _view3(hand=hand, talon=talon, declarer=1, contract=contract, redeal_kind=REDEAL["talon"])
        assert _fastdeal.decide("redeal", code, params, view) == expected


def test_four_nines_the_declarer_when_he_expects_to_fail_a_defender_always():
    hand, given = cards("9S 9C 9D 9H AS TS AH KH"), (card("JD"), card("JC"))
    code, params = standard()
    est = measured_play_estimate(hand, given)
    floor = math.floor(est)
    assert floor < est
    for contract, expected in ((floor + 1, 1), (floor, 0)):
        view = _view3(hand=hand, given=list(given), declarer=1, contract=contract, redeal_kind=REDEAL["four_nines"])
        assert _fastdeal.decide("redeal", code, params, view) == expected
    defender = _view3(hand=hand, declarer=2, contract=100, redeal_kind=REDEAL["four_nines"])
    assert _fastdeal.decide("redeal", code, params, defender) == 1
