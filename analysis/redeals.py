"""How often each redeal condition occurs, next to its exact probability, and how often
the strategies really call a redeal.

Input: a LazyFrame of deal rows (the columns of :mod:`thousand.schema`: ``hand0..``,
``talon``, ``redeal``, ``declarer``, ``obligation``, ``blind``, ``handoff_next``,
``handoff_other``, ``dealer``).  Every dealt deal has a row, redealt ones included, so
the dealt cards are a uniform random sample and the frequencies estimate the exact
probabilities below.

* :func:`redeal_frequencies`: for every enabled condition of a rule set (and the union of
  the hand conditions, and of the talon conditions), the share of hands, of deals (any
  active hand qualifies) and of talons that meet it, with a 95% Wilson interval, next to
  the exact probability from :mod:`thousand.analysis.combinatorics`.  The four-nines
  condition after the hand-off depends on what the declarer gives away, so it has an
  observed frequency but no exact value.
* :func:`redeal_calls`: how many deals could have been redealt (a condition held and the
  player was allowed to ask) and how many were, by kind.

Both are LazyFrame -> LazyFrame pipelines; collect them once.
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass
from fractions import Fraction

import polars as pl

from thousand.analysis import combinatorics as comb
from thousand.analysis import masks
from thousand.analysis.stats import wilson_exprs
from thousand.rules import Rules

__all__ = [
    "Condition", "hand_conditions", "talon_conditions", "table_shape", "redeal_frequencies",
    "redeal_calls", "exact_table", "uniform_deals", "FREQUENCY_COLUMNS", "CALL_COLUMNS",
]

FREQUENCY_COLUMNS = [
    "rules", "condition", "scope", "count", "n", "observed", "ci_low", "ci_high", "exact", "within_ci",
]
CALL_COLUMNS = [
    "rules", "kind", "deals", "eligible", "called", "per_deal", "per_deal_ci_low", "per_deal_ci_high",
    "when_eligible", "when_eligible_ci_low", "when_eligible_ci_high",
]

_FEATURE_RANK = {"nines": 0, "jacks": 1}


@dataclass(frozen=True)
class Condition:
    """One redeal condition: ``feature op threshold`` on a hand or on the talon."""

    option: str      #: the rules option that sets it, e.g. ``redeal_hand_points_max``
    where: str       #: ``hand`` or ``talon``
    feature: str     #: ``points``, ``nines`` or ``jacks``
    op: str          #: ``<=`` or ``>=``
    threshold: int

    @property
    def label(self) -> str:
        """``'hand points <= 13'``."""
        return f"{self.where} {self.feature} {self.op} {self.threshold}"

    def test_vector(self, v: tuple[int, ...]) -> bool:
        """The condition on a rank vector (counts of 9 J Q K 10 A)."""
        x = comb.points_of(v) if self.feature == "points" else v[_FEATURE_RANK[self.feature]]
        return x <= self.threshold if self.op == "<=" else x >= self.threshold

    def test_mask(self, mask: pl.Expr | str) -> pl.Expr:
        """The condition on a mask column, as a boolean expression."""
        x = masks.points(mask) if self.feature == "points" else masks.count_rank(mask, _FEATURE_RANK[self.feature])
        return x <= self.threshold if self.op == "<=" else x >= self.threshold


def _conditions(rules: Rules, where: str) -> list[Condition]:
    """The redeal conditions the rule set enables on the ``where`` cards (hand or talon)."""
    specs = (("points", "<=", f"redeal_{where}_points_max"), ("nines", ">=", f"redeal_{where}_nines"),
             ("jacks", ">=", f"redeal_{where}_jacks"))
    return [Condition(option, where, feature, op, getattr(rules, option))
            for feature, op, option in specs if getattr(rules, option) is not None]


def hand_conditions(rules: Rules) -> list[Condition]:
    """The hand-redeal conditions the rule set enables."""
    return _conditions(rules, "hand")


def talon_conditions(rules: Rules) -> list[Condition]:
    """The talon-redeal conditions the rule set enables."""
    return _conditions(rules, "talon")


def table_shape(rules: Rules) -> tuple[int, int, int]:
    """``(cards per hand, active hands, cards per talon)`` at this table size."""
    if rules.players == 2:
        return 10, 2, 2
    return 7, 3, 3


def _any_of(conds: list[Condition]):
    return lambda v: any(c.test_vector(v) for c in conds)


# One row of the result: (condition label, scope, kind of test, the conditions it unites).
def _rows(rules: Rules) -> list[tuple[str, str, list[Condition]]]:
    rows: list[tuple[str, str, list[Condition]]] = []
    hand = hand_conditions(rules)
    for c in hand:
        rows += [(c.label, "hand", [c]), (c.label, "deal", [c])]
    if len(hand) > 1:
        rows += [("any hand condition", "hand", hand), ("any hand condition", "deal", hand)]
    talon = talon_conditions(rules)
    for c in talon:
        rows.append((c.label, "talon", [c]))
    if len(talon) > 1:
        rows.append(("any talon condition", "talon", talon))
    return rows


FOUR_NINES = "four nines after the exchange"


def uniform_deals(rules: Rules) -> bool:
    """Are the dealt cards a uniform sample (where the exact probabilities of uniform deals
    apply)?  Not under ``cut_nine_penalty``: every deal is cut again while its bottom card
    (``deck[20]``) is a nine, so that card never is one: the hand it is dealt to leans away
    from nines, and the other hands and the talons, which share the four nines among
    fewer cards, lean towards them (:func:`exact_table` counts them so)."""
    return not rules.cut_nine_penalty


def _exact_after_cut(pred, scope: str, rules: Rules) -> Fraction | None:
    """The exact probability of a row when every deal is cut again while its bottom card
    (``deck[20]``) is a nine: that card is one of the 20 others, each alike, and the other
    23 are uniform.  With 3 or 4 players it is the third active hand's last card, so that
    hand is 6 random cards and the fixed one (inclusion-exclusion over the hands, which
    are no longer alike); with 2 players it opens the first talon, and the talon column
    (the declarer's talon, or the first) has no exact value."""
    size, n_hands, talon_size = table_shape(rules)
    if rules.players == 2 and scope == "talon":
        return None
    total = Fraction(0)
    for r in range(1, 6):   # the bottom card's rank: anything but a nine, 4 cards each of 20
        limits = tuple(4 - (k == r) for k in range(6))
        free, bottom = (0,) * 6, tuple(int(k == r) for k in range(6))
        hands = [(size, free)] * n_hands if rules.players == 2 else \
            [(size, free)] * (n_hands - 1) + [(size - 1, bottom)]
        if scope == "talon":
            p = comb.p_all(pred, [(talon_size, free)], limits)
        elif scope == "hand":
            p = sum((comb.p_all(pred, [h], limits) for h in hands), Fraction(0)) / len(hands)
        else:
            p = Fraction(0)
            for k in range(1, len(hands) + 1):
                for some in itertools.combinations(hands, k):
                    p += (-1) ** (k + 1) * comb.p_all(pred, list(some), limits)
        total += p / 5
    return total


def exact_table(rules: Rules) -> pl.LazyFrame:
    """Exact probability of every row of :func:`redeal_frequencies` (null where none
    exists); under ``cut_nine_penalty`` given the cut (:func:`_exact_after_cut`)."""
    size, n_hands, talon_size = table_shape(rules)
    conditions, scopes, exact = [], [], []
    for label, scope, conds in _rows(rules):
        pred = _any_of(conds)
        if not uniform_deals(rules):
            p: Fraction | None = _exact_after_cut(pred, scope, rules)
        elif scope == "hand":
            p = comb.p_set(pred, size)
        elif scope == "deal":
            p = comb.p_any_hand(pred, size, n_hands)
        else:
            p = comb.p_set(pred, talon_size)
        conditions.append(label)
        scopes.append(scope)
        exact.append(None if p is None else float(p))
    if rules.redeal_four_nines_after_exchange:
        for scope in ("hand after exchange", "deal after exchange"):
            conditions.append(FOUR_NINES)
            scopes.append(scope)
            exact.append(None)
    return pl.LazyFrame({"condition": conditions, "scope": scopes, "exact": exact},
                        schema={"condition": pl.String, "scope": pl.String, "exact": pl.Float64})


def _seats(rules: Rules) -> range:
    return range(rules.players)


def _active(seat: int) -> pl.Expr:
    # A sitting-out dealer (4 players) has an empty hand; a dealt hand never is.
    return pl.col(f"hand{seat}") != 0


def _count_exprs(rules: Rules) -> list[tuple[str, str, pl.Expr, pl.Expr]]:
    """For each result row: (condition, scope, count expression, trials expression)."""
    seats = _seats(rules)
    out = []
    n_hands = pl.sum_horizontal([_active(s).cast(pl.Int64) for s in seats]).sum()
    for label, scope, conds in _rows(rules):
        if scope == "talon":
            hit = pl.any_horizontal([c.test_mask("talon") for c in conds])
            out.append((label, scope, hit.cast(pl.Int64).sum(), pl.len().cast(pl.Int64)))
            continue
        per_seat = [_active(s) & pl.any_horizontal([c.test_mask(f"hand{s}") for c in conds]) for s in seats]
        if scope == "hand":
            count = pl.sum_horizontal([f.cast(pl.Int64) for f in per_seat]).sum()
            out.append((label, scope, count, n_hands))
        else:
            out.append((label, scope, pl.any_horizontal(per_seat).cast(pl.Int64).sum(), pl.len().cast(pl.Int64)))
    if rules.redeal_four_nines_after_exchange:
        done = masks.exchanged(rules.players)
        four = [done & _active(s) & (masks.nines(masks.hand_after_exchange(s, rules.players)) == 4) for s in seats]
        n_done = done.cast(pl.Int64).sum()
        out.append((FOUR_NINES, "hand after exchange",
                    pl.sum_horizontal([f.cast(pl.Int64) for f in four]).sum(),
                    (pl.sum_horizontal([_active(s).cast(pl.Int64) for s in seats]) * done.cast(pl.Int64)).sum()))
        out.append((FOUR_NINES, "deal after exchange", pl.any_horizontal(four).cast(pl.Int64).sum(), n_done))
    return out


def count_conditions(deals: pl.LazyFrame | pl.DataFrame, rules: Rules) -> pl.LazyFrame:
    """One row per condition and scope: ``condition, scope, count, n``."""
    deals = deals.lazy()     # a DataFrame too (a hand-made frame: deals.frame_of)
    exprs = _count_exprs(rules)
    agg = deals.select(
        [e.alias(f"c{i}") for i, (_, _, e, _) in enumerate(exprs)]
        + [e.alias(f"n{i}") for i, (_, _, _, e) in enumerate(exprs)]
    )
    parts = [
        agg.select(pl.lit(label).alias("condition"), pl.lit(scope).alias("scope"),
                   pl.col(f"c{i}").cast(pl.Int64).alias("count"), pl.col(f"n{i}").cast(pl.Int64).alias("n"))
        for i, (label, scope, _, _) in enumerate(exprs)
    ]
    if not parts:
        return pl.LazyFrame(schema={"condition": pl.String, "scope": pl.String, "count": pl.Int64, "n": pl.Int64})
    return pl.concat(parts)


def with_wilson(lf: pl.LazyFrame) -> pl.LazyFrame:
    """Adds ``observed`` (count / n) and its 95% Wilson bounds ``ci_low``, ``ci_high``."""
    lo, hi = wilson_exprs("count", "n")
    return lf.with_columns(
        pl.when(pl.col("n") > 0).then(pl.col("count") / pl.col("n")).alias("observed"),
        lo.alias("ci_low"), hi.alias("ci_high"),
    )


def with_exact(lf: pl.LazyFrame, rules: Rules) -> pl.LazyFrame:
    """Joins the exact probabilities and flags whether each lies inside its interval."""
    return (
        lf.join(exact_table(rules), on=["condition", "scope"], how="left", maintain_order="left")
        .with_columns(
            pl.when(pl.col("exact").is_null()).then(None)
            .otherwise((pl.col("exact") >= pl.col("ci_low")) & (pl.col("exact") <= pl.col("ci_high")))
            .alias("within_ci"))
    )


def redeal_frequencies(deals: pl.LazyFrame | pl.DataFrame, rules: Rules, label: str | None = None) -> pl.LazyFrame:
    """Frequency of every enabled redeal condition, with its interval and exact value.

    Columns :data:`FREQUENCY_COLUMNS`: ``rules`` (the label), ``condition`` (e.g.
    ``hand points <= 13``), ``scope`` (``hand``: share of dealt hands; ``deal``: share of
    deals in which any active hand qualifies; ``talon``: share of talons; ``... after
    exchange``: among deals that reached the hand-off), ``count``, ``n``, ``observed``,
    ``ci_low``, ``ci_high`` (95% Wilson), ``exact`` and ``within_ci``.
    """
    deals = deals.lazy()     # a DataFrame too (a hand-made frame: deals.frame_of)
    label = label or rules.describe()
    return (
        deals.pipe(count_conditions, rules)
        .pipe(with_wilson)
        .pipe(with_exact, rules)
        .with_columns(pl.lit(label).alias("rules"))
        .select(FREQUENCY_COLUMNS)
    )


def _eligibility(rules: Rules) -> list[tuple[str, pl.Expr, int]]:
    """(kind, the deal could have been redealt, its code in the ``redeal`` column)."""
    seats = _seats(rules)
    out: list[tuple[str, pl.Expr, int]] = []
    hand = hand_conditions(rules)
    if hand:
        # Who is asked (docs/rules.md): not a blind forehand (he has not looked), and
        # nobody in a golden-kon deal (the first three played deals of a game).
        forehand = (pl.col("dealer").cast(pl.Int32) + 1) % rules.players
        asked = [~(pl.col("blind") & (forehand == s)) for s in seats]
        any_hand = pl.any_horizontal([
            _active(s) & asked[s] & pl.any_horizontal([c.test_mask(f"hand{s}") for c in hand]) for s in seats])
        if rules.golden_kon:
            any_hand = any_hand & ~((pl.col("game_id") >= 0) & (pl.col("deal_no") < 3))
        out.append(("hand", any_hand, 1))
    talon = talon_conditions(rules)
    if talon:
        # The talon stage was reached: no hand redeal, a declarer, not a blind deal.
        reached = (pl.col("redeal") != 1) & (pl.col("declarer") >= 0) & ~pl.col("blind")
        allowed = pl.lit(True) if rules.redeal_talon_by == "declarer" else pl.col("obligation")
        out.append(("talon", reached & allowed & pl.any_horizontal([c.test_mask("talon") for c in talon]), 2))
    if rules.redeal_four_nines_after_exchange:
        done = masks.exchanged(rules.players)
        four = pl.any_horizontal([
            done & _active(s) & (masks.nines(masks.hand_after_exchange(s, rules.players)) == 4) for s in seats])
        out.append(("four_nines", four, 3))
    return out


def redeal_calls(deals: pl.LazyFrame | pl.DataFrame, rules: Rules, label: str | None = None) -> pl.LazyFrame:
    """How often redeals could be called and were, by kind (``hand``, ``talon``, ``four_nines``).

    ``eligible`` counts deals where a player meeting an enabled condition was allowed to
    ask (hand: not a blind forehand, not a golden-kon deal; talon: the deal reached it, it
    was not blind, and ``redeal_talon_by`` let the declarer ask); ``called`` counts rows whose ``redeal`` is that kind.
    ``per_deal`` is called / deals, ``when_eligible`` called / eligible, each with a 95%
    Wilson interval.  Columns :data:`CALL_COLUMNS`.
    """
    deals = deals.lazy()     # a DataFrame too (a hand-made frame: deals.frame_of)
    label = label or rules.describe()
    kinds = _eligibility(rules)
    if not kinds:
        return pl.LazyFrame(schema={c: (pl.String if c in ("rules", "kind") else
                                        pl.Int64 if c in ("deals", "eligible", "called") else pl.Float64)
                                    for c in CALL_COLUMNS})
    agg = deals.select(
        [pl.len().cast(pl.Int64).alias("deals")]
        + [e.cast(pl.Int64).sum().alias(f"e_{k}") for k, e, _ in kinds]
        + [(pl.col("redeal") == code).cast(pl.Int64).sum().alias(f"c_{k}") for k, _, code in kinds]
    )
    long = pl.concat([
        agg.select(pl.lit(k).alias("kind"), pl.col("deals"), pl.col(f"e_{k}").alias("eligible"),
                   pl.col(f"c_{k}").alias("called"))
        for k, _, _ in kinds
    ])
    lo1, hi1 = wilson_exprs("called", "deals")
    lo2, hi2 = wilson_exprs("called", "eligible")
    return long.with_columns(
        pl.lit(label).alias("rules"),
        (pl.col("called") / pl.col("deals")).alias("per_deal"), lo1.alias("per_deal_ci_low"),
        hi1.alias("per_deal_ci_high"),
        pl.when(pl.col("eligible") > 0).then(pl.col("called") / pl.col("eligible")).alias("when_eligible"),
        lo2.alias("when_eligible_ci_low"), hi2.alias("when_eligible_ci_high"),
    ).select(CALL_COLUMNS)
