"""Properties of random deals under random rule sets, checked independently of the engine's code.

Each deal is played by random players; the checks rebuild what happened from the trace
alone (who held what, what was led, what was trump) and hold the result to the rules.
"""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from thousand.cards import (KING, MARRIAGE_VALUES, QUEEN, SUIT_MASK, card_points, popcount, rank_of, suit_of)
from thousand.reference import GameState, RandomPlayer, Stream, play_deal, replay_deal
from thousand.reference.game import play_game, replay_game
from thousand.rules import Rules
from thousand.trace import DealTrace, EventKind, GameTrace

from helpers import hypothesis_budget
from helpers.rule_sets import rule_sets


@st.composite
def game_contexts(draw, rules: Rules) -> GameState:
    """A plausible game context: scores, maybe a sitter, bolt counts, resignations, golden kon."""
    n = rules.players
    state = GameState.fresh(n)
    state.scores = [draw(st.integers(-300, 860)) // 5 * 5 for _ in range(n)]
    if rules.barrel_at is not None and draw(st.booleans()):
        sitter = draw(st.integers(0, n - 1))
        state.scores[sitter] = rules.barrel_at
        state.barrel_sitter = sitter
        state.barrel_count = draw(st.integers(0, rules.barrel_deals - 1))
    state.bolts = [draw(st.integers(0, 2)) for _ in range(n)]
    state.resignations = [draw(st.integers(0, 3)) for _ in range(n)]
    state.golden = rules.golden_kon and draw(st.booleans())
    return state


def rebuild_and_check(rules: Rules, r) -> None:
    """Walk the trace by hand and check the deal's result against the rules."""
    n = rules.players
    t = r.trace
    hands = list(t.hands)
    active = [s for s in range(n) if hands[s]]
    assert len(active) == (3 if n == 4 else n)
    if r.is_redeal:
        assert t.events[-1].kind == EventKind.REDEAL and t.events[-1].a == 1
        assert r.scores == [0] * n and r.bolts == [False] * n
        return
    d = r.declarer
    talon = t.talons[r.talon_taken] if n == 2 else t.talons[0]
    hands[d] |= talon
    handoff = next(e for e in t.events if e.kind == EventKind.HAND_OFF)
    hands[d] &= ~((1 << handoff.a) | (1 << handoff.b))
    if n != 2:
        i = active.index(d)
        hands[active[(i + 1) % 3]] |= 1 << handoff.a
        hands[active[(i + 2) % 3]] |= 1 << handoff.b
    n_cards = 10 if n == 2 else 8
    assert all(popcount(hands[s]) == n_cards for s in active)
    plays = [e for e in t.events if e.kind == EventKind.PLAY]
    if r.resigned:
        assert not plays and r.bolts == [False] * n
        return
    assert len(plays) == n_cards * len(active)
    trump = -1
    won_points = [0] * n
    declared = [0] * n
    tricks = [0] * n
    for k in range(n_cards):
        trick = plays[k * len(active):(k + 1) * len(active)]
        led = suit_of(trick[0].a)
        for j, e in enumerate(trick):
            hand = hands[e.seat]
            assert hand >> e.a & 1, "played a card he does not hold"
            if j == 0 and e.b:
                assert k > 0 or rules.marriage_first_trick
                s = suit_of(e.a)
                if rank_of(e.a) in (QUEEN, KING):
                    assert hand >> (6 * s + QUEEN) & 1 and hand >> (6 * s + KING) & 1, "declared a marriage he does not hold"
                    declared[e.seat] += MARRIAGE_VALUES[s]
                    trump = s
                else:
                    assert rules.ace_marriage and popcount(hand & 0x820820) == 4
                    declared[e.seat] += rules.ace_marriage
                    if rules.ace_marriage_sets_trump:
                        trump = s
            assert j == 0 or not e.b, "a follower declared"
            if j > 0:
                if hand & SUIT_MASK[led]:
                    assert suit_of(e.a) == led, "did not follow suit"
                elif trump >= 0 and rules.must_trump and hand & SUIT_MASK[trump]:
                    assert suit_of(e.a) == trump, "did not trump"
            hands[e.seat] &= ~(1 << e.a)
        # the winner: highest trump, else highest of the led suit
        cards = [e.a for e in trick]
        trumps = [c for c in cards if suit_of(c) == trump]
        best = max(trumps) if trumps else max(c for c in cards if suit_of(c) == led)
        winner = trick[cards.index(best)].seat
        assert winner == r.trick_log[k].winner
        tricks[winner] += 1
        won_points[winner] += card_points(sum(1 << c for c in cards))
    last = winner
    if n == 2:
        won_points[last] += card_points(t.talons[1 - r.talon_taken])
        won_points[d] += card_points((1 << handoff.a) | (1 << handoff.b))
    assert sum(won_points) == 120
    assert won_points == r.points and declared == r.marriages and tricks == r.tricks
    deal_points = [won_points[s] + declared[s] + (rules.last_trick_bonus if s == last else 0) for s in range(n)]
    assert r.declarer_points == deal_points[d]

    def rounded(p):
        return (p + 2) // 5 * 5 if rules.round_defenders else p

    sitter = r.state.barrel_sitter
    if r.blind:
        assert r.made == (deal_points[d] >= 120) and r.scores[d] == (240 if r.made else -240)
    else:
        # a sitter at a contract that would take him off needs barrel_target points too
        need = (max(r.contract, rules.barrel_target) if d == sitter and r.contract >= rules.barrel_contract
                else r.contract)
        assert r.made == (deal_points[d] >= need)
        assert r.scores[d] == (r.contract if r.made else -r.contract)
    for s in active:
        if s != d:
            doubled = won_points[s] * (2 if r.blind else 1) + deal_points[s] - won_points[s]
            assert r.scores[s] == rounded(doubled)
    for s in active:
        zero = tricks[s] == 0 if rules.bolt_when == "no_tricks" else deal_points[s] == 0
        expected = rules.bolts != "off" and zero and not (rules.bolts == "not_on_barrel" and s == sitter)
        assert r.bolts[s] == expected


class KeenPlayer(RandomPlayer):
    """Random, but never redeals and never resigns, so that most deals are played out."""

    def demand_redeal(self, view, kind):
        return False

    def raise_or_resign(self, view, lowest, highest, may_resign):
        return super().raise_or_resign(view, lowest, highest, False)


@settings(max_examples=hypothesis_budget(200))
@given(rules=rule_sets(), seed=st.integers(0, 2**32 - 1), keen=st.booleans(), data=st.data())
def test_random_deals_follow_the_rules_and_replay_exactly(rules, seed, keen, data):
    state = data.draw(game_contexts(rules))
    stream = Stream(seed)
    players = [(KeenPlayer if keen else RandomPlayer)(stream) for _ in range(rules.players)]
    dealer = data.draw(st.integers(0, rules.players - 1))
    r = play_deal(rules, players, stream, dealer, state)
    rebuild_and_check(rules, r)
    again = replay_deal(rules, DealTrace.from_json(r.trace.to_json()), state)
    assert again.to_row() == r.to_row() and again.trace == r.trace and again.scores == r.scores


def test_round_defender_formula_agrees_with_the_rule():
    from thousand.reference import round_defender
    for p in range(0, 400):
        last = p % 10
        expected = p - last % 5 if last in (0, 1, 2, 5, 6, 7) else p + 5 - last % 5
        assert round_defender(p) == expected == (p + 2) // 5 * 5


def books_after_each_deal(rules: Rules, g) -> list[list[int]]:
    """Each seat's score after each played deal as plain bookkeeping: the deal's score
    changes, the cut fines and a penalty on every third bolt -- what the game's history
    must show for a seat the barrel never touched (no 555, no golden-kon reset)."""
    n = rules.players
    total, bolts, out = [0] * n, [0] * n, []
    for d in g.deals:
        for s in range(n):
            total[s] -= d.cut_fines[s]
        if d.is_redeal:
            continue
        for s in range(n):
            total[s] += d.scores[s]
            for _ in range(d.bolt_weight if d.bolts[s] else 0):
                bolts[s] += 1
                if bolts[s] == 3:
                    total[s] -= rules.bolt_penalty
                    bolts[s] = 0
        out.append(list(total))
    return out


def check_barrel_books(rules: Rules, g) -> None:
    """The barrel seen from the scores alone: between deals at most one seat is in
    ``[barrel_at, target)`` and he is exactly at ``barrel_at`` (a newcomer is set to it,
    two at once fall back below it, a sitter's gains do not count); he sits there for at
    most ``barrel_deals`` deals and leaves it to below it (fallen, knocked off) or to the
    target (come off: a made contract at the floor reaches it)."""
    at, n = rules.barrel_at, rules.players
    run = [0] * n
    played = [d for d in g.deals if not d.is_redeal]   # g.history: one entry each
    for k, scores in enumerate(g.history):
        on = [s for s in range(n) if at <= scores[s] < rules.target]
        assert len(on) <= 1 and all(scores[s] == at for s in on), (k, scores)
        for s in range(n):
            # with barrel_takes_talon a deal he sits out as the 4-player dealer is no
            # attempt (docs/rules.md)
            sat_out = rules.barrel_takes_talon and n == 4 and played[k].dealer == s
            run[s] = run[s] + (0 if sat_out else 1) if s in on else 0
            assert run[s] <= rules.barrel_deals, f"seat {s} sat {run[s]} deals (after deal {k})"
            if k and g.history[k - 1][s] == at and scores[s] != at:
                assert scores[s] < at or scores[s] >= rules.target, (k, s, scores)


def check_game_books(rules: Rules, g) -> None:
    c = g.counters
    assert c["deals"] == len(g.history) == sum(1 for d in g.deals if not d.is_redeal)
    assert c["redeals"] == sum(1 for d in g.deals if d.is_redeal)
    assert (g.winner >= 0) == (max(g.final) >= rules.target) or g.counters["deals"] == rules.max_deals
    # dealers rotate after played deals only
    dealer = g.first_dealer
    for d in g.deals:
        assert d.dealer == dealer
        if not d.is_redeal:
            dealer = (dealer + 1) % rules.players
    if g.winner >= 0:
        assert g.final[g.winner] >= rules.target
    if rules.barrel_at is not None:
        check_barrel_books(rules, g)
    if rules.samozval_555 or c["golden_reset"]:
        return
    # the score of a seat whose books never reach the barrel is its books, after every
    # deal; without a barrel that is every seat
    books = books_after_each_deal(rules, g)
    for s in range(rules.players):
        if rules.barrel_at is None or all(b[s] < rules.barrel_at for b in books):
            assert [h[s] for h in g.history] == [b[s] for b in books], f"seat {s}"


@settings(max_examples=hypothesis_budget(20))
@given(rules=rule_sets(short_games=True), seed=st.integers(0, 2**32 - 1), keen=st.booleans())
def test_random_games_replay_and_keep_their_books(rules, seed, keen):
    """Short games (targets 300, 500, 1000; the barrel on, at 100 or 120 below the target,
    or off) of random players: replayed exactly, and their books kept."""
    stream = Stream(seed)
    g = play_game(rules, [(KeenPlayer if keen else RandomPlayer)(stream) for _ in range(rules.players)], stream)
    again = replay_game(rules, GameTrace.from_json(g.trace.to_json()))
    assert again.to_row() == g.to_row() and again.history == g.history
    check_game_books(rules, g)


def test_the_books_are_checked_through_the_barrel():
    """The game checks above do meet the barrel: seeded short games in which players get
    onto it, fall off, are knocked off and sit out their deals, all checked."""
    rules = Rules(**{**Rules().as_dict(), "target": 300, "barrel_at": 200, "max_deals": 80})
    entries = falls = 0
    for seed in range(12):
        stream = Stream(seed)
        g = play_game(rules, [RandomPlayer(stream) for _ in range(3)], stream)
        check_game_books(rules, g)
        entries += sum(g.counters[f"barrel_entries{s}"] for s in range(3))
        falls += sum(g.counters[f"barrel_falls{s}"] for s in range(3))
    assert entries >= 10 and falls >= 10, (entries, falls)


@pytest.mark.slow
@settings(max_examples=hypothesis_budget(3000))
@given(rules=rule_sets(), seed=st.integers(0, 2**32 - 1), keen=st.booleans(), data=st.data())
def test_many_random_deals_follow_the_rules(rules, seed, keen, data):
    """The same checks over many more deals (``-m slow``)."""
    test_random_deals_follow_the_rules_and_replay_exactly.hypothesis.inner_test(rules, seed, keen, data)
