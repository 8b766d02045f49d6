# Strategies: one function per decision, each given a View (what the seat knows and
# which answers are legal), the seat's numeric parameters, and the random stream.
#
# The engine guarantees: D_BID  -> answer 0 (pass) or a multiple of view.step in
#                                  [view.min_bid, view.max_bid];
#                        D_RAISE -> RESIGNED (if view.can_resign) or a value in
#                                  [view.min_bid, view.max_bid] (min_bid == contract);
#                        D_PLAY  -> a card of view.legal, declare only if the card is in
#                                  view.declarable;
#                        D_HAND_OFF -> two distinct cards of view.hand.
# The dispatchers at the bottom are the only entry points the engine uses; a new
# strategy adds a code in _fastdeal.pxd, a branch in each dispatcher, and its name in
# thousand/strategies.py.
#
# Parameters (double[N_PARAMS]) are documented in thousand/strategies.py.

# ------------------------------------------------------------------ random
cdef inline int32_t random_yes_no(bitgen_t* rng) noexcept nogil:
    return draw_bounded(rng, 2)


cdef inline int32_t random_bid(View* v, bitgen_t* rng) noexcept nogil:
    cdef int32_t k = 0
    cdef int32_t i
    if v.max_bid >= v.min_bid:
        k = (v.max_bid - v.min_bid) // v.step + 1
    if k == 0:
        return 0
    i = draw_bounded(rng, k + 1)
    if i == 0:
        return 0
    return v.min_bid + (i - 1) * v.step


cdef inline void random_hand_off(View* v, bitgen_t* rng, int32_t* first, int32_t* second) noexcept nogil:
    cdef uint32_t h = v.hand
    cdef int32_t n = td_popcount(h)
    first[0] = nth_card(h, draw_bounded(rng, n))
    h &= ~(<uint32_t>1 << first[0])
    second[0] = nth_card(h, draw_bounded(rng, n - 1))


cdef inline int32_t random_raise(View* v, bitgen_t* rng) noexcept nogil:
    cdef int32_t k = 1
    cdef int32_t i
    if v.max_bid > v.min_bid:
        k = (v.max_bid - v.min_bid) // v.step + 1
    if v.can_resign:
        k += 1
    if k == 1:
        return v.min_bid
    i = draw_bounded(rng, k)
    if v.can_resign:
        if i == 0:
            return RESIGNED
        i -= 1
    return v.min_bid + i * v.step


cdef inline int32_t random_play(View* v, bitgen_t* rng, int32_t* declare) noexcept nogil:
    cdef int32_t k = td_popcount(v.legal)
    cdef int32_t c
    if k == 1:
        c = td_lowbit(v.legal)        # a single option draws nothing
    else:
        c = nth_card(v.legal, draw_bounded(rng, k))
    declare[0] = 0
    if v.declarable >> c & 1:
        declare[0] = draw_bounded(rng, 2)
    return c


# ------------------------------------------------------------------ greedy
# The naive baseline: bids 100 plus its best marriage, hands off its lowest cards,
# keeps the contract, plays its highest legal card and declares whenever it can.

cdef inline int32_t greedy_bid(View* v, double* p) noexcept nogil:
    # p[0] is standard's `margin` (0 for greedy, which has no parameters)
    cdef int32_t limit = 100 + marriage_max(v.hand) - <int32_t>p[0]
    if v.min_bid <= v.max_bid and v.min_bid <= limit:
        return v.min_bid
    return 0


cdef inline void greedy_hand_off(View* v, int32_t* first, int32_t* second) noexcept nogil:
    first[0] = lowest_by_rank(v.hand)
    second[0] = lowest_by_rank(v.hand & ~(<uint32_t>1 << first[0]))


cdef inline int32_t greedy_play(View* v, int32_t* declare) noexcept nogil:
    cdef int32_t c = highest_by_rank(v.legal)
    declare[0] = <int32_t>((v.declarable >> c) & 1)
    return c


# ------------------------------------------------------------------ dispatch
cdef inline int32_t strategy_blind(int32_t code, View* v, double* p, bitgen_t* rng) noexcept nogil:
    if code == S_RANDOM:
        return random_yes_no(rng)
    return 0


cdef inline int32_t strategy_redeal(int32_t code, View* v, double* p, bitgen_t* rng) noexcept nogil:
    if code == S_RANDOM:
        return random_yes_no(rng)
    return 1


cdef inline int32_t strategy_bid(int32_t code, View* v, double* p, bitgen_t* rng) noexcept nogil:
    if code == S_RANDOM:
        return random_bid(v, rng)
    return greedy_bid(v, p)


cdef inline void strategy_hand_off(int32_t code, View* v, double* p, bitgen_t* rng,
                                   int32_t* first, int32_t* second) noexcept nogil:
    if code == S_RANDOM:
        random_hand_off(v, rng, first, second)
    else:
        greedy_hand_off(v, first, second)


cdef inline int32_t strategy_raise(int32_t code, View* v, double* p, bitgen_t* rng) noexcept nogil:
    if code == S_RANDOM:
        return random_raise(v, rng)
    return v.min_bid


cdef inline int32_t strategy_play(int32_t code, View* v, double* p, bitgen_t* rng,
                                  int32_t* declare) noexcept nogil:
    if code == S_RANDOM:
        return random_play(v, rng, declare)
    return greedy_play(v, declare)
