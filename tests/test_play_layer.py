"""The play layer: the kernel's card-play functions (src/_play.pxi, through the test helper
``_fastdeal._PlayLayerForTests``) against their twin ``thousand.reference.play``, position
by position, and the kernel's make/unmake contract.

Positions come from random deals of every table size (3 players; 4, the dealer sitting
out; 2, with a set-aside talon) under every combination of the options that change the
play (must_trump, must_beat, marriage_first_trick, ace_marriage and ace_marriage_sets_trump,
last_trick_bonus), played out by random legal cards with random declarations.  Some deals
are stacked so that the leader holds all four aces or marriages, which random deals
rarely give.  At every position both engines must agree on the legal and declarable
cards, the trick's winner so far, and after every card on the trick winner, the points,
marriages, bonus, tricks, trump, voids and the trick in progress; undo_card must give the
kernel's state back byte for byte.
"""
from __future__ import annotations

import dataclasses
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from helpers.play_positions import random_deal
from thousand import _fastdeal
from thousand.cards import card_points
from thousand.errors import IllegalDecision
from thousand.reference.play import Position
from thousand.rules import CLASSIC, Rules

PLAY_OPTIONS = {
    "must_trump": st.booleans(),
    "must_beat": st.booleans(),
    "marriage_first_trick": st.booleans(),
    "ace_marriage": st.sampled_from([None, 200, 150]),
    "ace_marriage_sets_trump": st.booleans(),
    "last_trick_bonus": st.sampled_from([0, 10]),
}


@st.composite
def play_rules(draw, players: int | None = None) -> Rules:
    values = {k: draw(v) for k, v in PLAY_OPTIONS.items()}
    values["players"] = players if players is not None else draw(st.sampled_from([2, 3, 4]))
    return dataclasses.replace(CLASSIC, **values)


def kernel_view_of(state: dict) -> dict:
    """The kernel state's fields that the reference Position also has."""
    n = state["trick_n"]
    return {"hands": state["hands"], "played": state["played"], "trump": state["trump"],
            "trick": list(zip(state["trick_seats"][:n], state["trick_cards"][:n])),
            "trick_index": state["trick_index"], "points": state["points"], "marriages": state["marriages"],
            "bonus": state["bonus"], "tricks": state["tricks"], "voids": state["voids"],
            "leader": state["leader"], "turn": state["turn"]}


def reference_view_of(p: Position) -> dict:
    def four(values):
        return list(values) + [0] * (4 - len(values))
    return {"hands": four(p.hands), "played": p.played, "trump": p.trump, "trick": list(p.trick),
            "trick_index": p.trick_index, "points": four(p.points), "marriages": four(p.marriages),
            "bonus": four(p.bonus), "tricks": four(p.tricks), "voids": four(p.voids),
            "leader": p.leader, "turn": p.turn}


def check_same(k: _fastdeal._PlayLayerForTests, p: Position, where: str) -> None:
    assert kernel_view_of(k.state()) == reference_view_of(p), where
    assert k.legal() == p.legal(), where
    assert k.declarable() == p.declarable(), where
    assert k.trick_winner() == p.trick_winner(), where


def play_out(rules: Rules, seed: int, undo_every_step: bool) -> int:
    """Play a random deal to its end on both engines, comparing at every position; with
    ``undo_every_step``, also take every card back and play it again.  Then undo the whole
    line and check each state on the way back.  Returns the declarations made."""
    rng = random.Random(seed)
    hands, active, declarer, set_aside = random_deal(rules, rng)
    k = _fastdeal._PlayLayerForTests(rules.to_kernel(), hands, active, declarer, set_aside)
    p = Position.start(rules, hands[:rules.players], active, declarer, set_aside)
    snapshots = []
    declared = 0
    step = 0
    while not p.over:
        check_same(k, p, f"seed {seed}, card {step}")
        legal, declarable = p.legal(), p.declarable()
        cards = [c for c in range(24) if legal >> c & 1]
        card = rng.choice(cards)
        declare = bool(declarable >> card & 1) and rng.random() < 0.7
        declared += declare
        before_raw, before = k.raw(), k.state()
        snapshots.append((before_raw, before))
        if undo_every_step:
            k.play(card, declare)
            k.undo()
            assert k.raw() == before_raw, f"seed {seed}, card {step}: play + undo changed the state"
        winner = k.play(card, declare)
        p = p.play(card, declare)
        assert winner == p.winner, f"seed {seed}, card {step}"
        step += 1
    check_same(k, p, f"seed {seed}, end")
    assert sum(p.tricks) == (10 if rules.players == 2 else 8)
    # the last trick's winner has the bonus and (2 players) the set-aside talon
    assert sum(p.bonus) == rules.last_trick_bonus
    assert sum(p.points) == 120 - (card_points(sum(1 << c for c in range(24)) & ~p.played) - set_aside)
    for i in range(len(snapshots) - 1, -1, -1):
        k.undo()
        raw, state = snapshots[i]
        assert k.state() == state, f"seed {seed}: undoing card {i}"
        assert k.raw() == raw, f"seed {seed}: undoing card {i} (bytes)"
    return declared


