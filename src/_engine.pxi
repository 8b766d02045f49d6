# The engine: one dealt deal (run_deal), the game bookkeeping after it (apply_deal),
# following docs/rules.md step by step.  Everything here is nogil C.

cdef struct GameState:
    int32_t score[4]
    int32_t bolts[4]          # bolt counts towards the next penalty
    int32_t resigns[4]        # resignations so far (sixty_two_free)
    int32_t sitter            # barrel sitter, -1 none
    int32_t sitter_deals      # deals he has sat
    int32_t dealer
    int32_t deal_no           # played deals so far
    int32_t golden_made       # a golden-kon declarer made his 120
    int32_t in_game           # 0 in a deal-only run
    int32_t finished
    GameRow row

cdef struct Ctx:
    int32_t r[N_RULE_FIELDS]
    PlayRules play            # the rules of the card play (_play.pxi), filled once from r
    uint64_t step_inverse     # floor(2**32 / bid step) + 1: see top_multiple
    bitgen_t* rng             # the chance stream: shuffles, cuts, first dealers, 2-player talons
    Seat seats[4]             # the strategies (each with its decision stream: rng, or another)
    int32_t keyed             # separate streams: rng is key.bitgen, keyed per game/deal/attempt
    KeyedChance key
    int32_t* ev               # trace events, NULL when off
    int64_t n_ev
    int64_t row_index         # deal row the events belong to
    GameState g
    # forced-declarer mode
    int32_t forced            # 0 normal; 1: the auction result is given (forced_*)
    int32_t forced_declarer
    int32_t forced_contract
    int32_t forced_deck[24]   # deck order to deal instead of shuffling
    int32_t play_out_resigned # play the cards even after a resignation
    int32_t raise_choice      # out: the declarer's raise/resign answer
    # forced-pass mode: forced_deck is dealt, the normal auction runs, but seat pass_seat
    # passes at its first chance and asks for no redeal and no blind
    int32_t pass_mode
    int32_t pass_seat
    View* vlog                # debugging/tests: every decision's View, NULL when off
    int64_t n_vlog
    int64_t cap_vlog

cdef struct Deal:
    int32_t n
    uint32_t talon2           # 2 players: the set-aside talon
    uint32_t laid             # 2 players: the two cards laid away
    int32_t golden
    View v                    # the public state; each question sets the asking seat's fields
    uint32_t hands[4]
    uint32_t talon            # the declarer's talon (0 until he takes it)
    int32_t talon_shown       # shown to all (else only the declarer sees it)
    int32_t received[4]       # card each seat received in the hand-off
    int32_t given[2]          # the declarer's hand-off (to next, to other)
    int32_t pos[4]            # each seat's index in v.active, -1 when it sits out


cdef inline void emit(Ctx* c, int32_t kind, int32_t seat, int32_t a, int32_t b) noexcept nogil:
    cdef int32_t* e
    if c.ev != NULL:
        e = c.ev + c.n_ev * EVENT_WIDTH
        e[0] = <int32_t>c.row_index
        e[1] = kind
        e[2] = seat
        e[3] = a
        e[4] = b
        c.n_ev += 1


cdef inline int32_t bid_cap_of(Ctx* c, uint32_t hand) noexcept nogil:
    """Highest contract a hand may bid or raise to (docs/rules.md, auction cap)."""
    cdef int32_t m
    if c.r[R_BID_CAP] == BIDCAP_MARRIAGES:
        m = marriage_sum(hand)
        return 120 + m
    m = 120 + 280 + c.r[R_LAST_TRICK_BONUS]
    if c.r[R_ACE_MARRIAGE] > 0:
        m += c.r[R_ACE_MARRIAGE]
    return m


