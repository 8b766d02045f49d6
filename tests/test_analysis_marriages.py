"""Marriage statistics on hand-made deals whose every number is worked out by hand."""
import dataclasses
import itertools
import math

import numpy as np
import polars as pl
import pytest
from polars.testing import assert_frame_equal

from thousand.analysis import combinatorics as cb
from thousand.analysis.deals import frame_of, random_deals
from thousand.analysis.marriages import (
    MARRIAGE_COLUMNS, VALUE_COLUMNS, marriage_tables, marriage_value, seat_rows, with_marriage_sets,
)
from thousand.analysis.stats import Z95
from thousand.cards import parse_card, parse_hand
from thousand.rules import CLASSIC

H = parse_hand
C = parse_card

# Deal A (played): seat 0 declares with KH QH and KS; the talon brings QS.  He gives 9C to
# seat 1 (next) and JD to seat 2.  He declares spades and hearts (140); seat 1 holds the
# clubs marriage but never declares it; seat 2 declares diamonds (80).
DEAL_A = dict(hand0="KH QH KS AS TS AC 9C", hand1="KC QC JC TC 9S JS 9H",
              hand2="KD QD AD TD AH TH JH", talon="QS 9D JD")
# Deal B (played, resigned): seat 1 declares holding the hearts marriage, seat 2 holds
# diamonds; the declarer resigns after handing 9H to seat 2 and JH to seat 0.
DEAL_B = dict(hand0="9S JS QS 9C JC QC 9D", hand1="KH QH AH TH KS AS TS",
              hand2="KC AC TC KD QD AD TD", talon="JD 9H JH")


def _frame():
    for d in (DEAL_A, DEAL_B):
        cards = " ".join(d.values()).split()
        assert len(cards) == 24 and len(set(cards)) == 24
    deals = [DEAL_A, DEAL_B, DEAL_A]  # the third: deal A's cards, redealt by a hand redeal
    return frame_of({
        **{k: [H(d[k]) for d in deals] for k in ("hand0", "hand1", "hand2", "talon")},
        "redeal": [0, 0, 1], "declarer": [0, 1, -1], "resigned": [False, True, False],
        "made": [True, False, False], "contract": [120, 110, 0], "winning_bid": [120, 110, 0],
        "handoff_next": [C("9C"), C("9H"), -1], "handoff_other": [C("JD"), C("JH"), -1],
        "marriages0": [140, 0, 0], "marriages1": [0, 0, 0], "marriages2": [80, 0, 0],
        "points0": [80, 0, 0], "points1": [10, 0, 0], "points2": [30, 0, 0],
        "declarer_points": [220, 0, 0],
    })


def _rows(table, role, measure):
    t = table.filter((pl.col("role") == role) & (pl.col("measure") == measure))
    return {r["suit"]: (r["count"], r["n"]) for r in t.iter_rows(named=True)}


def test_marriage_frequencies_by_role():
    out = marriage_tables(_frame().lazy(), CLASSIC)
    t = out["marriages"]
    assert t.columns == MARRIAGE_COLUMNS
    # Every seat of every dealt deal (3 deals x 3 seats).
    assert _rows(t, "all", "held in dealt hand") == {
        "spades": (0, 9), "clubs": (2, 9), "diamonds": (3, 9), "hearts": (3, 9), "any": (8, 9)}
    # As if each seat took the talon: only deal A's seat 0 (KS + QS), twice.
    assert _rows(t, "all", "completed from talon") == {
        "spades": (2, 9), "clubs": (0, 9), "diamonds": (0, 9), "hearts": (0, 9)}
    # Declarers of the two played deals.
    assert _rows(t, "declarer", "held in dealt hand")["hearts"] == (2, 2)
    assert _rows(t, "declarer", "held with talon") == {
        "spades": (1, 2), "clubs": (0, 2), "diamonds": (0, 2), "hearts": (2, 2)}
    assert _rows(t, "declarer", "completed from talon")["spades"] == (1, 2)
    assert _rows(t, "declarer", "declared") == {
        "spades": (1, 1), "clubs": (0, 0), "diamonds": (0, 0), "hearts": (1, 2)}
    assert _rows(t, "declarer", "lost: resigned")["hearts"] == (1, 2)
    assert _rows(t, "declarer", "lost: handed off")["hearts"] == (0, 2)
    # Defenders: A seats 1 and 2, B seats 0 and 2.
    assert _rows(t, "defender", "held in dealt hand") == {
        "spades": (0, 4), "clubs": (1, 4), "diamonds": (2, 4), "hearts": (0, 4), "any": (3, 4)}
    assert _rows(t, "defender", "declared")["diamonds"] == (1, 2)
    assert _rows(t, "defender", "lost")["diamonds"] == (1, 2)
    assert _rows(t, "defender", "lost: resigned")["diamonds"] == (1, 2)
    assert _rows(t, "defender", "lost: not declared in play")["clubs"] == (1, 1)
    assert "held with talon" not in set(t.filter(pl.col("role") == "defender")["measure"])
    # Rates and exact values.
    row = t.filter((pl.col("role") == "all") & (pl.col("measure") == "held in dealt hand")
                   & (pl.col("suit") == "hearts")).row(0, named=True)
    assert row["rate"] == pytest.approx(3 / 9)
    assert row["exact"] == pytest.approx(float(cb.p_marriage_in(7)))
    assert row["value"] == 100
    assert out["marriage_checks"].row(0) == (9, 0, 0)


