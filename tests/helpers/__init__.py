"""Helpers shared by the test modules (imported as ``helpers``: ``tests`` is on pytest's path).

* :mod:`helpers.deals` -- hand-built deals in a small notation, worked out by hand;
* :mod:`helpers.states` -- game states and chains of settled deals for the game rules;
* :mod:`helpers.views` -- a seat's :class:`~thousand.reference.View` built by hand, for
  single decisions of the kernel's strategies;
* :mod:`helpers.rule_sets` -- the hypothesis strategy drawing whole rule sets;
* :mod:`helpers.parity` -- kernel against reference engine, deal by deal and game by game;
  a failure writes the trace (:mod:`helpers.artifacts`) and names the command showing it;
* :mod:`helpers.golden` -- the golden playthrough cases (``tests/golden/``);
* :mod:`helpers.play_positions` -- random deals, endgames and played lines for the play
  layer and the solver, and every combination of the play options;
* :mod:`helpers.bid_fakes` -- a stand-in kernel for the bid and threshold tests;
* :mod:`helpers.compare_toys` -- a toy simulator for the comparison pipeline;
* :mod:`helpers.processes` -- worker processes seen from /proc.
"""
from __future__ import annotations

from hypothesis import settings

__all__ = ["hypothesis_budget"]


def hypothesis_budget(examples: int) -> int:
    """``examples`` scaled by the loaded hypothesis profile (``conftest.py``): as written
    under ``ci``, a fifth under ``quick``, ten times under ``long``; at least 1."""
    return max(1, round(examples * settings.default.max_examples / 100))
