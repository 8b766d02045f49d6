"""Type stub of the compiled kernel ``thousand._fastdeal`` (built from src/_fastdeal.pyx).

Use it through :mod:`thousand.kernel` (batch entry points) and :mod:`thousand.strategies`
(names, parameters, :class:`~thousand.strategies.KernelPlayer`).
"""
from typing import Any, Sequence

import numpy as np
import numpy.typing as npt

KERNEL_VERSION: int
N_RULES: int
N_STRATEGY_PARAMS: int
EVENT_COLUMNS: int
RESIGN_CODE: int
RULE_FIELDS: dict[str, int]
EVENT_KINDS: dict[str, int]
CHOICE_CODES: dict[str, dict[str, int]]
STRATEGY_CODES: dict[str, int]
STRATEGY_BRANCHES: dict[str, int]
REDEAL_CODES: dict[str, int]
DECISION_KINDS: dict[str, int]

def deal_row_size() -> int: ...
def game_row_size() -> int: ...
VIEW_FIELDS: tuple[tuple[str, int], ...]
VIEW_UNSIGNED: frozenset[str]

def view_size() -> int: ...
def view_bytes(view: dict[str, Any], rules: npt.NDArray[np.int32] | None = ...) -> bytes: ...

class Engine:
    next_deal_id: int
    next_game_id: int
    played: int
    max_events_per_deal: int
    def __init__(self, bitgen: np.random.BitGenerator, rules: npt.NDArray[np.int32],
                 strategies: npt.NDArray[np.int32], params: npt.NDArray[np.float64],
                 decisions: np.random.BitGenerator | None = ...,
                 workspaces: Sequence[npt.NDArray[np.uint8] | None] | None = ...) -> None: ...
    @property
    def separate_streams(self) -> bool: ...
    n_views: int
    def log_views(self, buf: npt.NDArray[np.uint8] | None) -> None: ...
    def run_deals(self, n_deals: int, cols: dict[str, np.ndarray], capacity: int,
                  events: npt.NDArray[np.int32] | None, n_rows: int, n_events: int,
                  chosen: npt.NDArray[np.int64] | None = ...) -> tuple[int, int]: ...
    def run_games(self, n_games: int, games: npt.NDArray[np.uint8], n_game_rows: int,
                  cols: dict[str, np.ndarray] | None, capacity: int, n_rows: int,
                  events: npt.NDArray[np.int32] | None, n_events: int,
                  chosen: npt.NDArray[np.int64] | None = ...) -> tuple[int, int, int]: ...
    def run_forced(self, hand: int, declarer: int, contract: int, n_samples: int, exact: bool,
                   talon_out: npt.NDArray[np.uint32], raise_out: npt.NDArray[np.int16],
                   points_out: npt.NDArray[np.int16], marriages_out: npt.NDArray[np.int16],
                   declarer_points_out: npt.NDArray[np.int16], bolt_out: npt.NDArray[np.int8],
                   rows: npt.NDArray[np.uint8]) -> int: ...

def decide(kind: str | int, strategy: int, params: Sequence[float], view: dict[str, Any],
           bitgen: np.random.BitGenerator | None = ...,
           rules: npt.NDArray[np.int32] | None = ...,
           work: npt.NDArray[np.uint8] | None = ...) -> int | tuple[int, int]: ...
def pimc_tally(kind: str | int, strategy: int, params: Sequence[float], view: dict[str, Any],
               bitgen: np.random.BitGenerator | None = ...,
               rules: npt.NDArray[np.int32] | None = ...,
               work: npt.NDArray[np.uint8] | None = ...) -> tuple[int, int, list[Any]] | None: ...
def strategy_branch_of(code: int) -> str | None: ...

class _PlayLayerForTests:
    """Test helper (tests/test_play_layer.py): one PlayState driven through the play layer."""
    def __init__(self, rules: npt.NDArray[np.int32], hands: Sequence[int], active: Sequence[int],
                 leader: int, set_aside_points: int = ...) -> None: ...
    def legal(self) -> int: ...
    def declarable(self) -> int: ...
    def trick_winner(self) -> int: ...
    def play(self, card: int, declare: bool = ..., undoable: bool = ...) -> int: ...
    def undo(self) -> None: ...
    def perft(self, depth: int) -> int: ...
    def raw(self) -> bytes: ...
    def rules(self) -> dict[str, int]: ...
    def state(self) -> dict[str, Any]: ...

# the open-hand solver (src/_solver.pxi); thousand.solver is the API over these
def _solve_batch(rules: npt.NDArray[np.int32], positions: npt.NDArray[np.int32], table: npt.NDArray[np.uint8],
                 targets: npt.NDArray[np.int32], out: npt.NDArray[np.int32], nanos: npt.NDArray[np.int64],
                 nodes: npt.NDArray[np.int64], flags: int = ...) -> int: ...
def _solve_cards(rules: npt.NDArray[np.int32], position: npt.NDArray[np.int32], table: npt.NDArray[np.uint8],
                 out: npt.NDArray[np.int32], flags: int = ...) -> int: ...
def _pimc_worlds(view: dict[str, Any], rules: npt.NDArray[np.int32], worlds: int, seed: int = ...,
                 start: bool = ..., handed_off: bool = ...) -> tuple[int, bool, list[tuple[list[int], int, int]]]: ...
def _solve_hand_offs(rules: npt.NDArray[np.int32], position: npt.NDArray[np.int32], table: npt.NDArray[np.uint8],
                     out: npt.NDArray[np.int32], flags: int = ..., best_only: bool = ...) -> tuple[int, int]: ...
