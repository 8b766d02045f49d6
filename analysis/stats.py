"""Every interval and test the tool prints, written once.

Every estimate carries an interval (95% unless asked otherwise).  The methods, chosen
for being right at the sample sizes we see (from a dozen rows in a rare hand class to
millions of deals), and who uses them:

* quantiles: one normal quantile (:func:`z_for`) and one Student t quantile
  (:func:`t_quantile`, :func:`t_for` for an interval from ``n`` units), both scipy's;
* a proportion: the Wilson score interval (good coverage even near 0 or 1, never outside
  ``[0, 1]``); as numpy (:func:`wilson_interval`) and as Polars expressions
  (:func:`wilson_exprs`) for lazy pipelines (bids, redeals, marriages, report, compare);
* a difference of two proportions: Newcombe's hybrid score interval (method 10) from the
  two Wilson intervals, unpaired (:func:`proportion_diff_interval`, marriages) or paired
  with the phi correlation of the pairs (:func:`paired_proportion_diff`, compare), with
  McNemar's test (:func:`mcnemar_p`);
* a mean: Student t with ``n - 1`` degrees of freedom (:func:`mean_interval`); the mean
  of a small, skewed sample that must respect its support (losses, never negative): the
  BCa bootstrap, scipy's (:func:`bootstrap_mean_interval`, play quality); a
  difference of independent means: Welch (:func:`mean_diff_interval`, marriages); a
  normal interval from an estimate and its standard error (:func:`normal_interval`); the
  mean of scores of +-b with Agresti-Coull pseudo-counts (:func:`pseudo_count_bound`, bids);
* paired differences on summaries of the units (:class:`Moments`): means, proportions,
  ratios (delta method, clustered by unit), with p-values from the t-test, and Holm's
  step-down correction over a family of p-values (:func:`holm`) -- compare;
* quantiles of a sample given as counts: a distribution-free order-statistic interval
  (:func:`quantile_interval`) and a paired bootstrap of their difference
  (:func:`paired_quantile_diff`);
* the bootstrap: resamples drawn as multinomial counts over the distinct values (or
  units) of a sample (:func:`bootstrap_counts`), percentile intervals
  (:func:`percentile_interval`) -- compare's quantile differences, the thresholds'
  bootstrap over hands.

Why the bootstrap is written here and not ``scipy.stats.bootstrap``: scipy resamples the
observations themselves, so it needs the whole sample in memory and draws ``n`` indices a
resample; a comparison keeps only the counts of each distinct pair of values (a few
hundred, however many games) and a multinomial draw over them is the same resampling at
a cost that does not grow with ``n`` (measured in ``docs/analysis.md``).  Where the whole
sample is small and in memory anyway (hundreds of solved deals) and its skew matters,
:func:`bootstrap_mean_interval` is scipy's BCa bootstrap.  The quantiles,
the incomplete beta of the t test and the inverse normal are scipy's.

>>> lo, hi = wilson_interval(5, 10)
>>> round(float(lo), 4), round(float(hi), 4)
(0.2366, 0.7634)
>>> holm([0.01, 0.04, 0.03, 0.005])
[0.03, 0.06, 0.06, 0.02]
"""
from __future__ import annotations

import dataclasses
import math
import numbers
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np
import polars as pl
from scipy import special

__all__ = [
    "json_number", "level_percent",
    "Z95", "z_for", "t_quantile", "t_for", "T_NORMAL_DF", "two_sided_p", "t_two_sided_p", "t_test_p", "welch_df",
    "mcnemar_p", "holm", "wilson_interval", "wilson_bounds", "wilson_exprs", "newcombe_interval",
    "proportion_diff_interval", "mean_interval", "bootstrap_mean_interval", "mean_diff_interval", "normal_interval", "pseudo_count_bound",
    "Diff", "Estimate", "Moments", "paired_mean_diff", "paired_proportion_diff", "ratio_estimate",
    "paired_ratio_diff", "mean_diff_from", "proportion_diff_from", "ratio_estimate_from", "ratio_diff_from",
    "quantile_interval", "median_interval", "quantile_from_counts", "weighted_quantiles",
    "paired_quantile_diff", "paired_median_diff", "paired_quantile_diff_from",
    "BOOTSTRAP_RESAMPLES", "BOOTSTRAP_TAG", "bootstrap_rng", "bootstrap_counts", "percentile_interval",
    "ControlVariate", "control_variate_mean",
]

Z95 = 1.959963984540054  # two-sided 95% normal quantile, z_for(0.95)
# Beyond this many degrees of freedom Student's t and the normal agree to better than
# 1e-5 (relative, quantile and p-value alike): the normal is used there.
T_NORMAL_DF = 100_000
BOOTSTRAP_RESAMPLES = 1_000
# Bootstrap draws come from their own stream, derived from the root seed
# (``SeedSequence([seed, BOOTSTRAP_TAG])``, see thousand.runner.seeding), so a comparison
# is reproducible and never touches the simulation's streams.
BOOTSTRAP_TAG = 0x0C0FFEE
#: Fewer units than this: a ratio's proportion interval is never narrower than the
#: binomial one of the deals counted (ratio_estimate_from)
FEW_UNITS = 30


# =========================================================================== quantiles
def z_for(confidence: float) -> float:
    """Two-sided normal quantile for ``confidence`` (0.95 -> 1.96): scipy's inverse normal.

    >>> round(z_for(0.95), 3), round(z_for(0.99), 3), z_for(0.95) == Z95
    (1.96, 2.576, True)
    """
    _check_confidence(confidence)
    return float(special.ndtri(0.5 + confidence / 2.0))


def _check_confidence(confidence: float) -> None:
    """A level like 0.95: 95 (a percentage) or NaN would give NaN intervals beside real p-values."""
    if not 0.0 < confidence < 1.0:
        raise ValueError(f"confidence must be between 0 and 1, got {confidence}")


