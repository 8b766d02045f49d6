"""Duplicate matches: strategies rotated over the seats on the same decks, paired statistics.

For every pair of strategies (A, B) a deal (or a game) is played in every *seating* of
the pair: A alone in each seat against B's in the others, and B alone in each seat
against A's (with three players six seatings; two players: two).  All seatings of a deal
are dealt the same cards: the kernel deals every (game, deal, redeal attempt) from a
keyed place of the chance stream when the strategies draw from a stream of their own
(``decisions=``, docs/kernel.md, "Chance and decisions"), and every seating gets the same
chance key and the same decision stream.  Card luck therefore cancels: in each seat A
holds exactly the cards B holds there, as often, against the same opponents' mix.

The unit of the statistics is the deal (the game): for each pair its measures are sums
over the seat occurrences of A and of B in the pair's seatings, and each difference is a
paired statistic over units (:mod:`thousand.analysis.stats`: Student t for means,
ratios by the delta method clustered by unit).  The rating of three or more strategies
is each one's mean paired advantage against the field: per unit, the mean over its
opponents of its points per deal minus theirs, with a Student t interval (the units are
independent; the opponents share a unit, which the per-unit mean takes into account).

Work goes through the runner (:mod:`thousand.runner`): chunks of a size that never
depends on the workers, chunk ``k`` played from ``chunk_seed(seed, k)`` (the chance key)
and ``decision_seed(seed, k)`` (the strategies' draws), every chunk reduced to the
:class:`~thousand.analysis.stats.Moments` of its units in the worker and merged in chunk
order, so the result is the same for any ``--jobs`` and backend.  With ``out`` each chunk's
rows (one per seating and deal or game) go to a chunk store, so an interrupted match
loses nothing written and ``resume`` continues it.
"""
from __future__ import annotations

import contextlib
import dataclasses
import math
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import combinations
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl

from thousand.analysis import stats
from thousand.errors import ThousandError, check_jobs, check_seed
from thousand.rules import Rules, parse_rules_spec

__all__ = ["seatings", "match", "MatchResult", "MatchRow", "Rating", "DEAL_CHUNK", "GAME_CHUNK", "chunk_rows",
           "reduce_rows", "METRICS", "MAIN_METRIC", "result_table"]

#: Deals per chunk (each chunk plays every seating of every pair on these deals): part
#: of what fixes the data, like ``simulate``'s chunk size.
DEAL_CHUNK = 2_000
#: Games per chunk.
GAME_CHUNK = 40
#: The metric ``--precision`` watches, per kind.
MAIN_METRIC = {"deals": "points_per_deal", "games": "win_share_alone"}
#: Default sizes.
DEFAULT_DEALS = 20_000
#: The control variate: the deal as ``standard`` plays it at every seat (its own decision
#: stream), solved open-handed from the play's start: a function of the deck alone,
#: whatever the strategies of the match.
CV_STRATEGY = "standard"
#: Covariates per deal: a play started (0/1), its open-hand value for the declarer (0 without
#: a play), the winning bid of that auction.
CV_COLUMNS = ("cv_play", "cv_value", "cv_bid")
#: The covariates' means come from a reference sample of this many times the match's deals,
#: on streams of their own (tag below), played and solved before they are needed.
CV_REFERENCE = 4
CV_TAG = 0xC0A7E

# Per pair and per strategy of the pair, the sums one deal contributes (over the seat
# occurrences of that strategy in the pair's seatings).
_DEAL_SUMS = ("occ", "score", "score_declarer", "score_defender", "declared", "made", "resigned", "defended",
              "beaten", "bid_sum", "bids", "contract_sum")
_GAME_SUMS = ("occ", "final", "alone", "alone_won")

#: metric -> (kind, what, how it is computed).  ``mean``: per-seat mean difference of A
#: minus B (points); ``ratio``: a ratio of sums over the units (``proportion``: a share).
METRICS: dict[str, tuple[str, str, str, tuple[str, str] | str, bool]] = {
    # name: (level, unit, description, numerator/denominator or per-seat sum, proportion)
    "points_per_deal": ("deals", "points", "score change per deal per seat", "score", False),
    "points_as_declarer": ("deals", "points", "per deal per seat, from deals the seat declared", "score_declarer",
                           False),
    "points_as_defender": ("deals", "points", "per deal per seat, from deals the seat defended", "score_defender",
                           False),
    "declared": ("deals", "share", "share of seat-deals the seat declared", ("declared", "occ"), True),
    "made_when_declaring": ("deals", "share", "contracts made / contracts declared (a resignation is not made)",
                            ("made", "declared"), True),
    "beaten_when_defending": ("deals", "share", "contracts beaten / contracts defended to the end (the declarer "
                              "did not resign)", ("beaten", "defended"), True),
    "mean_bid": ("deals", "points", "mean highest bid of the seat in the auctions it bid in", ("bid_sum", "bids"),
                 False),
    "mean_contract": ("deals", "points", "mean final contract when declaring", ("contract_sum", "declared"), False),
    "resigned": ("deals", "share", "resignations / contracts declared", ("resigned", "declared"), True),
    "win_share_alone": ("games", "share", "games won by one seat of the strategy against the other strategy in "
                        "every other seat (even share 1/players)", ("alone_won", "alone"), True),
    "final_score": ("games", "points", "final score per game per seat", "final", False),
}


