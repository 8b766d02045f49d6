"""How high can a hand bid?  The safe bid and the expected score of every bid.

The question ``thousand bid`` answers: a player holds seven given cards; if he becomes
the declarer at contract ``b``, how likely is he to make it, and what does bidding ``b``
win or lose on average?  The answer comes from *forced-declarer* deals: the hand is made
declarer at its seat (the auction skipped), the 17 unseen cards are dealt to the talon
and the two opponents -- sampled uniformly, or every one of the
``C(17,3) * C(14,7) = 2,333,760`` completions -- and the kernel's strategies play the
talon, the hand-off and the eight tricks.

The boundary with the kernel is :class:`Completions`: one entry per completion, the
talon and the declarer's deal points when the deal is played out.  Everything below it
is plain numpy/Polars and is tested on hand-made arrays; :func:`simulate_hand` is the one
function that calls the kernel.

What the numbers mean (``docs/bids.md`` has the long version)
-------------------------------------------------------------
``p_make(b)``
    P(declarer points >= b): the share of completions in which the hand, played out by
    the strategies, reaches ``b``.  It does not depend on the contract, because the
    play does not.  Sampled: a 95% Wilson interval; exact: the exact fraction.
``ev_play(b)``
    Expected score change of playing ``b`` out whatever the talon: ``b (2 p - 1)``.
``ev_resign(b)``
    The score change of resigning (writing the hand) at ``b`` under the ``resign`` rule.
``ev(b)``
    Expected score change of *bidding* ``b`` and then, having seen the talon, doing the
    better of playing and resigning (and of demanding a talon redeal when the talon
    allows one, worth 0): the real choice a declarer has after the talon.  Sampled runs
    only know each talon's play score from its own deals: the estimate is the midpoint
    of a plug-in figure (biased high) and a leave-one-out one (biased low), and the
    interval runs from the lower end of the latter to the upper end of the former, so
    it covers the exact value (``_choice_scores``).
Passing: ``simulate_pass`` / ``pass_summary`` sample the hand passing at its first chance
(``thousand.kernel.play_forced_pass``): the seat's expected score change with a 95% interval.

Bolts are counted in every value: a deal in which a player wins no trick (or scores no
points, as ``bolt_when`` says) gives him a bolt, and every third bolt costs
``bolt_penalty``, so each bolt costs ``bolt_penalty / 3`` on average (:func:`bolt_cost`):
subtracted from a played-out deal that gives the seat a bolt, as defender when passing
or as declarer when bidding.  A resignation and a redeal give nobody a bolt.  What is
not counted is the game score: every value is one deal from a score of 0, off the barrel.

>>> wilson_interval(8, 10)  # doctest: +ELLIPSIS
(0.4901..., 0.9433...)
>>> bid_cap(0, CLASSIC_RULES)  # no marriage: 120
120
"""
from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Sequence

import numpy as np
import polars as pl

from thousand.cards import RANK_PLANE, RANK_POINTS, card_points, format_hand, marriage_points, popcount
from thousand.analysis.stats import wilson_interval as _stats_wilson
from thousand.analysis.stats import level_percent, pseudo_count_bound, t_for, z_for
from thousand.errors import ThousandError, check_jobs, check_seed
from thousand.rules import CLASSIC as CLASSIC_RULES
from thousand.rules import Rules, parse_rules_spec

__all__ = [
    "ROLES", "N_COMPLETIONS", "Completions", "BidEstimate",
    "wilson_interval", "bid_cap", "lowest_bid", "bids_for_hand", "hand_redeal_reasons", "make_counts", "resign_score",
    "talon_redeal_allowed", "bid_table", "safe_bid", "best_ev_bid", "estimate_from_completions",
    "points_histogram", "seat_strategies", "kernel_play", "ROLE_SEATS", "bolt_cost", "recommendation",
    "simulate_hand", "estimate_bid", "format_bid_table", "bid_estimate_json", "plot_bid_chart",
    "DEFAULT_SOLVE_SAMPLES", "sample_completions", "solve_hand",
]

ROLES = ("forehand", "middle", "rear")


def _check_role(role: str) -> None:
    if role not in ROLES:
        raise ThousandError(f"position must be one of {', '.join(ROLES)}, got {role!r}")


def _check_hand(hand: int) -> None:
    if popcount(hand) != 7:
        raise ThousandError(f"a hand needs 7 cards, got {popcount(hand)}")
#: Completions of a 7-card hand: talon C(17,3) times the next opponent's 7 of 14, C(14,7).
N_COMPLETIONS = math.comb(17, 3) * math.comb(14, 7)


# --------------------------------------------------------------------- statistics
def wilson_interval(successes: Any, n: Any, confidence: float = 0.95) -> tuple[Any, Any]:
    """Wilson score interval for ``successes / n`` (:func:`thousand.analysis.stats.wilson_interval`).

    Chosen over the normal interval because it stays inside ``[0, 1]`` and keeps its
    coverage near 0 and 1, where safe bids live.  Scalars in, floats out.

    >>> lo, hi = wilson_interval(0, 20)
    >>> lo, round(hi, 4)
    (0.0, 0.1611)
    """
    if np.any(np.asarray(n) <= 0):
        raise ValueError("wilson_interval needs n > 0")
    lo, hi = _stats_wilson(successes, n, z_for(confidence))
    if np.ndim(lo) == 0:
        return float(lo), float(hi)
    return lo, hi


# --------------------------------------------------------------------- the rules
def bid_cap(hand: int, rules: Rules) -> int:
    """Highest bid the rules allow for the 7-card ``hand``: the reference engine's cap.

    ``bid_cap = marriages``: 120 plus the marriages held (just 120 without one; the
    four-ace marriage does not count, as in the engines); ``none``: 120 + 280 + the ace
    marriage + the last-trick bonus (no more can be made).

    >>> from thousand.cards import parse_hand
    >>> bid_cap(parse_hand("AH TH KH QH AD 9S JC"), CLASSIC_RULES)
    220
    """
    from thousand.reference.legal import bid_cap as engine_bid_cap

    return int(engine_bid_cap(rules, hand))


def lowest_bid(role: str, rules: Rules) -> int:
    """The lowest bid that can win the auction from ``role``.

    The forehand opens with the forced 100 (docs/rules.md, step 3), so he may hold it; the middle
    and rear seats must outbid it, by at least one ``bid_step``.

    >>> lowest_bid("forehand", CLASSIC_RULES), lowest_bid("rear", CLASSIC_RULES)
    (100, 105)
    """
    _check_role(role)
    return 100 if role == "forehand" else 100 + rules.bid_step


def bids_for_hand(hand: int, rules: Rules, role: str = "forehand") -> np.ndarray:
    """Every bid ``role`` can win with, from :func:`lowest_bid` to :func:`bid_cap` in steps of ``bid_step``."""
    _check_hand(hand)
    return np.arange(lowest_bid(role, rules), bid_cap(hand, rules) + 1, rules.bid_step, dtype=np.int64)


def hand_redeal_reasons(hand: int, rules: Rules) -> list[str]:
    """Why the 7-card ``hand`` may demand a redeal (worth 0: the deal is replayed); empty if it may not.

    The hand conditions of docs/rules.md step 2 (the reference engine's test), and under
    ``redeal_four_nines_after_exchange`` four nines, which the holder keeps through the
    hand-off whether he declares or defends (step 8).

    >>> from thousand.cards import parse_hand
    >>> hand_redeal_reasons(parse_hand("9S 9C 9D JH QD KS JC"), CLASSIC_RULES)
    ['3 or more nines', 'card points 13 or less']
    """
    from thousand.reference.legal import hand_redeal_allowed

    _check_hand(hand)
    reasons = []
    if hand_redeal_allowed(rules, hand):
        nines, jacks = popcount(hand & RANK_PLANE[0]), popcount(hand & RANK_PLANE[1])
        if rules.redeal_hand_nines is not None and nines >= rules.redeal_hand_nines:
            reasons.append(f"{rules.redeal_hand_nines} or more nines")
        if rules.redeal_hand_jacks is not None and jacks >= rules.redeal_hand_jacks:
            reasons.append(f"{rules.redeal_hand_jacks} or more jacks")
        if rules.redeal_hand_points_max is not None and card_points(hand) <= rules.redeal_hand_points_max:
            reasons.append(f"card points {rules.redeal_hand_points_max} or less")
    if rules.redeal_four_nines_after_exchange and popcount(hand & RANK_PLANE[0]) == 4:
        reasons.append("four nines after the hand-off (docs/rules.md, step 8)")
    return reasons


def resign_score(bid: Any, rules: Rules, free_resignation: bool = True) -> Any:
    """The declarer's score change when he resigns at ``bid``; ``None`` if he may not.

    ``half_bid`` and ``sixty``: ``-bid``.  ``sixty_two_free``: 0 while one of his two
    free resignations is left (``free_resignation``), else -120.
    """
    b = np.asarray(bid, dtype=float)
    if rules.resign == "none":
        return None
    if rules.resign == "sixty_two_free":
        return np.zeros_like(b) if free_resignation else np.full_like(b, -120.0)
    return -b


def bolt_cost(rules: Rules) -> float:
    """The expected cost of one bolt: ``bolt_penalty / 3`` (0 with ``bolts = off``).

    Every third bolt of a player costs ``bolt_penalty`` and clears his count, so over a
    game the penalties he pays are his bolts divided by three: whatever his count before
    a deal, a bolt costs a third of the penalty on average.  (With ``not_on_barrel`` a
    sitter gets none; the values here are for a player off the barrel.)

    >>> bolt_cost(CLASSIC_RULES)
    40.0
    """
    return 0.0 if rules.bolts == "off" else rules.bolt_penalty / 3


