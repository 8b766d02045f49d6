"""Every threshold of the rules, on both sides, in hand-built deals worked out by hand.

``test_reference_options.py`` shows what each option does; this module puts each limit of
the rules between two cases, one on either side (a score landing exactly on a limit and
just short of it, a contract exactly at a floor and one step below, a count reaching its
limit and one short of it), so that moving a limit by one step, or ``<`` becoming ``<=``,
fails a test.  The kernel plays the same rules and is bound to the reference engine by
the parity tests; ``test_parity_coverage.py`` checks that they reach these situations.

The deals (``helpers.deals``): D1 -- seat 1 declares, takes all eight tricks and the
heart marriage: 220 points (120 without declaring it), seats 0 and 2 no trick (bolts);
D2 -- seat 1 makes 187, the defenders +60 (seat 0) and +15 (seat 2); D5 -- seat 1 on
obligation fails 100, the defenders +180 and +80.
"""
from __future__ import annotations

import pytest

from thousand.errors import IllegalDecision
from thousand.reference import GameState, replay_deal, replay_game, settle_deal
from thousand.reference.legal import hand_redeal_allowed, talon_redeal_allowed
from thousand.cards import parse_hand
from thousand.rules import CLASSIC, POLISH
from thousand.trace import GameTrace

from helpers.deals import D1_PLAY, D5_HANDS, D5_PLAY, D5_TALON, bids, d1, d2, d4, d5, ev, plays, trace
from helpers.states import settle_in_turn, state

C = CLASSIC.with_overrides
NO_BARREL = C("barrel_at=none")
# D1 with the heart marriage not declared: seat 1 takes exactly 120 card points
D1_NO_MARRIAGE = [e if i != 3 else e._replace(b=0) for i, e in enumerate(D1_PLAY)]
D1_AT_115 = bids("2:- 0:110 1:115 0:-")           # seat 1 wins the auction at 115


# ----------------------------------------------------------------- getting onto the barrel
def test_reaching_barrel_at_exactly_puts_him_on_it_five_short_does_not():
    st, notes = settle_deal(CLASSIC, state([820, 0, 0]), d2())          # seat 0: 820 + 60 = 880
    assert st.scores[0] == 880 and st.barrel_sitter == 0 and notes.barrel_entered == 0
    st, notes = settle_deal(CLASSIC, state([815, 0, 0]), d2())          # 875
    assert st.scores[0] == 875 and st.barrel_sitter == -1 and notes.barrel_entered == -1


def test_landing_just_under_the_target_is_the_barrel_landing_on_it_wins():
    st, notes = settle_deal(CLASSIC, state([0, 775, 0]), d1(220))      # 995: onto the barrel at 880
    assert st.scores[1] == 880 and st.barrel_sitter == 1 and notes.winner == -1
    st, notes = settle_deal(CLASSIC, state([0, 780, 0]), d1(220))      # 1000: the game is won
    assert st.scores[1] == 1000 and st.barrel_sitter == -1 and notes.winner == 1


# ----------------------------------------------------------------- coming off, staying
def test_coming_off_needs_a_contract_at_the_barrel_floor():
    sitting = state([0, 880, 0], barrel_sitter=1)
    # 120 made with exactly 120 points: off, and the game is won
    st, notes = settle_deal(CLASSIC, sitting, d1(play=D1_NO_MARRIAGE, state=sitting))
    assert notes.barrel_off == 1 and st.scores[1] == 1000 and notes.winner == 1
    # 115 made (with 220 points): made, but below the floor -- he stays, the 115 does not count
    r = d1(115, auction=D1_AT_115, state=sitting)
    assert r.made and r.scores[1] == 115
    st, notes = settle_deal(CLASSIC, sitting, r)
    assert notes.barrel_off == -1 and st.scores[1] == 880 and st.barrel_sitter == 1 and st.barrel_count == 1


