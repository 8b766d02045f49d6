"""The runner's own Parquet writer (thousand.parquet): files every reader reads back exactly.

Two independent readers check the files: polars (what `thousand.simulate.load` uses) and
pyarrow (Apache Arrow's C++ reader, the reference implementation of the format).  The
page bytes are also decoded here by hand, against the format's definition of the
RLE/bit-packed hybrid, so the layout is checked apart from any reader's leniency.
"""
from __future__ import annotations

import numpy as np
import polars as pl
import pyarrow.parquet as pq
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from thousand import simulate as sim
from thousand.rules import parse_rules_spec
from thousand.runner import chunks, store
from thousand._parquet import MAX_HASHED_ENTRIES, dictionary_encode
from thousand.parquet import SUPPORTED_DTYPES, write_parquet

from helpers import hypothesis_budget

POLARS_TYPES = {np.dtype(t): p for t, p in [
    (np.bool_, pl.Boolean), (np.int8, pl.Int8), (np.int16, pl.Int16), (np.int32, pl.Int32),
    (np.int64, pl.Int64), (np.uint8, pl.UInt8), (np.uint16, pl.UInt16), (np.uint32, pl.UInt32)]}


def read_back(path) -> tuple[pl.DataFrame, pl.DataFrame]:
    return pl.read_parquet(path), pl.from_arrow(pq.read_table(path))


def check_round_trip(tmp_path, columns: dict[str, np.ndarray], row_group_size: int = 1_000) -> None:
    path = tmp_path / "t.parquet"
    write_parquet(path, columns, row_group_size=row_group_size)
    expected = pl.DataFrame({name: pl.Series(name, a, dtype=POLARS_TYPES[a.dtype]) for name, a in columns.items()})
    for got in read_back(path):
        assert got.schema == expected.schema
        assert got.equals(expected)


def decode_hybrid(data: bytes, count: int) -> list[int]:
    """The RLE_DICTIONARY page data as the format defines it: width byte, then runs."""
    width, pos, out = data[0], 1, []
    while len(out) < count:
        header, shift = 0, 0
        while True:
            byte = data[pos]
            pos += 1
            header |= (byte & 0x7F) << shift
            shift += 7
            if byte < 0x80:
                break
        if header & 1:  # bit-packed: header >> 1 groups of 8 values, least significant bit first
            nbytes = (header >> 1) * width
            bits = int.from_bytes(data[pos:pos + nbytes], "little")
            pos += nbytes
            out += [(bits >> (width * i)) & ((1 << width) - 1) for i in range((header >> 1) * 8)]
        else:           # RLE: header >> 1 copies of one value in ceil(width / 8) bytes
            nbytes = (width + 7) // 8
            out += [int.from_bytes(data[pos:pos + nbytes], "little")] * (header >> 1)
            pos += nbytes
    assert pos == len(data), "trailing bytes after the last run"
    return out[:count]


# --------------------------------------------------------------------------- the encoder
@pytest.mark.parametrize("dtype", [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32])
def test_dictionary_indices_decode_to_the_values(dtype):
    rng = np.random.default_rng(1)
    info = np.iinfo(dtype)
    for low, high, n in [(0, 1, 17), (-3, 40, 1_000), (info.min, info.min + 300, 999), (5, 5, 64),
                         (info.max - 2**12, info.max, 4_001), (0, 255, 8), (0, 2**16 - 1, 3_000)]:
        low, high = max(low, info.min), min(high, info.max)
        values = rng.integers(low, high, endpoint=True, size=n).astype(dtype)
        encoded = dictionary_encode(values, int(values.min()), int(values.max()), 8)
        entries = len(np.unique(values))
        width = (entries - 1).bit_length()
        if encoded is None:  # only where plain is no larger than the dictionary and its indices
            assert entries * 8 + (n * width + 7) // 8 >= n * 8
            continue
        dictionary, data = encoded
        assert list(dictionary) == sorted(set(values.tolist())), "the presence table's dictionary is ascending"
        indices = decode_hybrid(bytes(data), n)
        assert [dictionary[i] for i in indices] == values.tolist()


def test_wide_columns_use_a_hash_table_that_gives_up_on_many_values():
    rng = np.random.default_rng(2)
    cards = np.array([1 << k for k in range(24)], dtype=np.uint32)
    talons = (cards[rng.integers(0, 24, 5_000)] | cards[rng.integers(0, 24, 5_000)]).astype(np.uint32)
    dictionary, data = dictionary_encode(talons, int(talons.min()), int(talons.max()), 4)
    assert len(dictionary) == len(np.unique(talons)) <= MAX_HASHED_ENTRIES
    assert [dictionary[i] for i in decode_hybrid(bytes(data), len(talons))] == talons.tolist()
    # one distinct value too many: the column is written plain
    many = np.arange(MAX_HASHED_ENTRIES + 1, dtype=np.uint32) << 8
    assert dictionary_encode(np.tile(many, 4), int(many.min()), int(many.max()), 4) is None
    assert dictionary_encode(np.tile(many[:-1], 4), int(many.min()), int(many.max()), 4) is not None


