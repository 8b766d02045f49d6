"""Run many deals or games in parallel and stream them to a Parquet dataset.

The work is cut into chunks of a fixed size that does not depend on the number of
workers.  Chunk ``k`` draws from ``PCG64(SeedSequence(seed).spawn(n_chunks)[k])`` and is
written, by the worker that computed it, to its own file ``chunk-<k>.parquet`` (first
under a temporary name, then renamed, so a file that exists is complete).  The run's
``metadata.json`` records everything that determines the data (rules, strategies, seed,
chunk size, kernel version), so an interrupted run can be continued with ``resume=True``
and the result is the same dataset, byte for byte, whatever the number of workers or
the backend (``loky`` processes, ``threads``, or a ``dask`` cluster).

>>> lf = simulate(30_000, "classic", seed=7, jobs=1)          # doctest: +SKIP
>>> lf.select(pl.col("made").mean()).collect()                 # doctest: +SKIP

A finished dataset is read back lazily with :func:`load`.
"""
from __future__ import annotations

import atexit
import contextlib
import ctypes
import dataclasses
import functools
import importlib
import itertools
import json
import logging
import math
import os
import shutil
import sys
import tempfile
import time
import uuid
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, BrokenExecutor, ThreadPoolExecutor, wait
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl

from thousand import __version__, schema
from thousand.schema import DEFAULT_CHUNK_DEALS, DEFAULT_CHUNK_GAMES
from thousand.errors import ThousandError, check_name
from thousand.files import read_json
from thousand.rules import Rules, parse_rules_spec

__all__ = [
    "simulate", "simulate_games", "run", "load", "read_metadata", "RunResult",
    "chunk_seed", "chunk_bounds", "BACKENDS", "DEFAULT_CHUNK_DEALS", "DEFAULT_CHUNK_GAMES",
]

BACKENDS = ("loky", "threads", "dask")
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
# One row group for a default chunk (250,000 deals and their redeals; 10,000 games' deal
# rows): each row group repeats the dictionaries and headers of every column.  Column
# statistics are not written: they could only skip row groups of random deals.
ROW_GROUP_SIZE = 500_000
# Columns stored narrower than the schema's type.  On disk ``deal_id`` counts the rows of
# its chunk (at most MAX_CHUNK deals and their redeals, far below 2**31), and :func:`load`
# renumbers it run-wide as int64; int32 halves the column and its write time.
STORED_DTYPES = {"deal_id": np.int32}
METADATA_FILE = "metadata.json"
# 2: deal_id stored as int32 (see STORED_DTYPES); files without compression.
FORMAT_VERSION = 2
# Metadata keys that must agree before a run may be resumed: they determine the data.
_RESUME_KEYS = ("format", "kind", "rows", "n", "chunk_size", "n_chunks", "first_chunk", "seed", "rules_hash",
                "strategies", "kernel_version", "with_deals", "compression")
_KERNEL_MODULE = "thousand.kernel"
DASK_CONNECT_TIMEOUT = "10s"


# --------------------------------------------------------------------------- seeding
def chunk_seed(seed: int, k: int) -> np.random.SeedSequence:
    """The seed sequence of chunk ``k``: ``SeedSequence(seed).spawn(n_chunks)[k]``.

    Built directly from its spawn key, so it needs neither ``n_chunks`` nor the ``k``
    siblings before it.

    >>> a = chunk_seed(42, 3).generate_state(2)
    >>> b = np.random.SeedSequence(42).spawn(10)[3].generate_state(2)
    >>> bool((a == b).all())
    True
    """
    return np.random.SeedSequence(seed, spawn_key=(k,))


def chunk_bounds(n: int, chunk_size: int) -> list[tuple[int, int]]:
    """``(start, size)`` of every chunk of a run of ``n`` items.

    >>> chunk_bounds(10, 4)
    [(0, 4), (4, 4), (8, 2)]
    """
    return [(start, min(chunk_size, n - start)) for start in range(0, n, chunk_size)]


def chunk_file(k: int) -> str:
    return f"chunk-{k:06d}.parquet"


# --------------------------------------------------------------------------- a chunk
@dataclass(frozen=True)
class ChunkTask:
    """Everything a worker needs to compute and write one chunk (small and picklable)."""

    kind: str            # "deals" or "games"
    index: int
    start: int
    size: int
    seed: int
    rules: np.ndarray    # int32, Rules.to_kernel()
    players: int
    strategies: tuple[str, ...]
    out: str
    deals_out: str | None
    compression: str
    kernel_module: str
    owner: int | None = None   # pid of the process that started the run (loky workers only)


