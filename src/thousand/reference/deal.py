"""One deal, played or replayed, exactly as ``docs/rules.md`` fixes it.

:func:`play_deal` shuffles from a stream and asks players; :func:`replay_deal` takes the
cards and decisions from a :class:`~thousand.trace.DealTrace`.  Both run the same
:class:`_Deal`, so a played deal's trace replays to the same result by construction,
and every decision of a replayed trace (for instance one the kernel recorded) is checked
by the same code that checks a player.

The game context (scores, the barrel, bolt counts, resignations used, golden kon) is a
:class:`GameState`; a deal reads it but never changes it -- the game engine
(:mod:`thousand.reference.game`) settles the deal's result into the next state.
"""
from __future__ import annotations

import numbers
from dataclasses import dataclass, field, replace
from typing import Any, Callable, Sequence

from thousand.cards import (FULL_DECK, NINE, RANK_POINTS, SUIT_MASK, card_name, card_points, format_hand,
                            popcount, rank_of, suit_of, SUIT_SYMBOLS)
from thousand.errors import IllegalDecision
from thousand.rules import Rules
from thousand.schema import REDEAL_NONE
from thousand.trace import REDEAL_KINDS, DealTrace, Event, EventKind

from .legal import (bid_cap, dealer_talon_score, half_bid, hand_redeal_allowed, points_to_make, round_defender,
                    talon_redeal_allowed)
from .play import Position, declaration_value
from .players import Player, TraceCursor, TracePlayer, TrickRecord, View, new_view
from .rng import Stream

__all__ = ["GameState", "DealResult", "play_deal", "replay_deal", "active_seats", "CUT_NINE_FINE"]

CUT_NINE_FINE = 120  # the cutter's fine for the third nine in a row (fixed by the source)
BLIND_CONTRACT = 120
BLIND_SCORE = 240
# resign = sixty_two_free: the first resignations of a game cost nothing, each later one this
FREE_RESIGNATIONS = 2
LATE_RESIGNATION_COST = 120


@dataclass
class GameState:
    """The game context a deal is played in (what the game engine carries between deals).

    ``barrel_count`` is the number of barrel deals the sitter has used; ``barrel_sits``
    counts, per seat, the times he got onto the barrel (for ``barrel_third_reset``).
    """

    scores: list[int]
    barrel_sitter: int = -1
    barrel_count: int = 0
    barrel_sits: list[int] = field(default_factory=list)
    bolts: list[int] = field(default_factory=list)
    resignations: list[int] = field(default_factory=list)
    golden: bool = False         # the next deal is a golden-kon deal
    golden_made: bool = False    # some golden-kon declarer made his 120
    deal_no: int = 0             # played deals so far

    @classmethod
    def fresh(cls, players: int) -> "GameState":
        return cls(scores=[0] * players, barrel_sits=[0] * players, bolts=[0] * players,
                   resignations=[0] * players)

    def copy(self) -> "GameState":
        return replace(self, scores=list(self.scores), barrel_sits=list(self.barrel_sits),
                       bolts=list(self.bolts), resignations=list(self.resignations))


def active_seats(players: int, dealer: int) -> tuple[int, ...]:
    """Seats that play the deal, in order from the forehand (4 players: the dealer sits out)."""
    n_active = 3 if players == 4 else players
    return tuple((dealer + 1 + i) % players for i in range(n_active))


