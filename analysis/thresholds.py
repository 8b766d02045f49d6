"""Bidding thresholds: how high hands of each kind can bid, and a rule of thumb.

Data: *forced-declarer* runs over many random hands.  Every hand is made declarer at
every seat in turn (forehand, middle, rear) with the auction skipped, and the unseen 17
cards are dealt at random ``samples_per_hand`` times; so the figures describe the hand,
not the hands that happened to win an auction.  :func:`simulate_forced_hands` produces
one row per played completion::

    hand_id  hand (u32 mask)  role ("forehand"/"middle"/"rear")  points (declarer deal points)

Pipeline (each step takes that frame, eager or lazy):

* :func:`add_hand_features` -- card points, marriage value, aces, aces with their ten,
  and the class bands used in the tables;
* :func:`threshold_table` -- per hand class, the highest bid made with probability
  0.5 / 0.7 / 0.8 / 0.9 (pooled over the class), with a bootstrap interval over hands;
* :func:`plot_threshold_heatmap` -- the 0.8 threshold by card points and marriage value;
* :func:`fit_rule_of_thumb` -- a linear rule "safe bid = a + b points + c marriages + ..."
  fitted on 70% of the hands and scored on the other 30%.

"Made with probability q" for bid ``b``: the share of completions in which the declarer's
points reach ``b`` is at least ``q``.  A bid above the rules' cap for the class (120
without a marriage, 120 + the smallest marriage value in the class) is not offered; a
class that cannot reach 100 with probability ``q`` shows ``null`` ("pass").
"""
from __future__ import annotations

import contextlib
import math
import numbers
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Sequence

import numpy as np
import polars as pl

from thousand.analysis.stats import bootstrap_counts, level_percent, percentile_interval
from thousand.cards import ACE, KING, MARRIAGE_VALUES, QUEEN, RANK_PLANE, RANK_POINTS, TEN
from thousand.rules import CLASSIC, Rules

__all__ = [
    "ROLES", "PROBABILITIES", "CLASS_COLUMNS", "MIN_HANDS", "simulate_forced_hands", "add_hand_features",
    "hand_outcomes", "threshold_table", "plot_threshold_heatmap", "threshold_heatmap_figure", "fit_rule_of_thumb",
    "RuleOfThumb", "random_hands", "THIN_HANDS",
]

ROLES = ("forehand", "middle", "rear")
PROBABILITIES = (0.5, 0.7, 0.8, 0.9)
CLASS_COLUMNS = ("points_band", "marriage_value", "aces", "aces_with_ten")
#: Card-point bands of a 7-card hand (it holds 0 to 74).
POINT_BANDS = (0, 20, 30, 40, 50)
# Together two or more marriages of a 7-card hand (at most three) are worth from the two
# smallest to the three largest values: a class of its own, not a value next to the single ones.
_SEVERAL = (sum(sorted(MARRIAGE_VALUES)[:2]), sum(sorted(MARRIAGE_VALUES)[-3:]))
TWO_OR_MORE_MARRIAGES = f"2+ ({_SEVERAL[0]}-{_SEVERAL[1]})"
#: ``marriage_value`` classes, in order: no marriage, the value of the one held, or two or more.
MARRIAGE_CLASSES = ("none", *(str(v) for v in sorted(MARRIAGE_VALUES)), TWO_OR_MORE_MARRIAGES)
RULE_FEATURES = ("points", "marriage_points", "aces", "aces_with_ten")
#: Fewest distinct hands a class needs for a threshold (fewer: left out, too noisy).
MIN_HANDS = 10
#: Classes with fewer distinct hands than this are marked as thin on the heatmap: their
#: threshold moves by a bid step or more from one run of hands to the next.
THIN_HANDS = 30

# The simulator the thresholds run on: (hand, role, bitgen, n) -> declarer points per completion.
Simulator = Callable[[int, str, np.random.BitGenerator, int], np.ndarray]


# --------------------------------------------------------------------- simulation
def random_hands(bitgen: np.random.BitGenerator, n: int) -> np.ndarray:
    """``n`` uniform 7-card hands as masks, each the first seven cards of a shuffled deck.

    Reads the raw stream like the engines do (``docs/rules.md``: Fisher-Yates with
    Lemire-bounded draws), so hands depend only on the bit generator's state.
    """
    from thousand.reference.rng import Stream

    stream = Stream(bitgen)
    out = np.empty(n, dtype=np.uint32)
    for i in range(n):
        deck = stream.shuffle()
        out[i] = sum(1 << c for c in deck[:7])
    return out


def _kernel_simulator(rules: Rules, strategies: Any) -> Simulator:
    from thousand.analysis.bids import simulate_hand

    def run(hand: int, role: str, bitgen: np.random.BitGenerator, n: int) -> np.ndarray:
        return simulate_hand(hand, rules, role, strategies, samples=n, seed=bitgen).points
    return run


