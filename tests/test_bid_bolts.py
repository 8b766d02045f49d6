"""Bolts in the values of ``thousand bid``, and the recommendation it leads with.

A deal that gives a player a bolt (no trick, or no points, as ``bolt_when`` says) costs him
``bolt_penalty / 3`` on average (every third bolt pays the penalty).  The kernel reports
the bolts of the passing seat and of the forced declarer; the bid values subtract their
cost: passing, playing out, the talon-informed choice, the strategy's own answer.
"""
from __future__ import annotations

import dataclasses
import json

import numpy as np
import polars as pl
import pytest

from thousand import cli, kernel
from thousand.analysis import bids as B
from thousand.cards import parse_hand
from thousand.rules import CLASSIC, POLISH, RUSSIAN

WEAK = parse_hand("9S KS 9C JC 9D QD JH", n=7)
STRONG = parse_hand("AH TH KH QH AD 9S JC", n=7)
NO_TALON_REDEALS = dataclasses.replace(CLASSIC, redeal_talon_points_max=None, redeal_talon_nines=None,
                                       redeal_talon_jacks=None)


def test_bolt_cost_is_a_third_of_the_penalty():
    assert B.bolt_cost(CLASSIC) == 40.0
    assert B.bolt_cost(dataclasses.replace(CLASSIC, bolt_penalty=150)) == 50.0
    assert B.bolt_cost(dataclasses.replace(CLASSIC, bolts="off")) == 0.0


# ------------------------------------------------------------------ the kernel's bolts
@pytest.mark.parametrize("role", ["forehand", "rear"])
def test_passing_seat_bolts_follow_the_rule(role):
    # Russian: bolt_when = zero_points and defenders' points are not rounded, so a defender
    # has a bolt exactly when he scores 0 (a resignation scores +60 and gives none).
    res = kernel.play_forced_pass(np.random.PCG64(3), RUSSIAN, hand=WEAK, role=role, n_samples=20_000)
    defending = res.declarer != res.seat
    assert res.bolt.dtype == np.int8 and set(np.unique(res.bolt)) <= {0, 1}
    assert np.array_equal(res.bolt[defending] == 1, res.score[defending] == 0)
    assert res.bolt[defending].mean() > 0.3          # this hand wins no trick in most deals
    # Classic counts no_tricks: a defender without a trick scores 0 (the converse fails only
    # for a trick of nines, worth 0); with bolts off, nobody gets one.
    res = kernel.play_forced_pass(np.random.PCG64(3), CLASSIC, hand=WEAK, role=role, n_samples=20_000)
    defending = res.declarer != res.seat
    assert (res.score[defending][res.bolt[defending] == 1] == 0).all()
    off = kernel.play_forced_pass(np.random.PCG64(3), dataclasses.replace(CLASSIC, bolts="off"), hand=WEAK, role=role,
                                  n_samples=20_000)
    assert not off.bolt.any() and np.array_equal(off.score, res.score)   # the bolt changes no play


def test_forced_declarer_bolts_follow_the_rule():
    res = kernel.play_forced_declarer(np.random.PCG64(5), RUSSIAN, hand=WEAK, role="forehand", n_samples=20_000)
    assert np.array_equal(res.declarer_bolt == 1, res.declarer_points == 0)   # zero_points
    assert res.declarer_bolt.mean() > 0.1
    # also where the strategy resigned (the deal is played out all the same)
    assert res.declarer_bolt[res.decision < 0].any()
    res = kernel.play_forced_declarer(np.random.PCG64(5), CLASSIC, hand=WEAK, role="forehand", n_samples=20_000)
    no_points = res.declarer_points == 0
    assert (no_points[res.declarer_bolt == 1]).all()                         # no trick: no points
    assert (no_points & (res.declarer_bolt == 0)).mean() < 0.01              # a trick of nines is rare
    off = kernel.play_forced_declarer(np.random.PCG64(5), dataclasses.replace(CLASSIC, bolts="off"), hand=WEAK,
                                      role="forehand", n_samples=20_000)
    assert not off.declarer_bolt.any() and np.array_equal(off.declarer_points, res.declarer_points)