@dataclass
class DealResult:
    """Everything a deal produced: the schema's deal columns, the details and the trace.

    Per-seat lists have one entry per seat.  ``scores`` are the changes from this deal's
    play (before bolt and barrel penalties, and before a sitter's gains are suppressed);
    ``cut_fines`` are the cut-nine fines paid at the cut.
    """

    rules: Rules
    trace: DealTrace
    dealer: int
    active: tuple[int, ...]
    hands: list[int]
    talon: int
    talon2: int
    redeal: int = REDEAL_NONE
    redeal_by: int = -1
    blind: bool = False
    golden: bool = False
    bids: list[int] = field(default_factory=list)
    bid_log: list[tuple[int, int]] = field(default_factory=list)  # (seat, value), forced opening first
    n_bids: int = 0
    declarer: int = -1
    obligation: bool = False
    winning_bid: int = 0
    contract: int = 0
    resigned: bool = False
    handoff_next: int = -1
    handoff_other: int = -1
    points: list[int] = field(default_factory=list)
    marriages: list[int] = field(default_factory=list)
    bonus: list[int] = field(default_factory=list)     # the last-trick bonus each seat took
    tricks: list[int] = field(default_factory=list)
    declarer_points: int = 0
    made: bool = False
    scores: list[int] = field(default_factory=list)
    bolts: list[bool] = field(default_factory=list)
    bolt_weight: int = 1
    cut_fines: list[int] = field(default_factory=list)
    cut_nines: int = 0
    deal_points: list[int] = field(default_factory=list)
    declared: list[tuple[int, int, int]] = field(default_factory=list)
    trick_log: list[TrickRecord] = field(default_factory=list)
    talon_taken: int = -1
    talon_shown: bool = False
    dealer_talon: int = 0
    state: GameState | None = None

    @property
    def is_redeal(self) -> bool:
        return self.redeal != REDEAL_NONE

    @property
    def went_blind(self) -> bool:
        """The forehand went blind (his opening was the blind 120), broken or not."""
        return any(e.kind == EventKind.BLIND and e.a for e in self.trace.events)

    def to_row(self, deal_id: int = 0, chunk: int = 0, game_id: int = -1) -> dict[str, Any]:
        """The deal as one row with :data:`thousand.schema.DEAL_COLUMNS` names."""
        n = self.rules.players
        row: dict[str, Any] = {
            "deal_id": deal_id, "chunk": chunk, "game_id": game_id,
            "deal_no": self.state.deal_no if self.state is not None else 0,
            "dealer": self.dealer,
        }
        for s in range(n):
            row[f"hand{s}"] = self.hands[s]
        row.update(talon=self.talon, talon2=self.talon2, redeal=self.redeal, redeal_by=self.redeal_by,
                   blind=self.blind)
        for s in range(n):
            row[f"bid{s}"] = self.bids[s]
        row.update(n_bids=self.n_bids, declarer=self.declarer, obligation=self.obligation,
                   winning_bid=self.winning_bid, contract=self.contract, resigned=self.resigned,
                   handoff_next=self.handoff_next, handoff_other=self.handoff_other)
        for name, values in (("points", self.points), ("marriages", self.marriages), ("tricks", self.tricks)):
            for s in range(n):
                row[f"{name}{s}"] = values[s]
        row.update(declarer_points=self.declarer_points, made=self.made)
        for s in range(n):
            row[f"score{s}"] = self.scores[s]
        for s in range(n):
            row[f"bolt{s}"] = self.bolts[s]
        return row


# --------------------------------------------------------------------------- chance
class _StreamChance:
    """Chance drawn from the stream (play mode): the shuffle(s) and the 2-player talon."""

    def __init__(self, stream: Stream) -> None:
        self.stream = stream

    def deal(self, deal: "_Deal") -> tuple[int, int]:
        """Shuffle and deal; with ``cut_nine_penalty`` shuffle again while the bottom card
        is a nine.  Returns the nines seen and the fines paid (every third in a row)."""
        deck = self.stream.shuffle()
        nines = fines = 0
        if deal.rules.cut_nine_penalty:
            in_a_row = 0
            while rank_of(deck[20]) == NINE:
                nines += 1
                in_a_row += 1
                if in_a_row == 3:  # the third nine in a row: the cutter pays, the count restarts
                    fines += 1
                    in_a_row = 0
                deck = self.stream.shuffle()
        deal.deal_from_deck(deck)
        return nines, fines

    def talon_choice(self, declarer: int) -> int:
        return self.stream.draw_bounded(2)


class _TraceChance:
    """Chance read back from a trace (replay mode): the cards as dealt and the chance events."""

    def __init__(self, trace: DealTrace, cursor: TraceCursor) -> None:
        self.trace = trace
        self.cursor = cursor

    def deal(self, deal: "_Deal") -> tuple[int, int]:
        deal.hands = list(self.trace.hands)
        deal.dealt = list(self.trace.hands)
        deal.talons = tuple(self.trace.talons)
        if not deal.rules.cut_nine_penalty:
            return 0, 0
        pos = self.cursor.pos
        ev = self.cursor.take(EventKind.CUT, deal.cutter)
        if ev.a < 0:
            raise IllegalDecision(f"event {pos}: a cut shows a count of nines, not {ev.a}")
        if ev.b != ev.a // 3:
            raise IllegalDecision(f"event {pos}: a cut with {ev.a} nine(s) pays {ev.a // 3} fine(s), "
                                  f"the trace says {ev.b}")
        return ev.a, ev.b

    def talon_choice(self, declarer: int) -> int:
        pos = self.cursor.pos
        ev = self.cursor.take(EventKind.TALON, declarer)
        if ev.a not in (0, 1):
            raise IllegalDecision(f"event {pos}: talon index {ev.a} is not 0 or 1")
        return ev.a


