"""The plain-Python reference engine: the rules of ``docs/rules.md`` as readable code.

Slow on purpose (about 1,700 deals a second) and written to be read; the Cython kernel is
checked against it decision by decision.

Modules, in the order the rules need them:

* :mod:`.rng` -- the random stream (PCG64 raw words, Lemire bounding, Fisher-Yates);
* :mod:`.legal` -- caps, redeal conditions, rounding: small pure functions (and the
  play rules of :mod:`.play` under their older names);
* :mod:`.play` -- the card play on a frozen :class:`Position`: legal cards, declarations,
  trump, voids, the trick winner, points (the twin of the kernel's ``_play.pxi``);
* :mod:`.players` -- the :class:`View` a seat sees and the :class:`Player` protocol
  (``go_blind``, ``demand_redeal``, ``bid``, ``hand_off``, ``raise_or_resign``, ``play``),
  with :class:`RandomPlayer`, :class:`PassivePlayer` and :class:`TracePlayer`;
* :mod:`.deal` -- one deal: :func:`play_deal` (from a stream, asking players) and
  :func:`replay_deal` (from a :class:`~thousand.trace.DealTrace`, checking every decision);
* :mod:`.game` -- :func:`settle_deal` (scores, bolts, barrel, 555, golden kon, winner),
  :func:`play_game` and :func:`replay_game`;
* :mod:`.playthrough` -- the readable text of a deal or a game.

To plug in a player, implement the six methods (each gets a :class:`View`; answers are
checked and an illegal one raises :class:`thousand.errors.IllegalDecision`).  To compare
another engine decision by decision, replay its trace with
``replay_deal(rules, trace, state, wrap_player=...)`` and let the wrapper ask the other
engine at each decision before returning the recorded answer.

>>> from thousand.rules import CLASSIC
>>> stream = Stream(7)
>>> result = play_deal(CLASSIC, [RandomPlayer(stream) for _ in range(3)], stream, dealer=0)
>>> replay_deal(CLASSIC, result.trace).to_row() == result.to_row()
True
"""
from .deal import DealResult, GameState, active_seats, play_deal, replay_deal
from .game import GameResult, play_game, replay_game, settle_deal
from .legal import (bid_cap, can_declare, declaration_value, hand_redeal_allowed, legal_plays,
                    round_defender, talon_redeal_allowed, trick_winner)
from .play import Position
from .players import PassivePlayer, Player, RandomPlayer, TraceCursor, TracePlayer, TrickRecord, View
from .rng import Stream, draw_bounded, shuffle

__all__ = [
    "Stream", "draw_bounded", "shuffle", "View", "TrickRecord", "Player", "RandomPlayer", "PassivePlayer",
    "TracePlayer", "TraceCursor", "GameState", "DealResult", "play_deal", "replay_deal", "active_seats",
    "GameResult", "play_game", "replay_game", "settle_deal", "bid_cap", "legal_plays", "can_declare",
    "declaration_value", "trick_winner", "hand_redeal_allowed", "talon_redeal_allowed", "round_defender",
    "Position",
]
