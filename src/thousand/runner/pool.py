"""The worker pool: run tasks on loky processes, threads of this process, or a Dask cluster.

One entry, :func:`run_tasks`, for every parallel loop of the tool (``simulate``,
``games``, ``compare``, the report's forced-declarer hands).  It yields each task's
result, as it finishes or in task order; the caller wraps the iterator in
``contextlib.closing`` so that whatever stops its loop (Ctrl-C, an error) stops the pool
at once.  What the pool takes care of, once for all of them:

- loky workers start with SIGINT blocked, so the Ctrl-C a terminal sends to the whole
  process group reaches only the run's own process, which stops them and reports the
  interruption in one line (a worker still importing would otherwise die of it with a
  traceback of its own on the user's screen);
- each loky worker sizes polars' thread pool to its share of the cores, as joblib does
  for OpenMP and BLAS;
- the resource trackers start quiet about the semaphores they remove after a stopped
  run (their warnings would follow its one-line message);
- a worker process whose owner (the run's process) dies is killed by Linux with it
  (``PR_SET_PDEATHSIG``): a run killed outright leaves no orphans computing;
- the threads backend keeps only ``jobs`` tasks in flight, so an interruption has nothing
  queued to drain and no task runs after :func:`run_tasks` has returned;
- a Dask run connects to the given scheduler (with a timeout) or starts a LocalCluster
  of ``jobs`` processes for the run, deaf to Ctrl-C like loky's workers.

Nothing here knows what a task computes: results never depend on the backend or the
number of workers, because the tasks carry their own seeds (:mod:`.seeding`).
"""
from __future__ import annotations

import contextlib
import ctypes
import functools
import itertools
import logging
import os
import re
import signal
import socket
import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, BrokenExecutor, ThreadPoolExecutor, wait
from typing import Any, TypeVar

from thousand.errors import ThousandError

__all__ = ["BACKENDS", "run_tasks", "loky_backend", "die_with_owner", "keep_freed_memory", "killed_by_interrupt", "memory_refused", "check_backend", "check_scheduler",
           "exception_chain", "worker_death", "progress_bar", "children_deaf_to_ctrl_c", "stop_signals_interrupt",
           "Interrupted", "STOP_SIGNALS", "DASK_CONNECT_TIMEOUT", "SchedulerLost"]

BACKENDS = ("loky", "threads", "dask")
DASK_CONNECT_TIMEOUT = "10s"

T = TypeVar("T")
R = TypeVar("R")


# Called once, with the requested jobs and the backend, when run_tasks first starts work:
# the CLI's note about more jobs than cores goes there, so that a command refused before
# any work (a bad option) says only its error.
before_first_run: Callable[[int, str], None] | None = None


def check_backend(backend: str) -> None:
    """One line, before any work, for a backend that is not one or cannot run here (the
    dask one without ``dask[distributed]`` installed)."""
    if backend not in BACKENDS:
        raise ThousandError(f"unknown backend {backend!r}: use {', '.join(BACKENDS)}")
    if backend == "dask":
        import importlib.util
        if importlib.util.find_spec("distributed") is None or importlib.util.find_spec("dask") is None:
            raise ThousandError("the dask backend needs dask[distributed]: pip install 'thousand[dask]'")


def check_scheduler(backend: str, scheduler: str | None) -> None:
    """One line for a scheduler address that cannot be used: one given without the dask
    backend, or an empty one."""
    if scheduler is not None and not scheduler.strip():
        raise ThousandError("--scheduler is empty: give the scheduler's address, e.g. tcp://10.0.0.5:8786")
    if scheduler is not None and backend != "dask":
        raise ThousandError("--scheduler goes with --backend dask")