def test_barrel_floor_is_the_target_rounded_down_to_the_bid_step():
    # barrel_target 125: with bid_step 10 the floor is 120 and a made 120 (220 points)
    # takes him off; with bid_step 5 the floor is 125 and the same 120 does not
    sitting = state([0, 880, 0], barrel_sitter=1)
    tens = C("bid_step=10,barrel_target=125")
    st, notes = settle_deal(tens, sitting, d1(rules=tens, state=sitting))
    assert notes.barrel_off == 1 and notes.winner == 1
    fives = C("barrel_target=125")
    r = d1(rules=fives, state=sitting)
    assert r.made
    st, notes = settle_deal(fives, sitting, r)
    assert notes.barrel_off == -1 and st.scores[1] == 880 and st.barrel_count == 1


def test_barrel_target_121_exactly_121_points_come_off_120_fall():
    rules = C("barrel_target=121,last_trick_bonus=1")      # the last trick's 1 point makes 121
    sitting = state([0, 880, 0], barrel_sitter=1)
    r = d1(play=D1_NO_MARRIAGE, rules=rules, state=sitting)
    assert r.declarer_points == 121 and r.made
    st, notes = settle_deal(rules, sitting, r)
    assert notes.barrel_off == 1 and st.scores[1] == 1000
    no_bonus = C("barrel_target=121")
    r = d1(play=D1_NO_MARRIAGE, rules=no_bonus, state=sitting)
    assert r.declarer_points == 120 and not r.made and r.scores[1] == -120
    st, notes = settle_deal(no_bonus, sitting, r)
    assert st.scores[1] == 760 and st.barrel_sitter == -1 and notes.barrel_falls == [1]


def test_a_change_of_zero_keeps_him_on_the_barrel_a_loss_takes_him_under():
    # sixty_two_free: his first two resignations cost 0 -- he stays at exactly barrel_at;
    # the third costs 120 and takes him under, with no barrel penalty on top
    free = C("resign=sixty_two_free")
    sitting = state([0, 880, 0], barrel_sitter=1, resignations=[0, 1, 0])
    st, notes = settle_deal(free, sitting, d2(-1, rules=free, state=sitting))
    assert st.scores == [60, 880, 60] and st.barrel_sitter == 1 and st.barrel_count == 1 and not notes.barrel_falls
    sitting = state([0, 880, 0], barrel_sitter=1, resignations=[0, 2, 0])
    st, notes = settle_deal(free, sitting, d2(-1, rules=free, state=sitting))
    assert st.scores == [60, 760, 60] and st.barrel_sitter == -1 and notes.barrel_falls == [1]
    assert st.barrel_sits == [0, 0, 0]


def test_barrel_deals_count_to_exactly_barrel_deals():
    for used, sits_on in ((0, True), (1, True), (2, False)):
        sitting = state([880, 0, 0], barrel_sitter=0, barrel_count=used)
        st, notes = settle_deal(CLASSIC, sitting, d2(state=sitting))
        assert (st.barrel_sitter == 0) == sits_on and st.scores[0] == (880 if sits_on else 760), used
    one = C("barrel_deals=1")
    sitting = state([880, 0, 0], barrel_sitter=0)
    st, _ = settle_deal(one, sitting, d2(rules=one, state=sitting))
    assert st.barrel_sitter == -1 and st.scores[0] == 760


def test_a_newcomer_sits_exactly_barrel_deals_deals():
    # seat 0 reaches the barrel in the first deal (820 + 60), then sits as a defender
    # (his +60s do not count): on after the first and second barrel deals, off after the third
    st, notes = settle_in_turn(CLASSIC, state([820, 0, 0]), [lambda s: d2(state=s)] * 4)
    assert [n.barrel_entered for n in notes] == [0, -1, -1, -1]
    assert [n.barrel_falls for n in notes] == [[], [], [], [0]] and st.scores[0] == 760


# ----------------------------------------------------------------- falling, knocked off
def test_a_bolt_penalty_takes_the_sitter_under_without_a_barrel_penalty():
    sitting = state([0, 0, 880], barrel_sitter=2, bolts=[0, 0, 2])      # D1: seat 2 takes no trick
    st, notes = settle_deal(CLASSIC, sitting, d1(state=sitting))
    assert st.scores[2] == 760 and st.barrel_sitter == -1 and notes.barrel_falls == [2]
    assert notes.bolt_penalties == [0, 0, 1] and st.barrel_sits == [0, 0, 0]
    # one bolt short of the penalty: he sits on
    sitting = state([0, 0, 880], barrel_sitter=2, bolts=[0, 0, 1])
    st, _ = settle_deal(CLASSIC, sitting, d1(state=sitting))
    assert st.scores[2] == 880 and st.barrel_sitter == 2 and st.bolts[2] == 2


