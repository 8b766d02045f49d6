"""The golden playthroughs: seeded games printed readably, stored in ``tests/golden/``.

Each case is a rule set, a seed and the players: short games (``max_deals``) of
``random`` players under every preset and table size, and whole games of the kernel's
``standard`` players (asked one decision at a time through ``KernelPlayer``), so that a
change of the rules *or* of the strategy shows up as a readable diff.  The standard
classic game was picked (seed 1 of the first eleven) because seat 2 gets onto the barrel
three times in it: a bolt penalty takes him under, then a lost contract, then he comes
off by making his contract.

``tests/test_reference_golden.py`` replays and re-prints every case; after an intended
change regenerate the files and read the diff::

    .venv/bin/python tests/golden/regenerate.py
"""
from __future__ import annotations

import sys
from pathlib import Path

from thousand.reference import GameResult, RandomPlayer, Stream
from thousand.reference.game import play_game
from thousand.reference.playthrough import format_game
from thousand.rules import parse_rules_spec
from thousand.strategies import KernelPlayer

__all__ = ["GOLDEN", "CASES", "play_case", "header", "text", "main"]

GOLDEN = Path(__file__).resolve().parents[1] / "golden"

# name -> (rules spec, seed, players)
CASES: dict[str, tuple[str, int, str]] = {
    "classic_seed1": ("classic:max_deals=4", 1, "random"),
    "russian_seed2": ("russian:max_deals=4", 2, "random"),
    "polish_seed3": ("polish:max_deals=4", 3, "random"),
    "two_players_seed4": ("classic:players=2,redeal_talon_jacks=2,max_deals=3", 4, "random"),
    "four_players_seed5": ("classic:players=4,max_deals=4", 5, "random"),
    "blind_golden_cut_seed6": ("classic:blind=on,golden_kon=on,cut_nine_penalty=on,ace_marriage=200,"
                               "marriage_first_trick=on,must_beat=on,last_trick_bonus=10,max_deals=5", 6, "random"),
    "classic_standard_seed1": ("classic", 1, "standard"),
    "russian_standard_seed2": ("russian:max_deals=5", 2, "standard"),
    "polish_standard_seed3": ("polish:max_deals=5", 3, "standard"),
    "two_players_standard_seed3": ("classic:players=2", 3, "standard"),
    "four_players_standard_seed5": ("classic:players=4,max_deals=5", 5, "standard"),
}


def play_case(name: str) -> GameResult:
    spec, seed, who = CASES[name]
    rules = parse_rules_spec(spec)
    stream = Stream(seed)
    if who == "random":
        players = [RandomPlayer(stream) for _ in range(rules.players)]
    else:
        players = [KernelPlayer(who) for _ in range(rules.players)]
    return play_game(rules, players, stream)


def header(name: str) -> str:
    spec, seed, who = CASES[name]
    return f"# golden playthrough {name}: rules {spec!r}, seed {seed}, {who} players\n"


def text(name: str, game: GameResult) -> str:
    """The golden file's text for ``game`` played (or replayed) as case ``name``."""
    return header(name) + format_game(game) + "\n"


def main() -> int:
    for name in CASES:
        game = play_case(name)
        (GOLDEN / f"{name}.txt").write_text(text(name, game), encoding="utf-8")
        (GOLDEN / f"{name}.json").write_text(game.trace.to_json(indent=None) + "\n", encoding="utf-8")
        print(f"wrote {name}.txt and {name}.json ({len(game.deals)} deals)", file=sys.stderr)
    return 0
