"""Bidding thresholds on hand-made completion frames whose answers are worked out by hand."""
from __future__ import annotations

import dataclasses

import numpy as np
import polars as pl
import pytest

from thousand.analysis import thresholds as T
from thousand.cards import card_points, marriage_points, parse_hand
from thousand.rules import CLASSIC

NO_MARRIAGE = parse_hand("AS TS AC 9D JD 9H JH")        # 11+10+11+0+2+0+2 = 36 pts, 2 aces, 1 with ten
HEARTS = parse_hand("AH TH KH QH AD 9S JC")             # 41 pts, hearts 100, 2 aces, 1 with ten
TWO_MARRIAGES = parse_hand("KS QS KD QD 9C JC 9H")      # 14 + 2 = 16 pts, 40 + 80


def completions(rows: dict[tuple[int, int, str], list[int]]) -> pl.DataFrame:
    """Frame of completions from {(hand_id, hand, role): [points, ...]}."""
    parts = []
    for (hid, hand, role), pts in rows.items():
        parts.append(pl.DataFrame({"hand_id": [hid] * len(pts), "hand": [hand] * len(pts),
                                   "role": [role] * len(pts), "points": pts},
                                  schema={"hand_id": pl.Int32, "hand": pl.UInt32, "role": pl.String,
                                          "points": pl.Int16}))
    return pl.concat(parts)


def test_hand_features_and_classes():
    df = pl.DataFrame({"hand": [NO_MARRIAGE, HEARTS, TWO_MARRIAGES, parse_hand("AS AC AD AH TS TC 9D")]},
                      schema={"hand": pl.UInt32})
    f = T.add_hand_features(df).collect()
    assert f["hand_points"].to_list() == [36, 41, 16, 64]
    assert f["marriage_points"].to_list() == [0, 100, 120, 0]
    # two marriages -> their own class, whatever they add up to (40 + 80 here)
    assert f["marriage_value"].cast(pl.String).to_list() == ["none", "100", "2+ (100-240)", "none"]
    assert f["aces_held"].to_list() == [2, 2, 0, 4] and f["aces"].to_list() == [2, 2, 0, 3]
    assert f["aces_with_ten_held"].to_list() == [1, 1, 0, 2]
    assert f["points_band"].cast(pl.String).to_list() == ["30-39", "40-49", "<20", "50+"]
    for h, pts, m in zip(df["hand"], f["hand_points"], f["marriage_points"]):
        assert card_points(h) == pts and marriage_points(h) == m


def test_two_marriages_worth_100_are_not_the_hearts_class():
    # Spades + clubs (40 + 60 = 100) hold as much marriage value as hearts alone, but they
    # are two marriages: the class says so, and is ordered after every single marriage.
    spades_clubs = parse_hand("KS QS KC QC 9D JD 9H")
    df = pl.DataFrame({"hand": [HEARTS, spades_clubs, TWO_MARRIAGES, NO_MARRIAGE]}, schema={"hand": pl.UInt32})
    f = T.add_hand_features(df).collect()
    assert f["marriage_points"].to_list() == [100, 100, 120, 0]
    assert f["marriage_value"].cast(pl.String).to_list() == ["100", T.TWO_OR_MORE_MARRIAGES,
                                                              T.TWO_OR_MORE_MARRIAGES, "none"]
    assert f.sort("marriage_value")["marriage_value"].cast(pl.String).to_list() == [
        "none", "100", T.TWO_OR_MORE_MARRIAGES, T.TWO_OR_MORE_MARRIAGES]
    # 40 + 60 is the least two marriages are worth, 60 + 80 + 100 the most a 7-card hand holds
    assert T.TWO_OR_MORE_MARRIAGES == "2+ (100-240)"
    assert T.MARRIAGE_CLASSES == ("none", "40", "60", "80", "100", "2+ (100-240)")


