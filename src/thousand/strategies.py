"""The kernel's strategies: names, codes, numeric parameters, and a reference-engine player.

A seat's strategy is written ``NAME`` or ``NAME:k=v,...`` (``standard:margin=10``).  Every
strategy runs inside the compiled kernel (``src/_strategies.pxi``); this module names
them, documents their parameters, turns specs into the kernel's arrays, and wraps the
kernel's single-decision functions as a :class:`KernelPlayer` for the reference engine
(and so for the interactive table and search players).

>>> parse_strategy("random").name
'random'
>>> canonical("greedy")
'greedy'
>>> resolve_strategies(["random", "greedy", "standard"], 3)[0].tolist()
[0, 1, 2, 2]
"""
from __future__ import annotations

import math
import re

from dataclasses import dataclass, field
from typing import Any, Sequence

import numpy as np

from thousand.errors import ThousandError

__all__ = ["Strategy", "Param", "STRATEGIES", "DEFAULT_STRATEGY", "N_PARAMS", "ParsedStrategy",
           "parse_strategy", "canonical", "resolve_strategies", "KernelPlayer",
           "register_strategy", "kernel_view", "workspaces", "draws"]

#: Parameter slots per seat in the kernel (``double[N_PARAMS]``).
N_PARAMS = 13
DEFAULT_STRATEGY = "standard"


@dataclass(frozen=True)
class Param:
    """A numeric parameter: its slot in the kernel's parameter vector, default and meaning."""

    slot: int
    default: float
    doc: str
    low: float = -1000.0     # the values a user may give, both ends included: wider than
    high: float = 1000.0     # any sensible setting, narrow enough to refuse a typo (1e40)
    whole: bool = False      # a count: the kernel would cut 2.5 to 2 and play it as 2


@dataclass(frozen=True)
class Strategy:
    """A kernel strategy: its code (``_fastdeal.STRATEGY_CODES``), summary and parameters."""

    name: str
    code: int
    doc: str
    params: dict[str, Param] = field(default_factory=dict)
    alias_of: str | None = None
    workspace: int = 0      # bytes of scratch its Seat gets (Python allocates, the kernel uses)
    # its card play depends on the contract (it plays to make or beat it): a bid's odds
    # need a run at that contract (``thousand bid`` replays every bid, as --per-bid)
    plays_to_contract: bool = False
    # its decisions draw from the random stream: the same cards are played otherwise with
    # another seed, so no enumeration of the cards makes its figures exact (``bid --exact``)
    draws: bool = False


STRATEGIES: dict[str, Strategy] = {}


def register_strategy(strategy: Strategy) -> None:
    """Add (or replace) a strategy; its code must be one the kernel dispatches on."""
    from thousand import _fastdeal
    if _fastdeal.strategy_branch_of(strategy.code) is None:
        raise ValueError(f"{strategy.name}: the kernel has no branch for strategy code {strategy.code}")
    for p in strategy.params.values():
        if not 0 <= p.slot < N_PARAMS:
            raise ValueError(f"{strategy.name}: parameter slot {p.slot} outside 0..{N_PARAMS - 1}")
    STRATEGIES[strategy.name] = strategy


register_strategy(Strategy(
    "random", 0,
    "uniform legal choices drawn from the deal's random stream (the reference engine's "
    "RandomPlayer makes the same draws)", draws=True))
register_strategy(Strategy(
    "greedy", 1,
    "the naive baseline: bids up to 100 plus its best marriage, demands every redeal it may, "
    "hands off its two lowest cards, keeps the contract, plays its highest legal card and "
    "declares whenever it can"))

