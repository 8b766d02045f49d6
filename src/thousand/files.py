"""Reading the files a user hands the tool (or leaves where it reads), within bounds, and
writing the tool's own files whole or not at all.

Every file the tool reads back -- a rules TOML, a replayed trace, a dataset's
``metadata.json``, the records ``report`` and ``compare --out`` keep -- may be anything:
a device that never ends (``/dev/zero``), a named pipe nobody writes to, a directory,
binary data, a huge file, JSON nested a hundred thousand levels deep.  These functions
read such a file in bounded time and memory and turn every way it can be wrong into one
error naming the file, always in the same words::

    {what} 'PATH' not found
    {what} 'PATH' is a directory, not a file
    {what} 'PATH' is not a regular file (a device, a pipe or a socket)
    {what} 'PATH' is too large (N bytes; at most M)
    {what} 'PATH' cannot be read: REASON
    {what} 'PATH' is not UTF-8 text
    {what} 'PATH' is not valid JSON: REASON

A named pipe is opened without blocking (``O_NONBLOCK``), so one with no writer is
refused at once instead of waiting forever; the size is checked before reading, and the
read never takes more than the limit plus one byte, so a file that grows (or a device
that reports size 0) cannot exhaust memory.
"""
from __future__ import annotations

import atexit
import contextlib
import json
import os
import shutil
import stat
import sys
import tempfile
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

__all__ = ["read_bytes", "read_text", "read_json", "parse_problem", "written_whole", "write_problem",
           "lock_folder", "scratch_dir", "remove_scratch", "scratch"]


def _error(error: type[Exception] | None) -> type[Exception]:
    if error is not None:
        return error
    from thousand.errors import ThousandError   # late: errors imports rules, which reads files
    return ThousandError


def read_bytes(path: str | os.PathLike[str], what: str, limit: int,
               error: type[Exception] | None = None) -> bytes:
    """The content of the regular file ``path``, at most ``limit`` bytes.

    Raises ``error`` (default :class:`thousand.errors.ThousandError`) with the one-line
    messages of the module docstring; ``what`` names the file's role ("rules file").
    """
    err = _error(error)
    name = os.fspath(path)
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(name, flags)
    except FileNotFoundError:
        raise err(f"{what} {name!r} not found") from None
    except IsADirectoryError:
        raise err(f"{what} {name!r} is a directory, not a file") from None
    except OSError as e:
        raise err(f"{what} {name!r} cannot be read: {e.strerror or e}") from None
    try:
        st = os.fstat(fd)
        if stat.S_ISDIR(st.st_mode):
            raise err(f"{what} {name!r} is a directory, not a file")
        if not stat.S_ISREG(st.st_mode):
            raise err(f"{what} {name!r} is not a regular file (a device, a pipe or a socket)")
        if st.st_size > limit:
            raise err(f"{what} {name!r} is too large ({st.st_size:,} bytes; at most {limit:,})")
        chunks, size = [], 0
        while size <= limit:
            chunk = os.read(fd, min(limit + 1 - size, 1 << 20))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        data = b"".join(chunks)
    except OSError as e:
        raise err(f"{what} {name!r} cannot be read: {e.strerror or e}") from None
    finally:
        os.close(fd)
    if len(data) > limit:   # it grew while being read
        raise err(f"{what} {name!r} is too large (more than {limit:,} bytes)")
    return data


def read_text(path: str | os.PathLike[str], what: str, limit: int,
              error: type[Exception] | None = None) -> str:
    """:func:`read_bytes` decoded as UTF-8 (a byte-order mark is dropped)."""
    data = read_bytes(path, what, limit, error)
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise _error(error)(f"{what} {os.fspath(path)!r} is not UTF-8 text") from None


def parse_problem(e: ValueError) -> str:
    """A parser's complaint as a user reads it: Python's cap on the digits of an integer
    (a number thousands of digits long in a JSON or TOML file) without its advice to
    raise the cap with ``sys.set_int_max_str_digits``."""
    text = str(e)
    if "integer string conversion" in text:
        return f"a number has more than {sys.get_int_max_str_digits():,} digits"
    return text


def read_json(path: str | os.PathLike[str], what: str, limit: int,
              error: type[Exception] | None = None) -> Any:
    """:func:`read_text` parsed as JSON; nesting too deep for the parser is an error too."""
    text = read_text(path, what, limit, error)
    try:
        return json.loads(text)
    except ValueError as e:
        raise _error(error)(f"{what} {os.fspath(path)!r} is not valid JSON: {parse_problem(e)}") from None
    except RecursionError:
        raise _error(error)(f"{what} {os.fspath(path)!r} is not valid JSON: nested too deeply") from None


@contextlib.contextmanager
def written_whole(path: str | os.PathLike[str], tag: str | None = None) -> Iterator[Path]:
    """A hidden temporary name beside ``path`` to write to; renamed to ``path`` when the block
    ends without an error, removed whatever happens.

    A full disk, an error or an interruption therefore leaves the earlier ``path`` (or none),
    never a cut file.  The temporary name is ``.NAME.TAG.XXXXXXXX.tmp`` (``XXXXXXXX`` random,
    so two writers never share one; ``tag`` names the writer where a reader must recognise
    its leftovers, as the runner's chunk store does).

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as d:
    ...     target = Path(d) / "table.csv"
    ...     with written_whole(target) as tmp:
    ...         _ = tmp.write_text("a,b\\n")
    ...         print(target.exists(), tmp.name.startswith(".table.csv."))
    ...     print(target.read_text() == "a,b\\n", sorted(p.name for p in Path(d).iterdir()))
    False True
    True ['table.csv']
    """
    path = Path(path)
    tmp = _temporary_name(path, tag)
    try:
        yield tmp
        os.replace(tmp, path)
    except OSError as e:
        if e.filename is None or os.fspath(e.filename) == os.fspath(tmp):
            e.filename = os.fspath(path)  # the user named path; the temporary name is ours
        raise
    finally:
        tmp.unlink(missing_ok=True)


