"""The chunk store: a directory of chunk files and the ``metadata.json`` that describes them.

A run writes ``metadata.json`` first, then one file per chunk, ``chunk-<k>.parquet``, each
under a hidden temporary name and renamed into place (so a chunk file that exists is
whole).  The metadata records everything that determines the data, and each chunk's
rows and bytes: the worker that writes a chunk appends them to the store's journal
(``chunks.jsonl``, one line a chunk) just before its rename, so that a chunk file in place
is always recorded; the metadata takes the journal in when a session opens and closes the
store.  A run continued with ``resume`` must agree with the
metadata on every key of its ``resume_keys``, and a chunk file already there is kept only
if it is recorded, begins with the row this run would write there (one item replayed
from the chunk's seed) and has the recorded rows, size and SHA-256.  :func:`load` reads
a store back, checking every chunk's size and SHA-256 against the record.

Only what the store can prove it wrote is ever removed: its metadata, the chunk files
its metadata numbers, and temporary files named with a writer token it recorded (each
session that writes adds one).  One process at a time writes a store: :meth:`ChunkStore.
prepare` takes a lock on the directory (``flock``, released when the process ends, however
it ends); :func:`claim_dir` does the same for other outputs (the report's folder,
``compare --out``).

The store knows nothing of what a chunk holds: the deal and game datasets of
``thousand.simulate``, the report's forced-declarer hands and ``compare``'s unit tables
are all stores.
"""
from __future__ import annotations

import contextlib
import errno
import hashlib
import json
import math
import os
import re
import sys
import tempfile
import uuid
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl

from thousand.errors import ThousandError
from thousand.files import lock_folder, read_bytes, read_json, written_whole

__all__ = ["METADATA_FILE", "FORMAT_VERSION", "KINDS", "MAX_CHUNKS", "ChunkStore", "read_metadata",
           "metadata_problem", "chunk_file", "chunk_range", "write_chunk", "write_frame", "write_json_atomic",
           "load", "short", "claim_dir", "check_writable", "remove_files", "own_files", "JOURNAL_FILE",
           "written_chunks"]

METADATA_FILE = "metadata.json"
#: One JSON line per chunk written, appended by the worker just before its rename.
JOURNAL_FILE = "chunks.jsonl"
# 2: deal_id stored as int32; files without compression.  3: each chunk's rows and bytes
# recorded (chunk_rows, chunk_bytes), the writers' tokens of their temporary files (writers).
FORMAT_VERSION = 3
#: What a store may hold: ``kind`` counts the items of ``n``; ``rows`` is what a row is.
KINDS = {"deals": ("deals",), "games": ("games", "deals"), "forced_hands": ("completions",),
         "compare_units": ("units",)}
# Chunk files a store may have: every chunk is a task and a file, so a tiny chunk size with
# a large count would fill memory with tasks (and the directory with files) before work;
# a metadata.json claiming more is damaged (load() would list them all).
MAX_CHUNKS = 100_000
#: A metadata.json is well under 10 KB (its chunk records: about 40 bytes a chunk).
MAX_METADATA_BYTES = 1 << 20
#: The journal holds one line of under 60 bytes per chunk written since the metadata took it in.
MAX_JOURNAL_BYTES = 64 << 20
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


def held_run(meta: dict[str, Any]) -> str:
    """What a store's metadata says it holds, as the command that wrote it.

    >>> held_run({"kind": "deals", "format": 3})
    'a thousand simulate run'
    >>> held_run({"kind": "deals", "match": True})
    'a thousand match run'
    """
    kind = meta.get("kind")
    if meta.get("match"):
        return "a thousand match run"
    if kind == "compare_units":
        return "a thousand compare run's units"
    if kind in ("deals", "games") and "format" in meta:
        return f"a thousand {'simulate' if kind == 'deals' else 'games'} run"
    if kind in ("forced_hands", "play_quality", "play_defence"):
        return "a thousand report's data"
    return f"data of kind {short(kind)}"


