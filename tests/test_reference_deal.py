"""The deal engine as a program: replay errors that explain themselves, views, traces, players."""
from __future__ import annotations

import dataclasses
import json

import pytest
from helpers.deals import D1_HANDS, D1_PLAY, D1_TALON, D2_PLAY, TWO, bids, d1, d2, d3, ev, plays, trace

from thousand.cards import parse_card, parse_hand
from thousand.errors import IllegalDecision, ThousandError
from thousand.reference import (PassivePlayer, RandomPlayer, Stream, TracePlayer, View, play_deal, replay_deal)
from thousand.players import make_player
from thousand.reference.players import Player, new_view
from thousand.rules import CLASSIC
from thousand.schema import deal_columns
from thousand.trace import DealTrace, Event, EventKind, GameTrace, format_event, format_events


def test_follow_suit_error_names_event_seat_and_reason():
    play = list(D2_PLAY)
    play[1] = play[1]._replace(a=parse_card("TS"))      # trick 1: A♣ led, seat 2 holds clubs
    with pytest.raises(IllegalDecision) as e:
        d2(play=play)
    assert str(e.value) == "event 7: seat 2 played 10♠ but must follow ♣"


def test_card_not_in_hand_and_declare_errors():
    play = list(D1_PLAY)
    play[0] = play[0]._replace(a=parse_card("9S"))
    with pytest.raises(IllegalDecision, match="event 6: seat 1 played 9♠, which is not in his hand"):
        d1(play=play)
    play = list(D1_PLAY)
    play[4] = play[4]._replace(b=1)                     # seat 2 follows 9♥ and "declares"
    with pytest.raises(IllegalDecision, match="event 10: seat 2 declared with 9♥, but only the leader may declare"):
        d1(play=play)
    play = list(D1_PLAY)
    play[6] = play[6]._replace(b=1)                     # K♥ led after the Q♥ is gone
    with pytest.raises(IllegalDecision, match="event 12: seat 1 declared with K♥, but K♥ completes no marriage"):
        d1(play=play)


def test_hand_off_errors():
    for a, b, why in (("9S", "JH", "hands off 9♠, which is not in his hand"),
                      ("9H", "9H", "hands off 9♥ twice")):
        with pytest.raises(IllegalDecision, match=f"event 4: seat 1 {why}"):
            replay_deal(CLASSIC, trace(0, D1_HANDS, [D1_TALON],
                                       bids("2:- 0:110 1:120 0:-") + [ev.hand_off(1, a, b)]))


def test_trace_shape_errors():
    with pytest.raises(IllegalDecision, match="event 0: a BID of seat 2 is due, but the trace has a BID of seat 0"):
        d1(auction=bids("0:110"))
    with pytest.raises(IllegalDecision, match="event 30: the deal is over, but the trace goes on with a PLAY of seat 1"):
        d1(play=D1_PLAY + plays("1:AS"))
    with pytest.raises(IllegalDecision, match="event 29: the trace ends, but a PLAY of seat 0 is due"):
        d1(play=D1_PLAY[:-1])
    with pytest.raises(IllegalDecision, match="event 0: seat 2 is asked about a hand redeal, but the trace answers for redeal kind 2"):
        replay_deal(CLASSIC, trace(0, ["KC TC 9D JD QD KD TD", "AH TH KH QH AS TS AC", "9S JS QS KS 9C JC JH"],
                                   ["AD 9H QC"], [ev.redeal(2, True, "talon")]))


def test_dealt_cards_are_checked():
    bad = trace(0, ["KC TC 9D JD QD KD", "AH TH KH QH AS TS AC", "9S JS QS KS 9C JC QC"], [D1_TALON], [])
    with pytest.raises(IllegalDecision, match="deal: seat 0 must be dealt 7 cards, the trace gives 6"):
        replay_deal(CLASSIC, bad)
    dup = trace(0, ["KC TC 9D JD QD KD AH", "AH TH KH QH AS TS AC", "9S JS QS KS 9C JC QC"], [D1_TALON], [])
    with pytest.raises(IllegalDecision, match="deal: A♥ dealt twice"):
        replay_deal(CLASSIC, dup)
    with pytest.raises(IllegalDecision, match="2 talon"):
        replay_deal(TWO, DealTrace(0, (0, 0), (0,), []))