def talon_redeal_allowed(talon: np.ndarray, rules: Rules, obligation: bool = False) -> np.ndarray:
    """Per talon mask, whether the declarer may demand a talon redeal (worth 0 to him).

    ``redeal_talon_by = obligation`` allows it only to the player on the forced 100
    (``obligation``: the forehand whom nobody outbid).
    """
    talon = np.asarray(talon, dtype=np.int64)
    if rules.redeal_talon_by == "obligation" and not obligation:
        return np.zeros(talon.shape, dtype=bool)
    allowed = np.zeros(talon.shape, dtype=bool)
    if rules.redeal_talon_points_max is not None:
        pts = np.zeros(talon.shape, dtype=np.int64)
        for r in range(6):
            pts += RANK_POINTS[r] * _popcount(talon & RANK_PLANE[r])
        allowed |= pts <= rules.redeal_talon_points_max
    if rules.redeal_talon_nines is not None:
        allowed |= _popcount(talon & RANK_PLANE[0]) >= rules.redeal_talon_nines
    if rules.redeal_talon_jacks is not None:
        allowed |= _popcount(talon & RANK_PLANE[1]) >= rules.redeal_talon_jacks
    return allowed


def _after_talon(rules: Rules) -> str:
    """What an EV weighs after the talon under ``rules``, in words (the footer of the text)."""
    choices = ["play"] + (["resign"] if rules.resign != "none" else [])
    if any(v is not None for v in (rules.redeal_talon_points_max, rules.redeal_talon_nines,
                                   rules.redeal_talon_jacks)) or rules.redeal_four_nines_after_exchange:
        choices.append("demand a redeal (0) where the cards allow one")
    return choices[0] if len(choices) == 1 else ", ".join(choices[:-1]) + " or " + choices[-1]


def _popcount(a: np.ndarray) -> np.ndarray:
    return np.bitwise_count(np.asarray(a, dtype=np.uint64)).astype(np.int64)


# --------------------------------------------------------------------- the boundary
@dataclass(frozen=True)
class Completions:
    """Outcomes of one hand made declarer, one entry per completion of the deal.

    Attributes
    ----------
    hand : int
        The declarer's seven cards (mask).
    role : str
        ``forehand``, ``middle`` or ``rear``.
    points : ndarray of int
        Declarer's deal points (cards + declared marriages + bonus) when the deal is
        played out after the talon and the hand-off, whatever he would have decided.
    talon : ndarray of uint32
        The talon of each completion (mask).
    exact : bool
        ``True`` when the entries are every completion (each equally likely), ``False``
        for a uniform sample.
    weight : ndarray of int or None
        Multiplicity of each entry when an exact enumeration merges equal outcomes;
        ``None`` means 1 each.
    decision : ndarray of int or None
        The strategy's raise-or-resign answer at ``contract`` in each completion: the
        contract it would play (``>= contract``), or -1 to resign.
    contract : int
        The contract the declarer held when the strategies decided and played.
    bolt : ndarray of int or None
        The declarer's bolts in each completion were it scored as played out (0, 1);
        ``None``: none known (counted as 0).
    """

    hand: int
    role: str
    points: np.ndarray
    talon: np.ndarray
    exact: bool = False
    weight: np.ndarray | None = None
    decision: np.ndarray | None = None
    contract: int = 100
    meta: dict[str, Any] = field(default_factory=dict)
    bolt: np.ndarray | None = None

    def __post_init__(self) -> None:
        _check_role(self.role)
        if len(self.points) != len(self.talon):
            raise ValueError("points and talon must have one entry per completion")
        if self.weight is not None and len(self.weight) != len(self.points):
            raise ValueError("weight must have one entry per completion")
        if self.decision is not None and len(self.decision) != len(self.points):
            raise ValueError("decision must have one entry per completion")
        if self.bolt is not None and len(self.bolt) != len(self.points):
            raise ValueError("bolt must have one entry per completion")
        if len(self.points) == 0:
            raise ValueError("no completions")

    @property
    def weights(self) -> np.ndarray:
        return np.ones(len(self.points), dtype=np.int64) if self.weight is None else np.asarray(self.weight, dtype=np.int64)

    @property
    def n(self) -> int:
        """Number of completions (sum of weights)."""
        return int(self.weights.sum())

    @property
    def bolts(self) -> np.ndarray:
        """The declarer's bolts per completion (zeros when unknown)."""
        return np.zeros(len(self.points), dtype=np.int64) if self.bolt is None else np.asarray(self.bolt, dtype=np.int64)


def _weighted_bincount(index: np.ndarray, weight: np.ndarray | None, length: int) -> np.ndarray:
    if weight is None:
        return np.bincount(index, minlength=length).astype(np.int64)
    return np.bincount(index, weights=np.asarray(weight, dtype=float), minlength=length).round().astype(np.int64)


def make_counts(points: np.ndarray, bids: Sequence[int], weight: np.ndarray | None = None) -> np.ndarray:
    """How many completions reach each bid: ``sum(weight[points >= b])`` for ``b`` in ``bids``.

    >>> make_counts(np.array([90, 100, 105, 130]), [100, 105, 110]).tolist()
    [3, 2, 1]
    """
    pts = np.clip(np.asarray(points, dtype=np.int64), 0, None)
    b = np.asarray(bids, dtype=np.int64)
    span = int(max(pts.max(initial=0), b.max(initial=0))) + 2
    # Points are small integers: a histogram and a reverse cumulative sum, no sort.
    tail = np.cumsum(_weighted_bincount(pts, weight, span)[::-1])[::-1]
    return tail[np.clip(b, 0, span - 1)]


def _group_make_counts(points: np.ndarray, group: np.ndarray, n_groups: int, bids: np.ndarray,
                       weight: np.ndarray | None) -> tuple[np.ndarray, np.ndarray]:
    """Per group: total weight, and weight reaching each bid -- ``(n_groups,)`` and ``(n_groups, k)``.

    One (group x points) histogram and a reverse cumulative sum: no (completions x bids)
    matrix and no sort, so the 2.3 million completions of an exact run stay cheap.
    """
    pts = np.clip(np.asarray(points, dtype=np.int64), 0, None)
    bids = np.asarray(bids, dtype=np.int64)
    span = int(max(pts.max(initial=0), bids.max(initial=0))) + 2
    hist = _weighted_bincount(group.astype(np.int64) * span + pts, weight, n_groups * span).reshape(n_groups, span)
    tail = np.cumsum(hist[:, ::-1], axis=1)[:, ::-1]               # tail[g, x] = weight with points >= x
    return tail[:, 0], tail[:, np.clip(bids, 0, span - 1)]


def _alternatives(c: Completions, talon_ids: np.ndarray, bids: np.ndarray, rules: Rules,
                  free_resignation: bool) -> np.ndarray:
    """Per (talon, bid), the best the declarer can do instead of playing; -inf for nothing.

    Resigning (when the rules allow it) and a redeal, worth 0: a talon redeal where the
    talon allows one (with ``redeal_talon_by = obligation`` only for the forehand on his
    forced, uncontested 100), and under ``redeal_four_nines_after_exchange`` the four-nines
    redeal when his hand and the talon hold all four nines (he keeps them in the hand-off).
    """
    resign = resign_score(bids, rules, free_resignation)
    redeal_ok = np.repeat(talon_redeal_allowed(talon_ids, rules)[:, None], len(bids), axis=1)
    if rules.redeal_talon_by == "obligation":
        on_obligation = (bids == 100) & (c.role == "forehand")
        redeal_ok = talon_redeal_allowed(talon_ids, rules, obligation=True)[:, None] & on_obligation[None, :]
    if rules.redeal_four_nines_after_exchange:
        nines = _popcount((np.asarray(talon_ids, dtype=np.int64) | c.hand) & RANK_PLANE[0])
        redeal_ok = redeal_ok | (nines == 4)[:, None]
    alt = np.full((len(talon_ids), len(bids)), -np.inf)
    if resign is not None:
        alt = np.maximum(alt, np.asarray(resign, dtype=float)[None, :])
    return np.where(redeal_ok, np.maximum(alt, 0.0), alt)