@settings(max_examples=1000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules=play_rules(), seed=st.integers(0, 2**32 - 1))
def test_kernel_and_reference_play_alike(rules, seed):
    play_out(rules, seed, undo_every_step=False)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules=play_rules(), seed=st.integers(0, 2**32 - 1))
def test_play_then_undo_restores_every_field(rules, seed):
    play_out(rules, seed, undo_every_step=True)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_option_combination(players):
    """Each of the 2 * 2 * 2 * 3 * 2 * 2 play-option combinations at each table size,
    several deals each (hypothesis above draws them at random; this covers them all)."""
    declared = 0
    combos = 0
    for mt in (False, True):
        for mb in (False, True):
            for mft in (False, True):
                for am in (None, 200, 150):
                    for amst in (False, True):
                        for bonus in (0, 10):
                            rules = dataclasses.replace(
                                CLASSIC, players=players, must_trump=mt, must_beat=mb, marriage_first_trick=mft,
                                ace_marriage=am, ace_marriage_sets_trump=amst, last_trick_bonus=bonus)
                            for seed in range(3):
                                declared += play_out(rules, 1000 * combos + seed, undo_every_step=seed == 0)
                            combos += 1
    assert combos == 96
    assert declared > 100      # the lines did exercise declarations


def test_random_walk_of_plays_and_undos():
    """Plays and undos interleaved at random (a search's pattern): after each undo the
    kernel state is byte for byte the one before that card, and the reference position
    kept alongside agrees at every step."""
    rng = random.Random(7)
    for deal in range(60):
        rules = dataclasses.replace(CLASSIC, players=rng.choice([2, 3, 4]), must_beat=rng.random() < 0.5,
                                    must_trump=rng.random() < 0.7, marriage_first_trick=rng.random() < 0.5,
                                    ace_marriage=rng.choice([None, 200]), last_trick_bonus=rng.choice([0, 10]))
        hands, active, declarer, set_aside = random_deal(rules, rng)
        k = _fastdeal._PlayLayerForTests(rules.to_kernel(), hands, active, declarer, set_aside)
        line = [(Position.start(rules, hands[:rules.players], active, declarer, set_aside), k.raw())]
        for _ in range(120):
            p = line[-1][0]
            if len(line) > 1 and (p.over or rng.random() < 0.35):
                k.undo()
                line.pop()
                assert k.raw() == line[-1][1], f"deal {deal}"
            else:
                legal = p.legal()
                card = rng.choice([c for c in range(24) if legal >> c & 1])
                declare = bool(p.declarable() >> card & 1) and rng.random() < 0.5
                assert k.play(card, declare) == (q := p.play(card, declare)).winner
                line.append((q, k.raw()))
            check_same(k, line[-1][0], f"deal {deal}")


@given(rules=play_rules(), seed=st.integers(0, 2**32 - 1))
@settings(max_examples=60, deadline=None)
def test_play_without_undo_record_is_the_same_play(rules, seed):
    """play_card_no_undo (the engine's) plays by the same rules as play_card: the same
    state apart from the undo records and their count."""
    rng = random.Random(seed)
    hands, active, declarer, set_aside = random_deal(rules, rng)
    a = _fastdeal._PlayLayerForTests(rules.to_kernel(), hands, active, declarer, set_aside)
    b = _fastdeal._PlayLayerForTests(rules.to_kernel(), hands, active, declarer, set_aside)
    for _ in range(24 if rules.players != 2 else 20):
        legal = a.legal()
        card = rng.choice([c for c in range(24) if legal >> c & 1])
        declare = bool(a.declarable() >> card & 1)
        assert a.play(card, declare) == b.play(card, declare, undoable=False)
        sa, sb = a.state(), b.state()
        assert sb["n_played"] == 0 and sb["undo"] == []
        for key in ("n_played", "undo"):
            del sa[key], sb[key]
        assert sa == sb


