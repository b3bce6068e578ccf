"""Numbered work in worker processes, handed out in small chunks as workers free up.

:func:`run_numbered` calls ``work(number)`` for every number ``0 .. count - 1``
in ``jobs`` worker processes and gives each result to ``on_result(number,
result)`` in this process as it arrives, in whatever order the workers finish.
The work must depend on its number alone (a simulation seeds each match from
it), so that a caller who merges the results in an order-independent way gets
the same answer for any number of jobs.

Why it is built this way:

- *Chunks.* A worker is sent a few numbers at a time and always holds the next
  chunk, so it never waits for a round trip; chunks shrink towards the end (a
  quarter of what is left per worker, never more than :data:`MAX_CHUNK`) so
  the workers finish together. Two workers on two cores are twice as fast.
- *Results one by one.* A worker sends each result as soon as it has it, so
  the caller's progress bar moves game by game, and a run stopped early keeps
  everything that finished.
- *Start method.* ``fork`` where the platform has it (not macOS, whose system
  libraries are not fork-safe) and this process runs a single thread, as the
  command line does: workers start in milliseconds with the modules and
  lookup tables already loaded, and nothing is pickled on the way in. Forking
  a process that runs other threads can copy a lock one of them holds, so a
  program with threads gets ``spawn``: each worker imports afresh and receives
  the setup pickled.
- *Ctrl-C.* Workers ignore SIGINT (it is blocked while they start, so none
  slips in before they ignore it), so only this process sees it. Whatever
  stops this process's loop (Ctrl-C, an error, a callback that raises) ends
  and reaps every worker before it propagates, so no traceback comes from a
  worker and none outlives the call. A worker also leaves when this process
  disappears without saying goodbye.
- *Errors.* ``prepare`` runs here first, so a bad setup raises here before any
  worker starts. A worker whose work raises sends the traceback and stops; the
  number is then played again here, which raises the same error with its own
  traceback in this process (the work is deterministic). A worker that dies
  raises :class:`WorkerLost`.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import sys
import threading
import traceback
from collections import deque
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from multiprocessing.connection import Connection, wait
from multiprocessing.process import BaseProcess
from typing import Final, TypeVar

__all__ = [
    "MAX_CHUNK",
    "MAX_JOBS",
    "WorkerFailed",
    "WorkerLost",
    "run_numbered",
    "start_method",
    "usable_cores",
]

Setup = TypeVar("Setup")
Result = TypeVar("Result")

#: The most worker processes a run may ask for.
MAX_JOBS: Final = 64
#: The most numbers sent to a worker at once.
MAX_CHUNK: Final = 8
#: Chunks each worker holds: the one it is working on and the next.
AHEAD: Final = 2
#: How often (seconds) an idle worker checks that this process is still there.
_ORPHAN_CHECK: Final = 0.5
#: How long (seconds) a worker told to stop gets before it is terminated.
_GOODBYE: Final = 2.0


class WorkerLost(RuntimeError):
    """A worker process ended before sending the results it owed: ``pid`` and ``exitcode``."""

    def __init__(self, pid: int | None, exitcode: int | None) -> None:
        super().__init__(pid, exitcode)
        self.pid = pid
        self.exitcode = exitcode


class WorkerFailed(RuntimeError):
    """A worker's work raised, but playing the same number here did not: the worker's
    traceback is the message."""


def usable_cores() -> int:
    """The cores this process may run on (its CPU affinity where the platform says)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


def start_method() -> str:
    """``fork`` for a single-threaded process where it is safe, else ``spawn`` (see above)."""
    forkable = "fork" in multiprocessing.get_all_start_methods() and sys.platform != "darwin"
    return "fork" if forkable and threading.active_count() == 1 else "spawn"


@contextmanager
def _sigint_blocked() -> Iterator[None]:
    """Hold SIGINT back for the block: a Ctrl-C during it is raised when it ends."""
    if not hasattr(signal, "pthread_sigmask"):
        yield
        return
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


