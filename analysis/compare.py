"""Compare house rules statistically, with common random numbers and paired statistics.

Every rule set plays the *same* seeds: chunk ``k`` of every rule set draws from
``SeedSequence(seed).spawn(...)[k]``, so game ``i`` (or deal slot ``i``) starts from the
same shuffle under every rule set.  The streams stay in step until the rules make the
engines consume them differently (a redeal one rule set allows and the other does not, a
deal that ends a game under one target but not the other); from there on the two games
diverge, which is still a valid pairing, only a less tight one.  Every statistic of a
difference is therefore computed on the *pairs* (game ``i`` under rule set A and game
``i`` under rule set B), and the output says how much the pairing narrowed the interval
against an unpaired (independent samples) comparison of the same data.

The pipeline, each step usable on its own:

1. :func:`unit_table`: the raw game and deal rows of one rule set -> one row per unit
   (a game, or a deal slot in a deal-only run) holding, for every metric, a numerator
   and a denominator.
2. :func:`compare_units`: the unit tables of several rule sets -> one
   :class:`MetricRow` per metric and rule set: value and 95% interval, and against the
   first rule set the paired difference, its interval, p-value and Holm-corrected
   p-value.
3. :func:`compare_rules`: runs the simulations (in rounds for a target precision) and
   does 1 and 2; :func:`write_outputs` writes Markdown, CSV and a forest plot.

Methods (also in ``docs/compare.md`` and :data:`METHODS`):

* a proportion of games (win rates, golden-kon resets): Wilson score interval; the paired
  difference with Newcombe's hybrid score interval for paired data (his method 10,
  Wilson intervals combined with the phi correlation of the pairs) and McNemar's test
  (exact binomial when fewer than 100 pairs disagree);
* a mean per game (deals, barrel entries, bolt penalties, score spread...): Student t
  interval ``mean +- t sd / sqrt(n)`` with ``n - 1`` degrees of freedom; the paired
  difference as the mean of the per-game differences with their standard error, t
  interval and paired t-test with ``n - 1`` degrees of freedom (t at every ``n``, so
  that a handful of games gets honest, wide intervals; above 100,000 degrees of freedom
  t and normal agree to 1e-5 and the normal is used);
* a per-deal rate or mean inside games (declarer success, mean contract...): a ratio of
  sums over all deals, its standard error by the delta method clustered by game (deals
  of one game are not independent), the paired difference by the same linearisation on
  the pairs, t with ``n - 1`` degrees of freedom as for means; proportions among them
  get Wilson's form of that interval (t quantile, effective sample size
  ``R (1 - R) / se**2``, capped at the deals counted below 30 games), so it stays in
  [0, 1];
* the median and the 10th and 90th percentiles of deals per game: a distribution-free
  order-statistic interval; the difference with a paired bootstrap (percentile, 1000
  resamples); no p-value.

Multiple comparisons: Holm's step-down correction over every (metric, variant) p-value of
the comparison.  Every interval and test is :mod:`thousand.analysis.stats`'s.

Memory: no per-unit array is kept.  Chunks are simulated a batch at a time, their
unit tables folded chunk by chunk into running sums, means and cross-products
(:class:`Moments`, :class:`UnitStats`) and dropped, so a comparison of a billion deals
holds what one of a thousand does.

Nothing computed is lost: given ``units`` (``compare --out DIR`` gives ``DIR/units``),
every chunk's unit table is written there as it is computed, one runner chunk store a
rule set (:mod:`thousand.runner.store`), and ``resume`` reads the chunks already there
back instead of playing them again: an interrupted comparison continues where it
stopped, and a finished one is summarised again at once, with the same numbers.
"""
from __future__ import annotations

import contextlib
import dataclasses
import json
import math
import os
import re
import sys
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import BrokenExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl

from thousand.analysis.stats import (
    BOOTSTRAP_RESAMPLES, Diff, Estimate, Moments, holm, mean_diff_from, paired_quantile_diff_from,
    proportion_diff_from, quantile_from_counts, ratio_diff_from, ratio_estimate_from, t_for, weighted_quantiles,
    json_number, wilson_bounds, z_for,
)
from thousand.errors import ThousandError, check_jobs, check_seed
from thousand.files import read_json, written_whole
from thousand.rules import Rules, format_value, parse_overrides, parse_rules_spec, rule_notes

__all__ = [
    "Metric", "METRICS", "METHODS", "metric_names", "select_metrics", "unit_table",
    "MetricRow", "ComparisonResult", "compare_units", "compare_rules", "write_outputs",
    "result_markdown", "result_table", "forest_plot", "COMPARE_CHUNK_GAMES",
    "COMPARE_CHUNK_DEALS", "play_paired", "simulate_chunks", "claim_out_dir", "OUTPUT_FILES", "WRITTEN_FILE",
    "UNITS_DIR", "refuse_duplicates",
]

# Chunks for comparison runs: small enough that a --precision round adds little more than
# it needs, large enough that a chunk costs far more than starting it.  They are part of
# what determines the data (with the seed), like the runner's own chunk size.
COMPARE_CHUNK_GAMES = 250
COMPARE_CHUNK_DEALS = 50_000
# Units per rule set simulated before they are folded into running summaries and
# dropped (at most ~0.6 kB each in a games comparison, ~0.2 kB in a deals one): memory
# stays flat however many units a comparison runs.
BATCH_UNITS = 100_000
# Sanity limits per rule set.  Memory no longer grows with the number of units; these
# bound the time: every rule set is simulated, so 10**10 deals take days even on many
# cores (a tenth of the runner's limits for simulate and games).
MAX_UNITS = {"games": 10**9, "deals": 10**10}
#: Where ``compare --out DIR`` keeps every chunk's unit tables (``DIR/units/rules-<i>``).
UNITS_DIR = "units"
# In a games comparison's unit table: each game's number of deals (the deals-per-game
# distribution of a chunk read back from the store is rebuilt from it).
GAME_DEALS = "deals_in_game"


# =========================================================================== metrics
Expr = Callable[[int], pl.Expr]


@dataclass(frozen=True)
class Metric:
    """A quantity compared between rule sets.

    ``num`` (and ``den`` for ratios) build per-row Polars expressions for a table of
    ``players`` seats: on game rows for ``level == "game"``, on deal rows for
    ``level == "deal"``; deal rows are summed per unit.
    """

    name: str
    level: str              # "game" or "deal"
    kind: str               # "proportion", "mean", "median", "quantile", "ratio", "ratio_proportion"
    unit: str               # what the value is in, also the forest plot's panel
    description: str
    num: Expr
    den: Expr | None = None
    applies: Callable[[Rules], bool] = field(default=lambda rules: True)
    # Excluded from the --precision stopping rule (a quantile of integers moves in steps).
    in_precision: bool = True
    # The quantile of the "median" and "quantile" kinds.
    q: float = 0.5
    # The least value the quantity can take (0 for a count): a value's interval is cut
    # there (a t interval of two games' barrel entries reached -3.85); the true value lies
    # above it, so no coverage is lost.
    floor: float | None = None


METHODS: dict[str, tuple[str, str]] = {
    "proportion": ("Wilson score interval",
                   "paired: Newcombe hybrid score (method 10, with phi); McNemar test"),
    "mean": ("mean +- t sd/sqrt(n), Student t with n-1 df",
             "paired: mean of per-unit differences +- t se (n-1 df); paired t-test"),
    "ratio": ("ratio of sums, delta-method se clustered by unit, t with n-1 df",
              "paired delta method (per-unit influence differences), t with n-1 df; t-test"),
    "ratio_proportion": ("Wilson with t (n-1 df) at the effective n of the clustered (delta-method) "
                         "variance (at most the deals counted below 30 units)",
                         "paired delta method (per-unit influence differences), t with n-1 df; t-test"),
    "median": ("order-statistic (distribution-free) interval",
               "paired bootstrap, percentile, 1000 resamples; no p-value"),
    "quantile": ("order-statistic (distribution-free) interval",
                 "paired bootstrap, percentile, 1000 resamples; no p-value"),
}

_SHARE, _PER_GAME, _DEALS, _POINTS, _FINAL = "share", "per game", "deals per game", "points", "final points"


def _seats(players: int, name: str) -> pl.Expr:
    return pl.sum_horizontal([pl.col(f"{name}{s}") for s in range(players)])


def _one(players: int) -> pl.Expr:
    """1 on every row (a literal would not be summed row by row in a group)."""
    return pl.col("redeal").is_not_null().cast(pl.Float64)


def _played(players: int) -> pl.Expr:
    return ((pl.col("redeal") == 0) & (pl.col("declarer") >= 0)).cast(pl.Float64)


def _played_cards(players: int) -> pl.Expr:
    """Played deals in which cards were played (the declarer did not resign)."""
    return _played(players) * (~pl.col("resigned")).cast(pl.Float64)


def _at_declarer(players: int, name: str) -> pl.Expr:
    expr = pl.lit(0.0)
    for s in range(players):
        expr = pl.when(pl.col("declarer") == s).then(pl.col(f"{name}{s}").cast(pl.Float64)).otherwise(expr)
    return expr


def _at_offset(players: int, name: str, offset: int) -> pl.Expr:
    """Column ``name`` at the seat ``offset`` places after the dealer."""
    expr = pl.lit(0.0)
    for s in range(players):
        seat = (s + offset) % players
        expr = pl.when(pl.col("dealer") == s).then(pl.col(f"{name}{seat}").cast(pl.Float64)).otherwise(expr)
    return expr


def _deal_points(players: int, s: int) -> pl.Expr:
    return pl.col(f"points{s}").cast(pl.Float64) + pl.col(f"marriages{s}").cast(pl.Float64)


def _defender_points(players: int) -> pl.Expr:
    """Mean deal points of one defender (active seats other than the declarer)."""
    total = pl.lit(0.0)
    for s in range(players):
        active = pl.col("declarer") != s
        if players == 4:
            active = active & (pl.col("dealer") != s)  # the dealer sits out
        total = total + pl.when(active).then(_deal_points(players, s)).otherwise(0.0)
    defenders = {2: 1, 3: 2, 4: 2}[players]
    return total / defenders


_WIN_OFFSET_NAMES = {0: "win_first_dealer", 1: "win_first_forehand"}
_SEAT_ROLE_NAMES = {0: "dealer", 1: "forehand", 2: "middle", 3: "rear"}


class _Needs:
    """A metric's ``applies``: whether a rule set has the rule it measures, and its name."""

    def __init__(self, text: str, test: Callable[[Rules], bool]) -> None:
        self.text, self.test = text, test

    def __call__(self, rules: Rules) -> bool:
        return bool(self.test(rules))


_BOOL_OPTIONS = {f.name for f in dataclasses.fields(Rules) if f.type == "bool"}


def _has(option: str, off: Any = None) -> _Needs:
    text = f"{option}=on" if option in _BOOL_OPTIONS else f"{option} other than {format_value(off)}"
    return _Needs(text, lambda rules: getattr(rules, option) not in (off, False))


_BLIND_OR_GOLDEN = _Needs("blind=on or golden_kon=on", lambda r: r.blind or r.golden_kon)


