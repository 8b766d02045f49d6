"""The search player ``pimc`` (src/_pimc.pxi, docs/strategies.md "pimc").

* batch == single decision: the reference engine asking ``KernelPlayer("pimc")`` one
  decision at a time (``thousand.kernel.decide``) reproduces the kernel's batch rows, on
  3-, 2- and 4-player tables (the same draws from the same stream, the same worlds);
* determinism: the same seeds give the same rows, and separate decision streams leave
  the chance untouched (the same decks whatever pimc draws);
* the worlds: every world pimc deals is consistent with what the seat knows (hand sizes,
  the played cards, the voids shown, the hand-off, the talon a defender saw), checked
  against the reference engine's own record of the deal; the true deal is always one of
  the worlds counted;
* with every world enumerated (a few tricks left) pimc plays what its objective says
  over all worlds, computed here independently with ``thousand.solver.card_values``;
* hand-off and raise answers are legal, and one hand-off candidate keeps the standard's pair.
"""
from __future__ import annotations

import itertools

import numpy as np
import pytest

from thousand import _fastdeal, kernel
from thousand.reference import Stream, play_deal
from thousand.rules import CLASSIC, parse_rules_spec
from thousand.strategies import KernelPlayer, parse_strategy, workspaces

from helpers.parity import compare_reference_rows, reference_deals

#: a small budget: the tests check behaviour, not strength
SMALL = "pimc:worlds=4,hand_off_pairs=2,hand_off_worlds=2,raise_worlds=4"


@pytest.mark.parametrize("spec", ["classic", "classic:players=2,redeal_talon_jacks=none",
                                  "classic:players=4,must_beat=on"])
def test_kernel_player_reproduces_the_batch(spec, seed):
    """Reference engine + KernelPlayer(pimc), one decide() per decision == kernel batch."""
    rules = parse_rules_spec(spec)
    n = 4
    cols = kernel.play_deals(np.random.PCG64([seed, 41]), rules, SMALL, n_deals=n)
    bitgen = np.random.PCG64([seed, 41])
    name, _, params = SMALL.partition(":")
    given = dict(kv.split("=") for kv in params.split(","))
    players = [KernelPlayer(name, {k: float(v) for k, v in given.items()}, bitgen=bitgen)
               for _ in range(rules.players)]
    compare_reference_rows(rules, cols, reference_deals(rules, players, Stream(bitgen), n), what="KernelPlayer",
                           kernel_traces=lambda: kernel.deal_traces(
                               *kernel.play_deals(np.random.PCG64([seed, 41]), rules, SMALL, n_deals=n, trace=True),
                               rules.players))


def test_same_seeds_same_rows_and_decks_independent_of_pimc(seed):
    specs = [SMALL, "standard", "standard"]
    a = kernel.play_deals(np.random.PCG64([seed, 42]), CLASSIC, specs, n_deals=8, decisions=np.random.PCG64(5))
    b = kernel.play_deals(np.random.PCG64([seed, 42]), CLASSIC, specs, n_deals=8, decisions=np.random.PCG64(5))
    assert all(np.array_equal(a[k], b[k]) for k in a)
    # separate streams: the decks do not depend on what the players draw
    c = kernel.play_deals(np.random.PCG64([seed, 42]), CLASSIC, "standard", n_deals=8, decisions=np.random.PCG64(5))
    cards = [k for k in a if k[:4] == "hand" and k[4:].isdigit() or k.startswith("talon")]
    assert cards and len(a["deal_id"]) == len(c["deal_id"])
    assert all(np.array_equal(a[k], c[k]) for k in cards)


# --------------------------------------------------------------------------- the worlds
class Recorder(KernelPlayer):
    """A pimc KernelPlayer keeping (kernel view, reference view) of every card decision."""

    def __init__(self, spec: str, bitgen, seen: list) -> None:
        p = parse_strategy(spec)
        super().__init__(p.name, p.given or None, bitgen=bitgen)
        self.seen = seen

    def _view(self, view, kind, **extra):
        d = super()._view(view, kind, **extra)
        if kind == "play":
            self.seen.append((d, view))
        return d