def _simulate_chunk(seed_seq: np.random.SeedSequence, first_id: int, n_hands: int, samples: int,
                    roles: Sequence[str], simulator: Simulator) -> pl.DataFrame:
    bitgen = np.random.PCG64(seed_seq)
    hands = random_hands(bitgen, n_hands)
    ids, hand_col, role_col, pts = [], [], [], []
    for i, h in enumerate(hands):
        for role in roles:
            p = np.asarray(simulator(int(h), role, bitgen, samples), dtype=np.int16)
            ids.append(np.full(len(p), first_id + i, dtype=np.int32))
            hand_col.append(np.full(len(p), h, dtype=np.uint32))
            role_col.append(np.full(len(p), ROLES.index(role), dtype=np.int8))
            pts.append(p)
    return pl.DataFrame({
        "hand_id": np.concatenate(ids), "hand": np.concatenate(hand_col),
        "role": pl.Series(np.concatenate(role_col)).replace_strict(dict(enumerate(ROLES)), return_dtype=pl.String),
        "points": np.concatenate(pts),
    })


@dataclass(frozen=True)
class _HandsChunk:
    """Chunk ``index`` of a forced-declarer run: hands ``start .. start + size - 1``."""

    index: int
    start: int
    size: int
    seed: int
    samples: int
    roles: tuple[str, ...]
    simulator: Simulator
    store: str | None     # the run's store, if it has one
    token: str | None     # the store's writer token of this session
    kept: bool            # the store holds this chunk already (checked when it was opened)


def _stored_chunk(task: _HandsChunk) -> pl.DataFrame:
    """:func:`_simulate_chunk` of the task, read back from its store when it is there, else
    computed, written (whole or not at all) and recorded, so that an interrupted run loses
    no finished chunk."""
    from thousand.runner.seeding import chunk_seed
    from thousand.runner.store import chunk_file, write_frame

    if task.kept:
        return pl.read_parquet(Path(task.store) / chunk_file(task.index))
    frame = _simulate_chunk(chunk_seed(task.seed, task.index), task.start, task.size, task.samples, task.roles,
                            task.simulator)
    if task.store is not None:
        write_frame(frame, task.store, task.index, task.token)
    return frame


#: What must agree before a store of forced-declarer chunks is continued.
FORCED_RESUME_KEYS = ("format", "kind", "rows", "n", "chunk_size", "n_chunks", "seed", "rules_hash", "strategies",
                      "samples", "roles", "version", "kernel_version")


def forced_hands_metadata(rules: Rules, n_hands: int, samples_per_hand: int, seed: int, strategies: Any = None,
                          roles: Sequence[str] = ROLES, chunk_hands: int = 50) -> dict[str, Any]:
    """The ``metadata.json`` of a store of forced-declarer chunks: what determines them."""
    from thousand import __version__
    from thousand.runner.store import FORMAT_VERSION

    try:
        from thousand import kernel
        kernel_version = kernel.KERNEL_VERSION
    except ImportError:
        kernel_version = None
    if strategies is not None and not isinstance(strategies, str):
        strategies = list(strategies)
    return {"format": FORMAT_VERSION, "kind": "forced_hands", "rows": "completions", "n": int(n_hands),
            "chunk_size": int(chunk_hands), "n_chunks": math.ceil(n_hands / chunk_hands), "first_chunk": 0,
            "seed": int(seed), "rules_hash": rules.hash, "strategies": strategies, "samples": int(samples_per_hand),
            "roles": list(roles), "version": __version__, "kernel_version": kernel_version, "status": "running"}


def simulate_forced_hands(rules: Rules = CLASSIC, n_hands: int = 2000, samples_per_hand: int = 200,
                          seed: int = 1, strategies: Any = None, roles: Sequence[str] = ROLES,
                          jobs: int = 1, chunk_hands: int = 50, simulator: Simulator | None = None,
                          chunk_dir: str | os.PathLike | None = None) -> pl.DataFrame:
    """Random hands made declarer at every seat; one row per played completion.

    Parameters
    ----------
    rules : Rules
        The rule set the kernel plays.
    n_hands : int
        Random 7-card hands; each is played ``samples_per_hand`` times at each role.
    seed : int
        Root seed.  Chunk ``k`` of ``chunk_hands`` hands draws its hands and completions
        from the runner's chunk stream ``SeedSequence(seed).spawn(n_chunks)[k]``, so the
        frame is the same for any ``jobs``.
    simulator : callable, optional
        ``(hand, role, bitgen, n) -> points``; default the kernel's forced-declarer mode.
    chunk_dir : path, optional
        A store of the runner (:mod:`thousand.runner.store`) for the chunks: each is kept
        there as soon as it is computed, and a run called again with the same arguments
        continues the store, computing only the chunks missing (a store of other
        arguments is refused).

    Returns
    -------
    polars.DataFrame
        ``hand_id`` (i32), ``hand`` (u32 mask), ``role`` (str), ``points`` (i16).
    """
    from thousand.runner.pool import run_tasks
    from thousand.runner.seeding import chunk_bounds, chunk_stream
    from thousand.runner.store import ChunkStore

    if n_hands < 1 or samples_per_hand < 1:
        raise ValueError("n_hands and samples_per_hand must be positive")
    for r in roles:
        if r not in ROLES:
            raise ValueError(f"role must be one of {ROLES}, got {r!r}")
    sim = simulator or _kernel_simulator(rules, strategies)
    bounds = chunk_bounds(n_hands, chunk_hands)
    with contextlib.ExitStack() as claims:
        store, kept = None, set()
        if chunk_dir is not None:
            store = claims.enter_context(ChunkStore(
                chunk_dir, forced_hands_metadata(rules, n_hands, samples_per_hand, seed, strategies, roles,
                                                 chunk_hands), FORCED_RESUME_KEYS, option="chunk_dir"))
            store.prepare(resume=True)

            def first_row(k: int) -> pl.DataFrame:
                # A chunk begins with its first hand (drawn first from the chunk's stream) at the first role.
                return pl.DataFrame({"hand_id": np.array([bounds[k][0]], dtype=np.int32),
                                     "hand": random_hands(chunk_stream(seed, k), 1), "role": [roles[0]]})
            kept = store.open(first_row, partial=True)
        tasks = [_HandsChunk(k, start, size, seed, samples_per_hand, tuple(roles), sim,
                             None if store is None else os.fspath(store.path), None if store is None else store.token,
                             k in kept)
                 for k, (start, size) in enumerate(bounds)]
        with contextlib.closing(run_tasks(_stored_chunk, tasks, jobs=jobs, ordered=True)) as frames:
            hands = pl.concat(list(frames))
        if store is not None:
            store.complete()
    return hands