def _kernel(module: str) -> Any:
    try:
        return importlib.import_module(module)
    except ImportError as e:  # pragma: no cover - only before the kernel is built
        hint = "" if "make build" in str(e) else "; run `make build`"
        raise ThousandError(f"the compiled kernel is not available: {e}{hint}") from None


def _columns(columns: dict[str, np.ndarray], names: Iterable[str]) -> dict[str, np.ndarray]:
    """The kernel's numpy columns as written: ``names`` in order, in their on-disk dtypes."""
    return {name: _stored(name, columns[name]) for name in names}


def _stored(name: str, column: np.ndarray) -> np.ndarray:
    """``column`` in its on-disk dtype (STORED_DTYPES), refusing values that do not fit."""
    dtype = STORED_DTYPES.get(name)
    if dtype is None:
        return column
    # deal_id counts the rows of a chunk, so its last value is its largest
    if len(column) and column[-1] > np.iinfo(dtype).max:
        raise ThousandError(f"a chunk holds more than {np.iinfo(dtype).max:,} rows; use a smaller --chunk-size")
    return column.astype(dtype)


def _write_atomic(columns: dict[str, np.ndarray], path: Path, compression: str) -> None:
    """Write a chunk's columns so that ``path`` either does not exist or holds the whole chunk.

    Uncompressed (the default) goes through the runner's own writer, :mod:`thousand.parquet`,
    at a third of polars' cost; a compressed file is polars' to write.
    """
    tmp = path.with_name(f".{path.name}.{uuid.uuid4().hex[:8]}.tmp")
    try:
        if compression == "uncompressed":
            from thousand.parquet import write_parquet  # here: a missing build is a one-line error
            write_parquet(tmp, columns, row_group_size=ROW_GROUP_SIZE)
        else:
            pl.DataFrame(columns).write_parquet(tmp, compression=compression, statistics=False,
                                                row_group_size=ROW_GROUP_SIZE)
        os.replace(tmp, path)
    finally:
        if tmp.exists():
            tmp.unlink()


# glibc's malloc parameters (mallopt): no trimming below this much free heap, and no
# mmap below this size.  See keep_freed_memory.
_M_TRIM_THRESHOLD, _M_MMAP_THRESHOLD = -1, -3
_KEEP_FREE_BYTES = 256 << 20
_MMAP_ABOVE_BYTES = 32 << 20  # glibc's largest allowed value (64-bit)


@functools.cache
def keep_freed_memory() -> bool:
    """Let this process keep the memory of one chunk for the next (glibc only; once).

    A chunk's columns (tens of megabytes) are freed when its file is written.  By
    default glibc hands such memory back to the OS at once (it maps blocks larger than
    its threshold separately and trims the heap's top), so every chunk page-faults all
    its columns in again: about 8,000 faults and 20-40 ms of system time per chunk of
    250,000 deals, a tenth of the chunk's CPU.  Raising both thresholds keeps freed
    memory in the heap for the next chunk; the process holds at most what it already
    used.  Called by every worker (and, with one worker, by the caller's process).
    Returns whether the setting was made.
    """
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(None)
        mallopt = libc.mallopt
    except (OSError, AttributeError):  # no C library to load, or one without mallopt
        return False
    mallopt.argtypes, mallopt.restype = (ctypes.c_int, ctypes.c_int), ctypes.c_int
    # Setting the trim threshold turns off glibc's dynamic thresholds, so the mmap one is
    # set too (else it would stay at its 128 kB start and map every column).
    # glibc returns 1 on success; other C libraries return 0 (unsupported) or lack it.
    return bool(mallopt(_M_MMAP_THRESHOLD, _MMAP_ABOVE_BYTES)) and bool(mallopt(_M_TRIM_THRESHOLD, _KEEP_FREE_BYTES))


def run_chunk(task: ChunkTask) -> tuple[int, int, int]:
    """Compute chunk ``task.index`` and write its file(s); returns ``(index, items, rows)``.

    Runs in a worker; the written file is the only result that matters, the return value
    only feeds the progress bar and the summary.
    """
    die_with_owner(task.owner)
    keep_freed_memory()
    columns, deal_columns = chunk_columns(task)
    if deal_columns is not None:
        # The deals file goes first: a chunk counts as done when its games file exists.
        _write_atomic(deal_columns, Path(task.deals_out) / chunk_file(task.index), task.compression)
    _write_atomic(columns, Path(task.out) / chunk_file(task.index), task.compression)
    return task.index, task.size, len(next(iter(columns.values())))