def _build_metrics(players: int) -> list[Metric]:
    m: list[Metric] = [
        Metric("deals_mean", "game", "mean", _DEALS, "played deals per game (mean)",
               lambda p: pl.col("deals").cast(pl.Float64), floor=0.0),
        Metric("deals_median", "game", "median", _DEALS, "played deals per game (median)",
               lambda p: pl.col("deals").cast(pl.Float64), in_precision=False),
        Metric("deals_p10", "game", "quantile", _DEALS, "played deals per game, 10th percentile (short games)",
               lambda p: pl.col("deals").cast(pl.Float64), in_precision=False, q=0.1),
        Metric("deals_p90", "game", "quantile", _DEALS, "played deals per game, 90th percentile (long games)",
               lambda p: pl.col("deals").cast(pl.Float64), in_precision=False, q=0.9),
    ]
    for s in range(players):
        m.append(Metric(f"win_seat{s}", "game", "proportion", _SHARE, f"games won by seat {s}",
                        lambda p, s=s: (pl.col("winner") == s).cast(pl.Float64)))
    for k in range(players):
        name = _WIN_OFFSET_NAMES.get(k, f"win_first_dealer_plus{k}")
        m.append(Metric(name, "game", "proportion", _SHARE,
                        f"games won by the player {k} seats after the first dealer" if k > 1 else
                        ("games won by the first dealer" if k == 0 else "games won by the first forehand"),
                        lambda p, k=k: (pl.col("winner") == (pl.col("first_dealer").cast(pl.Int32) + k) % p)
                        .cast(pl.Float64)))
    m += [
        Metric("no_winner", "game", "proportion", _SHARE, "games stopped by max_deals without a winner",
               lambda p: (pl.col("winner") < 0).cast(pl.Float64)),
        Metric("barrel_entries", "game", "mean", _PER_GAME, "times a player got onto the barrel, per game",
               lambda p: _seats(p, "barrel_entries").cast(pl.Float64), applies=_has("barrel_at"), floor=0.0),
        Metric("barrel_falls", "game", "mean", _PER_GAME, "falls and knock-offs from the barrel, per game",
               lambda p: _seats(p, "barrel_falls").cast(pl.Float64), applies=_has("barrel_at"), floor=0.0),
        Metric("bolt_penalties", "game", "mean", _PER_GAME, "bolt penalties paid, per game",
               lambda p: _seats(p, "bolt_penalties").cast(pl.Float64), applies=_has("bolts", "off"), floor=0.0),
        Metric("resignations", "game", "mean", _PER_GAME, "resignations, per game",
               lambda p: _seats(p, "resignations").cast(pl.Float64), applies=_has("resign", "none"), floor=0.0),
        Metric("redeals", "game", "mean", _PER_GAME, "redeals called, per game",
               lambda p: pl.col("redeals").cast(pl.Float64), floor=0.0),
        Metric("blind_deals", "game", "mean", _PER_GAME, "blind (and golden-kon) deals, per game",
               lambda p: pl.col("blind_deals").cast(pl.Float64),
               applies=_BLIND_OR_GOLDEN, floor=0.0),
        Metric("blind_made", "game", "ratio_proportion", _SHARE, "blind deals whose declarer made 120",
               lambda p: pl.col("blind_made").cast(pl.Float64), lambda p: pl.col("blind_deals").cast(pl.Float64),
               applies=_BLIND_OR_GOLDEN),
        Metric("golden_reset", "game", "proportion", _SHARE, "games whose golden kon failed (scores reset)",
               lambda p: pl.col("golden_reset").cast(pl.Float64), applies=_has("golden_kon")),
        Metric("resets_555", "game", "mean", _PER_GAME, "555 resets, per game",
               lambda p: pl.col("resets_555").cast(pl.Float64), applies=_has("samozval_555"), floor=0.0),
        Metric("cut_penalties", "game", "mean", _PER_GAME, "cut-nine penalties, per game",
               lambda p: pl.col("cut_penalties").cast(pl.Float64), applies=_has("cut_nine_penalty"), floor=0.0),
        Metric("score_spread", "game", "mean", _FINAL, "final score spread (highest - lowest), per game",
               lambda p: (pl.max_horizontal([pl.col(f"final{s}") for s in range(p)]).cast(pl.Float64)
                          - pl.min_horizontal([pl.col(f"final{s}") for s in range(p)]).cast(pl.Float64)), floor=0.0),
        # ---- per deal (inside games: ratios clustered by game)
        Metric("declarer_success", "deal", "ratio_proportion", _SHARE,
               "played deals whose declarer made the contract (a resignation is a failure)",
               lambda p: _played(p) * pl.col("made").cast(pl.Float64), _played),
        Metric("resign_rate", "deal", "ratio_proportion", _SHARE, "played deals the declarer resigned",
               lambda p: _played(p) * pl.col("resigned").cast(pl.Float64), _played,
               applies=_has("resign", "none")),
        Metric("obligation_rate", "deal", "ratio_proportion", _SHARE,
               "played deals on obligation (forced 100, nobody bid)",
               lambda p: _played(p) * pl.col("obligation").cast(pl.Float64), _played),
        Metric("redeal_rate", "deal", "ratio_proportion", _SHARE, "dealt deals that were redealt",
               lambda p: (pl.col("redeal") != 0).cast(pl.Float64), _one),
        Metric("contract_mean", "deal", "ratio", _POINTS, "final contract, mean over played deals",
               lambda p: _played(p) * pl.col("contract").cast(pl.Float64), _played, floor=0.0),
        Metric("declarer_score", "deal", "ratio", _POINTS,
               "declarer's deal score (+-contract, a resignation's cost), mean over played deals; before the "
               "barrel voids a sitter's change and before penalties (the games' final{s} have the game's)",
               lambda p: _played(p) * _at_declarer(p, "score"), _played),
        Metric("points_declarer", "deal", "ratio", _POINTS,
               "declarer's deal points (cards + marriages + bonus), deals played out",
               lambda p: _played_cards(p) * pl.col("declarer_points").cast(pl.Float64), _played_cards, floor=0.0),
        Metric("points_defender", "deal", "ratio", _POINTS,
               "one defender's deal points (cards + marriages), deals played out",
               lambda p: _played_cards(p) * _defender_points(p), _played_cards, floor=0.0),
        Metric("bolts_per_deal", "deal", "ratio", "per deal", "bolts given, per played deal",
               lambda p: _played(p) * _seats(p, "bolt").cast(pl.Float64), _played,
               applies=_has("bolts", "off"), floor=0.0),
    ]
    for k in range(players):
        role = _SEAT_ROLE_NAMES[k]
        where = "the dealer" if k == 0 else f"the {role} ({k} seat{'s' if k > 1 else ''} after the dealer)"
        m.append(Metric(f"score_{role}", "deal", "ratio", _POINTS,
                        f"deal score of {where}, per played deal (before the barrel and penalties)",
                        lambda p, k=k: _played(p) * _at_offset(p, "score", k), _played))
    return m


METRICS: list[Metric] = _build_metrics(3)


# ------------------------------------------------------------- was a rule exercised at all?
# Counters of the events that put a rule into play, summed per unit next to the metrics
# (columns ``event.<name>.num``) whatever metrics were chosen.  Game-level ones need whole
# games; deal-level ones are read from the deal rows in both kinds of run.
_EVENT_PREFIX = "event."
_EVENT_COUNTERS: dict[str, tuple[str, Expr]] = {
    # Golden-kon deals are the first three played deals of a game (deal_no 0-2), and no
    # voluntary blind is possible there under golden kon: early and late blinds apart.
    "blind_early": ("deal", lambda p: (pl.col("blind") & (pl.col("deal_no") < 3)).cast(pl.Float64)),
    "blind_late": ("deal", lambda p: (pl.col("blind") & (pl.col("deal_no") >= 3)).cast(pl.Float64)),
    "resigned": ("deal", lambda p: _played(p) * pl.col("resigned").cast(pl.Float64)),
    "bolts": ("deal", lambda p: _seats(p, "bolt").cast(pl.Float64)),
    "redeal_hand": ("deal", lambda p: (pl.col("redeal") == 1).cast(pl.Float64)),
    "redeal_talon": ("deal", lambda p: (pl.col("redeal") == 2).cast(pl.Float64)),
    "redeal_four_nines": ("deal", lambda p: (pl.col("redeal") == 3).cast(pl.Float64)),
    "barrel_entries": ("game", lambda p: _seats(p, "barrel_entries").cast(pl.Float64)),
    "barrel_falls": ("game", lambda p: _seats(p, "barrel_falls").cast(pl.Float64)),
    # the reset needs a player on the barrel a third time in the game (and running out of
    # deals there, which no column counts apart: a game with a third sit may not reset)
    "barrel_third_sits": ("game", lambda p: pl.sum_horizontal(
        [(pl.col(f"barrel_entries{s}") >= 3) for s in range(p)]).cast(pl.Float64)),
    "bolt_penalties": ("game", lambda p: _seats(p, "bolt_penalties").cast(pl.Float64)),
    "resets_555": ("game", lambda p: pl.col("resets_555").cast(pl.Float64)),
    "cut_penalties": ("game", lambda p: pl.col("cut_penalties").cast(pl.Float64)),
    "barrel_clashes": ("game", lambda p: pl.col("barrel_clashes").cast(pl.Float64)),
}


def _event_metrics(mode: str) -> list[Metric]:
    """The counters as metrics (only for :func:`unit_table`; never compared)."""
    return [Metric(_EVENT_PREFIX + name, level, "ratio", "", "", num, _one if level == "deal" else None)
            for name, (level, num) in _EVENT_COUNTERS.items() if mode == "games" or level == "deal"]


@dataclass(frozen=True)
class _Exercise:
    """Rule options that change nothing until an event happens, and how to count it."""

    options: tuple[str, ...]
    enabled: Callable[[Rules], bool]
    count: Callable[[Rules, dict[str, float], str], float]   # (rules, counts, mode)
    event: str                      # plural, as in "no blind deals"
    games_only: bool                # deal-only runs cannot have it
    hint: str | Callable[[Any, str], str] = ""   # or a function of the strategies and the mode


def _blind_hint(strategies: Any, mode: str) -> str:
    """Why nobody went blind: the seats' ``blind_gap`` (docs/strategies.md), if they have one."""
    if mode != "games":
        # every deal of a --deals run starts at 0-0: nobody trails, so no blind_gap is met
        return ("a --deals run plays every deal from 0-0, where nobody trails the leader by a strategy's "
                "blind_gap (only a strategy that decides at random goes blind there): use --games")
    from thousand.strategies import DEFAULT_STRATEGY, STRATEGIES, parse_strategy
    specs = [strategies] if isinstance(strategies, str) else list(strategies or [DEFAULT_STRATEGY])
    try:
        parsed = [parse_strategy(str(spec)) for spec in specs]
    except ThousandError:
        parsed = []
    gaps = [p.params[STRATEGIES[p.name].params["blind_gap"].slot] for p in parsed
            if "blind_gap" in STRATEGIES[p.name].params]
    if parsed and len(gaps) == len(parsed) and not any(gaps):
        return ("a player goes blind only when trailing the leader by the strategy's blind_gap points, and "
                "blind_gap is 0 here (never; standard's and cautious's default): try --strategy aggressive "
                "(blind_gap=400) or --strategy standard:blind_gap=200")
    return "the forehand decides whether to go blind (blind_gap of the strategies): play more games"


_BARREL_OPTIONS = ("barrel_at", "barrel_deals", "barrel_target", "barrel_penalty", "barrel_bid_min",
                   "barrel_takes_talon", "barrel_third_reset")
_EXERCISES: tuple[_Exercise, ...] = (
    # a --deals run has blind deals too (every deal from 0-0: a strategy that decides at
    # random goes blind there), but no golden kon: its deals at deal_no < 3 are voluntary
    _Exercise(("blind",), lambda r: r.blind and r.players != 2,     # (at 2 players a rule note says why)
              lambda r, c, mode: c["blind_late"] + (0 if r.golden_kon and mode == "games" else c["blind_early"]),
              "blind deals", False, _blind_hint),
    _Exercise(("golden_kon",), lambda r: r.golden_kon, lambda r, c, mode: c["blind_early"], "golden-kon deals", True),
    # (several reaching it in one deal is a clash: nobody sits, so no entry is counted)
    _Exercise(_BARREL_OPTIONS, lambda r: r.barrel_at is not None,
              lambda r, c, mode: c["barrel_entries"] + c["barrel_clashes"],
              "barrel entries", True, "nobody reached barrel_at: play more (or longer) games"),
    # players did sit on the barrel, but the penalty is paid only by one who falls off it
    # or is knocked off, or by those who reach it together (a fall counts going under too)
    _Exercise(("barrel_penalty",), lambda r: r.barrel_at is not None,
              lambda r, c, mode: c["barrel_falls"] + c["barrel_clashes"], "barrel falls or clashes", True,
              "nobody fell off the barrel and no two reached it together: play more games"),
    _Exercise(("barrel_third_reset",), lambda r: r.barrel_at is not None and r.barrel_third_reset,
              lambda r, c, mode: c["barrel_third_sits"], "players on the barrel a third time in a game",
              True, "a third time on the barrel is rare: play more games"),
    _Exercise(("samozval_555",), lambda r: r.samozval_555, lambda r, c, mode: c["resets_555"], "555 resets", True,
              "a total of exactly +-555 is rare: play more games"),
    _Exercise(("cut_nine_penalty",), lambda r: r.cut_nine_penalty, lambda r, c, mode: c["cut_penalties"],
              "cut-nine penalties", True, "three nines cut in a row are rare: play more games"),
    # not_on_barrel differs from always only while someone sits on the barrel
    _Exercise(("bolts",), lambda r: r.bolts == "not_on_barrel" and r.barrel_at is not None,
              lambda r, c, mode: c["barrel_entries"] + c["barrel_clashes"], "barrel entries", True,
              "bolts=not_on_barrel differs from always only while someone sits on the barrel: play more "
              "(or longer) games"),
    _Exercise(("bolt_penalty",), lambda r: r.bolts != "off", lambda r, c, mode: c["bolt_penalties"],
              "bolt penalties", True),
    _Exercise(("bolts", "bolt_when"), lambda r: r.bolts != "off", lambda r, c, mode: c["bolts"], "bolts", False),
    _Exercise(("resign",), lambda r: r.resign != "none", lambda r, c, mode: c["resigned"], "resignations", False,
              "whether to resign is the strategy's decision"),
    _Exercise(("redeal_hand_points_max", "redeal_hand_nines", "redeal_hand_jacks"),
              lambda r: any(v is not None for v in (r.redeal_hand_points_max, r.redeal_hand_nines,
                                                    r.redeal_hand_jacks)),
              lambda r, c, mode: c["redeal_hand"], "hand redeals", False,
              "whether to demand a redeal is the strategy's decision (standard: redeal_below)"),
    _Exercise(("redeal_talon_points_max", "redeal_talon_nines", "redeal_talon_jacks", "redeal_talon_by"),
              lambda r: any(v is not None for v in (r.redeal_talon_points_max, r.redeal_talon_nines,
                                                    r.redeal_talon_jacks)),
              lambda r, c, mode: c["redeal_talon"], "talon redeals", False,
              "whether to demand a redeal is the strategy's decision"),
    _Exercise(("redeal_four_nines_after_exchange",), lambda r: r.redeal_four_nines_after_exchange,
              lambda r, c, mode: c["redeal_four_nines"], "four-nines redeals", False),
)