def seatings(n_strategies: int, players: int) -> list[tuple[int, ...]]:
    """Every seating the match plays: for each pair ``i < j``, ``i`` alone in each seat
    against ``j`` everywhere else, then ``j`` alone against ``i`` (duplicates once).

    >>> seatings(2, 3)
    [(0, 1, 1), (1, 0, 1), (1, 1, 0), (1, 0, 0), (0, 1, 0), (0, 0, 1)]
    >>> seatings(2, 2)
    [(0, 1), (1, 0)]
    """
    out: list[tuple[int, ...]] = []
    for i, j in combinations(range(n_strategies), 2):
        for lone, rest in ((i, j), (j, i)):
            for s in range(players):
                seating = tuple(lone if t == s else rest for t in range(players))
                if seating not in out:
                    out.append(seating)
    return out


def pair_seatings(all_seatings: Sequence[tuple[int, ...]], i: int, j: int) -> list[int]:
    """Indices of the seatings of pair ``(i, j)`` (only those two strategies seated)."""
    return [k for k, s in enumerate(all_seatings) if set(s) == {i, j}]


# --------------------------------------------------------------------------- chunks
@dataclass(frozen=True)
class MatchTask:
    """One chunk of a match, everything a worker needs (small and picklable)."""

    kind: str                      # "deals" or "games"
    index: int
    start: int
    size: int
    seed: int
    rules: np.ndarray              # int32, Rules.to_kernel()
    players: int
    specs: tuple[str, ...]
    seatings: tuple[tuple[int, ...], ...]
    out: str | None = None         # the chunk store's directory, or None: rows stay in memory
    token: str | None = None
    read: bool = False             # the chunk is in the store already: read it back, do not play
    cv: bool = False               # also the deals' control variates (CV_COLUMNS)
    rule_set: Rules | None = None  # the rules as a Rules (the solver's positions need it)


def _streams(seed: int, k: int) -> tuple[np.random.PCG64, np.random.PCG64]:
    from thousand.runner.seeding import chunk_stream, decision_seed
    return chunk_stream(seed, k), np.random.PCG64(decision_seed(seed, k))


def deal_covariates(rules: Rules, chance: np.random.PCG64, decisions: np.random.PCG64, n: int) -> np.ndarray:
    """The control variates of ``n`` deals, ``(n, 3)`` floats (:data:`CV_COLUMNS`): the deals
    dealt from ``chance`` (keyed: the same decks as a match on that key) played by
    :data:`CV_STRATEGY` at every seat, and the open-hand value of the play's start
    (:func:`thousand.solver.play_start`: the talon taken, the hand-off given)."""
    from thousand import solver
    from thousand.runner.chunks import kernel
    cols = kernel().play_deals(chance, rules, CV_STRATEGY, n_deals=n, decisions=decisions)
    played = np.flatnonzero(cols["redeal"] == 0)
    out = np.zeros((n, len(CV_COLUMNS)))
    out[:, 2] = cols["winning_bid"][played]
    starts = [(j, solver.play_start(rules, cols, int(i))) for j, i in enumerate(played)]
    starts = [(j, st) for j, st in starts if st is not None]
    if starts:
        values = solver.solve_many(rules, [st[0] for _, st in starts], [st[1] for _, st in starts],
                                   workspace=solver.Workspace())
        rows = [j for j, _ in starts]
        out[rows, 0] = 1
        out[rows, 1] = values
    return out


def reference_moments(task: MatchTask) -> stats.Moments:
    """The covariates of the reference chunk ``task.index`` (streams tagged :data:`CV_TAG`)."""
    from thousand.runner.seeding import tagged_seed
    chance = np.random.PCG64(tagged_seed(task.seed, CV_TAG, (0, task.index)))
    decisions = np.random.PCG64(tagged_seed(task.seed, CV_TAG, (1, task.index)))
    return stats.Moments.of(deal_covariates(task.rule_set, chance, decisions, task.size))


def chunk_rows(task: MatchTask, seatings_played: Sequence[int] | None = None, size: int | None = None
               ) -> dict[str, np.ndarray]:
    """Play chunk ``task.index`` in every seating (or ``seatings_played``): one row per
    seating and deal (game), seating-major, as numpy columns.

    Every seating starts from fresh copies of the chunk's two streams, so every seating
    is dealt the same decks and (for the same strategy in the same seat) draws the same
    numbers: a strategy against itself gives the same play in every seating.
    """
    from thousand.runner.chunks import kernel
    play = kernel()
    n = task.size if size is None else size
    chosen = range(len(task.seatings)) if seatings_played is None else seatings_played
    parts: list[dict[str, np.ndarray]] = []
    p = task.players
    for k in chosen:
        specs = [task.specs[i] for i in task.seatings[k]]
        chance, decisions = _streams(task.seed, task.index)
        if task.kind == "deals":
            cols = play.play_deals(chance, task.rules, specs, n_deals=n, decisions=decisions)
            played = np.flatnonzero(cols["redeal"] == 0)
            # redeals asked before each played deal: the attempts between two played rows
            attempts = np.diff(np.concatenate([[-1], played])) - 1
            row = {"deal": np.arange(task.start, task.start + n, dtype=np.int64),
                   "seating": np.full(n, k, dtype=np.int16),
                   "redeals": attempts.astype(np.int16)}
            for name in ("talon", "dealer", "declarer", "winning_bid", "contract", "resigned", "made", "declarer_points"):
                row[name] = cols[name][played]
            for name in ("hand", "bid", "score"):
                for s in range(p):
                    row[f"{name}{s}"] = cols[f"{name}{s}"][played]
        else:
            games, _ = play.play_games(chance, task.rules, specs, n_games=n, decisions=decisions)
            row = {"game": np.arange(task.start, task.start + n, dtype=np.int64),
                   "seating": np.full(n, k, dtype=np.int16)}
            for name in ("first_dealer", "winner", "deals"):
                row[name] = games[name]
            for name in ("final", "declarer_deals", "made", "resignations"):
                for s in range(p):
                    row[f"{name}{s}"] = games[f"{name}{s}"]
        for s in range(p):
            row[f"strategy{s}"] = np.full(n, task.seatings[k][s], dtype=np.int8)
        parts.append(row)
    out = {name: np.concatenate([part[name] for part in parts]) for name in parts[0]}
    if task.cv and task.kind == "deals":
        chance, decisions = _streams(task.seed, task.index)
        cv = deal_covariates(task.rule_set, chance, decisions, n)
        for c, name in enumerate(CV_COLUMNS):
            out[name] = np.tile(cv[:, c], len(chosen)).astype(np.int16)
    return out