def test_views_show_what_a_seat_may_know():
    views: dict = {}

    class Spy:
        def __init__(self, inner, seat):
            self.inner, self.seat = inner, seat

        def __getattr__(self, name):
            def ask(view, *args):
                views.setdefault((self.seat, name), []).append((view, args))
                return getattr(self.inner, name)(view, *args)
            return ask

    d1(wrap_player=Spy)
    (v, args), = views[(2, "bid")]
    assert isinstance(v, View) and v.phase == "auction" and v.hand == parse_hand(D1_HANDS[2])
    assert v.bids == ((1, 100),) and v.high_bid == 100 and v.declarer == -1 and v.talon == 0
    assert args == (105, 160)                          # seat 2's cap: 120 + spades 40
    v, args = views[(0, "bid")][1]
    assert v.bids == ((1, 100), (2, 0), (0, 110), (1, 120)) and args == (125, 200)
    (v, args), = views[(1, "raise_or_resign")]
    assert args == (120, 220, True) and v.hand == parse_hand("AH TH KH QH AS TS AC AD")
    plays_of_0 = views[(0, "play")]
    v, (legal,) = plays_of_0[1]                        # trick 2: Q♥ led and declared
    assert v.trick == ((1, parse_card("QH")), (2, parse_card("9H"))) and v.trump == 3
    assert v.declared == ((1, 3, 100),) and v.marriage_points == (0, 100, 0)
    assert legal == parse_hand("JH") and v.trick_index == 1 and len(v.tricks) == 1
    assert v.points == (0, 11, 0) and v.played == parse_hand("AS 9S 9D QH 9H")
    assert v.received == parse_card("JH") and v.given == ()



def test_the_engines_views_are_frozen_views_with_every_field():
    # the engine builds its views without the dataclass's __init__ (players.new_view)
    seen: list = []

    class Spy:
        def __init__(self, inner, seat):
            self.inner = inner

        def __getattr__(self, name):
            def ask(view, *args):
                seen.append(view)
                return getattr(self.inner, name)(view, *args)
            return ask

    d1(wrap_player=Spy)
    assert len(seen) > 20
    for v in seen:
        assert type(v) is View and v == View(**{f.name: getattr(v, f.name) for f in dataclasses.fields(View)})
        with pytest.raises(dataclasses.FrozenInstanceError):
            v.hand = 0
    with pytest.raises(TypeError, match=r"fields \['trump'\] missing or unknown"):
        new_view(**{f.name: 0 for f in dataclasses.fields(View) if f.name != "trump"})

def test_blind_question_is_asked_before_looking():
    class Blind(PassivePlayer):
        seen = None

        def go_blind(self, view):
            Blind.seen = view.hand
            return True

    r = play_deal(CLASSIC.with_overrides("blind=on"), [Blind(), Blind(), Blind()], Stream(3), dealer=0)
    assert Blind.seen == 0 and r.trace.events[0] == Event(EventKind.BLIND, 1, 1, 0)


def test_play_mode_rejects_an_illegal_player():
    class Cheater(PassivePlayer):
        def bid(self, view, lowest, highest):
            return highest + 5

    with pytest.raises(IllegalDecision, match=r"event 0: seat 2 bid \d+, but may only pass"):
        play_deal(CLASSIC.with_overrides("redeal_hand_points_max=none,redeal_hand_nines=none,redeal_hand_jacks=none"),
                  [Cheater()] * 3, Stream(1), dealer=0)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_played_deals_replay_identically_and_fill_every_column(players):
    rules = TWO if players == 2 else CLASSIC.with_overrides(f"players={players}")
    for seed in range(20):
        s = Stream(seed)
        r = play_deal(rules, [RandomPlayer(s) for _ in range(players)], s, dealer=seed % players)
        again = replay_deal(rules, DealTrace.from_json(r.trace.to_json()))
        assert again.to_row() == r.to_row() and again.trace == r.trace
        assert set(r.to_row()) == set(deal_columns(players))