def _exercise_notes(labels: Sequence[str], rule_sets: Sequence[Rules], counts: Sequence[dict[str, float]],
                    mode: str, n: int, strategies: Any = None) -> list[tuple[int, str]]:
    """``(rule set index, note)`` for every option that sets a rule set apart in a
    comparison (a variant from the baseline, the baseline from any variant) but never
    came into play in it (its event never happened), so that its all-"same" rows are not
    read as "this rule changes nothing"."""
    notes = []
    unit = "games" if mode == "games" else "deal slots"
    for i, (label, rules) in enumerate(zip(labels, rule_sets)):
        others = rule_sets[1:] if i == 0 else rule_sets[:1]
        differing = {k for other in others for k in rules.diff(other)}
        noted: set[str] = set()     # an option once: the first event it waits for that never came
        for ex in _EXERCISES:
            # an option set to none or off is no rule: nothing of it can come into play
            options = [o for o in ex.options if o in differing and o not in noted
                       and getattr(rules, o) not in (None, False)]
            if not options or not ex.enabled(rules):
                continue
            named = ", ".join(f"{o}={format_value(getattr(rules, o))}" for o in options)
            if ex.games_only and mode != "games":
                notes.append((i, f"{label}: {named} cannot come into play in a --deals run (there are no "
                                 f"{ex.event} outside whole games): use --games"))
            elif ex.count(rules, counts[i], mode) == 0:
                hint = ex.hint(strategies, mode) if callable(ex.hint) else ex.hint
                notes.append((i, f"{label}: {named} never came into play: no {ex.event} in {n:,} {unit}"
                                 + (f"; {hint}" if hint else "")))
            else:
                continue
            noted.update(options)
    return notes


def metric_names(players: int = 3, level: str | None = None) -> list[str]:
    """Names of the metrics for a table size (``level``: only ``game`` or ``deal`` ones)."""
    return [m.name for m in _build_metrics(players) if level is None or m.level == level]


def select_metrics(rule_sets: Sequence[Rules], mode: str, names: Iterable[str] | None = None) -> list[Metric]:
    """The metrics to compare: those that apply to at least one rule set, or ``names``.

    ``mode`` is ``games`` or ``deals`` (a deal-only run has no game metrics).  An unknown
    name, or a game metric asked of a deal-only run, is a :class:`ThousandError`.
    """
    players = rule_sets[0].players
    every = _build_metrics(players)
    available = [m for m in every if mode == "games" or m.level == "deal"]
    if names is None:
        return [m for m in available if any(m.applies(r) for r in rule_sets)]
    wanted: list[str] = []
    for item in names:
        wanted += [w.strip() for w in item.split(",") if w.strip()]
    by_name = {m.name: m for m in every}
    out = []
    for w in wanted:
        if w not in by_name and w in {m.name for m in _build_metrics(4)}:
            raise ThousandError(f"metric {w!r} does not apply with {players} players (its seat is not at the table); "
                                f"--list-metrics --rules ... lists those that do")
        if w not in by_name:
            import difflib
            near = difflib.get_close_matches(w, by_name, n=1)
            hint = f" (did you mean {near[0]}?)" if near else ""
            raise ThousandError(f"unknown metric {w!r}{hint}; known: {', '.join(by_name)}")
        if by_name[w] not in available:
            raise ThousandError(f"metric {w!r} needs whole games: use --games, not --deals")
        if by_name[w] not in out:
            out.append(by_name[w])
    if not out:
        raise ThousandError("no metric selected")
    return out


# =========================================================================== unit tables
UNIT = "unit"
# The chunk a unit was simulated in: a comparison folds its units into the summaries
# chunk by chunk (see :class:`UnitStats`).
CHUNK = "chunk"


def _slot_units(deals: pl.LazyFrame) -> pl.LazyFrame:
    """Deal-only runs: a unit is a *deal slot* = one played deal and the redeals before it.

    Slot ``i`` of chunk ``k`` starts from the same stream position under every rule set
    (as long as earlier slots consumed it alike), whereas ``deal_id`` counts redeal rows
    and so shifts as soon as one rule set redeals where another does not.
    """
    played = (pl.col("redeal") == 0).cast(pl.Int64)
    slot = (played.cum_sum() - played).over("chunk", order_by="deal_id")
    return deals.with_columns((pl.col("chunk").cast(pl.Int64) * (1 << 32) + slot).alias(UNIT))


def unit_table(games: pl.LazyFrame | pl.DataFrame | None, deals: pl.LazyFrame | pl.DataFrame | None,
               metrics: Sequence[Metric], players: int) -> pl.DataFrame:
    """One row per unit with ``<metric>.num`` and ``<metric>.den`` for every metric (and
    the unit's ``chunk``).

    With ``games`` the units are games (``game_id``) and deal rows are summed per game;
    without, the units are deal slots of a deal-only run (see :func:`_slot_units`).
    """
    game_metrics = [m for m in metrics if m.level == "game"]
    deal_metrics = [m for m in metrics if m.level == "deal"]
    parts: list[pl.DataFrame] = []
    if games is not None:
        g = games.lazy().select(
            pl.col("game_id").cast(pl.Int64).alias(UNIT),
            pl.col(CHUNK).cast(pl.Int64),
            *[e for m in game_metrics for e in (
                m.num(players).cast(pl.Float64).alias(f"{m.name}.num"),
                (m.den(players) if m.den else pl.lit(1.0)).cast(pl.Float64).alias(f"{m.name}.den"))],
        ).collect()
        parts.append(g)
    elif game_metrics:
        raise ThousandError("game metrics need game rows (a --games run)")
    if deal_metrics:
        if deals is None:
            raise ThousandError("deal metrics need deal rows")
        d = deals.lazy()
        d = d.with_columns(pl.col("game_id").cast(pl.Int64).alias(UNIT)) if games is not None else _slot_units(d)
        agg = d.group_by(UNIT).agg(
            *([] if parts else [pl.col(CHUNK).first().cast(pl.Int64)]),
            *[e for m in deal_metrics for e in (
                m.num(players).cast(pl.Float64).sum().alias(f"{m.name}.num"),
                m.den(players).cast(pl.Float64).sum().alias(f"{m.name}.den"))],
        ).collect()
        if parts:
            # Every game is a unit, even one whose deal rows are missing (none were played).
            parts[0] = parts[0].join(agg, on=UNIT, how="left").fill_null(0.0)
        else:
            parts.append(agg)
    table = parts[0] if parts else pl.DataFrame({UNIT: pl.Series([], dtype=pl.Int64)})
    return table.sort(UNIT)


# =========================================================================== comparing
@dataclass
class MetricRow:
    """One metric under one rule set, and its difference from the first rule set."""

    metric: str
    rules: str
    rules_index: int
    kind: str
    unit: str
    description: str
    value: float
    ci_low: float
    ci_high: float
    n: int
    diff: float | None = None
    diff_ci_low: float | None = None
    diff_ci_high: float | None = None
    p_value: float | None = None
    p_holm: float | None = None
    unpaired_ci_low: float | None = None
    unpaired_ci_high: float | None = None
    pairing_gain: float | None = None
    variance_reduction: float | None = None
    identical_pairs: bool | None = None
    method: str = ""
    diff_method: str = ""
    # The comparison's notes that concern this row: its rule set or its metric.
    notes: list[str] = field(default_factory=list)

    @property
    def diff_width(self) -> float | None:
        if self.diff_ci_low is None or self.diff_ci_high is None:
            return None
        return self.diff_ci_high - self.diff_ci_low

    @property
    def significant(self) -> bool | None:
        """The difference from the first rule set is significant after Holm's correction
        (``p_holm < SIGNIFICANCE``); ``None`` for the first rule set and for the quantiles,
        which have no test."""
        if self.rules_index == 0 or self.p_holm is None or not math.isfinite(self.p_holm):
            return None
        return self.p_holm < SIGNIFICANCE

    @property
    def interval_test_split(self) -> bool | None:
        """The difference interval excludes 0 while its own p-value is 0.05 or more, or the
        reverse (different methods, each valid: a borderline difference); ``None`` where
        there is no test."""
        if self.rules_index == 0 or self.p_value is None or self.diff_ci_low is None or self.diff_ci_high is None:
            return None
        if not all(math.isfinite(v) for v in (self.p_value, self.diff_ci_low, self.diff_ci_high)):
            return None
        return (self.diff_ci_low > 0 or self.diff_ci_high < 0) != (self.p_value < SIGNIFICANCE)

    def as_dict(self) -> dict[str, Any]:
        out = {k: list(v) if k == "notes" else json_number(v) for k, v in dataclasses.asdict(self).items()}
        # added for the summary: whether the difference counts, and what it says in words
        out["significant"] = self.significant
        out["in_words"] = difference_in_words(self) if self.rules_index else None
        out["interval_test_split"] = self.interval_test_split   # (the text's "disagree at the 5% edge")
        return out


def _aligned(tables: Sequence[pl.DataFrame]) -> list[pl.DataFrame]:
    """The unit tables restricted to the units all of them hold, in the same order."""
    common = tables[0].select(UNIT)
    for t in tables[1:]:
        common = common.join(t.select(UNIT), on=UNIT, how="inner")
    common = common.sort(UNIT)
    return [common.join(t, on=UNIT, how="left") for t in tables]


class UnitStats:
    """What a comparison keeps of its units: no per-unit rows, only running summaries.

    For every metric and rule set the numerator and denominator columns go into one
    :class:`Moments` (sums, means and every cross-product, so each paired difference
    has its covariance with the baseline); per (metric, rule set) the number of units
    that differ from the baseline; and, for the quantile metrics, the counts of each
    distinct (baseline, variant) pair of values (deals per game: a few hundred at most).
    Memory does not grow with the number of units, and summaries added block after
    block give the same numbers whatever the blocks, up to rounding; a comparison adds
    its chunks one by one in chunk order, so its result does not depend on batching.
    """

    def __init__(self, metrics: Sequence[Metric], n_rules: int) -> None:
        self.metrics = list(metrics)
        self.n_rules = n_rules
        width = 2 * n_rules * len(self.metrics)
        self.moments = Moments(0, np.zeros(width), np.zeros(width), np.zeros((width, width)))
        self.differ = np.zeros((len(self.metrics), n_rules), dtype=np.int64)
        self.pairs: dict[str, list[dict[tuple[float, float], int]]] = {
            m.name: [{} for _ in range(n_rules)] for m in self.metrics if m.kind in ("median", "quantile")}

    @property
    def n(self) -> int:
        return self.moments.n

    def column(self, metric_index: int, rules_index: int, part: int) -> int:
        """Column of the numerator (``part`` 0) or denominator (1) in :attr:`moments`."""
        return (metric_index * self.n_rules + rules_index) * 2 + part

    def add(self, tables: Sequence[pl.DataFrame]) -> None:
        """Add units given as one unit table per rule set, already aligned (same units, same order)."""
        columns = []
        for mi, m in enumerate(self.metrics):
            arrays = [(t[f"{m.name}.num"].to_numpy().astype(float), t[f"{m.name}.den"].to_numpy().astype(float))
                      for t in tables]
            num0, den0 = arrays[0]
            for i, (num, den) in enumerate(arrays):
                columns += [num, den]
                self.differ[mi, i] += int(np.count_nonzero((num != num0) | (den != den0)))
                if m.name in self.pairs and len(num):
                    book = self.pairs[m.name][i]
                    pairs, counts = np.unique(np.column_stack([num0, num]), axis=0, return_counts=True)
                    for (x, y), c in zip(pairs.tolist(), counts.tolist()):
                        book[(x, y)] = book.get((x, y), 0) + c
        if columns:
            self.moments = self.moments.merge(Moments.of(np.column_stack(columns)))

    def pair_counts(self, metric: str, rules_index: int) -> tuple[np.ndarray, np.ndarray]:
        """Distinct (baseline, rule set) value pairs in lexicographic order, and their counts."""
        book = self.pairs[metric][rules_index]
        keys = sorted(book)
        return np.array(keys, dtype=float).reshape(-1, 2), np.array([book[k] for k in keys], dtype=np.int64)