@lru_cache(maxsize=256)
def t_quantile(confidence: float, df: float) -> float:
    """Two-sided Student t quantile: ``P(|T| <= q) = confidence`` with ``df`` degrees of freedom.

    scipy's ``stdtrit``; the normal quantile beyond :data:`T_NORMAL_DF` degrees of freedom.

    >>> round(t_quantile(0.95, 2), 3), round(t_quantile(0.95, 29), 3), round(t_quantile(0.95, 10**9), 3)
    (4.303, 2.045, 1.96)
    """
    _check_confidence(confidence)
    if df > T_NORMAL_DF:
        return z_for(confidence)
    return float(special.stdtrit(df, 0.5 + confidence / 2.0))


def t_for(confidence: float, n: int) -> float:
    """The quantile of an interval from ``n`` units: Student t with ``n - 1`` degrees of freedom."""
    return t_quantile(confidence, n - 1) if n > 1 else math.nan


def two_sided_p(z: float) -> float:
    """Two-sided normal p-value of a z statistic.

    >>> round(two_sided_p(1.959963984540054), 4)
    0.05
    """
    # erfc, not 1 - cdf: the subtraction cancels to 0.0 beyond |z| ~ 8.3, and a
    # million-unit comparison reaches that easily; erfc keeps the tail exact to ~1e-308.
    return math.erfc(abs(z) / math.sqrt(2.0))


def t_two_sided_p(t: float, df: float) -> float:
    """Two-sided p-value of Student's t statistic with ``df`` degrees of freedom.

    ``I_x(df/2, 1/2)`` at ``x = df / (df + t**2)``, scipy's regularised incomplete beta
    (exact in the tails, so tiny p-values stay positive down to ~1e-308); the normal
    beyond :data:`T_NORMAL_DF` degrees of freedom.

    >>> round(t_two_sided_p(2.776445, 4), 5), round(t_two_sided_p(12.7062, 1), 5)
    (0.05, 0.05)
    """
    if not math.isfinite(t):
        return 0.0 if math.isinf(t) else math.nan
    if df > T_NORMAL_DF:
        return two_sided_p(t)
    return min(1.0, float(special.betainc(df / 2.0, 0.5, df / (df + t * t))))


def t_test_p(diff: float, se: float, df: float) -> float:
    """p of a t-test on ``df + 1`` paired differences.

    A zero standard error means every difference is the same: the t statistic is infinite
    but says nothing on a few units (two games that happen to differ by the same amount
    would be "certain").  Then the exact sign test answers: all ``n`` differences of one
    sign have ``p = 2^(1 - n)`` (0.5 for 2 units, 2e-6 for 20).

    >>> t_test_p(6.0, 0.0, 1), t_test_p(0.0, 0.0, 1), t_test_p(1.0, 0.0, 20)
    (0.5, 1.0, 9.5367431640625e-07)
    """
    if not math.isfinite(diff) or not math.isfinite(se) or not df >= 1:
        return math.nan
    if se == 0.0:
        return 1.0 if diff == 0.0 else min(1.0, 2.0 ** (-df))
    return t_two_sided_p(diff / se, df)


def welch_df(var_a: float, var_b: float, n: int) -> float:
    """Welch-Satterthwaite degrees of freedom of two samples of ``n`` each."""
    denom = var_a * var_a + var_b * var_b
    if not denom > 0:
        return n - 1.0
    return (var_a + var_b) ** 2 * (n - 1.0) / denom


def mcnemar_p(b: int, c: int) -> float:
    """Two-sided McNemar p-value for ``b`` and ``c`` discordant pairs.

    Exact (binomial with p = 1/2, summed in whole numbers) below 100 discordant pairs,
    the chi-square (z) approximation above.

    >>> mcnemar_p(0, 0), round(mcnemar_p(0, 6), 5), round(mcnemar_p(60, 90), 5)
    (1.0, 0.03125, 0.01431)
    """
    if not all(isinstance(x, numbers.Integral) and not isinstance(x, bool) and x >= 0 for x in (b, c)):
        raise ValueError(f"mcnemar_p: discordant pair counts must be whole numbers >= 0, got {b!r} and {c!r}")
    n = b + c
    if n == 0:
        return 1.0
    if n < 100:
        k = min(b, c)
        tail = sum(math.comb(n, i) for i in range(k + 1)) / 2.0 ** n
        return min(1.0, 2.0 * tail)
    return two_sided_p((b - c) / math.sqrt(n))


# =========================================================================== proportions
def wilson_interval(k, n, z: float = Z95) -> tuple[np.ndarray, np.ndarray]:
    """Wilson score interval for ``k`` successes in ``n`` trials (NaN where ``n == 0``).

    >>> lo, hi = wilson_interval(0, 100)
    >>> float(lo), round(float(hi), 4)
    (0.0, 0.037)
    """
    k = np.asarray(k, dtype=float)
    n = np.asarray(n, dtype=float)
    if np.any(n < 0) or np.any((n > 0) & ~((k >= 0) & (k <= n))):
        # (n == 0 is an empty count: NaN bounds, as documented, whatever k)
        raise ValueError("wilson_interval: successes k must be between 0 and the trials n (n >= 0)")
    with np.errstate(invalid="ignore", divide="ignore"):
        p = k / n
        z2 = z * z
        denom = 1.0 + z2 / n
        centre = (p + z2 / (2.0 * n)) / denom
        half = z * np.sqrt(p * (1.0 - p) / n + z2 / (4.0 * n * n)) / denom
        lo = np.clip(centre - half, 0.0, 1.0)
        hi = np.clip(centre + half, 0.0, 1.0)
    # At k == 0 or k == n the exact bound is 0 or 1; rounding can leave 1e-17 there.
    lo = np.where(k == 0, 0.0, lo)
    hi = np.where(k == n, 1.0, hi)
    bad = n <= 0
    return np.where(bad, np.nan, lo), np.where(bad, np.nan, hi)