def _temporary_name(path: Path, tag: str | None = None) -> Path:
    """``.NAME.TAG.XXXXXXXX.tmp`` beside ``path`` (without TAG when there is none)."""
    token = uuid.uuid4().hex[:8]
    return path.with_name(f".{path.name}.{tag}.{token}.tmp" if tag else f".{path.name}.{token}.tmp")


def write_problem(path: str | os.PathLike[str]) -> str | None:
    """Why :func:`written_whole` could not write ``path``, in the system's words, or None:
    for a check before a long computation whose result goes there.  It tries what
    ``written_whole`` does first, a temporary name as long as its own beside ``path``
    (created and removed), so a folder that takes no files (``/proc``) and a name too
    long for the file system are both found."""
    tmp = _temporary_name(Path(path))
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except OSError as e:
        return e.strerror or str(e)
    os.close(fd)
    tmp.unlink(missing_ok=True)
    return None


# --------------------------------------------------------------------------- scratch folders
try:
    import fcntl
except ImportError:  # pragma: no cover - not POSIX: no locks, no sweep
    fcntl = None  # type: ignore[assignment]

_SCRATCH: dict[str, int | None] = {}   # this process's scratch folders and the descriptors holding their locks


def scratch_dir(kind: str) -> Path:
    """A new folder ``thousand-KIND-XXXXXXXX`` in the temporary folder, for data that lives
    only while this process runs (a run without ``--out``); removed by
    :func:`remove_scratch` or when the interpreter exits.

    A process killed outright (SIGKILL, the out-of-memory killer) cannot remove its own,
    so each folder is held by an advisory ``flock`` on it, which the system releases
    however the process ends, and the folders of this kind whose lock is free are removed
    here first: no living process holds them.  The folder is locked under a hidden name
    and only then renamed, so a sweep never sees a folder that is not locked yet.
    """
    tmp = tempfile.gettempdir()
    _sweep_scratch(tmp, kind)
    if not _SCRATCH:
        atexit.register(_remove_all_scratch)
    while True:
        staging = tempfile.mkdtemp(prefix=f".thousand-{kind}-", dir=tmp)
        fd = lock_folder(staging)   # None without locks: the folder is then removed at exit only
        final = os.path.join(tmp, os.path.basename(staging)[1:])
        try:
            os.rename(staging, final)   # (onto an empty folder of that name too: then it is ours)
        except OSError:   # a folder of that name left over and not empty: another name
            shutil.rmtree(staging, ignore_errors=True)
            if fd is not None:
                os.close(fd)
            continue
        _SCRATCH[final] = fd
        return Path(final)


def remove_scratch(path: str | os.PathLike[str]) -> None:
    """Remove a folder :func:`scratch_dir` made, and let its lock go."""
    path = os.fspath(path)
    shutil.rmtree(path, ignore_errors=True)
    fd = _SCRATCH.pop(path, None)
    if fd is not None:
        os.close(fd)


@contextlib.contextmanager
def scratch(kind: str) -> Iterator[Path]:
    """:func:`scratch_dir` for the length of a block."""
    path = scratch_dir(kind)
    try:
        yield path
    finally:
        remove_scratch(path)


def _remove_all_scratch() -> None:
    for path in list(_SCRATCH):
        remove_scratch(path)


def lock_folder(path: str | os.PathLike[str], follow_symlinks: bool = True) -> int | None:
    """A descriptor holding an exclusive advisory ``flock`` on the folder ``path``: closing
    it lets the lock go, and the system releases it however the process ends.  None where
    the file system has no locks (some network mounts) or the system none at all; raises
    ``BlockingIOError`` when another process holds the folder."""
    if fcntl is None:
        return None
    fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY | (0 if follow_symlinks else os.O_NOFOLLOW))
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        raise
    except OSError:
        os.close(fd)
        return None
    return fd


def _sweep_scratch(tmp: str, kind: str) -> None:
    """Remove this user's ``thousand-KIND-*`` folders in ``tmp`` that no process holds."""
    if fcntl is None:
        return
    prefix = f"thousand-{kind}-"
    try:
        entries = list(os.scandir(tmp))
    except OSError:
        return
    for entry in entries:
        if not entry.name.startswith(prefix) or entry.path in _SCRATCH:
            continue
        try:
            if not entry.is_dir(follow_symlinks=False) or entry.stat(follow_symlinks=False).st_uid != os.getuid():
                continue
            fd = lock_folder(entry.path, follow_symlinks=False)
        except OSError:   # held by a living process (BlockingIOError), or gone meanwhile
            continue
        if fd is None:    # no locks here: a living run's folder could not be told apart
            continue
        try:
            shutil.rmtree(entry.path, ignore_errors=True)
        finally:
            os.close(fd)