def test_marriage_point_distribution_per_deal():
    out = marriage_tables(_frame().lazy(), CLASSIC)["marriage_points"]
    # Only deal A is played out: 220 in all, 140 by the declarer, 80 by the defenders.
    want = pl.DataFrame({
        "points": [80, 140, 220], "deals_all": [0, 0, 1], "share_all": [0.0, 0.0, 1.0],
        "deals_declarer": [0, 1, 0], "share_declarer": [0.0, 1.0, 0.0],
        "deals_defenders": [1, 0, 0], "share_defenders": [1.0, 0.0, 0.0],
    }, schema_overrides={"points": pl.Int32})
    assert_frame_equal(out, want)


def test_declared_set_is_recovered_and_ambiguity_flagged():
    # Seat 0 holds spades, clubs and hearts marriages after the hand-off and declares 100:
    # hearts alone or spades + clubs; the pipeline takes hearts and flags the row.
    frame = frame_of({
        "hand0": [H("KS QS KC QC KH QH 9D")] * 2, "hand1": [H("9S JS TS AS 9C JC TC")] * 2,
        "hand2": [H("AC JD QD KD TD AD 9H")] * 2, "talon": [H("JH TH AH")] * 2,
        "declarer": [0, 0], "handoff_next": [C("JH")] * 2, "handoff_other": [C("TH")] * 2,
        "marriages0": [100, 160], "redeal": [0, 0],
    })
    sets = frame.lazy().pipe(seat_rows, CLASSIC).pipe(with_marriage_sets, CLASSIC).filter(pl.col("seat") == 0).collect()
    assert sets["m_after"].to_list() == [0b1011, 0b1011]
    assert sets["m_declared"].to_list() == [0b1000, 0b1010]  # 160 = clubs + hearts, unique
    assert sets["ambiguous"].to_list() == [True, False]


def test_ace_marriage_counts_as_a_fifth_marriage():
    rules = dataclasses.replace(CLASSIC, ace_marriage=200)
    frame = frame_of({
        "hand0": [H("AS AC AD AH KH QH 9S")], "hand1": [H("JS QS KS TS 9C JC QC")],
        "hand2": [H("KC TC 9D JD QD KD TD")], "talon": [H("9H JH TH")],
        "declarer": [0], "handoff_next": [C("9H")], "handoff_other": [C("JH")], "marriages0": [300],
    })
    out = marriage_tables(frame.lazy(), rules)
    t = out["marriages"]
    assert _rows(t, "declarer", "declared") == {
        "spades": (0, 0), "clubs": (0, 0), "diamonds": (0, 0), "hearts": (1, 1), "aces": (1, 1)}
    assert out["marriage_checks"].row(0) == (3, 0, 0)


