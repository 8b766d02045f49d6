"""Cards, card sets as 24-bit masks, and the hand notation.

The layout users and Parquet files see
--------------------------------------
A card is an integer ``0..23``: ``card = 6 * suit + rank``.

* suits, in ascending marriage value: ``0`` spades (40), ``1`` clubs (60),
  ``2`` diamonds (80), ``3`` hearts (100);
* ranks, in trick order: ``0`` nine, ``1`` jack, ``2`` queen, ``3`` king, ``4`` ten,
  ``5`` ace -- so within a suit a higher card number beats a lower one.

A set of cards is a 24-bit mask with bit ``card`` set for each card held.  Suit ``s``
occupies bits ``6s .. 6s+5``; a rank plane (all aces, say) is ``RANK_PLANE[rank]``.

>>> parse_card("10H"), parse_card("9s"), parse_card("A♣")
(22, 0, 11)
>>> format_hand(parse_hand("AH TH KH QH 9S JC AD"))
'9♠ J♣ A♦ Q♥ K♥ 10♥ A♥'
>>> card_points(parse_hand("AH TH KH QH 9S JC AD"))
41
>>> held_marriages(parse_hand("KH QH KS QS 9D"))
[0, 3]
"""
from __future__ import annotations

import numbers
import re
import sys
from collections.abc import Iterable, Iterator

__all__ = [
    "SUITS", "RANKS", "SUIT_LETTERS", "SUIT_SYMBOLS", "RANK_NAMES", "RANK_POINTS",
    "MARRIAGE_VALUES", "FULL_DECK", "RANK_PLANE", "SUIT_MASK", "N_CARDS",
    "NINE", "JACK", "QUEEN", "KING", "TEN", "ACE", "SPADES", "CLUBS", "DIAMONDS", "HEARTS",
    "CardError", "card", "suit_of", "rank_of", "card_name", "parse_card", "parse_suit", "parse_hand",
    "parse_cards", "format_hand", "format_cards", "mask_of", "cards_of", "popcount",
    "card_points", "held_marriages", "marriage_points", "count_rank", "hand_features",
]

N_CARDS = 24
SPADES, CLUBS, DIAMONDS, HEARTS = 0, 1, 2, 3
NINE, JACK, QUEEN, KING, TEN, ACE = 0, 1, 2, 3, 4, 5

SUITS = ("spades", "clubs", "diamonds", "hearts")
RANKS = ("nine", "jack", "queen", "king", "ten", "ace")
SUIT_LETTERS = "SCDH"
SUIT_SYMBOLS = "♠♣♦♥"
RANK_NAMES = ("9", "J", "Q", "K", "10", "A")
RANK_POINTS = (0, 2, 3, 4, 10, 11)
MARRIAGE_VALUES = (40, 60, 80, 100)

FULL_DECK = (1 << N_CARDS) - 1
SUIT_MASK = tuple(0x3F << (6 * s) for s in range(4))
RANK_PLANE = tuple(sum(1 << (6 * s + r) for s in range(4)) for r in range(6))

_SYMBOL_TO_SUIT = {ch: i for i, ch in enumerate(SUIT_SYMBOLS)}
_SYMBOL_TO_SUIT.update({"♤": 0, "♧": 1, "♢": 2, "♡": 3})
_LETTER_TO_SUIT = {ch: i for i, ch in enumerate(SUIT_LETTERS)}
_RANK_TOKENS = {"9": NINE, "J": JACK, "Q": QUEEN, "K": KING, "10": TEN, "T": TEN, "A": ACE}
_TOKEN_SPLIT = re.compile(r"[\s,;]+")


class CardError(ValueError):
    """A card, hand or card set that cannot be read; the message names the token."""



def _or_symbols(sep: str) -> str:
    """The suit symbols as a second spelling in an error, where the error stream shows them;
    on a console without them they would print as the letters (thousand.console), twice."""
    try:
        "♠♣♦♥".encode(getattr(sys.stderr, "encoding", None) or "utf-8")
    except (UnicodeEncodeError, LookupError):
        return ""
    return sep + "♠ ♣ ♦ ♥"

def card(rank: int, suit: int) -> int:
    """Card number of ``rank`` (0 nine .. 5 ace) in ``suit`` (0 spades .. 3 hearts)."""
    if not (isinstance(rank, numbers.Integral) and isinstance(suit, numbers.Integral)
            and 0 <= rank < 6 and 0 <= suit < 4):
        raise CardError(f"no card of rank {rank} in suit {suit}: ranks are 0 (nine) .. 5 (ace), suits 0 .. 3")
    return 6 * suit + rank


def suit_of(c: int) -> int:
    return c // 6


def rank_of(c: int) -> int:
    return c % 6


def card_name(c: int, symbols: bool = True) -> str:
    """``'10♥'`` (or ``'10H'`` with ``symbols=False``) for card number ``c``."""
    if not 0 <= c < N_CARDS:
        raise CardError(f"card number {c} is outside 0..23")
    suit = SUIT_SYMBOLS[suit_of(c)] if symbols else SUIT_LETTERS[suit_of(c)]
    return RANK_NAMES[rank_of(c)] + suit


