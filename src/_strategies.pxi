# Strategies: one function per decision, each given a View (what the seat knows and
# which answers are legal) and the seat's Seat (src/_fastdeal.pxd: its code, parameters,
# the rules, its random stream, a workspace).
#
# The engine guarantees: D_BID  -> answer 0 (pass) or a multiple of view.step in
#                                  [view.min_bid, view.max_bid];
#                        D_RAISE -> RESIGNED (if view.can_resign) or a value in
#                                  [view.min_bid, view.max_bid] (min_bid == contract);
#                        D_PLAY  -> a card of view.legal, declare only if the card is in
#                                  view.declarable;
#                        D_HAND_OFF -> two distinct cards of view.hand.
# The dispatchers at the bottom are the only entry points the engine uses.  They switch
# on the seat's branch, which strategy_branch gives each code by name (no ranges of
# codes): a new strategy adds a code in _fastdeal.pxd, its case in strategy_branch (a new
# branch: its case in each dispatcher), and its name in thousand/strategies.py; a code
# without a branch is refused when a Seat is made (seat_init), so it can never play
# another strategy's branch (tests/test_strategy_dispatch.py).
#
# Parameters (double[N_PARAMS]) are documented in thousand/strategies.py.

from libc.math cimport INFINITY

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


# ------------------------------------------------------------------ the sensible family
# cautious, standard and aggressive are one player with different parameters
# (thousand/strategies.py names them; docs/strategies.md explains the play).  Everything
# is mask arithmetic and small tables: a card decision costs about a hundred
# instructions, a forced card none (the dispatcher answers it).
cdef enum:
    P_MARGIN = 0        # bid while the estimate minus this margin reaches the bid
    P_RAISE = 1         # raise to the estimate minus this margin
    P_TALON = 2         # weight of the expected talon help in the bidding estimate
    P_REDEAL = 3        # demand a hand redeal when the estimate is below this
    P_SPREAD = 4        # the make chance runs from 0 to 1 over estimate - contract in +-spread
    P_RESIGN = 5        # relative points resigning must save before the player resigns
    P_BLIND = 6         # go blind when trailing the leader by this much (0: never)
    P_GAMBLE = 7        # trick points for which a declarer overtakes without a sure winner

# The hand estimates: additive tables fitted on simulated deals (the generated files say
# how; docs/strategies.md shows what they mean), one set per table size: 10-card hands
# with a 2-card talon play differently from 7-card hands with a 3-card talon.
include "_strategy_tables.pxi"      # 3 players (and 4: the dealer sits out, 3 play)
include "_strategy_tables_2.pxi"    # 2 players

# Cards in a 6-bit suit pattern (a table: td_popcount may be a library call).
cdef int32_t SUIT_LEN[64]


cdef void _init_suit_len():
    cdef int32_t m
    for m in range(64):
        SUIT_LEN[m] = (m & 1) + (m >> 1 & 1) + (m >> 2 & 1) + (m >> 3 & 1) + (m >> 4 & 1) + (m >> 5 & 1)


_init_suit_len()


cdef inline int32_t suit_length(uint32_t h, int32_t suit) noexcept nogil:
    return SUIT_LEN[(h >> (6 * suit)) & 0x3F]


cdef struct Estimates:
    # one table size's fitted tables (pointers to the generated arrays)
    double base_bid
    double base_play
    double* suit_bid
    double* suit_play
    double* marriage_bid
    double* marriage_play
    double talon_share      # the talon's share of the unseen cards: 3/17, or 2 of 14 with 2 players
    bint lays_away          # 2 players: the declarer lays 2 cards away, their points his
    # hand-off: added per card point of a card that goes -- a tie-break (-0.01: the card
    # with fewer points goes) with 3 players, where the cards go to the opponents; 1 with
    # 2 players, where the laid-away points count for the declarer
    double away_points
    # best_hand_off's tables, by the 6-bit pattern of one suit in the hand (index
    # 6*pat + rank): the estimate change when that low card alone goes, plus its
    # away_points term (gain_play), the best such change in the suit (best_gain_play),
    # and the best change when it goes with a higher low card of its own suit
    # (same_row_play), and the best of those in the suit (best_same_play); -inf where
    # there is none.  Computed with best_hand_off_scan's expressions, so the doubles are
    # the same.
    double gain_play[64 * 6]
    double best_gain_play[64]
    double same_row_play[64 * 6]
    double best_same_play[64]


