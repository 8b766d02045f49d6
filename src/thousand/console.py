"""Text for consoles that cannot show every character: suit symbols become letters.

The tool prints suit symbols (``9♠ A♥``), the game's names (Tysiąc, Тысяча) and a few
signs (``±``, ``≥``, ``²``).  A stream whose encoding lacks them (a Windows console in
cp1252, a Latin-1 locale, ``PYTHONIOENCODING=ascii``) would stop the command with a
``UnicodeEncodeError``.  :func:`degrade_streams` makes ``sys.stdout`` and ``sys.stderr``
write such characters as the letters a player would type instead: the suit symbols as
the suit letters the card parser reads back (``9S AH``), other signs as their ASCII
spelling, Cyrillic transliterated, accented letters without their accent, and anything
else as ``?``.  Characters the encoding has are written unchanged.
"""
from __future__ import annotations

import codecs
import sys
import unicodedata
from typing import Any, TextIO

from thousand.cards import SUIT_LETTERS, SUIT_SYMBOLS

__all__ = ["ERROR_HANDLER", "to_letters", "degrade_streams"]

#: Name of the codecs error handler registered by this module.
ERROR_HANDLER = "thousand.letters"

# The suit symbols become the letters the card parser reads (9♠ -> 9S, as typed).
_SIGNS = {sym: letter for sym, letter in zip(SUIT_SYMBOLS, SUIT_LETTERS)}
_SIGNS.update({
    "♤": "S", "♧": "C", "♢": "D", "♡": "H", "\ufe0f": "", "\ufe0e": "",   # outlined suits; emoji selectors
    "±": "+-", "≥": ">=", "≤": "<=", "≠": "!=", "≈": "~", "×": "x", "·": ".", "…": "...",
    "→": "->", "←": "<-", "–": "-", "—": "-", "−": "-", "‘": "'", "’": "'", "“": '"', "”": '"',
    "²": "2", "³": "3", "µ": "u", "°": " deg", "\u00a0": " ", "\u202f": " ", "▏": "|", "█": "#",
    "ł": "l", "Ł": "L",   # no decomposition in Unicode
})
# Russian letters, transliterated (Тысяча -> Tysyacha).
_CYRILLIC = dict(zip(
    "абвгдеёжзийклмнопрстуфхцчшщъыьэюя",
    ["a", "b", "v", "g", "d", "e", "e", "zh", "z", "i", "y", "k", "l", "m", "n", "o", "p", "r", "s", "t",
     "u", "f", "kh", "ts", "ch", "sh", "shch", "", "y", "", "e", "yu", "ya"]))


def _letter(ch: str) -> str:
    if ch in _SIGNS:
        return _SIGNS[ch]
    low = ch.lower()
    if low in _CYRILLIC:
        t = _CYRILLIC[low]
        return t.capitalize() if ch != low else t
    # An accented letter without its accent (ą -> a, é -> e); else a question mark.
    plain = "".join(c for c in unicodedata.normalize("NFKD", ch) if not unicodedata.combining(c))
    return plain if plain and plain.isascii() else "?"


def to_letters(text: str) -> str:
    """``text`` with every non-ASCII character spelt in ASCII as described above.

    >>> to_letters("9♠ 10♥, Tysiąc, Тысяча, ±1.2, R²")
    '9S 10H, Tysiac, Tysyacha, +-1.2, R2'
    """
    return "".join(ch if ch.isascii() else _letter(ch) for ch in text)


def _handler(err: UnicodeError) -> tuple[str, int]:
    if not isinstance(err, UnicodeEncodeError):
        raise err
    return to_letters(err.object[err.start:err.end]), err.end


codecs.register_error(ERROR_HANDLER, _handler)


def _lacks_characters(stream: Any) -> bool:
    encoding = getattr(stream, "encoding", None)
    if not encoding:
        return False
    try:
        "♠♣♦♥ąТ±≥²".encode(encoding)
    except UnicodeEncodeError:
        return True
    except LookupError:
        return False
    return False


def degrade_streams(*streams: TextIO | None) -> None:
    """Make each stream (default: ``sys.stdout`` and ``sys.stderr``) whose encoding cannot
    show the tool's characters write them as letters (:func:`to_letters`) instead of failing.

    Streams that can show them, and streams that cannot be reconfigured (a ``StringIO``
    a test captures output in), are left as they are."""
    for stream in streams or (sys.stdout, sys.stderr):
        if stream is not None and _lacks_characters(stream) and hasattr(stream, "reconfigure"):
            try:
                stream.reconfigure(errors=ERROR_HANDLER)
            except (ValueError, OSError):   # closed, or not a text stream we may change
                pass