def _choice_scores(c: Completions, bids: np.ndarray, rules: Rules, free_resignation: bool,
                   confidence_level: float = 0.95) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per bid: estimate, lower and upper end of the talon-informed choice's EV (play / resign / redeal).

    For each talon the declarer compares the expected score of playing ``b`` given that
    talon with resigning (and with a redeal, 0, where one is allowed).  Exact runs use
    every completion of the talon: the estimate is the value, the interval has no width.

    Sampled runs know each talon's play score only from its own ~n/680 deals, and a
    decision taken on noisy means is biased whichever way it is scored:

    * *plug-in*: decide and score on the same deals (max of the per-talon means): biased
      high (Jensen: the mean of a max is at least the max of the means);
    * *leave-one-out*: each deal is scored with the decision its talon's other deals
      give: the value of a noisy decision rule, biased low (no rule beats the optimum).

    To first order the two biases are equal and opposite, so the estimate is their
    midpoint; the interval runs from the lower end of the leave-one-out interval to the
    upper end of the plug-in one, so it covers the exact value with at least the nominal
    probability.  Each end pools the deals with z²/2 pseudo-deals made and z²/2 failed
    (Agresti-Coull): a run that saw no failure still gets an interval as wide as the
    Wilson interval of P(make) implies, not a zero-width one.
    """
    bids = np.asarray(bids, dtype=np.int64)
    bf = bids.astype(float)
    talon_ids, talon_idx = np.unique(np.asarray(c.talon, dtype=np.int64), return_inverse=True)
    alt = _alternatives(c, talon_ids, bids, rules, free_resignation)
    alt_f = np.where(np.isfinite(alt), alt, 0.0)
    # Playing scores +b or -b, less the bolt's expected cost in a deal that gives the
    # declarer a bolt: the deals of a talon fall into classes (made or not, k bolts).
    cost = bolt_cost(rules)
    bolts = c.bolts
    levels = [int(k) for k in np.unique(bolts) if k > 0] if cost else []
    tot, made = _group_make_counts(c.points, talon_idx, len(talon_ids), bids, c.weight)
    tot = tot.astype(float)[:, None]
    made = made.astype(float)
    failed = tot - made
    # per bolt level k > 0: (deals, made deals) of each talon with k bolts
    by_level = {}
    for k in levels:
        wk = np.where(bolts == k, c.weights, 0)
        tot_k, made_k = _group_make_counts(c.points, talon_idx, len(talon_ids), bids, wk)
        by_level[k] = (tot_k.astype(float)[:, None], made_k.astype(float))
    bolt_sum = sum((k * t for k, (t, _) in by_level.items()), np.zeros_like(tot))
    play_sum = (made - failed) * bf - cost * bolt_sum                 # sum of play scores over the talon's deals
    n = float(tot.sum())
    play = play_sum / tot >= alt                                     # every talon here has deals
    plug_sum = np.where(play, play_sum, alt_f * tot).sum(axis=0)
    if c.exact:
        ev = plug_sum / n
        return ev, ev.copy(), ev.copy()
    # sum of squared play scores: b² for every deal, corrected for the deals with bolts
    play_sq = tot * bf ** 2
    for k, (tot_k, made_k) in by_level.items():
        play_sq = play_sq + made_k * ((bf - cost * k) ** 2 - bf ** 2) + (tot_k - made_k) * ((bf + cost * k) ** 2 - bf ** 2)
    plug_sq = np.where(play, play_sq, alt_f ** 2 * tot).sum(axis=0)
    # Leave one out: each deal sees its talon's mean without its own score v, and is scored
    # v if that mean says play, else the alternative.
    others = tot - 1

    def loo(count: np.ndarray, v: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        with np.errstate(invalid="ignore", divide="ignore"):
            plays = np.where(others > 0, (play_sum - v) / others >= alt, True)   # alone: play
        return count * np.where(plays, v, alt_f), count * np.where(plays, v ** 2, alt_f ** 2)

    classes = [(made, bf), (failed, -bf)]
    for k, (tot_k, made_k) in by_level.items():   # the deals with bolts move to their own class
        classes[0] = (classes[0][0] - made_k, bf)
        classes[1] = (classes[1][0] - (tot_k - made_k), -bf)
        classes += [(made_k, bf - cost * k), (tot_k - made_k, -bf - cost * k)]
    loo_parts = [loo(count, v) for count, v in classes]
    loo_sum = sum(p[0] for p in loo_parts).sum(axis=0)
    loo_sq = sum(p[1] for p in loo_parts).sum(axis=0)
    z = z_for(confidence_level)
    ev = (plug_sum + loo_sum) / (2 * n)
    lo = pseudo_count_bound(loo_sum, loo_sq, n, bf, -z)
    hi = pseudo_count_bound(plug_sum, plug_sq, n, bf, z)
    # Known bounds: no choice scores above +b, and the declarer can always take the worst
    # of the alternatives every talon offers (e.g. a free resignation, 0), else play (-b).
    worst_play = -bf - cost * max(levels, default=0)
    floor = np.where(np.isfinite(alt).all(axis=0), alt.min(axis=0), worst_play) if len(alt) else worst_play
    # and the talon-informed choice is worth at least always playing (its max per talon is,
    # on the same deals): the midpoint of the two estimates could fall below it (try-out 21)
    ev = np.maximum(np.clip(ev, floor, bf), play_sum.sum(axis=0) / n)
    lo = np.clip(np.minimum(lo, ev), floor, None)
    hi = np.clip(np.maximum(hi, ev), None, bf)
    return ev, lo, hi


def strategy_scores(c: Completions, rules: Rules, free_resignation: bool = True) -> np.ndarray | None:
    """Per completion, the declarer's score change when the strategy's own answer is followed.

    At ``c.contract``: resign (-1) costs :func:`resign_score`; a contract ``k`` (the held one
    or a raise) scores ``+k`` when the played-out points reach it, else ``-k``, less
    :func:`bolt_cost` when the deal gives the declarer a bolt (a resignation gives none).
    ``None`` without decisions.

    >>> c = Completions(hand=0b1111111, role="rear", points=np.array([130, 90, 130]),
    ...                 talon=np.zeros(3, dtype=np.uint32), decision=np.array([100, -1, 140]))
    >>> strategy_scores(c, CLASSIC_RULES).tolist()
    [100.0, -100.0, -140.0]
    """
    if c.decision is None:
        return None
    d = np.asarray(c.decision, dtype=np.int64)
    pts = np.asarray(c.points, dtype=np.int64)
    played = np.where(pts >= d, d, -d).astype(float) - bolt_cost(rules) * c.bolts
    resign = resign_score(float(c.contract), rules, free_resignation)
    # A strategy may only resign where the rules allow it; treat any other -1 as an error.
    if resign is None and (d < 0).any():
        raise ValueError("the strategy resigned under resign = none")
    return np.where(d < 0, float(resign) if resign is not None else 0.0, played)


def bid_table(c: Completions, rules: Rules, bids: Sequence[int] | None = None,
              free_resignation: bool = True, confidence_level: float = 0.95) -> pl.DataFrame:
    """One row per bid: made, n, p_make, ci_low, ci_high, ev_play, ev_resign, ev, ev_ci_low, ev_ci_high.

    Parameters
    ----------
    c : Completions
        The forced-declarer outcomes of the hand.
    rules : Rules
        Needed for the resign rule, talon redeals and the bid range.
    bids : sequence of int, optional
        Bids to evaluate; default every bid the seat can win with (:func:`bids_for_hand`).
    free_resignation : bool
        Under ``sixty_two_free``, whether a free resignation is left (then resigning is 0).
    confidence_level : float
        Of the intervals (0.95).  Exact runs give zero-width intervals.

    Returns
    -------
    polars.DataFrame
        ``p_make`` is ``made / n``; ``ev`` the expected score change of bidding the bid
        and choosing after the talon (see the module docstring).
    """
    b = bids_for_hand(c.hand, rules, c.role) if bids is None else np.asarray(bids, dtype=np.int64)
    w = c.weights
    n = int(w.sum())
    made = make_counts(c.points, b, w)
    p = made / n
    if c.exact:
        lo, hi = p.copy(), p.copy()
    else:
        lo, hi = wilson_interval(made, np.full(len(b), n), confidence_level)
    z = z_for(confidence_level)
    ev_play = b * (2 * p - 1)
    # Play-out score is +-b, so its standard error is 2 b sqrt(p(1-p)/n).
    ev_play_se = np.zeros(len(b)) if c.exact else 2 * b * np.sqrt(p * (1 - p) / n)
    cost = bolt_cost(rules)
    if cost and c.bolts.any():
        # less cost x k in a deal with k bolts: mean and variance of (2 made - 1) b - cost k
        k_mean = float((c.bolts * w).sum() / n)
        k_sq = float((c.bolts ** 2 * w).sum() / n)
        k_made = make_counts(c.points, b, w * c.bolts) / n            # E[k; made]
        ev_play = ev_play - cost * k_mean
        if not c.exact:
            second = b ** 2 - 2 * b * cost * (2 * k_made - k_mean) + cost ** 2 * k_sq
            ev_play_se = np.sqrt(np.maximum(second - ev_play ** 2, 0.0) / n)
    resign = resign_score(b, rules, free_resignation)
    ev, ev_lo, ev_hi = _choice_scores(c, b, rules, free_resignation, confidence_level)
    # The strategy's own raise/resign answer is known for the contract it was asked at.
    ev_strat = np.full(len(b), np.nan)
    ev_strat_se = np.full(len(b), np.nan)
    t_strat = z
    scores = strategy_scores(c, rules, free_resignation)
    if scores is not None and c.contract in b:
        w = c.weights.astype(float)
        j = int(np.flatnonzero(b == c.contract)[0])
        ev_strat[j] = float((scores * w).sum() / w.sum())
        var = float(((scores - ev_strat[j]) ** 2 * w).sum() / max(w.sum() - 1, 1))
        ev_strat_se[j] = 0.0 if c.exact else math.sqrt(var / w.sum())
        if not c.exact:
            # a mean of n scores with their own variance: Student t (n - 1 degrees of freedom);
            # the normal quantile made 2 samples' interval +-9.8, Student's t +-63.5 (try-out 28)
            t_strat = t_for(confidence_level, int(w.sum()))
    return pl.DataFrame({
        "bid": b,
        "made": made.astype(np.int64),
        "n": np.full(len(b), n, dtype=np.int64),
        "p_make": p,
        "ci_low": np.asarray(lo, dtype=float),
        "ci_high": np.asarray(hi, dtype=float),
        "ev_play": ev_play.astype(float),
        "ev_play_ci_low": ev_play - z * ev_play_se,
        "ev_play_ci_high": ev_play + z * ev_play_se,
        "ev_resign": (np.full(len(b), np.nan) if resign is None else resign).astype(float),
        "ev": ev,
        "ev_ci_low": ev_lo,
        "ev_ci_high": ev_hi,
        "ev_strategy": ev_strat,
        "ev_strategy_ci_low": ev_strat - t_strat * ev_strat_se,
        "ev_strategy_ci_high": ev_strat + t_strat * ev_strat_se,
    }).with_columns(pl.col("ev_resign", "ev_strategy", "ev_strategy_ci_low", "ev_strategy_ci_high").fill_nan(None))


def safe_bid(table: pl.DataFrame, confidence: float) -> int | None:
    """Highest bid up to which every ``p_make`` is at least ``confidence`` (the last bid
    before the first one below it); ``None`` when even the lowest is below.  One cut of a
    single sample (``p_make`` falls as the bid rises there); a strategy that plays each
    bid a run of its own (``pimc``) can put a higher bid above a lower one by chance, and
    a bid past one that is not safe is not called safe.

    >>> t = pl.DataFrame({"bid": [100, 105, 110, 115], "p_make": [0.9, 0.8, 0.79, 0.85]})
    >>> safe_bid(t, 0.8), safe_bid(t, 0.95)
    (105, None)
    """
    if not 0 < confidence <= 1:
        raise ThousandError(f"--confidence must be in (0, 1], got {confidence}")
    safe = None
    for bid, p in table.sort("bid").select("bid", "p_make").iter_rows():
        if p is None or p < confidence:
            break
        safe = int(bid)
    return safe


def best_ev_bid(table: pl.DataFrame, column: str = "ev") -> int | None:
    """Bid with the highest expected score change (the lowest such bid on a tie).

    >>> best_ev_bid(pl.DataFrame({"bid": [100, 105, 110], "ev": [20.0, 31.5, 31.5]}))
    105
    """
    if table.is_empty():
        return None
    best = table[column].max()
    return int(table.filter(pl.col(column) == best)["bid"].min())


# --------------------------------------------------------------------- the whole estimate
@dataclass(frozen=True)
class BidEstimate:
    """Everything ``thousand bid`` shows for one hand."""

    hand: int
    role: str
    rules: Rules
    samples: int
    exact: bool
    table: pl.DataFrame
    confidence: float
    safe_bid: int | None
    best_ev_bid: int | None
    points_mean: float
    points_quantiles: dict[str, float]
    points_histogram: tuple[tuple[int, int], ...] = ()   # (bin start, weight) in 5-point bins
    strategies: str = "standard"
    seed: int | None = None               # the seed given: with exact, the pass and open-hand samples use it
    seconds: float | None = None
    per_bid: bool = False
    pass_ev: float | None = None          # the seat's expected score change when it passes
    pass_ev_se: float | None = None       # its standard error (always sampled)
    pass_samples: int = 0
    pass_on_obligation: float | None = None   # share of deals he still plays (forehand's 100)
    pass_ev_outbid: float | None = None       # passing in the deals another seat declares (outbid)
    pass_ev_outbid_se: float | None = None
    redeal_reasons: tuple[str, ...] = ()      # why the hand may demand a redeal (worth 0); empty: it may not
    pass_bolt_rate: float | None = None       # share of deals in which the passer gets a bolt
    pass_ev_without_bolts: float | None = None
    declarer_bolt_rate: float | None = None   # share of played-out deals giving the declarer a bolt
    solve_table: pl.DataFrame | None = None   # --solve: bid_table of the open-hand reference (best hand-off)
    solve_samples: int = 0                    # its completions (a sample of its own)
    solve_seconds: float | None = None

    @property
    def pass_ev_ci(self) -> tuple[float, float] | None:
        """95% interval of ``pass_ev`` (mean +- 1.96 SE)."""
        if self.pass_ev is None or self.pass_ev_se is None:
            return None
        return (self.pass_ev - 1.96 * self.pass_ev_se, self.pass_ev + 1.96 * self.pass_ev_se)

    def exact_fraction(self, bid: int) -> Fraction:
        """P(make ``bid``) as an exact fraction (meaningful for exact runs)."""
        row = self.table.filter(pl.col("bid") == bid)
        if row.is_empty():
            raise ThousandError(f"bid {bid} is not in the table")
        return Fraction(int(row["made"][0]), int(row["n"][0]))


def estimate_from_completions(c: Completions, rules: Rules, confidence: float = 0.8,
                              free_resignation: bool = True, per_bid: dict[int, Completions] | None = None,
                              **info: Any) -> BidEstimate:
    """Bid table and the two recommendations from forced-declarer outcomes.

    ``per_bid`` (optional) maps each bid to a run in which the declarer held that contract;
    each bid's row then comes from its own run (for contract-aware strategies).  ``c``
    still gives the points distribution.
    """
    if per_bid:
        table = pl.concat([bid_table(per_bid[b], rules, bids=[b], free_resignation=free_resignation)
                           for b in sorted(per_bid)])
    else:
        table = bid_table(c, rules, free_resignation=free_resignation)
    pts_int = np.clip(np.asarray(c.points, dtype=np.int64), 0, None)
    w = c.weights.astype(float)
    hist = _weighted_bincount(pts_int, c.weight, int(pts_int.max(initial=0)) + 1)
    cum = np.cumsum(hist) / hist.sum()
    # q-quantile: the smallest points value with at least a share q at or below it
    quant = {f"q{int(q * 100):02d}": float(np.searchsorted(cum, q - 1e-12)) for q in (0.1, 0.25, 0.5, 0.75, 0.9)}
    pts = pts_int.astype(float)
    info.setdefault("redeal_reasons", tuple(hand_redeal_reasons(c.hand, rules)))
    if c.bolt is not None:
        info.setdefault("declarer_bolt_rate", float(((c.bolts > 0) * w).sum() / w.sum()))
    return BidEstimate(
        hand=c.hand, role=c.role, rules=rules, samples=c.n, exact=c.exact, table=table,
        confidence=confidence, safe_bid=safe_bid(table, confidence), best_ev_bid=best_ev_bid(table),
        points_mean=float((pts * w).sum() / w.sum()), points_quantiles=quant,
        points_histogram=points_histogram(c.points, c.weights), **info)


def points_histogram(points: np.ndarray, weight: np.ndarray | None = None, width: int = 5) -> tuple[tuple[int, int], ...]:
    """The distribution of declarer points: ``(bin start, weight)`` for bins ``[x, x + width)``.

    >>> points_histogram(np.array([0, 3, 5, 12]))
    ((0, 2), (5, 1), (10, 1))
    """
    pts = np.clip(np.asarray(points, dtype=np.int64), 0, None) // width
    w = np.ones(len(pts), dtype=np.int64) if weight is None else np.asarray(weight, dtype=np.int64)
    counts = np.bincount(pts, weights=w).astype(np.int64)
    return tuple((int(i * width), int(k)) for i, k in enumerate(counts) if k)


def simulate_hand(hand: int, rules: Rules, role: str = "forehand", strategies: Sequence[str] | str | None = None,
                  samples: int = 100_000, exact: bool = False, seed: int | None = 1,
                  contract: int = 100) -> Completions:
    """Forced-declarer outcomes of ``hand`` from the kernel (``thousand.kernel.play_forced_declarer``).

    The only function here that calls the simulator.  ``samples`` uniform completions
    from ``PCG64(SeedSequence(seed))``, or all 2,333,760 with ``exact``.
    """
    _check_role(role)
    if rules.players != 3:
        raise ThousandError(f"thousand bid analyses the 3-player game; the rules say players={rules.players}")
    _check_hand(hand)
    if not exact and samples < 2:
        raise ThousandError(f"--samples must be at least 2, got {samples}")
    return _call_kernel(kernel_play(), hand, rules, role, seat_strategies(strategies, role), samples, exact, seed,
                        contract)


#: Seat of the forced declarer for each role (the kernel's convention: the dealer is seat 0).
ROLE_SEATS = {"forehand": 1, "middle": 2, "rear": 0}


def seat_strategies(strategies: Sequence[str] | str | None, role: str) -> list[str] | str | None:
    """Strategies in seat order from ``None``, one spec, or three given as (declarer, next, other).

    >>> seat_strategies(["d", "n", "o"], "forehand")   # declarer at seat 1
    ['o', 'd', 'n']
    """
    if strategies is None or isinstance(strategies, str):
        return strategies
    specs = list(strategies)
    if len(specs) == 1:
        return specs[0]
    if len(specs) != 3:
        raise ThousandError(f"--strategy: give one (all seats) or three (declarer, next, other), got {len(specs)}")
    seat = ROLE_SEATS[role]
    out = [""] * 3
    for k, spec in enumerate(specs):
        out[(seat + k) % 3] = spec
    return out


def kernel_play() -> Any:
    """The kernel's ``play_forced_declarer``, or a one-line error when it is not built."""
    try:
        from thousand import kernel
    except ImportError as e:
        raise ThousandError("the kernel's forced-declarer mode (thousand.kernel.play_forced_declarer) "
                            f"is not available: {e}") from None
    return kernel.play_forced_declarer


