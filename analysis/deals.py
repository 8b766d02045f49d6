"""Random dealt cards in the simulator's deal-row layout, without any play.

Used to check the exact combinatorics statistically (fresh uniform deals, independent of
the kernel) and by the tests to build frames with the schema's column types.
"""
from __future__ import annotations

import numpy as np
import polars as pl

from thousand import schema

__all__ = ["random_deals", "frame_of"]


def frame_of(rows: dict[str, list], players: int = 3) -> pl.DataFrame:
    """A deal frame with the schema's dtypes from the given columns; the rest zero.

    Columns not given get the value a deal-only run leaves in them: ``-1`` for
    ``declarer``, ``redeal_by``, ``handoff_*`` and ``game_id``, zero otherwise.
    """
    n = len(next(iter(rows.values())))
    cols = schema.empty_columns(schema.deal_columns(players), n)
    for name in ("declarer", "redeal_by", "handoff_next", "handoff_other", "game_id"):
        cols[name][:] = -1
    cols["deal_id"] = np.arange(n, dtype=np.int64)
    for name, values in rows.items():
        if name not in cols:
            raise KeyError(f"{name!r} is not a deal column for {players} players")
        cols[name] = np.asarray(values, dtype=cols[name].dtype)
    return pl.DataFrame(cols)


def random_deals(n: int, seed: int = 1, players: int = 3) -> pl.DataFrame:
    """``n`` uniformly shuffled decks cut as the engine deals them (no auction, no play).

    3 and 4 players: 7 cards to each of three active hands (the 4-player dealer's hand is
    left empty) and 3 to the talon; 2 players: 10 each and two talons of 2.
    """
    rng = np.random.Generator(np.random.PCG64(np.random.SeedSequence(seed)))
    decks = rng.permuted(np.tile(np.arange(24, dtype=np.uint32), (n, 1)), axis=1)
    bits = np.left_shift(np.uint32(1), decks)

    def block(a: int, b: int) -> np.ndarray:
        return np.bitwise_or.reduce(bits[:, a:b], axis=1).astype(np.uint32)

    dealer = rng.integers(0, players, n)
    rows: dict[str, list] = {"dealer": dealer}
    if players == 2:
        hands = [block(0, 10), block(10, 20)]
        rows["talon"], rows["talon2"] = block(20, 22), block(22, 24)
        active = [(dealer + 1 + i) % 2 for i in range(2)]
    else:
        hands = [block(0, 7), block(7, 14), block(14, 21)]
        rows["talon"] = block(21, 24)
        active = [(dealer + 1 + i) % players for i in range(3)]
    for s in range(players):
        col = np.zeros(n, dtype=np.uint32)
        for i, seat in enumerate(active):
            col = np.where(seat == s, hands[i], col)
        rows[f"hand{s}"] = col
    return frame_of(rows, players)