_PR_SET_PDEATHSIG = 1
_DEATH_SIGNAL_ARMED: int | None = None


def die_with_owner(owner: int | None) -> None:
    """In a worker process: have Linux kill it when ``owner``, the run's process, dies.

    A run killed outright (SIGKILL, the out-of-memory killer) cannot stop its loky
    workers, which would otherwise go on computing chunks nobody reads.  A no-op in the
    owner itself (threads), off Linux, and without an owner (Dask workers are the
    cluster's); a worker whose owner is already gone exits instead of starting a chunk.
    """
    global _DEATH_SIGNAL_ARMED
    if owner is None or os.getpid() == owner or not sys.platform.startswith("linux"):
        return
    if _DEATH_SIGNAL_ARMED != owner:
        import signal
        try:
            if ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0) == 0:
                _DEATH_SIGNAL_ARMED = owner
        except (OSError, AttributeError):  # no C library, or one without prctl
            pass
    if os.getppid() != owner:
        os._exit(1)


def killed_by_interrupt(error: BaseException) -> bool:
    """Whether a broken worker pool is the work of Ctrl-C (SIGINT) rather than a crash.

    loky names the workers' exit codes (``{SIGINT(-2)}``) in its error; a worker that
    caught the interrupt as an exception passes it on as the error's cause.
    """
    return any(isinstance(e, KeyboardInterrupt) or "SIGINT" in str(e) or "KeyboardInterrupt" in str(e)
               for e in exception_chain(error))


def exception_chain(error: BaseException) -> list[BaseException]:
    """``error`` and what caused it, cause by cause (each once)."""
    chain: list[BaseException] = []
    seen: BaseException | None = error
    while seen is not None and not any(seen is c for c in chain):
        chain.append(seen)
        seen = seen.__cause__ or seen.__context__
    return chain


def chunk_columns(task: ChunkTask) -> tuple[dict[str, np.ndarray], dict[str, np.ndarray] | None]:
    """The columns of chunk ``task.index`` as written: the main file's, and a games run's deal rows."""
    kernel = _kernel(task.kernel_module)
    bitgen = np.random.PCG64(chunk_seed(task.seed, task.index))
    chunk_col = np.int32(task.index)
    if task.kind == "deals":
        cols = kernel.play_deals(bitgen, task.rules, list(task.strategies), n_deals=task.size)
        cols["chunk"] = np.full(len(cols["deal_id"]), chunk_col, dtype=np.int32)
        return _columns(cols, schema.deal_columns(task.players)), None
    games, deals = kernel.play_games(bitgen, task.rules, list(task.strategies), n_games=task.size,
                                     deal_rows=task.deals_out is not None)
    # Game ids are run-wide: chunk k holds games start .. start+size-1.
    games["game_id"] = games["game_id"].astype(np.int64) + task.start
    games["chunk"] = np.full(task.size, chunk_col, dtype=np.int32)
    deal_columns = None
    if task.deals_out is not None:
        deals["game_id"] = deals["game_id"].astype(np.int64) + task.start
        deals["chunk"] = np.full(len(deals["deal_id"]), chunk_col, dtype=np.int32)
        deal_columns = _columns(deals, schema.deal_columns(task.players, in_games=True))
    return _columns(games, schema.game_columns(task.players)), deal_columns


def chunk_frames(task: ChunkTask) -> tuple[pl.DataFrame, pl.DataFrame | None]:
    """:func:`chunk_columns` as polars frames."""
    columns, deal_columns = chunk_columns(task)
    return pl.DataFrame(columns), None if deal_columns is None else pl.DataFrame(deal_columns)


# --------------------------------------------------------------------------- strategies
def normalize_strategies(strategies: str | Sequence[str] | None, players: int) -> tuple[str, ...]:
    """One strategy spec per seat: none -> all ``standard``; one -> every seat; else one each."""
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
    try:
        from thousand import strategies as strategy_module
    except ImportError:  # pragma: no cover - before the strategies module lands
        return tuple(strategies)
    canon = getattr(strategy_module, "canonical", None)
    return tuple(canon(s) if canon else s for s in strategies)


# --------------------------------------------------------------------------- metadata
#: A metadata.json is well under 10 KB.
MAX_METADATA_BYTES = 1 << 20


def read_metadata(path: str | os.PathLike) -> dict[str, Any]:
    """The ``metadata.json`` of a dataset directory."""
    meta_path = Path(path) / METADATA_FILE
    if not meta_path.exists() and not meta_path.is_symlink():
        raise ThousandError(f"{os.fspath(path)!r} is not a thousand dataset (no {METADATA_FILE})")
    # A device, a pipe, a huge or deeply nested file there: one line, at once (thousand.files).
    meta = read_json(meta_path, "dataset metadata", MAX_METADATA_BYTES)
    problem = _metadata_problem(meta)
    if problem:
        raise ThousandError(f"{meta_path} is damaged: {problem}")
    return meta


