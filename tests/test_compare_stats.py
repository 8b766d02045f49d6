"""The statistics ``thousand.analysis.compare`` uses (``analysis/stats.py``): known answers and coverage by simulation.

Coverage checks draw many samples with a known truth and count how often the 95%
interval covers it; the tolerance is 4 binomial standard errors of that count.
"""
import math

import numpy as np
import pytest

from thousand.analysis.stats import (
    Z95, holm, mcnemar_p, median_interval, paired_mean_diff, paired_median_diff, paired_proportion_diff,
    paired_quantile_diff, paired_ratio_diff, proportion_diff_interval, quantile_interval, ratio_estimate,
    t_quantile, t_two_sided_p, two_sided_p, weighted_quantiles,
)

TRIALS = 1500
COVER_TOL = 4 * math.sqrt(0.95 * 0.05 / TRIALS)


# ----------------------------------------------------------------------------- Holm
def test_holm_known_example():
    # Sorted: 0.005*4 = 0.02, 0.01*3 = 0.03, 0.03*2 = 0.06, 0.04*1 = 0.04 -> 0.06 (monotone).
    assert holm([0.01, 0.04, 0.03, 0.005]) == pytest.approx([0.03, 0.06, 0.06, 0.02])


def test_holm_caps_at_one_skips_none_and_keeps_order():
    assert holm([0.5, None, 0.4, float("nan")]) == [0.8, None, 0.8, None]
    assert holm([]) == []
    assert holm([0.9]) == [0.9]


def test_holm_is_never_below_raw_and_monotone_in_raw():
    rng = np.random.default_rng(5)
    p = list(rng.random(20) ** 3)
    adj = holm(p)
    assert all(a >= r for a, r in zip(adj, p))
    order = np.argsort(p)
    assert all(adj[order[i]] <= adj[order[i + 1]] for i in range(len(p) - 1))


# ----------------------------------------------------------------------------- means
# Two-sided 97.5% Student t quantiles from a printed table.
T975_TABLE = {1: 12.706205, 2: 4.302653, 3: 3.182446, 4: 2.776445, 10: 2.228139, 29: 2.045230,
              30: 2.042272, 100: 1.983972, 1000: 1.962339}


def t_two_sided_by_integration(t: float, df: int, steps: int = 20_000) -> float:
    """Reference p-value: Simpson's rule on Student's t density, independent of the code tested."""
    def pdf(x: float) -> float:
        return (math.exp(math.lgamma((df + 1) / 2) - math.lgamma(df / 2)) / math.sqrt(df * math.pi)
                * (1 + x * x / df) ** (-(df + 1) / 2))
    h = t / steps
    total = pdf(0.0) + pdf(t) + sum((4 if i % 2 else 2) * pdf(i * h) for i in range(1, steps))
    return 1 - 2 * total * h / 3


def test_paired_mean_diff_by_hand():
    x = np.array([0.0, 2, 4, 6])
    y = np.array([1.0, 3, 6, 8])
    d = paired_mean_diff(x, y)
    # Differences 1, 1, 2, 2: mean 1.5, sd sqrt(1/3); variances of x and y 20/3 and 29/3.
    # Four pairs: Student t with 3 degrees of freedom, interval and paired t-test.
    se = math.sqrt(1 / 3) / 2
    assert d.diff == 1.5
    assert (d.low, d.high) == pytest.approx((1.5 - T975_TABLE[3] * se, 1.5 + T975_TABLE[3] * se))
    assert d.p_value == pytest.approx(t_two_sided_by_integration(1.5 / se, 3), rel=1e-6)
    assert d.p_value > 2 * two_sided_p(1.5 / se)       # the z-test would claim far more
    # Unpaired: Welch's interval, with Welch-Satterthwaite degrees of freedom.
    va, vb = 20 / 3, 29 / 3
    se_u = math.sqrt((va + vb) / 4)
    df_u = (va + vb) ** 2 * 3 / (va ** 2 + vb ** 2)
    q_u = t_quantile(0.95, df_u)
    assert T975_TABLE[10] < q_u < T975_TABLE[3]
    assert (d.unpaired_low, d.unpaired_high) == pytest.approx((1.5 - q_u * se_u, 1.5 + q_u * se_u))
    assert d.variance_reduction == pytest.approx(1 - (1 / 3) / (49 / 3))


