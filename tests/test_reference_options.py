"""Every house rule of RULES.md changes a hand-built deal or game the way the rules say.

The deals are in ``helpers/deals.py``; the expected scores are worked out by hand
there and below.  Each test replays a trace (so every decision is also checked).
"""
from __future__ import annotations

import pytest
from helpers.deals import (D1_PLAY, D1_TALON, D2_AUCTION, D2_HANDS, D2_PLAY, D2_TALON, FOUR, bids, d1, d2,
                             d3, d4, d5, ev, plays, trace)

from thousand.cards import parse_card, parse_hand
from thousand.errors import IllegalDecision
from thousand.reference import GameState, replay_deal, settle_deal
from thousand.reference.legal import can_declare, dealer_talon_score, legal_plays, talon_redeal_allowed
from thousand.reference.play import Position
from thousand.rules import CLASSIC, POLISH
from thousand.schema import REDEAL_FOUR_NINES, REDEAL_HAND, REDEAL_TALON

from helpers.states import state

C = CLASSIC.with_overrides


# D1 with the heart marriage not declared: seat 1 takes exactly 120 card points.
D1_NO_MARRIAGE = [e if i != 3 else e._replace(b=0) for i, e in enumerate(D1_PLAY)]


# ----------------------------------------------------------------- the base deals
def test_base_deals_score_as_worked_out():
    r = d1()
    assert (r.declarer, r.contract, r.points, r.marriages, r.tricks) == (1, 120, [0, 120, 0], [0, 100, 0], [0, 8, 0])
    assert r.made and r.declarer_points == 220 and r.scores == [0, 120, 0] and r.bolts == [True, False, True]
    r = d2()
    assert r.points == [59, 47, 14] and r.marriages == [0, 140, 0] and r.tricks == [4, 3, 1]
    assert r.declarer_points == 187 and r.scores == [60, 120, 15] and r.bolts == [False] * 3
    r = d5()
    assert r.obligation and r.points == [98, 0, 22] and r.tricks == [5, 1, 2]
    assert r.scores == [180, -100, 80] and not r.made


def test_raise_is_capped_by_marriages_in_the_new_hand():
    assert d1(220).scores == [0, 220, 0]            # 120 + 100 = 220: made exactly
    with pytest.raises(IllegalDecision, match=r"event 5: seat 1 sets the contract to 225, but it must be 120\.\.220"):
        d1(225)
    assert d2(260).scores == [60, -260, 15]         # spades + hearts: cap 260; 187 < 260


# ----------------------------------------------------------------- table size
def test_players_2_talon_choice_lay_away_and_last_talon():
    r = d3()
    assert r.points == [0, 120] and r.marriages == [0, 40] and r.tricks == [0, 10]
    assert r.talon == parse_hand("9D 9H") and r.talon2 == parse_hand("9C JH")
    # 160 is made only because the set-aside talon (9C JH, 2 points) goes to the last trick
    assert d3(160).scores == [0, 160]
    # taking talon 0 instead: the laid-away 9C JH count for the declarer
    r = d3(160, talon_index=0)
    assert r.scores == [0, 160] and r.talon == parse_hand("9C JH")


def test_players_4_dealer_sits_out_and_scores_talon():
    r = d4()
    assert r.active == (0, 1, 2) and r.scores == [120, 0, 0, 13] and r.bolts == [False, True, True, False]
    assert d4(rules=FOUR.with_overrides("dealer_scores=aces_40")).scores == [120, 0, 0, 40]
    assert d4(-1).scores == [-120, 60, 60, 13]      # scored on a resign too
    on_barrel = state([0, 0, 0, 880], barrel_sitter=3)
    assert d4(state=on_barrel).scores == [120, 0, 0, 0]


def test_dealer_scores_counts_a_marriage_lying_in_the_talon():
    talon = parse_hand(D2_TALON)                    # QH JH KH: 9 points + hearts 100
    assert dealer_talon_score(FOUR, talon) == 109
    assert dealer_talon_score(FOUR.with_overrides("dealer_scores=aces_40"), talon) == 100
    assert dealer_talon_score(FOUR.with_overrides("dealer_scores=aces_40"), parse_hand("AH AD 9C")) == 80