class _RedealCalled(Exception):
    def __init__(self, kind: int, seat: int) -> None:
        self.kind, self.seat = kind, seat


# --------------------------------------------------------------------------- the deal
class _Deal:
    """One deal in progress.  Methods follow the numbered steps of docs/rules.md."""

    def __init__(self, rules: Rules, players: Sequence[Player], chance: Any, dealer: int,
                 state: GameState) -> None:
        n = rules.players
        if len(players) != n:
            raise ValueError(f"{n} players needed, got {len(players)}")
        if not 0 <= dealer < n:
            raise ValueError(f"dealer {dealer} is not a seat of a {n}-player table")
        self.rules, self.players, self.chance, self.dealer, self.state = rules, players, chance, dealer, state
        self.n = n
        self.active = active_seats(n, dealer)
        self.forehand = self.active[0]
        self.cutter = (dealer - 1) % n   # the seat before the dealer cuts
        self.events: list[Event] = []
        self.hands = [0] * n
        self.dealt = [0] * n
        self.talons: tuple[int, ...] = ()
        self.scores_before = list(state.scores)
        self.cut_fines = [0] * n
        self.sitter = state.barrel_sitter    # -1 once a cut-nine fine takes him under the barrel
        self.cut_nines = 0
        self.golden = state.golden
        self.blind = self.golden
        self.went_blind = False
        self.bids: list[tuple[int, int]] = []
        self.high_bid = 0
        self.declarer = -1
        self.contract = 0
        self.winning_bid = 0
        self.obligation = False
        self.talon = 0           # the declarer's talon (2 players: the one he took)
        self.talon_taken = -1
        self.set_aside = 0       # 2 players: the talon for the last trick's winner
        self.talon_shown = False
        self.given: tuple[int, int] | None = None
        self.received = [-1] * n
        self.position: Position | None = None   # the card play (step 10), once it starts
        self.trick_log: list[TrickRecord] = []
        self.card_pts = [0] * n
        self.marriage_pts = [0] * n
        self.tricks_won = [0] * n
        self.declared: list[tuple[int, int, int]] = []
        self.resigned = False
        self.bonus = [0] * n      # the last-trick bonus, from the play
        self.dealer_talon = 0
        self.phase = "deal"

    # ---------------------------------------------------------------- helpers
    @property
    def n_tricks(self) -> int:
        return 10 if self.n == 2 else 8

    def next_active(self, seat: int) -> int:
        i = self.active.index(seat)
        return self.active[(i + 1) % len(self.active)]

    def order_from(self, seat: int) -> list[int]:
        i = self.active.index(seat)
        return [self.active[(i + k) % len(self.active)] for k in range(len(self.active))]

    def view(self, seat: int, hide_hand: bool = False) -> View:
        can_see_talon = seat == self.declarer or self.talon_shown
        given: tuple[int, ...] = self.given if (self.given is not None and seat == self.declarer) else ()
        p = self.position   # the play so far (None before it)
        if p is None:
            hand, trump, trick, trick_index, played = self.hands[seat], -1, (), 0, 0
            points, marriages = (0,) * self.n, (0,) * self.n
        else:
            hand, trump, trick, played, points, marriages = (p.hands[seat], p.trump, p.trick, p.played,
                                                             p.points, p.marriages)
            trick_index = min(p.trick_index, self.n_tricks - 1)
        return new_view(
            rules=self.rules, seat=seat, phase=self.phase, dealer=self.dealer, forehand=self.forehand,
            active=self.active, hand=0 if hide_hand else hand, scores=tuple(self.scores_now()),
            barrel_sitter=self.sitter, barrel_count=self.state.barrel_count,
            went_blind=self.went_blind, bids=tuple(self.bids), high_bid=self.high_bid,
            declarer=self.declarer, contract=self.contract, blind=self.blind, obligation=self.obligation,
            golden=self.golden, talon=self.talon if can_see_talon else 0, received=self.received[seat],
            given=given, trump=trump, trick=trick, trick_index=trick_index,
            n_tricks=self.n_tricks, tricks=tuple(self.trick_log), played=played,
            points=points, declared=tuple(self.declared),
            marriage_points=marriages, bolts=tuple(self.state.bolts),
            resignations=tuple(self.state.resignations))

    def scores_now(self) -> list[int]:
        return [s - f for s, f in zip(self.scores_before, self.cut_fines)]

    def decide(self, seat: int, reason: str | None, kind: EventKind, a: Any, b: Any = 0) -> None:
        """Record a checked decision, or reject it naming the event, the seat and why."""
        if reason is not None:
            raise IllegalDecision(f"event {len(self.events)}: seat {seat} {reason}")
        self.events.append(Event(kind, seat, int(a), int(b)))

    # ---------------------------------------------------------------- 0. cut and deal
    def deal_from_deck(self, deck: list[int]) -> None:
        if self.n == 2:
            self.hands[self.forehand] = _mask(deck[0:10])
            self.hands[self.dealer] = _mask(deck[10:20])
            self.talons = (_mask(deck[20:22]), _mask(deck[22:24]))
        else:
            for i, seat in enumerate(self.active):
                self.hands[seat] = _mask(deck[7 * i:7 * i + 7])
            self.talons = (_mask(deck[21:24]),)
        self.dealt = list(self.hands)

    def cut_and_deal(self) -> None:
        """Step 0: the cut (a CUT event when ``cut_nine_penalty`` is on) and the deal."""
        nines, fines = self.chance.deal(self)
        if self.rules.cut_nine_penalty:
            self.events.append(Event(EventKind.CUT, self.cutter, nines, fines))
            self.cut_nines = nines
            self.cut_fines[self.cutter] = CUT_NINE_FINE * fines
            at = self.rules.barrel_at
            if self.cutter == self.sitter and at is not None and self.scores_now()[self.cutter] < at:
                self.sitter = -1    # the fine is paid before the deal: he plays it off the barrel

    # ---------------------------------------------------------------- 1. blind
    def ask_blind(self) -> None:
        r = self.rules
        if not r.blind or self.n == 2 or self.golden:
            return
        f = self.forehand
        if self.scores_now()[f] < 0 or self.sitter >= 0:
            return
        self.phase = "blind"
        v = self.players[f].go_blind(self.view(f, hide_hand=True))  # asked before he looks
        self.decide(f, _bool_reason(v, "go_blind"), EventKind.BLIND, bool(v))
        self.went_blind = bool(v)

    # ---------------------------------------------------------------- 2. hand redeal
    def ask_hand_redeals(self) -> None:
        if self.golden:
            return
        self.phase = "redeal"
        for seat in self.active:
            if seat == self.forehand and self.went_blind:
                continue
            if hand_redeal_allowed(self.rules, self.hands[seat]):
                self.ask_redeal(seat, "hand")

    def ask_redeal(self, seat: int, kind: str) -> None:
        code = REDEAL_KINDS[kind]
        v = self.players[seat].demand_redeal(self.view(seat), kind)
        self.decide(seat, _bool_reason(v, f"demand_redeal({kind})"), EventKind.REDEAL, bool(v), code)
        if v:
            raise _RedealCalled(code, seat)

    # ---------------------------------------------------------------- 3. auction
    def run_auction(self) -> None:
        r, f = self.rules, self.forehand
        self.phase = "auction"
        sitter = self.sitter
        if self.went_blind:
            opening = BLIND_CONTRACT
        elif f == sitter and r.barrel_bid_min is not None:
            opening = max(100, r.barrel_bid_min)
        else:
            opening = 100
        self.bids.append((f, opening))
        self.high_bid, high_seat = opening, f
        in_auction = list(self.active)
        anybody_bid = False
        seat = f
        while len(in_auction) > 1:
            seat = self._next_in(in_auction, seat)
            lowest = self.high_bid + r.bid_step
            if seat == sitter and r.barrel_bid_min is not None:
                lowest = max(lowest, r.barrel_bid_min)
            highest = bid_cap(r, self.hands[seat])
            v = _as_int(self.players[seat].bid(self.view(seat), lowest, highest))
            self.decide(seat, _bid_reason(v, lowest, highest, r.bid_step), EventKind.BID, v)
            self.bids.append((seat, int(v)))
            if v == 0:
                in_auction.remove(seat)
            else:
                self.high_bid, high_seat = int(v), seat
                anybody_bid = True
        self.declarer = high_seat
        self.contract = self.winning_bid = self.high_bid
        if self.went_blind and not anybody_bid:
            self.blind = True            # nobody broke the blind
        elif not anybody_bid:
            self.obligation = True       # the forced opening, uncontested

    def _next_in(self, in_auction: list[int], seat: int) -> int:
        s = self.next_active(seat)
        while s not in in_auction:
            s = self.next_active(s)
        return s

    # ---------------------------------------------------------------- 4. no auction
    def set_declarer_without_auction(self, seat: int, contract: int) -> None:
        self.declarer = seat
        self.contract = self.winning_bid = contract
        self.high_bid = contract

    # ---------------------------------------------------------------- 5-6. talon
    def take_talon(self) -> None:
        r, d = self.rules, self.declarer
        self.phase = "talon"
        if self.n == 2:
            pick = self.chance.talon_choice(d)
            self.events.append(Event(EventKind.TALON, d, pick, 0))
            self.talon_taken = pick
            self.talon, self.set_aside = self.talons[pick], self.talons[1 - pick]
        else:
            self.talon = self.talons[0]
        self.hands[d] |= self.talon
        face_down = self.blind or (self.obligation and r.talon_face_down_on_obligation)
        self.talon_shown = not face_down
        may_demand = r.redeal_talon_by == "declarer" or self.obligation
        if not self.blind and may_demand and talon_redeal_allowed(r, self.talon):
            self.ask_redeal(d, "talon")

    # ---------------------------------------------------------------- 7. hand-off
    def hand_off(self) -> None:
        d = self.declarer
        self.phase = "hand_off"
        v = self.players[d].hand_off(self.view(d))
        reason = None
        try:
            a, b = (int(x) for x in v)
        except (TypeError, ValueError):
            a = b = -1
            reason = f"hand_off must give two cards, got {v!r}"
        if reason is None:
            hand = self.hands[d]
            if not (0 <= a < 24 and hand >> a & 1):
                reason = f"hands off {_name(a)}, which is not in his hand"
            elif not (0 <= b < 24 and hand >> b & 1):
                reason = f"hands off {_name(b)}, which is not in his hand"
            elif a == b:
                reason = f"hands off {_name(a)} twice"
        self.decide(d, reason, EventKind.HAND_OFF, a, b)
        self.hands[d] &= ~((1 << a) | (1 << b))
        self.given = (a, b)
        if self.n == 2:
            return  # laid away face down; their points count for the declarer
        nxt = self.next_active(d)
        other = self.next_active(nxt)
        self.hands[nxt] |= 1 << a
        self.hands[other] |= 1 << b
        self.received[nxt], self.received[other] = a, b

    # ---------------------------------------------------------------- 8. four nines
    def ask_four_nines(self) -> None:
        if not self.rules.redeal_four_nines_after_exchange or self.golden:
            return
        self.phase = "four_nines"
        for seat in self.order_from(self.declarer):
            if popcount(self.hands[seat] & _NINES) == 4:
                self.ask_redeal(seat, "four_nines")

    # ---------------------------------------------------------------- 9. raise or resign
    def raise_or_resign(self) -> None:
        r, d = self.rules, self.declarer
        self.phase = "contract"
        lowest = self.contract
        highest = lowest if self.blind else max(lowest, bid_cap(r, self.hands[d]))
        may_resign = r.resign != "none"
        v = _as_int(self.players[d].raise_or_resign(self.view(d), lowest, highest, may_resign))
        reason = None
        if v == -1:
            if not may_resign:
                reason = "resigns, but resign = none does not allow it"
        elif not isinstance(v, int) or isinstance(v, bool) or not lowest <= v <= highest or (v - lowest) % r.bid_step:
            span = f"{lowest}" if lowest == highest else f"{lowest}..{highest} in steps of {r.bid_step}"
            reason = f"sets the contract to {v!r}, but it must be {span}{' or -1 (resign)' if may_resign else ''}"
        self.decide(d, reason, EventKind.CONTRACT, v)
        self.resigned = v == -1
        if not self.resigned:
            self.contract = int(v)

    # ---------------------------------------------------------------- 10. play
    def play_tricks(self) -> None:
        """Step 10: every card through :class:`~thousand.reference.play.Position` (the
        play rules); the deal keeps the record the View shows (tricks, declarations)."""
        r = self.rules
        self.phase = "play"
        pos = self.position = Position.start(r, self.hands, self.active, self.declarer, card_points(self.set_aside))
        for _ in range(self.n_tricks * len(self.active)):
            seat = pos.turn
            hand = pos.hands[seat]
            legal = pos.legal()
            v = self.players[seat].play(self.view(seat), legal)
            card, declare, reason = self._check_play(pos, seat, v, hand, legal)
            self.decide(seat, reason, EventKind.PLAY, card, declare)
            if declare:
                self.declared.append((seat, suit_of(card), declaration_value(r, hand, card)))
            trick = pos.trick + ((seat, card),)
            pos = self.position = pos.play(card, declare)
            if pos.winner >= 0:
                won = sum(RANK_POINTS[rank_of(c)] for _, c in trick)
                self.trick_log.append(TrickRecord(trick[0][0], trick, pos.winner, won, pos.trump))
        self.hands = list(pos.hands)
        self.card_pts = list(pos.points)
        self.marriage_pts = list(pos.marriages)
        self.tricks_won = list(pos.tricks)
        self.bonus = list(pos.bonus)
        if self.n == 2:
            self.card_pts[self.declarer] += card_points(_mask(self.given or ()))

    def _check_play(self, pos: Position, seat: int, v: Any, hand: int,
                    legal: int) -> tuple[int, bool, str | None]:
        try:
            card, declare = v
            card = int(card)
        except (TypeError, ValueError):
            return -1, False, f"play must return (card, declare), got {v!r}"
        if declare not in (0, 1):  # True/False compare equal to 1/0
            return card, False, f"declare must be true or false, got {declare!r}"
        declare = bool(declare)
        if not (0 <= card < 24 and hand >> card & 1):
            return card, declare, f"played {_name(card)}, which is not in his hand"
        if not legal >> card & 1:
            return card, declare, f"played {_name(card)} but {self._why_illegal(pos, hand)}"
        if declare and not pos.declarable() >> card & 1:
            why = ("only the leader may declare" if pos.trick else
                   "no marriage may be declared on the first trick" if pos.trick_index == 0
                   and not self.rules.marriage_first_trick and declaration_value(self.rules, hand, card)
                   else f"{_name(card)} completes no marriage in his hand")
            return card, declare, f"declared with {_name(card)}, but {why}"
        return card, declare, None

    def _why_illegal(self, pos: Position, hand: int) -> str:
        led = suit_of(pos.trick[0][1])
        if hand & SUIT_MASK[led]:
            if self.rules.must_beat and hand & SUIT_MASK[led] & ~pos.legal():
                return f"must beat the best {SUIT_SYMBOLS[led]} with a higher one"
            return f"must follow {SUIT_SYMBOLS[led]}"
        return f"must trump with {SUIT_SYMBOLS[pos.trump]}"

    # ---------------------------------------------------------------- scoring
    def score(self) -> tuple[list[int], list[bool], list[int], bool]:
        r, n, d = self.rules, self.n, self.declarer
        scores = [0] * n
        bolts = [False] * n
        deal_pts = [0] * n
        opponents = [s for s in self.active if s != d]
        made = False
        if self.resigned:
            c = self.contract
            if self.blind:
                scores[d], each = -BLIND_SCORE, BLIND_SCORE // 2
            elif r.resign == "half_bid":
                scores[d], each = -c, half_bid(c)
            elif r.resign == "sixty":
                scores[d], each = -c, 60
            else:  # sixty_two_free
                free = self.state.resignations[d] < FREE_RESIGNATIONS
                scores[d], each = (0 if free else -LATE_RESIGNATION_COST), 60
            for s in opponents:
                scores[s] = each
        else:
            bonus = self.bonus
            for s in self.active:
                deal_pts[s] = self.card_pts[s] + self.marriage_pts[s] + bonus[s]
            if self.blind:
                made = deal_pts[d] >= BLIND_CONTRACT
                scores[d] = BLIND_SCORE if made else -BLIND_SCORE
                for s in opponents:
                    scores[s] = self._defender(2 * self.card_pts[s] + self.marriage_pts[s] + bonus[s])
            else:
                made = deal_pts[d] >= points_to_make(r, self.contract, d == self.sitter)
                scores[d] = self.contract if made else -self.contract
                for s in opponents:
                    scores[s] = self._defender(deal_pts[s])
            if r.bolts != "off":
                for s in self.active:
                    if r.bolts == "not_on_barrel" and s == self.sitter:
                        continue
                    bolts[s] = self.tricks_won[s] == 0 if r.bolt_when == "no_tricks" else deal_pts[s] == 0
        if self.n == 4 and self.dealer != self.sitter:
            self.dealer_talon = dealer_talon_score(r, self.talons[0])
            scores[self.dealer] += self.dealer_talon
        return scores, bolts, deal_pts, made

    def _defender(self, points: int) -> int:
        return round_defender(points) if self.rules.round_defenders else points

    # ---------------------------------------------------------------- the whole deal
    def run(self) -> DealResult:
        r = self.rules
        redeal = REDEAL_NONE
        redeal_by = -1
        self.cut_and_deal()
        try:
            self.ask_blind()
            self.ask_hand_redeals()
            sitter = self.sitter
            if self.golden:
                self.set_declarer_without_auction(self.forehand, BLIND_CONTRACT)
            elif r.barrel_takes_talon and sitter in self.active:
                self.set_declarer_without_auction(sitter, r.barrel_contract)
            else:
                self.run_auction()
            self.take_talon()
            self.hand_off()
            self.ask_four_nines()
            self.raise_or_resign()
            if not self.resigned:
                self.play_tricks()
        except _RedealCalled as call:
            redeal, redeal_by = call.kind, call.seat
        return self.result(redeal, redeal_by)

    def result(self, redeal: int, redeal_by: int) -> DealResult:
        r, n = self.rules, self.n
        bid_cols = [0] * n
        for seat, v in self.bids:
            bid_cols[seat] = max(bid_cols[seat], v)
        if redeal == REDEAL_NONE:
            scores, bolts, deal_pts, made = self.score()
        else:
            scores, bolts, deal_pts, made = [0] * n, [False] * n, [0] * n, False
        talon = self.talons[self.talon_taken] if self.talon_taken >= 0 else self.talons[0]
        talon2 = self.talons[1 - max(self.talon_taken, 0)] if n == 2 else 0
        played = redeal == REDEAL_NONE and not self.resigned
        return DealResult(
            rules=r,
            trace=DealTrace(dealer=self.dealer, hands=tuple(self.dealt), talons=self.talons, events=list(self.events)),
            dealer=self.dealer, active=self.active, hands=list(self.dealt), talon=talon, talon2=talon2,
            redeal=redeal, redeal_by=redeal_by, blind=self.blind, golden=self.golden, bids=bid_cols, bid_log=list(self.bids),
            n_bids=sum(1 for e in self.events if e.kind == EventKind.BID),
            declarer=self.declarer, obligation=self.obligation, winning_bid=self.winning_bid,
            contract=self.contract, resigned=self.resigned,
            handoff_next=self.given[0] if self.given else -1, handoff_other=self.given[1] if self.given else -1,
            points=list(self.card_pts) if played else [0] * n,
            marriages=list(self.marriage_pts), bonus=list(self.bonus), tricks=list(self.tricks_won),
            declarer_points=deal_pts[self.declarer] if self.declarer >= 0 else 0, made=made,
            scores=scores, bolts=bolts, bolt_weight=2 if self.blind else 1, cut_fines=list(self.cut_fines),
            cut_nines=self.cut_nines, deal_points=deal_pts, declared=list(self.declared),
            trick_log=list(self.trick_log), talon_taken=self.talon_taken, talon_shown=self.talon_shown,
            dealer_talon=self.dealer_talon, state=self.state.copy())