def _metadata_problem(meta: Any) -> str | None:
    """What is wrong with the keys that reading and resuming a dataset rely on, if anything.

    A metadata.json edited by hand must not make ``load`` drop chunks silently or a
    resume report "nothing to compute" for a run that is not finished.
    """
    if not isinstance(meta, dict):
        kind = {type(None): "JSON null", list: "a JSON array", str: "a JSON string",
                bool: "a JSON boolean"}.get(type(meta), "a JSON number")
        return f"it holds {kind}, not an object"

    def count(key: str, low: int) -> bool:
        value = meta.get(key)
        return isinstance(value, int) and not isinstance(value, bool) and value >= low

    for key, low in (("n", 1), ("chunk_size", 1), ("n_chunks", 1)):
        if not count(key, low):
            return f"{key} must be a whole number of at least {low}, not {_short(meta.get(key))}"
    if meta["n_chunks"] != math.ceil(meta["n"] / meta["chunk_size"]):
        return (f"n_chunks={meta['n_chunks']} does not fit n={meta['n']} in chunks of "
                f"{meta['chunk_size']} ({math.ceil(meta['n'] / meta['chunk_size'])})")
    if "first_chunk" in meta and not (count("first_chunk", 0) and meta["first_chunk"] < meta["n_chunks"]):
        return f"first_chunk must be a chunk number below n_chunks, not {_short(meta['first_chunk'])}"
    if meta.get("kind") not in ("deals", "games"):
        return f"kind must be \"deals\" or \"games\", not {_short(meta.get('kind'))}"
    if meta.get("rows") not in ("deals", meta["kind"]):
        return f"rows={_short(meta.get('rows'))} does not go with kind={_short(meta['kind'])}"
    return None


def _write_json_atomic(path: Path, data: dict[str, Any]) -> None:
    tmp = path.with_name(f".{path.name}.{uuid.uuid4().hex[:8]}.tmp")
    tmp.write_text(json.dumps(data, indent=2) + "\n")
    os.replace(tmp, path)


def _kernel_version(module: str) -> Any:
    try:
        return getattr(_kernel(module), "KERNEL_VERSION", None)
    except ThousandError:
        return None


def _metadata(kind: str, n: int, chunk_size: int, seed: int, rules: Rules,
              strategies: tuple[str, ...], compression: str, kernel_module: str,
              with_deals: bool, rows_of: str, first_chunk: int) -> dict[str, Any]:
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
        "kernel_version": _kernel_version(kernel_module),
        "compression": compression,
        "schema": {name: np.dtype(dtype).name for name, (dtype, _) in columns.items()},
        "status": "running",
    }


def _check_dir(path: Path, meta: dict[str, Any], resume: bool, option: str = "--out") -> None:
    """Create ``path`` if needed and check it may receive this run (writes no file)."""
    try:
        os.fspath(path).encode("utf-8")
    except UnicodeEncodeError:
        # Polars takes paths as UTF-8 text; a name with undecodable bytes cannot be written.
        raise ThousandError(f"output directory {os.fspath(path)!r} is not a UTF-8 name; choose another") from None
    if path.exists() and not path.is_dir():
        raise ThousandError(f"{option} {os.fspath(path)!r} is a file, not a directory")
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise ThousandError(f"cannot create output directory {os.fspath(path)!r}: {e.strerror}") from None
    if not os.access(path, os.W_OK | os.X_OK):
        raise ThousandError(f"output directory {os.fspath(path)!r} is not writable")
    if (path / METADATA_FILE).exists() and not resume and not any(path.glob("chunk-*.parquet")):
        # A run that failed before writing any chunk (e.g. the scheduler was unreachable)
        # holds nothing worth keeping: start afresh instead of demanding --resume.
        (path / METADATA_FILE).unlink()
    if (path / METADATA_FILE).exists():
        if not resume:
            raise ThousandError(
                f"{os.fspath(path)!r} already holds a run; use --resume to continue it or choose another {option}")
        old = read_metadata(path)
        for key in _RESUME_KEYS:
            if old.get(key) != meta.get(key):
                raise ThousandError(
                    f"cannot resume {os.fspath(path)!r}: it was run with {key}={_short(old.get(key))}, "
                    f"not {_short(meta.get(key))}")
    elif any(p for p in path.iterdir() if not p.name.startswith(".")):
        raise ThousandError(f"output directory {os.fspath(path)!r} is not empty and holds no run")


