"""Write ``tests/golden/solver_corpus.json``: solved play positions grouped by the cards
left, the values from the reference solver (``thousand.reference.solver``), so that
``tests/test_solver.py`` can hold the kernel's solver to them.

Run from the repository's top: ``.venv/bin/python tests/golden/regenerate_solver.py``
(about a minute), then ``git diff`` the corpus: a change of a value is a change of the
rules or a bug, never noise.
"""
from __future__ import annotations

import json
import random
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from helpers.play_positions import endgame, option_rules, played_deals  # noqa: E402
from thousand.reference import solver as reference  # noqa: E402
from thousand.reference.play import Position  # noqa: E402
from thousand.rules import CLASSIC, Rules  # noqa: E402

CORPUS = HERE / "solver_corpus.json"
PLAY_OPTIONS = ("players", "must_trump", "must_beat", "marriage_first_trick", "ace_marriage",
                "ace_marriage_sets_trump", "last_trick_bonus")


def position_to_json(p: Position, declarer: int, value: int) -> dict:
    """A position as plain JSON: the play options that differ from classic, every field."""
    return {"rules": {k: getattr(p.rules, k) for k in PLAY_OPTIONS if getattr(p.rules, k) != getattr(CLASSIC, k)},
            "hands": list(p.hands), "active": list(p.active), "leader": p.leader, "turn": p.turn, "trump": p.trump,
            "trick": [list(t) for t in p.trick], "trick_index": p.trick_index, "played": p.played,
            "points": list(p.points), "marriages": list(p.marriages), "bonus": list(p.bonus),
            "tricks": list(p.tricks), "set_aside_points": p.set_aside_points, "declarer": declarer, "value": value}


def position_from_json(d: dict) -> tuple[Position, int, int]:
    """The position, the declarer and the value of a corpus entry."""
    import dataclasses
    rules: Rules = dataclasses.replace(CLASSIC, **d["rules"])
    n = rules.players
    p = Position(rules, tuple(d["hands"]), tuple(d["active"]), d["leader"], d["turn"], trump=d["trump"],
                 trick=tuple(tuple(t) for t in d["trick"]), trick_index=d["trick_index"], played=d["played"],
                 points=tuple(d["points"]), marriages=tuple(d["marriages"]), bonus=tuple(d["bonus"]),
                 tricks=tuple(d["tricks"]), voids=(0,) * n, set_aside_points=d["set_aside_points"])
    return p, d["declarer"], d["value"]


def build() -> dict[str, list[dict]]:
    rng = random.Random(20261201)
    groups: dict[str, list[dict]] = {}
    every = [r for players in (2, 3, 4) for r in option_rules(players)]
    for tricks_left in (1, 2, 3, 4):
        for _ in range(40):
            p, d = endgame(rng.choice(every), rng, tricks_left)
            left = sum(bin(h).count("1") for h in p.hands)
            groups.setdefault(str(left), []).append(position_to_json(p, d, reference.solve(p, d)))
    for p, d, _ in played_deals(CLASSIC, 8, seed=13):
        groups.setdefault("24", []).append(position_to_json(p, d, reference.solve(p, d)))
    return dict(sorted(groups.items(), key=lambda kv: int(kv[0])))


if __name__ == "__main__":
    corpus = build()
    CORPUS.write_text(json.dumps(corpus, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {CORPUS}: " + ", ".join(f"{len(v)} with {k} cards left" for k, v in corpus.items()))