def recorded(rules, n: int, seed) -> list:
    """(kernel view, reference view, the deal's row) of every card decision of ``n`` deals."""
    seen: list = []
    bitgen = np.random.PCG64(seed)
    players = [Recorder(SMALL, bitgen, seen) for _ in range(rules.players)]
    out, stream, dealer, played = [], Stream(bitgen), 0, 0
    while played < n:
        res = play_deal(rules, players, stream, dealer)
        out += [(d, v, res.to_row()) for d, v in seen]
        seen.clear()
        if not res.is_redeal:
            played += 1
            dealer = (dealer + 1) % rules.players
    return out


def true_hands(row: dict, rules, active, played: int) -> list[int]:
    """The cards each seat holds at a decision (3 playing): dealt, the talon and the
    hand-off moved, the played cards gone."""
    hands = [row[f"hand{s}"] for s in range(rules.players)] + [0] * (4 - rules.players)
    d = row["declarer"]
    hands[d] |= row["talon"]
    order = list(active)
    i = order.index(d)
    nxt, oth = order[(i + 1) % 3], order[(i + 2) % 3]
    for seat, card in ((nxt, row["handoff_next"]), (oth, row["handoff_other"])):
        hands[d] &= ~(1 << card)
        hands[seat] |= 1 << card
    return [h & ~played for h in hands]


def knowledge_ok(world: list[int], d: dict, view, rules) -> None:
    """Assert that one world is consistent with what the seat knows (the reference view)."""
    from thousand.strategies import _shown_voids
    me = view.seat
    played = view.played
    voids = _shown_voids(view)
    in_trick = {s for s, _ in view.trick}
    others = [s for s in view.active if s != me]
    assert world[me] == view.hand
    seen = view.hand
    for o in others:
        left = view.n_tricks - view.trick_index - (o in in_trick)
        if rules.players != 2 or True:
            assert bin(world[o]).count("1") == left, (o, left)
        assert world[o] & played == 0
        assert world[o] & seen == 0
        assert world[o] & voids[o] == 0, "a void shown is respected"
        seen |= world[o]
    for s in range(4):
        if s not in view.active:
            assert world[s] == 0
    if rules.players != 2:
        assert seen | played == (1 << 24) - 1
        if me == view.declarer and len(view.given) == 2:
            i = view.active.index(me)
            for k, card in enumerate(view.given):
                if not played >> card & 1:
                    assert world[view.active[(i + 1 + k) % 3]] >> card & 1, "the hand-off is placed"
        elif view.talon and me != view.declarer:
            other = next(o for o in others if o != view.declarer)
            assert bin(world[other] & view.talon).count("1") <= 1, "the other defender holds one talon card at most"
    else:
        # 2 players: the rest (set-aside, laid away) is out of play
        assert not (seen & played)


@pytest.mark.parametrize("spec", ["classic", "classic:must_beat=on", "classic:players=4",
                                  "classic:players=2,redeal_talon_jacks=none"])
def test_every_world_is_consistent_with_what_the_seat_knows(spec, seed):
    rules = parse_rules_spec(spec)
    k = rules.to_kernel()
    checked = enumerated_with_truth = 0
    for d, view, row in recorded(rules, 3, [seed, 43]):
        if not (d["legal"] & (d["legal"] - 1)):
            continue
        total, enumerated, worlds = _fastdeal._pimc_worlds(d, k, 64, seed=7)
        assert total > 0 and worlds
        assert len(worlds) == (total if enumerated else 64)
        for hands, set_aside, laid in worlds:
            knowledge_ok(hands, d, view, rules)
            checked += 1
        if enumerated:
            assert len({tuple(h) for h, _, _ in worlds}) == len(worlds), "enumerated worlds are distinct"
            if rules.players == 3:
                truth = true_hands(row, rules, view.active, view.played)
                assert truth in [h for h, _, _ in worlds], "the true deal is one of the worlds"
                enumerated_with_truth += 1
    assert checked > 100
    if rules.players == 3:
        assert enumerated_with_truth > 3