def wilson_exprs(k: pl.Expr | str, n: pl.Expr | str, z: float = Z95) -> tuple[pl.Expr, pl.Expr]:
    """The Wilson bounds as Polars expressions (null where ``n == 0``).

    >>> df = pl.DataFrame({"k": [5], "n": [10]})
    >>> lo, hi = wilson_exprs("k", "n")
    >>> df.select(lo.round(4).alias("lo"), hi.round(4).alias("hi")).row(0)
    (0.2366, 0.7634)
    """
    k = (pl.col(k) if isinstance(k, str) else k).cast(pl.Float64)
    n = (pl.col(n) if isinstance(n, str) else n).cast(pl.Float64)
    z2 = z * z
    p = k / n
    denom = 1.0 + z2 / n
    centre = (p + z2 / (2.0 * n)) / denom
    half = z * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt() / denom
    lo = pl.when(n <= 0).then(None).when(k == 0).then(0.0).otherwise((centre - half).clip(0.0, 1.0))
    hi = pl.when(n <= 0).then(None).when(k == n).then(1.0).otherwise((centre + half).clip(0.0, 1.0))
    return lo, hi


def wilson_bounds(k: float, n: float, z: float = Z95) -> tuple[float, float]:
    """:func:`wilson_interval` of one count, as two floats."""
    lo, hi = wilson_interval(k, n, z)
    return float(lo), float(hi)


def newcombe_interval(p1, l1, u1, p2, l2, u2, phi=0.0) -> tuple[np.ndarray, np.ndarray]:
    """Newcombe's hybrid bounds of ``p1 - p2`` from two Wilson intervals ``(l, u)`` and the
    correlation ``phi`` of paired data (0: independent samples).  Vectorised.

    >>> (l1, u1), (l2, u2) = wilson_interval(56, 70), wilson_interval(48, 80)
    >>> [round(float(v), 4) for v in newcombe_interval(0.8, l1, u1, 0.6, l2, u2)]
    [0.0524, 0.3339]
    """
    d = p1 - p2
    a, b = p1 - l1, u2 - p2
    c, e = u1 - p1, p2 - l2
    delta = np.sqrt(np.maximum(0.0, a * a - 2 * phi * a * b + b * b))
    eps = np.sqrt(np.maximum(0.0, c * c - 2 * phi * c * e + e * e))
    return d - delta, d + eps


def proportion_diff_interval(k1, n1, k2, n2, z: float = Z95) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Difference ``p1 - p2`` of two independent proportions with Newcombe's interval.

    Returns ``(diff, low, high)``.

    >>> d, lo, hi = proportion_diff_interval(56, 70, 48, 80)
    >>> round(float(d), 4), round(float(lo), 4), round(float(hi), 4)
    (0.2, 0.0524, 0.3339)
    """
    k1, n1, k2, n2 = (np.asarray(a, dtype=float) for a in (k1, n1, k2, n2))
    with np.errstate(invalid="ignore", divide="ignore"):
        p1, p2 = k1 / n1, k2 / n2
    l1, u1 = wilson_interval(k1, n1, z)
    l2, u2 = wilson_interval(k2, n2, z)
    lo, hi = newcombe_interval(p1, l1, u1, p2, l2, u2)
    return p1 - p2, lo, hi


def mean_interval(mean, sd, n, confidence: float = 0.95) -> tuple[np.ndarray, np.ndarray]:
    """Student t interval for a mean from its sample mean, sample sd (``ddof=1``) and count:
    ``mean +- t sd / sqrt(n)`` with ``n - 1`` degrees of freedom.  NaN where ``n < 2``.

    >>> lo, hi = mean_interval(10.0, 2.0, 400)
    >>> round(float(lo), 3), round(float(hi), 3)
    (9.803, 10.197)
    """
    mean, sd, n = (np.asarray(a, dtype=float) for a in (mean, sd, n))
    df = np.where(n >= 2, n - 1, 1.0)
    q = np.where(df > T_NORMAL_DF, z_for(confidence), special.stdtrit(df, 0.5 + confidence / 2.0))
    with np.errstate(invalid="ignore", divide="ignore"):
        half = q * sd / np.sqrt(n)
    half = np.where(n < 2, np.nan, half)
    return mean - half, mean + half


#: Resamples of :func:`bootstrap_mean_interval` (scipy's default): its BCa bounds are the
#: 2.5% and 97.5% points of the resampled means, which 1,000 resamples place roughly.
BCA_RESAMPLES = 9_999


def bootstrap_mean_interval(x, confidence: float = 0.95, seed: int = 0,
                            resamples: int = BCA_RESAMPLES) -> tuple[float, float]:
    """BCa bootstrap interval of the mean of the sample ``x`` (``scipy.stats.bootstrap``,
    resampled from ``bootstrap_rng(seed)``).

    Its bounds are means of resamples, so they lie within ``[min x, max x]``: the mean of
    values that cannot be negative (points lost) never gets a negative lower end, as a
    Student t interval does on a skewed sample (many zeros, a few large values); BCa's
    bias and acceleration terms correct the percentile method for that skew.  NaN (not
    known) when ``n < 2`` or every value is the same: such a sample shows no spread to
    resample, and ``[x, x]`` would claim an exactness it does not have.  The values are
    sorted first, so their order does not change the interval.

    >>> lo, hi = bootstrap_mean_interval([0] * 18 + [30, 45])
    >>> 0.0 <= lo < 3.75 < hi <= 45.0
    True
    >>> bootstrap_mean_interval([7]), bootstrap_mean_interval([0, 0, 0])
    ((nan, nan), (nan, nan))
    """
    from scipy import stats as scipy_stats

    x = np.sort(np.asarray(x, dtype=float))
    if x.size < 2 or x[0] == x[-1]:
        return math.nan, math.nan
    res = scipy_stats.bootstrap((x,), np.mean, confidence_level=confidence, n_resamples=resamples,
                                batch=1_000, method="BCa", random_state=bootstrap_rng(seed))
    return float(res.confidence_interval.low), float(res.confidence_interval.high)


def mean_diff_interval(m1, s1, n1, m2, s2, n2, z: float = Z95) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Welch interval for ``mean1 - mean2`` of independent samples: ``(diff, low, high)``.

    Uses the normal quantile (the report's groups hold hundreds of rows or more).

    >>> d, lo, hi = mean_diff_interval(10.0, 3.0, 100, 8.0, 4.0, 100)
    >>> round(float(d), 3), round(float(lo), 3), round(float(hi), 3)
    (2.0, 1.02, 2.98)
    """
    m1, s1, n1, m2, s2, n2 = (np.asarray(a, dtype=float) for a in (m1, s1, n1, m2, s2, n2))
    with np.errstate(invalid="ignore", divide="ignore"):
        se = np.sqrt(s1 ** 2 / n1 + s2 ** 2 / n2)
    d = m1 - m2
    se = np.where((n1 < 2) | (n2 < 2), np.nan, se)
    return d, d - z * se, d + z * se