# ------------------------------------------------------------------ the values
def _completions(points, talons, bolt, exact=False, decision=None):
    return B.Completions(hand=STRONG, role="forehand", points=np.asarray(points), exact=exact,
                         talon=np.asarray(talons, dtype=np.uint32), bolt=np.asarray(bolt),
                         decision=None if decision is None else np.asarray(decision))


def test_exact_values_subtract_the_bolts_cost():
    # Two talons (no redeal, resign -b under classic).  Talon 8: points 0 (a bolt) or 130;
    # talon 16: 110, 110.  Worked out by hand at bid 100 and 120, bolt 40:
    #   play at 100: talon 8 -> (-100 - 40 + 100) / 2 = -20, talon 16 -> +100
    #   play at 120: talon 8 -> (-160 + 120) / 2 = -20 (> resign -120), talon 16 -> -120 (= resign)
    c = _completions([0, 130, 110, 110], [8, 8, 16, 16], [1, 0, 0, 0], exact=True)
    t = B.bid_table(c, NO_TALON_REDEALS, bids=[100, 120])
    assert t["ev_play"].to_list() == pytest.approx([(-140 + 100 + 100 + 100) / 4, (-160 + 120 - 120 - 120) / 4])
    assert t["ev"].to_list() == pytest.approx([(-20 + 100) / 2, (-20 - 120) / 2])
    assert t["ev_ci_low"].to_list() == t["ev"].to_list() == t["ev_ci_high"].to_list()
    # Without bolts (or with bolts off) the same completions are worth 40 / 4 more at 100.
    plain = B.bid_table(dataclasses.replace(c, bolt=None), NO_TALON_REDEALS, bids=[100, 120])
    assert plain["ev"][0] - t["ev"][0] == pytest.approx(20 / 2)
    off = B.bid_table(c, dataclasses.replace(NO_TALON_REDEALS, bolts="off"), bids=[100, 120])
    assert off.equals(plain)


def test_sampled_play_out_mean_and_error_count_the_bolt():
    rng = np.random.default_rng(1)
    n = 5_000
    points = rng.choice([0, 60, 100, 130], n, p=[0.2, 0.2, 0.3, 0.3])
    bolt = (points == 0).astype(np.int8)
    c = _completions(points, np.full(n, 8), bolt)
    t = B.bid_table(c, NO_TALON_REDEALS, bids=[100, 120])
    for row in t.iter_rows(named=True):
        score = np.where(points >= row["bid"], row["bid"], -row["bid"]) - 40.0 * bolt
        se = score.std(ddof=0) / np.sqrt(n)
        assert row["ev_play"] == pytest.approx(score.mean())
        assert (row["ev_play_ci_high"] - row["ev_play"]) / 1.959964 == pytest.approx(se, rel=1e-6)


def _brute_force_ev(points, talons, bolt, bid, alt):
    """The sampled estimate worked out deal by deal: the midpoint of plug-in (decide and
    score on the same deals) and leave-one-out (decide on the talon's other deals)."""
    score = np.where(points >= bid, bid, -bid) - 40.0 * bolt
    plug = loo = 0.0
    for t in np.unique(talons):
        s = score[talons == t]
        plug += s.sum() if s.mean() >= alt else alt * len(s)
        for i in range(len(s)):
            others = np.delete(s, i)
            loo += s[i] if len(others) == 0 or others.mean() >= alt else alt
    return (plug + loo) / (2 * len(points))


