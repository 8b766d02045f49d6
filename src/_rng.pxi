# The random stream: raw 64-bit words of a numpy bit generator, bounded with Lemire's
# method on the high 32 bits exactly as docs/rules.md specifies (the reference engine's
# thousand.reference.rng is the Python twin).

# numpy's PCG64 step (128-bit LCG, XSL-RR output) written out so the compiler inlines it
# instead of an indirect call per word.  It is used only for a bit generator whose
# next_uint64 is the function recorded by check_pcg64 (below), which first checks on a
# copy of a live state that this step and numpy's give the same words and states.
cdef extern from *:
    """
    typedef struct { __uint128_t state; __uint128_t inc; } td_pcg128;
    typedef struct { td_pcg128 *pcg; int has_uint32; uint32_t uinteger; } td_pcg64_state;
    static inline uint64_t td_pcg_step(td_pcg128 *r) {
        const __uint128_t mult = (((__uint128_t)2549297995355413924ULL) << 64)
                                 | (__uint128_t)4865540595714422341ULL;
        r->state = r->state * mult + r->inc;
        uint64_t v = (uint64_t)(r->state >> 64) ^ (uint64_t)r->state;
        unsigned rot = (unsigned)(r->state >> 122);
        return (v >> rot) | (v << ((-rot) & 63u));
    }
    static inline uint64_t td_pcg64_next(void *st) {
        return td_pcg_step(((td_pcg64_state *)st)->pcg);
    }
    """
    ctypedef struct td_pcg128:
        pass
    ctypedef struct td_pcg64_state:
        td_pcg128* pcg
    uint64_t td_pcg_step(td_pcg128* r) noexcept nogil
    uint64_t td_pcg64_next(void* st) noexcept nogil

cdef void* FAST_PCG64 = NULL     # numpy's PCG64 next_uint64 once check_pcg64 vouched for it


cdef void check_pcg64(object bitgen, bitgen_t* rng) noexcept:
    """Record numpy's PCG64 word function if the inline step reproduces it exactly."""
    global FAST_PCG64
    cdef td_pcg128 saved, copy
    cdef td_pcg128* live
    cdef int32_t i
    cdef bint same = True
    if FAST_PCG64 != NULL or type(bitgen).__name__ != "PCG64" or type(bitgen).__module__ not in (
            "numpy.random._pcg64", "numpy.random"):
        return
    live = (<td_pcg64_state*>rng.state).pcg
    memcpy(&saved, live, sizeof(td_pcg128))
    memcpy(&copy, live, sizeof(td_pcg128))
    for i in range(64):
        if td_pcg_step(&copy) != rng.next_uint64(rng.state) or memcmp(&copy, live, sizeof(td_pcg128)) != 0:
            same = False
            break
    memcpy(live, &saved, sizeof(td_pcg128))     # the stream continues as if untouched
    if same:
        FAST_PCG64 = <void*>rng.next_uint64


cdef inline uint64_t next_word(bitgen_t* rng) noexcept nogil:
    if <void*>rng.next_uint64 == FAST_PCG64:
        return td_pcg64_next(rng.state)
    return rng.next_uint64(rng.state)


cdef inline int32_t draw_bounded(bitgen_t* rng, uint32_t n) noexcept nogil:
    cdef uint64_t x = next_word(rng) >> 32
    cdef uint64_t m = x * n
    cdef uint32_t l = <uint32_t>m
    cdef uint32_t t
    if l < n:
        t = (<uint32_t>(0u - n)) % n      # (2**32 - n) % n in 32-bit arithmetic
        while l < t:
            x = next_word(rng) >> 32
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