# ----------------------------------------------------------------- auction
def test_bid_step():
    with pytest.raises(IllegalDecision, match=r"event 1: seat 0 bid 115, but may only pass or bid 110\.\.200 in steps of 10"):
        d1(rules=C("bid_step=10"), auction=bids("2:- 0:115 1:120 0:-"))
    assert d1(rules=C("bid_step=10")).scores == [0, 120, 0]
    assert d1(auction=bids("2:- 0:115 1:120 0:-")).scores == [0, 120, 0]


def test_bid_cap():
    auction = bids("2:165 0:- 1:170 2:-")           # seat 2 holds only the spade marriage: cap 160
    with pytest.raises(IllegalDecision, match=r"event 0: seat 2 bid 165, but may only pass or bid 105\.\.160"):
        d1(170, auction=auction)
    r = d1(170, rules=C("bid_cap=none"), auction=auction)
    assert r.winning_bid == 170 and r.scores == [0, 170, 0]


def test_talon_face_down_on_obligation():
    seen = {}

    class Spy:
        def __init__(self, inner, seat):
            self.inner, self.seat = inner, seat

        def __getattr__(self, name):
            def ask(view, *args):
                seen.setdefault((self.seat, name), view)
                return getattr(self.inner, name)(view, *args)
            return ask

    obligation = bids("2:- 0:-")
    r = d1(auction=obligation, wrap_player=Spy)
    assert r.obligation and r.contract == 120 and r.winning_bid == 100 and not r.talon_shown
    assert seen[(0, "play")].talon == 0 and seen[(1, "play")].talon == parse_hand(D1_TALON)
    seen.clear()
    r = d1(auction=obligation, rules=C("talon_face_down_on_obligation=off"), wrap_player=Spy)
    assert r.talon_shown and seen[(0, "play")].talon == parse_hand(D1_TALON)
    seen.clear()
    r = d1(wrap_player=Spy)                       # a contested auction: shown
    assert not r.obligation and seen[(2, "play")].talon == parse_hand(D1_TALON)
    assert seen[(2, "play")].received == parse_card("9H") and seen[(1, "play")].given == (parse_card("9H"), parse_card("JH"))


# ----------------------------------------------------------------- redeals
# Variants of D1's cards that meet the hand-redeal conditions (only the cards matter here).
LOW_POINTS = ["KC TC 9D JD QD KD TD", "AH TH KH QH AS TS AC", "9S JS QS KS 9C JC JH"], "AD 9H QC"   # seat 2: 13
FOUR_NINES = ["KC TC JD QD KD TD AD", "AH TH KH QH AS TS AC", "9S 9C 9D 9H JS QS KS"], "JC QC JH"   # seat 2: 4 nines
THREE_NINES = ["KC TC JD QD KD TD 9H", "AH TH KH QH AS TS AC", "9S 9C 9D AD JS QS KS"], "JC QC JH"  # seat 2: 3 nines
FOUR_JACKS = ["9S 9C QC KC TD QD KD", "AH TH KH QH TS AC TC", "JS JC JD JH QS KS AS"], "9D AD 9H"   # seat 2: 4 jacks


def first_events(cards, events, rules):
    hands, talon = cards
    return replay_deal(rules, trace(0, hands, [talon], events))


def redeal_asked(cards, rules) -> bool:
    """Does the engine ask seat 2 for a hand redeal?  (It accepts his 'yes' exactly then.)"""
    try:
        r = first_events(cards, [ev.redeal(2, True, "hand")], rules)
    except IllegalDecision as e:
        assert "a BID of seat 2 is due, but the trace has a REDEAL of seat 2" in str(e)
        return False
    assert (r.redeal, r.redeal_by, r.scores, r.declarer) == (REDEAL_HAND, 2, [0, 0, 0], -1)
    return True


def test_redeal_hand_points_max():
    assert redeal_asked(LOW_POINTS, CLASSIC)                            # 13 <= 13
    assert not redeal_asked(LOW_POINTS, C("redeal_hand_points_max=12"))
    assert not redeal_asked(LOW_POINTS, C("redeal_hand_points_max=none"))


def test_redeal_hand_nines():
    base = C("redeal_hand_points_max=none")
    assert redeal_asked(FOUR_NINES, base) and redeal_asked(THREE_NINES, base)
    assert redeal_asked(FOUR_NINES, base.with_overrides("redeal_hand_nines=4"))
    assert not redeal_asked(THREE_NINES, base.with_overrides("redeal_hand_nines=4"))
    assert not redeal_asked(FOUR_NINES, base.with_overrides("redeal_hand_nines=none"))