def normal_interval(estimate, se, z: float = Z95) -> tuple[np.ndarray, np.ndarray]:
    """``estimate -+ z se``: the normal interval of an estimate with standard error ``se``.

    >>> normal_interval(1.0, 0.5, 2.0)
    (0.0, 2.0)
    """
    return estimate - z * se, estimate + z * se

def pseudo_count_bound(score_sum: np.ndarray, score_sq: np.ndarray, n: float, b: np.ndarray,
                       z: float) -> np.ndarray:
    """``mean + z SE`` of ``n`` scores of +-``b`` pooled with z²/2 pseudo-scores at ``+b`` and
    z²/2 at ``-b`` (``z < 0``: the lower bound); ``score_sum``, ``score_sq``: their sum and
    sum of squares.

    Agresti and Coull's adjustment of a proportion, applied to the scores: with only +b
    seen it gives ``b (2 p - 1)`` over their interval for P(make), which contains Wilson's.
    (The EV bounds of ``thousand bid``.)

    >>> round(float(pseudo_count_bound(0.0, 0.0, 0.0, 100.0, Z95)), 6)   # no data: [-b, b]
    100.0
    """
    n_aug = n + z * z
    mean = score_sum / n_aug                                         # the pseudo-scores add +b - b = 0
    var = np.maximum((score_sq + z * z * b ** 2) / n_aug - mean ** 2, 0.0)
    return mean + z * np.sqrt(var / n_aug)


# =========================================================================== several tests
def holm(p_values: Sequence[float | None]) -> list[float | None]:
    """Holm's step-down adjusted p-values (``None`` and NaN entries stay ``None``).

    The smallest of ``m`` p-values is multiplied by ``m``, the next by ``m - 1``, and so
    on; each adjusted value is at least the one before it (monotone) and at most 1, and
    never below its raw p-value (no rounding: a tiny p must not become 0.0).

    >>> holm([0.01, 0.04, 0.03, 0.005])
    [0.03, 0.06, 0.06, 0.02]
    >>> holm([0.2, None, 0.01])
    [0.2, None, 0.02]
    """
    idx = [i for i, p in enumerate(p_values) if p is not None and not math.isnan(p)]
    m = len(idx)
    out: list[float | None] = [None] * len(p_values)
    running = 0.0
    for rank, i in enumerate(sorted(idx, key=lambda j: p_values[j])):
        adj = min(1.0, (m - rank) * float(p_values[i]))
        running = max(running, adj)
        out[i] = running
    return out


# =========================================================================== paired differences
@dataclass(frozen=True)
class Diff:
    """A paired difference (variant minus baseline) with what the pairing bought."""

    diff: float
    low: float
    high: float
    p_value: float | None
    unpaired_low: float
    unpaired_high: float
    # 1 - var(paired differences) / (var(baseline) + var(variant)): the share of the
    # unpaired variance the common random numbers removed.
    variance_reduction: float
    # Every pair agreed (no unit differs): the rule change did nothing on these games.
    identical: bool = False

    @property
    def width(self) -> float:
        return self.high - self.low

    @property
    def pairing_gain(self) -> float:
        """Unpaired interval width divided by the paired one (above 1: pairing helped)."""
        w_unpaired = self.unpaired_high - self.unpaired_low
        if not math.isfinite(w_unpaired) or not math.isfinite(self.width):
            return math.nan
        if self.width == 0:
            return math.inf if w_unpaired > 0 else 1.0
        return w_unpaired / self.width


_NAN_DIFF = Diff(math.nan, math.nan, math.nan, None, math.nan, math.nan, math.nan)


@dataclass
class Moments:
    """Count, sums, means and centred cross-products of the columns of a table of units.

    Two blocks of units merge exactly as if their rows had been stacked (Chan, Golub and
    LeVeque's pairwise update), so a comparison folds chunk after chunk into one of
    these and never holds per-unit arrays: every mean, variance and covariance the
    statistics below need comes from here.
    """

    n: int
    sums: np.ndarray    # column sums (exact for whole-number data)
    mean: np.ndarray
    m2: np.ndarray      # sum over units of (x - mean)(x - mean)^T

    @classmethod
    def of(cls, x: np.ndarray) -> Moments:
        """Moments of the rows of ``x`` (units x columns)."""
        x = np.asarray(x, dtype=float)
        if x.ndim == 1:
            x = x[:, None]
        n, d = x.shape
        if n == 0:
            return cls(0, np.zeros(d), np.zeros(d), np.zeros((d, d)))
        mean = x.mean(axis=0)
        centred = x - mean
        return cls(n, x.sum(axis=0), mean, centred.T @ centred)

    def merge(self, other: Moments) -> Moments:
        if other.n == 0:
            return self
        if self.n == 0:
            return other
        n = self.n + other.n
        delta = other.mean - self.mean
        mean = self.mean + delta * (other.n / n)
        m2 = self.m2 + other.m2 + np.outer(delta, delta) * (self.n * other.n / n)
        return Moments(n, self.sums + other.sums, mean, m2)

    def var(self, i: int) -> float:
        return float(self.m2[i, i]) / (self.n - 1) if self.n > 1 else math.nan

    def cov(self, i: int, j: int) -> float:
        return float(self.m2[i, j]) / (self.n - 1) if self.n > 1 else math.nan


