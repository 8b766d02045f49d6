"""The open-hand solver: the kernel's (``src/_solver.pxi`` through :mod:`thousand.solver`)
against its plain-Python twin :mod:`thousand.reference.solver`, against itself with parts
of its search switched off, on a solved corpus, query by query, and along played lines.

Positions: endgames with 1-4 tricks to finish, cut from random deals of every table size
(3 players; 4, the dealer sitting out; 2) by random play with random declarations
(``helpers.play_positions``), half of them in the middle of a trick, under every
combination of the play options; and the play starts of deals that the kernel's
``standard`` players bid and played.  The fast suite runs a few thousand endgames; the
slow suite (``-m slow``) 10,080 endgames (35 for each of the 96 option combinations at
each table size), 200 played deals against the reference and 10,000 against the
kernel itself.
"""
from __future__ import annotations

import dataclasses
import json
import random
import threading
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers import hypothesis_budget
from helpers.artifacts import failure
from helpers.play_positions import endgame, option_rules, played_deals, random_deal
from thousand import _fastdeal, solver
from thousand.cards import card_points, parse_hand
from thousand.reference import solver as reference
from thousand.reference.play import Position
from thousand.rules import CLASSIC, POLISH, RUSSIAN

GOLDEN = Path(__file__).parent / "golden" / "solver_corpus.json"
EVERY_RULES = [r for players in (2, 3, 4) for r in option_rules(players)]
# every part of the search that can be switched off or changed, one at a time and all
VARIANTS = [solver.FLAG_NO_TABLE, solver.FLAG_NO_BOUNDS, solver.FLAG_MTD, solver.FLAG_NO_ORDER,
            solver.FLAG_NO_DOMINANCE, solver.FLAG_NO_RELATIVE,
            solver.FLAG_NO_BOUNDS | solver.FLAG_NO_DOMINANCE | solver.FLAG_NO_ORDER | solver.FLAG_NO_RELATIVE]


@pytest.fixture(scope="module")
def ws():
    return solver.Workspace()


def check_endgame(p: Position, declarer: int, ws: solver.Workspace) -> int:
    """Kernel value = reference value; reaches at the value and one above, both engines'
    way.  Returns the value."""
    want = reference.solve(p, declarer)
    got = solver.value(p, declarer, workspace=ws)
    assert got == want, (p, declarer)
    assert solver.reaches(p, declarer, want, workspace=ws)
    assert not solver.reaches(p, declarer, want + 1, workspace=ws)
    return got


# ---------------------------------------------------------------- the reference itself
def test_reference_alpha_beta_equals_plain_minimax():
    """The reference's alpha-beta with its memo gives plain minimax's value (endgames of
    1 and 2 tricks, where minimax over every line is cheap)."""
    rng = random.Random(11)
    for i in range(400):
        rules = EVERY_RULES[i % len(EVERY_RULES)]
        p, d = endgame(rules, rng, 1 + i % 2)
        assert reference.solve(p, d) == reference.minimax(p, d), (p, d)


def test_reference_value_by_hand():
    """Hand-worked: the declarer (seat 0) leads the ace of spades; seat 1 follows with the
    ten, seat 2 with the queen: 24 points; the last trick (9♥, K♥, J♥) goes to seat 1.
    Leading the 9♥ first loses that trick and the ace still wins the last: 24 both ways,
    so 24.  With a 10-point last-trick bonus leading the ace first still gives him 24 and
    leading the 9♥ gives 24 + 10 = 34."""
    hands = (parse_hand("AS 9H"), parse_hand("TS KH"), parse_hand("QS JH"))
    p = Position.start(CLASSIC, hands, (0, 1, 2), 0)._evolve(trick_index=6)
    assert reference.solve(p, 0) == reference.minimax(p, 0) == 24
    assert solver.value(p, 0) == 24
    bonus = Position.start(dataclasses.replace(CLASSIC, last_trick_bonus=10), hands, (0, 1, 2), 0)
    bonus = bonus._evolve(trick_index=6)
    assert reference.solve(bonus, 0) == solver.value(bonus, 0) == 34


# ---------------------------------------------------------------- kernel against reference
@settings(max_examples=hypothesis_budget(400))
@given(rules=st.sampled_from(EVERY_RULES), seed=st.integers(0, 2**32 - 1), tricks_left=st.integers(1, 4))
def test_kernel_equals_reference_on_endgames(rules, seed, tricks_left):
    rng = random.Random(seed)
    for _ in range(5):
        p, d = endgame(rules, rng, tricks_left)
        check_endgame(p, d, WS)