cdef inline int32_t barrel_contract_of(const int32_t* r) noexcept nogil:
    """The smallest contract that takes a barrel sitter off: barrel_target rounded down
    to a multiple of the bid step (docs/rules.md, the barrel; 120 for 121)."""
    return (r[R_BARREL_TARGET] // r[R_BID_STEP]) * r[R_BID_STEP]


cdef inline int32_t points_to_make(int32_t contract, bint sitter, int32_t barrel_contract,
                                   int32_t barrel_target) noexcept nogil:
    """The declarer's deal points that make ``contract`` (a blind 120 aside): a barrel
    ``sitter`` at a contract that would take him off (barrel_contract or more) needs
    barrel_target points too (docs/rules.md, the barrel; the reference's
    legal.points_to_make).  The engine scores with it, the strategies aim at it."""
    if sitter and contract >= barrel_contract:
        return contract if contract > barrel_target else barrel_target
    return contract


cdef inline int32_t next_seat(int32_t s, int32_t n) noexcept nogil:
    # (s + 1) % n without a division: seats are 0..n-1, n the runtime number of players
    return 0 if s + 1 == n else s + 1


cdef inline int32_t top_multiple(Ctx* c, int32_t lo, int32_t hi, int32_t step) noexcept nogil:
    """Largest lo + k*step <= hi, or lo - 1 when hi < lo."""
    cdef uint32_t x
    if hi < lo:
        return lo - 1
    x = <uint32_t>(hi - lo)
    # (x * step_inverse) >> 32 is exactly x // step while x * step < 2**32 (an integer
    # division costs more than the rest of an auction step; it runs at every bid)
    if x < 65536 and step < 65536:
        return lo + <int32_t>((x * c.step_inverse) >> 32) * step
    return lo + (<int32_t>x // step) * step


cdef inline int32_t hand_redeal_allowed(Ctx* c, uint32_t h) noexcept nogil:
    if c.r[R_REDEAL_HAND_POINTS_MAX] >= 0 and card_points_c(h) <= c.r[R_REDEAL_HAND_POINTS_MAX]:
        return 1
    if c.r[R_REDEAL_HAND_NINES] >= 0 and count_of(h, NINES) >= c.r[R_REDEAL_HAND_NINES]:
        return 1
    if c.r[R_REDEAL_HAND_JACKS] >= 0 and count_of(h, JACKS) >= c.r[R_REDEAL_HAND_JACKS]:
        return 1
    return 0


cdef inline int32_t talon_redeal_allowed(Ctx* c, uint32_t t) noexcept nogil:
    if c.r[R_REDEAL_TALON_POINTS_MAX] >= 0 and card_points_c(t) <= c.r[R_REDEAL_TALON_POINTS_MAX]:
        return 1
    if c.r[R_REDEAL_TALON_NINES] >= 0 and count_of(t, NINES) >= c.r[R_REDEAL_TALON_NINES]:
        return 1
    if c.r[R_REDEAL_TALON_JACKS] >= 0 and count_of(t, JACKS) >= c.r[R_REDEAL_TALON_JACKS]:
        return 1
    return 0


# ------------------------------------------------------------------ decisions
cdef inline void log_view(Ctx* c, View* v) noexcept nogil:
    if c.vlog != NULL and c.n_vlog < c.cap_vlog:
        c.vlog[c.n_vlog] = v[0]
        c.n_vlog += 1


cdef inline void view_for(Deal* d, int32_t seat) noexcept nogil:
    """The asking seat's private part of the view: hand, talon, received card."""
    view_for_hand(d, seat, d.hands[seat])


cdef inline void view_for_hand(Deal* d, int32_t seat, uint32_t hand) noexcept nogil:
    d.v.seat = seat
    d.v.hand = hand
    view_private(d, seat)


cdef inline void view_private(Deal* d, int32_t seat) noexcept nogil:
    """The rest of the asking seat's private part: the talon he saw, the card he received,
    his hand-off (the declarer's)."""
    d.v.talon = d.talon if (seat == d.v.declarer or d.talon_shown) else 0
    d.v.received = d.received[seat & 3]     # seat is 0..3: the mask only tells the compiler
    if seat == d.v.declarer:
        d.v.given[0] = d.given[0]
        d.v.given[1] = d.given[1]
    else:
        d.v.given[0] = -1
        d.v.given[1] = -1


cdef inline int32_t ask_yes_no(Ctx* c, Deal* d, int32_t seat, int32_t kind, int32_t redeal_kind) noexcept nogil:
    # The View lives in the deal state; each question refreshes the fields it concerns.
    cdef View* v = &d.v
    cdef int32_t ans
    v.kind = kind
    view_for(d, seat)
    v.redeal_kind = redeal_kind
    if kind == D_BLIND:
        v.hand = 0          # asked before he looks
        log_view(c, v)
        ans = strategy_blind(&c.seats[seat], v)
        emit(c, EV_BLIND, seat, ans, 0)
    else:
        log_view(c, v)
        ans = strategy_redeal(&c.seats[seat], v)
        emit(c, EV_REDEAL, seat, ans, redeal_kind)
    return ans


cdef inline int32_t ask_bid(Ctx* c, Deal* d, int32_t seat, int32_t lo, int32_t hi) noexcept nogil:
    cdef View* v = &d.v
    cdef int32_t ans
    v.kind = D_BID
    # before the talon is taken every seat's private part beyond the hand is the deal's
    # start (no talon seen, nothing received or handed off: run_deal sets it so)
    v.seat = seat
    v.hand = d.hands[seat]
    v.min_bid = lo
    v.max_bid = hi
    log_view(c, v)
    ans = strategy_bid(&c.seats[seat], v)
    emit(c, EV_BID, seat, ans, 0)
    return ans


cdef inline int32_t ask_raise(Ctx* c, Deal* d, int32_t seat, int32_t lo, int32_t hi, int32_t can_resign) noexcept nogil:
    cdef View* v = &d.v
    cdef int32_t ans
    v.kind = D_RAISE
    view_for(d, seat)
    v.min_bid = lo
    v.max_bid = hi
    v.can_resign = can_resign
    # what resigning would cost now (docs/rules.md, Resign), for strategies that weigh it
    v.resign_cost = 0
    v.resign_gift = 0
    if d.v.blind:
        v.resign_cost = 240
        v.resign_gift = 120
    elif c.r[R_RESIGN] == RESIGN_HALF_BID:
        v.resign_cost = lo
        v.resign_gift = ((lo + 9) // 10) * 5
    elif c.r[R_RESIGN] == RESIGN_SIXTY:
        v.resign_cost = lo
        v.resign_gift = 60
    elif c.r[R_RESIGN] == RESIGN_SIXTY_TWO_FREE:
        v.resign_cost = 0 if c.g.resigns[seat] < 2 else 120
        v.resign_gift = 60
    log_view(c, v)
    ans = strategy_raise(&c.seats[seat], v)
    emit(c, EV_CONTRACT, seat, ans, 0)
    return ans


cdef inline void ask_hand_off(Ctx* c, Deal* d, int32_t seat, int32_t* first, int32_t* second) noexcept nogil:
    cdef View* v = &d.v
    v.kind = D_HAND_OFF
    view_for(d, seat)
    log_view(c, v)
    strategy_hand_off(&c.seats[seat], v, first, second)
    emit(c, EV_HAND_OFF, seat, first[0], second[0])


cdef inline void view_of_play(View* v, const PlayState* ps) noexcept nogil:
    """The play's part of the View, from the play layer's state."""
    cdef int32_t i
    v.played = ps.played
    v.trick_index = ps.trick_index
    v.trick_n = ps.trick_n
    v.trump = ps.trump
    for i in range(4):
        v.trick_cards[i] = ps.trick_cards[i]
        v.trick_seats[i] = ps.trick_seats[i]
        v.voids[i] = ps.voids[i]
        v.points[i] = ps.points[i]
        v.marriage_points[i] = ps.marriages[i]


cdef inline void log_play_view(Ctx* c, View* v, const PlayState* ps) noexcept nogil:
    if c.vlog != NULL and c.n_vlog < c.cap_vlog:
        view_of_play(v, ps)
        c.vlog[c.n_vlog] = v[0]
        c.n_vlog += 1


cdef inline int32_t ask_play(Ctx* c, Deal* d, const PlayState* ps, uint32_t legal,
                             uint32_t declarable, int32_t* declare) noexcept nogil:
    # The strategies read the play so far from the play layer's state; the View's play
    # fields are filled only for a logged view (copying them at every card costs 5%).
    cdef int32_t card, seat = ps.turn
    if not (legal & (legal - 1)) and c.vlog == NULL:
        # a forced card: every strategy answers it alike (its only card, no declaration
        # since one card is never a marriage, no draw), so no view and no call
        declare[0] = 0
        card = td_lowbit(legal)
        emit(c, EV_PLAY, seat, card, 0)
        return card
    # (v.kind is D_PLAY through the play)  The private part beyond the hand does not
    # change in the play; it is written only for a strategy that reads it there (and
    # for a logged view): about ten stores a card decision fewer (docs/kernel.md)
    d.v.seat = seat
    d.v.hand = ps.hands[seat]
    if c.vlog != NULL or play_reads_private(&c.seats[seat]):
        view_private(d, seat)
    d.v.legal = legal
    d.v.declarable = declarable
    log_play_view(c, &d.v, ps)
    card = strategy_play(&c.seats[seat], &d.v, ps, declare)
    emit(c, EV_PLAY, seat, card, declare[0])
    return card


# ------------------------------------------------------------------ one deal
cdef inline void clear_row(DealRow* row) noexcept nogil:
    cdef int32_t s
    row.redeal = REDEAL_NONE
    row.redeal_by = -1
    row.blind = 0
    row.n_bids = 0
    row.declarer = -1
    row.obligation = 0
    row.winning_bid = 0
    row.contract = 0
    row.resigned = 0
    row.handoff_next = -1
    row.handoff_other = -1
    row.declarer_points = 0
    row.made = 0
    row.talon = 0
    row.talon2 = 0
    for s in range(4):
        row.hand[s] = 0
        row.bid[s] = 0
        row.points[s] = 0
        row.marriages[s] = 0
        row.tricks[s] = 0
        row.score[s] = 0
        row.bolt[s] = 0
        row.total[s] = 0


cdef inline int32_t active_index(Deal* d, int32_t seat) noexcept nogil:
    # a table filled once per deal: no search loop (seat is a seat number, never -1)
    return d.pos[seat]


cdef int32_t run_deal(Ctx* c, DealRow* row, int32_t golden) noexcept nogil:
    """Deal, decide and score one dealt deal into ``row``; 1 if played, 0 on a redeal."""
    cdef Deal d
    cdef int32_t* r = c.r
    cdef int32_t n = r[R_PLAYERS]
    cdef uint32_t block[4]
    cdef int32_t b1, b2, b3, bottom
    cdef int32_t s, i, k, cutter, seen, paid, run, f, dealer, step, decl, lo, hi, cap
    cdef int32_t went_blind = 0
    cdef int32_t n_passed, broke, opening, b, first = 0, second = 0, contract, resigned, ans
    cdef int32_t li, card, declare, played_out
    cdef uint32_t legal, declarable, bit, h, talon
    cdef int32_t dealpts[4]
    cdef int32_t cardpts[4]
    cdef PlayState ps
    cdef const PlayRules* pr = &c.play

    d.n = n
    d.golden = golden
    dealer = c.g.dealer
    f = next_seat(dealer, n)
    step = r[R_BID_STEP]
    clear_row(row)
    row.dealer = dealer
    row.forehand = f

    d.v.players = n
    d.v.dealer = dealer
    d.v.forehand = f
    d.v.step = step
    d.v.sitter = c.g.sitter
    if n == 2:
        d.v.n_active = 2
        d.v.active[0] = f
        d.v.active[1] = dealer
        d.v.active[2] = -1
    else:
        d.v.n_active = 3
        d.v.active[0] = f
        d.v.active[1] = next_seat(f, n)
        d.v.active[2] = next_seat(d.v.active[1], n)
    for s in range(4):
        d.pos[s] = -1
    for i in range(d.v.n_active):
        d.pos[d.v.active[i]] = i
    for s in range(4):
        d.hands[s] = 0
        d.v.bids[s] = 0
        d.v.passed[s] = 0
        d.v.points[s] = 0
        d.v.score[s] = c.g.score[s]
        d.v.trick_cards[s] = -1
        d.v.trick_seats[s] = -1
        d.v.marriage_points[s] = 0
        d.v.bolts[s] = c.g.bolts[s]
        d.v.resignations[s] = c.g.resigns[s]
        d.received[s] = -1
        d.v.voids[s] = 0
    d.v.declarer = -1
    d.v.contract = 0
    d.v.can_resign = 0
    d.v.blind = 0
    d.v.obligation = 0
    d.v.talon = 0
    d.v.played = 0
    d.v.trick_index = 0
    d.v.trick_n = 0
    d.v.trump = -1
    d.v.high = 0
    d.v.high_seat = -1
    d.v.legal = 0
    d.v.declarable = 0
    d.v.min_bid = 0
    d.v.max_bid = 0
    d.v.redeal_kind = 0
    d.v.resign_cost = 0
    d.v.resign_gift = 0
    d.talon2 = 0
    d.laid = 0
    d.talon = 0
    d.talon_shown = 0
    d.v.golden = golden
    d.v.received = -1
    d.v.given[0] = -1
    d.v.given[1] = -1
    d.given[0] = -1
    d.given[1] = -1
    d.v.n_tricks = 10 if n == 2 else 8
    d.v.ace_marriage = r[R_ACE_MARRIAGE] if r[R_ACE_MARRIAGE] > 0 else 0
    d.v.barrel_target = r[R_BARREL_TARGET]
    d.v.barrel_contract = barrel_contract_of(r)

    # 0. cut and shuffle, dealt as blocks of deck positions: 2 players 10+10 cards, the
    # talon, the set-aside talon; else 7+7+7 cards to the active seats and the talon
    if n == 2:
        b1 = 10
        b2 = 20
        b3 = 22
    else:
        b1 = 7
        b2 = 14
        b3 = 21
    if c.forced or c.pass_mode:
        block[0] = mask_of_deck(c.forced_deck, 0, b1)
        block[1] = mask_of_deck(c.forced_deck, b1, b2)
        block[2] = mask_of_deck(c.forced_deck, b2, b3)
        block[3] = mask_of_deck(c.forced_deck, b3, 24)
    else:
        bottom = shuffle_blocks(c.rng, b1, b2, b3, block)
        if r[R_CUT_NINE_PENALTY] > 0:
            cutter = (dealer - 1 + n) % n
            seen = 0
            paid = 0
            run = 0
            while bottom % 6 == 0:
                seen += 1
                run += 1
                if run == 3:
                    c.g.score[cutter] -= 120
                    d.v.score[cutter] -= 120
                    c.g.row.cut_penalties += 1
                    paid += 1
                    run = 0
                    if cutter == c.g.sitter and c.g.score[cutter] < r[R_BARREL_AT]:
                        # paid before the deal: the sitter plays it off the barrel (docs/rules.md)
                        c.g.sitter = -1
                        d.v.sitter = -1
                        c.g.row.barrel_falls[cutter] += 1
                bottom = shuffle_blocks(c.rng, b1, b2, b3, block)
            emit(c, EV_CUT, cutter, seen, paid)

    # deal
    if n == 2:
        d.hands[f] = block[0]
        d.hands[dealer] = block[1]
        talon = block[2]
        d.talon2 = block[3]
    else:
        for i in range(3):
            d.hands[d.v.active[i]] = block[i]
        talon = block[3]
    for s in range(n):
        row.hand[s] = d.hands[s]
    row.talon = talon
    row.talon2 = d.talon2

    # 1. blind
    if golden:
        d.v.blind = 1
    elif (r[R_BLIND] > 0 and n != 2 and not c.forced and c.g.score[f] >= 0 and c.g.sitter < 0
          and not (c.pass_mode and f == c.pass_seat)):
        went_blind = ask_yes_no(c, &d, f, D_BLIND, 0)

    # 2. hand redeal
    if not golden and not c.forced:
        for i in range(d.v.n_active):
            s = d.v.active[i]
            if went_blind and s == f:
                continue
            if c.pass_mode and s == c.pass_seat:
                continue
            if hand_redeal_allowed(c, d.hands[s]):
                if ask_yes_no(c, &d, s, D_REDEAL, REDEAL_HAND):
                    row.redeal = REDEAL_HAND
                    row.redeal_by = s
                    return 0

    # 3./4. auction
    if c.forced:
        decl = c.forced_declarer
        contract = c.forced_contract
    elif golden:
        decl = f
        contract = 120
    elif (r[R_BARREL_TAKES_TALON] > 0 and c.g.sitter >= 0
          and active_index(&d, c.g.sitter) >= 0):
        decl = c.g.sitter
        contract = barrel_contract_of(r)
    else:
        opening = 100
        if went_blind:
            opening = 120
        elif c.g.sitter == f and r[R_BARREL_BID_MIN] > opening:
            opening = r[R_BARREL_BID_MIN]
        d.v.high = opening
        d.v.high_seat = f
        d.v.bids[f] = opening
        n_passed = 0
        broke = 0
        i = 1
        while n_passed < d.v.n_active - 1:
            if i == d.v.n_active:
                i = 0
            s = d.v.active[i]
            i += 1
            if d.v.passed[s]:
                continue
            lo = d.v.high + step
            if s == c.g.sitter and r[R_BARREL_BID_MIN] > lo:
                lo = r[R_BARREL_BID_MIN]
            hi = top_multiple(c, lo, bid_cap_of(c, d.hands[s]), step)
            if c.pass_mode and s == c.pass_seat:
                b = 0           # passes at his first chance (a forehand's 100 still stands)
            else:
                b = ask_bid(c, &d, s, lo, hi)
            row.n_bids += 1
            if b == 0:
                d.v.passed[s] = 1
                n_passed += 1
            else:
                d.v.high = b
                d.v.high_seat = s
                d.v.bids[s] = b
                if s != f:
                    broke = 1
        decl = d.v.high_seat
        contract = d.v.high
        # the deal is blind only if nobody broke it (the view says so from then on)
        d.v.blind = went_blind and not broke
        if not went_blind and not broke and decl == f and contract == opening:
            d.v.obligation = 1
    d.v.declarer = decl
    d.v.contract = contract
    if d.v.high == 0:           # no auction (golden kon, barrel takes talon, forced)
        d.v.high = contract
        d.v.high_seat = decl
    row.declarer = decl
    row.winning_bid = contract
    row.contract = contract
    row.blind = d.v.blind
    row.obligation = d.v.obligation
    for s in range(n):
        row.bid[s] = d.v.bids[s]

    # 5. talon
    if n == 2:
        k = draw_bounded(c.rng, 2)
        emit(c, EV_TALON, decl, k, 0)
        if k == 1:
            h = talon
            talon = d.talon2
            d.talon2 = h
        row.talon = talon
        row.talon2 = d.talon2
    d.talon = talon
    d.talon_shown = not (d.v.blind or (d.v.obligation and r[R_TALON_FACE_DOWN_ON_OBLIGATION] > 0))
    d.hands[decl] |= talon

    # 6. talon redeal
    if (not d.v.blind and not c.forced and not (c.pass_mode and decl == c.pass_seat)
            and (r[R_REDEAL_TALON_BY] == TALONBY_DECLARER or d.v.obligation)
            and talon_redeal_allowed(c, talon)):
        if ask_yes_no(c, &d, decl, D_REDEAL, REDEAL_TALON):
            row.redeal = REDEAL_TALON
            row.redeal_by = decl
            return 0

    # 7. hand-off
    ask_hand_off(c, &d, decl, &first, &second)
    row.handoff_next = first
    row.handoff_other = second
    bit = (<uint32_t>1 << first) | (<uint32_t>1 << second)
    d.hands[decl] &= ~bit
    d.given[0] = first
    d.given[1] = second
    if n == 2:
        d.laid = bit
    else:
        li = active_index(&d, decl)
        k = d.v.active[li + 1 if li < 2 else 0]         # (li + 1) % 3 without a division
        d.hands[k] |= <uint32_t>1 << first
        d.received[k] = first
        k = d.v.active[li - 1 if li > 0 else 2]         # (li + 2) % 3
        d.hands[k] |= <uint32_t>1 << second
        d.received[k] = second

    # 8. four nines
    if r[R_REDEAL_FOUR_NINES_AFTER_EXCHANGE] > 0 and not golden and not c.forced:
        li = active_index(&d, decl)
        for k in range(d.v.n_active):
            s = d.v.active[(li + k) % d.v.n_active]
            if (d.hands[s] & NINES) == NINES and not (c.pass_mode and s == c.pass_seat):
                if ask_yes_no(c, &d, s, D_REDEAL, REDEAL_FOUR_NINES):
                    row.redeal = REDEAL_FOUR_NINES
                    row.redeal_by = s
                    return 0

    # 9. raise or resign
    if d.v.blind:
        hi = contract
    else:
        cap = bid_cap_of(c, d.hands[decl])
        hi = top_multiple(c, contract, cap, step)
        if hi < contract:
            hi = contract
    ans = ask_raise(c, &d, decl, contract, hi, r[R_RESIGN] != RESIGN_NONE)
    c.raise_choice = ans
    resigned = ans == RESIGNED
    if not resigned:
        contract = ans
    d.v.contract = contract
    row.contract = contract
    row.resigned = resigned

    # 10. play: every trick through the play layer (_play.pxi)
    played_out = not resigned or c.play_out_resigned
    play_start(&ps, pr, d.hands, d.v.active, decl, card_points_c(d.talon2) if n == 2 else 0)
    if played_out:
        d.v.kind = D_PLAY
        while True:
            legal = legal_cards(&ps, pr)
            declarable = declarable_cards(&ps, pr)
            declare = 0
            card = ask_play(c, &d, &ps, legal, declarable, &declare)
            # the play ends with its last trick (tested only when a trick closes: no
            # card counter kept through the loop)
            if play_card_no_undo(&ps, pr, card, declare) >= 0 and ps.trick_index == pr.n_tricks:
                break

    # scoring (2 players: the play gave the set-aside talon to the last trick's winner;
    # the laid-away cards, which no card played can change, count for the declarer here)
    for s in range(n):
        cardpts[s] = ps.points[s]
    if n == 2 and played_out:
        cardpts[decl] += card_points_c(d.laid)
    for s in range(n):
        dealpts[s] = cardpts[s] + ps.marriages[s] + ps.bonus[s]
        row.points[s] = cardpts[s]
        row.marriages[s] = ps.marriages[s]
        row.tricks[s] = ps.tricks[s]
    row.declarer_points = dealpts[decl]
    if resigned:
        row.made = 0
        if d.v.blind:
            row.score[decl] = -240
            k = 120
        elif r[R_RESIGN] == RESIGN_HALF_BID:
            row.score[decl] = -contract
            k = ((contract + 9) // 10) * 5
        elif r[R_RESIGN] == RESIGN_SIXTY:
            row.score[decl] = -contract
            k = 60
        else:
            row.score[decl] = 0 if c.g.resigns[decl] < 2 else -120
            k = 60
        c.g.resigns[decl] += 1
        for i in range(d.v.n_active):
            s = d.v.active[i]
            if s != decl:
                row.score[s] = k
    else:
        if d.v.blind:
            row.made = dealpts[decl] >= 120
            row.score[decl] = 240 if row.made else -240
        else:
            row.made = dealpts[decl] >= points_to_make(contract, decl == c.g.sitter, barrel_contract_of(r),
                                                       r[R_BARREL_TARGET])
            row.score[decl] = contract if row.made else -contract
        for i in range(d.v.n_active):
            s = d.v.active[i]
            if s == decl:
                continue
            k = dealpts[s]
            if d.v.blind:
                k += cardpts[s]
            if r[R_ROUND_DEFENDERS] > 0:
                k = round_defender(k)
            row.score[s] = k
    # A resignation gives nobody a bolt; the forced-declarer mode (play_out_resigned) still
    # records the bolts of the deal played out, for thousand bid's values.
    if (not resigned or c.play_out_resigned) and r[R_BOLTS] != BOLTS_OFF:
        for i in range(d.v.n_active):
            s = d.v.active[i]
            if r[R_BOLTS] == BOLTS_NOT_ON_BARREL and s == c.g.sitter:
                continue
            if r[R_BOLT_WHEN] == BOLTWHEN_NO_TRICKS:
                k = ps.tricks[s] == 0
            else:
                k = dealpts[s] == 0
            if k:
                row.bolt[s] = 2 if d.v.blind else 1
    if n == 4 and c.g.sitter != dealer:
        if r[R_DEALER_SCORES] == DEALER_TALON_POINTS:
            row.score[dealer] = card_points_c(talon) + marriage_sum(talon)
        else:
            row.score[dealer] = 40 * count_of(talon, ACES) + marriage_sum(talon)
    return 1


# ------------------------------------------------------------------ a game
cdef void start_game(Ctx* c, int64_t game_id) noexcept nogil:
    cdef int32_t s, n = c.r[R_PLAYERS]
    cdef GameRow* g = &c.g.row
    for s in range(4):
        c.g.score[s] = 0
        c.g.bolts[s] = 0
        c.g.resigns[s] = 0
        g.final[s] = 0
        g.declarer_deals[s] = 0
        g.made[s] = 0
        g.barrel_entries[s] = 0
        g.barrel_falls[s] = 0
        g.bolt_penalties[s] = 0
        g.resignations[s] = 0
    c.g.sitter = -1
    c.g.sitter_deals = 0
    c.g.deal_no = 0
    c.g.golden_made = 0
    c.g.finished = 0
    c.g.in_game = 1
    g.game_id = game_id
    g.winner = -1
    g.deals = 0
    g.redeals = 0
    g.resets_555 = 0
    g.blind_deals = 0
    g.blind_made = 0
    g.golden_reset = 0
    g.cut_penalties = 0
    g.barrel_clashes = 0
    if c.keyed:
        keyed_game(&c.key)      # the game's own place of the chance stream
    c.g.dealer = draw_bounded(c.rng, n)
    g.first_dealer = c.g.dealer


cdef void reset_555(Ctx* c) noexcept nogil:
    """The 555 step: a score of exactly +-555 becomes 0; after every played deal, and after
    a redeal, whose cut-nine fine may have landed a score there (docs/rules.md)."""
    cdef int32_t s
    if c.r[R_SAMOZVAL_555] > 0:
        for s in range(c.r[R_PLAYERS]):
            if c.g.score[s] == 555 or c.g.score[s] == -555:
                c.g.score[s] = 0
                c.g.row.resets_555 += 1


cdef void apply_deal(Ctx* c, DealRow* row) noexcept nogil:
    """Game bookkeeping after a played deal (docs/rules.md, 'A game')."""
    cdef int32_t* r = c.r
    cdef int32_t n = r[R_PLAYERS]
    cdef GameRow* g = &c.g.row
    cdef int32_t s, k, ch, came_off = 0, sitter = c.g.sitter, decl = row.declarer
    cdef int32_t newcomers = 0, newcomer = -1, best, i
    cdef int32_t* score = c.g.score

    g.declarer_deals[decl] += 1
    if row.made:
        g.made[decl] += 1
    if row.resigned:
        g.resignations[decl] += 1
    if row.blind:
        g.blind_deals += 1
        if row.made:
            g.blind_made += 1
            if r[R_GOLDEN_KON] > 0 and c.g.deal_no < 3:
                c.g.golden_made = 1
    # 1. score changes (a sitter's gains count only when he comes off; with
    # barrel_takes_talon his failed attempts cost nothing: the last one falls off, step 3)
    if sitter >= 0 and sitter == decl and row.made and not row.resigned:
        if row.contract >= barrel_contract_of(r) and row.declarer_points >= r[R_BARREL_TARGET]:
            came_off = 1
    for s in range(n):
        ch = row.score[s]
        if s == sitter and ch > 0 and not came_off:
            continue
        if s == sitter and ch < 0 and s == decl and r[R_BARREL_TAKES_TALON] > 0:
            continue
        score[s] += ch
    # 2. bolts
    for s in range(n):
        for k in range(row.bolt[s]):
            c.g.bolts[s] += 1
            if c.g.bolts[s] == 3:
                score[s] -= r[R_BOLT_PENALTY]
                c.g.bolts[s] = 0
                g.bolt_penalties[s] += 1
    # 3. barrel
    if r[R_BARREL_AT] >= 0:
        if sitter >= 0:
            if came_off:
                c.g.sitter = -1
            else:
                # with barrel_takes_talon the count is of his attempts (003: three of them):
                # a deal he sits out as the 4-player dealer is not one
                if not (r[R_BARREL_TAKES_TALON] > 0 and n == 4 and sitter == row.dealer):
                    c.g.sitter_deals += 1
                if score[sitter] < r[R_BARREL_AT]:
                    c.g.sitter = -1
                    g.barrel_falls[sitter] += 1
                elif c.g.sitter_deals >= r[R_BARREL_DEALS]:
                    g.barrel_falls[sitter] += 1
                    # his third time on the barrel (000: "sits on the Barrel for the third
                    # time and still fails"): the game row counts the times he got on it
                    if r[R_BARREL_THIRD_RESET] > 0 and g.barrel_entries[sitter] == 3:
                        score[sitter] = 0
                    else:
                        score[sitter] -= r[R_BARREL_PENALTY]
                    c.g.sitter = -1
        for s in range(n):
            if s != sitter and r[R_BARREL_AT] <= score[s] < r[R_TARGET]:
                newcomers += 1
                newcomer = s
        if newcomers == 1:
            score[newcomer] = r[R_BARREL_AT]
            g.barrel_entries[newcomer] += 1
            if c.g.sitter >= 0:
                score[c.g.sitter] -= r[R_BARREL_PENALTY]
                g.barrel_falls[c.g.sitter] += 1
            c.g.sitter = newcomer
            c.g.sitter_deals = 0
        elif newcomers > 1:
            g.barrel_clashes += 1
            for s in range(n):
                if s != sitter and r[R_BARREL_AT] <= score[s] < r[R_TARGET]:
                    score[s] = r[R_BARREL_AT] - r[R_BARREL_PENALTY]
    # 4. 555
    reset_555(c)
    c.g.deal_no += 1
    g.deals = c.g.deal_no
    # golden kon: after the third golden deal, nobody made it -> back to 0
    if r[R_GOLDEN_KON] > 0 and c.g.deal_no == 3 and not c.g.golden_made:
        for s in range(n):
            score[s] = 0
        c.g.sitter = -1
        c.g.sitter_deals = 0
        g.golden_reset = 1
    for s in range(n):
        row.total[s] = score[s]
    # 5. winner
    best = -1
    if decl >= 0 and score[decl] >= r[R_TARGET]:
        best = decl
    else:
        for i in range(n):
            s = (row.forehand + i) % n
            if score[s] >= r[R_TARGET] and (best < 0 or score[s] > score[best]):
                best = s
    if best >= 0:
        g.winner = best
        c.g.finished = 1
    elif c.g.deal_no >= r[R_MAX_DEALS]:
        c.g.finished = 1
    c.g.dealer = next_seat(c.g.dealer, n)
    if c.g.finished:
        for s in range(n):
            g.final[s] = score[s]
