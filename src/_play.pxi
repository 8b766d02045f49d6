# The play layer: the card-play rules of docs/rules.md step 10, once, on a PlayState.
# Included by _fastdeal.pyx after _cards.pxi; the structs are declared in _fastdeal.pxd.
#
# The engine (run_deal) plays every trick through these functions; a search makes and
# unmakes cards with play_card / undo_card.  Nothing here allocates or touches Python:
# a state is a fixed block (about 600 bytes, most of it the undo stack), a card played is
# a few dozen instructions and its undo as many.  The Python twin is
# thousand.reference.play; tests/test_play_layer.py holds the two together.
#
# Contract:
# - play_start sets a deal's play up before the first lead; a position further on is
#   reached by playing its cards (the state then holds the undo records of all of them).
# - legal_cards / declarable_cards / trick_winner only read.
# - play_card plays one card of the seat to move.  The caller passes a card of
#   legal_cards and sets declare only for a card of declarable_cards (neither is checked:
#   the strategies and the search choose from those masks).  It returns the winner's seat
#   when the card closes a trick, else -1.
# - undo_card takes back the last card played by play_card and restores every field
#   exactly (trump, points, marriages, voids, the trick and its winner, the stale trick
#   slots included); only the undo records at and above n_played are scratch.
#   play_card_no_undo is play_card without the undo record (n_played stays), for a caller
#   that never takes a card back (the engine): same rules, a dozen stores fewer.


cdef inline void play_rules_from(PlayRules* pr, const int32_t* r) noexcept nogil:
    """Fill ``pr`` from the flattened rules (R_* indices)."""
    pr.must_trump = r[R_MUST_TRUMP] > 0
    pr.must_beat = r[R_MUST_BEAT] > 0
    pr.marriage_first_trick = r[R_MARRIAGE_FIRST_TRICK] > 0
    pr.ace_marriage = r[R_ACE_MARRIAGE] if r[R_ACE_MARRIAGE] > 0 else 0
    pr.ace_marriage_sets_trump = r[R_ACE_MARRIAGE_SETS_TRUMP] > 0
    pr.last_trick_bonus = r[R_LAST_TRICK_BONUS]
    pr.n_active = 2 if r[R_PLAYERS] == 2 else 3
    pr.n_tricks = 10 if r[R_PLAYERS] == 2 else 8


cdef inline void play_start(PlayState* ps, const PlayRules* pr, const uint32_t* hands,
                            const int32_t* active, int32_t leader,
                            int32_t set_aside_points) noexcept nogil:
    """The play of a deal before the first lead: ``hands`` by seat (4 entries), ``active``
    the ``pr.n_active`` seats that play in order from the forehand, ``leader`` the
    declarer, no trump, nothing won yet."""
    cdef int32_t s, i
    for s in range(4):
        ps.hands[s] = hands[s]
        ps.voids[s] = 0
        ps.points[s] = 0
        ps.marriages[s] = 0
        ps.bonus[s] = 0
        ps.tricks[s] = 0
        ps.next_seat[s] = -1
        ps.trick_cards[s] = -1
        ps.trick_seats[s] = -1
    for i in range(3):
        ps.active[i] = active[i] if i < pr.n_active else -1
    # the active seats in a ring (written out: this runs once a deal)
    if pr.n_active == 3:
        ps.next_seat[active[0]] = active[1]
        ps.next_seat[active[1]] = active[2]
        ps.next_seat[active[2]] = active[0]
    else:
        ps.next_seat[active[0]] = active[1]
        ps.next_seat[active[1]] = active[0]
    ps.played = 0
    ps.leader = leader
    ps.turn = leader
    ps.trump = -1
    ps.trick_index = 0
    ps.trick_n = 0
    ps.led = -1
    ps.best = -1
    ps.best_seat = -1
    ps.trick_points = 0
    ps.set_aside_points = set_aside_points
    ps.n_played = 0


cdef inline uint32_t legal_cards(const PlayState* ps, const PlayRules* pr) noexcept nogil:
    """The cards the seat to move may play: follow suit (with ``must_beat``, beat the best
    card of the led suit while it leads the trick, if he can); void, trump when
    ``must_trump`` and a trump is set (no duty to over-trump); else anything."""
    cdef uint32_t h = ps.hands[ps.turn]
    cdef uint32_t follow, higher
    if ps.trick_n == 0:
        return h
    follow = h & SUIT_MASK_C[ps.led]
    if follow:
        if pr.must_beat and SUIT_OF[ps.best] == ps.led:
            higher = follow & ~((<uint32_t>2 << ps.best) - 1)
            if higher:
                return higher
        return follow
    if ps.trump >= 0 and pr.must_trump and (h & SUIT_MASK_C[ps.trump]):
        return h & SUIT_MASK_C[ps.trump]
    return h


cdef inline uint32_t declarable_cards(const PlayState* ps, const PlayRules* pr) noexcept nogil:
    """The cards the seat to move may lead with a declaration: only a leader, from trick 1
    on (trick 0 too with ``marriage_first_trick``), the queen or king of a marriage he
    holds, or with ``ace_marriage`` any ace while he holds all four."""
    cdef uint32_t h, m, d
    if ps.trick_n != 0 or (ps.trick_index == 0 and not pr.marriage_first_trick):
        return 0
    h = ps.hands[ps.turn]
    m = marriage_bits(h)
    d = (m << 2) | (m << 3)
    if pr.ace_marriage > 0 and (h & ACES) == ACES:
        d |= ACES
    return d


