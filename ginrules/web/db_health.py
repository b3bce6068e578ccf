"""The database's health as the site sees it: timeouts, a deadline on every statement,
a circuit breaker, and 503s instead of waits or 500s.

A frozen database server (a partition, a stopped machine) enforces no timeout of its
own, and the kernel still acknowledges TCP, so a client would wait for ever. Hence:

- :func:`create_engine` gives each engine its timeouts: SQLite's busy timeout;
  PostgreSQL's ``connect_timeout``, pool timeout and server-side
  ``statement_timeout``/``lock_timeout``;
- a **deadline on every database call** (statements, commits, rollbacks, the ping
  before a pooled connection is used): a :class:`Watchdog` thread cuts a call that
  runs past it (shuts the PostgreSQL connection's socket down, interrupts SQLite), so
  the blocked call fails, SQLAlchemy drops the connection and the request is answered;
- a **circuit breaker** (:class:`Breaker`): after a cut or a failed connect the
  database counts as down for a few seconds, and every request that needs it is
  answered 503 at once instead of holding a thread; then one request probes it again;
- :func:`install` answers every database error with a 503, a message and
  ``Retry-After`` (JSON under /api/);
- :func:`startup_problem` is what ``ginrules serve`` and ``ginrules db`` check
  first: a damaged SQLite file (``PRAGMA quick_check``) or an empty one.
"""

from __future__ import annotations

import logging
import math
import os
import socket
import sqlite3
import threading
import time
from collections.abc import Callable
from contextlib import closing
from pathlib import Path
from typing import Any, Final, NamedTuple

import sqlalchemy as sa
from flask import Flask, Response, current_app
from sqlalchemy.engine import URL, Connection, Dialect, Engine
from sqlalchemy.pool import ConnectionPoolEntry
from werkzeug.exceptions import ServiceUnavailable

from ginrules.web.records import _sqlite_pragmas
from ginrules.words import database as words

#: Seconds a call may run past the database's own timeout before it is cut: the
#: server's statement_timeout or SQLite's busy timeout, when they work, answer first.
GRACE: Final = 0.5
#: ``Retry-After`` for a damaged database: retrying soon will not help.
DAMAGED_RETRY: Final = 60
#: SQLite's result codes for a damaged file (SQLITE_CORRUPT, SQLITE_NOTADB).
SQLITE_DAMAGED: Final = frozenset({11, 26})
#: Seconds one statement of ``ginrules db upgrade`` may take: a migration may read
#: and rewrite every stored version.
MIGRATION_TIMEOUT: Final = 600.0
#: Marks a pooled connection made just now (it needs no ping before its first use).
_FRESH: Final = "ginrules.fresh"

log = logging.getLogger("ginrules.web")

Cut = Callable[[Any], None]


class DatabaseDown(sa.exc.SQLAlchemyError):
    """The database counts as down just now (the breaker is open): answered 503 at once."""

    def __init__(self, retry_after: int) -> None:
        super().__init__(f"down for {retry_after} s more")
        self.retry_after = retry_after


class Breaker:
    """Whether to try the database at all.

    Closed, every call goes through. :meth:`failed` opens it for ``cooldown``
    seconds, during which :meth:`enter` raises :class:`DatabaseDown` at once. After
    that one thread is let through to probe (the others still get
    :class:`DatabaseDown`); its success closes the breaker, its failure opens it
    again. A probe that never reports is replaced after ``probe_window`` seconds.
    """

    def __init__(self, cooldown: float, probe_window: float) -> None:
        self.cooldown = cooldown
        self.probe_window = probe_window
        self._lock = threading.Lock()
        self._open_until = 0.0  # 0: closed
        self._prober: int | None = None

    @property
    def closed(self) -> bool:
        return self._open_until == 0.0

    def enter(self) -> None:
        """Let this thread use the database, or raise :class:`DatabaseDown`."""
        if self.closed:
            return
        with self._lock:
            me = threading.get_ident()
            if self._open_until == 0.0 or self._prober == me:
                return
            now = time.monotonic()
            if now < self._open_until:
                raise DatabaseDown(max(1, math.ceil(self._open_until - now)))
            self._prober = me  # this thread probes; the others wait for its answer
            self._open_until = now + self.probe_window

    def succeeded(self) -> None:
        if self.closed:
            return
        with self._lock:
            self._open_until = 0.0
            self._prober = None

    def failed(self) -> None:
        with self._lock:
            self._open_until = time.monotonic() + self.cooldown
            self._prober = None