def _unit_columns(n_strategies: int, kind: str, cv: bool = False) -> list[str]:
    """Names of the columns of the per-unit table: per pair and side its sums, then the
    rating's per-unit advantage of every strategy, then (games) the share of the game's
    seatings that ended with no winner, then (``cv``) the control variates."""
    sums = _DEAL_SUMS if kind == "deals" else _GAME_SUMS
    names = [f"{i}-{j}:{side}:{s}" for i, j in combinations(range(n_strategies), 2) for side in "ab" for s in sums]
    return (names + [f"rating:{i}" for i in range(n_strategies)] + (["no_winner"] if kind == "games" else [])
            + (list(CV_COLUMNS) if cv else []))


def reduce_rows(rows: dict[str, np.ndarray] | pl.DataFrame, kind: str, n_strategies: int,
                seating_list: Sequence[tuple[int, ...]], players: int) -> stats.Moments:
    """The :class:`~thousand.analysis.stats.Moments` of a chunk's units (deals or games).

    For each pair ``(A, B)`` and each side, the unit's sums over the seat occurrences of
    that side's strategy in the pair's seatings (:data:`_DEAL_SUMS` / :data:`_GAME_SUMS`),
    then per strategy its rating column: the mean over its opponents of its points per
    seat minus theirs (points per deal; final score per game).
    """
    if isinstance(rows, pl.DataFrame):
        rows = {c: rows[c].to_numpy() for c in rows.columns}
    n_seat = len(seating_list)
    n = len(rows["seating"]) // n_seat

    def grid(name: str) -> np.ndarray:   # (seating, unit)
        return np.asarray(rows[name]).reshape(n_seat, n).astype(np.float64)

    if not np.array_equal(np.asarray(rows["seating"]).reshape(n_seat, n)[:, 0], np.arange(n_seat)):
        raise ThousandError("match chunk rows are not in seating order")
    pairs = list(combinations(range(n_strategies), 2))
    out: list[np.ndarray] = []
    per_seat = {}   # (i, j, side) -> points per seat per unit, for the rating
    if kind == "deals":
        declarer = grid("declarer")
        made, resigned = grid("made"), grid("resigned")
        contract, dealer = grid("contract"), grid("dealer")
        score = [grid(f"score{s}") for s in range(players)]
        bid = [grid(f"bid{s}") for s in range(players)]
    else:
        winner = grid("winner")
        final = [grid(f"final{s}") for s in range(players)]
    for i, j in pairs:
        ks = pair_seatings(seating_list, i, j)
        for side, me in (("a", i), ("b", j)):
            acc = {name: np.zeros(n) for name in (_DEAL_SUMS if kind == "deals" else _GAME_SUMS)}
            for k in ks:
                seating = seating_list[k]
                lone = seating.count(me) == 1
                for s in range(players):
                    if seating[s] != me:
                        continue
                    acc["occ"] += 1
                    if kind == "deals":
                        # 4 players: the dealer sits out the deal (its talon score is its score)
                        active = dealer[k] != s if players == 4 else np.ones(n, dtype=bool)
                        decl = declarer[k] == s
                        defends = active & (declarer[k] >= 0) & ~decl
                        acc["score"] += score[s][k]
                        acc["score_declarer"] += np.where(decl, score[s][k], 0)
                        acc["score_defender"] += np.where(decl, 0, score[s][k])
                        acc["declared"] += decl
                        acc["made"] += decl & (made[k] > 0)
                        acc["resigned"] += decl & (resigned[k] > 0)
                        played_out = defends & (resigned[k] == 0)
                        acc["defended"] += played_out
                        acc["beaten"] += played_out & (made[k] == 0)
                        acc["bid_sum"] += bid[s][k]
                        acc["bids"] += bid[s][k] > 0
                        acc["contract_sum"] += np.where(decl, contract[k], 0)
                    else:
                        acc["final"] += final[s][k]
                        if lone:
                            acc["alone"] += 1
                            acc["alone_won"] += winner[k] == s
            per_seat[(i, j, side)] = acc["score" if kind == "deals" else "final"] / acc["occ"]
            out += [acc[name] for name in acc]
    for me in range(n_strategies):
        adv = np.zeros(n)
        for i, j in pairs:
            if me == i:
                adv += per_seat[(i, j, "a")] - per_seat[(i, j, "b")]
            elif me == j:
                adv += per_seat[(i, j, "b")] - per_seat[(i, j, "a")]
        out.append(adv / (n_strategies - 1))
    if kind == "games":
        # a game stopped at max_deals records no winner (-1): no seat's share counts it
        out.append((winner < 0).mean(axis=0))
    if "cv_value" in rows:
        out += [grid(name)[0] for name in CV_COLUMNS]
    return stats.Moments.of(np.column_stack(out))