def test_the_start_of_play_worlds_place_the_hand_off():
    """The declarer's worlds before the hand-off deal the 14 unseen cards 7 and 7; after
    it, each given card is with the seat it went to."""
    from thousand.cards import parse_hand
    k = CLASSIC.to_kernel()
    hand10 = parse_hand("AH TH KH QH AD TD AS TS 9C JC")
    view = {"players": 3, "active": [1, 2, 0], "seat": 1, "declarer": 1, "contract": 120, "hand": hand10}
    total, enumerated, worlds = _fastdeal._pimc_worlds(view, k, 32, seed=3, start=True, handed_off=False)
    assert total == 3432 and not enumerated       # C(14, 7)
    for hands, _, _ in worlds:
        assert [bin(h).count("1") for h in hands] == [7, 10, 7, 0] and hands[1] == hand10
        assert hands[0] | hands[1] | hands[2] == (1 << 24) - 1
    nine, jack = parse_hand("9C").bit_length() - 1, parse_hand("JC").bit_length() - 1
    view8 = dict(view, hand=hand10 & ~parse_hand("9C JC"), given=[nine, jack])
    total, _, worlds = _fastdeal._pimc_worlds(view8, k, 32, seed=3, start=True)
    assert total == 3432                             # 9C and JC placed: C(14, 7) again
    for hands, _, _ in worlds:
        assert hands[2] >> nine & 1 and hands[0] >> jack & 1     # 9C to seat 2 (after 1), JC to seat 0
        assert [bin(h).count("1") for h in hands] == [8, 8, 8, 0]


# --------------------------------------------------------------------------- the objective, all worlds known
def objective_tally(d: dict, rules, worlds) -> tuple[list[int], np.ndarray, np.ndarray, np.ndarray]:
    """Every move's tally over ``worlds`` computed with the solver's Python entry (every
    move's exact value per world), independently of src/_pimc.pxi's accumulation: the
    moves (card, +24 declared), the worlds where the contract is made after each, the
    declarer's future points summed, and his deal points summed (laid-away ones included)."""
    from thousand import solver
    ws = solver.Workspace()
    decl = d["declarer"]
    trick = list(d.get("trick_cards", []))
    made = d["points"][decl] + d["marriage_points"][decl]
    makes = np.zeros(48, np.int64)
    sums = np.zeros(48, np.int64)
    totals = np.zeros(48, np.int64)
    seen = np.zeros(48, bool)
    for hands, set_aside, laid in worlds:
        row = np.full(17, -1, np.int32)
        row[0:4] = hands
        row[4:4 + len(d["active"])] = d["active"]
        row[7] = decl
        row[8] = d["trick_seats"][0] if trick else d["seat"]
        row[9] = len(trick)
        row[10:10 + len(trick)] = trick
        row[13] = d["trump"]
        row[14] = made
        row[15] = set_aside
        row[16] = d["trick_index"]
        out = np.empty(48, np.int32)
        assert _fastdeal._solve_cards(rules.to_kernel(), row, ws.table, out) >= 0
        for m in np.flatnonzero(out >= 0):
            makes[m] += out[m] + laid >= d["contract"]
            sums[m] += out[m] - made
            totals[m] += out[m] + laid
            seen[m] = True
    return [m for m in range(48) if seen[m]], makes, sums, totals


def objective_choice(d: dict, rules, worlds) -> tuple[int, int]:
    """The move pimc's objective picks over ``worlds`` (:func:`objective_tally`)."""
    moves, makes, sums, _ = objective_tally(d, rules, worlds)
    sign = 1 if d["seat"] == d["declarer"] else -1
    best = max(moves, key=lambda m: (sign * makes[m], sign * sums[m], -m))
    return (best - 24, 1) if best >= 24 else (best, 0)