def test_differences_all_equal_are_judged_by_the_sign_test_not_called_certain():
    # compare --games 2: two games that happened to differ by 6 each were "significant",
    # p < 1e-4 (hostile try-out 4); every difference of one sign has p = 2^(1 - n)
    two = paired_mean_diff(np.array([3.0, 14]), np.array([-3.0, 8]))
    assert (two.diff, two.low, two.high) == (-6.0, -6.0, -6.0) and two.p_value == 0.5
    many = paired_mean_diff(np.zeros(20), np.full(20, 2.0))
    assert many.p_value == 2.0 ** -19 and many.p_value < 1e-5
    assert paired_mean_diff(np.ones(5), np.ones(5)).p_value == 1.0


def test_paired_interval_narrower_than_unpaired_under_positive_correlation():
    rng = np.random.default_rng(11)
    common = rng.normal(0, 10, 4000)           # what both rule sets share (the shuffle)
    x = common + rng.normal(0, 1, 4000)
    y = common + 0.3 + rng.normal(0, 1, 4000)
    d = paired_mean_diff(x, y)
    # Known answer: var(x) = var(y) = 101, var(y - x) = 2: widths in ratio sqrt(202 / 2).
    assert d.pairing_gain == pytest.approx(math.sqrt(202 / 2), rel=0.1)
    assert d.width < (d.unpaired_high - d.unpaired_low) / 5
    assert d.low < 0.3 < d.high


def test_independent_samples_gain_nothing_from_pairing():
    rng = np.random.default_rng(12)
    d = paired_mean_diff(rng.normal(0, 1, 20000), rng.normal(0, 1, 20000))
    # Uncorrelated: var(y - x) = var(x) + var(y), gain 1 up to sampling error (~1%).
    assert d.pairing_gain == pytest.approx(1.0, abs=0.03)


def test_identical_samples_give_exact_zero():
    x = np.arange(50.0) % 7
    d = paired_mean_diff(x, x)
    assert (d.diff, d.low, d.high, d.p_value, d.identical) == (0.0, 0.0, 0.0, 1.0, True)


def test_paired_mean_interval_coverage():
    rng = np.random.default_rng(21)
    covered = 0
    for _ in range(TRIALS):
        shared = rng.exponential(5, 200)
        x = shared + rng.normal(0, 2, 200)
        y = shared + rng.normal(0.5, 2, 200)
        d = paired_mean_diff(x, y)
        covered += d.low <= 0.5 <= d.high
    assert abs(covered / TRIALS - 0.95) < COVER_TOL


# ----------------------------------------------------------------------------- proportions
def test_mcnemar_exact_and_large():
    assert mcnemar_p(0, 0) == 1.0
    assert mcnemar_p(0, 6) == pytest.approx(2 / 64)
    assert mcnemar_p(3, 3) == 1.0
    # Exact: P(X <= 2) for Bin(10, 1/2) = 56/1024, doubled.
    assert mcnemar_p(2, 8) == pytest.approx(2 * 56 / 1024)
    assert mcnemar_p(60, 90) == pytest.approx(two_sided_p(-30 / math.sqrt(150)))


def test_paired_proportion_with_zero_phi_is_newcombe_independent():
    # Pairs built so the phi of the 2x2 table is exactly 0: the paired interval must equal
    # the independent-samples Newcombe interval of analysis.stats.
    x = np.array([1] * 20 + [1] * 20 + [0] * 30 + [0] * 30)
    y = np.array([1] * 20 + [0] * 20 + [1] * 30 + [0] * 30)
    d = paired_proportion_diff(x, y)
    ref = proportion_diff_interval(50, 100, 40, 100)
    assert (d.diff, d.low, d.high) == pytest.approx(tuple(float(v) for v in ref))
    assert (d.unpaired_low, d.unpaired_high) == pytest.approx((d.low, d.high))


