# cython: language_level=3
"""The compiled kernel of ``thousand``: plays Thousand deals and games without the GIL.

The engine follows docs/rules.md exactly (the reference engine ``thousand.reference`` is
its readable twin; the parity tests replay kernel traces through it).  It only computes:
``thousand.kernel`` validates inputs, allocates the output buffers and converts them to
the columns of ``thousand.schema`` and to ``thousand.trace`` objects.

Pieces (textually included):

* ``_cards.pxi``      card masks, points, marriages, lookup tables
* ``_rng.pxi``        bounded draws and the shuffle on a numpy bit generator
* ``_play.pxi``       the card-play rules on a PlayState: legal cards, declarations,
  play and undo a card, the trick winner
* ``_strategies.pxi`` the strategies, one function per decision on a ``View``
* ``_engine.pxi``     one deal, and the game bookkeeping after each deal
* ``_solver.pxi``     the open-hand solver over the play layer, and its batch entries
"""
import contextlib

from cpython.exc cimport PyErr_CheckSignals
from cpython.pycapsule cimport PyCapsule_GetPointer, PyCapsule_IsValid
from libc.string cimport memset, memcpy, memcmp
from libc.stdint cimport int8_t, int16_t, int32_t, int64_t, uint8_t, uint32_t, uint64_t, uintptr_t
from numpy.random cimport bitgen_t

# The module is built as thousand._fastdeal, so Cython does not pair it with
# src/_fastdeal.pxd by name: the declarations are included textually.
include "_fastdeal.pxd"
include "_cards.pxi"
include "_rng.pxi"
include "_play.pxi"
include "_strategies.pxi"
include "_engine.pxi"

# The open-hand solver (issue 13): its own file, included once; it only calls the play layer.
include "_solver.pxi"
# The search player pimc (issue 14): worlds solved with the solver's entry points.
include "_pimc.pxi"

KERNEL_VERSION = 1

# ------------------------------------------------------------------ output columns
# Deal rows are written straight into the numpy columns of thousand.schema (the per-seat
# columns of the table's seats only).
cdef struct DealCols:
    int64_t* deal_id
    int64_t* game_id
    int16_t* deal_no
    int8_t* dealer
    uint32_t* hand[4]
    uint32_t* talon
    uint32_t* talon2
    int8_t* redeal
    int8_t* redeal_by
    uint8_t* blind
    int16_t* bid[4]
    int16_t* n_bids
    int8_t* declarer
    uint8_t* obligation
    int16_t* winning_bid
    int16_t* contract
    uint8_t* resigned
    int8_t* handoff_next
    int8_t* handoff_other
    int16_t* points[4]
    int16_t* marriages[4]
    int8_t* tricks[4]
    int16_t* declarer_points
    uint8_t* made
    int16_t* score[4]
    uint8_t* bolt[4]
    int32_t* total[4]
    int8_t* forehand


cdef inline void store_row(DealCols* k, int64_t i, DealRow* row, int32_t seats) noexcept nogil:
    cdef int32_t s
    k.deal_id[i] = row.deal_id
    k.game_id[i] = row.game_id
    k.deal_no[i] = <int16_t>row.deal_no
    k.dealer[i] = <int8_t>row.dealer
    k.talon[i] = row.talon
    k.talon2[i] = row.talon2
    k.redeal[i] = <int8_t>row.redeal
    k.redeal_by[i] = <int8_t>row.redeal_by
    k.blind[i] = row.blind != 0
    k.n_bids[i] = <int16_t>row.n_bids
    k.declarer[i] = <int8_t>row.declarer
    k.obligation[i] = row.obligation != 0
    k.winning_bid[i] = <int16_t>row.winning_bid
    k.contract[i] = <int16_t>row.contract
    k.resigned[i] = row.resigned != 0
    k.handoff_next[i] = <int8_t>row.handoff_next
    k.handoff_other[i] = <int8_t>row.handoff_other
    k.declarer_points[i] = <int16_t>row.declarer_points
    k.made[i] = row.made != 0
    k.forehand[i] = <int8_t>row.forehand
    for s in range(seats):
        k.hand[s][i] = row.hand[s]
        k.bid[s][i] = <int16_t>row.bid[s]
        k.points[s][i] = <int16_t>row.points[s]
        k.marriages[s][i] = <int16_t>row.marriages[s]
        k.tricks[s][i] = <int8_t>row.tricks[s]
        k.score[s][i] = <int16_t>row.score[s]
        k.bolt[s][i] = row.bolt[s] != 0
        k.total[s][i] = row.total[s]


cdef void* _col(dict cols, str name, int itemsize) except NULL:
    arr = cols[name]
    if arr.dtype.itemsize != itemsize or not arr.flags.c_contiguous or not arr.flags.writeable:
        raise ValueError(f"column {name}: expected a writable contiguous array of {itemsize}-byte items")
    return <void*><uintptr_t>arr.ctypes.data


cdef int bind_deal_cols(DealCols* k, dict cols, int seats) except -1:
    cdef int s
    k.deal_id = <int64_t*>_col(cols, "deal_id", 8)
    k.game_id = <int64_t*>_col(cols, "game_id", 8)
    k.deal_no = <int16_t*>_col(cols, "deal_no", 2)
    k.dealer = <int8_t*>_col(cols, "dealer", 1)
    k.talon = <uint32_t*>_col(cols, "talon", 4)
    k.talon2 = <uint32_t*>_col(cols, "talon2", 4)
    k.redeal = <int8_t*>_col(cols, "redeal", 1)
    k.redeal_by = <int8_t*>_col(cols, "redeal_by", 1)
    k.blind = <uint8_t*>_col(cols, "blind", 1)
    k.n_bids = <int16_t*>_col(cols, "n_bids", 2)
    k.declarer = <int8_t*>_col(cols, "declarer", 1)
    k.obligation = <uint8_t*>_col(cols, "obligation", 1)
    k.winning_bid = <int16_t*>_col(cols, "winning_bid", 2)
    k.contract = <int16_t*>_col(cols, "contract", 2)
    k.resigned = <uint8_t*>_col(cols, "resigned", 1)
    k.handoff_next = <int8_t*>_col(cols, "handoff_next", 1)
    k.handoff_other = <int8_t*>_col(cols, "handoff_other", 1)
    k.declarer_points = <int16_t*>_col(cols, "declarer_points", 2)
    k.made = <uint8_t*>_col(cols, "made", 1)
    k.forehand = <int8_t*>_col(cols, "forehand", 1)
    for s in range(seats):
        k.hand[s] = <uint32_t*>_col(cols, f"hand{s}", 4)
        k.bid[s] = <int16_t*>_col(cols, f"bid{s}", 2)
        k.points[s] = <int16_t*>_col(cols, f"points{s}", 2)
        k.marriages[s] = <int16_t*>_col(cols, f"marriages{s}", 2)
        k.tricks[s] = <int8_t*>_col(cols, f"tricks{s}", 1)
        k.score[s] = <int16_t*>_col(cols, f"score{s}", 2)
        k.bolt[s] = <uint8_t*>_col(cols, f"bolt{s}", 1)
        k.total[s] = <int32_t*>_col(cols, f"total{s}", 4)
    return 0