def _as_bitgen(seed: Any) -> np.random.BitGenerator:
    if isinstance(seed, np.random.BitGenerator):
        return seed
    return np.random.PCG64(seed if isinstance(seed, np.random.SeedSequence) else np.random.SeedSequence(seed))


def _any_seat(test: Any, strategies: Sequence[str] | str | None, rules: Rules) -> bool:
    """Whether ``test`` (a predicate of :mod:`thousand.strategies` on a spec) holds for a
    seat's strategy."""
    from thousand.simulate import normalize_strategies

    return any(test(s) for s in normalize_strategies(strategies, rules.players))


def _plays_to_contract(strategies: Sequence[str] | str | None, rules: Rules) -> bool:
    """Whether a seat's strategy plays for the contract (``pimc``): its play, and its draws,
    differ from one bid's run to the next."""
    from thousand.strategies import plays_to_contract

    return _any_seat(plays_to_contract, strategies, rules)


def _draws(strategies: Sequence[str] | str | None, rules: Rules) -> bool:
    """Whether a seat's strategy draws random numbers for its decisions (``random``, ``pimc``)."""
    from thousand.strategies import draws

    return _any_seat(draws, strategies, rules)


def _call_kernel(play: Any, hand: int, rules: Rules, role: str, strategies: Any, samples: int,
                 exact: bool, seed: Any, contract: int = 100) -> Completions:
    """The kernel's forced-declarer run (``play``: :func:`kernel_play`) as :class:`Completions`."""
    extra = {}
    if not isinstance(seed, np.random.BitGenerator) and _plays_to_contract(strategies, rules):
        # its draws differ from one contract to the next: on a stream of their own, so that
        # every bid's run plays the same completions (the chance stream's alone); child 2 of
        # the seed (child 0 draws the pass runs, child 1 the open-hand sample)
        ss = seed if isinstance(seed, np.random.SeedSequence) else np.random.SeedSequence(seed)
        extra["decisions"] = np.random.PCG64(np.random.SeedSequence(ss.entropy, spawn_key=(*ss.spawn_key, 2)))
    res = play(_as_bitgen(seed), rules, strategies, hand=hand, role=role, n_samples=samples, exact=exact,
               contract=contract, **extra)
    return Completions(hand=hand, role=role, points=np.asarray(res.declarer_points), talon=np.asarray(res.talon),
                       exact=exact, contract=contract, decision=np.asarray(res.decision),
                       bolt=np.asarray(res.declarer_bolt))