def test_redeal_hand_jacks():
    assert redeal_asked(FOUR_JACKS, CLASSIC)
    assert not redeal_asked(FOUR_JACKS, C("redeal_hand_jacks=none"))


def test_hand_redeal_declined_then_auction_proceeds():
    events = [ev.redeal(2, False, "hand")] + bids("2:- 0:-") + [ev.hand_off(1, "9H", "QC"), ev.contract(1, -1)]
    r = first_events(LOW_POINTS, events, CLASSIC)
    assert r.redeal == 0 and r.resigned and r.scores == [50, -100, 50]


def test_redeal_talon_points_max():
    ask = D2_AUCTION + [ev.redeal(1, True, "talon")]                  # talon QH JH KH: 9 points
    r = replay_deal(C("redeal_talon_points_max=9"), trace(0, D2_HANDS, [D2_TALON], ask))
    assert (r.redeal, r.redeal_by, r.declarer, r.winning_bid) == (REDEAL_TALON, 1, 1, 120)
    with pytest.raises(IllegalDecision, match="a HAND_OFF of seat 1 is due, but the trace has a REDEAL"):
        replay_deal(C("redeal_talon_points_max=8"), trace(0, D2_HANDS, [D2_TALON], ask))


def test_redeal_talon_nines_and_by_obligation():
    hands, talon = FOUR_JACKS                                            # talon 9D AD 9H: 11 points, 2 nines
    events = [ev.redeal(2, False, "hand")] + bids("2:- 0:-") + [ev.redeal(1, True, "talon")]
    assert first_events(FOUR_JACKS, events, CLASSIC).redeal == REDEAL_TALON
    assert first_events(FOUR_JACKS, events, C("redeal_talon_by=obligation")).redeal == REDEAL_TALON
    with pytest.raises(IllegalDecision, match="a HAND_OFF of seat 1 is due"):
        first_events(FOUR_JACKS, events, C("redeal_talon_nines=none"))
    # a contested auction: only the obligation player may demand under redeal_talon_by=obligation
    contested = [ev.redeal(2, False, "hand")] + bids("2:- 0:105 1:110 0:-") + [ev.redeal(1, True, "talon")]
    assert first_events(FOUR_JACKS, contested, CLASSIC).redeal == REDEAL_TALON
    with pytest.raises(IllegalDecision, match="a HAND_OFF of seat 1 is due"):
        first_events(FOUR_JACKS, contested, C("redeal_talon_by=obligation"))


def test_redeal_talon_jacks():
    # talon J♠ J♣ J♦: 6 points, no nine, three jacks; seat 1 plays on obligation
    cards = ["KC TC 9D QD KD TD AD", "AH TH KH QH AS TS AC", "9S QS KS 9C QC 9H JH"], "JS JC JD"
    no_hand_redeals = C("redeal_hand_points_max=none,redeal_hand_nines=none")
    events = bids("2:- 0:-") + [ev.redeal(1, True, "talon")]
    assert first_events(cards, events, no_hand_redeals).redeal == REDEAL_TALON
    with pytest.raises(IllegalDecision, match="a HAND_OFF of seat 1 is due"):
        first_events(cards, events, no_hand_redeals.with_overrides("redeal_talon_jacks=none"))


def test_redeal_talon_jacks_condition():
    three_jacks = parse_hand("JS JC JD")                                 # 6 points
    assert talon_redeal_allowed(C("redeal_talon_points_max=none"), three_jacks)
    assert not talon_redeal_allowed(C("redeal_talon_points_max=none,redeal_talon_jacks=none"), three_jacks)
    assert talon_redeal_allowed(CLASSIC, parse_hand("AS 9C 9D"))         # 2 nines
    assert not talon_redeal_allowed(CLASSIC, parse_hand("AS 9C JD"))     # 13 points, 1 nine, 1 jack


def test_redeal_four_nines_after_exchange():
    # polish: no hand or talon redeals.  Seat 1 on obligation gives JC to seat 2 (four nines).
    events = bids("2:- 0:-") + [ev.hand_off(1, "JC", "QC"), ev.redeal(2, True, "four_nines")]
    r = first_events(FOUR_NINES, events, POLISH)
    assert (r.redeal, r.redeal_by, r.declarer) == (REDEAL_FOUR_NINES, 2, 1)
    with pytest.raises(IllegalDecision, match="a CONTRACT of seat 1 is due, but the trace has a REDEAL"):
        first_events(FOUR_NINES, events, POLISH.with_overrides("redeal_four_nines_after_exchange=off"))
    # three nines after the hand-off (THREE_NINES' seat 2 receives J♣): nobody is asked
    with pytest.raises(IllegalDecision, match="a CONTRACT of seat 1 is due, but the trace has a REDEAL"):
        first_events(THREE_NINES, events, POLISH)


