"""The sensible family (cautious, standard, aggressive): parameters, single decisions on
hand-made positions, legality under every preset, and the quality bar of issue 3.

Statistical checks use tolerances from the standard error: the quality bars sit four
standard errors below the edges docs/strategies.md measured (benchmarks/bench_strategies.py,
300,000 deals), so that a strategy half as strong fails them.
"""
from __future__ import annotations

import math
import re
from pathlib import Path

import numpy as np
import pytest

from thousand import _fastdeal as fd
from thousand import kernel
from thousand.cards import parse_card, parse_hand
from thousand.errors import ThousandError
from thousand.reference import Stream
from thousand.rules import CLASSIC, parse_rules_spec
from thousand.strategies import STRATEGIES, KernelPlayer, parse_strategy, resolve_strategies

from helpers.parity import check_deals, compare_reference_rows, reference_deals

FAMILY = ("cautious", "standard", "aggressive")
SUIT = {s: 0x3F << (6 * i) for i, s in enumerate("SCDH")}


def decide(kind: str, spec: str = "standard", **view):
    """One decision of strategy ``spec`` on a hand-made 3-player position."""
    p = parse_strategy(spec)
    base = {"players": 3, "active": [0, 1, 2], "dealer": 2, "forehand": 0, "step": 5}
    base.update(view)
    return getattr(fd, "decide_" + kind)(p.code, list(p.params), base)


def h(text: str) -> int:
    return parse_hand(text)


def c(text: str) -> int:
    return parse_card(text)


# ------------------------------------------------------------------ names and parameters
def test_family_registered_with_kernel_codes_and_parameters():
    for name in FAMILY:
        s = STRATEGIES[name]
        assert s.code == fd.STRATEGY_CODES[name]
        assert s.alias_of is None
        assert set(s.params) == set(STRATEGIES["standard"].params)
        assert len({p.slot for p in s.params.values()}) == len(s.params)
    margin = {n: STRATEGIES[n].params["margin"].default for n in FAMILY}
    assert margin["cautious"] > margin["standard"] > margin["aggressive"]
    raise_m = {n: STRATEGIES[n].params["raise_margin"].default for n in FAMILY}
    assert raise_m["cautious"] > raise_m["standard"] > raise_m["aggressive"]


def test_parameter_specs():
    p = parse_strategy("standard:margin=10,talon=0.5")
    slots = STRATEGIES["standard"].params
    assert p.params[slots["margin"].slot] == 10
    assert p.params[slots["talon"].slot] == 0.5
    assert p.params[slots["raise_margin"].slot] == slots["raise_margin"].default
    codes, vecs = resolve_strategies(["cautious", "standard:margin=0", "aggressive"], 3)
    assert codes[:3].tolist() == [fd.STRATEGY_CODES[n] for n in FAMILY]
    assert vecs[1, slots["margin"].slot] == 0
    with pytest.raises(ThousandError, match="no parameter 'nerve'"):
        parse_strategy("standard:nerve=3")
    with pytest.raises(ThousandError, match="must be a number"):
        parse_strategy("cautious:margin=lots")


def test_default_strategy_is_the_sensible_standard():
    assert resolve_strategies(None, 3)[0][:3].tolist() == [fd.STRATEGY_CODES["standard"]] * 3


# ------------------------------------------------------------------ bidding
STRONG7 = "AH 10H KH QH AD 10D AS"
WEAK7 = "9S JS 9C JC 9D QD 9H"


@pytest.mark.parametrize("name", FAMILY)
def test_strong_hand_bids_the_smallest_raise_and_weak_hand_passes(name):
    assert decide("bid", name, seat=1, hand=h(STRONG7), high=100, min_bid=105, max_bid=220) == 105
    assert decide("bid", name, seat=1, hand=h(WEAK7), high=100, min_bid=105, max_bid=120) == 0


def test_bid_stops_at_estimate_minus_margin():
    hand = h("AS 10S KC QC 9D JD 9H")       # a marriage, an A-10: a middling hand
    bids = {m: decide("bid", f"standard:margin={m}", seat=1, hand=hand, high=100, min_bid=105, max_bid=180)
            for m in (-100, 100)}
    assert bids == {-100: 105, 100: 0}
    # the top of the range never exceeds what the hand is worth
    assert decide("bid", "standard", seat=1, hand=hand, high=250, min_bid=255, max_bid=260) == 0


