"""Run many deals or games in parallel and stream them to a Parquet dataset.

The public face of :mod:`thousand.runner`.  The work is cut into chunks of a fixed size
that does not depend on the number of workers.  Chunk ``k`` draws from
``PCG64(SeedSequence(seed).spawn(n_chunks)[k])`` (:mod:`thousand.runner.seeding`) and is
written, by the worker that computed it, to its own file ``chunk-<k>.parquet`` (first
under a temporary name, then renamed, so a file that exists is complete:
:mod:`thousand.runner.store`).  The run's ``metadata.json`` records everything that
determines the data (rules, strategies, seed, chunk size, kernel version), so an
interrupted run can be continued with ``resume=True`` and the result is the same
dataset, byte for byte, whatever the number of workers or the backend (``loky``
processes, ``threads``, or a ``dask`` cluster: :mod:`thousand.runner.pool`).

>>> lf = simulate(30_000, "classic", seed=7, jobs=1)          # doctest: +SKIP
>>> lf.select(pl.col("made").mean()).collect()                 # doctest: +SKIP

A finished dataset is read back lazily with :func:`load`.
"""
from __future__ import annotations

import contextlib
import dataclasses
import functools
import math
import os
import shutil
import sys
import tempfile
import time
from collections.abc import Sequence
from concurrent.futures import BrokenExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl

from thousand import __version__, schema
from thousand.errors import ThousandError, check_jobs, check_name, check_seed
from thousand.files import scratch_dir
from thousand.rules import Rules, parse_rules_spec
from thousand.runner import chunks, pool
from thousand.runner.pool import BACKENDS
from thousand.runner.seeding import chunk_bounds, chunk_seed
from thousand.runner.store import FORMAT_VERSION, MAX_CHUNKS, METADATA_FILE, ChunkStore, chunk_file, load, read_metadata
from thousand.schema import DEFAULT_CHUNK_DEALS, DEFAULT_CHUNK_GAMES
from thousand.strategies import canonical

__all__ = [
    "simulate", "simulate_games", "run", "load", "read_metadata", "run_metadata", "reusable_run", "RunResult",
    "chunk_seed", "chunk_bounds", "chunk_file", "normalize_strategies", "BACKENDS", "DEFAULT_CHUNK_DEALS",
    "DEFAULT_CHUNK_GAMES", "PARQUET_COMPRESSION", "RESUME_KEYS", "METADATA_FILE",
]

# Chunks large enough that starting a task and opening a file cost little next to the
# kernel's work (about a quarter of a second of one core), small enough that a worker
# holds only a few tens of megabytes at a time.
# No compression: Parquet's dictionary and run-length encoding already shrink the small
# integer columns, which are most of a row, to a few bits a value.  On a chunk of the
# classic rules lz4 saved 3% of the disk (40.4 against 41.8 bytes a deal) for 11% more
# write time, zstd 27% for 38% more; the runner must keep up with a kernel producing a
# million rows per second per core.  Uncompressed files are written by the runner's own
# writer (thousand.parquet, about 22 ms of one core for a 250,000-deal chunk, against
# 60-70 ms for polars' writer); a compressed dataset (``compression=`` in the Python API)
# is left to polars.
PARQUET_COMPRESSION = "uncompressed"
# Metadata keys that must agree before a run may be resumed: they determine the data.
RESUME_KEYS = ("format", "kind", "rows", "n", "chunk_size", "n_chunks", "first_chunk", "seed", "rules_hash",
               "strategies", "kernel_version", "with_deals", "compression")


# --------------------------------------------------------------------------- strategies
def normalize_strategies(strategies: str | Sequence[str] | None, players: int) -> tuple[str, ...]:
    """One canonical strategy spec per seat: none -> all ``standard``; one -> every seat; else one each.

    >>> normalize_strategies(None, 3)
    ('standard', 'standard', 'standard')
    >>> normalize_strategies(["random", "standard"], 2)
    ('random', 'standard')
    """
    if strategies is None:
        strategies = ["standard"]
    elif isinstance(strategies, str):
        strategies = [strategies]
    strategies = [s.strip() for s in strategies]
    if len(strategies) == 1:
        strategies = strategies * players
    if len(strategies) != players:
        raise ThousandError(
            f"--strategy: give one for every seat or exactly {players} (one per seat), got {len(strategies)}")
    return tuple(canonical(s) for s in strategies)


