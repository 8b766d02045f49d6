"""Marriage statistics: how often each marriage is held, completed from the talon,
declared and lost, by role; what a marriage adds to a declarer's (and a defender's)
result; and the distribution of marriage points per deal.

Input: a LazyFrame of deal rows (:mod:`thousand.schema`).  Which marriages a player
*declared* is not a column of its own: the data hold his declared marriage points
(``marriages{s}``).  Marriages are declared from the cards held after the hand-off, and
the four values 40, 60, 80, 100 have distinct sums except when three or more marriages
are held (100 = 40 + 60, 140 = 40 + 100 = 60 + 80, 180 = 80 + 100 = 40 + 60 + 80), so the
declared set is the unique subset of the marriages in that final hand whose values add up
to the declared points.  In the rare ambiguous case the subset with fewer marriages is
taken (then the lower suits); :func:`marriage_tables` counts such rows in ``ambiguous``.
With ``ace_marriage`` set, the four aces count as a fifth "marriage" (suit ``aces``).

Roles: the declarer, a defender (each opponent of the declarer), and ``all`` (every
active seat of every dealt deal, redeals included: a uniform random hand, which is where
the exact probabilities apply; under ``cut_nine_penalty`` they are counted with the cut).  Role statistics use the played deals: no redeal and a
declarer.

Pipelines are LazyFrame -> LazyFrame; collect once.
"""
from __future__ import annotations

from fractions import Fraction
from math import comb

import polars as pl

from thousand.analysis import combinatorics as cb
from thousand.analysis import masks
from thousand.analysis.redeals import table_shape, uniform_deals
from thousand.analysis.stats import mean_diff_interval, proportion_diff_interval, wilson_exprs
from thousand.cards import ACE, MARRIAGE_VALUES, SUITS
from thousand.rules import Rules

__all__ = [
    "seat_rows", "with_marriage_sets", "marriage_frequencies", "marriage_value", "value_aggregates", "marriage_points",
    "held_points_distribution", "marriage_tables", "suits_of", "held_in_play", "MARRIAGE_COLUMNS",
    "VALUE_COLUMNS", "MEASURES",
]

MARRIAGE_COLUMNS = ["suit", "value", "role", "measure", "count", "n", "rate", "ci_low", "ci_high", "exact"]
VALUE_COLUMNS = ["suit", "value", "role", "metric", "n_with", "with_marriage", "n_without", "without_marriage",
                 "diff", "diff_ci_low", "diff_ci_high"]

# measure -> (what it counts, its denominator)
MEASURES = {
    "held in dealt hand": "hands of the role holding it in the dealt cards (7; 10 with 2 players) / hands of the role",
    "held with talon": "declarers holding it in hand + talon (10 cards; 12 with 2 players) / declarers",
    "completed from talon": "held with the talon but not in the dealt hand / hands",
    "declared": "declared / held (declarer: with talon; defender: dealt or after the hand-off)",
    "lost": "held but never declared / held",
    "lost: resigned": "held, the declarer resigned (no play) / held",
    "lost: handed off": "held with the talon, broken by the declarer's hand-off / held",
    "lost: not declared in play": "held through the play but not declared / held",
}


def suits_of(rules: Rules) -> list[tuple[str, int]]:
    """(name, value) of every marriage the rules know: the four suits, plus the aces."""
    out = list(zip(SUITS, MARRIAGE_VALUES))
    if rules.ace_marriage is not None:
        out.append(("aces", rules.ace_marriage))
    return out


def _set_of(mask: pl.Expr, with_aces: bool) -> pl.Expr:
    """Marriages held in ``mask`` as a bit set (bit s = suit s; bit 4 = all four aces)."""
    m = masks.marriage_suits(mask)
    if with_aces:
        m = m | (masks.count_rank(mask, ACE) == 4).cast(pl.Int32) * 16
    return m


def _active(seat: int) -> pl.Expr:
    return pl.col(f"hand{seat}") != 0


