"""``thousand bid``: the bids a seat can win, the hand redeal as a choice, 3 players only,
and the smaller output points (JSON interval of ev_strategy, chart legend)."""
from __future__ import annotations


import numpy as np
import pytest

from thousand import cli
from thousand.analysis import bids as B
from thousand.cards import parse_hand
from thousand.rules import CLASSIC, POLISH, RUSSIAN

from helpers.bid_fakes import bid_json

HAND_TEXT = "AH TH KH QH AD 9S JC"
HAND = parse_hand(HAND_TEXT)
REDEAL_HAND = "9S 9C 9D JH QD KS JC"     # three nines and 11 card points




# ------------------------------------------------------------------ F2: the bids a seat can win
def test_lowest_bid_per_seat():
    assert B.lowest_bid("forehand", CLASSIC) == 100
    assert B.lowest_bid("middle", CLASSIC) == B.lowest_bid("rear", CLASSIC) == 105
    step10 = CLASSIC.with_overrides("bid_step=10")
    assert B.lowest_bid("rear", step10) == 110
    assert B.bids_for_hand(HAND, step10, "middle").tolist() == list(range(110, 221, 10))


@pytest.mark.parametrize("role", ["middle", "rear"])
def test_middle_and_rear_are_never_offered_the_forced_100(capsys, fake_kernel, role):
    # The forehand opens with the forced 100: these seats win only by outbidding it.
    obj = bid_json(capsys, HAND_TEXT, "--samples", "3000", "--position", role)
    bids = [b["bid"] for b in obj["bids"]]
    assert bids[0] == 105 and 100 not in bids
    assert obj["best_choice"] != "bid 100" and obj["best_ev_bid"] >= 105
    # The strategies decided at 105, so the strategy's own EV is known at a bid they can win.
    assert fake_kernel.calls[0]["contract"] == 105
    strat = [b for b in obj["bids"] if b["ev_strategy"] is not None]
    assert [b["bid"] for b in strat] == [105]
    text_rc = cli.main(["bid", HAND_TEXT, "--samples", "3000", "--position", role])
    out = capsys.readouterr().out
    assert text_rc == 0 and "\n  100 " not in out and "answers at 105" in out


def test_forehand_keeps_the_100(capsys, fake_kernel):
    obj = bid_json(capsys, HAND_TEXT, "--samples", "3000")
    assert obj["bids"][0]["bid"] == 100 and fake_kernel.calls[0]["contract"] == 100


def test_per_bid_for_middle_starts_at_105(capsys, fake_kernel):
    obj = bid_json(capsys, HAND_TEXT, "--samples", "2000", "--position", "middle", "--per-bid")
    assert sorted(c["contract"] for c in fake_kernel.calls) == list(range(105, 221, 5))
    assert all(b["ev_strategy"] is not None for b in obj["bids"])


# ------------------------------------------------------------------ F3: the hand redeal
def test_hand_redeal_reasons_follow_the_rules():
    hand = parse_hand(REDEAL_HAND)
    assert B.hand_redeal_reasons(hand, CLASSIC) == ["3 or more nines", "card points 13 or less"]
    assert B.hand_redeal_reasons(hand, CLASSIC.with_overrides("redeal_hand_nines=none")) == ["card points 13 or less"]
    assert B.hand_redeal_reasons(hand, POLISH) == []                   # polish: no hand redeals
    assert B.hand_redeal_reasons(HAND, CLASSIC) == []
    four_nines = parse_hand("9S 9C 9D 9H AS TS KS")
    assert B.hand_redeal_reasons(four_nines, POLISH) == ["four nines after the hand-off (docs/rules.md, step 8)"]
    jacks = parse_hand("JS JC JD JH AS TS KS")
    assert B.hand_redeal_reasons(jacks, CLASSIC) == ["4 or more jacks"]
    # The same test as the reference engine's for the hand conditions.
    from thousand.reference.legal import hand_redeal_allowed
    rng = np.random.default_rng(4)
    for _ in range(300):
        h = int(sum(1 << int(c) for c in rng.choice(24, 7, replace=False)))
        for rules in (CLASSIC, RUSSIAN, POLISH):
            hand_only = [r for r in B.hand_redeal_reasons(h, rules) if not r.startswith("four nines")]
            assert bool(hand_only) == hand_redeal_allowed(rules, h)


def test_a_hand_that_may_demand_a_redeal_is_told_so(capsys):
    # Every bid and passing lose points on average; the redeal leaves the score as it is.
    obj = bid_json(capsys, REDEAL_HAND, "--samples", "5000")
    assert obj["redeal_allowed"] is True and obj["redeal_ev"] == 0.0
    assert obj["redeal_reasons"] == ["3 or more nines", "card points 13 or less"]
    assert obj["pass_ev"] < 0 and max(b["ev"] for b in obj["bids"]) < 0
    assert obj["best_choice"] == "redeal"
    assert cli.main(["bid", REDEAL_HAND, "--samples", "5000"]) == 0
    out = capsys.readouterr().out
    assert "may demand one (3 or more nines, card points 13 or less)" in out
    assert out.startswith("recommendation: demand a redeal: worth 0")   # the point first


def test_no_redeal_without_a_condition(capsys, fake_kernel):
    obj = bid_json(capsys, HAND_TEXT, "--samples", "2000")
    assert obj["redeal_allowed"] is False and obj["redeal_reasons"] == [] and obj["redeal_ev"] is None
    assert obj["best_choice"] != "redeal"