@pytest.mark.parametrize("spec", ["classic", "classic:players=2,redeal_talon_jacks=none"])
def test_with_every_world_enumerated_pimc_plays_its_objectives_best_card(spec, seed):
    """A few tricks left: the worlds are few, pimc enumerates them and its card is the one
    its objective picks over all of them (the solver's best card when the world is one).
    Each side's budget is its own parameter: the declarer enumerates with ``worlds=64``
    while ``defence_worlds=1``, a defender with ``defence_worlds=64`` while ``worlds=1``
    (one world would not find the objective's card where the worlds disagree)."""
    rules = parse_rules_spec(spec)
    k = rules.to_kernel()
    code = parse_strategy("pimc").code
    by_side = {True: parse_strategy("pimc:worlds=64,defence_worlds=1").params,
               False: parse_strategy("pimc:worlds=1,defence_worlds=64").params}
    tested = unique = 0
    for d, view, row in recorded(rules, 6, [seed, 44]):
        if not (d["legal"] & (d["legal"] - 1)) or d["trick_index"] < rules_last(rules) - 3:
            continue
        total, enumerated, worlds = _fastdeal._pimc_worlds(d, k, 64)
        if not enumerated or (rules.players == 2 and d["seat"] != d["declarer"]):
            continue        # (a 2-player defender's laid-away split is drawn: not enumerable)
        got = kernel.decide("play", code, by_side[d["seat"] == d["declarer"]], d, np.random.PCG64(1), rules)
        assert tuple(got) == objective_choice(d, rules, worlds), d
        tested += 1
        unique += total == 1
    assert tested >= 10


def test_the_tally_a_hint_shows_is_what_the_objective_counts(seed):
    """``pimc_tally`` of a play (the figures ``hint`` gives at the table) over every world of a
    position: each legal move's made count and deal points equal the solver's, move by
    move, and its first best is the card ``decide`` plays with the same stream."""
    rules = parse_rules_spec("classic")
    k = rules.to_kernel()
    strategy = parse_strategy("pimc:worlds=64,defence_worlds=64")
    work = workspaces([strategy.code])[0]
    tested = 0
    for d, view, row in recorded(rules, 4, [seed, 46]):
        if not (d["legal"] & (d["legal"] - 1)) or d["trick_index"] < 4:
            continue
        total, enumerated, worlds = _fastdeal._pimc_worlds(d, k, 64)
        if not enumerated:
            continue
        n, layouts, rows = _fastdeal.pimc_tally("play", strategy.code, strategy.params, d, np.random.PCG64(1), k, work)
        assert n == layouts == total
        moves, makes, _, totals = objective_tally(d, rules, worlds)
        assert [c + 24 * dec for c, dec, _, _ in rows] == moves
        assert [(m, p) for _, _, m, p in rows] == [(makes[m], totals[m]) for m in moves], d
        sign = 1 if d["seat"] == d["declarer"] else -1
        first = max(rows, key=lambda r: (sign * r[2], sign * r[3], -(r[0] + 24 * r[1])))
        got = kernel.decide("play", strategy.code, strategy.params, d, np.random.PCG64(1), rules, work)
        assert (first[0], int(first[1])) == tuple(got)
        tested += 1
    assert tested >= 10
    forced = next(d for d, _, _ in recorded(rules, 1, [seed, 47]) if not d["legal"] & (d["legal"] - 1))
    assert _fastdeal.pimc_tally("play", strategy.code, strategy.params, forced, None, k, work) is None
    with pytest.raises(ValueError, match="not pimc"):
        _fastdeal.pimc_tally("play", parse_strategy("standard").code, [], forced, None, k, work)
    with pytest.raises(ValueError, match="not 'bid'"):
        _fastdeal.pimc_tally("bid", strategy.code, strategy.params, forced, None, k, work)