def seat_rows(deals: pl.LazyFrame | pl.DataFrame, rules: Rules) -> pl.LazyFrame:
    """One row per active seat of every deal.

    Columns: ``deal`` (row number), ``seat``, ``role`` (``declarer``, ``defender``, or
    ``none`` on a deal without one), ``played`` (no redeal and a declarer), ``resigned``,
    ``made``, ``contract``, ``hand`` (dealt), ``with_talon`` (declarer: hand + talon; others:
    hand), ``after`` (after the hand-off), ``talon``, ``declared_points``, ``deal_points``
    (card points of tricks + declared marriages).
    """
    deals = deals.lazy()     # a DataFrame too (a hand-made frame: deals.frame_of)
    lf = deals.with_row_index("deal")
    parts = []
    for s in range(rules.players):
        is_decl = pl.col("declarer").cast(pl.Int32) == s
        played = (pl.col("redeal") == 0) & (pl.col("declarer") >= 0)
        parts.append(lf.filter(_active(s)).select(
            pl.col("deal"),
            pl.lit(s, dtype=pl.Int8).alias("seat"),
            pl.when(pl.col("declarer") < 0).then(pl.lit("none"))
            .when(is_decl).then(pl.lit("declarer")).otherwise(pl.lit("defender")).alias("role"),
            played.alias("played"),
            pl.col("resigned"), pl.col("made"), pl.col("contract").cast(pl.Int32),
            masks.as_expr(f"hand{s}").alias("hand"),
            pl.when(is_decl & (pl.col("redeal") != 1)).then(masks.as_expr(f"hand{s}") | masks.as_expr("talon"))
            .otherwise(masks.as_expr(f"hand{s}")).alias("with_talon"),
            masks.hand_after_exchange(s, rules.players).alias("after"),
            masks.as_expr("talon").alias("talon"),
            pl.col(f"marriages{s}").cast(pl.Int32).alias("declared_points"),
            (pl.col(f"points{s}").cast(pl.Int32) + pl.col(f"marriages{s}").cast(pl.Int32)).alias("deal_points"),
        ))
    return pl.concat(parts)


def with_marriage_sets(seats: pl.LazyFrame, rules: Rules) -> pl.LazyFrame:
    """Adds the marriage sets: ``m_dealt``, ``m_talon`` (with talon), ``m_after``,
    ``m_held`` (what counts as held for the role), ``m_declared``, and ``ambiguous``
    (several subsets fit the declared points) and ``unexplained`` (none does).
    """
    kinds = suits_of(rules)
    aces = rules.ace_marriage is not None
    values = [v for _, v in kinds]
    subsets = sorted(range(1 << len(kinds)), key=lambda k: (bin(k).count("1"), k))

    def value_of(k: int) -> int:
        return sum(v for i, v in enumerate(values) if k >> i & 1)

    lf = seats.with_columns(
        _set_of(pl.col("hand"), aces).alias("m_dealt"),
        _set_of(pl.col("with_talon"), aces).alias("m_talon"),
        _set_of(pl.col("after"), aces).alias("m_after"),
    )
    fits = [((pl.col("m_after") & k) == k) & (pl.col("declared_points") == value_of(k)) for k in subsets]
    declared = pl.lit(0, dtype=pl.Int32)
    for k, fit in reversed(list(zip(subsets, fits))):  # the first fitting subset wins
        declared = pl.when(fit).then(pl.lit(k, dtype=pl.Int32)).otherwise(declared)
    n_fit = pl.sum_horizontal([f.cast(pl.Int32) for f in fits])
    return lf.with_columns(
        declared.alias("m_declared"),
        (n_fit > 1).alias("ambiguous"),
        (n_fit == 0).alias("unexplained"),
        pl.when(pl.col("role") == "declarer").then(pl.col("m_talon"))
        .otherwise(pl.col("m_dealt") | pl.col("m_after")).alias("m_held"),
    )


def _bit(col: str, i: int) -> pl.Expr:
    return (pl.col(col) & (1 << i)) > 0


def _sum(e: pl.Expr) -> pl.Expr:
    return e.cast(pl.Int64).sum()


def _var(e: pl.Expr) -> pl.Expr:
    """Sample variance of an integer column from exact integer sums.

    Polars' own ``var``/``std`` add floats in an order that depends on how the chunks were
    split among threads, so the last digits changed from run to run on the same data;
    integer sums do not, and the same data always gives the same table.
    """
    x = e.cast(pl.Int64)
    n, total, squares = x.count(), x.sum(), (x * x).sum()
    var = (squares.cast(pl.Float64) - total.cast(pl.Float64) * total.cast(pl.Float64) / n) / (n - 1)
    return pl.when(n > 1).then(var.clip(lower_bound=0.0))