WS = solver.Workspace()


@pytest.mark.long
@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4])
def test_kernel_equals_reference_every_option(players, ws):
    """35 endgames (1-4 tricks to finish, mid-trick or not) for each of the 96 option
    combinations: 3,360 per table size, 10,080 in all; with marriages in hand, trump set
    and unset among them (counted, so that the test cannot pass on a narrow sample)."""
    rng = random.Random(1000 + players)
    n = trump_set = mid = declarable = 0
    for rules in option_rules(players):
        for i in range(35):
            p, d = endgame(rules, rng, 1 + i % 4)
            check_endgame(p, d, ws)
            n += 1
            trump_set += p.trump >= 0
            mid += bool(p.trick)
            declarable += any(declared for _, declared in reference.moves(p))
    assert n == 3360
    assert trump_set > 300 and n - trump_set > 300 and mid > 1000 and declarable > 50


@pytest.mark.long
@pytest.mark.slow
@pytest.mark.parametrize("chunk", range(10))
def test_full_deals_against_reference(chunk, ws):
    """200 deals played by the ``standard`` players (classic, Russian and Polish rules):
    the kernel's exact value v from the first lead; the reference confirms that the
    declarer reaches v and not v + 1 (two zero-window searches pin the value and cost a
    fraction of the reference's full search)."""
    rules = (CLASSIC, RUSSIAN, POLISH)[chunk % 3]
    deals = played_deals(rules, 60, seed=500 + chunk)[:20]
    assert len(deals) == 20
    for k, deal in enumerate(deals):
        p, d, _ = deal
        v = solver.value(p, d, workspace=ws)
        if not reference.reaches(p, d, v) or reference.reaches(p, d, v + 1):
            raise AssertionError(failure(f"the kernel solver values the deal at {v} (declarer {d}); "
                                         "the reference does not agree", rules, deal.trace, f"deal{k}"))


# ---------------------------------------------------------------- kernel against itself
def _full_deals(n: int, seed: int) -> list[tuple[Position, int]]:
    """Random deals of every table size and option combination, from the first lead
    (the declarer's whole hand after the hand-off)."""
    rng = random.Random(seed)
    out = []
    for i in range(n):
        rules = EVERY_RULES[rng.randrange(len(EVERY_RULES))]
        hands, active, declarer, set_aside = random_deal(rules, rng)
        out.append((Position.start(rules, hands[:rules.players], active, declarer, set_aside), declarer))
    return out


def _agree_with_itself(deals, variants) -> None:
    by_rules: dict = {}
    for p, d in deals:
        by_rules.setdefault(p.rules, []).append((p, d))
    for rules, group in by_rules.items():
        ps, ds = [p for p, _ in group], [d for _, d in group]
        base = solver.solve_many(rules, ps, ds, workspace=WS)
        for flags in variants:
            other = solver.solve_many(rules, ps, ds, workspace=WS, flags=flags)
            assert np.array_equal(base, other), (rules, flags)


def test_self_agreement_on_full_deals():
    """Every part of the search off (and MTD(f) on) gives the same values: 3-player and
    4-player deals of every option combination (2-player ones too, without the table
    only in the slow suite: ten tricks without it take seconds)."""
    deals = [(p, d) for p, d in _full_deals(200, 5) if p.rules.players != 2]
    _agree_with_itself(deals[:40], VARIANTS)
    _agree_with_itself(deals, [v for v in VARIANTS if not v & solver.FLAG_NO_TABLE])


@pytest.mark.long
@pytest.mark.slow
def test_self_agreement_on_10000_full_deals():
    """10,000 deals of every table size and option combination: the bounds, the runs and
    the declaration dominance switched off, the relative-rank entries off, and MTD(f),
    give the same values; 500 of them
    (3 and 4 players) also without the table.  (Without the ordering, a search takes ten
    times as long: that variant runs in the fast suite's test above.)"""
    deals = _full_deals(10_000, 6)
    _agree_with_itself(deals, [solver.FLAG_MTD, solver.FLAG_NO_DOMINANCE | solver.FLAG_NO_BOUNDS,
                               solver.FLAG_NO_RELATIVE])
    _agree_with_itself([x for x in deals[:1500] if x[0].rules.players != 2][:500], [solver.FLAG_NO_TABLE])


