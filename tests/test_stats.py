"""The shared statistics helpers: published values, edge cases, and coverage."""
import math
import re

import numpy as np
import polars as pl
import pytest

from thousand.analysis import stats as S
from thousand.analysis.stats import (
    T_NORMAL_DF, Z95, bootstrap_mean_interval, mean_diff_interval, mean_interval, proportion_diff_interval, t_quantile, wilson_exprs,
    wilson_interval, z_for,
)


def test_wilson_matches_published_values():
    # Newcombe (1998), Table I: 81/263 -> 0.2553 .. 0.3662; 15/148 -> 0.0624 .. 0.1605.
    lo, hi = wilson_interval([81, 15], [263, 148])
    assert np.round(lo, 4).tolist() == [0.2553, 0.0624]
    assert np.round(hi, 4).tolist() == [0.3662, 0.1605]


def test_wilson_edges():
    lo, hi = wilson_interval([0, 10, 3], [10, 10, 0])
    assert lo[0] == 0.0 and hi[1] == 1.0
    assert math.isclose(hi[0], Z95 ** 2 / (10 + Z95 ** 2))  # closed form at k = 0
    assert np.isnan(lo[2]) and np.isnan(hi[2])


def test_wilson_exprs_equal_numpy_version():
    rng = np.random.default_rng(5)
    n = rng.integers(1, 5000, 200)
    k = rng.integers(0, n + 1)
    k[:3] = [0, n[1], 0]
    lo, hi = wilson_interval(k, n)
    elo, ehi = wilson_exprs("k", "n")
    out = pl.DataFrame({"k": k, "n": n}).select(elo.alias("lo"), ehi.alias("hi"))
    np.testing.assert_allclose(out["lo"].to_numpy(), lo, rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(out["hi"].to_numpy(), hi, rtol=1e-12, atol=1e-15)
    empty = pl.DataFrame({"k": [0], "n": [0]}).select(elo.alias("lo"))
    assert empty["lo"][0] is None


def test_wilson_coverage_is_close_to_95_percent():
    # 4000 binomial draws at p = 0.03, n = 500: coverage 0.95 +- 4 standard errors.
    rng = np.random.default_rng(11)
    p, n, reps = 0.03, 500, 4000
    k = rng.binomial(n, p, reps)
    lo, hi = wilson_interval(k, n)
    cover = np.mean((lo <= p) & (p <= hi))
    assert abs(cover - 0.95) < 4 * math.sqrt(0.95 * 0.05 / reps)


def test_newcombe_difference_published_example():
    # Newcombe (1998), Table II example (e): 56/70 vs 48/80 -> 0.0524 .. 0.3339.
    d, lo, hi = proportion_diff_interval(56, 70, 48, 80)
    assert (round(float(d), 4), round(float(lo), 4), round(float(hi), 4)) == (0.2, 0.0524, 0.3339)


def test_mean_interval_is_student_t_with_n_minus_1_degrees_of_freedom():
    # Two-sided 97.5% quantiles from a printed table (6 decimals): t(4), t(29), t(1000).
    for n, t in ((5, 2.776445), (30, 2.045230), (1001, 1.962339)):
        lo, hi = mean_interval(0.0, 1.0, n)
        assert math.isclose(float(hi), t / math.sqrt(n), rel_tol=1e-6) and float(lo) == -float(hi)
    # the normal beyond T_NORMAL_DF degrees of freedom, where t and normal agree to 1e-5
    n = T_NORMAL_DF + 2
    lo, hi = mean_interval(0.0, 1.0, n)
    assert math.isclose(float(hi), Z95 / math.sqrt(n), rel_tol=1e-12)
    lo, hi = mean_interval([3.0, 3.0], [1.0, 1.0], [1, 5])
    assert np.isnan(lo[0]) and np.isnan(hi[0]) and math.isclose(hi[1], 3 + 2.776445 / math.sqrt(5), rel_tol=1e-6)


def losses(rng: np.random.Generator, n: int) -> np.ndarray:
    """Points lost per deal, as the solver measures them: 0 on 60% of deals, else a long
    tail (geometric, mean 12.5): the mean is 0.4 * 12.5 = 5."""
    return np.where(rng.random(n) < 0.6, 0, rng.geometric(0.08, n)).astype(float)


def test_bootstrap_mean_interval_keeps_to_the_support_and_knows_when_it_knows_nothing():
    x = np.array([0.0] * 20 + [40.0])
    lo, hi = mean_interval(x.mean(), x.std(ddof=1), x.size)
    assert lo < 0                                   # Student t: a negative mean loss
    lo, hi = bootstrap_mean_interval(x)
    assert 0 <= lo < x.mean() < hi <= 40
    # the order of the values and a second call change nothing; the seed picks the resamples
    assert bootstrap_mean_interval(x[::-1]) == (lo, hi) == bootstrap_mean_interval(x, seed=0)
    y = losses(np.random.default_rng(3), 50)
    assert bootstrap_mean_interval(y, seed=1) != bootstrap_mean_interval(y, seed=2)
    # fewer than 2 values, or no spread: unknown (NaN), never a zero-width [x, x]
    for sample in ([], [5.0], [10.0, 10.0], [0.0] * 40):
        assert all(math.isnan(v) for v in bootstrap_mean_interval(sample)), sample


def test_bootstrap_mean_interval_coverage_is_close_to_95_percent():
    # 1000 samples of 100 skewed losses (true mean 5): coverage 0.95 +- 4 standard errors
    # (999 resamples each, for time; BCa is approximate, its coverage at n = 100 is near 0.95)
    rng = np.random.default_rng(13)
    reps = 1000
    hits = 0
    for r in range(reps):
        lo, hi = bootstrap_mean_interval(losses(rng, 100), seed=r, resamples=999)
        hits += lo <= 5.0 <= hi
    assert abs(hits / reps - 0.95) < 4 * math.sqrt(0.95 * 0.05 / reps)


def test_one_normal_and_one_t_quantile():
    # scipy's, at any confidence; the 95% normal quantile is the constant Z95 exactly.
    assert z_for(0.95) == Z95
    assert math.isclose(z_for(0.99), 2.5758293035489, rel_tol=1e-12)
    assert math.isclose(t_quantile(0.99, 10), 3.169273, rel_tol=1e-6)
    assert t_quantile(0.95, T_NORMAL_DF + 1) == Z95


def test_mean_diff_interval_is_welch():
    d, lo, hi = mean_diff_interval(5.0, 2.0, 50, 4.0, 1.0, 200)
    se = math.sqrt(4 / 50 + 1 / 200)
    assert math.isclose(float(d), 1.0)
    assert math.isclose(float(lo), 1.0 - Z95 * se) and math.isclose(float(hi), 1.0 + Z95 * se)


def test_z_for():
    assert math.isclose(z_for(0.95), Z95, rel_tol=1e-9)
    with pytest.raises(ValueError):
        z_for(1.5)


@pytest.mark.parametrize("module", ["stats", "combinatorics", "masks"])
def test_docstring_examples(module):
    import doctest
    import importlib

    mod = importlib.import_module(f"thousand.analysis.{module}")
    result = doctest.testmod(mod, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0


@pytest.mark.parametrize("call, needle", [
    # a percentage for a level gave NaN intervals beside a real p-value (hostile try-out 14)
    (lambda: S.t_quantile(1.5, 10), "confidence must be between 0 and 1, got 1.5"),
    (lambda: S.paired_mean_diff(np.arange(5.), np.arange(5.) + [0, 1, 0, 2, 1], confidence=95), "got 95"),
    (lambda: S.paired_proportion_diff(np.array([1, 0, np.nan, 0] * 10), np.array([1, 1, 0, 0] * 10)), "0/1"),
    (lambda: S.paired_proportion_diff(np.array([2, 0] * 10), np.array([1, 1] * 10)), "0/1"),
    (lambda: S.wilson_interval(11, 10), "between 0 and the trials"),
    (lambda: S.wilson_interval(-1, 10), "between 0 and the trials"),
    (lambda: S.mcnemar_p(-1, 5), "must be whole numbers >= 0"),
    (lambda: S.median_interval(np.array([3., np.nan, 1, 2, 5])), "holds NaN"),
    (lambda: S.quantile_interval(np.arange(10.), 1.5), "q must be between 0 and 1"),
    (lambda: S.quantile_interval(np.arange(10.), -0.1), "q must be between 0 and 1"),
    (lambda: S.quantile_interval(np.array([1., 2, np.inf]), 0.5), "NaN or infinite"),
    (lambda: S.mcnemar_p(np.nan, 3), "whole numbers >= 0"),
    (lambda: S.wilson_interval(1, -3), "(n >= 0)"),
])
def test_impossible_arguments_are_refused_by_name(call, needle):
    with pytest.raises(ValueError, match=re.escape(needle)):
        call()


def test_the_checks_let_the_edges_through():
    lo, hi = S.wilson_interval([0, 5, 0], [0, 5, 10])      # n = 0 gives NaN, k = n and k = 0 their bounds
    assert np.isnan(lo[0]) and hi[1] == 1.0 and lo[2] == 0.0
    assert S.paired_proportion_diff(np.array([True, False] * 10), np.array([1, 1] * 10)).diff == 0.5
    assert S.quantile_interval(np.arange(10.), 0.0)[0] == 0.0 and S.quantile_interval(np.arange(10.), 1.0)[0] == 9.0