def run_tasks(fn: Callable[[T], R], tasks: Sequence[T], *, backend: str = "loky", jobs: int = 1,
              scheduler: str | None = None, ordered: bool = False) -> Iterator[R]:
    """``fn(task)`` for every task, on ``jobs`` workers of ``backend``; yields the results.

    ``ordered``: in the order of ``tasks`` (else as they finish).  ``jobs`` is capped at
    the number of tasks (more workers would only cost start-up time); ``-1`` is every
    core.  ``fn`` and the tasks must pickle for ``loky`` and ``dask``.
    """
    check_backend(backend)
    global before_first_run
    if before_first_run is not None:
        hook, before_first_run = before_first_run, None
        hook(jobs, backend)
    jobs = max(1, min(jobs if jobs > 0 else (os.cpu_count() or 1), len(tasks)))
    if backend == "threads":
        yield from _run_threads(fn, tasks, jobs, ordered)
        return
    from joblib import Parallel, delayed, parallel_config

    return_as = "generator" if ordered else "generator_unordered"
    if backend == "dask":
        from asyncio import CancelledError as LoopCancelled   # a BaseException since 3.8
        from concurrent.futures import CancelledError

        from distributed.comm.core import CommClosedError
        client, close = _dask_client(scheduler, jobs)
        try:
            with parallel_config(backend="dask"):
                yield from Parallel(n_jobs=-1, return_as=return_as)(delayed(fn)(t) for t in tasks)
        except (CancelledError, LoopCancelled, CommClosedError) as e:
            # the scheduler stopped or its connection broke: Dask cancels every task left
            reason = re.search(r"reason: ([\w-]+)", str(e))
            why = reason.group(1) if reason else type(e).__name__
            raise SchedulerLost(f"the Dask scheduler was lost ({why})") from None
        finally:
            close()
        return
    owner = os.getpid()
    with children_deaf_to_ctrl_c():   # joblib's first use of loky's resource tracker starts it
        pass
    calls = (delayed(_in_worker)(owner, fn, t) for t in tasks)
    yield from Parallel(n_jobs=jobs, backend=loky_backend(), return_as=return_as)(calls)


class SchedulerLost(BrokenExecutor):
    """The Dask scheduler went away in the middle of a run: like a worker pool that broke,
    what the finished tasks wrote is kept."""


def _in_worker(owner: int, fn: Callable[[T], R], task: T) -> R:
    """``fn(task)`` in a loky worker that dies with ``owner``, the process of the run."""
    die_with_owner(owner)
    return fn(task)


def _run_threads(fn: Callable[[T], R], tasks: Iterable[T], jobs: int, ordered: bool) -> Iterator[R]:
    """Run the tasks on ``jobs`` threads of this process (the kernel and polars release the GIL).

    Only ``jobs`` tasks are in flight at a time, so that an interruption (Ctrl-C, an
    error, the caller closing this generator) has nothing queued to drain: it waits for
    the tasks being computed to finish (a chunk's file is then written whole), so no
    finished work is lost and no file appears after the run has returned, and then
    propagates.  (joblib's threading backend leaves its threads running after an
    interruption, still writing chunks.)
    """
    pending = enumerate(tasks)
    finished: dict[int, R] = {}
    next_index = 0
    with ThreadPoolExecutor(jobs, thread_name_prefix="thousand-chunk") as pool:
        running = {pool.submit(_indexed, fn, i, t) for i, t in itertools.islice(pending, jobs)}
        try:
            while running:
                done, running = wait(running, return_when=FIRST_COMPLETED)
                # several may have finished by the time this thread looks: in the order
                # they finished (a set has none)
                for future in sorted(done, key=lambda f: f.result()[2] if f.exception() is None else 0):
                    index, result, _ = future.result()
                    task = next(pending, None)
                    if task is not None:
                        running.add(pool.submit(_indexed, fn, *task))
                    if not ordered:
                        yield result
                        continue
                    finished[index] = result
                    while next_index in finished:
                        yield finished.pop(next_index)
                        next_index += 1
        except BaseException:
            # A thread cannot be stopped inside the kernel (it runs without the GIL), so
            # even a second Ctrl-C here only skips the wait: the threads end their task.
            wait(running)
            raise


def _indexed(fn: Callable[[T], R], index: int, task: T) -> tuple[int, R, int]:
    """The task's index, its result and when it finished."""
    result = fn(task)
    return index, result, time.monotonic_ns()