def _estimate(stats: UnitStats, mi: int, i: int, confidence: float) -> Estimate:
    metric, mom = stats.metrics[mi], stats.moments
    num, den = stats.column(mi, i, 0), stats.column(mi, i, 1)
    n = mom.n
    if metric.kind == "proportion":
        k = float(round(float(mom.sums[num])))
        lo, hi = wilson_bounds(k, n, z_for(confidence))
        return Estimate(k / n if n else math.nan, lo, hi, n, float(n))
    if metric.kind == "mean":
        mean = float(mom.sums[num]) / n if n else math.nan
        half = t_for(confidence, n) * math.sqrt(mom.var(num) / n) if n > 1 else math.nan
        return Estimate(mean, mean - half, mean + half, n, float(n))
    if metric.kind in ("median", "quantile"):
        pairs, counts = stats.pair_counts(metric.name, i)
        values, inverse = np.unique(pairs[:, 1], return_inverse=True)
        value, lo, hi = quantile_from_counts(values, np.bincount(inverse, weights=counts).astype(np.int64),
                                              metric.q, confidence)
        return Estimate(value, lo, hi, n, float(n))
    return ratio_estimate_from(mom, num, den, metric.kind == "ratio_proportion", confidence)


def _diff(stats: UnitStats, mi: int, i: int, seed: int, confidence: float) -> Diff:
    metric, mom = stats.metrics[mi], stats.moments
    na, da = stats.column(mi, 0, 0), stats.column(mi, 0, 1)
    nb, db = stats.column(mi, i, 0), stats.column(mi, i, 1)
    identical = bool(stats.differ[mi, i] == 0)
    if metric.kind == "proportion":
        return proportion_diff_from(mom, na, nb, confidence)
    if metric.kind == "mean":
        return mean_diff_from(mom, na, nb, identical, confidence)
    if metric.kind in ("median", "quantile"):
        pairs, counts = stats.pair_counts(metric.name, i)
        return paired_quantile_diff_from(pairs, counts, metric.q, seed, BOOTSTRAP_RESAMPLES, confidence)
    return ratio_diff_from(mom, na, da, nb, db, identical, confidence)


def compare_stats(labels: Sequence[str], stats: UnitStats, seed: int = 0,
                  confidence: float = 0.95) -> list[MetricRow]:
    """Per-metric estimates and paired differences against the first rule set, from the
    summaries of the units; Holm's correction over every (metric, variant) p-value."""
    if len(labels) != stats.n_rules:
        raise ValueError("one label per rule set")
    rows: list[MetricRow] = []
    for mi, metric in enumerate(stats.metrics):
        method, diff_method = METHODS[metric.kind]
        for i, label in enumerate(labels):
            est = _estimate(stats, mi, i, confidence)
            if metric.floor is not None and math.isfinite(est.low) and est.low < metric.floor:
                est = dataclasses.replace(est, low=metric.floor)
            row = MetricRow(metric.name, label, i, metric.kind, metric.unit, metric.description,
                            est.value, est.low, est.high, est.n, method=method, diff_method=diff_method)
            if i > 0:
                d = _diff(stats, mi, i, seed, confidence)
                row.diff, row.diff_ci_low, row.diff_ci_high = d.diff, d.low, d.high
                row.p_value = d.p_value
                row.unpaired_ci_low, row.unpaired_ci_high = d.unpaired_low, d.unpaired_high
                row.pairing_gain, row.variance_reduction = d.pairing_gain, d.variance_reduction
                row.identical_pairs = d.identical
            rows.append(row)
    adjusted = holm([r.p_value if r.rules_index > 0 else None for r in rows])
    for r, p in zip(rows, adjusted):
        r.p_holm = p
    return rows


def compare_units(labels: Sequence[str], tables: Sequence[pl.DataFrame], metrics: Sequence[Metric],
                  seed: int = 0, confidence: float = 0.95) -> list[MetricRow]:
    """Per-metric estimates and paired differences from the unit tables of each rule set.

    ``tables[0]`` is the baseline; the others are compared with it unit by unit (the
    tables are joined on ``unit``; units missing from any table are left out).  Holm's
    correction runs over every (metric, variant) p-value.
    """
    if len(labels) != len(tables):
        raise ValueError("one label per table")
    stats = UnitStats(metrics, len(tables))
    stats.add(_aligned(tables))
    return compare_stats(labels, stats, seed=seed, confidence=confidence)


def _add_by_chunk(stats: UnitStats, tables: Sequence[pl.DataFrame]) -> None:
    """Add the units of several chunks to ``stats`` chunk by chunk, in chunk order."""
    aligned = _aligned(tables)
    if CHUNK not in aligned[0].columns or aligned[0].height == 0:
        stats.add(aligned)
        return
    chunks = aligned[0][CHUNK].to_numpy()
    bounds = [0, *(np.flatnonzero(np.diff(chunks)) + 1).tolist(), len(chunks)]
    for start, stop in zip(bounds[:-1], bounds[1:]):
        stats.add([t.slice(start, stop - start) for t in aligned])


# =========================================================================== simulating
@dataclass
class ComparisonResult:
    """Everything a comparison produced: rows, what was run, and the deals distribution."""

    labels: list[str]
    rules: list[Rules]
    mode: str                       # "games" or "deals"
    n: int                          # units per rule set (games or deal slots)
    seed: int
    strategies: list[str]
    rows: list[MetricRow]
    metrics: list[str]
    rounds: int = 1
    precision: float | None = None
    precision_met: bool | None = None
    confidence: float = 0.95
    # Deals-per-game distribution per rule set: counts indexed by the number of deals.
    deals_hist: list[list[int]] = field(default_factory=list)
    seconds: float = 0.0
    # One line each: rule options that cannot matter, options never exercised in the run,
    # metrics asked for that apply to no rule set (each row carries those that concern it).
    notes: list[str] = field(default_factory=list)
    # Chunks (of every rule set) read back from the kept units instead of played; all of them.
    kept_chunks: int = 0
    chunks: int = 0

    def frame(self) -> pl.DataFrame:
        """The ``--json`` objects as a Polars frame (what the CSV holds: a row's notes joined
        by "; ", the strategies by spaces)."""
        return pl.DataFrame([{**o, "notes": "; ".join(o["notes"]), "strategies": " ".join(o["strategies"])}
                             for o in self.to_json()], infer_schema_length=None)

    def to_json(self) -> list[dict[str, Any]]:
        """One object per metric and rule set (the ``--json`` output), each with what was
        run (its rule set's hash, mode, units, seed, strategies) and, with a
        ``--precision`` target, the target and whether it was met, as ``match`` gives them."""
        from thousand.simulate import normalize_strategies
        extra: dict[str, Any] = {"mode": self.mode, "seed": self.seed,   # one canonical spec a seat
                                 "strategies": list(normalize_strategies(self.strategies or None, self.rules[0].players))}
        if self.precision is not None:
            extra.update(precision=self.precision, precision_met=self.precision_met)
        return [{**r.as_dict(), "rules_hash": self.rules[r.rules_index].hash, **extra} for r in self.rows]

    def row(self, metric: str, rules: str | int) -> MetricRow:
        for r in self.rows:
            if r.metric == metric and (r.rules == rules or r.rules_index == rules):
                return r
        raise KeyError((metric, rules))

    def worst_width(self) -> float | None:
        """Widest difference interval among the metrics the precision rule watches."""
        return _worst_width(self.rows, self.metrics_obj())

    def metrics_obj(self) -> list[Metric]:
        by_name = {m.name: m for m in _build_metrics(self.rules[0].players)}
        return [by_name[n] for n in self.metrics]


def _widest_row(rows: Sequence[MetricRow], metrics: Sequence[Metric]) -> MetricRow | None:
    """The variant row with the widest difference interval among the watched metrics."""
    watched = {m.name for m in metrics if m.in_precision}
    candidates = [r for r in rows if r.metric in watched and r.rules_index > 0
                  and r.diff_width is not None and math.isfinite(r.diff_width)]
    return max(candidates, key=lambda r: r.diff_width) if candidates else None


def _worst_width(rows: Sequence[MetricRow], metrics: Sequence[Metric]) -> float | None:
    """The widest watched difference interval; None when no watched metric has one (then
    no amount of simulation can be said to meet a precision target)."""
    widest = _widest_row(rows, metrics)
    return widest.diff_width if widest is not None else None


def _with_overrides(spec: str, overrides: Sequence[str] | None) -> str:
    """``spec`` with the ``--set`` items merged in the spec syntax, as finally applied: an
    item the spec already sets takes the ``--set`` value in place, others are appended.

    >>> _with_overrides("classic", ["barrel_at=900"])
    'classic:barrel_at=900'
    >>> _with_overrides("classic:bolts=off,barrel_at=900", ["barrel_at=none", "target=500"])
    'classic:bolts=off,barrel_at=none,target=500'
    """
    if not overrides:
        return spec
    base, _, extra = spec.strip().partition(":")
    merged = parse_overrides(extra) if extra else {}
    for item in overrides:
        merged.update(parse_overrides(item))
    return base + ":" + ",".join(f"{k}={v}" for k, v in merged.items()) if merged else base


def _labels(rule_sets: Sequence[Rules], specs: Sequence[str] | None) -> list[str]:
    """Readable, distinct labels: the specs as typed, else ``Rules.describe()``."""
    labels = list(specs) if specs is not None else [r.describe() for r in rule_sets]
    seen: dict[str, int] = {}
    out = []
    for lab in labels:
        seen[lab] = seen.get(lab, 0) + 1
        out.append(lab if seen[lab] == 1 else f"{lab} #{seen[lab]}")
    return out


Reducer = Callable[[pl.LazyFrame | None, pl.LazyFrame], Any]
Simulator = Callable[..., Any]


def _collect(games: pl.LazyFrame | None, deals: pl.LazyFrame) -> tuple[pl.DataFrame | None, pl.DataFrame]:
    return (games.collect() if games is not None else None), deals.collect()


def simulate_chunks(rules: Rules, mode: str, first_chunk: int, n_chunks: int, chunk_size: int,
                    seed: int, strategies: Sequence[str] | str | None, jobs: int,
                    backend: str = "loky", reduce: Reducer = _collect, scheduler: str | None = None) -> Any:
    """Chunks ``first_chunk .. first_chunk + n_chunks - 1`` of a run, passed through ``reduce``.

    A source for :func:`compare_rules` on the runner's *chunk* streams
    (:func:`thousand.simulate.run`, Parquet on disk): every game of a chunk continues the
    stream where the one before ended, so the pairing of rule sets is lost after the
    first game of a chunk whose games differ in length (:func:`play_paired`, the default,
    gives every game its own stream).  ``reduce(games, deals)`` gets LazyFrames over the
    written rows (``games`` is ``None`` for a deal-only run) while they exist, so only its
    (small) result is held in memory; by default both are collected.
    """
    from thousand.files import scratch
    from thousand.simulate import run

    n = (first_chunk + n_chunks) * chunk_size
    kwargs: dict[str, Any] = dict(rules=rules, strategies=strategies, seed=seed, jobs=jobs, backend=backend,
                                  scheduler=scheduler, chunk_size=chunk_size, progress=False, first_chunk=first_chunk)
    with scratch("compare") as tmp:
        if mode == "games":
            res = run("games", n, out=Path(tmp) / "games", deals_out=Path(tmp) / "deals", **kwargs)
            return reduce(res.frame(), res.deals_frame())
        return reduce(None, run("deals", n, out=Path(tmp) / "deals", **kwargs).frame())


@dataclass(frozen=True)
class _PairedChunk:
    """One chunk of a comparison under one rule set: played on unit streams, reduced in the worker."""

    mode: str
    rules: np.ndarray
    strategies: tuple[str, ...]
    seed: int
    chunk: int
    size: int
    reduce: Reducer
    store: str | None = None   # the rule set's unit store: the worker writes the chunk's table there
    token: str | None = None   # the store's writer token (its temporary files' names)
    read: bool = False         # the chunk is in the store already: read it back, do not play
    stride: int | None = None  # the run's chunk size, numbering the games of a short last chunk


def _play_paired_chunk(task: _PairedChunk) -> Any:
    from thousand.runner.chunks import unit_chunk_columns
    from thousand.runner.store import chunk_file, write_frame

    if task.read:
        table = pl.read_parquet(Path(task.store) / chunk_file(task.chunk))
        return table, _deals_hist(table)
    games, deals = unit_chunk_columns(task.mode, task.rules, task.strategies, task.seed, task.chunk, task.size,
                                      stride=task.stride)
    table, counts = task.reduce(None if games is None else pl.DataFrame(games).lazy(), pl.DataFrame(deals).lazy())
    if task.store is not None:   # here, in the worker: a chunk computed is kept even if the run stops now
        write_frame(table, task.store, task.chunk, task.token)
    return table, counts


def _deals_hist(table: pl.DataFrame) -> np.ndarray:
    """The deals-per-game counts of a games comparison's unit table (empty for deals)."""
    if GAME_DEALS not in table.columns or table.height == 0:
        return np.zeros(0, dtype=np.int64)
    return np.bincount(table[GAME_DEALS].to_numpy().astype(np.int64))


@dataclass(frozen=True)
class _UnitStore:
    """Where :func:`play_paired` keeps one rule set's chunks, and those already there."""

    path: str
    token: str
    kept: frozenset[int]


