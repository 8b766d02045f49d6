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

import contextlib
import json
import os
import stat
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

__all__ = ["read_bytes", "read_text", "read_json", "parse_problem", "written_whole"]


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
    token = uuid.uuid4().hex[:8]
    tmp = path.with_name(f".{path.name}.{tag}.{token}.tmp" if tag else f".{path.name}.{token}.tmp")
    try:
        yield tmp
        os.replace(tmp, path)
    except OSError as e:
        if e.filename is None or os.fspath(e.filename) == os.fspath(tmp):
            e.filename = os.fspath(path)  # the user named path; the temporary name is ours
        raise
    finally:
        tmp.unlink(missing_ok=True)