def test_marriage_value_compares_holders_with_non_holders():
    sets = pl.LazyFrame({
        "role": ["declarer"] * 4 + ["defender"] * 2,
        "played": [True] * 6, "resigned": [False] * 6, "made": [True, True, True, False, False, False],
        "contract": [120, 140, 100, 100, 0, 0],
        "m_talon": [8, 8, 0, 0, 0, 0], "m_after": [8, 8, 0, 0, 8, 0],
        "deal_points": [100, 140, 60, 80, 50, 20],
        "with_talon": [H("AS TS")] * 6, "after": [H("AS TS")] * 6,  # one stratum: 21 card points
    }, schema_overrides={"with_talon": pl.UInt32, "after": pl.UInt32})
    out = marriage_value(sets, CLASSIC)
    assert out.columns == VALUE_COLUMNS
    row = out.filter((pl.col("suit") == "hearts") & (pl.col("role") == "declarer")
                     & (pl.col("metric") == "deal points")).row(0, named=True)
    se = math.sqrt(np.var([100, 140], ddof=1) / 2 + np.var([60, 80], ddof=1) / 2)
    assert (row["n_with"], row["with_marriage"], row["n_without"], row["without_marriage"]) == (2, 120.0, 2, 70.0)
    assert row["diff"] == 50.0
    assert row["diff_ci_low"] == pytest.approx(50 - Z95 * se)
    made = out.filter((pl.col("suit") == "hearts") & (pl.col("metric") == "made")).row(0, named=True)
    assert (made["with_marriage"], made["without_marriage"], made["diff"]) == (1.0, 0.5, 0.5)
    contract = out.filter((pl.col("suit") == "hearts") & (pl.col("metric") == "contract")).row(0, named=True)
    assert contract["diff"] == 130.0 - 100.0
    # A suit nobody holds has no "with" group: no numbers rather than made-up ones.
    spades = out.filter((pl.col("suit") == "spades") & (pl.col("metric") == "deal points")
                        & (pl.col("role") == "declarer")).row(0, named=True)
    assert spades["n_with"] == 0 and spades["with_marriage"] is None and spades["diff"] is None
    # One stratum with two rows a side: the matched difference is the plain one.
    matched = out.filter((pl.col("suit") == "hearts") & (pl.col("role") == "declarer")
                         & (pl.col("metric") == "deal points, same card points")).row(0, named=True)
    assert matched["diff"] == 50.0 and matched["diff_ci_low"] == pytest.approx(50 - Z95 * se)
    defender = out.filter((pl.col("suit") == "hearts") & (pl.col("role") == "defender")).row(0, named=True)
    assert (defender["with_marriage"], defender["without_marriage"]) == (50.0, 20.0)


def test_held_marriages_agree_with_exact_on_random_deals():
    n = 60_000
    out = marriage_tables(random_deals(n, seed=77).lazy(), CLASSIC)
    held = out["marriages"].filter(pl.col("role") == "all")
    assert held.height == 9
    dist = out["marriage_points_held"].filter(pl.col("exact") > 0)
    for row in list(held.iter_rows(named=True)) + list(dist.iter_rows(named=True)):
        p = row["exact"]
        obs = row.get("rate", row.get("observed"))
        se = math.sqrt(p * (1 - p) / row["n"])
        assert abs(obs - p) < 4 * se, row


def test_any_marriage_counts_the_aces_under_ace_marriage():
    # The "any" row stays with the ace marriage, the four aces counted as a fifth marriage.
    # Its exact value by inclusion-exclusion over the five disjoint card sets (4 pairs, 4 aces).
    rules = dataclasses.replace(CLASSIC, ace_marriage=200)
    sizes = [2, 2, 2, 2, 4]
    p_none = sum(((-1) ** len(sub) * math.comb(24 - sum(sub), 7 - sum(sub)) / math.comb(24, 7)
                  for k in range(len(sizes) + 1) for sub in itertools.combinations(sizes, k) if sum(sub) <= 7))
    out = marriage_tables(random_deals(30_000, seed=78).lazy(), rules)
    held = out["marriages"].filter((pl.col("role") == "all") & (pl.col("measure") == "held in dealt hand"))
    row = held.filter(pl.col("suit") == "any").row(0, named=True)
    assert row["exact"] == pytest.approx(1 - p_none)
    assert row["exact"] > float(cb.p_any_marriage_in(7))
    for row in held.iter_rows(named=True):
        p = row["exact"]
        assert abs(row["rate"] - p) < 4 * math.sqrt(p * (1 - p) / row["n"]), row