# --------------------------------------------------------------------------- metadata
def kernel_version() -> Any:
    """The built kernel's KERNEL_VERSION (None when it is not built): data written by
    another kernel is not resumed into."""
    try:
        return chunks.kernel().KERNEL_VERSION
    except ThousandError:
        return None


def run_metadata(kind: str, n: int, chunk_size: int, seed: int, rules: Rules, strategies: tuple[str, ...],
                 compression: str = PARQUET_COMPRESSION, with_deals: bool = False, rows_of: str | None = None,
                 first_chunk: int = 0) -> dict[str, Any]:
    """The ``metadata.json`` a run writes: everything that determines its data (and more).

    ``rows_of``: what the directory's rows are (default ``kind``; ``"deals"`` for the
    ``deals_out`` directory of a games run).  ``strategies`` as :func:`normalize_strategies`
    returns them.
    """
    rows_of = rows_of or kind
    columns = (schema.deal_columns(rules.players, in_games=kind == "games") if rows_of == "deals"
               else schema.game_columns(rules.players))
    return {
        "format": FORMAT_VERSION,
        "kind": kind,
        "rows": rows_of,
        "n": n,
        "chunk_size": chunk_size,
        "n_chunks": math.ceil(n / chunk_size),
        "first_chunk": first_chunk,
        "seed": seed,
        "rules": rules.as_dict(),
        "rules_hash": rules.hash,
        "rules_description": rules.describe(),
        "players": rules.players,
        "strategies": list(strategies),
        "with_deals": with_deals,
        "version": __version__,
        "kernel_version": kernel_version(),
        "compression": compression,
        "schema": {name: np.dtype(dtype).name for name, (dtype, _) in columns.items()},
        "status": "running",
    }


def reusable_run(path: str | os.PathLike, meta: dict[str, Any]) -> dict[str, Any] | None:
    """The metadata of the run in ``path`` if ``resume`` would continue it as the run
    described by ``meta`` (every key of :data:`RESUME_KEYS` agrees), else ``None``."""
    try:
        old = read_metadata(path)
    except ThousandError:
        return None
    return old if all(old.get(key) == meta.get(key) for key in RESUME_KEYS) else None


# --------------------------------------------------------------------------- execution
@dataclass
class RunResult:
    """What a run did: where the data is, how much was computed and how fast."""

    path: Path
    kind: str
    n: int
    computed: int           # items computed by this call (less than n on a resume)
    rows: int               # rows written by this call
    seconds: float
    deals_path: Path | None = None
    metadata: dict[str, Any] = field(default_factory=dict)
    temporary: bool = False  # written to a temporary directory removed at exit

    @property
    def rate(self) -> float:
        return self.computed / self.seconds if self.seconds > 0 else float("inf")

    def summary(self) -> str:
        """The final line: items, seconds, items per second."""
        unit = self.kind
        deals = f" (their deals -> {self.deals_path})" if self.deals_path is not None else ""
        if self.computed == 0:
            return f"nothing to compute: all {self.n:,} {unit} were already written -> {self.path}{deals}"
        done = f"{self.computed:,} {unit if self.computed != 1 else unit[:-1]}"
        if self.computed != self.n:
            done += f" (of {self.n:,}; the rest were already written)"
        if unit == "deals" and self.rows != self.computed:
            done += f", {self.rows:,} rows with the redealt deals,"
        return f"{done} in {self.seconds:.2f} s: {self.rate:,.0f} {unit}/s -> {self.path}{deals}"

    def frame(self) -> pl.LazyFrame:
        return load(self.path)

    def deals_frame(self) -> pl.LazyFrame:
        if self.deals_path is None:
            raise ThousandError("this games run wrote no deal rows (give deals_out)")
        return load(self.deals_path)


def _temp_out() -> Path:
    """A temporary dataset directory (made by this process, so it goes whole), removed when
    the interpreter exits (also after SIGTERM or SIGHUP: see ``pool.stop_signals_interrupt``;
    after a SIGKILL by the next run that makes one: :func:`thousand.files.scratch_dir`)."""
    return scratch_dir("run") / "data"


# Bytes on disk per row, upper bounds of what the runner's writer takes (measured
# 2026-12-01 on 250,000 deals and 2,000 games, 2 to 4 players, standard and random
# players: 32-52 bytes a deal, 18-46 a game); for the warning about a disk too small.
def _bytes_per_item(kind: str, players: int) -> int:
    return 12 * players + (16 if kind == "deals" else 10)


