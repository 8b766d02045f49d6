"""Exact probabilities of hand and talon properties, by counting.

The deck has ``copies`` cards (one per suit) of each of ``n_ranks`` ranks.  A property
that depends only on how many cards of each rank a set holds (card points, nines,
jacks) is a predicate on a *rank vector* ``c = (c_0, .., c_{n_ranks-1})``; the number of
card sets with that vector is ``prod_r C(copies, c_r)``.  So instead of the 346,104
seven-card hands we sum over the few hundred rank vectors.

For several hands at one table (per deal: "does any of the three hands qualify?") we use
inclusion-exclusion over the hands::

    P(any) = sum_j (-1)^(j+1) C(n, j) P(hands 1..j all qualify)

and count ordered tuples of disjoint qualifying hands exactly by recursion over the
rank counts still in the deck (memoised).  All counts are Python integers and all
probabilities :class:`fractions.Fraction`, so nothing is rounded until printed.

>>> from fractions import Fraction
>>> p_set(lambda c: c[0] >= 3, 7)          # a 7-card hand with 3 or 4 nines
Fraction(15, 253)
>>> round(float(p_any_hand(lambda c: c[1] == 4, 7, 3)), 5)   # some hand holds all four jacks
0.00988
"""
from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from fractions import Fraction
from functools import lru_cache
from math import comb, prod

from thousand.cards import MARRIAGE_VALUES, RANK_POINTS

__all__ = [
    "rank_vectors", "count_sets", "p_set", "count_disjoint", "p_any_hand", "p_all", "points_of",
    "p_marriage_in", "p_marriage_completed", "p_any_marriage_in", "marriage_sets", "marriage_points_pmf",
]

RankPredicate = Callable[[tuple[int, ...]], bool]