def _difference(key: str, old: dict[str, Any], new: dict[str, Any]) -> str:
    """What differs in ``key`` between an earlier run's metadata and this one's, as the user
    set it: for the rules the options themselves (``bolts=off, not always``), not hashes.

    >>> _difference("rules_hash", {"rules": {"bolts": "off", "target": 1000}, "rules_hash": "a"},
    ...             {"rules": {"bolts": "always", "target": 1000}, "rules_hash": "b"})
    'other rules: bolts="off", not "always"'
    >>> _difference("seed", {"seed": 1}, {"seed": 2})
    'seed=1, not 2'
    >>> _difference("precision", {"precision": 0.3}, {"precision": None})
    '--precision 0.3; give it again to continue'
    """
    if key == "rules_hash" and isinstance(old.get("rules"), dict) and isinstance(new.get("rules"), dict):
        a, b = old["rules"], new["rules"]
        changed = [f"{k}={short(a.get(k))}, not {short(b.get(k))}" for k in sorted({*a, *b}) if a.get(k) != b.get(k)]
        if changed:
            return "other rules: " + "; ".join(changed[:4]) + ("; ..." if len(changed) > 4 else "")
    if key == "precision" and new.get(key) is None and old.get(key) is not None:
        # (its other keys, n above all, are then the --precision run's, not what was typed)
        return f"--precision {old[key]:g}; give it again to continue"
    if key == "kernel_version" and old.get(key) is None:
        return ("a build of the kernel it did not record (a match or comparison written before "
                "2026-12-04): its data and this one's are not mixed; start a new run")
    if key == "kernel_version":
        return (f"another build of the kernel (kernel_version={short(old.get(key))}, not "
                f"{short(new.get(key))}): its data and this one's are not mixed; start a new run")
    if key == "precision" and old.get(key) is None:
        return f"no --precision, not --precision {short(new.get(key))}"
    return f"{key}={short(old.get(key))}, not {short(new.get(key))}"


# --------------------------------------------------------------------------- files
def new_token() -> str:
    return uuid.uuid4().hex[:8]


def write_chunk(columns: dict[str, np.ndarray], store: str | os.PathLike, k: int, compression: str,
                token: str) -> int:
    """Write chunk ``k`` of the store in directory ``store`` (``columns``: name to array),
    whole or not at all, and record it in the store's journal; returns its size in bytes.

    Uncompressed (the default) goes through the runner's own writer, :mod:`thousand.parquet`,
    at a third of polars' cost; a compressed file is polars' to write.  ``token``: the
    writer's, recorded in the store's metadata, in the temporary name.
    """
    def write(tmp: Path) -> None:
        if compression == "uncompressed":
            from thousand.parquet import write_parquet  # here: a missing build is a one-line error
            write_parquet(tmp, columns, row_group_size=ROW_GROUP_SIZE)
        else:
            with _polars_os_errors(tmp):
                pl.DataFrame(columns).write_parquet(tmp, compression=compression, statistics=False,
                                                    row_group_size=ROW_GROUP_SIZE)
    return _write_recorded(Path(store), k, len(next(iter(columns.values()))), token, write)


def write_frame(frame: pl.DataFrame, store: str | os.PathLike, k: int, token: str) -> int:
    """Write a polars frame as chunk ``k`` of the store in ``store`` (polars' writer, its
    defaults), whole or not at all, and record it; returns its size in bytes."""
    def write(tmp: Path) -> None:
        with _polars_os_errors(tmp):
            frame.write_parquet(tmp)
    return _write_recorded(Path(store), k, frame.height, token, write)