# ---------------------------------------------------------------- the corpus
def test_golden_corpus():
    """The kernel gives the reference's values (stored by tests/golden/regenerate_solver.py)
    for every corpus position, 1 to 24 cards left; the reference still gives them for
    the small ones."""
    from golden.regenerate_solver import position_from_json
    corpus = json.loads(GOLDEN.read_text(encoding="utf-8"))
    assert {"1", "6", "12", "24"} <= set(corpus)
    n = 0
    for left, entries in corpus.items():
        for entry in entries:
            p, d, want = position_from_json(entry)
            assert sum(bin(h).count("1") for h in p.hands) == int(left)
            assert solver.value(p, d, workspace=WS) == want, (left, entry)
            if int(left) <= 6:
                assert reference.solve(p, d) == want
            n += 1
    assert n >= 150


# ---------------------------------------------------------------- each query
def test_reaches_is_value_at_least_target():
    """reaches(T) is value >= T, at the value, just around it, far from it, and at
    targets already made."""
    rng = random.Random(21)
    for i in range(150):
        p, d = endgame(EVERY_RULES[rng.randrange(len(EVERY_RULES))], rng, 1 + i % 4)
        v = solver.value(p, d, workspace=WS)
        for t in (v - 7, v - 1, v, v + 1, v + 9, 0, p.deal_points(d)):
            assert solver.reaches(p, d, t, workspace=WS) == (v >= t), (p, d, t, v)
            if i < 30:
                assert reference.reaches(p, d, t) == (v >= t)


def test_card_values_equal_reference():
    """Every legal card's value (and every declaration's) equals the reference's, in the
    same keys; the best of them for the side to move is the position's value."""
    rng = random.Random(22)
    declared = 0
    for i in range(200):
        # half of them at a lead, where declarations are moves of their own
        p, d = endgame(EVERY_RULES[rng.randrange(len(EVERY_RULES))], rng, 1 + i % 4, mid_trick=False if i % 2 else None)
        got = solver.card_values(p, d, workspace=WS)
        assert got == reference.card_values(p, d), (p, d)
        best = max(got.values()) if p.turn == d else min(got.values())
        assert best == solver.value(p, d, workspace=WS)
        declared += any(isinstance(k, tuple) for k in got)
    assert declared > 5


def test_card_values_from_the_first_lead():
    """A full deal: each card's value is the value of the position after it."""
    p, d, _ = played_deals(CLASSIC, 3, seed=3)[0]
    got = solver.card_values(p, d, workspace=WS)
    assert set(got) == {c for c in range(24) if p.hands[d] >> c & 1}
    for c, v in got.items():
        assert v == solver.value(p.play(c), d, workspace=WS)


def hand_off_start(rules, rng: random.Random, players: int):
    """A random deal's play start before the hand-off: 3/4 players, one card of each
    defender given back to the declarer (his 10 cards); 2 players, two cards nobody holds
    added to his (his 12)."""
    hands, active, declarer, set_aside = random_deal(rules, rng)
    hands = hands[:players]
    if players == 2:
        extra = [c for c in range(24) if not any(h >> c & 1 for h in hands)][:2]
        hands[declarer] |= (1 << extra[0]) | (1 << extra[1])
    else:
        for s in active:
            if s != declarer:
                c = hands[s].bit_length() - 1
                hands[s] &= ~(1 << c)
                hands[declarer] |= 1 << c
    return hands, active, declarer, set_aside


def entry_generations(ws: solver.Workspace) -> np.ndarray:
    """The generation of every table entry (k1's top byte; the header left out)."""
    return ws.table[16:].reshape(-1, 16)[:, 4:8].view(np.uint32)[:, 0] >> 24


@pytest.mark.parametrize("players", [3, 4, 2])
def test_hand_off_values(players):
    """Each hand-off's value is the value of the play start it gives (the laid-away
    cards' points added with 2 players); every hand-off is there."""
    rng = random.Random(30 + players)
    rules = next(r for r in option_rules(players) if r.must_trump and r.last_trick_bonus == 10)
    hands, active, declarer, set_aside = hand_off_start(rules, rng, players)
    two = players == 2
    others = [s for s in active if s != declarer]
    got = solver.hand_off_values(rules, hands, active, declarer, set_aside, workspace=WS)
    mine = [c for c in range(24) if hands[declarer] >> c & 1]
    assert len(got) == (66 if two else 90)
    nxt = active[(active.index(declarer) + 1) % len(active)]
    rng2 = random.Random(1)
    for (a, b) in rng2.sample(sorted(got), 12):
        assert a in mine and b in mine
        h = list(hands)
        h[declarer] &= ~((1 << a) | (1 << b))
        if two:
            laid = card_points((1 << a) | (1 << b))
        else:
            laid = 0
            h[nxt] |= 1 << a
            h[[s for s in others if s != nxt][0]] |= 1 << b
        p = Position.start(rules, h, active, declarer, set_aside)
        assert got[(a, b)] == solver.value(p, declarer, laid, workspace=WS)


