"""How well the bots play: the open-hand value of played deals against what was taken.

For each played deal of a sample (every card of it traced), the open-hand solver gives
the value before every card (:mod:`thousand.lines`): the declarer's deal points with
every hand open from there on, points already taken included.  Per deal:

* ``hand_off_value``: the value of the declarer's best hand-off (2 players: lay-away)
  before it, every one of them tried (:func:`thousand.solver.best_hand_off`);
* ``start_value``: the value at the first lead (after the hand-off as played), and
  ``hand_off_loss = hand_off_value - start_value``, what the hand-off made gave away;
* ``taken``: the declarer's deal points at the end (the value after the last card);
* ``declarer_loss``: the sum over the declarer's cards of the value's drops, and
  ``defence_loss``: the sum over the defenders' cards of its rises, so that
  ``taken = start_value - declarer_loss + defence_loss`` (the open-hand value is a
  yardstick of perfect play with the cards in view: a loss is a card that gave points
  away against a perfect answer, not necessarily a mistake a player who cannot see the
  hands could avoid);
* ``makeable_hand_off`` / ``makeable_start`` / ``makeable_any``: the contract was
  makeable with the best hand-off / at the first lead / at some card of the play;
  ``beatable_start`` / ``beatable_any``: the defence could beat it at the first lead /
  at some card.

:func:`quality_table` sums them up by contract band (the losses' means with BCa bootstrap
intervals, which stay within the losses' support, shares with Wilson intervals,
:mod:`thousand.analysis.stats`).

The sample: :func:`play_sample` plays the first ``n`` deals of a run's first chunk (the
same deals as ``thousand simulate --seed S`` writes there: the same stream, traced) with
any strategies, or with ``same_decks`` the same cards for any strategies, and
:func:`line_quality` solves their lines on worker processes; the issue 14 ``pimc``
player is measured the same way by naming it in ``strategies`` (:func:`bot_play_quality`).
"""
from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass
from typing import Any, Callable, Sequence

import numpy as np
import polars as pl

from thousand.rules import Rules

__all__ = ["DEFAULT_PLAY_DEALS", "DEFAULT_DEFENCE_DEALS", "CONTRACT_BANDS", "PlaySample", "play_sample",
           "line_quality", "bot_play_quality", "defence_quality", "defence_ratio", "quality_table", "contract_band", "pooled"]

#: Deals the report solves by default (measured on 2 cores, see docs/analysis.md).
DEFAULT_PLAY_DEALS = 500
#: Deals the report plays again with a search player's defence (each costs three plays
#: with two ``pimc`` seats; docs/analysis.md has the measured time).
DEFAULT_DEFENCE_DEALS = 300
#: The per-deal losses :func:`quality_table` sums up: the hand-off's, the declarer's cards',
#: the defenders' cards'.
LOSSES = ("hand_off_loss", "declarer_loss", "defence_loss")
#: Lower edges of the contract bands (the last band is open above).
CONTRACT_BANDS = (100, 105, 125, 155)
#: Deals per worker task: small enough for a smooth progress bar, large enough that the
#: task's start-up is nothing next to its solves.
TASK_DEALS = 50


def contract_band(contract: pl.Expr | str) -> pl.Expr:
    """The band of a contract: ``"100"``, ``"105-120"``, ``"125-150"``, ``"155+"``.

    >>> pl.DataFrame({"c": [100, 110, 150, 240]}).select(contract_band("c")).to_series().to_list()
    ['100', '105-120', '125-150', '155+']
    """
    c = pl.col(contract) if isinstance(contract, str) else contract
    edges = CONTRACT_BANDS
    expr = pl.when(c < edges[1]).then(pl.lit(f"{edges[0]}" if edges[1] - edges[0] <= 5 else
                                             f"{edges[0]}-{edges[1] - 5}"))
    for lo, hi in zip(edges[1:-1], edges[2:]):
        expr = expr.when(c < hi).then(pl.lit(f"{lo}-{hi - 5}"))
    return expr.otherwise(pl.lit(f"{edges[-1]}+")).alias("band")


@dataclass(frozen=True)
class PlaySample:
    """Played deals with their lines: the kernel's columns of the sample's rows, and for
    each deal played out (not redealt, not resigned) its row and :class:`~thousand.lines.Line`."""

    rules: Rules
    strategies: tuple[str, ...]
    columns: dict[str, np.ndarray]
    rows: np.ndarray
    lines: list[Any]