@contextlib.contextmanager
def _polars_os_errors(path: Path) -> Iterator[None]:
    """polars reports a failed write (a full disk) as a ComputeError ending "(os error N)":
    raise it as the OSError it is, so that the runner says it in one line as it does for
    its own writer's."""
    try:
        yield
    except pl.exceptions.ComputeError as e:
        m = re.search(r"\(os error (\d+)\)", str(e))
        if m is None:
            raise
        code = int(m.group(1))
        raise OSError(code, os.strerror(code), os.fspath(path)) from None


def _write_recorded(store: Path, k: int, rows: int, token: str, write: Callable[[Path], object]) -> int:
    """``write`` chunk ``k`` to a temporary name, record it in the journal (its rows, bytes
    and SHA-256), rename it into place; its size in bytes.

    The digest costs little (hashing runs at over 1 GB/s: 0.05 s for the 42 MB of a
    million deals, against 1.8 s to simulate them on two cores) and lets a resumed run and
    :func:`load` catch a byte changed inside a file of the same size.

    The record goes first: an interrupted run's pool kills its workers wherever they are,
    and one killed between the two leaves a record without a file (computed again without
    a word) rather than a whole file without a record (computed again although whole).
    """
    with written_whole(store / chunk_file(k), token) as tmp:
        write(tmp)
        size = tmp.stat().st_size
        journal_chunk(store, k, rows, size, _sha256(tmp))
    return size


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def write_json_atomic(path: Path, data: dict[str, Any], token: str | None = None) -> None:
    """Write ``data`` as JSON to ``path`` whole or not at all."""
    with written_whole(path, token or new_token()) as tmp:
        tmp.write_text(json.dumps(data, indent=2) + "\n")


def journal_chunk(store: str | os.PathLike, k: int, rows: int, size: int, sha256: str | None = None) -> None:
    """Record chunk ``k`` of the store in ``store`` as written (``rows`` rows, ``size`` bytes).

    Called by the worker that wrote the chunk, just before its rename, so that a chunk is
    recorded even when the run stops before the worker's result reaches it.  One short
    line in append mode: whole or (if the process dies in the middle) unreadable, never
    another chunk's.
    """
    entry: dict[str, Any] = {"chunk": int(k), "rows": int(rows), "bytes": int(size)}
    if sha256 is not None:
        entry["sha256"] = sha256
    line = json.dumps(entry) + "\n"
    with open(Path(store) / JOURNAL_FILE, "a", encoding="utf-8") as fh:
        fh.write(line)


def _journal(path: Path) -> dict[int, tuple[int, int, str | None]]:
    """The chunks the journal in ``path`` records, the last line of a chunk winning."""
    journal = path / JOURNAL_FILE
    if not journal.exists() and not journal.is_symlink():
        return {}
    # Bounded like every file the tool reads back: a pipe or a device there is one line.
    try:
        text = read_bytes(journal, "dataset journal", MAX_JOURNAL_BYTES).decode("utf-8", errors="replace")
    except ThousandError as e:
        raise ThousandError(f"{e}; move it away and --resume") from None
    out = {}
    for line in text.splitlines():
        try:
            entry = json.loads(line)
            k, rows, size = entry["chunk"], entry["rows"], entry["bytes"]
            digest = entry.get("sha256")
        except (ValueError, TypeError, KeyError, AttributeError):
            continue  # a line cut short by a crash records nothing
        if all(isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in (k, rows, size)) \
                and (digest is None or _is_digest(digest)):
            out[k] = (rows, size, digest)
    return out


def _is_digest(value: Any) -> bool:
    return isinstance(value, str) and len(value) == 64 and all(c in "0123456789abcdef" for c in value)