def run_chunk(task: MatchTask) -> tuple[str, int, stats.Moments, int]:
    """A worker's task: play (or read back) chunk ``task.index``, write it to the store if
    there is one, and return ``(kind, index, moments of its units, rows)``; a reference
    chunk of the control variate (``kind == "cv_reference"``): the moments of its covariates."""
    from thousand.runner.pool import keep_freed_memory
    from thousand.runner.store import chunk_file, new_token, write_chunk
    keep_freed_memory()
    if task.kind == "cv_reference":
        return task.kind, task.index, reference_moments(task), 0
    if task.read:
        rows = pl.read_parquet(Path(task.out) / chunk_file(task.index))
        n_rows = rows.height
    else:
        rows = chunk_rows(task)
        n_rows = len(rows["seating"])
        if task.out is not None:
            write_chunk(rows, task.out, task.index, "zstd", task.token or new_token())
    mom = reduce_rows(rows, task.kind, len(task.specs), task.seatings, task.players)
    return task.kind, task.index, mom, n_rows


# --------------------------------------------------------------------------- results
@dataclass
class MatchRow:
    """One measure of one pair: A's value, B's, and A minus B with its 95% interval."""

    a: str
    b: str
    metric: str
    value: float                # A minus B (win_share_alone: A's share alone against B's)
    ci_low: float
    ci_high: float
    n: int                      # units: deals or games
    a_value: float
    b_value: float
    a_ci_low: float
    a_ci_high: float
    b_ci_low: float
    b_ci_high: float
    p_value: float | None
    unit: str
    kind: str                   # "difference" or "share" (win_share_alone)
    even: float | None = None   # win_share_alone: what an even match gives, 1 / players
    # ``<metric>_cv`` rows: the share of the plain estimate's variance the control variate removed
    variance_reduction: float | None = None

    def as_dict(self) -> dict[str, Any]:
        return {k: stats.json_number(v) for k, v in dataclasses.asdict(self).items()}


@dataclass
class Rating:
    """A strategy's mean paired advantage against the field, per seat and deal (game)."""

    strategy: str
    value: float
    ci_low: float
    ci_high: float
    n: int
    metric: str
    # ``..._cv`` ratings: the share of the plain estimate's variance the control variate removed
    variance_reduction: float | None = None

    def as_dict(self) -> dict[str, Any]:
        """The keys of a pair's row (:class:`MatchRow`), so one schema reads both: ``b`` is
        ``"field"``, ``kind`` ``"rating"``, and what only a pair has (A's and B's own
        values, the p-value, ``even``) is null."""
        row: dict[str, Any] = dict.fromkeys(f.name for f in dataclasses.fields(MatchRow))
        row.update(a=self.strategy, b="field", metric=f"rating_{self.metric}", value=self.value,
                   ci_low=self.ci_low, ci_high=self.ci_high, n=self.n, unit="points", kind="rating",
                   variance_reduction=self.variance_reduction)
        return {k: stats.json_number(v) for k, v in row.items()}


@dataclass
class MatchResult:
    strategies: list[str]
    rules: Rules
    kind: str
    n: int
    seed: int
    rows: list[MatchRow]
    ratings: list[Rating]
    seconds: float
    rounds: int
    seating_list: list[tuple[int, ...]] = field(default_factory=list)
    control_variate: bool = False
    precision: float | None = None     # the --precision target, when there was one
    no_winner: float | None = None     # games: the share that stopped at max_deals with no winner

    @property
    def precision_met(self) -> bool | None:
        """Whether every main interval is narrower than ``precision`` (None without one)."""
        return None if self.precision is None else self.worst_width() < self.precision

    def to_json(self) -> list[dict[str, Any]]:
        """One object per pair and measure (then the ratings against the field); with a
        ``--precision`` target each says it and whether it was met."""
        extra: dict[str, Any] = {"rules": self.rules.describe(), "rules_hash": self.rules.hash}
        if self.no_winner is not None:
            extra["no_winner"] = self.no_winner
        if self.precision is not None:
            extra.update(precision=self.precision, precision_met=self.precision_met)
        return [{**r.as_dict(), **extra} for r in self.rows] + [{**r.as_dict(), **extra} for r in self.ratings]

    def row(self, a: str, b: str, metric: str) -> MatchRow:
        for r in self.rows:
            if (r.a, r.b, r.metric) == (a, b, metric):
                return r
        raise KeyError((a, b, metric))

    def worst_width(self) -> float:
        main = MAIN_METRIC[self.kind] + ("_cv" if self.control_variate else "")
        widths = [r.ci_high - r.ci_low for r in self.rows if r.metric == main]
        return max((w if math.isfinite(w) else math.inf) for w in widths)


