"""Play positions for the play-layer and solver tests: random deals of every table size
(stacked now and then so that declarations come up), endgames cut from them by random
play, every combination of the options that change the play, and the play starts and
played lines of deals the kernel simulated.
"""
from __future__ import annotations

import dataclasses
import itertools
import random
from typing import Iterator

import numpy as np

from thousand import kernel, solver
from thousand.cards import ACE, KING, QUEEN, card_points
from thousand.reference.play import Position, n_tricks
from thousand.rules import CLASSIC, Rules
from thousand.trace import DealTrace, EventKind

__all__ = ["random_deal", "endgame", "option_rules", "played_deals", "PlayedDeal"]


def random_deal(rules: Rules, rng: random.Random) -> tuple[list[int], tuple[int, ...], int, int]:
    """Hands by seat (4 entries), the active seats from the forehand, the declarer, and the
    set-aside talon's points (2 players).  The declarer sometimes holds all four aces or
    two marriages, so that declarations and the ace marriage come up often."""
    n = rules.players
    dealer = rng.randrange(n)
    active = tuple((dealer + 1 + i) % n for i in range(3 if n == 4 else n))
    declarer = rng.choice(active)
    deck = list(range(24))
    rng.shuffle(deck)
    stack = rng.random()
    wanted = []
    if stack < 0.25:
        wanted = [6 * s + ACE for s in range(4)]
    elif stack < 0.5:
        suits = rng.sample(range(4), 2)
        wanted = [6 * s + r for s in suits for r in (QUEEN, KING)]
    for c in wanted:           # move them to the declarer's part of the deck
        deck.remove(c)
        deck.insert(0, c)
    per = 10 if n == 2 else 8
    order = [declarer] + [s for s in active if s != declarer]
    hands = [0] * 4
    for i, seat in enumerate(order):
        for c in deck[per * i:per * (i + 1)]:
            hands[seat] |= 1 << c
    set_aside = card_points(sum(1 << c for c in deck[20:22])) if n == 2 else 0
    return hands, active, declarer, set_aside


def endgame(rules: Rules, rng: random.Random, tricks_left: int, mid_trick: bool | None = None
            ) -> tuple[Position, int]:
    """A position with ``tricks_left`` tricks still to finish, reached from a random deal
    by random legal cards (declaring with 60% of the declarable ones); ``mid_trick`` (by
    default at random) leaves one or more cards of the trick in progress played.
    Returns the position and the declarer's seat."""
    hands, active, declarer, set_aside = random_deal(rules, rng)
    p = Position.start(rules, hands[:rules.players], active, declarer, set_aside)
    into = 0
    if mid_trick or (mid_trick is None and rng.random() < 0.5):
        into = rng.randrange(1, len(active))
    for _ in range((n_tricks(rules) - tricks_left) * len(active) + into):
        legal = p.legal()
        card = rng.choice([c for c in range(24) if legal >> c & 1])
        p = p.play(card, bool(p.declarable() >> card & 1) and rng.random() < 0.6)
    return p, declarer


def option_rules(players: int) -> Iterator[Rules]:
    """Every combination of the options that change the play (96) at a table size."""
    for mt, mb, mft, am, amst, bonus in itertools.product((False, True), (False, True), (False, True),
                                                          (None, 200, 150), (False, True), (0, 10)):
        yield dataclasses.replace(CLASSIC, players=players, must_trump=mt, must_beat=mb, marriage_first_trick=mft,
                                  ace_marriage=am, ace_marriage_sets_trump=amst, last_trick_bonus=bonus)


class PlayedDeal(tuple):
    """``(start, declarer, line)`` of :func:`played_deals`, with the deal's whole trace
    as ``.trace`` (for a failing test to write and replay, ``helpers.artifacts``)."""
    trace: DealTrace


def played_deals(rules: Rules, n: int, seed: int) -> list[PlayedDeal]:
    """Deals of 3 players that the kernel's ``standard`` players bid and played out (no
    redeal, no resignation): the play's start after the hand-off, the declarer, and the
    cards as they were played, ``(card, declared)`` in order; ``.trace`` is the deal."""
    assert rules.players == 3
    cols, events = kernel.play_deals(np.random.PCG64(seed), rules, None, n_deals=n, trace=True)
    traces = kernel.deal_traces(cols, events, rules.players)
    out = []
    for i in range(len(cols["declarer"])):
        start = solver.play_start(rules, cols, i)
        if start is None:
            continue
        line = [(int(e[3]), int(e[4])) for e in events if e[0] == i and e[1] == EventKind.PLAY]
        deal = PlayedDeal((*start, line))
        deal.trace = traces[i]
        out.append(deal)
    return out