def estimate_bid(hand: int, rules: Rules | str, role: str = "forehand", strategies: Sequence[str] | str | None = None,
                 samples: int = 100_000, exact: bool = False, seed: int | None = 1,
                 confidence: float = 0.8, free_resignation: bool = True, per_bid: bool = False,
                 solve_samples: int = 0, jobs: int = 1, progress: bool | None = None) -> BidEstimate:
    """Simulate ``hand`` as declarer and return its bid table and recommendations.

    One run at contract 100 answers every bid when the play does not depend on the
    contract.  ``per_bid`` replays the same completions (same seed) once per bid with the
    declarer holding that contract: right for contract-aware strategies (always on when a
    seat's strategy :func:`~thousand.strategies.plays_to_contract`, as ``pimc``), and it
    gives the strategy's own raise/resign EV at every bid; it costs one run per bid.
    ``solve_samples`` (> 0) adds the open-hand reference (:func:`solve_hand`) on a sample
    of its own, solved on ``jobs`` workers: ``solve_table``.
    """
    import time

    if isinstance(rules, str):
        rules = parse_rules_spec(rules)
    if seed is not None:
        check_seed(seed)
    check_jobs(jobs)
    if not 0 < confidence <= 1:
        raise ThousandError(f"--confidence must be in (0, 1], got {confidence}")
    t0 = time.perf_counter()
    if exact and _draws(strategies, rules):
        raise ThousandError("--exact enumerates the cards, but a strategy given draws random numbers for its "
                            "decisions (random, pimc): its figures depend on the seed; sample them instead")
    if _plays_to_contract(strategies, rules):
        per_bid = True   # its play at 100 says nothing of another contract: every bid its own run
    # The strategies decide at the lowest contract the seat can win: the strategy's own
    # raise/resign EV is then known at a bid the table shows.
    first = lowest_bid(role, rules)
    c = simulate_hand(hand, rules, role, strategies, samples, exact, seed, contract=first)
    runs = None
    if per_bid:
        from thousand.runner.pool import progress_bar

        todo = [int(b) for b in bids_for_hand(hand, rules, role)]
        # one kernel run per bid: with a searching strategy minutes, so a bar on a terminal
        bar = progress_bar(len(todo), "bid", desc="one run per bid", progress=progress)
        runs = {}
        try:
            for b in todo:
                runs[b] = c if b == first else simulate_hand(hand, rules, role, strategies, samples, exact, seed,
                                                             contract=b)
                if bar is not None:
                    bar.update(1)
        finally:
            if bar is not None:
                bar.close()
    pass_info = pass_summary(simulate_pass(hand, rules, role, strategies, samples, seed), bolt_cost(rules))
    est = estimate_from_completions(c, rules, confidence, free_resignation, per_bid=runs,
                                    strategies=_strategy_label(strategies), seed=seed,   # --exact too: the pass and
                                    # open-hand samples use it
                                    **pass_info)
    import dataclasses
    solved = {}
    if solve_samples:
        t1 = time.perf_counter()
        ref = solve_hand(hand, rules, role, solve_samples, seed, jobs=jobs, progress=progress)
        solved = {"solve_table": bid_table(ref, rules, free_resignation=free_resignation),
                  "solve_samples": ref.n, "solve_seconds": time.perf_counter() - t1}
    return dataclasses.replace(est, seconds=time.perf_counter() - t0, per_bid=per_bid, **solved)


# --------------------------------------------------------------------- the open-hand reference
#: Completions ``thousand bid --solve`` solves by default: each finds the best hand-off of
#: the declarer's ten cards (solver.best_hand_off, about 2-8 ms on one core, 2026-12-02),
#: so P(make) is within about 3 points at 95%; ``--solve-samples`` sets it.
DEFAULT_SOLVE_SAMPLES = 1000
#: Completions per worker task: a smooth progress bar, and little start-up per task.
SOLVE_TASK = 8


def sample_completions(hand: int, samples: int, seed: Any = 1) -> np.ndarray:
    """``samples`` uniform completions of ``hand``: ``(n, 3)`` uint32 masks of the talon,
    the next opponent's (in play order after the declarer) and the other opponent's
    seven cards, drawn from ``SeedSequence(seed).spawn(2)[1]`` (apart from the
    strategies' and the passing run's streams) by the reference stream's bounded draws.

    >>> c = sample_completions(0b1111111, 3, seed=2)
    >>> [bin(int(m)).count("1") for m in c[0]], int(np.bitwise_or.reduce(c[0])) | 0b1111111 == (1 << 24) - 1
    ([3, 7, 7], True)
    """
    from thousand.reference.rng import Stream

    ss = seed if isinstance(seed, np.random.SeedSequence) else np.random.SeedSequence(seed)
    stream = Stream(np.random.PCG64(ss.spawn(2)[1]))
    unseen = [c for c in range(24) if not hand >> c & 1]
    out = np.zeros((samples, 3), dtype=np.uint32)
    for i in range(samples):
        cards = list(unseen)
        for j in range(len(cards) - 1):   # Fisher-Yates, as the engines shuffle
            k = j + stream.draw_bounded(len(cards) - j)
            cards[j], cards[k] = cards[k], cards[j]
        for part, (a, b) in enumerate(((0, 3), (3, 10), (10, 17))):
            out[i, part] = sum(1 << c for c in cards[a:b])
    return out


def _best_hand_offs(task: tuple[Rules, int, str, np.ndarray]) -> np.ndarray:
    """A worker's share of :func:`solve_hand`: the best hand-off's open-hand value of each completion."""
    from thousand import solver

    rules, hand, role, completions = task
    seat = ROLE_SEATS[role]
    active = (1, 2, 0)                      # the dealer is seat 0: forehand, middle, rear
    nxt = active[(active.index(seat) + 1) % 3]
    other = active[(active.index(seat) + 2) % 3]
    ws = solver.Workspace()
    out = np.empty(len(completions), dtype=np.int32)
    for i, (talon, a, b) in enumerate(completions):
        hands = [0, 0, 0]
        hands[seat], hands[nxt], hands[other] = hand | int(talon), int(a), int(b)
        out[i] = solver.best_hand_off(rules, hands, active, seat, workspace=ws)[1]
    return out


def solve_hand(hand: int, rules: Rules, role: str = "forehand", samples: int = DEFAULT_SOLVE_SAMPLES,
               seed: Any = 1, jobs: int = 1, progress: bool | None = None) -> Completions:
    """The open-hand reference of ``hand`` as declarer: for each of ``samples`` sampled
    completions, the declarer takes the talon, chooses the hand-off that is worth the most
    and the play is open-handed (he for the most, the defenders together for the least);
    ``points`` is that value.  The hand-offs are solved on ``jobs`` worker processes of
    the common pool, with a progress bar on a terminal."""
    from thousand.analysis.play_quality import pooled

    if samples < 2:
        raise ThousandError(f"--solve-samples must be at least 2, got {samples}")
    completions = sample_completions(hand, samples, seed)
    tasks = [(rules, hand, role, completions[k:k + SOLVE_TASK]) for k in range(0, samples, SOLVE_TASK)]
    parts = pooled(_best_hand_offs, tasks, samples, "open-hand hand-offs", jobs=jobs, progress=progress)
    return Completions(hand=hand, role=role, points=np.concatenate(parts), talon=completions[:, 0], exact=False,
                       contract=lowest_bid(role, rules))


def simulate_pass(hand: int, rules: Rules, role: str = "forehand", strategies: Sequence[str] | str | None = None,
                  samples: int = 100_000, seed: Any = 1) -> Any:
    """The hand passes at its first chance (``thousand.kernel.play_forced_pass``); always sampled.

    The stream is ``PCG64(SeedSequence(seed).spawn(1)[0])``: independent of the
    forced-declarer run's, and the same for the same seed.
    """
    _check_role(role)
    _check_hand(hand)
    if rules.players != 3:
        raise ThousandError(f"thousand bid analyses the 3-player game; the rules say players={rules.players}")
    from thousand import kernel
    ss = seed if isinstance(seed, np.random.SeedSequence) else np.random.SeedSequence(seed)
    bitgen = np.random.PCG64(ss.spawn(1)[0])
    return kernel.play_forced_pass(bitgen, rules, seat_strategies(strategies, role), hand=hand, role=role,
                                   n_samples=samples)


def pass_summary(res: Any, cost: float = 0.0) -> dict[str, float]:
    """Mean, standard error and sample count of a ``PassResult``'s score changes, each
    less ``cost`` (:func:`bolt_cost`) per bolt the seat got in the deal; the share of
    deals with a bolt, and the mean before the bolts (``pass_ev_without_bolts``)."""
    raw = np.asarray(res.score, dtype=float)
    k = np.asarray(res.bolt, dtype=float)
    s = raw - cost * k
    n = len(s)
    # once outbid the forehand has lost his 100: passing then is defending (or a redeal),
    # the deals in which he is not the declarer (every deal, for the other seats)
    outbid = s[np.asarray(res.declarer) != np.asarray(res.seat)]
    m = len(outbid)
    return {"pass_ev": float(s.mean()), "pass_ev_se": float(s.std(ddof=1) / math.sqrt(n)) if n > 1 else 0.0,
            "pass_samples": n, "pass_on_obligation": float(np.mean(res.declarer == res.seat)),
            "pass_bolt_rate": float(np.mean(k > 0)), "pass_ev_without_bolts": float(raw.mean()),
            "pass_ev_outbid": float(outbid.mean()) if m else None,
            "pass_ev_outbid_se": float(outbid.std(ddof=1) / math.sqrt(m)) if m > 1 else 0.0}


def _with_seconds(est: BidEstimate, seconds: float) -> BidEstimate:
    import dataclasses
    return dataclasses.replace(est, seconds=seconds)


def _strategy_label(strategies: Sequence[str] | str | None) -> str:
    if strategies is None:
        return "standard"
    if isinstance(strategies, str):
        return strategies
    return ",".join(strategies) if strategies else "standard"