def test_heatmap_labels_the_classes_in_their_order(tmp_path, monkeypatch):
    import matplotlib.axes

    df = completions({(0, NO_MARRIAGE, "forehand"): [100] * 3, (1, HEARTS, "forehand"): [150] * 3,
                      (2, TWO_MARRIAGES, "forehand"): [120] * 3})
    t = T.threshold_table(df, by=("points_band", "marriage_value"), min_hands=1, n_boot=0)
    seen: dict[str, object] = {}
    monkeypatch.setattr(matplotlib.axes.Axes, "set_xlabel", lambda ax, text, **k: seen.update(xlabel=text))
    real_xticks = matplotlib.axes.Axes.set_xticks

    def xticks(ax, ticks, labels=None, **k):
        seen["xticks"] = list(labels)
        return real_xticks(ax, ticks, labels, **k)
    monkeypatch.setattr(matplotlib.axes.Axes, "set_xticks", xticks)
    T.plot_threshold_heatmap(t, tmp_path / "heat.png")
    assert seen["xticks"] == ["none", "100", "2+\n(100-240)"]
    assert "two or more" in seen["xlabel"] and "120" not in seen["xlabel"]


def test_hand_outcomes_thresholds_worked_by_hand():
    df = completions({
        (0, NO_MARRIAGE, "forehand"): [100, 110, 120, 130, 140],
        (0, NO_MARRIAGE, "middle"): [150] * 4,
        (1, HEARTS, "rear"): [90, 95, 99, 180, 200],
    })
    out = T.hand_outcomes(df).sort("hand_id", "role")
    fh, mid, rear = out.rows(named=True)
    # forehand: P(>=100)=1, P(>=110)=.8, P(>=120)=.6, P(>=130)=.4, P(>=140)=.2
    assert (fh["bid_50"], fh["bid_70"], fh["bid_80"], fh["bid_90"]) == (120, 110, 110, 100)
    assert (fh["level_50"], fh["level_80"], fh["level_90"]) == (120, 110, 100)
    # always 150, but without a marriage no bid over 120
    assert mid["bid_90"] == 120 and mid["level_90"] == 150 and mid["bid_cap"] == 120
    # rear: P(>=100)=.4 -> pass (null) at every q >= .5; level_50 = 99 (P(>=99)=.6, P(>=100)=.4)
    assert rear["bid_50"] is None and rear["bid_90"] is None and rear["level_50"] == 99
    assert rear["bid_cap"] == 220
    assert fh["completions"] == 5 and fh["mean_points"] == 120


def test_threshold_table_pools_hands_of_a_class():
    # Two 30-39-point no-marriage hands with the same aces: one class, 10 completions pooled.
    other = parse_hand("AS TS AC 9D JD 9H QC")            # 37 points, 2 aces, 1 with ten, no marriage
    df = completions({
        (0, NO_MARRIAGE, "forehand"): [100, 110, 120, 130, 140],
        (1, other, "forehand"): [80, 90, 100, 100, 105],
        (2, HEARTS, "forehand"): [200] * 5,
    })
    t = T.threshold_table(df, min_hands=1, n_boot=0)
    assert t.height == 2
    row = t.filter(pl.col("marriage_value") == "none").row(0, named=True)
    assert row["hands"] == row["hand_seats"] == 2 and row["completions"] == 10
    # pooled: P(>=100)=8/10, P(>=101)=P(>=105)=5/10, P(>=110)=4/10
    assert (row["bid_50"], row["bid_70"], row["bid_80"], row["bid_90"]) == (105, 100, 100, None)
    assert row["p_at_bid_80"] == pytest.approx(0.8) and row["p_at_bid_50"] == pytest.approx(0.5)
    assert row["mean_points"] == pytest.approx((600 + 475) / 10)
    hearts = t.filter(pl.col("marriage_value") == "100").row(0, named=True)
    assert hearts["bid_90"] == 200                       # below the 220 cap
    # min_hands drops classes with fewer hands
    assert T.threshold_table(df, min_hands=2, n_boot=0).height == 1


def test_threshold_table_rows_describe_their_own_hands():
    # Many hands whose points equal their card points: each class's mean must lie in its band.
    df = T.simulate_forced_hands(n_hands=150, samples_per_hand=3, seed=4,
                                 simulator=lambda h, r, bg, n: np.full(n, card_points(h)))
    t = T.threshold_table(df, by=("points_band",), min_hands=1, n_boot=0)
    bounds = {"<20": (0, 19), "20-29": (20, 29), "30-39": (30, 39), "40-49": (40, 49), "50+": (50, 74)}
    for band, mean in zip(t["points_band"].cast(pl.String), t["mean_points"]):
        lo, hi = bounds[band]
        assert lo <= mean <= hi, (band, mean)
    # 150 hands, each at three seats: 150 hands, 450 (hand, seat) rows
    assert t["hands"].sum() == 150 and t["hand_seats"].sum() == 450