# --------------------------------------------------------------------------- loky
def loky_backend() -> Any:
    """joblib's loky backend as the runner's worker processes need it.

    - polars' thread pool is sized per worker: joblib gives each of ``jobs`` workers
      ``cpu_count // jobs`` threads for the native pools it knows (OpenMP, BLAS, ...) so
      that workers do not oversubscribe the cores, and ``POLARS_MAX_THREADS`` is set the
      same way (read when polars is first imported, which in a fresh worker happens
      after joblib set the environment).  Otherwise every worker's polars starts a
      thread per core for the Parquet work it still does (compressed runs, analysis),
      and two workers on two cores fight over four threads.
    - The workers start with SIGINT blocked, as the standard library starts its
      resource tracker (bpo-33613).  Ctrl-C in a terminal goes to the whole process
      group; a worker still importing would die of it with a traceback of its own on
      the user's screen.  Blocked, only the run's own process sees Ctrl-C, and joblib
      then stops the workers; the run reports the interruption in one line.
    """
    from joblib.parallel import LokyBackend

    class RunnerLokyBackend(LokyBackend):
        MAX_NUM_THREADS_VARS = [*LokyBackend.MAX_NUM_THREADS_VARS, "POLARS_MAX_THREADS"]

        def configure(self, *args: Any, **kwargs: Any) -> int:
            n_jobs = super().configure(*args, **kwargs)
            _spawn_without_sigint(self._workers)
            return n_jobs

    return RunnerLokyBackend()


def _spawn_without_sigint(executor: Any) -> None:
    """Have ``executor`` (a loky executor) start its worker processes with SIGINT blocked.

    loky starts workers in ``_adjust_process_count``, from whichever thread submits work
    or replaces a worker; the wrapper blocks SIGINT in that thread only while it starts
    them.  A loky without that method is left as it is.
    """
    start = getattr(executor, "_adjust_process_count", None)
    if start is None or getattr(start, "blocks_sigint", False):
        return

    def start_workers() -> None:
        with children_deaf_to_ctrl_c():
            start()

    start_workers.blocks_sigint = True  # type: ignore[attr-defined]
    executor._adjust_process_count = start_workers


@contextlib.contextmanager
def children_deaf_to_ctrl_c() -> Iterator[None]:
    """Block SIGINT, SIGTERM and SIGHUP in this thread meanwhile: processes and threads
    started from it inherit the blocked signals (through fork and exec too; Python leaves
    the mask as it finds it).

    Ctrl-C in a terminal goes to the whole process group, and so do the SIGHUP of a closed
    terminal and the SIGTERM a service manager sends to a group.  A worker process would
    die of them (with a traceback of its own on the user's screen, or a "worker died"
    instead of the interruption); blocked, only the run's own process sees them, stops its
    workers (loky kills them with SIGKILL) and reports the interruption in one line.  A
    signal sent meanwhile waits until the block ends.
    """
    if not hasattr(signal, "pthread_sigmask"):
        yield
        return
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, set(STOP_SIGNALS))
    try:
        # The resource trackers (multiprocessing's and loky's) ignore SIGINT and SIGTERM
        # but would die of a closed terminal's SIGHUP (then warn, relaunch, and print
        # tracebacks about resources they no longer know): start them with it blocked.
        # The standard library's start unblocks SIGINT and SIGTERM in this thread again
        # (Python 3.11), hence the block after it.
        _start_resource_trackers()
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT, *STOP_SIGNALS})
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


def _start_resource_trackers() -> None:
    from multiprocessing import resource_tracker
    with _trackers_quiet_about_leaks():
        resource_tracker.ensure_running()
        try:
            from joblib.externals.loky.backend import resource_tracker as loky_tracker
        except ImportError:  # pragma: no cover - joblib without loky
            return
        loky_tracker.ensure_running()


#: The warnings a resource tracker prints when it removes what a process left behind
#: ("resource_tracker: There appear to be 1 leaked semlock objects to clean up at
#: shutdown", then the name and error of each).
_TRACKER_LEAK_WARNINGS = "ignore:resource_tracker:UserWarning"