def _variance_reduction(var_a: float, var_b: float, var_d: float) -> float:
    total = var_a + var_b
    if not math.isfinite(total) or total == 0:
        return math.nan
    return 1.0 - var_d / total


def _diff_variance(var_a: float, var_b: float, cov_ab: float, identical: bool) -> float:
    """``var(b - a)`` from the moments; exactly 0 when every pair agrees."""
    if identical:
        return 0.0
    return max(0.0, var_a + var_b - 2.0 * cov_ab)


def mean_diff_from(mom: Moments, a: int, b: int, identical: bool, confidence: float) -> Diff:
    """Paired mean difference of columns ``b - a``: Student t with ``n - 1`` df, t-test."""
    n = mom.n
    if n < 2:
        return _NAN_DIFF
    diff = float(mom.sums[b] / n - mom.sums[a] / n)
    var_a, var_b = mom.var(a), mom.var(b)
    var_d = _diff_variance(var_a, var_b, mom.cov(a, b), identical)
    se = math.sqrt(var_d / n)
    half = t_for(confidence, n) * se
    # Unpaired (what the pairing is measured against): Welch's interval.
    se_u = math.sqrt((var_a + var_b) / n)
    half_u = t_quantile(confidence, welch_df(var_a, var_b, n)) * se_u
    return Diff(diff, diff - half, diff + half, t_test_p(diff, se, n - 1), diff - half_u, diff + half_u,
                _variance_reduction(var_a, var_b, var_d), identical=identical)


def paired_mean_diff(base: np.ndarray, variant: np.ndarray, confidence: float = 0.95) -> Diff:
    """Mean of the paired differences ``variant - base``: Student t interval (``n - 1``
    degrees of freedom) and paired t-test p-value.

    The unpaired interval (for comparison) is Welch's on the same numbers.

    >>> d = paired_mean_diff(np.array([0., 2, 4, 6]), np.array([1., 3, 6, 8]))
    >>> round(d.diff, 3), round(d.high - d.low, 4), round(d.p_value, 5)
    (1.5, 1.8374, 0.01385)
    """
    base = np.asarray(base, dtype=float)
    variant = np.asarray(variant, dtype=float)
    if len(base) < 2:
        return dataclasses.replace(_NAN_DIFF, diff=float(variant.mean() - base.mean()) if len(base) else math.nan)
    identical = bool(np.array_equal(base, variant))
    return mean_diff_from(Moments.of(np.column_stack([base, variant])), 0, 1, identical, confidence)


def proportion_diff_from(mom: Moments, a: int, b: int, confidence: float) -> Diff:
    """Paired difference of the 0/1 columns ``b - a`` (Newcombe method 10, McNemar)."""
    n = mom.n
    if n == 0:
        return _NAN_DIFF
    z = z_for(confidence)
    k2, k1 = int(round(float(mom.sums[a]))), int(round(float(mom.sums[b])))  # base, variant
    # Pairs where both are 1: sum(x y) = m2[a, b] + n mean_a mean_b (whole numbers).
    both = int(round(float(mom.m2[a, b]) + n * float(mom.mean[a]) * float(mom.mean[b])))
    only_y, only_x = k1 - both, k2 - both
    neither = n - both - only_y - only_x
    p1, p2 = k1 / n, k2 / n
    l1, u1 = wilson_bounds(k1, n, z)
    l2, u2 = wilson_bounds(k2, n, z)
    # phi of the table (variant as rows, base as columns); 0 when a margin is empty.
    denom = math.sqrt(float(k1) * (n - k1) * k2 * (n - k2))
    phi = (both * neither - only_y * only_x) / denom if denom > 0 else 0.0
    low, high = (float(v) for v in newcombe_interval(p1, l1, u1, p2, l2, u2, phi))
    u_low, u_high = (float(v) for v in newcombe_interval(p1, l1, u1, p2, l2, u2, 0.0))
    identical = only_x + only_y == 0
    var_a, var_b = mom.var(a), mom.var(b)
    var_d = _diff_variance(var_a, var_b, mom.cov(a, b), identical)
    return Diff(p1 - p2, low, high, mcnemar_p(only_y, only_x), u_low, u_high,
                _variance_reduction(var_a, var_b, var_d), identical=identical)


def paired_proportion_diff(base: np.ndarray, variant: np.ndarray, confidence: float = 0.95) -> Diff:
    """Paired difference of proportions ``p(variant) - p(base)`` over 0/1 pairs.

    Newcombe (1998, Stat. Med. 17:2635) method 10: the two Wilson intervals combined with
    the phi coefficient of the 2x2 table of pairs; p-value by McNemar's test.  The
    unpaired interval is the same construction with phi = 0.

    >>> base = np.array([1] * 30 + [0] * 70)
    >>> d = paired_proportion_diff(base, base)
    >>> d.diff, d.p_value
    (0.0, 1.0)
    """
    x, y = np.asarray(base), np.asarray(variant)
    if not (np.isin(x, (0, 1)).all() and np.isin(y, (0, 1)).all()):
        raise ValueError("paired_proportion_diff: base and variant must hold 0/1 (or bool) values only")
    x, y = x.astype(float), y.astype(float)
    return proportion_diff_from(Moments.of(np.column_stack([x, y])), 0, 1, confidence)


# =========================================================================== ratios
@dataclass(frozen=True)
class Estimate:
    """One metric under one rule set."""

    value: float
    low: float
    high: float
    n: int          # units (games or deal slots)
    weight: float   # sum of denominators (deals counted by a per-deal metric)


def _ratio_parts(mom: Moments, num: int, den: int) -> tuple[float, float, float]:
    """Ratio ``sum(num) / sum(den)``, the variance of its influence values
    ``(num_i - R den_i) / mean(den)``, and ``mean(den)``."""
    total = float(mom.sums[den])
    if total == 0 or mom.n == 0:
        return math.nan, math.nan, math.nan
    r = float(mom.sums[num]) / total
    mean_den = total / mom.n
    var_u = (mom.var(num) - 2.0 * r * mom.cov(num, den) + r * r * mom.var(den)) / mean_den ** 2
    return r, max(0.0, var_u) if math.isfinite(var_u) else var_u, mean_den


