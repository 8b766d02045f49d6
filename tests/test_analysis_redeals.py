"""Redeal frequencies: exact combinatorics against brute force, the pipeline on hand-made
frames, and simulated frequencies against the exact values."""
import dataclasses
import itertools
import math
from fractions import Fraction
from math import comb

import numpy as np
import polars as pl
import pytest
from polars.testing import assert_frame_equal

from thousand.analysis import combinatorics as cb
from thousand.analysis.deals import frame_of, random_deals
from thousand.analysis.redeals import (
    FREQUENCY_COLUMNS, CALL_COLUMNS, exact_table, hand_conditions, redeal_calls,
    redeal_frequencies, talon_conditions,
)
from thousand.cards import card_points, count_rank, parse_card, parse_hand
from thousand.rules import CLASSIC, POLISH, RUSSIAN


# ----------------------------------------------------------------- exact vs brute force
def _vector(cards, copies, n_ranks):
    v = [0] * n_ranks
    for c in cards:
        v[c // copies] += 1  # card c = copies * rank + copy on the small deck
    return tuple(v)


@pytest.mark.parametrize("pred", [
    lambda v: cb.points_of(v) <= 5,
    lambda v: v[0] >= 1,
    lambda v: v[1] >= 2 or cb.points_of(v) >= 20,
])
def test_exact_matches_brute_force_on_a_small_deck(pred):
    # 2 copies of 5 ranks (10 cards), three hands of 3 and a talon of 1: every deal listed.
    copies, n_ranks, size = 2, 5, 3
    deck = range(copies * n_ranks)
    single = [pred(_vector(h, copies, n_ranks)) for h in itertools.combinations(deck, size)]
    assert cb.p_set(pred, size, copies, n_ranks) == Fraction(sum(single), len(single))
    hits = total = 0
    for h0 in itertools.combinations(deck, size):
        rest0 = [c for c in deck if c not in h0]
        for h1 in itertools.combinations(rest0, size):
            rest1 = [c for c in rest0 if c not in h1]
            for h2 in itertools.combinations(rest1, size):
                total += 1
                hits += any(pred(_vector(h, copies, n_ranks)) for h in (h0, h1, h2))
    assert cb.p_any_hand(pred, size, 3, copies, n_ranks) == Fraction(hits, total)


def test_exact_single_hand_matches_enumeration_of_all_seven_card_hands():
    # All 346,104 hands of the real deck, counted through thousand.cards.
    pts = np.zeros(comb(24, 7), dtype=np.int32)
    nines = np.zeros_like(pts)
    for i, hand in enumerate(itertools.combinations(range(24), 7)):
        m = sum(1 << c for c in hand)
        pts[i] = card_points(m)
        nines[i] = count_rank(m, 0)
    assert cb.p_set(lambda v: cb.points_of(v) <= 13, 7) == Fraction(int((pts <= 13).sum()), len(pts))
    assert cb.p_set(lambda v: v[0] >= 3, 7) == Fraction(int((nines >= 3).sum()), len(pts))


def test_exact_known_closed_forms():
    # Four jacks in one hand: C(20,3)/C(24,7); the three hands are disjoint events.
    p1 = Fraction(comb(20, 3), comb(24, 7))
    assert cb.p_set(lambda v: v[1] == 4, 7) == p1
    assert cb.p_any_hand(lambda v: v[1] == 4, 7, 3) == 3 * p1
    # Talon with two or more nines.
    assert cb.p_set(lambda v: v[0] >= 2, 3) == Fraction(comb(4, 2) * 20 + comb(4, 3), comb(24, 3))
    # The marriage point distribution sums to one and has the right mean.
    pmf = cb.marriage_points_pmf(7)
    assert sum(pmf.values()) == 1
    assert sum(k * p for k, p in pmf.items()) == sum(v * cb.p_marriage_in(7) for v in (40, 60, 80, 100))


# ----------------------------------------------------------------- hand-made frames
H = parse_hand
C = parse_card


def test_frequencies_on_a_hand_made_frame():
    # Three deals of real 24-card decks, written out card by card.
    deals = [
        ("KS QS JS 9S 9C 9D JD", "JC JH AS AC AD TS TC", "AH TH KH QH KC QC KD", "QD 9H TD"),
        ("AS TS AC TC AD TD AH", "JS JC JD JH 9S 9C 9D", "KS QS KC QC KD QD KH", "QH 9H TH"),
        ("9S 9C 9D 9H JS QS KS", "AS TS AC TC AD TD AH", "JC JD JH KC QC KD QD", "KH QH TH"),
    ]
    for d in deals:
        assert sum(len(x.split()) for x in d) == 24 and len(set(" ".join(d).split())) == 24
    frame = frame_of({
        "hand0": [H(d[0]) for d in deals], "hand1": [H(d[1]) for d in deals],
        "hand2": [H(d[2]) for d in deals], "talon": [H(d[3]) for d in deals],
        "redeal": [1, 0, 2], "declarer": [-1, 0, 1], "obligation": [False, False, True],
        "handoff_next": [-1, 5, 3], "handoff_other": [-1, 11, 22],
    })
    # Worked out by hand:
    #  deal 0: hand0 = K Q J 9 9 9 J -> 4+3+2+2 = 11 points, 3 nines; hand1 2 jacks;
    #          talon Q 9 10 = 13 points, one nine.
    #  deal 1: hand1 four jacks and three nines (8 points); talon Q 9 10 = 13 points.
    #  deal 2: hand0 four nines, 11 points; hand2 three jacks; talon K Q 10 = 17 points.
    out = redeal_frequencies(frame.lazy(), CLASSIC).collect()
    assert out.columns == FREQUENCY_COLUMNS
    got = out.select("condition", "scope", "count", "n")
    want = pl.DataFrame({
        "condition": ["hand points <= 13"] * 2 + ["hand nines >= 3"] * 2 + ["hand jacks >= 4"] * 2
        + ["any hand condition"] * 2 + ["talon points <= 5", "talon nines >= 2", "talon jacks >= 3",
                                        "any talon condition"],
        "scope": ["hand", "deal"] * 4 + ["talon"] * 4,
        "count": [3, 3, 3, 3, 1, 1, 3, 3, 0, 0, 0, 0],
        "n": [9, 3] * 4 + [3] * 4,
    })
    assert_frame_equal(got, want)
    # The exact column is the combinatorial value, observed = count / n.
    row = out.row(0, named=True)
    assert row["observed"] == pytest.approx(3 / 9)
    assert row["exact"] == pytest.approx(float(cb.p_set(lambda v: cb.points_of(v) <= 13, 7)))
    assert row["ci_low"] < row["observed"] < row["ci_high"]

    # Russian: talon points <= 4, talon redeal only on obligation.
    calls = redeal_calls(frame.lazy(), RUSSIAN).collect()
    assert calls.columns == CALL_COLUMNS
    assert_frame_equal(
        calls.select("kind", "deals", "eligible", "called"),
        pl.DataFrame({"kind": ["hand", "talon"], "deals": [3, 3], "eligible": [3, 0], "called": [1, 1]}))


def test_four_nines_after_the_exchange():
    # Deal: seat 0 declares, takes talon 9H ..., gives away two cards; the next seat (1)
    # receives the 9 he was missing.
    hand0 = "9S 9C 9D AS TS AC TC"
    hand1 = "JS JC JD JH QS QC QD"
    hand2 = "KS KC KD KH AH TH QH"
    talon = "9H AD TD"
    frame = frame_of({
        "hand0": [H(hand0)] * 2, "hand1": [H(hand1)] * 2, "hand2": [H(hand2)] * 2, "talon": [H(talon)] * 2,
        "declarer": [0, 0], "handoff_next": [H("AD").bit_length() - 1, H("9H").bit_length() - 1],
        "handoff_other": [H("TD").bit_length() - 1, H("TD").bit_length() - 1], "redeal": [3, 0],
    })
    # Row 0: the declarer keeps 9H -> four nines; row 1: he gives 9H to seat 1 -> nobody.
    out = redeal_frequencies(frame.lazy(), POLISH).collect()
    assert_frame_equal(
        out.select("condition", "scope", "count", "n"),
        pl.DataFrame({"condition": ["four nines after the exchange"] * 2,
                      "scope": ["hand after exchange", "deal after exchange"],
                      "count": [1, 1], "n": [6, 2]}))
    assert out["exact"].is_null().all()
    calls = redeal_calls(frame.lazy(), POLISH).collect()
    assert calls.select("kind", "eligible", "called").rows() == [("four_nines", 1, 1)]


def test_four_nines_after_the_lay_away_with_two_players(tmp_path):
    # polish:players=2 redealt 3.4% of its deals on four nines, and the report's redeal
    # tables were empty, its chart saying "no redeal conditions enabled" (try-out 12)
    from thousand.simulate import simulate
    rules = dataclasses.replace(POLISH, players=2)
    deals = simulate(6000, rules, seed=3, jobs=1, out=tmp_path / "p2", progress=False)
    called = deals.filter(pl.col("redeal") == 3).select(pl.len()).collect().item()
    calls = redeal_calls(deals, rules).collect()
    four = calls.filter(pl.col("kind") == "four_nines")
    assert called > 50 and four["called"].to_list() == [called] and four["eligible"].item() >= called
    freq = redeal_frequencies(deals, rules).collect().filter(pl.col("condition") == "four nines after the exchange")
    assert freq["scope"].to_list() == ["hand after exchange", "deal after exchange"]
    # every deal redealt on four nines had a hand of four nines after the lay-away
    assert freq.filter(pl.col("scope") == "deal after exchange")["count"].item() >= called


def test_four_player_table_skips_the_dealer():
    rules = dataclasses.replace(CLASSIC, players=4)
    f = random_deals(2000, seed=4, players=4)
    out = redeal_frequencies(f.lazy(), rules).collect()
    hand_n = out.filter(pl.col("scope") == "hand")["n"].unique().to_list()
    assert hand_n == [3 * 2000]


def test_no_conditions_gives_empty_tables():
    rules = dataclasses.replace(POLISH, redeal_four_nines_after_exchange=False)
    f = random_deals(10, seed=1)
    assert redeal_frequencies(f.lazy(), rules).collect().height == 0
    assert redeal_calls(f.lazy(), rules).collect().height == 0


# ----------------------------------------------------------------- simulation vs exact
@pytest.mark.parametrize("rules,players", [(CLASSIC, 3), (RUSSIAN, 3),
                                           (dataclasses.replace(CLASSIC, players=2, redeal_talon_jacks=None), 2)])
def test_simulated_frequencies_agree_with_exact(rules, players):
    n = 120_000
    deals = random_deals(n, seed=2024 + players, players=players)
    out = redeal_frequencies(deals.lazy(), rules).collect()
    assert out.height >= 4
    for row in out.iter_rows(named=True):
        p = row["exact"]
        if p == 0.0:
            assert row["count"] == 0, row
            continue
        # 4 standard errors of the exact binomial: a false alarm about once in 16,000 rows.
        se = math.sqrt(p * (1 - p) / row["n"])
        assert abs(row["observed"] - p) < 4 * se, row
    # Most 95% intervals hold the exact value (each does with probability 0.95).
    assert out["within_ci"].mean() >= 0.5


def test_exact_table_lists_every_enabled_condition():
    t = exact_table(CLASSIC).collect()
    labels = set(t["condition"])
    for c in hand_conditions(CLASSIC) + talon_conditions(CLASSIC):
        assert c.label in labels
    assert "talon points <= 4" in set(exact_table(RUSSIAN).collect()["condition"])


@pytest.mark.parametrize("spec", ["classic", "russian"])
def test_simulator_deals_agree_with_exact(spec, tmp_path):
    # The simulator's own deal rows (redealt deals included) read by the pipeline.
    from thousand.rules import parse_rules_spec
    from thousand.simulate import simulate

    rules = parse_rules_spec(spec)
    lf = simulate(40_000, rules, seed=31, jobs=1, out=tmp_path / spec, progress=False)
    out = redeal_frequencies(lf, rules).collect()
    assert out.height == 12 and out["n"].min() >= 40_000
    for row in out.iter_rows(named=True):
        p = row["exact"]
        se = math.sqrt(p * (1 - p) / row["n"])
        assert abs(row["observed"] - p) < 4 * se, row
    calls = redeal_calls(lf, rules).collect()
    # Every called redeal had a condition that allowed it.
    assert (calls["called"] <= calls["eligible"]).all()


def test_a_blind_forehand_is_not_asked_for_a_hand_redeal():
    # Seat 1 (forehand of dealer 0) holds three nines; in the blind deal he was not asked.
    deal = ("9S 9C 9D AS TS AC TC", "JS JC QS QC QD KS KC", "JD JH KD KH AH TH QH", "9H AD TD")
    assert len(set(" ".join(deal).split())) == 24
    frame = frame_of({
        "hand0": [H(deal[1])] * 2, "hand1": [H(deal[0])] * 2, "hand2": [H(deal[2])] * 2,
        "talon": [H(deal[3])] * 2, "dealer": [0, 0], "blind": [False, True], "declarer": [1, 1],
    })
    rules = dataclasses.replace(CLASSIC, blind=True)
    calls = redeal_calls(frame.lazy(), rules).collect()
    assert calls.filter(pl.col("kind") == "hand")["eligible"].item() == 1
    # The condition itself still occurred in both deals.
    freq = redeal_frequencies(frame.lazy(), rules).collect()
    assert freq.filter((pl.col("condition") == "hand nines >= 3") & (pl.col("scope") == "deal"))["count"].item() == 2


def test_hand_after_exchange_skips_the_sitting_out_dealer():
    # 4 players, dealer 1 sits out (empty hand).  Declarer 0 gives 9H "to the next seat",
    # which is seat 2 (seat 1 is the dealer); seat 2 then holds four nines.
    rules = dataclasses.replace(POLISH, players=4)
    frame = frame_of({
        "hand0": [H("AS TS AC TC AD TD 9H")], "hand1": [0], "hand2": [H("9S 9C 9D JS JC JD JH")],
        "hand3": [H("QS QC QD QH KS KC KD")], "talon": [H("KH AH TH")], "dealer": [1], "declarer": [0],
        "handoff_next": [C("9H")], "handoff_other": [C("TH")],
    }, players=4)
    out = redeal_frequencies(frame.lazy(), rules).collect()
    assert out.select("scope", "count", "n").rows() == [("hand after exchange", 1, 3), ("deal after exchange", 1, 1)]


def test_the_report_marks_exact_values_outside_their_interval():
    # within_ci was only in the CSV: the page showed 2.292% beside [1.93%, 2.29%] unmarked
    from analysis.report import _redeal_blocks

    freq = pl.DataFrame({
        "rules": ["classic", "classic"], "condition": ["hand points <= 13", "hand nines >= 3"],
        "scope": ["deal", "hand"], "count": [211, 70], "n": [10_000, 30_000],
        "observed": [0.0211, 0.00233], "ci_low": [0.0193, 0.0018], "ci_high": [0.02291, 0.0029],
        "exact": [0.02292, 0.0023], "within_ci": [False, True],
    })
    assert set(freq.columns) == set(FREQUENCY_COLUMNS)
    table = next(b.frame for b in _redeal_blocks(freq, pl.DataFrame(), False, None, None) if b.kind == "table")
    assert table["exact"].to_list() == ["2.292% *(outside)*", "0.2300%"]


def test_deals_cut_again_are_counted_with_the_cut_because_their_cards_lean_away_from_nines(tmp_path):
    # cut_nine_penalty: the bottom card (deck[20], the third active hand's last) is never a
    # nine, so the uniform exact values do not hold (hostile try-out 4: 5 of 12 "outside")
    from thousand.analysis.marriages import marriage_tables
    from thousand.analysis.redeals import uniform_deals
    from thousand.rules import parse_rules_spec
    from thousand.simulate import simulate

    rules = parse_rules_spec("classic:cut_nine_penalty=on")
    assert not uniform_deals(rules) and uniform_deals(CLASSIC)
    lf = simulate(60_000, rules, seed=5, jobs=1, out=tmp_path / "cut", progress=False)
    rows = lf.select("dealer", "hand0", "hand1", "hand2").collect()
    # the deals really are not uniform: the third active seat, the dealer, holds fewer
    # nines (6 * 4/23 = 1.04 on average, against 7 * 4/24 = 1.17 in a uniform hand)
    nines = [rows.filter(pl.col("dealer") == s)[f"hand{s}"].map_elements(
        lambda m: count_rank(m, 0), return_dtype=pl.Int64).mean() for s in range(3)]
    assert max(nines) < 1.10 and min(nines) > 0.98, nines
    # the exact values given the cut (the bottom card a non-nine, the rest uniform) hold
    freq = redeal_frequencies(lf, rules).collect()
    uniform = exact_table(CLASSIC).collect()
    assert freq.height == 12 and freq["exact"].is_not_null().all()
    for row, plain in zip(freq.iter_rows(named=True), uniform["exact"]):
        se = math.sqrt(row["exact"] * (1 - row["exact"]) / row["n"])
        assert abs(row["observed"] - row["exact"]) < 4 * se, row
        assert row["exact"] != plain
    nines3 = freq.filter((pl.col("condition") == "hand nines >= 3") & (pl.col("scope") == "hand")).row(0, named=True)
    plain3 = uniform.filter((pl.col("condition") == "hand nines >= 3") & (pl.col("scope") == "hand"))["exact"][0]
    assert nines3["ci_high"] < plain3    # the uniform value is outside: the sample tells the two apart
    assert exact_table(parse_rules_spec("classic:cut_nine_penalty=on,players=2")).collect().filter(
        pl.col("scope") == "talon")["exact"].is_null().all()
    # the marriages too: every exact value of the "all" rows, counted with the cut, holds
    tables = marriage_tables(lf, rules)
    rows = tables["marriages"].filter(pl.col("exact").is_not_null())
    assert rows.height == 9   # held and completed for four suits, and any marriage
    held = tables["marriage_points_held"]
    for row in [*rows.iter_rows(named=True), *held.rename({"observed": "rate"}).iter_rows(named=True)]:
        se = math.sqrt(row["exact"] * (1 - row["exact"]) / row["n"])
        assert abs(row["rate"] - row["exact"]) < 4 * se, row
    assert not exact_table(CLASSIC).collect()["exact"].is_null().any()


@pytest.mark.parametrize("spec", ["classic:cut_nine_penalty=on,players=2", "russian:cut_nine_penalty=on,players=4"])
def test_the_cut_is_counted_at_every_table_size(spec, tmp_path):
    from thousand.rules import parse_rules_spec
    from thousand.simulate import simulate

    rules = parse_rules_spec(spec)
    lf = simulate(60_000, rules, seed=9, jobs=1, out=tmp_path / "cut", progress=False)
    freq = redeal_frequencies(lf, rules).collect().filter(pl.col("exact").is_not_null())
    assert freq.height >= 8
    for row in freq.iter_rows(named=True):
        se = math.sqrt(row["exact"] * (1 - row["exact"]) / row["n"])
        assert abs(row["observed"] - row["exact"]) <= 4 * se, row   # 10 cards never hold 13 points or less


def test_the_pipelines_take_a_hand_made_frame_eager_or_lazy():
    # docs/analysis.md: "a hand-made frame (thousand.analysis.deals.frame_of)" works; it is a
    # DataFrame, and redeal_frequencies and marriage_tables failed on it (hostile try-out 14)
    from thousand.analysis.deals import random_deals
    from thousand.analysis.marriages import marriage_tables
    from thousand.analysis.redeals import redeal_calls, redeal_frequencies
    from thousand.analysis.report import overview
    eager = random_deals(200, seed=3)
    assert isinstance(eager, pl.DataFrame)
    for f in (redeal_frequencies, redeal_calls):
        assert f(eager, CLASSIC).collect().equals(f(eager.lazy(), CLASSIC).collect())
    assert overview(eager, "x").collect().equals(overview(eager.lazy(), "x").collect())
    got, want = marriage_tables(eager, CLASSIC), marriage_tables(eager.lazy(), CLASSIC)
    assert got.keys() == want.keys() and all(got[k].equals(want[k]) for k in got)
