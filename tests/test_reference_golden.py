"""Golden playthroughs: seeded games printed readably, diffed against tests/golden/.

After an intended change, run ``tests/golden/regenerate.py`` and read the diff.
"""
from __future__ import annotations

import difflib
import importlib.util
from pathlib import Path

import pytest

from thousand.reference.game import replay_game
from thousand.reference.playthrough import format_game
from thousand.trace import GameTrace

GOLDEN = Path(__file__).resolve().parent / "golden"
_spec = importlib.util.spec_from_file_location("golden_regenerate", GOLDEN / "regenerate.py")
regenerate = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(regenerate)


def _diff(expected: str, actual: str, name: str) -> str:
    return "".join(difflib.unified_diff(expected.splitlines(True), actual.splitlines(True),
                                        f"golden/{name}.txt", "now", n=2))


@pytest.mark.parametrize("name", sorted(regenerate.CASES))
def test_golden_playthrough_is_unchanged(name):
    expected = (GOLDEN / f"{name}.txt").read_text(encoding="utf-8")
    game = regenerate.play_case(name)
    actual = regenerate.header(name) + format_game(game) + "\n"
    assert actual == expected, "playthrough changed (run tests/golden/regenerate.py if intended):\n" + _diff(expected, actual, name)
    # the stored trace is the game's trace, and replays to the same text
    stored = GameTrace.from_json((GOLDEN / f"{name}.json").read_text(encoding="utf-8"))
    assert stored.to_dict() == game.trace.to_dict()
    replayed = replay_game(stored.rules, stored)
    assert regenerate.header(name) + format_game(replayed) + "\n" == expected


def test_golden_cases_cover_presets_and_table_sizes():
    specs = [spec for spec, _ in regenerate.CASES.values()]
    for needle in ("classic", "russian", "polish", "players=2", "players=4", "blind=on", "golden_kon=on"):
        assert any(needle in s for s in specs), needle