class _Armed(NamedTuple):
    deadline: float
    connection: Any
    cut: Cut
    on_cut: Callable[[], None]
    seconds: float


class Watchdog:
    """One thread per process that cuts database calls running past their deadline.

    :meth:`arm` before a call, :meth:`disarm` after it; a call still armed at its
    deadline is cut (``cut(dbapi_connection)``), ``on_cut`` told just before. The thread
    sleeps until the soonest deadline; arming a later one does not wake it.
    """

    def __init__(self) -> None:
        self._reset()
        os.register_at_fork(after_in_child=self._reset)  # a forked worker starts afresh

    def _reset(self) -> None:
        self._changed = threading.Condition()
        self._armed: dict[int, _Armed] = {}
        self._wake_at = math.inf
        self._thread: threading.Thread | None = None

    def arm(self, connection: Any, seconds: float, cut: Cut, on_cut: Callable[[], None]) -> None:
        deadline = time.monotonic() + seconds
        with self._changed:
            self._armed[id(connection)] = _Armed(deadline, connection, cut, on_cut, seconds)
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(
                    target=self._run, name="ginrules-db-watchdog", daemon=True
                )
                self._thread.start()
            if deadline < self._wake_at:
                self._changed.notify()

    def disarm(self, connection: Any) -> None:
        if connection is None:
            return
        with self._changed:
            self._armed.pop(id(connection), None)

    def _run(self) -> None:
        while True:
            with self._changed:
                now = time.monotonic()
                fired = [entry for entry in self._armed.values() if entry.deadline <= now]
                for entry in fired:  # under the lock: the call cannot end meanwhile
                    del self._armed[id(entry.connection)]
                    entry.on_cut()  # first: the failed call must find the database down
                    entry.cut(entry.connection)
                if not fired:
                    soonest = min((entry.deadline for entry in self._armed.values()), default=None)
                    self._wake_at = math.inf if soonest is None else soonest
                    self._changed.wait(None if soonest is None else soonest - now)
                    self._wake_at = 0.0  # awake: it looks at every deadline before it sleeps
            for entry in fired:
                log.error(words.cut_statement(entry.seconds))


WATCHDOG: Final = Watchdog()


def _shut_socket(connection: Any) -> None:
    """Cut a psycopg connection: shut its socket down, so a call waiting on it fails."""
    try:
        descriptor = connection.pgconn.socket
        with socket.socket(fileno=os.dup(descriptor)) as duplicate:
            duplicate.shutdown(socket.SHUT_RDWR)
    except Exception:  # already closed: nothing to cut
        return


def _interrupt(connection: Any) -> None:
    """Cut a SQLite call: interrupt it (it fails with "interrupted")."""
    try:
        connection.interrupt()
    except Exception:  # already closed: nothing to cut
        return