def play_paired(rules: Rules, mode: str, first_chunk: int, n_chunks: int, chunk_size: int,
                seed: int, strategies: Sequence[str] | str | None, jobs: int,
                backend: str = "loky", reduce: Reducer = _collect,
                on_chunk: Callable[[int], None] | None = None, store: _UnitStore | None = None,
                scheduler: str | None = None, stride: int | None = None) -> Any:
    """The default source of a comparison: every game (or block of deals) on its own stream.

    The runner's *unit* streams (:mod:`thousand.runner.seeding`): games mode plays each
    game from its own stream; deals mode plays blocks of
    :data:`~thousand.runner.seeding.DEAL_BLOCK` deals, each block from its own stream, so
    deal slots realign at every block even after a redeal that only one rule set allows.
    Chunks run on the runner's worker pool and come back in order; each is reduced in its
    worker (only unit tables travel back).  ``reduce`` must return ``(unit table,
    deals-per-game counts)``.  :func:`simulate_chunks` is the same on chunk streams.
    With ``store`` each chunk's unit table is written to the rule set's store by its
    worker, and a chunk the store holds already is read back instead of played.
    ``stride``: the run's chunk size when ``chunk_size`` is a short last chunk's, so that
    its games' ids follow the full chunks' instead of repeating theirs.
    """
    from thousand.runner.pool import run_tasks
    from thousand.simulate import normalize_strategies

    strategies = normalize_strategies(strategies, rules.players)
    rules_array = rules.to_kernel()
    tasks = [_PairedChunk(mode, rules_array, strategies, seed, k, chunk_size, reduce,
                          *((store.path, store.token, k in store.kept) if store is not None else (None, None, False)),
                          stride=stride)
             for k in range(first_chunk, first_chunk + n_chunks)]
    tables, hist = [], np.zeros(0, dtype=np.int64)
    # In order, so the tables (and so every statistic) do not depend on the workers.
    # closing(): whatever interrupts the loop (Ctrl-C, an error) closes the generator at
    # once, and the pool then stops the workers instead of letting them finish the queue.
    with contextlib.closing(run_tasks(_play_paired_chunk, tasks, backend=backend, jobs=jobs, scheduler=scheduler,
                                             ordered=True)) as results:
        for table, counts in results:
            tables.append(table)
            hist = _add_hist(hist, counts)
            if on_chunk is not None:
                on_chunk(chunk_size)
    return pl.concat(tables), hist


def compare_rules(rule_sets: Sequence[Rules | str], n_games: int | None = None, n_deals: int | None = None,
                  seed: int = 1, strategies: Sequence[str] | str | None = None, jobs: int = 1,
                  precision: float | None = None, max_units: int | None = None,
                  metrics: Iterable[str] | None = None, labels: Sequence[str] | None = None,
                  overrides: Sequence[str] | None = None, confidence: float = 0.95,
                  progress: bool | None = None, backend: str = "loky", scheduler: str | None = None,
                  simulator: Simulator | None = None, chunk_size: int | None = None,
                  allow_duplicates: bool = False,
                  units: str | os.PathLike | Sequence[str | os.PathLike] | None = None,
                  resume: bool = False, replace_stale: bool = False,
                  resume_hint: str = "run the same command with --resume to continue") -> ComparisonResult:
    """Simulate every rule set on the same seeds and compare them with paired statistics.

    Parameters
    ----------
    rule_sets
        Two or more rule sets (:class:`Rules` or specs); the first is the baseline.
    n_games, n_deals
        Whole games (game and deal metrics), or deals only (deal metrics); exactly one.
        Exactly that many: cut into near-equal chunks of at most ``chunk_size``, the
        last one shorter when they do not divide evenly.
    seed
        Root seed shared by every rule set (the common random numbers).
    strategies
        Strategy specs as the runner takes them (one for all seats or one per seat).
    jobs
        Workers; does not change the result.
    precision
        Keep adding rounds of new chunks until every watched difference interval is
        narrower than this (in each metric's own unit), or ``max_units`` is reached.
    max_units
        Cap on games (deals) per rule set in precision mode (default 32 x the first
        round); never exceeded (the last round is cut short at it).
    metrics
        Metric names (default: every metric that applies to one of the rule sets).
    labels
        Names of the rule sets in the output (default: the specs as given).
    overrides
        ``name=value`` items applied to every rule set (``--set``).
    progress
        Progress bar on stderr (default: when stderr is a terminal).
    simulator
        Replaces :func:`play_paired` (same signature, ``reduce`` keyword), e.g. in tests.
    chunk_size
        Units per chunk (default :data:`COMPARE_CHUNK_GAMES` / :data:`COMPARE_CHUNK_DEALS`).
    allow_duplicates
        Accept the same rules twice (a rule set against itself: every difference is
        exactly 0, a check of the method); otherwise that is a :class:`ThousandError`.
    units
        A directory that keeps every chunk's unit tables as they are computed (a runner
        chunk store a rule set, ``rules-<i>``), or one directory per rule set, so that an
        interrupted comparison loses nothing computed; ``thousand compare --out DIR``
        gives ``DIR/units``, the report one folder a rule set in its ``data``.
    resume
        Continue the comparison kept in ``units`` (the same rule sets, seed, strategies,
        size and metrics): its chunks are read back, the missing ones played.  Without it
        a directory that holds one is refused.
    replace_stale
        With ``resume``: a rule set's store made with other settings is emptied (of its
        own files only) and played afresh instead of refused (the report's way).
    resume_hint
        What the line printed on an interruption says to do next.

    Returns
    -------
    ComparisonResult
    """
    import time

    from thousand.runner.pool import progress_bar

    started = time.perf_counter()
    if isinstance(rule_sets, (str, Rules)):
        # a spec is a string: read letter by letter it gave "unknown rule set 'c'"
        one = rule_sets.describe() if isinstance(rule_sets, Rules) else repr(rule_sets)
        raise ThousandError(f"rule_sets: give a list of two or more rule sets, got one: {one}")
    if len(rule_sets) < 2:
        raise ThousandError("compare needs at least two rule sets: give --rules twice or more")
    if (n_games is None) == (n_deals is None):
        raise ThousandError("give either a number of games or a number of deals")
    mode = "games" if n_games is not None else "deals"
    n = n_games if n_games is not None else n_deals
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 2:
        raise ThousandError(f"number of {mode} must be a whole number of at least 2, got {n!r}")
    if n > MAX_UNITS[mode]:
        raise ThousandError(f"number of {mode} must be at most {MAX_UNITS[mode]:,} per rule set, got {n:,}")
    if precision is not None and not (isinstance(precision, (int, float)) and precision > 0
                                      and math.isfinite(precision)):
        raise ThousandError(f"--precision must be a positive number, got {precision!r}")
    check_seed(seed)
    check_jobs(jobs)
    if isinstance(metrics, str):
        metrics = [metrics]
    if isinstance(overrides, str):
        overrides = [overrides]
    specs = [r if isinstance(r, str) else None for r in rule_sets]
    rules = [parse_rules_spec(r, list(overrides or [])) for r in rule_sets]
    if len({r.players for r in rules}) > 1:
        sizes = ", ".join(f"{r.describe()}: {r.players}" for r in rules)
        raise ThousandError(f"all compared rule sets must have the same number of players ({sizes})")
    if labels is None:
        # In the spec syntax a user types (classic:barrel_at=900); a Rules object's
        # describe() already includes the overrides.
        labels = [_with_overrides(s, overrides) if s is not None else r.describe() for s, r in zip(specs, rules)]
    if not allow_duplicates:
        refuse_duplicates(rule_sets, rules, labels, overrides)
    from thousand.runner.pool import check_backend
    check_backend(backend)      # before any folder is claimed
    labels = _labels(rules, labels)
    chosen = select_metrics(rules, mode, metrics)
    if precision is not None and not any(m.in_precision for m in chosen):
        raise ThousandError("--precision watches no selected metric (quantiles move in whole steps); "
                            "add one, e.g. --metric deals_mean")
    players = rules[0].players
    chunk_size = int(chunk_size or (COMPARE_CHUNK_GAMES if mode == "games" else COMPARE_CHUNK_DEALS))
    # Equal chunks that cover n with the least excess (400 games: 2 x 200, not 2 x 250).
    chunk_size = math.ceil(n / math.ceil(n / chunk_size))
    simulate_fn = simulator or play_paired
    if max_units is None:
        max_units = min(32 * n, MAX_UNITS[mode])
    if max_units < n:
        raise ThousandError(f"--max-games {max_units:,} is below --{mode} {n:,}: the first round plays that many")
    if max_units > MAX_UNITS[mode]:
        raise ThousandError(f"the --precision cap must be at most {MAX_UNITS[mode]:,} {mode} per rule set, "
                            f"got {max_units:,}")

    counters = _event_metrics(mode)
    if simulator is not None and units is not None:
        raise ValueError("a comparison keeps its units only with the default simulator")
    if resume and units is None:
        raise ThousandError("--resume continues a comparison kept in --out; give --out DIR")

    # A comparison that keeps its units keeps every metric of the mode, so that a --resume
    # with other --metric (or --precision) reads them back instead of playing again.
    tabled = [*chosen, *counters]
    if units is not None:
        every = [m for m in _build_metrics(players) if mode == "games" or m.level == "deal"]
        tabled = [*every, *[m for m in chosen if m.name not in {e.name for e in every}], *counters]

    def reduce(games: pl.LazyFrame | pl.DataFrame | None, deals: pl.LazyFrame | pl.DataFrame) -> tuple:
        table = unit_table(games, deals, tabled, players)
        if CHUNK in table.columns:   # whole numbers (a games table's fill_null made them floats)
            table = table.with_columns(pl.col(CHUNK).cast(pl.Int64))
        if games is None:
            return table, np.zeros(0, dtype=np.int64)
        per_game = games.lazy().select(pl.col("game_id").cast(table.schema[UNIT]).alias(UNIT),
                                       pl.col("deals").cast(pl.Int64).alias(GAME_DEALS)).collect()
        table = table.join(per_game, on=UNIT, how="left")
        return table, _deals_hist(table)

    stats = UnitStats(chosen, len(rules))
    hists: list[np.ndarray] = [np.zeros(0, dtype=np.int64) for _ in rules]
    events: list[dict[str, float]] = [{name: 0.0 for name in _EVENT_COUNTERS} for _ in rules]
    workers = jobs if jobs > 0 else (os.cpu_count() or 1)
    # Chunks simulated (under every rule set) before their units are folded into the
    # summaries and dropped: this bounds memory, whatever the number of units.
    batch_chunks = max(math.ceil(BATCH_UNITS / chunk_size), 2 * workers)
    # Exactly the units asked for: whole chunks, then (when the count is not a multiple
    # of the chunk size) one shorter last chunk with the next index.  Every chunk is
    # fixed by (seed, index, size), so --jobs never changes the result; a later
    # --precision round continues with the next chunk index.
    done_chunks = done_units = 0
    want_units = n
    rounds = 0
    held = contextlib.ExitStack()
    if units is None:
        stores = []
    else:
        folders = [Path(units) / f"rules-{i}" for i in range(len(rules))] if isinstance(units, (str, os.PathLike)) \
            else [Path(u) for u in units]
        if len(folders) != len(rules):
            raise ValueError("one units folder per rule set")
        try:
            stores = _open_unit_stores(held, folders, rules, labels, mode, n, chunk_size,
                                       max_units if precision is not None else n, seed, strategies,
                                       [m.name for m in tabled], precision, resume, replace_stale)
        except BaseException:
            held.close()   # the folders claimed so far are released at once (a refused resume)
            raise
    bar = progress_bar(want_units * len(rules), mode[:-1], desc="compare", progress=progress)
    result_rows: list[MetricRow] = []

    def run_chunks(start: int, count: int, size: int) -> None:
        batch = []
        for i, r in enumerate(rules):
            kw: dict[str, Any] = dict(backend=backend, reduce=reduce)
            if scheduler is not None:
                kw["scheduler"] = scheduler
            if simulator is None:
                kw["stride"] = chunk_size     # a short last chunk's games numbered after the full ones
                if bar is not None:
                    kw["on_chunk"] = bar.update
            if stores:
                store, kept = stores[i]
                kw["store"] = _UnitStore(os.fspath(store.path), store.token, kept)
            table, counts = simulate_fn(r, mode, start, count, size, seed, strategies, jobs, **kw)
            batch.append(table)
            hists[i] = _add_hist(hists[i], counts)
            for name in _EVENT_COUNTERS:
                column = f"{_EVENT_PREFIX}{name}.num"
                if column in table.columns:
                    events[i][name] += float(table[column].sum())
            if simulator is not None and bar is not None:
                bar.update(count * size)
        # One call's tables at a time (aligned by position within it; the ids of a store
        # written before 2026-12-04 repeat after a short chunk).
        _add_by_chunk(stats, batch)

    try:
        while True:
            rounds += 1
            whole, rest = divmod(want_units - done_units, chunk_size)
            for start in range(done_chunks, done_chunks + whole, batch_chunks):
                run_chunks(start, min(batch_chunks, done_chunks + whole - start), chunk_size)
            done_chunks += whole
            if rest:
                run_chunks(done_chunks, 1, rest)
                done_chunks += 1
            done_units = want_units
            result_rows = compare_stats(labels, stats, seed=seed, confidence=confidence)
            if precision is None:
                break
            worst = _worst_width(result_rows, chosen)
            if bar is not None and worst is not None:
                bar.set_postfix_str(f"widest diff CI {worst:.4g} (target {precision:g})")
            if worst is None or worst < precision or done_units >= max_units:
                break
            # Interval widths shrink like 1/sqrt(n): aim for the n that meets the target,
            # at least one more chunk, at most 4x per round, whole chunks, never over the cap.
            factor = min(4.0, max(1.0, (worst / precision) ** 2 * 1.1))
            more = max(chunk_size, math.ceil(done_units * factor) - done_units)
            want_units = min(max_units, done_units + math.ceil(more / chunk_size) * chunk_size)
            if bar is not None:
                bar.total = want_units * len(rules)
                bar.refresh()
    except (KeyboardInterrupt, BrokenExecutor, OSError):
        # stopped (Ctrl-C, a worker killed, a full disk): say what is kept and how to go on
        if bar is not None:
            bar.close()
            bar = None
        if stores:
            counts = [len(st.written()) for st, _ in stores]
            where = os.fspath(units) if isinstance(units, (str, os.PathLike)) else os.fspath(Path(folders[0]).parent)
            # by rule set: they are played one after another, so the later ones may hold none yet
            each = ", ".join(f"{label}: {k:,}" for label, k in zip(labels, counts))
            print(f"interrupted: {sum(counts):,} chunk tables are kept in {where} ({each}); {resume_hint}",
                  file=sys.stderr)
        raise
    else:
        for st, _ in stores:
            st.meta["played"] = done_units
            st.complete()
    finally:
        if bar is not None:
            bar.close()
        held.close()
    n_units = stats.n
    worst = None if precision is None else _worst_width(result_rows, chosen)
    met = None if precision is None else worst is not None and worst < precision
    notes = _notes(labels, rules, chosen, metrics is not None, events, mode, n_units, strategies)
    rare = _rare_counts(result_rows, chosen)
    row_notes = notes + _rare_count_notes(rare)
    for row in result_rows:
        row.notes = [text for index, metric, text in row_notes
                     if (index is None or index == row.rules_index) and (metric is None or metric == row.metric)]
    notes += _rare_count_summary(rare)   # printed: one line a rule set
    return ComparisonResult(
        labels=list(labels), rules=rules, mode=mode, n=n_units, seed=int(seed),
        strategies=list([strategies] if isinstance(strategies, str) else (strategies or [])),
        rows=result_rows, metrics=[m.name for m in chosen], rounds=rounds, precision=precision,
        precision_met=met, confidence=confidence, deals_hist=[h.tolist() for h in hists],
        seconds=time.perf_counter() - started, notes=[text for _, _, text in notes],
        kept_chunks=sum(len(kept) for _, kept in stores), chunks=done_chunks * len(rules))


