"""Polars expressions on 24-bit card masks (the layout of :mod:`thousand.cards`).

Counting a rank is a popcount of the mask ANDed with that rank's plane; the marriages
held are the queen bits ANDed with the king bits shifted down one place.  Polars has no
shift operator on expressions, so a right shift by ``k`` is an integer division by
``2**k`` (exact on the unsigned mask columns).

>>> import polars as pl
>>> from thousand.cards import parse_hand
>>> df = pl.DataFrame({"h": [parse_hand("AH TH KH QH 9S JC AD")]}, schema={"h": pl.UInt32})
>>> df.select(points("h"), count_rank("h", 0).alias("nines"), marriage_suits("h").alias("m")).row(0)
(41, 1, 8)
"""
from __future__ import annotations

import polars as pl

from thousand.cards import (
    FULL_DECK, JACK, KING, MARRIAGE_VALUES, NINE, QUEEN, RANK_PLANE, RANK_POINTS, N_CARDS,
)

__all__ = [
    "as_expr", "count_rank", "points", "nines", "jacks", "marriage_suits", "suit_set_value",
    "card_bit", "without", "has_suit", "next_opponent", "exchanged", "hand_after_exchange",
]

_SUIT_LOW_BITS = sum(1 << (6 * s) for s in range(4))  # bit 6s for each suit s
_CARD_BITS = {c: 1 << c for c in range(N_CARDS)}


def as_expr(mask: pl.Expr | str) -> pl.Expr:
    """A column name or expression, as an unsigned 32-bit expression."""
    return (pl.col(mask) if isinstance(mask, str) else mask).cast(pl.UInt32)


def count_rank(mask: pl.Expr | str, rank: int) -> pl.Expr:
    """Number of cards of ``rank`` (0 nine .. 5 ace) in the mask."""
    return (as_expr(mask) & RANK_PLANE[rank]).bitwise_count_ones().cast(pl.Int32)


def nines(mask: pl.Expr | str) -> pl.Expr:
    return count_rank(mask, NINE)


def jacks(mask: pl.Expr | str) -> pl.Expr:
    return count_rank(mask, JACK)


def points(mask: pl.Expr | str) -> pl.Expr:
    """Card points in the mask (A 11, 10 10, K 4, Q 3, J 2, 9 0), named ``points``."""
    total = pl.lit(0, dtype=pl.Int32)
    for rank, value in enumerate(RANK_POINTS):
        if value:
            total = total + count_rank(mask, rank) * value
    return total.alias("points")


def marriage_suits(mask: pl.Expr | str) -> pl.Expr:
    """The suits in which the mask holds king and queen, as a 4-bit set (bit s = suit s)."""
    m = as_expr(mask)
    both = (m // (1 << QUEEN)) & (m // (1 << KING)) & _SUIT_LOW_BITS
    # Gather bits 0, 6, 12, 18 into bits 0..3.
    out = pl.lit(0, dtype=pl.UInt32)
    for s in range(4):
        out = out | ((both // (1 << (6 * s))) & 1) * (1 << s)
    return out.cast(pl.Int32)


def has_suit(suit_set: pl.Expr, suit: int) -> pl.Expr:
    """Boolean: ``suit`` is in the 4-bit ``suit_set``."""
    return (suit_set & (1 << suit)) > 0


def suit_set_value(suit_set: pl.Expr, values=MARRIAGE_VALUES) -> pl.Expr:
    """Total marriage value of a 4-bit suit set."""
    total = pl.lit(0, dtype=pl.Int32)
    for s, v in enumerate(values):
        total = total + has_suit(suit_set, s).cast(pl.Int32) * v
    return total


def card_bit(card: pl.Expr | str) -> pl.Expr:
    """The mask of a single card number (0 for ``-1``, no card)."""
    c = pl.col(card) if isinstance(card, str) else card
    return c.replace_strict(_CARD_BITS, default=0, return_dtype=pl.UInt32)


def without(mask: pl.Expr | str, removed: pl.Expr) -> pl.Expr:
    """``mask`` with the cards of ``removed`` taken out."""
    return as_expr(mask) & (removed.cast(pl.UInt32) ^ FULL_DECK)


def next_opponent(players: int) -> pl.Expr:
    """Seat that receives the declarer's first hand-off card (the next active seat after him).

    With 4 players the dealer sits out, so the seat after the declarer is skipped when it
    is the dealer.
    """
    d = pl.col("declarer").cast(pl.Int32)
    if players == 4:
        nxt = (d + 1) % 4
        return pl.when(nxt == pl.col("dealer").cast(pl.Int32)).then((d + 2) % 4).otherwise(nxt)
    return (d + 1) % players


def exchanged(players: int = 3) -> pl.Expr:
    """Boolean: the deal reached the hand-off (a declarer gave away his two cards; with 2
    players laid them away, recorded in the same columns)."""
    return (pl.col("declarer") >= 0) & (pl.col("handoff_next") >= 0) & (pl.col("handoff_other") >= 0)


def hand_after_exchange(seat: int, players: int = 3) -> pl.Expr:
    """Seat ``seat``'s cards after the talon and the hand-off.

    3 and 4 players: the declarer holds hand + talon minus the two cards given (8 cards);
    the next opponent gains ``handoff_next``, the other ``handoff_other``.  2 players: the
    declarer holds hand + his talon minus the cards laid away (recorded in the hand-off
    columns, if at all).  Where no hand-off happened (a redeal before it) this is the dealt
    hand.
    """
    hand = as_expr(f"hand{seat}")
    d = pl.col("declarer").cast(pl.Int32)
    given_next, given_other = card_bit("handoff_next"), card_bit("handoff_other")
    if players == 2:
        return (pl.when((d == seat) & (pl.col("redeal") != 1))
                .then(without(hand | as_expr("talon"), given_next | given_other)).otherwise(hand))
    nxt = next_opponent(players)
    active = pl.lit(True) if players != 4 else (pl.col("dealer").cast(pl.Int32) != seat)
    return (
        pl.when(~exchanged(players)).then(hand)
        .when(d == seat).then(without(hand | as_expr("talon"), given_next | given_other))
        .when(nxt == seat).then(hand | given_next)
        .when(active).then(hand | given_other)
        .otherwise(hand)
    )