@pytest.mark.parametrize("players", [3, 4, 2])
def test_best_hand_off_is_the_best_of_every_hand_off(players):
    """best_hand_off (zero-window tests against the best so far) finds the best value of
    hand_off_values (every hand-off solved exactly) and the first hand-off that has it,
    over the options that change the play, with fewer nodes in all."""
    rng = random.Random(70 + players)
    rules_list = list(option_rules(players))
    nodes_best = nodes_all = 0
    for _ in range(8):
        rules = rng.choice(rules_list)
        hands, active, declarer, set_aside = hand_off_start(rules, rng, players)
        every = solver.hand_off_values(rules, hands, active, declarer, set_aside, workspace=WS)
        nodes_all += _fastdeal._solver_last_nodes()
        pair, value = solver.best_hand_off(rules, hands, active, declarer, set_aside, workspace=WS)
        nodes_best += _fastdeal._solver_last_nodes()
        best = max(every.values())
        assert value == best, (rules, hands, active, declarer)
        assert pair == next(k for k, v in every.items() if v == best)
    assert nodes_best < nodes_all / 2


def test_a_wrapping_generation_clears_the_whole_table():
    """A single position's search uses the table's first buckets only (docs/kernel.md,
    "The table's size"); when the generation wraps (every 255 searches) the whole table is
    cleared all the same.  Hand-offs under one rule set store entries all over the table;
    the key leaves the rules out, so had a wrap cleared only the first buckets, another
    rule set's hand-offs would read them once that generation came round again."""
    rng = random.Random(44)
    rules = next(r for r in option_rules(3) if r.last_trick_bonus == 0)
    other = dataclasses.replace(rules, last_trick_bonus=10)
    hands, active, declarer, _ = hand_off_start(rules, rng, 3)
    want = solver.hand_off_values(other, hands, active, declarer, workspace=solver.Workspace())
    ws = solver.Workspace()
    generation = ws.table[:4].view(np.uint32)
    generation[0] = 254
    first = solver.hand_off_values(rules, hands, active, declarer, workspace=ws)
    assert generation[0] == 255 and first != want        # the bonus changes values
    used = entry_generations(ws) == 255
    assert used[2 * 4096:].sum() > used[:2 * 4096].sum()  # the hand-offs use the whole table
    (a, b), nxt = min(want), active[(active.index(declarer) + 1) % 3]
    h = list(hands)
    h[declarer] &= ~((1 << a) | (1 << b))
    h[nxt] |= 1 << a
    h[next(s for s in active if s not in (declarer, nxt))] |= 1 << b
    solver.value(Position.start(rules, h, active, declarer), declarer, workspace=ws)
    assert generation[0] == 1                           # generation 256 wrapped to 1
    gens = entry_generations(ws)
    assert (gens[:2 * 4096] == 1).sum() > 0 and not gens[2 * 4096:].any()   # the first buckets
    generation[0] = 254
    assert solver.hand_off_values(other, hands, active, declarer, workspace=ws) == want


def test_relative_rank_entries_are_used_and_keep_the_values():
    """The entries of positions with the same relative ranks (docs/kernel.md, "Relative
    ranks") decide part of the search: on played classic deals the same values with far
    fewer nodes than without them (a third fewer at least; measured: 63% fewer on the
    first 400 deals of bench_solver)."""
    deals = played_deals(CLASSIC, 60, seed=9)
    ps, ds = [p for p, _, _ in deals], [d for _, d, _ in deals]
    with_rel, st_with = solver.solve_many(CLASSIC, ps, ds, workspace=WS, stats=True)
    without, st_without = solver.solve_many(CLASSIC, ps, ds, workspace=WS, stats=True,
                                            flags=solver.FLAG_NO_RELATIVE)
    assert with_rel.tolist() == without.tolist()
    assert st_with.nodes.sum() < 0.67 * st_without.nodes.sum()