# The sensible family: one player in the kernel (``sensible_*`` in _strategies.pxi), three
# parameter sets.  Slots match the P_* constants there; docs/strategies.md explains them.
# name: (slot, meaning, lowest, highest).  The spread divides the surplus (it must stay
# positive); the talon weight, blind gap and gamble threshold mean nothing below 0.
_FAMILY_PARAMS: dict[str, tuple[int, str, float, float]] = {
    "margin": (0, "bid while the hand's estimate minus this margin reaches the bid (points)", -400, 400),
    "raise_margin": (1, "after the hand-off, raise the contract to the estimate minus this", -400, 400),
    "talon": (2, "weight of the talon's expected card points (3/17 of the unseen points; 2/14 with 2 players) in the bid estimate", 0, 10),
    "redeal_below": (3, "demand a hand redeal (when the rules allow one) if the estimate is below this", -400, 400),
    "spread": (4, "points either side of the contract over which the make chance runs from 0 to 1", 1, 400),
    "resign_bias": (5, "relative points a resignation must save before the declarer resigns", -400, 400),
    "blind_gap": (6, "go blind when trailing the leading opponent by at least this much (0: never)", 0, 1000),
    "gamble": (7, "trick points (card led) for which the declarer overtakes without a sure winner (12: never)", 0, 12),
}
_FAMILY_DEFAULTS: dict[str, dict[str, float]] = {
    "cautious": {"margin": 25, "raise_margin": 50, "talon": 1.0, "redeal_below": 95,
                 "spread": 30, "resign_bias": 0, "blind_gap": 0, "gamble": 10},
    "standard": {"margin": 10, "raise_margin": 35, "talon": 1.2, "redeal_below": 90,
                 "spread": 30, "resign_bias": 0, "blind_gap": 0, "gamble": 4},
    "aggressive": {"margin": 0, "raise_margin": 25, "talon": 1.4, "redeal_below": 85,
                   "spread": 30, "resign_bias": 10, "blind_gap": 400, "gamble": 4},
}
_FAMILY_DOCS = {
    "cautious": "the sensible player with wide margins: bids and raises only on a clear surplus",
    "standard": ("the default player: estimates its hand (aces, guarded tens, marriages it can "
                 "declare, the talon's expected help) and bids up to the estimate minus a margin, "
                 "hands off to keep marriages and make voids, raises or resigns by expected score, "
                 "and plays as a careful player (cashes winners, declares marriages, draws trumps, "
                 "gives points to the partner's trick, wins cheaply, counts the cards)"),
    "aggressive": "the sensible player with thin margins: bids on hope, raises readily, may go blind when far behind",
}
for _name, _code in (("standard", 2), ("cautious", 3), ("aggressive", 4)):
    register_strategy(Strategy(
        _name, _code, _FAMILY_DOCS[_name],
        {k: Param(slot, float(_FAMILY_DEFAULTS[_name][k]), doc, low, high)
         for k, (slot, doc, low, high) in _FAMILY_PARAMS.items()}))


# The search player (src/_pimc.pxi; docs/strategies.md "pimc"): bids, answers blind and
# redeal questions as standard (slots 0..7, standard's parameters and defaults); plays
# cards, hands off and raises or resigns by solving worlds.  Its workspace is the solver's
# transposition table (2 * 2**12 entries of 16 bytes and a header: 128 KB; the same
# decisions as with 1 MB, 6% faster: the small table stays in the core's caches,
# docs/kernel.md "The table's size").  The defaults spend the 5 ms per decision (on
# average) where duplicate matches measured it to pay: the defenders and the raise more
# worlds than the declarer's cards (docs/strategies.md, "pimc").
PIMC_TABLE_BYTES = (1 + 2 * (1 << 12)) * 16
_PIMC_PARAMS: dict[str, tuple[int, float, str, float, float]] = {
    "worlds": (8, 4, "worlds solved per card decision as the declarer (every consistent world "
                      "when there are no more than this)", 1, 1024),
    "hand_off_pairs": (9, 1, "hand-off candidates (pairs of cards) kept from the standard ranking, "
                             "each tried in both directions", 1, 66),
    "hand_off_worlds": (10, 2, "worlds solved per hand-off candidate", 1, 1024),
    "raise_worlds": (11, 8, "worlds solved for the raise/resign decision", 1, 1024),
    "defence_worlds": (12, 16, "worlds solved per card decision as a defender (every consistent "
                              "world when there are no more than this)", 1, 1024),
}
register_strategy(Strategy(
    "pimc", 5,
    "perfect-information Monte Carlo: at each card, hand-off and raise/resign it deals the hidden "
    "cards in ways consistent with what the seat saw (worlds), solves each with the open-hand solver "
    "and takes the answer best on average (declarer: make the contract, then points; defenders: "
    "beat it, then points); bids as standard",
    {**{k: Param(slot, float(_FAMILY_DEFAULTS["standard"][k]), doc, low, high)
        for k, (slot, doc, low, high) in _FAMILY_PARAMS.items()},
     **{k: Param(slot, float(default), doc, low, high, whole=True)
        for k, (slot, default, doc, low, high) in _PIMC_PARAMS.items()}},
    workspace=PIMC_TABLE_BYTES, plays_to_contract=True, draws=True))