def test_a_worked_line():
    """A hand-made 3-player line with known results: a marriage declared on trick 1 makes
    hearts trump, a void defender must trump, the trick goes to the trump."""
    from thousand.cards import parse_card, parse_hand
    c = parse_card
    rules = CLASSIC
    hands = [parse_hand("KH QH AS 9S 9C JC 9D AD"), parse_hand("AH TH KS QS AC TC JD QD"),
             parse_hand("JH 9H TS JS QC KC TD KD"), 0]
    k = _fastdeal._PlayLayerForTests(rules.to_kernel(), hands, (0, 1, 2), 0)
    p = Position.start(rules, hands[:3], (0, 1, 2), 0)
    assert k.declarable() == p.declarable() == 0     # no declaration on trick 0 (classic)
    for card in ("AS", "QS", "TS"):
        assert k.play(c(card)) == (p := p.play(c(card))).winner
    assert p.winner == 0 and p.points == (24, 0, 0)
    assert p.declarable() == k.declarable() == parse_hand("QH KH")
    for card, declare in (("QH", True), ("TH", False), ("JH", False)):
        assert k.play(c(card), declare) == (p := p.play(c(card), declare)).winner
    assert p.trump == 3 and p.marriages == (100, 0, 0) and p.winner == 1   # the ten beats the queen
    assert p.turn == 1                  # seat 1 leads spades; both others follow

    for card in ("KS", "JS", "9S"):
        assert k.play(c(card)) == (p := p.play(c(card))).winner
    assert p.winner == 1
    # seat 1 leads diamonds: seat 2 follows, seat 0 follows with 9D
    for card in ("JD", "KD", "9D"):
        assert k.play(c(card)) == (p := p.play(c(card))).winner
    assert p.winner == 2
    # seat 2 leads clubs: seat 0 follows (9C), seat 1 follows (AC wins)
    for card in ("QC", "9C", "AC"):
        assert k.play(c(card)) == (p := p.play(c(card))).winner
    assert p.winner == 1
    # seat 1 leads TC: seat 2 follows with KC, seat 0 with JC
    for card in ("TC", "KC", "JC"):
        assert k.play(c(card)) == (p := p.play(c(card))).winner
    # seat 1 leads QD; seat 2 holds TD; seat 0 AD
    for card in ("QD", "TD", "AD"):
        assert k.play(c(card)) == (p := p.play(c(card))).winner
    assert p.winner == 0
    # seat 0 leads KH (trump): seat 1 AH, seat 2 9H
    assert p.legal() == parse_hand("KH")
    for card in ("KH", "AH", "9H"):
        assert k.play(c(card)) == (p := p.play(c(card))).winner
    assert p.over and p.winner == 1
    assert sum(p.points) == 120 and p.tricks == (2, 5, 1)
    check_same(k, p, "end")


