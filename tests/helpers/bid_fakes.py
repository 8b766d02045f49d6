"""A stand-in for the kernel's forced-declarer mode, for the bid and threshold tests
(the ``fake_kernel`` fixture of ``conftest.py`` installs it).

It deals the 17 unseen cards like the kernel must (uniform completions, or all of them)
and scores each completion by a rule simple enough to count by hand: the declarer's
points are the card points of his 7 cards plus the talon, plus the marriages among
those ten cards.  Exact probabilities under it come from the 680 talons alone (each
talon has C(14, 7) = 3432 completions), so tests can check the pipeline's exact mode
against an independent count.
"""
from __future__ import annotations

import itertools
import json
from fractions import Fraction
from types import SimpleNamespace

import numpy as np

from thousand import cli
from thousand.cards import FULL_DECK, card_points, cards_of, marriage_points

TALON_MULTIPLICITY = 3432  # C(14, 7): ways to split the other 14 cards between the opponents


def fake_points(hand: int, talon: int) -> int:
    ten = hand | talon
    return card_points(ten) + marriage_points(ten)


def all_talons(hand: int) -> list[int]:
    unseen = cards_of(FULL_DECK & ~hand)
    return [sum(1 << c for c in t) for t in itertools.combinations(unseen, 3)]


def exact_strategy_ev(hand: int, contract: int, resign_cost: int) -> Fraction:
    """Exact EV of following :func:`fake_decision` at ``contract``, counted over talons."""
    talons = all_talons(hand)
    total = Fraction(0)
    for t in talons:
        p = fake_points(hand, t)
        d = int(fake_decision(np.array([p]), contract)[0])
        total += resign_cost if d < 0 else (d if p >= d else -d)
    return total / len(talons)


def exact_p_make(hand: int, bid: int) -> Fraction:
    """P(fake points >= bid), counted over talons (independent of the pipeline)."""
    talons = all_talons(hand)
    good = sum(1 for t in talons if fake_points(hand, t) >= bid)
    return Fraction(good * TALON_MULTIPLICITY, len(talons) * TALON_MULTIPLICITY)


class FakeKernel:
    """Callable with the signature of ``thousand.kernel.play_forced_declarer``, answering with
    the attributes of its ``ForcedResult`` that the bid analysis reads; records its calls."""

    def __init__(self) -> None:
        self.calls: list[dict] = []

    def __call__(self, bitgen, rules, strategies=None, *, hand, role, params=None, n_samples=100_000, exact=False,
                 contract=100):
        self.calls.append(dict(rules=rules, strategies=strategies, hand=hand, role=role,
                               n_samples=n_samples, exact=exact, contract=contract))
        talons = np.array(all_talons(hand), dtype=np.uint32)
        pts = np.array([fake_points(hand, int(t)) for t in talons], dtype=np.int16)
        if exact:
            # Every completion: each talon once per split of the remaining 14 cards.
            idx = np.repeat(np.arange(len(talons)), TALON_MULTIPLICITY)
        else:
            idx = np.random.Generator(bitgen).integers(0, len(talons), n_samples)
        decision = fake_decision(pts, contract)
        # No bolts under the stand-in's scoring: the declarer's ten cards always score.
        return SimpleNamespace(talon=talons[idx], declarer_points=pts[idx], decision=decision[idx],
                               declarer_bolt=np.zeros(len(idx), dtype=np.int8))


def fake_decision(points: np.ndarray, contract: int) -> np.ndarray:
    """The stand-in strategy's answer: resign when 20 or more short, raise by 10 when 30 over."""
    return np.where(points < contract - 20, -1, np.where(points >= contract + 30, contract + 10, contract))


def bid_json(capsys, *args: str) -> dict:
    """``thousand bid ARGS --json`` in-process: exit 0 and exactly one JSON object."""
    rc = cli.main(["bid", *args, "--json"])
    out = capsys.readouterr().out
    assert rc == 0
    lines = out.strip().splitlines()
    assert len(lines) == 1, "--json prints exactly one object"
    return json.loads(lines[0])