def ratio_estimate_from(mom: Moments, num: int, den: int, proportion: bool, confidence: float) -> Estimate:
    n = mom.n
    weight = float(mom.sums[den]) if n else 0.0
    r, var_u, _ = _ratio_parts(mom, num, den)
    if not math.isfinite(r):
        return Estimate(math.nan, math.nan, math.nan, n, weight)
    se = math.sqrt(var_u / n) if n > 1 else math.nan
    if proportion:
        if n < 2:
            return Estimate(r, math.nan, math.nan, n, weight)
        # Wilson's form, so the interval stays in [0, 1], but with what the difference
        # interval uses: the clustered se (through the effective n, R (1 - R) / se**2)
        # and t with n - 1 df, since the units (games) are what is sampled.  Below
        # FEW_UNITS units the effective n never exceeds the deals counted: a few games
        # whose rates happen to agree must not pass for thousands of independent deals.
        # From FEW_UNITS on the clustered se stands even where it is below the binomial
        # one: a duplicate match's seatings of one deck are negatively correlated (when
        # the deck favours one seat, A alone wins there and not in the others), and the
        # cap made its 95% intervals cover 99% (try-out 30).
        n_eff = weight
        if se > 0 and 0 < r < 1:
            n_eff = r * (1 - r) / se ** 2
            if n < FEW_UNITS:
                n_eff = min(weight, n_eff)
        lo, hi = wilson_bounds(r * n_eff, n_eff, t_for(confidence, n))
        return Estimate(r, lo, hi, n, weight)
    half = t_for(confidence, n) * se
    return Estimate(r, r - half, r + half, n, weight)


def ratio_estimate(num: np.ndarray, den: np.ndarray, proportion: bool = False,
                   confidence: float = 0.95) -> Estimate:
    """Ratio ``sum(num) / sum(den)`` with a delta-method interval clustered by unit
    (Student t, ``n - 1`` degrees of freedom).

    With ``proportion`` the interval is Wilson's at the effective sample size
    ``R (1 - R) / se**2`` (the design effect of the clustering), with fewer than
    ``FEW_UNITS`` units capped at the sum of the denominators, with the Student t quantile
    (``n - 1`` df) in place of z: about ``R +- t se`` as for the difference, but inside
    [0, 1].

    >>> e = ratio_estimate(np.array([1., 2, 3]), np.array([2., 2, 2]))
    >>> round(e.value, 4), round(e.low, 4), round(e.high, 4)
    (1.0, -0.2421, 2.2421)
    """
    mom = Moments.of(np.column_stack([np.asarray(num, dtype=float), np.asarray(den, dtype=float)]))
    return ratio_estimate_from(mom, 0, 1, proportion, confidence)


def ratio_diff_from(mom: Moments, na: int, da: int, nb: int, db: int, identical: bool,
                     confidence: float) -> Diff:
    """``R_b - R_a`` on the same units: the paired influence-value differences, t with n - 1 df."""
    n = mom.n
    ra, var_a, mean_da = _ratio_parts(mom, na, da)
    rb, var_b, mean_db = _ratio_parts(mom, nb, db)
    if not (math.isfinite(ra) and math.isfinite(rb)) or n < 2:
        return _NAN_DIFF
    diff = rb - ra
    cov_ab = (mom.cov(na, nb) - rb * mom.cov(na, db) - ra * mom.cov(da, nb)
              + ra * rb * mom.cov(da, db)) / (mean_da * mean_db)
    var_d = _diff_variance(var_a, var_b, cov_ab, identical)
    se = math.sqrt(var_d / n)
    half = t_for(confidence, n) * se
    se_u = math.sqrt((var_a + var_b) / n)
    half_u = t_quantile(confidence, welch_df(var_a, var_b, n)) * se_u
    return Diff(diff, diff - half, diff + half, t_test_p(diff, se, n - 1), diff - half_u,
                diff + half_u, _variance_reduction(var_a, var_b, var_d), identical=identical)


def paired_ratio_diff(num_a: np.ndarray, den_a: np.ndarray, num_b: np.ndarray, den_b: np.ndarray,
                      confidence: float = 0.95) -> Diff:
    """Difference ``R_b - R_a`` of two ratios measured on the same units, paired.

    The standard error is that of the mean of the paired influence-value differences
    (delta method); Student t interval and t-test with ``n - 1`` degrees of freedom.
    Unpaired: the two variances added (Welch).
    """
    cols = [np.asarray(c, dtype=float) for c in (num_a, den_a, num_b, den_b)]
    identical = bool(np.array_equal(cols[0], cols[2]) and np.array_equal(cols[1], cols[3]))
    return ratio_diff_from(Moments.of(np.column_stack(cols)), 0, 1, 2, 3, identical, confidence)


# =========================================================================== control variates
@dataclass(frozen=True)
class ControlVariate:
    """A mean adjusted by control variates, beside the plain one."""

    value: float
    low: float
    high: float
    plain_low: float
    plain_high: float
    # 1 - var(adjusted estimate) / var(plain mean): the share of the variance removed
    # (the reference sample's own error counted against it)
    variance_reduction: float
    beta: tuple[float, ...]