def play_sample(rules: Rules, strategies: Sequence[str] | str | None, n_deals: int, seed: int = 1,
                chunk: int = 0, same_decks: bool = False) -> PlaySample:
    """Play ``n_deals`` deals with every card traced: the first ``n_deals`` of chunk
    ``chunk`` of a ``thousand simulate --seed seed`` run with these strategies (its stream,
    so the same deals as that run's rows).  With ``same_decks`` the strategies draw from
    a stream of their own (the kernel's ``decisions``), so the cards dealt depend on the
    seed alone: any two strategies get the same decks (not the run's rows, then)."""
    import numpy.random

    from thousand import kernel
    from thousand.lines import line_from_columns
    from thousand.runner.seeding import chunk_stream, decision_seed
    from thousand.simulate import normalize_strategies

    specs = normalize_strategies(strategies, rules.players)
    decisions = numpy.random.PCG64(decision_seed(seed, chunk)) if same_decks else None
    cols, events = kernel.play_deals(chunk_stream(seed, chunk), rules.to_kernel(), list(specs), n_deals=n_deals,
                                     trace=True, decisions=decisions)
    starts = np.searchsorted(events[:, 0], np.arange(len(cols["deal_id"]) + 1))
    rows, lines = [], []
    for i in range(len(cols["deal_id"])):
        line = line_from_columns(rules, cols, i, events[starts[i]:starts[i + 1], 1:])
        if line is not None:
            rows.append(i)
            lines.append(line)
    return PlaySample(rules, specs, cols, np.asarray(rows, dtype=np.int64), lines)


def pooled(fn: Any, tasks: list[Any], total: int, desc: str, jobs: int = 1, backend: str = "loky",
           progress: bool | None = None, size: Callable[[Any], int] = len) -> list[Any]:
    """``fn(task)`` for each task on the common worker pool (:func:`thousand.runner.run_tasks`),
    in task order, with a progress bar of ``total`` deals (``size`` of each result: its
    length) on a terminal: the open-hand solves of this module and of ``thousand bid --solve``."""
    from contextlib import closing

    from thousand.runner.pool import progress_bar, run_tasks

    out = []
    bar = progress_bar(total, "deal", desc=desc, progress=progress)
    try:
        with closing(run_tasks(fn, tasks, backend=backend, jobs=jobs, ordered=True)) as results:
            for part in results:
                out.append(part)
                if bar is not None:
                    bar.update(size(part))
    finally:
        if bar is not None:
            bar.close()
    return out


def _solve_task(task: tuple[Rules, list[np.ndarray], list[tuple]]) -> list[tuple[np.ndarray, int]]:
    """A worker's share: the values of every position of each deal's line, and the value of
    its best hand-off (one table)."""
    from thousand import solver

    rules, rows, before = task
    ws = solver.Workspace()
    return [(solver.solve_many(rules, r, None, workspace=ws), solver.best_hand_off(rules, *b, workspace=ws)[1])
            for r, b in zip(rows, before)]


