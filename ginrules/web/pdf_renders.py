"""Printable PDFs made outside the request: a few low-priority render processes, a
bounded queue in front of them, and every finished PDF kept on disk.

An uncached PDF costs about a second of CPU, so no request thread renders one.
:func:`pdf` answers from the disk cache, or gives the job to this worker
process's render pool and waits for it (``PDF_WAIT_SECONDS``, 30 by default):

- the pool has ``PDF_RENDERS`` processes, started on the first PDF (so gunicorn
  has forked its workers before any exist) by a fork server, never by forking a
  worker that runs threads; they run at ``nice`` 10 in a session of their own
  (on Linux, their own scheduling group, so busy renders never delay the web
  worker's wake-ups), so pages win the CPU, and they die with their parent;
- at most ``PDF_RENDERS + PDF_QUEUE`` renders are under way or waiting, and as
  many requests wait for them; past that, or past the wait, :class:`Busy` (the
  view answers 503 with ``Retry-After``). A render that outlives its request
  still finishes and is kept, so the retry is served from disk;
- two requests for the same PDF share one render.

The pool is replaced after :data:`RECYCLE_AFTER` renders, when it is idle, so
the memory a render took goes back to the system. (Not ``max_tasks_per_child``:
on Python 3.11 to 3.13 a pool using it can stop running its queue, CPython
issue 115634.)

The disk cache is ``<INSTANCE_PATH>/pdf-cache/``. A file's name is a hash of all
a PDF depends on: the ginrules version, a digest of the sheet templates and the
sheet code, the document, the ruleset (a saved version's reference and the
database, or a shipped ruleset's fingerprint and content), the paper, the large
print option, the public base URL and the language. A file is written whole (a temporary file,
then a rename) and is only served when it starts with ``%PDF-`` and ends with
``%%EOF``. Past :data:`DISK_LIMIT` bytes the oldest files go, down to three
quarters of it.
"""

from __future__ import annotations

import atexit
import ctypes
import hashlib
import json
import logging
import math
import multiprocessing
import os
import signal
import sys
import threading
from collections.abc import Callable
from concurrent.futures import CancelledError, Future, ProcessPoolExecutor
from concurrent.futures import TimeoutError as WaitedTooLong
from concurrent.futures.process import BrokenProcessPool
from contextlib import suppress
from dataclasses import dataclass, field
from functools import cache, partial
from multiprocessing import forkserver
from pathlib import Path
from typing import Any, Final

from flask import current_app

from ginrules import __version__
from ginrules.rules import locate
from ginrules.rules.load import Ruleset
from ginrules.sheets import render
from ginrules.web import refs
from ginrules.words import renders as words
from ginrules.words.i18n import current_locale, use_locale

#: How long a request waits for its render before a 503 (``PDF_WAIT_SECONDS``).
WAIT_SECONDS: Final = 30.0
#: Renders one pool makes before it is replaced (when next idle).
RECYCLE_AFTER: Final = 20
#: How far below the web workers the render processes run.
NICENESS: Final = 10
#: The disk cache's largest size in bytes: 256 MiB (a PDF is 40 to 200 KB).
DISK_LIMIT: Final = 256 * 1024 * 1024
#: A guess of one render's wall time, for ``Retry-After``.
SECONDS_PER_RENDER: Final = 2
_PR_SET_PDEATHSIG: Final = 1

log = logging.getLogger("ginrules.web")


class Busy(Exception):
    """No PDF now: the render slots and the queue are full, or the render took too long."""

    def __init__(self, seconds: int, message: str) -> None:
        super().__init__(message)
        #: When to try again (``Retry-After``).
        self.seconds = seconds
        self.message = message


@dataclass(frozen=True)
class Job:
    """What a render process needs to make one PDF; all of it can be pickled."""

    document: render.Document
    #: A shipped name, or ``h/<slug>/v<n>`` for a saved version.
    ref: str
    #: A saved version's YAML (None for a shipped ruleset).
    text: str | None
    options: render.SheetOptions
    locale: str = field(default_factory=current_locale)


def document_digest(ruleset: Ruleset) -> str:
    """A digest of a ruleset's whole document (every word a sheet prints)."""
    text = json.dumps(ruleset.document, sort_keys=True, default=str)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:24]


