# The perfect-information Monte Carlo player `pimc` (issue 14): at a card play, a
# hand-off and a raise/resign decision it deals the hidden cards in ways consistent with
# what the seat knows ("worlds"), solves every world with the open-hand solver
# (_solver.pxi: solver_setup, solver_new_generation, solver_card_values, solver_exact --
# the only entry points it calls) and takes the answer best over the worlds for what the
# rules pay the seat.  It bids (and answers blind / redeal questions) as `standard`, with
# the standard parameters in slots 0..7.  docs/strategies.md ("pimc") has the objectives,
# the knowledge used and the known weaknesses.
#
# Included by _fastdeal.pyx after _solver.pxi; the dispatchers of _strategies.pxi call
# pimc_play / pimc_hand_off / pimc_raise (Cython declares every cdef function of the
# module before any body, so the earlier file may call them).
#
# Randomness: one 64-bit word from the seat's decision stream per decision that has a
# choice (none for a forced card), seeding a private splitmix64 stream for the worlds,
# so a decision draws the same from the stream whether the worlds are enumerated or
# sampled, and the batch engine and the single-decision entry (decide) agree.
#
# The seat's workspace (Strategy.workspace bytes, Python allocates) is the solver's
# transposition table; the values the solver returns are exact whatever the table held
# before, so the answers do not depend on it.

cdef enum:
    # parameter slots (0..7 are the sensible family's: pimc bids as standard)
    PIMC_P_WORLDS = 8           # worlds per card decision as declarer (all of them when fewer)
    PIMC_P_HANDOFF_PAIRS = 9    # hand-off candidates kept from the standard ranking
    PIMC_P_HANDOFF_WORLDS = 10  # worlds per hand-off decision
    PIMC_P_RAISE_WORLDS = 11    # worlds per raise/resign decision
    PIMC_P_DEFENCE_WORLDS = 12  # worlds per card decision as defender
    PIMC_MAX_WORLDS = 1024
    PIMC_MAX_PAIRS = 66         # 12 cards (2 players' lay-away): 66 pairs


cdef int64_t PIMC_BINOM[25][25]


cdef void _init_pimc_binom():
    cdef int32_t n, k
    for n in range(25):
        for k in range(25):
            PIMC_BINOM[n][k] = 0
        PIMC_BINOM[n][0] = 1
        for k in range(1, n + 1):
            PIMC_BINOM[n][k] = PIMC_BINOM[n - 1][k - 1] + PIMC_BINOM[n - 1][k]


_init_pimc_binom()


cdef inline uint64_t pimc_next(uint64_t* st) noexcept nogil:
    """splitmix64: the worlds' private stream."""
    cdef uint64_t z
    st[0] += <uint64_t>0x9E3779B97F4A7C15u
    z = st[0]
    z = (z ^ (z >> 30)) * <uint64_t>0xBF58476D1CE4E5B9u
    z = (z ^ (z >> 27)) * <uint64_t>0x94D049BB133111EBu
    return z ^ (z >> 31)


cdef inline uint32_t pimc_below(uint64_t* st, uint32_t n) noexcept nogil:
    """A draw in 0..n-1 (n >= 1; the bias of a 32-bit multiply is far below anything
    the worlds could show)."""
    return <uint32_t>(((pimc_next(st) >> 32) * <uint64_t>n) >> 32)


cdef inline uint32_t pimc_deposit(uint32_t idx, uint32_t mask) noexcept nogil:
    """The cards of ``mask`` picked by the bits of ``idx`` (bit i: the i-th lowest card)."""
    cdef uint32_t out = 0
    cdef int32_t c
    while mask and idx:
        c = td_lowbit(mask)
        mask &= mask - 1
        if idx & 1:
            out |= <uint32_t>1 << c
        idx >>= 1
    return out


cdef inline uint32_t pimc_pick(uint64_t* st, uint32_t mask, int32_t m) noexcept nogil:
    """``m`` cards of ``mask`` drawn uniformly (a partial Fisher-Yates shuffle)."""
    cdef int32_t cards[24]
    cdef int32_t n = 0, i, j, tmp
    cdef uint32_t out = 0
    while mask:
        cards[n] = td_lowbit(mask)
        mask &= mask - 1
        n += 1
    for i in range(m):
        j = i + <int32_t>pimc_below(st, <uint32_t>(n - i))
        tmp = cards[i]
        cards[i] = cards[j]
        cards[j] = tmp
        out |= <uint32_t>1 << cards[i]
    return out