def _std(e: pl.Expr) -> pl.Expr:
    return _var(e).sqrt()


def _holdings_after_cut(rules: Rules, talon: int) -> dict[int, Fraction] | None:
    """The marriages held (a bit set, as :func:`_set_of`) in an active hand (with
    ``talon`` more cards: the hand and the talon) of a deal cut again under
    ``cut_nine_penalty``, every active hand alike likely: with 3 or 4 players the bottom
    card ends the third active hand, so that one is its random cards and the bottom card.
    None for 2 players' hand and talon (the talon column is one of two, and the bottom
    card opens the first)."""
    size, n_hands, _ = table_shape(rules)
    if rules.players == 2:
        if talon:
            return None
        parts = [cb.marriage_sets(size, False)] * n_hands
    else:
        parts = [cb.marriage_sets(size + talon, False)] * (n_hands - 1) + [cb.marriage_sets(size + talon - 1, True)]
    pooled: dict[int, Fraction] = {}
    for dist in parts:
        for held, p in dist.items():
            pooled[held] = pooled.get(held, Fraction(0)) + p / len(parts)
    return pooled


def _exact_rows(rules: Rules) -> pl.LazyFrame:
    size, _, talon = table_shape(rules)
    rows = {"suit": [], "role": [], "measure": [], "exact": []}

    def add(suit: str, measure: str, p) -> None:
        rows["suit"].append(suit)
        rows["role"].append("all")
        rows["measure"].append(measure)
        rows["exact"].append(None if p is None else float(p))

    if not uniform_deals(rules):   # the deals are cut again: counted with their bottom card
        dealt, with_talon = _holdings_after_cut(rules, 0), _holdings_after_cut(rules, talon)

        def held(dist: dict[int, Fraction] | None, bits: int) -> Fraction | None:
            return None if dist is None else sum((p for m, p in dist.items() if m & bits), Fraction(0))
        for i, (name, _) in enumerate(suits_of(rules)):
            bit = 16 if name == "aces" else 1 << i
            add(name, "held in dealt hand", held(dealt, bit))
            both = held(with_talon, bit)
            add(name, "completed from talon", None if both is None else both - held(dealt, bit))
        add("any", "held in dealt hand", held(dealt, 31 if rules.ace_marriage is not None else 15))
        return pl.LazyFrame(rows, schema={"suit": pl.String, "role": pl.String, "measure": pl.String,
                                          "exact": pl.Float64})
    for name, _ in suits_of(rules):
        if name == "aces":
            add(name, "held in dealt hand", comb(20, size - 4) / comb(24, size))
            add(name, "completed from talon", comb(20, size + talon - 4) / comb(24, size + talon)
                - comb(20, size - 4) / comb(24, size))
        else:
            add(name, "held in dealt hand", cb.p_marriage_in(size))
            add(name, "completed from talon", cb.p_marriage_completed(size, talon))
    if rules.ace_marriage is None:
        add("any", "held in dealt hand", cb.p_any_marriage_in(size))
    else:   # the four aces count as a marriage too
        add("any", "held in dealt hand", sum((p for m, p in cb.marriage_sets(size).items() if m), Fraction(0)))
    return pl.LazyFrame(rows, schema={"suit": pl.String, "role": pl.String, "measure": pl.String,
                                      "exact": pl.Float64})