def test_paired_proportion_identity_and_direction():
    x = np.array([1] * 30 + [0] * 70)
    d = paired_proportion_diff(x, x)
    assert d.diff == 0.0 and d.p_value == 1.0 and d.identical
    assert d.low <= 0.0 <= d.high and d.width < 0.05
    y = x.copy()
    y[30:45] = 1                                # 15 more successes, none lost
    d = paired_proportion_diff(x, y)
    assert d.diff == pytest.approx(0.15)
    assert d.low > 0 and d.p_value == pytest.approx(2 / 2 ** 15)
    assert d.width < d.unpaired_high - d.unpaired_low


def test_paired_proportion_coverage():
    rng = np.random.default_rng(31)
    covered = 0
    for _ in range(TRIALS):
        u = rng.random(300)
        x = (u < 0.40).astype(int)              # p = 0.40
        y = (u < 0.45).astype(int) ^ (rng.random(300) < 0.05)  # p = 0.45 * .95 + .55 * .05
        truth = 0.45 * 0.95 + 0.55 * 0.05 - 0.40
        d = paired_proportion_diff(x, y)
        covered += d.low <= truth <= d.high
    assert abs(covered / TRIALS - 0.95) < COVER_TOL


# ----------------------------------------------------------------------------- ratios
def test_ratio_estimate_by_hand():
    e = ratio_estimate(np.array([1.0, 2, 3]), np.array([2.0, 2, 2]))
    # R = 1; influence values (num - den) / 2 = -0.5, 0, 0.5; se = sqrt(0.25 / 3); 3 units:
    # t with 2 degrees of freedom.
    se = math.sqrt(0.25 / 3)
    assert e.value == 1.0
    assert (e.low, e.high) == pytest.approx((1 - T975_TABLE[2] * se, 1 + T975_TABLE[2] * se))
    empty = ratio_estimate(np.zeros(3), np.zeros(3))
    assert math.isnan(empty.value)


def test_ratio_proportion_stays_in_unit_interval():
    num = np.array([3.0, 4, 5, 5, 2])
    e = ratio_estimate(num, num, proportion=True)
    assert e.value == 1.0 and e.high == 1.0 and 0 < e.low < 1


def test_clustered_ratio_coverage():
    # Units (games) of unequal size whose deals share a unit effect: a binomial interval
    # over all deals would undercover; the clustered one must not.
    trials = 600
    big = np.random.default_rng(40).normal(0, 0.15, 2_000_000)
    truth_a = float(np.clip(0.60 + big, 0, 1).mean())   # Monte Carlo error ~1e-4
    truth_d = float(np.clip(0.65 + big, 0, 1).mean()) - truth_a
    rng = np.random.default_rng(41)
    covered_a = covered_d = 0
    for _ in range(trials):
        size = rng.integers(5, 40, 200).astype(float)
        effect = rng.normal(0, 0.15, 200)
        na = rng.binomial(size.astype(int), np.clip(0.60 + effect, 0, 1)).astype(float)
        nb = rng.binomial(size.astype(int), np.clip(0.65 + effect, 0, 1)).astype(float)
        e = ratio_estimate(na, size, proportion=True)
        covered_a += e.low <= truth_a <= e.high
        d = paired_ratio_diff(na, size, nb, size)
        covered_d += d.low <= truth_d <= d.high
    tol = 4 * math.sqrt(0.95 * 0.05 / trials)
    assert abs(covered_a / trials - 0.95) < tol
    assert abs(covered_d / trials - 0.95) < tol


def test_paired_ratio_identity():
    num, den = np.array([1.0, 5, 2, 0]), np.array([3.0, 6, 2, 1])
    d = paired_ratio_diff(num, den, num, den)
    assert (d.diff, d.low, d.high, d.p_value, d.identical) == (0.0, 0.0, 0.0, 1.0, True)