def _with_journal(path: Path, meta: dict[str, Any]) -> dict[str, Any]:
    """``meta`` with the journal's records of the run's chunks taken in."""
    meta = {**meta, "chunk_rows": dict(meta.get("chunk_rows", {})), "chunk_bytes": dict(meta.get("chunk_bytes", {}))}
    if "chunk_sha256" in meta:
        meta["chunk_sha256"] = dict(meta["chunk_sha256"])
    for k, (rows, size, digest) in _journal(path).items():
        if k in chunk_range(meta):
            meta["chunk_rows"][str(k)], meta["chunk_bytes"][str(k)] = rows, size
            if "chunk_sha256" in meta:
                if digest is None:
                    meta["chunk_sha256"].pop(str(k), None)
                else:
                    meta["chunk_sha256"][str(k)] = digest
    return meta


def check_writable(path: Path, option: str = "--out") -> None:
    """Create ``path`` if needed and make sure files can be written in it, before any work.

    ``os.access`` and a probe file of our own (created and removed): the probe also catches
    a read-only mount, a full quota, and permissions ``os.access`` does not see.
    """
    try:
        os.fspath(path).encode("utf-8")
    except UnicodeEncodeError:
        # Polars takes paths as UTF-8 text; a name with undecodable bytes cannot be written.
        raise ThousandError(f"output directory {os.fspath(path)!r} is not a UTF-8 name; choose another") from None
    if path.exists() and not path.is_dir():
        raise ThousandError(f"{option} {os.fspath(path)!r} is {'a file' if path.is_file() else 'a device'}, "
                            "not a directory")
    if path.is_symlink() and not path.exists():
        try:
            os.stat(path)
        except OSError as e:
            if e.errno == errno.ELOOP:   # a chain of links that comes back to itself
                raise ThousandError(f"{option} {os.fspath(path)!r} is a symbolic link in a loop (it leads back to "
                                    "itself): give a real folder") from None
        raise ThousandError(f"{option} {os.fspath(path)!r} is a symbolic link to {os.readlink(path)!r}, which does "
                            "not exist: create that folder or give another path")
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise ThousandError(f"cannot create output directory {os.fspath(path)!r}: {e.strerror}") from None
    unwritable = ThousandError(f"output directory {os.fspath(path)!r} is not writable")
    if not os.access(path, os.W_OK | os.X_OK):
        raise unwritable
    try:
        with tempfile.NamedTemporaryFile(dir=path, prefix=".thousand-probe-", suffix=".tmp"):
            pass
    except OSError:
        raise unwritable from None


@contextlib.contextmanager
def claim_dir(path: str | os.PathLike, option: str = "--out") -> Iterator[None]:
    """Hold ``path`` (a directory that exists) for this process meanwhile: a second thousand
    process that claims it is refused in one line (one writer at a time, or two runs mix
    their files).  An advisory ``flock`` on the directory itself: no lock file to leave
    behind, and the system releases it when the process ends however it ends.  Where the
    file system has no locks, nothing is claimed.
    """
    try:
        fd = lock_folder(path)   # None without locks (some network mounts): go without
    except BlockingIOError:
        raise ThousandError(f"{os.fspath(path)!r} is being written by another thousand process; wait for it "
                            f"to finish or choose another {option}") from None
    try:
        yield
    finally:
        if fd is not None:
            os.close(fd)   # releases the lock


# --------------------------------------------------------------------------- metadata
def read_metadata(path: str | os.PathLike) -> dict[str, Any]:
    """The ``metadata.json`` of a store (a dataset directory), checked for the keys reading needs."""
    meta_path = Path(path) / METADATA_FILE
    if not meta_path.exists() and not meta_path.is_symlink():
        raise ThousandError(f"{os.fspath(path)!r} is not a thousand dataset (no {METADATA_FILE})")
    # A device, a pipe, a huge or deeply nested file there: one line, at once (thousand.files).
    meta = read_json(meta_path, "dataset metadata", MAX_METADATA_BYTES)
    problem = metadata_problem(meta)
    if problem:
        raise ThousandError(f"{meta_path} is damaged: {problem}")
    return meta