cdef inline uint32_t pimc_next_combo(uint32_t x) noexcept nogil:
    """The next larger integer with as many bits set (Gosper's hack; x > 0)."""
    cdef uint32_t u = x & (~x + 1)
    cdef uint32_t w = x + u
    return w | (((x ^ w) >> 2) // u)


cdef struct PimcWorlds:
    # The hidden cards and who may hold them.  Two receivers: with 3 playing, the other
    # two seats; with 2, the opponent (0) and the pile of cards out of play (1: the
    # set-aside talon, and for the defender also the two cards the declarer laid away).
    int32_t recv[2]         # their seats (-1: the pile)
    uint32_t base[2]        # cards each certainly holds (placed, or the other cannot)
    uint32_t flex_t         # the free cards of the capped set (the talon a defender saw)
    uint32_t flex_o         # the other free cards
    int32_t cap_r           # the receiver that takes ``take`` free cards, at most cap_n of flex_t
    int32_t cap_n
    int32_t take
    int32_t j_lo            # how many of flex_t he takes: j_lo..j_hi
    int32_t j_hi
    int64_t total           # the consistent worlds


cdef inline int64_t pimc_weight(const PimcWorlds* w, int32_t j) noexcept nogil:
    return (PIMC_BINOM[td_popcount(w.flex_t)][j]
            * PIMC_BINOM[td_popcount(w.flex_o)][w.take - j])


cdef bint pimc_worlds_init(PimcWorlds* w, uint32_t unknown, const int32_t* recv, const int32_t* need,
                           const uint32_t* fixed, const uint32_t* allow, uint32_t capped,
                           int32_t cap_r, int32_t cap_n) noexcept nogil:
    """The worlds dealing ``unknown`` to the two receivers: ``need[i]`` cards each,
    ``fixed[i]`` known to be his, only cards of ``allow[i]``, and receiver ``cap_r`` (-1:
    none) holding at most ``cap_n`` cards of ``capped``.  False when no world fits."""
    cdef uint32_t free, forced0, forced1, x
    cdef int32_t k[2]
    cdef int32_t i, rem, nt, no, j
    if need[0] < 0 or need[1] < 0 or td_popcount(unknown) != need[0] + need[1]:
        return False
    if (fixed[0] & fixed[1]) or ((fixed[0] | fixed[1]) & ~unknown):
        return False
    if (fixed[0] & ~allow[0]) or (fixed[1] & ~allow[1]):
        return False
    free = unknown & ~(fixed[0] | fixed[1])
    forced0 = free & ~allow[1]
    forced1 = free & ~allow[0]
    if forced0 & forced1:
        return False
    for i in range(2):
        w.recv[i] = recv[i]
    w.base[0] = fixed[0] | forced0
    w.base[1] = fixed[1] | forced1
    x = free & ~(forced0 | forced1)
    k[0] = need[0] - td_popcount(w.base[0])
    k[1] = need[1] - td_popcount(w.base[1])
    if k[0] < 0 or k[1] < 0:
        return False
    if cap_r < 0:
        w.cap_r = 0
        w.flex_t = 0
        w.flex_o = x
        rem = 0
    else:
        w.cap_r = cap_r
        rem = cap_n - td_popcount(w.base[cap_r] & capped)
        if rem < 0:
            return False
        w.flex_t = x & capped
        w.flex_o = x & ~capped
    w.cap_n = cap_n
    w.take = k[w.cap_r]
    nt = td_popcount(w.flex_t)
    no = td_popcount(w.flex_o)
    w.j_lo = w.take - no if w.take > no else 0
    w.j_hi = nt if nt < w.take else w.take
    if cap_r >= 0 and w.j_hi > rem:
        w.j_hi = rem
    w.total = 0
    for j in range(w.j_lo, w.j_hi + 1):
        w.total += pimc_weight(w, j)
    return w.total > 0


cdef int32_t pimc_enumerate(const PimcWorlds* w, uint32_t* out, int32_t cap) noexcept nogil:
    """Every world (at most ``cap``): the free cards receiver ``cap_r`` takes."""
    cdef int32_t nt = td_popcount(w.flex_t), no = td_popcount(w.flex_o), j, n = 0
    cdef uint32_t ct, co, ct_end, co_end, st
    for j in range(w.j_lo, w.j_hi + 1):
        ct = (<uint32_t>1 << j) - 1
        ct_end = <uint32_t>1 << nt
        while ct < ct_end or (j == 0 and ct == 0):
            st = pimc_deposit(ct, w.flex_t)
            co = (<uint32_t>1 << (w.take - j)) - 1
            co_end = <uint32_t>1 << no
            while co < co_end or (w.take - j == 0 and co == 0):
                if n == cap:
                    return n
                out[n] = st | pimc_deposit(co, w.flex_o)
                n += 1
                if co == 0:
                    break
                co = pimc_next_combo(co)
            if ct == 0:
                break
            ct = pimc_next_combo(ct)
    return n


cdef uint32_t pimc_sample(const PimcWorlds* w, uint64_t* st) noexcept nogil:
    """One world drawn uniformly among the consistent ones (the free cards of cap_r)."""
    cdef int64_t r = <int64_t>(pimc_next(st) % <uint64_t>w.total)
    cdef int32_t j = w.j_lo
    while j < w.j_hi and r >= pimc_weight(w, j):
        r -= pimc_weight(w, j)
        j += 1
    return pimc_pick(st, w.flex_t, j) | pimc_pick(st, w.flex_o, w.take - j)


cdef inline void pimc_world_hands(const PimcWorlds* w, uint32_t share, uint32_t* got) noexcept nogil:
    """The two receivers' cards in the world where receiver cap_r takes ``share``."""
    cdef uint32_t x = w.flex_t | w.flex_o
    got[w.cap_r] = w.base[w.cap_r] | share
    got[1 - w.cap_r] = w.base[1 - w.cap_r] | (x & ~share)


cdef inline SolveEntry* pimc_table(Seat* s, uint32_t* mask) noexcept nogil:
    """The seat's workspace as a solver table (a header entry, then 2 * 2**k entries)."""
    cdef int64_t n = s.work_bytes // sizeof(SolveEntry) - 1
    cdef int64_t b = 1
    while 2 * (b * 2) <= n:
        b *= 2
    mask[0] = <uint32_t>(b - 1)
    return <SolveEntry*>s.work


cdef inline void pimc_generation(Solver* sol, int32_t k, int32_t n_active) noexcept nogil:
    """The table for the ``k``-th search of a decision: a new generation for the first;
    with 3 playing the others share it (what one world's search stored is exact for the
    same cards in another: deep in the play the worlds meet); with 2 the set-aside talon's
    points, which the key leaves out, differ between worlds, so each starts afresh."""
    if k == 0 or n_active == 2:
        solver_new_generation(sol)
    else:
        solver_share_generation(sol)


cdef inline int32_t pimc_worlds_param(double x) noexcept nogil:
    cdef int32_t n = <int32_t>x
    if n < 1:
        return 1
    if n > PIMC_MAX_WORLDS:
        return PIMC_MAX_WORLDS
    return n


cdef inline uint64_t pimc_seed(Seat* s) noexcept nogil:
    """One word of the seat's decision stream (0 when it has none: decide without one)."""
    if s.rng == NULL:
        return 0
    return next_word(s.rng)


cdef inline void pimc_row(int32_t* row, const uint32_t* hands, const View* v, int32_t n_active,
                          int32_t leader, int32_t trick_n, const int32_t* trick, int32_t trump,
                          int32_t trick_index, int32_t set_aside) noexcept nogil:
    """A solver position row (POS_*) for one world."""
    cdef int32_t i
    for i in range(POS_FIELDS):
        row[i] = 0
    for i in range(4):
        row[POS_HANDS + i] = <int32_t>hands[i]
    for i in range(3):
        row[POS_ACTIVE + i] = v.active[i] if i < n_active else -1
        row[POS_TRICK + i] = trick[i] if i < trick_n else -1
    row[POS_DECLARER] = v.declarer
    row[POS_LEADER] = leader
    row[POS_TRICK_N] = trick_n
    row[POS_TRUMP] = trump
    row[POS_SET_ASIDE] = set_aside
    row[POS_TRICK_INDEX] = trick_index


cdef inline int32_t pimc_next_active(const View* v, int32_t n_active, int32_t seat) noexcept nogil:
    cdef int32_t i
    for i in range(n_active):
        if v.active[i] == seat:
            return v.active[(i + 1) % n_active]
    return -1


cdef inline bint pimc_better(int32_t mk, int64_t sum, int32_t best_mk, int64_t best_sum,
                             bint maximising) noexcept nogil:
    """The objective (docs/strategies.md): the declarer maximises the worlds where he
    makes the contract, then his points summed over the worlds; the defenders minimise
    both (beat the contract, then leave him the fewest points: theirs are the rest)."""
    if maximising:
        return mk > best_mk or (mk == best_mk and sum > best_sum)
    return mk < best_mk or (mk == best_mk and sum < best_sum)


cdef bint pimc_hidden(Seat* s, const View* v, uint32_t unknown, const int32_t* left, uint32_t voids_r0,
                      uint32_t voids_r1, bint handed_off, PimcWorlds* w, uint32_t* laid) noexcept nogil:
    """What the seat knows of the hidden cards ``unknown`` (its hand and the played cards
    excluded) as worlds: ``left[seat]`` cards each seat still holds, the voids of the two
    receivers (3 playing) or of the opponent (2 playing), the hand-off, the talon.
    ``handed_off``: the declarer's hand-off (v.given) is made.  ``laid``: 2 players, the
    declarer's own laid-away cards (known to him only)."""
    cdef int32_t n_active = s.play.n_active, me = v.seat, d = v.declarer, i, nxt, oth
    cdef int32_t recv[2]
    cdef int32_t need[2]
    cdef uint32_t fixed[2]
    cdef uint32_t allow[2]
    cdef uint32_t gone, capped = 0
    cdef int32_t cap_r = -1
    laid[0] = 0
    fixed[0] = 0
    fixed[1] = 0
    if n_active == 3:
        nxt = pimc_next_active(v, 3, me)
        recv[0] = nxt
        recv[1] = pimc_next_active(v, 3, nxt)
        need[0] = left[recv[0]]
        need[1] = left[recv[1]]
        allow[0] = unknown & ~voids_r0
        allow[1] = unknown & ~voids_r1
        if me == d:
            # he knows where his hand-off went: given[0] to the seat after him
            if handed_off and v.given[0] >= 0 and v.given[1] >= 0:
                fixed[0] = unknown & (<uint32_t>1 << v.given[0])
                fixed[1] = unknown & (<uint32_t>1 << v.given[1])
        elif v.talon:
            # a defender saw the talon: the declarer took it and gave one card to each
            # defender, so the other defender holds at most one of its cards (the one
            # given to him; the received one is in this hand or played)
            oth = recv[0] if recv[0] != d else recv[1]
            cap_r = 0 if recv[0] == oth else 1
            capped = v.talon & unknown
    else:
        oth = pimc_next_active(v, 2, me)
        recv[0] = oth
        recv[1] = -1
        if me == d and handed_off and v.given[0] >= 0 and v.given[1] >= 0:
            gone = (<uint32_t>1 << v.given[0]) | (<uint32_t>1 << v.given[1])
            laid[0] = gone
            unknown &= ~gone
        need[0] = left[oth]
        need[1] = td_popcount(unknown) - need[0]
        allow[0] = unknown & ~voids_r0
        allow[1] = unknown
    return pimc_worlds_init(w, unknown, recv, need, fixed, allow, capped, cap_r, 1)


cdef inline void pimc_place(const PimcWorlds* w, uint32_t share, uint32_t* hands, int32_t me, uint32_t mine,
                            uint32_t laid_known, bint declarer_me, uint64_t* st, int32_t* set_aside,
                            int32_t* laid_points) noexcept nogil:
    """One world's hands by seat (and, 2 players, the set-aside talon's and the laid-away
    cards' points): the pile of a defender holds two laid-away and two set-aside cards,
    split at random."""
    cdef uint32_t got[2]
    cdef uint32_t lay
    cdef int32_t i
    pimc_world_hands(w, share, got)
    for i in range(4):
        hands[i] = 0
    hands[me] = mine
    hands[w.recv[0]] = got[0]
    set_aside[0] = 0
    laid_points[0] = 0
    if w.recv[1] >= 0:
        hands[w.recv[1]] = got[1]
    elif declarer_me:
        set_aside[0] = card_points_c(got[1])
        laid_points[0] = card_points_c(laid_known)
    else:
        lay = pimc_pick(st, got[1], td_popcount(got[1]) - 2) if td_popcount(got[1]) > 2 else 0
        laid_points[0] = card_points_c(lay)
        set_aside[0] = card_points_c(got[1] & ~lay)


cdef inline int32_t pimc_need(const View* v, int32_t contract) noexcept nogil:
    """The declarer's points that make ``contract`` in the view (points_to_make)."""
    return points_to_make(contract, v.declarer == v.sitter, v.barrel_contract, v.barrel_target)


cdef int32_t pimc_card_tally(Seat* s, View* v, const PlayState* ps, int32_t* mk, int64_t* sums, int64_t* base,
                             int64_t* layouts) noexcept nogil:
    """Every move's tally over the worlds of the card decision ``v`` (move k: the card,
    +24 declared): ``mk[k]`` the worlds where the declarer makes the contract, ``sums[k]``
    his future points summed (the objective's); ``base`` his points taken so far and laid
    away, summed over the worlds solved (every legal move has a value in each, so
    ``base + sums[k]`` is his deal points summed: what a person is told); ``layouts`` the
    consistent worlds in all.  Returns the worlds dealt, -1 for a view no deal can reach."""
    cdef int32_t left[4]
    cdef int32_t trick[3]
    cdef int32_t row[POS_FIELDS]
    cdef int32_t out[48]
    cdef uint32_t shares[PIMC_MAX_WORLDS]
    cdef uint32_t hands[4]
    cdef uint32_t unknown, laid = 0, mask
    cdef PimcWorlds w
    cdef Solver sol
    cdef SolveEntry* table
    cdef uint64_t st
    cdef int32_t i, k, n_worlds, want, n_active = s.play.n_active, me = v.seat, d = v.declarer
    cdef int32_t made, set_aside, laid_points, r0, r1, need
    cdef bint maximising = me == d
    st = pimc_seed(s)
    for i in range(4):
        left[i] = 0
    for i in range(n_active):
        left[v.active[i]] = s.play.n_tricks - ps.trick_index
    for i in range(ps.trick_n):
        left[ps.trick_seats[i]] -= 1
        trick[i] = ps.trick_cards[i]
    unknown = FULL_DECK & ~(v.hand | ps.played)
    r0 = pimc_next_active(v, n_active, me)
    r1 = pimc_next_active(v, n_active, r0) if n_active == 3 else -1
    if not pimc_hidden(s, v, unknown, left, ps.voids[r0], ps.voids[r1] if r1 >= 0 else 0, True, &w,
                       &laid):
        return -1
    layouts[0] = w.total
    want = pimc_worlds_param(s.params[PIMC_P_WORLDS if maximising else PIMC_P_DEFENCE_WORLDS])
    if w.total <= want:
        n_worlds = pimc_enumerate(&w, shares, PIMC_MAX_WORLDS)
    else:
        n_worlds = want
        for i in range(n_worlds):
            shares[i] = pimc_sample(&w, &st)
    table = pimc_table(s, &mask)
    made = ps.points[d] + ps.marriages[d] + ps.bonus[d]
    need = pimc_need(v, v.contract)
    for k in range(48):
        mk[k] = 0
        sums[k] = 0
    base[0] = 0
    for i in range(n_worlds):
        pimc_place(&w, shares[i], hands, me, v.hand, laid, maximising, &st, &set_aside, &laid_points)
        pimc_row(row, hands, v, n_active, ps.leader, ps.trick_n, trick, ps.trump, ps.trick_index, set_aside)
        if not solver_setup(&sol, s.rules, row, table, mask, 0):
            continue
        pimc_generation(&sol, i, n_active)
        solver_card_values(&sol, out)
        base[0] += made + laid_points
        for k in range(48):
            if out[k] >= 0:
                mk[k] += made + laid_points + out[k] >= need
                sums[k] += out[k]
    return n_worlds


cdef int32_t pimc_play(Seat* s, View* v, const PlayState* ps, int32_t* declare) noexcept nogil:
    """The card (and declaration) best over the worlds (see the header)."""
    cdef int32_t mk[48]
    cdef int64_t sums[48]
    cdef int64_t base, layouts
    cdef uint32_t legal = v.legal, declarable = v.declarable
    cdef int32_t k, best = -1
    cdef bint maximising = v.seat == v.declarer
    declare[0] = 0
    if not (legal & (legal - 1)):
        return td_lowbit(legal)             # forced: no search, no draw
    if pimc_card_tally(s, v, ps, mk, sums, &base, &layouts) < 0:
        # a view no deal can reach (hand-made, with impossible counts): play as standard
        return sensible_play(v, ps, s.params, declare)
    for k in range(48):
        if (k < 24 and not (legal >> k & 1)) or (k >= 24 and not (declarable >> (k - 24) & 1)):
            continue
        if best < 0 or pimc_better(mk[k], sums[k], mk[best], sums[best], maximising):
            best = k
    if best < 0:
        return sensible_play(v, ps, s.params, declare)
    declare[0] = 1 if best >= 24 else 0
    return best - 24 if best >= 24 else best


cdef inline int32_t pimc_start_worlds(Seat* s, const View* v, uint32_t hand, bint handed_off, int32_t want,
                                      uint64_t* st, PimcWorlds* w, uint32_t* shares, uint32_t* laid) noexcept nogil:
    """The worlds at the start of the play, seen by the declarer holding ``hand``, after
    his hand-off (``v.given``) or before it.  Returns how many (0: none fits)."""
    cdef int32_t left[4]
    cdef int32_t i, n
    for i in range(4):
        left[i] = 0
    for i in range(s.play.n_active):
        left[v.active[i]] = s.play.n_tricks
    if not handed_off and s.play.n_active == 3:
        # before the hand-off the defenders hold one card fewer each
        for i in range(3):
            if v.active[i] != v.seat:
                left[v.active[i]] -= 1
    if not pimc_hidden(s, v, FULL_DECK & ~hand, left, 0, 0, handed_off, w, laid):
        return 0
    if w.total <= want:
        return pimc_enumerate(w, shares, PIMC_MAX_WORLDS)
    for i in range(want):
        shares[i] = pimc_sample(w, st)
    return want


cdef void pimc_hand_off(Seat* s, View* v, int32_t* first, int32_t* second) noexcept nogil:
    """The hand-off (2 players: the lay-away) best over the worlds among the candidates
    the standard estimate ranks highest (both directions of each pair with 3 players)."""
    cdef const Estimates* t = estimates_for(v)
    cdef uint32_t h = v.hand, x, y, gone, unknown, laid = 0, mask
    cdef uint32_t shares[PIMC_MAX_WORLDS]
    cdef uint32_t hands[4]
    cdef uint32_t got[2]
    cdef int32_t pa[PIMC_MAX_PAIRS]
    cdef int32_t pb[PIMC_MAX_PAIRS]
    cdef double pe[PIMC_MAX_PAIRS]
    cdef int32_t mk[2 * PIMC_MAX_PAIRS]
    cdef int64_t sums[2 * PIMC_MAX_PAIRS]
    cdef int32_t row[POS_FIELDS]
    cdef int32_t trick[3]
    cdef int32_t n = 0, i, j, a, b, tmp, keep, n_worlds, c, k, nxt, oth, set_aside, laid_points, val, best
    cdef int32_t n_cand
    cdef double e
    cdef PimcWorlds w
    cdef Solver sol
    cdef SolveEntry* table
    cdef uint64_t st = pimc_seed(s)
    cdef bint two = s.play.n_active == 2
    # rank every pair by the standard estimate of the cards kept
    x = h
    while x and n < PIMC_MAX_PAIRS:
        a = td_lowbit(x)
        x &= x - 1
        y = x
        while y and n < PIMC_MAX_PAIRS:
            b = td_lowbit(y)
            y &= y - 1
            gone = (<uint32_t>1 << a) | (<uint32_t>1 << b)
            e = kept_estimate(t, h & ~gone, gone)
            # insertion by estimate, highest first (a stable order: earlier pairs first)
            j = n
            while j > 0 and pe[j - 1] < e:
                pa[j] = pa[j - 1]
                pb[j] = pb[j - 1]
                pe[j] = pe[j - 1]
                j -= 1
            pa[j] = a
            pb[j] = b
            pe[j] = e
            n += 1
    keep = <int32_t>s.params[PIMC_P_HANDOFF_PAIRS]
    if keep < 1:
        keep = 1
    if keep > n:
        keep = n
    # the standard's own choice is always a candidate (first: it wins a tie)
    best_hand_off(t, h, &a, &b)
    for i in range(n):
        if (pa[i] == a and pb[i] == b) or (pa[i] == b and pb[i] == a):
            for j in range(i, 0, -1):
                pa[j] = pa[j - 1]
                pb[j] = pb[j - 1]
            pa[0] = a       # in the standard's own direction
            pb[0] = b
            break
    n_cand = keep if two else 2 * keep
    n_worlds = pimc_start_worlds(s, v, h, False, pimc_worlds_param(s.params[PIMC_P_HANDOFF_WORLDS]), &st, &w,
                                 shares, &laid)
    if n_worlds == 0:
        best_hand_off(t, h, first, second)
        return
    table = pimc_table(s, &mask)
    for c in range(n_cand):
        mk[c] = 0
        sums[c] = 0
    nxt = pimc_next_active(v, s.play.n_active, v.seat)
    oth = pimc_next_active(v, 3, nxt) if not two else -1
    for i in range(n_worlds):
        pimc_world_hands(&w, shares[i], got)
        for c in range(n_cand):
            k = c // 2 if not two else c
            a = pa[k]
            b = pb[k]
            if not two and c & 1:
                tmp = a
                a = b
                b = tmp
            gone = (<uint32_t>1 << a) | (<uint32_t>1 << b)
            for j in range(4):
                hands[j] = 0
            hands[v.seat] = h & ~gone
            set_aside = 0
            laid_points = 0
            if two:
                hands[w.recv[0]] = got[0]
                set_aside = card_points_c(got[1])
                laid_points = card_points_c(gone)
            else:
                hands[w.recv[0]] = got[0]
                hands[w.recv[1]] = got[1]
                hands[nxt] |= <uint32_t>1 << a
                hands[oth] |= <uint32_t>1 << b
            pimc_row(row, hands, v, s.play.n_active, v.seat, 0, trick, -1, 0, set_aside)
            if not solver_setup(&sol, s.rules, row, table, mask, 0):
                continue
            pimc_generation(&sol, i * n_cand + c, s.play.n_active)
            val = solver_exact(&sol, 0) + laid_points
            mk[c] += val >= v.contract
            sums[c] += val
    best = 0
    for c in range(1, n_cand):
        if pimc_better(mk[c], sums[c], mk[best], sums[best], True):
            best = c
    k = best // 2 if not two else best
    a = pa[k]
    b = pb[k]
    if not two and best & 1:
        tmp = a
        a = b
        b = tmp
    first[0] = a
    second[0] = b


cdef int32_t pimc_raise_values(Seat* s, View* v, int32_t* vals, int64_t* layouts) noexcept nogil:
    """The declarer's deal points with open-hand play in each world of the raise decision
    (after his hand-off; laid-away points included): ``vals``, ``layouts`` the consistent
    worlds in all.  Returns how many were solved (0: no world fits)."""
    cdef uint32_t shares[PIMC_MAX_WORLDS]
    cdef uint32_t hands[4]
    cdef int32_t row[POS_FIELDS]
    cdef int32_t trick[3]
    cdef uint32_t laid = 0, mask
    cdef int32_t n_worlds, i, n_ok = 0, set_aside, laid_points
    cdef PimcWorlds w
    cdef Solver sol
    cdef SolveEntry* table
    cdef uint64_t st = pimc_seed(s)
    n_worlds = pimc_start_worlds(s, v, v.hand, True, pimc_worlds_param(s.params[PIMC_P_RAISE_WORLDS]), &st, &w,
                                 shares, &laid)
    if n_worlds == 0:
        return 0
    layouts[0] = w.total
    table = pimc_table(s, &mask)
    for i in range(n_worlds):
        pimc_place(&w, shares[i], hands, v.seat, v.hand, laid, True, &st, &set_aside, &laid_points)
        pimc_row(row, hands, v, s.play.n_active, v.seat, 0, trick, -1, 0, set_aside)
        if not solver_setup(&sol, s.rules, row, table, mask, 0):
            continue
        pimc_generation(&sol, i, s.play.n_active)
        vals[n_ok] = solver_exact(&sol, 0) + laid_points
        n_ok += 1
    return n_ok


cdef int32_t pimc_raise(Seat* s, View* v) noexcept nogil:
    """Raise to the contract of the best expected score over the worlds, or resign when
    resigning costs less (the standard's comparison, with the make chance and the
    expected points measured on the worlds instead of estimated)."""
    cdef int32_t vals[PIMC_MAX_WORLDS]
    cdef int64_t layouts
    cdef int32_t i, n_ok, c, best_c, made
    cdef double mean = 0.0, pm, ev, best_ev, opp, play_value
    n_ok = pimc_raise_values(s, v, vals, &layouts)
    if n_ok == 0:
        return sensible_raise(v, s.params)
    for i in range(n_ok):
        mean += vals[i]
    mean /= n_ok
    # the contract of the best expected score: contract x (2 P(make) - 1)
    best_c = v.min_bid
    best_ev = -1e9
    c = v.min_bid
    while c <= v.max_bid:
        made = 0
        for i in range(n_ok):
            made += vals[i] >= pimc_need(v, c)
        pm = <double>made / n_ok
        ev = c * (2.0 * pm - 1.0)
        if ev > best_ev:
            best_ev = ev
            best_c = c
        if v.step <= 0:
            break
        c += v.step
    if v.can_resign:
        made = 0
        for i in range(n_ok):
            made += vals[i] >= pimc_need(v, v.min_bid)
        pm = <double>made / n_ok
        opp = 120.0 - (mean if mean < 120.0 else 120.0)
        if s.play.n_active != 2:
            opp = opp / 2.0
        play_value = v.min_bid * (2.0 * pm - 1.0) - opp
        if -v.resign_cost - v.resign_gift > play_value + s.params[P_RESIGN]:
            return RESIGNED
    return best_c


def _pimc_worlds(dict view, const int32_t[::1] rules, int32_t worlds, uint64_t seed=0, bint start=False,
                 bint handed_off=True):
    """Test helper (tests/test_pimc.py), not an API: the worlds pimc would solve for the
    card decision ``view`` (a dict of View fields, as decide takes it), or with ``start``
    for the declarer at the start of the play (before or after his hand-off).  Returns
    ``(total, enumerated, [(hands by seat, set-aside points, laid-away points), ...])``
    with ``total`` the number of consistent worlds (0: none)."""
    cdef View v = view_from_dict(view, _rules_ptr(rules))
    cdef PlayRules pr
    cdef PlayState ps
    cdef Seat seat
    cdef PimcWorlds w
    cdef uint32_t shares[PIMC_MAX_WORLDS]
    cdef uint32_t hands[4]
    cdef uint32_t laid = 0, unknown
    cdef int32_t left[4]
    cdef int32_t i, n, r0, r1, set_aside = 0, laid_points = 0
    cdef uint64_t st = seed
    if rules is None:
        raise ValueError("rules are needed")
    play_rules_from(&pr, &rules[0])
    memset(&seat, 0, sizeof(Seat))
    seat.play = &pr
    seat.rules = &rules[0]
    if not 1 <= worlds <= PIMC_MAX_WORLDS:
        raise ValueError(f"worlds must be 1..{PIMC_MAX_WORLDS}")
    if start:
        n = pimc_start_worlds(&seat, &v, v.hand, handed_off, worlds, &st, &w, shares, &laid)
        if n == 0:
            return 0, False, []
    else:
        play_state_of_view(&ps, &v)
        for i in range(4):
            left[i] = 0
        for i in range(pr.n_active):
            left[v.active[i]] = pr.n_tricks - ps.trick_index
        for i in range(ps.trick_n):
            left[ps.trick_seats[i]] -= 1
        unknown = FULL_DECK & ~(v.hand | ps.played)
        r0 = pimc_next_active(&v, pr.n_active, v.seat)
        r1 = pimc_next_active(&v, pr.n_active, r0) if pr.n_active == 3 else -1
        if not pimc_hidden(&seat, &v, unknown, left, ps.voids[r0], ps.voids[r1] if r1 >= 0 else 0, True, &w,
                           &laid):
            return 0, False, []
        if w.total <= worlds:
            n = pimc_enumerate(&w, shares, PIMC_MAX_WORLDS)
        else:
            n = worlds
            for i in range(n):
                shares[i] = pimc_sample(&w, &st)
    out = []
    for i in range(n):
        pimc_place(&w, shares[i], hands, v.seat, v.hand, laid, v.seat == v.declarer, &st, &set_aside,
                   &laid_points)
        out.append(([hands[0], hands[1], hands[2], hands[3]], set_aside, laid_points))
    return w.total, w.total <= worlds, out
