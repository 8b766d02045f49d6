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
REDEAL_CODES: dict[str, int]
DECISION_KINDS: dict[str, int]

def deal_row_size() -> int: ...
def game_row_size() -> int: ...
VIEW_FIELDS: tuple[tuple[str, int], ...]
VIEW_UNSIGNED: frozenset[str]

def view_size() -> int: ...
def view_bytes(view: dict[str, Any]) -> bytes: ...

class Engine:
    next_deal_id: int
    next_game_id: int
    played: int
    max_events_per_deal: int
    def __init__(self, bitgen: np.random.BitGenerator, rules: npt.NDArray[np.int32],
                 strategies: npt.NDArray[np.int32], params: npt.NDArray[np.float64]) -> None: ...
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

def decide_blind(strategy: int, params: Sequence[float], view: dict[str, Any],
                 bitgen: np.random.BitGenerator | None = ...) -> int: ...
def decide_redeal(strategy: int, params: Sequence[float], view: dict[str, Any],
                  bitgen: np.random.BitGenerator | None = ...) -> int: ...
def decide_bid(strategy: int, params: Sequence[float], view: dict[str, Any],
               bitgen: np.random.BitGenerator | None = ...) -> int: ...
def decide_hand_off(strategy: int, params: Sequence[float], view: dict[str, Any],
                    bitgen: np.random.BitGenerator | None = ...) -> tuple[int, int]: ...
def decide_raise_or_resign(strategy: int, params: Sequence[float], view: dict[str, Any],
                           bitgen: np.random.BitGenerator | None = ...) -> int: ...
def decide_play(strategy: int, params: Sequence[float], view: dict[str, Any],
                bitgen: np.random.BitGenerator | None = ...) -> tuple[int, int]: ...