def test_threshold_table_bootstrap_interval_brackets_the_estimate():
    rng = np.random.default_rng(0)
    rows = {(i, NO_MARRIAGE, "middle"): list(rng.normal(110, 10, 50).astype(int)) for i in range(40)}
    t = T.threshold_table(completions(rows), by=("points_band",), min_hands=1, n_boot=200)
    r = t.row(0, named=True)
    for q in ("50", "70", "80"):
        if r[f"bid_{q}"] is not None:
            lo, hi = r[f"bid_{q}_low"], r[f"bid_{q}_high"]
            assert lo is None or lo <= r[f"bid_{q}"]
            assert hi is not None and r[f"bid_{q}"] <= hi


def test_bid_step_and_cap_options():
    df = completions({(0, NO_MARRIAGE, "forehand"): [100, 110, 120, 130, 140]})
    steps10 = dataclasses.replace(CLASSIC, bid_step=10)
    assert T.hand_outcomes(df, steps10)["bid_50"][0] == 120
    df = completions({(0, NO_MARRIAGE, "forehand"): [150] * 3})
    assert T.hand_outcomes(df, dataclasses.replace(CLASSIC, bid_cap="none"))["bid_90"][0] == 150


def _linear_fake(hand, role, bitgen, n):
    """Deterministic points: 50 + 2 x card points + marriage value (no noise)."""
    np.random.Generator(bitgen).random(n)   # read the stream like a real simulator would
    return np.full(n, 50 + 2 * card_points(hand) + marriage_points(hand))


def _noisy_fake(hand, role, bitgen, n):
    g = np.random.Generator(bitgen)
    mu = 30 + 1.5 * card_points(hand) + 0.8 * marriage_points(hand) + (5 if role == "forehand" else 0)
    return np.clip(g.normal(mu, 20, n), 0, None).astype(int)


def test_simulate_forced_hands_shape_seed_and_workers():
    a = T.simulate_forced_hands(n_hands=30, samples_per_hand=8, seed=5, simulator=_noisy_fake, chunk_hands=7)
    assert a.columns == ["hand_id", "hand", "role", "points"] and a.height == 30 * 3 * 8
    per = a.group_by("hand_id").agg(pl.col("role").n_unique(), pl.len(), pl.col("hand").n_unique().alias("h"))
    assert (per["role"] == 3).all() and (per["len"] == 24).all() and (per["h"] == 1).all()
    assert all(bin(h).count("1") == 7 for h in a["hand"].unique())
    b = T.simulate_forced_hands(n_hands=30, samples_per_hand=8, seed=5, simulator=_noisy_fake, chunk_hands=7, jobs=2)
    assert a.equals(b)
    c = T.simulate_forced_hands(n_hands=30, samples_per_hand=8, seed=6, simulator=_noisy_fake, chunk_hands=7)
    assert not a.equals(c)


def test_random_hands_are_uniform():
    hands = T.random_hands(np.random.PCG64(3), 4000)
    pts = np.array([card_points(int(h)) for h in hands], dtype=float)
    # E[points of 7 cards from the 120-point deck] = 7 * 120 / 24 = 35
    assert abs(pts.mean() - 35) < 4 * pts.std(ddof=1) / np.sqrt(len(pts))
    # every card appears with probability 7/24
    freq = np.array([(hands >> c & 1).mean() for c in range(24)])
    assert np.all(np.abs(freq - 7 / 24) < 4 * np.sqrt(7 / 24 * 17 / 24 / len(hands)))


