"""Small statistics helpers shared by the analysis modules.

Every estimate the tool prints carries a 95% interval.  The methods, chosen for being
right at the sample sizes we see (from a dozen rows in a rare hand class to millions of
deals):

* a proportion: the Wilson score interval (good coverage even near 0 or 1, never
  outside ``[0, 1]``);
* a difference of two independent proportions: Newcombe's hybrid score interval
  (method 10), built from the two Wilson intervals;
* a mean: the normal interval ``mean +- z * sd / sqrt(n)`` with the sample standard
  deviation (``n - 1``), a Student t quantile below 30 rows;
* a difference of two independent means: Welch's interval.

Each function takes numbers or numpy arrays (vectorised) and returns numpy values;
:func:`wilson_exprs` gives the same Wilson bounds as Polars expressions for lazy pipelines.

>>> lo, hi = wilson_interval(5, 10)
>>> round(float(lo), 4), round(float(hi), 4)
(0.2366, 0.7634)
"""
from __future__ import annotations

import math

import numpy as np
import polars as pl

__all__ = [
    "Z95", "wilson_interval", "wilson_exprs", "proportion_diff_interval", "mean_interval",
    "mean_diff_interval", "z_for",
]

Z95 = 1.959963984540054  # two-sided 95% normal quantile

# Student t 0.975 quantiles for 1..29 degrees of freedom (beyond that the normal is used).
_T975 = (12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179,
         2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064,
         2.060, 2.056, 2.052, 2.048, 2.045)


def z_for(confidence: float) -> float:
    """Two-sided normal quantile for ``confidence`` (0.95 -> 1.96).

    >>> round(z_for(0.95), 3), round(z_for(0.99), 3)
    (1.96, 2.576)
    """
    if not 0.0 < confidence < 1.0:
        raise ValueError(f"confidence must be between 0 and 1, got {confidence}")
    # Inverse normal CDF by bisection on erf: tiny, dependency-free and exact enough.
    p = 0.5 + confidence / 2.0
    lo, hi = 0.0, 10.0
    for _ in range(100):
        mid = (lo + hi) / 2.0
        if 0.5 * (1.0 + math.erf(mid / math.sqrt(2.0))) < p:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2.0


def wilson_interval(k, n, z: float = Z95) -> tuple[np.ndarray, np.ndarray]:
    """Wilson score interval for ``k`` successes in ``n`` trials (NaN where ``n == 0``).

    >>> lo, hi = wilson_interval(0, 100)
    >>> float(lo), round(float(hi), 4)
    (0.0, 0.037)
    """
    k = np.asarray(k, dtype=float)
    n = np.asarray(n, dtype=float)
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
    d = p1 - p2
    lo = d - np.sqrt((p1 - l1) ** 2 + (u2 - p2) ** 2)
    hi = d + np.sqrt((u1 - p1) ** 2 + (p2 - l2) ** 2)
    return d, lo, hi


def _quantile(n: np.ndarray | float, z: float) -> np.ndarray:
    """t quantile for ``n - 1`` degrees of freedom when ``z`` is the 95% one and n < 31."""
    n = np.asarray(n, dtype=float)
    if abs(z - Z95) > 1e-9:
        return np.full(n.shape, z)
    df = np.clip(n - 1, 1, len(_T975)).astype(int)
    t = np.asarray(_T975)[df - 1]
    return np.where(n - 1 <= len(_T975), t, z)


def mean_interval(mean, sd, n, z: float = Z95) -> tuple[np.ndarray, np.ndarray]:
    """Interval for a mean from its sample mean, sample sd (``ddof=1``) and count.

    NaN where ``n < 2``.

    >>> lo, hi = mean_interval(10.0, 2.0, 400)
    >>> round(float(lo), 3), round(float(hi), 3)
    (9.804, 10.196)
    """
    mean, sd, n = (np.asarray(a, dtype=float) for a in (mean, sd, n))
    q = _quantile(n, z)
    with np.errstate(invalid="ignore", divide="ignore"):
        half = q * sd / np.sqrt(n)
    half = np.where(n < 2, np.nan, half)
    return mean - half, mean + half


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
