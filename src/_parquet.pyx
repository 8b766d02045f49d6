"""The inner loops of the runner's Parquet writer (``thousand.parquet``).

Dictionary encoding without a general hash map: most of the simulator's columns are
small integers, so a column's distinct values are found with a presence table over its
range ``low .. high``; only the few wide columns (card masks, row ids) need a small hash
table, and it gives up as soon as a column has too many distinct values to be worth a
dictionary (a hand column does within a few thousand rows).
"""
import numpy as np

from libc.stdint cimport int8_t, int16_t, int32_t, int64_t, uint8_t, uint16_t, uint32_t, uint64_t
from libc.stdlib cimport calloc, free

ctypedef fused integer:
    int8_t
    int16_t
    int32_t
    int64_t
    uint8_t
    uint16_t
    uint32_t

cdef enum:
    # Ranges up to this size are indexed through a presence table (4 bytes an entry).
    _TABLE_RANGE = 1 << 16
    # The hash table: 2**13 slots, at most half of them used.
    _HASH_BITS = 13
    _HASH_SLOTS = 1 << _HASH_BITS
    _MAX_HASHED = _HASH_SLOTS // 2

MAX_HASHED_ENTRIES = _MAX_HASHED


def uleb128(uint64_t value) -> bytes:
    """``value`` as an unsigned LEB128 varint: the RLE/bit-packed hybrid's run headers,
    and the varints of Thrift's compact protocol (``thousand.parquet``)."""
    out = bytearray()
    while value >= 0x80:
        out.append((value & 0x7F) | 0x80)
        value >>= 7
    out.append(value)
    return bytes(out)


cdef inline void _store32(unsigned char *at, uint32_t word) noexcept:
    """Four bytes, least significant first: the bit-packed runs' order (one store on x86-64)."""
    at[0] = <unsigned char>word
    at[1] = <unsigned char>(word >> 8)
    at[2] = <unsigned char>(word >> 16)
    at[3] = <unsigned char>(word >> 24)


cdef inline uint32_t _bit_width(uint32_t largest) noexcept:
    cdef uint32_t width = 0
    while largest:
        width += 1
        largest >>= 1
    return width


def dictionary_encode(const integer[::1] values, int64_t low, int64_t high, int plain_bytes):
    """``(dictionary, data)`` for an RLE_DICTIONARY column chunk, or None where plain is smaller.

    ``low`` and ``high`` are the column's minimum and maximum; ``plain_bytes`` the size of
    one plain value.  ``dictionary`` holds the distinct values (int64; ascending from the
    presence table, in order of first appearance from the hash table) and ``data`` is a
    data page's values: the bit width (one byte), then the RLE/bit-packed hybrid -- one
    run of ``len(values)`` zeros for a constant column (width 0: the value takes no
    bytes), else one bit-packed run of groups of eight indices, the last group padded.
    """
    cdef Py_ssize_t n = values.shape[0], i
    cdef uint64_t span = <uint64_t>(high - low)
    cdef uint32_t *index = NULL        # presence table: offset from low -> dictionary index
    cdef int64_t *keys = NULL          # hash table: slot -> value
    cdef uint32_t *slots = NULL        # hash table: slot -> dictionary index + 1 (0: empty)
    cdef uint32_t entries = 0, width, slot
    cdef int64_t v
    cdef uint64_t h, acc = 0
    cdef int bits = 0
    cdef Py_ssize_t pos, r
    cdef unsigned char *buf
    cdef bint hashed = span >= _TABLE_RANGE
    try:
        if not hashed:
            index = <uint32_t *>calloc(span + 1, sizeof(uint32_t))
            if index == NULL:
                raise MemoryError()
            for i in range(n):
                index[<int64_t>values[i] - low] = 1
            for r in range(<Py_ssize_t>span + 1):
                entries += index[r]
            dictionary = np.empty(entries, dtype=np.int64)
            _number_present(dictionary, index, span, low)
        else:
            keys = <int64_t *>calloc(_HASH_SLOTS, sizeof(int64_t))
            slots = <uint32_t *>calloc(_HASH_SLOTS, sizeof(uint32_t))
            if keys == NULL or slots == NULL:
                raise MemoryError()
            for i in range(n):
                v = <int64_t>values[i]
                h = (<uint64_t>v * 0x9E3779B97F4A7C15ULL) >> (64 - _HASH_BITS)
                while slots[h] and keys[h] != v:
                    h = (h + 1) & (_HASH_SLOTS - 1)
                if not slots[h]:
                    if entries == _MAX_HASHED:
                        return None
                    entries += 1
                    keys[h] = v
                    slots[h] = entries
            dictionary = np.empty(entries, dtype=np.int64)
            _fill_from_hash(dictionary, keys, slots)
        width = _bit_width(entries - 1) if entries else 0
        if entries * plain_bytes + (n * width + 7) // 8 >= n * plain_bytes:
            return None
        if width == 0:
            return dictionary, bytearray(b"\x00" + uleb128(<uint64_t>n << 1))
        groups = (n + 7) // 8
        head = bytes([width]) + uleb128((<uint64_t>groups << 1) | 1)
        out = bytearray(len(head) + groups * width)   # zeroed: the last group's padding
        out[:len(head)] = head
        buf = <unsigned char *>(<char *>out)
        pos = len(head)
        if not hashed:
            for i in range(n):
                slot = index[<int64_t>values[i] - low]
                acc |= <uint64_t>slot << bits
                bits += width
                if bits >= 32:   # width <= 32, so fewer than 64 bits are pending
                    _store32(buf + pos, <uint32_t>acc)
                    pos += 4
                    acc >>= 32
                    bits -= 32
        else:
            for i in range(n):
                v = <int64_t>values[i]
                h = (<uint64_t>v * 0x9E3779B97F4A7C15ULL) >> (64 - _HASH_BITS)
                while keys[h] != v:
                    h = (h + 1) & (_HASH_SLOTS - 1)
                acc |= <uint64_t>(slots[h] - 1) << bits
                bits += width
                if bits >= 32:
                    _store32(buf + pos, <uint32_t>acc)
                    pos += 4
                    acc >>= 32
                    bits -= 32
        while bits > 0:
            buf[pos] = <unsigned char>(acc & 0xFF)
            pos += 1
            acc >>= 8
            bits -= 8
        return dictionary, out
    finally:
        free(index)
        free(keys)
        free(slots)


cdef void _number_present(int64_t[::1] dictionary, uint32_t *index, uint64_t span, int64_t low) noexcept:
    """Turn the presence table into offset -> dictionary index, the dictionary ascending."""
    cdef uint32_t k = 0
    cdef uint64_t r
    for r in range(span + 1):
        if index[r]:
            dictionary[k] = low + <int64_t>r
            index[r] = k
            k += 1


cdef void _fill_from_hash(int64_t[::1] dictionary, const int64_t *keys, const uint32_t *slots) noexcept:
    cdef Py_ssize_t h
    for h in range(_HASH_SLOTS):
        if slots[h]:
            dictionary[slots[h] - 1] = keys[h]