def test_solve_many_equals_single_calls_and_runs_in_threads():
    """The batch gives each position's value as a single call does, with its time and
    nodes; two threads solving at once (the GIL released, a workspace each) agree."""
    deals = played_deals(CLASSIC, 40, seed=8)
    ps, ds = [p for p, _, _ in deals], [d for _, d, _ in deals]
    values, stats = solver.solve_many(CLASSIC, ps, ds, stats=True)
    assert values.tolist() == [solver.value(p, d, workspace=WS) for p, d in zip(ps, ds)]
    assert (stats.nanos > 0).all() and (stats.nodes > 0).all()
    reach = solver.solve_many(CLASSIC, ps, ds, targets=list(values))
    assert reach.all()
    assert not solver.solve_many(CLASSIC, ps, ds, targets=list(values + 1)).any()
    rows = np.stack([solver.position_row(p, d) for p, d in zip(ps, ds)])
    results = {}

    def run(k):
        results[k] = solver.solve_many(CLASSIC, rows, None, workspace=solver.Workspace())
    threads = [threading.Thread(target=run, args=(k,)) for k in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert np.array_equal(results[0], values) and np.array_equal(results[1], values)


# ---------------------------------------------------------------- along played lines
@pytest.mark.parametrize("rules", [CLASSIC, RUSSIAN, POLISH], ids=["classic", "russian", "polish"])
def test_values_along_played_lines(rules):
    """Replaying what the standard players did: the value never rises after a
    declarer's card nor falls after a defender's (each side can only lose against
    perfect play), and once the play is over it is what the declarer made."""
    deals = played_deals(rules, 25, seed=77)
    rises = falls = 0
    for k, deal in enumerate(deals):
        p, d, line = deal
        v = solver.value(p, d, workspace=WS)
        for n, (card, declared) in enumerate(line):
            mover = p.turn
            p = p.play(card, bool(declared))
            after = solver.value(p, d, workspace=WS) if not p.over else p.deal_points(d)
            if (after > v) if mover == d else (after < v):
                raise AssertionError(failure(f"card {n + 1} of the play (seat {mover}, declarer {d}) moves the "
                                             f"open-hand value from {v} to {after}", rules, deal.trace, f"deal{k}"))
            if mover == d:
                falls += after < v
            else:
                rises += after > v
            v = after
        if not (p.over and v == p.deal_points(d)):
            raise AssertionError(failure(f"the value at the end, {v}, is not the points taken", rules, deal.trace,
                                         f"deal{k}"))
    assert falls > 0 and rises > 0     # the players do make mistakes: the test can see them


# ---------------------------------------------------------------- bad positions
def _start():
    return played_deals(CLASSIC, 3, seed=3)[0][:2]


@pytest.mark.parametrize("change, message", [
    (lambda p: p._evolve(hands=(p.hands[0] | p.hands[1], p.hands[1], p.hands[2])), "two hands"),
    (lambda p: p._evolve(trump=7), "not a suit"),
    (lambda p: p._evolve(hands=(p.hands[0] & (p.hands[0] - 1),) + p.hands[1:]), "holds"),
    (lambda p: p._evolve(trick_index=8), "over"),
])
def test_bad_positions_are_refused(change, message):
    p, d = _start()
    with pytest.raises(ValueError, match=message):
        solver.value(change(p), d)


def test_bad_figures_and_raw_rows_are_refused_not_answered():
    # each of these gave an answer (a wrong one) or a Python internal error
    p, d = _start()
    rows = np.stack([solver.position_row(p, d)] * 3)
    with pytest.raises(ValueError, match=r"targets: give one per position \(3\), got 0"):
        solver.solve_many(CLASSIC, rows, d, targets=[])          # read as "no targets": all True
    with pytest.raises(ValueError, match="position 1 cannot be solved: its hands, active seats or trick"):
        solver.solve_many(CLASSIC, np.concatenate([rows[:1], np.zeros((1, 17), np.int32)]), None)   # was -30000
    with pytest.raises(ValueError, match=r"declarers: give one per position \(3\), got 2"):
        solver.solve_many(CLASSIC, [p] * 3, [d, d])
    with pytest.raises(ValueError, match="laid_away_points: give a whole number or one per position, got nan"):
        solver.value(p, d, laid_away_points=float("nan"))
    with pytest.raises(ValueError, match="laid_away_points: must be whole numbers between 0 and 10000"):
        solver.card_values(p, d, laid_away_points=2**40)
    with pytest.raises(ValueError, match="targets: must be whole numbers between -10000 and 10000"):
        solver.reaches(p, d, 10**12)
    for points in ((10**9, 0, 0), (-500, 0, 0)):
        with pytest.raises(ValueError, match="the position's points must be whole numbers between 0 and 10000"):
            solver.value(p._evolve(points=points), d)
    assert solver.solve_many(CLASSIC, rows, d).tolist() == [solver.value(p, d)] * 3


def test_bad_declarer_and_illegal_trick_are_refused():
    p, d = _start()
    with pytest.raises(ValueError, match="does not play"):
        solver.value(p, 5)
    # a trick in progress whose second card does not follow suit though it could
    lead = p.hands[p.turn] & -p.hands[p.turn]
    card = lead.bit_length() - 1
    q = p.play(card)
    follower = q.turn
    suit = card // 6
    off = [c for c in range(24) if q.hands[follower] >> c & 1 and c // 6 != suit]
    on = [c for c in range(24) if q.hands[follower] >> c & 1 and c // 6 == suit]
    if on and off:
        bad = q._evolve(trick=q.trick + ((follower, off[0]),), turn=q.active[(q.active.index(follower) + 1) % 3],
                        hands=tuple(h & ~(1 << off[0]) for h in q.hands))
        with pytest.raises(ValueError, match="not a legal play"):
            solver.value(bad, d)


_D, _A, _B = (parse_hand("AH TH KH QH AD 9S JC KS 9D JH"), parse_hand("AS TS QS JS AC KC 9H"),
              parse_hand("TC QC 9C TD KD QD JD"))


@pytest.mark.parametrize("hands, active, kw, needle", [
    ([_D, _A, _B], (0, 0, 2), {}, "3 distinct seats"),
    ([_D, _A], (0, 1, 2), {}, "give 3 hands"),
    ([_D, (_A | parse_hand("AH")) & ~parse_hand("9H"), _B], (0, 1, 2), {}, "a card is in two hands"),
    ([_D, _A | parse_hand("JD"), _B & ~parse_hand("JD")], (0, 1, 2), {}, "seat 1 must hold 7 cards"),
    ([_D, -_A, _B], (0, 1, 2), {}, "seat 1's hand is not a set of cards"),
    ([_D & ~parse_hand("JH"), _A, _B], (0, 1, 2), {}, "must hold 10 cards before the hand-off, not 9"),
    ([_D, _A, _B], (0, 1, 2), {"set_aside_points": 1.5}, "set_aside_points must be whole numbers"),
    ([_D, _A, _B], (0, 1, 2), {"set_aside_points": -5}, "set_aside_points must be whole numbers"),
    ([_D, _A, _B], (0, 1, 2), {"set_aside_points": 2 ** 40}, "set_aside_points must be whole numbers"),
    ([_D, _A, _B], (0, 1, 2), {"set_aside_points": 10}, "with 3 there is none"),
])
@pytest.mark.parametrize("query", [solver.hand_off_values, solver.best_hand_off])
def test_a_bad_hand_off_start_is_a_value_error_naming_it(query, hands, active, kw, needle):
    # they returned 30000 (the search's infinity) or a value of an impossible deal
    # (hostile try-out 5): only the declarer's hand was checked
    with pytest.raises(ValueError, match=needle.replace("(", r"\(")):
        query(CLASSIC, hands, active, 0, workspace=WS, **kw)


def test_a_good_hand_off_start_still_solves():
    assert solver.best_hand_off(CLASSIC, [_D, _A, _B], (0, 1, 2), 0, workspace=WS)[1] == max(
        solver.hand_off_values(CLASSIC, [_D, _A, _B], (0, 1, 2), 0, workspace=WS).values())


@pytest.mark.parametrize("change, needle", [
    (dict(trump=True), "is not a suit"),
    (dict(set_aside_points=50), "with 3 there is none"),
])
def test_position_fields_of_the_wrong_kind_are_refused(change, needle):
    p = Position.start(CLASSIC, [_D & ~parse_hand("9D JH"), _A | parse_hand("9D"), _B | parse_hand("JH")],
                       (0, 1, 2), 0)
    solver.check_position(p, 0)
    with pytest.raises(ValueError, match=needle):
        solver.check_position(p._evolve(**change), 0)


def test_raw_rows_with_points_beyond_int32_sums_are_refused():
    p = Position.start(CLASSIC, [_D & ~parse_hand("9D JH"), _A | parse_hand("9D"), _B | parse_hand("JH")],
                       (0, 1, 2), 0)
    row = solver.position_row(p, 0)[None, :].copy()
    row[0, 14] = 2 ** 31 - 1      # it returned -2147483619
    with pytest.raises(ValueError, match="points so far"):
        solver.solve_many(CLASSIC, row, 0, workspace=WS)