def test_knocked_off_by_a_newcomer_unless_he_has_just_run_out():
    # seat 1 reaches the barrel while seat 2 sits with a deal left: seat 2 pays 120
    old = state([0, 800, 880], barrel_sitter=2, barrel_count=1)
    st, notes = settle_deal(CLASSIC, old, d1(state=old))
    assert st.scores == [0, 880, 760] and st.barrel_sitter == 1 and notes.barrel_falls == [2]
    # seat 2 used his last barrel deal in the same deal: he pays once, for running out
    old = state([0, 800, 880], barrel_sitter=2, barrel_count=2)
    st, notes = settle_deal(CLASSIC, old, d1(state=old))
    assert st.scores == [0, 880, 760] and st.barrel_sitter == 1 and notes.barrel_falls == [2]
    assert st.barrel_sits == [0, 1, 0]      # seat 1 got on it


def test_two_reaching_it_at_once_leave_the_sitter_alone():
    # seats 0 (830 + 60) and 1 (800 + 120) both reach it: both fall to 760, nobody new
    # sits, and seat 2 sits on (his +15 as a defender does not count)
    st, notes = settle_deal(CLASSIC, state([830, 800, 880], barrel_sitter=2), d2())
    assert st.scores == [760, 760, 880] and st.barrel_sitter == 2 and st.barrel_count == 1
    assert notes.barrel_clash == [0, 1] and notes.barrel_falls == []


def test_barrel_third_reset_is_the_third_sit_run_out():
    # 000: "if a player sits on the Barrel for the third time and still fails to reach
    # 1,000, they don't get -120: their score is fully reset to zero"; the times he got on
    # it count, however the earlier ones ended (until 2026-12-04 only barrels run out of
    # deals counted: try-out 29)
    rules = C("barrel_third_reset=on")
    for sits, score in ((2, 760), (3, 0), (4, 760)):
        last = state([880, 0, 0], barrel_sitter=0, barrel_count=2, barrel_sits=[sits, 0, 0])
        st, _ = settle_deal(rules, last, d2(state=last))
        assert st.scores[0] == score and st.barrel_sits[0] == sits, sits
    # knocked off or gone under on his third: the penalty or nothing, as any time (the
    # reset replaces the -120 of running out of deals only)
    old = state([0, 800, 880], barrel_sitter=2, barrel_sits=[0, 0, 3])
    st, _ = settle_deal(rules, old, d1(state=old))
    assert st.scores[2] == 760 and st.barrel_sits[2] == 3
    sitting = state([0, 880, 0], barrel_sitter=1, barrel_sits=[0, 3, 0])
    st, _ = settle_deal(rules, sitting, d5(state=sitting))
    assert st.scores[1] == 780


def test_barrel_bid_min_is_the_sitters_floor_only():
    rules = C("barrel_bid_min=120")
    sitter2 = state([0, 0, 880], barrel_sitter=2)
    # 115 refused, 120 accepted: D2 with the sitter (seat 2) opening the bidding
    with pytest.raises(IllegalDecision, match=r"event 0: seat 2 bid 115, but may only pass or bid 120\.\.180"):
        d2(rules=rules, state=sitter2, auction=bids("2:115 0:- 1:120 2:-"))
    r = d2(125, rules=rules, state=sitter2, auction=bids("2:120 0:- 1:125 2:-"))
    assert r.bid_log[1] == (2, 120) and r.winning_bid == 125
    # the others bid as usual
    r = d2(rules=rules, state=sitter2, auction=bids("2:- 0:105 1:120 0:-"))
    assert r.bid_log[2] == (0, 105) and r.winning_bid == 120


