"""Chance and decisions on separate streams, and the decks keyed per game and deal.

With ``decisions=`` (the strategies' own bit generator) the kernel deals every deal from
a place of the chance stream fixed by its key -- (game, played deal, attempt) -- so that
what the strategies draw, and how long earlier games ran, never changes a deal's cards
(docs/kernel.md, "Chance and decisions").  Without it nothing changes: one stream, the
bytes the output hashes pin (tests/test_output_hashes.py).

The keys are checked four ways: against the reference's ``keyed_bitgen`` and its
shuffle, by the reference engine playing the same keyed decks with the same decision
stream (trace for trace), by what the design is for -- ``random`` or ``standard`` at a
seat, or the strategies rotated over the seats, see the same hands -- and by the deals of
one chance seed being as independent as a plain stream's (the first design's places,
2**84 words apart, were not).
"""
from __future__ import annotations

import numpy as np
import pytest

from thousand import _fastdeal, kernel
from thousand.errors import ThousandError
from thousand.reference import Stream, play_deal
from thousand.reference.rng import keyed_bitgen
from thousand.rules import CLASSIC, parse_rules_spec
from thousand.strategies import KernelPlayer

SEATS3 = ("hand0", "hand1", "hand2", "talon")


def keyed(seed: int, game: int, deal: int | None, attempt: int = 0) -> np.random.PCG64:
    """The chance stream at a key: game ``game``'s start (its first dealer), or its played
    deal ``deal``'s ``attempt``-th dealing -- by the reference's ``keyed_bitgen``."""
    return keyed_bitgen(np.random.PCG64(seed), game, 0 if deal is None else deal + 1, attempt)


def row_keys(cols) -> list[tuple[int, int, int]]:
    """(game, played deal, attempt) of every row: deal-only runs count the played deals
    themselves (game -1), games have ``deal_no``; redeals before a deal are its attempts."""
    keys, played, attempt = [], 0, 0
    last_game = None
    for i in range(len(cols["deal_id"])):
        game = int(cols["game_id"][i])
        if game != last_game:
            played, attempt, last_game = 0, 0, game
        k = int(cols["deal_no"][i]) if game >= 0 else played
        keys.append((game, k, attempt))
        if cols["redeal"][i]:
            attempt += 1
        else:
            played, attempt = played + 1, 0
    return keys


def hands_by_key(cols) -> dict:
    return {key: tuple(int(cols[c][i]) for c in SEATS3) for i, key in enumerate(row_keys(cols))}


def same_hands(a, b, least: int) -> int:
    """Every key dealt in both runs has the same cards; returns how many keys that was."""
    ha, hb = hands_by_key(a), hands_by_key(b)
    common = ha.keys() & hb.keys()
    assert len(common) >= least, (len(common), least)
    differ = [k for k in common if ha[k] != hb[k]]
    assert not differ, differ[:5]
    return len(common)


ONE_RANDOM = ["random", "standard", "standard"]


def test_random_or_standard_at_a_seat_deals_the_same_hands_in_deals():
    runs = [kernel.play_deals(np.random.PCG64(21), CLASSIC, s, n_deals=3000, decisions=np.random.PCG64(99))
            for s in (ONE_RANDOM, "standard")]
    assert not np.array_equal(runs[0]["redeal"][:2000], runs[1]["redeal"][:2000])   # they decide differently
    # every played deal's first dealing at least (the redeals asked differ)
    same_hands(*runs, least=3000)
    # one stream (the default): the random seat's draws move every later deal
    plain = [kernel.play_deals(np.random.PCG64(21), CLASSIC, s, n_deals=300) for s in (ONE_RANDOM, "standard")]
    assert hands_by_key(plain[0]) != hands_by_key(plain[1])


def test_random_or_standard_at_a_seat_deals_the_same_hands_in_games():
    runs = [kernel.play_games(np.random.PCG64(22), CLASSIC, s, n_games=40, deal_rows=True,
                              decisions=np.random.PCG64(98)) for s in (ONE_RANDOM, "standard")]
    games = [g for g, _ in runs]
    assert np.array_equal(games[0]["first_dealer"], games[1]["first_dealer"])
    assert not np.array_equal(games[0]["deals"], games[1]["deals"])        # the games run differently
    # every deal both played, in every game (not only until the first game's lengths part)
    n = same_hands(runs[0][1], runs[1][1], least=40 * 10)
    assert {k[0] for k in hands_by_key(runs[0][1]).keys() & hands_by_key(runs[1][1]).keys()} == set(range(40))
    assert n > 0


def test_rotating_the_strategies_over_the_seats_replays_the_same_decks():
    """The base of duplicate matches: on one deck stream every rotation of the strategies
    over the seats is dealt the same cards, seat by seat, game by game."""
    rotations = [["random", "greedy", "standard"], ["greedy", "standard", "random"], ["standard", "random", "greedy"]]
    runs = [kernel.play_games(np.random.PCG64(23), CLASSIC, s, n_games=30, deal_rows=True,
                              decisions=np.random.PCG64(5)) for s in rotations]
    for other in runs[1:]:
        assert np.array_equal(runs[0][0]["first_dealer"], other[0]["first_dealer"])
        same_hands(runs[0][1], other[1], least=30 * 5)


