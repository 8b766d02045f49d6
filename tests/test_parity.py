"""Kernel vs reference engine, decision by decision.

* Replay: the kernel's traces replayed through ``thousand.reference.replay_deal`` /
  ``replay_game``: every decision legal, every column of every deal row and every game
  row identical, and the scores after each deal identical.
* Same seed: the reference engine with ``RandomPlayer`` on the same PCG64 stream deals and
  decides exactly as the kernel's ``random`` strategy (the draws are specified).
* KernelPlayer: the reference engine asking the kernel one decision at a time reproduces
  the kernel's own batch run.

Main suite: 10,000 deals per preset with ``random`` players and 2,000 with ``standard``, plus
2- and 4-player tables and non-preset rule sets; ``-m slow`` runs a bigger sweep (5,000
deals and 10 games per strategy and rule set).
"""
import numpy as np
import pytest

from thousand import kernel
from thousand.reference import RandomPlayer, Stream, play_deal, play_game, replay_deal, replay_game
from thousand.rules import CLASSIC, POLISH, RUSSIAN, parse_rules_spec
from thousand.schema import deal_columns, game_columns
from thousand.strategies import KernelPlayer

PRESETS = {"classic": CLASSIC, "russian": RUSSIAN, "polish": POLISH}
VARIANTS = [
    "classic:players=2,redeal_talon_jacks=none",
    "polish:players=2",
    "classic:players=4",
    "russian:players=4,dealer_scores=aces_40",
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
DEAL_KEYS = None


def _int16(v: int) -> int:
    return int(np.int16(np.int64(v).astype(np.int16)))


def check_deals(rules, strategy, n, seed):
    players = rules.players
    cols, ev = kernel.play_deals(np.random.PCG64(seed), rules, strategy, n_deals=n, trace=True)
    traces = kernel.deal_traces(cols, ev, players)
    names = [c for c in deal_columns(players) if c not in ("deal_id", "chunk", "game_id", "deal_no")]
    for i, tr in enumerate(traces):
        row = replay_deal(rules, tr).to_row()     # raises IllegalDecision on any bad move
        got = {c: int(cols[c][i]) for c in names}
        want = {c: int(row[c]) for c in names}
        assert got == want, f"deal row {i}: {[(c, got[c], want[c]) for c in names if got[c] != want[c]]}"
    return len(traces)


def check_games(rules, strategy, n, seed):
    players = rules.players
    games, deals, ev = kernel.play_games(np.random.PCG64(seed), rules, strategy, n_games=n, trace=True)
    gtraces = kernel.game_traces(rules, games, deals, ev)
    assert sorted(gtraces) == list(range(n))
    for k, gt in gtraces.items():
        res = replay_game(rules, gt)
        row = res.to_row(game_id=k)
        for c in game_columns(players):
            if c != "chunk":
                want = _int16(row[c]) if games[c].dtype == np.int16 else int(row[c])
                assert int(games[c][k]) == want, (k, c)
        played = (deals["game_id"] == k) & (deals["redeal"] == 0)
        history = np.stack([deals[f"total{s}"][played] for s in range(players)], 1).tolist()
        assert history == res.history, f"game {k}: scores after each deal differ"


@pytest.mark.parametrize("preset", list(PRESETS))
@pytest.mark.parametrize("strategy", ["random", "standard"])
def test_replay_deals_per_preset(preset, strategy):
    # 10,000 played deals per preset with each strategy (the bar); the slow sweep
    # replays 5,000 more per strategy and rule set.
    n = 10_000
    seed = list(PRESETS).index(preset) * 10 + (strategy == "standard")
    assert check_deals(PRESETS[preset], strategy, n, seed=seed) >= n


@pytest.mark.parametrize("preset", list(PRESETS))
@pytest.mark.parametrize("strategy", ["random", "standard"])
def test_replay_games_per_preset(preset, strategy):
    rules = PRESETS[preset]
    if strategy == "random":
        # random players rarely reach the target: short games, many of them
        check_games(rules.with_overrides("max_deals=100"), strategy, 10, seed=17)
    else:
        check_games(rules, strategy, 3, seed=17)


@pytest.mark.parametrize("spec", VARIANTS)
def test_replay_variants(spec):
    rules = parse_rules_spec(spec)
    check_deals(rules, "random", 700, seed=3)
    check_deals(rules, "standard", 300, seed=4)
    # random players rarely finish a game: cap the games so they stay short
    check_games(rules.with_overrides("max_deals=60"), "random", 4, seed=5)
    check_games(rules.with_overrides("max_deals=150"), "standard", 2, seed=6)


@pytest.mark.slow
@pytest.mark.parametrize("spec", list(PRESETS) + VARIANTS)
def test_replay_sweep(spec):
    rules = parse_rules_spec(spec)
    for seed, strategy in enumerate(["random", "greedy", "standard"]):
        check_deals(rules, strategy, 5_000, seed=100 + seed)
        cap = 100 if strategy == "random" else 300
        check_games(rules.with_overrides(f"max_deals={cap}"), strategy, 10, seed=200 + seed)


def _reference_deal_rows(rules, players, stream, n):
    rows, dealer, played = [], 0, 0
    while played < n:
        res = play_deal(rules, players, stream, dealer)
        rows.append(res.to_row())
        if not res.is_redeal:
            played += 1
            dealer = (dealer + 1) % rules.players
    return rows


@pytest.mark.parametrize("spec", ["classic", "russian", "polish", "classic:players=2,redeal_talon_jacks=none",
                                  "classic:players=4,blind=on,cut_nine_penalty=on"])
def test_same_seed_random_players(spec):
    """The kernel's random strategy and the reference RandomPlayer draw alike."""
    rules = parse_rules_spec(spec)
    cols = kernel.play_deals(np.random.PCG64(21), rules, "random", n_deals=400)
    stream = Stream(np.random.PCG64(21))
    rows = _reference_deal_rows(rules, [RandomPlayer(stream)] * rules.players, stream, 400)
    names = [c for c in deal_columns(rules.players) if c not in ("deal_id", "chunk", "game_id", "deal_no")]
    assert len(rows) == len(cols["deal_id"])
    for i, row in enumerate(rows):
        assert {c: int(row[c]) for c in names} == {c: int(cols[c][i]) for c in names}, i
    # games too
    games, _ = kernel.play_games(np.random.PCG64(22), rules, "random", n_games=3)
    stream = Stream(np.random.PCG64(22))
    for k in range(3):
        row = play_game(rules, [RandomPlayer(stream)] * rules.players, stream).to_row(game_id=k)
        for c in game_columns(rules.players):
            if c != "chunk":
                want = _int16(row[c]) if games[c].dtype == np.int16 else int(row[c])
                assert int(games[c][k]) == want, (k, c)


@pytest.mark.parametrize("strategy", ["greedy", "standard", "random"])
@pytest.mark.parametrize("spec", ["classic", "polish", "classic:players=4,blind=on"])
def test_kernel_player_reproduces_the_kernel(strategy, spec):
    """Reference engine + KernelPlayer (one kernel decision at a time) == kernel batch."""
    rules = parse_rules_spec(spec)
    cols = kernel.play_deals(np.random.PCG64(31), rules, strategy, n_deals=150)
    bitgen = np.random.PCG64(31)
    stream = Stream(bitgen)
    players = [KernelPlayer(strategy, bitgen=bitgen) for _ in range(rules.players)]
    rows = _reference_deal_rows(rules, players, stream, 150)
    names = [c for c in deal_columns(rules.players) if c not in ("deal_id", "chunk", "game_id", "deal_no")]
    assert len(rows) == len(cols["deal_id"])
    for i, row in enumerate(rows):
        assert {c: int(row[c]) for c in names} == {c: int(cols[c][i]) for c in names}, i
