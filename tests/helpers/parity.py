"""The kernel against the reference engine, deal by deal and game by game.

* :func:`check_deals` / :func:`check_games`: the kernel plays (trace mode) and the
  reference engine replays every trace: every decision legal, every column of every deal
  row and game row identical, the scores after each deal identical.
* :func:`compare_reference_rows` / :func:`compare_reference_games`: the reference engine
  played the same seed itself (``RandomPlayer`` on the kernel's stream, or
  ``KernelPlayer``s asking the kernel one decision at a time); its rows must be the
  kernel's.

A failure names the deal (or game) and what differs, writes its trace (both engines'
when both played) and ends with the ``thousand explain --replay FILE`` command that
prints it (:mod:`helpers.artifacts`).
"""
from __future__ import annotations

from typing import Callable, Sequence

import numpy as np

from thousand import kernel
from thousand.errors import IllegalDecision
from thousand.reference import DealResult, GameResult, play_deal, replay_deal, replay_game
from thousand.rules import Rules
from thousand.schema import deal_columns, game_columns
from thousand.trace import DealTrace, GameTrace

from .artifacts import failure

__all__ = ["ROW_NAMES", "deal_names", "check_deals", "check_games", "compare_deal_rows", "compare_game_rows",
           "reference_deals", "compare_reference_rows", "compare_reference_games"]

# columns that number rows rather than describe the deal
ROW_NAMES = ("deal_id", "chunk", "game_id", "deal_no")


def deal_names(players: int) -> list[str]:
    """The deal columns both engines must agree on."""
    return [c for c in deal_columns(players) if c not in ROW_NAMES]


def _int16(v: int) -> int:
    return int(np.int64(v).astype(np.int16))


def _game_value(games: dict[str, np.ndarray], column: str, value: int) -> int:
    """A reference game counter as the kernel's column stores it (int16 columns wrap)."""
    return _int16(value) if games[column].dtype == np.int16 else int(value)


def _differences(got: dict, want: dict) -> list[tuple[str, int, int]]:
    return [(c, got[c], want[c]) for c in got if got[c] != want[c]]


# --------------------------------------------------------------------------- kernel traces replayed
def compare_deal_rows(rules: Rules, cols: dict[str, np.ndarray], traces: Sequence[DealTrace]) -> int:
    """Replay every kernel deal trace through the reference engine and compare the rows."""
    __tracebackhide__ = True    # a failure points at the test's call; the message says the rest
    names = deal_names(rules.players)
    for i, tr in enumerate(traces):
        try:
            row = replay_deal(rules, tr).to_row()
        except IllegalDecision as e:
            raise AssertionError(failure(f"kernel deal row {i}: the reference engine refuses the kernel's "
                                         f"trace: {e}", rules, tr, f"deal{i}")) from None
        diff = _differences({c: int(cols[c][i]) for c in names}, {c: int(row[c]) for c in names})
        if diff:
            raise AssertionError(failure(f"kernel deal row {i}: columns differ (column, kernel, reference): "
                                         f"{diff}", rules, tr, f"deal{i}"))
    return len(traces)


def check_deals(rules: Rules, strategy, n: int, seed) -> int:
    """``n`` kernel deals (``seed``: anything ``np.random.PCG64`` takes) replayed; the rows compared."""
    __tracebackhide__ = True    # a failure points at the test's call; the message says the rest
    cols, ev = kernel.play_deals(np.random.PCG64(seed), rules, strategy, n_deals=n, trace=True)
    return compare_deal_rows(rules, cols, kernel.deal_traces(cols, ev, rules.players))