def metadata_problem(meta: Any) -> str | None:
    """What is wrong with the keys that reading and resuming a store rely on, if anything.

    A metadata.json edited by hand must not make ``load`` drop chunks silently, list a
    billion files, or a resume report "nothing to compute" for a run that is not finished.
    """
    if not isinstance(meta, dict):
        kind = {type(None): "JSON null", list: "a JSON array", str: "a JSON string",
                bool: "a JSON boolean"}.get(type(meta), "a JSON number")
        return f"it holds {kind}, not an object"

    def count(value: Any, low: int) -> bool:
        return isinstance(value, int) and not isinstance(value, bool) and value >= low

    for key, low in (("n", 1), ("chunk_size", 1), ("n_chunks", 1)):
        if not count(meta.get(key), low):
            return f"{key} must be a whole number of at least {low}, not {short(meta.get(key))}"
    if meta["n_chunks"] > MAX_CHUNKS:
        return f"n_chunks must be at most {MAX_CHUNKS:,}, not {meta['n_chunks']:,}"
    if meta["n_chunks"] != math.ceil(meta["n"] / meta["chunk_size"]):
        return (f"n_chunks={meta['n_chunks']} does not fit n={meta['n']} in chunks of "
                f"{meta['chunk_size']} ({math.ceil(meta['n'] / meta['chunk_size'])})")
    if "first_chunk" in meta and not (count(meta["first_chunk"], 0) and meta["first_chunk"] < meta["n_chunks"]):
        return f"first_chunk must be a chunk number below n_chunks, not {short(meta['first_chunk'])}"
    kind = meta.get("kind")
    if kind not in KINDS:
        names = " or ".join(f'"{k}"' for k in KINDS)
        return f"kind must be {names}, not {short(kind)}"
    if meta.get("rows") not in KINDS[kind]:
        return f"rows={short(meta.get('rows'))} does not go with kind={short(kind)}"
    chunks = chunk_range(meta)
    if any(isinstance(k, str) and k.isdigit() and int(k) < chunks.start for k in meta.get("chunk_rows", {})):
        return f"first_chunk={chunks.start}, but chunk files before it are there"
    for key in ("chunk_rows", "chunk_bytes"):
        record = meta.get(key, {})
        if not isinstance(record, dict) or not all(
                isinstance(k, str) and k.isdigit() and int(k) in chunks and count(v, 0) for k, v in record.items()):
            return f"{key} must map chunk numbers of the run to whole numbers, not {short(record)}"
    if set(meta.get("chunk_rows", {})) != set(meta.get("chunk_bytes", {})):
        return "chunk_rows and chunk_bytes record different chunks"
    digests = meta.get("chunk_sha256", {})
    if not isinstance(digests, dict) or not all(
            isinstance(k, str) and k.isdigit() and int(k) in chunks and _is_digest(v) for k, v in digests.items()):
        return f"chunk_sha256 must map chunk numbers of the run to SHA-256 digests, not {short(digests)}"
    writers = meta.get("writers", [])
    if not isinstance(writers, list) or not all(isinstance(w, str) and w.isalnum() for w in writers):
        return f"writers must be a list of tokens, not {short(writers)}"
    if "rules" in meta:     # (a store of derived tables may keep only the hash)
        from thousand.rules import options_hash
        rules = meta.get("rules")
        if not isinstance(rules, dict) or options_hash(rules) != meta.get("rules_hash"):
            # a resume compares the hash: an edited option would describe data it did not make
            return f"its rules do not match its rules_hash {short(meta.get('rules_hash'))} (edited by hand?)"
    return None


def _recorded(meta: dict[str, Any], k: int) -> tuple[int, int] | None:
    """Chunk ``k``'s recorded ``(rows, bytes)``, or ``None`` when it was not recorded."""
    rows, size = meta.get("chunk_rows", {}).get(str(k)), meta.get("chunk_bytes", {}).get(str(k))
    return None if rows is None or size is None else (rows, size)