def line_quality(sample: PlaySample, jobs: int = 1, backend: str = "loky", progress: bool | None = None
                 ) -> pl.DataFrame:
    """One row per deal of ``sample`` played out: its contract, what was taken, the
    open-hand value at the first lead, the declarer's and the defence's loss along the
    line, and whether the contract was makeable / beatable at the first lead and at any
    card.  The lines are solved on ``jobs`` workers of the common pool (with a progress
    bar on a terminal)."""
    from thousand.lines import LineValues, hand_off_of, solve_line_rows

    prepared = [solve_line_rows(line) for line in sample.lines]
    before = [hand_off_of(line, sample.columns, int(i)).args() for line, i in zip(sample.lines, sample.rows)]
    tasks = [(sample.rules, [rows for rows, _ in prepared[k:k + TASK_DEALS]], before[k:k + TASK_DEALS])
             for k in range(0, len(prepared), TASK_DEALS)]
    solved = pooled(_solve_task, tasks, len(prepared), "solving played deals", jobs=jobs, backend=backend,
                    progress=progress)
    values = [v for part in solved for v in part]
    out: dict[str, list[Any]] = {k: [] for k in (
        "row", "declarer", "contract", "taken", "hand_off_value", "start_value", "hand_off_loss", "declarer_loss",
        "defence_loss", "makeable_hand_off", "makeable_start", "makeable_any", "beatable_start", "beatable_any",
        "declarer_errors", "defence_errors")}
    for i, (line, (_, taken), (v, best)) in enumerate(zip(sample.lines, prepared, values)):
        lv = LineValues(line, np.append(v, np.int32(taken)).astype(np.int32))
        if best < lv.start_value:       # the hand-off made is one of those tried (a check, not a repair)
            raise AssertionError("a deal's best hand-off is worth less than the hand-off made")
        before = lv.values[:-1]
        costs = lv.costs()
        mine = np.array([s == line.declarer for s, _, _ in line.moves], dtype=bool)
        out["row"].append(int(sample.rows[i]))
        out["declarer"].append(line.declarer)
        out["contract"].append(line.contract)
        out["taken"].append(lv.taken)
        out["hand_off_value"].append(best)
        out["start_value"].append(lv.start_value)
        out["hand_off_loss"].append(best - lv.start_value)
        out["declarer_loss"].append(lv.declarer_loss)
        out["defence_loss"].append(lv.defence_loss)
        out["makeable_hand_off"].append(bool(best >= line.contract))
        out["makeable_start"].append(bool(before[0] >= line.contract))
        out["makeable_any"].append(bool((before >= line.contract).any()))
        out["beatable_start"].append(bool(before[0] < line.contract))
        out["beatable_any"].append(bool((before < line.contract).any()))
        out["declarer_errors"].append(int((costs[mine] > 0).sum()))
        out["defence_errors"].append(int((costs[~mine] > 0).sum()))
    frame = pl.DataFrame(out, schema={
        "row": pl.Int64, "declarer": pl.Int8, "contract": pl.Int16, "taken": pl.Int16, "hand_off_value": pl.Int16,
        "start_value": pl.Int16, "hand_off_loss": pl.Int16, "declarer_loss": pl.Int16, "defence_loss": pl.Int16,
        "makeable_hand_off": pl.Boolean, "makeable_start": pl.Boolean, "makeable_any": pl.Boolean,
        "beatable_start": pl.Boolean, "beatable_any": pl.Boolean,
        "declarer_errors": pl.Int8, "defence_errors": pl.Int8})
    # what the deal counted must be what the line's end is worth (a check, not a repair)
    counted = sample.columns["declarer_points"][sample.rows]
    if not np.array_equal(frame["taken"].to_numpy(), counted):
        raise AssertionError("the solved lines end with other points than the deals counted")
    return frame.with_columns(pl.lit(",".join(dict.fromkeys(sample.strategies))).alias("strategy"),
                              (pl.col("taken") >= pl.col("contract")).alias("made"))


def bot_play_quality(rules: Rules, strategies: Sequence[str] | str | None, n_deals: int, seed: int = 1,
                     jobs: int = 1, backend: str = "loky", progress: bool | None = None,
                     same_decks: bool = False) -> pl.DataFrame:
    """:func:`line_quality` of :func:`play_sample`: the per-deal frame of ``strategies``
    playing the first ``n_deals`` deals of a run with ``seed``.  To compare two players
    on the same cards (the issue 14 ``pimc`` against ``standard``), call it once for each
    with ``same_decks=True`` and give :func:`quality_table` both frames concatenated."""
    return line_quality(play_sample(rules, strategies, n_deals, seed, same_decks=same_decks), jobs=jobs,
                        backend=backend, progress=progress)


def _play_task(task: tuple[Rules, list[str], int, int]) -> PlaySample:
    rules, specs, n_deals, seed = task
    return play_sample(rules, specs, n_deals, seed, same_decks=True)


