"""The one player registry: every kind of player by its spec, and room for new kinds."""
from __future__ import annotations

from pathlib import Path

import pytest

from thousand import players
from thousand.errors import ThousandError
from thousand.reference import PassivePlayer, RandomPlayer, Stream, play_deal
from thousand.rules import CLASSIC
from thousand.strategies import STRATEGIES, KernelPlayer


def test_every_kernel_strategy_is_a_player_the_kernel_can_play():
    for name in STRATEGIES:
        kind = players.kinds()[name]
        assert kind.in_kernel
        made = players.make_player(name, CLASSIC, 0, Stream(1))
        # random is the reference engine's own (the same draws as the kernel's random strategy)
        assert isinstance(made, RandomPlayer if name == "random" else KernelPlayer)
    assert players.names(in_kernel=False) == ["passive"]


def test_parameters_travel_to_the_kernel_strategy_and_are_checked():
    p = players.make_player("standard:margin=5", CLASSIC, 1, Stream(1))
    assert isinstance(p, KernelPlayer) and p.params[STRATEGIES["standard"].params["margin"].slot] == 5
    with pytest.raises(ThousandError, match="no parameter 'nonsense'"):
        players.make_player("standard:nonsense=1", CLASSIC, 0, Stream(1))
    with pytest.raises(ThousandError, match="takes no parameters"):
        players.make_player("passive:x=1", CLASSIC, 0, Stream(1))
    with pytest.raises(ThousandError, match="unknown player 'nobody': use random, greedy, .*passive"):
        players.make_player("nobody", CLASSIC, 0, Stream(1))


def test_a_new_kind_registers_like_the_others(monkeypatch):
    # How a search player or a person at a table joins: a factory under a name.
    monkeypatch.setattr(players, "_REGISTERED", dict(players._REGISTERED))
    seen = []

    def make(rules, seat, stream, params):
        seen.append((seat, params))
        return PassivePlayer()
    players.register(players.PlayerKind("human", "a person at the terminal", make))
    assert "human" in players.names(in_kernel=False)
    seated = [players.make_player("human:name=Ola", CLASSIC, s, Stream(2)) for s in range(3)]
    assert seen == [(0, {"name": "Ola"}), (1, {"name": "Ola"}), (2, {"name": "Ola"})]
    result = play_deal(CLASSIC, seated, Stream(2), dealer=0)
    assert result.is_redeal or result.obligation


def test_the_reference_engine_does_not_reach_for_the_kernel():
    # The registry depends on the reference engine, never the reverse (no hook, no getattr).
    root = Path(players.__file__).parent / "reference"
    forbidden = ("from thousand import strategies", "from thousand.strategies", "import thousand.strategies",
                 "from thousand import players", "from thousand.players", "import thousand.players")
    for source in root.glob("*.py"):
        text = source.read_text()
        assert not [f for f in forbidden if f in text], source.name


def test_a_seat_or_table_size_that_is_not_there_is_refused():
    # make_player took seat 7 at a table of 3; resolve_strategies(players=5) an IndexError
    import numpy as np
    from thousand.errors import ThousandError
    from thousand.players import make_player
    from thousand.reference.rng import Stream
    from thousand.rules import CLASSIC
    from thousand.strategies import resolve_strategies
    with pytest.raises(ThousandError, match="seat must be 0..2 at a table of 3, got 7"):
        make_player("standard", CLASSIC, 7, Stream(0))
    with pytest.raises(ThousandError, match="players must be 2, 3 or 4, got 5"):
        resolve_strategies("standard", 5)
    assert make_player("standard", CLASSIC, np.int64(2), Stream(0)) is not None
