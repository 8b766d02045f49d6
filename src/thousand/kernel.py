"""The thin Python layer over the compiled kernel ``thousand._fastdeal``.

Validates the inputs, allocates the output buffers (growing them when the kernel pauses),
and turns the kernel's rows into the columns of :mod:`thousand.schema` and its event
arrays into :mod:`thousand.trace` objects.  The batch entry points:

* :func:`play_deals` -- deals outside a game (one row per dealt deal, redeals included);
* :func:`play_games` -- whole games (game rows, optionally the deal rows);
* :func:`play_forced_declarer` -- a given hand made declarer, every unseen-card completion;
* trace mode (``trace=True``) and :func:`deal_traces` / :func:`game_traces`.

>>> import numpy as np
>>> from thousand.rules import CLASSIC
>>> cols = play_deals(np.random.PCG64(1), CLASSIC, "greedy", n_deals=10)
>>> int((cols["redeal"] == 0).sum())
10
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

import numpy as np

from thousand import _fastdeal, schema
from thousand.errors import ThousandError
from thousand.rules import RuleField, Rules, parse_rules_spec
from thousand.strategies import resolve_strategies, workspaces
from thousand.trace import DealTrace, Event, EventKind, GameTrace

__all__ = ["KERNEL_VERSION", "DEAL_ROW_DTYPE", "GAME_ROW_DTYPE", "play_deals", "play_games",
           "play_forced_declarer", "play_forced_pass", "PassResult", "deal_traces", "game_traces", "traced_rows", "ForcedResult", "ROLE_SEATS", "decide"]

KERNEL_VERSION = _fastdeal.KERNEL_VERSION


def _row_dtype(fields: list[tuple[str, str, int]]) -> np.dtype:
    return np.dtype([(name, t, (k,)) if k > 1 else (name, t) for name, t, k in fields], align=True)


# Field order and types of the C structs DealRow / GameRow in src/_fastdeal.pxd.
DEAL_ROW_DTYPE = _row_dtype([
    ("deal_id", "i8", 1), ("game_id", "i8", 1), ("deal_no", "i4", 1), ("dealer", "i4", 1),
    ("hand", "u4", 4), ("talon", "u4", 1), ("talon2", "u4", 1), ("redeal", "i4", 1),
    ("redeal_by", "i4", 1), ("blind", "i4", 1), ("bid", "i4", 4), ("n_bids", "i4", 1),
    ("declarer", "i4", 1), ("obligation", "i4", 1), ("winning_bid", "i4", 1), ("contract", "i4", 1),
    ("resigned", "i4", 1), ("handoff_next", "i4", 1), ("handoff_other", "i4", 1),
    ("points", "i4", 4), ("marriages", "i4", 4), ("tricks", "i4", 4), ("declarer_points", "i4", 1),
    ("made", "i4", 1), ("score", "i4", 4), ("bolt", "i4", 4), ("total", "i4", 4), ("forehand", "i4", 1),
])
GAME_ROW_DTYPE = _row_dtype([
    ("game_id", "i8", 1), ("first_dealer", "i4", 1), ("winner", "i4", 1), ("deals", "i4", 1),
    ("redeals", "i4", 1), ("final", "i4", 4), ("declarer_deals", "i4", 4), ("made", "i4", 4),
    ("barrel_entries", "i4", 4), ("barrel_falls", "i4", 4), ("bolt_penalties", "i4", 4),
    ("resignations", "i4", 4), ("resets_555", "i4", 1), ("blind_deals", "i4", 1),
    ("blind_made", "i4", 1), ("golden_reset", "i4", 1), ("cut_penalties", "i4", 1),
    ("barrel_clashes", "i4", 1),
])
# The strategies' View struct (src/_fastdeal.pxd), for the view log of the tests.
VIEW_DTYPE = _row_dtype([(name, "u4" if name in _fastdeal.VIEW_UNSIGNED else "i4", k)
                         for name, k in _fastdeal.VIEW_FIELDS])
if VIEW_DTYPE.itemsize != _fastdeal.view_size():
    raise ImportError("thousand.kernel: the View dtype does not match the compiled kernel; run `make build`")
if DEAL_ROW_DTYPE.itemsize != _fastdeal.deal_row_size() or GAME_ROW_DTYPE.itemsize != _fastdeal.game_row_size():
    raise ImportError("thousand.kernel: row dtypes do not match the compiled kernel; run `make build`")

#: Seat of the forced declarer for each role (the dealer is seat 0).
ROLE_SEATS = {"forehand": 1, "middle": 2, "rear": 0}


# --------------------------------------------------------------------------- inputs
def _rules_array(rules: Any) -> np.ndarray:
    if isinstance(rules, str):   # a spec, as simulate() takes it
        rules = parse_rules_spec(rules)
    if isinstance(rules, Rules):
        return rules.to_kernel()
    try:
        arr = np.ascontiguousarray(rules, dtype=np.int32)
    except (TypeError, ValueError, OverflowError):
        raise ThousandError(f"rules: expected Rules, a spec such as 'classic' or an int32 array of "
                            f"{len(RuleField)}, got {type(rules).__name__}") from None
    if arr.shape != (len(RuleField),):
        raise ThousandError(f"rules: expected Rules or an int32 array of {len(RuleField)}, got shape {arr.shape}")
    return arr


def _as_bitgen(bitgen: Any) -> np.random.BitGenerator:
    if isinstance(bitgen, np.random.Generator):
        return bitgen.bit_generator
    if isinstance(bitgen, np.random.BitGenerator):
        return bitgen
    raise ThousandError(f"bitgen: expected a numpy BitGenerator such as PCG64, got {type(bitgen).__name__}")


#: The most deals, games or samples one kernel call plays: their rows (a hundred bytes and
#: more each) would not fit in memory beyond this; the runner splits a run into chunks.
MAX_COUNT = 2**31 - 1


def _count(value: Any, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 0:
        raise ThousandError(f"{name}: must be a whole number >= 0, got {value!r}")
    if value > MAX_COUNT:
        raise ThousandError(f"{name}: at most {MAX_COUNT:,} in one call, got {value:,} "
                            f"(thousand.simulate splits a run into chunks)")
    return int(value)


def _engine(bitgen: Any, rules: Any, strategies: Any, params: Any, decisions: Any = None) -> tuple[Any, np.ndarray]:
    r = _rules_array(rules)
    codes, vecs = resolve_strategies(strategies, int(r[RuleField.PLAYERS]), params)
    chance = _as_bitgen(bitgen)
    if decisions is not None:
        decisions = _as_bitgen(decisions)
        if decisions is chance:
            raise ThousandError("decisions: give a bit generator of its own, not the chance stream")
        if type(chance) is not np.random.PCG64:
            raise ThousandError(f"decisions: separate streams need a PCG64 chance stream, got {type(chance).__name__}")
    try:
        return _fastdeal.Engine(chance, r, codes, vecs, decisions, workspaces(codes)), r
    except ValueError as e:
        raise ThousandError(str(e)) from None


def _grow(buf: np.ndarray, used: int, extra: int) -> np.ndarray:
    new = np.zeros(max(2 * len(buf), used + extra), dtype=buf.dtype) if buf.ndim == 1 else \
        np.zeros((max(2 * len(buf), used + extra), buf.shape[1]), dtype=buf.dtype)
    new[:used] = buf[:used]
    return new


def _check_redeals(eng: Any) -> None:
    if eng.redeals_in_a_row >= eng.max_redeals:
        raise ThousandError(f"{eng.max_redeals:,} redeals in a row: the players never play "
                            "(a redeal condition every hand meets, and strategies that always demand it)")


# --------------------------------------------------------------------------- columns
def _deal_buffer(n: int, players: int = 3) -> dict[str, np.ndarray]:
    """Empty deal columns for ``n`` rows (what the kernel writes into)."""
    return {name: np.zeros(n, dtype=dtype) for name, (dtype, _) in schema.deal_columns(players, in_games=True).items()}


def _grow_columns(cols: dict[str, np.ndarray], used: int, extra: int) -> dict[str, np.ndarray]:
    players = sum(1 for name in cols if name.startswith("hand") and name[4:].isdigit())
    new = _deal_buffer(max(2 * len(cols["deal_id"]), used + extra), players)
    for name, arr in cols.items():
        new[name][:used] = arr[:used]
    return new


def _deal_columns(buf: dict[str, np.ndarray], n_rows: int, players: int) -> dict[str, np.ndarray]:
    """The schema's columns (plus ``total{s}``, ``forehand``) for a table of ``players``."""
    return {name: buf[name][:n_rows] for name in schema.deal_columns(players, in_games=True)}


