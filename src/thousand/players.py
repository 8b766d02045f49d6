"""One registry of players: a spec such as ``standard:margin=10`` -> a player at a seat.

A player is what the reference engine asks at every decision (the six methods of
:class:`~thousand.reference.players.Player`).  Every kind of player is registered here,
once, under its name, with a factory ``make(rules, seat, stream, params) -> Player``:

* the reference engine's own players, ``random`` (uniform legal choices, the same draws
  as the kernel's ``random`` strategy) and ``passive``;
* every kernel strategy of :data:`thousand.strategies.STRATEGIES` (``greedy``,
  ``standard``, ``cautious``, ``aggressive``, ...), played decision by decision through
  the kernel as a :class:`~thousand.strategies.KernelPlayer`.

A new kind of player (a search player, a person at a table) registers the same way::

    register(PlayerKind("human", "a person at the terminal", make_human, in_kernel=False))

``in_kernel`` says whether the batch runner (``simulate``, ``compare``) can play it: the
kernel's strategies can, players that exist only in Python cannot.  The reference
engine's modules never import this one: the registry depends on them, not the reverse.

>>> from thousand.reference import Stream
>>> from thousand.rules import CLASSIC
>>> type(make_player("passive", CLASSIC, 0, Stream(1))).__name__
'PassivePlayer'
>>> parse_spec("standard: margin=10 ,talon=1.1")
('standard', {'margin': '10', 'talon': '1.1'})
"""
from __future__ import annotations

import numbers
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from thousand.errors import ThousandError
from thousand.reference.players import PassivePlayer, Player, RandomPlayer
from thousand.reference.rng import Stream
from thousand.rules import Rules

__all__ = ["PlayerKind", "register", "kinds", "names", "parse_spec", "make_player"]

#: ``make(rules, seat, stream, params) -> Player``; ``params`` are the spec's ``k=v`` items.
PlayerFactory = Callable[[Rules, int, Stream, dict[str, str]], Player]


@dataclass(frozen=True)
class PlayerKind:
    """A kind of player: its name in specs, a one-line description, and its factory."""

    name: str
    doc: str
    make: PlayerFactory
    in_kernel: bool = False         # the batch kernel can play it (a kernel strategy)
    takes_params: bool = True       # ``name:k=v`` is accepted (checked by the factory)


_REGISTERED: dict[str, PlayerKind] = {}


def register(kind: PlayerKind) -> None:
    """Make ``kind`` available under ``kind.name`` (replacing one of that name)."""
    _REGISTERED[kind.name] = kind


def _kernel_strategy(name: str, rules: Rules, seat: int, stream: Stream, params: dict[str, str]) -> Player:
    from thousand.strategies import KernelPlayer, parse_strategy

    # One parser for every entry point, so `explain` refuses what `simulate` refuses.
    spec = name + (":" + ",".join(f"{k}={v}" for k, v in params.items()) if params else "")
    parsed = parse_strategy(spec)
    # The kernel's ``random`` draws from the deal's stream: hand it the reference engine's.
    return KernelPlayer(parsed.name, parsed.given or None, bitgen=stream.bit_generator)


def kinds() -> dict[str, PlayerKind]:
    """Every player a spec can name: the kernel's strategies (read from
    :data:`thousand.strategies.STRATEGIES` when asked, so a strategy added there is a player
    at once), a registered player taking the place of a strategy of its name, then the
    other registered players."""
    from thousand.strategies import STRATEGIES

    out = {}
    for name, strategy in STRATEGIES.items():
        out[name] = _REGISTERED.get(name) or PlayerKind(
            name, strategy.doc,
            lambda rules, seat, stream, params, _name=name: _kernel_strategy(_name, rules, seat, stream, params),
            in_kernel=True)
    return {**out, **{name: kind for name, kind in _REGISTERED.items() if name not in out}}


def names(in_kernel: bool | None = None) -> list[str]:
    """The player names (only those the kernel can play, or only those it cannot)."""
    return [n for n, k in kinds().items() if in_kernel is None or k.in_kernel == in_kernel]


def parse_spec(spec: str) -> tuple[str, dict[str, str]]:
    """``NAME[:k=v,...]`` -> ``(name, {k: v})``, values as written (the factory checks them)."""
    if not isinstance(spec, str) or not spec.strip():
        raise ThousandError(f"bad player {spec!r}: write NAME or NAME:k=v,...")
    name, _, rest = spec.strip().partition(":")
    params: dict[str, str] = {}
    for item in (i.strip() for i in rest.split(",")):
        if not item:
            continue
        if "=" not in item:
            raise ThousandError(f"bad player parameter {item!r} in {spec!r}: write NAME:k=v,...")
        k, v = item.split("=", 1)
        if k.strip() in params:   # as thousand.strategies refuses it: no silent last-one-wins
            raise ThousandError(f"player parameter {k.strip()} is given twice in {spec!r}")
        params[k.strip()] = v.strip()
    return name.strip(), params


def make_player(spec: str, rules: Rules, seat: int, stream: Stream) -> Player:
    """The player ``spec`` names, for ``seat`` under ``rules``, drawing from ``stream``."""
    if isinstance(seat, bool) or not isinstance(seat, numbers.Integral) or not 0 <= seat < rules.players:
        raise ThousandError(f"seat must be 0..{rules.players - 1} at a table of {rules.players}, got {seat!r}")
    name, params = parse_spec(spec)
    available = kinds()
    kind = available.get(name.lower())
    if kind is None:
        raise ThousandError(f"unknown player {name!r}: use {', '.join(available)}")
    if params and not kind.takes_params:
        raise ThousandError(f"player {kind.name!r} takes no parameters, got {spec.partition(':')[2].strip()!r}")
    return kind.make(rules, seat, stream, params)


def _reference(player: Callable[[Stream], Player]) -> PlayerFactory:
    def make(rules: Rules, seat: int, stream: Stream, params: dict[str, Any]) -> Player:
        return player(stream)
    return make


register(PlayerKind("random", "uniform legal choices drawn from the deal's stream (the reference engine's "
                              "RandomPlayer: the same draws as the kernel's random strategy)",
                    _reference(RandomPlayer), in_kernel=True, takes_params=False))
register(PlayerKind("passive", "never blind, never redeals, passes, plays its lowest legal card: a test player",
                    _reference(lambda stream: PassivePlayer()), takes_params=False))
