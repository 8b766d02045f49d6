"""The random stream: raw PCG64 words bounded by Lemire's method, Fisher-Yates, as docs/rules.md says."""
from __future__ import annotations

import numpy as np
import pytest

from thousand.reference.rng import Stream, as_stream, draw_bounded, shuffle


class ScriptedBits(Stream):
    """A stream whose raw words are given (to reach the rejection branch on purpose)."""

    def __init__(self, words):
        super().__init__(0)
        self.words = list(words)

    def next_uint64(self) -> int:
        self.words_read += 1
        return self.words.pop(0)


def lemire_by_the_book(words, n, used=None):
    """The pseudo-code of docs/rules.md, transcribed line by line."""
    it = iter(words)
    count = 1
    x = next(it) >> 32
    m = x * n
    l = m & 0xFFFFFFFF
    if l < n:
        t = (2**32 - n) % n
        while l < t:
            x = next(it) >> 32
            count += 1
            m = x * n
            l = m & 0xFFFFFFFF
    if used is not None:
        used.append(count)
    return m >> 32


def test_draws_read_the_raw_pcg64_words():
    raw = np.random.PCG64(2024).random_raw(4000)
    s = Stream(2024)
    ns = [2, 3, 7, 10, 24, 1000, 2**31 + 11]
    words = [int(w) for w in raw]
    pos = 0
    rejected = 0
    for i in range(500):
        n = ns[i % len(ns)]
        used: list[int] = []
        expected = lemire_by_the_book(words[pos:], n, used)
        pos += used[0]
        rejected += used[0] - 1
        assert s.draw_bounded(n) == expected
    assert s.words_read == pos
    assert rejected > 0  # n near 2**31 rejects about half its words: the loop was exercised


def test_rejection_branch_draws_again():
    # n = 3: t = 2**32 mod 3 = 1; a word whose high half is 0 gives l = 0 < t: rejected
    s = ScriptedBits([0, 1 << 63])
    assert s.draw_bounded(3) == 1 and s.words_read == 2
    # l < n but not below t: accepted without a second word (n = 6, t = 4, l = 3 impossible; use l >= t)
    word = ((2**32 // 6) + 1) << 32       # x*6 mod 2**32 = 6 - (2**32 mod 6) = 2 ... < t = 4: rejected
    s = ScriptedBits([word, 5 << 61])
    assert s.draw_bounded(6) == lemire_by_the_book([word, 5 << 61], 6) and s.words_read == 2


def test_shuffle_is_fisher_yates_from_the_top():
    s = Stream(5)
    twin = Stream(5)
    deck = list(range(24))
    for i in range(23, 0, -1):
        j = twin.draw_bounded(i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    assert s.shuffle() == deck and s.words_read == twin.words_read


def test_same_seed_same_deals_and_module_twins():
    assert Stream(11).shuffle() == Stream(11).shuffle() == shuffle(Stream(11))
    assert Stream(11).shuffle() != Stream(12).shuffle()
    assert draw_bounded(Stream(3), 24) == Stream(3).draw_bounded(24)
    ss = np.random.SeedSequence(9).spawn(2)[1]
    assert Stream(ss).shuffle() == Stream(np.random.PCG64(np.random.SeedSequence(9).spawn(2)[1])).shuffle()
    s = Stream(1)
    assert as_stream(s) is s and Stream(s).bit_generator is s.bit_generator


def test_shuffle_is_uniform_enough():
    # first card over 24 positions, 4800 shuffles: chi-square with 23 degrees of freedom
    s = Stream(77)
    counts = np.zeros(24)
    for _ in range(4800):
        counts[s.shuffle()[0]] += 1
    chi2 = ((counts - 200) ** 2 / 200).sum()
    assert chi2 < 60  # p ~ 3e-5 under uniformity


def test_bad_arguments():
    with pytest.raises(ValueError, match="draw_bounded needs"):
        Stream(1).draw_bounded(0)
    with pytest.raises(TypeError, match="Stream needs a seed"):
        Stream("seven")
    assert Stream(1).choice(["only"]) == "only"
