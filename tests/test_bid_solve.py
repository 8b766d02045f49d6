"""``thousand bid --solve``: the open-hand reference next to the strategy's figures.

Its completions are a uniform sample of their own; each completion's value is the best
hand-off's open-hand value (checked here hand-off by hand-off through ``solver.value``,
with the seats wired by hand); the bid columns are the same ``bid_table`` over those
values.  Not asserted: that the open-hand EV is at least the strategy's -- it is not so
by construction (the strategy's defenders err, the open-hand ones do not)."""
import json
import math

import numpy as np
import pytest

from thousand import cli, solver
from thousand.analysis import bids
from thousand.cards import parse_hand
from thousand.reference.play import Position
from thousand.rules import CLASSIC

HAND = parse_hand("9S JC AD QH KH TH AH")


def test_completions_deal_the_unseen_cards_uniformly_and_repeatably():
    c = bids.sample_completions(HAND, 3_000, seed=5)
    unseen = ((1 << 24) - 1) & ~HAND
    for talon, a, b in c[:50]:
        assert int(talon) | int(a) | int(b) == unseen
        assert [bin(int(m)).count("1") for m in (talon, a, b)] == [3, 7, 7]
    assert np.array_equal(bids.sample_completions(HAND, 50, seed=5), c[:50])
    assert not np.array_equal(bids.sample_completions(HAND, 50, seed=6), c[:50])
    # each unseen card is in the talon with probability 3/17: within 4 standard errors
    p, n = 3 / 17, len(c)
    for card in range(24):
        if unseen >> card & 1:
            share = np.mean((c[:, 0] >> np.uint32(card)) & 1)
            assert abs(share - p) < 4 * math.sqrt(p * (1 - p) / n)


@pytest.mark.parametrize("role", ["forehand", "rear"])
def test_a_completions_value_is_its_best_hand_offs_open_hand_value(role):
    completions = bids.sample_completions(HAND, 1, seed=3)
    value = int(bids._best_hand_offs((CLASSIC, HAND, role, completions))[0])
    talon, nxt_cards, other_cards = (int(m) for m in completions[0])
    seat = bids.ROLE_SEATS[role]
    active = (1, 2, 0)                      # the dealer is seat 0
    nxt, other = active[(active.index(seat) + 1) % 3], active[(active.index(seat) + 2) % 3]
    ten = HAND | talon
    cards = [c for c in range(24) if ten >> c & 1]
    ws = solver.Workspace()
    best = -1
    for a in cards:
        for b in cards:
            if a == b:
                continue
            hands = [0, 0, 0]
            hands[seat] = ten & ~(1 << a) & ~(1 << b)
            hands[nxt] = nxt_cards | 1 << a
            hands[other] = other_cards | 1 << b
            best = max(best, solver.value(Position.start(CLASSIC, hands, active, seat), seat, workspace=ws))
    assert value == best