_NINES = sum(1 << (6 * s) for s in range(4))


def _mask(cards: Any) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def _name(c: int) -> str:
    return card_name(c) if isinstance(c, int) and 0 <= c < 24 else repr(c)


def _as_int(v: Any) -> Any:
    """``v`` as a Python int when it is an integer of any kind (numpy included), else as is."""
    if isinstance(v, bool) or not isinstance(v, numbers.Integral):
        return v
    return int(v)


def _bool_reason(v: Any, what: str) -> str | None:
    return None if v in (0, 1) else f"{what} must answer true or false, got {v!r}"


def _bid_reason(v: Any, lowest: int, highest: int, step: int) -> str | None:
    if isinstance(v, bool) or not isinstance(v, int):
        return f"bid {v!r}, which is not a number"
    if v == 0:
        return None
    if lowest > highest:
        return f"bid {v}, but may only pass (his cap is {highest})"
    if not lowest <= v <= highest or (v - lowest) % step:
        return f"bid {v}, but may only pass or bid {lowest}..{highest} in steps of {step}"
    return None


# --------------------------------------------------------------------------- public API
def play_deal(rules: Rules, players: Sequence[Player], stream: Stream, dealer: int,
              state: GameState | None = None) -> DealResult:
    """Deal from ``stream`` and play one deal (or one redeal attempt) with ``players``.

    Parameters
    ----------
    rules : Rules
    players : one :class:`~thousand.reference.players.Player` per seat
    stream : the :class:`~thousand.reference.rng.Stream` to shuffle from
    dealer : dealer seat
    state : the game context; ``None`` is a fresh game (scores 0, nobody on the barrel)

    Returns
    -------
    DealResult
        Its ``trace`` replays to the same result with :func:`replay_deal`.
    """
    state = state.copy() if state is not None else GameState.fresh(rules.players)
    return _Deal(rules, players, _StreamChance(stream), dealer, state).run()


