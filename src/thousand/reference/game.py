"""A whole game to the target: deals in turn, settled into scores, barrel, bolts, 555, kon.

:func:`settle_deal` is the after-deal procedure of ``docs/rules.md`` ("A game", steps
1-5); :func:`play_game` and :func:`replay_game` loop deals and settle them.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

from thousand.errors import IllegalDecision
from thousand.rules import Rules
from thousand.schema import game_columns
from thousand.trace import GameTrace

from .deal import DealResult, GameState, active_seats, play_deal, replay_deal
from .players import Player
from .rng import Stream

__all__ = ["GameResult", "SettleNotes", "settle_deal", "play_game", "replay_game", "GOLDEN_DEALS"]

GOLDEN_DEALS = 3


@dataclass
class SettleNotes:
    """What settling one deal did, for the game counters and the playthrough."""

    bolt_penalties: list[int]
    barrel_off: int = -1            # sitter who came off by making it
    barrel_entered: int = -1        # new sitter
    barrel_falls: list[int] = field(default_factory=list)   # seats that fell or were knocked off
    barrel_fall_why: list[str] = field(default_factory=list)  # for each fall, why (the playthrough)
    barrel_clash: list[int] = field(default_factory=list)   # seats that reached it together
    barrel_clash_score: int = 0     # where they were set
    barrel_void: int = 0            # the sitter's gain that did not count (he stayed on)
    barrel_void_seat: int = -1
    barrel_void_why: str = ""       # what would have taken him off
    bolt_penalty: int = 0           # what one bolt penalty cost
    reset_555: list[int] = field(default_factory=list)
    golden_reset: bool = False
    winner: int = -1
    scores: list[int] = field(default_factory=list)


def _reset_555(rules: Rules, st: GameState, notes: SettleNotes) -> None:
    if rules.samozval_555:
        for s in range(rules.players):
            if st.scores[s] in (555, -555):
                st.scores[s] = 0
                notes.reset_555.append(s)


def settle_deal(rules: Rules, state: GameState, res: DealResult) -> tuple[GameState, SettleNotes]:
    """The game state after ``res``, and what happened.  ``state`` is not changed.

    A redeal only pays its cut-nine fine (and the 555 step, where the fine lands a score
    on it).  A played deal goes through the steps of
    ``docs/rules.md``: score changes (a sitter's gains only if he comes off), bolt
    penalties, the barrel, 555, golden kon, the winner.
    """
    n = rules.players
    st = state.copy()
    notes = SettleNotes(bolt_penalties=[0] * n)
    for s in range(n):
        st.scores[s] -= res.cut_fines[s]
    sitter = state.barrel_sitter
    if sitter >= 0 and rules.barrel_at is not None and st.scores[sitter] < rules.barrel_at:
        # a cut-nine fine, paid before the deal, took the sitter under the barrel: off it
        # at once (the deal was played with him off it, docs/rules.md)
        notes.barrel_falls.append(sitter)
        notes.barrel_fall_why.append(f"the cut-nine fine took the score under {rules.barrel_at}")
        st.barrel_sitter = sitter = -1
    if res.is_redeal:
        _reset_555(rules, st, notes)   # the fine may land a score on 555
        notes.scores = list(st.scores)
        return st, notes

    d = res.declarer
    comes_off = (sitter >= 0 and d == sitter and res.made and not res.resigned
                 and res.contract >= rules.barrel_contract and res.declarer_points >= rules.barrel_target)
    # 1. score changes; a sitter's gains count only when he comes off, and with
    # barrel_takes_talon (003) his failed attempts cost nothing: the last one falls off (3.)
    for s in range(n):
        change = res.scores[s]
        if s == sitter and change > 0 and not comes_off:
            notes.barrel_void, notes.barrel_void_seat = change, s
            notes.barrel_void_why = (f"a made contract of {rules.barrel_contract} or more with "
                                     f"{rules.barrel_target} points takes the sitter off")
            change = 0
        elif s == sitter and change < 0 and s == d and rules.barrel_takes_talon:
            notes.barrel_void, notes.barrel_void_seat = change, s
            notes.barrel_void_why = (f"with barrel_takes_talon a failed attempt costs nothing; failing all "
                                     f"{rules.barrel_deals} costs {rules.barrel_penalty}")
            change = 0
        st.scores[s] += change
    if res.resigned:
        st.resignations[d] += 1
    # 2. bolts (a blind deal's bolt counts twice, one at a time)
    for s in range(n):
        if res.bolts[s]:
            for _ in range(res.bolt_weight):
                st.bolts[s] += 1
                if st.bolts[s] == 3:
                    st.scores[s] -= rules.bolt_penalty
                    st.bolts[s] = 0
                    notes.bolt_penalties[s] += 1
                    notes.bolt_penalty = rules.bolt_penalty
    # 3. the barrel
    if rules.barrel_at is not None:
        _settle_barrel(rules, st, sitter, comes_off, notes,
                       sat_out=sitter >= 0 and sitter not in active_seats(n, res.dealer))
    # 4. 555
    _reset_555(rules, st, notes)
    # golden kon: after the last golden deal with nobody making it, back to 0
    st.golden_made = state.golden_made or (res.golden and res.made)
    if res.golden and st.deal_no == GOLDEN_DEALS - 1 and not st.golden_made:
        st.scores = [0] * n
        st.barrel_sitter, st.barrel_count = -1, 0
        notes.golden_reset = True
    # 5. the winner
    over = [s for s in range(n) if st.scores[s] >= rules.target]
    if d in over:
        notes.winner = d
    elif over:
        forehand = active_seats(n, res.dealer)[0]
        order = [(forehand + i) % n for i in range(n)]
        notes.winner = max(over, key=lambda s: (st.scores[s], -order.index(s)))
    st.deal_no += 1
    st.golden = rules.golden_kon and st.deal_no < GOLDEN_DEALS
    notes.scores = list(st.scores)
    return st, notes


def _settle_barrel(rules: Rules, st: GameState, sitter: int, comes_off: bool, notes: SettleNotes,
                   sat_out: bool = False) -> None:
    n = len(st.scores)
    at = rules.barrel_at
    if sitter >= 0:
        if comes_off:
            st.barrel_sitter = -1
            notes.barrel_off = sitter
        else:
            # with barrel_takes_talon the count is of his attempts (003: three of them): a
            # deal he sits out as the 4-player dealer is not one (try-out 36)
            if not (rules.barrel_takes_talon and sat_out):
                st.barrel_count += 1
            if st.scores[sitter] < at:        # a lost contract (or a penalty) took him under
                st.barrel_sitter = -1
                notes.barrel_falls.append(sitter)
                notes.barrel_fall_why.append(f"the score went under {at}")
            elif st.barrel_count >= rules.barrel_deals:
                # (000: "sits on the Barrel for the third time and still fails")
                if rules.barrel_third_reset and st.barrel_sits[sitter] == 3:
                    st.scores[sitter] = 0
                    cost = "the third time: back to 0"
                else:
                    st.scores[sitter] -= rules.barrel_penalty
                    cost = f"-{rules.barrel_penalty}"
                st.barrel_sitter = -1
                notes.barrel_falls.append(sitter)
                used = "attempts" if rules.barrel_takes_talon else "deals on it"
                notes.barrel_fall_why.append(f"{rules.barrel_deals} {used} without coming off: {cost}")
    reached = [s for s in range(n) if s != sitter and at <= st.scores[s] < rules.target]
    if len(reached) == 1:
        new = reached[0]
        st.scores[new] = at
        if st.barrel_sitter >= 0:             # the new sitter knocks the old one off
            st.scores[st.barrel_sitter] -= rules.barrel_penalty
            notes.barrel_falls.append(st.barrel_sitter)
            notes.barrel_fall_why.append(f"knocked off by seat {new}: -{rules.barrel_penalty}")
        st.barrel_sitter, st.barrel_count = new, 0
        st.barrel_sits[new] += 1
        notes.barrel_entered = new
    elif len(reached) > 1:                    # several at once: all pay, nobody sits
        for s in reached:
            st.scores[s] = at - rules.barrel_penalty
        notes.barrel_clash = reached
        notes.barrel_clash_score = at - rules.barrel_penalty


@dataclass
class GameResult:
    """A finished game: winner (-1 when ``max_deals`` stopped it), scores after each played
    deal, final scores, the game counters of :data:`thousand.schema.GAME_COLUMNS`, every
    deal's result (redeals included) and the trace."""

    rules: Rules
    winner: int
    first_dealer: int
    history: list[list[int]]
    final: list[int]
    counters: dict[str, Any]
    deals: list[DealResult]
    notes: list[SettleNotes]
    trace: GameTrace

    def to_row(self, game_id: int = 0, chunk: int = 0) -> dict[str, Any]:
        row = {"game_id": game_id, "chunk": chunk}
        row.update(self.counters)
        return {k: row[k] for k in game_columns(self.rules.players)}


class _Counters:
    def __init__(self, n: int, first_dealer: int) -> None:
        self.n = n
        self.c: dict[str, Any] = {"first_dealer": first_dealer, "winner": -1, "deals": 0, "redeals": 0}
        for name in ("declarer_deals", "made", "barrel_entries", "barrel_falls", "bolt_penalties", "resignations"):
            for s in range(n):
                self.c[f"{name}{s}"] = 0
        self.c.update(resets_555=0, blind_deals=0, blind_made=0, golden_reset=False, cut_penalties=0,
                      barrel_clashes=0)

    def add(self, res: DealResult, notes: SettleNotes) -> None:
        c = self.c
        c["cut_penalties"] += sum(f // 120 for f in res.cut_fines)
        for s in notes.barrel_falls:     # (a redeal's cut-nine fine can take a sitter off)
            c[f"barrel_falls{s}"] += 1
        c["resets_555"] += len(notes.reset_555)   # (and its fine can land a score on 555)
        if res.is_redeal:
            c["redeals"] += 1
            return
        c["deals"] += 1
        d = res.declarer
        c[f"declarer_deals{d}"] += 1
        c[f"made{d}"] += int(res.made)
        c[f"resignations{d}"] += int(res.resigned)
        if res.blind:
            c["blind_deals"] += 1
            c["blind_made"] += int(res.made)
        for s in range(self.n):
            c[f"bolt_penalties{s}"] += notes.bolt_penalties[s]
        if notes.barrel_entered >= 0:
            c[f"barrel_entries{notes.barrel_entered}"] += 1
        c["barrel_clashes"] += int(bool(notes.barrel_clash))
        c["golden_reset"] = c["golden_reset"] or notes.golden_reset


def _run_game(rules: Rules, first_dealer: int, next_deal,
              on_deal: Callable[[DealResult, SettleNotes], None] | None = None) -> GameResult:
    n = rules.players
    state = GameState.fresh(n)
    state.golden = rules.golden_kon
    dealer = first_dealer
    counters = _Counters(n, first_dealer)
    deals: list[DealResult] = []
    notes_list: list[SettleNotes] = []
    history: list[list[int]] = []
    winner = -1
    while True:
        res = next_deal(dealer, state)
        if res is None:
            break
        state, notes = settle_deal(rules, state, res)
        deals.append(res)
        notes_list.append(notes)
        counters.add(res, notes)
        if on_deal is not None:
            on_deal(res, notes)
        if res.is_redeal:
            continue
        history.append(list(state.scores))
        dealer = (dealer + 1) % n
        if notes.winner >= 0:
            winner = notes.winner
            break
        if state.deal_no >= rules.max_deals:
            break
    counters.c["winner"] = winner
    for s in range(n):
        counters.c[f"final{s}"] = state.scores[s]
    trace = GameTrace(rules=rules, first_dealer=first_dealer, deals=[r.trace for r in deals])
    return GameResult(rules=rules, winner=winner, first_dealer=first_dealer, history=history,
                      final=list(state.scores), counters=counters.c, deals=deals, notes=notes_list, trace=trace)


def play_game(rules: Rules, players: Sequence[Player], stream: Stream, max_redeals: int = 10000,
              on_deal: Callable[[DealResult, SettleNotes], None] | None = None) -> GameResult:
    """Play a game to the target (or ``max_deals``): the first dealer is ``draw_bounded(n)``.

    ``max_redeals`` guards against players that redeal for ever (a ThousandError past it).
    ``on_deal(result, notes)`` is told each deal (a redeal attempt too) once it is settled:
    how a table shows the end of a deal that nobody is asked about.
    """
    first_dealer = stream.draw_bounded(rules.players)
    in_a_row = [0]

    def next_deal(dealer: int, state: GameState) -> DealResult:
        res = play_deal(rules, players, stream, dealer, state)
        in_a_row[0] = in_a_row[0] + 1 if res.is_redeal else 0
        if in_a_row[0] > max_redeals:
            raise IllegalDecision(f"{max_redeals:,} redeals in a row: the players never play")
        return res

    return _run_game(rules, first_dealer, next_deal, on_deal)


def replay_game(rules: Rules, game_trace: GameTrace) -> GameResult:
    """Replay a recorded game, checking every decision and that the trace ends with the game."""
    traces = list(game_trace.deals)
    pos = [0]

    def next_deal(dealer: int, state: GameState) -> DealResult | None:
        i = pos[0]
        if i >= len(traces):
            raise IllegalDecision(f"deal {i}: the game is not over, but the trace has no more deals")
        t = traces[i]
        if t.dealer != dealer:
            raise IllegalDecision(f"deal {i}: the dealer is seat {dealer}, the trace says seat {t.dealer}")
        pos[0] += 1
        try:
            return replay_deal(rules, t, state)
        except IllegalDecision as e:
            raise IllegalDecision(f"deal {i}, {e}") from None

    result = _run_game(rules, game_trace.first_dealer, next_deal)
    if pos[0] < len(traces):
        raise IllegalDecision(f"deal {pos[0]}: the game is over, but the trace has {len(traces) - pos[0]} more deal(s)")
    return result
