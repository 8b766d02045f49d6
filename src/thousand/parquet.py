"""The runner's Parquet writer: flat tables of non-null integer and boolean columns.

Why not polars' (or pyarrow's) general writer: to dictionary-encode a column they hash
every value, about 1.6-2 ms per column of a 250,000-deal chunk whatever its values, 60-70
ms a chunk in all, a third of the kernel's time to play the chunk.  The simulator's
columns need none of that generality: almost all are small integers (seats, bids, points,
flags), so the dictionary of a column can simply be its range ``low .. high`` and a
value's index ``value - low``; a tight loop (``thousand._parquet``) bit-packs the indices.
The few wide columns (the 24-bit card masks, row ids) are written plain.

The files are ordinary Parquet (format 2 features: RLE_DICTIONARY data pages, INTEGER
logical types; no compression, no statistics), read by polars, pyarrow, DuckDB and any
other Parquet reader; ``tests/test_parquet.py`` reads them back with polars and pyarrow.
The file layout follows https://github.com/apache/parquet-format (parquet.thrift), its
metadata written with Thrift's compact protocol.
"""
from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any, BinaryIO

import numpy as np

from thousand.errors import ThousandError

try:
    from thousand._parquet import dictionary_encode, uleb128
except ImportError as e:  # not built, or built from older sources
    raise ThousandError(f"the compiled Parquet writer is not available: {e}; run `make build`") from None

__all__ = ["write_parquet", "SUPPORTED_DTYPES"]

MAGIC = b"PAR1"
CREATED_BY = "thousand parquet writer"

# parquet.thrift enums
_BOOLEAN, _INT32, _INT64 = 0, 1, 2                      # Type
_REQUIRED = 0                                            # FieldRepetitionType
_PLAIN, _RLE, _RLE_DICTIONARY = 0, 3, 8                  # Encoding
_UNCOMPRESSED = 0                                        # CompressionCodec
_DATA_PAGE, _DICTIONARY_PAGE = 0, 2                      # PageType
_LOGICAL_INTEGER = 10                                    # LogicalType union field
# ConvertedType of each integer dtype, for readers older than logical types
_CONVERTED = {(8, True): 15, (16, True): 16, (32, True): 17, (64, True): 18,
              (8, False): 11, (16, False): 12, (32, False): 13, (64, False): 14}

SUPPORTED_DTYPES = tuple(np.dtype(t) for t in (np.bool_, np.int8, np.int16, np.int32, np.int64,
                                               np.uint8, np.uint16, np.uint32))


# --------------------------------------------------------------------------- Thrift compact protocol
# A struct is a list of (field id, kind, value); kinds: "i16"/"i32"/"i64" (zigzag
# varints), "bin" (length-prefixed bytes or str), "bool", "i8", "struct", "list:<kind>".
_TYPE = {"bool": 1, "i8": 3, "i16": 4, "i32": 5, "i64": 6, "bin": 8, "list": 9, "struct": 12}
_LIST_TYPE = {"i32": 5, "i64": 6, "bin": 8, "struct": 12}


def _zigzag(n: int) -> bytes:
    return uleb128((n << 1) ^ (n >> 63))


def _value(kind: str, value: Any) -> bytes:
    if kind in ("i16", "i32", "i64"):
        return _zigzag(value)
    if kind == "i8":
        return bytes([value & 0xFF])
    if kind == "bin":
        data = value.encode() if isinstance(value, str) else bytes(value)
        return uleb128(len(data)) + data
    if kind == "struct":
        return _struct(value)
    if kind.startswith("list:"):
        item = kind[5:]
        head = (len(value) << 4 | _LIST_TYPE[item]) if len(value) < 15 else (0xF0 | _LIST_TYPE[item])
        out = bytes([head]) + (uleb128(len(value)) if len(value) >= 15 else b"")
        return out + b"".join(_value(item, v) for v in value)
    raise ValueError(f"unknown Thrift kind {kind!r}")


def _struct(fields: list[tuple[int, str, Any]]) -> bytes:
    out = bytearray()
    last = 0
    for fid, kind, value in fields:
        if value is None:
            continue
        # booleans carry their value in the field header's type nibble
        ftype = (1 if value else 2) if kind == "bool" else _TYPE[kind.split(":")[0]]
        delta = fid - last
        out += bytes([delta << 4 | ftype]) if 0 < delta <= 15 else bytes([ftype]) + _zigzag(fid)
        if kind != "bool":
            out += _value(kind, value)
        last = fid
    out.append(0)  # STOP
    return bytes(out)


# --------------------------------------------------------------------------- columns
def _physical(dtype: np.dtype) -> tuple[int, np.dtype | None]:
    """Parquet physical type of ``dtype`` and the little-endian numpy type of its plain values."""
    if dtype == np.bool_:
        return _BOOLEAN, None
    return (_INT64, np.dtype("<i8")) if dtype.itemsize == 8 else (_INT32, np.dtype("<i4"))