# ----------------------------------------------------------------------------- medians
def test_median_interval_order_statistics():
    med, lo, hi = median_interval(np.arange(1, 101))
    # n = 100: ranks floor(50 - 9.8) = 40 and ceil(51 + 9.8) = 61.
    assert (med, lo, hi) == (50.5, 40.0, 61.0)


def test_paired_median_diff_identity_shift_and_determinism():
    rng = np.random.default_rng(3)
    x = rng.integers(10, 40, 2000).astype(float)
    same = paired_median_diff(x, x)
    assert (same.diff, same.low, same.high, same.p_value, same.identical) == (0.0, 0.0, 0.0, None, True)
    shifted = paired_median_diff(x, x + 5)
    assert (shifted.diff, shifted.low, shifted.high) == (5.0, 5.0, 5.0)
    noisy = x + rng.integers(-3, 6, 2000)
    a = paired_median_diff(x, noisy, seed=9)
    assert a == paired_median_diff(x, noisy, seed=9)
    assert a.low <= a.diff <= a.high
    assert a.width <= a.unpaired_high - a.unpaired_low


def test_quantile_interval_ranks_and_weighted_quantiles_match_numpy():
    value, lo, hi = quantile_interval(np.arange(1, 101), 0.9)
    # n q = 90, z sqrt(n q (1 - q)) = 5.88: ranks floor(84.12) = 84 and ceil(96.88) = 97.
    assert (round(value, 9), lo, hi) == (90.1, 84.0, 97.0)
    rng = np.random.default_rng(2)
    for n in (2, 7, 10, 11, 500):
        x = rng.integers(0, 20, n).astype(float)
        values, counts = np.unique(x, return_counts=True)
        for q in (0.1, 0.25, 0.5, 0.9):
            assert weighted_quantiles(values, counts[None, :], n, q)[0] == pytest.approx(np.quantile(x, q))


def test_quantile_interval_coverage():
    rng = np.random.default_rng(51)
    truth = -math.log(1 - 0.9) * 10                     # 90th percentile of Exp(mean 10)
    covered = sum(lo <= truth <= hi for _, lo, hi in
                  (quantile_interval(rng.exponential(10, 400), 0.9) for _ in range(TRIALS)))
    # Order-statistic intervals are conservative (at least 95%), never much below.
    assert covered / TRIALS > 0.95 - COVER_TOL


def test_paired_quantile_diff_shift():
    rng = np.random.default_rng(4)
    x = rng.integers(10, 60, 3000).astype(float)
    d = paired_quantile_diff(x, x + 7, 0.9)
    assert (d.diff, d.low, d.high) == (7.0, 7.0, 7.0)
    noisy = paired_quantile_diff(x, x + rng.integers(0, 15, 3000), 0.1, seed=2)
    assert noisy.low <= noisy.diff <= noisy.high and noisy.low > 0


# ----------------------------------------------------------------------------- Student t
def test_t_quantiles_match_the_table():
    for df, q in T975_TABLE.items():
        assert t_quantile(0.95, df) == pytest.approx(q, abs=2e-6), df
    assert t_quantile(0.95, 10**9) == pytest.approx(Z95)
    assert t_quantile(0.99, 5) == pytest.approx(4.032143, abs=2e-6)


def test_t_p_values_match_numerical_integration():
    for t, df in [(5.196152, 3), (2.0, 7), (1.0, 1), (3.5, 40), (0.3, 12), (2.5, 1000)]:
        assert t_two_sided_p(t, df) == pytest.approx(t_two_sided_by_integration(t, df), rel=1e-7), (t, df)
    for df, q in T975_TABLE.items():
        assert t_two_sided_p(q, df) == pytest.approx(0.05, abs=1e-6)
    assert t_two_sided_p(-2.0, 7) == t_two_sided_p(2.0, 7)