# ----------------------------------------------------------------- resign
def test_resign_variants():
    obligation = bids("2:- 0:-")                                         # contract 100
    assert d2(-1, auction=obligation).scores == [50, -100, 50]           # half_bid
    high = bids("2:110 0:- 1:115 2:-")
    assert d2(-1, auction=high).scores == [60, -115, 60]                 # half of 115 = 57.5 -> 60
    assert d2(-1, rules=C("resign=sixty"), auction=obligation).scores == [60, -100, 60]
    free = C("resign=sixty_two_free")
    assert d2(-1, rules=free, auction=high, state=state([0, 0, 0], resignations=[0, 1, 0])).scores == [60, 0, 60]
    assert d2(-1, rules=free, auction=high, state=state([0, 0, 0], resignations=[0, 2, 0])).scores == [60, -120, 60]
    with pytest.raises(IllegalDecision, match="event 5: seat 1 resigns, but resign = none does not allow it"):
        d2(-1, rules=C("resign=none"))
    r = d1(-1)
    assert r.resigned and not r.made and r.bolts == [False] * 3 and r.tricks == [0, 0, 0]


def test_sixty_two_free_counts_resignations_in_a_game():
    free = C("resign=sixty_two_free,bolts=off")
    st = GameState.fresh(3)
    paid = []
    for _ in range(3):
        r = d2(-1, rules=free, state=st)
        paid.append(r.scores[1])
        st, _ = settle_deal(free, st, r)
    assert paid == [0, 0, -120] and st.scores == [180, -120, 180] and st.resignations == [0, 3, 0]


# ----------------------------------------------------------------- play
def test_must_trump():
    # D2 trick 3: seat 2 leads A♦, seat 0 K♦; seat 1 is void in diamonds with spades trump
    play = list(D2_PLAY)
    play[8] = play[8]._replace(a=parse_card("TC"))                       # event 14
    with pytest.raises(IllegalDecision, match="event 14: seat 1 played 10♣ but must trump with ♠"):
        d2(play=play)
    with pytest.raises(IllegalDecision, match="^event 15: "):            # legal now; seat 2 wins and leads
        d2(play=play, rules=C("must_trump=off"))
    hand = parse_hand("QS AS TC KH QH 9H")
    assert legal_plays(CLASSIC, hand, [parse_card("AD")], trump=0) == parse_hand("QS AS")
    assert legal_plays(C("must_trump=off"), hand, [parse_card("AD")], trump=0) == hand


def test_must_beat():
    assert d2(rules=C("must_beat=on")).scores == [60, 120, 15]          # D2 beats whenever it must
    play = list(D2_PLAY)
    play[4] = play[4]._replace(a=parse_card("JS"))                       # trick 2: J♠ under K♠ (event 10)
    with pytest.raises(IllegalDecision, match="event 10: seat 2 played J♠ but must beat the best ♠ with a higher one"):
        d2(play=play, rules=C("must_beat=on"))
    with pytest.raises(IllegalDecision, match="^event 12: "):            # legal in classic; seat 1 keeps the lead
        d2(play=play)
    hand = parse_hand("9S JS TS 9H")
    assert legal_plays(C("must_beat=on"), hand, [parse_card("KS")], trump=-1) == parse_hand("TS")
    # beat the best card of the led suit so far, not the led card: over 9♠ K♠ only the 10
    assert legal_plays(C("must_beat=on"), parse_hand("QS TS 9H"), [parse_card("9S"), parse_card("KS")],
                       trump=-1) == parse_hand("TS")
    # the best card is a trump: no duty to beat in the led suit
    assert legal_plays(C("must_beat=on"), hand, [parse_card("KS"), parse_card("9D")], trump=2) == parse_hand("9S JS TS")


def test_marriage_first_trick():
    play = plays("1:QH* 2:9H 0:JH / 1:AS 2:9S 0:9D") + D1_PLAY[6:]
    with pytest.raises(IllegalDecision, match="event 6: seat 1 declared with Q♥, but no marriage may be declared on the first trick"):
        d1(play=play)
    r = d1(play=play, rules=C("marriage_first_trick=on"))
    assert r.marriages == [0, 100, 0] and r.scores == [0, 120, 0] and r.trick_log[0].trump == 3


