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
    static inline uint64_t td_pcg_output(__uint128_t s) {
        uint64_t v = (uint64_t)(s >> 64) ^ (uint64_t)s;
        unsigned rot = (unsigned)(s >> 122);
        return (v >> rot) | (v << ((-rot) & 63u));
    }
    /* One shuffle's 23 draws (bounds 24 down to 2) without a serial chain of 23 LCG
       steps: the words do not depend on the deck, so the odd and even states run as
       two chains of two-step jumps (s[k+2] = s[k]*m^2 + inc*(m+1)) that the CPU
       overlaps, all in registers.  Writes j[0..22] (j[k] for deck index 23-k) and, if
       no word falls in Lemire's rejection zone, commits the state after the 23 words
       and returns 1.  Otherwise (probability ~1e-7) the state is left untouched and
       it returns 0: the caller then draws the plain way, word by word. */
    static inline int td_pcg_shuffle_draws(td_pcg128 *r, int32_t *j) {
        const __uint128_t mult = (((__uint128_t)2549297995355413924ULL) << 64)
                                 | (__uint128_t)4865540595714422341ULL;
        const __uint128_t mult2 = mult * mult;
        const __uint128_t inc = r->inc;
        const __uint128_t inc2 = inc * mult + inc;
        __uint128_t odd = r->state * mult + inc;        /* s1, s3, ... s23 */
        __uint128_t even = r->state * mult2 + inc2;     /* s2, s4, ... s22 */
        uint32_t low_any = 0xFFFFFFFFu;                 /* min over (low - n): wraps if low < n */
        uint64_t m;
        int k;
        for (k = 0; k < 22; k += 2) {
            m = (td_pcg_output(odd) >> 32) * (uint64_t)(24 - k);
            j[k] = (int32_t)(m >> 32);
            low_any &= (uint32_t)m >= (uint32_t)(24 - k) ? 0xFFFFFFFFu : 0u;
            m = (td_pcg_output(even) >> 32) * (uint64_t)(23 - k);
            j[k + 1] = (int32_t)(m >> 32);
            low_any &= (uint32_t)m >= (uint32_t)(23 - k) ? 0xFFFFFFFFu : 0u;
            odd = odd * mult2 + inc2;
            even = even * mult2 + inc2;
        }
        m = (td_pcg_output(odd) >> 32) * 2u;            /* s23: the last draw, bound 2 */
        j[22] = (int32_t)(m >> 32);
        low_any &= (uint32_t)m >= 2u ? 0xFFFFFFFFu : 0u;
        if (!low_any)
            return 0;
        r->state = odd;
        return 1;
    }
    """
    ctypedef struct td_pcg128:
        pass
    ctypedef struct td_pcg64_state:
        td_pcg128* pcg
    uint64_t td_pcg_step(td_pcg128* r) noexcept nogil
    uint64_t td_pcg64_next(void* st) noexcept nogil
    int td_pcg_shuffle_draws(td_pcg128* r, int32_t* j) noexcept nogil

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
    cdef int32_t js[23]
    for i in range(24):
        deck[i] = i
    if (<void*>rng.next_uint64 == FAST_PCG64
            and td_pcg_shuffle_draws((<td_pcg64_state*>rng.state).pcg, js)):
        for i in range(23, 0, -1):
            j = js[23 - i]
            tmp = deck[i]
            deck[i] = deck[j]
            deck[j] = tmp
        return
    for i in range(23, 0, -1):
        j = draw_bounded(rng, i + 1)
        tmp = deck[i]
        deck[i] = deck[j]
        deck[j] = tmp