def test_only_pass_when_nothing_is_legal():
    assert decide("bid", "aggressive", seat=1, hand=h(STRONG7), high=120, min_bid=125, max_bid=120) == 0


# the view's seats pick the estimate tables: 2 active players their own, 4 players (3
# active) the 3-player ones
SIZE_VIEWS = {2: dict(players=2, active=[0, 1], seat=1, forehand=0, dealer=1),
              3: dict(seat=1),
              4: dict(players=4, active=[1, 2, 3], seat=2, forehand=1, dealer=0)}


def bid_estimate_from_tables(players: int, hand: int, talon: float) -> float:
    """The kernel's bid estimate, restated from the generated table file of the size."""
    suffix = "_2" if players == 2 else ""
    text = (Path(__file__).resolve().parents[1] / "src" / f"_strategy_tables{suffix}.pxi").read_text()

    def table(name):
        body = re.search(rf"^{name}{suffix}\[:\] = \[(.*?)\]", text, re.S | re.M).group(1)
        return [float(t) for t in body.replace("\n", " ").split(",")]

    base = float(re.search(rf"^cdef double BASE_BID{suffix} = (\S+)", text, re.M).group(1))
    suit, marriage = table("SUIT_VALUE_BID"), table("MARRIAGE_BID")
    pats = [(hand >> (6 * s)) & 0x3F for s in range(4)]
    held = [(40, 60, 80, 100)[s] for s in range(4) if pats[s] & 0x0C == 0x0C]
    half = sum((40, 60, 80, 100)[s] for s in range(4) if bin(pats[s] & 0x0C).count("1") == 1)
    e = base + sum(suit[p] for p in pats)
    if held:
        e += marriage[0 if hand & 0x820820 else 1] * max(held) + marriage[2] * (sum(held) - max(held))
    e += marriage[3] * half
    points = sum((0, 2, 3, 4, 10, 11)[c % 6] for c in range(24) if hand >> c & 1)
    return e + talon * (120 - points) * (2 / 14 if players == 2 else 3 / 17)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_bids_follow_the_estimate_tables_of_the_table_size(players):
    """standard bids ``min_bid`` exactly while its estimate minus the margin (10)
    reaches it: 10-card hands by the 2-player tables, 7-card hands (3 or 4 players) by
    the 3-player ones."""
    rng = np.random.default_rng(players)
    checked = 0
    for _ in range(600):
        hand = sum(1 << int(x) for x in rng.choice(24, size=10 if players == 2 else 7, replace=False))
        top = bid_estimate_from_tables(players, hand, talon=1.2) - 10
        limit = 5 * math.floor(top / 5)
        if limit < 105 or top - limit < 1e-6:
            continue            # nothing to bid, or too close to call in another summation order
        view = dict(hand=hand, high=limit - 5, max_bid=500, **SIZE_VIEWS[players])
        assert decide("bid", min_bid=limit, **view) == limit, hex(hand)
        assert decide("bid", min_bid=limit + 5, **view) == 0, hex(hand)
        checked += 1
    assert checked > 150, checked


def test_two_player_raise_counts_the_laid_away_points():
    """With 2 players the two laid-away cards' points are the declarer's: twenty more of
    them (two tens instead of two nines) raise the contract by twenty.  Handed to the
    opponents (3 players) they are not his."""
    hand = h("AH 10H KH QH AS 10S KS QS 9D JD")
    view = dict(declarer=1, hand=hand, contract=100, min_bid=100, max_bid=500, can_resign=1,
                resign_cost=100, resign_gift=50)
    laid = {given: decide("raise_or_resign", given=[c(a) for a in given.split()], **view, **SIZE_VIEWS[2])
            for given in ("9C 9S", "10C 10D")}
    assert laid["10C 10D"] == laid["9C 9S"] + 20 > 100, laid
    view["hand"] = h("AH 10H KH QH AS 10S KS QS")
    handed = {given: decide("raise_or_resign", given=[c(a) for a in given.split()], **view, **SIZE_VIEWS[3])
              for given in ("9C 9S", "10C 10D")}
    assert handed["10C 10D"] == handed["9C 9S"], handed