def test_paired_mean_interval_coverage_with_four_pairs():
    # With four pairs a z interval covers only ~86% (P(|T_3| < 1.96)); the t one 95%.
    # The paired t-test rejects a true null 5% of the time (the z-test: ~14%).
    rng = np.random.default_rng(22)
    covered = rejected = 0
    for _ in range(TRIALS):
        shared = rng.normal(0, 5, 4)
        x = shared + rng.normal(0, 1, 4)
        y = shared + 0.5 + rng.normal(0, 1, 4)
        d = paired_mean_diff(x, y)
        covered += d.low <= 0.5 <= d.high
        rejected += paired_mean_diff(x, x + rng.normal(0, 1, 4)).p_value < 0.05
    assert abs(covered / TRIALS - 0.95) < COVER_TOL
    assert abs(rejected / TRIALS - 0.05) < COVER_TOL


def test_paired_ratio_diff_small_n_uses_t():
    num_a, den = np.array([1.0, 2, 4]), np.array([2.0, 2, 2])
    num_b = np.array([2.0, 2, 5])
    d = paired_ratio_diff(num_a, den, num_b, den)
    # Equal denominators: the ratio is the mean of num / 2, the differences (1, 0, 1) / 2.
    diffs = (num_b - num_a) / 2
    se = diffs.std(ddof=1) / math.sqrt(3)
    assert d.diff == pytest.approx(diffs.mean())
    assert (d.low, d.high) == pytest.approx((diffs.mean() - T975_TABLE[2] * se, diffs.mean() + T975_TABLE[2] * se))
    assert d.p_value == pytest.approx(t_two_sided_by_integration(diffs.mean() / se, 2), rel=1e-6)


# ----------------------------------------------------------------- tails and small samples
def test_holm_keeps_tiny_p_values_positive():
    # Rounding to 15 decimals once turned 2.37e-39 into 0.0, below its raw p-value.
    raw = [2.37e-39, 1e-300, 0.04]
    adj = holm(raw)
    assert adj == [2 * 2.37e-39, 3e-300, 0.04]
    assert all(a >= r > 0 for a, r in zip(adj, raw))


def test_normal_and_t_tails_stay_positive_far_out():
    # 2 (1 - cdf(z)) cancels to 0.0 past z ~ 8.3; the tail itself is ~2.26e-19 at z = 9.
    assert two_sided_p(9.0) == pytest.approx(math.erfc(9.0 / math.sqrt(2)), rel=1e-12)
    assert two_sided_p(9.0) == pytest.approx(2.2571768119076845e-19, rel=1e-9)
    assert two_sided_p(-30.0) > 0
    # Above T_NORMAL_DF the t tail is the normal one, so the same holds there.
    assert t_two_sided_p(9.0, 10**6) == pytest.approx(two_sided_p(9.0), rel=1e-12)
    # Below it the incomplete beta has no cancellation either: t = 20, df = 30 is ~1e-18.
    p = t_two_sided_p(20.0, 30)
    assert 0 < p < 1e-15


def _wilson_with(q, k, n):
    p = k / n
    centre = (p + q * q / (2 * n)) / (1 + q * q / n)
    half = q * math.sqrt(p * (1 - p) / n + q * q / (4 * n * n)) / (1 + q * q / n)
    return centre - half, centre + half


def test_ratio_proportion_interval_by_hand_uses_t_and_the_games():
    # R = 6/12 = 0.5; influence values (num - R den) / mean(den) = -0.25, 0, 0.25;
    # se^2 = 0.0625 / 3, effective n = 0.25 / se^2 = 12 (= the deals): Wilson at 6 of 12
    # with t on 2 df, not z.
    e = ratio_estimate(np.array([1.0, 2, 3]), np.array([4.0, 4, 4]), proportion=True)
    assert (e.low, e.high) == pytest.approx(_wilson_with(T975_TABLE[2], 6, 12))
    # Games that agree exactly (se = 0) count as at most their deals: 30 of 60, t on 2 df.
    e = ratio_estimate(np.array([10.0, 10, 10]), np.array([20.0, 20, 20]), proportion=True)
    assert (e.low, e.high) == pytest.approx(_wilson_with(T975_TABLE[2], 30, 60))