def parse_card(token: str) -> int:
    """Read one card: rank ``9 J Q K 10 T A`` then suit ``S C D H`` or ``♠♣♦♥``, any case.

    The rank comes first; a card written suit first is refused with the right spelling:

    >>> parse_card("♥10")
    Traceback (most recent call last):
    ...
    thousand.cards.CardError: bad card '♥10': write the rank first, then the suit, e.g. '10♥'
    """
    tok = _typed(token)
    if tok.upper() in _RANK_TOKENS:   # "10 H": the suit was written apart from the rank
        example = "10H or TH" if tok.upper() in ("10", "T") else f"{tok.upper()}H"
        raise CardError(f"bad card {token!r}: a rank with no suit; a card is rank+suit without a space, "
                        f"e.g. {example}")
    if len(tok) < 2:
        raise CardError(f"bad card {token!r}: expected a rank (9 J Q K 10 A) and a suit (S C D H)")
    if tok.isdigit():   # a number where a card is asked for ("120" at a card prompt)
        raise CardError(f"bad card {token!r}: a number, not a card; a card is a rank and a suit, e.g. 10S or AH")
    suit_ch = tok[-1]
    rank_tok = tok[:-1].upper()
    first, rest = tok[0], tok[1:].upper()
    if (first in _SYMBOL_TO_SUIT or first.upper() in _LETTER_TO_SUIT) and rest in _RANK_TOKENS:
        # "♥10", "HA": the suit written first (no rank is a suit letter, so this is not a
        # misread card); name the notation rather than a suit "0" or "A"
        raise CardError(f"bad card {token!r}: write the rank first, then the suit, e.g. {rest + first.upper()!r}")
    if suit_ch in _SYMBOL_TO_SUIT:
        suit = _SYMBOL_TO_SUIT[suit_ch]
    elif suit_ch.upper() in _LETTER_TO_SUIT:
        suit = _LETTER_TO_SUIT[suit_ch.upper()]
    else:
        raise CardError(f"bad card {token!r}: unknown suit {suit_ch!r} (use S C D H{_or_symbols(' or ')})")
    if rank_tok not in _RANK_TOKENS:
        raise CardError(f"bad card {token!r}: {_misspelt(tok) or f'unknown rank {tok[:-1]!r} (use 9 J Q K 10 A)'}")
    return card(_RANK_TOKENS[rank_tok], suit)


# One card as parse_card reads it (ranks and suits from its own tables), for the hints below.
_RANKS_RE = "10|[" + "".join(r for r in _RANK_TOKENS if len(r) == 1) + "]"
_ONE_CARD = re.compile(f"(?:{_RANKS_RE})[{''.join(_LETTER_TO_SUIT)}{''.join(_SYMBOL_TO_SUIT)}]", re.IGNORECASE)
_CARDS_RUN = re.compile(f"(?:{_ONE_CARD.pattern})+", re.IGNORECASE)
_CARD_THEN_NAME = re.compile(f"({_RANKS_RE})(SPADES?|CLUBS?|DIAMONDS?|HEARTS?)", re.IGNORECASE)


def _misspelt(tok: str) -> str | None:
    """What a token that is no card most likely meant: cards written without a space
    between them (``AHTH``), or a suit spelt out (``JSpades``); None when neither."""
    if _CARDS_RUN.fullmatch(tok):
        return f"cards written together; separate them with spaces: {' '.join(_ONE_CARD.findall(tok))}"
    m = _CARD_THEN_NAME.fullmatch(tok)
    if m:
        return f"write the suit as a letter or symbol: {m.group(1).upper()}{m.group(2)[0].upper()}"
    return None


_SUIT_NAMES = {"SPADE": 0, "SPADES": 0, "CLUB": 1, "CLUBS": 1, "DIAMOND": 2, "DIAMONDS": 2,
               "HEART": 3, "HEARTS": 3}


def parse_suit(token: str) -> int:
    """Read a suit as cards write it (``S C D H``, ``♠ ♣ ♦ ♥`` or ``♤ ♧ ♢ ♡``) or by its
    English name, any case.

    >>> parse_suit("h"), parse_suit("♡"), parse_suit("Spade")
    (3, 3, 0)
    """
    tok = _typed(token)
    if tok in _SYMBOL_TO_SUIT:
        return _SYMBOL_TO_SUIT[tok]
    suit = _LETTER_TO_SUIT.get(tok.upper(), _SUIT_NAMES.get(tok.upper()))
    if suit is None:
        raise CardError(f"unknown suit {token!r} (use S C D H{_or_symbols(', ')} or spades, clubs, diamonds, hearts)")
    return suit