# ------------------------------------------------------------------ redeal and blind
def test_hand_redeal_when_weak_only():
    assert decide("redeal", seat=1, hand=h("9S JS 9C JC 9D JD QH"), redeal_kind=fd.REDEAL_CODES["hand"]) == 1
    # three nines but two aces and a marriage: keep it
    assert decide("redeal", seat=1, hand=h("9S 9C 9D AH KH QH AD"), redeal_kind=fd.REDEAL_CODES["hand"]) == 0


def test_talon_redeal_when_the_contract_looks_lost():
    talon = h("9S 9C JD")
    view = dict(seat=0, declarer=0, talon=talon, redeal_kind=fd.REDEAL_CODES["talon"])
    assert decide("redeal", hand=h("JS QS JC QC 9D QD 9H"), contract=120, **view) == 1
    assert decide("redeal", hand=h(STRONG7), contract=120, **view) == 0


def test_blind_only_when_far_behind_and_allowed_by_the_parameter():
    view = dict(seat=0, hand=0, score=[100, 800, 300, 0])
    assert decide("blind", "standard", **view) == 0
    assert decide("blind", "cautious", **view) == 0
    assert decide("blind", "aggressive", **view) == 1
    assert decide("blind", "aggressive", seat=0, hand=0, score=[500, 800, 300, 0]) == 0


# ------------------------------------------------------------------ hand-off
def test_hand_off_keeps_marriages_and_aces_and_makes_a_void():
    hand = h("AH KH QH AS 10S KD QD 9C JS 9D")
    a, b = decide("hand_off", seat=0, declarer=0, hand=hand)
    assert a != b and (hand >> a) & 1 and (hand >> b) & 1
    kept = {c(x) for x in "AH KH QH AS 10S KD QD".split()}
    assert a not in kept and b not in kept
    assert c("9C") in (a, b)                # the lone club goes: clubs become void


def test_hand_off_keeps_marriages_aces_and_guarded_tens_while_low_cards_are_left():
    cols = kernel.play_deals(np.random.PCG64(8), CLASSIC, "standard", n_deals=3000)
    ok = cols["redeal"] == 0
    decl = cols["declarer"][ok]
    hands = np.stack([cols[f"hand{s}"] for s in range(3)], 1)[ok][np.arange(ok.sum()), decl]
    ten = hands.astype(np.int64) | cols["talon"][ok]
    aces = 0x820820
    checked = 0
    for h10, a, b in zip(ten.tolist(), cols["handoff_next"][ok].tolist(), cols["handoff_other"][ok].tolist()):
        married = (h10 >> 2) & (h10 >> 3) & 0x041041
        marriage_cards = (married << 2) | (married << 3)
        guarded_tens = h10 & (h10 & aces) >> 1
        high = marriage_cards | (h10 & aces) | guarded_tens
        low = h10 & ~high
        # with two low cards or more, none of the high ones goes (with fewer, the play
        # estimate chooses among all pairs: it may, e.g., empty a side suit of A-10
        # to keep five trumps)
        if bin(low).count("1") >= 2:
            checked += 1
            assert not (high >> a) & 1 and not (high >> b) & 1, (hex(h10), a, b)
    assert checked > 2500


# ------------------------------------------------------------------ raise or resign
def test_raise_with_a_clear_surplus_and_keep_otherwise():
    strong = h("AH 10H KH QH AD 10D KD QD")
    got = decide("raise_or_resign", seat=0, declarer=0, hand=strong, contract=100, min_bid=100, max_bid=300,
                 can_resign=1, resign_cost=100, resign_gift=50)
    assert got > 100 and got % 5 == 0 and got <= 300
    middling = h("AS 10S KS 9C JC AD 9D JH")
    assert decide("raise_or_resign", seat=0, declarer=0, hand=middling, contract=100, min_bid=100, max_bid=120,
                  can_resign=1, resign_cost=100, resign_gift=50) == 100


def test_resign_by_expected_score():
    hopeless = h("9S JS 9C JC 9D JD 9H JH")
    view = dict(seat=0, declarer=0, hand=hopeless, contract=120, min_bid=120, max_bid=120, can_resign=1)
    # a free resignation (sixty_two_free) beats losing 120 and the opponents' points
    assert decide("raise_or_resign", resign_cost=0, resign_gift=60, **view) == fd.RESIGN_CODE
    # no resignation allowed: keep the contract
    assert decide("raise_or_resign", **{**view, "can_resign": 0}) == 120
    # a fine hand never resigns
    assert decide("raise_or_resign", **{**view, "hand": h("AH 10H KH QH AD 10D AS 10S")},
                  resign_cost=0, resign_gift=60) >= 120