cdef Estimates ESTIMATES_3
cdef Estimates ESTIMATES_2


cdef inline const Estimates* estimates_for(View* v) noexcept nogil:
    """The table set of the deal's table size (n_active: 4 players play as 3)."""
    if v.n_active == 2:
        return &ESTIMATES_2
    return &ESTIMATES_3


cdef inline uint32_t hand_off_candidates(uint32_t h) noexcept nogil:
    """The low cards of h: not a marriage card, not an ace, not a ten beside its ace."""
    cdef uint32_t aces = h & ACES
    return h & ~(marriage_cards(h) | aces | (h & TENS & (aces >> 1)))


cdef inline double card_gain(const Estimates* t, int32_t pat, int32_t r) noexcept nogil:
    """The play estimate's change when the low card of rank r leaves the suit pattern
    pat, plus t.away_points per point of the card."""
    return t.suit_play[pat & ~(1 << r)] - t.suit_play[pat] + t.away_points * RANK_POINTS_C[r]


cdef inline double pair_gain(const Estimates* t, int32_t pat, int32_t r, int32_t q) noexcept nogil:
    """card_gain for the two cards of ranks r and q of one suit leaving together."""
    return (t.suit_play[pat & ~((1 << r) | (1 << q))] - t.suit_play[pat]
            + t.away_points * (RANK_POINTS_C[r] + RANK_POINTS_C[q]))


cdef inline int32_t low_cards_of_suit(int32_t pat) noexcept nogil:
    """The low cards of a suit pattern (best_hand_off's candidates): not the ace, not a
    ten beside its ace, not the king and queen of a marriage."""
    cdef int32_t keep = 0x20
    if pat & 0x20:
        keep |= 0x10
    if (pat & 0x0C) == 0x0C:
        keep |= 0x0C
    return pat & ~keep


cdef void _init_estimates(Estimates* t, double base_bid, double base_play, double* suit_bid,
                          double* suit_play, double* marriage_bid, double* marriage_play,
                          double talon_share, bint lays_away, double away_points):
    cdef int32_t pat, low, r, q
    cdef double e
    t.base_bid = base_bid
    t.base_play = base_play
    t.suit_bid = suit_bid
    t.suit_play = suit_play
    t.marriage_bid = marriage_bid
    t.marriage_play = marriage_play
    t.talon_share = talon_share
    t.lays_away = lays_away
    t.away_points = away_points
    for pat in range(64):
        low = low_cards_of_suit(pat)
        t.best_gain_play[pat] = -INFINITY
        t.best_same_play[pat] = -INFINITY
        for r in range(6):
            t.gain_play[6 * pat + r] = -INFINITY
            t.same_row_play[6 * pat + r] = -INFINITY
            if not (low >> r & 1):
                continue
            t.gain_play[6 * pat + r] = card_gain(t, pat, r)
            if t.gain_play[6 * pat + r] > t.best_gain_play[pat]:
                t.best_gain_play[pat] = t.gain_play[6 * pat + r]
            for q in range(r + 1, 6):
                if low >> q & 1:
                    e = pair_gain(t, pat, r, q)
                    if e > t.same_row_play[6 * pat + r]:
                        t.same_row_play[6 * pat + r] = e
                    if e > t.best_same_play[pat]:
                        t.best_same_play[pat] = e


_init_estimates(&ESTIMATES_3, BASE_BID, BASE_PLAY, SUIT_VALUE_BID, SUIT_VALUE_PLAY, MARRIAGE_BID,
                MARRIAGE_PLAY, 3.0 / 17.0, False, -0.01)
_init_estimates(&ESTIMATES_2, BASE_BID_2, BASE_PLAY_2, SUIT_VALUE_BID_2, SUIT_VALUE_PLAY_2, MARRIAGE_BID_2,
                MARRIAGE_PLAY_2, 2.0 / 14.0, True, 1.0)


cdef inline uint32_t beating_cards(int32_t c, uint32_t trm) noexcept nogil:
    """The cards that beat c in a trick: higher ones of its suit, and the trumps
    (``trm``, 0 without trumps) unless c is a trump."""
    return above_in_suit(c) | (trm & ~SUIT_MASK_C[SUIT_OF[c]])


cdef inline uint32_t marriage_cards(uint32_t h) noexcept nogil:
    cdef uint32_t b = marriage_bits(h)
    return (b << 2) | (b << 3)


