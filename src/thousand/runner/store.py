"""The chunk store: a directory of chunk files and the ``metadata.json`` that describes them.

A run writes ``metadata.json`` first, then one file per chunk, ``chunk-<k>.parquet``, each
under a hidden temporary name and renamed into place (so a chunk file that exists is
whole).  The metadata records everything that determines the data; a run continued
with ``resume`` must agree with it on every key of its ``resume_keys``, and a chunk file
already there is kept only if it begins with the row this run would write there (one
item replayed from the chunk's seed).  :func:`load` reads a finished store back.

The store knows nothing of what a chunk holds: the deal and game datasets of
``thousand.simulate`` and the report's forced-declarer hands are both stores.
"""
from __future__ import annotations

import json
import math
import os
import sys
import uuid
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl

from thousand.errors import ThousandError

__all__ = ["METADATA_FILE", "FORMAT_VERSION", "KINDS", "ChunkStore", "read_metadata", "metadata_problem",
           "chunk_file", "chunk_range", "write_chunk", "write_frame", "write_json_atomic", "load", "short"]

METADATA_FILE = "metadata.json"
# 2: deal_id stored as int32; files without compression.
FORMAT_VERSION = 2
#: What a store may hold: ``kind`` counts the items of ``n``; ``rows`` is what a row is.
KINDS = {"deals": ("deals",), "games": ("games", "deals"), "forced_hands": ("completions",)}
# One row group for a default chunk (250,000 deals and their redeals; 10,000 games' deal
# rows): each row group repeats the dictionaries and headers of every column.  Column
# statistics are not written: they could only skip row groups of random deals.
ROW_GROUP_SIZE = 500_000


def chunk_file(k: int) -> str:
    return f"chunk-{k:06d}.parquet"


def chunk_range(meta: dict[str, Any]) -> range:
    """The chunks a run computes: all, or those from ``first_chunk`` on."""
    return range(meta.get("first_chunk", 0), meta["n_chunks"])


def short(value: Any) -> str:
    """``value`` as JSON (a string in quotes, so "80000" and 80000 differ), at most 60 characters."""
    text = json.dumps(value)
    return text if len(text) <= 60 else text[:57] + "..."


# --------------------------------------------------------------------------- files
def _temporary(path: Path) -> Path:
    return path.with_name(f".{path.name}.{uuid.uuid4().hex[:8]}.tmp")


def write_chunk(columns: dict[str, np.ndarray], path: Path, compression: str) -> None:
    """Write a chunk's columns so that ``path`` either does not exist or holds the whole chunk.

    Uncompressed (the default) goes through the runner's own writer, :mod:`thousand.parquet`,
    at a third of polars' cost; a compressed file is polars' to write.
    """
    tmp = _temporary(path)
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


def write_frame(frame: pl.DataFrame, path: Path) -> None:
    """Write a polars frame (polars' writer, its defaults) whole or not at all."""
    tmp = _temporary(path)
    try:
        frame.write_parquet(tmp)
        os.replace(tmp, path)
    finally:
        if tmp.exists():
            tmp.unlink()


def write_json_atomic(path: Path, data: dict[str, Any]) -> None:
    tmp = _temporary(path)
    tmp.write_text(json.dumps(data, indent=2) + "\n")
    os.replace(tmp, path)


# --------------------------------------------------------------------------- metadata
def read_metadata(path: str | os.PathLike) -> dict[str, Any]:
    """The ``metadata.json`` of a store (a dataset directory), checked for the keys reading needs."""
    meta_path = Path(path) / METADATA_FILE
    try:
        meta = json.loads(meta_path.read_text())
    except FileNotFoundError:
        raise ThousandError(f"{os.fspath(path)!r} is not a thousand dataset (no {METADATA_FILE})") from None
    except (OSError, ValueError) as e:  # ValueError: not JSON, or not UTF-8 text
        raise ThousandError(f"cannot read {meta_path}: {e}") from None
    problem = metadata_problem(meta)
    if problem:
        raise ThousandError(f"{meta_path} is damaged: {problem}")
    return meta


