# cython: language_level=3
"""The kernel's contract: constants, the flattened rules, the row and state structs.

Every struct here is plain C (no Python objects) so the whole engine runs without the
GIL.  Rows are all 4-byte fields (one 8-byte id first) so that ``numpy.dtype(...,
align=True)`` built in ``thousand.kernel`` lays them out exactly like the C compiler.
"""
from libc.stdint cimport int32_t, int64_t, uint32_t, uint64_t
from numpy.random cimport bitgen_t

# ---------------------------------------------------------------- rule indices
# Mirror of thousand.rules.RuleField (a test checks that they match).
cdef enum:
    R_PLAYERS = 0
    R_TARGET = 1
    R_MAX_DEALS = 2
    R_BID_STEP = 3
    R_BID_CAP = 4
    R_TALON_FACE_DOWN_ON_OBLIGATION = 5
    R_REDEAL_HAND_POINTS_MAX = 6
    R_REDEAL_HAND_NINES = 7
    R_REDEAL_HAND_JACKS = 8
    R_REDEAL_TALON_POINTS_MAX = 9
    R_REDEAL_TALON_NINES = 10
    R_REDEAL_TALON_JACKS = 11
    R_REDEAL_TALON_BY = 12
    R_REDEAL_FOUR_NINES_AFTER_EXCHANGE = 13
    R_RESIGN = 14
    R_MUST_TRUMP = 15
    R_MUST_BEAT = 16
    R_MARRIAGE_FIRST_TRICK = 17
    R_ACE_MARRIAGE = 18
    R_ACE_MARRIAGE_SETS_TRUMP = 19
    R_LAST_TRICK_BONUS = 20
    R_ROUND_DEFENDERS = 21
    R_BOLTS = 22
    R_BOLT_WHEN = 23
    R_BOLT_PENALTY = 24
    R_BARREL_AT = 25
    R_BARREL_DEALS = 26
    R_BARREL_TARGET = 27
    R_BARREL_PENALTY = 28
    R_BARREL_BID_MIN = 29
    R_BARREL_TAKES_TALON = 30
    R_BARREL_THIRD_RESET = 31
    R_SAMOZVAL_555 = 32
    R_BLIND = 33
    R_GOLDEN_KON = 34
    R_CUT_NINE_PENALTY = 35
    R_DEALER_SCORES = 36
    N_RULE_FIELDS = 37

# Codes of the enumerated options (thousand.rules.CHOICES order).
cdef enum:
    BIDCAP_NONE = 0
    BIDCAP_MARRIAGES = 1
    TALONBY_DECLARER = 0
    TALONBY_OBLIGATION = 1
    RESIGN_NONE = 0
    RESIGN_HALF_BID = 1
    RESIGN_SIXTY = 2
    RESIGN_SIXTY_TWO_FREE = 3
    BOLTS_OFF = 0
    BOLTS_ALWAYS = 1
    BOLTS_NOT_ON_BARREL = 2
    BOLTWHEN_NO_TRICKS = 0
    BOLTWHEN_ZERO_POINTS = 1
    DEALER_TALON_POINTS = 0
    DEALER_ACES_40 = 1

# thousand.trace.EventKind
cdef enum:
    EV_CUT = 0
    EV_BLIND = 1
    EV_REDEAL = 2
    EV_BID = 3
    EV_TALON = 4
    EV_HAND_OFF = 5
    EV_CONTRACT = 6
    EV_PLAY = 7

# thousand.schema redeal codes
cdef enum:
    REDEAL_NONE = 0
    REDEAL_HAND = 1
    REDEAL_TALON = 2
    REDEAL_FOUR_NINES = 3

# Strategy codes (thousand.strategies.STRATEGY_CODES mirrors them).
cdef enum:
    S_RANDOM = 0
    S_GREEDY = 1
    S_STANDARD = 2
    S_CAUTIOUS = 3
    S_AGGRESSIVE = 4
    S_PIMC = 5
    N_STRATEGIES = 6
    N_PARAMS = 13

# The branch of _strategies.pxi each code plays (strategy_branch): the dispatchers switch
# on the branch, never on ranges of codes, and a code without a branch is refused.
cdef enum:
    B_NONE = -1
    B_RANDOM = 0
    B_GREEDY = 1
    B_SENSIBLE = 2
    B_PIMC = 3              # the search player (_pimc.pxi): bids as B_SENSIBLE