@lru_cache(maxsize=None)
def rank_vectors(size: int, limits: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """All rank vectors of ``size`` cards with ``c_r <= limits[r]``.

    >>> len(rank_vectors(7, (4,) * 6))
    666
    """
    out: list[tuple[int, ...]] = []

    def rec(r: int, left: int, acc: tuple[int, ...]) -> None:
        if r == len(limits) - 1:
            if left <= limits[r]:
                out.append(acc + (left,))
            return
        for c in range(min(left, limits[r]) + 1):
            rec(r + 1, left - c, acc + (c,))

    if size >= 0:
        rec(0, size, ())
    return tuple(out)


def points_of(vector: Sequence[int], rank_points: Sequence[int] = RANK_POINTS) -> int:
    """Card points of a rank vector (``RANK_POINTS`` by default)."""
    return sum(c * p for c, p in zip(vector, rank_points))


def count_sets(pred: RankPredicate, size: int, copies: int = 4, n_ranks: int = 6) -> int:
    """Number of ``size``-card sets from the full deck whose rank vector satisfies ``pred``.

    >>> count_sets(lambda c: True, 7) == comb(24, 7)
    True
    """
    limits = (copies,) * n_ranks
    return sum(prod(comb(copies, x) for x in v) for v in rank_vectors(size, limits) if pred(v))


def p_set(pred: RankPredicate, size: int, copies: int = 4, n_ranks: int = 6) -> Fraction:
    """Probability that a random ``size``-card set (a hand, a talon) satisfies ``pred``."""
    return Fraction(count_sets(pred, size, copies, n_ranks), comb(copies * n_ranks, size))


def count_disjoint(pred: RankPredicate, size: int, k: int, copies: int = 4, n_ranks: int = 6) -> int:
    """Ordered ``k``-tuples of disjoint ``size``-card sets that all satisfy ``pred``.

    Recursion over the rank counts left in the deck; each step picks the next hand's
    rank vector among those that satisfy ``pred`` and fit in what is left.
    """
    good = [v for v in rank_vectors(size, (copies,) * n_ranks) if pred(v)]

    @lru_cache(maxsize=None)
    def rec(left: tuple[int, ...], j: int) -> int:
        if j == 0:
            return 1
        total = 0
        for v in good:
            if all(x <= y for x, y in zip(v, left)):
                ways = prod(comb(y, x) for x, y in zip(v, left))
                total += ways * rec(tuple(y - x for x, y in zip(v, left)), j - 1)
        return total

    return rec((copies,) * n_ranks, k)


def p_any_hand(pred: RankPredicate, size: int, n_hands: int, copies: int = 4, n_ranks: int = 6) -> Fraction:
    """Probability that at least one of ``n_hands`` dealt hands of ``size`` cards satisfies ``pred``.

    The hands are disjoint and together with the rest of the deck form a uniformly random
    deal; inclusion-exclusion over the hands (they are exchangeable).
    """
    deck = copies * n_ranks
    if n_hands * size > deck:
        raise ValueError(f"{n_hands} hands of {size} cards do not fit in {deck} cards")
    total = Fraction(0)
    for j in range(1, n_hands + 1):
        # Ordered j-tuples of disjoint hands out of all ordered j-tuples.
        tuples = prod(comb(deck - i * size, size) for i in range(j))
        total += (-1) ** (j + 1) * comb(n_hands, j) * Fraction(count_disjoint(pred, size, j, copies, n_ranks), tuples)
    return total


def p_all(pred: RankPredicate, hands: Sequence[tuple[int, tuple[int, ...]]], limits: tuple[int, ...]) -> Fraction:
    """Probability that every hand satisfies ``pred``, hand ``i`` being ``hands[i][0]``
    cards dealt at random from a deck of ``limits[r]`` cards of rank ``r`` (the hands
    disjoint) plus the rank vector ``hands[i][1]`` of cards it holds already.

    The deals cut again under ``cut_nine_penalty`` (their bottom card, a hand's last, is
    never a nine) are counted so: the bottom card fixed, the other 23 cards uniform.

    >>> p_all(lambda c: c[0] >= 3, [(7, (0,) * 6)], (4,) * 6) == p_set(lambda c: c[0] >= 3, 7)
    True
    """
    zero = (0,) * len(limits)

    @lru_cache(maxsize=None)
    def rec(left: tuple[int, ...], i: int) -> int:
        if i == len(hands):
            return 1
        size, held = hands[i]
        total = 0
        for v in rank_vectors(size, left):
            if pred(tuple(x + h for x, h in zip(v, held)) if held != zero else v):
                ways = prod(comb(y, x) for x, y in zip(v, left))
                total += ways * rec(tuple(y - x for x, y in zip(v, left)), i + 1)
        return total

    deck, tuples = sum(limits), 1
    for size, _ in hands:
        tuples *= comb(deck, size)
        deck -= size
    return Fraction(rec(tuple(limits), 0), tuples)


# --------------------------------------------------------------------------- marriages
# A marriage is a pair of specific cards (K and Q of one suit), so these are plain
# hypergeometric counts rather than rank-vector sums.

def p_marriage_in(size: int, deck: int = 24) -> Fraction:
    """Probability that a random ``size``-card set holds both cards of one given marriage.

    >>> float(p_marriage_in(7))
    0.07608...
    """
    return Fraction(comb(deck - 2, size - 2), comb(deck, size))


def p_marriage_completed(hand: int, talon: int, deck: int = 24) -> Fraction:
    """Probability that a given marriage is in hand + talon but not in the hand alone.

    (The talon supplies one or both of its cards.)
    """
    return p_marriage_in(hand + talon, deck) - p_marriage_in(hand, deck)


def p_any_marriage_in(size: int, deck: int = 24, suits: int = 4) -> Fraction:
    """Probability that a random ``size``-card set holds at least one marriage.

    >>> round(float(p_any_marriage_in(7)), 4)
    0.2848
    """
    return sum((Fraction((-1) ** (j + 1) * comb(suits, j) * comb(deck - 2 * j, size - 2 * j), comb(deck, size))
                for j in range(1, suits + 1) if 2 * j <= size), Fraction(0))


def marriage_sets(size: int, bottom: bool | None = None) -> dict[int, Fraction]:
    """Distribution of the marriages held in a random ``size``-card set: bit ``s`` for
    suit ``s``'s queen and king, bit 4 for all four aces.

    ``bottom`` None: a set from the whole deck.  Otherwise the deal was cut again while
    its bottom card was a nine (``cut_nine_penalty``): that card is one of the 20 others,
    each alike, and the set is ``size`` of the other 23 cards, plus the bottom card
    itself when ``bottom`` is true (it ends that hand).  Counted over how many of each
    marriage's two cards, of the aces and of the other cards the set holds.

    >>> d = marriage_sets(7)
    >>> sum(p for m, p in d.items() if m & 1) == p_marriage_in(7)
    True
    """
    # the bottom card's kind, and how many of the 20 non-nines are of it
    kinds = [(None, 24)] if bottom is None else [(("pair", 0), 2), (("pair", 1), 2), (("pair", 2), 2),
                                                 (("pair", 3), 2), (("ace", None), 4), (("other", None), 8)]
    out: dict[int, Fraction] = {}
    for kind, weight in kinds:
        pairs = [2 - (kind == ("pair", s)) for s in range(4)]
        aces = 4 - (kind == ("ace", None))
        others = (24 if kind is None else 23) - sum(pairs) - aces
        given = [int(bool(bottom) and kind == ("pair", s)) for s in range(4)]
        ace_given = int(bool(bottom) and kind == ("ace", None))
        total = comb(sum(pairs) + aces + others, size)
        for held in itertools.product(*(range(p + 1) for p in pairs)):
            for a in range(aces + 1):
                o = size - sum(held) - a
                if not 0 <= o <= others:
                    continue
                ways = prod(comb(p, k) for p, k in zip(pairs, held)) * comb(aces, a) * comb(others, o)
                mask = sum(1 << s for s in range(4) if held[s] + given[s] == 2) | (16 if a + ace_given == 4 else 0)
                out[mask] = out.get(mask, Fraction(0)) + Fraction(ways * weight, total * (24 if kind is None else 20))
    return out


def marriage_points_pmf(size: int, deck: int = 24, values: Sequence[int] = MARRIAGE_VALUES) -> dict[int, Fraction]:
    """Distribution of the total value of the marriages held in a random ``size``-card set.

    Exact: for every subset S of suits, P(exactly the marriages in S) by inclusion-exclusion.
    """
    n = len(values)
    total = comb(deck, size)

    def p_all(k: int) -> Fraction:  # holds (at least) k given marriages
        return Fraction(comb(deck - 2 * k, size - 2 * k), total) if 2 * k <= size else Fraction(0)

    out: dict[int, Fraction] = {}
    for subset in range(1 << n):
        k = bin(subset).count("1")
        # exactly S = sum over supersets T of S: (-1)^(|T|-|S|) P(all of T)
        p = sum(((-1) ** j * comb(n - k, j) * p_all(k + j) for j in range(n - k + 1)), Fraction(0))
        value = sum(v for i, v in enumerate(values) if subset >> i & 1)
        out[value] = out.get(value, Fraction(0)) + p
    return dict(sorted(out.items()))