cdef inline double play_estimate(const Estimates* t, uint32_t h) noexcept nogil:
    """Deal points a declarer expects to make playing the cards ``h`` (after the hand-off):
    what each suit's pattern brings (aces, guarded tens, length, the marriage suit as
    trumps) plus the marriages, the best one counted fully only when an ace can win the
    lead to declare it.  With 2 players, without the laid-away cards' points (see
    kept_estimate)."""
    cdef int32_t idx = marriage_index(h)
    cdef double e = (t.base_play + t.suit_play[h & 0x3F] + t.suit_play[(h >> 6) & 0x3F]
                     + t.suit_play[(h >> 12) & 0x3F] + t.suit_play[(h >> 18) & 0x3F])
    if idx:
        e += t.marriage_play[0 if (h & ACES) else 1] * MARRIAGE_MAX[idx]
        e += t.marriage_play[2] * (MARRIAGE_SUM[idx] - MARRIAGE_MAX[idx])
    return e


cdef inline double kept_estimate(const Estimates* t, uint32_t h, uint32_t gone) noexcept nogil:
    """The declarer's play estimate with the cards ``h`` after handing off ``gone``: with
    2 players the laid-away cards' points are his too."""
    if t.lays_away:
        return play_estimate(t, h) + card_points_c(gone)
    return play_estimate(t, h)


cdef inline uint32_t given_cards(View* v) noexcept nogil:
    """The cards the declarer handed off (laid away with 2 players), 0 if unknown."""
    if v.given[0] < 0 or v.given[1] < 0:
        return 0
    return (<uint32_t>1 << v.given[0]) | (<uint32_t>1 << v.given[1])


cdef inline double bid_estimate(const Estimates* t, uint32_t h, double talon_weight) noexcept nogil:
    """Deal points a declarer expects with the cards ``h`` (7; 10 with 2 players) plus
    his talon (3 of the 17 unseen cards; 2 of 14): the suits and marriages as in
    play_estimate (fitted for this hand size), the half-marriages the talon may complete,
    and the talon's expected card points (its share of the unseen points) times
    ``talon_weight``."""
    cdef int32_t idx = marriage_index(h)
    cdef int32_t half = bits_to_suits(((h >> 2) ^ (h >> 3)) & SUIT_BITS)
    cdef double e = (t.base_bid + t.suit_bid[h & 0x3F] + t.suit_bid[(h >> 6) & 0x3F]
                     + t.suit_bid[(h >> 12) & 0x3F] + t.suit_bid[(h >> 18) & 0x3F])
    if idx:
        e += t.marriage_bid[0 if (h & ACES) else 1] * MARRIAGE_MAX[idx]
        e += t.marriage_bid[2] * (MARRIAGE_SUM[idx] - MARRIAGE_MAX[idx])
    if half:
        e += t.marriage_bid[3] * MARRIAGE_SUM[half]
    return e + talon_weight * (120 - card_points_c(h)) * t.talon_share


cdef inline int32_t cheapest_card(uint32_t h, uint32_t cand) noexcept nogil:
    """The card of cand with the fewest points, from the shortest suit of h on a tie
    (the lowest such suit); -1 for an empty cand."""
    cdef int32_t c, best, best_len, n
    cdef uint32_t x
    if not cand:
        return -1
    x = cand & (<uint32_t>NINES << td_lowbit(ranks_of(cand)))     # the lowest rank's cards
    best = td_lowbit(x)
    x &= x - 1
    if not x:
        return best
    best_len = suit_length(h, SUIT_OF[best])
    while x:
        c = td_lowbit(x)
        x &= x - 1
        n = suit_length(h, SUIT_OF[c])
        if n < best_len:
            best_len = n
            best = c
    return best


