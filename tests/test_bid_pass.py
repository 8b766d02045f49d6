"""The passing alternative of ``thousand bid``: kernel ``play_forced_pass`` and its EV."""
from __future__ import annotations

import json
import math

import numpy as np
import polars as pl
import pytest

from thousand import cli, kernel
from thousand.analysis import bids
from thousand.cards import parse_hand
from thousand.rules import Rules

WEAK = parse_hand("9S JS 9C JC 9D JD 9H", n=7)
STRONG_DEFENCE = parse_hand("AS AC AD TS TC TD KH", n=7)
STRONG = parse_hand("AH TH KH QH AD 9S JC", n=7)
N = 20_000


def _pass(hand: int, role: str, seed: int = 1, n: int = N) -> kernel.PassResult:
    return kernel.play_forced_pass(np.random.PCG64(seed), Rules(), hand=hand, role=role, n_samples=n)


def _mean_se(res: kernel.PassResult) -> tuple[float, float]:
    s = res.score.astype(float)
    return float(s.mean()), float(s.std(ddof=1) / math.sqrt(len(s)))


@pytest.mark.parametrize("role", ["forehand", "middle", "rear"])
def test_weak_hand_below_40_and_strong_defence_higher(role: str) -> None:
    weak, weak_se = _mean_se(_pass(WEAK, role))
    strong, strong_se = _mean_se(_pass(STRONG_DEFENCE, role))
    assert weak + 4 * weak_se < 40
    assert strong - 4 * strong_se > weak + 4 * weak_se


@pytest.mark.parametrize("role", ["middle", "rear"])
def test_middle_and_rear_never_declare(role: str) -> None:
    for hand in (WEAK, STRONG, STRONG_DEFENCE):
        res = _pass(hand, role)
        assert len(res.score) == N
        assert not res.on_obligation.any()
        assert (res.declarer != res.seat).all()


def test_forehand_declares_only_on_obligation_at_100() -> None:
    for hand in (WEAK, STRONG):
        res = _pass(hand, "forehand")
        mine = res.on_obligation
        assert mine.any()                       # both others pass sometimes
        assert (res.winning_bid[mine] == 100).all()
        # when someone else won the auction he beat the 100
        assert (res.winning_bid[~mine] > 100).all()


def test_same_seed_same_result() -> None:
    a, b = _pass(STRONG, "forehand", seed=7), _pass(STRONG, "forehand", seed=7)
    assert np.array_equal(a.score, b.score) and np.array_equal(a.declarer, b.declarer)
    assert a.redeals == b.redeals
    c = _pass(STRONG, "forehand", seed=8)
    assert not np.array_equal(a.score, c.score)


def test_ci_contains_larger_independent_run() -> None:
    est = bids.estimate_bid(STRONG, Rules(), role="middle", samples=N, seed=3)
    big = bids.pass_summary(bids.simulate_pass(STRONG, Rules(), "middle", None, 4 * N, seed=4), bids.bolt_cost(Rules()))
    lo, hi = est.pass_ev_ci
    assert lo < est.pass_ev < hi
    se = math.hypot(est.pass_ev_se, big["pass_ev_se"])
    assert abs(est.pass_ev - big["pass_ev"]) <= 4 * se