# --------------------------------------------------------------------- output
def bid_estimate_json(est: BidEstimate) -> dict[str, Any]:
    """The ``--json`` object: hand, samples, exact, bids (bid, p_make, ci_low, ci_high, ev, ...), recommendations."""
    def num(x: Any) -> Any:
        if x is None or (isinstance(x, float) and math.isnan(x)):
            return None
        return round(float(x), 6)

    bids = []
    for row in est.table.iter_rows(named=True):
        bids.append({
            "bid": int(row["bid"]), "p_make": num(row["p_make"]), "ci_low": num(row["ci_low"]),
            "ci_high": num(row["ci_high"]), "ev": num(row["ev"]),
            "ev_ci_low": num(row["ev_ci_low"]), "ev_ci_high": num(row["ev_ci_high"]),
            "ev_play": num(row["ev_play"]), "ev_resign": num(row["ev_resign"]),
            "ev_strategy": num(row["ev_strategy"]),
            "ev_strategy_ci_low": num(row["ev_strategy_ci_low"]), "ev_strategy_ci_high": num(row["ev_strategy_ci_high"]),
            "made": int(row["made"]), "n": int(row["n"]),
        })
    if est.solve_table is not None:   # the open-hand reference, bid by bid (the same bids)
        for entry, row in zip(bids, est.solve_table.iter_rows(named=True)):
            entry["solve"] = {"p_make": num(row["p_make"]), "ci_low": num(row["ci_low"]),
                              "ci_high": num(row["ci_high"]), "ev": num(row["ev"]),
                              "ev_ci_low": num(row["ev_ci_low"]), "ev_ci_high": num(row["ev_ci_high"]),
                              "made": int(row["made"]), "n": int(row["n"])}
    return {
        "hand": format_hand(est.hand, symbols=False),
        "position": est.role,
        "rules": est.rules.describe(),
        "rules_hash": est.rules.hash,
        "strategies": est.strategies,
        "samples": est.samples,
        "exact": est.exact,
        "per_bid": est.per_bid,
        "seed": est.seed,
        "confidence": est.confidence,
        "points_mean": num(est.points_mean),
        "points_quantiles": {k: num(v) for k, v in est.points_quantiles.items()},
        "points_distribution": [{"from": a, "to": a + 4, "share": num(k / est.samples)}
                                for a, k in est.points_histogram],
        "pass_ev": num(est.pass_ev),
        "pass_ev_ci_low": num(est.pass_ev_ci[0]) if est.pass_ev_ci else None,
        "pass_ev_ci_high": num(est.pass_ev_ci[1]) if est.pass_ev_ci else None,
        "pass_samples": est.pass_samples,
        "pass_on_obligation": num(est.pass_on_obligation),
        "pass_ev_outbid": num(est.pass_ev_outbid),
        "redeal_allowed": bool(est.redeal_reasons),
        "redeal_reasons": list(est.redeal_reasons),
        "redeal_ev": 0.0 if est.redeal_reasons else None,
        "best_choice": _choice_named(est),
        "recommendation": recommendation(est),
        "bolt_cost": bolt_cost(est.rules),
        "declarer_bolt_rate": num(est.declarer_bolt_rate),
        "pass_bolt_rate": num(est.pass_bolt_rate),
        "pass_ev_without_bolts": num(est.pass_ev_without_bolts),
        "bids": bids,
        "safe_bid": est.safe_bid,
        "best_ev_bid": est.best_ev_bid,
        # only with --solve: without it the object is what it always was
        **({"solve_samples": est.solve_samples,
            "solve_safe_bid": safe_bid(est.solve_table, est.confidence),
            "solve_best_ev_bid": best_ev_bid(est.solve_table)} if est.solve_table is not None else {}),
    }


def _bid_options(est: BidEstimate) -> tuple[tuple[float, int] | None, tuple[float, int] | None]:
    """``(ev, bid)`` of the best held contract, and of the best bid followed by the
    strategy's own raise/resign answer (known at 100, or at every bid with --per-bid)."""
    held = None
    if est.best_ev_bid is not None:
        row = est.table.filter(pl.col("bid") == est.best_ev_bid)
        if not row.is_empty():
            held = (float(row["ev"][0]), est.best_ev_bid)
    strat = est.table.filter(pl.col("ev_strategy").is_not_null())
    raised = None
    if not strat.is_empty():
        top = strat.sort(["ev_strategy", "bid"], descending=[True, False]).row(0, named=True)
        raised = (float(top["ev_strategy"]), int(top["bid"]))
    return held, raised


def best_choice(est: BidEstimate) -> str | None:
    """``"bid N"``, ``"pass"`` or ``"redeal"``: the best expected score among every bid,
    passing and (when the hand may demand one) a redeal, worth 0.

    A bid counts with the better of holding its contract and the strategy's own
    raise/resign answer, since passing's figure includes that raise whenever the passer
    ends up playing the 100 on obligation: the two are compared like for like.
    """
    held, raised = _bid_options(est)
    # (ev, tie-break, name): on a tie the lowest bid, then passing, then the redeal
    options = [(ev, -b, f"bid {b}") for ev, b in (o for o in (held, raised) if o is not None)]
    if est.pass_ev is not None:
        options.append((est.pass_ev, -10_000, "pass"))
    if est.redeal_reasons:
        options.append((0.0, -20_000, "redeal"))
    return max(options, key=lambda o: o[:2])[2] if options else None


def _choice_named(est: BidEstimate) -> str | None:
    """:func:`best_choice` as the JSON names it: the forehand cannot pass his forced
    opening, so his "pass" (hold it, pass once outbid) is named as that bid, as the
    recommendation says it."""
    choice = best_choice(est)
    if choice == "pass" and est.role == "forehand":
        return f"bid {lowest_bid('forehand', est.rules)}"
    return choice


def _within_noise(est: BidEstimate, floor: float, floor_se: float) -> list[int]:
    """The bids whose expected score (holding them) cannot be told from ``floor`` (standard
    error ``floor_se``) at 95%: the interval of their difference holds 0.  The two come
    from separate samples, so their standard errors add in quadrature."""
    if not {"ev_ci_low", "ev_ci_high"} <= set(est.table.columns):
        return []
    close = []
    for row in est.table.iter_rows(named=True):
        se = (row["ev_ci_high"] - row["ev_ci_low"]) / (2 * 1.96)
        if abs(row["ev"] - floor) <= 1.96 * math.hypot(se, floor_se):
            close.append(int(row["bid"]))
    return close


def _noise_note(est: BidEstimate, up_to: int, floor: float, floor_se: float, against: str) -> str:
    """Where the bid limit falls inside the sampling noise: which bids around it are worth
    as much as not winning the auction, as far as the sample can tell."""
    close = set(_within_noise(est, floor, floor_se))
    step = est.rules.bid_step
    start = up_to if up_to in close else up_to + step if up_to + step in close else None
    if start is None:
        return ""
    lo = hi = start
    while lo - step in close:
        lo -= step
    while hi + step in close:
        hi += step
    span = f"{lo}" if lo == hi else f"{lo}-{hi}"
    return _too_close(f"winning at {span} and {against}")


def _share(p: float, digits: int) -> str:
    """A probability to ``digits`` decimals that never rounds to a certainty it is not: a
    bid failed in 5 of 20,000 samples reads ">0.999", not "1.000"."""
    text = f"{p:.{digits}f}"
    if p < 1 and text == f"{1:.{digits}f}":
        return ">" + f"{1 - 10 ** -digits:.{digits}f}"
    if p > 0 and text == f"{0:.{digits}f}":
        return "<" + f"{10 ** -digits:.{digits}f}"
    return text


def _tenth(v: float) -> float:
    """``v`` rounded to the tenth it is printed at, a tiny negative as 0.0: never "-0.0"."""
    return round(float(v), 1) + 0.0


def _too_close(which: str) -> str:
    return f" (within the sampling noise: {which} cannot be told apart at 95%; more --samples narrows it)"


def recommendation(est: BidEstimate) -> dict[str, Any]:
    """What to do with the hand, in one line a player can act on.

    ``action`` is :func:`best_choice`'s kind (``"bid"``, ``"pass"`` or ``"redeal"``; the
    forehand, whose 100 is forced, is never told to pass: he holds it).  For a bid,
    ``up_to`` is how high to go in the auction: the highest bid whose expected score
    (holding it, ``ev``) is still at least what passing once outbid gets (the deals of the
    passing run that another seat declares: the forehand's 100 on obligation is gone by
    then, and a hand redeal was a choice before the auction).  Won lower, the declarer can
    raise after the talon, so every bid up to it is worth at least as much; above it,
    letting the others have the contract is better.  ``text`` says it in words, bolts
    counted as everywhere in the estimate.
    """
    choice = best_choice(est)
    held, raised = _bid_options(est)
    best_bid = max((o for o in (held, raised) if o is not None), default=None)
    bid_txt = f"the best bid, {best_bid[1]}, {_tenth(best_bid[0]):+.1f}" if best_bid else "no bid this seat can win"
    if best_bid is not None and best_bid != held:
        # the figure is the EV strategy (the strategy's own raise or resign), not the table's EV bid
        bid_txt += " with the strategy's own raise or resign"
    pass_txt = f"passing {_tenth(est.pass_ev):+.1f}" if est.pass_ev is not None else None
    if choice == "redeal":
        others = ", ".join(t for t in (pass_txt, bid_txt) if t)
        return {"action": "redeal", "up_to": None,
                "text": f"demand a redeal: worth 0, more than the alternatives ({others})"}
    forced = lowest_bid("forehand", est.rules)
    if choice == "pass" and est.role == "forehand":
        # the forehand's passing is holding his forced opening and passing once outbid: the
        # bids above it are weighed against that below, as for a bid
        choice = f"bid {forced}"
    if choice == "pass" or choice is None:
        noise = ""
        if held is not None and est.pass_ev is not None and held[1] in _within_noise(est, est.pass_ev,
                                                                                     est.pass_ev_se or 0.0):
            # named with its own figure: the sentence's best bid may be another one (the raise)
            noise = _too_close(f"passing and holding {held[1]} ({_tenth(held[0]):+.1f})")
        return {"action": "pass", "up_to": None,
                "text": f"pass: {_tenth(est.pass_ev):+.1f}, more than bidding ({bid_txt}){noise}"}
    # Bid: as high as a won contract is still worth what letting the others have it is.  In
    # the auction that is passing once outbid: the hand redeal was a choice before it (above),
    # and the forehand's 100 on obligation is gone once another seat has bid over it.
    outbid, outbid_se = est.pass_ev_outbid, est.pass_ev_outbid_se
    if outbid is None:      # (an estimate made before the outbid deals were kept apart)
        outbid, outbid_se = est.pass_ev, est.pass_ev_se
    floor = outbid if outbid is not None else -math.inf
    worth = est.table.filter(pl.col("ev") >= floor)
    up_to = int(worth["bid"].max()) if worth.height else int(choice.split()[1])
    at = est.table.filter(pl.col("bid") == up_to)
    against = "passing once outbid" if est.role == "forehand" else "passing"
    text = f"bid up to {up_to}"
    if est.role == "forehand" and up_to == forced and math.isfinite(floor):
        # his opening is forced: what is left to say is not to go above it
        text = (f"hold the forced {up_to} and pass once outbid ({_tenth(floor):+.1f}): no higher contract is worth "
                "that much")
        held_at = float(at["ev"][0]) if at.height else None
        if raised is not None and raised[1] == up_to and (held_at is None or raised[0] > held_at):
            text += (f"; won at {up_to}, raising or resigning after the talon as the strategy does is worth "
                     f"{_tenth(raised[0]):+.1f}")
        elif held_at is not None:
            # (the better of the two: the table's EV bid, not the strategy's own answer below it)
            text += f"; winning at {up_to} is worth {_tenth(held_at):+.1f}"
    elif worth.height and math.isfinite(floor):
        ev = float(at["ev"][0])
        than = "more than" if round(ev, 1) > round(floor, 1) else "as much as"
        text += f": winning there is worth {_tenth(ev):+.1f}, {than} {against} ({_tenth(floor):+.1f})"
        text += _noise_note(est, up_to, floor, outbid_se or 0.0, against)
    elif raised is not None and choice == f"bid {raised[1]}" and math.isfinite(floor):
        # no contract is worth holding more than not winning; raising or resigning after the
        # talon as the strategy does is (passing counts that answer too when it plays the 100)
        than = "more than" if round(raised[0], 1) > round(floor, 1) else "as much as"
        text += (f": won there, raising or resigning after the talon as the strategy does is worth "
                 f"{_tenth(raised[0]):+.1f}, {than} {against} ({_tenth(floor):+.1f}); no contract is worth that much held")
    if held is not None and held[1] != up_to:
        text += f"; the best contract to hold is {held[1]} ({_tenth(held[0]):+.1f})"
    return {"action": "bid", "up_to": up_to, "text": text}