def test_rule_of_thumb_recovers_a_linear_truth():
    df = T.simulate_forced_hands(n_hands=300, samples_per_hand=4, seed=1, simulator=_linear_fake)
    rule = T.fit_rule_of_thumb(df, probability=0.8)
    assert rule.coefficients["points"] == pytest.approx(2.0, abs=1e-6)
    assert rule.coefficients["marriage_points"] == pytest.approx(1.0, abs=1e-6)
    assert rule.coefficients["intercept"] == pytest.approx(50.0, abs=1e-6)
    assert rule.rounded == {"intercept": 50.0, "points": 2.0, "marriage_points": 1.0, "aces": 0.0, "aces_with_ten": 0.0}
    assert rule.test["mae_points"] == pytest.approx(0.0, abs=1e-6)
    assert rule.test["bid_exact"] == 1.0 and rule.test["overbid"] == 0.0
    assert rule.test["p_make_at_rule_bid"] == 1.0      # deterministic points: a bid at the level is always made
    assert rule.n_train + rule.n_test == df.select("hand_id", "role").unique().height
    assert "2 x card points" in rule.formula() and "aces" not in rule.formula().split("(")[0]
    # The baseline (one bid for every hand) is much worse.
    assert rule.baseline["mae_points"] > 10


def slope_standard_errors(df, rule) -> dict[str, float]:
    """Least-squares standard errors of the rule's fitted coefficients (on all rows, scaled
    to the rows it was fitted on)."""
    out = T.hand_outcomes(df, CLASSIC, probabilities=(rule.probability,))
    X = np.column_stack([np.ones(out.height), T._design(out, rule.features)])
    y = out[f"level_{round(rule.probability * 100)}"].to_numpy().astype(float)
    beta = np.array([rule.coefficients[k] for k in ("intercept", *rule.features)])
    resid = y - X @ beta
    var = resid @ resid / (len(y) - X.shape[1]) * np.linalg.inv(X.T @ X) * len(y) / rule.n_train
    return dict(zip(("intercept", *rule.features), np.sqrt(np.diag(var)).tolist()))


def test_rule_of_thumb_on_noisy_data_is_honest_about_accuracy():
    df = T.simulate_forced_hands(n_hands=400, samples_per_hand=60, seed=2, simulator=_noisy_fake)
    rule = T.fit_rule_of_thumb(df, probability=0.8)
    # truth: level_80 ~ 30 - 0.84*20 + 1.5 pts + 0.8 marriage (+ role effect), nothing for
    # aces: the slopes are recovered within 4 standard errors (least squares: the residual
    # variance times (X'X)^-1, scaled to the training share of the rows; about 0.023 for
    # points, 0.004 for marriages)
    truth = {"points": 1.5, "marriage_points": 0.8, "aces": 0.0, "aces_with_ten": 0.0}
    se = slope_standard_errors(df, rule)
    for name, value in truth.items():
        assert abs(rule.coefficients[name] - value) < 4 * se[name], (name, rule.coefficients[name], se[name])
    assert rule.test["mae_points"] < rule.baseline["mae_points"]
    tab = T.rule_of_thumb_table(rule)
    assert tab.height == 4 and {"mae_points", "bid_within_10", "p_make_at_rule_bid"} <= set(tab.columns)


def test_heatmap_writes_a_png(tmp_path):
    df = T.simulate_forced_hands(n_hands=200, samples_per_hand=20, seed=3, simulator=_noisy_fake)
    t = T.threshold_table(df, by=("points_band", "marriage_value"), min_hands=3, n_boot=50)
    path = tmp_path / "heat.png"
    T.plot_threshold_heatmap(t, path)
    assert path.stat().st_size > 10_000


@pytest.mark.filterwarnings("error")
def test_heatmap_of_a_single_cell_draws_without_warnings(tmp_path):
    df = completions({(0, NO_MARRIAGE, "forehand"): [100, 110, 120, 130, 140]})
    t = T.threshold_table(df, by=("points_band", "marriage_value"), min_hands=1, n_boot=0)
    assert t.height == 1
    T.plot_threshold_heatmap(t, tmp_path / "one.png")
    assert (tmp_path / "one.png").stat().st_size > 5_000


@pytest.mark.filterwarnings("error")
def test_heatmap_with_no_class_large_enough_says_so_without_warnings(tmp_path):
    # a very small run: every class has fewer hands than min_hands, the table is empty
    df = completions({(0, NO_MARRIAGE, "forehand"): [100, 110, 120]})
    t = T.threshold_table(df, by=("points_band", "marriage_value"), min_hands=5, n_boot=0)
    assert t.height == 0
    T.plot_threshold_heatmap(t, tmp_path / "none.png")
    assert (tmp_path / "none.png").stat().st_size > 5_000