#: Mirror of thousand.rules.RuleField (tests compare them).
RULE_FIELDS = {
    "PLAYERS": R_PLAYERS, "TARGET": R_TARGET, "MAX_DEALS": R_MAX_DEALS, "BID_STEP": R_BID_STEP,
    "BID_CAP": R_BID_CAP, "TALON_FACE_DOWN_ON_OBLIGATION": R_TALON_FACE_DOWN_ON_OBLIGATION,
    "REDEAL_HAND_POINTS_MAX": R_REDEAL_HAND_POINTS_MAX, "REDEAL_HAND_NINES": R_REDEAL_HAND_NINES,
    "REDEAL_HAND_JACKS": R_REDEAL_HAND_JACKS, "REDEAL_TALON_POINTS_MAX": R_REDEAL_TALON_POINTS_MAX,
    "REDEAL_TALON_NINES": R_REDEAL_TALON_NINES, "REDEAL_TALON_JACKS": R_REDEAL_TALON_JACKS,
    "REDEAL_TALON_BY": R_REDEAL_TALON_BY,
    "REDEAL_FOUR_NINES_AFTER_EXCHANGE": R_REDEAL_FOUR_NINES_AFTER_EXCHANGE, "RESIGN": R_RESIGN,
    "MUST_TRUMP": R_MUST_TRUMP, "MUST_BEAT": R_MUST_BEAT, "MARRIAGE_FIRST_TRICK": R_MARRIAGE_FIRST_TRICK,
    "ACE_MARRIAGE": R_ACE_MARRIAGE, "ACE_MARRIAGE_SETS_TRUMP": R_ACE_MARRIAGE_SETS_TRUMP,
    "LAST_TRICK_BONUS": R_LAST_TRICK_BONUS, "ROUND_DEFENDERS": R_ROUND_DEFENDERS, "BOLTS": R_BOLTS,
    "BOLT_WHEN": R_BOLT_WHEN, "BOLT_PENALTY": R_BOLT_PENALTY, "BARREL_AT": R_BARREL_AT,
    "BARREL_DEALS": R_BARREL_DEALS, "BARREL_TARGET": R_BARREL_TARGET, "BARREL_PENALTY": R_BARREL_PENALTY,
    "BARREL_BID_MIN": R_BARREL_BID_MIN, "BARREL_TAKES_TALON": R_BARREL_TAKES_TALON,
    "BARREL_THIRD_RESET": R_BARREL_THIRD_RESET, "SAMOZVAL_555": R_SAMOZVAL_555, "BLIND": R_BLIND,
    "GOLDEN_KON": R_GOLDEN_KON, "CUT_NINE_PENALTY": R_CUT_NINE_PENALTY, "DEALER_SCORES": R_DEALER_SCORES,
}
N_RULES = N_RULE_FIELDS
#: Mirror of thousand.trace.EventKind.
EVENT_KINDS = {"CUT": EV_CUT, "BLIND": EV_BLIND, "REDEAL": EV_REDEAL, "BID": EV_BID,
               "TALON": EV_TALON, "HAND_OFF": EV_HAND_OFF, "CONTRACT": EV_CONTRACT, "PLAY": EV_PLAY}
#: Choice codes (thousand.rules.CHOICES order).
CHOICE_CODES = {
    "bid_cap": {"none": BIDCAP_NONE, "marriages": BIDCAP_MARRIAGES},
    "redeal_talon_by": {"declarer": TALONBY_DECLARER, "obligation": TALONBY_OBLIGATION},
    "resign": {"none": RESIGN_NONE, "half_bid": RESIGN_HALF_BID, "sixty": RESIGN_SIXTY,
               "sixty_two_free": RESIGN_SIXTY_TWO_FREE},
    "bolts": {"off": BOLTS_OFF, "always": BOLTS_ALWAYS, "not_on_barrel": BOLTS_NOT_ON_BARREL},
    "bolt_when": {"no_tricks": BOLTWHEN_NO_TRICKS, "zero_points": BOLTWHEN_ZERO_POINTS},
    "dealer_scores": {"talon_points": DEALER_TALON_POINTS, "aces_40": DEALER_ACES_40},
}
#: Strategy codes (thousand.strategies mirrors them).
STRATEGY_CODES = {"random": S_RANDOM, "greedy": S_GREEDY, "standard": S_STANDARD,
                  "cautious": S_CAUTIOUS, "aggressive": S_AGGRESSIVE, "pimc": S_PIMC}
#: The dispatchers' branches (_strategies.pxi, strategy_branch).
STRATEGY_BRANCHES = {"random": B_RANDOM, "greedy": B_GREEDY, "sensible": B_SENSIBLE, "pimc": B_PIMC}
N_STRATEGY_PARAMS = N_PARAMS
REDEAL_CODES = {"none": REDEAL_NONE, "hand": REDEAL_HAND, "talon": REDEAL_TALON,
                "four_nines": REDEAL_FOUR_NINES}
DECISION_KINDS = {"blind": D_BLIND, "redeal": D_REDEAL, "bid": D_BID, "hand_off": D_HAND_OFF,
                  "raise": D_RAISE, "play": D_PLAY}
RESIGN_CODE = RESIGNED
EVENT_COLUMNS = EVENT_WIDTH


def deal_row_size():
    """``sizeof(DealRow)``: thousand.kernel checks its numpy dtype against it."""
    return sizeof(DealRow)


def game_row_size():
    return sizeof(GameRow)


def view_size():
    return sizeof(View)


cdef bitgen_t* get_bitgen(object bitgen) except NULL:
    capsule = bitgen.capsule
    if not PyCapsule_IsValid(capsule, "BitGenerator"):
        raise TypeError("bitgen must be a numpy BitGenerator (e.g. numpy.random.PCG64)")
    cdef bitgen_t* rng = <bitgen_t*>PyCapsule_GetPointer(capsule, "BitGenerator")
    check_pcg64(bitgen, rng)
    return rng


cdef enum:
    # The forced runs (thousand bid) look for Ctrl-C every 64 completions: about 50 µs of
    # `standard` play, under a second of pimc's searching; the GIL round trip costs well
    # under 1% at that rate.
    SIGNAL_MASK = 63


