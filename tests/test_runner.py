"""The runner's layers on their own: the seeding scheme and the worker pool."""
from __future__ import annotations

import time

import numpy as np
import pytest

from thousand.runner import pool, seeding


@pytest.mark.parametrize("key", [(0,), (3,), (2, 5)])
def test_tagged_streams_never_meet_the_chunk_or_unit_streams(key):
    chance = np.random.SeedSequence(11, spawn_key=key).generate_state(4)
    decision = seeding.decision_seed(11, *key).generate_state(4)
    assert not np.array_equal(chance, decision)
    assert seeding.decision_seed(11, *key).spawn_key == key   # the same key as its chance stream
    # the unit streams are the chunk stream's children, built without spawning
    assert np.array_equal(seeding.unit_seed(11, 4, 7).generate_state(2),
                          seeding.chunk_seed(11, 4).spawn(8)[7].generate_state(2))


def _slow_first(task: int) -> int:
    time.sleep(0.3 if task == 0 else 0.01)
    return task * task


@pytest.mark.parametrize("backend", ["threads", "loky"])
def test_ordered_results_follow_the_tasks_whatever_finishes_first(backend):
    tasks = list(range(6))
    ordered = list(pool.run_tasks(_slow_first, tasks, backend=backend, jobs=2, ordered=True))
    assert ordered == [t * t for t in tasks]
    unordered = list(pool.run_tasks(_slow_first, tasks, backend=backend, jobs=2))
    assert sorted(unordered) == ordered and unordered != ordered   # task 0 came last


def test_an_unknown_backend_is_a_one_line_error():
    from thousand.errors import ThousandError
    with pytest.raises(ThousandError, match="unknown backend 'mpi'"):
        list(pool.run_tasks(_slow_first, [1], backend="mpi"))