def test_barrel_takes_talon_only_when_the_sitter_plays_this_deal():
    # 4 players: the sitter deals and sits out, so the deal has its auction
    rules = C("players=4,barrel_takes_talon=on")
    assert d4(rules=rules, state=state([0, 0, 0, 880], barrel_sitter=3)).winning_bid == 120
    r = d4(rules=rules, state=state([880, 0, 0, 0], barrel_sitter=0), auction=[])
    assert r.n_bids == 0 and r.declarer == 0 and r.winning_bid == 120


# ----------------------------------------------------------------- counting across a game
def test_bolts_cost_on_every_third():
    st, notes = settle_in_turn(CLASSIC, state([0, 0, 0]), [lambda s: d1(state=s)] * 6)
    # seats 0 and 2 take no trick in D1: a bolt each deal, paid on the 3rd and the 6th
    assert [n.bolt_penalties for n in notes] == [[0, 0, 0], [0, 0, 0], [1, 0, 1]] * 2
    assert st.scores == [-240, 720, -240] and st.bolts == [0, 0, 0]


def test_sixty_two_free_two_free_resignations_then_each_costs():
    free = C("resign=sixty_two_free,bolts=off")
    st, paid = GameState.fresh(3), []
    for _ in range(4):
        r = d2(-1, rules=free, state=st)
        paid.append(r.scores[1])
        st, _ = settle_deal(free, st, r)
    assert paid == [0, 0, -120, -120] and st.scores == [240, -240, 240] and st.resignations == [0, 4, 0]


GOLDEN = C("golden_kon=on")


def test_golden_kon_is_the_first_three_deals_and_resets_after_the_third():
    st = state([0, 0, 0], golden=True)
    seen = []
    for _ in range(3):
        assert st.golden
        st, notes = settle_deal(GOLDEN, st, d2(-1, rules=GOLDEN, state=st, auction=[]))
        seen.append((list(st.scores), notes.golden_reset))
    # no reset after the first two failures, the reset after the third; the fourth is normal
    assert seen == [([120, -240, 120], False), ([240, -480, 240], False), ([0, 0, 0], True)]
    assert not st.golden and st.deal_no == 3
    # made only in the third: no reset
    st = state([0, 0, 0], golden=True)
    for made in (False, False, True):
        st, notes = settle_deal(GOLDEN, st, d2(120 if made else -1, rules=GOLDEN, state=st, auction=[]))
    assert not notes.golden_reset and st.scores == [360, -240, 270]


def test_cut_nine_every_third_nine_in_a_row_pays():
    rules = C("cut_nine_penalty=on")
    fines = {nines: d1(rules=rules, pre=[ev.cut(2, nines)]).cut_fines for nines in (2, 3, 5, 6)}
    assert fines == {2: [0, 0, 0], 3: [0, 0, 120], 5: [0, 0, 120], 6: [0, 0, 240]}
    with pytest.raises(IllegalDecision, match=r"a cut with 6 nine\(s\) pays 2 fine\(s\), the trace says 1"):
        d1(rules=rules, pre=[ev.cut(2, 6)._replace(b=1)])


def test_max_deals_stops_after_exactly_that_many_and_a_win_on_the_last_counts():
    one_deal = GameTrace(rules=CLASSIC, first_dealer=0, deals=[d1(220).trace])
    g = replay_game(C("barrel_at=none,target=300,max_deals=1"), one_deal)
    assert g.winner == -1 and g.counters["deals"] == 1
    g = replay_game(C("barrel_at=none,target=220,max_deals=1"), one_deal)
    assert g.winner == 1 and g.final == [0, 220, 0]
    with pytest.raises(IllegalDecision, match="the game is not over, but the trace has no more deals"):
        replay_game(C("barrel_at=none,target=300,max_deals=2"), one_deal)


def test_samozval_555_exactly_and_no_other_score():
    rules = C("samozval_555=on")
    # D2 adds [60, 120, 15]: 550, 555, 560
    st, notes = settle_deal(rules, state([490, 435, 545]), d2(rules=rules))
    assert st.scores == [550, 0, 560] and notes.reset_555 == [1]
    st, notes = settle_deal(rules, state([-615, 0, -570]), d2(rules=rules))    # -555, 120, -555
    assert st.scores == [0, 120, 0] and notes.reset_555 == [0, 2]
    st, notes = settle_deal(rules, state([-620, -565, -575]), d2(rules=rules))  # -560, -445, -560
    assert st.scores == [-560, -445, -560] and notes.reset_555 == []