@dataclass(frozen=True)
class ParsedStrategy:
    name: str
    code: int
    params: np.ndarray   # float64[N_PARAMS]
    given: dict[str, float]


def _strategy(name: str) -> Strategy:
    try:
        return STRATEGIES[name]
    except KeyError:
        from thousand.players import names
        if name.lower() in names(in_kernel=False):
            # explain, solve and play take it: say why this command does not
            raise ThousandError(f"strategy {name!r} is a test player of the reference engine (thousand explain, solve "
                                f"and play take it), not in the kernel this command runs: use "
                                f"{', '.join(STRATEGIES)}") from None
        raise ThousandError(f"unknown strategy {name!r}: use {', '.join(STRATEGIES)}") from None


def plays_to_contract(spec: str) -> bool:
    """Whether the strategy ``spec`` names plays its cards for the contract (``pimc``), so
    that its play at one contract says nothing of another.

    >>> plays_to_contract("pimc:worlds=8"), plays_to_contract("standard")
    (True, False)
    """
    return _strategy(parse_strategy(spec).name).plays_to_contract


def draws(spec: str) -> bool:
    """Whether the strategy ``spec`` names draws random numbers for its decisions (its worlds,
    its uniform choices), so that the same cards give other figures with another seed.

    >>> draws("random"), draws("pimc"), draws("standard:margin=5")
    (True, True, False)
    """
    return _strategy(parse_strategy(spec).name).draws


_DECIMAL = re.compile(r"[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?")
_NOT_FINITE = ("nan", "inf", "infinity")


def parse_strategy(spec: str) -> ParsedStrategy:
    """``'standard:margin=10'`` -> name, kernel code and the full parameter vector."""
    if not isinstance(spec, str) or not spec.strip():
        raise ThousandError(f"bad strategy {spec!r}: write NAME or NAME:k=v,...")
    name, _, rest = spec.strip().partition(":")
    strat = _strategy(name.strip().lower())
    vec = np.zeros(N_PARAMS, dtype=np.float64)
    for pname, p in strat.params.items():
        vec[p.slot] = p.default
    given: dict[str, float] = {}
    for item in rest.split(","):
        item = item.strip()
        if not item:
            continue
        if "=" not in item:
            raise ThousandError(f"bad strategy parameter {item!r} in {spec!r}: write k=v")
        k, v = (x.strip() for x in item.split("=", 1))
        if k not in strat.params:
            known = ", ".join(strat.params) or "none"
            raise ThousandError(f"strategy {strat.name!r} has no parameter {k!r} (parameters: {known})")
        # a decimal number as typed on a keyboard: float() also reads "1_0" and other
        # scripts' digits (full-width ones), which no strategy text means
        try:
            value = float(v) if _DECIMAL.fullmatch(v) or v.strip().lower().lstrip("+-") in _NOT_FINITE else None
        except ValueError:
            value = None
        if value is None:
            raise ThousandError(f"strategy parameter {k}: must be a number, got {v!r}")
        if not math.isfinite(value):
            raise ThousandError(f"strategy parameter {k}: must be a finite number, got {v!r}")
        if k in given:
            raise ThousandError(f"strategy parameter {k} is given twice in {spec!r}")
        low, high = strat.params[k].low, strat.params[k].high
        if not low <= value <= high:
            raise ThousandError(f"strategy parameter {k}: must be between {low:g} and {high:g}, got {v}")
        if strat.params[k].whole and not value.is_integer():
            raise ThousandError(f"strategy parameter {k}: must be a whole number (a count), got {v}")
        vec[strat.params[k].slot] = value
        given[k] = value
    return ParsedStrategy(strat.name, strat.code, vec, given)