#: The metrics the control variate adjusts (per-seat means of points).
CV_METRICS = ("points_per_deal", "points_as_declarer", "points_as_defender")


def _rows_from(mom: stats.Moments, specs: Sequence[str], kind: str, players: int,
               confidence: float = 0.95, reference: stats.Moments | None = None
               ) -> tuple[list[MatchRow], list[Rating]]:
    names = _unit_columns(len(specs), kind, reference is not None)
    col = {name: c for c, name in enumerate(names)}
    rows: list[MatchRow] = []
    n = mom.n
    cv_cols = [col[name] for name in CV_COLUMNS] if reference is not None else []
    for i, j in combinations(range(len(specs)), 2):
        def c(side: str, s: str) -> int:
            return col[f"{i}-{j}:{side}:{s}"]
        for metric, (level, unit, _, how, proportion) in METRICS.items():
            if level != kind:
                continue
            if isinstance(how, str):
                # per-seat sums over a constant number of occurrences: the mean per seat
                occ_a, occ_b = mom.sums[c("a", "occ")] / n, mom.sums[c("b", "occ")] / n
                ea = stats.ratio_estimate_from(mom, c("a", how), c("a", "occ"), False, confidence)
                eb = stats.ratio_estimate_from(mom, c("b", how), c("b", "occ"), False, confidence)
                d = stats.ratio_diff_from(mom, c("b", how), c("b", "occ"), c("a", how), c("a", "occ"),
                                          _identical(mom, c("a", how), c("b", how)) and occ_a == occ_b, confidence)
                rows.append(MatchRow(specs[i], specs[j], metric, d.diff, d.low, d.high, n, ea.value, eb.value,
                                     ea.low, ea.high, eb.low, eb.high, d.p_value, unit, "difference"))
                if reference is not None and metric in CV_METRICS:
                    w = np.zeros(len(names))
                    w[c("a", how)], w[c("b", how)] = 1 / occ_a, -1 / occ_b
                    cv = stats.control_variate_mean(mom, w, cv_cols, reference, confidence)
                    # the adjusted difference only: A and B adjusted one by one (a regression
                    # each) would not add up to it, and their plain means are on the row above
                    nan = math.nan
                    rows.append(MatchRow(specs[i], specs[j], f"{metric}_cv", cv.value, cv.low, cv.high, n,
                                         nan, nan, nan, nan, nan, nan, None, unit,
                                         "difference", variance_reduction=cv.variance_reduction))
                continue
            num, den = how
            ea = stats.ratio_estimate_from(mom, c("a", num), c("a", den), proportion, confidence)
            eb = stats.ratio_estimate_from(mom, c("b", num), c("b", den), proportion, confidence)
            if metric == "win_share_alone":
                # (1/players: the share of the pair's own games that had no winner is not kept
                # apart from the match's, so the text's no-winner line says the match-wide one)
                rows.append(MatchRow(specs[i], specs[j], metric, ea.value, ea.low, ea.high, n, ea.value, eb.value,
                                     ea.low, ea.high, eb.low, eb.high, None, unit, "share", even=1 / players))
                continue
            d = stats.ratio_diff_from(mom, c("b", num), c("b", den), c("a", num), c("a", den),
                                      _identical(mom, c("a", num), c("b", num))
                                      and _identical(mom, c("a", den), c("b", den)), confidence)
            low, high = d.low, d.high
            if unit == "share":
                # two shares differ by at most 1: the delta method's interval can pass that
                # on a few deals
                low, high = max(low, -1.0), min(high, 1.0)
            rows.append(MatchRow(specs[i], specs[j], metric, d.diff, low, high, n, ea.value, eb.value,
                                 ea.low, ea.high, eb.low, eb.high, d.p_value, unit, "difference"))
    ratings = []
    if len(specs) > 2:
        metric = "points_per_deal" if kind == "deals" else "final_score"
        for s, spec in enumerate(specs):
            k = col[f"rating:{s}"]
            mean, sd = float(mom.mean[k]), math.sqrt(mom.var(k)) if n > 1 else math.nan
            lo, hi = stats.mean_interval(mean, sd, n, confidence)
            ratings.append(Rating(spec, mean, float(lo), float(hi), n, metric))
            if reference is not None:
                w = np.zeros(len(names))
                w[k] = 1
                cv = stats.control_variate_mean(mom, w, cv_cols, reference, confidence)
                ratings.append(Rating(spec, cv.value, cv.low, cv.high, n, f"{metric}_cv", cv.variance_reduction))
    return rows, ratings


def _no_winner(mom: stats.Moments, n_strategies: int, kind: str) -> float | None:
    """Games: the share of the games played (every seating) that ended with no winner."""
    if kind != "games":
        return None
    return float(mom.mean[_unit_columns(n_strategies, kind).index("no_winner")])


def _identical(mom: stats.Moments, a: int, b: int) -> bool:
    """Columns ``a`` and ``b`` agree on every unit (exactly, from the moments of whole numbers)."""
    if mom.n == 0:
        return True
    same_sum = mom.sums[a] == mom.sums[b]
    var_d = mom.m2[a, a] + mom.m2[b, b] - 2 * mom.m2[a, b]
    return bool(same_sum and abs(var_d) <= 1e-9 * max(1.0, abs(mom.m2[a, a])))


