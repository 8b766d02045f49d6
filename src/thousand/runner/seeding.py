"""Where every random stream of a run comes from: one root seed, keys below it.

A run has one root seed.  Every stream the runner hands to the kernel is a child of
``SeedSequence(seed)`` named by its *spawn key*, so it can be built directly, without
the run's length and without its siblings, and two streams with different keys never
overlap (numpy's guarantee for spawned sequences).  Two schemes use the keys:

* **chunk streams** (``simulate``, ``games``, the report's forced-declarer hands): chunk
  ``k`` of a run draws everything from ``PCG64(SeedSequence(seed, spawn_key=(k,)))``,
  which is ``SeedSequence(seed).spawn(n_chunks)[k]``.  Game 2 of a chunk starts
  wherever game 1 happened to end.
* **unit streams** (``compare``): every game, and every block of :data:`DEAL_BLOCK`
  deals of a deal-only run, has a stream of its own, key ``(chunk, unit)``: the children
  of the chunk's stream.  A rule set that makes a game longer or shorter than another
  rule set does therefore never shifts the cards of the next game, and game ``i`` under
  rule set A is paired with game ``i`` under rule set B: the common random numbers that
  make ``compare``'s paired statistics tight.

Chunks are cut by :func:`chunk_bounds` from a chunk size that never depends on the
number of workers, so the same seed gives the same data on 1 or 16 workers, on loky,
threads or Dask.  Never ``seed + k``, the global ``np.random`` or a clock seed.

Streams that are not the cards' are derived from the root seed with a tag of their own
as a second entropy word, ``SeedSequence([seed, TAG], spawn_key=key)``: another tree, so
they can never collide with a chunk's or a unit's stream.  Two tags are taken:
:data:`DECISION_TAG`, the strategies' own draws when a run keeps them apart from the
chance events (:func:`decision_seed`: the same key as the chance stream it goes with, so
a strategy that draws more or fewer numbers never moves the cards), and the comparison's
bootstrap (``thousand.analysis.stats``).

>>> bool((chunk_seed(42, 3).generate_state(2) == np.random.SeedSequence(42).spawn(10)[3].generate_state(2)).all())
True
>>> bool((unit_seed(1, 2, 3).generate_state(1) == chunk_seed(1, 2).spawn(4)[3].generate_state(1)).all())
True
"""
from __future__ import annotations

import numpy as np

__all__ = ["chunk_seed", "unit_seed", "decision_seed", "chunk_bounds", "tagged_seed", "chunk_stream", "unit_stream",
           "DEAL_BLOCK", "STREAM_SCHEMES", "DECISION_TAG"]

#: Deals per unit stream in a deal-only run with unit streams (``compare --deals``): a
#: per-call cost of ~0.2 ms spread over 64 deals (~3 us each), and the deal slots of two
#: rule sets realign every 64 slots after a redeal only one of them allows.
DEAL_BLOCK = 64
#: ``"chunk"``: one stream per chunk; ``"unit"``: one per game (per :data:`DEAL_BLOCK` deals).
STREAM_SCHEMES = ("chunk", "unit")
#: Tag of the decision streams (see :func:`decision_seed`).
DECISION_TAG = 0xDEC1DE


def chunk_seed(seed: int, k: int) -> np.random.SeedSequence:
    """The seed sequence of chunk ``k``: ``SeedSequence(seed).spawn(n_chunks)[k]``.

    Built directly from its spawn key, so it needs neither ``n_chunks`` nor the ``k``
    siblings before it.

    >>> a = chunk_seed(42, 3).generate_state(2)
    >>> b = np.random.SeedSequence(42).spawn(10)[3].generate_state(2)
    >>> bool((a == b).all())
    True
    """
    return np.random.SeedSequence(seed, spawn_key=(k,))


def unit_seed(seed: int, chunk: int, unit: int) -> np.random.SeedSequence:
    """The stream of unit ``unit`` (a game, or a block of deals) of chunk ``chunk``.

    ``SeedSequence(seed).spawn(...)[chunk].spawn(...)[unit]``: a child of the chunk's
    seed, so a run of unit streams is as reproducible as one of chunk streams.

    >>> a = unit_seed(1, 2, 3).generate_state(1)
    >>> b = np.random.SeedSequence(1).spawn(3)[2].spawn(4)[3].generate_state(1)
    >>> bool((a == b).all())
    True
    """
    return np.random.SeedSequence(seed, spawn_key=(chunk, unit))


def tagged_seed(seed: int, tag: int, key: tuple[int, ...] = ()) -> np.random.SeedSequence:
    """A stream beside the cards' (a bootstrap, the strategies' draws), named by ``tag``.

    ``SeedSequence([seed, tag], spawn_key=key)`` has other entropy than
    ``SeedSequence(seed)``, so none of its descendants is a chunk's or a unit's stream.

    >>> tagged_seed(1, 7).entropy
    [1, 7]
    """
    return np.random.SeedSequence([seed, tag], spawn_key=tuple(key))


def decision_seed(seed: int, *key: int) -> np.random.SeedSequence:
    """The strategies' own stream beside the chance stream of key ``key`` (a chunk ``(k,)``
    or a unit ``(chunk, unit)``), for runs that keep decisions and chance apart.

    >>> a, b = decision_seed(1, 3), chunk_seed(1, 3)
    >>> a.spawn_key == b.spawn_key and a.entropy != b.entropy
    True
    """
    return tagged_seed(seed, DECISION_TAG, key)


def chunk_stream(seed: int, k: int) -> np.random.PCG64:
    """The bit generator of chunk ``k`` (what the kernel reads for a chunk-stream run)."""
    return np.random.PCG64(chunk_seed(seed, k))


def unit_stream(seed: int, chunk: int, unit: int) -> np.random.PCG64:
    """The bit generator of unit ``unit`` of chunk ``chunk`` (a unit-stream run)."""
    return np.random.PCG64(unit_seed(seed, chunk, unit))


def chunk_bounds(n: int, chunk_size: int) -> list[tuple[int, int]]:
    """``(start, size)`` of every chunk of a run of ``n`` items.

    >>> chunk_bounds(10, 4)
    [(0, 4), (4, 4), (8, 2)]
    """
    return [(start, min(chunk_size, n - start)) for start in range(0, n, chunk_size)]