def test_a_constant_column_is_one_run_of_width_zero():
    dictionary, data = dictionary_encode(np.full(100_001, -7, dtype=np.int16), -7, -7, 4)
    assert list(dictionary) == [-7]
    assert data[0] == 0 and decode_hybrid(bytes(data), 100_001) == [0] * 100_001
    assert len(data) == 4  # width byte + the run header; the value itself takes no bytes


# --------------------------------------------------------------------------- files
def test_every_supported_dtype_round_trips_through_polars_and_pyarrow(tmp_path):
    rng = np.random.default_rng(3)
    n = 2_345   # not a multiple of 8 or of the row group size
    columns = {}
    for dtype in SUPPORTED_DTYPES:
        if dtype == np.bool_:
            columns["flag"] = rng.random(n) < 0.3
            continue
        info = np.iinfo(dtype)
        columns[f"{dtype}_full"] = rng.integers(info.min, info.max, endpoint=True, size=n, dtype=dtype)
        columns[f"{dtype}_small"] = rng.integers(max(info.min, -5), 30, endpoint=True, size=n).astype(dtype)
        columns[f"{dtype}_const"] = np.full(n, info.max, dtype=dtype)
        columns[f"{dtype}_extremes"] = rng.choice([info.min, info.max], size=n).astype(dtype)
    check_round_trip(tmp_path, columns, row_group_size=1_000)


@settings(max_examples=hypothesis_budget(60))
@given(data=st.data())
def test_random_tables_round_trip(tmp_path_factory, data):
    n = data.draw(st.integers(0, 300), label="rows")
    dtype = np.dtype(data.draw(st.sampled_from([str(d) for d in SUPPORTED_DTYPES]), label="dtype"))
    if dtype == np.bool_:
        values = np.array(data.draw(st.lists(st.booleans(), min_size=n, max_size=n)), dtype=dtype)
    else:
        info = np.iinfo(dtype)
        low = data.draw(st.integers(int(info.min), int(info.max)), label="low")
        high = data.draw(st.integers(low, min(int(info.max), low + data.draw(st.sampled_from([0, 1, 7, 300, 70_000, 2**40])))))
        values = np.array(data.draw(st.lists(st.integers(low, high), min_size=n, max_size=n)), dtype=dtype)
    columns = {"v": values, "i": np.arange(n, dtype=np.int32)}
    check_round_trip(tmp_path_factory.mktemp("t"), columns, row_group_size=data.draw(st.integers(1, 400)))


def test_zero_rows_and_one_row(tmp_path):
    check_round_trip(tmp_path, {"a": np.zeros(0, dtype=np.int16), "b": np.zeros(0, dtype=np.bool_)})
    check_round_trip(tmp_path, {"a": np.array([-3], dtype=np.int16), "b": np.array([True])})


def test_refuses_what_it_cannot_write(tmp_path):
    with pytest.raises(TypeError, match="column 'x'"):
        write_parquet(tmp_path / "f.parquet", {"x": np.zeros(3, dtype=np.float64)}, row_group_size=10)
    with pytest.raises(ValueError, match="different lengths"):
        write_parquet(tmp_path / "f.parquet", {"x": np.zeros(3, np.int8), "y": np.zeros(4, np.int8)}, row_group_size=10)


def test_a_chunk_is_as_small_as_polars_writes_it_and_encoded_as_expected(tmp_path):
    # the chunk of a real run: small columns as dictionaries, card masks and row ids plain
    task = chunks.ChunkTask("deals", 0, 0, 20_000, 5, parse_rules_spec("classic").to_kernel(), 3,
                            ("standard",) * 3, str(tmp_path), None, "uncompressed")
    columns, _ = chunks.chunk_columns(task)
    ours, polars_file = tmp_path / "ours.parquet", tmp_path / "polars.parquet"
    write_parquet(ours, columns, row_group_size=store.ROW_GROUP_SIZE)
    pl.DataFrame(columns).write_parquet(polars_file, compression="uncompressed", statistics=False)
    assert ours.stat().st_size <= 1.02 * polars_file.stat().st_size
    for got in read_back(ours):
        assert got.equals(pl.read_parquet(polars_file))
    meta = pq.ParquetFile(ours).metadata.row_group(0)
    encodings = {meta.column(i).path_in_schema: meta.column(i).encodings for i in range(meta.num_columns)}
    assert "RLE_DICTIONARY" in encodings["bid0"] and "RLE_DICTIONARY" in encodings["talon"]
    assert encodings["hand0"] == ("PLAIN",) and encodings["deal_id"] == ("PLAIN",)
    assert encodings["made"] == ("PLAIN",)  # booleans: bit-packed plain


def test_compressed_runs_are_left_to_polars_and_hold_the_same_rows(tmp_path):
    plain = sim.run("deals", 3_000, seed=4, chunk_size=1_000, out=tmp_path / "a", progress=False).frame().collect()
    lz4 = sim.run("deals", 3_000, seed=4, chunk_size=1_000, out=tmp_path / "b", progress=False,
                  compression="lz4").frame().collect()
    assert plain.equals(lz4)
    assert pq.ParquetFile(tmp_path / "b" / sim.chunk_file(0)).metadata.row_group(0).column(0).compression == "LZ4"