def test_declarer_hearts_rows_as_a_frame():
    t = marriage_tables(_frame().lazy(), CLASSIC)["marriages"]
    got = t.filter((pl.col("suit") == "hearts") & (pl.col("role") == "declarer")).select(
        "measure", "count", "n", "rate")
    want = pl.DataFrame({
        "measure": ["held in dealt hand", "held with talon", "completed from talon", "declared", "lost",
                    "lost: resigned", "lost: handed off", "lost: not declared in play"],
        "count": [2, 2, 0, 1, 1, 1, 0, 0],
        "n": [2, 2, 2, 2, 2, 2, 2, 2],
        "rate": [1.0, 1.0, 0.0, 0.5, 0.5, 0.5, 0.0, 0.0],
    })
    assert_frame_equal(got, want)


def test_matched_comparison_weights_strata_by_the_holders():
    # Two card-point strata (21 and 32 points held); within each, holders score 40 and 60
    # more; the holders are split 2 / 2, so the matched difference is 50 while the plain
    # one is the same here by construction -- and both groups' strata variances are 200.
    low, high = H("AS TS"), H("AS TS AC")
    sets = pl.LazyFrame({
        "role": ["declarer"] * 8, "played": [True] * 8, "resigned": [False] * 8, "made": [True] * 8,
        "contract": [100] * 8,
        "m_talon": [8, 8, 8, 8, 0, 0, 0, 0], "m_after": [8, 8, 8, 8, 0, 0, 0, 0],
        "with_talon": [low, low, high, high, low, low, high, high], "after": [low] * 8,
        "deal_points": [100, 120, 150, 170, 60, 80, 90, 110],
    }, schema_overrides={"with_talon": pl.UInt32, "after": pl.UInt32})
    out = marriage_value(sets, CLASSIC)
    row = out.filter((pl.col("suit") == "hearts") & (pl.col("metric") == "deal points, same card points")).row(0, named=True)
    assert (row["n_with"], row["n_without"], row["with_marriage"], row["without_marriage"]) == (4, 4, 135.0, 85.0)
    assert row["diff"] == pytest.approx(50.0)
    se = math.sqrt(2 * 0.25 * (200 / 2 + 200 / 2))
    assert (row["diff_ci_low"], row["diff_ci_high"]) == (pytest.approx(50 - Z95 * se), pytest.approx(50 + Z95 * se))
    # Holders in a stratum with no non-holders drop out of the matched comparison.
    sets2 = sets.with_columns(pl.when(pl.int_range(pl.len()) == 0).then(pl.lit(H("AS TS AC AD"), pl.UInt32))
                              .otherwise(pl.col("with_talon")).alias("with_talon"))
    row2 = marriage_value(sets2, CLASSIC).filter(
        (pl.col("suit") == "hearts") & (pl.col("metric") == "deal points, same card points")).row(0, named=True)
    assert row2["n_with"] == 2 and row2["diff"] == pytest.approx(60.0)


@pytest.mark.parametrize("size, bottom", [(3, True), (4, False), (5, None)])
def test_marriage_sets_after_the_cut_match_every_set_listed(size, bottom):
    # cut_nine_penalty: the bottom card is one of the 20 non-nines, the set comes from the
    # other 23 (with the bottom card when it ends this hand); every set of every bottom card
    import itertools
    from fractions import Fraction

    def held(cards):
        out = sum(1 << s for s in range(4) if {6 * s + 2, 6 * s + 3} <= cards)   # queen and king
        return out | (16 if all(6 * s + 5 in cards for s in range(4)) else 0)

    counts: dict[int, int] = {}
    bottoms = [None] if bottom is None else [c for c in range(24) if c % 6 != 0]
    for f in bottoms:
        rest = [c for c in range(24) if c != f]
        for cards in itertools.combinations(rest, size):
            m = held(set(cards) | ({f} if bottom else set()))
            counts[m] = counts.get(m, 0) + 1
    total = sum(counts.values())
    assert cb.marriage_sets(size, bottom) == {m: Fraction(k, total) for m, k in counts.items()}
