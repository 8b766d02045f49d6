"""The kernel's inlined PCG64 step: switched on only after it matched numpy's, and the
stream it leaves behind is numpy's."""
import numpy as np
import pytest

from thousand import _fastdeal, kernel
from thousand.rules import CLASSIC, parse_rules_spec


def test_pcg64_fast_path_is_checked_and_on():
    kernel.play_deals(np.random.PCG64(1), CLASSIC, ["random"] * 3, n_deals=10)
    assert _fastdeal.fast_pcg64_active()


def test_inline_step_reproduces_numpy_words():
    # the first dealt hand equals the Fisher-Yates shuffle of docs/rules.md done in Python
    # on numpy's own PCG64 words; another bit generator (Philox) goes through numpy
    bg = np.random.PCG64(7)
    words = np.random.PCG64(7).random_raw(200)
    deck = list(range(24))
    w = iter(int(x) for x in words)
    for i in range(23, 0, -1):
        n = i + 1
        while True:
            x = next(w) >> 32
            m = x * n
            low = m & 0xFFFFFFFF
            if low >= n or low >= ((1 << 32) - n) % n:
                break
        j = m >> 32
        deck[i], deck[j] = deck[j], deck[i]
    cols = kernel.play_deals(bg, CLASSIC, ["greedy"] * 3, n_deals=1)
    forehand = int(cols["forehand"][0])
    first_hand = sum(1 << c for c in deck[0:7])
    assert int(cols[f"hand{forehand}"][0]) == first_hand
    philox = kernel.play_deals(np.random.Philox(7), CLASSIC, ["greedy"] * 3, n_deals=5)
    assert len(philox["dealer"]) >= 5


_MULT = (2549297995355413924 << 64) | 4865540595714422341
_M128 = (1 << 128) - 1


def _pcg64_with_zero_word(k, inc=0x5851F42D4C957F2D):
    """A PCG64 whose k-th word (1-based) is 0: Lemire's rejection test fires on that draw."""
    target = (0x0123456789ABCDEF << 64) | 0x0123456789ABCDEF   # rotation 0, hi ^ lo == 0
    inv = pow(_MULT, -1, 1 << 128)
    state = target
    for _ in range(k):
        state = ((state - inc) * inv) & _M128
    bg = np.random.PCG64()
    bg.state = {"bit_generator": "PCG64", "state": {"state": state, "inc": inc},
                "has_uint32": 0, "uinteger": 0}
    return bg


@pytest.mark.parametrize("spec", ["classic", "classic:players=2"])
def test_shuffle_rejection_zone_matches_reference(spec):
    # The kernel's shuffle draws the 23 words of a deck in two interleaved chains and
    # falls back to word-by-word draws when a word needs Lemire's rejection test; a word
    # of 0 there (first draw, an odd and an even one of the chains, the last) must give
    # the reference engine's deals and leave the stream where the reference leaves it,
    # for the three-player layout (7+7+7+3) and the two-player one (10+10+2+2).
    from thousand.reference import RandomPlayer, Stream, play_deal

    rules = parse_rules_spec(spec)
    n = rules.players
    columns = [f"hand{s}" for s in range(n)] + ["talon", "declarer", "contract", "score0"]
    for k in (1, 10, 11, 23):
        assert int(_pcg64_with_zero_word(k).random_raw(k)[-1]) == 0
        cols = kernel.play_deals(_pcg64_with_zero_word(k), rules, "random", n_deals=3)
        stream = Stream(_pcg64_with_zero_word(k))
        players = [RandomPlayer(stream)] * n
        dealer, i = 0, 0
        while i < len(cols["deal_id"]):
            row = play_deal(rules, players, stream, dealer).to_row()
            for c in columns:
                assert int(cols[c][i]) == int(row[c]), (k, i, c)
            if not row["redeal"]:
                dealer = (dealer + 1) % n
            i += 1