@pytest.mark.parametrize("spec", ["classic", "classic:players=2"])
def test_the_raise_tally_is_the_solvers_value_of_each_world(spec):
    """``pimc_tally`` of a raise (the points ``hint`` sums up at the contract question):
    the declarer's deal points in each of the worlds its answer is drawn from (the same
    stream's first word seeds them), each the solver's value of that world's play start."""
    from thousand.cards import parse_card, parse_hand
    from thousand.solver import Workspace
    rules = parse_rules_spec(spec)
    k = rules.to_kernel()
    two = rules.players == 2
    hand = parse_hand("QH KH AS TS AD TD AC 9C JS KD" + (" 9H JH" if two else ""))
    given = [parse_card("9C"), parse_card("JS")]
    view = {"players": rules.players, "active": [1, 0] if two else [1, 2, 0], "seat": 1, "declarer": 1,
            "contract": 100, "hand": hand & ~(1 << given[0]) & ~(1 << given[1]), "given": given,
            "min_bid": 100, "max_bid": 300, "can_resign": 1, "resign_cost": 100, "resign_gift": 50}
    p = parse_strategy("pimc:raise_worlds=12")
    work = workspaces([p.code])[0]
    n, layouts, points = _fastdeal.pimc_tally("raise", p.code, p.params, view, np.random.PCG64(3), k, work)
    total, _, worlds = _fastdeal._pimc_worlds(view, k, 12, seed=int(np.random.PCG64(3).random_raw()), start=True)
    assert n == len(points) == len(worlds) == 12 and layouts == total > 12
    ws = Workspace()
    for got, (hands, set_aside, laid) in zip(points, worlds):
        row = np.full(17, -1, np.int32)
        row[0:4] = hands
        row[4:4 + len(view["active"])] = view["active"]
        row[7] = row[8] = 1
        row[9], row[13], row[14], row[15], row[16] = 0, -1, 0, set_aside, 0
        out = np.empty(1, np.int32)
        empty = np.empty(0, np.int32)
        _fastdeal._solve_batch(k, row[None, :], ws.table, empty, out, np.empty(0, np.int64), np.empty(0, np.int64))
        assert got == out[0] + laid
    assert len(set(points)) > 1     # the worlds differ: a copied first value would fail


def test_each_side_searches_with_its_own_worlds_parameter(seed):
    """``worlds`` is the declarer's budget and ``defence_worlds`` a defender's: with its
    own parameter at 64 a seat enumerates every world and plays its objective's card in
    every position; with only the other side's parameter at 64 (its own at 1) it plays
    from one sampled world and misses that card somewhere (were the parameters crossed or
    shared, one of the two would fail)."""
    rules = parse_rules_spec("classic")
    k = rules.to_kernel()
    code = parse_strategy("pimc").code
    own = {True: parse_strategy("pimc:worlds=64,defence_worlds=1").params,
           False: parse_strategy("pimc:worlds=1,defence_worlds=64").params}
    other = {True: own[False], False: own[True]}
    tested = {True: 0, False: 0}
    missed = {True: 0, False: 0}
    for d, view, row in recorded(rules, 40, [seed, 45]):
        if not (d["legal"] & (d["legal"] - 1)) or d["trick_index"] < 4:
            continue
        total, enumerated, worlds = _fastdeal._pimc_worlds(d, k, 64)
        if not enumerated or total < 2:
            continue
        side = d["seat"] == d["declarer"]
        best = objective_choice(d, rules, worlds)
        assert tuple(kernel.decide("play", code, own[side], d, np.random.PCG64(1), rules)) == best, d
        missed[side] += tuple(kernel.decide("play", code, other[side], d, np.random.PCG64(1), rules)) != best
        tested[side] += 1
    assert min(tested.values()) >= 20, tested
    assert missed[True] >= 1 and missed[False] >= 1, (missed, tested)


def rules_last(rules) -> int:
    return 10 if rules.players == 2 else 8


def test_hand_off_and_raise_answers_are_legal_and_one_candidate_keeps_the_standard_pair():
    from thousand.cards import parse_hand
    hand = parse_hand("QH KH AS TS AD TD AC TC KS KD")
    view = {"players": 3, "active": [1, 2, 0], "seat": 1, "declarer": 1, "contract": 100, "hand": hand}
    std = kernel.decide("hand_off", parse_strategy("standard").code, parse_strategy("standard").params, view)
    p = parse_strategy("pimc:hand_off_pairs=1,hand_off_worlds=3")
    a, b = kernel.decide("hand_off", p.code, p.params, view, np.random.PCG64(2))
    assert {a, b} == set(std) and a != b
    p = parse_strategy("pimc:hand_off_worlds=3")
    a, b = kernel.decide("hand_off", p.code, p.params, view, np.random.PCG64(2))
    assert a != b and hand >> a & 1 and hand >> b & 1
    kept = hand & ~(1 << a) & ~(1 << b)
    raise_view = dict(view, hand=kept, given=[a, b], min_bid=100, max_bid=300, can_resign=1,
                      resign_cost=100, resign_gift=50)
    p = parse_strategy("pimc:raise_worlds=6")
    got = kernel.decide("raise", p.code, p.params, raise_view, np.random.PCG64(2))
    assert got == -1 or (100 <= got <= 300 and got % 5 == 0)
