"""Rate limits every worker and every app server shares, per client, behind trusted proxies.

- Saves (``@limited``: house rules, tables, table imports and events, bot games) count
  against ``RATE_LIMIT`` and the YAML editor's live checks against ``CHECK_RATE_LIMIT``
  (``count_request``), as the ``limits`` library's moving window; a 429 with
  ``Retry-After`` beyond them.
- The bytes of the saves' request bodies count against ``DAILY_SAVE_BYTES`` per address
  per day (a fixed window of 24 hours from the address's first counted save); a save
  that is refused (any 4xx or 5xx answer) gives its bytes back.
- The counters live in the site's database (:class:`DatabaseStorage` over the tables
  ``rate_counters`` and ``rate_hits``) or, when ``REDIS_URL`` is set, in Redis through
  ``limits``' own storage: restarts keep them, and every process counts together. When
  the store does not answer, the limited request is a 503 with ``Retry-After``, never a
  500 and never let through uncounted.
- A client is its address (an IPv6 address's /64 network: one household's devices);
  ``X-Forwarded-For`` and ``X-Forwarded-Proto`` are believed only from a connecting
  address in ``TRUSTED_PROXIES`` (:class:`TrustedProxies`, Werkzeug's ``ProxyFix``).
"""

from __future__ import annotations

import ipaddress
import logging
import math
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from functools import wraps
from typing import TYPE_CHECKING, Any, Final, ParamSpec, TypeVar

import sqlalchemy as sa
from flask import Flask, abort, after_this_request, current_app, request
from limits import RateLimitItem, parse_many
from limits.errors import ConfigurationError
from limits.errors import StorageError as CountersDown
from limits.storage import MovingWindowSupport, Storage, storage_from_string
from limits.strategies import MovingWindowRateLimiter
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Connection, Engine
from werkzeug.middleware.proxy_fix import ProxyFix
from werkzeug.wrappers import Response as BaseResponse

from ginrules.web.settings import Network, SettingsError
from ginrules.web.tables import rate_counters, rate_hits
from ginrules.words import limits as words

if TYPE_CHECKING:
    from _typeshed.wsgi import StartResponse, WSGIApplication, WSGIEnvironment

P = ParamSpec("P")
R = TypeVar("R")

#: The fixed window of ``DAILY_SAVE_BYTES``.
DAY: Final = 24 * 60 * 60
#: Seconds a process's counting may wait for its turn at SQLite's write lock.
WRITE_TURN_SECONDS: Final = 5.0
#: How often (seconds) one process deletes every expired counter and hit.
SWEEP_EVERY: Final = 60.0
#: Seconds a client is asked to wait when the counters' store does not answer.
STORE_RETRY: Final = 5
#: An ``X-Forwarded-For`` entry or address longer than this is cut (a key stays short).
ADDRESS_CHARS: Final = 64
_EXTENSION: Final = "ginrules.limits"
log = logging.getLogger("ginrules.web")


