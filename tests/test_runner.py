"""The runner's layers on their own: the seeding scheme and the worker pool."""
from __future__ import annotations

import os
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


def _last_unless_alone(item: tuple[int, str]) -> int:
    """Task 0 finishes only after another task has (or after a minute alone): an order of
    completion that no machine load can turn back into the order of the tasks."""
    task, marker = item
    if task == 0:
        deadline = time.monotonic() + 60
        while not os.path.exists(marker) and time.monotonic() < deadline:
            time.sleep(0.01)
    else:
        open(marker, "a").close()
    return task * task


@pytest.mark.parametrize("backend", ["threads", "loky"])
def test_ordered_results_follow_the_tasks_whatever_finishes_first(backend, tmp_path):
    def tasks(run: str) -> list[tuple[int, str]]:
        return [(t, str(tmp_path / run)) for t in range(6)]
    ordered = list(pool.run_tasks(_last_unless_alone, tasks("ordered"), backend=backend, jobs=2, ordered=True))
    assert ordered == [t * t for t in range(6)]
    unordered = list(pool.run_tasks(_last_unless_alone, tasks("unordered"), backend=backend, jobs=2))
    assert sorted(unordered) == ordered and unordered[0] != 0   # task 0 finished after another


def test_an_unknown_backend_is_a_one_line_error():
    from thousand.errors import ThousandError
    with pytest.raises(ThousandError, match="unknown backend 'mpi'"):
        list(pool.run_tasks(_last_unless_alone, [(1, "")], backend="mpi"))