def test_target_exactly_reached_wins_five_short_does_not():
    _, notes = settle_deal(NO_BARREL, state([0, 880, 0]), d1(rules=NO_BARREL))
    assert notes.scores == [0, 1000, 0] and notes.winner == 1
    _, notes = settle_deal(NO_BARREL, state([0, 875, 0]), d1(rules=NO_BARREL))
    assert notes.scores == [0, 995, 0] and notes.winner == -1


def test_several_over_the_target_the_declarer_first_even_when_lower():
    # the declarer exactly at the target beats a defender further over it
    _, notes = settle_deal(NO_BARREL, state([990, 880, 0]), d2(rules=NO_BARREL))
    assert notes.scores == [1050, 1000, 15] and notes.winner == 1
    # the declarer short of it: the highest of the others
    _, notes = settle_deal(NO_BARREL, state([990, 875, 990]), d2(rules=NO_BARREL))
    assert notes.scores == [1050, 995, 1005] and notes.winner == 0


# ----------------------------------------------------------------- deal thresholds
BLIND = C("blind=on")


def test_blind_made_with_exactly_120_points():
    r = d1(play=D1_NO_MARRIAGE, rules=BLIND, pre=[ev.blind(1, True)], auction=bids("2:- 0:-"))
    assert r.blind and r.declarer_points == 120 and r.made and r.scores[1] == 240
    # D5 blind: seat 1 takes no card point -- lost
    events = [ev.blind(1, True)] + bids("2:- 0:-") + [ev.hand_off(1, "9C", "9D"), ev.contract(1, 120)] + D5_PLAY
    r = replay_deal(BLIND, trace(0, D5_HANDS, [D5_TALON], events))
    assert r.blind and r.declarer_points == 0 and not r.made and r.scores[1] == -240


def test_blind_is_asked_at_a_score_of_0_not_at_minus_5():
    assert d2(rules=BLIND, pre=[ev.blind(1, False)], state=state([0, 0, 0])).scores == [60, 120, 15]
    with pytest.raises(IllegalDecision, match="a BID of seat 2 is due, but the trace has a BLIND"):
        d2(rules=BLIND, pre=[ev.blind(1, False)], state=state([0, -5, 0]))


def test_cut_nine_in_play_the_third_nine_in_a_row_pays():
    """Dealing from the stream: a seed whose cut shows three nines in a row (found by
    shuffling alone) costs the cutter 120 at the deal; two in a row cost nothing."""
    from thousand.reference import PassivePlayer, Stream, play_deal

    def nines_in_a_row(seed):
        twin, nines = Stream(seed), 0
        while twin.shuffle()[20] % 6 == 0:
            nines += 1
        return nines

    rules = C("cut_nine_penalty=on")
    for want, fine in ((2, 0), (3, 120)):
        seed = next(s for s in range(100_000) if nines_in_a_row(s) == want)
        r = play_deal(rules, [PassivePlayer()] * 3, Stream(seed), dealer=0)
        assert r.cut_nines == want and r.cut_fines == [0, 0, fine], seed
def test_bid_cap_none_is_every_marriage_the_ace_marriage_and_the_bonus():
    # bid_cap=none: 120 + 280 (all four marriages) + last_trick_bonus + ace_marriage is the
    # highest contract; one step over it is refused.  D1's declarer makes 220 + the bonus.
    rules = C("bid_cap=none,last_trick_bonus=10")
    assert d1(410, rules=rules).scores == [0, -410, 0]
    with pytest.raises(IllegalDecision, match=r"must be 120\.\.410"):
        d1(415, rules=rules)
    with pytest.raises(IllegalDecision, match=r"must be 120\.\.610"):
        d1(615, rules=rules.with_overrides("ace_marriage=200"))