def written_chunks(path: str | os.PathLike, meta: dict[str, Any]) -> list[int]:
    """The chunks of the store in ``path`` (metadata ``meta``) written and recorded, as far
    as the record (with the journal) and the files in place say; ``--resume`` still checks
    each before keeping it."""
    path = Path(path)
    recorded = _with_journal(path, meta)["chunk_rows"] if "chunk_rows" in meta else None
    return [k for k in chunk_range(meta)
            if (recorded is None or str(k) in recorded) and (path / chunk_file(k)).is_file()]


def own_files(path: Path, meta: dict[str, Any] | None) -> list[Path]:
    """The files in ``path`` that the store described by ``meta`` wrote (as far as its
    metadata can prove): the metadata, the chunk files it numbers, the temporary files
    named with one of its writers' tokens.  Nothing else, whatever its name."""
    own = [path / METADATA_FILE] if meta is not None else []
    if meta is None:
        return own
    own += [path / JOURNAL_FILE, *(path / chunk_file(k) for k in chunk_range(meta))]
    names = [METADATA_FILE, *(chunk_file(k) for k in chunk_range(meta))]
    tokens = set(meta.get("writers", []))
    for p in path.iterdir() if tokens and path.is_dir() else ():
        # .NAME.TOKEN.RANDOM.tmp, NAME one of the store's names (see thousand.files.written_whole)
        parts = p.name[1:].rsplit(".", 3)
        if p.name.startswith(".") and len(parts) == 4 and parts[3] == "tmp" and parts[1] in tokens \
                and parts[0] in names:
            own.append(p)
    return own


def remove_files(path: Path, names: Iterable[str]) -> list[str]:
    """Delete the files ``names`` in ``path`` (those the caller can prove it wrote), then the
    folder if nothing else is left in it.  Returns the names left."""
    if not path.is_dir():
        return []
    for name in names:
        f = path / name
        if f.is_file() or f.is_symlink():
            f.unlink()
    left = sorted(p.name for p in path.iterdir())
    if not left:
        path.rmdir()
    return left