def test_must_trump_and_voids():
    """A void player must trump when trump is set (must_trump) and he holds one; he shows a
    void in the led suit, and in trumps too when he neither follows nor trumps."""
    from thousand.cards import SUIT_MASK, parse_card, parse_hand
    hands = [parse_hand("KH QH AS KS 9C JC 9D AD"), parse_hand("AH TH AC TC JD QD KD TD"),
             parse_hand("JH 9H TS JS QS 9S QC KC"), 0]
    for must_trump in (True, False):
        rules = dataclasses.replace(CLASSIC, marriage_first_trick=True, must_trump=must_trump)
        k = _fastdeal._PlayLayerForTests(rules.to_kernel(), hands, (0, 1, 2), 0)
        p = Position.start(rules, hands[:3], (0, 1, 2), 0)

        def play(card, declare=False, legal=None):
            nonlocal p
            if legal is not None:
                assert p.legal() == k.legal() == parse_hand(legal), card
            assert k.play(parse_card(card), declare) == (p := p.play(parse_card(card), declare)).winner
            check_same(k, p, card)

        play("QH", True)                   # hearts trump from this trick on
        play("AH")
        play("9H")
        assert p.trump == 3 and p.winner == 1
        play("JD")                         # seat 2 has no diamond
        if must_trump:
            play("JH", legal="JH")
            play("AD", legal="9D AD")
            assert p.winner == 2 and p.voids[2] == SUIT_MASK[2]
            play("TS")
            play("KS", legal="AS KS")
            play("TH", legal="TH")         # seat 1 has no spade: his last trump
            assert p.winner == 1 and p.voids[1] == SUIT_MASK[0]
            play("KD")
            play("QC", legal="JS QS 9S QC KC")   # (he led TS)
            assert p.voids[2] == SUIT_MASK[2] | SUIT_MASK[3]
        else:
            play("QC", legal="JH TS JS QS 9S QC KC")
            assert p.voids[2] == SUIT_MASK[2]   # without must_trump nothing is shown of trumps


def test_reference_position_refuses_illegal_moves():
    from thousand.cards import parse_card, parse_hand
    hands = (parse_hand("KH QH AS 9S 9C JC 9D AD"), parse_hand("AH TH KS QS AC TC JD QD"),
             parse_hand("JH 9H TS JS QC KC TD KD"))
    p = Position.start(CLASSIC, hands, (0, 1, 2), 0)
    with pytest.raises(IllegalDecision):
        p.play(parse_card("AH"))                      # not his card
    with pytest.raises(IllegalDecision):
        p.play(parse_card("QH"), declare=True)        # no declaration on trick 0 (classic)
    p = p.play(parse_card("AS"))
    with pytest.raises(IllegalDecision):
        p.play(parse_card("AC"))                      # must follow spades


def test_kernel_helper_refuses_what_play_card_leaves_to_its_caller():
    from thousand.cards import parse_card, parse_hand
    hands = [parse_hand("KH QH AS 9S 9C JC 9D AD"), parse_hand("AH TH KS QS AC TC JD QD"),
             parse_hand("JH 9H TS JS QC KC TD KD"), 0]
    k = _fastdeal._PlayLayerForTests(CLASSIC.to_kernel(), hands, (0, 1, 2), 0)
    with pytest.raises(ValueError):
        k.play(parse_card("AH"))
    with pytest.raises(ValueError):
        k.play(parse_card("QH"), True)
    with pytest.raises(ValueError):
        k.undo()


def reference_perft(p: Position, depth: int) -> int:
    """Lines of ``depth`` cards from ``p`` (a declaration is a line of its own)."""
    if depth == 0 or p.over:
        return 1
    n = 0
    legal, declarable = p.legal(), p.declarable()
    for c in range(24):
        if legal >> c & 1:
            n += reference_perft(p.play(c), depth - 1)
            if declarable >> c & 1:
                n += reference_perft(p.play(c, True), depth - 1)
    return n


def test_line_counts_agree():
    """Every line of the next cards, enumerated by the kernel with play_card / undo_card
    (perft) and by the reference with Position.play, from positions all through a deal:
    the same count, and the kernel's state is unchanged afterwards."""
    rng = random.Random(11)
    for deal in range(45):
        rules = dataclasses.replace(CLASSIC, players=(2, 3, 4)[deal % 3], must_beat=deal % 2 == 0,
                                    marriage_first_trick=deal % 4 < 2, ace_marriage=(None, 200)[deal % 5 == 0],
                                    must_trump=deal % 7 != 0, last_trick_bonus=10)
        hands, active, declarer, set_aside = random_deal(rules, rng)
        k = _fastdeal._PlayLayerForTests(rules.to_kernel(), hands, active, declarer, set_aside)
        p = Position.start(rules, hands[:rules.players], active, declarer, set_aside)
        for _ in range(rng.randrange(0, 17)):
            legal = p.legal()
            card = rng.choice([c for c in range(24) if legal >> c & 1])
            declare = bool(p.declarable() >> card & 1)
            k.play(card, declare)
            p = p.play(card, declare)
        before = k.raw()
        depth = 5 if rules.players == 2 else 4
        assert k.perft(depth) == reference_perft(p, depth), f"deal {deal}"
        assert k.raw() == before
