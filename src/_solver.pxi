# The open-hand (double-dummy) solver: exact values of play positions (issue 13).
# Included once by _fastdeal.pyx, after _play.pxi; everything it knows about the rules it
# asks the play layer (legal_cards, declarable_cards, play_card, undo_card, card_beats):
# the search makes and unmakes cards on a PlayState and never plays a card itself.
#
# The value of a position is the declarer's deal points at the end of the play (card
# points of his tricks, his declared marriages, the last-trick bonus; 2 players: the
# set-aside talon when he takes the last trick), every hand open, the declarer maximising
# and the defenders together minimising.  The search works on the declarer's *future*
# points (what he adds from here on), so that a transposition entry holds whatever was
# made on the way to it.
#
# Techniques (docs/kernel.md "The solver" has the measurements):
# - fail-soft alpha-beta over the play layer's make/unmake;
# - a transposition table, probed and stored at trick boundaries only, keyed exactly by
#   the hands of the active seats in play order, the leader, the trump and the declarer
#   (no hash collisions can give a wrong value), holding a lower and an upper bound and
#   the best lead; the table is a numpy buffer the caller allocates and reuses, its
#   entries stamped with a generation so that a new position does not need a clear;
# - entries of positions with the same relative ranks (who holds the n-th card left):
#   the same game tree, so their bounds hold within the point differences of the cards;
# - quick bounds: the future is >= 0 and <= the points still in play plus the declarer's
#   own marriages still in hand plus the last-trick bonus (and set-aside talon); at trick
#   boundaries the top trumps of one side (with the other side's leanest cards, one a
#   trick), and the leader's sure tricks (his top cards cashed, trumps first, where no
#   one can trump them), are that side's points;
# - the last card of a trick (before the last two) settles without being played when
#   its child, a trick boundary, is decided by those bounds, by its table entry, by the
#   sure tricks of the trick's winner (handed to the child when it is searched) or by a
#   relative-rank entry (a child with neither entry is told so, and does not look
#   again): the child's key and the trick's points follow from the card alone;
# - move ordering: the table's best lead, the declarations, a leader's top cards that
#   no one can trump, a defender's lead to his partner's winner; second to play, what
#   the last seat can still do to the trick; cards that take the trick, low discards;
#   built from card masks group by group, rank by rank (no scores, no sort);
# - from the second card of the second last trick on, a plain alpha-beta without the
#   runs, ordering and bounds (solver_endgame);
# - a trick that no card still to come can take from its best card: its points so far
#   counted for the side that holds it (a bound in the middle of the trick);
# - zero-window searches for "does he reach T" (and, as an option, MTD(f) for the value);
# - declarations that cannot change the trump (an ace marriage that does not set it, or
#   a marriage in the suit already trump) are only searched one way: declared for the
#   declarer (the same position with more points for him), undeclared for a defender
#   (the same position; a defender's points do not enter the value);
# - runs (a seat's cards of a suit with no card of another seat between them): at the
#   last card of a trick one card of each run, elsewhere a run-mate skipped when its
#   point difference from one searched cannot reach the window.  Plain equivalent-card
#   pruning is not sound here (docs/kernel.md, "What is pruned, and why it is exact").

from posix.time cimport clock_gettime, timespec, CLOCK_MONOTONIC

cdef extern from *:
    void __builtin_prefetch(const void* addr) noexcept nogil

cdef enum:
    SOLVE_INF = 30000
    SOLVE_NO_MOVE = 63
    # a single position's search uses at most this many buckets of the table (the first
    # ones): it stores fewer than their 8,192 entries, and 128 KB stay in the core's
    # caches between positions (docs/kernel.md, "The table's size")
    SOLVE_SINGLE_BUCKETS = 4096
    # flags (the tests switch parts off to check that the value does not change)
    SOLVE_NO_TABLE = 1
    SOLVE_NO_BOUNDS = 2
    SOLVE_MTD = 4           # exact values by MTD(f) instead of one full-window search
    SOLVE_NO_ORDER = 8
    SOLVE_NO_DOMINANCE = 16
    SOLVE_NO_RELATIVE = 32   # no relative-rank entries (docs/kernel.md, "Relative ranks")
    SOLVE_RELATIVE = 0x80000000u   # k0's top bit: a relative-rank entry
    # a position row (int32), written by thousand.solver
    POS_HANDS = 0           # 4 hands by seat, the cards of the trick in progress excluded
    POS_ACTIVE = 4          # 3 active seats from the forehand (-1 pad with 2 players)
    POS_DECLARER = 7
    POS_LEADER = 8          # who led the trick in progress (or leads the next)
    POS_TRICK_N = 9
    POS_TRICK = 10          # 3 cards of the trick in progress, in play order
    POS_TRUMP = 13
    POS_MADE = 14           # the declarer's deal points so far
    POS_SET_ASIDE = 15      # 2 players: the set-aside talon's card points
    POS_TRICK_INDEX = 16
    POS_FIELDS = 17


cdef struct SolveEntry:
    # 16 bytes; an entry of the wrong generation is empty
    uint32_t k0             # hand of active[0] | leader pos << 24 | trump + 1 << 26 | declarer pos << 29
    uint32_t k1             # hand of active[1] | generation << 24
    uint32_t k2             # hand of active[2] | best lead << 24 (card, +32 declared; 63 none)
    int16_t lo              # bounds on the declarer's future points
    int16_t hi


cdef struct Solver:
    PlayState ps
    PlayRules pr
    SolveEntry* table       # header entry (the generation in k0), then buckets of 2
    uint32_t mask           # buckets the search uses - 1 (the first ones of the table)
    uint32_t table_mask     # buckets the table holds - 1
    uint32_t gen
    int32_t declarer
    int32_t decl_pos
    int8_t pos_of[4]        # a seat's place among the active seats (-1: not active)
    int32_t flags
    int64_t nodes
    bint child_missed       # the next call's position has no entry, exact or relative:
    uint32_t child_k[3]     # its parent looked (its keys, and whether it has a relative one)
    uint32_t child_rk[3]
    uint32_t child_rcards
    bint child_rel
    int32_t in_play         # the card points in play at solver_setup plus the points won
                            # then: less the points won since, those in play now
    int32_t child_sure      # the quick tricks of the next call's position, found by its
                            # parent before playing the trick's last card (SOLVE_INF: none)


cdef inline int32_t solver_decl_total(const Solver* s) noexcept nogil:
    cdef int32_t d = s.declarer
    return s.ps.points[d] + s.ps.marriages[d] + s.ps.bonus[d]


cdef inline int32_t solver_upper(const Solver* s) noexcept nogil:
    """The most the declarer can still add: every point in play, his marriages still in
    hand (and the ace marriage), the last-trick bonus and the set-aside talon."""
    cdef const PlayState* ps = &s.ps
    cdef uint32_t h = ps.hands[s.declarer]
    cdef int32_t up = (s.in_play - (ps.points[0] + ps.points[1] + ps.points[2] + ps.points[3])
                       + s.pr.last_trick_bonus + ps.set_aside_points + marriage_sum(h))
    if s.pr.ace_marriage > 0 and (h & ACES) == ACES:
        up += s.pr.ace_marriage
    return up


cdef inline int32_t solver_upper_after(const Solver* s, int32_t up, int32_t card) noexcept nogil:
    """solver_upper after ``card`` closes the trick in progress, from ``up`` before it:
    the trick's points leave play, and so does a marriage (or the ace marriage) the card
    breaks in the declarer's hand."""
    cdef const PlayState* ps = &s.ps
    cdef uint32_t h, bit = <uint32_t>1 << card
    up -= ps.trick_points + CARD_POINTS_C[card]
    if ps.turn == s.declarer:
        h = ps.hands[s.declarer]
        up -= marriage_sum(h) - marriage_sum(h & ~bit)
        if s.pr.ace_marriage > 0 and (h & ACES) == ACES and bit & ACES:
            up -= s.pr.ace_marriage
    return up


cdef inline int32_t solver_lowest_points(uint32_t h, int32_t k) noexcept nogil:
    """The card points of the ``k`` leanest cards of ``h``, rank by rank."""
    cdef int32_t j, kk, f = 0
    for j in range(6):
        if k <= 0:
            break
        kk = td_popcount(h & RANK_PLANE_C[j])
        if kk > k:
            kk = k
        f += kk * RANK_POINTS_C[j]
        k -= kk
    return f


cdef inline int32_t solver_sure_trumps(const Solver* s) noexcept nogil:
    """Between tricks, when the trump can no longer change (it is set and nobody holds a
    marriage of another suit, nor all four aces where they set the trump): the top
    trumps still in play that one side holds without a card of the other side between
    them take every trick they are played to (a trump is led, follows trumps or trumps
    in, and only a higher trump beats it), so their points are that side's, and so are
    the cards the other side gives to those tricks (below).  Returns those points,
    positive for the declarer's, negative for the defenders'; 0 when the trump may still
    change."""
    cdef const PlayState* ps = &s.ps
    cdef uint32_t all_ = 0, trumps, h, other
    cdef int32_t i, t = ps.trump, c, pts = 0, k, kk, seat
    cdef bint decl
    if t < 0:
        return 0
    for i in range(s.pr.n_active):
        h = ps.hands[ps.active[i]]
        if marriage_bits(h) & ~(<uint32_t>1 << (6 * t)):
            return 0
        if s.pr.ace_marriage > 0 and s.pr.ace_marriage_sets_trump and (h & ACES) == ACES:
            return 0
        all_ |= h
    trumps = all_ & SUIT_MASK_C[t]
    if not trumps:
        return 0
    c = td_highbit(trumps)
    decl = ps.hands[s.declarer] >> c & 1
    other = trumps & (~ps.hands[s.declarer] if decl else ps.hands[s.declarer])
    # the top run: trumps above the highest trump of the other side
    if other:
        trumps &= ~((<uint32_t>2 << td_highbit(other)) - 1)
    pts = card_points_c(trumps)
    # each of them wins a trick of its own (one card a seat a trick): at least as many
    # tricks as one seat of the side holds, each with a card of every seat of the other
    # side, so those seats' lowest cards go with them
    k = 0
    for i in range(s.pr.n_active):
        seat = ps.active[i]
        if (seat == s.declarer) == decl:
            kk = td_popcount(ps.hands[seat] & trumps)
            if kk > k:
                k = kk
    for i in range(s.pr.n_active):
        seat = ps.active[i]
        if (seat == s.declarer) != decl:
            pts += solver_lowest_points(ps.hands[seat], k)
    if k == s.pr.n_tricks - ps.trick_index:
        pts += s.pr.last_trick_bonus + ps.set_aside_points
    return pts if decl else -pts


