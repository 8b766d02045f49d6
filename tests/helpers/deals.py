"""Hand-built deals for the reference-engine tests, worked out by hand.

Write a deal as hands, talon(s) and events in a small notation:

* ``bids("2:- 0:110 1:120 0:-")``  -- ``-`` is a pass;
* ``plays("1:AS 2:9S 0:9D / 1:QH* 2:9H 0:JH / ...")`` -- ``*`` declares;
* ``ev.hand_off(1, "9H", "JH")``, ``ev.contract(1, 120)``, ``ev.redeal(...)``, ...
"""
from __future__ import annotations

from thousand.cards import parse_card, parse_hand
from thousand.reference import replay_deal
from thousand.rules import CLASSIC, Rules
from thousand.trace import DealTrace, Event, EventKind

K = EventKind


def bids(text: str) -> list[Event]:
    out = []
    for tok in text.split():
        seat, v = tok.split(":")
        out.append(Event(K.BID, int(seat), 0 if v == "-" else int(v), 0))
    return out


def plays(text: str) -> list[Event]:
    out = []
    for tok in text.replace("/", " ").split():
        seat, c = tok.split(":")
        declare = c.endswith("*")
        out.append(Event(K.PLAY, int(seat), parse_card(c.rstrip("*")), int(declare)))
    return out


