"""Every strategy reaches its own branch of the kernel's dispatchers, and no other.

The dispatchers of ``src/_strategies.pxi`` switch on the branch that ``strategy_branch``
gives each code by name: random, greedy, the sensible family (standard, cautious,
aggressive: one player, three parameter sets), and the search player pimc (which bids,
and answers blind and redeal questions, through the sensible branch: ``SHARED``).  Here every registered strategy is asked
the six decisions on probe positions, with one parameter vector and a fresh stream for
all; the answers (and whether the stream moved) are its fingerprint.  Strategies of one
branch must answer alike, different branches differently, and each must land in the
branch written down for it below -- so a new code that fell through to another
strategy's branch would fail, as would a registered strategy missing from ``BRANCH``.
A code without a branch is refused wherever a Seat is made.
"""
from __future__ import annotations

import numpy as np
import pytest

from thousand import _fastdeal
from thousand.cards import parse_hand
from thousand.kernel import decide
from thousand.rules import CLASSIC
from thousand.strategies import STRATEGIES, Strategy, parse_strategy, register_strategy, resolve_strategies

#: The branch each registered strategy plays (docs/strategies.md).
BRANCH = {"random": "random", "greedy": "greedy", "standard": "sensible", "cautious": "sensible",
          "aggressive": "sensible", "pimc": "pimc"}
#: Decisions a branch answers through another branch's code (docs/strategies.md: pimc
#: bids as standard).
SHARED = {"pimc": ("sensible", {"blind", "redeal", "bid"})}
#: The decisions at which a branch draws from its stream (the others draw nothing).
DRAWS = {"random": {"blind", "redeal", "bid", "hand_off", "raise", "play"}, "pimc": {"hand_off", "raise", "play"}}

# one parameter vector for every strategy (standard's, blind when 1 point behind)
PARAMS = parse_strategy("standard:blind_gap=1").params.tolist()
STRONG = parse_hand("AH TH AD TD AS TS AC")                 # no marriage, four aces
TEN = parse_hand("QH KH AS TS AD TD AC TC KS KD")            # a declarer's 10 cards, a marriage
EIGHT = parse_hand("AH TH KH QH AD TD AS TS")
LEADER = parse_hand("KH QH 9S JS 9C JC 9D JD")             # no sure winner, a marriage to declare
TABLE = {"players": 3, "active": [1, 2, 0], "dealer": 0, "forehand": 1, "step": 5}
PROBES = {
    "blind": {**TABLE, "seat": 1, "hand": 0, "score": [500, 0, 0, 0]},
    "redeal": {**TABLE, "seat": 1, "hand": STRONG, "redeal_kind": 1},
    "bid": {**TABLE, "seat": 2, "hand": STRONG, "min_bid": 105, "max_bid": 200, "high": 100, "high_seat": 1},
    "hand_off": {**TABLE, "seat": 1, "hand": TEN, "declarer": 1, "contract": 100},
    "raise": {**TABLE, "seat": 1, "hand": EIGHT, "declarer": 1, "contract": 100, "min_bid": 100,
              "max_bid": 300, "given": [parse_hand("9S").bit_length() - 1, parse_hand("9C").bit_length() - 1]},
    "play": {**TABLE, "seat": 1, "hand": LEADER, "declarer": 1, "contract": 100, "legal": LEADER,
             "declarable": parse_hand("KH QH")},
}


def fingerprint(code: int) -> tuple:
    """The answers of strategy ``code`` to every probe, and whether each drew a number."""
    out = []
    for kind, view in PROBES.items():
        bitgen = np.random.PCG64(7)
        before = bitgen.state["state"]["state"]
        answer = decide(kind, code, PARAMS, view, bitgen)
        out.append((kind, answer if kind != "raise" or answer >= 0 else "resign",
                    bitgen.state["state"]["state"] != before))
    return tuple(out)