def test_real_kernel_thresholds_pipeline_runs_and_is_reproducible():
    a = T.simulate_forced_hands(CLASSIC, n_hands=40, samples_per_hand=50, seed=7, chunk_hands=16)
    b = T.simulate_forced_hands(CLASSIC, n_hands=40, samples_per_hand=50, seed=7, chunk_hands=16)
    assert a.equals(b) and a.height == 40 * 3 * 50
    assert (a["points"] >= 0).all() and (a["points"] <= 400).all()
    out = T.hand_outcomes(a, CLASSIC)
    # Stronger hands reach more: the 4 strongest hands' mean beats the 4 weakest's.
    per = out.group_by("hand_id").agg(pl.col("hand_points").first(), pl.col("mean_points").mean()).sort("hand_points")
    assert per["mean_points"].tail(4).mean() > per["mean_points"].head(4).mean()
    t = T.threshold_table(a, CLASSIC, by=("points_band",), min_hands=1, n_boot=20)
    assert t["hands"].sum() == 40 and t["hand_seats"].sum() == 120


def test_bootstrap_resamples_whole_hands():
    # One hand at three seats: a single resampling unit, so every replicate is the data itself.
    df = completions({(0, NO_MARRIAGE, "forehand"): [100, 110, 120, 130, 140],
                      (0, NO_MARRIAGE, "middle"): [80, 90, 100, 110, 120],
                      (0, NO_MARRIAGE, "rear"): [100, 100, 100, 100, 100]})
    r = T.threshold_table(df, by=("points_band",), min_hands=1, n_boot=50).row(0, named=True)
    assert r["hands"] == 1 and r["hand_seats"] == 3
    for q in ("50", "70", "80"):
        assert r[f"bid_{q}_low"] == r[f"bid_{q}"] == r[f"bid_{q}_high"]


def test_min_hands_counts_distinct_hands_not_seats():
    # Four hands of one class, each at all three seats: 12 (hand, seat) rows but 4 hands.
    other = parse_hand("AS TS AC 9D JD 9H QC")            # same class as NO_MARRIAGE
    third = parse_hand("AS TS AC 9D JD QH 9C")            # 37 points, no marriage, 2 aces, 1 with ten
    fourth = parse_hand("AS TS AC 9D QD 9H JC")
    rows = {(i, h, role): [100, 110, 120] for i, h in enumerate((NO_MARRIAGE, other, third, fourth))
            for role in T.ROLES}
    df = completions(rows)
    t = T.threshold_table(df, min_hands=4, n_boot=0)
    assert t.height == 1 and t["hands"][0] == 4 and t["hand_seats"][0] == 12
    # 12 rows do not make 5 hands: the class is left out
    assert T.threshold_table(df, min_hands=5, n_boot=0).height == 0


def _text_outside(fig) -> list[str]:
    """Every visible text of ``fig`` that does not fit inside the figure, once drawn."""
    import matplotlib.text

    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    box = fig.bbox
    out = []
    for t in fig.findobj(matplotlib.text.Text):
        if not t.get_visible() or not t.get_text().strip():
            continue
        b = t.get_window_extent(renderer)
        if b.x0 < box.x0 - 1 or b.y0 < box.y0 - 1 or b.x1 > box.x1 + 1 or b.y1 > box.y1 + 1:
            out.append(t.get_text())
    return out


@pytest.mark.parametrize("n_hands", [1, 3, 200])
def test_heatmap_text_always_fits_the_figure(n_hands):
    # A one-cell grid used to get a figure too small for its title, axis and colour-bar labels.
    import matplotlib.pyplot as plt

    if n_hands == 1:
        df = completions({(0, NO_MARRIAGE, "forehand"): [100, 110, 120, 130, 140]})
    elif n_hands == 3:
        df = completions({(0, NO_MARRIAGE, "forehand"): [100] * 5, (1, HEARTS, "forehand"): [150] * 5,
                          (2, TWO_MARRIAGES, "forehand"): [120] * 5})
    else:
        df = T.simulate_forced_hands(n_hands=200, samples_per_hand=20, seed=3, simulator=_noisy_fake)
    t = T.threshold_table(df, by=("points_band", "marriage_value"), min_hands=1, n_boot=20)
    fig = T.threshold_heatmap_figure(t)
    try:
        assert _text_outside(fig) == []
        w, h = fig.get_size_inches()
        assert w >= T.HEATMAP_MIN_SIZE[0] and h >= T.HEATMAP_MIN_SIZE[1]
    finally:
        plt.close(fig)