def test_ratio_proportion_effective_n_never_exceeds_the_deals():
    # Three games whose rates barely differ: the clustered se is tiny, but the interval
    # must be at least as wide as 109 independent deals would give (t on 2 df).
    num, den = np.array([25.0, 26, 26]), np.array([36.0, 37, 36])
    e = ratio_estimate(num, den, proportion=True)
    low, high = _wilson_with(T975_TABLE[2], 77, 109)
    assert (e.low, e.high) == pytest.approx((low, high))
    assert e.high - e.low > 0.3


@pytest.mark.parametrize("games", [3, 10])
def test_ratio_proportion_coverage_with_few_games(games):
    # Few games of ~35 deals with a game effect: the interval must cover at least 95%.
    trials = 1000
    rng = np.random.default_rng(60 + games)
    covered = 0
    for _ in range(trials):
        size = rng.integers(25, 45, games)
        rate = np.clip(0.7 + rng.normal(0, 0.1, games), 0, 1)   # symmetric: truth 0.7
        e = ratio_estimate(rng.binomial(size, rate).astype(float), size.astype(float), proportion=True)
        covered += e.low <= 0.7 <= e.high
    assert covered / trials > 0.95 - 4 * math.sqrt(0.95 * 0.05 / trials)


def test_a_count_s_interval_stops_at_zero_and_keeps_its_upper_end():
    # two games gave barrel entries 2.50 [-3.85, 8.85] (hostile try-out 4)
    from thousand.analysis import compare as C

    res = C.compare_rules(["classic", "classic:bolts=off"], n_games=2, seed=1, jobs=1, progress=False,
                          metrics=["barrel_entries", "bolt_penalties", "score_spread"])
    for r in res.rows:
        assert r.ci_low >= 0 and r.ci_low <= r.value <= r.ci_high, r
    floors = {m.name: m.floor for m in C.METRICS if m.kind in ("mean", "ratio")}
    assert floors["declarer_score"] is None and floors["barrel_entries"] == 0.0
    cut = [r for r in res.rows if r.ci_low == 0 and r.value > 0]
    assert cut, "no interval reached below zero: the test no longer shows the cut"
    # the upper end is still the t interval's: its half-width is more than the value, so
    # its lower end was below zero
    assert all(r.ci_high - r.value > r.value for r in cut)


def test_ratio_proportion_interval_is_not_capped_for_negatively_correlated_units():
    # A duplicate match's unit: one deck, A alone in each of three seats; a deck that
    # favours one seat makes A win there and lose elsewhere (correlation about -0.2 as in
    # standard against cautious, 4,000 games).  The clustered se is below the binomial
    # one of the 3 n seatings; capping the effective n at 3 n covered 99%, not 95%.
    trials, units, truth = 1000, 200, 0.4
    rng = np.random.default_rng(2026_12_05)
    covered = capped_covered = 0
    for _ in range(trials):
        # the deck favours one seat: A wins there with 0.9, elsewhere with 0.15 (mean 0.4;
        # the seats' wins correlate at about -0.26)
        favoured = rng.integers(0, 3, units)
        chance = np.where(np.arange(3) == favoured[:, None], 0.9, 0.15)
        wins = rng.random((units, 3)) < chance
        num, den = wins.sum(axis=1).astype(float), np.full(units, 3.0)
        e = ratio_estimate(num, den, proportion=True)
        covered += e.low <= truth <= e.high
        r = num.sum() / den.sum()
        low, high = _wilson_with(t_quantile(0.95, units - 1), r * den.sum(), den.sum())
        capped_covered += low <= truth <= high
    tol = 4 * math.sqrt(0.95 * 0.05 / trials)
    assert abs(covered / trials - 0.95) < tol, covered / trials
    assert capped_covered / trials > 0.95 + tol      # what the cap gave: the test sees it
