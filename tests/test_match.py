"""Duplicate matches (``thousand.analysis.match``): the rotation really replays the same
decks, a strategy against itself differs by exactly nothing, the result does not depend
on the workers, an interrupted match resumes to the same result, and the ladder
random < greedy < standard shows with intervals above zero."""
from __future__ import annotations

import dataclasses
import math

import numpy as np
import polars as pl
import pytest

from thousand.analysis import match as m
from thousand.errors import ThousandError
from thousand.rules import CLASSIC, parse_rules_spec


def task(specs, kind="deals", size=300, index=0, seed=5, rules=CLASSIC):
    seats = m.seatings(len(specs), rules.players)
    return m.MatchTask(kind, index, 0, size, seed, rules.to_kernel(), rules.players, tuple(specs), tuple(seats))


def by_seating(rows: dict, n_seatings: int) -> list[dict]:
    n = len(rows["seating"]) // n_seatings
    return [{k: v[i * n:(i + 1) * n] for k, v in rows.items()} for i in range(n_seatings)]


@pytest.mark.parametrize("rules", [CLASSIC, parse_rules_spec("classic:players=2"),
                                   parse_rules_spec("classic:players=4")])
def test_every_seating_is_dealt_the_same_decks(rules):
    """Deal k of every seating starts from the same deck: the hands of every deal that no
    seating redealt are equal seat by seat in every seating (and most deals are such)."""
    t = task(["random", "standard"], size=400, rules=rules)
    parts = by_seating(m.chunk_rows(t), len(t.seatings))
    no_redeal = np.all([p["redeals"] == 0 for p in parts], axis=0)
    assert no_redeal.mean() > 0.5
    first = parts[0]
    for other in parts[1:]:
        for s in range(rules.players):
            assert np.array_equal(first[f"hand{s}"][no_redeal], other[f"hand{s}"][no_redeal])
        assert np.array_equal(first["talon"][no_redeal], other["talon"][no_redeal])
        assert np.array_equal(first["dealer"], other["dealer"])
    # and the seatings do play differently (random is not standard)
    assert not all(np.array_equal(first["score0"], p["score0"]) for p in parts[1:])


@pytest.mark.parametrize("kind", ["deals", "games"])
def test_a_strategy_against_itself_differs_by_exactly_nothing(kind):
    """Same decks and the same decision stream in every seating: ``random`` against
    ``random`` plays every deal (game) identically in all seatings, so every difference is
    exactly 0 on every unit, and so are its intervals."""
    t = task(["random", "random"], kind=kind, size=300 if kind == "deals" else 6)
    parts = by_seating(m.chunk_rows(t), len(t.seatings))
    for p in parts[1:]:
        for name in p:
            if not name.startswith(("seating", "strategy")):
                assert np.array_equal(p[name], parts[0][name]), name
    result = m.match(["random", "random"], CLASSIC, allow_same=True, jobs=1, progress=False,
                     **({"n_deals": 300} if kind == "deals" else {"n_games": 6}))
    diffs = [r for r in result.rows if r.kind == "difference"]
    assert diffs
    for r in diffs:
        if math.isnan(r.a_value):
            continue      # e.g. no resignation at all: nothing to compare
        assert r.value == 0 and r.ci_low == 0 and r.ci_high == 0, r
    if kind == "games":
        share = result.row("random", "random", "win_share_alone")
        assert share.a_value == share.b_value


def test_rows_of_a_pair_sum_as_the_seat_occurrences_say():
    """The reduction against a direct count: points per deal per seat of A is the mean of
    A's score over its seat occurrences in the pair's seatings."""
    t = task(["greedy", "standard"], size=200)
    rows = m.chunk_rows(t)
    mom = m.reduce_rows(rows, "deals", 2, t.seatings, 3)
    names = m._unit_columns(2, "deals")
    parts = by_seating(rows, len(t.seatings))
    a_scores = [p[f"score{s}"] for k, p in enumerate(parts) for s in range(3) if t.seatings[k][s] == 0]
    b_scores = [p[f"score{s}"] for k, p in enumerate(parts) for s in range(3) if t.seatings[k][s] == 1]
    assert len(a_scores) == len(b_scores) == 9
    assert mom.sums[names.index("0-1:a:score")] == np.sum(a_scores)
    assert mom.sums[names.index("0-1:b:score")] == np.sum(b_scores)
    declared = [(p["declarer"] == s).sum() for k, p in enumerate(parts) for s in range(3) if t.seatings[k][s] == 0]
    assert mom.sums[names.index("0-1:a:declared")] == sum(declared)