def test_sampled_choice_with_bolts_matches_the_deal_by_deal_computation():
    rng = np.random.default_rng(7)
    n = 600
    talons = rng.choice([8, 16, 24, 32], n)
    p_zero = {8: 0.5, 16: 0.3, 24: 0.1, 32: 0.0}
    points = np.where(rng.random(n) < np.vectorize(p_zero.get)(talons), 0, rng.choice([70, 105, 125], n))
    bolt = (points == 0).astype(np.int8)
    c = _completions(points, talons, bolt)
    t = B.bid_table(c, NO_TALON_REDEALS, bids=[100, 105, 120])
    for row in t.iter_rows(named=True):
        b = row["bid"]
        want = _brute_force_ev(points, talons, bolt, b, alt=-b)   # classic: resign costs the bid
        assert row["ev"] == pytest.approx(max(want, -b - 40.0))
        assert row["ev_ci_low"] <= row["ev"] <= row["ev_ci_high"]


def test_strategy_answer_counts_the_bolt_only_when_played():
    c = _completions([0, 0, 130], [8, 8, 8], [1, 1, 0], decision=[100, -1, 100])
    assert B.strategy_scores(c, CLASSIC).tolist() == [-140.0, -100.0, 100.0]


def test_pass_summary_counts_the_bolt():
    class Res:   # what the kernel's PassResult carries
        score = np.array([10, 0, 0, 60], dtype=np.int16)
        bolt = np.array([0, 1, 2, 0], dtype=np.int8)
        declarer = np.array([0, 0, 0, 0])
        seat = 1
    got = B.pass_summary(Res(), cost=40.0)
    assert got["pass_ev"] == pytest.approx((10 - 40 - 80 + 60) / 4)
    assert got["pass_ev_without_bolts"] == pytest.approx(70 / 4)
    assert got["pass_bolt_rate"] == 0.5


# ------------------------------------------------------------------ the recommendation
def _estimate(ev, pass_ev, redeal=(), role="forehand", strategy=None, outbid=None):
    bids_ = [100 + 5 * i for i in range(len(ev))]
    table = pl.DataFrame({"bid": bids_, "ev": ev, "ev_strategy": strategy or [None] * len(ev)},
                         schema_overrides={"ev_strategy": pl.Float64})
    return B.BidEstimate(hand=STRONG, role=role, rules=CLASSIC, samples=1000, exact=False, table=table,
                         confidence=0.8, safe_bid=None, best_ev_bid=B.best_ev_bid(table), points_mean=0.0,
                         points_quantiles={}, pass_ev=pass_ev, pass_ev_se=0.1, redeal_reasons=tuple(redeal),
                         pass_ev_outbid=pass_ev if outbid is None else outbid, pass_ev_outbid_se=0.1)


def test_recommendation_bids_as_high_as_winning_beats_passing():
    r = B.recommendation(_estimate([100.0, 110.0, 95.0, 60.0, 40.0], pass_ev=70.0, role="middle"))
    assert (r["action"], r["up_to"]) == ("bid", 110)
    assert r["text"].startswith("bid up to 110: winning there is worth +95.0, more than passing (+70.0)")
    assert "the best contract to hold is 105 (+110.0)" in r["text"]
    # the forehand weighs passing once outbid: his 100 on obligation is gone then (try-out 21)
    r = B.recommendation(_estimate([100.0, 110.0, 95.0, 60.0, 40.0], pass_ev=70.0, outbid=50.0))
    assert (r["action"], r["up_to"]) == ("bid", 115)
    assert r["text"].startswith("bid up to 115: winning there is worth +60.0, more than passing once outbid (+50.0)")
    # a hand redeal is demanded before the auction, not after a bid: no floor inside it (try-out 21)
    r = B.recommendation(_estimate([30.0, 10.0, -5.0], pass_ev=-20.0, redeal=["3 or more nines"], role="rear"))
    assert (r["action"], r["up_to"]) == ("bid", 110)
    assert "more than passing (-20.0)" in r["text"] and "redeal" not in r["text"]