# SUIT_TOP_POINTS / SUIT_LOW_POINTS[pattern * 8 + k]: the card points of the k highest /
# lowest cards of a 6-bit suit pattern (all of them when it has fewer): the sure tricks'
# cashed cards and the cards the others follow with, a table look-up each
cdef uint8_t SUIT_TOP_POINTS[64 * 8]
cdef uint8_t SUIT_LOW_POINTS[64 * 8]


cdef void _init_suit_top_low():
    cdef int32_t p, k, x, n, top, low
    for p in range(64):
        for k in range(8):
            low = 0
            x = p
            n = 0
            while x and n < k:
                low += RANK_POINTS_C[td_lowbit(x)]
                x &= x - 1
                n += 1
            top = 0
            x = p
            n = 0
            while x and n < k:
                top += RANK_POINTS_C[td_highbit(x)]
                x &= ~(<uint32_t>1 << td_highbit(x))
                n += 1
            SUIT_TOP_POINTS[p * 8 + k] = <uint8_t>top
            SUIT_LOW_POINTS[p * 8 + k] = <uint8_t>low


_init_suit_top_low()


cdef inline int32_t solver_quick_tricks_of(const Solver* s, const uint32_t* hands, int32_t lead,
                                           int32_t tricks_left) noexcept nogil:
    """At a trick boundary: the tricks the leader's side takes for sure by cashing the
    leader's top cards, trumps first, then suit after suit.  In a suit where the leader
    holds the top cards still in play (above every card of the other seats), each of them
    led wins its trick unless an opponent is void and trumps it (or the leader's partner,
    made to by must_trump: the trick stays theirs, but the lead goes to him): so in a
    plain suit their number is capped by the suit's length in the hand of each of those
    who still holds a trump once the leader's top trumps are drawn (they follow trumps
    while they can).
    The leader keeps the lead throughout, and only a leader can declare, so the trump
    stays.  The points: the leader's cashed cards, and for every other seat the cards it
    must follow with (its lowest of each suit), or when it is too short in one of the
    suits to follow every time, its lowest cards of any suit (one a trick); the last-trick
    bonus (and set-aside talon) when the cashed tricks are all that is left.  Returns
    those points, positive for the declarer's side, negative for the defenders'; 0 for
    none.  ``hands`` by seat, ``lead`` the leader, ``tricks_left`` with this one: the
    position, or the child of a trick's last card before it is played."""
    cdef const PlayState* ps = &s.ps
    cdef int32_t t = ps.trump, i, o, suit, k, kk, total = 0, pts = 0, f
    cdef int32_t ks[4]
    cdef int32_t trumps_left[3]
    cdef uint32_t lh = hands[lead], h, hs, run, others, os, cashed = 0, x
    cdef bint short, decl_leads = lead == s.declarer, ruffers = False
    others = (hands[0] | hands[1] | hands[2] | hands[3]) & ~lh
    for suit in range(4):
        ks[suit] = 0
    if t >= 0:
        # his top trumps first: the others follow trumps while they can
        k = 0
        hs = lh & SUIT_MASK_C[t]
        if hs:
            run = hs
            os = others & SUIT_MASK_C[t]
            if os:
                run &= ~((<uint32_t>2 << td_highbit(os)) - 1)
            k = td_popcount(run)
            if k > 0:
                pts += SUIT_TOP_POINTS[(run >> 6 * t & 63) * 8 + k]
                ks[t] = k
                cashed = 1 << t
                total = k
        # the trumps left to the opponents, and with must_trump to the leader's partner:
        # he would have to trump his partner's card and take the lead from him
        for i in range(s.pr.n_active):
            o = ps.active[i]
            trumps_left[i] = 0
            if o != lead and ((o == s.declarer) != decl_leads or s.pr.must_trump):
                trumps_left[i] = td_popcount(hands[o] & SUIT_MASK_C[t]) - k
                if trumps_left[i] > 0:
                    ruffers = True
    for suit in range(4):
        if suit == t:
            continue
        hs = lh & SUIT_MASK_C[suit]
        if not hs:
            continue
        run = hs
        os = others & SUIT_MASK_C[suit]
        if os:
            run &= ~((<uint32_t>2 << td_highbit(os)) - 1)
        k = td_popcount(run)
        if k > 0 and ruffers:
            for i in range(s.pr.n_active):
                if trumps_left[i] > 0:
                    kk = td_popcount(hands[ps.active[i]] & SUIT_MASK_C[suit])
                    if kk < k:
                        k = kk
        if k <= 0:
            continue
        # the top k of the run
        pts += SUIT_TOP_POINTS[(run >> 6 * suit & 63) * 8 + k]
        ks[suit] = k
        cashed |= 1 << suit
        total += k
    if total == 0:
        return 0
    if total == tricks_left:
        pts += s.pr.last_trick_bonus + ps.set_aside_points
    for i in range(s.pr.n_active):
        o = ps.active[i]
        if o == lead:
            continue
        h = hands[o]
        f = 0
        short = False
        x = cashed
        while x:
            suit = td_lowbit(x)
            x &= x - 1
            hs = h >> 6 * suit & 63
            if td_popcount(hs) < ks[suit]:
                short = True
                break
            f += SUIT_LOW_POINTS[hs * 8 + ks[suit]]
        if short:
            # any ``total`` of its cards: the leanest ones
            f = solver_lowest_points(h, total)
        pts += f
    return pts if decl_leads else -pts


cdef inline uint32_t solver_beaters(const PlayState* ps) noexcept nogil:
    """The cards that would take the trick in progress from its best card: the higher
    cards of its suit, and every trump when it is not one."""
    cdef int32_t sb = SUIT_OF[ps.best]
    cdef uint32_t m = SUIT_MASK_C[sb] & ~((<uint32_t>2 << ps.best) - 1)
    if ps.trump >= 0 and ps.trump != sb:
        m |= SUIT_MASK_C[ps.trump]
    return m


cdef inline int32_t solver_trick_settled(const Solver* s) noexcept nogil:
    """In the middle of a trick: when no card of the seats still to play to it can beat
    its best card (a higher card of that suit, or a trump on another suit; the trump
    cannot change within a trick), the trick's points so far go to its winner's side.
    Returns them, positive when the declarer wins it, negative for the defenders; 0 when
    the trick is still open."""
    cdef const PlayState* ps = &s.ps
    cdef int32_t i, seat = ps.turn
    cdef uint32_t rest = 0, beaters = solver_beaters(ps)
    for i in range(ps.trick_n, s.pr.n_active):
        rest |= ps.hands[seat]
        seat = ps.next_seat[seat]
    if rest & beaters:
        return 0
    return ps.trick_points if ps.best_seat == s.declarer else -ps.trick_points


cdef inline void solver_new_generation(Solver* s) noexcept nogil:
    """A fresh table for a new position: bump the generation (clear it on wrap)."""
    cdef uint32_t g = s.table[0].k0 + 1
    if g > 255:
        memset(&s.table[1], 0, 2 * (<size_t>s.table_mask + 1) * sizeof(SolveEntry))
        g = 1
    s.table[0].k0 = g
    s.gen = g


cdef inline void solver_single_position(Solver* s) noexcept nogil:
    """Call after solver_setup for a query about one position (its value, whether it
    reaches a target, its cards' values): its search uses the table's first
    SOLVE_SINGLE_BUCKETS buckets.  Queries that share a generation between many positions
    (hand-offs, pimc's worlds) keep the whole table."""
    if s.mask > SOLVE_SINGLE_BUCKETS - 1:
        s.mask = SOLVE_SINGLE_BUCKETS - 1


cdef inline void solver_key(const Solver* s, uint32_t* k) noexcept nogil:
    cdef const PlayState* ps = &s.ps
    k[0] = (ps.hands[ps.active[0]] | (<uint32_t>s.pos_of[ps.leader] << 24)
            | (<uint32_t>(ps.trump + 1) << 26) | (<uint32_t>s.decl_pos << 29))
    k[1] = ps.hands[ps.active[1]] | (s.gen << 24)
    k[2] = ps.hands[ps.active[2]] if s.pr.n_active == 3 else 0


cdef inline void solver_child_key(const Solver* s, const uint32_t* base, int32_t card,
                                  int32_t winner, uint32_t* k) noexcept nogil:
    """The key of the position after ``card`` closes the trick in progress (won by
    ``winner``), without playing it, from ``base``, solver_key's words now: the hands
    less the card, the winner leading, the trump unchanged (a card that closes a trick
    declares nothing)."""
    k[0] = base[0]
    k[1] = base[1]
    k[2] = base[2]
    k[s.pos_of[s.ps.turn]] &= ~(<uint32_t>1 << card)
    k[0] = (k[0] & ~(<uint32_t>3 << 24)) | (<uint32_t>s.pos_of[winner] << 24)


