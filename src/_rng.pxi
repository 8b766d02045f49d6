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
    /* numpy's 128-bit PCG multiplier */
    #define TD_PCG_MULT ((((__uint128_t)2549297995355413924ULL) << 64) \
                         | (__uint128_t)4865540595714422341ULL)
    static inline uint64_t td_pcg_output(__uint128_t s) {
        uint64_t v = (uint64_t)(s >> 64) ^ (uint64_t)s;
        unsigned rot = (unsigned)(s >> 122);
        return (v >> rot) | (v << ((-rot) & 63u));
    }
    static inline uint64_t td_pcg_step(td_pcg128 *r) {
        r->state = r->state * TD_PCG_MULT + r->inc;
        return td_pcg_output(r->state);
    }
    static inline uint64_t td_pcg64_next(void *st) {
        return td_pcg_step(((td_pcg64_state *)st)->pcg);
    }
    /* A whole shuffle (the Fisher-Yates of docs/rules.md on numpy's PCG64 words) into
       deck[24], with the card masks of the deck positions [0,b1) [b1,b2) [b2,b3) [b3,24)
       in block[0..3].  Cheaper than 23 word-by-word draws and a pass over the deck:
       - the words do not depend on the deck, so the states of the odd and the even
         draws run as two chains of two-step jumps, s[k+2] = s[k]*m^2 + inc*(m+1), that
         the CPU overlaps (one chain of 128-bit multiplies is a serial latency chain);
       - going from the top, step i fixes position i, so its card goes into its block's
         mask at once.
       If no draw needs Lemire's threshold test (low < n, about 1e-7 a shuffle) it
       commits the state after the 23 words and returns 1; otherwise it returns 0 with
       the state untouched, and the caller shuffles word by word.  (The generated code
       is sensitive to layout: a tidier loop exit here measured 3 % slower overall.) */
    static inline int td_pcg_deal(td_pcg128 *r, int b1, int b2, int b3, int32_t *deck,
                                  uint32_t *block) {
        const __uint128_t mult = TD_PCG_MULT;
        const __uint128_t mult2 = mult * mult;
        const __uint128_t inc2 = r->inc * mult + r->inc;
        __uint128_t now = r->state * mult + r->inc;     /* word 1, for index 23 */
        __uint128_t next = r->state * mult2 + inc2;     /* word 2, for index 22 */
        __uint128_t later;
        const int lows[4] = {0, b1, b2, b3};
        uint32_t ok = 1, acc;
        uint64_t m;
        int32_t j, card;
        int i, b;
        for (i = 0; i < 24; i++)
            deck[i] = i;
        i = 23;
        for (b = 3; b >= 0; b--) {
            acc = 0;
            for (; i >= lows[b] && i >= 1; i--) {
                m = (td_pcg_output(now) >> 32) * (uint64_t)(i + 1);
                ok &= (uint32_t)m >= (uint32_t)(i + 1);
                j = (int32_t)(m >> 32);
                card = deck[j];
                deck[j] = deck[i];
                deck[i] = card;
                acc |= (uint32_t)1 << card;
                if (i == 1)
                    break;                  /* now is the state of word 23 */
                later = now * mult2 + inc2; /* the word after next */
                now = next;
                next = later;
            }
            block[b] = acc;
        }
        block[0] |= (uint32_t)1 << deck[0];
        if (!ok)
            return 0;
        r->state = now;
        return 1;
    }
    /* A key's place in the chance stream: the state hashed with the key (SplitMix64's
       finaliser, a bijection of 64-bit words, chained over the base state's two halves
       and the three key words), a pseudo-random place of the same PCG64 stream.  Places
       a power of two apart (the first design) share their low state bits, and PCG64's
       output of such streams is correlated (numpy issue 16313): deals of one match
       then moved together.  thousand.reference.rng.keyed_state is the Python twin. */
    static inline uint64_t td_mix64(uint64_t z) {
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
        return z ^ (z >> 31);
    }
    static inline void td_key_state(const td_pcg128 *base, uint64_t g, uint64_t d, uint64_t a,
                                    td_pcg128 *to) {
        const uint64_t gamma = 0x9E3779B97F4A7C15ULL;
        uint64_t h = td_mix64((uint64_t)(base->state >> 64) + gamma);
        h = td_mix64((h ^ (uint64_t)base->state) + gamma);
        h = td_mix64((h ^ g) + gamma);
        h = td_mix64((h ^ d) + gamma);
        h = td_mix64((h ^ a) + gamma);
        to->state = ((__uint128_t)h << 64) | (__uint128_t)td_mix64(h + gamma);
        to->inc = base->inc;
    }
    """
    ctypedef struct td_pcg128:
        pass
    ctypedef struct td_pcg64_state:
        td_pcg128* pcg
        int has_uint32
        uint32_t uinteger
    void td_key_state(const td_pcg128* base, uint64_t g, uint64_t d, uint64_t a, td_pcg128* to) noexcept nogil
    uint64_t td_pcg_step(td_pcg128* r) noexcept nogil
    uint64_t td_pcg64_next(void* st) noexcept nogil
    int td_pcg_deal(td_pcg128* r, int b1, int b2, int b3, int32_t* deck, uint32_t* block) noexcept nogil

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


cdef inline uint32_t mask_of_deck(int32_t* deck, int32_t lo, int32_t hi) noexcept nogil:
    cdef uint32_t m = 0
    cdef int32_t i
    for i in range(lo, hi):
        m |= <uint32_t>1 << deck[i]
    return m


cdef inline int32_t shuffle_blocks(bitgen_t* rng, int32_t b1, int32_t b2, int32_t b3,
                                   uint32_t* block) noexcept nogil:
    """Shuffle (as shuffle_deck) and return the card masks of the deck positions [0, b1),
    [b1, b2), [b2, b3), [b3, 24) in block[0..3]; returns the card at position 20 (the
    bottom card of the cut)."""
    cdef int32_t deck[24]
    if (<void*>rng.next_uint64 == FAST_PCG64
            and td_pcg_deal((<td_pcg64_state*>rng.state).pcg, b1, b2, b3, deck, block)):
        return deck[20]
    shuffle_deck(rng, deck)
    block[0] = mask_of_deck(deck, 0, b1)
    block[1] = mask_of_deck(deck, b1, b2)
    block[2] = mask_of_deck(deck, b2, b3)
    block[3] = mask_of_deck(deck, b3, 24)
    return deck[20]


# ------------------------------------------------------------------ keyed chance
# With separate streams (Engine(decisions=...)) the strategies draw from their own
# stream and the chance of each deal comes from a place of the chance stream fixed by
# the key (game g, d, attempt a): d = 0 is the game's start (its first dealer is drawn
# there), d = k + 1 its k-th played deal (from 0), a its a-th redeal.  A deal-only run is
# game 0.  The place is the chance stream's state when the engine was made, hashed with
# the key (td_key_state): so the cards of every deal depend on the chance seed and on
# that key alone, never on how many numbers the strategies drew, nor on how long earlier
# games ran (docs/kernel.md, "Chance and decisions").
cdef struct KeyedChance:
    td_pcg128 base              # the chance stream's state when the engine was made
    uint64_t game               # the key of the place ``now`` was set to
    uint64_t deal
    uint64_t attempt
    bint started                # a game was started (keyed_game), or a deal dealt
    td_pcg128 now               # the live state the deal draws from
    td_pcg64_state wrap         # numpy's PCG64 state layout around ``now``
    bitgen_t bitgen             # a bit generator drawing from ``now`` (the engine's chance)


cdef void keyed_start(KeyedChance* k, const td_pcg128* base) noexcept nogil:
    """Keyed chance from the state ``base`` (copied): game 0 and its first deal next."""
    memcpy(&k.base, base, sizeof(td_pcg128))
    k.game = 0
    k.deal = 0
    k.attempt = 0
    k.started = False
    td_key_state(&k.base, 0, 0, 0, &k.now)
    k.wrap.pcg = &k.now
    k.wrap.has_uint32 = 0
    k.wrap.uinteger = 0
    memset(&k.bitgen, 0, sizeof(bitgen_t))
    k.bitgen.state = &k.wrap
    k.bitgen.next_uint64 = <uint64_t (*)(void*) noexcept nogil>FAST_PCG64


cdef inline void keyed_game(KeyedChance* k) noexcept nogil:
    """A new game: its start, where its first dealer is drawn."""
    if k.started:
        k.game += 1
    k.started = True
    k.deal = 0
    k.attempt = 0
    td_key_state(&k.base, k.game, 0, 0, &k.now)


cdef inline void keyed_deal(KeyedChance* k, bint redeal) noexcept nogil:
    """The chance of the next dealt deal: the next played deal's, or (``redeal``, the
    last one was a redeal) the same deal's next attempt."""
    k.started = True
    if redeal:
        k.attempt += 1
    else:
        k.deal += 1
        k.attempt = 0
    td_key_state(&k.base, k.game, k.deal, k.attempt, &k.now)