def marriage_frequencies(sets: pl.LazyFrame, rules: Rules) -> pl.LazyFrame:
    """Held / completed / declared / lost counts and rates by marriage and role.

    Input: :func:`with_marriage_sets` rows.  Columns :data:`MARRIAGE_COLUMNS`; ``rate`` is
    ``count / n`` with its 95% Wilson interval; ``exact`` is the combinatorial probability
    for the ``all`` role (a uniform random hand), null elsewhere.  Measures: :data:`MEASURES`.
    """
    kinds = suits_of(rules)
    aggs_all: list[pl.Expr] = []
    aggs_role: list[pl.Expr] = []
    for i, (name, _) in enumerate(kinds):
        held = _bit("m_held", i)
        lost = held & ~_bit("m_declared", i)
        aggs_all += [
            _sum(_bit("m_dealt", i)).alias(f"held in dealt hand|{name}|n_hands"),
            # As if this seat took the talon: a random hand + talon, for the exact check.
            _sum(((_set_of(pl.col("hand") | pl.col("talon"), rules.ace_marriage is not None) & (1 << i)) > 0)
                 & ~_bit("m_dealt", i)).alias(f"completed from talon|{name}|n_hands"),
        ]
        aggs_role += [
            _sum(_bit("m_dealt", i)).alias(f"held in dealt hand|{name}|n_hands"),
            _sum(_bit("m_talon", i)).alias(f"held with talon|{name}|n_hands"),
            _sum(_bit("m_talon", i) & ~_bit("m_dealt", i)).alias(f"completed from talon|{name}|n_hands"),
            _sum(held & _bit("m_declared", i)).alias(f"declared|{name}|n_held"),
            _sum(lost).alias(f"lost|{name}|n_held"),
            _sum(lost & pl.col("resigned")).alias(f"lost: resigned|{name}|n_held"),
            _sum(lost & ~pl.col("resigned") & ~_bit("m_after", i)).alias(f"lost: handed off|{name}|n_held"),
            _sum(lost & ~pl.col("resigned") & _bit("m_after", i)).alias(f"lost: not declared in play|{name}|n_held"),
            _sum(held).alias(f"held|{name}|n_hands"),
        ]
    aggs_all.append(_sum(pl.col("m_dealt") > 0).alias("held in dealt hand|any|n_hands"))
    aggs_role.append(_sum(pl.col("m_dealt") > 0).alias("held in dealt hand|any|n_hands"))

    every = sets.group_by(pl.lit("all").alias("role")).agg(pl.len().alias("hands"), *aggs_all)
    by_role = (sets.filter(pl.col("played") & (pl.col("role") != "none"))
               .group_by("role").agg(pl.len().alias("hands"), *aggs_role))

    def longform(lf: pl.LazyFrame) -> pl.LazyFrame:
        return (lf.unpivot(index=["role", "hands"], variable_name="key", value_name="count")
                .with_columns(pl.col("key").str.split_exact("|", 2)
                              .struct.rename_fields(["measure", "suit", "denominator"]).alias("k"))
                .unnest("k").drop("key"))

    long = pl.concat([longform(every), longform(by_role)])
    held = (long.filter(pl.col("measure") == "held")
            .select("role", "suit", pl.col("count").alias("held")))
    values = pl.LazyFrame({"suit": [n for n, _ in kinds] + ["any"],
                           "value": [v for _, v in kinds] + [None]},
                          schema={"suit": pl.String, "value": pl.Int32})
    measure_order = pl.LazyFrame({"measure": list(MEASURES), "m_order": list(range(len(MEASURES)))})
    role_order = pl.LazyFrame({"role": ["all", "declarer", "defender"], "r_order": [0, 1, 2]})
    suit_order = pl.LazyFrame({"suit": [n for n, _ in kinds] + ["any"], "s_order": list(range(len(kinds) + 1))})
    lo, hi = wilson_exprs("count", "n")
    declarer_only = ["held with talon", "completed from talon", "lost: handed off"]
    return (
        long.filter((pl.col("measure") != "held")
                    & ~((pl.col("role") == "defender") & pl.col("measure").is_in(declarer_only)))
        .join(held, on=["role", "suit"], how="left")
        .with_columns(pl.when(pl.col("denominator") == "n_held").then(pl.col("held"))
                      .otherwise(pl.col("hands")).cast(pl.Int64).alias("n"))
        .with_columns(pl.when(pl.col("n") > 0).then(pl.col("count") / pl.col("n")).alias("rate"),
                      lo.alias("ci_low"), hi.alias("ci_high"))
        .join(_exact_rows(rules), on=["suit", "role", "measure"], how="left")
        .join(values, on="suit", how="left")
        .join(measure_order, on="measure").join(role_order, on="role").join(suit_order, on="suit")
        .sort("s_order", "r_order", "m_order")
        .select(MARRIAGE_COLUMNS)
    )


def _with_held_v(base: pl.LazyFrame) -> pl.LazyFrame:
    # What counts as "holding" for the value comparison: declarer hand + talon, defender after the hand-off.
    return base.with_columns(pl.when(pl.col("role") == "declarer").then(pl.col("m_talon"))
                             .otherwise(pl.col("m_after")).alias("m_held_v"))


