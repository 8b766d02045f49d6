"""Golden playthroughs: seeded games printed readably, diffed against tests/golden/.

The cases (``helpers.golden.CASES``): short games of ``random`` players under every preset
and table size, and games of the kernel's ``standard`` players, a whole classic one with
the barrel in it.  After an intended change, run ``tests/golden/regenerate.py`` and read
the diff.
"""
from __future__ import annotations

import difflib

import pytest

from thousand.reference.game import replay_game
from thousand.trace import GameTrace

from helpers.golden import CASES, GOLDEN, play_case, text


def _diff(expected: str, actual: str, name: str) -> str:
    return "".join(difflib.unified_diff(expected.splitlines(True), actual.splitlines(True),
                                        f"golden/{name}.txt", "now", n=2))


@pytest.mark.parametrize("name", sorted(CASES))
def test_golden_playthrough_is_unchanged(name):
    expected = (GOLDEN / f"{name}.txt").read_text(encoding="utf-8")
    game = play_case(name)
    actual = text(name, game)
    assert actual == expected, "playthrough changed (run tests/golden/regenerate.py if intended):\n" + _diff(expected, actual, name)
    # the stored trace is the game's trace, and replays to the same text
    stored = GameTrace.from_json((GOLDEN / f"{name}.json").read_text(encoding="utf-8"))
    assert stored.to_dict() == game.trace.to_dict()
    assert text(name, replay_game(stored.rules, stored)) == expected


def test_golden_cases_cover_presets_table_sizes_and_players():
    cases = CASES.values()
    for who in ("random", "standard"):
        specs = [spec for spec, _, player in cases if player == who]
        for needle in ("classic", "russian", "polish", "players=2", "players=4"):
            assert any(needle in s for s in specs), (who, needle)
    specs = [spec for spec, _, _ in cases]
    for needle in ("blind=on", "golden_kon=on"):
        assert any(needle in s for s in specs), needle


def test_the_standard_classic_game_goes_over_the_barrel():
    """The whole standard game shows the barrel: entered, fallen off, come off."""
    game = play_case("classic_standard_seed1")
    assert game.winner >= 0 and "max_deals" not in CASES["classic_standard_seed1"][0]
    notes = game.notes
    assert any(n.barrel_entered >= 0 for n in notes) and any(n.barrel_falls for n in notes)
    assert any(n.barrel_off >= 0 for n in notes)