# --------------------------------------------------------------------- features and classes
def _count(expr: pl.Expr, mask: int) -> pl.Expr:
    return (expr & mask).bitwise_count_ones().cast(pl.Int32)


def add_hand_features(lf: pl.LazyFrame | pl.DataFrame) -> pl.LazyFrame:
    """Add the hand's features and class bands, computed from the ``hand`` mask column.

    ``points``-named columns would clash with the per-completion points, so the hand's
    card points are ``hand_points``.  Class columns: ``points_band`` ("<20", "20-29", ...,
    "50+"), ``marriage_value`` ("none", the value of the one marriage held: "40", "60",
    "80", "100", or "2+ (100-240)" for two or more marriages, whatever they add up to;
    :data:`MARRIAGE_CLASSES`), ``aces`` (0..3, 3 meaning 3 or 4), ``aces_with_ten`` (0, 1,
    2 meaning 2+).  The total is ``marriage_points``.

    >>> df = pl.DataFrame({"hand": [0b110000_001100_000000_000000]}, schema={"hand": pl.UInt32})
    >>> add_hand_features(df).collect().select("hand_points", "marriage_points", "aces", "aces_with_ten").row(0)
    (28, 80, 1, 1)
    """
    h = pl.col("hand").cast(pl.UInt32)
    pts = sum(RANK_POINTS[r] * _count(h, RANK_PLANE[r]) for r in range(6))
    marriage = sum(MARRIAGE_VALUES[s] * (_count(h, (1 << (6 * s + QUEEN)) | (1 << (6 * s + KING))) == 2).cast(pl.Int32)
                   for s in range(4))
    aces_ten = _count(h & (h * 2), RANK_PLANE[ACE])  # an ace whose ten (one bit below) is held
    lf = lf.lazy().with_columns(
        hand_points=pts,
        marriage_points=marriage,
        marriages=sum((_count(h, (1 << (6 * s + QUEEN)) | (1 << (6 * s + KING))) == 2).cast(pl.Int32) for s in range(4)),
        aces_held=_count(h, RANK_PLANE[ACE]),
        tens=_count(h, RANK_PLANE[TEN]),
        aces_with_ten_held=aces_ten,
    )
    band = pl.when(pl.col("hand_points") < 20).then(pl.lit("<20"))
    for lo, hi in zip(POINT_BANDS[1:-1], POINT_BANDS[2:]):
        band = band.when(pl.col("hand_points") < hi).then(pl.lit(f"{lo}-{hi - 1}"))
    band = band.otherwise(pl.lit(f"{POINT_BANDS[-1]}+")).cast(pl.Enum(band_order()))  # sorts low to high
    return lf.with_columns(
        points_band=band,
        marriage_value=pl.when(pl.col("marriages") >= 2).then(pl.lit(TWO_OR_MORE_MARRIAGES))
        .when(pl.col("marriages") == 0).then(pl.lit("none"))
        .otherwise(pl.col("marriage_points").cast(pl.String)).cast(pl.Enum(MARRIAGE_CLASSES)),  # sorts in that order
        aces=pl.min_horizontal(pl.col("aces_held"), 3),
        aces_with_ten=pl.min_horizontal(pl.col("aces_with_ten_held"), 2),
    )


def band_order() -> list[str]:
    """The ``points_band`` labels, low to high."""
    return ["<20"] + [f"{lo}-{hi - 1}" for lo, hi in zip(POINT_BANDS[1:-1], POINT_BANDS[2:])] + [f"{POINT_BANDS[-1]}+"]