def _size(n: float) -> str:
    """``n`` bytes as a person reads them (decimal units)."""
    for unit, scale in (("TB", 1e12), ("GB", 1e9), ("MB", 1e6)):
        if n >= scale:
            return f"{n / scale:.1f} {unit}"
    return f"{n / 1e3:.1f} kB"


# A game's deal rows (--deals-out): about 25-30 deals a game under the presets (redeals are
# rows too); the first chunk's measured size replaces the guess (_check_room_measured).
DEALS_PER_GAME_GUESS = 30


def _check_room(kind: str, n: int, players: int, folder: str, temporary: bool, per_item: int | None = None,
                measured: str = "", left: bool = False) -> bool:
    """Refuse a run without --out that would fill the temporary folder (it is removed at the
    end, so the data could only be lost); warn when --out's disk looks too small (the run
    stops when it is full, and --resume continues once there is room).  ``per_item``: the
    bytes a deal (game) takes, the upper bound of :func:`_bytes_per_item` unless measured
    (``measured`` then says so); ``left``: ``n`` is what remains of a run.  Returns whether
    it warned."""
    try:
        free = shutil.disk_usage(folder).free
    except OSError:
        return False
    need = n * (per_item if per_item is not None else _bytes_per_item(kind, players))
    if need <= 0.9 * free:
        return False
    what = f"the {n:,} {kind} left" if left else f"a run of {n:,} {kind}"
    if temporary:
        raise ThousandError(f"{what} without --out would write about {_size(need)}{measured} to the "
                            f"temporary folder {folder}, which has {_size(free)} free; give --out DIR on a disk with "
                            "room")
    print(f"warning: {what} {'take' if left else 'takes'} about {_size(need)}{measured} and {folder} has {_size(free)} free: the run "
          "stops when the disk is full (--resume continues it once there is room)", file=sys.stderr)
    return True