# ------------------------------------------------------------------ card play
def play(hand: str, legal: str | None = None, **view):
    m = h(hand)
    return decide("play", hand=m, legal=h(legal) if legal else m, **view)


def test_cash_an_ace_on_the_first_lead():
    card, declare = play("AS 9S KH QH 9C JC 9D JD", seat=0, declarer=0, trick_index=0)
    assert (card, declare) == (c("AS"), 0)


def test_declare_a_marriage_by_leading_the_queen():
    hand = "KH QH 9S JS 9C JC 9D"
    card, declare = play(hand, seat=0, declarer=0, trick_index=1, played=h("AS 10S KS"),
                         declarable=h("KH QH"))
    assert (card, declare) == (c("QH"), 1)


def test_defender_gives_points_to_the_partners_sure_trick():
    # declarer 0 led 9S, partner 1 took it with the ace; I am void in spades
    card, _ = play("10C 9C JD 9H JH QD KC", seat=2, declarer=0, trick_index=2,
                   trick_cards=[c("9S"), c("AS")], trick_seats=[0, 1])
    assert card == c("10C")


def test_win_as_cheaply_as_possible_and_duck_cheaply():
    view = dict(seat=2, declarer=0, trick_index=2, trick_seats=[0, 1])
    card, _ = play("KS 10S AS 9D JD QC", legal="KS 10S AS", trick_cards=[c("QS"), c("9S")], **view)
    assert card == c("KS")
    card, _ = play("9S KS 9D JD QC", legal="9S KS", trick_cards=[c("AS"), c("JS")], **view)
    assert card == c("9S")


def test_declarer_avoids_leading_an_ace_into_a_shown_void():
    base = dict(seat=0, declarer=0, trick_index=3, trump=3, played=h("AS 10S KS QS 9H JH"))
    hand = "AC 9C 9D JD QD"
    assert play(hand, **base)[0] == c("AC")
    voids = [0, SUIT["C"], 0, 0]
    assert play(hand, voids=voids, **base)[0] != c("AC")


def test_declarer_draws_trumps_with_a_sure_trump():
    card, _ = play("AH 10H 9S JS 9C", seat=0, declarer=0, trick_index=2, trump=3,
                   played=h("AS 10S KS QS KC QC"))
    assert card == c("10H") or card == c("AH")


# ------------------------------------------------------------------ legality everywhere
@pytest.mark.parametrize("spec", ["classic", "russian", "polish", "classic:players=2,redeal_talon_jacks=none",
                                  "classic:players=4,blind=on", "classic:golden_kon=on,resign=sixty_two_free",
                                  "classic:ace_marriage=200,marriage_first_trick=on,must_beat=on,must_trump=off"])
@pytest.mark.parametrize("name", ["cautious", "aggressive", "standard:margin=-20,raise_margin=0"])
def test_family_decisions_replay_through_the_reference_engine(spec, name, seed):
    """Kernel traces of the family replayed by the reference engine: every decision legal
    (replay_deal raises on an illegal one) and every column identical."""
    check_deals(parse_rules_spec(spec), name, 400, seed=[seed, 5])


@pytest.mark.parametrize("name", ["cautious", "aggressive"])
@pytest.mark.parametrize("spec", ["classic", "russian:players=4", "polish:must_trump=off", "classic:players=2"])
def test_kernel_player_reproduces_the_kernel_for_the_family(name, spec, seed):
    """The single-decision path (KernelPlayer: the reference engine asking the kernel one
    decision at a time, with the voids and resignation terms rebuilt from its view) plays
    exactly like the batch kernel."""
    rules = parse_rules_spec(spec)
    cols = kernel.play_deals(np.random.PCG64([seed, 31]), rules, name, n_deals=120)
    stream = Stream(np.random.PCG64([seed, 31]))
    players = [KernelPlayer(name) for _ in range(rules.players)]
    compare_reference_rows(rules, cols, reference_deals(rules, players, stream, 120), what="KernelPlayer")