@pytest.mark.parametrize("spec", ["classic", "classic:players=2", "classic:players=4",
                                  "classic:cut_nine_penalty=on"])
def test_the_keyed_decks_are_the_references_places_and_shuffle(spec):
    """A game's first dealer and each dealing come from the chance stream at its key's
    place (the reference's keyed_bitgen), shuffled as docs/rules.md says (the reference
    Stream)."""
    rules = parse_rules_spec(spec)
    games, deals = kernel.play_games(np.random.PCG64(24), rules, "standard", n_games=6, deal_rows=True,
                                     decisions=np.random.PCG64(1))
    n = rules.players
    for g in range(6):
        assert games["first_dealer"][g] == Stream(keyed(24, g, None)).draw_bounded(n)
    checked = 0
    for i, (g, k, a) in enumerate(row_keys(deals)):
        if rules.cut_nine_penalty:
            continue        # a cut may shuffle again: the first shuffle is not the deal
        deck = Stream(keyed(24, g, k, a)).shuffle()
        dealer = int(deals["dealer"][i])
        f = (dealer + 1) % n
        active = [f, dealer] if n == 2 else [f, (f + 1) % n, (f + 2) % n]
        size = 10 if n == 2 else 7
        for j, seat in enumerate(active):
            assert int(deals[f"hand{seat}"][i]) == sum(1 << c for c in deck[j * size:(j + 1) * size]), (g, k, a)
        checked += 1
    assert checked or rules.cut_nine_penalty


@pytest.mark.parametrize("spec", ["classic", "classic:players=2", "classic:cut_nine_penalty=on,players=4"])
def test_the_reference_engine_plays_the_keyed_decks_alike(spec):
    """Deal by deal, the reference engine dealing each deal from its key's place of the
    chance stream, with random players drawing from the decision stream, writes the
    kernel's trace: the keys, the chance (cuts, 2-player talons) and the decisions."""
    rules = parse_rules_spec(spec)
    cols, events = kernel.play_deals(np.random.PCG64(25), rules, "random", n_deals=60, trace=True,
                                     decisions=np.random.PCG64(26))
    traces = kernel.deal_traces(cols, events, rules.players)
    decisions = np.random.PCG64(26)
    players = [KernelPlayer("random", bitgen=decisions) for _ in range(rules.players)]
    for i, (_, k, a) in enumerate(row_keys(cols)):
        res = play_deal(rules, players, Stream(keyed(25, 0, k, a)), k % rules.players)
        assert res.trace == traces[i], (i, k, a)


def test_separate_streams_refuse_a_shared_or_foreign_stream():
    bg = np.random.PCG64(1)
    with pytest.raises(ThousandError, match="of its own"):
        kernel.play_deals(bg, CLASSIC, n_deals=1, decisions=bg)
    with pytest.raises(ThousandError, match="PCG64"):
        kernel.play_deals(np.random.MT19937(1), CLASSIC, n_deals=1, decisions=np.random.PCG64(2))
    assert not kernel._engine(bg, CLASSIC, None, None)[0].separate_streams
    assert kernel._engine(bg, CLASSIC, None, None, np.random.PCG64(3))[0].separate_streams


def test_the_chance_stream_is_only_read_with_separate_streams():
    """Keyed chance reads the chance generator's state and leaves it where it was."""
    bg = np.random.PCG64(27)
    before = bg.state
    kernel.play_games(bg, CLASSIC, "random", n_games=3, decisions=np.random.PCG64(28))
    assert bg.state == before


def test_the_keyed_deals_of_a_chance_seed_are_independent():
    """The mean talon points of a run's keyed deals vary from one chance seed to the next
    as independent deals' would. The first design put deal k at 2**84 * (k + 1) words:
    places that share their low 86 state bits, whose PCG64 words are correlated, so every
    deal of a run shared a common part (the variance of a run's mean was about 11 times
    what independent deals give: try-out 30, on matches of 2,000 deals)."""
    from thousand.cards import card_points

    runs, n = 60, 2000
    means, within = [], []
    for seed in range(runs):
        cols = kernel.play_deals(np.random.PCG64([31, seed]), CLASSIC, "random", n_deals=n,
                                 decisions=np.random.PCG64([32, seed]))
        first = np.flatnonzero(np.r_[True, cols["redeal"][:-1] == 0])[:n]   # each deal's first dealing
        pts = np.array([card_points(int(t)) for t in cols["talon"][first]], dtype=float)
        means.append(pts.mean())
        within.append(pts.var(ddof=1))
    inflation = np.var(means, ddof=1) / (np.mean(within) / n)
    # independent deals: inflation ~ chi2(59)/59, below 1.6 with probability 0.998
    assert inflation < 1.6, inflation