def _check_room_measured(kind: str, done: chunks.ChunkDone, left: int, players: int, folders: list[Path | None],
                         temporary: bool, warned: set[str]) -> None:
    """After the first chunk, :func:`_check_room` again for the ``left`` deals (games) to
    come at the bytes that chunk took in each folder (``--out``, ``--deals-out``; not one
    ``warned`` of already): a run whose redeals are common writes many rows a deal, and
    deal rows many a game."""
    if done.items <= 0 or left <= 0:
        return
    for folder, size in zip(folders, (done.size, done.deal_size)):
        if folder is not None and size > 0 and os.fspath(folder) not in warned:
            _check_room(kind, left, players, os.fspath(folder), temporary, per_item=-(-size // done.items),
                        measured=f" more (measured on the first chunk: {_size(size / done.items)} a {kind[:-1]})",
                        left=True)


# Sanity limits: beyond them a run would take months or a chunk would not fit in memory.
MAX_ITEMS = {"deals": 10**11, "games": 10**10}
MAX_CHUNK = {"deals": 5_000_000, "games": 200_000}
# What polars' writer takes for compressed runs ("uncompressed" is the runner's own writer).
COMPRESSIONS = ("uncompressed", "lz4", "zstd", "snappy", "gzip", "brotli")


def _check_run_args(kind: str, n: int, jobs: int, backend: str, chunk_size: int,
                    compression: str = PARQUET_COMPRESSION) -> None:
    unit = kind
    if compression not in COMPRESSIONS:
        raise ThousandError(f"unknown compression {compression!r}: use {', '.join(COMPRESSIONS)}")
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 1:
        raise ThousandError(f"number of {unit} must be a positive whole number, got {n!r}")
    if n > MAX_ITEMS.get(kind, n):
        raise ThousandError(f"number of {unit} must be at most {MAX_ITEMS[kind]:,}, got {n:,}")
    if isinstance(chunk_size, bool) or not isinstance(chunk_size, (int, np.integer)) or chunk_size < 1:
        raise ThousandError(f"chunk size must be a positive whole number, got {chunk_size!r}")
    if chunk_size > MAX_CHUNK.get(kind, chunk_size):
        raise ThousandError(f"chunk size must be at most {MAX_CHUNK[kind]:,} {unit} (one chunk is held in memory), "
                            f"got {chunk_size:,}")
    if math.ceil(n / chunk_size) > MAX_CHUNKS:
        raise ThousandError(f"{n:,} {unit} in chunks of {chunk_size:,} make {math.ceil(n / chunk_size):,} chunk files, "
                            f"more than {MAX_CHUNKS:,}; use a chunk size of at least {math.ceil(n / MAX_CHUNKS):,}")
    pool.check_backend(backend)
    check_jobs(jobs)


def run(kind: str, n: int, rules: Rules | str | None = "classic",
        strategies: str | Sequence[str] | None = None, seed: int | None = 1, jobs: int = 1,
        backend: str = "loky", scheduler: str | None = None, out: str | os.PathLike | None = None,
        chunk_size: int | None = None, resume: bool = False, progress: bool | None = None,
        deals_out: str | os.PathLike | None = None, compression: str = PARQUET_COMPRESSION,
        first_chunk: int = 0, resume_hint: str = "run the same command with --resume to finish") -> RunResult:
    """Simulate ``n`` deals or games and write them; see :func:`simulate` for the arguments.

    ``first_chunk`` computes only chunks ``first_chunk ..`` of the ``n``-item run: the
    continuation of an experiment whose earlier chunks were already used (a sequential
    comparison adding rounds).  ``resume_hint`` ends the message of an interrupted run: how
    the caller's command continues it.  Returns a :class:`RunResult` (path, counts, timing);
    :func:`simulate` and :func:`simulate_games` wrap this and return the LazyFrame.
    """
    if kind not in ("deals", "games"):
        raise ThousandError(f"kind must be deals or games, got {kind!r}")
    if chunk_size is None:
        chunk_size = DEFAULT_CHUNK_DEALS if kind == "deals" else DEFAULT_CHUNK_GAMES
    _check_run_args(kind, n, jobs, backend, chunk_size, compression)
    if isinstance(first_chunk, bool) or not isinstance(first_chunk, (int, np.integer)) \
            or not 0 <= first_chunk < math.ceil(n / chunk_size):
        raise ThousandError(f"first_chunk must be 0 .. {math.ceil(n / chunk_size) - 1} for {n} {kind} "
                            f"in chunks of {chunk_size}, got {first_chunk!r}")
    first_chunk = int(first_chunk)
    if kind == "deals" and deals_out is not None:
        raise ThousandError("deals_out is for games runs; a deals run writes its deals to out")
    if backend == "dask" and scheduler is None and jobs == -1:
        jobs = os.cpu_count() or 1
    pool.check_scheduler(backend, scheduler)
    rules = parse_rules_spec(rules)
    strategies = normalize_strategies(strategies, rules.players)
    if seed is None:
        seed = int(np.random.SeedSequence().entropy)  # recorded, so the run can be repeated
    seed, n, chunk_size = check_seed(seed), int(n), int(chunk_size)

    check_name(out, "--out", "the directory to write to")
    check_name(deals_out, "--deals-out", "the directory to write to")
    if out is None and resume:
        raise ThousandError("--resume needs --out: the directory of the run to continue")
    if out is None and deals_out is not None:
        # the games' rows would go to a temporary folder, removed at the end: an interrupted
        # run could then neither be resumed nor keep its deal rows' chunks
        raise ThousandError("--deals-out needs --out: a games run keeps its games and its deals side by side "
                            "(and --resume continues both)")
    if out is None:
        _check_room(kind, n, rules.players, tempfile.gettempdir(), temporary=True)
    # SIGTERM and SIGHUP stop the run like Ctrl-C (the CLI already says so for its commands).
    with pool.stop_signals_interrupt(), contextlib.ExitStack() as claims:
        out_path = Path(out) if out is not None else _temp_out()
        deals_path = Path(deals_out) if deals_out is not None else None
        with_deals = deals_path is not None
        store = claims.enter_context(ChunkStore(out_path, run_metadata(
            kind, n, chunk_size, seed, rules, strategies, compression, with_deals, first_chunk=first_chunk),
            RESUME_KEYS))
        deal_store = None
        if deals_path is not None:
            a, b = deals_path.resolve(), out_path.resolve()
            if a == b:
                raise ThousandError("--deals-out must be a different directory from --out")
            if a.is_relative_to(b) or b.is_relative_to(a):   # one dataset inside the other mixes the two tables
                raise ThousandError("--deals-out and --out must not be inside one another")
            deal_store = claims.enter_context(ChunkStore(deals_path, run_metadata(
                kind, n, chunk_size, seed, rules, strategies, compression, with_deals, rows_of="deals",
                first_chunk=first_chunk), RESUME_KEYS, option="--deals-out"))
        # the directories this run makes: a run refused before its first chunk leaves none
        made = [p for p in (out_path, deals_path) if p is not None and not p.exists()]
        deals_new = deals_path is not None and not (deals_path / METADATA_FILE).exists()
        try:
            store.prepare(resume)
            if deal_store is not None:
                deal_store.prepare(resume)
                written = store.written() if resume and deals_new else []
                if written:
                    # the games written need their deal rows: a new --deals-out has none, and
                    # every chunk would be computed again while the run's deal rows stay
                    # where it began (try-out 34)
                    raise ThousandError(
                        f"cannot resume: --out {os.fspath(out_path)!r} has {len(written):,} chunk"
                        f"{'s' if len(written) != 1 else ''} written, but --deals-out {os.fspath(deals_path)!r} "
                        "holds no deal rows of this run; give the --deals-out the run began with")
        except ThousandError:
            claims.close()
            _remove_unused(made)
            raise
        warned = set()
        if out is not None and _check_room(kind, n, rules.players, os.fspath(out_path), temporary=False):
            warned.add(os.fspath(out_path))
        if deals_path is not None and _check_room(
                kind, n, rules.players, os.fspath(deals_path), temporary=False,
                per_item=DEALS_PER_GAME_GUESS * _bytes_per_item("deals", rules.players), measured=" of deal rows"):
            warned.add(os.fspath(deals_path))
        try:
            return _run_chunks(kind, n, chunk_size, seed, rules, strategies, compression, store, deal_store,
                               jobs, backend, scheduler, progress, out is None, resume_hint, warned)
        except ThousandError:
            # refused before any chunk was written (an unreachable scheduler): not a record
            # of a run "running" either (try-out 35)
            claims.close()
            _remove_unused(made)
            raise


def _remove_unused(made: list[Path]) -> None:
    """The directories a refused run made, where it wrote no chunk (only its records)."""
    for path in made:
        if path.is_dir() and not any(path.glob("chunk-*.parquet")):
            shutil.rmtree(path, ignore_errors=True)


def _run_chunks(kind: str, n: int, chunk_size: int, seed: int, rules: Rules, strategies: tuple[str, ...],
                compression: str, store: ChunkStore, deal_store: ChunkStore | None, jobs: int, backend: str,
                scheduler: str | None, progress: bool | None, temporary: bool, resume_hint: str,
                warned: set[str] | None = None) -> RunResult:
    """The chunks of a run whose stores are prepared: keep what is written, compute the rest."""
    out_path, deals_path = store.path, None if deal_store is None else deal_store.path
    bounds = chunk_bounds(n, chunk_size)
    wanted = store.chunks()
    rules_array = rules.to_kernel()
    all_tasks = {
        k: chunks.ChunkTask(kind, k, bounds[k][0], bounds[k][1], seed, rules_array, rules.players, strategies,
                            os.fspath(out_path), os.fspath(deals_path) if deals_path else None, compression,
                            store.token)
        for k in wanted
    }

    @functools.lru_cache(maxsize=None)
    def first_rows(k: int) -> tuple[pl.DataFrame, pl.DataFrame | None]:
        """Chunk k's first row in each file, replayed (one deal or game) for the resume check."""
        frame, deal_frame = chunks.chunk_frames(dataclasses.replace(all_tasks[k], size=1))
        return frame.head(1), None if deal_frame is None else deal_frame.head(1)

    # Both directories are checked before either is written to.
    done = store.open(lambda k: first_rows(k)[0])
    if deal_store is not None:
        # A games chunk is done only when its deal rows were written too.
        done &= deal_store.open(lambda k: first_rows(k)[1])
    tasks = [all_tasks[k] for k in wanted if k not in done]
    total = sum(bounds[k][1] for k in wanted)
    already = sum(bounds[k][1] for k in done)
    bar = pool.progress_bar(total, kind[:-1], initial=already, progress=progress, smoothing=0.1)
    computed = rows = 0
    started = time.perf_counter()
    try:
        # closing(): an interruption shuts the pool (or the Dask cluster) down at once.
        with contextlib.closing(pool.run_tasks(chunks.run_chunk, tasks, backend=backend, jobs=jobs,
                                               scheduler=scheduler)) as results:
            for c in results:   # the worker recorded its chunk in the store's journal
                if not computed:
                    _check_room_measured(kind, c, total - already - c.items, rules.players,
                                         [out_path, deals_path], temporary, warned or set())
                computed += c.items
                rows += c.rows
                if bar is not None:
                    bar.update(c.items)
    except (KeyboardInterrupt, BrokenExecutor) as e:
        if bar is not None:
            bar.close()
            bar = None
        if temporary:  # the temporary directory goes at exit: nothing to resume from
            kept = "nothing is kept (no --out was given; with --out DIR an interrupted run can be resumed)"
        else:
            kept = f"{len(store.written()):,} of {len(wanted):,} chunks are written in {out_path}; {resume_hint}"
        if pool.killed_by_interrupt(e):
            # A worker that got Ctrl-C itself (its workers start deaf to the terminal's,
            # but a signal can be sent to one alone) dies of it: that is the interrupt too.
            print(f"interrupted: {kept}", file=sys.stderr)
            if isinstance(e, KeyboardInterrupt):
                raise
            raise KeyboardInterrupt from None
        # A worker process died (killed, out of memory): what was written is kept.
        raise ThousandError(f"{pool.worker_death(e) or 'a worker process died'}; {kept}") from None
    except MemoryError as e:
        # An allocation refused in a chunk (here or in a worker: joblib raises it again)
        if bar is not None:
            bar.close()
            bar = None
        kept = ("nothing is kept (no --out was given)" if temporary else
                f"{len(store.written()):,} of {len(wanted):,} chunks are written in {out_path}; {resume_hint}")
        raise ThousandError(f"out of memory in a chunk of {chunk_size:,} {kind} ({pool.memory_refused(e)}): "
                            f"lower --chunk-size or --jobs; {kept}") from None
    except ThousandError:
        if temporary:   # the pool is shut: a refused run's chunks go now, not at the interpreter's exit
            shutil.rmtree(out_path, ignore_errors=True)
        raise
    finally:
        if bar is not None:
            bar.close()
    seconds = time.perf_counter() - started

    meta = store.complete()
    if deal_store is not None:
        deal_store.complete()
    return RunResult(out_path, kind, total, computed, rows, seconds, deals_path, meta, temporary=temporary)


def simulate(n_deals: int, rules: Rules | str | None = "classic",
             strategies: str | Sequence[str] | None = None, seed: int | None = 1, jobs: int = 1,
             backend: str = "loky", scheduler: str | None = None, out: str | os.PathLike | None = None,
             chunk_size: int = DEFAULT_CHUNK_DEALS, resume: bool = False,
             progress: bool | None = None) -> pl.LazyFrame:
    """Play ``n_deals`` deals and return a LazyFrame over the written Parquet dataset.

    Parameters
    ----------
    n_deals
        Deals to play.  A redeal is recorded as a row of its own (flagged in ``redeal``),
        so the dataset holds at least ``n_deals`` rows.
    rules
        A :class:`~thousand.rules.Rules` or a spec (``"classic"``, ``"classic:bolts=off"``,
        a TOML path).
    strategies
        Strategy spec(s) (``"standard"``, ``"standard:margin=10"``): one for every seat, or
        one per seat.  Default: ``standard`` everywhere.
    seed
        Root seed.  ``None`` draws one from the OS and records it in the metadata.
    jobs
        Workers (``-1``: all cores).  Does not change the output.
    backend
        ``"loky"`` (processes), ``"threads"`` or ``"dask"``.  Does not change the output.
    scheduler
        Address of a ``dask.distributed`` scheduler (backend ``dask``); without one a
        LocalCluster of ``jobs`` workers is started for the run.
    out
        Dataset directory.  ``None`` writes to a temporary directory removed at exit.
    chunk_size
        Deals per chunk (and per file).  Part of what determines the data.
    resume
        Continue an interrupted run in ``out``: keep the chunks written, compute the rest.
    progress
        Show a progress bar; default: only when stderr is a terminal.

    Returns
    -------
    polars.LazyFrame
        One row per dealt deal, columns of :func:`thousand.schema.deal_columns`.
    """
    return run("deals", n_deals, rules, strategies, seed, jobs, backend, scheduler, out, chunk_size,
               resume, progress).frame()


def simulate_games(n_games: int, rules: Rules | str | None = "classic",
                   strategies: str | Sequence[str] | None = None, seed: int | None = 1, jobs: int = 1,
                   backend: str = "loky", scheduler: str | None = None, out: str | os.PathLike | None = None,
                   chunk_size: int = DEFAULT_CHUNK_GAMES, resume: bool = False,
                   progress: bool | None = None, deals_out: str | os.PathLike | None = None) -> pl.LazyFrame:
    """Play ``n_games`` whole games; a LazyFrame with one row per game.

    Arguments as for :func:`simulate`; with ``deals_out`` the deals of the games are written
    there too (read them with ``load(deals_out)``).
    """
    return run("games", n_games, rules, strategies, seed, jobs, backend, scheduler, out, chunk_size,
               resume, progress, deals_out).frame()