def test_heatmap_labels_say_what_the_data_are():
    # Cells count distinct hands; the colour is the share of deals that make 100, a measure
    # that does not jump when a class's points have two humps; a thin class is hatched.
    import matplotlib.pyplot as plt

    df = completions({(0, NO_MARRIAGE, r): [100, 110, 120] for r in T.ROLES})
    t = T.threshold_table(df, by=("points_band", "marriage_value"), min_hands=1, n_boot=0)
    fig = T.threshold_heatmap_figure(t)
    try:
        ax, bar = fig.axes
        texts = [x.get_text() for x in ax.texts]
        # P(>= 100) = 1, P(>= 101) = 2/3 < 0.8: bid 100; median 110; one hand, though three seats
        assert texts == ["bid 100\n100 made 100%\nmedian 110\nn=1"]
        assert "distinct hands" in ax.get_title() and f"fewer than {T.THIN_HANDS} hands" in ax.get_title()
        assert "making 100" in bar.get_ylabel()
        assert [p.get_hatch() for p in ax.patches] == ["///"]          # 1 hand < THIN_HANDS: hatched
        assert ax.images[0].get_array()[0, 0] == 1.0                    # coloured by p_100
    finally:
        plt.close(fig)


def test_share_making_100_is_pooled_over_a_class():
    # Two hands of one class: [0, 0, 130, 140] and [100, 90, 0, 200]: 4 of 8 completions reach 100.
    df = completions({(0, NO_MARRIAGE, "forehand"): [0, 0, 130, 140], (1, NO_MARRIAGE, "forehand"): [100, 90, 0, 200]})
    t = T.threshold_table(df, by=("marriage_value",), min_hands=1, n_boot=0)
    assert t["p_100"].to_list() == [0.5]
    # a class whose deals are 0 or 200 in equal parts: the 80% level is 0, the share making 100
    # is 1/2, and the median (the largest x reached with 50%) is 200
    t = T.threshold_table(completions({(0, NO_MARRIAGE, "forehand"): [0, 200] * 5}), by=("marriage_value",),
                          min_hands=1, n_boot=0)
    assert t["level_80"].to_list() == [0] and t["p_100"].to_list() == [0.5] and t["level_50"].to_list() == [200]


def test_impossible_probabilities_and_empty_frames_are_refused_by_name():
    # 1.5 gave columns of -1, 0.751 and 0.754 one bid_75 (one probability lost): try-out 14
    h = T.simulate_forced_hands(n_hands=30, samples_per_hand=8, seed=5, simulator=_noisy_fake, chunk_hands=7)
    for probabilities, needle in (((1.5,), "between 0 and 1, got 1.5"), ((float("nan"),), "between 0 and 1"),
                                  ((0.751, 0.754), "name the same columns")):
        with pytest.raises(ValueError, match=needle):
            T.threshold_table(h, CLASSIC, probabilities=probabilities)
        with pytest.raises(ValueError, match=needle):
            T.hand_outcomes(h, CLASSIC, probabilities=probabilities)
    with pytest.raises(ValueError, match="no completions"):
        T.threshold_table(h.head(0), CLASSIC)
    with pytest.raises(ValueError, match="min_hands must be at least 1"):
        T.threshold_table(h, CLASSIC, min_hands=0)
    one = T.threshold_table(h, CLASSIC, by="aces", min_hands=1)      # one column named alone is a list of one
    assert one.equals(T.threshold_table(h, CLASSIC, by=["aces"], min_hands=1))
    assert T.threshold_table(h, CLASSIC, probabilities=(np.float64(0.8),), min_hands=1).height > 0
    # one probability given alone is a tuple of one; fit_rule_of_thumb names its own argument
    assert T.threshold_table(h, CLASSIC, probabilities=0.8, min_hands=1).equals(
        T.threshold_table(h, CLASSIC, probabilities=(0.8,), min_hands=1))
    with pytest.raises(ValueError, match="probability must lie between 0 and 1, got 80"):
        T.fit_rule_of_thumb(h, CLASSIC, probability=80)