def test_json_fields_and_table_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["bid", "9S JS 9C JC 9D JD 9H", "--position", "middle", "--samples", "5000", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    for key in ("pass_ev", "pass_ev_ci_low", "pass_ev_ci_high", "pass_samples", "best_choice"):
        assert key in out
    assert out["pass_ev_ci_low"] <= out["pass_ev"] <= out["pass_ev_ci_high"]
    assert out["pass_samples"] == 5000
    # Passing this hand scores a few points as a defender, but wins no trick in most deals:
    # its bolts (40 each on average) make passing worth less than the redeal it may demand.
    assert out["pass_ev_without_bolts"] > 0 > out["pass_ev"] and out["pass_bolt_rate"] > 0.5
    assert out["best_choice"] == "redeal" and out["recommendation"]["action"] == "redeal"
    assert cli.main(["bid", "9S JS 9C JC 9D JD 9H", "--samples", "5000"]) == 0
    text = capsys.readouterr().out
    assert "passing: EV" in text and text.startswith("recommendation: demand a redeal: worth 0")


def _estimate(ev_held: list[float], ev_strategy: list[float | None], pass_ev: float) -> bids.BidEstimate:
    table = pl.DataFrame({"bid": [100, 105, 110], "ev": ev_held, "ev_strategy": ev_strategy},
                         schema_overrides={"ev_strategy": pl.Float64})
    return bids.BidEstimate(hand=STRONG, role="forehand", rules=Rules(), samples=1000, exact=False, table=table,
                            confidence=0.8, safe_bid=None, best_ev_bid=bids.best_ev_bid(table), points_mean=0.0,
                            points_quantiles={}, pass_ev=pass_ev, pass_ev_se=0.1)


def test_passing_is_compared_with_bidding_then_raising_like_for_like() -> None:
    # Passing's EV includes the strategy's raise when the passer plays the 100 on obligation,
    # so a bid counts with the strategy's raise too: here bid 100 and raise beats passing.
    assert bids.best_choice(_estimate([100.0, 104.0, 103.0], [161.9, None, None], 156.7)) == "bid 100"
    assert bids.best_choice(_estimate([100.0, 104.0, 103.0], [None, None, None], 156.7)) == "pass"
    assert bids.best_choice(_estimate([100.0, 104.0, 103.0], [90.0, None, None], 50.0)) == "bid 105"
    assert bids.best_choice(_estimate([-64.0, -70.0, -75.0], [-67.0, None, None], -8.4)) == "pass"


def test_passing_once_outbid_counts_only_the_deals_another_seat_declares():
    # the forehand's passing figure holds his 100 on obligation; once outbid he has lost it (try-out 21)
    from types import SimpleNamespace
    res = SimpleNamespace(score=np.array([120, -100, 30, 10]), bolt=np.array([0, 0, 0, 1]),
                          declarer=np.array([0, 0, 1, 2]), seat=0)
    s = bids.pass_summary(res, cost=40.0)
    assert s["pass_ev"] == pytest.approx((120 - 100 + 30 + 10 - 40) / 4)
    assert s["pass_on_obligation"] == 0.5
    assert s["pass_ev_outbid"] == pytest.approx((30 - 30) / 2) and s["pass_ev_outbid_se"] == pytest.approx(30.0)
    est = bids.estimate_bid(parse_hand("AH TH KH QH AD 9S JC"), Rules(), "forehand", samples=3000, seed=2)
    assert est.pass_ev_outbid < est.pass_ev       # the obligation deals are the rich ones for this hand
    mid = bids.estimate_bid(parse_hand("AH TH KH QH AD 9S JC"), Rules(), "middle", samples=3000, seed=2)
    assert mid.pass_ev_outbid == pytest.approx(mid.pass_ev)   # the middle seat never plays an obligation


def test_the_json_never_tells_the_forehand_to_pass() -> None:
    # "best_choice": "pass" stood next to a recommendation to hold the forced 100 (try-out 28)
    import dataclasses
    est = _estimate([-64.0, -70.0, -75.0], [-67.0, None, None], -8.4)
    assert bids.best_choice(est) == "pass"
    assert bids._choice_named(est) == "bid 100"
    rec = bids.recommendation(est)
    assert (rec["action"], rec["up_to"]) == ("bid", 100)
    middle = dataclasses.replace(est, role="middle")
    assert bids._choice_named(middle) == "pass" == bids.recommendation(middle)["action"]
    # and the JSON writes that name (a real estimate: the README's weak forehand)
    obj = bids.bid_estimate_json(bids.estimate_bid(parse_hand("AH TH AD TD AC JS 9S"), "classic", samples=3000,
                                                   seed=1))
    assert obj["best_choice"] == f"bid {obj['recommendation']['up_to']}"


def test_the_forehands_forced_100_is_quoted_at_its_better_figure() -> None:
    # "won at 100, raising or resigning as the strategy does is worth -26.2" while the
    # table's EV bid at 100 (play or resign, whichever is better for the talon) was -19.6
    text = bids.recommendation(_estimate([-19.6, -30.0, -40.0], [-26.2, None, None], 46.4))["text"]
    assert text.endswith("winning at 100 is worth -19.6") and "-26.2" not in text
    text = bids.recommendation(_estimate([-19.6, -30.0, -40.0], [-10.0, None, None], 46.4))["text"]
    assert text.endswith("won at 100, raising or resigning after the talon as the strategy does is worth -10.0")
