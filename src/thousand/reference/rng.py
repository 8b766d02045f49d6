"""The random stream both engines read: numpy ``PCG64`` raw words, bounded by Lemire's method.

Everything random in a game -- the first dealer, every shuffle, the 2-player talon
choice, and the draws of random strategies -- comes from one :class:`Stream`, in the
order the procedure in ``docs/rules.md`` asks for it.  The kernel reads the same raw
64-bit words and bounds them with the same arithmetic, so a seed means the same deals
in both engines.

>>> s = Stream(7)
>>> deck = s.shuffle()
>>> sorted(deck) == list(range(24))
True
>>> Stream(7).shuffle() == deck
True
"""
from __future__ import annotations

import numpy as np

__all__ = ["Stream", "draw_bounded", "shuffle", "as_stream", "keyed_state", "keyed_bitgen"]

_MASK32 = 0xFFFFFFFF


class Stream:
    """A source of raw 64-bit words from a numpy ``PCG64`` bit generator.

    Parameters
    ----------
    seed_or_bitgen : int, numpy.random.SeedSequence, numpy.random.BitGenerator or Stream
        An integer seed or a ``SeedSequence`` builds a fresh ``PCG64``; a bit generator
        is used as it is (shared, not copied); a ``Stream`` shares its generator.
    """

    def __init__(self, seed_or_bitgen: "int | np.random.SeedSequence | np.random.BitGenerator | Stream | None" = None) -> None:
        if isinstance(seed_or_bitgen, Stream):
            bitgen = seed_or_bitgen.bit_generator
        elif isinstance(seed_or_bitgen, np.random.BitGenerator):
            bitgen = seed_or_bitgen
        elif seed_or_bitgen is None or isinstance(seed_or_bitgen, (int, np.integer, np.random.SeedSequence)):
            bitgen = np.random.PCG64(seed_or_bitgen)
        else:
            raise TypeError(f"Stream needs a seed, a SeedSequence or a bit generator, got {type(seed_or_bitgen).__name__}")
        self.bit_generator: np.random.BitGenerator = bitgen
        self.words_read = 0  # raw words consumed through this object (for tests and benchmarks)

    def next_uint64(self) -> int:
        """The next raw 64-bit word of the generator."""
        self.words_read += 1
        return int(self.bit_generator.random_raw())

    def draw_bounded(self, n: int) -> int:
        """A uniform integer in ``[0, n)``: Lemire's method on the high 32 bits of a word.

        Exactly the arithmetic of ``docs/rules.md`` (the kernel's twin is identical).
        """
        if not 1 <= n <= _MASK32:
            raise ValueError(f"draw_bounded needs 1 <= n < 2**32, got {n}")
        x = self.next_uint64() >> 32
        m = x * n
        low = m & _MASK32
        if low < n:
            threshold = (2**32 - n) % n
            while low < threshold:
                x = self.next_uint64() >> 32
                m = x * n
                low = m & _MASK32
        return m >> 32

    def shuffle(self) -> list[int]:
        """Fisher-Yates on ``[0..23]``: for ``i`` from 23 down to 1 swap ``deck[i]`` and ``deck[draw_bounded(i+1)]``."""
        deck = list(range(24))
        for i in range(23, 0, -1):
            j = self.draw_bounded(i + 1)
            deck[i], deck[j] = deck[j], deck[i]
        return deck

    def choice(self, options: list) -> object:
        """One of ``options`` uniformly; a single option is returned without a draw."""
        if not options:
            raise ValueError("choice from no options")
        if len(options) == 1:
            return options[0]
        return options[self.draw_bounded(len(options))]


def draw_bounded(stream: Stream, n: int) -> int:
    """Module-level twin of :meth:`Stream.draw_bounded` (the name ``docs/rules.md`` uses)."""
    return stream.draw_bounded(n)


def shuffle(stream: Stream) -> list[int]:
    """Module-level twin of :meth:`Stream.shuffle`."""
    return stream.shuffle()


def as_stream(seed_or_stream: "int | Stream | np.random.BitGenerator | np.random.SeedSequence | None") -> Stream:
    """``seed_or_stream`` itself if it is a :class:`Stream`, else a new one built from it."""
    return seed_or_stream if isinstance(seed_or_stream, Stream) else Stream(seed_or_stream)


# ----------------------------------------------------------------------- keyed chance
_M64 = (1 << 64) - 1
_GAMMA = 0x9E3779B97F4A7C15


def _mix64(z: int) -> int:
    """SplitMix64's finaliser: a bijection of 64-bit words that spreads every bit."""
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _M64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _M64
    return z ^ (z >> 31)


def keyed_state(state: int, game: int, deal: int, attempt: int) -> int:
    """The 128-bit PCG64 state of a key's place in a chance stream whose state is
    ``state``: ``deal`` 0 is game ``game``'s start (its first dealer), ``deal = k + 1``
    its k-th played deal, ``attempt`` its redeals (docs/kernel.md, "Chance and
    decisions"; the kernel's ``td_key_state``).  The state hashed with the key: a
    pseudo-random place of the same stream (same increment), so that no two keys' places
    share their low state bits, whose PCG64 outputs would be correlated.

    >>> keyed_state(1, 0, 1, 0) != keyed_state(1, 0, 2, 0) != keyed_state(1, 1, 1, 0)
    True
    """
    h = _mix64(((state >> 64) + _GAMMA) & _M64)
    for word in (state & _M64, game, deal, attempt):
        h = _mix64(((h ^ word) + _GAMMA) & _M64)
    return (h << 64) | _mix64((h + _GAMMA) & _M64)


def keyed_bitgen(bitgen: np.random.PCG64, game: int, deal: int, attempt: int = 0) -> np.random.PCG64:
    """A new ``PCG64`` at the key's place of ``bitgen``'s stream (``bitgen`` is only read)."""
    st = bitgen.state
    out = np.random.PCG64()
    out.state = {"bit_generator": "PCG64", "has_uint32": 0, "uinteger": 0,
                 "state": {"state": keyed_state(st["state"]["state"], game, deal, attempt),
                           "inc": st["state"]["inc"]}}
    return out