def _worker(
    prepare: Callable[[Setup], Callable[[int], Result]],
    setup: Setup,
    conn: Connection,
    parent: int,
) -> None:
    """A worker's life: ignore Ctrl-C, then play the chunks it is sent until told to stop."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    try:
        try:
            work = prepare(setup)
        except Exception:
            conn.send((-1, False, traceback.format_exc()))
            return
        while True:
            while not conn.poll(_ORPHAN_CHECK):
                if os.getppid() != parent:
                    return  # the parent is gone: nobody wants the results
            chunk: range | None = conn.recv()
            if chunk is None:
                return
            for number in chunk:
                try:
                    result = work(number)
                except Exception:
                    conn.send((number, False, traceback.format_exc()))
                    return
                conn.send((number, True, result))
    except (EOFError, OSError):
        return  # the parent closed the pipe: it is stopping
    finally:
        conn.close()


class _Chunks:
    """Hands out ``0 .. count - 1`` in chunks that shrink as the end nears."""

    def __init__(self, count: int, jobs: int) -> None:
        self.count = count
        self.jobs = jobs
        self.next = 0

    def take(self) -> range | None:
        left = self.count - self.next
        if left <= 0:
            return None
        size = max(1, min(MAX_CHUNK, left // (4 * self.jobs)))
        chunk = range(self.next, self.next + size)
        self.next += size
        return chunk


@dataclass
class _Worker:
    """A worker process, our end of its pipe, and the chunks it has not finished."""

    process: BaseProcess
    conn: Connection
    chunks: deque[range] = field(default_factory=deque)

    def give(self, chunks: _Chunks) -> None:
        chunk = chunks.take()
        if chunk is None:
            return
        try:
            self.conn.send(chunk)
        except OSError:
            return  # the worker has stopped: reading its pipe says why, and ends the run
        self.chunks.append(chunk)

    def finished(self, number: int) -> bool:
        """Note a result; True when it completes the worker's current chunk."""
        if number == self.chunks[0][-1]:
            self.chunks.popleft()
            return True
        return False


def run_numbered(
    prepare: Callable[[Setup], Callable[[int], Result]],
    setup: Setup,
    count: int,
    jobs: int,
    on_result: Callable[[int, Result], None],
    progress: Callable[[int], None] | None = None,
) -> None:
    """Call ``prepare(setup)(number)`` for numbers ``0 .. count - 1`` in ``jobs`` worker
    processes; ``on_result(number, result)`` and ``progress(finished)`` run here as each
    result arrives. ``prepare`` runs once in each worker (to build what the work needs);
    it must be a module-level function and ``setup`` picklable where workers are spawned.
    """
    if not 1 <= jobs <= MAX_JOBS:
        raise ValueError(f"jobs={jobs}, from 1 to {MAX_JOBS}")
    work = prepare(setup)  # here too: its errors are raised here, and a failure replayed
    context = (
        multiprocessing.get_context("fork")
        if start_method() == "fork"
        else multiprocessing.get_context("spawn")
    )
    chunks = _Chunks(count, jobs)
    workers: list[_Worker] = []
    failure: tuple[int, str] | None = None
    finished = 0
    try:
        with _sigint_blocked():  # the workers start with SIGINT held, then ignore it
            for _ in range(min(jobs, count)):
                ours, theirs = context.Pipe()
                process = context.Process(
                    target=_worker, args=(prepare, setup, theirs, os.getpid()), daemon=True
                )
                process.start()
                theirs.close()
                workers.append(_Worker(process, ours))
        for worker in workers:
            for _ in range(AHEAD):
                worker.give(chunks)
        by_conn = {worker.conn: worker for worker in workers}
        while finished < count and failure is None:
            for conn in wait(list(by_conn)):
                assert isinstance(conn, Connection)
                worker = by_conn[conn]
                try:
                    number, ok, payload = conn.recv()
                except (EOFError, OSError):  # it died, perhaps with our chunks unread
                    worker.process.join(_GOODBYE)
                    raise WorkerLost(worker.process.pid, worker.process.exitcode) from None
                if not ok:
                    failure = (number, payload)
                    break
                if worker.finished(number):
                    worker.give(chunks)
                on_result(number, payload)
                finished += 1
                if progress is not None:
                    progress(finished)
    finally:
        _stop(workers, gently=finished == count)
    if failure is not None:
        number, text = failure
        if number >= 0:
            work(number)  # raises the worker's error here, with a traceback
        raise WorkerFailed(text)


def _stop(workers: list[_Worker], *, gently: bool) -> None:
    """End every worker and reap it: asked to stop when all went well, else terminated.
    Ctrl-C is held back meanwhile, so a second one cannot leave a worker behind."""
    with _sigint_blocked():
        if gently:
            for worker in workers:
                with suppress(OSError):  # it has gone already
                    worker.conn.send(None)
            for worker in workers:
                worker.process.join(_GOODBYE)
        for worker in workers:
            if worker.process.is_alive():
                worker.process.terminate()
        for worker in workers:
            worker.process.join(_GOODBYE)
            if worker.process.is_alive():
                worker.process.kill()
                worker.process.join()
            worker.conn.close()