def test_random_player_is_deterministic_and_passive_player_is_legal():
    rows = []
    for _ in range(2):
        s = Stream(42)
        rows.append(play_deal(CLASSIC, [RandomPlayer(s) for _ in range(3)], s, dealer=1).to_row())
    assert rows[0] == rows[1]
    r = play_deal(CLASSIC, [PassivePlayer()] * 3, Stream(8), dealer=2)
    assert r.is_redeal or r.obligation
    assert isinstance(RandomPlayer(Stream(1)), Player) and isinstance(TracePlayer(None, 0), Player)


def test_make_player_registry():
    assert isinstance(make_player("random", CLASSIC, 0, Stream(1)), RandomPlayer)
    assert isinstance(make_player("passive", CLASSIC, 0, Stream(1)), PassivePlayer)
    with pytest.raises(ThousandError, match="unknown (player|strategy) 'nobody'"):
        make_player("nobody", CLASSIC, 0, Stream(1))


def test_trace_json_round_trip_and_readable_events():
    r = d3()
    text = r.trace.to_json(indent=1)
    data = json.loads(text)
    assert data["talons"] == ["9C JH", "9D 9H"] and data["events"][0] == ["BID", 0, 105, 0]
    assert DealTrace.from_json(text) == r.trace
    assert Event.from_any([3, 0, 105, 0]) == Event(EventKind.BID, 0, 105, 0)
    with pytest.raises(ValueError, match="unknown kind 'SHOUT'"):
        Event.from_any(["SHOUT", 0, 0, 0])
    with pytest.raises(ValueError, match="lacks the key 'hands'"):
        DealTrace.from_dict({"dealer": 0})
    assert format_event(Event(EventKind.PLAY, 2, parse_card("QH"), 1)) == "seat 2 plays Q♥ and declares"
    assert format_event(Event(EventKind.CONTRACT, 1, -1, 0)) == "seat 1 resigns"
    assert "seat 1 gets talon 1" in format_events(r.trace.events)
    g = GameTrace(rules=TWO, first_dealer=1, deals=[r.trace])
    back = GameTrace.from_json(g.to_json())
    assert back.rules == TWO and back.deals == [r.trace] and back.first_dealer == 1


def test_event_kind_codes_are_the_documented_ones():
    assert [k.value for k in EventKind] == list(range(8))
    assert [k.name for k in EventKind] == ["CUT", "BLIND", "REDEAL", "BID", "TALON", "HAND_OFF", "CONTRACT", "PLAY"]
    try:
        from thousand import _fastdeal
    except ImportError:
        return
    kinds = getattr(_fastdeal, "EVENT_KINDS", None)
    if kinds is not None:
        assert kinds == {k.name: k.value for k in EventKind}


@pytest.mark.parametrize("method,answer,message", [
    ("bid", "abc", "bid 'abc', which is not a number"),
    ("bid", True, "bid True, which is not a number"),
    ("raise_or_resign", "x", "sets the contract to 'x', but it must be"),
    ("hand_off", None, "hand_off must give two cards, got None"),
    ("play", 5, "play must return (card, declare), got 5"),
    ("play", (0, 7), "declare must be true or false, got 7"),
    ("demand_redeal", "yes", "demand_redeal(hand) must answer true or false"),
])
def test_malformed_answers_are_illegal_decisions(method, answer, message):
    class Odd(PassivePlayer):
        def bid(self, view, lowest, highest):
            return lowest if view.high_bid == 100 else 0   # one bid, then passes: a contract is played

    def odd_answer(self, *args):
        return answer

    setattr(Odd, method, odd_answer)
    rules = CLASSIC.with_overrides("redeal_hand_points_max=120")  # every hand may ask for a redeal
    with pytest.raises(IllegalDecision, match=f"seat \\d {message.replace('(', '.').replace(')', '.')}"):
        play_deal(rules, [Odd()] * 3, Stream(2), dealer=0)