def test_redeal_is_named_only_when_it_is_worth_more():
    import dataclasses
    est = B.BidEstimate(hand=HAND, role="forehand", rules=CLASSIC, samples=1, exact=True,
                        table=B.bid_table(B.Completions(HAND, "forehand", np.array([130]),
                                                        np.array([parse_hand("AS TS KS")], dtype=np.uint32),
                                                        exact=True), CLASSIC, bids=[100]),
                        confidence=0.8, safe_bid=100, best_ev_bid=100, points_mean=130.0,
                        points_quantiles={}, pass_ev=-5.0, redeal_reasons=("card points 13 or less",))
    assert B.best_choice(est) == "bid 100"                                   # +100 beats 0
    worse = dataclasses.replace(est, table=est.table.with_columns(ev=-20.0), pass_ev=-5.0)
    assert B.best_choice(worse) == "redeal"
    better_pass = dataclasses.replace(worse, pass_ev=3.0)
    assert B.best_choice(better_pass) == "pass"


# ------------------------------------------------------------------ F10: 3 players only
@pytest.mark.parametrize("players, hand", [(2, "AH TH KH QH AD 9S JC 9H KS QS"), (4, "AH TH KH QH AD 9S JC")])
def test_other_table_sizes_are_refused_before_the_hand_is_read(capsys, fake_kernel, players, hand):
    rc = cli.main(["bid", hand, "--rules", f"classic:players={players}"])
    err = capsys.readouterr().err.strip().splitlines()
    assert rc == 2 and len(err) == 1
    assert f"analyses the 3-player game; the rules say players={players}" in err[0]
    assert not fake_kernel.calls


# ------------------------------------------------------------------ F14: JSON and chart
def test_json_carries_the_interval_of_ev_strategy(capsys):
    obj = bid_json(capsys, HAND_TEXT, "--samples", "3000")
    row = obj["bids"][0]
    assert row["ev_strategy_ci_low"] < row["ev_strategy"] < row["ev_strategy_ci_high"]
    assert all(b["ev_strategy_ci_low"] is None for b in obj["bids"][1:])   # known at 100 only
    assert cli.main(["bid", HAND_TEXT, "--samples", "3000"]) == 0
    half = row["ev_strategy_ci_high"] - row["ev_strategy"]
    assert f"EV {row['ev_strategy']:+.1f} ±{half:.1f}" in capsys.readouterr().out   # the text's figure


def test_chart_legend_does_not_cover_the_pass_line(fake_kernel, tmp_path):
    est = B.estimate_bid(HAND, CLASSIC, samples=3000, seed=2)
    fig = B.plot_bid_chart(est, tmp_path / "bid.png")
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    ax_ev = fig.axes[2]
    canvas = FigureCanvasAgg(fig)          # the chart's figure comes back closed
    canvas.draw()
    renderer = canvas.get_renderer()
    legend = ax_ev.get_legend().get_window_extent(renderer)
    frame = ax_ev.get_window_extent(renderer)
    assert legend.y1 <= frame.y0            # below the panel: nothing drawn inside is hidden



def test_a_seat_that_can_win_no_bid_is_told_so_and_plot_refuses_before_the_work(tmp_path):
    # QA: middle seat, bid step 25: the lowest winning bid (125) is above the hand's cap (120)
    import subprocess
    import sys
    args = ["bid", "9S 9C 9D JH QD KS JC", "--position", "middle", "--set", "bid_step=25", "--set", "barrel_at=none",
            "--samples", "500"]
    out = subprocess.run([sys.executable, "-m", "thousand", *args], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert "no bid to analyse: from the middle seat the lowest bid that wins the auction is 125" in out.stdout
    assert "none (no bid this seat can win)" in out.stdout and "bid  P(make)" not in out.stdout
    plot = subprocess.run([sys.executable, "-m", "thousand", *args, "--plot", str(tmp_path / "c.png")],
                          capture_output=True, text=True, timeout=120)
    assert plot.returncode == 2 and "Traceback" not in plot.stderr
    assert plot.stderr.strip().splitlines() == [
        "thousand bid: error: no bid to plot: from the middle seat the lowest bid that wins the auction is 125, "
        "above this hand's cap of 120"]


def test_the_sampled_ev_never_falls_below_what_every_talon_guarantees():
    # QA: polish, 200 samples: bid 225 printed -45.0 although resigning is free there (EV 0)
    from thousand.analysis import bids
    from thousand.cards import parse_hand
    from thousand.rules import parse_rules_spec
    est = bids.estimate_bid(parse_hand("AD TD KD QD KS QS JC"), parse_rules_spec("polish"), samples=200, seed=1)
    t = est.table
    assert (t["ev"] >= 0).all() and (t["ev_ci_low"] >= 0).all()
    assert (t["ev_ci_low"] <= t["ev"]).all() and (t["ev"] <= t["ev_ci_high"]).all()


def test_chart_draws_the_redeal_a_hand_may_demand(fake_kernel, tmp_path):
    redeal_hand = parse_hand("9S 9C 9D JH QD KS JC")     # three nines, 11 card points
    est = B.estimate_bid(redeal_hand, CLASSIC, samples=2000, seed=2)
    labels = B.plot_bid_chart(est, tmp_path / "bid.png").axes[2].get_legend_handles_labels()[1]
    assert "demand a redeal (0)" in labels
    plain = B.estimate_bid(HAND, CLASSIC, samples=2000, seed=2)
    assert "demand a redeal (0)" not in B.plot_bid_chart(plain, tmp_path / "b2.png").axes[2].get_legend_handles_labels()[1]