class _Guard:
    """An engine's deadlines and breaker, hooked through SQLAlchemy's events."""

    def __init__(self, engine: Engine, seconds: float, cut: Cut, breaker: Breaker) -> None:
        self.engine = engine
        self.seconds = seconds
        self.cut = cut
        self.breaker = breaker
        self.ping = engine.dialect.name != "sqlite"  # a file needs no ping
        listen = sa.event.listen
        listen(engine, "do_connect", self._connect)
        listen(engine, "connect", self._connected)
        listen(engine, "checkout", self._checkout)
        listen(engine, "checkin", self._checkin)
        listen(engine, "reset", self._reset)
        listen(engine, "invalidate", self._invalidated)
        listen(engine, "before_cursor_execute", self._before)
        listen(engine, "after_cursor_execute", self._after)
        listen(engine, "commit", self._ending)
        listen(engine, "rollback", self._ending)
        listen(engine, "handle_error", self._error)

    def _arm(self, connection: Any) -> None:
        if connection is not None:
            WATCHDOG.arm(connection, self.seconds, self.cut, self.breaker.failed)

    # -- getting a connection -------------------------------------------------------

    def _connect(self, dialect: Dialect, _record: Any, cargs: Any, cparams: Any) -> Any:
        """A new connection: not while the database is down (its connect timeout bounds it)."""
        self.breaker.enter()
        try:
            return dialect.connect(*cargs, **cparams)
        except Exception:
            self.breaker.failed()
            raise

    def _connected(self, _connection: Any, record: ConnectionPoolEntry) -> None:
        record.info[_FRESH] = True
        self.breaker.succeeded()

    def _checkout(self, connection: Any, record: ConnectionPoolEntry, _proxy: Any) -> None:
        """A pooled connection about to be used: not while the database is down, and
        pinged first (under the deadline) unless it was made just now."""
        if record.info.pop(_FRESH, False):
            return
        self.breaker.enter()
        if not self.ping:
            return
        self._arm(connection)
        try:
            self.engine.dialect.do_ping(connection)
        except Exception as error:  # gone: the pool drops it and connects afresh
            raise sa.exc.DisconnectionError(str(error)) from error
        finally:
            WATCHDOG.disarm(connection)
        self.breaker.succeeded()

    def _checkin(self, connection: Any, _record: Any) -> None:
        WATCHDOG.disarm(connection)

    def _reset(self, connection: Any, _record: Any, _state: Any) -> None:
        self._arm(connection)  # the rollback when it goes back to the pool

    def _invalidated(self, connection: Any, _record: Any, _error: Any) -> None:
        WATCHDOG.disarm(connection)

    # -- using it -------------------------------------------------------------------------

    def _before(self, conn: Connection, *_args: Any) -> None:
        self._arm(_dbapi(conn))

    def _after(self, conn: Connection, *_args: Any) -> None:
        WATCHDOG.disarm(_dbapi(conn))
        self.breaker.succeeded()

    def _ending(self, conn: Connection) -> None:
        self._arm(_dbapi(conn))  # disarmed when it goes back to the pool

    def _error(self, context: sa.engine.ExceptionContext) -> None:
        if context.connection is not None:
            WATCHDOG.disarm(_dbapi(context.connection))
        if context.is_disconnect:
            self.breaker.failed()


def _dbapi(conn: Connection) -> Any:
    """The driver's connection under ``conn`` (None once it is closed or dropped)."""
    if conn.closed or conn.invalidated:
        return None
    return conn.connection.dbapi_connection


def _postgres_options(url: URL, seconds: float) -> str:
    """The URL's ``options`` with the server-side statement and lock timeouts added."""
    milliseconds = max(1, round(seconds * 1000))
    given = url.query.get("options", "")
    mine = f"-c statement_timeout={milliseconds} -c lock_timeout={milliseconds}"
    return f"{given if isinstance(given, str) else ' '.join(given)} {mine}".strip()


#: Connections one process keeps and may add: more than ``ginrules serve``'s 16 threads,
#: so a request waits for a connection only when the database is slow (2 workers hold
#: at most 60 of PostgreSQL's default 100).
POOL: Final = {"pool_size": 10, "max_overflow": 20}