cdef inline SolveEntry* solver_bucket(const Solver* s, const uint32_t* k) noexcept nogil:
    cdef uint32_t x = k[0] * <uint32_t>0x9E3779B1u ^ k[1] * <uint32_t>0x85EBCA77u ^ k[2] * <uint32_t>0xC2B2AE3Du
    x ^= x >> 15
    x *= <uint32_t>0x2C1B3C6Du
    x ^= x >> 13
    return &s.table[1 + 2 * (x & s.mask)]


cdef inline bint solver_entry_matches(const SolveEntry* e, const uint32_t* k, uint32_t cards,
                                      bint relative) noexcept nogil:
    """Does the entry serve the key: an exact entry the same position (the low 24 bits of
    k2 hold the third hand), a relative one a position of the same relative ranks whose
    cards ``cards`` count as its own in every suit (solver_rel_same_counts)."""
    if e.k0 != k[0] or e.k1 != k[1]:
        return False
    if relative:
        return solver_rel_same_counts(e.k2, cards)
    return (e.k2 & 0xFFFFFF) == k[2]


cdef inline SolveEntry* solver_find(SolveEntry* b, const uint32_t* k, uint32_t cards,
                                    bint relative) noexcept nogil:
    """The entry of the bucket ``b`` that serves the key, or NULL."""
    cdef int32_t i
    for i in range(2):
        if solver_entry_matches(&b[i], k, cards, relative):
            return &b[i]
    return NULL


cdef inline SolveEntry* solver_new_slot(const Solver* s, SolveEntry* b, int32_t size) noexcept nogil:
    """Where a new entry goes in the bucket ``b``: slot 0 keeps the position with the most
    cards left (the costliest to search again; ``size`` is compared with slot 0's first
    hand), the entry it displaces moving to slot 1; slot 1 takes the rest.  A stale slot 0
    is always taken."""
    if (b[0].k1 >> 24) != s.gen or size >= td_popcount(b[0].k0 & 0xFFFFFF):
        b[1] = b[0]
        return &b[0]
    return &b[1]


cdef inline void solver_tighten(const SolveEntry* e, int32_t* lo, int32_t* hi) noexcept nogil:
    """Merge the entry's bounds of the same position into [lo, hi]."""
    if e.lo > lo[0]:
        lo[0] = e.lo
    if e.hi < hi[0]:
        hi[0] = e.hi


cdef inline SolveEntry* solver_probe(const Solver* s, const uint32_t* k) noexcept nogil:
    return solver_find(solver_bucket(s, k), k, 0, False)


cdef inline void solver_store(Solver* s, const uint32_t* k, int32_t lo, int32_t hi,
                              int32_t move) noexcept nogil:
    """Merge the bounds into the position's entry, or write a new one (solver_new_slot)."""
    cdef SolveEntry* b = solver_bucket(s, k)
    cdef SolveEntry* e = solver_find(b, k, 0, False)
    if e != NULL:
        solver_tighten(e, &lo, &hi)
    else:
        e = solver_new_slot(s, b, td_popcount(k[0] & 0xFFFFFF))
    e.k0 = k[0]
    e.k1 = k[1]
    e.k2 = k[2] | (<uint32_t>move << 24)
    e.lo = <int16_t>lo
    e.hi = <int16_t>hi


# SUIT_PLACES[r << 6 | h]: the cards of h (within the suit pattern r) as places among r's
# cards, lowest first: h "compressed" to r's bits (the BMI2 instruction pext, which a
# portable build cannot assume).  The relative key asks it twice a suit instead of testing
# every card in a loop whose branches the CPU mispredicted (callgrind --branch-sim: 8.6%
# of the solver's mispredictions).
cdef uint8_t SUIT_PLACES[64 * 64]


cdef void _init_suit_places():
    cdef int32_t r, h, n, i
    cdef uint8_t v
    for r in range(64):
        for h in range(64):
            v = 0
            n = 0
            for i in range(6):
                if r >> i & 1:
                    if h >> i & 1:
                        v |= <uint8_t>(1 << n)
                    n += 1
            SUIT_PLACES[r << 6 | h] = v


_init_suit_places()


# SUIT_MARGIN_NEG/POS[a << 6 | b]: for two patterns of one suit with as many cards, the
# point differences of b's n-th card less a's n-th card, the negative ones (as a positive
# number) and the positive ones summed: solver_rel_margins a suit at a time
cdef uint8_t SUIT_MARGIN_NEG[64 * 64]
cdef uint8_t SUIT_MARGIN_POS[64 * 64]


cdef void _init_suit_margins():
    cdef int32_t a, b, x, y, d, ng, ps
    for a in range(64):
        for b in range(64):
            ng = 0
            ps = 0
            x = a
            y = b
            while x and y:
                d = RANK_POINTS_C[td_lowbit(y)] - RANK_POINTS_C[td_lowbit(x)]
                if d < 0:
                    ng -= d
                else:
                    ps += d
                x &= x - 1
                y &= y - 1
            SUIT_MARGIN_NEG[a << 6 | b] = <uint8_t>ng
            SUIT_MARGIN_POS[a << 6 | b] = <uint8_t>ps


_init_suit_margins()


cdef inline bint solver_rel_key(const Solver* s, const uint32_t* hands, int32_t leader,
                                uint32_t* k, uint32_t* cards) noexcept nogil:
    """The relative-rank key of a trick boundary (docs/kernel.md, "Relative ranks"): who
    holds the n-th card left, counted from the lowest (one bit a card for the second and
    the third active seat in k[0] and k[1]), the leader, trump, declarer and generation,
    and the top bit of k[0]; ``cards`` the cards left, with the suits where a hand holds
    a marriage.  False where a hand holds the four aces of the ace marriage."""
    cdef const PlayState* ps = &s.ps
    cdef uint32_t h0 = hands[ps.active[0]], h1 = hands[ps.active[1]], h2 = 0
    cdef uint32_t r, c1 = 0, c2 = 0, m, rs
    cdef int32_t n = 0, suit
    if s.pr.n_active == 3:
        h2 = hands[ps.active[2]]
    m = marriage_index(h0) | marriage_index(h1) | marriage_index(h2)
    if s.pr.ace_marriage > 0 and ((h0 & ACES) == ACES or (h1 & ACES) == ACES or (h2 & ACES) == ACES):
        return False
    r = h0 | h1 | h2
    # the suits where a hand holds a marriage (bit s), kept with the cards: an entry
    # serves only a position with the same marriages (solver_rel_same_counts)
    cards[0] = r | m << 24
    for suit in range(4):
        rs = r >> 6 * suit & 63
        c1 |= <uint32_t>SUIT_PLACES[rs << 6 | (h1 >> 6 * suit & 63)] << n
        c2 |= <uint32_t>SUIT_PLACES[rs << 6 | (h2 >> 6 * suit & 63)] << n
        n += td_popcount(rs)
    k[0] = (c1 | (<uint32_t>s.pos_of[leader] << 24) | (<uint32_t>(ps.trump + 1) << 26)
            | (<uint32_t>s.decl_pos << 29) | SOLVE_RELATIVE)
    k[1] = c2 | (s.gen << 24)
    # the cards left per suit, hashed with the key and checked against an entry's cards
    k[2] = (m << 12 | <uint32_t>td_popcount(cards[0] & SUIT_MASK_C[0])
            | <uint32_t>td_popcount(cards[0] & SUIT_MASK_C[1]) << 3
            | <uint32_t>td_popcount(cards[0] & SUIT_MASK_C[2]) << 6
            | <uint32_t>td_popcount(cards[0] & SUIT_MASK_C[3]) << 9)
    return True


cdef inline bint solver_rel_same_counts(uint32_t a, uint32_t b) noexcept nogil:
    """Can an entry with cards ``a`` serve a position with cards ``b`` (the marriage suits
    in the top byte): the same marriage suits, as many cards in every suit, and in a
    marriage suit its queen and king at the same place among the suit's cards (as many
    of its nine and jack left below them), so that the n-th cards of the two positions
    are the same marriage."""
    cdef int32_t suit
    cdef uint32_t m = (a >> 24) & 15
    if m != (b >> 24) & 15:
        return False
    for suit in range(4):
        if td_popcount(a & SUIT_MASK_C[suit]) != td_popcount(b & SUIT_MASK_C[suit]):
            return False
        if m >> suit & 1 and (td_popcount(a & (<uint32_t>3 << 6 * suit))
                              != td_popcount(b & (<uint32_t>3 << 6 * suit))):
            return False
    return True


cdef inline SolveEntry* solver_rel_probe(const Solver* s, const uint32_t* k, uint32_t cards) noexcept nogil:
    """The relative entry of ``k`` (a position with the same holders of the n-th card,
    the same cards per suit, the entry's own cards in k2), or NULL."""
    return solver_find(solver_bucket(s, k), k, cards, True)


cdef inline void solver_rel_margins(uint32_t stored, uint32_t now, int32_t* neg,
                                    int32_t* pos) noexcept nogil:
    """The n-th card left now against the n-th of the stored position (the same count in
    every suit): the sums of the negative and of the positive point differences.  The
    two game trees are the same tree (docs/kernel.md, "Relative ranks"), and along any
    line the declarer's future points differ by the differences of the cards he takes,
    so the value now is within [stored + neg, stored + pos]."""
    cdef int32_t suit, i
    neg[0] = 0
    pos[0] = 0
    for suit in range(4):
        i = (stored >> 6 * suit & 63) << 6 | (now >> 6 * suit & 63)
        neg[0] -= SUIT_MARGIN_NEG[i]
        pos[0] += SUIT_MARGIN_POS[i]


