"""The View the single-decision functions build from a dict (``decide_*``, the one-decision
API an interactive table or a search player uses): every field lands in its slot."""
import numpy as np
import pytest

from thousand import _fastdeal
from thousand.kernel import VIEW_DTYPE


def _decode(view: dict) -> np.void:
    return np.frombuffer(_fastdeal.view_bytes(view), dtype=VIEW_DTYPE)[0]


def test_every_field_lands_in_its_slot():
    # distinct values everywhere, so a field written to a neighbour's slot shows
    view, k = {}, 1
    for name, length in _fastdeal.VIEW_FIELDS:
        view[name] = k if length == 1 else list(range(k, k + length))
        k += length
    rec = _decode(view)
    for name, length in _fastdeal.VIEW_FIELDS:
        if name in ("n_active", "trick_n"):
            continue  # set from the lengths of active and trick_cards (below)
        assert np.array_equal(np.atleast_1d(rec[name]), np.atleast_1d(view[name])), name
    assert rec["n_active"] == 3 and rec["trick_n"] == 4


def test_defaults_and_counts():
    rec = _decode({"active": [1, 2], "trick_cards": [5]})
    assert rec["n_active"] == 2 and rec["trick_n"] == 1
    assert list(rec["trick_cards"]) == [5, -1, -1, -1]
    assert rec["declarer"] == -1 and rec["trump"] == -1 and rec["sitter"] == -1
    assert rec["step"] == 5 and rec["n_tricks"] == 8 and list(rec["given"]) == [-1, -1]


def test_masks_are_unsigned_and_bad_fields_are_named():
    assert _decode({"hand": 0xFFFFFF})["hand"] == 0xFFFFFF
    with pytest.raises(KeyError, match="unknown view field 'hands'"):
        _fastdeal.view_bytes({"hands": 1})
    with pytest.raises(ValueError, match="'bids' holds at most 4"):
        _fastdeal.view_bytes({"bids": [1, 2, 3, 4, 5]})
    with pytest.raises(OverflowError):
        _fastdeal.view_bytes({"hand": -1})