class ev:
    @staticmethod
    def hand_off(seat: int, a: str, b: str) -> Event:
        return Event(K.HAND_OFF, seat, parse_card(a), parse_card(b))

    @staticmethod
    def contract(seat: int, v: int) -> Event:
        return Event(K.CONTRACT, seat, v, 0)

    @staticmethod
    def redeal(seat: int, yes: bool, kind: str) -> Event:
        return Event(K.REDEAL, seat, int(yes), {"hand": 1, "talon": 2, "four_nines": 3}[kind])

    @staticmethod
    def blind(seat: int, yes: bool) -> Event:
        return Event(K.BLIND, seat, int(yes), 0)

    @staticmethod
    def cut(seat: int, nines: int) -> Event:
        return Event(K.CUT, seat, nines, nines // 3)

    @staticmethod
    def talon(seat: int, index: int) -> Event:
        return Event(K.TALON, seat, index, 0)


def trace(dealer: int, hands: list[str], talons: list[str], events: list[Event]) -> DealTrace:
    return DealTrace(dealer=dealer, hands=tuple(parse_hand(h) if h else 0 for h in hands),
                     talons=tuple(parse_hand(t) for t in talons), events=list(events))


# --------------------------------------------------------------------------- D1
# 3 players, dealer 0, forehand 1.  Seat 1 holds the heart marriage and every top card;
# he takes all eight tricks: 120 card points + 100 marriage = 220.
D1_HANDS = ["KC TC 9D JD QD KD TD",      # seat 0: 33 points, diamond marriage
            "AH TH KH QH AS TS AC",      # seat 1: 60 points, heart marriage
            "9S JS QS KS 9C JC QC"]      # seat 2: 14 points, spade marriage
D1_TALON = "AD 9H JH"                    # 13 points
D1_AUCTION = bids("2:- 0:110 1:120 0:-")
D1_HANDOFF = ev.hand_off(1, "9H", "JH")  # 9H to seat 2 (next), JH to seat 0
D1_PLAY = plays("1:AS 2:9S 0:9D / 1:QH* 2:9H 0:JH / 1:KH 2:9C 0:JD / 1:AH 2:JC 0:QD / "
                "1:TH 2:QC 0:KD / 1:TS 2:JS 0:TD / 1:AC 2:QS 0:KC / 1:AD 2:KS 0:TC")


def d1(contract: int = 120, rules: Rules = CLASSIC, auction: list[Event] | None = None,
       play: list[Event] | None = None, pre: list[Event] | None = None, **kw):
    """D1 replayed; ``contract`` is the CONTRACT event (-1 resigns, and then no play)."""
    events = list(pre or []) + list(D1_AUCTION if auction is None else auction) + [D1_HANDOFF, ev.contract(1, contract)]
    if contract != -1:
        events += list(D1_PLAY if play is None else play)
    return replay_deal(rules, trace(0, D1_HANDS, [D1_TALON], events), **kw)


# --------------------------------------------------------------------------- D2
# 3 players, dealer 0, forehand 1.  Seat 1 declares 120, takes the talon QH JH KH and
# declares spades (40) and hearts (100); the defenders win tricks.
#   seat 1: 13 + 18 + 16 = 47 card points in 3 tricks, + 140 marriages = 187
#   seat 2: 14 in 1 trick;  seat 0: 17 + 12 + 13 + 17 = 59 in 4 tricks (last trick)
D2_HANDS = ["9C KD QD 9D AH TH JD",      # seat 0: 30 points
            "AS KS QS 9S AC TC 9H",      # seat 1: 39 points, spade marriage
            "TS JS KC QC JC AD TD"]      # seat 2: 42 points, club marriage
D2_TALON = "QH JH KH"                    # 9 points, a heart marriage
D2_AUCTION = bids("2:110 0:- 1:120 2:-")
D2_HANDOFF = ev.hand_off(1, "9S", "JH")
D2_PLAY = plays("1:AC 2:JC 0:9C / 1:KS* 2:TS 0:9D / 2:AD 0:KD 1:QS / 1:QH* 2:QC 0:AH / "
                "0:TH 1:9H 2:JS / 0:JD 1:KH 2:TD / 1:AS 2:9S 0:JH / 0:QD 1:TC 2:KC")


def d2(contract: int = 120, rules: Rules = CLASSIC, play: list[Event] | None = None,
       auction: list[Event] | None = None, pre: list[Event] | None = None, **kw):
    events = list(pre or []) + list(D2_AUCTION if auction is None else auction) + [D2_HANDOFF, ev.contract(1, contract)]
    if contract != -1:
        events += list(D2_PLAY if play is None else play)
    return replay_deal(rules, trace(0, D2_HANDS, [D2_TALON], events), **kw)


# --------------------------------------------------------------------------- D3 (2 players)
# dealer 0, forehand 1.  Seat 1 takes talon 1 (9D 9H), lays it away, declares spades and
# wins all ten tricks: 118 in tricks + talon 0 (9C JH, 2 points) for the last trick = 120.
TWO = CLASSIC.with_overrides("players=2,redeal_talon_points_max=none,redeal_talon_nines=none,redeal_talon_jacks=none")
D3_HANDS = ["9S JS JC QC KC JD QD KD QH KH",   # seat 0: 27 points
            "AS TS KS QS AC TC AD TD AH TH"]   # seat 1: 91 points, spade marriage
D3_TALONS = ["9C JH", "9D 9H"]
D3_PLAY = plays("1:AS 0:9S / 1:KS* 0:JS / 1:QS 0:JC / 1:TS 0:QC / 1:AC 0:KC / 1:TC 0:JD / "
                "1:AD 0:QD / 1:TD 0:KD / 1:AH 0:QH / 1:TH 0:KH")


def d3(contract: int = 120, rules: Rules = TWO, talon_index: int = 1, **kw):
    lay = ("9D", "9H") if talon_index == 1 else ("9C", "JH")
    events = bids("0:105 1:120 0:-") + [ev.talon(1, talon_index), ev.hand_off(1, *lay), ev.contract(1, contract)]
    if contract != -1:
        events += D3_PLAY
    return replay_deal(rules, trace(0, D3_HANDS, D3_TALONS, events), **kw)


# --------------------------------------------------------------------------- D4 (4 players)
# D1 at a 4-player table: dealer 3 sits out, D1's seats 1, 2, 0 become seats 0, 1, 2.
FOUR = CLASSIC.with_overrides("players=4")
_MAP = {1: 0, 2: 1, 0: 2}


def _moved(events: list[Event]) -> list[Event]:
    return [Event(e.kind, _MAP[e.seat], e.a, e.b) for e in events]


def d4(contract: int = 120, rules: Rules = FOUR, auction: list[Event] | None = None, **kw):
    """D1 at 4 players; ``auction`` replaces the moved D1 auction (``[]``: none)."""
    hands = [D1_HANDS[1], D1_HANDS[2], D1_HANDS[0], ""]
    events = (_moved(D1_AUCTION) if auction is None else list(auction)) + _moved([D1_HANDOFF]) + [ev.contract(0, contract)]
    if contract != -1:
        events += _moved(D1_PLAY)
    return replay_deal(rules, trace(3, hands, [D1_TALON], events), **kw)


# --------------------------------------------------------------------------- D5
# 3 players, dealer 0, forehand 1 plays the forced 100 on obligation with all six spades.
# He wins trick 1 with three nines (1 trick, 0 points) and nothing after:
#   seat 1: 0 points in 1 trick -> fails 100
#   seat 2: 14 + 8 = 22 in 2 tricks + 60 clubs  = 82 -> 80 rounded
#   seat 0: 16 + 9 + 18 + 30 + 25 = 98 in 5 tricks + 80 diamonds = 178 -> 180 rounded
# Talon JH 9C 9D (2 points, two nines) allows a talon redeal in classic: seat 1 declines.
D5_HANDS = ["TH QH JD QD KD TD AD",      # seat 0: 43 points
            "9S JS QS KS TS AS 9H",      # seat 1: 30 points
            "AH KH JC QC KC TC AC"]      # seat 2: 45 points
D5_TALON = "JH 9C 9D"
D5_PLAY = plays("1:9S 2:9C 0:9D / 1:9H 2:AH 0:QH / 2:KC* 0:JD 1:JS / 2:KH 0:TH 1:JH / "
                "0:KD* 1:QS 2:JC / 0:AD 1:KS 2:QC / 0:TD 1:TS 2:TC / 0:QD 1:AS 2:AC")


def d5(contract: int = 100, rules: Rules = CLASSIC, talon_redeal_asked: bool = True, **kw):
    events = bids("2:- 0:-")
    if talon_redeal_asked:
        events.append(ev.redeal(1, False, "talon"))
    events += [ev.hand_off(1, "9C", "9D"), ev.contract(1, contract)]
    if contract != -1:
        events += D5_PLAY
    return replay_deal(rules, trace(0, D5_HANDS, [D5_TALON], events), **kw)
