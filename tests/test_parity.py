"""Kernel vs reference engine, decision by decision.

* Replay: the kernel's traces replayed through ``thousand.reference.replay_deal`` /
  ``replay_game``: every decision legal, every column of every deal row and every game
  row identical, and the scores after each deal identical.
* Same seed: the reference engine with ``RandomPlayer`` on the same PCG64 stream deals and
  decides exactly as the kernel's ``random`` strategy (the draws are specified).
* KernelPlayer: the reference engine asking the kernel one decision at a time reproduces
  the kernel's own batch run.

Main suite: 10,000 deals per preset with ``random`` players and 10,000 with ``standard``,
plus 2- and 4-player tables and non-preset rule sets; ``-m slow`` runs a bigger sweep
(5,000 deals and 10 games per strategy and rule set).  Every test takes the ``seed``
fixture (``THOUSAND_TEST_SEEDS=N`` runs N seeds); a difference writes the trace of the
deal or game and prints the ``thousand explain --replay`` command that shows it
(``helpers.parity``, ``docs/testing.md``).
"""
import numpy as np
import pytest

from thousand import kernel
from thousand.reference import RandomPlayer, Stream, play_game
from thousand.rules import CLASSIC, POLISH, RUSSIAN, parse_rules_spec
from thousand.strategies import KernelPlayer

from helpers.parity import (check_deals, check_games, compare_reference_games, compare_reference_rows,
                            reference_deals)

PRESETS = {"classic": CLASSIC, "russian": RUSSIAN, "polish": POLISH}
VARIANTS = [
    "classic:players=2,redeal_talon_jacks=none",
    "polish:players=2",
    "classic:players=4",
    "russian:players=4,dealer_scores=aces_40",
    # barrels often, and a 4-player sitter's dealing deal is no attempt (try-out 36)
    "russian:players=4,target=300,barrel_at=200",
    "classic:blind=on",
    "classic:golden_kon=on",
    "classic:golden_kon=on,blind=on,resign=none",
    "classic:ace_marriage=200,ace_marriage_sets_trump=off,marriage_first_trick=on",
    "classic:must_beat=on,must_trump=off",
    "classic:cut_nine_penalty=on",
    "classic:barrel_at=900,barrel_bid_min=120,barrel_third_reset=on,bolts=not_on_barrel",
    "russian:bid_cap=none,last_trick_bonus=10,round_defenders=off",
    "classic:target=300,barrel_at=200,samozval_555=on,blind=on,barrel_takes_talon=on,barrel_target=121",
    "classic:target=400,barrel_at=300,barrel_deals=1,bolt_when=zero_points,bolt_penalty=50",
    "polish:bid_step=10,talon_face_down_on_obligation=off,redeal_talon_by=obligation",
    "classic:redeal_hand_nines=4,redeal_hand_points_max=20,redeal_talon_points_max=10,resign=sixty",
]


@pytest.mark.parametrize("preset", list(PRESETS))
@pytest.mark.parametrize("strategy", ["random", "standard"])
def test_replay_deals_per_preset(preset, strategy, seed):
    # 10,000 played deals per preset with each strategy (the bar); the slow sweep
    # replays 5,000 more per strategy and rule set.
    n = 10_000
    salt = list(PRESETS).index(preset) * 10 + (strategy == "standard")
    assert check_deals(PRESETS[preset], strategy, n, seed=[seed, salt]) >= n


@pytest.mark.parametrize("preset", list(PRESETS))
@pytest.mark.parametrize("strategy", ["random", "standard"])
def test_replay_games_per_preset(preset, strategy, seed):
    rules = PRESETS[preset]
    if strategy == "random":
        # random players rarely reach the target: short games, many of them
        check_games(rules.with_overrides("max_deals=100"), strategy, 10, seed=[seed, 17])
    else:
        check_games(rules, strategy, 3, seed=[seed, 17])


@pytest.mark.parametrize("spec", VARIANTS)
def test_replay_variants(spec, seed):
    rules = parse_rules_spec(spec)
    check_deals(rules, "random", 700, seed=[seed, 3])
    check_deals(rules, "standard", 300, seed=[seed, 4])
    # random players rarely finish a game: cap the games so they stay short
    check_games(rules.with_overrides("max_deals=60"), "random", 4, seed=[seed, 5])
    check_games(rules.with_overrides("max_deals=150"), "standard", 2, seed=[seed, 6])


@pytest.mark.slow
@pytest.mark.parametrize("spec", list(PRESETS) + VARIANTS)
def test_replay_sweep(spec, seed):
    rules = parse_rules_spec(spec)
    for k, strategy in enumerate(["random", "greedy", "standard"]):
        check_deals(rules, strategy, 5_000, seed=[seed, 100 + k])
        cap = 100 if strategy == "random" else 300
        check_games(rules.with_overrides(f"max_deals={cap}"), strategy, 10, seed=[seed, 200 + k])


@pytest.mark.parametrize("spec", ["classic", "russian", "polish", "classic:players=2,redeal_talon_jacks=none",
                                  "classic:players=4,blind=on,cut_nine_penalty=on"])
def test_same_seed_random_players(spec, seed):
    """The kernel's random strategy and the reference RandomPlayer draw alike."""
    rules = parse_rules_spec(spec)
    cols = kernel.play_deals(np.random.PCG64([seed, 21]), rules, "random", n_deals=400)
    stream = Stream(np.random.PCG64([seed, 21]))
    results = reference_deals(rules, [RandomPlayer(stream)] * rules.players, stream, 400)
    compare_reference_rows(rules, cols, results, what="RandomPlayer",
                           kernel_traces=lambda: _kernel_deal_traces(rules, "random", 400, [seed, 21]))
    # games too
    games, _ = kernel.play_games(np.random.PCG64([seed, 22]), rules, "random", n_games=3)
    stream = Stream(np.random.PCG64([seed, 22]))
    played = [play_game(rules, [RandomPlayer(stream)] * rules.players, stream) for _ in range(3)]
    compare_reference_games(rules, games, played, what="RandomPlayer",
                            kernel_traces=lambda: _kernel_game_traces(rules, "random", 3, [seed, 22]))


def _kernel_deal_traces(rules, strategy, n, seed):
    cols, ev = kernel.play_deals(np.random.PCG64(seed), rules, strategy, n_deals=n, trace=True)
    return kernel.deal_traces(cols, ev, rules.players)


def _kernel_game_traces(rules, strategy, n, seed):
    games, deals, ev = kernel.play_games(np.random.PCG64(seed), rules, strategy, n_games=n, trace=True)
    return kernel.game_traces(rules, games, deals, ev)


@pytest.mark.parametrize("strategy", ["greedy", "standard", "random"])
@pytest.mark.parametrize("spec", ["classic", "polish", "classic:players=4,blind=on"])
def test_kernel_player_reproduces_the_kernel(strategy, spec, seed):
    """Reference engine + KernelPlayer (one kernel decision at a time) == kernel batch."""
    rules = parse_rules_spec(spec)
    cols = kernel.play_deals(np.random.PCG64([seed, 31]), rules, strategy, n_deals=150)
    bitgen = np.random.PCG64([seed, 31])
    stream = Stream(bitgen)
    players = [KernelPlayer(strategy, bitgen=bitgen) for _ in range(rules.players)]
    compare_reference_rows(rules, cols, reference_deals(rules, players, stream, 150), what="KernelPlayer",
                           kernel_traces=lambda: _kernel_deal_traces(rules, strategy, 150, [seed, 31]))
