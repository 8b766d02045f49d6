"""Card choices of the kernel strategies against plain Python statements of their rules.

greedy hands off its two lowest cards and plays its highest (by rank, then suit); a
sensible player who cannot win the trick ducks with his cheapest card (fewest points,
then from the shortest suit of his hand, then the lowest suit), keeping marriage cards
and sure winners while he has a choice.  The kernel finds these with mask arithmetic;
here they are found by sorting, over many random hands.
"""
import numpy as np

from thousand import _fastdeal
from thousand.kernel import decide
from thousand.strategies import N_PARAMS, parse_strategy

GREEDY = _fastdeal.STRATEGY_CODES["greedy"]
STANDARD = parse_strategy("standard")


def cards_of(mask):
    return [c for c in range(24) if mask >> c & 1]


def mask_of(cards):
    return sum(1 << int(c) for c in cards)


def suit_length(hand, suit):
    return sum(1 for c in cards_of(hand) if c // 6 == suit)


def marriage_cards(hand):
    return mask_of(c for s in range(4) for c in (6 * s + 2, 6 * s + 3)
                   if hand >> (6 * s + 2) & 1 and hand >> (6 * s + 3) & 1)


def not_sure_winners(unseen):
    """Cards at or below some unseen card of their suit (someone may still beat them)."""
    return mask_of(c for c in range(24)
                   if any(u // 6 == c // 6 and u % 6 >= c % 6 for u in cards_of(unseen)))


def cheapest(hand, cand):
    return min(cards_of(cand), key=lambda c: (c % 6, suit_length(hand, c // 6), c // 6))


def duck(hand, legal, unseen):
    cand = legal & ~marriage_cards(hand)
    if len(cards_of(cand)) >= 2:
        cand = (cand & not_sure_winners(unseen)) or cand
    elif not cand:
        cand = legal
    return cheapest(hand, cand)


def random_subset(rng, mask):
    cards = cards_of(mask)
    return mask_of(rng.choice(cards, size=int(rng.integers(1, len(cards) + 1)), replace=False))


def test_greedy_hands_off_its_lowest_and_plays_its_highest_card():
    rng = np.random.default_rng(7)
    for _ in range(3000):
        hand = mask_of(rng.choice(24, size=int(rng.integers(2, 13)), replace=False))
        by_rank = sorted(cards_of(hand), key=lambda c: (c % 6, c // 6))
        assert decide("hand_off", GREEDY, [0.0] * N_PARAMS, {"hand": hand}) == tuple(by_rank[:2])
        legal = random_subset(rng, hand)
        card, _ = decide("play", GREEDY, [0.0] * N_PARAMS, {"hand": hand, "legal": legal})
        assert card == max(cards_of(legal), key=lambda c: (c % 6, c // 6))


def test_sensible_duck_is_the_cheapest_card_it_can_spare():
    # the declarer leads an ace without trumps, the other defender follows, and this
    # defender plays last: nothing he holds can win, so he ducks
    rng = np.random.default_rng(8)
    for _ in range(4000):
        declarer, other, seat = (int(s) for s in rng.permutation(3))
        ace = 6 * int(rng.integers(0, 4)) + 5
        rest = rng.permutation([c for c in range(24) if c != ace])
        played_before = int(rng.integers(0, 13))
        played = mask_of(rest[:played_before])
        follow = int(rest[played_before])
        hand = mask_of(rest[played_before + 1: played_before + 1 + int(rng.integers(1, 9))])
        legal = hand if rng.random() < 0.3 else random_subset(rng, hand)
        view = {"players": 3, "active": [0, 1, 2], "seat": seat, "declarer": declarer,
                "hand": hand, "legal": legal, "played": played | (1 << ace) | (1 << follow),
                "trick_cards": [ace, follow], "trick_seats": [declarer, other]}
        unseen = 0xFFFFFF & ~(hand | view["played"])
        card, declare = decide("play", STANDARD.code, STANDARD.params.tolist(), view)
        assert (card, declare) == (duck(hand, legal, unseen), 0), view