def compare_game_rows(rules: Rules, games: dict[str, np.ndarray], deals: dict[str, np.ndarray],
                      traces: dict[int, GameTrace]) -> list[GameResult]:
    """Replay every kernel game trace; game rows and the scores after each deal compared.
    Returns the reference engine's games (for tests that look at what happened in them)."""
    __tracebackhide__ = True    # a failure points at the test's call; the message says the rest
    n = len(games["game_id"])
    assert sorted(traces) == list(range(n)), f"game traces for {sorted(traces)}, expected 0..{n - 1}"
    results = []
    for k, gt in traces.items():
        try:
            res = replay_game(rules, gt)
        except IllegalDecision as e:
            raise AssertionError(failure(f"kernel game {k}: the reference engine refuses the kernel's trace: {e}",
                                         rules, gt, f"game{k}")) from None
        row = res.to_row(game_id=k)
        names = [c for c in game_columns(rules.players) if c != "chunk"]
        diff = _differences({c: int(games[c][k]) for c in names},
                            {c: _game_value(games, c, row[c]) for c in names})
        if diff:
            raise AssertionError(failure(f"kernel game {k}: game columns differ (column, kernel, reference): {diff}",
                                         rules, gt, f"game{k}"))
        played = (deals["game_id"] == k) & (deals["redeal"] == 0)
        history = np.stack([deals[f"total{s}"][played] for s in range(rules.players)], 1).tolist()
        if history != res.history:
            j = next((j for j, (a, b) in enumerate(zip(history, res.history)) if a != b),
                     min(len(history), len(res.history)))
            kernel_after = history[j] if j < len(history) else "no deal"
            reference_after = res.history[j] if j < len(res.history) else "no deal"
            raise AssertionError(failure(f"kernel game {k}: the scores after played deal {j} differ: kernel "
                                         f"{kernel_after}, reference {reference_after}", rules, gt, f"game{k}"))
        results.append(res)
    return results


def check_games(rules: Rules, strategy, n: int, seed) -> list[GameResult]:
    """``n`` kernel games replayed; rows and score histories compared."""
    __tracebackhide__ = True    # a failure points at the test's call; the message says the rest
    games, deals, ev = kernel.play_games(np.random.PCG64(seed), rules, strategy, n_games=n, trace=True)
    return compare_game_rows(rules, games, deals, kernel.game_traces(rules, games, deals, ev))


# --------------------------------------------------------------------------- the reference engine playing
def reference_deals(rules: Rules, players, stream, n: int) -> list[DealResult]:
    """Deals played by the reference engine until ``n`` are played (redeals included),
    the dealer moving as in a deal-only run of the kernel (from seat 0)."""
    results, dealer, played = [], 0, 0
    while played < n:
        res = play_deal(rules, players, stream, dealer)
        results.append(res)
        if not res.is_redeal:
            played += 1
            dealer = (dealer + 1) % rules.players
    return results


def compare_reference_rows(rules: Rules, cols: dict[str, np.ndarray], results: Sequence[DealResult],
                           kernel_traces: Callable[[], list[DealTrace]] | None = None,
                           what: str = "the reference engine") -> None:
    """The reference engine's deals (``results``) against the kernel's rows (``cols``).

    On a difference both deals are written: the reference engine's trace, and the
    kernel's when ``kernel_traces`` (the same run in trace mode) is given."""
    __tracebackhide__ = True    # a failure points at the test's call; the message says the rest
    names = deal_names(rules.players)
    n_kernel = len(cols["deal_id"])
    for i, res in enumerate(results[:n_kernel]):
        row = res.to_row()
        diff = _differences({c: int(cols[c][i]) for c in names}, {c: int(row[c]) for c in names})
        if diff:
            message = f"deal row {i}: {what} and the kernel differ (column, kernel, reference): {diff}"
            message = failure(message, rules, res.trace, f"deal{i}-reference")
            if kernel_traces is not None:
                message = failure(message, rules, kernel_traces()[i], f"deal{i}-kernel")
            raise AssertionError(message)
    assert len(results) == n_kernel, f"{what} dealt {len(results)} deals, the kernel {n_kernel}"


def compare_reference_games(rules: Rules, games: dict[str, np.ndarray], results: Sequence[GameResult],
                            kernel_traces: Callable[[], dict[int, GameTrace]] | None = None,
                            what: str = "the reference engine") -> None:
    """The reference engine's games against the kernel's game rows, game by game."""
    __tracebackhide__ = True    # a failure points at the test's call; the message says the rest
    names = [c for c in game_columns(rules.players) if c != "chunk"]
    for k, res in enumerate(results):
        row = res.to_row(game_id=k)
        diff = _differences({c: int(games[c][k]) for c in names},
                            {c: _game_value(games, c, row[c]) for c in names})
        if diff:
            message = f"game {k}: {what} and the kernel differ (column, kernel, reference): {diff}"
            message = failure(message, rules, res.trace, f"game{k}-reference")
            if kernel_traces is not None:
                message = failure(message, rules, kernel_traces()[k], f"game{k}-kernel")
            raise AssertionError(message)