# D6: seat 1 (forced 100) declares spades on the first lead (marriage_first_trick) and
# never wins a trick: 0 card points, 40 in marriages; seat 2 wins every trick, seat 0 none.
D6_HANDS = ["9S JS KD QD AH TH KH",      # seat 0 (receives QH)
            "QS KS 9C JC 9D JD 9H",      # seat 1 (takes the talon, hands off QC and QH)
            "AS TS AC TC KC AD TD"]      # seat 2 (receives QC)
D6_TALON = "JH QC QH"
D6_PLAY = plays("1:QS* 2:TS 0:9S / 2:AS 0:JS 1:KS / 2:AC 0:QH 1:9C / 2:TC 0:KH 1:JC / "
                "2:AD 0:QD 1:9D / 2:TD 0:KD 1:JD / 2:KC 0:TH 1:9H / 2:QC 0:AH 1:JH")


def test_zero_points_bolt_counts_marriages_no_tricks_does_not():
    events = bids("2:- 0:-") + [ev.hand_off(1, "QC", "QH"), ev.contract(1, 100)] + D6_PLAY
    rules = POLISH.with_overrides("marriage_first_trick=on")        # bolt_when=zero_points, no redeals
    r = replay_deal(rules, trace(0, D6_HANDS, [D6_TALON], events))
    assert (r.points, r.marriages, r.tricks) == ([0, 0, 120], [0, 40, 0], [0, 0, 8])
    assert r.scores == [0, -100, 120] and r.bolts == [True, False, False]
    r = replay_deal(rules.with_overrides("bolt_when=no_tricks"), trace(0, D6_HANDS, [D6_TALON], events))
    assert r.bolts == [True, True, False]


def test_half_bid_resignation_rounds_half_the_contract_up_to_five():
    scores = {}
    for auction in (bids("2:- 0:-"), bids("2:105 0:- 1:110 2:-"), bids("2:105 0:- 1:115 2:-")):
        r = d2(-1, auction=auction)
        scores[r.contract] = r.scores
    # half of 100 and 110 exactly; half of 115 (57.5) up to 60
    assert scores == {100: [50, -100, 50], 110: [55, -110, 55], 115: [60, -115, 60]}


def test_hand_redeal_thresholds_on_both_sides():
    # points: at the maximum yes, one over no (13 points: "9S JS QS KS 9C JC JH")
    thirteen = parse_hand("9S JS QS KS 9C JC JH")
    assert hand_redeal_allowed(CLASSIC, thirteen)
    assert not hand_redeal_allowed(C("redeal_hand_points_max=12,redeal_hand_jacks=none"), thirteen)
    # jacks: four yes, three no
    assert hand_redeal_allowed(C("redeal_hand_points_max=none"), parse_hand("JS JC JD JH AS AC AD"))
    assert not hand_redeal_allowed(C("redeal_hand_points_max=none"), parse_hand("JS JC JD 9H AS AC AD"))
    # nines: three yes (at 3), two no; at 4 three no
    three = parse_hand("9S 9C 9D AH AS AC AD")
    assert hand_redeal_allowed(C("redeal_hand_points_max=none"), three)
    assert not hand_redeal_allowed(C("redeal_hand_points_max=none"), parse_hand("9S 9C TD AH AS AC AD"))
    assert not hand_redeal_allowed(C("redeal_hand_points_max=none,redeal_hand_nines=4"), three)


def test_talon_redeal_thresholds_on_both_sides():
    assert talon_redeal_allowed(CLASSIC, parse_hand("QS JC 9D"))                 # 5 points
    assert not talon_redeal_allowed(CLASSIC, parse_hand("KS JC 9D"))             # 6 points, one nine, one jack
    assert not talon_redeal_allowed(C("redeal_talon_points_max=4"), parse_hand("QS JC 9D"))
    no_points = C("redeal_talon_points_max=none")
    assert talon_redeal_allowed(no_points, parse_hand("9S 9C AD"))               # two nines
    assert not talon_redeal_allowed(no_points, parse_hand("9S TC AD"))           # one
    assert talon_redeal_allowed(no_points, parse_hand("JS JC JD"))               # three jacks
    assert not talon_redeal_allowed(no_points, parse_hand("JS JC AD"))           # two
    assert talon_redeal_allowed(no_points.with_overrides("redeal_talon_jacks=2"), parse_hand("JS JC AD"))