def test_same_seed_same_result_for_any_jobs_and_backend():
    kw = dict(n_deals=900, seed=3, progress=False, chunk_size=300)
    one = m.match(["random", "greedy", "standard"], CLASSIC, jobs=1, **kw).to_json()
    assert m.match(["random", "greedy", "standard"], CLASSIC, jobs=2, backend="threads", **kw).to_json() == one
    assert m.match(["random", "greedy", "standard"], CLASSIC, jobs=2, backend="loky", **kw).to_json() == one
    other = m.match(["random", "greedy", "standard"], CLASSIC, jobs=1, **{**kw, "seed": 4}).to_json()
    assert other != one


def test_dask_backend_gives_the_same_result():
    import distributed  # noqa: F401  (part of the test extra: a missing install must fail, not skip)
    kw = dict(n_games=8, seed=2, progress=False, chunk_size=4)
    one = m.match(["greedy", "standard"], CLASSIC, jobs=1, **kw).to_json()
    assert m.match(["greedy", "standard"], CLASSIC, jobs=2, backend="dask", **kw).to_json() == one


class Stop(Exception):
    pass


def test_an_interrupted_match_resumes_to_the_same_result(tmp_path, monkeypatch):
    kw = dict(n_deals=1200, seed=9, progress=False, chunk_size=300, jobs=1, backend="threads")
    whole = m.match(["greedy", "standard"], CLASSIC, **kw).to_json()
    played, stop_at = [], [2]
    real = m.chunk_rows

    def stop_at_third(t, *a, **k):
        if not a and not k:
            played.append(t.index)
            if t.index in stop_at:
                raise Stop   # as Ctrl-C would, mid-run (any exception ends the run the same way)
        return real(t, *a, **k)

    monkeypatch.setattr(m, "chunk_rows", stop_at_third)
    out = tmp_path / "run"
    with pytest.raises(Stop):
        m.match(["greedy", "standard"], CLASSIC, out=out, **kw)
    assert sorted(p.name for p in out.glob("chunk-*.parquet")) == ["chunk-000000.parquet", "chunk-000001.parquet"]
    with pytest.raises(ThousandError, match="--resume"):
        m.match(["greedy", "standard"], CLASSIC, out=out, **kw)
    with pytest.raises(ThousandError, match="cannot resume"):
        m.match(["greedy", "random"], CLASSIC, out=out, resume=True, **kw)
    played.clear()
    stop_at.clear()
    resumed = m.match(["greedy", "standard"], CLASSIC, out=out, resume=True, **kw).to_json()
    assert played == [2, 3]            # the chunks written were read back, not played again
    assert resumed == whole
    rows = pl.read_parquet(sorted(out.glob("chunk-*.parquet")))
    assert rows.height == 1200 * 6 and set(rows["seating"].unique()) == set(range(6))


def test_precision_plays_rounds_until_narrow_or_capped():
    kw = dict(n_deals=600, seed=1, progress=False, chunk_size=300, jobs=1)
    wide = m.match(["random", "standard"], CLASSIC, **kw)
    r = m.match(["random", "standard"], CLASSIC, precision=wide.worst_width() * 0.8, cap=4800, **kw)
    assert r.worst_width() < wide.worst_width() * 0.8 and r.n > 600 and r.rounds >= 2
    capped = m.match(["random", "standard"], CLASSIC, precision=1e-6, cap=1500, **kw)
    assert capped.n == 1500


def test_bad_input_is_refused():
    with pytest.raises(ThousandError, match="at least two strategies"):
        m.match(["standard"], n_deals=10)
    with pytest.raises(ThousandError, match="given twice"):
        m.match(["standard", "greedy", "standard"], n_deals=10)
    with pytest.raises(ThousandError, match="given twice"):     # margin=10 is standard's default
        m.match(["standard", "standard:margin=10"], n_deals=10)
    with pytest.raises(ThousandError, match="no parameter"):
        m.match(["standard", "standard:nosuch=1"], n_deals=10)
    with pytest.raises(ThousandError, match="unknown strategy"):
        m.match(["standard", "nobody"], n_deals=10)
    with pytest.raises(ThousandError, match="not both"):
        m.match(["standard", "greedy"], n_deals=10, n_games=10)
    with pytest.raises(ThousandError, match="at least 2"):
        m.match(["standard", "greedy"], n_deals=1)