def _typed(token: str) -> str:
    """A typed card or suit token as read: escaped UTF-8 undone, spaces and the invisible
    emoji/text presentation selector that phones and web pages send after suit symbols
    ("♥\ufe0f") dropped."""
    return _undo_escapes(token).strip().replace("\ufe0f", "").replace("\ufe0e", "")


def _undo_escapes(text: str) -> str:
    """A suit symbol typed in UTF-8 under a locale that is not (``LC_ALL=C``) reaches
    ``sys.argv`` as escaped bytes (``'\\udce2\\udc99\\udca0'`` for ``♠``): read those
    bytes as the UTF-8 they are.

    >>> _undo_escapes("A\\udce2\\udc99\\udca0")
    'A♠'
    """
    if not any("\udc80" <= ch <= "\udcff" for ch in text):
        return text
    return text.encode("utf-8", "surrogateescape").decode("utf-8", "replace")


def _tokens(text: str) -> list[str]:
    return [t for t in _TOKEN_SPLIT.split(_undo_escapes(text).strip()) if t]


def parse_cards(text: str | Iterable[str]) -> list[int]:
    """Card numbers in the order written; rejects bad tokens and duplicates."""
    tokens = _tokens(text) if isinstance(text, str) else [t for t in text]
    out: list[int] = []
    seen: dict[int, str] = {}
    for tok in tokens:
        c = parse_card(tok)
        if c in seen:
            raise CardError(f"duplicate card {tok!r} (already given as {seen[c]!r})")
        seen[c] = tok
        out.append(c)
    return out


def parse_hand(text: str | Iterable[str], n: int | None = None) -> int:
    """Mask of the cards written in ``text``; with ``n``, exactly ``n`` cards are required.

    >>> hex(parse_hand("9S, JS"))
    '0x3'
    >>> parse_hand("AH AH")  # doctest: +IGNORE_EXCEPTION_DETAIL
    Traceback (most recent call last):
    ...
    thousand.cards.CardError: duplicate card 'AH' (already given as 'AH')
    """
    cards = parse_cards(text)
    if n is not None and len(cards) != n:
        raise CardError(f"a hand needs {n} cards, got {len(cards)}: {' '.join(_tokens(text) if isinstance(text, str) else text)!r}")
    return mask_of(cards)


def mask_of(cards: Iterable[int]) -> int:
    m = 0
    for c in cards:
        if not 0 <= c < N_CARDS:
            raise CardError(f"card number {c} is outside 0..23")
        m |= 1 << c
    return m


def cards_of(mask: int) -> list[int]:
    """Card numbers in ``mask``, ascending (suit by suit, low to high)."""
    if mask < 0 or mask > FULL_DECK:
        raise CardError(f"card mask {mask:#x} has bits outside the 24-card deck")
    return [c for c in range(N_CARDS) if mask >> c & 1]


def iter_cards(mask: int) -> Iterator[int]:
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def format_cards(cards: Iterable[int], symbols: bool = True) -> str:
    return " ".join(card_name(c, symbols) for c in cards)


def format_hand(mask: int, symbols: bool = True) -> str:
    """The cards of ``mask`` written suit by suit, low to high."""
    return format_cards(cards_of(mask), symbols)


def popcount(mask: int) -> int:
    return int(mask).bit_count()


def card_points(mask: int) -> int:
    """Card points in ``mask`` (A 11, 10 10, K 4, Q 3, J 2, 9 0)."""
    if not isinstance(mask, numbers.Integral) or mask < 0 or mask > FULL_DECK:
        raise CardError(f"card mask {mask!r} is not a set of the 24-card deck's cards (a whole number 0..{FULL_DECK:#x})")
    return sum(RANK_POINTS[r] * popcount(mask & RANK_PLANE[r]) for r in range(6))


def count_rank(mask: int, rank: int) -> int:
    return popcount(mask & RANK_PLANE[rank])


def held_marriages(mask: int) -> list[int]:
    """Suits in which ``mask`` holds both king and queen."""
    both = (mask >> QUEEN) & (mask >> KING)
    return [s for s in range(4) if both >> (6 * s) & 1]


def marriage_points(mask: int) -> int:
    """Total value of the marriages held in ``mask``."""
    return sum(MARRIAGE_VALUES[s] for s in held_marriages(mask))


def hand_features(mask: int) -> dict[str, int]:
    """Features a bidder looks at: points, marriages, and counts of key ranks.

    >>> hand_features(parse_hand("AH TH KH QH 9S JC AD"))["marriage_points"]
    100
    """
    aces = mask & RANK_PLANE[ACE]
    tens = mask & RANK_PLANE[TEN]
    return {
        "cards": popcount(mask),
        "points": card_points(mask),
        "marriages": len(held_marriages(mask)),
        "marriage_points": marriage_points(mask),
        "aces": popcount(aces),
        "tens": popcount(tens),
        "aces_with_ten": popcount(aces & (tens << 1)),
        "nines": count_rank(mask, NINE),
        "jacks": count_rank(mask, JACK),
        "longest_suit": max(popcount(mask & SUIT_MASK[s]) for s in range(4)),
    }