def _open_unit_stores(held: contextlib.ExitStack, folders: Sequence[Path], rules: Sequence[Rules],
                      labels: Sequence[str], mode: str, n: int, chunk_size: int, most_units: int, seed: int,
                      strategies: Sequence[str] | str | None, metrics: Sequence[str], precision: float | None,
                      resume: bool, replace_stale: bool) -> list[tuple[Any, frozenset[int]]]:
    """One chunk store a rule set in ``folders``, prepared (claimed, checked against an
    earlier run's metadata when resuming) and opened, with the chunks it keeps; refused in
    one line before any work.  With ``replace_stale`` a store of other settings is emptied
    of its own files instead of refused.

    A store numbers its chunks as the comparison does: the first round's (its last one
    shorter when the chunks do not divide it), then a ``--precision`` run's later rounds,
    whole chunks up to ``most_units``.
    """
    from thousand.runner.store import METADATA_FILE, MAX_CHUNKS, ChunkStore, own_files, read_metadata, remove_files
    from thousand.simulate import kernel_version, normalize_strategies

    n_chunks = math.ceil(n / chunk_size) + math.ceil((most_units - n) / chunk_size)
    if n_chunks > MAX_CHUNKS:
        raise ThousandError(f"--out keeps at most {MAX_CHUNKS:,} chunks a rule set, and this comparison may need "
                            f"{n_chunks:,} ({chunk_size:,} {mode} each); compare fewer {mode} (or a lower "
                            "--max-games), or leave out --out")
    stores = []
    for i, (r, label, folder) in enumerate(zip(rules, labels, folders)):
        # Keys named as the options that set them, so that a refused --resume names the option.
        meta = {"kind": "compare_units", "rows": "units", "mode": mode, mode: n, "max_games": most_units,
                "n": n_chunks * chunk_size, "chunk_size": chunk_size, "n_chunks": n_chunks, "seed": int(seed),
                "rule_set": i, "label": label, "rules": r.as_dict(), "rules_hash": r.hash, "rule_sets": len(rules),
                "strategies": list(normalize_strategies(strategies, r.players)), "metrics": list(metrics),
                "precision": precision, "kernel_version": kernel_version()}
        keys = ("kind", "mode", mode, "precision", "max_games", "seed", "rule_set", "rules_hash", "strategies",
                "metrics", "rule_sets", "n", "chunk_size", "kernel_version")
        if replace_stale and (folder / METADATA_FILE).is_file():
            old = read_metadata(folder)
            if any(old.get(k) != meta.get(k) for k in keys):
                remove_files(folder, [f.name for f in own_files(folder, old)])
        store = held.enter_context(ChunkStore(folder, meta, keys))
        store.prepare(resume or replace_stale)
        stores.append(store)
    # Opened once all are known to be this comparison's: open() writes each one's metadata.
    # A chunk file is kept only if its first unit is of that chunk (another chunk's file
    # of the same size copied there is played again, not mixed in).
    def first_row(k: int) -> pl.DataFrame:
        return pl.DataFrame({CHUNK: [k]}, schema={CHUNK: pl.Int64})
    return [(st, frozenset(st.open(first_row, partial=True))) for st in stores]


def refuse_duplicates(given: Sequence[Rules | str], rules: Sequence[Rules], labels: Sequence[str],
                       overrides: Sequence[str] | None) -> None:
    """One line when two rule sets are the same rules: a duplicate would be simulated for
    nothing and counted in Holm's correction; say when ``--set`` made them equal."""
    for i, r in enumerate(rules):
        same = [j for j in range(i) if rules[j] == r]
        if not same:
            continue
        j = same[0]
        typed = [x if isinstance(x, str) else x.describe() for x in (given[j], given[i])]
        if overrides and parse_rules_spec(given[j]) != parse_rules_spec(given[i]):
            names = " ".join(f"--set {o}" for o in overrides)
            raise ThousandError(f"{names} makes rule sets {j + 1} and {i + 1} ({typed[0]} and {typed[1]}) the same "
                                f"rules ({labels[i]}): drop the --set or give each rule set once")
        raise ThousandError(f"rule sets {j + 1} and {i + 1} are the same rules ({labels[i]}): give each once")


def _notes(labels: Sequence[str], rules: Sequence[Rules], chosen: Sequence[Metric], asked: bool,
           events: Sequence[dict[str, float]], mode: str, n: int,
           strategies: Any = None) -> list[tuple[int | None, str | None, str]]:
    """``(rule set index or None, metric or None, text)``: what would otherwise make a row
    of all-"same" or "-" look like a finding."""
    notes: list[tuple[int | None, str | None, str]] = []
    per_set = [rule_notes(r) for r in rules]
    for text in per_set[0]:  # a --set on every rule set: said once
        if all(text in texts for texts in per_set):
            notes.append((None, None, f"every rule set: {text}"))
    for i, (label, texts) in enumerate(zip(labels, per_set)):
        notes += [(i, None, f"{label}: {text}") for text in texts if not all(text in t for t in per_set)]
    notes += [(i, None, text) for i, text in _exercise_notes(labels, rules, events, mode, n, strategies)]
    scores = [m.name for m in chosen if m.level == "deal" and (m.name == "declarer_score"
                                                               or m.name.startswith("score_"))]
    for i, (label, r) in enumerate(zip(labels, rules)):
        if mode == "games" and scores and r.barrel_at is not None and r.barrel_takes_talon:
            # the deal rows hold what the deal scored; the game does not charge a sitter's
            # failed attempts there (docs/rules.md, "A game", step 1): a try-out read the
            # metric as the game's effect
            notes.append((i, scores[0], f"{label}: {', '.join(scores)} are the deals' own scores: a barrel sitter's "
                                        "failed attempts are in them at -contract, which barrel_takes_talon does not "
                                        "charge him in the game; the win shares and the games' final scores show its effect"))
    if asked:  # the default list already leaves these out
        for m in chosen:
            if not any(m.applies(r) for r in rules):
                needs = f" (it needs {m.applies.text})" if isinstance(m.applies, _Needs) else ""
                notes.append((None, m.name, f"metric {m.name} applies to none of these rule sets{needs}: "
                                            "it is 0 or '-' everywhere"))
    return notes


#: Fewer events than this in a rule set's games make its count's t interval cover less
#: than 95%: measured by try-out 30 on russian's 555 resets, 9.0% [6.0, 12.8] of the 95%
#: intervals missed at 100 games (about 7 resets), 5.6% at 300 (about 21), 4.6% at 4,000.
FEW_EVENTS = 20


#: What a rare count's note says of its intervals (the measurement of FEW_EVENTS).
_RARE_COVERAGE = "cover less than 95% (measured: about 91% at 7 events, 94% at 21); play more games"


def _rare_counts(rows: Sequence[MetricRow], chosen: Sequence[Metric]) -> list[tuple[MetricRow, int]]:
    """Every count per game (555 resets, barrel falls...) that a rule set saw only a
    handful of times, with how often: its interval (and its difference's) is rougher
    than 95%."""
    counts = {m.name for m in chosen if m.kind == "mean" and m.unit == _PER_GAME and m.floor == 0.0}
    out = []
    for r in rows:
        if r.metric in counts and _finite(r.value) and r.n and 0 < round(r.value * r.n) < FEW_EVENTS:
            out.append((r, round(r.value * r.n)))
    return out


def _rare_count_notes(rare: Sequence[tuple[MetricRow, int]]) -> list[tuple[int, str, str]]:
    """A note on each rare count's row."""
    return [(r.rules_index, r.metric, f"{r.rules}: {r.metric} happened only {seen} time{'s' if seen > 1 else ''} "
                                      f"in {r.n:,} games: the intervals of so rare a count {_RARE_COVERAGE}")
            for r, seen in rare]


def _rare_count_summary(rare: Sequence[tuple[MetricRow, int]]) -> list[tuple[int, None, str]]:
    """The rare counts as one printed line a rule set (the rows keep one note each)."""
    out = []
    for index in sorted({r.rules_index for r, _ in rare}):
        mine = [(r, seen) for r, seen in rare if r.rules_index == index]
        counts = ", ".join(f"{r.metric} ({seen})" for r, seen in mine)
        first = mine[0][0]
        out.append((index, None, f"{first.rules}: {counts} happened fewer than {FEW_EVENTS} times in {first.n:,} "
                                 f"games: the intervals of so rare counts {_RARE_COVERAGE}"))
    return out