cdef class Engine:
    """A kernel run: the random stream, the flattened rules, the seats' strategies, and
    (between calls) the state of an unfinished game.  Calls fill caller-owned buffers and
    stop early when a buffer is nearly full, so the caller can grow it and call again.
    """
    cdef Ctx c
    cdef object bitgen
    cdef object decisions           # the strategies' own stream when separate, else None
    cdef object workspaces          # per seat: the numpy buffer its Seat.work points into
    cdef public int64_t next_deal_id
    cdef public int64_t next_game_id
    cdef public int64_t played
    cdef int32_t game_running
    cdef public int32_t max_events_per_deal
    cdef public int64_t redeals_in_a_row
    cdef public int64_t max_redeals

    def __init__(self, bitgen, const int32_t[::1] rules, const int32_t[::1] strategies,
                 const double[:, ::1] params, decisions=None, workspaces=None):
        """``bitgen`` is the chance stream; the strategies draw from it too unless
        ``decisions`` (another bit generator) is given: then they draw from that, and the
        chance of every deal is keyed by (game, deal, attempt) on ``bitgen`` (whose own
        state is then only read).  ``workspaces``: None, or per seat a writable uint8
        array (or None) that the seat's strategy may use as scratch."""
        cdef int32_t i
        cdef bitgen_t* drng
        cdef unsigned char[::1] w
        cdef unsigned char* wp
        cdef int64_t wn
        memset(&self.c, 0, sizeof(Ctx))
        if rules.shape[0] != N_RULE_FIELDS:
            raise ValueError(f"rules must have {N_RULE_FIELDS} entries")
        if strategies.shape[0] < 4 or params.shape[0] < 4 or params.shape[1] != N_PARAMS:
            raise ValueError(f"strategies and params must cover 4 seats ({N_PARAMS} parameters each)")
        for i in range(N_RULE_FIELDS):
            self.c.r[i] = rules[i]
        if self.c.r[R_BID_STEP] <= 0:
            raise ValueError("the bid step must be positive")
        self.c.step_inverse = (<uint64_t>1 << 32) // <uint64_t>self.c.r[R_BID_STEP] + 1
        play_rules_from(&self.c.play, self.c.r)
        self.bitgen = bitgen
        self.c.rng = get_bitgen(bitgen)
        drng = self.c.rng
        self.decisions = None
        if decisions is not None:
            if decisions is bitgen:
                raise ValueError("decisions must be another bit generator than the chance stream")
            if FAST_PCG64 == NULL or <void*>self.c.rng.next_uint64 != FAST_PCG64:
                raise ValueError("separate streams need numpy's PCG64 as the chance stream")
            self.decisions = decisions
            drng = get_bitgen(decisions)
            self.c.keyed = 1
            keyed_start(&self.c.key, (<td_pcg64_state*>self.c.rng.state).pcg)
            self.c.rng = &self.c.key.bitgen
        self.workspaces = [None] * 4
        for i in range(4):
            wp = NULL
            wn = 0
            if workspaces is not None and workspaces[i] is not None:
                w = workspaces[i]
                self.workspaces[i] = workspaces[i]
                wn = w.shape[0]
                wp = &w[0] if wn > 0 else NULL
            seat_init(&self.c.seats[i], strategies[i], i, &params[i, 0], self.c.r, &self.c.play, drng, wp, wn)
        self.c.ev = NULL
        self.c.g.sitter = -1
        self.next_deal_id = 0
        self.next_game_id = 0
        self.played = 0
        self.game_running = 0
        self.redeals_in_a_row = 0
        self.max_redeals = 10000
        cap = 120 + 280 + max(0, rules[R_ACE_MARRIAGE]) + rules[R_LAST_TRICK_BONUS]
        self.max_events_per_deal = (cap - 100) // rules[R_BID_STEP] + 64

    def _locks(self):
        """The streams' locks, held while the kernel draws (one, or two when separate)."""
        if self.decisions is None:
            return self.bitgen.lock, contextlib.nullcontext()
        return self.bitgen.lock, self.decisions.lock

    @property
    def separate_streams(self):
        """True when the strategies draw from their own stream (chance keyed per deal)."""
        return self.c.keyed != 0

    cdef void _reset_deal_only(self) noexcept nogil:
        cdef int32_t s
        for s in range(4):
            self.c.g.score[s] = 0
            self.c.g.bolts[s] = 0
            self.c.g.resigns[s] = 0
        self.c.g.sitter = -1
        self.c.g.in_game = 0

    def log_views(self, unsigned char[::1] buf):
        """Record the View of every decision into ``buf`` (``None`` stops); for tests."""
        if buf is None:
            self.c.vlog = NULL
            self.c.cap_vlog = 0
        else:
            self.c.vlog = <View*>&buf[0]
            self.c.cap_vlog = buf.shape[0] // sizeof(View)
        self.c.n_vlog = 0

    @property
    def n_views(self):
        return self.c.n_vlog

    def run_deals(self, int64_t n_deals, dict cols, int64_t capacity, int32_t[:, ::1] events,
                  int64_t n_rows, int64_t n_events, const int64_t[::1] chosen=None):
        """Play until ``n_deals`` deals have been played in total or a buffer is nearly full.

        With ``events``, deals are traced: all of them, or (``chosen``, sorted played-deal
        indices) only those, with the redeals before them.  Rows go to ``cols`` (numpy columns of ``capacity`` rows, four seats' worth) from row
        ``n_rows``.  Returns ``(n_rows, n_events)``; ``self.played`` counts played deals.
        """
        cdef DealCols k
        cdef DealRow row
        cdef int64_t ev_cap = 0
        cdef int32_t n = self.c.r[R_PLAYERS]
        cdef int32_t mev = self.max_events_per_deal
        cdef int32_t s
        cdef int32_t* ev_base = NULL
        cdef const int64_t* pick = NULL
        cdef int64_t n_pick = 0, at = 0
        cdef bint select = chosen is not None
        bind_deal_cols(&k, cols, n)
        if events is not None:
            ev_cap = events.shape[0]
            ev_base = &events[0, 0]
        if chosen is not None and chosen.shape[0] > 0:
            pick = &chosen[0]
            n_pick = chosen.shape[0]
        self.c.ev = ev_base
        self.c.n_ev = n_events
        lock_chance, lock_decisions = self._locks()
        with lock_chance, lock_decisions, nogil:
            while self.played < n_deals and n_rows < capacity:
                if ev_base != NULL and ev_cap - self.c.n_ev < mev:
                    break
                if ev_base != NULL and select:
                    while at < n_pick and pick[at] < self.played:
                        at += 1
                    self.c.ev = ev_base if (at < n_pick and pick[at] == self.played) else NULL
                if self.redeals_in_a_row >= self.max_redeals:
                    break
                self._reset_deal_only()
                self.c.g.dealer = <int32_t>(self.played % n)
                if self.c.keyed:
                    keyed_deal(&self.c.key, self.redeals_in_a_row > 0)
                row.deal_id = self.next_deal_id
                row.game_id = -1
                row.deal_no = 0
                self.c.row_index = n_rows
                if run_deal(&self.c, &row, 0):
                    self.played += 1
                    self.redeals_in_a_row = 0
                else:
                    self.redeals_in_a_row += 1
                store_row(&k, n_rows, &row, n)
                n_rows += 1
                self.next_deal_id += 1
        n_events = self.c.n_ev
        self.c.ev = NULL
        return n_rows, n_events

    def run_games(self, int64_t n_games, unsigned char[::1] games, int64_t n_game_rows,
                  dict cols, int64_t capacity, int64_t n_rows, int32_t[:, ::1] events,
                  int64_t n_events, const int64_t[::1] chosen=None):
        """Play whole games until ``n_games`` are finished or a buffer is nearly full.

        ``cols`` (deal rows, as in :meth:`run_deals`) and ``events`` may be None.  Returns
        ``(n_game_rows, n_rows, n_events)``.  With ``events``, every game is traced, or
        (``chosen``, sorted game indices) only those.
        """
        cdef int64_t game_cap = games.shape[0] // sizeof(GameRow)
        cdef GameRow* gbase = <GameRow*>&games[0]
        cdef DealCols k
        cdef DealRow row
        cdef int64_t ev_cap = 0
        cdef int32_t mev = self.max_events_per_deal
        cdef int32_t golden, s
        cdef int32_t keep_rows = cols is not None
        cdef int32_t* ev_base = NULL
        cdef const int64_t* pick = NULL
        cdef int64_t n_pick = 0, at = 0
        cdef bint select = chosen is not None
        if keep_rows:
            bind_deal_cols(&k, cols, self.c.r[R_PLAYERS])
        if events is not None:
            ev_cap = events.shape[0]
            ev_base = &events[0, 0]
        if chosen is not None and chosen.shape[0] > 0:
            pick = &chosen[0]
            n_pick = chosen.shape[0]
        self.c.ev = ev_base
        self.c.n_ev = n_events
        lock_chance, lock_decisions = self._locks()
        with lock_chance, lock_decisions, nogil:
            while n_game_rows < n_games and n_game_rows < game_cap:
                if keep_rows and n_rows >= capacity:
                    break
                if self.redeals_in_a_row >= self.max_redeals:
                    break
                if ev_base != NULL and ev_cap - self.c.n_ev < mev:
                    break
                if ev_base != NULL and select:
                    while at < n_pick and pick[at] < self.next_game_id:
                        at += 1
                    self.c.ev = ev_base if (at < n_pick and pick[at] == self.next_game_id) else NULL
                if not self.game_running:
                    start_game(&self.c, self.next_game_id)
                    self.game_running = 1
                row.deal_id = self.next_deal_id
                row.game_id = self.next_game_id
                row.deal_no = self.c.g.deal_no
                self.c.row_index = n_rows
                golden = self.c.r[R_GOLDEN_KON] > 0 and self.c.g.deal_no < 3
                if self.c.keyed:
                    keyed_deal(&self.c.key, self.redeals_in_a_row > 0)
                if run_deal(&self.c, &row, golden):
                    apply_deal(&self.c, &row)
                    self.redeals_in_a_row = 0
                else:
                    self.redeals_in_a_row += 1
                    self.c.g.row.redeals += 1
                    reset_555(&self.c)
                    for s in range(4):
                        row.total[s] = self.c.g.score[s]
                self.next_deal_id += 1
                if keep_rows:
                    store_row(&k, n_rows, &row, self.c.r[R_PLAYERS])
                    n_rows += 1
                if self.c.g.finished:
                    memcpy(gbase + n_game_rows, &self.c.g.row, sizeof(GameRow))
                    n_game_rows += 1
                    self.next_game_id += 1
                    self.game_running = 0
        n_events = self.c.n_ev
        self.c.ev = NULL
        return n_game_rows, n_rows, n_events

    def run_forced(self, uint32_t hand, int32_t declarer, int32_t contract, int64_t n_samples,
                   bint exact, uint32_t[::1] talon_out, int16_t[::1] raise_out,
                   int16_t[:, ::1] points_out, int16_t[:, ::1] marriages_out,
                   int16_t[::1] declarer_points_out, int8_t[::1] bolt_out, unsigned char[::1] rows):
        """Forced-declarer completions (see thousand.kernel.play_forced_declarer)."""
        cdef int32_t unseen[17]
        cdef int32_t i, j, k, t, a, b, cc
        cdef int32_t dealer = 0
        cdef int64_t idx = 0
        cdef DealRow* row = <DealRow*>&rows[0]
        cdef uint32_t rest, split, m
        cdef int32_t rest_cards[14]
        cdef int32_t pos1, pos2
        cdef uint32_t* tp = &talon_out[0]
        cdef int16_t* rp = &raise_out[0]
        cdef int16_t* pp = &points_out[0, 0]
        cdef int16_t* mp = &marriages_out[0, 0]
        cdef int16_t* dp = &declarer_points_out[0]
        cdef int8_t* bp = &bolt_out[0]
        self.c.forced = 1
        self.c.forced_declarer = declarer
        self.c.forced_contract = contract
        self.c.play_out_resigned = 1
        self.c.ev = NULL
        self._reset_deal_only()
        self.c.g.dealer = dealer
        place_known_hand(&self.c, hand, declarer, unseen, &pos1, &pos2)
        lock_chance, lock_decisions = self._locks()
        try:
            with lock_chance, lock_decisions, nogil:
                if not exact:
                    for idx in range(n_samples):
                        if (idx & SIGNAL_MASK) == SIGNAL_MASK:
                            with gil:
                                PyErr_CheckSignals()
                        deal_unseen(&self.c, unseen, pos1, pos2)
                        _forced_one(&self.c, row, idx, tp, rp, pp, mp, dp, bp)
                else:
                    idx = 0
                    for a in range(17):
                        for b in range(a + 1, 17):
                            for cc in range(b + 1, 17):
                                self.c.forced_deck[21] = unseen[a]
                                self.c.forced_deck[22] = unseen[b]
                                self.c.forced_deck[23] = unseen[cc]
                                k = 0
                                for i in range(17):
                                    if i != a and i != b and i != cc:
                                        rest_cards[k] = unseen[i]
                                        k += 1
                                # all 7-subsets of 14 via Gosper's hack
                                split = (1 << 7) - 1
                                while split < (1 << 14):
                                    j = 0
                                    t = 0
                                    for i in range(14):
                                        if (split >> i) & 1:
                                            self.c.forced_deck[pos1 + j] = rest_cards[i]
                                            j += 1
                                        else:
                                            self.c.forced_deck[pos2 + t] = rest_cards[i]
                                            t += 1
                                    if (idx & SIGNAL_MASK) == SIGNAL_MASK:
                                        with gil:
                                            PyErr_CheckSignals()
                                    _forced_one(&self.c, row, idx, tp, rp, pp, mp, dp, bp)
                                    idx += 1
                                    m = split & (~split + 1)
                                    rest = split + m
                                    split = (((rest ^ split) >> 2) // m) | rest
        finally:
            self.c.forced = 0
            self.c.play_out_resigned = 0
        return idx if exact else n_samples


    def run_pass(self, uint32_t hand, int32_t seat, int64_t n_samples, int16_t[::1] score_out,
                 int8_t[::1] declarer_out, int16_t[::1] bid_out, int8_t[::1] bolt_out,
                 int32_t[::1] redeals_out, unsigned char[::1] rows):
        """Forced-pass completions (see thousand.kernel.play_forced_pass)."""
        cdef int32_t unseen[17]
        cdef int32_t s, pos1, pos2
        cdef int64_t idx = 0
        cdef int32_t redeals = 0
        cdef int64_t tick = 0
        cdef DealRow* row = <DealRow*>&rows[0]
        self.c.pass_mode = 1
        self.c.pass_seat = seat
        self.c.play_out_resigned = 0
        self.c.ev = NULL
        self._reset_deal_only()
        self.c.g.dealer = 0
        place_known_hand(&self.c, hand, seat, unseen, &pos1, &pos2)
        lock_chance, lock_decisions = self._locks()
        try:
            with lock_chance, lock_decisions, nogil:
                idx = 0
                while idx < n_samples:
                    tick += 1
                    if (tick & SIGNAL_MASK) == 0:
                        with gil:
                            PyErr_CheckSignals()
                    deal_unseen(&self.c, unseen, pos1, pos2)
                    for s in range(4):
                        self.c.g.score[s] = 0
                        self.c.g.resigns[s] = 0
                    if not run_deal(&self.c, row, 0):
                        redeals += 1    # another seat asked for a redeal: a new completion
                        continue
                    score_out[idx] = <int16_t>row.score[seat]
                    declarer_out[idx] = <int8_t>row.declarer
                    bid_out[idx] = <int16_t>row.winning_bid
                    bolt_out[idx] = <int8_t>row.bolt[seat]
                    idx += 1
        finally:
            self.c.pass_mode = 0
            self.c.pass_seat = 0
        redeals_out[0] = redeals
        return n_samples


# deck blocks of the forced modes: [0:7] seat 1 (the forehand), [7:14] seat 2,
# [14:21] seat 0 (dealer 0), talon [21:24]
cdef inline int32_t block_of(int32_t seat) noexcept nogil:
    return ((seat + 2) % 3) * 7


cdef void place_known_hand(Ctx* c, uint32_t hand, int32_t seat, int32_t* unseen,
                           int32_t* pos1, int32_t* pos2) noexcept nogil:
    """Put ``hand`` into ``seat``'s block of ``c.forced_deck``; the 17 other cards go to
    ``unseen`` (ascending) and the blocks of the next and the other seat to pos1, pos2."""
    cdef int32_t i, k = 0, n_un = 0, at = block_of(seat)
    for i in range(24):
        if (hand >> i) & 1:
            c.forced_deck[at + k] = i
            k += 1
        else:
            unseen[n_un] = i
            n_un += 1
    pos1[0] = block_of((seat + 1) % 3)
    pos2[0] = block_of((seat + 2) % 3)


cdef void deal_unseen(Ctx* c, const int32_t* unseen, int32_t pos1, int32_t pos2) noexcept nogil:
    """A random completion: the 17 unseen cards shuffled (Fisher-Yates from the top, as
    docs/rules.md) into the talon and the two other blocks."""
    cdef int32_t perm[17]
    cdef int32_t i, j, tmp
    for i in range(17):
        perm[i] = unseen[i]
    for i in range(16, 0, -1):
        j = draw_bounded(c.rng, i + 1)
        tmp = perm[i]
        perm[i] = perm[j]
        perm[j] = tmp
    for i in range(3):
        c.forced_deck[21 + i] = perm[i]
    for i in range(7):
        c.forced_deck[pos1 + i] = perm[3 + i]
        c.forced_deck[pos2 + i] = perm[10 + i]


cdef inline void _forced_one(Ctx* c, DealRow* row, int64_t idx, uint32_t* talon_out,
                             int16_t* raise_out, int16_t* points_out,
                             int16_t* marriages_out, int16_t* dp_out, int8_t* bolt_out) noexcept nogil:
    cdef int32_t s
    run_deal(c, row, 0)
    bolt_out[idx] = <int8_t>row.bolt[c.forced_declarer]   # as played out, even when resigned
    talon_out[idx] = row.talon
    raise_out[idx] = <int16_t>c.raise_choice
    dp_out[idx] = <int16_t>row.declarer_points
    for s in range(3):
        points_out[idx * 3 + s] = <int16_t>(row.points[s] + row.marriages[s])
        marriages_out[idx * 3 + s] = <int16_t>row.marriages[s]


# ------------------------------------------------------------------ single decisions
# The View's fields in struct order (src/_fastdeal.pxd) with their lengths; every field is
# 4 bytes.  thousand.kernel builds its numpy VIEW_DTYPE from this list, and the module
# refuses to load if it does not add up to the struct (tests compare logged Views with the
# reference engine's field by field, which would catch a misordered list).
VIEW_FIELDS = (
    ("kind", 1), ("players", 1), ("seat", 1), ("dealer", 1), ("forehand", 1), ("n_active", 1),
    ("active", 3), ("hand", 1), ("redeal_kind", 1), ("step", 1), ("high", 1), ("high_seat", 1),
    ("min_bid", 1), ("max_bid", 1), ("bids", 4), ("passed", 4), ("declarer", 1), ("contract", 1),
    ("can_resign", 1), ("blind", 1), ("obligation", 1), ("talon", 1), ("played", 1),
    ("trick_index", 1), ("trick_n", 1), ("trick_cards", 4), ("trick_seats", 4), ("trump", 1),
    ("legal", 1), ("declarable", 1), ("points", 4), ("score", 4), ("sitter", 1), ("golden", 1),
    ("received", 1), ("given", 2), ("n_tricks", 1), ("marriage_points", 4), ("bolts", 4),
    ("resignations", 4), ("voids", 4), ("resign_cost", 1), ("resign_gift", 1),
    ("ace_marriage", 1), ("barrel_target", 1), ("barrel_contract", 1),
)
VIEW_UNSIGNED = frozenset({"hand", "talon", "played", "legal", "declarable", "voids"})


def _view_slots():
    """name -> (index of its first 4-byte slot, length, unsigned), checked against the struct."""
    cdef View v
    slots, at = {}, 0
    for name, length in VIEW_FIELDS:
        slots[name] = (at, length, name in VIEW_UNSIGNED)
        at += length
    # a few spot checks of the C layout besides the total size
    for name, offset in (("hand", <char*>&v.hand - <char*>&v), ("trick_cards", <char*>&v.trick_cards - <char*>&v),
                         ("voids", <char*>&v.voids - <char*>&v)):
        if slots[name][0] * 4 != offset:
            raise ImportError(f"thousand._fastdeal: VIEW_FIELDS puts {name!r} at the wrong place")
    if at * 4 != sizeof(View):
        raise ImportError("thousand._fastdeal: VIEW_FIELDS does not add up to the View struct")
    return slots


_VIEW_SLOTS = _view_slots()


def _check_play_view_block():
    """The engine copies the fields played .. trump from a PlayState to a View as one block
    (_engine.pxi, view_of_play): they must lie alike in both structs."""
    cdef View v
    cdef PlayState ps
    cdef Py_ssize_t vb = <char*>&v.played - <char*>&v
    cdef Py_ssize_t pb = <char*>&ps.played - <char*>&ps
    for name, vo, po in (("trick_index", <char*>&v.trick_index - <char*>&v, <char*>&ps.trick_index - <char*>&ps),
                         ("trick_n", <char*>&v.trick_n - <char*>&v, <char*>&ps.trick_n - <char*>&ps),
                         ("trick_cards", <char*>&v.trick_cards - <char*>&v, <char*>&ps.trick_cards - <char*>&ps),
                         ("trick_seats", <char*>&v.trick_seats - <char*>&v, <char*>&ps.trick_seats - <char*>&ps),
                         ("trump", <char*>&v.trump - <char*>&v, <char*>&ps.trump - <char*>&ps)):
        if vo - vb != po - pb:
            raise ImportError(f"thousand._fastdeal: PlayState and View place {name!r} differently")
    if (<char*>&v.trump - <char*>&v) + 4 - vb != PLAY_VIEW_BLOCK:
        raise ImportError("thousand._fastdeal: PLAY_VIEW_BLOCK is not the size of played .. trump")


_check_play_view_block()


cdef View view_from_dict(dict d, const int32_t* r) except *:
    """A View from a dict of its fields (lists for the arrays); fields not given keep
    neutral defaults (no declarer, no trump, no trick cards, 3 players' 8 tricks), and
    the rules' fields (step, ace marriage, barrel target and contract) come from ``r``
    (classic's without rules)."""
    cdef View v
    cdef int32_t* slot = <int32_t*>&v
    cdef uint32_t* uslot = <uint32_t*>&v
    cdef int32_t i, at, length
    memset(&v, 0, sizeof(View))
    v.trump = -1
    v.declarer = -1
    v.high_seat = -1
    v.sitter = -1
    v.step = 5
    v.received = -1
    v.given[0] = -1
    v.given[1] = -1
    v.n_tricks = 8
    v.barrel_target = 120
    v.barrel_contract = 120
    if r != NULL:
        v.step = r[R_BID_STEP]
        v.ace_marriage = r[R_ACE_MARRIAGE] if r[R_ACE_MARRIAGE] > 0 else 0
        v.barrel_target = r[R_BARREL_TARGET]
        v.barrel_contract = barrel_contract_of(r)
    for i in range(4):
        v.trick_cards[i] = -1
        v.trick_seats[i] = -1
    for key, value in d.items():
        try:
            at, length, unsigned = _VIEW_SLOTS[key]
        except KeyError:
            raise KeyError(f"unknown view field {key!r}") from None
        values = [value] if length == 1 else list(value)
        if len(values) > length:
            raise ValueError(f"view field {key!r} holds at most {length} values")
        for i in range(len(values)):
            if unsigned:
                uslot[at + i] = values[i]
            else:
                slot[at + i] = values[i]
        # the counts that go with a list
        if key == "active":
            v.n_active = len(values)
        elif key == "trick_cards":
            v.trick_n = len(values)
    return v


def view_bytes(dict view, const int32_t[::1] rules=None):
    """The View that :func:`decide` builds from ``view`` (and ``rules``), as raw bytes
    (decode with thousand.kernel.VIEW_DTYPE); for tests."""
    cdef View v = view_from_dict(view, _rules_ptr(rules))
    return (<char*>&v)[:sizeof(View)]


cdef const int32_t* _rules_ptr(const int32_t[::1] rules) except? NULL:
    if rules is None:
        return NULL
    if rules.shape[0] != N_RULE_FIELDS:
        raise ValueError(f"rules must have {N_RULE_FIELDS} entries")
    return &rules[0]


cdef int play_state_of_view(PlayState* ps, View* v) except -1:
    """The play layer's state that a View describes, for one card decision: the asking
    seat's hand, the trick in progress (its winner so far by the play rule), trump, the
    played cards, voids, points and marriages."""
    cdef int32_t s, k, n = v.trick_n
    if not 0 <= v.seat < 4:
        raise ValueError(f"view field 'seat' must be 0..3, got {v.seat}")
    if not 0 <= n < 4:
        raise ValueError(f"a trick in progress holds 0..3 cards, the view has {n}")
    for k in range(n):
        if not 0 <= v.trick_cards[k] < 24 or not 0 <= v.trick_seats[k] < 4:
            raise ValueError("view fields 'trick_cards' / 'trick_seats' must be cards 0..23 / seats 0..3")
    memset(ps, 0, sizeof(PlayState))
    for s in range(4):
        ps.next_seat[s] = -1
        ps.voids[s] = v.voids[s]
        ps.points[s] = v.points[s]
        ps.marriages[s] = v.marriage_points[s]
        ps.trick_cards[s] = v.trick_cards[s]
        ps.trick_seats[s] = v.trick_seats[s]
    for k in range(3):
        ps.active[k] = v.active[k] if k < v.n_active else -1
    for k in range(v.n_active):
        if 0 <= v.active[k] < 4:
            ps.next_seat[v.active[k]] = v.active[(k + 1) % v.n_active]
    ps.hands[v.seat] = v.hand
    ps.turn = v.seat
    ps.leader = v.trick_seats[0] if n > 0 else v.seat
    ps.trump = v.trump
    ps.trick_index = v.trick_index
    ps.trick_n = n
    ps.played = v.played
    ps.led = -1
    ps.best = -1
    ps.best_seat = -1
    for k in range(n):
        # the engine's views count the current trick in ``played``; a view built by hand
        # may not, so its trick cards are added here (the strategies rely on it)
        ps.played |= <uint32_t>1 << v.trick_cards[k]
        ps.trick_points += CARD_POINTS_C[v.trick_cards[k]]
        if k == 0:
            ps.led = SUIT_OF[v.trick_cards[0]]
        if k == 0 or card_beats(v.trick_cards[k], ps.best, ps.trump):
            ps.best = v.trick_cards[k]
            ps.best_seat = v.trick_seats[k]
    return 0


cdef int _decision_seat(Seat* seat, PlayRules* pr, double* p, int32_t strategy, params, int32_t me,
                        const int32_t* r, bitgen, unsigned char[::1] work) except -1:
    """The Seat of one decision asked from Python (``decide``, ``pimc_tally``)."""
    cdef int32_t j
    cdef unsigned char* wp = NULL
    cdef int64_t wn = 0
    for j in range(N_PARAMS):
        p[j] = params[j] if j < len(params) else 0.0
    if r != NULL:
        play_rules_from(pr, r)
    if work is not None and work.shape[0] > 0:
        wp = &work[0]
        wn = work.shape[0]
    seat_init(seat, strategy, me, p, r, pr if r != NULL else NULL,
              get_bitgen(bitgen) if bitgen is not None else NULL, wp, wn)
    return 0


def decide(kind, int32_t strategy, params, dict view, bitgen=None, const int32_t[::1] rules=None,
           unsigned char[::1] work=None):
    """One decision of the strategy ``strategy`` (a code) in the position ``view`` (a dict
    of View fields): the kernel's single-decision entry, the one the reference engine's
    ``KernelPlayer`` and the tests ask through ``thousand.kernel.decide``.

    ``kind`` is a name of ``DECISION_KINDS`` or its code; ``params`` the parameter vector
    (missing slots are 0); ``bitgen`` the strategy's random stream (``random`` needs one);
    ``rules`` (``Rules.to_kernel()``) the Seat's rules and the defaults of the View's rule
    fields.  Answers, by kind: blind / redeal 1 or 0; bid 0 (pass) or a bid in
    ``[min_bid, max_bid]``; hand_off ``(card to the next seat, card to the other)``; raise
    the new contract (``min_bid`` keeps it) or -1 to resign; play ``(card, declare)`` with
    the card in ``legal``.  ``work``: the strategy's workspace (``pimc`` needs one: its
    solver table, ``Strategy.workspace`` bytes).
    """
    cdef int32_t k = DECISION_KINDS[kind] if isinstance(kind, str) else kind
    cdef const int32_t* r = _rules_ptr(rules)
    cdef View v = view_from_dict(view, r)
    cdef Seat seat
    cdef PlayRules pr
    cdef double p[N_PARAMS]
    cdef int32_t a = -1, b = -1, declare = 0, card
    cdef PlayState ps
    if not D_BLIND <= k <= D_PLAY:
        raise ValueError(f"unknown decision kind {kind!r} (kinds: {', '.join(DECISION_KINDS)})")
    _decision_seat(&seat, &pr, p, strategy, params, v.seat, r, bitgen, work)
    v.kind = k
    if k == D_BLIND:
        return strategy_blind(&seat, &v)
    if k == D_REDEAL:
        return strategy_redeal(&seat, &v)
    if k == D_BID:
        return strategy_bid(&seat, &v)
    if k == D_HAND_OFF:
        strategy_hand_off(&seat, &v, &a, &b)
        return a, b
    if k == D_RAISE:
        return strategy_raise(&seat, &v)
    play_state_of_view(&ps, &v)
    v.played = ps.played
    card = strategy_play(&seat, &v, &ps, &declare)
    return card, declare


def pimc_tally(kind, int32_t strategy, params, dict view, bitgen=None, const int32_t[::1] rules=None,
               unsigned char[::1] work=None):
    """What the ``pimc`` player weighed for its ``play`` or ``raise`` decision in ``view``
    (the arguments as ``decide``'s; the same stream gives the same worlds as its answer):
    ``(worlds, layouts, figures)`` with ``worlds`` the hidden-card layouts solved (all of
    them when ``worlds == layouts``).  ``figures`` for a play: a row ``(card, declare, made,
    points)`` for each legal move, the layouts where the declarer makes the contract after
    it and his deal points summed over them; for a raise: the declarer's deal points in
    each layout solved.  ``None`` for a forced card (pimc does not search it) or a view no
    deal can reach."""
    cdef int32_t k = DECISION_KINDS[kind] if isinstance(kind, str) else kind
    cdef const int32_t* r = _rules_ptr(rules)
    cdef View v = view_from_dict(view, r)
    cdef Seat seat
    cdef PlayRules pr
    cdef PlayState ps
    cdef double p[N_PARAMS]
    cdef int32_t mk[48]
    cdef int64_t sums[48]
    cdef int32_t vals[PIMC_MAX_WORLDS]
    cdef int64_t base = 0, layouts = 0
    cdef int32_t n, m
    if k != D_PLAY and k != D_RAISE:
        raise ValueError(f"pimc weighs worlds for a play or a raise, not {kind!r}")
    _decision_seat(&seat, &pr, p, strategy, params, v.seat, r, bitgen, work)
    if seat.branch != B_PIMC:
        raise ValueError(f"strategy {strategy} is not pimc: only pimc weighs worlds")
    v.kind = k
    if k == D_RAISE:
        n = pimc_raise_values(&seat, &v, vals, &layouts)
        return None if n == 0 else (n, layouts, [vals[m] for m in range(n)])
    play_state_of_view(&ps, &v)
    v.played = ps.played
    if not (v.legal & (v.legal - 1)):
        return None
    n = pimc_card_tally(&seat, &v, &ps, mk, sums, &base, &layouts)
    if n < 0:
        return None
    rows = []
    for m in range(48):
        if (m < 24 and v.legal >> m & 1) or (m >= 24 and v.declarable >> (m - 24) & 1):
            rows.append((m % 24, m >= 24, mk[m], base + sums[m]))
    return n, layouts, rows


def strategy_branch_of(int32_t code):
    """The dispatchers' branch that strategy ``code`` plays (a name of STRATEGY_BRANCHES),
    or None for a code without one (such a code is refused wherever a Seat is made)."""
    cdef int32_t b = strategy_branch(code)
    for name, value in STRATEGY_BRANCHES.items():
        if value == b:
            return name
    return None


# ------------------------------------------------------------------ play layer, for tests
cdef int64_t _perft(PlayState* ps, const PlayRules* pr, int32_t depth) noexcept nogil:
    cdef uint32_t legal, declarable
    cdef int32_t c
    cdef int64_t n = 0
    if depth == 0 or ps.trick_index == pr.n_tricks:
        return 1
    legal = legal_cards(ps, pr)
    declarable = declarable_cards(ps, pr)
    while legal:
        c = td_lowbit(legal)
        legal &= legal - 1
        play_card(ps, pr, c, 0)
        n += _perft(ps, pr, depth - 1)
        undo_card(ps, pr)
        if declarable >> c & 1:
            play_card(ps, pr, c, 1)
            n += _perft(ps, pr, depth - 1)
            undo_card(ps, pr)
    return n


cdef class _PlayLayerForTests:
    """Test helper (tests/test_play_layer.py), not an API: one PlayState and its PlayRules,
    driven from Python through the play layer's functions (src/_play.pxi) so that tests can
    hold them to thousand.reference.play position by position.

    ``rules`` is ``Rules.to_kernel()``; ``hands`` four masks by seat; ``active`` the seats
    that play, from the forehand; ``leader`` the declarer."""
    cdef PlayRules pr
    cdef PlayState ps

    def __init__(self, const int32_t[::1] rules, hands, active, int32_t leader, int32_t set_aside_points=0):
        cdef uint32_t h[4]
        cdef int32_t a[3]
        cdef int32_t i
        if rules.shape[0] != N_RULE_FIELDS:
            raise ValueError(f"rules must have {N_RULE_FIELDS} entries")
        play_rules_from(&self.pr, &rules[0])
        if len(hands) != 4 or len(active) != self.pr.n_active:
            raise ValueError(f"4 hands and {self.pr.n_active} active seats needed")
        for i in range(4):
            h[i] = hands[i]
        for i in range(3):
            a[i] = active[i] if i < self.pr.n_active else -1
        if leader not in list(active):
            raise ValueError(f"the leader {leader} is not an active seat")
        play_start(&self.ps, &self.pr, h, a, leader, set_aside_points)

    def legal(self):
        return legal_cards(&self.ps, &self.pr)

    def declarable(self):
        return declarable_cards(&self.ps, &self.pr)

    def trick_winner(self):
        return trick_winner(&self.ps)

    def play(self, int32_t card, bint declare=False, bint undoable=True):
        """play_card (``undoable=False``: play_card_no_undo); returns its result.  Refuses
        what play_card leaves to its caller: a card not legal, a declaration not allowed."""
        if self.ps.trick_index >= self.pr.n_tricks:
            raise ValueError("the play is over")
        if not (0 <= card < 24 and legal_cards(&self.ps, &self.pr) >> card & 1):
            raise ValueError(f"card {card} is not legal here")
        if declare and not declarable_cards(&self.ps, &self.pr) >> card & 1:
            raise ValueError(f"card {card} cannot be declared here")
        if undoable:
            return play_card(&self.ps, &self.pr, card, declare)
        return play_card_no_undo(&self.ps, &self.pr, card, declare)

    def undo(self):
        if self.ps.n_played == 0:
            raise ValueError("no card to take back")
        undo_card(&self.ps, &self.pr)

    def perft(self, int32_t depth):
        """Lines of ``depth`` cards from here (a declaration counts as its own line),
        enumerated with play_card / undo_card: a test of the pair and their speed."""
        cdef int64_t n
        if not 0 <= depth <= MAX_PLAYS - self.ps.n_played:
            raise ValueError(f"depth must be 0..{MAX_PLAYS - self.ps.n_played}")
        with nogil:
            n = _perft(&self.ps, &self.pr, depth)
        return n

    def raw(self):
        """The state's bytes, without the undo records at and above n_played (scratch)."""
        cdef Py_ssize_t n = <char*>&self.ps.undo[self.ps.n_played] - <char*>&self.ps
        return (<char*>&self.ps)[:n]

    def rules(self):
        r = <dict>self.pr
        return {k: r[k] for k in ("must_trump", "must_beat", "marriage_first_trick", "ace_marriage",
                                  "ace_marriage_sets_trump", "last_trick_bonus", "n_active", "n_tricks")}

    def state(self):
        """Every field of the PlayState (the undo records in use as tuples)."""
        cdef PlayState* p = &self.ps
        cdef int32_t i
        return {
            "hands": [p.hands[i] for i in range(4)], "played": p.played, "trick_index": p.trick_index,
            "trick_n": p.trick_n, "trick_cards": [p.trick_cards[i] for i in range(4)],
            "trick_seats": [p.trick_seats[i] for i in range(4)], "trump": p.trump,
            "voids": [p.voids[i] for i in range(4)], "points": [p.points[i] for i in range(4)],
            "marriages": [p.marriages[i] for i in range(4)], "bonus": [p.bonus[i] for i in range(4)],
            "tricks": [p.tricks[i] for i in range(4)], "active": [p.active[i] for i in range(3)],
            "next_seat": [p.next_seat[i] for i in range(4)], "leader": p.leader, "turn": p.turn,
            "led": p.led, "best": p.best, "best_seat": p.best_seat, "trick_points": p.trick_points,
            "set_aside_points": p.set_aside_points, "n_played": p.n_played,
            "undo": [(p.undo[i].card, p.undo[i].seat, p.undo[i].voids_before, p.undo[i].marriage,
                      p.undo[i].trick_points, p.undo[i].trump_before, p.undo[i].led_before,
                      p.undo[i].best_before, p.undo[i].best_seat_before, p.undo[i].slot_card_before,
                      p.undo[i].slot_seat_before) for i in range(p.n_played)],
        }


def fast_pcg64_active():
    """True once a PCG64 passed the inline-step check (tests and benchmarks look)."""
    return FAST_PCG64 != NULL


cdef extern from *:
    """
    #ifndef THOUSAND_INLINING
    #define THOUSAND_INLINING 0
    #endif
    """
    int THOUSAND_INLINING


def build_info():
    """How this kernel was compiled (setup.py): ``popcount`` is True when card counting
    uses the CPU's population-count instruction, ``inlining`` when the compiler took the
    larger inlining budget.  Neither changes a result, only the speed."""
    return {"popcount": bool(TD_HW_POPCOUNT), "inlining": bool(THOUSAND_INLINING)}