cdef void best_hand_off_scan(const Estimates* t, uint32_t h, int32_t* first, int32_t* second) noexcept nogil:
    """best_hand_off by the plain scan over all pairs (the definition; best_hand_off
    uses it for hands of more than 12 low cards, and the tests compare with it).

    The pair of cards whose loss leaves the best estimate of the cards kept
    (play_estimate, plus t.away_points per point that goes), among the low cards:
    marriage cards, aces and guarded tens stay unless fewer than two others are left.
    Makes voids and keeps winners because the fitted suit values say so; with 3
    players, on a tie, the cards with fewer points go; with 2 (t.lays_away), the
    laid-away points count as the declarer's."""
    cdef uint32_t low = hand_off_candidates(h)
    cdef uint32_t x, y, gone
    cdef int32_t cards[12]
    cdef int32_t suit[12]
    cdef double gain[12]              # estimate change when the card alone goes, less a tie-break
    cdef int32_t n = 0, i, j, a, b, sa, pat
    cdef double e, best = -1e9
    if not (low & (low - 1)):
        # fewer than two low cards: any two may go, marriages and aces included
        first[0] = -1
        x = h
        while x:
            a = td_lowbit(x)
            x &= x - 1
            y = x
            while y:
                b = td_lowbit(y)
                y &= y - 1
                gone = (<uint32_t>1 << a) | (<uint32_t>1 << b)
                e = kept_estimate(t, h & ~gone, gone)
                if first[0] < 0 or e > best:
                    best = e
                    first[0] = a
                    second[0] = b
        return
    # low cards are no marriage card and no ace, so only the suit values change: the
    # estimate change of a pair is the sum of single changes unless both share a suit
    x = low
    while x and n < 12:
        a = td_lowbit(x)
        x &= x - 1
        sa = SUIT_OF[a]
        pat = (h >> (6 * sa)) & 0x3F
        cards[n] = a
        suit[n] = sa
        gain[n] = card_gain(t, pat, a - 6 * sa)
        n += 1
    first[0] = cards[0]
    second[0] = cards[1]
    for i in range(n):
        for j in range(i + 1, n):
            if suit[i] != suit[j]:
                e = gain[i] + gain[j]
            else:
                sa = suit[i]
                pat = (h >> (6 * sa)) & 0x3F
                e = pair_gain(t, pat, cards[i] - 6 * sa, cards[j] - 6 * sa)
            if e > best:
                best = e
                first[0] = cards[i]
                second[0] = cards[j]


cdef inline void best_hand_off(const Estimates* t, uint32_t h, int32_t* first, int32_t* second) noexcept nogil:
    """The pair best_hand_off_scan picks (the same pair, ties included), found without
    trying every pair.

    A pair of low cards from different suits is worth gain[i] + gain[j], so the best
    pair of row i (i < j) is gain[i] + the best gain of a higher suit (rounded addition
    is monotone, so this is the row's maximum exactly), or a same-suit pair.  The scan
    keeps the first pair (in (i, j) order) of the largest value: that is the first row
    reaching the maximum, and in it the first partner reaching it.  Rows go suit by
    suit, and a suit's best row is its best gain + the best gain above, or its best
    same-suit pair (exactly, by the same monotonicity): only the first suit reaching
    the maximum needs its rows."""
    cdef uint32_t low = hand_off_candidates(h)
    cdef uint32_t x
    cdef double above[4]            # the best single gain of the suits above s
    cdef double best = -INFINITY, e, g
    cdef int32_t s, b = -1, r = 0, pat, bests = 0, besti = -1
    if not (low & (low - 1)) or td_popcount(low) > 12:
        best_hand_off_scan(t, h, first, second)     # rare: the plain scan decides
        return
    above[3] = -INFINITY
    for s in range(3, 0, -1):
        g = t.best_gain_play[(h >> (6 * s)) & 0x3F]
        above[s - 1] = g if g > above[s] else above[s]
    # the first suit holding the best row
    for s in range(4):
        pat = (h >> (6 * s)) & 0x3F
        e = t.best_gain_play[pat] + above[s]
        if t.best_same_play[pat] > e:
            e = t.best_same_play[pat]
        if e > best:
            best = e
            bests = s
    # its first row reaching the maximum
    s = bests
    pat = (h >> (6 * s)) & 0x3F
    x = <uint32_t>low_cards_of_suit(pat)
    while x:
        r = td_lowbit(x)
        x &= x - 1
        e = t.gain_play[6 * pat + r] + above[s]
        if t.same_row_play[6 * pat + r] > e:
            e = t.same_row_play[6 * pat + r]
        if e == best:
            break
    besti = 6 * s + r
    # the first partner of that row reaching the maximum
    x = low & ~((<uint32_t>2 << besti) - 1)
    while x:
        b = td_lowbit(x)
        x &= x - 1
        if SUIT_OF[b] == s:
            e = pair_gain(t, pat, r, b - 6 * s)
        else:
            e = t.gain_play[6 * pat + r] + t.gain_play[6 * ((h >> (6 * SUIT_OF[b])) & 0x3F) + b - 6 * SUIT_OF[b]]
        if e == best:
            break
    first[0] = besti
    second[0] = b