def defence_quality(rules: Rules, base: str, defender: str, n_deals: int, seed: int = 1, jobs: int = 1,
                    backend: str = "loky", progress: bool | None = None) -> pl.DataFrame:
    """The same decks played twice: ``base`` at every seat, and ``base`` declaring against
    ``defender`` defending; the per-deal frames of both (:func:`line_quality`), labelled
    ``base`` and ``"<base> v <defender>"``, deal for deal on the same cards.

    A strategy is given per seat, not per role, so the second table is played once for
    each seat ``d`` with ``base`` at ``d`` and ``defender`` at the others, and each pass
    keeps the deals that ``d`` declares.  The auction, the redeals and the talon must not
    depend on who defends (``pimc`` bids, goes blind and asks for redeals as ``standard``;
    every strategy draws on its own decision stream, so the decks are the seed's): this
    is checked, deal by deal, and a defender that changes them is refused."""
    from thousand.errors import ThousandError

    players = rules.players
    passes = [[base] * players] + [[base if s == d else defender for s in range(players)] for d in range(players)]
    # the plays (the defender's search is the cost) side by side, one pass a task
    played = pooled(_play_task, [(rules, specs, n_deals, seed) for specs in passes], len(passes) * n_deals,
                    f"playing {n_deals:,} deals against {defender}", jobs=jobs, backend=backend, progress=progress,
                    size=lambda sample: n_deals)
    own = played[0]
    # what must not depend on the defence: every deal's cards and auction, and on the
    # deals the base declares, his talon play (hand-off, contract, resignation)
    auction = [c for c in own.columns if c.startswith(("hand", "bid")) and c[-1].isdigit()]
    auction += [c for c in ("talon", "talon2", "redeal", "blind", "declarer", "winning_bid") if c in own.columns]
    declarers = [c for c in ("contract", "resigned", "handoff_next", "handoff_other") if c in own.columns]
    parts = [line_quality(own, jobs=jobs, backend=backend, progress=progress)]
    picked = []
    for d in range(players):
        other = played[1 + d]
        at_d = own.columns["declarer"] == d
        for col in auction + declarers:
            a, b = own.columns[col], other.columns[col]
            if not (np.array_equal(a, b) if col in auction else np.array_equal(a[at_d], b[at_d])):
                raise ThousandError(f"{defender!r} defending changes the deals' {col} (its auction and talon play must "
                                    f"be the base strategy's): the defence cannot be compared on the same deals")
        mine = [i for i, line in enumerate(other.lines) if line.declarer == d]
        picked.append(PlaySample(rules, other.strategies, other.columns, other.rows[mine],
                                 [other.lines[i] for i in mine]))
    label = f"{base} v {defender}"
    frames = [line_quality(p, jobs=jobs, backend=backend, progress=progress) for p in picked if len(p.lines)]
    defended = pl.concat(frames).sort("row") if frames else parts[0].clear()
    parts.append(defended.with_columns(pl.lit(label).alias("strategy")))
    return pl.concat(parts)


def defence_ratio(per_deal: pl.DataFrame, base: str, defended: str, confidence: float = 0.95) -> Any:
    """The defenders' loss against open-hand play of ``defended`` over ``base``'s, on the
    deals both played out (:func:`defence_quality`'s frame): ``sum / sum`` deal by deal,
    with a delta-method interval clustered by deal (:func:`thousand.analysis.stats.ratio_estimate`).

    >>> f = pl.DataFrame({"strategy": ["s", "s", "s", "s v p", "s v p", "s v p"],
    ...                   "row": [0, 1, 2, 0, 1, 2], "defence_loss": [10, 20, 30, 5, 10, 15]})
    >>> round(defence_ratio(f, "s", "s v p").value, 3)
    0.5
    """
    from thousand.analysis.stats import ratio_estimate

    a = per_deal.filter(pl.col("strategy") == base).select("row", "defence_loss")
    b = per_deal.filter(pl.col("strategy") == defended).select("row", pl.col("defence_loss").alias("defended"))
    pairs = a.join(b, on="row", how="inner")
    est = ratio_estimate(pairs["defended"].to_numpy(), pairs["defence_loss"].to_numpy(), confidence=confidence)
    # losses are never negative, nor is their ratio: the interval is cut at 0 (10 deals
    # gave [-0.06, 0.76]); the true ratio lies above, so no coverage is lost
    if math.isfinite(est.low) and est.low < 0:
        est = dataclasses.replace(est, low=0.0)
    return est


