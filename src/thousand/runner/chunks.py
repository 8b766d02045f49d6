"""What a chunk computes: the kernel's deals or games for one chunk, on its streams.

Two seeding schemes (:mod:`.seeding`):

* :func:`chunk_columns` plays a whole chunk from the chunk's stream, the columns in the
  schema's order and on-disk types; :func:`run_chunk` (a worker's task in ``simulate``
  and ``games``) writes them to the chunk's file(s) and returns only counts;
* :func:`unit_chunk_columns` plays every game (every block of deals) from its own unit
  stream, the pairing ``compare`` needs; a comparison reduces them in the worker.
"""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import numpy as np
import polars as pl

from thousand import schema
from thousand.errors import ThousandError
from thousand.runner.pool import keep_freed_memory
from thousand.runner.seeding import DEAL_BLOCK, chunk_stream, unit_stream
from thousand.runner.store import new_token, write_chunk

__all__ = ["ChunkTask", "ChunkDone", "run_chunk", "chunk_columns", "chunk_frames", "unit_chunk_columns", "stored_columns",
           "STORED_DTYPES", "kernel"]

# Columns stored narrower than the schema's type.  On disk ``deal_id`` counts the rows of
# its chunk (at most MAX_CHUNK deals and their redeals, far below 2**31), and ``load``
# renumbers it run-wide as int64; int32 halves the column and its write time.
STORED_DTYPES = {"deal_id": np.int32}


def kernel() -> Any:
    """The compiled kernel's Python layer, or a one-line error when it is not built."""
    try:
        from thousand import kernel as module
    except ImportError as e:  # pragma: no cover - only before the kernel is built
        hint = "" if "make build" in str(e) else "; run `make build`"
        raise ThousandError(f"the compiled kernel is not available: {e}{hint}") from None
    return module


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
    token: str | None = None   # the writing session's, for the temporary names (see store.ChunkStore.open)


@dataclass(frozen=True)
class ChunkDone:
    """What a worker reports of a chunk it wrote: the rows and bytes of each file."""

    index: int
    items: int
    rows: int
    size: int
    deal_rows: int = 0
    deal_size: int = 0


def run_chunk(task: ChunkTask) -> ChunkDone:
    """Compute chunk ``task.index``, write its file(s) and record them in the store's journal.

    Runs in a worker; the written files are the result, the return value only feeds the
    progress bar and the summary.
    """
    keep_freed_memory()
    columns, deal_columns = chunk_columns(task)
    token = task.token or new_token()
    deal_rows = deal_size = 0
    if deal_columns is not None:
        # The deals file goes first: a games chunk is done only when both are recorded.
        deal_size = write_chunk(deal_columns, task.deals_out, task.index, task.compression, token)
        deal_rows = len(next(iter(deal_columns.values())))
    size = write_chunk(columns, task.out, task.index, task.compression, token)
    rows = len(next(iter(columns.values())))
    return ChunkDone(task.index, task.size, rows, size, deal_rows, deal_size)


def stored_columns(columns: dict[str, np.ndarray], names: Iterable[str]) -> dict[str, np.ndarray]:
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


def chunk_columns(task: ChunkTask) -> tuple[dict[str, np.ndarray], dict[str, np.ndarray] | None]:
    """The columns of chunk ``task.index`` as written: the main file's, and a games run's deal rows."""
    bitgen = chunk_stream(task.seed, task.index)
    chunk_col = np.int32(task.index)
    if task.kind == "deals":
        cols = kernel().play_deals(bitgen, task.rules, list(task.strategies), n_deals=task.size)
        cols["chunk"] = np.full(len(cols["deal_id"]), chunk_col, dtype=np.int32)
        return stored_columns(cols, schema.deal_columns(task.players)), None
    games, deals = kernel().play_games(bitgen, task.rules, list(task.strategies), n_games=task.size,
                                       deal_rows=task.deals_out is not None)
    # Game ids are run-wide: chunk k holds games start .. start+size-1.
    games["game_id"] = games["game_id"].astype(np.int64) + task.start
    games["chunk"] = np.full(task.size, chunk_col, dtype=np.int32)
    deal_columns = None
    if task.deals_out is not None:
        deals["game_id"] = deals["game_id"].astype(np.int64) + task.start
        deals["chunk"] = np.full(len(deals["deal_id"]), chunk_col, dtype=np.int32)
        deal_columns = stored_columns(deals, schema.deal_columns(task.players, in_games=True))
    return stored_columns(games, schema.game_columns(task.players)), deal_columns


def chunk_frames(task: ChunkTask) -> tuple[pl.DataFrame, pl.DataFrame | None]:
    """:func:`chunk_columns` as polars frames."""
    columns, deal_columns = chunk_columns(task)
    return pl.DataFrame(columns), None if deal_columns is None else pl.DataFrame(deal_columns)


def _concat_columns(parts: list[dict[str, np.ndarray]]) -> dict[str, np.ndarray]:
    return {name: np.concatenate([p[name] for p in parts]) for name in parts[0]}


def unit_chunk_columns(kind: str, rules: np.ndarray, strategies: tuple[str, ...], seed: int, chunk: int,
                       size: int, stride: int | None = None) -> tuple[dict[str, np.ndarray] | None, dict[str, np.ndarray]]:
    """Chunk ``chunk`` of ``size`` units on unit streams: ``(game columns, deal columns)``.

    Games (``kind == "games"``): game ``g`` from :func:`~.seeding.unit_stream` ``(chunk,
    g)``, ``game_id = chunk * stride + g`` (``stride``: the run's chunk size, which a short
    last chunk's ``size`` is not; default ``size``), so ids never repeat across the chunks
    of a run, and the deal rows of every game.  Deals: blocks
    of :data:`~.seeding.DEAL_BLOCK` deals, block ``b`` from the unit stream ``(chunk, b)``;
    no game columns (``None``).  The columns are the kernel's, with ``chunk`` and a
    ``deal_id`` counting the chunk's deal rows.
    """
    play = kernel()
    if kind == "games":
        game_parts, deal_parts = [], []
        first_id = chunk * (size if stride is None else stride)
        for g in range(size):
            games, deals = play.play_games(unit_stream(seed, chunk, g), rules, list(strategies), n_games=1,
                                           deal_rows=True)
            games["game_id"] = np.full(1, first_id + g, dtype=np.int64)
            deals["game_id"] = np.full(len(deals["deal_no"]), first_id + g, dtype=np.int64)
            game_parts.append(games)
            deal_parts.append(deals)
        game_columns = _concat_columns(game_parts)
        deal_columns = _concat_columns(deal_parts)
        game_columns["chunk"] = np.full(size, chunk, dtype=np.int32)
    else:
        game_columns = None
        deal_columns = _concat_columns([
            play.play_deals(unit_stream(seed, chunk, block), rules, list(strategies),
                            n_deals=min(DEAL_BLOCK, size - start))
            for block, start in enumerate(range(0, size, DEAL_BLOCK))])
    rows = len(deal_columns["deal_no"])
    deal_columns["chunk"] = np.full(rows, chunk, dtype=np.int32)
    deal_columns["deal_id"] = np.arange(rows, dtype=np.int64)
    return game_columns, deal_columns