def pdf(identity: str, job: Callable[[], Job]) -> bytes:
    """The PDF that ``identity`` names (text naming all its content depends on): from
    the disk cache, else rendered by the pool from ``job()``; :class:`Busy` when the
    pool cannot make it now."""
    config = current_app.config
    name = f"{_code_stamp()}|{identity}|{config['DATABASE_URL']}|{current_locale()}"
    digest = hashlib.sha256(name.encode("utf-8")).hexdigest()[:40]
    target = Path(config["INSTANCE_PATH"]) / "pdf-cache" / f"{digest}.pdf"
    kept = read_kept(target)
    if kept is not None:
        return kept
    workers, queue = int(config["PDF_RENDERS"]), int(config["PDF_QUEUE"])
    threads = int(config.get("SERVER_THREADS") or 0)
    if threads:  # a waiting PDF request holds a thread: PDFs never take more than half
        queue = max(0, min(queue, threads // 2 - workers))
    renders = _renders(workers, queue)
    return renders.wait(target, job, float(config.get("PDF_WAIT_SECONDS", WAIT_SECONDS)))


def renders_started() -> int:
    """Renders this process has given to its pools (tests prove a PDF came from disk)."""
    with _REGISTRY_LOCK:
        return sum(found.started for key, found in _RENDERS.items() if key[0] == os.getpid())


def shutdown() -> None:
    """Stop this process's render processes (at exit; a queued render is dropped)."""
    with _REGISTRY_LOCK:
        mine = [found for key, found in _RENDERS.items() if key[0] == os.getpid()]
    for renders in mine:
        renders.close()


# -- the pool of one worker process ---------------------------------------------------------


class Renders:
    """One process's render pool and its bounds: ``workers`` rendering, ``queue`` waiting.

    ``_lock`` guards the counts and is never held while anything waits, so a full
    queue is answered at once; ``_pool_lock`` is held while the pool starts.
    """

    def __init__(self, workers: int, queue: int) -> None:
        self.workers = workers
        self.room = workers + queue
        #: Renders given to a pool (tests read it).
        self.started = 0
        self._lock = threading.Lock()
        self._running: dict[Path, Future[bytes]] = {}
        self._waiting = 0
        self._in_pool = 0
        self._pool_lock = threading.Lock()
        self._pool: ProcessPoolExecutor | None = None
        self._given = 0

    def wait(self, target: Path, job: Callable[[], Job], seconds: float) -> bytes:
        """The PDF for ``target``, rendered (or being rendered) by the pool."""
        future, first = self._place(target)
        try:
            if first:
                self._start(target, job, future)
            return future.result(timeout=seconds)
        except WaitedTooLong:
            raise Busy(self._later(), words.still_rendering(self._later())) from None
        except (BrokenProcessPool, CancelledError, EOFError, ConnectionError) as error:
            # A render process or the fork server gone (a signal to the whole process
            # group on Ctrl-C): this PDF waits for the pool made anew, never a 500.
            log.error(words.pool_broke(repr(error)))
            raise Busy(self._later(), words.busy(self._later())) from None
        finally:
            with self._lock:
                self._waiting -= 1

    def _place(self, target: Path) -> tuple[Future[bytes], bool]:
        """This request's place: the render of the same PDF under way, or a new one
        (``True``: this request starts it); :class:`Busy` when there is no room."""
        with self._lock:
            running = self._running.get(target)
            if self._waiting >= self.room or (running is None and len(self._running) >= self.room):
                raise Busy(self._later(), words.busy(self._later()))
            first = running is None
            if running is None:
                running = self._running[target] = Future()
                running.add_done_callback(partial(self._finished, target))
            self._waiting += 1
        return running, first

    def _start(self, target: Path, job: Callable[[], Job], future: Future[bytes]) -> None:
        """Give the render of ``target`` to the pool; ``future`` gets its outcome."""
        try:
            kept = read_kept(target)  # finished while this request looked
            if kept is not None:
                future.set_result(kept)
                return
            submitted = self._submit(job(), target)  # job() may read the database
        except Exception as error:  # a 404 from job(), a pool that cannot start
            future.set_exception(error)
            return
        submitted.add_done_callback(partial(_copy, future))

    def _submit(self, job: Job, target: Path) -> Future[bytes]:
        """Give ``job`` to the pool: a new pool when there is none, the last one broke,
        or it is idle and has made :data:`RECYCLE_AFTER` renders."""
        with self._pool_lock:
            with self._lock:
                idle = self._in_pool == 0
            if self._pool is None or (self._given >= RECYCLE_AFTER and idle):
                self._replace()
            assert self._pool is not None
            try:
                submitted = self._pool.submit(_render, job, str(target))
            except BrokenProcessPool as error:
                log.error(words.pool_broke(repr(error)))
                self._replace()
                submitted = self._pool.submit(_render, job, str(target))
            self._given += 1
        with self._lock:
            self._in_pool += 1
            self.started += 1
        submitted.add_done_callback(self._left_pool)
        return submitted

    def _replace(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False)
        self._pool = ProcessPoolExecutor(
            max_workers=self.workers, mp_context=_context(), initializer=_lower_priority
        )
        self._given = 0

    def _left_pool(self, _: Future[bytes]) -> None:
        with self._lock:
            self._in_pool -= 1

    def _finished(self, target: Path, future: Future[bytes]) -> None:
        with self._lock:
            if self._running.get(target) is future:
                del self._running[target]

    def _later(self) -> int:
        """Seconds until the renders under way should be done (``Retry-After``)."""
        queued = len(self._running) + 1
        return min(60, max(1, math.ceil(queued * SECONDS_PER_RENDER / self.workers)))

    def close(self) -> None:
        with self._pool_lock:
            pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=True, cancel_futures=True)


def _copy(into: Future[bytes], done: Future[bytes]) -> None:
    """Hand a pool's outcome to the requests waiting for it."""
    if done.cancelled():
        into.cancel()
        return
    error = done.exception()
    if error is None:
        into.set_result(done.result())
    else:
        into.set_exception(error)


#: Each process's pools, by (process id, PDF_RENDERS, PDF_QUEUE).
_RENDERS: Final[dict[tuple[int, int, int], Renders]] = {}
_REGISTRY_LOCK: Final = threading.Lock()


def _renders(workers: int, queue: int) -> Renders:
    key = (os.getpid(), workers, queue)  # a forked worker never uses its parent's pool
    with _REGISTRY_LOCK:
        found = _RENDERS.get(key)
        if found is None:
            found = _RENDERS[key] = Renders(workers, queue)
        return found


atexit.register(shutdown)


def _context() -> Any:
    """A fork server that has imported the renderer, so a new render process starts
    in milliseconds; ``spawn`` where there is none."""
    if "forkserver" not in multiprocessing.get_all_start_methods():
        return multiprocessing.get_context("spawn")
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload([__name__, "weasyprint"])
    if sys.platform == "linux":
        _start_fork_server()
    return context


def _start_fork_server() -> None:
    """Start the fork server (when it is not running) from a thread of its own that
    lowered its priority first: on Linux a nice value belongs to one thread, so the
    server's imports and every process it forks run behind the web workers, and the
    worker's own threads keep theirs."""

    def start() -> None:
        os.nice(NICENESS)
        forkserver.ensure_running()

    helper = threading.Thread(target=start, name="pdf-fork-server")
    helper.start()
    helper.join()


# -- in the render process ------------------------------------------------------------------


def _lower_priority() -> None:
    """Each render process: behind the web workers for the CPU, and gone with its parent.

    On Linux a new session is a new scheduling group (autogroup), whose weight is
    lowered too: inside the web worker's group a busy render would still delay the
    worker each time it wakes, when other programs share the CPU.
    """
    if os.getpriority(os.PRIO_PROCESS, 0) < NICENESS:
        os.setpriority(os.PRIO_PROCESS, 0, NICENESS)
    if sys.platform == "linux":  # the fork server ends with the worker; this with it
        with suppress(OSError, AttributeError):
            ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
        with suppress(OSError):
            os.setsid()
            Path("/proc/self/autogroup").write_text(str(NICENESS))


def _render(job: Job, target: str) -> bytes:
    """Make the PDF, keep it at ``target``, and hand it back."""
    if job.text is None:
        shipped = refs.shipped(job.ref)
        assert shipped is not None, "a shipped ruleset the request just found"
        ruleset = shipped.ruleset
    else:
        ruleset = refs.parse_saved_text(job.text, job.ref)
    draw = render.sheet_pdf if job.document == "sheet" else render.scorepad_pdf
    with use_locale(job.locale):
        made = draw(ruleset, job.options)
    render.CACHE.clear()  # each render is kept on disk and by the site, not here
    keep(Path(target), made)
    return made


# -- the disk cache -------------------------------------------------------------------------


def read_kept(path: Path) -> bytes | None:
    """A kept PDF, when it is whole (a torn or foreign file is not served)."""
    try:
        body = path.read_bytes()
    except OSError:
        return None
    if body.startswith(b"%PDF-") and body.rstrip().endswith(b"%%EOF"):
        return body
    return None


def keep(path: Path, body: bytes) -> None:
    """Write ``body`` to ``path`` whole (a reader sees the old file or the new one),
    then keep the folder under :data:`DISK_LIMIT`."""
    partial_file = path.with_name(f".{path.stem}.{os.getpid()}.part")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        partial_file.write_bytes(body)
        os.replace(partial_file, path)
        prune(path.parent, DISK_LIMIT)
    except OSError as error:
        log.warning(words.cache_unwritable(str(path.parent), str(error)))
        with suppress(OSError):
            partial_file.unlink()


def prune(folder: Path, limit: int) -> None:
    """Past ``limit`` bytes, remove the oldest files until three quarters are left."""
    files: list[tuple[float, int, str]] = []
    with os.scandir(folder) as entries:
        for entry in entries:
            with suppress(FileNotFoundError):
                stat = entry.stat()
                files.append((stat.st_mtime, stat.st_size, entry.path))
    total = sum(size for _, size, _ in files)
    if total <= limit:
        return
    for _, size, path in sorted(files):
        if total <= limit * 3 // 4:
            break
        with suppress(FileNotFoundError):
            os.remove(path)
        total -= size


@cache
def _code_stamp() -> str:
    """This install's sheets: the version and a digest of the templates and sheet code
    (a changed template renders anew even when the version number stayed)."""
    digest = hashlib.sha256(__version__.encode("utf-8"))
    for folder in (locate.templates_dir(), Path(render.__file__).parent):
        for path in sorted(folder.iterdir()):
            if path.suffix in (".html", ".css", ".py") and path.is_file():
                digest.update(path.name.encode("utf-8") + b"\0" + path.read_bytes())
    return f"{__version__}-{digest.hexdigest()[:16]}"