def _open_dir(path: Path, meta: dict[str, Any], first_row: Callable[[int], pl.DataFrame]) -> set[int]:
    """Write the metadata of a new run, clear leftovers; returns the chunks already written.

    ``first_row(k)`` is the row this run writes first in chunk ``k``: a file is kept only
    if it begins with it (see :func:`_holds_chunk`)."""
    # Leftovers of writes that were interrupted before their rename.
    for tmp in path.glob(".*.tmp"):
        tmp.unlink(missing_ok=True)
    if not (path / METADATA_FILE).exists():
        _write_json_atomic(path / METADATA_FILE, meta)
    done = set()
    for k in _chunk_range(meta):
        chunk = path / chunk_file(k)
        if not chunk.exists():
            continue
        if not chunk.is_file():
            raise ThousandError(f"{os.fspath(chunk)!r} is not a chunk file; remove it and --resume")
        if _holds_chunk(chunk, first_row(k)):
            done.add(k)
        else:
            # Damaged after it was written (disk full, a sync tool), or copied in from
            # another chunk or another run: compute it again.
            print(f"chunk {k} in {os.fspath(path)!r} is damaged or not this run's (another chunk, seed, "
                  "rules or strategies); computing it again", file=sys.stderr)
            chunk.unlink()
    return done


def _holds_chunk(chunk: Path, expected: pl.DataFrame) -> bool:
    """Whether ``chunk`` is a readable Parquet file that begins with the row ``expected``.

    A chunk's first deal (or game) depends only on the run's seed, rules, strategies and
    the chunk's index (its ``chunk`` column), so one replayed item tells this run's file
    from a damaged one, another chunk's, or another run's copied in.
    """
    try:
        got = pl.read_parquet(chunk, n_rows=1)
    except Exception:  # any failure to read the file means it is not a chunk
        return False
    return got.schema == expected.schema and got.equals(expected)


def _chunk_range(meta: dict[str, Any]) -> range:
    """The chunks a run computes: all, or those from ``first_chunk`` on."""
    return range(meta.get("first_chunk", 0), meta["n_chunks"])


def _short(value: Any) -> str:
    """``value`` as JSON (a string in quotes, so "80000" and 80000 differ), at most 60 characters."""
    text = json.dumps(value)
    return text if len(text) <= 60 else text[:57] + "..."


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
        if self.computed == 0:
            return f"nothing to compute: all {self.n:,} {unit} were already written -> {self.path}"
        done = f"{self.computed:,} {unit}"
        if self.computed != self.n:
            done += f" (of {self.n:,}; the rest were already written)"
        if unit == "deals" and self.rows != self.computed:
            done += f", {self.rows:,} rows with the redealt deals,"
        return f"{done} in {self.seconds:.2f} s: {self.rate:,.0f} {unit}/s -> {self.path}"

    def frame(self) -> pl.LazyFrame:
        return load(self.path)

    def deals_frame(self) -> pl.LazyFrame:
        if self.deals_path is None:
            raise ThousandError("this games run wrote no deal rows (give deals_out)")
        return load(self.deals_path)


def _dask_client(scheduler: str | None, jobs: int) -> tuple[Any, Callable[[], None]]:
    """A ``distributed.Client`` for ``scheduler``, or on a new LocalCluster; and its closer."""
    try:
        from dask.distributed import Client, LocalCluster
    except ImportError:
        raise ThousandError("the dask backend needs dask[distributed]: pip install 'thousand[dask]'") from None
    if scheduler:
        try:
            client = Client(scheduler, timeout=DASK_CONNECT_TIMEOUT)
        except (OSError, TimeoutError, ValueError) as e:
            raise ThousandError(f"cannot reach the Dask scheduler at {scheduler!r}: {e}") from None
        return client, client.close
    # The cluster's processes and its event-loop thread start deaf to Ctrl-C, like loky's
    # workers: the run stops them itself.  Its log messages are the run's own business:
    # only errors are shown (closing it mid-run logs warnings about the tasks it drops).
    with _children_deaf_to_ctrl_c():
        cluster = LocalCluster(n_workers=jobs, threads_per_worker=1, processes=True,
                               dashboard_address=":0", silence_logs=logging.ERROR)
        client = Client(cluster)

    def close() -> None:
        client.close()
        cluster.close()
    return client, close