# --------------------------------------------------------------------------- a store
class ChunkStore:
    """A directory that receives the chunks of one run described by ``meta``.

    ``resume_keys``: the metadata keys an earlier run in the directory must share for
    ``resume`` to continue it.  ``option`` names the directory in messages (``--out``).
    Use it as a context manager: it holds the directory from :meth:`prepare` to the end.
    """

    def __init__(self, path: str | os.PathLike, meta: dict[str, Any], resume_keys: Iterable[str],
                 option: str = "--out") -> None:
        self.path = Path(path)
        # every chunk's SHA-256 is recorded, and a chunk kept on resume must match it (a
        # byte changed inside is caught, not read)
        self.meta = {**meta, "chunk_rows": {}, "chunk_bytes": {}, "chunk_sha256": {}, "writers": []}
        self.resume_keys = tuple(resume_keys)
        self.option = option
        self.token = new_token()
        self._claim = contextlib.ExitStack()

    def __enter__(self) -> ChunkStore:
        return self

    def __exit__(self, *exc: Any) -> None:
        self._claim.close()

    def chunk_path(self, k: int) -> Path:
        return self.path / chunk_file(k)

    def chunks(self) -> range:
        """The chunks this run computes."""
        return chunk_range(self.meta)

    def written(self) -> list[int]:
        """The chunks of this run written and recorded (so far, with the journal)."""
        recorded = _with_journal(self.path, self.meta)["chunk_rows"]
        return [k for k in self.chunks() if str(k) in recorded and self.chunk_path(k).is_file()]

    def prepare(self, resume: bool) -> None:
        """Create the directory if needed, claim it, and check it may receive this run
        (writes no file but a probe of its own)."""
        path, option = self.path, self.option
        check_writable(path, option)
        self._claim.enter_context(claim_dir(path, option))
        if (path / METADATA_FILE).exists() and not resume and not any(path.glob("chunk-*.parquet")):
            # A run that failed before writing any chunk (e.g. the scheduler was unreachable)
            # holds nothing worth keeping: start afresh instead of demanding --resume.
            (path / JOURNAL_FILE).unlink(missing_ok=True)
            (path / METADATA_FILE).unlink()
        if (path / METADATA_FILE).exists():
            if not resume:
                raise ThousandError(
                    f"{os.fspath(path)!r} already holds a run; use --resume to continue it or choose another {option}")
            try:
                old = read_metadata(path)
            except ThousandError as e:
                raise ThousandError(f"{e}; the run there cannot be continued: move it away or choose another "
                                    f"{option}") from None
            if held_run(old) != held_run(self.meta):
                raise ThousandError(f"cannot resume {os.fspath(path)!r}: it holds {held_run(old)}, not "
                                    f"{held_run(self.meta)}; choose another {option}")
            for key in self.resume_keys:
                if old.get(key) != self.meta.get(key):
                    raise ThousandError(f"cannot resume {os.fspath(path)!r}: it was run with "
                                        f"{_difference(key, old, self.meta)}")
            for key in ("chunk_rows", "chunk_bytes", "chunk_sha256", "writers"):
                self.meta[key] = old.get(key, self.meta[key])
        elif any(path.glob("chunk-*.parquet")):
            # what the chunks were made with is gone with the metadata: they cannot be checked
            raise ThousandError(f"{os.fspath(path)!r} holds chunk files but no {METADATA_FILE} (deleted?), so "
                                f"they cannot be checked or continued; move them away or choose another {option}")
        elif any(p for p in path.iterdir() if not p.name.startswith(".")):
            raise ThousandError(f"output directory {os.fspath(path)!r} is not empty and holds no run")

    def open(self, first_row: Callable[[int], pl.DataFrame] | None, partial: bool = False) -> set[int]:
        """Record this session as a writer, take in the journal, clear the store's own
        leftovers, write the metadata; returns the chunks already written that are kept.

        A chunk file is kept only if it is recorded, begins with ``first_row(k)``, the row
        this run writes first in chunk ``k`` (``partial``: some of its columns; see
        :func:`_holds_chunk`), and has the recorded rows and bytes; else it is computed
        again."""
        path = self.path
        # Leftovers of writes that were interrupted before their rename: only ours.
        for f in own_files(path, self.meta):
            if f.name.endswith(".tmp") and f.is_file():
                f.unlink(missing_ok=True)
        self.meta = _with_journal(path, self.meta)
        self.meta["writers"] = [*self.meta["writers"], self.token]
        done = set()
        for k in self.chunks():
            chunk = self.chunk_path(k)
            if not chunk.exists() and not chunk.is_symlink():
                self._forget(k)
                continue
            if not chunk.is_file():
                raise ThousandError(f"{os.fspath(chunk)!r} is not a chunk file; move it away and --resume")
            recorded = _recorded(self.meta, k)
            if recorded is None:
                why = "was written but not recorded (the run stopped at that moment)"
            elif first_row is not None and not _holds_chunk(chunk, first_row(k), partial):
                why = "is damaged or not this run's (another chunk, seed, rules or strategies)"
            elif _file_facts(chunk) != recorded:
                why = "is not the file the run wrote there (its rows or size differ: cut short or edited)"
            elif str(k) not in self.meta["chunk_sha256"]:
                why = "has no SHA-256 recorded (written by an older thousand), so it cannot be checked"
            elif self.meta["chunk_sha256"][str(k)] != _sha256(chunk):
                why = "is not the file the run wrote there (its SHA-256 differs: damaged or edited)"
            else:
                done.add(k)
                continue
            print(f"chunk {k} in {os.fspath(path)!r} {why}; computing it again", file=sys.stderr)
            self._forget(k)
            chunk.unlink()
        self._save()
        return done

    def _forget(self, k: int) -> None:
        for key in ("chunk_rows", "chunk_bytes", "chunk_sha256"):
            self.meta.get(key, {}).pop(str(k), None)

    def _save(self) -> None:
        """Write the metadata (with the journal taken in), then start the journal afresh."""
        write_json_atomic(self.path / METADATA_FILE, self.meta, self.token)
        (self.path / JOURNAL_FILE).unlink(missing_ok=True)

    def complete(self) -> dict[str, Any]:
        """Take in the journal and mark the run complete; returns the metadata."""
        self.meta = _with_journal(self.path, self.meta)
        self.meta["status"] = "complete"
        # the chunks' records in chunk order, not in the order the workers finished them
        for key in ("chunk_rows", "chunk_bytes", "chunk_sha256"):
            if key in self.meta:
                self.meta[key] = dict(sorted(self.meta[key].items(), key=lambda item: int(item[0])))
        self._save()
        return self.meta