def create_engine(url: URL, *, timeout: float, statement_timeout: float | None = None) -> Engine:
    """An engine on ``url`` whose connects, pool waits and calls take at most ``timeout``
    seconds (calls: ``statement_timeout`` when given, for long migrations)."""
    calls = statement_timeout or timeout
    if url.get_backend_name() == "sqlite":
        file = bool(url.database) and url.database != ":memory:"
        engine = sa.create_engine(
            url,
            connect_args={"check_same_thread": False, "timeout": timeout},
            **({"pool_timeout": timeout, **POOL} if file else {}),
        )
        sa.event.listen(engine, "connect", _sqlite_pragmas)
        sa.event.listen(engine, "connect", _busy_timeout(timeout))
        cut: Cut = _interrupt
    else:
        engine = sa.create_engine(
            url,
            connect_args={
                "connect_timeout": max(2, math.ceil(timeout)),
                "options": _postgres_options(url, calls),
            },
            pool_timeout=timeout,
            **POOL,
        )
        cut = _shut_socket
    _Guard(engine, calls + GRACE, cut, Breaker(timeout, 2 * (calls + GRACE) + timeout))
    return engine


def _busy_timeout(seconds: float) -> Callable[[Any, Any], None]:
    def busy_timeout(connection: Any, _record: Any) -> None:
        connection.execute(f"PRAGMA busy_timeout={max(1, round(seconds * 1000))}")

    return busy_timeout


# -- answers --------------------------------------------------------------------------------


def damaged(error: BaseException) -> bool:
    """Did the database say what it holds is damaged (not only that it is away)?"""
    original = getattr(error, "orig", error)
    code = getattr(original, "sqlite_errorcode", None)
    if isinstance(code, int):
        return code & 0xFF in SQLITE_DAMAGED
    state = getattr(original, "sqlstate", None)
    return isinstance(state, str) and state.startswith("XX")  # data or index corrupted


def unavailable(error: Exception) -> Response:
    """The 503 (with ``Retry-After``) for any database failure; never a 500. Answered
    as the site answers every HTTP error (a page, or JSON under /api/)."""
    retry = int(current_app.config.get("DB_TIMEOUT") or 3)
    if isinstance(error, DatabaseDown):
        message, retry = words.not_answering(), error.retry_after
    elif damaged(error):
        log.error("database damaged: %s", getattr(error, "orig", error))
        message, retry = words.damaged(), DAMAGED_RETRY
    elif isinstance(error, sa.exc.TimeoutError):
        log.error("database busy: %s", error)
        message = words.busy()
    else:
        log.error("database unavailable: %s", getattr(error, "orig", error))
        message = words.not_answering()
    answer = current_app.handle_http_exception(
        ServiceUnavailable(description=message, retry_after=retry)
    )
    assert isinstance(answer, Response), "the site answers every HTTP error itself"
    return answer


def install(app: Flask) -> None:
    """Answer every database error, and the breaker's, with :func:`unavailable`."""
    for kind in (sa.exc.DBAPIError, sa.exc.TimeoutError, DatabaseDown):
        app.register_error_handler(kind, unavailable)


# -- at start ----------------------------------------------------------------------------


def startup_problem(url: str, *, may_create: bool, timeout: float) -> str | None:
    """Why the site must not start on this database, in words; None when it may.

    A SQLite file must pass ``PRAGMA quick_check``; an empty (zero-byte) one is
    refused unless ``may_create`` (``ginrules db upgrade`` makes it a new database).
    A missing file is a new database. PostgreSQL checks its own pages."""
    try:
        database = sa.engine.make_url(url)
    except sa.exc.ArgumentError:
        return None  # not a URL at all: opening the store says so
    if database.get_backend_name() != "sqlite" or database.database in (None, "", ":memory:"):
        return None
    path = Path(database.database)
    if not path.exists():
        return None
    if path.is_file() and path.stat().st_size == 0:
        return None if may_create else words.empty_file(str(path))
    try:
        with closing(sqlite3.connect(path, timeout=timeout)) as connection:
            rows = connection.execute("PRAGMA quick_check").fetchall()
    except sqlite3.OperationalError as error:  # locked, or not readable at all
        if damaged(error):
            return words.damaged_file(str(path), str(error))
        return words.cannot_open_file(str(path), str(error))
    except sqlite3.DatabaseError as error:  # "file is not a database", "malformed"
        return words.damaged_file(str(path), str(error))
    found = [str(row[0]) for row in rows]
    if found != ["ok"]:
        return words.damaged_file(str(path), "; ".join(found[:3]))
    return None