def test_the_ladder_random_greedy_standard_holds_with_intervals_above_zero():
    """Each step of the ladder is positive with its 95% interval above 0.

    Sample size from measured standard errors (classic, 2026-12-01, seeds 1 and 11): with
    3,000 deals the standard error of points per deal per seat is about 0.74 for greedy
    vs random (difference about +79) and 0.67 for standard vs greedy (about +64), so with
    the 1,000 deals here about 1.3 and 1.2: both differences lie some 50 standard errors
    above 0, and the ratings' intervals (smaller errors still) are far apart.  The test
    can only fail if the ladder itself breaks."""
    result = m.match(["random", "greedy", "standard"], CLASSIC, n_deals=1000, seed=11, jobs=1, progress=False)
    for a, b in (("greedy", "random"), ("standard", "greedy")):
        order = (b, a) if (b, a) in {(r.a, r.b) for r in result.rows} else (a, b)
        r = result.row(*order, "points_per_deal")
        low = r.ci_low if order == (a, b) else -r.ci_high
        assert low > 0, (a, b, r)
    ratings = {r.strategy: r for r in result.ratings}
    assert ratings["random"].ci_high < ratings["greedy"].ci_low
    assert ratings["greedy"].ci_high < ratings["standard"].ci_low


def test_the_control_variate_is_the_deck_s_and_changes_no_identity():
    """The covariates are a function of the deck alone: the same for any strategies of the
    match; the reference sample is other deals; a strategy against itself stays at exactly
    0 after the adjustment (nothing to regress), and the reduction is reported."""
    small = dict(size=40)
    one = m.chunk_rows(dataclasses_replace(task(["random", "greedy"], **small), cv=True, rule_set=CLASSIC))
    two = m.chunk_rows(dataclasses_replace(task(["greedy", "standard"], **small), cv=True, rule_set=CLASSIC))
    for name in m.CV_COLUMNS:
        assert np.array_equal(one[name], two[name])
    assert one["cv_play"].mean() > 0.5 and one["cv_value"].max() > 100
    ref = m.reference_moments(dataclasses_replace(task(["greedy", "standard"], **small), rule_set=CLASSIC))
    match_deals = np.column_stack([one[name][:40] for name in m.CV_COLUMNS])
    assert ref.n == 40 and not np.array_equal(ref.sums, m.stats.Moments.of(match_deals).sums)
    same = m.match(["random", "random"], CLASSIC, n_deals=40, allow_same=True, control_variate=True, jobs=1,
                   progress=False, chunk_size=40)
    r = same.row("random", "random", "points_per_deal_cv")
    assert (r.value, r.ci_low, r.ci_high) == (0, 0, 0)
    real = m.match(["greedy", "standard"], CLASSIC, n_deals=40, control_variate=True, jobs=1, progress=False,
                   chunk_size=40)
    cv = real.row("greedy", "standard", "points_per_deal_cv")
    assert math.isfinite(cv.variance_reduction) and cv.variance_reduction < 1
    assert cv.ci_low < cv.value < cv.ci_high
    # the difference only: A and B unadjusted beside it did not add up to it (stop 33)
    assert math.isnan(cv.a_value) and cv.as_dict()["a_value"] is None and cv.as_dict()["b_ci_high"] is None
    line = next(t for t in m.result_table(real).splitlines() if t.strip().startswith("points_per_deal_cv"))
    plain = real.row("greedy", "standard", "points_per_deal")
    assert line.split()[1] == f"{cv.value:+.2f}" and f"{plain.a_value:.2f}" not in line, line


def dataclasses_replace(t, **kw):
    return dataclasses.replace(t, **kw)


def test_every_difference_in_the_table_carries_its_sign():
    # a share's gain read "1.8%" beside "+3.95" for points (hostile try-out 3)
    res = m.match(["greedy", "standard"], CLASSIC, n_deals=200, jobs=1, progress=False, chunk_size=200)
    lines = m.result_table(res).splitlines()
    for r in res.rows:
        if r.kind == "share" or r.metric.endswith("_cv"):
            continue
        line = next(t for t in lines if t.strip().split()[:1] == [r.metric])
        diff = line.split()[3]
        assert diff[0] in "+-" or diff == "n/a", line
        if r.unit == "share" and r.value > 0:
            assert line.split()[3:5] == [f"+{100 * r.value:.1f}", "pp"], line