cdef inline int32_t sensible_blind(View* v, double* p) noexcept nogil:
    cdef int32_t s, lead = -100000
    if p[P_BLIND] <= 0:
        return 0
    for s in range(v.players):
        if s != v.seat and v.score[s] > lead:
            lead = v.score[s]
    return lead - v.score[v.seat] >= p[P_BLIND]


cdef inline int32_t sensible_redeal(View* v, double* p) noexcept nogil:
    cdef int32_t a = 0, b = 0
    cdef const Estimates* t = estimates_for(v)
    cdef uint32_t gone
    if v.redeal_kind == REDEAL_HAND:
        return bid_estimate(t, v.hand, p[P_TALON]) < p[P_REDEAL]
    if v.redeal_kind == REDEAL_TALON:
        # the declarer sees the talon: redeal when he expects to fail with the cards
        # he would keep
        best_hand_off(t, v.hand | v.talon, &a, &b)
        gone = (<uint32_t>1 << a) | (<uint32_t>1 << b)
        return kept_estimate(t, (v.hand | v.talon) & ~gone, gone) < v.contract
    # four nines after the hand-off: the declarer redeals when he expects to fail,
    # a defender always (his hand is hopeless)
    if v.seat == v.declarer:
        return kept_estimate(t, v.hand, given_cards(v)) < v.contract
    return 1