def quality_table(per_deal: pl.LazyFrame | pl.DataFrame, seed: int = 0) -> pl.DataFrame:
    """By strategy and contract band (and ``all``): deals, mean value of the best hand-off
    and at the first lead, mean points taken, mean hand-off's, declarer's and defence's
    loss (95% BCa bootstrap intervals,
    :func:`~thousand.analysis.stats.bootstrap_mean_interval` from ``seed``: a loss is never
    negative and its distribution is skewed, so a t interval's lower end could fall below
    0; null where the band has fewer than 2 deals or all its losses are equal), and the
    shares of failed contracts makeable with the best hand-off / at the first lead / at
    some card and of made contracts the defence could have beaten at the first lead / at
    some card (95% Wilson intervals)."""
    from thousand.analysis.stats import bootstrap_mean_interval, wilson_exprs

    lf = per_deal.lazy() if isinstance(per_deal, pl.DataFrame) else per_deal
    # the band's index orders the rows (``all`` last)
    index = pl.sum_horizontal([(pl.col("contract") >= lo).cast(pl.Int32) for lo in CONTRACT_BANDS]) - 1
    lf = lf.with_columns(contract_band("contract"), index.alias("_order"))
    losses = lf.select("strategy", "band", *LOSSES).collect()
    failed, made = ~pl.col("made"), pl.col("made")
    aggs = [
        pl.len().cast(pl.Int64).alias("deals"),
        *[pl.col(c).cast(pl.Int64).sum().alias(f"_sum_{c}") for c in ("hand_off_value", "start_value", "taken")],
        # exact integer sums (a float sum's order, hence its last digits, depends on threads)
        *[e for col in LOSSES
          for e in (pl.col(col).cast(pl.Int64).sum().alias(f"_sum_{col}"),
                    (pl.col(col).cast(pl.Int64) ** 2).sum().alias(f"_sq_{col}"))],
        failed.cast(pl.Int64).sum().alias("failed"),
        (failed & pl.col("makeable_hand_off")).cast(pl.Int64).sum().alias("failed_makeable_hand_off"),
        (failed & pl.col("makeable_start")).cast(pl.Int64).sum().alias("failed_makeable_start"),
        (failed & pl.col("makeable_any")).cast(pl.Int64).sum().alias("failed_makeable_any"),
        made.cast(pl.Int64).sum().alias("made"),
        (made & pl.col("beatable_start")).cast(pl.Int64).sum().alias("made_beatable_start"),
        (made & pl.col("beatable_any")).cast(pl.Int64).sum().alias("made_beatable_any"),
    ]
    by_band = lf.group_by("strategy", "band", "_order").agg(aggs)
    overall = lf.group_by("strategy").agg(aggs).with_columns(pl.lit("all").alias("band"),
                                                             pl.lit(len(CONTRACT_BANDS), pl.Int32).alias("_order"))
    table = (pl.concat([by_band, overall.select(by_band.collect_schema().names())])
             .sort("strategy", "_order").drop("_order"))
    shares = []
    for k, n in (("failed_makeable_hand_off", "failed"), ("failed_makeable_start", "failed"),
                 ("failed_makeable_any", "failed"),
                 ("made_beatable_start", "made"), ("made_beatable_any", "made")):
        lo, hi = wilson_exprs(k, n)
        shares += [(pl.col(k) / pl.col(n)).alias(f"{k}_share"), lo.alias(f"{k}_ci_low"), hi.alias(f"{k}_ci_high")]
    n = pl.col("deals").cast(pl.Float64)
    moments = [(pl.col(f"_sum_{c}") / n).alias(f"mean_{c}") for c in ("hand_off_value", "start_value", "taken")]
    for c in LOSSES:
        moments.append((pl.col(f"_sum_{c}") / n).alias(f"mean_{c}"))
        var = ((pl.col("deals") * pl.col(f"_sq_{c}") - pl.col(f"_sum_{c}") ** 2).cast(pl.Float64)
               / (n * (n - 1)))
        moments.append(pl.when(pl.col("deals") >= 2).then(var.sqrt()).otherwise(None).alias(f"sd_{c}"))
    out = (table.with_columns(moments).with_columns(shares)
           .select(pl.exclude("^_.*$")).collect())
    for col in LOSSES:
        bounds = []
        for strategy, band in zip(out["strategy"], out["band"]):
            rows = losses.filter(pl.col("strategy") == strategy)
            if band != "all":
                rows = rows.filter(pl.col("band") == band)
            bounds.append(bootstrap_mean_interval(rows[col].to_numpy(), seed=seed))
        lo, hi = (pl.Series([None if np.isnan(b[k]) else b[k] for b in bounds], dtype=pl.Float64) for k in (0, 1))
        out = out.with_columns(lo.alias(f"mean_{col}_ci_low"), hi.alias(f"mean_{col}_ci_high"))
    first = ["strategy", "band", "deals", "mean_hand_off_value", "mean_start_value", "mean_taken"]
    first += [f"{p}{c}{q}" for c in LOSSES
              for p, q in (("mean_", ""), ("mean_", "_ci_low"), ("mean_", "_ci_high"), ("sd_", ""))]
    return out.select(*first, pl.exclude(first))