def control_variate_mean(mom: Moments, weights: np.ndarray, covariates: Sequence[int], reference: Moments,
                         confidence: float = 0.95) -> ControlVariate:
    """Mean of ``y = weights . x`` over the units of ``mom``, adjusted by control variates.

    The covariates (columns ``covariates`` of ``mom``) have means known only from an
    independent ``reference`` sample (its columns ``0 .. k-1``, the same covariates on
    other units).  The estimate is ``mean(y) - beta . (mean(c) - mean_ref(c))`` with the
    regression coefficients ``beta = S_cc^-1 S_cy`` of this sample (least squares through
    numpy); its variance is the residual variance over ``n`` (df ``n - 1 - k``) plus the
    reference means' error ``beta' S_ref beta / m``.  The covariates must not depend on what
    ``y`` compares (they are functions of the deal alone), so the adjustment changes only
    the spread, never what is estimated.

    >>> rng = np.random.default_rng(1)
    >>> c = rng.normal(size=400); y = 2 * c + rng.normal(size=400)
    >>> ref = Moments.of(rng.normal(size=4000)[:, None])
    >>> cv = control_variate_mean(Moments.of(np.column_stack([y, c])), np.array([1.0, 0]), [1], ref)
    >>> round(cv.variance_reduction, 2), round(cv.beta[0], 2)   # about 1 - (1/400 + 4/4000) / (5/400) = 0.72
    (0.67, 2.08)
    """
    n, k, m = mom.n, len(covariates), reference.n
    w = np.asarray(weights, dtype=float)
    idx = list(covariates)
    if n < k + 3 or m < k + 2:
        return ControlVariate(math.nan, math.nan, math.nan, math.nan, math.nan, math.nan, ())
    cov = mom.m2 / (n - 1)
    mean_y = float(w @ mom.mean)
    var_y = float(w @ cov @ w)
    s_cc = cov[np.ix_(idx, idx)]
    s_cy = cov[idx] @ w
    beta = np.linalg.lstsq(s_cc, s_cy, rcond=None)[0]
    residual = max(0.0, var_y - float(s_cy @ beta)) * (n - 1) / (n - 1 - k)
    ref_cov = reference.m2[:k, :k] / (m - 1)
    var_est = residual / n + float(beta @ ref_cov @ beta) / m
    value = mean_y - float(beta @ (mom.mean[idx] - reference.mean[:k]))
    half = t_for(confidence, n - k) * math.sqrt(var_est)
    plain_half = t_for(confidence, n) * math.sqrt(var_y / n)
    reduction = 1.0 - var_est / (var_y / n) if var_y > 0 else math.nan
    return ControlVariate(value, value - half, value + half, mean_y - plain_half, mean_y + plain_half, reduction,
                          tuple(float(b) for b in beta))


# =========================================================================== quantiles of a sample
def _element(values: np.ndarray, cumulative: np.ndarray, position: int) -> float:
    """The element at 0-based ``position`` of the sorted sample given as a histogram."""
    return float(values[int(np.searchsorted(cumulative, position, side="right"))])


def quantile_from_counts(values: np.ndarray, counts: np.ndarray, q: float,
                          confidence: float = 0.95) -> tuple[float, float, float]:
    """:func:`quantile_interval` of the sample holding ``counts[j]`` copies of ``values[j]``
    (sorted, distinct)."""
    n = int(np.sum(counts))
    if n == 0:
        return math.nan, math.nan, math.nan
    cumulative = np.cumsum(counts)
    value = float(weighted_quantiles(np.asarray(values, dtype=float), np.asarray(counts)[None, :], n, q)[0])
    spread = z_for(confidence) * math.sqrt(n * q * (1 - q))
    lo_rank = max(1, math.floor(n * q - spread))
    hi_rank = min(n, math.ceil(1 + n * q + spread))
    return value, _element(values, cumulative, lo_rank - 1), _element(values, cumulative, hi_rank - 1)


def quantile_interval(x: np.ndarray, q: float = 0.5, confidence: float = 0.95) -> tuple[float, float, float]:
    """Quantile ``q`` (numpy's linear definition) with a distribution-free interval.

    The interval runs between the order statistics of ranks ``n q -+ z sqrt(n q (1-q))``
    (normal approximation of the binomial(n, q) count below the quantile).

    >>> [round(v, 6) for v in quantile_interval(np.arange(1, 101), 0.9)]
    [90.1, 84.0, 97.0]
    """
    if not 0.0 <= q <= 1.0:
        raise ValueError(f"quantile_interval: q must be between 0 and 1, got {q}")
    x = np.asarray(x, dtype=float)
    if not np.isfinite(x).all():
        raise ValueError("quantile_interval: the sample holds NaN or infinite values")
    values, counts = np.unique(x, return_counts=True)
    return quantile_from_counts(values, counts, q, confidence)


def median_interval(x: np.ndarray, confidence: float = 0.95) -> tuple[float, float, float]:
    """Median with a distribution-free interval from order statistics (ranks ``n/2 -+ z sqrt(n)/2``).

    >>> median_interval(np.arange(1, 101))
    (50.5, 40.0, 61.0)
    """
    return quantile_interval(x, 0.5, confidence)


def weighted_quantiles(values: np.ndarray, weights: np.ndarray, n: int, q: float) -> np.ndarray:
    """``np.quantile(sample, q)`` for samples given as sorted distinct ``values`` and rows of counts."""
    cw = np.cumsum(weights, axis=1)
    h = (n - 1) * q
    k = math.floor(h)
    frac = h - k
    # The element at 0-based position j is the first value whose cumulative count exceeds j.
    lower = values[(cw < k + 1).sum(axis=1)]
    upper = values[(cw < min(k + 1, n - 1) + 1).sum(axis=1)]
    return lower + frac * (upper - lower)