# Decision kinds of a View.
cdef enum:
    D_BLIND = 0
    D_REDEAL = 1
    D_BID = 2
    D_HAND_OFF = 3
    D_RAISE = 4
    D_PLAY = 5

cdef enum:
    MAX_SEATS = 4
    EVENT_WIDTH = 5
    RESIGNED = -1

# ---------------------------------------------------------------- rows
cdef struct DealRow:
    int64_t deal_id
    int64_t game_id
    int32_t deal_no
    int32_t dealer
    uint32_t hand[4]
    uint32_t talon
    uint32_t talon2
    int32_t redeal
    int32_t redeal_by
    int32_t blind
    int32_t bid[4]
    int32_t n_bids
    int32_t declarer
    int32_t obligation
    int32_t winning_bid
    int32_t contract
    int32_t resigned
    int32_t handoff_next
    int32_t handoff_other
    int32_t points[4]
    int32_t marriages[4]
    int32_t tricks[4]
    int32_t declarer_points
    int32_t made
    int32_t score[4]
    int32_t bolt[4]
    int32_t total[4]        # game scores after the deal (all penalties applied)
    int32_t forehand

cdef struct GameRow:
    int64_t game_id
    int32_t first_dealer
    int32_t winner
    int32_t deals
    int32_t redeals
    int32_t final[4]
    int32_t declarer_deals[4]
    int32_t made[4]
    int32_t barrel_entries[4]
    int32_t barrel_falls[4]
    int32_t bolt_penalties[4]
    int32_t resignations[4]
    int32_t resets_555
    int32_t blind_deals
    int32_t blind_made
    int32_t golden_reset
    int32_t cut_penalties
    int32_t barrel_clashes

# ---------------------------------------------------------------- strategy view
cdef struct View:
    int32_t kind            # D_* decision asked
    int32_t players         # table size
    int32_t seat
    int32_t dealer
    int32_t forehand
    int32_t n_active
    int32_t active[3]       # active seats in play order from the forehand
    uint32_t hand           # the seat's cards now
    int32_t redeal_kind     # REDEAL_* for D_REDEAL
    int32_t step
    int32_t high            # auction: highest bid so far
    int32_t high_seat
    int32_t min_bid         # smallest legal bid/raise (> max_bid: only pass/keep)
    int32_t max_bid         # largest legal bid/raise
    int32_t bids[4]         # auction: each seat's highest bid so far (0 none)
    int32_t passed[4]
    int32_t declarer
    int32_t contract
    int32_t can_resign
    int32_t blind
    int32_t obligation
    uint32_t talon          # the declarer's talon if this seat may see it, else 0
    uint32_t played         # cards played so far (the current trick included)
    int32_t trick_index
    int32_t trick_n         # cards in the current trick
    int32_t trick_cards[4]
    int32_t trick_seats[4]
    int32_t trump           # -1 none
    uint32_t legal          # legal cards (D_PLAY)
    uint32_t declarable     # cards whose lead may be declared (D_PLAY)
    int32_t points[4]       # card points won in tricks so far per seat
    int32_t score[4]        # game scores
    int32_t sitter          # barrel sitter, -1 none
    int32_t golden          # a golden-kon deal
    int32_t received        # card this seat received in the hand-off, -1 none
    int32_t given[2]        # declarer: cards he handed off (to next, to other), else -1
    int32_t n_tricks        # tricks in the deal (8; 10 with 2 players)
    int32_t marriage_points[4]  # marriage points declared so far per seat
    int32_t bolts[4]        # bolt counts before this deal
    int32_t resignations[4] # resignations so far in the game
    uint32_t voids[4]       # per seat: the suits (as suit masks) he showed out of in this deal
    int32_t resign_cost     # D_RAISE: what resigning now costs the declarer (>= 0)
    int32_t resign_gift     # D_RAISE: what resigning now gives each opponent
    int32_t ace_marriage    # the rules' ace marriage value (0: no ace marriage)
    int32_t barrel_target   # points a barrel sitter needs to come off (rules' barrel_target)
    int32_t barrel_contract # the smallest contract that takes him off: barrel_target
                            # rounded down to a multiple of the bid step (120 for 121)