def canonical(spec: str) -> str:
    """The spec written one way: the name, then the parameters given a value other than
    their default, sorted; so one strategy has one spelling (a run's metadata, a match's
    labels).

    >>> canonical(" Standard:margin=25 "), canonical("standard:margin=10"), canonical("standard")
    ('standard:margin=25', 'standard', 'standard')
    >>> canonical("standard:margin=10.000000001")   # every digit that makes it another value
    'standard:margin=10.000000001'
    """
    p = parse_strategy(spec)
    params = _strategy(p.name).params
    changed = {k: v for k, v in p.given.items() if v != params[k].default}
    if not changed:
        return p.name
    return p.name + ":" + ",".join(f"{k}={_shortest(v)}" for k, v in sorted(changed.items()))


def _shortest(v: float) -> str:
    """``v`` in the fewest digits that read back as ``v`` (``25``, ``0.5``, ``10.000000001``)."""
    short = f"{v:g}"
    return short if float(short) == v else repr(v)


def resolve_strategies(strategies: str | Sequence[str] | None, players: int,
                       params: Any = None) -> tuple[np.ndarray, np.ndarray]:
    """Per-seat kernel codes (``int32[4]``) and parameters (``float64[4, N_PARAMS]``).

    ``strategies``: None (every seat ``standard``), one spec for every seat, or one per
    seat; names or integer codes.  ``params`` (optional, ``players x k``) overrides the
    first ``k`` parameter slots per seat.
    """
    if isinstance(players, bool) or players not in (2, 3, 4):
        raise ThousandError(f"players must be 2, 3 or 4, got {players!r}")
    if strategies is None:
        specs: list[Any] = [DEFAULT_STRATEGY]
    elif isinstance(strategies, (str, int, np.integer)):
        specs = [strategies]
    else:
        specs = list(strategies)
    if len(specs) == 1:
        specs = specs * players
    if len(specs) != players:
        raise ThousandError(f"strategies: give one for every seat or one per seat ({players}), got {len(specs)}")
    codes = np.full(4, STRATEGIES[DEFAULT_STRATEGY].code, dtype=np.int32)
    vecs = np.zeros((4, N_PARAMS), dtype=np.float64)
    by_code = {s.code: s for s in STRATEGIES.values()}
    for seat, spec in enumerate(specs):
        if isinstance(spec, (int, np.integer)):
            if int(spec) not in by_code:
                raise ThousandError(f"unknown strategy code {spec}")
            p = parse_strategy(by_code[int(spec)].name)
        else:
            p = parse_strategy(spec)
        codes[seat] = p.code
        vecs[seat] = p.params
    if params is not None:
        arr = np.asarray(params, dtype=np.float64)
        if arr.ndim == 1:
            arr = np.broadcast_to(arr, (players, arr.shape[0]))
        if arr.shape[0] != players or arr.shape[1] > N_PARAMS:
            raise ThousandError(f"params: expected {players} rows of at most {N_PARAMS} numbers, got shape {arr.shape}")
        if not np.isfinite(arr).all():   # as the command line refuses standard:margin=nan
            raise ThousandError("params: every number must be finite (not NaN or infinite)")
        vecs[:players, :arr.shape[1]] = arr
    return codes, vecs


def workspaces(codes: Sequence[int]) -> list[np.ndarray | None]:
    """Per seat, the zeroed scratch buffer its strategy asks for (``Strategy.workspace``
    bytes), or None: Python allocates it, the kernel's Seat points into it.  A code no
    strategy has gets None (the kernel refuses it when it makes the Seat)."""
    sizes = {s.code: s.workspace for s in STRATEGIES.values()}
    return [np.zeros(sizes[int(c)], dtype=np.uint8) if sizes.get(int(c)) else None for c in codes]