def _game_columns(rows: np.ndarray, players: int) -> dict[str, np.ndarray]:
    cols: dict[str, np.ndarray] = {}
    for name, (dtype, _) in schema.GAME_COLUMNS.items():
        if name == "chunk":
            cols[name] = np.zeros(len(rows), dtype=dtype)
        elif "{s}" in name:
            base = name.replace("{s}", "")
            for s in range(players):
                cols[f"{base}{s}"] = _narrowed(f"{base}{s}", rows[base][:, s], dtype)
        else:
            cols[name] = _narrowed(name, rows[name], dtype)
    return cols


def _narrowed(name: str, values: np.ndarray, dtype: type) -> np.ndarray:
    """``values`` (the kernel's 32-bit game counters) in the column's dtype, refusing to wrap.

    A game's counters fit the schema's types for any ``max_deals`` the rules accept,
    except under rules that let a game run on for tens of thousands of redeals; a value
    that would wrap round is an error, never a wrong number in the data.
    """
    if np.dtype(dtype) == np.bool_:
        return values.astype(dtype)
    info = np.iinfo(dtype)
    if len(values) and (values.max() > info.max or values.min() < info.min):
        raise ThousandError(f"a game's {name} ({int(values.max()):,}) does not fit the {np.dtype(dtype).name} "
                            f"column; lower max_deals or the redeal options")
    return values.astype(dtype)