class DatabaseStorage(Storage, MovingWindowSupport):
    """A ``limits`` storage in the site's database, shared by every process using it.

    The fixed window is one ``rate_counters`` row per key, counted by one upsert. The
    moving window keeps one ``rate_hits`` row per counted request; each acquisition
    first upserts its key's ``rate_counters`` row (a row lock on PostgreSQL, the write
    lock on SQLite) so that counting and adding a hit is one step for every process,
    then prunes the key's old hits. Keys nobody used for a whole window are swept now
    and then. Only SQLite and PostgreSQL have the upsert used here.
    """

    def __init__(self, engine: Engine, *, wrap_exceptions: bool = True) -> None:
        super().__init__(None, wrap_exceptions=wrap_exceptions)
        self.engine = engine
        self._insert = postgresql.insert if engine.dialect.name == "postgresql" else sqlite.insert
        self._next_sweep = 0.0
        # SQLite has one write lock, polled by every waiting writer: this process's
        # counting takes turns here first, so a burst of saves queues in order instead
        # of starving in SQLite's busy loop (PostgreSQL locks the key's row instead).
        self._turns = threading.Lock() if engine.dialect.name == "sqlite" else None

    @contextmanager
    def _writing(self) -> Iterator[Connection]:
        """A write transaction, after this process's earlier counting on SQLite."""
        if self._turns is None:
            with self.engine.begin() as connection:
                yield connection
            return
        if not self._turns.acquire(timeout=WRITE_TURN_SECONDS):
            raise sa.exc.TimeoutError(words.counters_busy(WRITE_TURN_SECONDS))
        try:
            with self.engine.begin() as connection:
                yield connection
        finally:
            self._turns.release()

    @property
    def base_exceptions(self) -> type[Exception] | tuple[type[Exception], ...]:
        return sa.exc.SQLAlchemyError

    def _counter(self, key: str, expiry: float, amount: int, now: float) -> Any:
        """The upsert adding ``amount`` to ``key``'s count (restarted once expired; never
        below 0), returning the count."""
        table = rate_counters
        insert = self._insert(table).values(key=key, count=max(amount, 0), expires_at=now + expiry)
        expired = table.c.expires_at <= now
        count = sa.case((expired, 0), else_=table.c.count) + amount
        return insert.on_conflict_do_update(
            index_elements=[table.c.key],
            set_={
                "count": sa.case((count < 0, 0), else_=count),
                "expires_at": sa.case((expired, now + expiry), else_=table.c.expires_at),
            },
        ).returning(table.c.count)

    def incr(self, key: str, expiry: int, amount: int = 1) -> int:
        """Add ``amount`` (may be negative: a refund) to ``key``'s count; the new count."""
        now = time.time()
        with self._writing() as connection:
            return int(connection.execute(self._counter(key, expiry, amount, now)).scalar_one())

    def get(self, key: str) -> int:
        with self.engine.connect() as connection:
            found = connection.execute(
                sa.select(rate_counters.c.count).where(
                    rate_counters.c.key == key, rate_counters.c.expires_at > time.time()
                )
            ).scalar()
        return int(found or 0)

    def get_expiry(self, key: str) -> float:
        now = time.time()
        with self.engine.connect() as connection:
            found = connection.execute(
                sa.select(rate_counters.c.expires_at).where(
                    rate_counters.c.key == key, rate_counters.c.expires_at > now
                )
            ).scalar()
        return float(found or now)

    def check(self) -> bool:
        try:
            with self.engine.connect() as connection:
                connection.execute(sa.select(1))
        except sa.exc.SQLAlchemyError:
            return False
        return True

    def reset(self) -> int | None:
        with self._writing() as connection:
            hits = connection.execute(sa.delete(rate_hits)).rowcount
            counters = connection.execute(sa.delete(rate_counters)).rowcount
        return max(hits, counters)

    def clear(self, key: str) -> None:
        with self._writing() as connection:
            connection.execute(sa.delete(rate_hits).where(rate_hits.c.key == key))
            connection.execute(sa.delete(rate_counters).where(rate_counters.c.key == key))

    def acquire_entry(self, key: str, limit: int, expiry: int, amount: int = 1) -> bool:
        """Add ``amount`` hits to ``key`` if its window then holds at most ``limit``."""
        if amount > limit:
            return False
        now = time.time()
        with self._writing() as connection:
            # Held until commit: the next process counts after this one's hits are in.
            connection.execute(self._counter(key, expiry, 0, now))
            connection.execute(
                sa.delete(rate_hits).where(rate_hits.c.key == key, rate_hits.c.at < now - expiry)
            )
            held = connection.execute(
                sa.select(sa.func.count()).select_from(rate_hits).where(rate_hits.c.key == key)
            ).scalar_one()
            acquired = held + amount <= limit
            if acquired:
                connection.execute(sa.insert(rate_hits), [{"key": key, "at": now}] * amount)
        self._sweep(now)
        return acquired

    def get_moving_window(self, key: str, limit: int, expiry: int) -> tuple[float, int]:
        """The oldest of ``key``'s (at most ``limit``) hits in the window, and how many."""
        now = time.time()
        recent = (
            sa.select(rate_hits.c.at)
            .where(rate_hits.c.key == key, rate_hits.c.at >= now - expiry)
            .order_by(rate_hits.c.at.desc())
            .limit(limit)
            .subquery()
        )
        with self.engine.connect() as connection:
            oldest, count = connection.execute(
                sa.select(sa.func.min(recent.c.at), sa.func.count()).select_from(recent)
            ).one()
        return (float(oldest), int(count)) if count else (now, 0)

    def _sweep(self, now: float) -> None:
        """Delete the counters (and their hits) whose window ended, once a minute."""
        if now < self._next_sweep:
            return
        self._next_sweep = now + SWEEP_EVERY
        ended = sa.select(rate_counters.c.key).where(rate_counters.c.expires_at <= now)
        with self._writing() as connection:
            connection.execute(sa.delete(rate_hits).where(rate_hits.c.key.in_(ended)))
            connection.execute(sa.delete(rate_counters).where(rate_counters.c.expires_at <= now))


class TrustedProxies:
    """WSGI middleware: ``ProxyFix`` for requests from a trusted proxy, nothing otherwise.

    The client is the rightmost ``X-Forwarded-For`` entry that is not itself a trusted
    proxy (so a chain of trusted proxies is walked); the scheme is the last
    ``X-Forwarded-Proto``. ``X-Forwarded-Host`` is never believed (links are built
    from ``PUBLIC_BASE_URL``).
    """

    def __init__(self, app: WSGIApplication, networks: Iterable[Network]) -> None:
        self.app = app
        self.networks = tuple(networks)

    def trusted(self, address: str | None) -> bool:
        try:
            parsed = ipaddress.ip_address((address or "").strip())
        except ValueError:
            return False
        mapped = getattr(parsed, "ipv4_mapped", None)
        return any((mapped or parsed) in network for network in self.networks)

    def __call__(self, environ: WSGIEnvironment, start_response: StartResponse) -> Any:
        if not self.trusted(environ.get("REMOTE_ADDR")):
            return self.app(environ, start_response)
        chain = [e.strip() for e in environ.get("HTTP_X_FORWARDED_FOR", "").split(",")]
        hops = 1
        while hops < len(chain) and self.trusted(chain[-hops]):
            hops += 1
        return ProxyFix(self.app, x_for=hops, x_proto=1)(environ, start_response)


