"""Strategy names and parameters, the single-decision API, and what greedy does."""
import numpy as np
import pytest

from thousand import _fastdeal, kernel
from thousand.kernel import decide
from thousand.cards import parse_card, parse_hand
from thousand.errors import ThousandError
from thousand.reference import Stream, play_deal
from thousand.players import make_player
from thousand.rules import CLASSIC
from thousand.strategies import (DEFAULT_STRATEGY, N_PARAMS, STRATEGIES, KernelPlayer, Param, Strategy,
                                 canonical, parse_strategy, register_strategy, resolve_strategies)

GREEDY = _fastdeal.STRATEGY_CODES["greedy"]
RANDOM = _fastdeal.STRATEGY_CODES["random"]
P = [0.0] * N_PARAMS


def test_default_is_standard_and_every_name_parses():
    assert DEFAULT_STRATEGY == "standard"
    codes, params = resolve_strategies(None, 3)
    assert codes[:3].tolist() == [STRATEGIES["standard"].code] * 3
    for name in STRATEGIES:
        assert parse_strategy(name).name == name
        assert canonical(name.upper()) == name


def test_parameters_parse_and_errors_name_the_problem():
    register_strategy(Strategy("test_tunable", STRATEGIES["greedy"].code, "a test double",
                               {"margin": Param(0, 5.0, "safety margin"), "risk": Param(3, 0.5, "risk")}))
    try:
        p = parse_strategy("test_tunable:margin=10")
        assert p.params[0] == 10 and p.params[3] == 0.5
        assert canonical("test_tunable: risk=0.25 , margin=10") == "test_tunable:margin=10,risk=0.25"
        codes, params = resolve_strategies(["test_tunable:margin=1", "random", "greedy"], 3)
        assert params[0, 0] == 1 and codes[1] == RANDOM
        with pytest.raises(ThousandError, match="no parameter 'nope'"):
            parse_strategy("test_tunable:nope=1")
        with pytest.raises(ThousandError, match="must be a number"):
            parse_strategy("test_tunable:margin=high")
        # digits as typed on a keyboard: float() alone reads these as 10 and 1
        for odd in ("１０", "1_0", "\u0661", "ten"):
            with pytest.raises(ThousandError, match="must be a number"):
                parse_strategy(f"test_tunable:margin={odd}")
        for odd in ("nan", "-inf", "Infinity", "1e999"):
            with pytest.raises(ThousandError, match="must be a finite number"):
                parse_strategy(f"test_tunable:margin={odd}")
        assert parse_strategy("test_tunable:risk=.25").params[3] == 0.25
        assert parse_strategy("test_tunable:margin=+1e0").params[0] == 1
    finally:
        del STRATEGIES["test_tunable"]
    with pytest.raises(ThousandError, match="unknown strategy"):
        parse_strategy("clever")
    with pytest.raises(ThousandError):
        resolve_strategies(["greedy", "greedy"], 3)


def test_greedy_bid_is_100_plus_best_marriage():
    hand = parse_hand("KH QH KS QS 9D JD AC")          # hearts 100, spades 40
    view = {"hand": hand, "min_bid": 105, "max_bid": 260, "step": 5}
    assert decide("bid", GREEDY, P, view) == 105
    view.update(min_bid=200, max_bid=260)
    assert decide("bid", GREEDY, P, view) == 200
    view.update(min_bid=205)
    assert decide("bid", GREEDY, P, view) == 0
    assert decide("bid", GREEDY, P, {"hand": parse_hand("AH TH 9S JS 9D JD AC"),
                                             "min_bid": 105, "max_bid": 120}) == 0


def test_greedy_hand_off_play_and_raise():
    hand = parse_hand("AH TH KH QH 9S JC AD 9D QC KS")
    a, b = decide("hand_off", GREEDY, P, {"hand": hand})
    assert {a, b} == {parse_card("9S"), parse_card("9D")}
    legal = parse_hand("AH QH 9S")
    card, declare = decide("play", GREEDY, P, {"hand": hand, "legal": legal,
                                                      "declarable": parse_hand("QH KH")})
    assert card == parse_card("AH") and not declare
    card, declare = decide("play", GREEDY, P, {"hand": hand, "legal": parse_hand("KH QH 9S"),
                                                      "declarable": parse_hand("QH KH")})
    assert card == parse_card("KH") and declare
    assert decide("raise", GREEDY, P, {"hand": hand, "min_bid": 110, "max_bid": 220,
                                                        "can_resign": 1}) == 110


def test_random_decisions_are_legal_and_use_the_stream():
    bitgen = np.random.PCG64(3)
    seen = set()
    for _ in range(200):
        b = decide("bid", RANDOM, P, {"min_bid": 105, "max_bid": 120, "step": 5}, bitgen)
        assert b in (0, 105, 110, 115, 120)
        seen.add(b)
        r = decide("raise", RANDOM, P, {"min_bid": 100, "max_bid": 110, "step": 5,
                                                         "can_resign": 1}, bitgen)
        assert r in (-1, 100, 105, 110)
    assert seen == {0, 105, 110, 115, 120}
    with pytest.raises(ValueError):
        decide("bid", RANDOM, P, {"min_bid": 105, "max_bid": 120})
    with pytest.raises(KeyError):
        decide("bid", GREEDY, P, {"nonsense": 1})


def test_kernel_player_plugs_into_the_reference_engine():
    stream = Stream(5)
    players = [make_player("greedy", CLASSIC, s, stream) for s in range(3)]
    assert all(isinstance(p, KernelPlayer) for p in players)
    res = play_deal(CLASSIC, players, stream, dealer=0)
    assert res.is_redeal or sum(res.points) == 120


def test_standard_beats_random_as_declarer():
    """A sanity check of the strategy plumbing, not of strategy quality."""
    rules = CLASSIC
    std = kernel.play_deals(np.random.PCG64(8), rules, "standard", n_deals=20000)
    rnd = kernel.play_deals(np.random.PCG64(8), rules, "random", n_deals=20000)
    def made_rate(c):
        m = (c["redeal"] == 0) & ~c["resigned"]
        return c["made"][m].mean()
    assert made_rate(std) > made_rate(rnd)


def test_standard_margin_lowers_the_bidding_limit():
    hand = parse_hand("KH QH KS QS 9D JD AC")
    code = STRATEGIES["standard"].code
    # standard bids while its hand estimate minus the margin reaches the bid (the default
    # margin is 20); a wider margin stops it 20 points lower
    view = {"hand": hand, "min_bid": 145, "max_bid": 260}
    assert decide("bid", code, parse_strategy("standard").params.tolist(), view) == 145
    assert decide("bid", code, parse_strategy("standard:margin=40").params.tolist(), view) == 0