# ---------------------------------------------------------------- the play layer (_play.pxi)
# The card-play rules of docs/rules.md step 10 on a PlayState: the engine plays its tricks
# through them and a search makes and unmakes cards on them.  See docs/kernel.md.
cdef enum:
    MAX_PLAYS = 24          # cards a deal's play can hold: 3 x 8 (2 players: 2 x 10)
    PLAY_VIEW_BLOCK = 48    # bytes of the fields played .. trump (PlayState and View)

cdef struct PlayRules:
    # filled once from the rules (play_rules_from)
    int32_t must_trump
    int32_t must_beat
    int32_t marriage_first_trick
    int32_t ace_marriage            # its value; 0 when the rules have no ace marriage
    int32_t ace_marriage_sets_trump
    int32_t last_trick_bonus
    int32_t n_active                # seats that play: 3 (4 players: the dealer sits out), 2
    int32_t n_tricks                # 8, or 10 with 2 players

cdef struct PlayUndo:
    # what play_card changed beyond what the card itself says (16 bytes)
    uint32_t voids_before           # the seat's voids
    int16_t marriage                # points declared with the card (0: no declaration)
    int16_t trick_points            # the trick's card points with this card in it
    int8_t card
    int8_t seat
    int8_t trump_before
    int8_t led_before
    int8_t best_before
    int8_t best_seat_before
    int8_t slot_card_before         # what trick_cards / trick_seats held at the card's slot
    int8_t slot_seat_before

cdef struct PlayState:
    uint32_t hands[4]               # by seat (a seat that sits out holds 0)
    # played .. trump: the order of the View's fields of the same names (one block copy)
    uint32_t played                 # every card played, the trick in progress included
    int32_t trick_index             # 0-based; n_tricks once the last trick is won
    int32_t trick_n                 # cards in the trick in progress
    int32_t trick_cards[4]          # its cards in play order (slots >= trick_n: stale)
    int32_t trick_seats[4]
    int32_t trump                   # -1 none
    uint32_t voids[4]               # by seat: suits (as suit masks) he has shown out of
    int32_t points[4]               # card points of the tricks won (2 players: the last
                                    # trick's winner also takes the set-aside talon's)
    int32_t marriages[4]            # marriage points declared
    int32_t bonus[4]                # the last-trick bonus, once the last trick is won
    int32_t tricks[4]               # tricks won
    int32_t active[3]               # seats that play, in order from the forehand
    int32_t next_seat[4]            # the active seat after each active seat (-1: sits out)
    int32_t leader                  # who led (or leads) the trick in progress
    int32_t turn                    # who plays next
    int32_t led                     # suit led      } of the trick in progress,
    int32_t best                    # card winning  } meaningful while trick_n > 0
    int32_t best_seat               # its seat      }
    int32_t trick_points            # card points in the trick in progress
    int32_t set_aside_points        # 2 players: the set-aside talon's card points (else 0)
    int32_t n_played                # undo records in use (cards played by play_card)
    PlayUndo undo[MAX_PLAYS]


# ---------------------------------------------------------------- a seat (_strategies.pxi)
# Everything a strategy is handed besides the View: what it is, its parameters, the rules,
# its random stream and a workspace.  The engine fills one per seat when it starts; the
# single-decision entry (decide) fills one per call.
cdef struct Seat:                   # 160 bytes (N_PARAMS = 13): &seats[k] is k*5 << 5
    int32_t code                    # S_* (thousand.strategies names it)
    int32_t branch                  # B_*: the code's branch, from strategy_branch
    int32_t seat                    # the seat it plays (0..3)
    double params[N_PARAMS]         # its parameter vector (thousand.strategies documents it)
    const int32_t* rules            # the flattened rules (N_RULE_FIELDS)
    const PlayRules* play           # the card-play rules, for a player that searches the play
    bitgen_t* rng                   # its own draws: the decision stream (the chance stream
                                    # itself unless separate streams were asked for)
    unsigned char* work             # a workspace Python allocated (NULL: none); the kernel
    int64_t work_bytes              # only uses it, for the strategy's own scratch
