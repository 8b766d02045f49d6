"""The sensible hand-off against a plain Python statement of its definition.

The kernel finds the pair without trying every pair (best_hand_off in
src/_strategies.pxi); here every pair is tried, in the same order and with the same
double arithmetic, so the chosen pair (ties included) must be the same.  Both table
sets: 3 players (the cards go to the opponents; a tie-break lets the cheaper go) and 2
(the cards are laid away and their points are the declarer's).
"""
import re
from pathlib import Path

import numpy as np

from thousand import _fastdeal
from thousand.kernel import decide
from thousand.cards import parse_card, parse_hand
from thousand.strategies import parse_strategy

import pytest

SRC = Path(__file__).resolve().parents[1] / "src"
RANK_POINTS = [0, 2, 3, 4, 10, 11]
MARRIAGE_VALUE = [40, 60, 80, 100]
ACES, TENS = 0x820820, 0x410410


class Tables:
    """One generated table set (``_strategy_tables.pxi``: 3 players; ``_2``: 2 players)
    and the hand-off's weight per point of a card that goes."""

    def __init__(self, players):
        suffix = "_2" if players == 2 else ""
        self.text = (SRC / f"_strategy_tables{suffix}.pxi").read_text()
        self.suit_play = self._table(f"SUIT_VALUE_PLAY{suffix}")
        self.marriage_play = self._table(f"MARRIAGE_PLAY{suffix}")
        self.base_play = float(re.search(rf"^cdef double BASE_PLAY{suffix} = (\S+)", self.text, re.M).group(1))
        self.lays_away = players == 2
        self.away_points = 1.0 if self.lays_away else -0.01

    def _table(self, name):
        body = re.search(rf"^{name}\[:\] = \[(.*?)\]", self.text, re.S | re.M).group(1)
        return [float(t) for t in body.replace("\n", " ").split(",")]


def _marriage_suits(h):
    return [s for s in range(4) if (h >> (6 * s + 2)) & 3 == 3]


def play_estimate(t, h):
    sv = t.suit_play
    e = t.base_play + sv[h & 0x3F] + sv[(h >> 6) & 0x3F]
    e = e + sv[(h >> 12) & 0x3F] + sv[(h >> 18) & 0x3F]
    values = [MARRIAGE_VALUE[s] for s in _marriage_suits(h)]
    if values:
        e += t.marriage_play[0 if h & ACES else 1] * max(values)
        e += t.marriage_play[2] * (sum(values) - max(values))
    return e


def hand_off_by_definition(t, h):
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
                e = play_estimate(t, h & ~((1 << a) | (1 << b)))
                if t.lays_away:
                    e += RANK_POINTS[a % 6] + RANK_POINTS[b % 6]
                if best is None or e > best[0]:
                    best = (e, a, b)
        return best[1], best[2]

    def pattern(c):
        return (h >> (6 * (c // 6))) & 0x3F

    sv = t.suit_play
    gain = [sv[pattern(c) & ~(1 << (c % 6))] - sv[pattern(c)] + t.away_points * RANK_POINTS[c % 6]
            for c in cards]
    best, pair = -1e9, (cards[0], cards[1])
    for i, a in enumerate(cards):
        for j in range(i + 1, len(cards)):
            b = cards[j]
            if a // 6 != b // 6:
                e = gain[i] + gain[j]
            else:
                pat = pattern(a)
                e = (sv[pat & ~((1 << (a % 6)) | (1 << (b % 6)))] - sv[pat]
                     + t.away_points * (RANK_POINTS[a % 6] + RANK_POINTS[b % 6]))
            if e > best:
                best, pair = e, (a, b)
    return pair


# the view's seats pick the table set: 4 players play as 3
VIEWS = {3: {}, 4: {"players": 4, "active": [1, 2, 3]}, 2: {"players": 2, "active": [0, 1]}}


@pytest.mark.parametrize("players", [3, 4, 2])
def test_hand_off_matches_the_pair_by_pair_definition(players):
    t = Tables(2 if players == 2 else 3)
    strategy = parse_strategy("standard")
    rng = np.random.default_rng(2026)
    hands = [sum(1 << int(c) for c in rng.choice(24, size=size, replace=False))
             for size in (10, 12) for _ in range(6000 if players != 4 else 1000)]
    # one low card (every pair is tried), nothing but low cards, long low suits
    hands += [parse_hand(text) for text in ("AH TH KH QH AS TS AD TD AC 9C",
                                            "9H JH 9S JS 9D JD 9C JC QH KS",
                                            "9H JH QH TH 9S JS QS TS 9D JD",
                                            "AH TH KH QH AS TS AD TD AC 9C KC KD")]
    for h in hands:
        assert decide("hand_off", strategy.code, strategy.params.tolist(), {"hand": h, **VIEWS[players]}) \
            == hand_off_by_definition(t, h), hex(h)


def test_two_players_lay_away_points_where_three_hand_off_cheap_cards():
    """Two doubletons to void, 9-J of hearts and 9-10 of diamonds: handed to the
    opponents the cheap hearts go; laid away (2 players) the points are the declarer's,
    so the ten goes with its nine."""
    hand = parse_hand("JS KS TS AS 9C QC KC AC 9D TD 9H JH")
    strategy = parse_strategy("standard")
    picks = {n: set(decide("hand_off", strategy.code, strategy.params.tolist(), {"hand": hand, **VIEWS[n]}))
             for n in (3, 4, 2)}
    assert picks[3] == picks[4] == {parse_card("9H"), parse_card("JH")}, picks
    assert picks[2] == {parse_card("9D"), parse_card("TD")}, picks