@contextlib.contextmanager
def _trackers_quiet_about_leaks() -> Iterator[None]:
    """Meanwhile a resource tracker this process starts keeps its leak warnings to itself.

    A stopped run kills its loky workers (SIGKILL) and exits at once.  Now and then (seen
    once in a full test suite under load, the process group stopped by SIGTERM) loky's
    tracker was left holding a semaphore of the executor that the run had already
    removed; at its own exit it removed it again and printed two warnings under the
    run's one-line message.  Removing leftovers is the trackers' job; the warnings tell
    the user nothing they can act on.  The trackers start with the interpreter's ``-W``
    options (``sys.warnoptions``), so one more option there silences only those
    warnings, and only in the trackers (this process's filters were set at its start).
    """
    added = _TRACKER_LEAK_WARNINGS not in sys.warnoptions
    if added:
        sys.warnoptions.append(_TRACKER_LEAK_WARNINGS)
    try:
        yield
    finally:
        if added:
            sys.warnoptions.remove(_TRACKER_LEAK_WARNINGS)


#: The signals that ask a run to stop besides Ctrl-C: ``kill PID`` and a closed terminal.
STOP_SIGNALS = tuple(getattr(signal, name) for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name))


class Interrupted(KeyboardInterrupt):
    """SIGTERM or SIGHUP, handled like Ctrl-C; ``signum`` says which."""

    def __init__(self, signum: int) -> None:
        super().__init__(signal.Signals(signum).name)
        self.signum = signum


def _raise_interrupted(signum: int, frame: Any) -> None:
    raise Interrupted(signum)