def metadata_problem(meta: Any) -> str | None:
    """What is wrong with the keys that reading and resuming a store rely on, if anything.

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
            return f"{key} must be a whole number of at least {low}, not {short(meta.get(key))}"
    if meta["n_chunks"] != math.ceil(meta["n"] / meta["chunk_size"]):
        return (f"n_chunks={meta['n_chunks']} does not fit n={meta['n']} in chunks of "
                f"{meta['chunk_size']} ({math.ceil(meta['n'] / meta['chunk_size'])})")
    if "first_chunk" in meta and not (count("first_chunk", 0) and meta["first_chunk"] < meta["n_chunks"]):
        return f"first_chunk must be a chunk number below n_chunks, not {short(meta['first_chunk'])}"
    kind = meta.get("kind")
    if kind not in KINDS:
        names = " or ".join(f'"{k}"' for k in KINDS)
        return f"kind must be {names}, not {short(kind)}"
    if meta.get("rows") not in KINDS[kind]:
        return f"rows={short(meta.get('rows'))} does not go with kind={short(kind)}"
    return None


# --------------------------------------------------------------------------- a store
class ChunkStore:
    """A directory that receives the chunks of one run described by ``meta``.

    ``resume_keys``: the metadata keys an earlier run in the directory must share for
    ``resume`` to continue it.  ``option`` names the directory in messages (``--out``).
    """

    def __init__(self, path: str | os.PathLike, meta: dict[str, Any], resume_keys: Iterable[str],
                 option: str = "--out") -> None:
        self.path = Path(path)
        self.meta = meta
        self.resume_keys = tuple(resume_keys)
        self.option = option

    def chunk_path(self, k: int) -> Path:
        return self.path / chunk_file(k)

    def chunks(self) -> range:
        """The chunks this run computes."""
        return chunk_range(self.meta)

    def written(self) -> list[int]:
        """The chunks of this run whose files are in place."""
        return [k for k in self.chunks() if self.chunk_path(k).exists()]

    def prepare(self, resume: bool) -> None:
        """Create the directory if needed and check it may receive this run (writes no file)."""
        path, option = self.path, self.option
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
            for key in self.resume_keys:
                if old.get(key) != self.meta.get(key):
                    raise ThousandError(
                        f"cannot resume {os.fspath(path)!r}: it was run with {key}={short(old.get(key))}, "
                        f"not {short(self.meta.get(key))}")
        elif any(p for p in path.iterdir() if not p.name.startswith(".")):
            raise ThousandError(f"output directory {os.fspath(path)!r} is not empty and holds no run")

    def open(self, first_row: Callable[[int], pl.DataFrame] | None, partial: bool = False) -> set[int]:
        """Write the metadata of a new run, clear leftovers; returns the chunks already written.

        ``first_row(k)`` is the row this run writes first in chunk ``k`` (``partial``: some
        of its columns): a file is kept only if it begins with it (see :func:`_holds_chunk`)."""
        path = self.path
        # Leftovers of writes that were interrupted before their rename.
        for tmp in path.glob(".*.tmp"):
            tmp.unlink(missing_ok=True)
        if not (path / METADATA_FILE).exists():
            write_json_atomic(path / METADATA_FILE, self.meta)
        done = set()
        for k in chunk_range(self.meta):
            chunk = self.chunk_path(k)
            if not chunk.exists():
                continue
            if not chunk.is_file():
                raise ThousandError(f"{os.fspath(chunk)!r} is not a chunk file; remove it and --resume")
            if first_row is None or _holds_chunk(chunk, first_row(k), partial):
                done.add(k)
            else:
                # Damaged after it was written (disk full, a sync tool), or copied in from
                # another chunk or another run: compute it again.
                print(f"chunk {k} in {os.fspath(path)!r} is damaged or not this run's (another chunk, seed, "
                      "rules or strategies); computing it again", file=sys.stderr)
                chunk.unlink()
        return done

    def complete(self) -> dict[str, Any]:
        """Mark the run complete in its metadata; returns the metadata."""
        meta = read_metadata(self.path)
        meta["status"] = "complete"
        write_json_atomic(self.path / METADATA_FILE, meta)
        return meta


def _holds_chunk(chunk: Path, expected: pl.DataFrame, partial: bool = False) -> bool:
    """Whether ``chunk`` is a readable Parquet file that begins with the row ``expected``
    (with ``partial``: on the columns ``expected`` has; else on exactly those columns).

    A chunk's first item depends only on the run's seed, settings and the chunk's index,
    so one replayed item tells this run's file from a damaged one, another chunk's, or
    another run's copied in.
    """
    try:
        got = pl.read_parquet(chunk, n_rows=1)
    except Exception:  # any failure to read the file means it is not a chunk
        return False
    if partial:
        if not set(expected.columns) <= set(got.columns):
            return False
        got = got.select(expected.columns)
    return got.schema == expected.schema and got.equals(expected)


# --------------------------------------------------------------------------- reading
def load(path: str | os.PathLike, allow_partial: bool = False) -> pl.LazyFrame:
    """A LazyFrame over a dataset written by ``simulate`` or ``simulate_games`` (any store).

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
    files = [path / chunk_file(k) for k in chunk_range(meta)]
    present = [f for f in files if f.exists()]
    if len(present) < len(files) and not allow_partial:
        raise ThousandError(
            f"the run in {os.fspath(path)!r} is unfinished ({len(present)} of {len(files)} chunks); "
            "finish it with --resume")
    if not present:
        raise ThousandError(f"the run in {os.fspath(path)!r} has no chunk written yet")
    if meta["rows"] != "deals":
        return pl.scan_parquet(present)
    lf = pl.scan_parquet(present, row_index_name="__row")
    return lf.with_columns(pl.col("__row").cast(pl.Int64).alias("deal_id")).drop("__row")
