# The random stream: raw 64-bit words of a numpy bit generator, bounded with Lemire's
# method on the high 32 bits exactly as docs/rules.md specifies (the reference engine's
# thousand.reference.rng is the Python twin).

cdef inline int32_t draw_bounded(bitgen_t* rng, uint32_t n) noexcept nogil:
    cdef uint64_t x = rng.next_uint64(rng.state) >> 32
    cdef uint64_t m = x * n
    cdef uint32_t l = <uint32_t>m
    cdef uint32_t t
    if l < n:
        t = (<uint32_t>(0u - n)) % n      # (2**32 - n) % n in 32-bit arithmetic
        while l < t:
            x = rng.next_uint64(rng.state) >> 32
            m = x * n
            l = <uint32_t>m
    return <int32_t>(m >> 32)


cdef inline void shuffle_deck(bitgen_t* rng, int32_t* deck) noexcept nogil:
    """Fisher-Yates on [0..23] from the top index down."""
    cdef int32_t i, j, tmp
    for i in range(24):
        deck[i] = i
    for i in range(23, 0, -1):
        j = draw_bounded(rng, i + 1)
        tmp = deck[i]
        deck[i] = deck[j]
        deck[j] = tmp
