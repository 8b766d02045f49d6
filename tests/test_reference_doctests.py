"""The examples in the docstrings of the reference engine, traces and cards run as written."""
from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = ["thousand.cards", "thousand.trace", "thousand.reference", "thousand.reference.rng",
           "thousand.reference.legal", "thousand.reference.play", "thousand.reference.players",
           "thousand.reference.deal", "thousand.reference.game", "thousand.reference.playthrough"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0, f"{result.failed} doctest(s) failed in {name}"