# ------------------------------------------------------------------ the quality bar
def mean_se(x: np.ndarray) -> tuple[float, float]:
    x = np.asarray(x, dtype=float)
    return float(x.mean()), float(x.std(ddof=1) / math.sqrt(len(x)))


def played_deals(specs, n: int, seed: int):
    cols = kernel.play_deals(np.random.PCG64(seed), CLASSIC, specs, n_deals=n)
    keep = cols["redeal"] == 0
    scores = np.stack([cols[f"score{s}"] for s in range(3)], 1)[keep].astype(float)
    return cols, keep, scores


# The measured edges of docs/strategies.md ("Quality"): benchmarks/bench_strategies.py and
# the rule-set table, 300,000 deals per arrangement (seed 1), as printed: value and 95%
# half-width.  A test's estimate must lie no more than four standard errors (its own and
# the documented one, combined) below the documented value: one-sided, a false alarm
# about once in 30,000 runs while the strategy is as strong as measured.  Halving a
# strategy's strength halves its edge, which puts the estimate dozens of standard errors
# under the bar (the arithmetic is in each test).
DOCUMENTED = {
    "standard self-play, declarer per deal": (56.6, 0.4),
    "two players, standard self-play, declarer per deal": (101.5, 0.4),
    "standard over random": (118.8, 0.1),
    "standard over greedy": (71.4, 0.2),
    "russian": (71.0, 0.2),
    "polish": (64.1, 0.2),
    "classic:players=2,redeal_talon_jacks=none": (113.2, 0.3),
    "classic:players=4": (71.2, 0.2),
    "classic:bid_cap=none,must_trump=off": (72.6, 0.2),
}


def bar(figure: str, se: float) -> float:
    """The documented value less four combined standard errors."""
    value, half_width = DOCUMENTED[figure]
    return value - 4 * math.hypot(se, half_width / 1.959964)


def test_the_bars_are_the_documented_figures():
    text = (Path(__file__).resolve().parents[1] / "docs" / "strategies.md").read_text(encoding="utf-8")
    for figure, (value, half_width) in DOCUMENTED.items():
        assert f"+{value} ± {half_width}" in text, figure


def test_standard_self_play_make_rate_and_declarer_score():
    """Issue 3's bar: three standard players under classic, the declarer makes 65-80% of
    the played deals (a resignation is not made; two standard errors inside the band), and
    gains what docs/strategies.md measured: +56.6 per deal.  With 60,000 deals the
    standard error is about 0.46, the bar 56.6 - 4 * hypot(0.46, 0.2) = 54.6; half the
    gain (+28.3) would be 57 standard errors under it."""
    cols, keep, scores = played_deals("standard", 60_000, seed=101)
    made, se = mean_se(cols["made"][keep])
    assert 0.65 + 2 * se <= made <= 0.80 - 2 * se, (made, se)
    decl = cols["declarer"][keep]
    m, se = mean_se(scores[np.arange(len(decl)), decl])
    assert m > bar("standard self-play, declarer per deal", se), (m, se)


TWO_PLAYERS = parse_rules_spec("classic:players=2")


def test_two_player_self_play_make_rate_and_declarer_score():
    """The bar with 2 players (their own estimate tables): two standard players under
    classic:players=2, the declarer makes 65-85% of the played deals and gains what
    docs/strategies.md measured (+101.5; the standard error of 60,000 deals is about 0.46,
    the bar 101.5 - 4 * hypot(0.46, 0.2) = 99.5, half the gain 110 standard errors under
    it).  The band's top is wider than with 3 players: with 10 cards and the talon the
    declarer raises more contracts (about 64% vs 45%), and a raise to the estimate minus
    the raise margin is made about 93% of the time at either table size."""
    cols = kernel.play_deals(np.random.PCG64(111), TWO_PLAYERS, "standard", n_deals=60_000)
    keep = cols["redeal"] == 0
    made, se = mean_se(cols["made"][keep])
    assert 0.65 + 2 * se <= made <= 0.85 - 2 * se, (made, se)
    decl = cols["declarer"][keep]
    scores = np.stack([cols[f"score{s}"] for s in range(2)], 1)[keep].astype(float)
    m, se = mean_se(scores[np.arange(len(decl)), decl])
    assert m > bar("two players, standard self-play, declarer per deal", se), (m, se)