def _file_facts(chunk: Path) -> tuple[int, int] | None:
    """``(rows, bytes)`` of a Parquet file (its rows from the footer), ``None`` if unreadable."""
    try:
        rows = pl.scan_parquet(chunk).select(pl.len()).collect().item()
    except Exception:  # any failure to read the file means it is not a chunk
        return None
    return rows, chunk.stat().st_size


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

    Every chunk file must be the one the run recorded (its size and SHA-256): a chunk cut
    short or edited, or a folder named like a chunk, is a one-line error.  An unfinished run raises
    unless ``allow_partial`` (then only the recorded chunks show, and the run-wide
    ``deal_id`` numbers only their rows: it shifts once the missing chunks are written).
    A run computed from ``first_chunk=k`` numbers from its chunk k.
    """
    path = Path(path)
    meta = read_metadata(path)
    if "chunk_rows" in meta:   # datasets of format 2 have no record: every file found counts
        meta = _with_journal(path, meta)
    first = meta.get("first_chunk", 0)
    if any((path / chunk_file(k)).exists() for k in range(first)):
        raise ThousandError(f"{path / METADATA_FILE} is damaged: first_chunk={first}, but chunk files before it "
                            "are there")
    recorded = "chunk_rows" in meta
    present = []
    for k in chunk_range(meta):
        f = path / chunk_file(k)
        if recorded and _recorded(meta, k) is None or not (f.exists() or f.is_symlink()):
            continue   # not written yet (or deleted since: --resume computes it again)
        if not f.is_file():
            raise ThousandError(f"{os.fspath(f)!r} is not a chunk file: the dataset is damaged; move it away and "
                                "finish the run with --resume")
        if recorded and f.stat().st_size != meta["chunk_bytes"][str(k)]:
            raise ThousandError(f"{os.fspath(f)!r} is damaged: it has {f.stat().st_size:,} bytes, the run wrote "
                                f"{meta['chunk_bytes'][str(k)]:,} (cut short or edited); delete it and finish the "
                                "run with --resume")
        digest = meta.get("chunk_sha256", {}).get(str(k))
        if digest is not None and _sha256(f) != digest:
            raise ThousandError(f"{os.fspath(f)!r} is damaged: its SHA-256 is not the one the run recorded "
                                "(bytes changed inside); delete it and finish the run with --resume")
        present.append(f)
    wanted = len(chunk_range(meta))
    if len(present) < wanted and not allow_partial:
        raise ThousandError(
            f"the run in {os.fspath(path)!r} is unfinished ({len(present):,} of {wanted:,} chunks); "
            "finish it with --resume")
    if not present:
        raise ThousandError(f"the run in {os.fspath(path)!r} has no chunk written yet")
    if meta["rows"] != "deals":
        return pl.scan_parquet(present)
    lf = pl.scan_parquet(present, row_index_name="__row")
    return lf.with_columns(pl.col("__row").cast(pl.Int64).alias("deal_id")).drop("__row")
