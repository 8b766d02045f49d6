"""The kernel's inlined PCG64 step: switched on only after it matched numpy's, and the
stream it leaves behind is numpy's."""
import numpy as np

from thousand import _fastdeal, kernel
from thousand.rules import CLASSIC


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
