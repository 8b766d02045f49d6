"""The plain-Python reference engine: the rules of ``docs/rules.md`` as readable code.

Slow on purpose and written to be read; the Cython kernel is checked against it decision
by decision.

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
from .players import PassivePlayer, Player, RandomPlayer, TraceCursor, TracePlayer, TrickRecord, View
from .rng import Stream, draw_bounded, shuffle

__all__ = [
    "Stream", "draw_bounded", "shuffle", "View", "TrickRecord", "Player", "RandomPlayer", "PassivePlayer",
    "TracePlayer", "TraceCursor", "GameState", "DealResult", "play_deal", "replay_deal", "active_seats",
    "GameResult", "play_game", "replay_game", "settle_deal", "bid_cap", "legal_plays", "can_declare",
    "declaration_value", "trick_winner", "hand_redeal_allowed", "talon_redeal_allowed", "round_defender",
]