def _plain(values: np.ndarray, store: np.dtype) -> bytes:
    """Plain-encoded integers: sign- or zero-extended to 4 or 8 bytes (unsigned 32 and 64
    bit values keep their bits, as the INTEGER(unsigned) logical type reads them)."""
    if values.dtype.itemsize == store.itemsize:
        return values.astype(values.dtype.newbyteorder("<"), copy=False).tobytes()
    return values.astype(store).tobytes()


def _schema_element(name: str, dtype: np.dtype) -> list[tuple[int, str, Any]]:
    physical, _ = _physical(dtype)
    fields: list[tuple[int, str, Any]] = [(1, "i32", physical), (3, "i32", _REQUIRED), (4, "bin", name)]
    if physical != _BOOLEAN:
        bits, signed = 8 * dtype.itemsize, dtype.kind == "i"
        fields += [(6, "i32", _CONVERTED[bits, signed]),
                   (10, "struct", [(_LOGICAL_INTEGER, "struct", [(1, "i8", bits), (2, "bool", signed)])])]
    return fields


def _page(page_type: int, data: bytes | bytearray, header: tuple[int, str, Any]) -> bytes:
    return _struct([(1, "i32", page_type), (2, "i32", len(data)), (3, "i32", len(data)), header])


def _column_chunk(out: BinaryIO, offset: int, name: str, values: np.ndarray) -> tuple[list, int]:
    """Write one column of one row group at ``offset``; its ColumnChunk struct and new offset."""
    physical, store = _physical(values.dtype)
    n = len(values)
    dictionary_offset = None
    if physical == _BOOLEAN:
        encoding, data = _PLAIN, np.packbits(values, bitorder="little").tobytes()
        encodings = [_PLAIN]
    else:
        encoded = dictionary_encode(values, int(values.min()), int(values.max()), store.itemsize) if n else None
        if encoded is not None:
            dictionary = _plain(encoded[0].astype(values.dtype), store)
            header = _page(_DICTIONARY_PAGE, dictionary,
                           (7, "struct", [(1, "i32", len(encoded[0])), (2, "i32", _PLAIN)]))
            out.write(header)
            out.write(dictionary)
            dictionary_offset = offset
            offset += len(header) + len(dictionary)
            encoding, data = _RLE_DICTIONARY, encoded[1]
            encodings = [_PLAIN, _RLE_DICTIONARY]
        else:
            encoding, data = _PLAIN, _plain(values, store)
            encodings = [_PLAIN]
    data_offset = offset
    header = _page(_DATA_PAGE, data,
                   (5, "struct", [(1, "i32", n), (2, "i32", encoding), (3, "i32", _RLE), (4, "i32", _RLE)]))
    out.write(header)
    out.write(data)
    offset += len(header) + len(data)
    start = dictionary_offset if dictionary_offset is not None else data_offset
    meta = [(1, "i32", physical), (2, "list:i32", encodings), (3, "list:bin", [name]),
            (4, "i32", _UNCOMPRESSED), (5, "i64", n), (6, "i64", offset - start), (7, "i64", offset - start),
            (9, "i64", data_offset), (11, "i64", dictionary_offset)]
    return [(2, "i64", start), (3, "struct", meta)], offset


def write_parquet(path: str | os.PathLike, columns: Mapping[str, np.ndarray], row_group_size: int) -> None:
    """Write ``columns`` (equal-length 1-d numpy arrays, no nulls) as a Parquet file.

    Integer columns keep their width and signedness as INTEGER logical types (polars
    reads an ``int8`` column back as ``Int8``); booleans are BOOLEAN.
    """
    if row_group_size < 1:
        raise ValueError("row_group_size must be at least 1")
    arrays = {name: np.ascontiguousarray(values) for name, values in columns.items()}   # the encoder reads rows in place
    lengths = {len(a) for a in arrays.values()}
    if len(lengths) > 1:
        raise ValueError(f"columns of different lengths: {sorted(lengths)}")
    for name, a in arrays.items():
        if a.ndim != 1 or a.dtype not in SUPPORTED_DTYPES:
            raise TypeError(f"column {name!r}: cannot write a {a.ndim}-d {a.dtype} column")
    rows = lengths.pop() if lengths else 0
    schema = [[(4, "bin", "schema"), (5, "i32", len(arrays))]]
    schema += [_schema_element(name, a.dtype) for name, a in arrays.items()]
    row_groups = []
    with open(path, "wb") as out:
        out.write(MAGIC)
        offset = len(MAGIC)
        for ordinal, start in enumerate(range(0, rows, row_group_size)):
            group_start = offset
            chunks = []
            for name, a in arrays.items():
                chunk, offset = _column_chunk(out, offset, name, a[start:start + row_group_size])
                chunks.append(chunk)
            n = min(row_group_size, rows - start)
            row_groups.append([(1, "list:struct", chunks), (2, "i64", offset - group_start), (3, "i64", n),
                               (5, "i64", group_start), (6, "i64", offset - group_start), (7, "i16", ordinal)])
        footer = _struct([(1, "i32", 2), (2, "list:struct", schema), (3, "i64", rows),
                          (4, "list:struct", row_groups), (6, "bin", CREATED_BY)])
        out.write(footer)
        out.write(len(footer).to_bytes(4, "little"))
        out.write(MAGIC)