def test_the_solve_columns_are_the_bid_table_of_those_values(capsys):
    assert cli.main(["bid", "9S JC AD QH KH TH AH", "--samples", "2000", "--solve", "--solve-samples", "6",
                     "--jobs", "1", "--seed", "4", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["solve_samples"] == 6
    ref = bids.solve_hand(HAND, CLASSIC, "forehand", 6, seed=4)
    table = bids.bid_table(ref, CLASSIC)
    previous = 1.0
    for entry, row in zip(out["bids"], table.iter_rows(named=True)):
        s = entry["solve"]
        assert s["n"] == 6 and s["made"] == int((ref.points >= entry["bid"]).sum())
        assert 0.0 <= s["ci_low"] <= s["p_make"] <= s["ci_high"] <= 1.0
        assert s["p_make"] <= previous      # a higher bid is never made more often
        previous = s["p_make"]
        assert s["ev"] == pytest.approx(row["ev"]) and s["ev_ci_low"] <= s["ev"] <= s["ev_ci_high"]
        assert s["ev"] <= entry["bid"]      # no bid is worth more than making it
    assert len(out["bids"]) == table.height
    # the reference's own safe and best-EV bids, by the same rules as the strategy's
    assert out["solve_safe_bid"] == bids.safe_bid(table, out["confidence"])
    assert out["solve_best_ev_bid"] == bids.best_ev_bid(table)
    assert out["solve_safe_bid"] is None or out["solve_safe_bid"] == max(
        e["bid"] for e in out["bids"] if e["solve"]["p_make"] >= out["confidence"])


def test_text_output_shows_the_reference_and_says_what_it_is(capsys):
    assert cli.main(["bid", "9S JC AD QH KH TH AH", "--samples", "2000", "--solve", "--solve-samples", "2",
                     "--jobs", "1"]) == 0
    text = capsys.readouterr().out
    assert "open-hand P(make)" in text and "open-hand EV" in text
    assert "open-hand = a reference, not advice: on 2 completions of their own" in text
    assert "open-hand reference: safe bid " in text


def test_exact_still_names_the_seed_its_open_hand_sample_uses(capsys):
    # --exact enumerates the strategy's completions, but the open-hand reference (and the
    # passing figure) are samples drawn from --seed: the output names it
    args = ["bid", "9S JC AD QH KH TH AH", "--exact", "--solve", "--solve-samples", "3", "--jobs", "1", "--seed", "5"]
    assert cli.main([*args, "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["seed"] == 5 and out["exact"]
    ref = bids.solve_hand(HAND, CLASSIC, "forehand", 3, seed=5)    # the sample seed 5 draws
    assert [e["solve"]["made"] for e in out["bids"]] == [int((ref.points >= e["bid"]).sum()) for e in out["bids"]]
    assert cli.main(args) == 0
    assert "on 3 completions of their own (seed 5, " in capsys.readouterr().out


@pytest.mark.parametrize("args, message", [
    (["--solve", "--solve-samples", "1"], "--solve-samples must be 2..100,000, got 1"),
    (["--solve", "--jobs", "0"], "--jobs must be a positive number of workers or -1"),
    # without --solve it would size nothing and be ignored in silence
    (["--solve-samples", "5"], "--solve-samples sizes the open-hand reference of --solve; add --solve"),
])
def test_bad_solve_options_are_one_line_errors(capsys, args, message):
    assert cli.main(["bid", "9S JC AD QH KH TH AH", *args]) == 2
    err = capsys.readouterr().err.strip()
    assert message in err and len(err.splitlines()) == 1


def test_the_command_default_is_the_pipelines():
    from thousand.commands import bid
    assert bid.DEFAULT_SOLVE_SAMPLES == bids.DEFAULT_SOLVE_SAMPLES


def test_the_chart_draws_the_open_hand_reference_next_to_the_strategy(tmp_path):
    est = bids.estimate_bid(HAND, CLASSIC, role="forehand", samples=2000, seed=4, solve_samples=3, jobs=1,
                            progress=False)
    fig = bids.plot_bid_chart(est, tmp_path / "bid.png")
    _, p_axis, ev_axis = fig.axes[:3]

    def curve(ax, label_start, whole=False):
        """The one line of ``ax`` whose label starts with (or, ``whole``, is) ``label_start``."""
        lines = [ln for ln in ax.get_lines()
                 if (ln.get_label() == label_start if whole else ln.get_label().startswith(label_start))]
        assert len(lines) == 1, [ln.get_label() for ln in ax.get_lines()]
        return lines[0]

    ref = est.solve_table
    for ax, column, label in ((p_axis, "p_make", "P(make), open-hand reference"),
                              (ev_axis, "ev", "EV, open-hand reference")):
        line = curve(ax, label)
        assert "best hand-off" in line.get_label() and "3 completions" in line.get_label()
        assert np.array_equal(line.get_xdata(), ref["bid"].to_numpy())
        assert np.allclose(line.get_ydata(), ref[column].to_numpy())
        # its band is labelled as the reference's, next to the strategy's own
        bands = [c.get_label() for c in ax.collections]
        assert any(b.startswith("open-hand reference: its 95%") for b in bands), bands
    # the strategy's own figures are still there, and without --solve the reference is not
    assert np.allclose(curve(p_axis, "P(make)", whole=True).get_ydata(), est.table["p_make"].to_numpy())
    plain = bids.plot_bid_chart(bids.estimate_bid(HAND, CLASSIC, samples=2000, seed=4, progress=False),
                                tmp_path / "plain.png")
    assert not [ln for ax in plain.axes for ln in ax.get_lines() if "open-hand" in ln.get_label()]


@pytest.mark.parametrize("sets, said", [
    ([], "then after the talon play, resign or demand a redeal (0) where the cards allow one, whichever"),
    (["redeal_talon_points_max=none", "redeal_talon_nines=none", "redeal_talon_jacks=none"],
     "then after the talon play or resign, whichever"),
    (["resign=none", "redeal_talon_points_max=none", "redeal_talon_nines=none", "redeal_talon_jacks=none"],
     "EV bid = bid, the hand then played out (these rules allow neither a resignation nor a talon redeal)"),
])
def test_the_text_says_what_an_ev_weighs_after_the_talon(capsys, sets, said):
    # the footer said "play or resign" while a talon redeal worth 0 was weighed too: the
    # open-hand EV at 210 read 17 points above bid x (2 P - 1) (try-out 33)
    argv = ["bid", "9S JC AD QH KH TH AH", "--samples", "2000"]
    for s in sets:
        argv += ["--set", s]
    assert cli.main(argv) == 0
    assert said in capsys.readouterr().out