# --------------------------------------------------------------------- per hand
def _survival(df: pl.DataFrame) -> tuple[pl.DataFrame, np.ndarray]:
    """Per (hand_id, role): the keys and ``S[i, x]`` = completions with points >= x."""
    keys = df.select("hand_id", "role").unique(maintain_order=False).sort("hand_id", "role")
    keyed = df.join(keys.with_row_index("_row"), on=["hand_id", "role"], how="left")
    idx = keyed["_row"].to_numpy().astype(np.int64)
    pts = np.clip(keyed["points"].to_numpy().astype(np.int64), 0, None)
    width = int(pts.max()) + 2
    counts = np.bincount(idx * width + pts, minlength=len(keys) * width).reshape(len(keys), width)
    surv = np.cumsum(counts[:, ::-1], axis=1)[:, ::-1]
    return keys, surv


def _bid_cap_of(marriage_points: np.ndarray, rules: Rules) -> np.ndarray:
    # As thousand.reference.legal.bid_cap, vectorised over hands.
    if rules.bid_cap == "none":
        from thousand.reference.legal import no_cap
        return np.full(len(marriage_points), no_cap(rules), dtype=np.int64)
    return 120 + np.asarray(marriage_points, dtype=np.int64)


def _threshold(surv: np.ndarray, n: np.ndarray, q: float, cap: np.ndarray, step: int) -> np.ndarray:
    """Highest bid (100, 100+step, ... <= cap) with surv[b] >= q n; -1 when even 100 fails."""
    x_max = (surv >= q * n[:, None] - 1e-9).sum(axis=1) - 1  # largest x with P(points >= x) >= q
    top = np.minimum(x_max, cap)
    bid = 100 + ((top - 100) // step) * step
    return np.where(top >= 100, bid, -1)


def hand_outcomes(lf: pl.LazyFrame | pl.DataFrame, rules: Rules = CLASSIC,
                  probabilities: Sequence[float] = PROBABILITIES) -> pl.DataFrame:
    """One row per (hand, role): features, completions, mean points, and per probability q
    the bid made with probability q (``bid_80``; null below 100) and the uncapped points
    level ``level_80`` (the largest x with P(points >= x) >= q: the regression target).
    """
    df, probabilities = _completions(lf, probabilities)
    keys, surv = _survival(df)
    n = surv[:, 0]
    per = df.group_by("hand_id", "role").agg(pl.col("hand").first(), pl.col("points").mean().alias("mean_points"))
    out = keys.join(per, on=["hand_id", "role"], how="left", maintain_order="left")  # rows stay aligned with surv
    out = add_hand_features(out).collect()
    cap = _bid_cap_of(out["marriage_points"].to_numpy(), rules)
    cols = {"completions": n}
    for q in probabilities:
        tag = _tag(q)
        level = (surv >= q * n[:, None] - 1e-9).sum(axis=1) - 1
        cols[f"level_{tag}"] = level
        cols[f"bid_{tag}"] = _threshold(surv, n, q, cap, rules.bid_step)
    out = out.with_columns([pl.Series(k, np.asarray(v, dtype=np.int64)) for k, v in cols.items()])
    return out.with_columns(
        [pl.when(pl.col(f"bid_{_tag(q)}") >= 0).then(pl.col(f"bid_{_tag(q)}")).alias(f"bid_{_tag(q)}")
         for q in probabilities]).with_columns(bid_cap=pl.Series(cap, dtype=pl.Int64))


def _tag(q: float) -> str:
    return f"{round(q * 100):02d}"


def _completions(lf: pl.LazyFrame | pl.DataFrame, probabilities: Sequence[float] | float,
                 name: str = "probabilities") -> tuple[pl.DataFrame, tuple[float, ...]]:
    """The completions' columns the thresholds read, and the probabilities as a tuple (one
    given alone is a tuple of one), after checking them: each in (0, 1) and a whole percent
    of its own (its columns are named by it: 0.751 and 0.754 would both be ``bid_75``), and
    at least one completion."""
    qs = (probabilities,) if isinstance(probabilities, numbers.Real) else tuple(probabilities)
    for q in qs:
        if isinstance(q, (str, bool)) or not isinstance(q, numbers.Real) or not 0.0 < float(q) < 1.0:
            raise ValueError(f"{name} must lie between 0 and 1, got {q!r}")
    tags = [_tag(q) for q in qs]
    if len(set(tags)) < len(tags):
        raise ValueError(f"{name} {list(qs)} name the same columns (whole percents: {tags})")
    df = lf.lazy().select("hand_id", "hand", "role", "points").collect()
    if df.height == 0:
        raise ValueError("no completions: the frame has no rows")
    return df, qs


# --------------------------------------------------------------------- the table
def threshold_table(lf: pl.LazyFrame | pl.DataFrame, rules: Rules = CLASSIC,
                    by: Sequence[str] = CLASS_COLUMNS, probabilities: Sequence[float] = PROBABILITIES,
                    min_hands: int = MIN_HANDS, n_boot: int = 200, seed: int = 0) -> pl.DataFrame:
    """Highest bid made with each probability, by hand class.

    Parameters
    ----------
    lf : frame
        Completions (``hand_id``, ``hand``, ``role``, ``points``), as written by
        :func:`simulate_forced_hands`.
    by : columns
        Class columns of :func:`add_hand_features` (default all four).
    min_hands : int
        Classes with fewer distinct hands are left out (too noisy).  A hand counts once
        however many seats it was played at: its seats are not independent samples.
    n_boot : int
        Bootstrap replicates over hands (a hand's seats stay together) for the 95% interval
        of each threshold (0: none).

    Returns
    -------
    polars.DataFrame
        Class columns, ``hands`` (distinct hands), ``hand_seats`` ((hand, seat) rows: a
        hand played at all three seats counts three times), ``completions``, ``mean_points``,
        ``p_100`` (the share of completions whose points reach 100, the lowest bid), and per
        probability ``bid_50``... (null: even 100 is below, i.e. pass) with
        ``bid_50_low``/``bid_50_high`` (bootstrap 2.5%/97.5%; null likewise), ``p_at_bid_50``,
        the pooled P(make) at that bid, and ``level_50``, the points reached with that
        probability before the 100 floor and the cap (so weak classes still differ).
    """
    if isinstance(by, str):
        by = [by]
    if min_hands < 1:
        raise ValueError(f"min_hands must be at least 1, got {min_hands}")
    df, probabilities = _completions(lf, probabilities)
    keys, surv = _survival(df)
    feats = add_hand_features(keys.join(df.group_by("hand_id", "role").agg(pl.col("hand").first()),
                                        on=["hand_id", "role"], how="left", maintain_order="left")).collect()
    # Row i of feats must describe row i of surv.
    assert feats.select("hand_id", "role").equals(keys.select("hand_id", "role"))
    by = list(by)
    groups = feats.with_row_index("_row").group_by(by, maintain_order=False).agg(
        pl.col("_row"), pl.col("marriage_points").min().alias("_mp"))
    rng = np.random.default_rng(seed)
    hand_ids = feats["hand_id"].to_numpy()
    rows = []
    for g in groups.sort(by).iter_rows(named=True):
        idx = np.asarray(g["_row"], dtype=np.int64)
        # A hand's class does not depend on the seat, so all its seats are rows of this class.
        _, hand_of_row = np.unique(hand_ids[idx], return_inverse=True)
        n_units = int(hand_of_row.max()) + 1
        if n_units < min_hands:
            continue
        s = surv[idx]
        pooled = s.sum(axis=0)
        n = pooled[0]
        cap = _bid_cap_of(np.array([g["_mp"]]), rules)
        row: dict[str, Any] = {k: g[k] for k in by}
        row.update(hands=n_units, hand_seats=len(idx), completions=int(n),
                   mean_points=float(pooled[1:].sum() / n),  # E[D] = sum over x >= 1 of P(D >= x)
                   p_100=float(pooled[100] / n) if len(pooled) > 100 else 0.0)
        if n_boot:
            # Resample hands, not completions or seats: the completions of one hand, and its
            # three seats, are not independent.  Each row takes its hand's draw count.
            draws = bootstrap_counts(rng, np.ones(n_units, dtype=np.int64), n_boot)
            boot = draws[:, hand_of_row] @ s
        for q in probabilities:
            tag = _tag(q)
            b = int(_threshold(pooled[None, :], np.array([n]), q, cap, rules.bid_step)[0])
            row[f"level_{tag}"] = int((pooled >= q * n - 1e-9).sum() - 1)
            row[f"bid_{tag}"] = None if b < 0 else b
            row[f"p_at_bid_{tag}"] = None if b < 0 else float(pooled[min(b, len(pooled) - 1)] / n) if b < len(pooled) else 0.0
            if n_boot:
                bb = _threshold(boot, boot[:, 0], q, np.full(n_boot, cap[0]), rules.bid_step)
                lo, hi = percentile_interval(bb, 0.95, whole=True)
                row[f"bid_{tag}_low"] = None if lo < 0 else int(lo)
                row[f"bid_{tag}_high"] = None if hi < 0 else int(hi)
        rows.append(row)
    schema: dict[str, Any] = {k: feats.schema[k] for k in by}
    schema.update(hands=pl.Int64, hand_seats=pl.Int64, completions=pl.Int64, mean_points=pl.Float64,
                  p_100=pl.Float64)
    for q in probabilities:
        tag = _tag(q)
        schema[f"bid_{tag}"] = pl.Int64
        schema[f"level_{tag}"] = pl.Int64
        schema[f"p_at_bid_{tag}"] = pl.Float64
        if n_boot:
            schema[f"bid_{tag}_low"] = pl.Int64
            schema[f"bid_{tag}_high"] = pl.Int64
    return pl.DataFrame(rows, schema=schema, orient="row")


# --------------------------------------------------------------------- heatmap
def plot_threshold_heatmap(df: pl.DataFrame, path: Any, probability: float = 0.8,
                           rows: str = "points_band", cols: str = "marriage_value",
                           title: str | None = None) -> None:
    """Heatmap of the threshold bid (``bid_80``) over two class columns, cells annotated.

    ``df`` is :func:`threshold_table` grouped ``by=(rows, cols)``.  Each cell shows the bid
    made with ``probability`` (or "pass"), with its bootstrap interval when the table has
    one, how often the class reaches 100 (``p_100``, also the colour), the median points
    and the number of distinct hands; a class of fewer than :data:`THIN_HANDS` hands is
    hatched, a blank cell has fewer than ``MIN_HANDS``.
    """
    import matplotlib.pyplot as plt

    from thousand.analysis.charts import save_figure

    fig = threshold_heatmap_figure(df, probability, rows, cols, title)
    try:
        save_figure(fig, path, dpi=120)
    finally:
        plt.close(fig)


# The heatmap's figure never gets smaller than this (inches): its title, axis labels and
# colour-bar label are as long for one cell as for thirty, and a figure sized by the grid
# alone cut them off for small runs.
HEATMAP_MIN_SIZE = (7.5, 5.0)


def threshold_heatmap_figure(df: pl.DataFrame, probability: float = 0.8, rows: str = "points_band",
                             cols: str = "marriage_value", title: str | None = None) -> Any:
    """The figure :func:`plot_threshold_heatmap` saves (the caller closes it).

    The colour is ``p_100``, the share of deals in which the class reaches 100, on a scale
    that turns at ``probability``: a class coloured on the bidding side makes the lowest
    bid that often, so it bids.  Unlike a low quantile of the points (what the 80% level
    is), a share moves smoothly when a class's points have two humps -- weak hands with
    marriages either declare them or end near 0 -- so neighbouring classes compare fairly.
    """
    import textwrap

    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.colors import TwoSlopeNorm
    from matplotlib.patches import Rectangle

    col = f"bid_{_tag(probability)}"
    median_col = "level_50"
    def ordered(name: str) -> list[Any]:
        present = set(df[name])
        dtype = df.schema[name]
        if isinstance(dtype, pl.Enum):  # the classes' own order, not the alphabet's
            return [v for v in dtype.categories.to_list() if v in present]
        order = {"points_band": band_order(), "marriage_value": list(MARRIAGE_CLASSES)}.get(name)
        return [v for v in order if v in present] if order else sorted(present)
    row_vals, col_vals = ordered(rows), ordered(cols)
    grid = np.full((len(row_vals), len(col_vals)), np.nan)
    text = [["" for _ in col_vals] for _ in row_vals]
    thin = np.zeros(grid.shape, dtype=bool)
    shows_ci = False
    for r in df.iter_rows(named=True):
        i, j = row_vals.index(r[rows]), col_vals.index(r[cols])
        v = r[col]
        grid[i, j] = r["p_100"] if "p_100" in r else (0.0 if v is None else 1.0)
        lo, hi = r.get(f"{col}_low"), r.get(f"{col}_high")
        t = "pass" if v is None else f"bid {v}"
        if f"{col}_low" in r and (lo is not None or hi is not None):
            t += f" [{lo if lo is not None else 'pass'}-{hi if hi is not None else 'pass'}]"
            shows_ci = True
        if "p_100" in r:
            t += f"\n100 made {100 * r['p_100']:.0f}%"
        if median_col in r:
            t += f"\nmedian {r[median_col]}"
        thin[i, j] = r["hands"] < THIN_HANDS
        text[i][j] = t + f"\nn={r['hands']:,}"
    label = {"points_band": "card points in hand",
             "marriage_value": "marriage held: the value of the one held, or two or more (worth "
                               f"{_SEVERAL[0]}-{_SEVERAL[1]} together)",
             "aces": "aces held (3 = 3 or 4)", "aces_with_ten": "aces held with their ten (2 = 2+)"}
    if not row_vals or not col_vals:
        # no class has enough hands (a very small run): say so instead of an empty axis
        fig, ax = plt.subplots(figsize=(6, 2.5), constrained_layout=True)
        ax.axis("off")
        ax.text(0.5, 0.5, "Too few hands: no class of\n" + textwrap.fill(f"{label.get(rows, rows)} x "
                f"{label.get(cols, cols)}", 60) + "\nhas enough hands for a threshold:\n"
                "run more hands (thousand report --hands N).", ha="center", va="center", fontsize=10)
        return fig
    size = (max(HEATMAP_MIN_SIZE[0], 2.0 + 1.45 * len(col_vals)), max(HEATMAP_MIN_SIZE[1], 1.6 + 0.95 * len(row_vals)))
    fig, ax = plt.subplots(figsize=size, constrained_layout=True)
    # Red below the bidding line, blue above; the scale always spans 0..1 so that two
    # reports read the same colour the same way.
    norm = TwoSlopeNorm(vmin=0.0, vcenter=probability, vmax=1.0)
    im = ax.imshow(np.ma.masked_invalid(grid), cmap="RdBu", norm=norm, aspect="auto", origin="lower")
    for i in range(len(row_vals)):
        for j in range(len(col_vals)):
            if not text[i][j]:
                continue
            if thin[i, j]:
                ax.add_patch(Rectangle((j - 0.5, i - 0.5), 1, 1, fill=False, hatch="///", edgecolor="0.55",
                                       linewidth=0))
            dark = abs(norm(grid[i, j]) - 0.5) > 0.3 and not thin[i, j]   # a thin cell's text sits on white
            ax.text(j, i, text[i][j], ha="center", va="center", fontsize=7, linespacing=1.15,
                    color="white" if dark else "black",
                    bbox=dict(boxstyle="round,pad=0.15", facecolor="white", alpha=0.8, linewidth=0)
                    if thin[i, j] else None)
    ax.set_xticks(range(len(col_vals)), [str(v).replace(" (", "\n(") for v in col_vals])
    ax.set_yticks(range(len(row_vals)), [str(v) for v in row_vals])
    ax.set_xlabel(textwrap.fill(label.get(cols, cols), 60))
    ax.set_ylabel(textwrap.fill(label.get(rows, rows), 40))
    ax.set_title(title or f"Highest bid made with probability {level_percent(probability)} (forced declarer, all seats)\n"
                 f"cell: bid{' [95% bootstrap interval]' if shows_ci else ''}, how often 100 is made, "
                 f"median points, n = distinct hands;\nhatched: fewer than {THIN_HANDS} hands (rough)",
                 fontsize=9)
    bar = fig.colorbar(im, ax=ax, ticks=[0, 0.2, 0.4, 0.6, probability, 1.0])
    bar.ax.set_yticklabels([level_percent(t) for t in (0, 0.2, 0.4, 0.6, probability, 1.0)])
    bar.set_label(f"share of deals making 100, the lowest bid\n(from {level_percent(probability)}: the class bids)")
    return fig


# --------------------------------------------------------------------- rule of thumb
@dataclass(frozen=True)
class RuleOfThumb:
    """A linear rule: level = intercept + sum(coef * feature); bid = that, floored to the step and capped.

    ``coefficients`` are the least-squares fit; ``rounded`` the same rounded to values a
    player can use at the table, and the one the ``test`` metrics (held-out hands) score.
    """

    probability: float
    features: tuple[str, ...]
    coefficients: dict[str, float]
    rounded: dict[str, float]
    train: dict[str, float]
    test: dict[str, float]
    test_fitted: dict[str, float]
    baseline: dict[str, float]
    n_train: int
    n_test: int
    extra: dict[str, Any] = field(default_factory=dict)
    hands_train: int = 0  # distinct hands; n_train / n_test count (hand, seat) rows
    hands_test: int = 0

    def formula(self) -> str:
        names = {"points": "card points", "marriage_points": "marriage value", "aces": "aces",
                 "aces_with_ten": "aces with their ten", "tens": "tens"}
        terms = [(self.rounded[f], f" x {names.get(f, f)}") for f in self.features if self.rounded[f] != 0]
        if self.rounded["intercept"] != 0 or not terms:
            terms.append((self.rounded["intercept"], ""))
        text = " ".join(f"{'+' if c >= 0 else '-'} {abs(c):g}{name}" for c, name in terms)
        text = text[2:] if text.startswith("+ ") else "-" + text[2:]
        return f"bid = {text} (round down to the step; below 100 pass; at most the cap)"

    def predict_level(self, X: np.ndarray, rounded: bool = True) -> np.ndarray:
        c = self.rounded if rounded else self.coefficients
        return c["intercept"] + X @ np.array([c[f] for f in self.features])

    def worked(self, row: dict[str, Any], rules: Rules) -> dict[str, Any]:
        """The rounded rule applied to one row of :func:`hand_outcomes`, step by step:
        ``terms`` (coefficient, feature name, the hand's value), ``intercept``, ``level``
        and ``bid`` (``None``: pass), as a player would work it out at the table."""
        names = {"points": "card points", "marriage_points": "marriage value", "aces": "aces",
                 "aces_with_ten": "aces with their ten", "tens": "tens"}
        frame = pl.DataFrame([row])
        values = _design(frame, self.features)[0]
        terms = [(self.rounded[f], names.get(f, f), float(v)) for f, v in zip(self.features, values)]
        level = float(self.predict_level(values[None, :])[0])
        cap = _bid_cap_of(np.array([row["marriage_points"]]), rules)
        bid = int(_rule_bids(np.array([level]), cap, rules.bid_step)[0])
        return {"terms": terms, "intercept": self.rounded["intercept"], "level": level,
                "bid": None if bid < 0 else bid}


def _design(df: pl.DataFrame, features: Sequence[str]) -> np.ndarray:
    rename = {"points": "hand_points", "aces": "aces_held", "aces_with_ten": "aces_with_ten_held"}
    return np.column_stack([df[rename.get(f, f)].to_numpy().astype(float) for f in features])


def _rule_bids(level: np.ndarray, cap: np.ndarray, step: int) -> np.ndarray:
    top = np.minimum(np.floor(level).astype(np.int64), cap)
    return np.where(top >= 100, 100 + ((top - 100) // step) * step, -1)


def _score_rule(pred_level: np.ndarray, df: pl.DataFrame, surv: np.ndarray, rules: Rules, q: float) -> dict[str, float]:
    """Accuracy of a rule on the rows of ``df`` (aligned with ``surv``)."""
    tag = _tag(q)
    true_level = df[f"level_{tag}"].to_numpy().astype(float)
    true_bid = df[f"bid_{tag}"].fill_null(-1).to_numpy()
    cap = df["bid_cap"].to_numpy()
    bid = _rule_bids(pred_level, cap, rules.bid_step)
    n = surv[:, 0].astype(float)
    # Realised P(make) at the rule's bid for the hands where it bids.
    bids_at = bid >= 0
    made = np.where(bids_at, surv[np.arange(len(bid)), np.clip(bid, 0, surv.shape[1] - 1)], 0)
    made = np.where(bid >= surv.shape[1], 0, made)
    err = pred_level - true_level
    tb = np.where(true_bid < 0, 95, true_bid)  # "pass" counted as 95 so that distances make sense
    rb = np.where(bid < 0, 95, bid)
    ss_res = float((err ** 2).sum())
    ss_tot = float(((true_level - true_level.mean()) ** 2).sum())
    return {
        "mae_points": float(np.abs(err).mean()),
        "rmse_points": float(np.sqrt((err ** 2).mean())),
        "r2": 1 - ss_res / ss_tot if ss_tot > 0 else float("nan"),
        "bid_exact": float((rb == tb).mean()),
        "bid_within_5": float((np.abs(rb - tb) <= 5).mean()),
        "bid_within_10": float((np.abs(rb - tb) <= 10).mean()),
        "overbid": float((rb > tb).mean()),
        "underbid": float((rb < tb).mean()),
        "p_make_at_rule_bid": float(made[bids_at].sum() / n[bids_at].sum()) if bids_at.any() else float("nan"),
        "share_bidding": float(bids_at.mean()),
    }


def _nice(x: float, step: float) -> float:
    return round(round(x / step) * step, 6)


def fit_rule_of_thumb(lf: pl.LazyFrame | pl.DataFrame, rules: Rules = CLASSIC, probability: float = 0.8,
                      features: Sequence[str] = RULE_FEATURES, test_share: float = 0.3, seed: int = 0) -> RuleOfThumb:
    """Fit "level made with probability q" to hand features; score it on held-out hands.

    The target per (hand, role) is the largest points level reached with probability
    ``probability`` (uncapped, may be below 100).  Hands (all three roles of a hand
    together) are split at random into train and test; the least-squares fit on train is
    rounded (card points to 0.1, marriage value to 0.05, counts to 1, then the intercept
    refitted and rounded to 1) and both are
    scored on test: error in points, share of (hand, seat) rows where the rule names the true
    threshold bid (exactly, within 5, within 10), over- and under-bids, and the realised
    P(make) of the rule's bids.  Baseline: always bid the median threshold.
    """
    df, _ = _completions(lf, probability, "probability")
    keys, surv = _survival(df)
    out = hand_outcomes(df, rules, probabilities=(probability,))
    assert out.select("hand_id", "role").equals(keys.select("hand_id", "role"))
    tag = _tag(probability)
    hand_ids = np.unique(out["hand_id"].to_numpy())
    rng = np.random.default_rng(seed)
    test_ids = set(rng.choice(hand_ids, size=max(1, int(round(test_share * len(hand_ids)))), replace=False).tolist())
    is_test = np.array([h in test_ids for h in out["hand_id"].to_list()])
    if is_test.all() or not is_test.any():
        raise ValueError("need hands in both the train and the test split")
    X = _design(out, features)
    y = out[f"level_{tag}"].to_numpy().astype(float)
    A = np.column_stack([np.ones(len(y)), X])
    beta, *_ = np.linalg.lstsq(A[~is_test], y[~is_test], rcond=None)
    coef = {"intercept": float(beta[0]), **{f: float(b) for f, b in zip(features, beta[1:])}}
    # Slopes rounded to table-friendly steps; the intercept is then refitted to the rounded
    # slopes on the training hands (so rounding does not shift every bid) and rounded to 1.
    steps = {"points": 0.1, "marriage_points": 0.05, "tens": 1.0}
    rounded = {k: _nice(v, steps.get(k, 1.0)) for k, v in coef.items() if k != "intercept"}
    slopes = np.array([rounded[f] for f in features])
    rounded = {"intercept": _nice(float(np.mean(y[~is_test] - X[~is_test] @ slopes)), 1.0), **rounded}
    rule = RuleOfThumb(probability, tuple(features), coef, rounded, {}, {}, {}, {}, int((~is_test).sum()), int(is_test.sum()),
                       hands_train=len(hand_ids) - len(test_ids), hands_test=len(test_ids))
    tr, te = out.filter(pl.Series(~is_test)), out.filter(pl.Series(is_test))
    median_level = float(np.median(y[~is_test]))
    metrics = dict(
        train=_score_rule(rule.predict_level(X[~is_test]), tr, surv[~is_test], rules, probability),
        test=_score_rule(rule.predict_level(X[is_test]), te, surv[is_test], rules, probability),
        test_fitted=_score_rule(rule.predict_level(X[is_test], rounded=False), te, surv[is_test], rules, probability),
        baseline=_score_rule(np.full(int(is_test.sum()), median_level), te, surv[is_test], rules, probability),
    )
    import dataclasses
    return dataclasses.replace(rule, **metrics, extra={"median_level": median_level})


def rule_of_thumb_table(rule: RuleOfThumb) -> pl.DataFrame:
    """The rule's accuracy as a table: one row per (rule, split), for the report."""
    rows = []
    for name, m in (("rounded rule, train", rule.train), ("rounded rule, held-out", rule.test),
                    ("least-squares fit, held-out", rule.test_fitted), ("median bid for all, held-out", rule.baseline)):
        rows.append({"rule": name, **m})
    return pl.DataFrame(rows)