def format_bid_table(est: BidEstimate) -> str:
    """The terminal report: the recommendation first, then the hand, one line per bid and
    the figures behind the recommendation."""
    hand_txt = format_hand(est.hand)
    pts, marr = card_points(est.hand), marriage_points(est.hand)
    mode = "exact: all %s completions" % f"{est.samples:,}" if est.exact else f"{est.samples:,} sampled completions, seed {est.seed}"
    lines = [
        f"recommendation: {recommendation(est)['text']}",
        "",
        f"hand {hand_txt}  ({pts} card points, marriages {marr}) as {est.role} declarer",
        f"rules {est.rules.describe()}, strategies {est.strategies}; {mode}",
        f"declarer points: mean {est.points_mean:.1f}, median {est.points_quantiles['q50']:.0f}, "
        f"10-90% {est.points_quantiles['q10']:.0f}-{est.points_quantiles['q90']:.0f}",
        "",
    ]
    if est.table.height == 0:
        # No bid this seat can win is within the hand's cap: passing (or a redeal) is all.
        lines.append(f"no bid to analyse: from the {est.role} seat the lowest bid that wins the auction is "
                     f"{lowest_bid(est.role, est.rules)}, above this hand's cap of {bid_cap(est.hand, est.rules)} "
                     f"(bid_cap={est.rules.bid_cap})")
    ci_head = "P(make)" if est.exact else "P(make) [95% CI]"
    strat_rows = est.table.filter(pl.col("ev_strategy").is_not_null())
    strat_col = strat_rows.height > 1   # per-bid runs: a column; otherwise one line below
    ev_head = "EV bid" if est.exact else "EV bid [95% interval]"
    solved = {} if est.solve_table is None else {r["bid"]: r for r in est.solve_table.iter_rows(named=True)}
    # the bids past the first one never made fold into one line (a bid_cap=none table runs
    # to 400), when all of them are never made and they are more than a row or two
    never = [r["p_make"] == 0 and (not solved or solved[r["bid"]]["p_make"] == 0)
             for r in est.table.iter_rows(named=True)]
    first = never.index(True) if True in never else len(never)
    bids = est.table["bid"].to_list()
    tail = bids[first + 1:] if all(never[first:]) and len(never) - first > 3 else []
    if est.table.height:
        lines.append(f"{'bid':>5}  {ci_head:<22} {ev_head:>24}  {'EV play out':>11}  {'EV resign':>9}"
                 + (f"  {'EV strategy':>16}" if strat_col else "")
                 + (f"  {'open-hand P(make)':<22} {'open-hand EV':>24}" if solved else ""))
    for row in est.table.iter_rows(named=True):
        if row["bid"] in tail:
            continue
        if est.exact:
            p_txt = f"{_share(row['p_make'], 4)} ({row['made']}/{row['n']})"
            ev_txt = f"{_tenth(row['ev']):+.1f}"
        else:
            p_txt = f"{_share(row['p_make'], 3)} [{row['ci_low']:.3f}, {row['ci_high']:.3f}]"
            # not symmetric: see _choice_scores
            ev_txt = f"{_tenth(row['ev']):+.1f} [{_tenth(row['ev_ci_low']):+.1f}, {_tenth(row['ev_ci_high']):+.1f}]"
        res = "-" if row["ev_resign"] is None else f"{row['ev_resign']:+.0f}"
        flags = []
        if row["bid"] == est.safe_bid:
            flags.append("safe")
        if row["bid"] == est.best_ev_bid:
            flags.append("best EV")
        strat_txt = ""
        if strat_col:
            strat_txt = "  " + f"{_ev_text(row, 'ev_strategy', est.exact):>16}"
        solve_txt = ""
        if solved:
            r = solved[row["bid"]]
            solve_txt = (f"  {_share(r['p_make'], 3)} [{r['ci_low']:.3f}, {r['ci_high']:.3f}]"
                         f" {_tenth(r['ev']):>+10.1f} [{_tenth(r['ev_ci_low']):+.1f}, {_tenth(r['ev_ci_high']):+.1f}]")
        lines.append(f"{row['bid']:>5}  {p_txt:<22} {ev_txt:>24}  {_tenth(row['ev_play']):>+11.1f}  {res:>9}{strat_txt}"
                     + solve_txt + (f"  <- {', '.join(flags)}" if flags else ""))
    if tail:
        what = "completion" if est.exact else "sampled completion"
        lines.append(f"{tail[0]:>5}..{tail[-1]}: made in no {what}, as {bids[first]} "
                     "(not shown; --json has them)")
    lines.append("")
    conf = level_percent(est.confidence)
    if est.table.height and est.confidence >= 1 and not est.exact:
        # no sample can show a certainty: say what it does show
        lines.append(f"safe bid (made in every sampled completion: an estimate, --exact counts them all): "
                     f"{est.safe_bid if est.safe_bid is not None else 'none'}")
    elif est.table.height:
        first = int(est.table["bid"].min())
        lines.append(f"safe bid (made with >= {conf}): "
                     f"{est.safe_bid if est.safe_bid is not None else f'none (even {first} is below)'}")
    else:
        lines.append(f"safe bid (made with >= {conf}): none (no bid this seat can win)")
    if solved:
        ref_safe, ref_best = safe_bid(est.solve_table, est.confidence), best_ev_bid(est.solve_table)
        lines.append(f"open-hand reference: safe bid {ref_safe if ref_safe is not None else 'none'}, "
                     f"best EV holding the contract {ref_best if ref_best is not None else 'none'} "
                     "(the same rules on its columns)")
    if est.pass_ev is not None:
        lo, hi = est.pass_ev_ci
        how = ", sampled even with --exact" if est.exact else ""
        obl = (f"; plays the 100 on obligation in {est.pass_on_obligation:.1%}"
               + (f", EV {_tenth(est.pass_ev_outbid):+.1f} in the others, once outbid"
                  if est.pass_ev_outbid is not None else "")
               if est.pass_on_obligation else "")
        lines.append(f"passing: EV {_tenth(est.pass_ev):+.1f} [{_tenth(lo):+.1f}, {_tenth(hi):+.1f}] "
                     f"({est.pass_samples:,} sampled deals{how}{obl})")
    held, raised = _bid_options(est)
    if held is not None:
        lines.append(f"best expected score holding the contract: bid {held[1]}, EV {_tenth(held[0]):+.1f}")
    if strat_rows.height == 1:
        r = strat_rows.row(0, named=True)
        lines.append(f"the strategy's own raise/resign answers at {r['bid']}: EV {_ev_text(r, 'ev_strategy', est.exact)}"
                     " (--per-bid gives it for every bid)")
    if est.redeal_reasons:
        lines.append(f"redeal: this hand may demand one ({', '.join(est.redeal_reasons)}): "
                     "EV 0, the deal is replayed with no score change and no bolt")
    choice = best_choice(est)
    if choice is not None and choice.startswith("bid") and raised is not None \
            and (held is None or raised[0] > held[0]):
        lines.append(f"best of all, if the auction is won at {raised[1]}: raise or resign after the talon "
                     f"as the strategy does ({_tenth(raised[0]):+.1f})")
    lines.append(_bolt_line(est))
    if solved:
        took = f", {est.solve_seconds:.1f} s" if est.solve_seconds is not None else ""
        lines.append(f"open-hand = a reference, not advice: on {est.solve_samples:,} completions of their own "
                     f"(seed {est.seed}{took}) the declarer takes the talon, hands off the best two cards and "
                     "everybody plays with every hand open (he for the most, the defenders together for the "
                     f"least); EV as for the strategy ({_after_talon(est.rules)} after the talon), bolts not "
                     "counted. "
                     "Real defenders see less and err more, so the strategy can beat it (docs/bids.md).")
    after = _after_talon(est.rules)
    lines.append((f"EV bid = bid, then after the talon {after}, whichever is better for that talon; "
                  if after != "play" else "EV bid = bid, the hand then played out (these rules allow neither a "
                  "resignation nor a talon redeal); ")
                 + "passing = pass at the first chance, the others bid and play; not counted: the game score "
                 "(one deal from 0, off the barrel). docs/bids.md explains both and the EV interval."
                 + ("" if est.exact or strat_rows.height == 0 else
                    " The strategy's EV's '± x' is its 95% interval's half-width."))
    from thousand.reference.deal import FREE_RESIGNATIONS, LATE_RESIGNATION_COST
    if est.rules.resign == "sixty_two_free":
        # one deal from the game's start: a resignation is one of the two free ones
        lines.append(f"resign=sixty_two_free: 'EV resign' counts a free resignation (the first {FREE_RESIGNATIONS} "
                     f"of a game are free, each later one costs {LATE_RESIGNATION_COST}); once they are used, "
                     "--set resign=sixty prices it (-contract, +60 to each opponent: nearly what a later one "
                     "costs the declarer)")
    gift = {"sixty": "+60", "sixty_two_free": "+60", "half_bid": "half the bid"}.get(est.rules.resign)
    if gift:
        # a bid that pays through resigning can still lose the game's race: say what it gives away
        lines.append(f"every EV here is this seat's own score: a resignation also gives each opponent {gift}"
                     + (f" and uses one of the {FREE_RESIGNATIONS} free ones" if est.rules.resign == "sixty_two_free"
                        else ""))
    if est.seconds is not None:
        lines.append(f"({est.seconds:.2f} s)")
    return "\n".join(lines)