# --------------------------------------------------------------------------- the match
def _round_sizes(n: int, precision: float | None, cap: int | None, chunk: int) -> list[int]:
    """Cumulative sizes after each round: ``n`` alone, or with ``precision`` doubling
    rounds (whole chunks) up to the cap (never passed).

    >>> _round_sizes(5000, None, None, 2000)
    [5000]
    >>> _round_sizes(5000, 1.0, 30000, 2000)
    [6000, 12000, 24000, 30000]
    """
    if precision is None:
        return [n]
    first = min(cap, -(-n // chunk) * chunk)
    sizes = [first]
    while sizes[-1] < cap:
        sizes.append(min(cap, sizes[-1] * 2))
    return sizes


def check_specs(specs: Sequence[str]) -> list[str]:
    """The strategies as the registry spells them (:func:`thousand.strategies.canonical`);
    one line for a bad, missing or repeated one (the same name and parameter values, however
    written: ``standard`` and ``standard:margin=10`` are one strategy, and so are a preset
    and its branch given the preset's parameters).

    >>> check_specs(["greedy", " standard:margin=5 "])
    ['greedy', 'standard:margin=5']
    """
    from thousand.strategies import canonical, parse_strategy
    if len(specs) < 2:
        raise ThousandError("a match needs at least two strategies, e.g. --strategy greedy --strategy standard")
    from thousand._fastdeal import strategy_branch_of
    parsed = [parse_strategy(s) for s in specs]
    # what the kernel plays: a preset is its branch with its parameters (aggressive is
    # standard's branch with other defaults, so 'standard' set to them is aggressive)
    keys = [(strategy_branch_of(p.code), tuple(p.params)) for p in parsed]
    for k, key in enumerate(keys):
        if key in keys[:k]:
            raise ThousandError(f"strategy {specs[k]!r} is given twice (also as {specs[keys.index(key)]!r}); "
                                "a match compares different strategies")
    return [canonical(s) for s in specs]


def match(strategies: Sequence[str], rules: Rules | str = "classic", *, n_deals: int | None = None,
          n_games: int | None = None, seed: int = 1, jobs: int = 1, backend: str = "loky",
          scheduler: str | None = None, precision: float | None = None, cap: int | None = None,
          out: str | Path | None = None, resume: bool = False, progress: bool | None = None,
          chunk_size: int | None = None, allow_same: bool = False, control_variate: bool = False) -> MatchResult:
    """Play a duplicate match of ``strategies`` and return its paired statistics.

    Parameters
    ----------
    strategies : two or more strategy specs (``"standard"``, ``"standard:margin=10"``)
    rules : a Rules or a rules spec
    n_deals, n_games : the size (one of them; default :data:`DEFAULT_DEALS` deals), per
        seating: every deal (game) is played once in every seating of every pair
    precision : play in doubling rounds until the interval of the main metric
        (:data:`MAIN_METRIC`) of every pair is narrower than this, or ``cap`` units
        (default 32 x the first round) are played
    out : a directory for the per-deal (per-game) rows, a chunk store; ``resume``
        continues an interrupted match there
    allow_same : let a strategy meet itself (tests: every difference is then exactly 0)
    control_variate : also the points metrics adjusted by the deals' open-hand values
        (:data:`CV_COLUMNS`, means from a reference sample of :data:`CV_REFERENCE` times
        the deals): rows ``<metric>_cv`` with their variance reduction; ``--precision``
        then watches ``points_per_deal_cv``
    """
    from thousand.runner.pool import progress_bar, run_tasks
    from thousand.runner.seeding import chunk_bounds
    from thousand.runner.store import MAX_CHUNKS, ChunkStore, new_token

    if isinstance(strategies, str):
        raise ThousandError(f"strategies: give a list of two or more strategies, got one: {strategies!r}")
    specs = check_specs(strategies) if not allow_same else [*strategies]
    if isinstance(rules, str):
        rules = parse_rules_spec(rules)
    if not isinstance(rules, Rules):
        raise ThousandError(f"rules must be a Rules or a rules spec (classic, russian:bolts=off, a TOML file), "
                            f"got {rules!r}")
    check_seed(seed)
    check_jobs(jobs)
    if n_deals is not None and n_games is not None:
        raise ThousandError("give --deals or --games, not both")
    kind = "games" if n_games is not None else "deals"
    n = n_games if n_games is not None else (n_deals if n_deals is not None else DEFAULT_DEALS)
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 2:
        raise ThousandError(f"--{kind} must be a whole number of at least 2, got {n}")
    if precision is not None and not (precision > 0 and math.isfinite(precision)):
        raise ThousandError(f"--precision must be a positive number, got {precision}")
    if precision is not None and kind == "games" and precision >= 1:
        # a share's interval is never 1 wide: the target would be met at once
        raise ThousandError(f"--precision with --games is the width of the win share's interval, below 1 "
                            f"(0.05 is 5 points of percentage); got {precision:g}")
    chunk = chunk_size or (DEAL_CHUNK if kind == "deals" else GAME_CHUNK)
    if cap is not None and precision is None:
        raise ThousandError("--cap limits a --precision run; give --precision too")
    if precision is not None:
        if cap is None and n > MAX_CHUNKS * chunk:
            raise ThousandError(f"--{kind} {n:,}: a match plays at most {MAX_CHUNKS * chunk:,} {kind} "
                                f"({MAX_CHUNKS:,} chunks of {chunk:,})")
        # the default stays within the chunks a run may have (an explicit --cap is checked below)
        cap = cap if cap is not None else min(32 * max(n, chunk), MAX_CHUNKS * chunk)
        if cap < n:
            # the first round plays --deals (--games) rounded up to whole chunks, cut at the cap
            raise ThousandError(f"--cap {cap:,} is below --{kind} {n:,}: the first round plays at least that many")
    if control_variate and kind != "deals":
        raise ThousandError("--control-variate adjusts deals: use it with --deals")
    if control_variate and rules.players == 2:
        raise ThousandError("--control-variate needs 3 or 4 players (the solver's play start)")
    from thousand.runner.pool import check_backend
    check_backend(backend)     # before the store is made
    sizes = _round_sizes(n, precision, cap, chunk)
    total = sizes[-1]
    if -(-total // chunk) > MAX_CHUNKS:
        # every chunk is a task and a file: refused before any work, never after it
        raise ThousandError(f"--{'cap' if precision is not None else kind} {total:,}: a match plays at most "
                            f"{MAX_CHUNKS * chunk:,} {kind} ({MAX_CHUNKS:,} chunks of {chunk:,})")
    players = rules.players
    seating_list = seatings(len(specs), players)
    rules_arr = rules.to_kernel()
    # Every strategy must be known to the kernel before any work (one line, not a worker's traceback).
    from thousand.simulate import kernel_version
    from thousand.strategies import resolve_strategies
    for seating in seating_list:
        resolve_strategies([specs[i] for i in seating], players)

    store = None
    kept: set[int] = set()
    with contextlib.ExitStack() as held:
        if out is not None:
            meta = {"kind": kind, "rows": kind, "n": total, "chunk_size": chunk,
                    "n_chunks": len(chunk_bounds(total, chunk)), "seed": seed, "rules": rules.as_dict(), "rules_hash": rules.hash, "strategies": specs,
                    "seatings": [list(s) for s in seating_list], "precision": precision, "match": True,
                    "control_variate": control_variate, "kernel_version": kernel_version()}
            store = held.enter_context(ChunkStore(out, meta, ("kind", "precision", "n", "chunk_size", "seed",
                                                              "rules_hash", "strategies", "match",
                                                              "control_variate", "kernel_version")))
            store.prepare(resume)

            def first_row(k: int) -> pl.DataFrame:
                start, _ = chunk_bounds(total, chunk)[k]
                task = MatchTask(kind, k, start, 1, seed, rules_arr, players, tuple(specs), tuple(seating_list),
                                 cv=control_variate, rule_set=rules)
                return pl.DataFrame(chunk_rows(task, seatings_played=[0], size=1))

            kept = store.open(first_row, partial=False)
        bounds = chunk_bounds(total, chunk)
        token = store.token if store is not None else None
        mom: stats.Moments | None = None
        reference: stats.Moments | None = None
        started = time.perf_counter()
        done_units = ref_chunks = 0
        rounds = 0
        bar = progress_bar(sizes[0], kind[:-1], progress=progress)
        try:
            for target in sizes:
                rounds += 1
                todo = [(k, start, size) for k, (start, size) in enumerate(bounds) if done_units <= start < target]
                if bar is not None:
                    bar.total = target
                    bar.refresh()
                tasks = [MatchTask(kind, k, start, size, seed, rules_arr, players, tuple(specs),
                                   tuple(seating_list), None if out is None else str(out), token, k in kept,
                                   cv=control_variate, rule_set=rules)
                         for k, start, size in todo]
                if control_variate:
                    # the reference sample grows with the match: CV_REFERENCE x its deals
                    wanted = -(-CV_REFERENCE * target // chunk)
                    tasks += [MatchTask("cv_reference", r, r * chunk, chunk, seed, rules_arr, players, tuple(specs),
                                        tuple(seating_list), rule_set=rules) for r in range(ref_chunks, wanted)]
                    ref_chunks = max(ref_chunks, wanted)
                sizes_of = {k: size for k, _, size in todo}
                with contextlib.closing(run_tasks(run_chunk, tasks, backend=backend, jobs=jobs,
                                                  scheduler=scheduler, ordered=True)) as results:
                    for task_kind, k, chunk_mom, _ in results:
                        if task_kind == "cv_reference":
                            reference = chunk_mom if reference is None else reference.merge(chunk_mom)
                            continue
                        mom = chunk_mom if mom is None else mom.merge(chunk_mom)
                        done_units += sizes_of[k]
                        if bar is not None:
                            bar.update(sizes_of[k])
                rows, ratings = _rows_from(mom, specs, kind, players, reference=reference)
                result = MatchResult(specs, rules, kind, done_units, seed, rows, ratings,
                                     time.perf_counter() - started, rounds, seating_list, control_variate,
                                     precision, _no_winner(mom, len(specs), kind))
                if precision is None or result.precision_met:
                    break
        except KeyboardInterrupt:
            if bar is not None:
                bar.close()
                bar = None
            if store is not None:   # what is kept, as the runner says it for simulate
                print(f"interrupted: {len(store.written())} of {len(bounds)} chunks are written in {out}; run the "
                      "same command with --resume to finish", file=sys.stderr)
            raise
        finally:
            if bar is not None:
                bar.close()
        if store is not None:
            store.meta["played"] = done_units
            store.complete()
    return result


# --------------------------------------------------------------------------- output
# Below this many units the intervals are honest but wide, and the delta-method ones (the
# shares' differences) only approximate: the table says so (as compare's summary does).
FEW_UNITS = 30


def _fmt(v: float, unit: str) -> str:
    """A difference or its interval's end: signed, so a gain reads as one."""
    if v is None or not math.isfinite(v):
        return "n/a"
    # two shares differ in percentage points, as compare writes them
    return f"{100 * v:+.1f} pp" if unit == "share" else f"{v:+.2f}" if unit == "points" else f"{v:+.3f}"


def _fmt_value(v: float, unit: str) -> str:
    if v is None or not math.isfinite(v):
        return "n/a"
    return f"{100 * v:.1f}%" if unit == "share" else f"{v:.2f}"


def result_table(result: MatchResult) -> str:
    """The terminal output: per pair its measures (A, B, A minus B with a 95% interval),
    then the ratings against the field."""
    lines = [f"Duplicate match, {result.n:,} {result.kind} x {len(result.seating_list)} seatings "
             f"({result.rules.players} players, seed {result.seed}), {result.seconds:.1f} s; 95% intervals",
             f"rules {result.rules.describe()} (hash {result.rules.hash})"]
    if result.n < FEW_UNITS:
        lines.append(f"Only {result.n} {result.kind}: the intervals use Student t with {result.n - 1} degree"
                     f"{'s' if result.n > 2 else ''} of freedom and are wide; the shares' (delta-method) "
                     f"intervals are rough below {FEW_UNITS}; an interval of zero width means every value seen "
                     "was the same, not that the mean is known.")
    for i, j in combinations(range(len(result.strategies)), 2):
        a, b = result.strategies[i], result.strategies[j]
        lines += ["", f"{a} (A) vs {b} (B)"]
        head = ["metric", "A", "B", "A - B", "95% interval"]
        table = []
        for r in result.rows:
            if (r.a, r.b) != (a, b):
                continue
            if r.kind == "share":
                # A's and B's shares alone are of other games: no difference, A's interval
                even = f"even {_fmt_value(r.even, r.unit)}"
                if result.no_winner and len(result.strategies) == 2:
                    # one pair: the match's games with no winner are this pair's
                    even = f"even {_fmt_value(r.even * (1 - result.no_winner), r.unit)}, the no-winner games counted"
                elif result.no_winner:
                    even = f"even {_fmt_value(r.even, r.unit)} if every game had a winner"
                table.append([r.metric, _fmt_value(r.a_value, r.unit), _fmt_value(r.b_value, r.unit), "-",
                              f"A: [{_fmt_value(r.ci_low, r.unit)}, {_fmt_value(r.ci_high, r.unit)}] ({even})"])
                continue
            interval = f"[{_fmt(r.ci_low, r.unit)}, {_fmt(r.ci_high, r.unit)}]"
            if r.variance_reduction is not None and math.isfinite(r.variance_reduction):
                interval += f" (variance {-100 * r.variance_reduction:+.0f}%)"
            sides = ["", ""] if r.metric.endswith("_cv") else [_fmt_value(r.a_value, r.unit),
                                                                 _fmt_value(r.b_value, r.unit)]
            table.append([r.metric, *sides, _fmt(r.value, r.unit), interval])
        widths = [max(len(h), *(len(t[c]) for t in table)) for c, h in enumerate(head)]
        lines.append("  " + "  ".join(h.ljust(w) for h, w in zip(head, widths)))
        lines += ["  " + "  ".join(v.ljust(w) for v, w in zip(t, widths)) for t in table]
    if result.ratings:
        what = "points per deal per seat" if result.kind == "deals" else "final score per game per seat"
        lines += ["", f"Rating: mean paired advantage against the field ({what}), 95% intervals"]
        for r in sorted((r for r in result.ratings if not r.metric.endswith("_cv")), key=lambda r: -r.value):
            adjusted = [c for c in result.ratings if c.strategy == r.strategy and c.metric.endswith("_cv")]
            line = f"  {r.strategy:<24} {r.value:+8.2f}  [{r.ci_low:+.2f}, {r.ci_high:+.2f}]"
            if adjusted:
                c = adjusted[0]
                line += f"   with the control variate {c.value:+.2f} [{c.ci_low:+.2f}, {c.ci_high:+.2f}]"
            lines.append(line)
    lines.append("")
    if result.kind == "deals":
        lines.append("points: score change per deal per seat; shares: of the seat's own deals (declared: of all), their differences in percentage points (pp)")
    else:
        lines.append("win_share_alone: games won by one A against B's in every other seat (B: one B against A's); "
                     "final_score: per game per seat")
        if result.no_winner:
            even = 1 / result.rules.players
            lines.append(f"{100 * result.no_winner:.1f}% of the games stopped at max_deals="
                         f"{result.rules.max_deals} with no winner: no share counts them as won, so an even "
                         f"match wins {100 * even * (1 - result.no_winner):.1f}% of the games alone, not "
                         f"{100 * even:.1f}%")
    if result.precision is not None:
        state = "met" if result.precision_met else "NOT met (--cap reached)"
        lines.append(f"{result.rounds} round{'s' if result.rounds > 1 else ''} (--precision {result.precision:g}: "
                     f"{state}; the widest main interval is {result.worst_width():.3g} wide)")
    return "\n".join(line.rstrip() for line in lines)   # no padding after the last column