def test_ace_marriage_and_its_trump():
    # seat 1 holds all four aces after the talon; he leads A♠ declaring on trick 2
    play = plays("1:TS 2:JS 0:TD / 1:AS* 2:9S 0:9D / 1:QH* 2:9H 0:JH / 1:KH 2:9C 0:JD / "
                 "1:AH 2:JC 0:QD / 1:TH 2:QC 0:KD / 1:AC 2:QS 0:KC / 1:AD 2:KS 0:TC")
    with pytest.raises(IllegalDecision, match="event 9: seat 1 declared with A♠, but A♠ completes no marriage"):
        d1(play=play)
    r = d1(play=play, rules=C("ace_marriage=200"))
    assert r.marriages == [0, 300, 0] and r.declarer_points == 420 and r.trick_log[1].trump == 0
    r = d1(play=play, rules=C("ace_marriage=200,ace_marriage_sets_trump=off"))
    assert r.marriages == [0, 300, 0] and r.trick_log[1].trump == -1 and r.trick_log[2].trump == 3
    # all four aces: three are not enough
    three = parse_hand("AS AC AD 9H")
    assert not can_declare(C("ace_marriage=200"), three, parse_card("AS"), 1, True)
    assert can_declare(C("ace_marriage=200"), three | parse_hand("AH"), parse_card("AS"), 1, True)


def test_last_trick_bonus():
    # the bonus goes to the last trick's winner (seat 2's A♠), not to its leader (seat 1)
    zero = (0, 0, 0)
    last = Position(C("last_trick_bonus=10"), hands=(1 << parse_card("JS"),
                    1 << parse_card("9S"), 1 << parse_card("AS")), active=(1, 2, 0), leader=1, turn=1,
                    trick_index=7, points=zero, marriages=zero, bonus=zero, tricks=zero, voids=zero)
    for card in ("9S", "AS", "JS"):
        last = last.play(parse_card(card))
    assert last.over and last.winner == 2 and last.bonus == (0, 0, 10) and last.points == (0, 0, 13)
    r = d2(rules=C("last_trick_bonus=10"))
    assert r.scores == [70, 120, 15]                                     # seat 0: 59 + 10 = 69 -> 70
    uncapped = C("bid_cap=none")
    assert d1(230, rules=uncapped).scores == [0, -230, 0]                # 220 < 230
    assert d1(230, rules=uncapped.with_overrides("last_trick_bonus=10")).scores == [0, 230, 0]


def test_round_defenders():
    assert d2().scores == [60, 120, 15]
    assert d2(rules=C("round_defenders=off")).scores == [59, 120, 14]
    assert d5(rules=C("round_defenders=off")).scores == [178, -100, 82]


# ----------------------------------------------------------------- bolts
def test_bolts_and_bolt_when():
    assert d1().bolts == [True, False, True]
    assert d1(rules=C("bolts=off")).bolts == [False] * 3
    # D5: the declarer won a trick of three nines: a trick but no points
    assert d5().bolts == [False, False, False]
    assert d5(rules=C("bolt_when=zero_points")).bolts == [False, True, False]
    sitter = state([0, 880, 0], barrel_sitter=1)
    assert d5(rules=C("bolt_when=zero_points,bolts=not_on_barrel"), state=sitter).bolts == [False] * 3
    assert d5(rules=C("bolt_when=zero_points"), state=sitter).bolts == [False, True, False]


def test_bolt_penalty_every_third():
    st = state([0, 0, 0], bolts=[0, 0, 2])
    st2, notes = settle_deal(CLASSIC, st, d1())
    assert st2.bolts == [1, 0, 0] and st2.scores == [0, 120, -120] and notes.bolt_penalties == [0, 0, 1]
    st2, _ = settle_deal(C("bolt_penalty=50"), st, d1(rules=C("bolt_penalty=50")))
    assert st2.scores == [0, 120, -50]


# ----------------------------------------------------------------- game: target and winner
NO_BARREL = C("barrel_at=none")