def loky_backend() -> Any:
    """joblib's loky backend as the runner's worker processes need it.

    - polars' thread pool is sized per worker: joblib gives each of ``jobs`` workers
      ``cpu_count // jobs`` threads for the native pools it knows (OpenMP, BLAS, ...) so
      that workers do not oversubscribe the cores, and ``POLARS_MAX_THREADS`` is set the
      same way (read when polars is first imported, which in a fresh worker happens
      after joblib set the environment).  Otherwise every worker's polars starts a
      thread per core for the Parquet work it still does (compressed runs, analysis),
      and two workers on two cores fight over four threads.
    - The workers start with SIGINT blocked, as the standard library starts its
      resource tracker (bpo-33613).  Ctrl-C in a terminal goes to the whole process
      group; a worker still importing would die of it with a traceback of its own on
      the user's screen.  Blocked, only the run's own process sees Ctrl-C, and joblib
      then stops the workers; the run reports the interruption in one line.
    """
    from joblib.parallel import LokyBackend

    class RunnerLokyBackend(LokyBackend):
        MAX_NUM_THREADS_VARS = [*LokyBackend.MAX_NUM_THREADS_VARS, "POLARS_MAX_THREADS"]

        def configure(self, *args: Any, **kwargs: Any) -> int:
            n_jobs = super().configure(*args, **kwargs)
            _spawn_without_sigint(self._workers)
            return n_jobs

    return RunnerLokyBackend()


def _spawn_without_sigint(executor: Any) -> None:
    """Have ``executor`` (a loky executor) start its worker processes with SIGINT blocked.

    loky starts workers in ``_adjust_process_count``, from whichever thread submits work
    or replaces a worker; the wrapper blocks SIGINT in that thread only while it starts
    them.  A loky without that method is left as it is.
    """
    start = getattr(executor, "_adjust_process_count", None)
    if start is None or getattr(start, "blocks_sigint", False):
        return

    def start_workers() -> None:
        with _children_deaf_to_ctrl_c():
            start()

    start_workers.blocks_sigint = True  # type: ignore[attr-defined]
    executor._adjust_process_count = start_workers


@contextlib.contextmanager
def _children_deaf_to_ctrl_c() -> Iterator[None]:
    """Block SIGINT in this thread meanwhile: processes and threads started from it inherit
    the blocked signal (through fork and exec too; Python leaves the mask as it finds it).

    Ctrl-C in a terminal goes to the whole process group.  A worker process still
    importing would die of it with a traceback of its own on the user's screen; blocked,
    only the run's own process sees Ctrl-C, stops its workers and reports the
    interruption in one line.  A Ctrl-C pressed meanwhile waits until the block ends.
    """
    import signal

    if not hasattr(signal, "pthread_sigmask"):
        yield
        return
    # Starting a process may first start multiprocessing's resource tracker, whose start
    # unblocks SIGINT in this thread (Python 3.11): start it beforehand.
    from multiprocessing import resource_tracker
    resource_tracker.ensure_running()
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


def _execute(tasks: list[ChunkTask], backend: str, jobs: int, scheduler: str | None) -> Iterator[tuple[int, int, int]]:
    """Run the tasks; yields each chunk's result as it finishes (in any order)."""
    from joblib import Parallel, delayed, parallel_config

    # More workers than chunks only costs start-up time (and, with loky, semaphores).
    jobs = max(1, min(jobs if jobs > 0 else (os.cpu_count() or 1), len(tasks)))
    if backend == "threads":
        yield from _execute_threads(tasks, jobs)
        return
    calls = (delayed(run_chunk)(t) for t in tasks)
    if backend == "dask":
        client, close = _dask_client(scheduler, jobs)
        try:
            with parallel_config(backend="dask"):
                yield from Parallel(n_jobs=-1, return_as="generator_unordered")(calls)
        finally:
            close()
        return
    yield from Parallel(n_jobs=jobs, backend=loky_backend(), return_as="generator_unordered")(calls)


def _execute_threads(tasks: list[ChunkTask], jobs: int) -> Iterator[tuple[int, int, int]]:
    """Run the tasks on ``jobs`` threads of this process (the kernel and polars release the GIL).

    Only ``jobs`` chunks are in flight at a time, so that an interruption (Ctrl-C, an
    error, the caller closing this generator) has nothing queued to drain: it waits for
    the chunks being computed to be written, so no finished work is lost and no file
    appears after the run has returned, and then propagates.  (joblib's threading
    backend leaves its threads running after an interruption, still writing chunks.)
    """
    pending = iter(tasks)
    with ThreadPoolExecutor(jobs, thread_name_prefix="thousand-chunk") as pool:
        running = {pool.submit(run_chunk, task) for task in itertools.islice(pending, jobs)}
        try:
            while running:
                done, running = wait(running, return_when=FIRST_COMPLETED)
                for future in done:
                    result = future.result()
                    task = next(pending, None)
                    if task is not None:
                        running.add(pool.submit(run_chunk, task))
                    yield result
        except BaseException:
            # A thread cannot be stopped inside the kernel (it runs without the GIL), so
            # even a second Ctrl-C here only skips the wait: the threads end their chunk.
            wait(running)
            raise