@contextlib.contextmanager
def stop_signals_interrupt() -> Iterator[None]:
    """Meanwhile SIGTERM and SIGHUP raise :class:`Interrupted` (a ``KeyboardInterrupt``), so
    that a run stopped by ``kill`` or a closed terminal stops as on Ctrl-C: its pool shut
    down, what it wrote kept (or its temporary dataset removed), one line said.

    Only in the main thread (where Python runs signal handlers), and only for a signal
    still at its default action: a program that set its own handler keeps it.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    installed = {sig: signal.signal(sig, _raise_interrupted) for sig in STOP_SIGNALS
                 if signal.getsignal(sig) is signal.SIG_DFL}
    try:
        yield
    finally:
        for sig, previous in installed.items():
            signal.signal(sig, previous)


_PR_SET_PDEATHSIG = 1
_DEATH_SIGNAL_ARMED: int | None = None


def die_with_owner(owner: int | None) -> None:
    """In a worker process: have Linux kill it when ``owner``, the run's process, dies.

    A run killed outright (SIGKILL, the out-of-memory killer) cannot stop its loky
    workers, which would otherwise go on computing chunks nobody reads.  A no-op in the
    owner itself (threads, one job), off Linux, and without an owner (Dask workers are
    the cluster's); a worker whose owner is already gone exits instead of starting a task.
    """
    global _DEATH_SIGNAL_ARMED
    if owner is None or os.getpid() == owner or not sys.platform.startswith("linux"):
        return
    if _DEATH_SIGNAL_ARMED != owner:
        try:
            if ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0) == 0:
                _DEATH_SIGNAL_ARMED = owner
        except (OSError, AttributeError):  # no C library, or one without prctl
            pass
    if os.getppid() != owner:
        os._exit(1)


# glibc's malloc parameters (mallopt): no trimming below this much free heap, and no
# mmap below this size.  See keep_freed_memory.
_M_TRIM_THRESHOLD, _M_MMAP_THRESHOLD = -1, -3
_KEEP_FREE_BYTES = 256 << 20
_MMAP_ABOVE_BYTES = 32 << 20  # glibc's largest allowed value (64-bit)


@functools.cache
def keep_freed_memory() -> bool:
    """Let this process keep the memory of one chunk for the next (glibc only; once).

    A chunk's columns (tens of megabytes) are freed when its file is written.  By
    default glibc hands such memory back to the OS at once (it maps blocks larger than
    its threshold separately and trims the heap's top), so every chunk page-faults all
    its columns in again: about 8,000 faults and 20-40 ms of system time per chunk of
    250,000 deals, a tenth of the chunk's CPU.  Raising both thresholds keeps freed
    memory in the heap for the next chunk; the process holds at most what it already
    used.  Called by every chunk (and so, with one worker, in the caller's process).
    Returns whether the setting was made.
    """
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(None)
        mallopt = libc.mallopt
    except (OSError, AttributeError):  # no C library to load, or one without mallopt
        return False
    mallopt.argtypes, mallopt.restype = (ctypes.c_int, ctypes.c_int), ctypes.c_int
    # Setting the trim threshold turns off glibc's dynamic thresholds, so the mmap one is
    # set too (else it would stay at its 128 kB start and map every column).
    # glibc returns 1 on success; other C libraries return 0 (unsupported) or lack it.
    return bool(mallopt(_M_MMAP_THRESHOLD, _MMAP_ABOVE_BYTES)) and bool(mallopt(_M_TRIM_THRESHOLD, _KEEP_FREE_BYTES))


# --------------------------------------------------------------------------- interruptions
def memory_refused(error: MemoryError) -> str:
    """What a refused allocation asked for, short: numpy's "Unable to allocate 58.6 MiB"
    without the array's shape and type."""
    return " ".join(str(error).split()).split(" for an array")[0] or "an allocation was refused"


def killed_by_interrupt(error: BaseException) -> bool:
    """Whether a broken worker pool is the work of Ctrl-C (SIGINT), SIGTERM or SIGHUP rather
    than a crash.

    loky names the workers' exit codes (``{SIGINT(-2)}``) in its error; a worker that
    caught the interrupt as an exception passes it on as the error's cause.
    """
    words = ("SIGINT", "SIGTERM", "SIGHUP", "KeyboardInterrupt")
    return any(isinstance(e, KeyboardInterrupt) or any(w in str(e) for w in words) for e in exception_chain(error))


def worker_death(error: BaseException) -> str | None:
    """A worker pool broken in ``error``'s chain, in words for a one-line error (``"a worker
    process died (exit codes {SIGKILL(-9)}: killed, as the system kills a process when
    memory runs out)"``); ``None`` when no pool broke.

    loky's message is a paragraph and its exit codes are the informative part (SIGKILL is
    also what the out-of-memory killer sends); a task or result that a worker could not
    load keeps loky's one sentence.
    """
    from concurrent.futures import BrokenExecutor

    for e in exception_chain(error):
        if isinstance(e, SchedulerLost):
            return str(e)
        if not isinstance(e, BrokenExecutor):
            continue
        codes = re.search(r"exit codes of the workers are (\{[^}]*\})", str(e))
        if codes is None:
            return f"a worker process died ({' '.join(str(e).split()) or type(e).__name__})"
        why = f"exit codes {codes.group(1)}"
        if "SIGKILL" in why:
            why += ": killed, as the system kills a process when memory runs out"
        return f"a worker process died ({why})"
    return None


def exception_chain(error: BaseException) -> list[BaseException]:
    """``error`` and what caused it, cause by cause (each once)."""
    chain: list[BaseException] = []
    seen: BaseException | None = error
    while seen is not None and not any(seen is c for c in chain):
        chain.append(seen)
        seen = seen.__cause__ or seen.__context__
    return chain


# --------------------------------------------------------------------------- dask
def _dask_client(scheduler: str | None, jobs: int) -> tuple[Any, Callable[[], None]]:
    """A ``distributed.Client`` for ``scheduler``, or on a new LocalCluster; and its closer."""
    try:
        from dask.distributed import Client, LocalCluster
    except ImportError:
        raise ThousandError("the dask backend needs dask[distributed]: pip install 'thousand[dask]'") from None
    if scheduler:
        _probe_scheduler(scheduler)
        try:
            client = Client(scheduler, timeout=DASK_CONNECT_TIMEOUT)
        except (OSError, TimeoutError, ValueError) as e:
            raise ThousandError(f"cannot reach the Dask scheduler at {scheduler!r}: {e}") from None
        try:
            # A scheduler without workers would take the chunks and never run them.
            client.wait_for_workers(1, timeout=DASK_CONNECT_TIMEOUT)
        except TimeoutError:
            client.close()
            raise ThousandError(f"the Dask scheduler at {scheduler!r} has no workers (none joined within "
                                f"{DASK_CONNECT_TIMEOUT}); start some with `dask worker {scheduler}`") from None
        return client, client.close
    # The cluster's processes and its event-loop thread start deaf to Ctrl-C, like loky's
    # workers: the run stops them itself.  Its log messages are the run's own business:
    # only errors are shown (closing it mid-run logs warnings about the tasks it drops).
    with children_deaf_to_ctrl_c():
        cluster = LocalCluster(n_workers=jobs, threads_per_worker=1, processes=True,
                               dashboard_address=":0", silence_logs=logging.ERROR)
        client = Client(cluster)

    def close() -> None:
        client.close()
        cluster.close()
    return client, close


def _probe_scheduler(address: str) -> None:
    """Connect to ``address`` and exchange Dask's handshake, all within
    :data:`DASK_CONNECT_TIMEOUT`, or raise a one-line :class:`ThousandError`.

    ``distributed.Client`` waits for the handshake without a limit: a service that
    accepts the connection but never answers would hang the run forever, and one that
    answers with something else (an HTTP server) makes it read a length of exabytes from
    the reply.  The probe runs on its own event loop in a thread of its own, so it also
    works where the caller already runs an event loop.
    """
    import asyncio

    from dask.utils import parse_timedelta
    from distributed.comm import connect

    # an address that cannot be one (no port, a port past 65535) is said so at once, not
    # after a connection's timeout or as a scheduler that does not answer
    hostport = re.fullmatch(r"(?:[a-z]+://)?(\[[^\]]*\]|[^:/\s]+):(\d+)", address)
    if hostport is None or not 0 < int(hostport.group(2)) < 65536:
        raise ThousandError(f"--scheduler {address!r} is not a Dask scheduler's address: write HOST:PORT "
                            f"or tcp://HOST:PORT, e.g. tcp://10.0.0.5:8786")
    seconds = parse_timedelta(DASK_CONNECT_TIMEOUT, default="seconds")
    if "://" not in address or address.startswith("tcp://"):
        # a port nobody listens on refuses at once; distributed's connect would retry it
        # until its timeout
        try:
            socket.create_connection((hostport.group(1).strip("[]"), int(hostport.group(2))), timeout=seconds).close()
        except ConnectionRefusedError:
            raise ThousandError(f"cannot reach the Dask scheduler at {address!r}: the connection was refused "
                                "(is a Dask scheduler listening there?)") from None
        except OSError:
            pass    # a timeout or a name not found: the handshake below says which
    outcome: list[BaseException | None] = []

    async def handshake() -> None:
        comm = await connect(address, timeout=seconds)
        await comm.close()

    def probe() -> None:
        try:
            asyncio.run(asyncio.wait_for(handshake(), seconds))
            outcome.append(None)
        except BaseException as e:  # noqa: BLE001 - every way of failing is reported below
            outcome.append(e)

    thread = threading.Thread(target=probe, name="thousand-dask-probe", daemon=True)
    thread.start()
    thread.join(seconds + 5)
    error = outcome[0] if outcome else TimeoutError()
    if error is None:
        return
    if isinstance(error, (TimeoutError, asyncio.TimeoutError)):
        why = f"no answer within {DASK_CONNECT_TIMEOUT} (is a Dask scheduler listening there?)"
    elif isinstance(error, OSError) and not isinstance(error, MemoryError):
        why = " ".join(str(error).split()) or type(error).__name__
    else:  # e.g. a length of exabytes read from an HTTP reply
        why = f"it does not answer as a Dask scheduler does ({type(error).__name__})"
    raise ThousandError(f"cannot reach the Dask scheduler at {address!r}: {why}")


# --------------------------------------------------------------------------- progress
def progress_bar(total: int, unit: str, *, initial: int = 0, desc: str | None = None,
                 progress: bool | None = None, smoothing: float = 0.3) -> Any:
    """A tqdm bar on stderr when it is a terminal (or ``progress`` says so); else ``None``."""
    if progress is None:
        progress = sys.stderr.isatty()
    if not progress:
        return None
    from tqdm import tqdm
    return tqdm(total=total, initial=initial, unit=unit, unit_scale=True, dynamic_ncols=True,
                smoothing=smoothing, file=sys.stderr, desc=desc)