def test_target_and_winner_rules():
    _, notes = settle_deal(NO_BARREL, state([0, 890, 0]), d1(rules=NO_BARREL))
    assert notes.winner == 1 and notes.scores == [0, 1010, 0]
    far = C("barrel_at=none,target=1100")
    _, notes = settle_deal(far, state([0, 890, 0]), d1(rules=far))
    assert notes.winner == -1
    # several over the target: the declarer first ...
    _, notes = settle_deal(NO_BARREL, state([990, 890, 995]), d2(rules=NO_BARREL))
    assert notes.scores == [1050, 1010, 1010] and notes.winner == 1
    # ... else the highest score ...
    _, notes = settle_deal(NO_BARREL, state([990, 0, 995]), d2(rules=NO_BARREL))
    assert notes.winner == 0
    # ... ties go to the first in seat order from the forehand (seat 1): seat 2 before seat 0
    _, notes = settle_deal(NO_BARREL, state([950, 0, 995]), d2(rules=NO_BARREL))
    assert notes.scores == [1010, 120, 1010] and notes.winner == 2


def test_max_deals_stops_without_winner():
    from thousand.reference import RandomPlayer, Stream, play_game
    rules = C("max_deals=3")
    s = Stream(4)
    g = play_game(rules, [RandomPlayer(s) for _ in range(3)], s)
    assert g.winner == -1 and len(g.history) == 3 and g.counters["deals"] == 3


# ----------------------------------------------------------------- the barrel
def test_barrel_at_puts_a_player_on_the_barrel():
    st, notes = settle_deal(CLASSIC, state([0, 800, 0]), d1())
    assert st.scores == [0, 880, 0] and st.barrel_sitter == 1 and notes.barrel_entered == 1
    st, _ = settle_deal(C("barrel_at=900"), state([0, 800, 0]), d1(rules=C("barrel_at=900")))
    assert st.scores == [0, 900, 0] and st.barrel_sitter == 1
    st, _ = settle_deal(NO_BARREL, state([0, 800, 0]), d1(rules=NO_BARREL))
    assert st.scores == [0, 920, 0] and st.barrel_sitter == -1


def test_barrel_sitter_comes_off_by_making_it():
    sitting = state([0, 880, 0], barrel_sitter=1)
    st, notes = settle_deal(CLASSIC, sitting, d1(state=sitting))
    assert notes.winner == 1 and st.scores[1] == 1000 and notes.barrel_off == 1


def test_barrel_target_121():
    # exactly 120 points (the heart marriage not declared): enough for 120, not for 121
    rules = C("barrel_target=121")
    sitting = state([0, 880, 0], barrel_sitter=1)
    r = d1(play=D1_NO_MARRIAGE, rules=rules, state=sitting)
    assert r.declarer_points == 120 and not r.made and r.scores[1] == -120
    st, notes = settle_deal(rules, sitting, r)
    assert st.scores[1] == 760 and st.barrel_sitter == -1 and notes.barrel_falls == [1]
    r = d1(play=D1_NO_MARRIAGE, state=sitting)
    assert r.made and settle_deal(CLASSIC, sitting, r)[1].winner == 1


def test_barrel_deals_and_penalty_and_gains_ignored():
    sitting = state([880, 0, 0], barrel_sitter=0, barrel_count=1)
    st, _ = settle_deal(CLASSIC, sitting, d2(state=sitting))             # +60 as a defender does not count
    assert st.scores == [880, 120, 15] and st.barrel_sitter == 0 and st.barrel_count == 2
    last = state([880, 0, 0], barrel_sitter=0, barrel_count=2)
    st, notes = settle_deal(CLASSIC, last, d2(state=last))
    assert st.scores[0] == 760 and st.barrel_sitter == -1 and notes.barrel_falls == [0]
    st, _ = settle_deal(C("barrel_deals=4"), last, d2(state=last, rules=C("barrel_deals=4")))
    assert st.scores[0] == 880 and st.barrel_sitter == 0 and st.barrel_count == 3
    st, _ = settle_deal(C("barrel_penalty=50"), last, d2(state=last, rules=C("barrel_penalty=50")))
    assert st.scores[0] == 830


def test_barrel_third_reset():
    # his third time on the barrel (000: "sits on the Barrel for the third time and still
    # fails"), however the first two ended: the times he got on it are counted, not the
    # barrels he ran out of deals on (a try-out found a player reset only on his third such)
    third = state([880, 0, 0], barrel_sitter=0, barrel_count=2, barrel_sits=[3, 0, 0])
    st, notes = settle_deal(C("barrel_third_reset=on"), third, d2(state=third))
    assert st.scores[0] == 0 and notes.barrel_falls == [0]
    st, _ = settle_deal(CLASSIC, third, d2(state=third))
    assert st.scores[0] == 760
    second = state([880, 0, 0], barrel_sitter=0, barrel_count=2, barrel_sits=[2, 0, 0])
    st, _ = settle_deal(C("barrel_third_reset=on"), second, d2(state=second))
    assert st.scores[0] == 760