def _progress_bar(total: int, initial: int, unit: str, progress: bool | None) -> Any:
    """A tqdm bar on a terminal; ``None`` when stderr is not a terminal (or disabled)."""
    if progress is None:
        progress = sys.stderr.isatty()
    if not progress:
        return None
    from tqdm import tqdm
    return tqdm(total=total, initial=initial, unit=unit[:-1], unit_scale=True, dynamic_ncols=True,
                smoothing=0.1, file=sys.stderr)


_TEMP_DIRS: list[str] = []


def _temp_out() -> Path:
    """A temporary dataset directory, removed when the interpreter exits."""
    if not _TEMP_DIRS:
        atexit.register(lambda: [shutil.rmtree(d, ignore_errors=True) for d in _TEMP_DIRS])
    d = tempfile.mkdtemp(prefix="thousand-run-")
    _TEMP_DIRS.append(d)
    return Path(d)


# Sanity limits: beyond them a run would take months or a chunk would not fit in memory.
MAX_ITEMS = {"deals": 10**11, "games": 10**10}
MAX_CHUNK = {"deals": 5_000_000, "games": 200_000}
# Chunk files a run may have: every chunk is a task and a file, so a tiny --chunk-size with
# a large count would fill memory with tasks (and the directory with files) before work.
MAX_CHUNKS = 100_000
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
    if backend not in BACKENDS:
        raise ThousandError(f"unknown backend {backend!r}: use {', '.join(BACKENDS)}")
    if not isinstance(jobs, (int, np.integer)) or jobs == 0 or jobs < -1:
        raise ThousandError(f"jobs must be a positive number of workers or -1 for all cores, got {jobs!r}")


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
    kernel_module = _KERNEL_MODULE
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
    if scheduler is not None and not scheduler.strip():
        raise ThousandError("--scheduler is empty: give the scheduler's address, e.g. tcp://10.0.0.5:8786")
    if scheduler is not None and backend != "dask":
        raise ThousandError("--scheduler needs --backend dask")
    rules = parse_rules_spec(rules)
    strategies = normalize_strategies(strategies, rules.players)
    if seed is None:
        seed = int(np.random.SeedSequence().entropy)  # recorded, so the run can be repeated
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise ThousandError(f"seed must be a non-negative whole number, got {seed!r}")
    seed, n, chunk_size = int(seed), int(n), int(chunk_size)

    check_name(out, "--out", "the directory to write to")
    check_name(deals_out, "--deals-out", "the directory to write to")
    out_path = Path(out) if out is not None else _temp_out()
    if out is None and resume:
        raise ThousandError("--resume needs --out: the directory of the run to continue")
    deals_path = Path(deals_out) if deals_out is not None else None
    with_deals = deals_path is not None
    meta = _metadata(kind, n, chunk_size, seed, rules, strategies, compression, kernel_module,
                     with_deals, rows_of=kind, first_chunk=first_chunk)
    if deals_path is not None:
        a, b = deals_path.resolve(), out_path.resolve()
        if a == b:
            raise ThousandError("--deals-out must be a different directory from --out")
        if a.is_relative_to(b) or b.is_relative_to(a):   # one dataset inside the other mixes the two tables
            raise ThousandError("--deals-out and --out must not be inside one another")
    out_existed = out_path.exists()
    _check_dir(out_path, meta, resume)
    if deals_path is not None:
        try:
            deal_meta = _metadata(kind, n, chunk_size, seed, rules, strategies, compression, kernel_module,
                                  with_deals, rows_of="deals", first_chunk=first_chunk)
            _check_dir(deals_path, deal_meta, resume, option="--deals-out")
        except ThousandError:
            if not out_existed:  # leave no empty --out behind a refused run
                out_path.rmdir()
            raise
    bounds = chunk_bounds(n, chunk_size)
    wanted = _chunk_range(meta)
    rules_array = rules.to_kernel()
    owner = os.getpid() if backend == "loky" else None
    all_tasks = {
        k: ChunkTask(kind, k, bounds[k][0], bounds[k][1], seed, rules_array, rules.players, strategies,
                     os.fspath(out_path), os.fspath(deals_path) if deals_path else None, compression,
                     kernel_module, owner)
        for k in wanted
    }

    @functools.lru_cache(maxsize=None)
    def first_rows(k: int) -> tuple[pl.DataFrame, pl.DataFrame | None]:
        """Chunk k's first row in each file, replayed (one deal or game) for the resume check."""
        frame, deal_frame = chunk_frames(dataclasses.replace(all_tasks[k], size=1))
        return frame.head(1), None if deal_frame is None else deal_frame.head(1)

    # Both directories are checked before either is written to.
    done = _open_dir(out_path, meta, lambda k: first_rows(k)[0])
    if deals_path is not None:
        # A games chunk is done only when its deal rows were written too.
        done &= _open_dir(deals_path, deal_meta, lambda k: first_rows(k)[1])
    tasks = [all_tasks[k] for k in wanted if k not in done]
    total = sum(bounds[k][1] for k in wanted)
    already = sum(bounds[k][1] for k in done)
    bar = _progress_bar(total, already, kind, progress)
    computed = rows = 0
    started = time.perf_counter()
    try:
        # closing(): an interruption shuts the pool (or the Dask cluster) down at once.
        with contextlib.closing(_execute(tasks, backend, jobs, scheduler)) as results:
            for _, size, nrows in results:
                computed += size
                rows += nrows
                if bar is not None:
                    bar.update(size)
    except (KeyboardInterrupt, BrokenExecutor) as e:
        if bar is not None:
            bar.close()
            bar = None
        left = sum(1 for k in wanted if not (out_path / chunk_file(k)).exists())
        if out is None:  # the temporary directory goes at exit: nothing to resume from
            kept = "nothing is kept (no --out was given; with --out DIR an interrupted run can be resumed)"
        else:
            kept = f"{len(wanted) - left} of {len(wanted)} chunks are written in {out_path}; {resume_hint}"
        if killed_by_interrupt(e):
            # A worker that got Ctrl-C itself (its workers start deaf to the terminal's,
            # but a signal can be sent to one alone) dies of it: that is the interrupt too.
            print(f"interrupted: {kept}", file=sys.stderr)
            raise KeyboardInterrupt from None
        # A worker process died (killed, out of memory): what was written is kept.
        raise ThousandError(f"a worker process died ({type(e).__name__}); {kept}") from None
    finally:
        if bar is not None:
            bar.close()
    seconds = time.perf_counter() - started

    for path in (out_path, deals_path):
        if path is None:
            continue
        m = read_metadata(path)
        m["status"] = "complete"
        _write_json_atomic(path / METADATA_FILE, m)
    return RunResult(out_path, kind, total, computed, rows, seconds, deals_path, read_metadata(out_path),
                     temporary=out is None)


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


