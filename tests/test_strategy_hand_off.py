"""The sensible hand-off against a plain Python statement of its definition.

The kernel finds the pair without trying every pair (best_hand_off in
src/_strategies.pxi); here every pair is tried, in the same order and with the same
double arithmetic, so the chosen pair (ties included) must be the same.
"""
import re
from pathlib import Path

import numpy as np

from thousand import _fastdeal
from thousand.cards import parse_hand
from thousand.strategies import parse_strategy

TABLES = (Path(__file__).resolve().parents[1] / "src" / "_strategy_tables.pxi").read_text()
RANK_POINTS = [0, 2, 3, 4, 10, 11]
MARRIAGE_VALUE = [40, 60, 80, 100]
ACES, TENS = 0x820820, 0x410410


def _table(name):
    body = re.search(rf"^{name}\[:\] = \[(.*?)\]", TABLES, re.S | re.M).group(1)
    return [float(t) for t in body.replace("\n", " ").split(",")]


def _scalar(name):
    return float(re.search(rf"^cdef double {name} = (\S+)", TABLES, re.M).group(1))


SUIT_VALUE_PLAY = _table("SUIT_VALUE_PLAY")
MARRIAGE_PLAY = _table("MARRIAGE_PLAY")
BASE_PLAY = _scalar("BASE_PLAY")


def _marriage_suits(h):
    return [s for s in range(4) if (h >> (6 * s + 2)) & 3 == 3]


def play_estimate(h):
    e = BASE_PLAY + SUIT_VALUE_PLAY[h & 0x3F] + SUIT_VALUE_PLAY[(h >> 6) & 0x3F]
    e = e + SUIT_VALUE_PLAY[(h >> 12) & 0x3F] + SUIT_VALUE_PLAY[(h >> 18) & 0x3F]
    values = [MARRIAGE_VALUE[s] for s in _marriage_suits(h)]
    if values:
        e += MARRIAGE_PLAY[0 if h & ACES else 1] * max(values)
        e += MARRIAGE_PLAY[2] * (sum(values) - max(values))
    return e


def hand_off_by_definition(h):
    """Every pair of low cards in (i, j) order, the first best kept."""
    mcards = sum(3 << (6 * s + 2) for s in _marriage_suits(h))
    aces = h & ACES
    low = h & ~(mcards | aces | (h & TENS & (aces >> 1)))
    cards = [c for c in range(24) if low >> c & 1]
    if len(cards) < 2:
        # fewer than two low cards: every pair of the hand, by the 8-card estimate
        best = None
        hand = [c for c in range(24) if h >> c & 1]
        for i, a in enumerate(hand):
            for b in hand[i + 1:]:
                e = play_estimate(h & ~((1 << a) | (1 << b)))
                if best is None or e > best[0]:
                    best = (e, a, b)
        return best[1], best[2]

    def pattern(c):
        return (h >> (6 * (c // 6))) & 0x3F

    gain = [SUIT_VALUE_PLAY[pattern(c) & ~(1 << (c % 6))] - SUIT_VALUE_PLAY[pattern(c)]
            - 0.01 * RANK_POINTS[c % 6] for c in cards]
    best, pair = -1e9, (cards[0], cards[1])
    for i, a in enumerate(cards):
        for j in range(i + 1, len(cards)):
            b = cards[j]
            if a // 6 != b // 6:
                e = gain[i] + gain[j]
            else:
                pat = pattern(a)
                e = (SUIT_VALUE_PLAY[pat & ~((1 << (a % 6)) | (1 << (b % 6)))] - SUIT_VALUE_PLAY[pat]
                     - 0.01 * (RANK_POINTS[a % 6] + RANK_POINTS[b % 6]))
            if e > best:
                best, pair = e, (a, b)
    return pair


def test_hand_off_matches_the_pair_by_pair_definition():
    strategy = parse_strategy("standard")
    rng = np.random.default_rng(2026)
    hands = [sum(1 << int(c) for c in rng.choice(24, size=size, replace=False))
             for size in (10, 12) for _ in range(6000)]
    # one low card (every pair is tried), nothing but low cards, long low suits
    hands += [parse_hand(text) for text in ("AH TH KH QH AS TS AD TD AC 9C",
                                            "9H JH 9S JS 9D JD 9C JC QH KS",
                                            "9H JH QH TH 9S JS QS TS 9D JD")]
    for h in hands:
        assert _fastdeal.decide_hand_off(strategy.code, strategy.params.tolist(), {"hand": h}) \
            == hand_off_by_definition(h), hex(h)