def test_getting_onto_the_barrel_counts_a_sit():
    st, notes = settle_deal(CLASSIC, state([820, 0, 0], barrel_sits=[2, 0, 0]), d2(state=state([820, 0, 0])))
    assert notes.barrel_entered == 0 and st.barrel_sits == [3, 0, 0]


def test_barrel_lost_contract_knock_off_and_clash():
    # the sitter loses his contract: off, with no further penalty
    sitting = state([0, 880, 0], barrel_sitter=1)
    st, notes = settle_deal(CLASSIC, sitting, d5(state=sitting))
    assert st.scores == [180, 780, 80] and st.barrel_sitter == -1 and notes.barrel_falls == [1]
    # a new sitter knocks the old one off
    old = state([0, 800, 880], barrel_sitter=2)
    st, notes = settle_deal(CLASSIC, old, d1(state=old))
    assert st.scores == [0, 880, 760] and st.barrel_sitter == 1 and notes.barrel_falls == [2]
    # two reach it in one deal: both pay, nobody sits
    st, notes = settle_deal(CLASSIC, state([830, 800, 0]), d2())
    assert st.scores == [760, 760, 15] and st.barrel_sitter == -1 and notes.barrel_clash == [0, 1]


def test_barrel_bid_min():
    rules = C("barrel_bid_min=120")
    sitter2 = state([0, 0, 880], barrel_sitter=2)
    with pytest.raises(IllegalDecision, match=r"event 0: seat 2 bid 110, but may only pass or bid 120\.\.180"):
        d2(rules=rules, state=sitter2)
    assert d2(state=sitter2).scores == [60, 120, 15]
    # a forehand sitter opens at barrel_bid_min
    sitter1 = state([0, 880, 0], barrel_sitter=1)
    with pytest.raises(IllegalDecision, match=r"event 1: seat 0 bid 110, but may only pass or bid 125"):
        d1(rules=rules, state=sitter1)
    r = d1(rules=rules, state=sitter1, auction=bids("2:- 0:-"))
    assert r.bid_log[0] == (1, 120) and r.winning_bid == 120


def test_barrel_takes_talon():
    rules = C("barrel_takes_talon=on")
    sitting = state([0, 880, 0], barrel_sitter=1)
    r = d1(rules=rules, state=sitting, auction=[])
    assert r.declarer == 1 and r.winning_bid == 120 and r.n_bids == 0 and r.scores == [0, 120, 0]
    with pytest.raises(IllegalDecision, match="a BID of seat 2 is due"):
        d1(state=sitting, auction=[])
    russian = rules.with_overrides("barrel_target=121")
    r = d1(rules=russian, state=sitting, auction=[], play=D1_NO_MARRIAGE)
    assert r.contract == 120 and r.declarer_points == 120 and not r.made


# ----------------------------------------------------------------- 555, blind, golden kon, cut nine
def test_samozval_555():
    start = state([495, 435, 540])
    st, notes = settle_deal(CLASSIC, start, d2())
    assert st.scores == [555, 555, 555]
    st, notes = settle_deal(C("samozval_555=on"), start, d2(rules=C("samozval_555=on")))
    assert st.scores == [0, 0, 0] and notes.reset_555 == [0, 1, 2]
    st, _ = settle_deal(C("samozval_555=on"), state([-615, 0, -570]), d2(rules=C("samozval_555=on")))
    assert st.scores == [0, 120, 0]


BLIND = C("blind=on")