def value_aggregates(sets: pl.LazyFrame, rules: Rules) -> tuple[pl.LazyFrame, pl.LazyFrame]:
    """The two lazy aggregations :func:`marriage_value` needs: per role, group sums and
    moments for holders and non-holders; and per (suit, role, card-point band, holder)
    the count, mean and variance of deal points (for the matched comparison)."""
    kinds = suits_of(rules)
    base = _with_held_v(sets.filter(pl.col("played") & (pl.col("role") != "none")))
    aggs = []
    for i, (name, _) in enumerate(kinds):
        for group, cond in (("with", _bit("m_held_v", i)), ("without", pl.col("m_held_v") == 0)):
            played_out = cond & ~pl.col("resigned")
            pts = pl.col("deal_points").filter(played_out)
            aggs += [
                _sum(played_out).alias(f"{name}|{group}|pts_n"),
                pts.mean().alias(f"{name}|{group}|pts_mean"), _std(pts).alias(f"{name}|{group}|pts_sd"),
                _sum(cond).alias(f"{name}|{group}|n"), _sum(cond & pl.col("made")).alias(f"{name}|{group}|made"),
                pl.col("contract").filter(cond).mean().alias(f"{name}|{group}|c_mean"),
                _std(pl.col("contract").filter(cond)).alias(f"{name}|{group}|c_sd"),
            ]
    groups = base.group_by("role").agg(aggs).sort("role")
    played_out = base.filter(~pl.col("resigned")).with_columns(
        (pl.when(pl.col("role") == "declarer").then(masks.points("with_talon")).otherwise(masks.points("after"))
         // POINT_BAND).alias("band"))
    parts = [played_out.filter(_bit("m_held_v", i) | (pl.col("m_held_v") == 0)).select(
        pl.lit(name).alias("suit"), "role", "band", _bit("m_held_v", i).alias("with"), "deal_points")
        for i, (name, _) in enumerate(kinds)]
    strata = (pl.concat(parts).group_by("suit", "role", "band", "with")
              .agg(pl.len().alias("n"), pl.col("deal_points").mean().alias("mean"),
                   _var(pl.col("deal_points")).alias("var"))
              .sort("suit", "role", "band", "with"))
    return groups, strata


def marriage_value(sets: pl.LazyFrame, rules: Rules,
                   aggregates: tuple[pl.DataFrame, pl.DataFrame] | None = None) -> pl.DataFrame:
    """What holding a marriage adds: players holding it against players holding none.

    Declarers: held in hand + talon; metrics ``deal points`` (cards + marriages, deals
    played out, i.e. not resigned; Welch interval), ``made`` (share of contracts made,
    a resignation counting as not made; Newcombe interval) and ``contract`` (final
    contract, for context: declarers with a marriage bid higher).  Defenders: held after
    the hand-off; metric ``deal points``.  Both roles also get ``deal points, same card
    points``: the same difference within strata of the card points held, so that it
    measures the marriage rather than the high cards that come with it
    (:func:`_matched_rows`).  The interval maths is in numpy, on the collected
    :func:`value_aggregates` (collected here unless given).  Columns :data:`VALUE_COLUMNS`.
    """
    kinds = suits_of(rules)
    if aggregates is None:
        aggregates = tuple(pl.collect_all(list(value_aggregates(sets, rules))))
    frame, strata = aggregates
    rows = []
    for rec in frame.iter_rows(named=True):
        role = rec["role"]
        for name, value in kinds:
            def g(group: str, key: str):
                v = rec[f"{name}|{group}|{key}"]
                return float("nan") if v is None else v
            d, lo, hi = mean_diff_interval(g("with", "pts_mean"), g("with", "pts_sd"), g("with", "pts_n"),
                                           g("without", "pts_mean"), g("without", "pts_sd"), g("without", "pts_n"))
            rows.append((name, value, role, "deal points", int(g("with", "pts_n")), g("with", "pts_mean"),
                         int(g("without", "pts_n")), g("without", "pts_mean"), float(d), float(lo), float(hi)))
            if role != "declarer":
                continue
            n1, k1, n2, k2 = g("with", "n"), g("with", "made"), g("without", "n"), g("without", "made")
            d, lo, hi = proportion_diff_interval(k1, n1, k2, n2)
            rows.append((name, value, role, "made", int(n1), k1 / n1 if n1 else float("nan"), int(n2),
                         k2 / n2 if n2 else float("nan"), float(d), float(lo), float(hi)))
            d, lo, hi = mean_diff_interval(g("with", "c_mean"), g("with", "c_sd"), n1,
                                           g("without", "c_mean"), g("without", "c_sd"), n2)
            rows.append((name, value, role, "contract", int(n1), g("with", "c_mean"), int(n2),
                         g("without", "c_mean"), float(d), float(lo), float(hi)))
    rows += _matched_rows(strata, kinds)
    schema = {"suit": pl.String, "value": pl.Int32, "role": pl.String, "metric": pl.String, "n_with": pl.Int64,
              "with_marriage": pl.Float64, "n_without": pl.Int64, "without_marriage": pl.Float64,
              "diff": pl.Float64, "diff_ci_low": pl.Float64, "diff_ci_high": pl.Float64}
    metric_order = {"deal points": 0, "deal points, same card points": 1, "made": 2, "contract": 3}
    suit_order = {name: i for i, (name, _) in enumerate(kinds)}
    rows.sort(key=lambda r: (r[2] != "declarer", suit_order[r[0]], metric_order[r[3]]))
    return pl.DataFrame(rows, schema=schema, orient="row").with_columns(
        pl.col(c).fill_nan(None) for c in ("with_marriage", "without_marriage", "diff", "diff_ci_low", "diff_ci_high"))


POINT_BAND = 5  # width of the card-point strata of the matched comparison


def _matched_rows(strata: pl.DataFrame, kinds: list[tuple[str, int]]) -> list[tuple]:
    """``deal points, same card points``: the holders' mean minus the non-holders' within
    strata of the card points held (declarer: hand + talon; defender: after the hand-off,
    in bands of :data:`POINT_BAND`), averaged with the holders' stratum sizes as weights.
    Strata lacking two rows in either group are left out (``n_with`` counts the holders
    kept).  Variance: sum of ``w_k^2 (s1_k^2 / n1_k + s0_k^2 / n0_k)``.
    """
    import numpy as np

    from thousand.analysis.stats import normal_interval

    out = []
    values = dict(kinds)
    for role in ("declarer", "defender"):
        for name, _ in kinds:
            t = strata.filter((pl.col("suit") == name) & (pl.col("role") == role))
            w = t.filter(pl.col("with")).select("band", "n", "mean", "var")
            wo = t.filter(~pl.col("with")).select("band", "n", "mean", "var")
            both = w.join(wo, on="band", suffix="_0").filter((pl.col("n") >= 2) & (pl.col("n_0") >= 2))
            if both.height == 0:
                if t.height:
                    out.append((name, values[name], role, "deal points, same card points", 0, None, 0, None,
                                None, None, None))
                continue
            n1, m1, v1 = (both[c].to_numpy().astype(float) for c in ("n", "mean", "var"))
            n0, m0, v0 = (both[c].to_numpy().astype(float) for c in ("n_0", "mean_0", "var_0"))
            wt = n1 / n1.sum()
            diff = float((wt * (m1 - m0)).sum())
            se = float(np.sqrt((wt ** 2 * (v1 / n1 + v0 / n0)).sum()))
            out.append((name, values[name], role, "deal points, same card points", int(n1.sum()),
                        float((wt * m1).sum()), int(n0.sum()), float((wt * m0).sum()), diff,
                        *normal_interval(diff, se)))
    return out


def marriage_points(sets: pl.LazyFrame) -> pl.LazyFrame:
    """Distribution of declared marriage points per played-out deal (no redeal, not resigned).

    Columns: ``points``, then for ``all`` (every seat together), ``declarer`` and
    ``defenders`` (both together) the number of deals with that total and its share.
    """
    per_deal = (sets.filter(pl.col("played") & ~pl.col("resigned"))
                .group_by("deal").agg(
                    pl.col("declared_points").sum().alias("all"),
                    pl.col("declared_points").filter(pl.col("role") == "declarer").sum().alias("declarer"),
                    pl.col("declared_points").filter(pl.col("role") == "defender").sum().alias("defenders")))
    parts = [per_deal.group_by(pl.col(who).alias("points")).agg(pl.len().alias(f"deals_{who}"))
             for who in ("all", "declarer", "defenders")]
    out = parts[0]
    for p in parts[1:]:
        out = out.join(p, on="points", how="full", coalesce=True)
    return (out.with_columns(pl.col(f"deals_{w}").fill_null(0).cast(pl.Int64) for w in ("all", "declarer", "defenders"))
            .with_columns((pl.col(f"deals_{w}") / pl.col(f"deals_{w}").sum()).alias(f"share_{w}")
                          for w in ("all", "declarer", "defenders"))
            .sort("points")
            .select("points", "deals_all", "share_all", "deals_declarer", "share_declarer",
                    "deals_defenders", "share_defenders"))


def held_points_distribution(sets: pl.LazyFrame, rules: Rules) -> pl.LazyFrame:
    """Total marriage value held in a dealt hand (every active seat, every deal) against
    the exact distribution: ``points, hands, n, observed, ci_low, ci_high, exact``."""
    size, _, _ = table_shape(rules)
    if uniform_deals(rules):
        pmf = cb.marriage_points_pmf(size)
    else:   # cut again under cut_nine_penalty: counted with the bottom card
        pmf = {}
        for held, p in _holdings_after_cut(rules, 0).items():
            points = sum(v for s, v in enumerate(MARRIAGE_VALUES) if held >> s & 1)
            pmf[points] = pmf.get(points, Fraction(0)) + p
        pmf = dict(sorted(pmf.items()))
    exact = pl.LazyFrame({"points": list(pmf), "exact": [float(p) for p in pmf.values()]},
                         schema={"points": pl.Int32, "exact": pl.Float64})
    lo, hi = wilson_exprs("hands", "n")
    return (sets.select(masks.suit_set_value(pl.col("m_dealt") & 15).alias("points"))
            .group_by("points").agg(pl.len().cast(pl.Int64).alias("hands"))
            .join(exact, on="points", how="full", coalesce=True)
            .with_columns(pl.col("hands").fill_null(0))
            .with_columns(pl.col("hands").sum().alias("n"))
            .with_columns((pl.col("hands") / pl.col("n")).alias("observed"), lo.alias("ci_low"), hi.alias("ci_high"))
            .sort("points")
            .select("points", "hands", "n", "observed", "ci_low", "ci_high", "exact"))


def held_in_play(marriages: pl.DataFrame) -> tuple[int, int]:
    """(played deals, marriages their players held) from a :func:`marriage_frequencies` table.

    Held: by the declarer with the talon, by a defender dealt or after the hand-off (the
    ``n`` of ``declared``).  No marriage held means every role row and chart is empty
    (n = 0 throughout): the run is too small to say anything about marriages in play.
    """
    role = marriages.filter(pl.col("role") != "all")
    played = role.filter((pl.col("role") == "declarer") & (pl.col("measure") == "held in dealt hand"))["n"]
    return (int(played.max()) if played.len() else 0,
            int(role.filter(pl.col("measure") == "declared")["n"].sum()))


def marriage_tables(deals: pl.LazyFrame | pl.DataFrame, rules: Rules) -> dict[str, pl.DataFrame]:
    """Every marriage table of the report; the pipelines are collected together, once.

    Keys: ``marriages`` (:func:`marriage_frequencies`), ``marriage_value``,
    ``marriage_points``, ``marriage_points_held``, ``marriage_checks`` (rows where the
    declared set was ambiguous or unexplained).
    """
    deals = deals.lazy()     # a DataFrame too (a hand-made frame: deals.frame_of)
    sets = deals.pipe(seat_rows, rules).pipe(with_marriage_sets, rules).cache()
    checks = sets.select(pl.len().alias("seat_rows"), _sum(pl.col("ambiguous")).alias("ambiguous"),
                         _sum(pl.col("unexplained")).alias("unexplained"))
    groups, strata = value_aggregates(sets, rules)
    freq, points, held, checks, groups, strata = pl.collect_all([
        marriage_frequencies(sets, rules), marriage_points(sets), held_points_distribution(sets, rules), checks,
        groups, strata])
    return {"marriages": freq, "marriage_value": marriage_value(sets, rules, (groups, strata)),
            "marriage_points": points, "marriage_points_held": held, "marriage_checks": checks}