def test_recommendation_to_pass_or_redeal_names_the_alternatives():
    r = B.recommendation(_estimate([-60.0, -70.0], pass_ev=-8.4, role="middle"))
    assert r == {"action": "pass", "up_to": None,
                 "text": "pass: -8.4, more than bidding (the best bid, 100, -60.0)"}
    # the figure quoted is the strategy's own raise/resign when that is the better one: said so
    r = B.recommendation(_estimate([-60.0, -70.0], pass_ev=-8.4, role="middle", strategy=[-50.0, None]))
    assert r["text"] == ("pass: -8.4, more than bidding (the best bid, 100, -50.0 with the strategy's own raise "
                         "or resign)")
    r = B.recommendation(_estimate([-60.0, -70.0], pass_ev=-37.5, redeal=["3 or more nines"]))
    assert r["action"] == "redeal"
    assert r["text"] == "demand a redeal: worth 0, more than the alternatives (passing -37.5, the best bid, 100, -60.0)"


def test_the_text_leads_with_the_recommendation_and_the_json_carries_it(capsys):
    assert cli.main(["bid", "AH TH KH QH AD 9S JC", "--samples", "4000", "--json"]) == 0
    obj = json.loads(capsys.readouterr().out)
    rec = obj["recommendation"]
    assert rec["action"] == "bid" and 155 <= rec["up_to"] <= obj["bids"][-1]["bid"]
    assert obj["bolt_cost"] == 40.0 and obj["declarer_bolt_rate"] == 0.0
    assert obj["pass_ev"] == pytest.approx(obj["pass_ev_without_bolts"] - 40.0 * obj["pass_bolt_rate"], abs=1e-3)
    assert cli.main(["bid", "AH TH KH QH AD 9S JC", "--samples", "4000"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == f"recommendation: {rec['text']}"
    assert any(line.startswith("bolts: a deal with no trick is a bolt and every third costs 120, so each is "
                               "counted at -40") for line in lines)


def test_a_limit_inside_the_sampling_noise_says_so():
    # the recommendation read as certain where the next bid was a toss-up against passing
    def est(ev, lo, hi, pass_ev, pass_se):
        import dataclasses
        e = _estimate(ev, pass_ev=pass_ev, role="middle")
        return dataclasses.replace(e, table=e.table.with_columns(pl.Series("ev_ci_low", lo), pl.Series("ev_ci_high", hi)),
                                   pass_ev_se=pass_se, pass_ev_outbid_se=pass_se)
    # 110 (+72, interval +-2) against passing +70 (se 1): the difference's interval is
    # 2 +- 1.96 * hypot(1.02, 1) = 2 +- 2.80, holding 0; 105 (+95) is clear of it
    r = B.recommendation(est([100.0, 95.0, 72.0, 40.0], [99.0, 94.0, 70.0, 39.0], [101.0, 96.0, 74.0, 41.0], 70.0, 1.0))
    assert r["up_to"] == 110
    assert "(within the sampling noise: winning at 110 and passing cannot be told apart at 95%" in r["text"]
    # a narrower sample tells them apart: no note
    r = B.recommendation(est([100.0, 95.0, 72.0, 40.0], [99.9, 94.9, 71.9, 39.9], [100.1, 95.1, 72.1, 40.1], 70.0, 0.1))
    assert r["up_to"] == 110 and "noise" not in r["text"]
    # the limit clear but the next bid a toss-up: named
    r = B.recommendation(est([100.0, 95.0, 69.0, 40.0], [99.9, 94.9, 67.0, 39.9], [100.1, 95.1, 71.0, 40.1], 70.0, 0.5))
    assert r["up_to"] == 105 and "winning at 110 and passing cannot be told apart" in r["text"]
    # passing recommended with the best bid inside the noise
    r = B.recommendation(est([-60.0, -70.0], [-63.0, -73.0], [-57.0, -67.0], -58.0, 1.0))
    # (named with its own figure: the sentence may name another bid, the raise: try-out 12)
    assert r["action"] == "pass" and "passing and holding 100 (-60.0) cannot be told apart at 95%" in r["text"]


def test_a_free_resignation_assumption_is_said_where_the_rules_have_it(capsys):
    # polish: EV resign +0 at every bid, and a worthless hand advised to bid, with nothing
    # saying resignations were counted free (try-out 8)
    # ... nor that a resignation still gives each opponent its share (try-out 12)
    gifts = {"polish": "+60 and uses one of the 2 free ones", "classic": "half the bid",
             "classic:resign=sixty": "+60", "classic:resign=none": None}
    for rules, gift in gifts.items():
        assert cli.main(["bid", "9H 9D 9C 9S JH JD JC", "--samples", "600", "--rules", rules]) == 0
        out = capsys.readouterr().out
        assert ("resign=sixty_two_free: 'EV resign' counts a free resignation" in out) == (rules == "polish")
        said = "every EV here is this seat's own score: a resignation also gives each opponent "
        assert (said + gift in out) if gift else said not in out


def test_a_bid_worth_only_for_the_raise_after_the_talon_says_so():
    # four aces: "bid up to 100; the best contract to hold is 160" with passing worth more
    # than every held contract, and no word of why (try-out 8)
    r = B.recommendation(_estimate([150.0, 155.0, 140.0], pass_ev=159.6, strategy=[161.7, None, None]))
    assert r["action"] == "bid" and r["up_to"] == 100
    # the forehand's 100 is forced: the line says not to go above it (try-out 21)
    assert r["text"] == ("hold the forced 100 and pass once outbid (+159.6): no higher contract is worth that much; "
                         "won at 100, raising or resigning after the talon as the strategy does is worth +161.7; "
                         "the best contract to hold is 105 (+155.0)")
    r = B.recommendation(_estimate([150.0, 155.0, 140.0], pass_ev=159.6, strategy=[161.7, None, None],
                                   role="middle"))
    assert r["text"].startswith("bid up to 100: won there, raising or resigning after the talon as the strategy "
                                "does is worth +161.7, more than passing (+159.6); no contract is worth that "
                                "much held; the best contract to hold is 105 (+155.0)")


def test_a_pimc_bid_says_what_it_will_cost_before_the_work(capsys, monkeypatch):
    # bid --strategy pimc ran for hours at the default 100,000 samples with no word (try-out 8)
    from thousand.analysis import bids as analysis_bids

    def no_work(*a, **k):
        raise KeyboardInterrupt
    monkeypatch.setattr(analysis_bids, "estimate_bid", no_work)
    assert cli.main(["bid", "AH TH KH QH AD 9S JC", "--strategy", "pimc"]) == 130
    err = capsys.readouterr().err
    # every bid plays its own run (25 here) and passing one more: counted (try-out 21)
    assert "note: pimc searches at every card" in err and "in each of 26 runs" in err
    assert f"100,000 --samples take about {100_000 * 26 * 0.012 / 3600:.1f} h" in err
    assert cli.main(["bid", "AH TH KH QH AD 9S JC", "--strategy", "pimc", "--samples", "100"]) == 130
    assert "note: pimc" not in capsys.readouterr().err          # under a minute: nothing to warn of


def test_the_forehand_is_never_told_to_pass_his_forced_opening():
    # "pass: +97.0, more than bidding (110, +96.3)" while winning at 110 beat passing once
    # outbid (+95.1); and one forced-100 limit read two ways (try-out 24)
    r = B.recommendation(_estimate([90.0, 95.5, 96.3, 80.0], pass_ev=97.0, outbid=95.1))
    assert (r["action"], r["up_to"]) == ("bid", 110)
    assert r["text"].startswith("bid up to 110: winning there is worth +96.3, more than passing once outbid (+95.1)")
    r = B.recommendation(_estimate([28.1, 20.0], pass_ev=60.0, outbid=24.0))
    assert (r["action"], r["up_to"]) == ("bid", 100)
    assert r["text"] == ("hold the forced 100 and pass once outbid (+24.0): no higher contract is worth that much; "
                         "winning at 100 is worth +28.1")
    r = B.recommendation(_estimate([-10.0, -20.0], pass_ev=10.0, outbid=6.3))
    assert r["text"].startswith("hold the forced 100 and pass once outbid (+6.3)")
    # the middle seat may pass
    assert B.recommendation(_estimate([90.0, 95.5, 96.3, 80.0], pass_ev=97.0, role="middle"))["action"] == "pass"