def test_blind_scores_double():
    r = d2(rules=BLIND, pre=[ev.blind(1, True)], auction=bids("2:- 0:-"))
    # seat 1: 187 >= 120 -> +240; seat 2: 2 * 14 = 28 -> 30; seat 0: 2 * 59 = 118 -> 120
    assert r.blind and r.scores == [120, 240, 30] and r.bid_log[0] == (1, 120) and not r.talon_shown
    assert r.bolt_weight == 2
    assert d2(-1, rules=BLIND, pre=[ev.blind(1, True)], auction=bids("2:- 0:-")).scores == [120, -240, 120]
    with pytest.raises(IllegalDecision, match=r"sets the contract to 125, but it must be 120 or -1"):
        d2(125, rules=BLIND, pre=[ev.blind(1, True)], auction=bids("2:- 0:-"))
    # broken by a bid of 125: a normal deal
    r = d2(130, rules=BLIND, pre=[ev.blind(1, True)], auction=bids("2:125 0:- 1:130 2:-"))
    assert not r.blind and r.scores == [60, 130, 15]
    # declined, not allowed, or not asked
    assert d2(rules=BLIND, pre=[ev.blind(1, False)]).scores == [60, 120, 15]
    with pytest.raises(IllegalDecision, match="a BID of seat 2 is due, but the trace has a BLIND"):
        d2(pre=[ev.blind(1, True)])
    with pytest.raises(IllegalDecision, match="a BID of seat 2 is due, but the trace has a BLIND"):
        d2(rules=BLIND, pre=[ev.blind(1, True)], state=state([0, -10, 0]))
    with pytest.raises(IllegalDecision, match="a BID of seat 2 is due, but the trace has a BLIND"):
        d2(rules=BLIND, pre=[ev.blind(1, True)], state=state([880, 0, 0], barrel_sitter=0))


def test_blind_bolts_count_twice():
    r = d1(rules=BLIND, pre=[ev.blind(1, True)], auction=bids("2:- 0:-"))
    assert r.scores == [0, 240, 0] and r.bolts == [True, False, True]
    st, notes = settle_deal(BLIND, state([0, 0, 0], bolts=[2, 0, 1]), r)
    assert st.bolts == [1, 0, 0] and notes.bolt_penalties == [1, 0, 1] and st.scores == [-120, 240, -120]


GOLDEN = C("golden_kon=on")


def test_golden_kon_deal_is_a_forced_blind_120():
    golden = state([0, 0, 0], golden=True)
    events_without_auction = dict(auction=[])
    r = d2(rules=GOLDEN, state=golden, **events_without_auction)
    assert r.golden and r.blind and r.winning_bid == 120 and r.scores == [120, 240, 30]
    assert d2(-1, rules=GOLDEN, state=golden, auction=[]).scores == [120, -240, 120]
    with pytest.raises(IllegalDecision, match="a HAND_OFF of seat 1 is due, but the trace has a BID"):
        d2(rules=GOLDEN, state=golden)


def test_golden_kon_resets_when_nobody_makes_it():
    st = GameState.fresh(3)
    st.golden = True
    for _ in range(3):
        st, notes = settle_deal(GOLDEN, st, d2(-1, rules=GOLDEN, state=st, auction=[]))
    assert notes.golden_reset and st.scores == [0, 0, 0] and not st.golden
    st = GameState.fresh(3)
    st.golden = True
    st, _ = settle_deal(GOLDEN, st, d2(rules=GOLDEN, state=st, auction=[]))   # made: +240
    for _ in range(2):
        st, notes = settle_deal(GOLDEN, st, d2(-1, rules=GOLDEN, state=st, auction=[]))
    assert not notes.golden_reset and st.scores == [360, -240, 270]


def test_cut_nine_penalty():
    rules = C("cut_nine_penalty=on")
    r = d1(rules=rules, pre=[ev.cut(2, 3)])                # the cutter sits before the dealer (0): seat 2
    assert r.cut_fines == [0, 0, 120]
    st, _ = settle_deal(rules, GameState.fresh(3), r)
    assert st.scores == [0, 120, -120]
    assert d1(rules=rules, pre=[ev.cut(2, 2)]).cut_fines == [0, 0, 0]
    with pytest.raises(IllegalDecision, match="a BID of seat 2 is due, but the trace has a CUT"):
        d1(pre=[ev.cut(2, 0)])
    with pytest.raises(IllegalDecision, match="a CUT of seat 2 is due"):
        d1(rules=rules)


def test_cut_nine_in_play_reshuffles_until_no_nine_at_the_bottom():
    from thousand.reference import PassivePlayer, Stream, play_deal
    rules = C("cut_nine_penalty=on")
    for seed in range(60):
        r = play_deal(rules, [PassivePlayer()] * 3, Stream(seed), dealer=0)
        twin = Stream(seed)
        nines = 0
        deck = twin.shuffle()
        while deck[20] % 6 == 0:
            nines += 1
            deck = twin.shuffle()
        assert r.trace.events[0][:4] == (0, 2, nines, nines // 3)
        assert r.hands[1] == sum(1 << c for c in deck[0:7])
        if nines:
            found = True
    assert found
