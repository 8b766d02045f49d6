"""The examples in the docstrings run as written, and every module that has examples runs.

A doctest run that finds no example passes silently, so each module listed here must run
at least one; and every module of ``thousand`` (and ``thousand.analysis``) that holds
examples must be listed, so that a new module's examples are never skipped.
"""
from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import thousand
import thousand.analysis

MODULES = ["thousand.cards", "thousand.trace", "thousand.rules", "thousand.kernel", "thousand.strategies",
           "thousand.simulate", "thousand.reference", "thousand.reference.rng", "thousand.reference.legal",
           "thousand.reference.play", "thousand.reference.solver", "thousand.solver", "thousand.lines",
           "thousand.analysis.play_quality", "thousand.analysis.match", "thousand.analysis.charts",
           "thousand.analysis.bids", "thousand.analysis.combinatorics", "thousand.analysis.compare",
           "thousand.analysis.masks", "thousand.analysis.stats", "thousand.analysis.thresholds",
           "thousand.analysis.page", "thousand.analysis.report", "thousand.console", "thousand.players", "thousand.files",
           "thousand.runner.seeding", "thousand.runner.store", "thousand.commands.solve", "thousand.cli",
           # the tests' own helpers document themselves the same way
           "helpers.states", "helpers.views"]
# importing these runs something (the CLI's entry point) or needs the compiled kernel's internals
NOT_SCANNED = {"thousand.__main__"}


def examples_in(module) -> int:
    return sum(len(t.examples) for t in doctest.DocTestFinder().find(module))


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0, f"{name} ran no example: give it one, or drop it from the list"
    assert result.failed == 0, f"{result.failed} doctest(s) failed in {name}"


def test_every_module_with_examples_is_listed():
    found = set()
    for package in (thousand, thousand.analysis):
        for info in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
            name = info.name
            if name in NOT_SCANNED or name.rsplit(".", 1)[-1].startswith("_"):
                continue
            if examples_in(importlib.import_module(name)):
                found.add(name)
    if examples_in(thousand.analysis):
        found.add("thousand.analysis")
    assert found <= set(MODULES), f"modules with examples that no test runs: {sorted(found - set(MODULES))}"