cdef inline int32_t step_up(int32_t lo, int32_t value, int32_t step) noexcept nogil:
    """The smallest lo + k*step that is >= value."""
    if value <= lo:
        return lo
    return lo + ((value - lo + step - 1) // step) * step


cdef inline int32_t sensible_bid(View* v, double* p) noexcept nogil:
    cdef double est
    cdef int32_t b
    if v.min_bid > v.max_bid:
        return 0
    est = bid_estimate(estimates_for(v), v.hand, p[P_TALON])
    if v.sitter == v.seat:
        # on the barrel only a made contract of barrel_contract or more, with
        # barrel_target points, takes him off (a smaller one scores nothing): bid it at
        # once, on half the usual margin, since passing spends one of his barrel deals
        # for nothing; he must make the bid and the barrel target (121 > 120 under the
        # russian rules)
        b = step_up(v.min_bid, v.barrel_contract, v.step)
        if b <= v.max_bid and est - 0.5 * p[P_MARGIN] >= points_to_make(b, True, v.barrel_contract,
                                                                          v.barrel_target):
            return b
        return 0
    if est - p[P_MARGIN] >= v.min_bid:
        return v.min_bid
    return 0


cdef inline void sensible_hand_off(View* v, int32_t* first, int32_t* second) noexcept nogil:
    best_hand_off(estimates_for(v), v.hand, first, second)


cdef inline double make_chance(double surplus, double spread) noexcept nogil:
    cdef double pm = 0.5 + surplus / (2.0 * spread)
    if pm < 0.0:
        return 0.0
    if pm > 1.0:
        return 1.0
    return pm


cdef inline int32_t sensible_raise(View* v, double* p) noexcept nogil:
    cdef double est = kept_estimate(estimates_for(v), v.hand, given_cards(v))
    cdef int32_t contract = v.min_bid
    cdef int32_t target
    cdef double pm, play_value, resign_value, opp
    if v.can_resign:
        # relative score: the declarer's change minus the mean opponent's change (the
        # card points he leaves them, shared by two, or all to the one of 2 players)
        pm = make_chance(est - contract, p[P_SPREAD])
        opp = 120.0 - (est if est < 120.0 else 120.0)
        if v.n_active != 2:
            opp = opp / 2.0
        play_value = contract * (2.0 * pm - 1.0) - opp
        resign_value = -v.resign_cost - v.resign_gift
        if resign_value > play_value + p[P_RESIGN]:
            return RESIGNED
    target = <int32_t>(est - p[P_RAISE])
    if (v.sitter == v.seat and contract < v.barrel_contract
            and est - 0.5 * p[P_RAISE] >= points_to_make(v.barrel_contract, True, v.barrel_contract,
                                                          v.barrel_target)):
        # a barrel sitter gains nothing below barrel_contract: raise to it on a fair
        # chance of the points he needs (barrel_target, if more)
        target = v.barrel_contract
    if target > v.max_bid:
        target = v.max_bid
    if target > contract:
        return contract + ((target - contract) // v.step) * v.step
    return contract


cdef inline uint32_t ruff_risk_suits(const PlayState* ps, uint32_t unseen, uint32_t empty, uint32_t trm,
                                     int32_t who) noexcept nogil:
    """Suits (as masks) in which seat ``who`` may trump: he showed out of them, or no
    unseen card of them is left (``empty``), while trumps are still out."""
    if not (unseen & trm) or (ps.voids[who] & trm):
        return 0
    return (ps.voids[who] | empty) & ~trm


cdef inline int32_t sensible_lead(View* v, const PlayState* ps, uint32_t h, uint32_t unseen, uint32_t empty,
                                  uint32_t boss, uint32_t mcards, uint32_t trm,
                                  int32_t* declare) noexcept nogil:
    cdef uint32_t risky = 0, safe, cand, q
    cdef int32_t s, i, o, c
    # suits an opponent may trump
    if trm:
        for i in range(v.n_active):
            o = v.active[i]
            if o != v.seat and (v.seat == v.declarer or o == v.declarer):
                risky |= ruff_risk_suits(ps, unseen, empty, trm, o)
    safe = boss & ~risky & ~mcards
    # 0. the ace marriage (all four aces held and the rules score it): declare it as soon
    #    as the engine allows, with the ace of the longest suit (it may become trumps);
    #    where it may not be declared yet (trick 0 without marriage_first_trick), keep
    #    the aces and win the lead with another sure winner (a ten: the top card of its
    #    suit beside the ace) so that the next lead declares it
    if v.ace_marriage > 0 and (h & ACES) == ACES:
        if v.declarable & ACES:
            declare[0] = 1
            c = 5
            for s in range(1, 4):
                if suit_length(h, s) >= suit_length(h, SUIT_OF[c]):
                    c = 6 * s + 5
            return c
        if safe & ~ACES:
            return highest_by_rank(safe & ~ACES)
    # 1. the declarer draws trumps with a sure winner while trumps are out
    if v.seat == v.declarer and (safe & trm) and (unseen & trm):
        return td_lowbit(safe & trm)
    # 2. cash sure winners (aces) before giving up the lead
    if safe & ~trm:
        return highest_by_rank(safe & ~trm)
    # 3. declare a marriage: first one whose queen cannot be beaten (keeps the lead
    #    for the next), else the most valuable; lead the queen, keep the king
    if v.declarable:
        if v.declarable & ACES:
            declare[0] = 1
            return td_highbit(v.declarable & ACES)
        q = v.declarable & QUEENS
        c = -1
        while q:
            i = td_lowbit(q)
            q &= q - 1
            if not (unseen & above_in_suit(i)):
                c = i
        if c < 0:
            c = td_highbit(v.declarable & QUEENS)
        declare[0] = 1
        return c
    if safe:
        return highest_by_rank(safe)
    # 4. a low card, keeping marriages and winners; from a short suit
    cand = h & ~mcards & ~boss
    if v.seat == v.declarer and (cand & ~trm):
        cand &= ~trm
    if cand:
        return cheapest_card(h, cand)
    return cheapest_card(h, h & ~mcards) if (h & ~mcards) else cheapest_card(h, h)


cdef inline int32_t duck_card(uint32_t h, uint32_t legal, uint32_t unseen) noexcept nogil:
    """A losing card: the cheapest, keeping marriage cards and sure winners when possible."""
    cdef uint32_t mcards = marriage_cards(h)
    cdef uint32_t cand = legal & ~mcards
    if cand & (cand - 1):               # a choice left: keep the winners too
        if cand & below_mask(unseen):
            cand &= below_mask(unseen)
    elif not cand:
        cand = legal
    return cheapest_card(h, cand)


cdef inline int32_t smear_card(uint32_t h, uint32_t give, uint32_t unseen) noexcept nogil:
    """A card for the partner's trick: the richest that is neither a winner nor a marriage card."""
    cdef uint32_t mcards = marriage_cards(h)
    cdef uint32_t cand = give & ~mcards & below_mask(unseen)
    if cand:
        return highest_by_rank(cand)
    cand = give & ~mcards
    if cand:
        return cheapest_card(h, cand)
    return cheapest_card(h, give)


cdef inline int32_t sensible_play(View* v, const PlayState* ps, double* p, int32_t* declare) noexcept nogil:
    # Each branch computes only the masks it needs: this runs ~17 times a deal.  The
    # play so far (trick, trump, played cards, voids) is the play layer's state.
    cdef uint32_t h = v.hand
    cdef uint32_t legal = v.legal
    cdef int32_t decl = v.declarer
    cdef int32_t tr = ps.trump
    cdef uint32_t trm = SUIT_MASK_C[tr] if tr >= 0 else 0
    cdef uint32_t unseen, under, empty, over, beat, safe_beat, give
    cdef int32_t n = ps.trick_n, best, best_seat, led, nxt
    cdef bint defender = v.seat != decl
    cdef bint best_trumps
    declare[0] = 0
    if not (legal & (legal - 1)):
        return td_lowbit(legal)             # a single legal card (never a declaration)
    unseen = FULL_DECK & ~(h | ps.played)    # played includes the current trick's cards
    if n == 0:
        under = below_mask(unseen)
        # suits with no unseen card left: bit 6*s of a suit is in ``under`` iff any is
        empty = (SUIT_BITS & ~under) * 0x3F
        return sensible_lead(v, ps, h, unseen, empty, h & ~under, marriage_cards(h), trm, declare)
    # who is winning the trick so far (the play layer keeps it), and the cards that beat his
    best = ps.best
    best_seat = ps.best_seat
    led = ps.led
    over = beating_cards(best, trm)
    best_trumps = SUIT_OF[best] == tr
    beat = legal & over
    give = legal & ~over
    if n == v.n_active - 1:
        # last to play
        if defender and best_seat != decl:
            if give:
                return smear_card(h, give, unseen)
            return cheapest_card(h, beat)
        if beat:
            return cheapest_card(h, beat)
        return duck_card(h, legal, unseen)
    # second of three: the third seat is the one not yet in the trick
    nxt = v.active[0] + v.active[1] + v.active[2] - v.seat - ps.trick_seats[0]
    if defender and nxt != decl:
        # the declarer led, my partner plays last: win if I can
        if beat:
            return cheapest_card(h, beat)
        return duck_card(h, legal, unseen)
    under = below_mask(unseen)
    empty = (SUIT_BITS & ~under) * 0x3F
    # my cards that win against anything the third seat can hold
    safe_beat = beat & ~under
    if not best_trumps and (ruff_risk_suits(ps, unseen, empty, trm, nxt) & SUIT_MASK_C[led]):
        safe_beat &= trm
    if defender:
        # my partner led, the declarer plays last: is the partner's card safe?
        if not (unseen & above_in_suit(best)) and not (
                not best_trumps and (ruff_risk_suits(ps, unseen, empty, trm, nxt) & SUIT_MASK_C[led])):
            if give:
                return smear_card(h, give, unseen)
            return cheapest_card(h, beat)
        if safe_beat:
            return cheapest_card(h, safe_beat)
        return duck_card(h, legal, unseen)
    # declarer, second: take the trick with a sure winner; overtake on a gamble when
    # the trick is rich
    if safe_beat:
        return cheapest_card(h, safe_beat)
    if beat and RANK_POINTS_C[best - 6 * SUIT_OF[best]] >= p[P_GAMBLE]:
        return cheapest_card(h, beat)
    return duck_card(h, legal, unseen)


# ------------------------------------------------------------------ dispatch
cdef inline int32_t strategy_branch(int32_t code) noexcept nogil:
    """The branch of the dispatchers that the strategy ``code`` plays, B_NONE for a code
    without one.  Every code is named: none reaches a branch by a range or a default."""
    if code == S_RANDOM:
        return B_RANDOM
    if code == S_GREEDY:
        return B_GREEDY
    if code == S_STANDARD or code == S_CAUTIOUS or code == S_AGGRESSIVE:
        return B_SENSIBLE     # one player, three parameter sets
    if code == S_PIMC:
        return B_PIMC
    return B_NONE


cdef int seat_init(Seat* s, int32_t code, int32_t seat, const double* params, const int32_t* rules,
                   const PlayRules* play, bitgen_t* rng, unsigned char* work, int64_t work_bytes) except -1:
    """Fill a Seat; refuses a code that has no branch (it would answer nothing)."""
    cdef int32_t j
    s.branch = strategy_branch(code)
    if s.branch == B_NONE:
        raise ValueError(f"strategy code {code} is not one the kernel plays (codes: 0..{N_STRATEGIES - 1})")
    if s.branch == B_RANDOM and rng == NULL:
        raise ValueError("the random strategy needs a bitgen")
    if s.branch == B_PIMC and (play == NULL or rules == NULL):
        raise ValueError("the pimc strategy needs the rules")
    if s.branch == B_PIMC and (work == NULL or work_bytes < 5 * <int64_t>sizeof(SolveEntry)):
        raise ValueError("the pimc strategy needs a workspace (its solver table: Strategy.workspace bytes)")
    s.code = code
    s.seat = seat
    for j in range(N_PARAMS):
        s.params[j] = params[j]
    s.rules = rules
    s.play = play
    s.rng = rng
    s.work = work
    s.work_bytes = work_bytes
    return 0


# Each dispatcher answers for every branch; the last line is never reached (seat_init
# refuses a Seat without a branch) and gives a legal answer all the same.
cdef inline int32_t strategy_blind(Seat* s, View* v) noexcept nogil:
    if s.branch == B_SENSIBLE or s.branch == B_PIMC:
        return sensible_blind(v, s.params)
    if s.branch == B_RANDOM:
        return random_yes_no(s.rng)
    return 0        # B_GREEDY: never blind


cdef inline int32_t strategy_redeal(Seat* s, View* v) noexcept nogil:
    if s.branch == B_SENSIBLE or s.branch == B_PIMC:
        return sensible_redeal(v, s.params)
    if s.branch == B_RANDOM:
        return random_yes_no(s.rng)
    if s.branch == B_GREEDY:
        return 1    # every redeal it may
    return 0


cdef inline int32_t strategy_bid(Seat* s, View* v) noexcept nogil:
    if s.branch == B_SENSIBLE or s.branch == B_PIMC:     # pimc bids as standard
        return sensible_bid(v, s.params)
    if s.branch == B_RANDOM:
        return random_bid(v, s.rng)
    if s.branch == B_GREEDY:
        return greedy_bid(v, s.params)
    return 0


cdef inline void strategy_hand_off(Seat* s, View* v, int32_t* first, int32_t* second) noexcept nogil:
    cdef View vc
    cdef int32_t a, b
    if s.branch == B_SENSIBLE:
        sensible_hand_off(v, first, second)
    elif s.branch == B_PIMC:
        # the search player is a call: it gets copies, so that the engine's own state
        # (the deal's View, the play) never escapes and stays in registers (docs/kernel.md)
        vc = v[0]
        pimc_hand_off(s, &vc, &a, &b)
        first[0] = a
        second[0] = b
    elif s.branch == B_RANDOM:
        random_hand_off(v, s.rng, first, second)
    else:
        greedy_hand_off(v, first, second)   # B_GREEDY (and two legal cards otherwise)


cdef inline int32_t strategy_raise(Seat* s, View* v) noexcept nogil:
    cdef View vc
    if s.branch == B_SENSIBLE:
        return sensible_raise(v, s.params)
    if s.branch == B_PIMC:
        vc = v[0]                   # a copy (see strategy_hand_off)
        return pimc_raise(s, &vc)
    if s.branch == B_RANDOM:
        return random_raise(v, s.rng)
    return v.min_bid    # B_GREEDY: keeps the contract


cdef inline bint play_reads_private(const Seat* s) noexcept nogil:
    """Does the seat's card play read the View's private part beyond the hand (talon,
    received, given)?  The sensible family, random and greedy play from the hand, the
    legal cards and the public part; the search player places the hidden cards with it.
    The engine fills those fields in the play only for a seat that reads them."""
    return s.branch != B_SENSIBLE and s.branch != B_RANDOM and s.branch != B_GREEDY


cdef inline int32_t strategy_play(Seat* s, View* v, const PlayState* ps, int32_t* declare) noexcept nogil:
    cdef View vc
    cdef PlayState pc
    cdef int32_t card, dec = 0
    if s.branch == B_SENSIBLE:
        if not (v.legal & (v.legal - 1)):
            declare[0] = 0
            return td_lowbit(v.legal)       # a forced card: no call
        return sensible_play(v, ps, s.params, declare)
    if s.branch == B_RANDOM:
        return random_play(v, s.rng, declare)
    if s.branch == B_GREEDY:
        return greedy_play(v, declare)
    if s.branch == B_PIMC:
        vc = v[0]                   # copies (see strategy_hand_off)
        pc = ps[0]
        card = pimc_play(s, &vc, &pc, &dec)
        declare[0] = dec
        return card
    declare[0] = 0
    return td_lowbit(v.legal)