cdef inline uint32_t solver_rel_move_code(const Solver* s, int32_t move) noexcept nogil:
    """The best lead as the relative key sees it: 1 + its place among the leader's cards
    (+7 declared); 0 when it does not fit in 4 bits."""
    cdef int32_t c = move & 31, i
    if move == SOLVE_NO_MOVE:
        return 0
    i = td_popcount(s.ps.hands[s.ps.turn] & ((<uint32_t>1 << c) - 1))
    if i >= 7:
        return 0
    return <uint32_t>(1 + i + (7 if move >= 32 else 0))


cdef inline int32_t solver_rel_move(const Solver* s, uint32_t code) noexcept nogil:
    cdef int32_t i
    if code == 0:
        return SOLVE_NO_MOVE
    i = (code - 1) % 7
    return nth_card(s.ps.hands[s.ps.turn], i) + (32 if code > 7 else 0)


cdef inline void solver_rel_store(Solver* s, const uint32_t* k, uint32_t cards, int32_t lo,
                                  int32_t hi, int32_t move) noexcept nogil:
    """Write the bounds of the position (its cards in k2) under its relative key: merged
    with an entry of the same cards, else in place of the key's entry, else in a new slot
    (solver_new_slot; a third of the cards left is one hand's worth)."""
    cdef SolveEntry* b = solver_bucket(s, k)
    cdef SolveEntry* e = solver_find(b, k, cards, True)
    if e != NULL:
        if (e.k2 & 0xFFFFFFF) == cards:
            solver_tighten(e, &lo, &hi)
    else:
        e = solver_new_slot(s, b, td_popcount(cards & 0xFFFFFF) // 3)
    e.k0 = k[0]
    e.k1 = k[1]
    e.k2 = cards | solver_rel_move_code(s, move) << 28
    e.lo = <int16_t>lo
    e.hi = <int16_t>hi


# RANK_MAJOR[k][suit << 6 | pattern]: a suit's 6-bit pattern spread to rank-major places
# (4 * rank + suit, k = 0; 4 * (5 - rank) + suit, k = 1), so that a hand's cards come out
# of its lowest bits rank by rank, suits in card order; RANK_MAJOR_CARD maps a place back
cdef uint32_t RANK_MAJOR[2][256]
cdef int8_t RANK_MAJOR_CARD[2][24]


cdef void _init_rank_major():
    cdef int32_t k, suit, p, r, place
    for k in range(2):
        for suit in range(4):
            for p in range(64):
                RANK_MAJOR[k][suit << 6 | p] = 0
                for r in range(6):
                    if p >> r & 1:
                        place = 4 * (r if k == 0 else 5 - r) + suit
                        RANK_MAJOR[k][suit << 6 | p] |= <uint32_t>1 << place
            for r in range(6):
                RANK_MAJOR_CARD[k][4 * (r if k == 0 else 5 - r) + suit] = <int8_t>(6 * suit + r)


_init_rank_major()


cdef inline int32_t solver_rank_major(uint32_t h, int32_t k, int32_t* cards, int32_t n) noexcept nogil:
    """Append the cards of ``h`` to ``cards[n:]`` rank by rank (lowest first, k = 0;
    highest first, k = 1), suits in card order; returns the new count."""
    cdef uint32_t x
    if not h & (h - 1):
        # none or one card (most masks here)
        if h:
            cards[n] = td_lowbit(h)
            n += 1
        return n
    x = (RANK_MAJOR[k][h & 63] | RANK_MAJOR[k][64 | (h >> 6 & 63)]
         | RANK_MAJOR[k][128 | (h >> 12 & 63)] | RANK_MAJOR[k][192 | (h >> 18 & 63)])
    while x:
        cards[n] = RANK_MAJOR_CARD[k][td_lowbit(x)]
        n += 1
        x &= x - 1
    return n


cdef inline uint32_t solver_declared_moves(const Solver* s, uint32_t declarable, bint runs,
                                           bint maximising, uint32_t* plain) noexcept nogil:
    """A leader's moves with a declaration, of the cards ``declarable``: one that can
    change the trump is searched both ways; one that cannot only declared for the
    declarer (it is then dropped from ``plain``) and only plain for a defender, which
    ``runs`` (the dominance pruning) may assume (docs/kernel.md)."""
    cdef const PlayState* ps = &s.ps
    cdef uint32_t declared = 0, x = declarable
    cdef int32_t c
    while x:
        c = td_lowbit(x)
        x &= x - 1
        if (SUIT_OF[c] != ps.trump and (c - 6 * SUIT_OF[c] != 5 or s.pr.ace_marriage_sets_trump)) or not runs:
            declared |= <uint32_t>1 << c
        elif maximising:
            declared |= <uint32_t>1 << c
            plain[0] &= ~(<uint32_t>1 << c)
    return declared


cdef inline int32_t solver_dearest_declarations(uint32_t declared, int32_t* cards,
                                                int32_t n) noexcept nogil:
    """Append the declarations of the cards ``declared`` to ``cards[n:]``, the dearest
    marriage's suit first; returns the new count."""
    cdef uint32_t x
    cdef int32_t suit
    for suit in range(3, -1, -1):
        x = declared & SUIT_MASK_C[suit]
        while x:
            cards[n] = td_lowbit(x) + 32
            n += 1
            x &= x - 1
    return n


cdef inline int32_t solver_order_lead(const Solver* s, uint32_t legal, uint32_t declarable,
                                      bint runs, int32_t hint, bint maximising, int32_t beta,
                                      int32_t* cards) noexcept nogil:
    """A lead: its moves into ``cards``, best first.  The table's move; the declarations
    (the declarer's dearest marriage first; his declarations that give the lead away,
    their card beaten by another seat's, only after his sure top cards and top trumps,
    unless their points alone reach ``beta``, the node's window); the cards no other
    seat can beat in their suit, fattest first (the declarer's top trumps only after his
    low cards: they take their tricks whenever he leads them; last, the ones the other
    side can trump); a defender's lead in a suit his side takes (the declarer void in it
    without a trump, fattest first, or following below a card of the partner's, leanest
    first); the low cards, leanest first (the declarer's trumps last: he keeps them to
    trump).  Within a group rank by rank, equal ranks in card order.  Returns their
    number."""
    cdef const PlayState* ps = &s.ps
    cdef uint32_t plain = legal, declared, x, h, tr = 0, ruffed = 0, takes = 0, dvoid = 0
    cdef uint32_t others, top, low, d = ps.hands[s.declarer], p = 0, late = 0
    cdef int32_t n = 0, i, seat, suit
    declared = solver_declared_moves(s, declarable, runs, maximising, &plain)
    if hint >= 32 and hint != SOLVE_NO_MOVE and declared >> (hint - 32) & 1:
        declared &= ~(<uint32_t>1 << (hint - 32))
        cards[n] = hint
        n += 1
    elif hint < 32 and plain >> hint & 1:
        plain &= ~(<uint32_t>1 << hint)
        cards[n] = hint
        n += 1
    others = (ps.hands[0] | ps.hands[1] | ps.hands[2] | ps.hands[3]) & ~ps.hands[ps.turn]
    if maximising:
        # a declaration that gives the lead away: the sure top cards first, cashed before
        # it sets a trump that could ruff them (docs/kernel.md, "Declarations that give
        # the lead away"); one whose points alone reach beta still goes first (a cut at
        # once)
        late = declared & below_mask(others) & ~others
        if late:
            for suit in range(4):
                if MARRIAGE_VALUE[suit] >= beta:
                    late &= ~SUIT_MASK_C[suit]
        n = solver_dearest_declarations(declared & ~late, cards, n)
    else:
        x = declared
        while x:
            cards[n] = td_lowbit(x) + 32
            n += 1
            x &= x - 1
    if ps.trump >= 0:
        if maximising:
            tr = SUIT_MASK_C[ps.trump]
        # the plain suits where a seat of the other side is void and holds a trump
        for i in range(s.pr.n_active):
            seat = ps.active[i]
            h = ps.hands[seat]
            if (seat == s.declarer) != maximising and h & SUIT_MASK_C[ps.trump]:
                # (a suit's nine bit times 63 is the whole suit)
                ruffed |= ~((below_mask(h) & SUIT_BITS) * 63)
        ruffed &= FULL_DECK & ~SUIT_MASK_C[ps.trump]
    if not maximising:
        for i in range(s.pr.n_active):
            seat = ps.active[i]
            if seat != s.declarer and seat != ps.turn:
                p = ps.hands[seat]
        for suit in range(4):
            if not d & SUIT_MASK_C[suit]:
                dvoid |= SUIT_MASK_C[suit]
                if ps.trump < 0 or not d & SUIT_MASK_C[ps.trump]:
                    takes |= SUIT_MASK_C[suit]
            elif p & SUIT_MASK_C[suit] and (td_highbit(p & SUIT_MASK_C[suit])
                                             > td_highbit(d & SUIT_MASK_C[suit])):
                takes |= SUIT_MASK_C[suit]
    top = plain & ~below_mask(others)
    low = plain & ~top
    n = solver_rank_major(top & ~tr & ~ruffed, 1, cards, n)
    if late:
        # his top trumps too: drawn before the lead goes
        n = solver_rank_major(top & tr, 1, cards, n)
        top &= ~tr
    n = solver_dearest_declarations(late, cards, n)
    n = solver_rank_major(low & takes & dvoid, 1, cards, n)
    n = solver_rank_major(low & takes & ~dvoid, 0, cards, n)
    n = solver_rank_major(low & ~takes & ~tr, 0, cards, n)
    n = solver_rank_major(top & tr, 1, cards, n)
    n = solver_rank_major(top & ruffed & ~tr, 1, cards, n)
    return solver_rank_major(low & ~takes & tr, 0, cards, n)


cdef inline uint32_t solver_declarer_beats(const Solver* s) noexcept nogil:
    """The cards the declarer can still beat: below one of his in their suit, or of a
    plain suit he is void in while he holds a trump."""
    cdef uint32_t d = s.ps.hands[s.declarer], beaten = below_mask(d)
    if s.ps.trump >= 0 and d & SUIT_MASK_C[s.ps.trump]:
        # the suits he is void in (a suit's nine bit times 63 is the whole suit)
        beaten |= ~((beaten & SUIT_BITS) * 63) & FULL_DECK & ~SUIT_MASK_C[s.ps.trump]
    return beaten


cdef inline int32_t solver_order_onto_partner(const Solver* s, uint32_t legal, int32_t* cards) noexcept nogil:
    """A defender's card onto a trick his partner keeps: ``legal`` into ``cards``, best
    first.  The cards the declarer could beat later first (his to take otherwise), then
    the others (they may take a trick of their own), each group fattest first, the
    trumps of the others last (kept to ruff).  Returns their number."""
    cdef uint32_t beaten = legal & solver_declarer_beats(s), tm = 0
    cdef int32_t n
    if s.ps.trump >= 0:
        tm = SUIT_MASK_C[s.ps.trump]
    n = solver_rank_major(beaten, 1, cards, 0)
    n = solver_rank_major(legal & ~beaten & ~tm, 1, cards, n)
    return solver_rank_major(legal & ~beaten & tm, 1, cards, n)


cdef inline int32_t solver_order_second(const Solver* s, uint32_t legal, int32_t* cards) noexcept nogil:
    """Second to play, one seat after him (3 players): ``legal`` into ``cards``, best
    first.  His side holding the trick (his partner led it): when the next seat cannot
    take it, solver_order_onto_partner; else the cards that take it where the next seat
    cannot take it back, fattest first, then the leanest.  The other side holding it, the
    next seat an opponent: the cards that take it for good, fattest first, then the
    leanest; the next seat his partner: the cards that take it, the highest first (plain
    ones before trumps), then the others as onto the partner's trick when he can take
    it, else the leanest."""
    cdef const PlayState* ps = &s.ps
    cdef int32_t nxt = ps.next_seat[ps.turn], n
    cdef uint32_t h = ps.hands[nxt], wins, again, tm = 0
    cdef bint partner_next = (nxt == s.declarer) == (ps.turn == s.declarer)
    if ps.trump >= 0:
        tm = SUIT_MASK_C[ps.trump]
    wins = legal & solver_beaters(ps)
    # the cards the next seat could take the trick from (following suit when he can)
    if h & SUIT_MASK_C[ps.led]:
        again = SUIT_MASK_C[ps.led] & ((<uint32_t>1 << td_highbit(h & SUIT_MASK_C[ps.led])) - 1)
    elif h & tm:
        again = (FULL_DECK & ~tm) | (tm & ((<uint32_t>1 << td_highbit(h & tm)) - 1))
    else:
        again = 0
    if (ps.best_seat == s.declarer) == (ps.turn == s.declarer) and not again >> ps.best & 1:
        return solver_order_onto_partner(s, legal, cards)
    if not partner_next or (ps.best_seat == s.declarer) == (ps.turn == s.declarer):
        n = solver_rank_major(wins & ~again, 1, cards, 0)
        return solver_rank_major(legal & ~(wins & ~again), 0, cards, n)
    n = solver_rank_major(wins & ~tm, 1, cards, 0)
    n = solver_rank_major(wins & tm, 1, cards, n)
    if again >> ps.best & 1:
        return n + solver_order_onto_partner(s, legal & ~wins, cards + n)
    return solver_rank_major(legal & ~wins, 0, cards, n)


cdef inline int32_t solver_order_last(const Solver* s, uint32_t legal, int32_t* cards) noexcept nogil:
    """The last card of a trick (no declaration): ``legal`` into ``cards``, best first.
    To his side's trick (a defender's, his partner's best) solver_order_onto_partner;
    else the cards that take it, cheapest first, then the rest, leanest first.  Returns
    their number."""
    cdef const PlayState* ps = &s.ps
    cdef uint32_t beat
    if (ps.best_seat == s.declarer) == (ps.turn == s.declarer):
        return solver_order_onto_partner(s, legal, cards)
    beat = solver_beaters(ps)
    return solver_rank_major(legal & ~beat, 0, cards, solver_rank_major(legal & beat, 0, cards, 0))


cdef inline int32_t solver_last_trick(const Solver* s) noexcept nogil:
    """The declarer's future points in the last trick, where every card is forced (one
    card a hand; no declaration is possible with one card): the rest of the trick played
    out with card_beats."""
    cdef const PlayState* ps = &s.ps
    cdef int32_t seat = ps.turn, k = ps.trick_n, c, best, best_seat, pts = ps.trick_points
    if k == 0:
        best = td_lowbit(ps.hands[seat])
        best_seat = seat
        pts += CARD_POINTS_C[best]
        seat = ps.next_seat[seat]
        k = 1
    else:
        best = ps.best
        best_seat = ps.best_seat
    while k < s.pr.n_active:
        c = td_lowbit(ps.hands[seat])
        pts += CARD_POINTS_C[c]
        if card_beats(c, best, ps.trump):
            best = c
            best_seat = seat
        seat = ps.next_seat[seat]
        k += 1
    if best_seat != s.declarer:
        return 0
    return pts + s.pr.last_trick_bonus + ps.set_aside_points


cdef inline uint32_t solver_run_blockers(const Solver* s, uint32_t* special) noexcept nogil:
    """For the seat to move: the cards that separate his runs (every card still in play
    that is not his: the other hands and the trick in progress), and in ``special`` his
    cards that must stay out of runs (the queen and king of a marriage he holds, and his
    aces while he holds all four with the ace marriage): swapping those changes what he
    can declare."""
    cdef const PlayState* ps = &s.ps
    cdef uint32_t hand = ps.hands[ps.turn], m = marriage_bits(hand), t = 0
    cdef int32_t i
    for i in range(ps.trick_n):
        t |= <uint32_t>1 << ps.trick_cards[i]
    special[0] = (m << 2) | (m << 3)
    if s.pr.ace_marriage > 0 and (hand & ACES) == ACES:
        special[0] |= ACES
    return ((ps.hands[0] | ps.hands[1] | ps.hands[2] | ps.hands[3]) & ~hand) | t


cdef inline int32_t solver_run_of(uint32_t hand, uint32_t blockers, uint32_t special,
                                  int32_t c) noexcept nogil:
    """The lowest card of ``c``'s run: his cards of one suit with no blocker between them
    (his special cards are singletons: 24 + c)."""
    cdef uint32_t below, nb
    if special >> c & 1:
        return 24 + c
    # his plain cards of the suit from just above the highest blocker under c up to c
    below = SUIT_MASK_C[SUIT_OF[c]] & ((<uint32_t>2 << c) - 1)
    nb = blockers & below
    if nb:
        below &= ~((<uint32_t>2 << td_highbit(nb)) - 1)
    return td_lowbit(hand & ~special & below)


# RUN_ABOVE / RUN_BELOW[p << 6 | b]: for a suit's plain cards p of the seat to move and
# the blockers b (6-bit patterns), the cards of p with another card of p above / below
# them and no blocker between: all the runs of a hand a table look-up a suit
cdef uint8_t RUN_ABOVE[64 * 64]
cdef uint8_t RUN_BELOW[64 * 64]


cdef void _init_runs():
    cdef int32_t p, b, c, d
    cdef uint8_t above, below
    for p in range(64):
        for b in range(64):
            above = 0
            below = 0
            for c in range(6):
                if not p >> c & 1:
                    continue
                for d in range(c + 1, 6):
                    if b >> d & 1:
                        break
                    if p >> d & 1:
                        above |= <uint8_t>(1 << c)
                        break
                for d in range(c - 1, -1, -1):
                    if b >> d & 1:
                        break
                    if p >> d & 1:
                        below |= <uint8_t>(1 << c)
                        break
            RUN_ABOVE[p << 6 | b] = above
            RUN_BELOW[p << 6 | b] = below


_init_runs()


cdef inline uint32_t solver_run_redundant(const Solver* s, uint32_t hand, uint32_t blockers,
                                          uint32_t special, bint maximising) noexcept nogil:
    """The last card of a trick: the cards of the seat to move that another card of
    their run stands for.  The trick's winner is the same whichever card of a run closes
    it: keep the fattest when the declarer takes it and plays it, or neither; else the
    leanest (docs/kernel.md, "Runs").  A card that takes the trick is taken by the mover,
    so its run keeps the top card; a card that does not goes to the best card's holder."""
    cdef const PlayState* ps = &s.ps
    cdef int32_t suit
    cdef uint32_t plain = hand & ~special, above = 0, below = 0, top
    cdef uint32_t beat = solver_beaters(ps)
    cdef uint32_t x
    for suit in range(4):
        x = (plain >> 6 * suit & 63) << 6 | (blockers >> 6 * suit & 63)
        above |= <uint32_t>RUN_ABOVE[x] << 6 * suit
        below |= <uint32_t>RUN_BELOW[x] << 6 * suit
    # the cards whose run keeps its top card
    top = FULL_DECK if (ps.best_seat == s.declarer) == maximising else beat
    return (above & top) | (below & ~top)


cdef int32_t solver_endgame(Solver* s, int32_t alpha, int32_t beta) noexcept nogil:
    """The declarer's future points from the second card of the second last trick on
    (or anywhere in the last), fail-soft within (alpha, beta): plain alpha-beta over every
    legal move (a declaration both ways), without the bounds, runs and ordering of
    solver_search: with at most two cards a hand the tree is a handful of lines, cheaper
    to search than to set up for (callgrind: -3.6% instructions on 100 deals).  The
    second last trick's lead stays in solver_search: its table entries, looked up from
    the trick before without playing a card, save more (searching it here too was 70%
    more nodes)."""
    cdef PlayState* ps = &s.ps
    cdef const PlayRules* pr = &s.pr
    cdef uint32_t legal, declarable
    cdef int32_t c, d, base, gain, v, best
    cdef bint maximising
    if ps.trick_index >= pr.n_tricks - 1:
        return 0 if ps.trick_index == pr.n_tricks else solver_last_trick(s)
    s.nodes += 1
    maximising = ps.turn == s.declarer
    legal = legal_cards(ps, pr)
    declarable = declarable_cards(ps, pr) & legal
    base = solver_decl_total(s)
    best = -SOLVE_INF if maximising else SOLVE_INF
    while legal:
        c = td_lowbit(legal)
        legal &= legal - 1
        for d in range(2 if declarable >> c & 1 else 1):
            play_card(ps, pr, c, d)
            gain = solver_decl_total(s) - base
            v = gain + solver_endgame(s, alpha - gain, beta - gain)
            undo_card(ps, pr)
            if maximising:
                if v > best:
                    best = v
                    if best > alpha:
                        alpha = best
                        if alpha >= beta:
                            return best
            else:
                if v < best:
                    best = v
                    if best < beta:
                        beta = best
                        if alpha >= beta:
                            return best
    return best


cdef int32_t solver_search(Solver* s, int32_t alpha, int32_t beta) noexcept nogil:
    """The declarer's future points from here, fail-soft within (alpha, beta)."""
    cdef PlayState* ps = &s.ps
    cdef const PlayRules* pr = &s.pr
    cdef uint32_t legal, declarable
    cdef uint32_t k[3]
    cdef int32_t cards[24]
    cdef int32_t n = 0, i, j, c, up = 0, base, gain, v, best, best_move = SOLVE_NO_MOVE
    cdef int32_t hint = SOLVE_NO_MOVE, alpha0 = alpha, beta0 = beta
    cdef bint maximising, at_boundary, runs, ordered, last = False
    cdef uint32_t hand = 0, blockers = 0, special = 0, run_seen = 0, declared, x
    cdef int32_t run_v[24]
    cdef int32_t run_pts[24]
    cdef int32_t r, dp, sure, w, ua, pend, known = s.child_sure
    cdef bint missed = s.child_missed, pass_missed
    cdef uint32_t kc[3]
    cdef uint32_t kb[3]
    cdef uint32_t ch[4]
    cdef bint probe_children, settled, bounds = not (s.flags & SOLVE_NO_BOUNDS)
    cdef bint rel = False, crel = False
    cdef uint32_t rk[3]
    cdef uint32_t rcards = 0, rcc = 0
    cdef uint32_t rkc[3]
    cdef int32_t rneg, rpos
    cdef SolveEntry* e
    if ps.trick_index >= pr.n_tricks - 1 or (ps.trick_index == pr.n_tricks - 2 and ps.trick_n > 0):
        # the last trick, and the second last after its lead: see solver_endgame
        return solver_endgame(s, alpha, beta)
    s.nodes += 1
    s.child_sure = SOLVE_INF
    s.child_missed = False
    at_boundary = ps.trick_n == 0 and not (s.flags & SOLVE_NO_TABLE)
    if at_boundary and missed:
        # the parent computed the keys and found no entry (nothing was stored since)
        for j in range(3):
            k[j] = s.child_k[j]
            rk[j] = s.child_rk[j]
        rel = s.child_rel
        rcards = s.child_rcards
    elif at_boundary:
        # the table's buckets are fetched while the bounds below are counted
        solver_key(s, k)
        __builtin_prefetch(solver_bucket(s, k))
        if not (s.flags & SOLVE_NO_RELATIVE):
            rel = solver_rel_key(s, ps.hands, ps.leader, rk, &rcards)
            if rel:
                __builtin_prefetch(solver_bucket(s, rk))
    if not (s.flags & SOLVE_NO_BOUNDS):
        up = solver_upper(s)
        if up <= alpha:
            return up
        if beta <= 0:
            return 0
        if ps.trick_n > 0:
            # no card left to play to this trick can beat its best one: its points are
            # the winner's side's already
            sure = solver_trick_settled(s)
            if sure > 0 and sure >= beta:
                return sure
            if sure < 0 and up + sure <= alpha:
                return up + sure
    if ps.trick_n == 0 and not (s.flags & SOLVE_NO_BOUNDS):
        sure = solver_sure_trumps(s)
        if sure > 0 and sure >= beta:
            return sure
        if sure < 0 and up + sure <= alpha:
            return up + sure
        sure = known if known != SOLVE_INF else solver_quick_tricks_of(
            s, ps.hands, ps.turn, pr.n_tricks - ps.trick_index)
        if sure > 0 and sure >= beta:
            return sure
        if sure < 0 and up + sure <= alpha:
            return up + sure
    if at_boundary and not missed:
        e = solver_probe(s, k)
        if e != NULL:
            if e.lo >= beta or e.lo == e.hi:
                return e.lo
            if e.hi <= alpha:
                return e.hi
            if e.lo > alpha:
                alpha = e.lo
            if e.hi < beta:
                beta = e.hi
            hint = <int32_t>(e.k2 >> 24)
        else:
            # no entry of its own: one of a position with the same relative ranks bounds
            # it within the point differences of the cards
            if rel:
                e = solver_rel_probe(s, rk, rcards)
                if e != NULL:
                    solver_rel_margins(e.k2 & 0xFFFFFF, rcards & 0xFFFFFF, &rneg, &rpos)
                    if e.lo > -SOLVE_INF and e.lo + rneg >= beta:
                        return e.lo + rneg
                    if e.hi < SOLVE_INF and e.hi + rpos <= alpha:
                        return e.hi + rpos
                    if e.lo > -SOLVE_INF and e.lo + rneg > alpha:
                        alpha = e.lo + rneg
                    if e.hi < SOLVE_INF and e.hi + rpos < beta:
                        beta = e.hi + rpos
                    hint = solver_rel_move(s, e.k2 >> 28)
    maximising = ps.turn == s.declarer
    # the moves: card, +32 for the card played with a declaration
    legal = legal_cards(ps, pr)
    declarable = declarable_cards(ps, pr) & legal
    # the second last trick's lead (two cards a hand): neither runs nor ordering pay
    # for their set-up there (callgrind -0.5%)
    runs = not (s.flags & SOLVE_NO_DOMINANCE) and ps.trick_index + 2 < pr.n_tricks
    if runs:
        hand = ps.hands[ps.turn]
        last = ps.trick_n + 1 == pr.n_active
        if not last:
            blockers = solver_run_blockers(s, &special)
        elif legal & (legal - 1):
            # the last card of the trick: one card of each run is enough
            blockers = solver_run_blockers(s, &special)
            legal &= ~(solver_run_redundant(s, hand, blockers, special, maximising)
                       & ~declarable)
    ordered = not (s.flags & SOLVE_NO_ORDER) and ps.trick_index + 2 < pr.n_tricks
    if ordered and ps.trick_n == 0:
        n = solver_order_lead(s, legal, declarable, runs, hint, maximising, beta, cards)
    elif ordered and ps.trick_n + 1 == pr.n_active:
        n = solver_order_last(s, legal, cards)
    elif ordered:
        n = solver_order_second(s, legal, cards)
    elif not declarable:
        # no declaration possible (most nodes): every legal card once
        while legal:
            cards[n] = td_lowbit(legal)
            n += 1
            legal &= legal - 1
    else:
        # in card order, a declaration before the plain card
        declared = solver_declared_moves(s, declarable, runs, maximising, &legal)
        x = legal | declared
        while x:
            c = td_lowbit(x)
            x &= x - 1
            if declared >> c & 1:
                cards[n] = c + 32
                n += 1
            if legal >> c & 1:
                cards[n] = c
                n += 1
    probe_children = (ps.trick_n + 1 == pr.n_active and ps.trick_index + 2 < pr.n_tricks
                      and not (s.flags & SOLVE_NO_TABLE))
    if probe_children:
        # the children's keys are this position's less a card, their leader the winner
        solver_key(s, kb)
    else:
        kb[0] = kb[1] = kb[2] = 0
    base = solver_decl_total(s)
    best = -SOLVE_INF if maximising else SOLVE_INF
    # the last card of a trick before the last two: each child is a trick boundary, so
    # its table entry is looked up here, before the card is played (a stored value or a
    # bound that fails the whole window settles the card without playing it)
    for i in range(n):
        r = 24
        if runs and not last and cards[i] < 24:
            # a card of a run searched already is within its point difference of it
            # (docs/kernel.md, "Runs"): skip it when that cannot reach the window (the
            # last card of a trick keeps one card of each run: nothing to skip)
            r = solver_run_of(hand, blockers, special, cards[i])
            if r < 24 and run_seen >> r & 1:
                dp = CARD_POINTS_C[cards[i]] - run_pts[r]
                if dp < 0:
                    dp = -dp
                if maximising and run_v[r] + dp <= alpha:
                    if run_v[r] + dp > best:
                        best = run_v[r] + dp
                    continue
                if not maximising and run_v[r] - dp >= beta:
                    if run_v[r] - dp < best:
                        best = run_v[r] - dp
                    continue
        settled = False
        pass_missed = False
        pend = SOLVE_INF
        if probe_children:
            w = ps.turn if card_beats(cards[i], ps.best, ps.trump) else ps.best_seat
            gain = ps.trick_points + CARD_POINTS_C[cards[i]] if w == s.declarer else 0
            if bounds and gain >= beta:
                # the child's future is >= 0: this card fails high already
                v = gain
                settled = True
            elif bounds and gain + solver_upper_after(s, up, cards[i]) <= alpha:
                v = gain + solver_upper_after(s, up, cards[i])
                settled = True
        if probe_children and not settled:
            solver_child_key(s, kb, cards[i], w, kc)
            e = solver_probe(s, kc)
            if e != NULL:
                if e.lo == e.hi or e.lo + gain >= beta:
                    v = e.lo + gain
                    settled = True
                elif e.hi + gain <= alpha:
                    v = e.hi + gain
                    settled = True
            if not settled:
                # the child's hands, for its sure tricks and its relative key
                for j in range(4):
                    ch[j] = ps.hands[j]
                ch[ps.turn] &= ~(<uint32_t>1 << cards[i])
            if bounds and not settled:
                # the sure tricks of the child's leader (the trick's winner)
                ua = solver_upper_after(s, up, cards[i])
                sure = solver_quick_tricks_of(s, ch, w, pr.n_tricks - ps.trick_index - 1)
                pend = sure
                if sure > 0 and gain + sure >= beta:
                    v = gain + sure
                    settled = True
                elif sure < 0 and gain + ua + sure <= alpha:
                    v = gain + ua + sure
                    settled = True
            if not settled and e == NULL:
                # no entry of its own: one of the same relative ranks, within its margins
                crel = not (s.flags & SOLVE_NO_RELATIVE) and solver_rel_key(s, ch, w, rkc, &rcc)
                if crel:
                    e = solver_rel_probe(s, rkc, rcc)
                    if e != NULL:
                        solver_rel_margins(e.k2 & 0xFFFFFF, rcc & 0xFFFFFF, &rneg, &rpos)
                        if e.lo > -SOLVE_INF and e.lo + rneg + gain >= beta:
                            v = e.lo + rneg + gain
                            settled = True
                        elif e.hi < SOLVE_INF and e.hi + rpos + gain <= alpha:
                            v = e.hi + rpos + gain
                            settled = True
                # neither entry: the child need not look again
                pass_missed = e == NULL
        if not settled:
            play_card(ps, pr, cards[i] & 31, cards[i] >> 5)
            gain = solver_decl_total(s) - base
            # (the child need not count its leader's sure tricks again, nor look for
            # entries that are not there: only in its first search, before it stores)
            s.child_sure = pend
            if pass_missed:
                s.child_missed = True
                s.child_rel = crel
                s.child_rcards = rcc
                for j in range(3):
                    s.child_k[j] = kc[j]
                    s.child_rk[j] = rkc[j]
            if i == 0 or beta - alpha <= 1:
                v = gain + solver_search(s, alpha - gain, beta - gain)
            elif maximising:
                # principal variation search: the later moves only have to be shown no
                # better (a zero window); one that is gets searched again with the window
                v = gain + solver_search(s, alpha - gain, alpha + 1 - gain)
                if alpha < v < beta:
                    s.child_sure = pend
                    v = gain + solver_search(s, v - gain, beta - gain)
            else:
                v = gain + solver_search(s, beta - 1 - gain, beta - gain)
                if alpha < v < beta:
                    s.child_sure = pend
                    v = gain + solver_search(s, alpha - gain, v - gain)
            undo_card(ps, pr)
        if r < 24 and not run_seen >> r & 1:
            run_seen |= <uint32_t>1 << r
            run_v[r] = v
            run_pts[r] = CARD_POINTS_C[cards[i]]
        if maximising:
            if v > best:
                best = v
                best_move = cards[i]
                if best > alpha:
                    alpha = best
                    if alpha >= beta:
                        break
        else:
            if v < best:
                best = v
                best_move = cards[i]
                if best < beta:
                    beta = best
                    if alpha >= beta:
                        break
    if rel:
        solver_rel_store(s, rk, rcards, best if best > alpha0 else -SOLVE_INF,
                         best if best < beta0 else SOLVE_INF, best_move)
    if at_boundary:
        if best <= alpha0:
            solver_store(s, k, -SOLVE_INF, best, best_move)
        elif best >= beta0:
            solver_store(s, k, best, SOLVE_INF, best_move)
        else:
            solver_store(s, k, best, best, best_move)
    return best


cdef int32_t solver_exact(Solver* s, int32_t guess) noexcept nogil:
    """The declarer's exact future points: one full-window search, or with SOLVE_MTD a
    series of zero-window searches sharing the table, first at ``guess``, then halving
    the interval left (measured slower: a zero-window search near the value costs half
    a full-window one, and several are needed; docs/kernel.md)."""
    cdef int32_t lower = 0, upper, g, b
    if not (s.flags & SOLVE_MTD) or (s.flags & SOLVE_NO_TABLE):
        return solver_search(s, -SOLVE_INF, SOLVE_INF)
    upper = solver_upper(s)
    g = guess if guess > lower else lower + 1
    if g > upper:
        g = upper
    while lower < upper:
        # probe at the guess first, then halve the interval left (the fail-soft results
        # usually narrow it by more than the half)
        b = g
        g = solver_search(s, b - 1, b)
        if g < b:
            upper = g
        else:
            lower = g
        g = (lower + upper + 1) // 2
    return lower


cdef inline int32_t _solver_next(const int32_t* active, int32_t n_active, int32_t seat) noexcept nogil:
    cdef int32_t i
    for i in range(n_active):
        if active[i] == seat:
            return active[(i + 1) % n_active]
    return -1


cdef bint solver_setup(Solver* s, const int32_t* rules, const int32_t* row,
                       SolveEntry* table, uint32_t mask, int32_t flags) noexcept nogil:
    """Set the solver on the position ``row`` (POS_*): the hands with the trick's cards
    given back, the trick replayed through play_card.  False for a row the kernel cannot
    hold (thousand.solver checks positions properly before they get here)."""
    cdef uint32_t hands[4]
    cdef int32_t active[3]
    cdef int32_t i, seat, tn = row[POS_TRICK_N], c
    play_rules_from(&s.pr, rules)
    s.table = table
    s.mask = mask
    s.table_mask = mask
    s.flags = flags
    s.nodes = 0
    s.child_sure = SOLVE_INF
    s.child_missed = False
    s.declarer = row[POS_DECLARER]
    if tn < 0 or tn >= s.pr.n_active or not -1 <= row[POS_TRUMP] < 4:
        return False
    if not 0 <= row[POS_TRICK_INDEX] < s.pr.n_tricks:
        return False
    for i in range(4):
        hands[i] = <uint32_t>row[POS_HANDS + i] & FULL_DECK
    s.decl_pos = -1
    for i in range(4):
        s.pos_of[i] = -1
    for i in range(3):
        active[i] = row[POS_ACTIVE + i] if i < s.pr.n_active else -1
        if i < s.pr.n_active and not 0 <= active[i] < 4:
            return False
        if i < s.pr.n_active:
            s.pos_of[active[i]] = <int8_t>i
        if active[i] == s.declarer and i < s.pr.n_active:
            s.decl_pos = i
    if s.decl_pos < 0 or _solver_next(active, s.pr.n_active, row[POS_LEADER]) < 0:
        return False
    seat = row[POS_LEADER]
    for i in range(tn):
        c = row[POS_TRICK + i]
        if not 0 <= c < 24:
            return False
        if seat < 0 or hands[seat] >> c & 1:
            return False
        hands[seat] |= <uint32_t>1 << c
        seat = _solver_next(active, s.pr.n_active, seat)
    play_start(&s.ps, &s.pr, hands, active, row[POS_LEADER], row[POS_SET_ASIDE])
    s.ps.trick_index = row[POS_TRICK_INDEX]
    s.ps.trump = row[POS_TRUMP]
    for i in range(tn):
        if not legal_cards(&s.ps, &s.pr) >> row[POS_TRICK + i] & 1:
            return False
        play_card(&s.ps, &s.pr, row[POS_TRICK + i], 0)
    s.in_play = (card_points_c(s.ps.hands[0] | s.ps.hands[1] | s.ps.hands[2] | s.ps.hands[3])
                 + s.ps.trick_points + s.ps.points[0] + s.ps.points[1] + s.ps.points[2]
                 + s.ps.points[3])
    return True


# ------------------------------------------------------------------ queries
cdef int32_t solver_card_values(Solver* s, int32_t* out) noexcept nogil:
    """The value (the declarer's deal points, made ones excluded) of every move of the
    seat to move: ``out[card]`` played plainly, ``out[24 + card]`` with a declaration,
    -1 where there is no such move.  Returns the position's value (the best of them for
    the side to move).  The position is solved first, then every move exactly with a
    window closed at that value (one table for all of them)."""
    cdef PlayState* ps = &s.ps
    cdef uint32_t legal = legal_cards(ps, &s.pr), declarable = declarable_cards(ps, &s.pr)
    cdef int32_t c, d, gain, v, base = solver_decl_total(s), guess = 0
    cdef int32_t best = -SOLVE_INF if ps.turn == s.declarer else SOLVE_INF
    cdef bint maximising = ps.turn == s.declarer
    for c in range(48):
        out[c] = -1
    if ps.trick_index == s.pr.n_tricks:
        return 0
    # the position first: its search leaves bounds on the lines after every card
    guess = solver_exact(s, 0)
    for c in range(24):
        if not legal >> c & 1:
            continue
        for d in range(2):
            if d and not declarable >> c & 1:
                continue
            play_card(ps, &s.pr, c, d)
            gain = solver_decl_total(s) - base
            # no card is better for the side to move than the position's value, so
            # the window need only reach that far on the other side
            if maximising:
                v = gain + solver_search(s, -SOLVE_INF, guess + 1 - gain)
            else:
                v = gain + solver_search(s, guess - 1 - gain, SOLVE_INF)
            undo_card(ps, &s.pr)
            out[24 * d + c] = v
            if (maximising and v > best) or (not maximising and v < best):
                best = v
    return best


cdef inline int64_t _solver_now() noexcept nogil:
    cdef timespec t
    clock_gettime(CLOCK_MONOTONIC, &t)
    return <int64_t>t.tv_sec * 1000000000 + t.tv_nsec


cdef SolveEntry* _solver_table(uint8_t[::1] table, uint32_t* mask) except NULL:
    cdef Py_ssize_t n = table.shape[0] // sizeof(SolveEntry) - 1
    cdef Py_ssize_t buckets = n // 2
    if buckets < 1 or buckets & (buckets - 1) or table.shape[0] != (1 + 2 * buckets) * <Py_ssize_t>sizeof(SolveEntry):
        raise ValueError("the table must hold 1 + 2 * 2**k entries of 16 bytes")
    mask[0] = <uint32_t>(buckets - 1)
    return <SolveEntry*>&table[0]


def _solve_batch(const int32_t[::1] rules, const int32_t[:, ::1] positions, uint8_t[::1] table,
                 const int32_t[::1] targets, int32_t[::1] out, int64_t[::1] nanos, int64_t[::1] nodes,
                 int32_t flags=0):
    """Solve every position row (POS_FIELDS int32 each) without the GIL: ``out[i]`` the
    declarer's exact deal points with open-hand play (made ones included); with
    ``targets`` (one per row, or empty) instead 1 when he reaches the target, else 0 (one
    zero-window search).  ``nanos[i]`` and ``nodes[i]`` (when not empty) receive each
    position's time and searched nodes.  Returns -1, or the index of the first row the
    kernel cannot hold."""
    cdef uint32_t mask
    cdef SolveEntry* t = _solver_table(table, &mask)
    cdef Solver s
    cdef Py_ssize_t i, n = positions.shape[0], bad = -1
    cdef int32_t need, g
    cdef int64_t t0
    cdef bint timed = nanos.shape[0] > 0, counted = nodes.shape[0] > 0
    if rules.shape[0] != N_RULE_FIELDS or positions.shape[1] != POS_FIELDS or out.shape[0] < n:
        raise ValueError("rules, positions or out have the wrong shape")
    if (targets.shape[0] not in (0, n) or (timed and nanos.shape[0] < n)
            or (counted and nodes.shape[0] < n)):
        raise ValueError("targets, nanos or nodes have the wrong length")
    with nogil:
        for i in range(n):
            if timed:
                t0 = _solver_now()
            if not solver_setup(&s, &rules[0], &positions[i, 0], t, mask, flags):
                bad = i
                break
            solver_single_position(&s)
            solver_new_generation(&s)
            if targets.shape[0] > 0:
                need = targets[i] - positions[i, POS_MADE]
                if need <= 0:
                    out[i] = 1
                else:
                    g = solver_search(&s, need - 1, need)
                    out[i] = 1 if g >= need else 0
            else:
                out[i] = positions[i, POS_MADE] + solver_exact(&s, 0)
            if timed:
                nanos[i] = _solver_now() - t0
            if counted:
                nodes[i] = s.nodes
    return bad


cdef int64_t _LAST_NODES = 0


def _solver_last_nodes():
    """Nodes the last _solve_cards or _solve_hand_offs call searched (benchmarks)."""
    return _LAST_NODES


def _solve_cards(const int32_t[::1] rules, const int32_t[::1] position, uint8_t[::1] table,
                 int32_t[::1] out, int32_t flags=0):
    """The value of every move from ``position`` (see solver_card_values): ``out`` 48
    entries, made points included; returns the position's value (-1: a bad row)."""
    cdef uint32_t mask
    cdef SolveEntry* t = _solver_table(table, &mask)
    cdef Solver s
    cdef int32_t v, c, made = position[POS_MADE]
    global _LAST_NODES
    if rules.shape[0] != N_RULE_FIELDS or position.shape[0] != POS_FIELDS or out.shape[0] != 48:
        raise ValueError("rules, position or out have the wrong shape")
    with nogil:
        if not solver_setup(&s, &rules[0], &position[0], t, mask, flags):
            v = -1
        else:
            solver_single_position(&s)
            solver_new_generation(&s)
            v = made + solver_card_values(&s, &out[0])
            _LAST_NODES = s.nodes
            for c in range(48):
                if out[c] >= 0:
                    out[c] += made
    return v


cdef int32_t solver_hand_offs(Solver* s, const int32_t* rules, const int32_t* position, SolveEntry* t,
                              uint32_t mask, int32_t flags, bint best_only, int32_t* out,
                              int32_t* best_pair, int64_t* nodes) noexcept nogil:
    """The hand-offs from ``position``, the play's start with the declarer's hand before
    the hand-off, in one table (one generation: an entry holds for any hand-off with its
    key).  Every hand-off solved exactly into ``out`` (576 entries, -1 where there is no
    such hand-off), or with ``best_only`` only the best: the first solved exactly, every
    later one a zero-window test of "does it beat the best so far?", searched exactly only
    when it does (most fail low at a fraction of a solve: docs/kernel.md, "Hand-offs").
    Returns the best value, its hand-off in ``best_pair`` (24 * a + b, the first of
    equal ones in card order); -2 for a bad row."""
    cdef int32_t row[POS_FIELDS]
    cdef int32_t i, a, b, d, nxt, oth, v, best = -1, guess = 0, extra, g
    cdef uint32_t hand
    cdef bint two = rules[R_PLAYERS] == 2
    for i in range(POS_FIELDS):
        row[i] = position[i]
    for i in range(576):
        out[i] = -1
    best_pair[0] = -1
    nodes[0] = 0
    d = row[POS_DECLARER]
    hand = <uint32_t>row[POS_HANDS + d]
    nxt = -1
    oth = -1
    for i in range(3 if not two else 2):
        if row[POS_ACTIVE + i] == d:
            nxt = row[POS_ACTIVE + (i + 1) % (2 if two else 3)]
            oth = row[POS_ACTIVE + (i + 2) % 3] if not two else -1
    if not solver_setup(s, rules, row, t, mask, flags):
        return -2
    solver_new_generation(s)
    for a in range(24):
        if not hand >> a & 1:
            continue
        for b in range(24):
            if b == a or not hand >> b & 1 or (two and b < a):
                continue
            row[POS_HANDS + d] = <int32_t>(hand & ~((<uint32_t>1 << a) | (<uint32_t>1 << b)))
            extra = row[POS_MADE]
            if two:
                extra += CARD_POINTS_C[a] + CARD_POINTS_C[b]
            else:
                row[POS_HANDS + nxt] = position[POS_HANDS + nxt] | (1 << a)
                row[POS_HANDS + oth] = position[POS_HANDS + oth] | (1 << b)
            # the same table for every hand-off: its generation stays
            solver_setup(s, rules, row, t, mask, flags)
            s.gen = t[0].k0
            if best_only and best >= 0:
                # only whether it beats the best so far, and by how much when it does
                g = best - extra
                v = solver_search(s, g, g + 1)
                if v > g:
                    v = solver_search(s, v - 1, SOLVE_INF)
                v += extra
            else:
                v = extra + solver_exact(s, guess)
                guess = v - extra
            nodes[0] += s.nodes
            if not best_only or v > best:
                out[24 * a + b] = v
            if v > best:
                best = v
                best_pair[0] = 24 * a + b
    return best


def _solve_hand_offs(const int32_t[::1] rules, const int32_t[::1] position, uint8_t[::1] table,
                     int32_t[::1] out, int32_t flags=0, bint best_only=False):
    """The value of every hand-off from ``position``, the play's start with the
    declarer's hand before the hand-off (3 or 4 players: 10 cards, ``out[24 * a + b]``
    when ``a`` goes to the defender after him in play order and ``b`` to the other;
    2 players: 12 cards, ``out[24 * a + b]`` for ``a < b`` laid away, their points
    included).  Every hand-off is solved exactly, sharing one table; with ``best_only``
    only the best one (``out`` then holds the values of the hand-offs that were the best
    so far when solved, -1 for the others).  -1 where there is no such hand-off; returns
    ``(best value, 24 * a + b of the best hand-off)``, ``(-1, -1)`` for a bad row."""
    cdef uint32_t mask
    cdef SolveEntry* t = _solver_table(table, &mask)
    cdef Solver s
    cdef int32_t best, pair
    cdef int64_t nodes
    global _LAST_NODES
    if rules.shape[0] != N_RULE_FIELDS or position.shape[0] != POS_FIELDS or out.shape[0] != 576:
        raise ValueError("rules, position or out have the wrong shape")
    with nogil:
        best = solver_hand_offs(&s, &rules[0], &position[0], t, mask, flags, best_only, &out[0],
                                &pair, &nodes)
    _LAST_NODES = nodes
    if best == -2:
        return -1, -1
    return best, pair


# ------------------------------------------------------------------ shared tables (pimc)
cdef inline void solver_share_generation(Solver* s) noexcept nogil:
    """Call after solver_setup instead of solver_new_generation: the search keeps the
    table's current generation, so it reuses the bounds that the searches since the last
    solver_new_generation stored (the key holds the hands, leader, trump and declarer
    exactly, so an entry is right for any position with that key).  Sound when those
    searches had the same rules and the same set-aside talon points (2 players), which the
    key leaves out.  pimc (src/_pimc.pxi) shares one generation between the worlds of a
    decision, as _solve_hand_offs does between hand-offs."""
    s.gen = s.table[0].k0