@pytest.mark.parametrize("name", FAMILY)
def test_two_player_games_finish(name):
    """Whole 2-player games reach a winner well within max_deals (with the 3-player
    tables the declarers overbid and most games ran to max_deals)."""
    games, _ = kernel.play_games(np.random.PCG64(112), TWO_PLAYERS, name, n_games=300)
    assert (games["winner"] >= 0).all()
    assert games["deals"].max() < TWO_PLAYERS.max_deals / 10
    assert games["deals"].mean() < 30, games["deals"].mean()


@pytest.mark.parametrize("villain", ["random", "greedy"])
def test_standard_beats_random_and_greedy_with_seats_rotated(villain):
    """standard's margin per deal over two random (two greedy) players, seats rotated,
    20,000 deals per arrangement: standard error about 0.24 (0.33), the bars
    118.8 - 4 * hypot(0.24, 0.05) = 117.8 and 71.4 - 4 * hypot(0.33, 0.1) = 70.0; half
    the edges (59.4, 35.7) would be about 240 and 100 standard errors under them."""
    margins = []
    for seat in range(3):
        specs = [villain] * 3
        specs[seat] = "standard"
        _, _, scores = played_deals(specs, 20_000, seed=202)
        margins.append(scores[:, seat] - np.delete(scores, seat, axis=1).mean(axis=1))
    m, se = mean_se(np.concatenate(margins))
    assert m > bar(f"standard over {villain}", se), (villain, m, se)


@pytest.mark.parametrize("spec", ["russian", "polish", "classic:players=2,redeal_talon_jacks=none",
                                  "classic:players=4", "classic:bid_cap=none,must_trump=off"])
def test_standard_beats_greedy_under_other_rules_and_table_sizes(spec):
    """The tables are fitted for classic, but the player keeps its measured edge over the
    baseline elsewhere: seats rotated over every active arrangement, 6,000 deals each.
    The standard error is about 0.61 (1.1 with 2 players), the bar the documented edge
    less about 2.5 (4.5); half an edge (32 to 57 points) would be 50 or more standard
    errors under it."""
    rules = parse_rules_spec(spec)
    n = rules.players
    margins = []
    for seat in range(n):
        specs = ["greedy"] * n
        specs[seat] = "standard"
        cols = kernel.play_deals(np.random.PCG64(303), rules, specs, n_deals=6_000)
        keep = cols["redeal"] == 0
        scores = np.stack([cols[f"score{s}"] for s in range(n)], 1)[keep].astype(float)
        if n == 4:
            # the dealer sits out and scores the talon: compare the hero with the other
            # players of the deals he played in
            dealer = cols["dealer"][keep]
            active = np.ones_like(scores, dtype=bool)
            active[np.arange(len(dealer)), dealer] = False
            rows = active[:, seat]
            others = np.where(active, scores, 0.0).sum(axis=1) - scores[:, seat]
            margins.append(scores[rows, seat] - others[rows] / 2)
        else:
            margins.append(scores[:, seat] - np.delete(scores, seat, axis=1).mean(axis=1))
    m, se = mean_se(np.concatenate(margins))
    assert m > bar(spec, se), (spec, m, se)


@pytest.mark.slow
def test_standard_speed_relative_to_greedy():
    """The kernel's rate with three standard players stays within reach of greedy's
    (CPU time; benchmarks/bench_strategies.py prints both)."""
    import time

    n = 200_000
    engines = {}
    for name in ("standard", "greedy"):
        eng, _ = kernel._engine(np.random.PCG64(1), CLASSIC, name, None)
        engines[name] = (eng, kernel._deal_buffer(n + n // 2 + 16))
    best = {"standard": 0.0, "greedy": 0.0}
    # Alternate the two and keep the best of each, so that whatever else runs on the
    # machine (other tests in parallel) slows both alike.
    for _ in range(5):
        for name, (eng, cols) in engines.items():
            eng.played = 0
            t = time.process_time()
            eng.run_deals(n, cols, len(cols["deal_id"]), None, 0, 0)
            best[name] = max(best[name], n / (time.process_time() - t))
    assert best["standard"] > 0.6 * best["greedy"], best
