"""Open-hand (double-dummy) values of play positions: the plain-Python twin of the
kernel's solver (``src/_solver.pxi``).

The value of a position is what the declarer has made in the deal when the play ends
(card points of his tricks, his declared marriages, the last-trick bonus; 2 players: the
set-aside talon when he takes the last trick, and the points of the cards he laid away,
passed in as ``laid_away_points``) with every hand open, the declarer playing for the
most and the defenders together for the least.  Declaring a marriage is a move of its
own wherever :meth:`Position.declarable` allows it.  Every card is played through
:meth:`thousand.reference.play.Position.play`: the rules are the play module's.

Two searches, both written for clarity, not speed:

* :func:`minimax` -- every line of play, nothing pruned (small endgames only);
* :func:`solve` -- alpha-beta over the same tree, remembering bounds on the value of the
  play still to come after each trick (a plain dict), so that whole deals finish in
  seconds; :func:`reaches` -- the same search with the window just below a target.

``tests/test_solver.py`` holds :func:`solve` to :func:`minimax` on small endgames and the
kernel's solver to :func:`solve` on random endgames of every table size and play option.

>>> from thousand.cards import parse_hand
>>> from thousand.rules import CLASSIC
>>> hands = (parse_hand("AH TH"), parse_hand("KH 9S"), parse_hand("QH JS"))
>>> p = Position.start(CLASSIC, hands, active=(0, 1, 2), leader=0)
>>> p = p._evolve(trick_index=6)            # the last two tricks of a classic deal
>>> solve(p, declarer=0)                    # he takes both tricks: 11+4+3 and 10+0+2
30
>>> minimax(p, declarer=0)
30
"""
from __future__ import annotations

from thousand.cards import RANK_POINTS, rank_of
from thousand.reference.play import Position

__all__ = ["minimax", "solve", "reaches", "card_values", "moves"]


def moves(p: Position) -> list[tuple[int, bool]]:
    """Every move of the seat to play: each legal card, and each declarable card once
    more with its declaration."""
    legal, declarable = p.legal(), p.declarable()
    out = []
    for c in range(24):
        if legal >> c & 1:
            out.append((c, False))
            if declarable >> c & 1:
                out.append((c, True))
    return out


def minimax(p: Position, declarer: int, laid_away_points: int = 0) -> int:
    """The open-hand value by plain minimax over every line of play."""
    if p.over:
        return p.deal_points(declarer) + laid_away_points
    values = [minimax(p.play(c, d), declarer, laid_away_points) for c, d in moves(p)]
    return max(values) if p.turn == declarer else min(values)


def solve(p: Position, declarer: int, laid_away_points: int = 0) -> int:
    """The open-hand value by alpha-beta, remembering the value of the play still to come
    after each trick (it depends on the hands, the leader and the trump only)."""
    memo: dict[tuple, tuple[int, int]] = {}
    return p.deal_points(declarer) + laid_away_points + _future(p, declarer, -10**6, 10**6, memo)


def reaches(p: Position, declarer: int, target: int, laid_away_points: int = 0) -> bool:
    """Does the declarer make at least ``target`` with open-hand play: one alpha-beta
    search with the window just below the target (cheaper than :func:`solve`)."""
    need = target - p.deal_points(declarer) - laid_away_points
    return need <= 0 or _future(p, declarer, need - 1, need, {}) >= need


def card_values(p: Position, declarer: int, laid_away_points: int = 0) -> dict[int | tuple[int, bool], int]:
    """The value of every move: ``{card: value}`` for the card played plainly and
    ``{(card, True): value}`` for the card played with a declaration."""
    out: dict[int | tuple[int, bool], int] = {}
    for c, d in moves(p):
        out[(c, True) if d else c] = solve(p.play(c, d), declarer, laid_away_points)
    return out


def _future(p: Position, declarer: int, alpha: int, beta: int, memo: dict) -> int:
    """The declarer's points still to come, exact when strictly inside (alpha, beta),
    else a bound on the side of the window it falls (fail-soft)."""
    if p.over:
        return 0
    key = (p.hands, p.leader, p.trump) if not p.trick else None
    if key is not None:
        lo, hi = memo.get(key, (-10**6, 10**6))
        if lo == hi or lo >= beta:
            return lo
        if hi <= alpha:
            return hi
        alpha0, beta0 = alpha, beta
        alpha, beta = max(alpha, lo), min(beta, hi)
    made = p.deal_points(declarer)
    maximising = p.turn == declarer
    best = -10**6 if maximising else 10**6
    for c, d in moves(p):
        q = p.play(c, d)
        gain = q.deal_points(declarer) - made
        v = gain + _future(q, declarer, alpha - gain, beta - gain, memo)
        if maximising:
            best = max(best, v)
            alpha = max(alpha, v)
        else:
            best = min(best, v)
            beta = min(beta, v)
        if alpha >= beta:
            break
    if key is not None:
        lo, hi = memo.get(key, (-10**6, 10**6))
        if best <= alpha0:
            hi = min(hi, best)
        elif best >= beta0:
            lo = max(lo, best)
        else:
            lo = hi = best
        memo[key] = (lo, hi)
    return best
