"""Traces: every decision of a deal in order, the common language of both engines.

A trace is what the kernel's trace mode returns and what the reference engine replays.
The integer codes of :class:`EventKind` equal the kernel's constants (a test checks).
Each event is ``(kind, seat, a, b)``:

========= ====================================================================
CUT       chance: seat = cutter, a = nines seen at the bottom, b = penalties paid
BLIND     seat = forehand, a = 1 went blind, 0 did not
REDEAL    seat, a = 1 demanded, 0 declined; b = 1 hand, 2 talon, 3 four_nines
BID       seat, a = bid value, 0 = pass
TALON     chance (2 players): seat = declarer, a = index of the talon taken (0, 1)
HAND_OFF  seat = declarer, a = card to the next seat (2 players: first card laid
          away), b = card to the other opponent (2 players: second card laid away)
CONTRACT  seat = declarer, a = final contract, -1 = resign
PLAY      seat, a = card, b = 1 if a marriage (or the ace marriage) is declared
========= ====================================================================
"""
from __future__ import annotations

from enum import IntEnum


class EventKind(IntEnum):
    CUT = 0
    BLIND = 1
    REDEAL = 2
    BID = 3
    TALON = 4
    HAND_OFF = 5
    CONTRACT = 6
    PLAY = 7


RESIGN = -1
PASS = 0