def _bolt_line(est: BidEstimate) -> str:
    """How the bolts are counted, with how often they happen for this hand."""
    cost = bolt_cost(est.rules)
    if not cost:
        return "bolts: off under these rules"
    what = "no trick" if est.rules.bolt_when == "no_tricks" else "no points"
    seen = [f"{who} gets one in {rate:.1%} of deals" for who, rate in
            (("as declarer (played out) the hand", est.declarer_bolt_rate), ("passing it", est.pass_bolt_rate))
            if rate is not None]
    return (f"bolts: a deal with {what} is a bolt and every third costs {est.rules.bolt_penalty}, so each is "
            f"counted at -{cost:.0f}" + (f"; {', '.join(seen)}" if seen else "")
            + "; a redeal or a resignation gives none")


def _ev_text(row: dict[str, Any], col: str, exact: bool) -> str:
    if row[col] is None:
        return "-"
    if exact:
        return f"{_tenth(row[col]):+.1f}"
    return f"{_tenth(row[col]):+.1f} ±{(row[col + '_ci_high'] - row[col]):.1f}"


def plot_bid_chart(est: BidEstimate, path: Any) -> Any:
    """Three panels: the declarer's points; P(make) by bid with its 95% band; EV by bid.

    With ``--solve`` (``est.solve_table``) the P(make) and EV panels also draw the open-hand
    reference (best hand-off, every hand open) with its own 95% band, labelled as such.

    Writes ``path`` and returns the (closed) matplotlib figure, for inspection."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from thousand.analysis.charts import save_figure

    t = est.table
    b = t["bid"].to_numpy()
    if len(b) == 0:
        raise ThousandError(f"no bid to plot: from the {est.role} seat the lowest bid that wins the auction is "
                            f"{lowest_bid(est.role, est.rules)}, above this hand's cap of {bid_cap(est.hand, est.rules)}")
    fig, (ax0, ax1, ax2) = plt.subplots(3, 1, figsize=(8, 10.5), constrained_layout=True,
                                        gridspec_kw={"height_ratios": [0.7, 1, 1]})
    ax2.sharex(ax1)
    if est.points_histogram:
        starts = np.array([a for a, _ in est.points_histogram], dtype=float)
        shares = np.array([k for _, k in est.points_histogram], dtype=float) / est.samples
        ax0.bar(starts, shares * 100, width=5, align="edge", color="C7", edgecolor="white", lw=0.3)
    ax0.axvspan(b.min(), b.max(), color="C0", alpha=0.06, label="bids the rules allow")
    ax0.set_ylabel("share of deals (%)")
    ax0.set_title("Declarer's points when the deal is played out (5-point bins)")
    ax0.legend(loc="best", fontsize=8)   # the tallest bars sit left for weak hands, right for strong
    ax0.grid(alpha=0.3)
    ax0.set_xlabel("declarer's deal points (cards + marriages)")
    ax1.plot(b, t["p_make"].to_numpy(), marker="o", ms=3, color="C0", label="P(make)")
    if not est.exact:
        ax1.fill_between(b, t["ci_low"].to_numpy(), t["ci_high"].to_numpy(), color="C0", alpha=0.25,
                         label="95% Wilson interval")
    ref = est.solve_table   # --solve: the open-hand reference (best hand-off, open hands), its own sample
    ref_label = f"open-hand reference (best hand-off, every hand open; {est.solve_samples:,} completions)"
    if ref is not None:
        rb = ref["bid"].to_numpy()
        ax1.plot(rb, ref["p_make"].to_numpy(), marker="s", ms=3, color="C5", ls="--", label=f"P(make), {ref_label}")
        ax1.fill_between(rb, ref["ci_low"].to_numpy(), ref["ci_high"].to_numpy(), color="C5", alpha=0.15,
                         label="open-hand reference: its 95% Wilson interval")
    ax1.axhline(est.confidence, color="grey", ls="--", lw=1, label=f"confidence {level_percent(est.confidence)}")
    if est.safe_bid is not None:
        ax1.axvline(est.safe_bid, color="C2", ls=":", lw=1.5, label=f"safe bid {est.safe_bid}")
    ax1.set_ylabel("probability of making the bid")
    ax1.set_ylim(-0.02, 1.02)
    if ref is None:
        ax1.legend(loc="upper right", fontsize=8)
    else:   # two curves and two bands fill the panel: the legend goes below it, as the EV panel's
        ax1.legend(loc="upper center", bbox_to_anchor=(0.5, -0.16), ncol=2, fontsize=8)
    ax1.grid(alpha=0.3)
    mode = "exact enumeration" if est.exact else f"{est.samples:,} samples"
    fig.suptitle(f"{format_hand(est.hand)} as {est.role} declarer ({est.rules.describe()}, {mode})")
    ax1.set_title("Probability of making each bid")
    ax1.set_xlabel("bid (contract, points)")

    ev = t["ev"].to_numpy()
    ax2.plot(b, ev, marker="o", ms=3, color="C1", label="bid, then play or resign after the talon")
    if not est.exact:
        ax2.fill_between(b, t["ev_ci_low"].to_numpy(), t["ev_ci_high"].to_numpy(), color="C1", alpha=0.25,
                         label="95% interval")
    ax2.plot(b, t["ev_play"].to_numpy(), color="C3", lw=1, ls="--", label="always play out")
    strat = t["ev_strategy"].to_numpy().astype(float)
    if np.isfinite(strat).sum() > 1:
        ax2.plot(b, strat, color="C4", lw=1, marker="x", ms=3, label="the strategy's own raise/resign")
    elif np.isfinite(strat).any():   # known at the one contract the kernel was asked at
        j = int(np.flatnonzero(np.isfinite(strat))[0])
        ax2.plot([b[j]], [strat[j]], color="C4", marker="x", ms=7, ls="none",
                 label=f"bid {b[j]}, then the strategy's raise/resign ({_tenth(strat[j]):+.1f})")
    ref_ev = np.array([], dtype=float)
    if ref is not None:
        ref_ev = ref["ev"].to_numpy().astype(float)
        ax2.plot(rb, ref_ev, marker="s", ms=3, color="C5", ls="--", label=f"EV, {ref_label}")
        ax2.fill_between(rb, ref["ev_ci_low"].to_numpy(), ref["ev_ci_high"].to_numpy(), color="C5", alpha=0.15,
                         label="open-hand reference: its 95% interval")
    res = t["ev_resign"].to_numpy()
    if not np.all(np.isnan(res.astype(float))):
        ax2.plot(b, res, color="grey", lw=1, ls=":", label="resign")
    pv = est.pass_ev if est.pass_ev is not None else 0.0
    outbid = [] if not est.pass_on_obligation or est.pass_ev_outbid is None else [est.pass_ev_outbid]
    if outbid:
        # the forehand: passing holds the forced 100 played when both others pass; once
        # outbid that is gone, and a higher bid is weighed against passing then (the advice)
        ax2.axhline(pv, color="black", lw=0.8, label=f"pass, the forced 100 played if nobody bids ({_tenth(pv):+.1f})")
        ax2.axhline(outbid[0], color="black", lw=1.2, ls="--",
                    label=f"pass once outbid: what a higher bid is weighed against ({_tenth(outbid[0]):+.1f})")
    else:
        ax2.axhline(pv, color="black", lw=0.8, label=f"pass ({_tenth(pv):+.1f})")
    if est.redeal_reasons:   # the hand may demand a redeal: worth 0, the deal is replayed
        ax2.axhline(0.0, color="C2", lw=1.2, ls="-.", label="demand a redeal (0)")
    if est.best_ev_bid is not None:
        ax2.axvline(est.best_ev_bid, color="C1", ls=":", lw=1.5, label=f"best bid to hold: {est.best_ev_bid}")
    # whole bids on the axis, in steps of the bid step, at most about a dozen ticks
    from matplotlib.ticker import MultipleLocator
    span = max(int(b.max() - b.min()), 1)
    step = next((k * int(est.rules.bid_step) for k in (1, 2, 4, 10, 20, 40)
                 if span / (k * int(est.rules.bid_step)) <= 12), span)
    ax1.xaxis.set_major_locator(MultipleLocator(step))
    # room above and below every curve and the pass line, so none hugs the frame
    values = np.concatenate([np.asarray(v, dtype=float).ravel()
                             for v in (ev, t["ev_play"].to_numpy(), strat, res, ref_ev, [pv], outbid,
                                       [0.0] if est.redeal_reasons else [])])
    values = values[np.isfinite(values)]
    lo, hi = float(values.min()), float(values.max())
    pad = max(5.0, 0.08 * (hi - lo))
    ax2.set_ylim(lo - pad, hi + pad)
    ax2.set_xlabel("bid (contract, points)")
    ax2.set_ylabel("expected score change (points)")
    ax2.set_title("Expected score change of each bid")
    # Below the panel: the horizontal pass line crosses the whole plot, so no place inside is free.
    ax2.legend(loc="upper center", bbox_to_anchor=(0.5, -0.16), ncol=2, fontsize=8)
    ax2.grid(alpha=0.3)
    try:
        save_figure(fig, path, dpi=120)
    finally:
        plt.close(fig)
    return fig


def dumps(est: BidEstimate) -> str:
    return json.dumps(bid_estimate_json(est))