# --------------------------------------------------------------------------- KernelPlayer
def _shown_voids(view: Any) -> list[int]:
    """Per seat, the suits (as suit masks) he has shown out of this deal, by the play rule
    (:func:`thousand.reference.play.shown_voids`) over the view's tricks.  The kernel's
    play layer keeps the same record as it plays."""
    from thousand.reference.play import shown_voids
    voids = [0] * 4
    tricks = [(t.plays, t.trump) for t in view.tricks]
    if view.trick:
        tricks.append((view.trick, view.trump))
    for plays, trump in tricks:
        led = plays[0][1] // 6
        for seat, card in plays[1:]:
            voids[seat] |= shown_voids(view.rules, led, card, trump)
    return voids


def _resign_terms(view: Any) -> dict[str, int]:
    """What resigning costs the declarer and gives each opponent now (docs/rules.md)."""
    rule = view.rules.resign
    contract = view.contract
    if view.blind:
        return {"resign_cost": 240, "resign_gift": 120}
    if rule == "half_bid":
        return {"resign_cost": contract, "resign_gift": (contract + 9) // 10 * 5}
    if rule == "sixty":
        return {"resign_cost": contract, "resign_gift": 60}
    if rule == "sixty_two_free":
        free = view.resignations[view.seat] < 2
        return {"resign_cost": 0 if free else 120, "resign_gift": 60}
    return {"resign_cost": 0, "resign_gift": 0}


def kernel_view(view: Any, **extra: Any) -> dict[str, Any]:
    """A reference :class:`~thousand.reference.players.View` as the kernel's view fields."""
    rules = view.rules
    n = rules.players
    bids = [0] * 4
    passed = [0] * 4
    for seat, value in view.bids:
        if value == 0:
            passed[seat] = 1
        else:
            bids[seat] = max(bids[seat], value)
    high_seat = -1
    for seat, value in view.bids:
        if value and value == view.high_bid:
            high_seat = seat
    if not view.bids and view.declarer >= 0:
        high_seat = view.declarer      # no auction: golden kon, barrel takes the talon
    d = {
        "voids": _shown_voids(view), "players": n, "seat": view.seat, "dealer": view.dealer, "forehand": view.forehand,
        "active": list(view.active), "hand": view.hand, "step": rules.bid_step,
        "high": view.high_bid, "high_seat": high_seat, "bids": bids, "passed": passed,
        "declarer": view.declarer, "contract": view.contract, "blind": int(view.blind),
        "obligation": int(view.obligation), "talon": view.talon, "played": view.played,
        "trick_index": view.trick_index, "trick_cards": [c for _, c in view.trick],
        "trick_seats": [s for s, _ in view.trick], "trump": view.trump,
        "points": list(view.points), "score": list(view.scores), "sitter": view.barrel_sitter,
        "golden": int(view.golden), "received": view.received,
        "given": list(view.given) + [-1] * (2 - len(view.given)), "n_tricks": view.n_tricks,
        "marriage_points": list(view.marriage_points), "bolts": list(view.bolts),
        "resignations": list(view.resignations), "ace_marriage": rules.ace_marriage or 0,
        "barrel_target": rules.barrel_target, "barrel_contract": rules.barrel_contract,
    }
    d.update(extra)
    return d


class KernelPlayer:
    """A reference-engine :class:`~thousand.reference.players.Player` whose every decision is
    the kernel strategy's answer for that one position (``thousand.kernel.decide``).

    ``bitgen`` (a numpy BitGenerator) is needed by ``random``: hand it the same stream the
    reference engine deals from to reproduce the kernel's own draws.
    """

    def __init__(self, name: str = DEFAULT_STRATEGY, params: dict[str, float] | None = None,
                 bitgen: Any = None) -> None:
        spec = name if not params else name + ":" + ",".join(f"{k}={v}" for k, v in params.items())
        parsed = parse_strategy(spec)
        self.name = parsed.name
        self.code = parsed.code
        self.params = [float(x) for x in parsed.params]
        self.bitgen = bitgen
        from thousand import _fastdeal
        self._k = _fastdeal
        self._work = workspaces([self.code])[0]     # its own scratch (pimc: a solver table)
        self._rules: Any = None         # the last view's rules, and their kernel array
        self._rules_array: Any = None

    def _view(self, view: Any, kind: str, **extra: Any) -> dict[str, Any]:
        """The kernel view of one decision of ``kind`` (a hook: tests record it)."""
        return kernel_view(view, **extra)

    def _args(self, kind: str, view: Any, **extra: Any) -> tuple[Any, ...]:
        """The kernel's arguments after the kind for one decision (the Seat gets the view's rules)."""
        if view.rules is not self._rules:
            self._rules, self._rules_array = view.rules, view.rules.to_kernel()
        return self.code, self.params, self._view(view, kind, **extra), self.bitgen, self._rules_array, self._work

    def _decide(self, kind: str, view: Any, **extra: Any) -> Any:
        """The kernel's answer to one decision."""
        return self._k.decide(kind, *self._args(kind, view, **extra))

    def go_blind(self, view: Any) -> bool:
        return bool(self._decide("blind", view, hand=0))

    def demand_redeal(self, view: Any, kind: str) -> bool:
        return bool(self._decide("redeal", view, redeal_kind=self._k.REDEAL_CODES[kind]))

    def bid(self, view: Any, lowest: int, highest: int) -> int:
        step = view.rules.bid_step
        top = lowest - 1 if highest < lowest else lowest + (highest - lowest) // step * step
        return int(self._decide("bid", view, min_bid=lowest, max_bid=top))

    def hand_off(self, view: Any) -> tuple[int, int]:
        a, b = self._decide("hand_off", view)
        return int(a), int(b)

    @staticmethod
    def _raise_extra(view: Any, lowest: int, highest: int, may_resign: bool) -> dict[str, int]:
        step = view.rules.bid_step
        top = lowest + (highest - lowest) // step * step
        return {"min_bid": lowest, "max_bid": top, "can_resign": int(may_resign), **_resign_terms(view)}

    def raise_or_resign(self, view: Any, lowest: int, highest: int, may_resign: bool) -> int:
        return int(self._decide("raise", view, **self._raise_extra(view, lowest, highest, may_resign)))

    @staticmethod
    def _moves(view: Any, legal: int) -> dict[str, int]:
        """A card decision's legal cards and the ones that may declare a marriage."""
        from thousand.reference.play import declarable_cards
        declarable = 0 if view.trick else legal & declarable_cards(view.rules, view.hand, view.trick_index)
        return {"legal": legal, "declarable": declarable}

    def play(self, view: Any, legal: int) -> tuple[int, bool]:
        card, declare = self._decide("play", view, **self._moves(view, legal))
        return int(card), bool(declare)

    def play_tally(self, view: Any, legal: int) -> tuple[int, int, list[tuple[int, bool, int, int]]] | None:
        """What ``pimc``'s :meth:`play` weighs in ``view`` (drawing what it would draw):
        ``(worlds, layouts, rows)``, a row ``(card, declare, made, points)`` for each legal
        move, ``made`` the worlds where the declarer makes the contract after it and
        ``points`` his deal points summed over the worlds; None for a forced card."""
        return self._k.pimc_tally("play", *self._args("play", view, **self._moves(view, legal)))

    def raise_tally(self, view: Any, lowest: int, highest: int, may_resign: bool) -> tuple[int, int, list[int]] | None:
        """What ``pimc``'s :meth:`raise_or_resign` weighs in ``view`` (drawing what it would
        draw): ``(worlds, layouts, points)``, the declarer's deal points in each world
        solved; None when no world fits."""
        return self._k.pimc_tally("raise", *self._args("raise", view, **self._raise_extra(view, lowest, highest,
                                                                                          may_resign)))
