"""Cards: the bit layout, the notation users type, and the helpers every engine uses."""
from __future__ import annotations

import pytest

from thousand import cards as C
from thousand.cards import (CardError, card, card_name, card_points, cards_of, format_hand, held_marriages,
                            hand_features, marriage_points, mask_of, parse_card, parse_cards, parse_hand)


def test_layout_is_suit_times_six_plus_rank():
    assert card(C.NINE, C.SPADES) == 0 and card(C.ACE, C.HEARTS) == 23
    assert [C.suit_of(c) for c in (0, 5, 6, 23)] == [0, 0, 1, 3]
    assert [C.rank_of(c) for c in (0, 4, 11, 22)] == [0, 4, 5, 4]
    assert C.FULL_DECK == (1 << 24) - 1 and sum(C.SUIT_MASK) == C.FULL_DECK and sum(C.RANK_PLANE) == C.FULL_DECK
    assert C.SUIT_MASK[2] == 0x3F << 12 and C.RANK_PLANE[C.ACE] == (1 << 5) | (1 << 11) | (1 << 17) | (1 << 23)
    # within a suit a higher number is a higher card: 9 < J < Q < K < 10 < A
    assert parse_card("9H") < parse_card("JH") < parse_card("QH") < parse_card("KH") < parse_card("10H") < parse_card("AH")


@pytest.mark.parametrize("token,expected", [
    ("AH", 23), ("ah", 23), ("A♥", 23), ("a♡", 23), ("10H", 22), ("TH", 22), ("th", 22), ("10♥", 22),
    ("9S", 0), ("9♠", 0), ("9♤", 0), ("JC", 7), ("J♣", 7), ("QD", 14), ("q♦", 14), ("KD", 15), ("K♢", 15),
])
def test_every_spelling_of_a_card(token, expected):
    assert parse_card(token) == expected


def test_hands_with_spaces_commas_and_symbols():
    assert parse_hand("AH TH 10S, KH;QH  9S") == parse_hand("A♥ 10♥ 10♠ K♥ Q♥ 9♠")
    assert parse_cards("KH QH 9S") == [21, 20, 0]
    assert format_hand(parse_hand("AH TH KH QH 9S JC AD")) == "9♠ J♣ A♦ Q♥ K♥ 10♥ A♥"
    assert format_hand(parse_hand("9S JC"), symbols=False) == "9S JC"
    assert card_name(22) == "10♥" and card_name(22, symbols=False) == "10H"
    assert parse_hand("") == 0


@pytest.mark.parametrize("text,message", [
    ("AH XH", "bad card 'XH': unknown rank 'X'"),
    ("AH AX", "bad card 'AX': unknown suit 'X'"),
    ("1H", "bad card '1H': unknown rank '1'"),
    ("A", "bad card 'A': a rank with no suit; a card is rank+suit without a space, e.g. AH"),
    ("10 H", "bad card '10': a rank with no suit; a card is rank+suit without a space, e.g. 10H or TH"),
    ("H", "bad card 'H': expected a rank"),
    # a number typed at a card prompt (a bid, say): not "unknown suit '0'"
    ("120", "bad card '120': a number, not a card; a card is a rank and a suit, e.g. 10S or AH"),
    # suit first: the notation is named, not a suit "0" or "A"
    ("♥10", "bad card '♥10': write the rank first, then the suit, e.g. '10♥'"),
    ("♥A", "bad card '♥A': write the rank first, then the suit, e.g. 'A♥'"),
    ("♡T", "bad card '♡T': write the rank first, then the suit, e.g. 'T♡'"),
    ("h9", "bad card 'h9': write the rank first, then the suit, e.g. '9H'"),
    ("S10", "bad card 'S10': write the rank first, then the suit, e.g. '10S'"),
    ("♥1", "bad card '♥1': unknown suit '1'"),
    ("AH KH ah", "duplicate card 'ah' (already given as 'AH')"),
])
def test_bad_cards_name_the_token(text, message):
    with pytest.raises(CardError) as e:
        parse_hand(text)
    assert message in str(e.value)


def test_wrong_number_of_cards():
    with pytest.raises(CardError, match="a hand needs 7 cards, got 2: 'AH KH'"):
        parse_hand("AH KH", n=7)
    assert C.popcount(parse_hand("AH KH QH JH 9H 10H AS", n=7)) == 7


def test_masks_round_trip_and_reject_bad_numbers():
    assert cards_of(mask_of([3, 0, 23])) == [0, 3, 23]
    assert list(C.iter_cards(mask_of([5, 17]))) == [5, 17]
    with pytest.raises(CardError, match="card number 24 is outside 0..23"):
        mask_of([24])
    with pytest.raises(CardError, match="outside the 24-card deck"):
        cards_of(1 << 24)
    with pytest.raises(CardError, match="card number -1"):
        card_name(-1)


def test_points_marriages_and_features():
    assert card_points(C.FULL_DECK) == 120
    assert card_points(parse_hand("AH TH KH QH JH 9H")) == 30
    assert held_marriages(parse_hand("KH QH KS QS 9D")) == [0, 3]
    assert held_marriages(parse_hand("KH QS")) == []
    assert marriage_points(C.FULL_DECK) == 280 and C.MARRIAGE_VALUES == (40, 60, 80, 100)
    f = hand_features(parse_hand("AH TH KH QH AD TD 9S"))
    assert f == {"cards": 7, "points": 49, "marriages": 1, "marriage_points": 100, "aces": 2, "tens": 2,
                 "aces_with_ten": 2, "nines": 1, "jacks": 0, "longest_suit": 4}
    assert C.count_rank(parse_hand("9S 9C 9D JH"), C.NINE) == 3


def test_a_card_or_mask_outside_the_deck_is_refused():
    # card(6, 0) was 6 (the nine of clubs) and card_points(-1) 120 (hostile try-out 14)
    from thousand.cards import CardError, card, card_points
    for rank, suit in ((6, 0), (0, 4), (-1, 0)):
        with pytest.raises(CardError, match="no card of rank"):
            card(rank, suit)
    for mask in (-1, 1 << 30, 3.0):
        with pytest.raises(CardError, match="is not a set of the 24-card deck's cards"):
            card_points(mask)
    with pytest.raises(CardError, match="no card of rank 2.5"):
        card(2.5, 0)
    assert card(5, 3) == 23 and card_points((1 << 24) - 1) == 120