def paired_quantile_diff_from(pairs: np.ndarray, counts: np.ndarray, q: float, seed: int,
                               resamples: int, confidence: float) -> Diff:
    """:func:`paired_quantile_diff` of the sample holding ``counts[j]`` copies of the pair
    ``pairs[j] = (base, variant)`` (distinct pairs in lexicographic order)."""
    counts = np.asarray(counts, dtype=np.int64)
    n = int(counts.sum())
    if n == 0:
        return _NAN_DIFF

    def marginal(col: np.ndarray, weights: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        vals, inverse = np.unique(col, return_inverse=True)
        per_value = np.zeros((weights.shape[0], len(vals)))
        np.add.at(per_value.T, inverse, weights.T)
        return vals, per_value

    xs, xc = marginal(pairs[:, 0], counts[None, :])
    ys, yc = marginal(pairs[:, 1], counts[None, :])
    diff = float(weighted_quantiles(ys, yc, n, q)[0] - weighted_quantiles(xs, xc, n, q)[0])
    if n < 2:
        return dataclasses.replace(_NAN_DIFF, diff=diff)
    rng = bootstrap_rng(seed)
    w = bootstrap_counts(rng, counts, resamples)
    boot = (weighted_quantiles(*marginal(pairs[:, 1], w), n, q)
            - weighted_quantiles(*marginal(pairs[:, 0], w), n, q))
    low, high = (float(v) for v in percentile_interval(boot, confidence))
    # Unpaired: each sample resampled on its own.
    xc, yc = xc[0].astype(np.int64), yc[0].astype(np.int64)
    bx = weighted_quantiles(xs, bootstrap_counts(rng, xc, resamples), n, q)
    by = weighted_quantiles(ys, bootstrap_counts(rng, yc, resamples), n, q)
    u_low, u_high = (float(v) for v in percentile_interval(by - bx, confidence))
    mom = _pair_moments(pairs, counts)
    identical = bool(np.all(pairs[:, 0] == pairs[:, 1]))
    var_a, var_b = mom.var(0), mom.var(1)
    var_d = _diff_variance(var_a, var_b, mom.cov(0, 1), identical)
    return Diff(diff, min(low, diff), max(high, diff), None, min(u_low, diff), max(u_high, diff),
                _variance_reduction(var_a, var_b, var_d), identical=identical)


def _pair_moments(pairs: np.ndarray, counts: np.ndarray) -> Moments:
    """Moments of the sample holding ``counts[j]`` copies of ``pairs[j]`` (weighted, no expansion)."""
    w = np.asarray(counts, dtype=float)
    n = int(w.sum())
    sums = (pairs * w[:, None]).sum(axis=0)
    mean = sums / n
    centred = pairs - mean
    return Moments(n, sums, mean, (centred * w[:, None]).T @ centred)


def paired_quantile_diff(base: np.ndarray, variant: np.ndarray, q: float = 0.5, seed: int = 0,
                         resamples: int = BOOTSTRAP_RESAMPLES, confidence: float = 0.95) -> Diff:
    """Difference of quantiles ``Q_q(variant) - Q_q(base)`` with a paired bootstrap.

    The pairs are resampled together (as counts of each distinct pair, so it is quick
    for integer data); percentile interval.  No p-value (``None``); the unpaired interval
    resamples the two samples independently.
    """
    x = np.asarray(base, dtype=float)
    y = np.asarray(variant, dtype=float)
    if len(x) == 0:
        return _NAN_DIFF
    pairs, counts = np.unique(np.column_stack([x, y]), axis=0, return_counts=True)
    return paired_quantile_diff_from(pairs, counts, q, seed, resamples, confidence)


def paired_median_diff(base: np.ndarray, variant: np.ndarray, seed: int = 0,
                       resamples: int = BOOTSTRAP_RESAMPLES, confidence: float = 0.95) -> Diff:
    """Difference of medians with a paired bootstrap (:func:`paired_quantile_diff` at 0.5)."""
    return paired_quantile_diff(base, variant, 0.5, seed, resamples, confidence)


# =========================================================================== bootstrap
def bootstrap_rng(seed: int) -> np.random.Generator:
    """The bootstrap's own stream for root ``seed``: ``SeedSequence([seed, BOOTSTRAP_TAG])``."""
    return np.random.Generator(np.random.PCG64(np.random.SeedSequence([seed, BOOTSTRAP_TAG])))


def bootstrap_counts(rng: np.random.Generator, counts: np.ndarray, resamples: int) -> np.ndarray:
    """Bootstrap resamples of a sample given as ``counts`` of its distinct values (or its
    units, each count 1): ``resamples x len(counts)``, how often each is drawn.

    A resample of ``n = sum(counts)`` draws with replacement is one multinomial draw with
    probabilities ``counts / n``: the cost grows with the distinct values, not with ``n``.

    >>> w = bootstrap_counts(np.random.default_rng(1), np.array([3, 1]), 5)
    >>> w.shape, bool((w.sum(axis=1) == 4).all())
    ((5, 2), True)
    """
    counts = np.asarray(counts)
    n = int(counts.sum())
    return rng.multinomial(n, counts / n, size=resamples)


def percentile_interval(replicates: np.ndarray, confidence: float = 0.95,
                        whole: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """Percentile bootstrap interval of the ``replicates`` (along the first axis).

    ``whole``: a statistic that moves in whole steps (a bid); the bounds are replicates
    themselves, the one at or below the lower percentile and the one at or above the upper.

    >>> [round(v, 6) for v in percentile_interval(np.arange(101.0))]
    [2.5, 97.5]
    >>> [int(v) for v in percentile_interval(np.arange(101), whole=True)]
    [2, 98]
    """
    alpha = (1 - confidence) / 2
    r = np.asarray(replicates)
    if whole:
        return (np.percentile(r, [100 * alpha], axis=0, method="lower")[0],
                np.percentile(r, [100 * (1 - alpha)], axis=0, method="higher")[0])
    low, high = np.quantile(r, [alpha, 1 - alpha], axis=0)
    return float(low) if np.ndim(low) == 0 else low, float(high) if np.ndim(high) == 0 else high


def json_number(v: Any) -> Any:
    """A statistic as JSON writes it: NaN and infinities as ``None`` (null), numpy scalars as
    Python numbers, anything else as it is.

    >>> json_number(np.float64("nan")), json_number(np.int64(3)), json_number(0.5), json_number("x")
    (None, 3, 0.5, 'x')
    """
    if isinstance(v, (float, np.floating)):
        v = float(v)
        return v if math.isfinite(v) else None
    if isinstance(v, np.integer):
        return int(v)
    return v


def level_percent(p: float) -> str:
    """A probability level the user chose (``--confidence``, the thresholds' probability)
    as a percentage, exactly as given: rounding it to a whole percent printed 0.995 as
    "100%" next to a row of 0.998 that it accepted.

    >>> level_percent(0.8), level_percent(0.995), level_percent(0.875), level_percent(0.005), level_percent(1.0)
    ('80%', '99.5%', '87.5%', '0.5%', '100%')
    """
    return f"{round(100 * float(p), 6):g}%"