# --------------------------------------------------------------------------- reading
def load(path: str | os.PathLike, allow_partial: bool = False) -> pl.LazyFrame:
    """A LazyFrame over a dataset written by :func:`simulate` or :func:`simulate_games`.

    Chunks are read in order.  In deal rows ``deal_id`` is made run-wide here: on disk it
    counts the rows of its chunk (a worker cannot know how many redeals the chunks before
    it hold), and the LazyFrame numbers all rows of the run ``0, 1, 2, ...``.

    An unfinished run raises unless ``allow_partial`` (then only the written chunks show,
    and the run-wide ``deal_id`` numbers only their rows: it shifts once the missing
    chunks are written).  A run computed from ``first_chunk=k`` numbers from its chunk k.
    """
    path = Path(path)
    meta = read_metadata(path)
    first = meta.get("first_chunk", 0)
    if any((path / chunk_file(k)).exists() for k in range(first)):
        raise ThousandError(f"{path / METADATA_FILE} is damaged: first_chunk={first}, but chunk files before it "
                            "are there")
    files = [path / chunk_file(k) for k in _chunk_range(meta)]
    present = [f for f in files if f.exists()]
    if len(present) < len(files) and not allow_partial:
        raise ThousandError(
            f"the run in {os.fspath(path)!r} is unfinished ({len(present)} of {len(files)} chunks); "
            "finish it with --resume")
    if not present:
        raise ThousandError(f"the run in {os.fspath(path)!r} has no chunk written yet")
    if meta["rows"] == "games":
        return pl.scan_parquet(present)
    lf = pl.scan_parquet(present, row_index_name="__row")
    return lf.with_columns(pl.col("__row").cast(pl.Int64).alias("deal_id")).drop("__row")
