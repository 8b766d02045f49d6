"""Write the golden playthroughs: a few seeded games under several presets, as text and trace.

Run after an intended change of the engine or the printer, then read the diff:

    .venv/bin/python tests/golden/regenerate.py

``tests/test_reference_golden.py`` replays and re-prints each case and diffs it against
these files.  Each case is a short game (``max_deals``) played by random players.
"""
from __future__ import annotations

import sys
from pathlib import Path

from thousand.reference import RandomPlayer, Stream
from thousand.reference.game import play_game
from thousand.reference.playthrough import format_game
from thousand.rules import parse_rules_spec

HERE = Path(__file__).resolve().parent

# name -> (rules spec, seed)
CASES: dict[str, tuple[str, int]] = {
    "classic_seed1": ("classic:max_deals=4", 1),
    "russian_seed2": ("russian:max_deals=4", 2),
    "polish_seed3": ("polish:max_deals=4", 3),
    "two_players_seed4": ("classic:players=2,redeal_talon_jacks=2,max_deals=3", 4),
    "four_players_seed5": ("classic:players=4,max_deals=4", 5),
    "blind_golden_cut_seed6": ("classic:blind=on,golden_kon=on,cut_nine_penalty=on,ace_marriage=200,"
                               "marriage_first_trick=on,must_beat=on,last_trick_bonus=10,max_deals=5", 6),
}


def play_case(name: str):
    spec, seed = CASES[name]
    rules = parse_rules_spec(spec)
    stream = Stream(seed)
    return play_game(rules, [RandomPlayer(stream) for _ in range(rules.players)], stream)


def header(name: str) -> str:
    spec, seed = CASES[name]
    return f"# golden playthrough {name}: rules {spec!r}, seed {seed}, random players\n"


def main() -> int:
    for name in CASES:
        game = play_case(name)
        (HERE / f"{name}.txt").write_text(header(name) + format_game(game) + "\n", encoding="utf-8")
        (HERE / f"{name}.json").write_text(game.trace.to_json(indent=None) + "\n", encoding="utf-8")
        print(f"wrote {name}.txt and {name}.json ({len(game.deals)} deals)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