cdef inline bint card_beats(int32_t card, int32_t best, int32_t trump) noexcept nogil:
    """Does ``card`` take the trick from ``best``: higher in its suit, or a trump on a
    card of another suit.  (Cards of one suit are numbered in rank order.)"""
    if SUIT_OF[card] == SUIT_OF[best]:
        return card > best
    return SUIT_OF[card] == trump


cdef inline int32_t trick_winner(const PlayState* ps) noexcept nogil:
    """The seat winning the trick in progress so far (the highest trump, else the highest
    card of the led suit); -1 before its lead."""
    return ps.best_seat if ps.trick_n > 0 else -1


cdef inline int32_t _play_card(PlayState* ps, const PlayRules* pr, int32_t card, int32_t declare,
                               const bint record) noexcept nogil:
    # The one body of play_card and play_card_no_undo; ``record`` is a constant at both
    # call sites, so the compiler keeps or drops the undo record's stores.
    cdef int32_t seat = ps.turn
    cdef int32_t k = ps.trick_n
    cdef int32_t suit = SUIT_OF[card]
    cdef int32_t value, w
    cdef uint32_t bit = <uint32_t>1 << card
    cdef PlayUndo* u = &ps.undo[ps.n_played]
    if record:
        ps.n_played += 1
        u.card = <int8_t>card
        u.seat = <int8_t>seat
        u.voids_before = ps.voids[seat]
        u.trump_before = <int8_t>ps.trump
        u.led_before = <int8_t>ps.led
        u.best_before = <int8_t>ps.best
        u.best_seat_before = <int8_t>ps.best_seat
        u.slot_card_before = <int8_t>ps.trick_cards[k]
        u.slot_seat_before = <int8_t>ps.trick_seats[k]
        u.marriage = 0
    ps.hands[seat] &= ~bit
    ps.played |= bit
    ps.trick_cards[k] = card
    ps.trick_seats[k] = seat
    ps.trick_points += CARD_POINTS_C[card]
    if record:
        u.trick_points = <int16_t>ps.trick_points
    if k == 0:
        ps.led = suit
        ps.best = card
        ps.best_seat = seat
        if declare:
            # a marriage scores its suit's value and makes it trump; the ace marriage
            # scores the rules' value and sets trump only with ace_marriage_sets_trump
            if card - 6 * suit == 5:
                value = pr.ace_marriage
                if pr.ace_marriage_sets_trump:
                    ps.trump = suit
            else:
                value = MARRIAGE_VALUE[suit]
                ps.trump = suit
            ps.marriages[seat] += value
            if record:
                u.marriage = <int16_t>value
    else:
        # a seat that does not follow shows a void in the led suit, and (when he had to
        # trump and did not) in trumps too
        if suit != ps.led:
            ps.voids[seat] |= SUIT_MASK_C[ps.led]
            if ps.trump >= 0 and suit != ps.trump and pr.must_trump:
                ps.voids[seat] |= SUIT_MASK_C[ps.trump]
        if card_beats(card, ps.best, ps.trump):
            ps.best = card
            ps.best_seat = seat
    if k + 1 < pr.n_active:
        ps.trick_n = k + 1
        ps.turn = ps.next_seat[seat]
        return -1
    # the card closes the trick: its winner takes the points and leads the next
    w = ps.best_seat
    ps.tricks[w] += 1
    ps.points[w] += ps.trick_points
    ps.trick_points = 0
    ps.trick_n = 0
    ps.trick_index += 1
    ps.leader = w
    ps.turn = w
    if ps.trick_index == pr.n_tricks:
        ps.bonus[w] += pr.last_trick_bonus
        ps.points[w] += ps.set_aside_points
    return w


cdef inline int32_t play_card(PlayState* ps, const PlayRules* pr, int32_t card,
                              int32_t declare) noexcept nogil:
    """Play ``card`` (of legal_cards) for the seat to move, declaring with it when
    ``declare`` (only for a card of declarable_cards).  Returns the seat that won the trick
    when the card closes one, else -1.  undo_card takes it back."""
    return _play_card(ps, pr, card, declare, True)


cdef inline int32_t play_card_no_undo(PlayState* ps, const PlayRules* pr, int32_t card,
                                      int32_t declare) noexcept nogil:
    """play_card without the undo record (``n_played`` does not move): for a caller that
    never takes a card back."""
    return _play_card(ps, pr, card, declare, False)


cdef inline void undo_card(PlayState* ps, const PlayRules* pr) noexcept nogil:
    """Take back the last card played by play_card (``ps.n_played > 0``): every field is
    as it was before it."""
    cdef PlayUndo* u
    cdef int32_t card, seat, w, k
    ps.n_played -= 1
    u = &ps.undo[ps.n_played]
    card = u.card
    seat = u.seat
    if ps.trick_n == 0:
        # the card closed a trick: its winner (who leads now) gives it back
        w = ps.leader
        if ps.trick_index == pr.n_tricks:
            ps.bonus[w] -= pr.last_trick_bonus
            ps.points[w] -= ps.set_aside_points
        ps.trick_index -= 1
        ps.tricks[w] -= 1
        ps.points[w] -= u.trick_points
        k = pr.n_active - 1
        ps.leader = ps.trick_seats[0]
    else:
        k = ps.trick_n - 1
    ps.trick_n = k
    ps.trick_points = u.trick_points - CARD_POINTS_C[card]
    ps.trick_cards[k] = u.slot_card_before
    ps.trick_seats[k] = u.slot_seat_before
    ps.hands[seat] |= <uint32_t>1 << card
    ps.played &= ~(<uint32_t>1 << card)
    ps.voids[seat] = u.voids_before
    ps.trump = u.trump_before
    ps.led = u.led_before
    ps.best = u.best_before
    ps.best_seat = u.best_seat_before
    ps.marriages[seat] -= u.marriage
    ps.turn = seat