def client() -> str:
    """Whom this request counts against: its address, an IPv6 address's /64."""
    raw = (request.remote_addr or "unknown")[:ADDRESS_CHARS]
    try:
        address = ipaddress.ip_address(raw)
    except ValueError:
        return raw
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.ip_network(f"{address}/64", strict=False))
    return str(address)


def _limiter() -> MovingWindowRateLimiter:
    found: MovingWindowRateLimiter = current_app.extensions[_EXTENSION]
    return found


@contextmanager
def _counting() -> Iterator[None]:
    """A 503 with ``Retry-After`` when the counters' store does not answer."""
    try:
        yield
    except CountersDown as error:
        log.error("rate limits: %s", error)
        abort(503, description=words.counters_down(), retry_after=STORE_RETRY)


def _seconds_until(moment: float) -> int:
    return max(1, math.ceil(moment - time.time()))


def _rate(limit: RateLimitItem) -> str:
    return words.per(limit.amount, limit.multiples, limit.GRANULARITY.name)


#: The 429 message of each ``count_request`` scope.
_REFUSALS: Final[dict[str, Callable[[str, int], str]]] = {
    "save": words.too_many_saves,
    "yaml-check": words.too_many_checks,
}


def count_request(setting: str, scope: str) -> None:
    """Count this request in ``scope`` against the limits of the ``setting`` config
    key for the client; a 429 (with Retry-After) beyond them."""
    window = _limiter()
    who = client()
    refusal = _REFUSALS.get(scope, words.too_many_saves)
    with _counting():
        for limit in parse_many(str(current_app.config[setting])):
            if not window.hit(limit, scope, who):
                wait = _seconds_until(window.get_window_stats(limit, scope, who).reset_time)
                abort(429, description=refusal(_rate(limit), wait), retry_after=wait)


def count_bytes() -> None:
    """Count this request's body against ``DAILY_SAVE_BYTES`` for the client; a 429
    beyond it. A refused save (an answer of 400 or more) gives its bytes back."""
    size = request.content_length
    if size is None:  # a chunked body: read it (at most MAX_CONTENT_LENGTH) to count it
        size = len(request.get_data(cache=True))
    if not size or size > (current_app.config["MAX_CONTENT_LENGTH"] or math.inf):
        return  # nothing to count, or a body the view answers with a 413
    cap = int(current_app.config["DAILY_SAVE_BYTES"])
    counters = _limiter().storage
    key = f"ginrules/save-bytes/{client()}"
    with _counting():
        if counters.incr(key, DAY, size) > cap:
            counters.incr(key, DAY, -size)
            wait = _seconds_until(counters.get_expiry(key))
            abort(429, description=words.daily_bytes(cap, wait), retry_after=wait)

    @after_this_request
    def refund_if_refused(response: BaseResponse) -> BaseResponse:
        if response.status_code >= 400:
            try:
                counters.incr(key, DAY, -size)
            except CountersDown as error:  # the answer stands; the bytes stay counted
                log.error("rate limits: %s", error)
        return response


def limited(view: Callable[P, R]) -> Callable[P, R]:
    """Count a save against ``RATE_LIMIT`` and its bytes against ``DAILY_SAVE_BYTES``
    for the client; 429 beyond them. Only the decorated routes pay for the check."""

    @wraps(view)
    def checked(*args: P.args, **kwargs: P.kwargs) -> R:
        count_request("RATE_LIMIT", "save")
        count_bytes()
        return view(*args, **kwargs)

    return checked


def counters_for(app: Flask) -> Storage:
    """The counters' store: Redis at ``REDIS_URL``, else the app's database."""
    url = app.config.get("REDIS_URL")
    if not url:
        return DatabaseStorage(app.extensions["ginrules.store"].engine)
    timeout = float(app.config["DB_TIMEOUT"])  # a Redis that does not answer is a 503 soon
    try:
        made = storage_from_string(
            str(url),
            wrap_exceptions=True,
            key_prefix="ginrules",
            socket_connect_timeout=timeout,
            socket_timeout=timeout,
        )
    except ConfigurationError as error:
        raise SettingsError(f"REDIS_URL: {error}") from None
    assert isinstance(made, Storage), "a synchronous storage for a synchronous app"
    return made


def install(app: Flask) -> None:
    """Shared counters for the app, and ``X-Forwarded-*`` from its trusted proxies."""
    app.extensions[_EXTENSION] = MovingWindowRateLimiter(counters_for(app))
    networks = tuple(app.config.get("TRUSTED_PROXIES") or ())
    if networks:
        app.wsgi_app = TrustedProxies(app.wsgi_app, networks)  # type: ignore[method-assign]