def replay_deal(rules: Rules, deal_trace: DealTrace, state: GameState | None = None,
                wrap_player: Callable[[Player, int], Player] | None = None) -> DealResult:
    """Replay a recorded deal; every decision is checked.

    ``wrap_player(trace_player, seat)`` may wrap each seat's trace player, e.g. to record
    the views or to ask another engine for its choice at every decision.

    Raises
    ------
    thousand.errors.IllegalDecision
        naming the event, the seat and why the decision is not allowed (or how the trace
        does not fit the deal).
    """
    state = state.copy() if state is not None else GameState.fresh(rules.players)
    _check_dealt(rules, deal_trace)
    cursor = TraceCursor(deal_trace.events)
    players: list[Player] = [TracePlayer(cursor, s) for s in range(rules.players)]
    if wrap_player is not None:
        players = [wrap_player(p, s) for s, p in enumerate(players)]
    result = _Deal(rules, players, _TraceChance(deal_trace, cursor), deal_trace.dealer, state).run()
    cursor.finish()
    return result


def _check_dealt(rules: Rules, t: DealTrace) -> None:
    n = rules.players
    if not 0 <= t.dealer < n:
        raise IllegalDecision(f"deal: dealer {t.dealer} is not a seat of a {n}-player table")
    if len(t.hands) != n:
        raise IllegalDecision(f"deal: {n} hands needed, the trace has {len(t.hands)}")
    n_talons = 2 if n == 2 else 1
    if len(t.talons) != n_talons:
        raise IllegalDecision(f"deal: {n_talons} talon(s) needed, the trace has {len(t.talons)}")
    hand_size, talon_size = (10, 2) if n == 2 else (7, 3)
    active = active_seats(n, t.dealer)
    seen = 0
    for s in range(n):
        want = hand_size if s in active else 0
        if popcount(t.hands[s]) != want:
            raise IllegalDecision(f"deal: seat {s} must be dealt {want} cards, the trace gives "
                                  f"{popcount(t.hands[s])} ({format_hand(t.hands[s])})")
        if seen & t.hands[s]:
            raise IllegalDecision(f"deal: {format_hand(seen & t.hands[s])} dealt twice")
        seen |= t.hands[s]
    for talon in t.talons:
        if popcount(talon) != talon_size:
            raise IllegalDecision(f"deal: a talon must hold {talon_size} cards, the trace has {format_hand(talon)}")
        if seen & talon:
            raise IllegalDecision(f"deal: {format_hand(seen & talon)} dealt twice")
        seen |= talon
    if seen != FULL_DECK:
        raise IllegalDecision(f"deal: {format_hand(FULL_DECK & ~seen)} not dealt")

