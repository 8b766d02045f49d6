"""Game states built by hand, and deals settled one after another, for the game rules.

>>> st = state([0, 880, 0], barrel_sitter=1)
>>> (st.scores, st.barrel_sitter, st.barrel_count, st.bolts)
([0, 880, 0], 1, 0, [0, 0, 0])
"""
from __future__ import annotations

from typing import Callable, Iterable

from thousand.reference import DealResult, GameState, settle_deal
from thousand.reference.game import SettleNotes
from thousand.rules import Rules

__all__ = ["state", "settle_in_turn"]


def state(scores, **fields) -> GameState:
    """A fresh game state with these scores and any other :class:`GameState` fields set."""
    st = GameState.fresh(len(scores))
    st.scores = list(scores)
    for name, value in fields.items():
        if not hasattr(st, name):
            raise AttributeError(f"GameState has no field {name!r}")
        setattr(st, name, value)
    return st


def settle_in_turn(rules: Rules, st: GameState, deals: Iterable[Callable[[GameState], DealResult]]
                   ) -> tuple[GameState, list[SettleNotes]]:
    """Play each deal (a function of the state it is dealt in) and settle it, in turn:
    the state after the last and every deal's notes."""
    notes = []
    for deal in deals:
        st, n = settle_deal(rules, st, deal(st))
        notes.append(n)
    return st, notes