# --------------------------------------------------------------------------- deals
def _chosen(trace: Any, n: int, what: str) -> np.ndarray | None:
    """None to trace everything, or the sorted unique indices to trace."""
    if trace is True:
        return None
    try:
        idx = np.unique(np.asarray(list(trace), dtype=np.int64))
    except (TypeError, ValueError):
        raise ThousandError(f"trace: expected True or a list of {what} indices, got {trace!r}") from None
    if len(idx) and (idx[0] < 0 or idx[-1] >= n):
        raise ThousandError(f"trace: {what} indices must be in 0..{n - 1}")
    return idx


def play_deals(bitgen: Any, rules: Any, strategies: Any = None, *, n_deals: int, params: Any = None,
               trace: Any = False, decisions: Any = None) -> Any:
    """Play ``n_deals`` deals outside a game; one row per *dealt* deal.

    Scores start at 0 for every deal, nobody sits on the barrel; the dealer is seat
    ``k % players`` for the k-th played deal (a redeal keeps the dealer).  Redeals get
    their own rows (flagged in ``redeal``), so there are ``>= n_deals`` rows.

    Parameters
    ----------
    bitgen : numpy BitGenerator (PCG64), the only source of randomness
    rules : Rules, or ``Rules.to_kernel()``
    strategies : None (all ``standard``), one spec, or one per seat (``"standard:margin=10"``)
    params : optional ``players x k`` overrides of the parameter slots (see
        :func:`thousand.strategies.resolve_strategies`)
    n_deals : played deals wanted
    trace : also return the events, an ``int32 (m, 5)`` array ``(row, kind, seat, a, b)``:
        ``True`` for every deal, or a list of played-deal indices (each with the redeals
        dealt before it)
    decisions : None (the strategies draw from ``bitgen``: one stream, today's bytes), or
        a bit generator of their own: then ``bitgen`` is only the key of the chance and
        played deal ``k``'s ``a``-th attempt is dealt from its own place of that stream
        (docs/kernel.md, "Chance and decisions"), the same whatever the strategies draw --
        the same ``bitgen`` seed deals the same decks to any strategies

    Returns
    -------
    dict of numpy columns named as :func:`thousand.schema.deal_columns` (plus ``total{s}``
    and ``forehand``), or ``(columns, events)`` with ``trace=True``.
    """
    n = _count(n_deals, "n_deals")
    eng, r = _engine(bitgen, rules, strategies, params, decisions)
    players = int(r[RuleField.PLAYERS])
    cols = _deal_buffer(n + n // 2 + 16, players)
    mev = eng.max_events_per_deal
    chosen = _chosen(trace, n, "played-deal") if trace is not False else None
    n_traced = n if chosen is None else len(chosen)
    events = np.zeros((max(64, (n_traced + 16) * 48), 5), dtype=np.int32) if trace is not False else None
    n_rows = n_ev = 0
    while True:
        n_rows, n_ev = eng.run_deals(n, cols, len(cols["deal_id"]), events, n_rows, n_ev, chosen)
        if eng.played >= n:
            break
        _check_redeals(eng)
        if n_rows >= len(cols["deal_id"]):
            cols = _grow_columns(cols, n_rows, n - eng.played + 16)
        if events is not None and len(events) - n_ev < mev:
            events = _grow(events, n_ev, mev * 16)
    cols = _deal_columns(cols, n_rows, players)
    if trace is not False:
        return cols, events[:n_ev].copy()
    return cols


def play_games(bitgen: Any, rules: Any, strategies: Any = None, *, n_games: int, params: Any = None,
               deal_rows: bool = False, trace: Any = False,
               decisions: Any = None) -> Any:
    """Play ``n_games`` whole games.

    Returns ``(games, deals)``: game columns (:func:`thousand.schema.game_columns`) and,
    with ``deal_rows`` (or ``trace``), the deal columns with ``game_id``, ``deal_no`` and
    the score changes (else None).  With ``trace`` (True, or a list of game indices):
    ``(games, deals, events)``.

    ``decisions``: None (one stream), or the strategies' own bit generator: then each game
    is dealt from its own place of ``bitgen``'s stream (its first dealer, then its deal
    ``k``'s ``a``-th attempt), so the same ``bitgen`` seed replays the same decks, game by
    game and deal by deal, to any strategies in any seats -- the deck stream of duplicate
    matches (docs/kernel.md, "Chance and decisions").
    """
    n = _count(n_games, "n_games")
    eng, r = _engine(bitgen, rules, strategies, params, decisions)
    players = int(r[RuleField.PLAYERS])
    tracing = trace is not False
    chosen = _chosen(trace, n, "game") if tracing else None
    keep = deal_rows or tracing
    games = np.zeros(max(n, 1), dtype=GAME_ROW_DTYPE)
    rows = _deal_buffer(max(64, n * 40), players) if keep else None
    mev = eng.max_events_per_deal
    n_traced = n if chosen is None else len(chosen)
    events = np.zeros((max(1024, n_traced * 24 * 40), 5), dtype=np.int32) if tracing else None
    n_games_done = n_rows = n_ev = 0
    while True:
        n_games_done, n_rows, n_ev = eng.run_games(
            n, games.view(np.uint8), n_games_done,
            rows, len(rows["deal_id"]) if rows is not None else 0, n_rows, events, n_ev, chosen)
        if n_games_done >= n:
            break
        _check_redeals(eng)
        if rows is not None and n_rows >= len(rows["deal_id"]):
            rows = _grow_columns(rows, n_rows, 1024)
        if events is not None and len(events) - n_ev < mev:
            events = _grow(events, n_ev, mev * 64)
    gcols = _game_columns(games[:n], players)
    dcols = _deal_columns(rows, n_rows, players) if keep else None
    if tracing:
        return gcols, dcols, events[:n_ev].copy()
    return gcols, dcols


# --------------------------------------------------------------------------- traces
def _events_by_row(events: np.ndarray, n_rows: int) -> list[np.ndarray]:
    starts = np.searchsorted(events[:, 0], np.arange(n_rows + 1))
    return [events[starts[i]:starts[i + 1]] for i in range(n_rows)]


def deal_traces(cols: dict[str, np.ndarray], events: np.ndarray, players: int) -> list[DealTrace]:
    """One :class:`~thousand.trace.DealTrace` per traced deal row (redeals included), in
    row order; ``[t.row for t in ...]`` is not stored, use :func:`traced_rows`."""
    n_rows = len(cols["deal_id"])
    out = []
    by_row = _events_by_row(events, n_rows)
    kinds = tuple(EventKind)   # by code: EventKind(code) is an enum lookup a call
    for i in traced_rows(events):
        evs = by_row[i].tolist()   # Python ints: indexing numpy rows a field at a time is slow
        hands = tuple(int(cols[f"hand{s}"][i]) for s in range(players))
        if players == 2:
            t1, t2 = int(cols["talon"][i]), int(cols["talon2"][i])
            taken = [e for e in evs if e[1] == EventKind.TALON]
            talons = (t2, t1) if taken and taken[0][3] == 1 else (t1, t2)
        else:
            talons = (int(cols["talon"][i]),)
        out.append(DealTrace(dealer=int(cols["dealer"][i]), hands=hands, talons=talons,
                             events=[Event(kinds[e[1]], e[2], e[3], e[4]) for e in evs]))
    return out


def traced_rows(events: np.ndarray) -> np.ndarray:
    """Deal rows that have events (every traced deal has at least one)."""
    return np.unique(events[:, 0])


def game_traces(rules: Rules, games: dict[str, np.ndarray], deals: dict[str, np.ndarray],
                events: np.ndarray) -> dict[int, GameTrace]:
    """``{game index: GameTrace}`` for the traced games of a ``play_games(trace=...)`` run."""
    rows = traced_rows(events)
    traces = deal_traces(deals, events, rules.players)
    gid = deals["game_id"][rows]
    out: dict[int, GameTrace] = {}
    for k in np.unique(gid):
        k = int(k)
        sel = np.flatnonzero(gid == k)
        out[k] = GameTrace(rules=rules, first_dealer=int(games["first_dealer"][k]),
                           deals=[traces[i] for i in sel])
    return out


# --------------------------------------------------------------------------- forced declarer
@dataclass
class ForcedResult:
    """Per-completion outcomes of :func:`play_forced_declarer` (arrays of equal length).

    ``talon`` (uint32 mask), ``declarer_points`` (cards + marriages + bonus, played out
    even when the declarer resigned), ``decision`` (the raise/resign answer: the contract
    he would play, or -1 resign), ``points`` (n x 3: cards + marriages per seat),
    ``marriages`` (n x 3: declared marriage points per seat); ``declarer`` is his seat;
    ``declarer_bolt`` (int8): the bolts the declarer gets when the deal is scored as played
    out (0, or 1 when he won no trick / no points, as ``bolt_when`` says; 0 with
    ``bolts = off``), also where he resigned (a resignation itself gives no bolt).
    """

    hand: int
    role: str
    declarer: int
    contract: int
    exact: bool
    talon: np.ndarray
    declarer_points: np.ndarray
    decision: np.ndarray
    points: np.ndarray
    marriages: np.ndarray
    declarer_bolt: np.ndarray

    def made(self, bid: int) -> np.ndarray:
        """Did the played-out deal reach ``bid``?"""
        return self.declarer_points >= bid


N_COMPLETIONS = 680 * 3432


def _forced_inputs(rules: Any, role: str, hand: Any, mode: str) -> tuple[np.ndarray, int]:
    """Rules array and hand mask of a forced mode (3 players, a known role, 7 cards)."""
    r = _rules_array(rules)
    if int(r[RuleField.PLAYERS]) != 3:
        raise ThousandError(f"{mode} plays the 3-player game")
    if role not in ROLE_SEATS:
        raise ThousandError(f"role must be one of {', '.join(ROLE_SEATS)}, got {role!r}")
    hand = int(hand)
    if not 0 <= hand < 1 << 24 or bin(hand).count("1") != 7:
        raise ThousandError(f"hand must be a mask of 7 cards, got {hand:#x}")
    return r, hand


def play_forced_declarer(bitgen: Any, rules: Any, strategies: Any = None, *, hand: int, role: str,
                         params: Any = None, n_samples: int = 100_000, exact: bool = False,
                         contract: int = 100, decisions: Any = None) -> ForcedResult:
    """The 7-card ``hand`` at ``role`` made declarer at ``contract`` (3 players; auction skipped).

    The 17 unseen cards go to the talon and the two opponents: ``n_samples`` uniform
    deals from ``bitgen``, or with ``exact`` all ``C(17,3) * C(14,7) = 2,333,760``.  The
    strategies then take the talon, hand off, answer raise/resign (recorded in
    ``decision``), and play the eight tricks -- played out even after a resignation, so
    ``declarer_points >= b`` says whether bid ``b`` would have been made.  No redeal is
    asked (the completion is what is being measured).  The dealer is seat 0: forehand is
    seat 1, middle seat 2, rear seat 0.  ``decisions`` (a bit generator of its own) moves
    the strategies' random draws off ``bitgen``, so that the completions drawn do not depend
    on how many numbers the strategies drew (a contract-aware strategy draws differently
    at another contract).
    """
    r, hand = _forced_inputs(rules, role, hand, "play_forced_declarer: the forced-declarer mode")
    step = int(r[RuleField.BID_STEP])
    if contract < 100 or (contract - 100) % step:
        raise ThousandError(f"contract must be 100 or more in steps of {step}, got {contract}")
    n = N_COMPLETIONS if exact else _count(n_samples, "n_samples")
    eng, _ = _engine(bitgen, r, strategies, params, decisions)
    seat = ROLE_SEATS[role]
    talon = np.zeros(n, dtype=np.uint32)
    decision = np.zeros(n, dtype=np.int16)
    points = np.zeros((n, 3), dtype=np.int16)
    marriages = np.zeros((n, 3), dtype=np.int16)
    dpoints = np.zeros(n, dtype=np.int16)
    bolt = np.zeros(n, dtype=np.int8)
    scratch = np.zeros(1, dtype=DEAL_ROW_DTYPE)
    if n:
        eng.run_forced(hand, seat, contract, n, exact, talon, decision, points, marriages, dpoints, bolt,
                       scratch.view(np.uint8))
    return ForcedResult(hand=hand, role=role, declarer=seat, contract=contract, exact=exact, talon=talon,
                        declarer_points=dpoints, decision=decision, points=points, marriages=marriages,
                        declarer_bolt=bolt)


# --------------------------------------------------------------------------- forced pass
@dataclass
class PassResult:
    """Per-completion outcomes of :func:`play_forced_pass` (arrays of equal length).

    ``score`` (int16): the seat's score change in the deal (rules' scoring and rounding);
    ``declarer`` (int8): the declarer's seat; ``winning_bid`` (int16): the auction's result
    (before any raise); ``bolt`` (int8): the bolts the seat got in the deal (0, 1; 2 in a
    blind deal; never on a resignation); ``redeals``: completions thrown away because
    another seat asked for a redeal (a new completion was drawn each time).
    """

    hand: int
    role: str
    seat: int
    score: np.ndarray
    declarer: np.ndarray
    winning_bid: np.ndarray
    redeals: int
    bolt: np.ndarray

    @property
    def on_obligation(self) -> np.ndarray:
        """Did the seat end as declarer (only possible on obligation at 100, as forehand)?"""
        return self.declarer == self.seat


def play_forced_pass(bitgen: Any, rules: Any, strategies: Any = None, *, hand: int, role: str,
                     params: Any = None, n_samples: int = 100_000) -> PassResult:
    """The 7-card ``hand`` at ``role`` passes at its first chance (3 players; sampled).

    The 17 unseen cards are dealt uniformly at random around the fixed hand (as in
    :func:`play_forced_declarer`: talon, the seat after, the other seat).  The normal auction
    runs with the strategies, except that the seat passes whenever first asked; a forehand's
    forced 100 still stands, so if both others pass he plays it on obligation.  The deal is
    then played out by the strategies (talon, hand-off, raise/resign, play, scoring).  The
    seat never goes blind and never asks for a redeal; when another seat asks for a hand,
    talon or four-nines redeal, the completion is discarded and a new one drawn (the hand
    stays, the other 17 cards are re-dealt) -- counted in ``redeals``.  The dealer is seat 0.
    """
    r, hand = _forced_inputs(rules, role, hand, "play_forced_pass: the forced-pass mode")
    n = _count(n_samples, "n_samples")
    eng, _ = _engine(bitgen, r, strategies, params)
    seat = ROLE_SEATS[role]
    score = np.zeros(n, dtype=np.int16)
    declarer = np.zeros(n, dtype=np.int8)
    winning_bid = np.zeros(n, dtype=np.int16)
    bolt = np.zeros(n, dtype=np.int8)
    redeals = np.zeros(1, dtype=np.int32)
    scratch = np.zeros(1, dtype=DEAL_ROW_DTYPE)
    if n:
        eng.run_pass(hand, seat, n, score, declarer, winning_bid, bolt, redeals, scratch.view(np.uint8))
    return PassResult(hand=hand, role=role, seat=seat, score=score, declarer=declarer,
                      winning_bid=winning_bid, redeals=int(redeals[0]), bolt=bolt)


# --------------------------------------------------------------------------- one decision
def decide(kind: str, strategy: Any, params: Any, view: dict[str, Any], bitgen: Any = None,
           rules: Any = None, work: Any = None) -> Any:
    """One decision of a kernel strategy in one position: the kernel's single-decision
    entry (``_fastdeal.decide``), for the reference engine's ``KernelPlayer``, tests and tools.

    ``kind``: ``blind``, ``redeal``, ``bid``, ``hand_off``, ``raise`` or ``play``;
    ``strategy``: a code (``STRATEGIES[name].code``); ``params``: its parameter vector;
    ``view``: a dict of the View's fields (``thousand.strategies.kernel_view`` makes one
    from a reference View; fields not given keep neutral defaults); ``bitgen``: the
    strategy's random stream (``random`` needs one); ``rules`` (default classic): the
    Seat's rules, and the defaults of the View's rule fields (bid step, ace marriage,
    barrel target and contract); ``work`` the strategy's workspace (a uint8 array of
    ``Strategy.workspace`` bytes; allocated for the call when not given: pass one to reuse
    it).  Answers: blind / redeal 1 or 0; bid 0 or the bid;
    hand_off ``(to the next seat, to the other)``; raise the contract or -1 (resign);
    play ``(card, declare)``.

    >>> from thousand.cards import parse_hand
    >>> from thousand.strategies import STRATEGIES
    >>> greedy = STRATEGIES["greedy"]
    >>> decide("bid", greedy.code, [0.0] * 8, {"hand": parse_hand("KH QH AS 9S 9C JC 9D"),
    ...                                          "min_bid": 105, "max_bid": 180})
    105
    """
    from thousand.rules import CLASSIC
    if work is None:
        work = workspaces([int(strategy)])[0]
    return _fastdeal.decide(kind, int(strategy), params, view, bitgen, _rules_array(CLASSIC if rules is None else rules),
                            work)