def _add_hist(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    size = max(len(a), len(b))
    out = np.zeros(size, dtype=np.int64)
    out[:len(a)] += a
    out[:len(b)] += b
    return out


# =========================================================================== output
def _finite(v: float | None) -> bool:
    return v is not None and not (isinstance(v, float) and not math.isfinite(v))


def _digits(*values: float | None) -> int:
    """Decimals for numbers shown together (a value and its interval): set by the largest."""
    mag = max((abs(v) for v in values if _finite(v)), default=0.0)
    return 1 if mag >= 100 else 2 if mag >= 1 else 3


def _fmt(v: float | None, unit: str, signed: bool = False, digits: int | None = None) -> str:
    if not _finite(v):
        return "-"
    if unit == _SHARE:
        v, digits = 100 * v, 2
    elif digits is None:
        digits = _digits(v)
    if round(v, digits) == 0:
        v = 0.0     # a tiny negative rounded to zero: no "-0.000"
    text = f"{v:+.{digits}f}" if signed else f"{v:.{digits}f}"
    return text + (("pp" if signed else "%") if unit == _SHARE else "")


def _fmt_interval(v: float | None, low: float | None, high: float | None, unit: str, signed: bool = False) -> str:
    """``value [low, high]``, all three with the same number of decimals."""
    digits = _digits(v, low, high)
    return (f"{_fmt(v, unit, signed, digits)} [{_fmt(low, unit, signed, digits)}, "
            f"{_fmt(high, unit, signed, digits)}]")


def _fmt_p(p: float | None) -> str:
    if p is None:
        return "-"
    if p < 1e-4:
        return "<1e-4"
    return f"{p:.4f}"


def _fmt_gain(r: MetricRow) -> str:
    g = r.pairing_gain
    if r.identical_pairs:
        return "same"
    if g is None or (isinstance(g, float) and math.isnan(g)):
        return "-"
    if math.isinf(g):
        return "exact"
    return f"x{g:.2f}"


def _table_rows(result: ComparisonResult) -> list[list[str]]:
    out = []
    for r in result.rows:
        value = _fmt_interval(r.value, r.ci_low, r.ci_high, r.unit)
        if r.rules_index == 0:
            diff = p = p_holm = gain = ""
        else:
            diff = _fmt_interval(r.diff, r.diff_ci_low, r.diff_ci_high, r.unit, signed=True)
            p, p_holm, gain = _fmt_p(r.p_value), _fmt_p(r.p_holm), _fmt_gain(r)
        out.append([r.metric if r.rules_index == 0 else "", r.rules, value, diff, p, p_holm, gain])
    return out


_HEADER = ["metric", "rules", "value [95% CI]", "diff vs first [95% CI]", "p", "p (Holm)", "pairing"]
# Family-wise level of the summary (and of the forest plot's filled markers), after Holm.
SIGNIFICANCE = 0.05
# How a difference of each metric reads in words: (when higher, when lower), ``{n}`` the
# size of the difference (shares in percentage points).  A metric not listed (nor a win
# share) reads "<description>: +x [lo, hi]".
_WORDS: dict[str, tuple[str, str]] = {
    "deals_mean": ("games are {n} deals longer", "games are {n} deals shorter"),
    "no_winner": ("games stop without a winner {n} more often", "games stop without a winner {n} less often"),
    "barrel_entries": ("{n} more barrel entries a game", "{n} fewer barrel entries a game"),
    "barrel_falls": ("{n} more falls from the barrel a game", "{n} fewer falls from the barrel a game"),
    "bolt_penalties": ("{n} more bolt penalties a game", "{n} fewer bolt penalties a game"),
    "resignations": ("{n} more resignations a game", "{n} fewer resignations a game"),
    "redeals": ("{n} more redeals a game", "{n} fewer redeals a game"),
    "blind_deals": ("{n} more blind deals a game", "{n} fewer blind deals a game"),
    "blind_made": ("blind declarers make 120 {n} more often", "blind declarers make 120 {n} less often"),
    "golden_reset": ("the golden kon fails {n} more often", "the golden kon fails {n} less often"),
    "resets_555": ("{n} more 555 resets a game", "{n} fewer 555 resets a game"),
    "cut_penalties": ("{n} more cut-nine penalties a game", "{n} fewer cut-nine penalties a game"),
    "score_spread": ("final scores are {n} points further apart", "final scores are {n} points closer together"),
    "declarer_success": ("declarers make their contract {n} more often",
                         "declarers make their contract {n} less often"),
    "resign_rate": ("declarers resign {n} more often", "declarers resign {n} less often"),
    "obligation_rate": ("deals are played on obligation {n} more often",
                        "deals are played on obligation {n} less often"),
    "redeal_rate": ("dealt deals are redealt {n} more often", "dealt deals are redealt {n} less often"),
    "contract_mean": ("contracts are {n} points higher", "contracts are {n} points lower"),
    "declarer_score": ("declarers score {n} points a deal more", "declarers score {n} points a deal less"),
    "points_declarer": ("declarers take {n} more points a deal", "declarers take {n} fewer points a deal"),
    "points_defender": ("defenders take {n} more points a deal", "defenders take {n} fewer points a deal"),
    "bolts_per_deal": ("{n} more bolts a deal", "{n} fewer bolts a deal"),
    "score_dealer": ("the dealer scores {n} points a deal more", "the dealer scores {n} points a deal less"),
    "score_forehand": ("the forehand scores {n} points a deal more", "the forehand scores {n} points a deal less"),
    "score_middle": ("the middle seat scores {n} points a deal more",
                     "the middle seat scores {n} points a deal less"),
}


def _is_win(metric: str) -> bool:
    """The metrics that say who wins (seats, positions from the first dealer)."""
    return metric.startswith("win_")


def _unsigned_zero(v: float, digits: int) -> str:
    """``v`` to ``digits`` decimals, a value that rounds to zero as "0.00", never "-0.00"."""
    return f"{round(v, digits) + 0.0:.{digits}f}"


def difference_in_words(r: MetricRow) -> str | None:
    """A variant row's difference from the first rule set in words, with its interval as
    magnitudes: ``"games are 4.00 deals shorter [3.62, 4.39]"``; ``None`` when it has none.

    Shares read in percentage points (``"declarers make their contract 4.05 pp less often
    [3.77, 4.33]"``).
    """
    if r.rules_index == 0 or not all(_finite(v) for v in (r.diff, r.diff_ci_low, r.diff_ci_high)):
        return None
    scale = 100.0 if r.unit == _SHARE else 1.0
    d, lo, hi = r.diff * scale, r.diff_ci_low * scale, r.diff_ci_high * scale
    digits = _digits(abs(d), lo, hi)
    pp = " pp" if r.unit == _SHARE else ""
    if r.metric not in _WORDS and not _is_win(r.metric):
        # no words for it: the signed difference with its own interval
        return f"{r.description}: {d:+.{digits}f}{pp} [{_unsigned_zero(lo, digits)}, {_unsigned_zero(hi, digits)}]"
    if d < 0:   # said as "less", with the interval of the magnitude
        size, lo, hi = -d, -hi, -lo
    else:
        size = d
    interval = f"[{_unsigned_zero(lo, digits)}, {_unsigned_zero(hi, digits)}]"
    n = f"{size:.{digits}f}{pp}"
    if _is_win(r.metric):
        who = re.sub(r"^the seat (\d+) after", r"the player \1 seats after", r.description.replace("games won by ", ""))
        templates = (f"{who} wins {{n}} more often", f"{who} wins {{n}} less often")
    else:
        templates = _WORDS[r.metric]
    if d == 0:
        return f"{r.description}: no change {interval}"
    return templates[0 if d > 0 else 1].format(n=n) + f" {interval}"


# The summary names at most this many differences per variant (the largest, by how many
# interval half-widths they are from zero); the rest are in the table.
SUMMARY_MAX = 6


def summary_lines(result: ComparisonResult) -> list[str]:
    """The differences that are significant after Holm, in words, one line per variant:
    what a reader should take away before the full table."""
    out = []
    for i, label in enumerate(result.labels[1:], start=1):
        rows = [r for r in result.rows if r.rules_index == i]
        found = [r for r in rows if r.significant]

        def strength(r: MetricRow) -> float:
            half = (r.diff_ci_high - r.diff_ci_low) / 2 if r.diff_width else 0.0
            return abs(r.diff) / half if half > 0 else math.inf
        ranked = sorted((r for r in found if not _is_win(r.metric)), key=strength, reverse=True)
        # the strongest, said in the table's order
        shown = sorted(ranked[:SUMMARY_MAX], key=rows.index)
        words = [w for w in (difference_in_words(r) for r in shown) if w]
        if len(ranked) > SUMMARY_MAX:
            words.append(f"{len(ranked) - SUMMARY_MAX} more in the table")
        wins = [r for r in found if _is_win(r.metric)]
        asked_wins = [r for r in rows if _is_win(r.metric)]
        if wins:
            words.append("who wins changes: " + "; ".join(w for w in (difference_in_words(r) for r in wins) if w))
        elif asked_wins:
            words.append("no significant change in who wins")
        if not found:
            text = "no difference is significant after Holm's correction" + (
                "; no significant change in who wins" if asked_wins else "")
        else:
            text = "; ".join(words)
        out.append(f"{label} against {result.labels[0]}: {text}.")
    return out

# Below this many units the t intervals are honest but wide, and the delta-method
# (ratios) and bootstrap (quantiles) intervals only approximate: the output says so.
FEW_UNITS = 30


def _summary_lines(result: ComparisonResult) -> list[str]:
    unit = "games" if result.mode == "games" else "deal slots"
    strat = ", ".join(result.strategies) if result.strategies else "standard"
    lines = [f"{result.n:,} {unit} per rule set, same seeds for all (seed {result.seed}), "
             f"strategies: {strat}; baseline: {result.labels[0]}."]
    if result.n < FEW_UNITS:
        lines.append(f"Only {result.n} {unit} per rule set: intervals and tests use Student t with "
                     f"{result.n - 1} degree{'s' if result.n > 2 else ''} of freedom and are wide; ratio (delta-method) and quantile "
                     f"(bootstrap) intervals are rough below {FEW_UNITS}; an interval of zero width means every "
                     "value seen was the same, not that the mean is known.")
    if result.precision is not None:
        state = "met" if result.precision_met else "NOT met (cap reached)"
        widest = _widest_row(result.rows, result.metrics_obj())
        if widest is None:
            where = ""
        elif widest.unit == _SHARE:
            # X is compared with a share's interval as a fraction: say both ways.
            where = f" ({widest.metric}, a share: {100 * widest.diff_width:.4g} percentage points)"
        else:
            where = f" ({widest.metric}, in {widest.unit})"
        if widest is None:
            lines.append(f"Precision target {result.precision:g} cannot be judged: none of the watched metrics "
                         f"has a difference interval here (see the notes), so the run stopped after "
                         f"{result.rounds} round(s).")
        else:
            shares = any(r.unit == _SHARE for r in result.rows
                         if r.metric in {m.name for m in result.metrics_obj() if m.in_precision})
            pp = 100 * result.precision
            lines.append(f"Precision target {result.precision:g} {state} after {result.rounds} round(s); "
                         f"widest watched difference interval {result.worst_width():.4g}{where}. "
                         "The target is in each metric's own unit" + (
                             f"; shares as fractions ({result.precision:g} = {pp:g} percentage "
                             f"point{'' if pp == 1 else 's'})." if shares else "."))
    gains = [r.pairing_gain for r in result.rows if r.rules_index > 0 and not r.identical_pairs
             and r.pairing_gain is not None and math.isfinite(r.pairing_gain) and (r.diff_width or 0) > 0]
    exact = sum(1 for r in result.rows if r.rules_index > 0 and r.identical_pairs)
    if gains:
        over = (f"median over {len(gains)} comparisons; range x{min(gains):.2f} to x{max(gains):.2f}"
                if len(gains) > 1 else "one comparison")
        lines.append(f"Pairing (common random numbers) narrowed the difference intervals by x{np.median(gains):.2f} "
                     f"({over}) "
                     f"against an unpaired comparison of the same data"
                     + (f"; in {exact} every pair was identical (the rule changed nothing there)."
                        if exact else "."))
    split = _interval_test_disagreements(result.rows)
    if split:
        lines.append("Interval and test disagree at the 5% edge for " + ", ".join(split) + ": they are "
                     "different methods (for shares a Newcombe interval and McNemar's test), each valid on its "
                     "own; read such a difference as borderline.")
    return lines


def _interval_test_disagreements(rows: Sequence[MetricRow]) -> list[str]:
    """The rows whose difference interval excludes 0 while its own p-value is 0.05 or more,
    or the reverse: ``metric (label)`` each."""
    return [f"{r.metric} ({r.rules})" for r in rows if r.interval_test_split]


def result_table(result: ComparisonResult) -> str:
    """The terminal table: aligned columns, one block per metric."""
    rows = _table_rows(result)
    widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(_HEADER)]
    lines = [f"Significant after Holm (p < {SIGNIFICANCE:g}), 95% intervals:"]
    lines += [f"  {line}" for line in summary_lines(result)]
    lines.append("")
    top = len(lines)
    lines += ["  ".join(h.ljust(w) for h, w in zip(_HEADER, widths)),
              "  ".join("-" * w for w in widths)]
    for r in rows:
        if r[0] and len(lines) > top + 2:
            lines.append("")
        lines.append("  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip())
    lines.append("")
    lines += [f"note: {text}" for text in result.notes]
    if result.notes:
        lines.append("")
    if result.mode == "games" and any(sum(h) for h in result.deals_hist):
        lines.append("Deals per game, p10 / p25 / median / p75 / p90 / max:")
        for lab, hist in zip(result.labels, result.deals_hist):
            q = _deals_quantiles(hist)
            if q:
                lines.append(f"  {lab}: " + " / ".join(_deals_quantile_cells(q)))
        lines.append("")
    lines += _summary_lines(result)
    lines.append("Shares in %, differences in percentage points (pp); p = the difference's own p-value, "
                 "p (Holm) = corrected over every comparison shown; 'pairing' = unpaired / paired "
                 "CI width; 'same' = every pair identical.")
    lines.append("Methods: " + "; ".join(f"{k}: {v[0]} / {v[1]}" for k, v in METHODS.items()
                                         if k in {r.kind for r in result.rows}) + "; Holm over all p-values.")
    return "\n".join(lines)


def _deals_quantile_cells(q: dict[str, float]) -> list[str]:
    """The deals-per-game quantiles as the tables show them: one decimal each (interpolated
    ones fall between whole deals), the maximum a whole number."""
    return [f"{q[k]:.1f}" for k in ("p10", "p25", "median", "p75", "p90")] + [f"{q['max']:.0f}"]


def _deals_quantiles(hist: Sequence[int]) -> dict[str, float]:
    """The deals-per-game quantiles of a histogram, by the definition the ``deals_p10``,
    ``deals_median`` and ``deals_p90`` values use (``stats.weighted_quantiles``), from the
    counts (no per-game array: a billion games stay a few hundred numbers)."""
    counts = np.asarray(hist, dtype=np.int64)
    n = int(counts.sum())
    if n == 0:
        return {}
    values = np.arange(len(counts), dtype=float)
    out = {name: float(weighted_quantiles(values, counts[None, :], n, q)[0])
           for name, q in (("p10", 0.1), ("p25", 0.25), ("median", 0.5), ("p75", 0.75), ("p90", 0.9))}
    out["max"] = float(np.flatnonzero(counts)[-1])
    return out


def result_markdown(result: ComparisonResult, figure: str | None = None, level: int = 2) -> str:
    """The comparison as a Markdown section (what the report includes)."""
    h = "#" * level
    lines = [f"{h} House-rule comparison", ""]
    lines += [f"Significant after Holm's correction (p < {SIGNIFICANCE:g}), with 95% intervals:", ""]
    lines += [f"- {line}" for line in summary_lines(result)] + [""]
    lines += [" ".join(_summary_lines(result)), ""]
    if result.notes:
        lines += [f"- Note: {text}" for text in result.notes] + [""]
    lines.append("Rule sets: " + "; ".join(
        f"`{lab}`" + (f" (differs from the first in {', '.join(f'{k}={format_value(v)}' for k, v in r.diff(result.rules[0]).items())})"
                      if i and r.diff(result.rules[0]) else "")
        for i, (lab, r) in enumerate(zip(result.labels, result.rules))) + ".")
    lines.append("")
    lines.append("| " + " | ".join(_HEADER) + " |")
    lines.append("|" + "|".join("---" for _ in _HEADER) + "|")
    for row in _table_rows(result):
        row = [f"`{row[0]}`" if row[0] else "", *row[1:]]
        lines.append("| " + " | ".join(c.replace("|", "\\|") for c in row) + " |")
    lines.append("")
    if result.mode == "games" and any(sum(h) for h in result.deals_hist):
        lines.append(f"{h}# Deals per game")
        lines.append("")
        lines.append("| rules | p10 | p25 | median | p75 | p90 | max |")
        lines.append("|---|---|---|---|---|---|---|")
        for lab, hist in zip(result.labels, result.deals_hist):
            q = _deals_quantiles(hist)
            if q:
                lines.append(f"| {lab} | " + " | ".join(_deals_quantile_cells(q)) + " |")
        lines.append("")
    if figure:
        lines += [f"![Differences against {result.labels[0]} with 95% intervals]({figure})", ""]
    lines.append(f"{h}# Methods")
    lines.append("")
    lines.append("Every rule set played the same seeds (common random numbers); differences are "
                 "computed on the pairs (game *i* under each rule set). The pairs stay identical "
                 "until the rules make the engines use the random stream differently, then "
                 "diverge; the pairing is still valid, only less tight.")
    lines.append("")
    used = {r.kind for r in result.rows}
    for kind, (m_value, m_diff) in METHODS.items():
        if kind in used:
            lines.append(f"- {kind}: value {m_value}; difference {m_diff}.")
    lines.append("- p is each difference's own p-value; p (Holm) is corrected for multiple comparisons "
                 "with Holm's step-down method over every (metric, variant) pair; 'pairing' is the "
                 "unpaired interval width divided by the paired one.")
    lines.append("")
    return "\n".join(lines)


_PANEL_ORDER = [_SHARE, _PER_GAME, "per deal", _DEALS, _POINTS, _FINAL]


def forest_plot(result: ComparisonResult, path: str | os.PathLike) -> Path:
    """Forest plot of every difference against the baseline: one panel per unit, one row
    per metric, one colour per variant; filled markers where Holm's p < 0.05."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.lines import Line2D

    from thousand.analysis.charts import save_figure

    def finite(r: MetricRow) -> bool:
        return (r.diff is not None and r.diff_ci_low is not None and r.diff_ci_high is not None
                and all(math.isfinite(v) for v in (r.diff, r.diff_ci_low, r.diff_ci_high)))

    rows = [r for r in result.rows if r.rules_index > 0 and finite(r)]
    panels = [u for u in _PANEL_ORDER if any(r.unit == u for r in rows)]
    panels += sorted({r.unit for r in rows} - set(panels))
    if not panels:
        panels = [_SHARE]
    n_var = len(result.labels) - 1
    metric_order = list(dict.fromkeys(r.metric for r in result.rows))
    panel_metrics = {u: [m for m in metric_order if any(r.metric == m and r.unit == u for r in rows)]
                     for u in panels}
    heights = [max(1, len(panel_metrics[u])) * (0.55 + 0.18 * n_var) for u in panels]
    fig, axes = plt.subplots(len(panels), 1, figsize=(9, 1.4 + sum(heights) * 0.55 + 0.55 * len(panels)),
                             gridspec_kw={"height_ratios": heights}, squeeze=False)
    colours = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    spread = 0.6 / max(n_var, 1)
    for ax, unit in zip(axes[:, 0], panels):
        scale = 100.0 if unit == _SHARE else 1.0
        names = panel_metrics[unit]
        for y, name in enumerate(names):
            for r in (r for r in rows if r.metric == name):
                j = r.rules_index - 1
                c = colours[j % len(colours)]
                yy = y + (j - (n_var - 1) / 2) * spread
                significant = bool(r.significant)
                ax.errorbar(r.diff * scale, yy,
                            xerr=[[(r.diff - r.diff_ci_low) * scale], [(r.diff_ci_high - r.diff) * scale]],
                            fmt="o", mfc=c if significant else "white", color=c, capsize=3, ms=5)
        ax.axvline(0, color="grey", lw=0.8, ls="--")
        ax.set_yticks(range(len(names)), names, fontsize=8)
        ax.set_ylim(len(names) - 0.5, -0.5)
        xlabel = {_SHARE: "difference (percentage points)", _POINTS: "difference (points per deal)",
                  _FINAL: "difference (final score points)",
                  _PER_GAME: "difference (events per game)", _DEALS: "difference (deals per game)",
                  "per deal": "difference (per played deal)"}.get(unit, f"difference ({unit})")
        ax.set_xlabel(xlabel, fontsize=9)
        ax.grid(axis="x", alpha=0.3)
    handles = [Line2D([], [], color=colours[j % len(colours)], marker="o", ls="-", label=lab)
               for j, lab in enumerate(result.labels[1:])]
    axes[0, 0].legend(handles=handles, fontsize=8, loc="lower left", bbox_to_anchor=(0, 1.0),
                      ncol=min(3, n_var), frameon=False)
    fig.suptitle(f"Rule variants minus {result.labels[0]}: paired differences with 95% intervals", fontsize=10)
    fig.text(0.01, 0.005, f"{result.n:,} {'games' if result.mode == 'games' else 'deal slots'} per rule set, "
             f"same seeds (seed {result.seed}); filled marker: Holm p < {SIGNIFICANCE:g} (quantiles: no test, hollow)", fontsize=7, color="dimgrey")
    fig.tight_layout(rect=(0, 0.015, 1, 0.98))
    try:
        return save_figure(fig, path, dpi=120)
    finally:
        plt.close(fig)


OUTPUT_FILES = ("compare.md", "compare.csv", "compare.json", "compare_forest.png")
# In an --out folder: the files thousand compare wrote there and their SHA-256, so that a
# later run replaces only those (unchanged since), never a file of the user's.
WRITTEN_FILE = "compare_files.json"


def _sha256(path: Path) -> str:
    import hashlib
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _written_record(out: Path) -> dict[str, tuple[str, ...]]:
    """The checksums :data:`WRITTEN_FILE` lists per output name (several while a write is
    under way: the old file's and the new one's)."""
    record = out / WRITTEN_FILE
    if not record.exists() and not record.is_symlink():
        return {}
    try:
        files = read_json(record, "compare record", 16 << 20)["files"]
        return {str(k): (v,) if isinstance(v, str) else tuple(str(x) for x in v) for k, v in files.items()}
    except (ThousandError, KeyError, TypeError, AttributeError):
        raise ThousandError(f"{os.fspath(record)!r} is in the way: it is not the record thousand compare "
                            "keeps there; move it or give another --out") from None


def _write_record(out: Path, files: dict[str, Any]) -> None:
    with written_whole(out / WRITTEN_FILE) as tmp:   # a full disk leaves no cut record behind
        tmp.write_text(json.dumps({"files": files}, indent=1) + "\n")


def claim_out_dir(out_dir: str | os.PathLike) -> None:
    """Refuse in one line, before any work, when ``out_dir`` cannot be created or written, or
    holds an output name (or the record of them) that an earlier ``thousand compare --out``
    did not write, or that was changed since: writing would replace a file of the user's."""
    from thousand.runner.store import METADATA_FILE, check_writable, held_run, read_metadata

    out = Path(out_dir)
    # Now, so that a folder that cannot be made or written fails before the simulation, not after.
    check_writable(out)
    if (out / METADATA_FILE).is_file():
        # another command's data: the comparison's files would be mixed in with it
        try:
            what = held_run(read_metadata(out))
        except ThousandError:
            what = "another run's data"
        raise ThousandError(f"{os.fspath(out)!r} holds {what}; give thousand compare another --out")
    written = _written_record(out)
    for name in OUTPUT_FILES:
        path = out / name
        if not path.exists() and not path.is_symlink():
            continue
        if path.is_symlink() or not path.is_file() or _sha256(path) not in written.get(name, ()):
            raise ThousandError(f"{os.fspath(path)!r} is in the way: thousand compare did not write it (or it "
                                "was changed since); move it or give another --out")


def write_outputs(result: ComparisonResult, out_dir: str | os.PathLike, level: int = 2,
                  tables_dir: str | os.PathLike | None = None,
                  figures_dir: str | os.PathLike | None = None, claim: bool = False) -> str:
    """Write ``compare.md``, ``compare.csv``, ``compare.json`` and ``compare_forest.png``.

    Everything goes to ``out_dir`` unless ``tables_dir`` (CSV and JSON) or ``figures_dir``
    (PNG) say otherwise.  Returns the Markdown section (``level`` = heading level, the
    figure linked relative to ``out_dir``), which the report includes when it is given
    several rule sets, e.g.::

        result = compare_rules(["classic", "classic:bolts=off"], n_games=2000)
        section = write_outputs(result, "report", level=2, tables_dir="report/tables")

    With ``claim`` (``thousand compare --out``; the report keeps its own record) the four
    files go to ``out_dir`` only if :func:`claim_out_dir` allows, and their checksums are
    recorded in :data:`WRITTEN_FILE` for the next run.
    """
    if claim:
        if tables_dir is not None or figures_dir is not None:
            raise ValueError("claim writes every file to out_dir")
        claim_out_dir(out_dir)
    out = Path(out_dir)
    tables = Path(tables_dir) if tables_dir is not None else out
    figures = Path(figures_dir) if figures_dir is not None else out
    for d in (out, tables, figures):
        try:
            d.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise ThousandError(f"cannot create output directory {os.fspath(d)!r}: {e.strerror}") from None
    final = {"compare_forest.png": figures / "compare_forest.png", "compare.csv": tables / "compare.csv",
             "compare.json": tables / "compare.json", "compare.md": out / "compare.md"}
    # Every file is written under a temporary name and renamed, so a full disk or an
    # interruption leaves no cut file; with claim, renamed once the record lists both its
    # old and new checksums: a run interrupted anywhere leaves files the next run
    # recognises as its own.
    staged = {name: p.with_name(f".{p.stem}.partial{p.suffix}") for name, p in final.items()}
    try:
        forest_plot(result, staged["compare_forest.png"])
        result.frame().write_csv(staged["compare.csv"])
        staged["compare.json"].write_text(json.dumps(result.to_json(), indent=1) + "\n")
        md = result_markdown(result, figure=Path(os.path.relpath(final["compare_forest.png"], out)).as_posix(),
                             level=level)
        staged["compare.md"].write_text(md, encoding="utf-8")
        if claim:
            new = {name: _sha256(staged[name]) for name in OUTPUT_FILES}
            old = _written_record(out)
            _write_record(out, {name: sorted({*old.get(name, ()), new[name]}) for name in OUTPUT_FILES})
        for name in OUTPUT_FILES:
            os.replace(staged[name], final[name])
    except BaseException:
        for p in staged.values():   # ours: written just now under these names (those not renamed yet)
            p.unlink(missing_ok=True)
        raise
    if claim:
        _write_record(out, new)
    return md
