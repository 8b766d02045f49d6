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
    /* A jump: the PCG64 state advanced by 2**k words in one multiply-add,
       s -> s*mult + plus (O'Neill's advance for a power of two, made once). */
    typedef struct { __uint128_t mult; __uint128_t plus; } td_jump;
    static inline void td_jump_make(td_jump *j, const td_pcg128 *r, int k) {
        __uint128_t m = TD_PCG_MULT, p = r->inc;
        int i;
        for (i = 0; i < k; i++) {
            p = (m + 1) * p;
            m = m * m;
        }
        j->mult = m;
        j->plus = p;
    }
    static inline void td_jump_to(const td_jump *j, const td_pcg128 *from, td_pcg128 *to) {
        to->state = from->state * j->mult + j->plus;
        to->inc = from->inc;
    }
    """
    ctypedef struct td_pcg128:
        pass
    ctypedef struct td_pcg64_state:
        td_pcg128* pcg
        int has_uint32
        uint32_t uinteger
    ctypedef struct td_jump:
        pass
    void td_jump_make(td_jump* j, const td_pcg128* r, int k) noexcept nogil
    void td_jump_to(const td_jump* j, const td_pcg128* frm, td_pcg128* to) noexcept nogil
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
# (game, deal number, attempt): game g starts 2**100 * g words after the chance stream's
# state when the engine was made (its first dealer is drawn there), its deal k (k-th
# played deal, from 0) 2**84 * (k + 1) words after that, and the a-th redeal of that deal
# 2**64 * a words further.  A deal-only run is game 0.  So the cards of every deal depend
# on the chance seed and on that key alone: never on how many numbers the strategies drew,
# nor on how long earlier games ran (docs/kernel.md, "Chance and decisions").
cdef enum:
    KEY_GAME_LOG2 = 100
    KEY_DEAL_LOG2 = 84
    KEY_ATTEMPT_LOG2 = 64

cdef struct KeyedChance:
    td_jump game                # jumps of 2**100, 2**84 and 2**64 words
    td_jump deal
    td_jump attempt
    td_pcg128 next_game         # where the next game starts
    td_pcg128 game_at           # the current game's start
    td_pcg128 deal_at           # the current deal's start (its attempt 0)
    td_pcg128 attempt_at        # the current attempt's start
    td_pcg128 now               # the live state the deal draws from
    td_pcg64_state wrap         # numpy's PCG64 state layout around ``now``
    bitgen_t bitgen             # a bit generator drawing from ``now`` (the engine's chance)


cdef void keyed_start(KeyedChance* k, const td_pcg128* base) noexcept nogil:
    """Keyed chance from the state ``base`` (copied): game 0 and its first deal next."""
    td_jump_make(&k.game, base, KEY_GAME_LOG2)
    td_jump_make(&k.deal, base, KEY_DEAL_LOG2)
    td_jump_make(&k.attempt, base, KEY_ATTEMPT_LOG2)
    memcpy(&k.next_game, base, sizeof(td_pcg128))
    memcpy(&k.game_at, base, sizeof(td_pcg128))
    memcpy(&k.deal_at, base, sizeof(td_pcg128))
    memcpy(&k.attempt_at, base, sizeof(td_pcg128))
    memcpy(&k.now, base, sizeof(td_pcg128))
    k.wrap.pcg = &k.now
    k.wrap.has_uint32 = 0
    k.wrap.uinteger = 0
    memset(&k.bitgen, 0, sizeof(bitgen_t))
    k.bitgen.state = &k.wrap
    k.bitgen.next_uint64 = <uint64_t (*)(void*) noexcept nogil>FAST_PCG64


cdef inline void keyed_game(KeyedChance* k) noexcept nogil:
    """A new game: its start, where its first dealer is drawn."""
    memcpy(&k.game_at, &k.next_game, sizeof(td_pcg128))
    td_jump_to(&k.game, &k.game_at, &k.next_game)
    memcpy(&k.deal_at, &k.game_at, sizeof(td_pcg128))
    memcpy(&k.now, &k.game_at, sizeof(td_pcg128))


cdef inline void keyed_deal(KeyedChance* k, bint redeal) noexcept nogil:
    """The chance of the next dealt deal: the next played deal's, or (``redeal``, the
    last one was a redeal) the same deal's next attempt."""
    if redeal:
        td_jump_to(&k.attempt, &k.attempt_at, &k.attempt_at)
    else:
        td_jump_to(&k.deal, &k.deal_at, &k.deal_at)
        memcpy(&k.attempt_at, &k.deal_at, sizeof(td_pcg128))
    memcpy(&k.now, &k.attempt_at, sizeof(td_pcg128))