def test_every_registered_strategy_has_its_branch_written_down():
    assert set(STRATEGIES) == set(BRANCH), "add the new strategy to BRANCH with the branch it plays"
    for name, strategy in STRATEGIES.items():
        assert _fastdeal.strategy_branch_of(strategy.code) == BRANCH[name], name
    assert set(BRANCH.values()) == set(_fastdeal.STRATEGY_BRANCHES)


def test_every_strategy_answers_from_its_own_branch():
    prints = {name: fingerprint(s.code) for name, s in STRATEGIES.items()}
    by_branch: dict[str, set] = {}
    for name, fp in prints.items():
        by_branch.setdefault(BRANCH[name], set()).add(fp)
    # one branch, one way to answer (the same parameters and stream) ...
    assert all(len(fps) == 1 for fps in by_branch.values()), by_branch
    # ... and each branch answers differently from every other, decision by decision,
    # except where it answers through another branch: then exactly as that one
    branches = {b: next(iter(fps)) for b, fps in by_branch.items()}
    for kind_index, kind in enumerate(PROBES):
        answers = {b: fp[kind_index][1:] for b, fp in branches.items()
                   if kind not in SHARED.get(b, ("", set()))[1]}
        assert len(set(answers.values())) == len(answers), (kind, answers)
        for b, (other, kinds) in SHARED.items():
            if kind in kinds:
                assert branches[b][kind_index] == branches[other][kind_index], (b, kind)
    # only the branches of DRAWS draw numbers, and only where written down
    for b, fp in branches.items():
        assert all(moved == (kind in DRAWS.get(b, set())) for kind, _, moved in fp), (b, fp)


@pytest.mark.parametrize("code", [-1, 6, 99])
def test_a_code_without_a_branch_is_refused(code):
    assert _fastdeal.strategy_branch_of(code) is None
    assert code not in _fastdeal.STRATEGY_CODES.values()
    codes, params = resolve_strategies("standard", 3)
    codes[1] = code
    with pytest.raises(ValueError, match="strategy code"):
        _fastdeal.Engine(np.random.PCG64(1), CLASSIC.to_kernel(), codes, params)
    with pytest.raises(ValueError, match="strategy code"):
        decide("bid", code, PARAMS, PROBES["bid"])
    with pytest.raises(ValueError, match="no branch"):
        register_strategy(Strategy("newcomer", code, "a strategy the kernel does not have"))
    assert "newcomer" not in STRATEGIES


def test_every_kernel_code_has_a_branch():
    for name, code in _fastdeal.STRATEGY_CODES.items():
        assert _fastdeal.strategy_branch_of(code) is not None, name


def test_a_strategys_workspace_is_allocated_for_its_seats(monkeypatch):
    """``Strategy.workspace`` bytes of scratch per seat that plays it: Python allocates
    them, the Engine hands them to the seat's Seat (the rows are the same: no strategy
    of today writes there)."""
    import dataclasses

    from thousand import kernel
    from thousand.strategies import workspaces
    before = kernel.play_deals(np.random.PCG64(3), CLASSIC, ["greedy", "standard", "greedy"], n_deals=50)
    monkeypatch.setitem(STRATEGIES, "greedy", dataclasses.replace(STRATEGIES["greedy"], workspace=64))
    codes = resolve_strategies(["greedy", "standard", "greedy"], 3)[0]
    bufs = workspaces(codes)
    assert [None if b is None else b.nbytes for b in bufs] == [64, None, 64, None]
    after = kernel.play_deals(np.random.PCG64(3), CLASSIC, ["greedy", "standard", "greedy"], n_deals=50)
    assert all(np.array_equal(before[k], after[k]) for k in before)
    with pytest.raises(ValueError):
        _fastdeal.Engine(np.random.PCG64(1), CLASSIC.to_kernel(), codes, resolve_strategies("standard", 3)[1],
                         workspaces=[np.zeros(8, np.uint8)[::2]] * 4)     # not contiguous
