"""The server ``ginrules serve`` runs: gunicorn's processes, each serving the site with waitress.

gunicorn keeps what it does well: the master process and its workers, the socket
``ginrules serve`` opened itself (``fd://``), signals, graceful shutdown, the
heartbeat, and recycling: a worker that has answered ``max_requests`` requests
(plus a random jitter, so workers do not all restart at once) stops taking new
ones, finishes those under way and exits, and the master starts a fresh one, so
memory that one heavy request took is given back.

Inside each worker, :class:`WaitressWorker` serves the app with waitress. Its
event loop reads every request whole, headers and body, before a thread sees it,
and a thread hands the answer to a buffer the loop sends: a client that sends or
reads one byte a second holds a connection (a few KiB), never a thread. Threads
only run the app. Beyond waitress's own rules:

* a connection silent for :data:`IDLE_SECONDS` is closed, and a request must
  arrive whole within :data:`REQUEST_SECONDS` of its first byte;
* a body longer than the site takes is answered by the app's own 413 (JSON on
  the API), never by a cut body or by the server's plain-text page;
* the access log (``ginrules serve --access-log``) never shows a secret: the
  ``key`` query parameter of an edit link and secret headers read ``[redacted]``.
"""

from __future__ import annotations

import logging
import os
import resource
import threading
import time
from contextlib import suppress
from datetime import timedelta
from typing import Any, Final
from urllib.parse import unquote_plus

from gunicorn.workers.base import Worker
from waitress import wasyncore
from waitress.adjustments import Adjustments
from waitress.channel import HTTPChannel
from waitress.parser import HTTPRequestParser
from waitress.server import TcpWSGIServer
from waitress.task import ErrorTask, ThreadedTaskDispatcher, WSGITask
from waitress.utilities import RequestEntityTooLarge

from ginrules.web.settings import MAX_BODY_BYTES
from ginrules.words import serving

#: Connections one worker holds at once, reading, answering or kept alive (fewer
#: when the process may open fewer files); past it, that worker stops accepting.
CONNECTIONS: Final = 1000
#: Seconds a connection may stay silent, mid-request or between requests.
IDLE_SECONDS: Final = 30
#: Seconds a request may take to arrive whole, from its first byte.
REQUEST_SECONDS: Final = 60
#: How often silent and late connections are looked for, in seconds.
CLEANUP_SECONDS: Final = 5
#: Bytes of request line and headers (waitress answers 431 beyond).
HEADER_BYTES: Final = 64 * 1024
#: Bytes of body read before giving up on it: past the app's limit, so the app
#: itself answers 413 with its own message (JSON on the API).
BODY_BYTES: Final = 2 * MAX_BODY_BYTES
#: Seconds of one turn of the event loop: the heartbeat and the stop flag are
#: looked at every turn.
TURN_SECONDS: Final = 0.5
#: Seconds a stopping worker keeps its connections open for a request a client may
#: already be sending (requests being answered get gunicorn's ``graceful_timeout``).
LINGER_SECONDS: Final = 2.0
#: Answers that last (a live table): a stopping worker ends them after
#: :data:`LINGER_SECONDS`, and the browser reconnects to another worker.
STREAM_TYPE: Final = "text/event-stream"
#: The ``Server`` header: no versions.
IDENT: Final = "ginrules"
#: Query parameters and headers (WSGI names) whose values never reach the log.
SECRET_PARAMETERS: Final = frozenset({"key"})
SECRET_HEADERS: Final = frozenset(
    {"HTTP_X_EDIT_SECRET", "HTTP_X_SCORER_KEY", "HTTP_AUTHORIZATION", "HTTP_COOKIE"}
)
REDACTED: Final = "[redacted]"


def redact_query(query: str) -> str:
    """``query`` with the value of every secret parameter (``key=``) replaced."""
    parts = query.split("&")
    for index, part in enumerate(parts):
        name = part.split("=", 1)[0]
        if unquote_plus(name).strip().lower() in SECRET_PARAMETERS:
            parts[index] = f"{name}={REDACTED}"
    return "&".join(parts)


def redact_uri(uri: str) -> str:
    """A path with its query, the query's secrets replaced."""
    path, mark, query = uri.partition("?")
    return path + mark + redact_query(query)


def log_environ(environ: dict[str, Any]) -> dict[str, str]:
    """What the access log may show of a request: its text, secrets replaced."""
    shown = {key: value for key, value in environ.items() if isinstance(value, str)}
    uri = shown.get("REQUEST_URI") or shown.get("PATH_INFO", "")
    shown["RAW_URI"] = shown["REQUEST_URI"] = redact_uri(uri)
    shown["QUERY_STRING"] = redact_query(shown.get("QUERY_STRING", ""))
    if "HTTP_REFERER" in shown:
        shown["HTTP_REFERER"] = redact_uri(shown["HTTP_REFERER"])
    for name in SECRET_HEADERS & shown.keys():
        shown[name] = REDACTED
    return shown


class _Answer:
    """What gunicorn's access log reads of an answer."""

    def __init__(self, status: str, sent: int, headers: list[tuple[str, str]]) -> None:
        self.status = status
        self.sent = sent
        self.headers = headers


class _Request(HTTPRequestParser):  # type: ignore[misc]
    """Waitress's request parser, leaving the answer to a too long body to the app."""

    def received(self, data: bytes) -> int:
        consumed = int(super().received(data))
        if isinstance(self.error, RequestEntityTooLarge):
            self._leave_to_the_app()
        return consumed

    def _leave_to_the_app(self) -> None:
        """The request without its body, saying how long it was (a chunked one: at
        least what came): the app answers its own 413, and the connection closes
        after the answer, so the rest of the body is never read as a request."""
        length = max(self.content_length, self.body_bytes_received)
        self.close()
        self.body_rcv = None
        self.error = None
        self.headers["CONTENT_LENGTH"] = str(length)
        self.headers["CONNECTION"] = "close"
        self.connection_close = True
        self.expect_continue = False  # no "100 Continue": the body is not wanted


class _Task(WSGITask):  # type: ignore[misc]
    """One request through the app: counted, logged, its connection closed when the
    worker stops (the client's next request goes to another worker)."""

    sent = 0

    def service(self) -> None:
        worker: WaitressWorker = self.channel.server.worker
        worker.count_request()
        self.channel.streaming = False
        answered = False
        try:
            super().service()
            answered = True
        finally:  # a failure before the headers is answered (and logged) by an error task
            if answered or self.wrote_header:
                worker.log_answer(self, self.environ or {})

    def build_response_header(self) -> bytes:
        if not self.channel.server.worker.alive:
            self.set_close_on_finish()
        self.channel.streaming = any(
            name.lower() == "content-type" and value.startswith(STREAM_TYPE)
            for name, value in self.response_headers
        )
        return bytes(super().build_response_header())

    def write(self, data: bytes) -> None:
        super().write(data)
        self.sent += len(data)


class _ErrorTask(ErrorTask):  # type: ignore[misc]
    """Waitress's own answer to a request it could not read (400, 431), logged."""

    sent = 0

    def service(self) -> None:
        try:
            super().service()
        finally:
            request = self.request
            environ = {
                "REMOTE_ADDR": str(self.channel.addr[0]),
                "REQUEST_METHOD": str(getattr(request, "command", "") or "-"),
                "REQUEST_URI": str(getattr(request, "request_uri", "") or "-"),
                "SERVER_PROTOCOL": f"HTTP/{self.version}",
            }
            self.channel.server.worker.log_answer(self, environ)


class _Channel(HTTPChannel):  # type: ignore[misc]
    """A connection, knowing when the request it is reading began, and whether it is
    answering with a stream of events."""

    parser_class = _Request
    task_class = _Task
    error_task_class = _ErrorTask
    request_began = 0.0
    streaming = False

    def received(self, data: bytes) -> bool:
        if self.request is None and data:
            self.request_began = time.time()
        return bool(super().received(data))


class _Server(TcpWSGIServer):  # type: ignore[misc]
    """Waitress on one listening socket, closing requests that arrive too slowly."""

    channel_class = _Channel
    worker: WaitressWorker

    def maintenance(self, now: float) -> None:
        super().maintenance(now)
        late = now - REQUEST_SECONDS
        for channel in self.active_channels.values():
            arriving = not channel.requests and channel.request is not None
            if arriving and channel.request_began < late:
                channel.will_close = True


def connection_limit() -> int:
    """:data:`CONNECTIONS`, or fewer when this process may not open that many files
    (after raising its soft limit as far as allowed)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = 4 * CONNECTIONS
    if soft != resource.RLIM_INFINITY and soft < wanted:
        raised = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (raised, hard))
            soft = raised
        except (ValueError, OSError):
            pass
    if soft == resource.RLIM_INFINITY:
        return CONNECTIONS
    return max(16, min(CONNECTIONS, soft // 2 - 32))


class WaitressWorker(Worker):  # type: ignore[misc]
    """A gunicorn worker serving the app with waitress (see the module's docstring)."""

    alive: bool
    nr: int
    max_requests: int

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._counting = threading.Lock()
        self._heartbeat = 0.0
        self._servers: list[_Server] = []

    def adjustments(self, sockets: list[Any]) -> dict[str, Any]:
        """Waitress's settings for this worker."""
        return {
            "sockets": sockets,
            "threads": self.cfg.threads,
            "backlog": self.cfg.backlog,
            "connection_limit": connection_limit(),
            "channel_timeout": IDLE_SECONDS,
            "cleanup_interval": CLEANUP_SECONDS,
            "max_request_header_size": HEADER_BYTES,
            "max_request_body_size": BODY_BYTES,
            "ident": IDENT,
            # The client's address and scheme are the app's business (TRUSTED_PROXIES):
            # waitress neither trusts nor removes a proxy's headers.
            "clear_untrusted_proxy_headers": False,
            "log_socket_errors": False,
            "asyncore_use_poll": True,
        }

    def run(self) -> None:
        self._route_waitress_logs()
        sockets = [getattr(listener, "sock", listener) for listener in self.sockets]
        adj = Adjustments(**self.adjustments(sockets))
        tasks = ThreadedTaskDispatcher()
        tasks.set_thread_count(adj.threads)
        channels: dict[int, Any] = {}
        self._servers = [self._server(sock, adj, tasks, channels) for sock in sockets]
        try:
            while self.alive:
                self._turn(channels)
                if self.ppid != os.getppid():
                    self.log.info(serving.master_gone(os.getpid()))
                    self.alive = False
            self._finish(channels)
        finally:
            tasks.shutdown(cancel_pending=True, timeout=1)
            wasyncore.close_all(channels, ignore_all=True)

    def _server(self, sock: Any, adj: Any, tasks: Any, channels: dict[int, Any]) -> _Server:
        sockinfo = (sock.family, sock.type, sock.proto, sock.getsockname())
        server = _Server(
            self.wsgi,
            channels,
            True,
            sock,
            dispatcher=tasks,
            adj=adj,
            bind_socket=False,
            sockinfo=sockinfo,
        )
        server.worker = self
        return server

    def _turn(self, channels: dict[int, Any], seconds: float = TURN_SECONDS) -> None:
        """One turn of the event loop, the heartbeat at most once per turn's time."""
        now = time.monotonic()
        if now >= self._heartbeat:
            self.notify()
            self._heartbeat = now + TURN_SECONDS
        wasyncore.loop(timeout=seconds, use_poll=True, map=channels, count=1)
        with suppress(OSError):  # the signal handlers' wake-up bytes
            os.read(self.PIPE[0], 4096)

    def _finish(self, channels: dict[int, Any]) -> None:
        """Stop accepting; keep every connection open for :data:`LINGER_SECONDS` (a
        request a client is sending meanwhile is answered, with ``Connection: close``),
        then end the streams, answer the requests under way within
        ``graceful_timeout``, and close the rest."""
        self._stop_accepting()
        began = time.monotonic()
        deadline = began + self.cfg.graceful_timeout
        linger = began + min(LINGER_SECONDS, self.cfg.graceful_timeout)
        while left := _close_idle(channels, time.monotonic() < linger):
            if time.monotonic() >= deadline:
                self.log.warning(serving.stopped_busy(left, self.cfg.graceful_timeout))
                return
            self._turn(channels, min(TURN_SECONDS, max(deadline - time.monotonic(), 0.01)))

    def count_request(self) -> None:
        """One more request (a thread's call): past ``max_requests``, the worker stops."""
        with self._counting:
            self.nr += 1
            recycle = self.nr >= self.max_requests and self.alive
            if recycle:
                self.alive = False
        if recycle:
            self._stop_accepting()
            self.log.info(serving.recycling(os.getpid(), self.nr))

    def _stop_accepting(self) -> None:
        """No new connection from now on (any thread), and the loop woken to see it."""
        for server in self._servers:
            server.accepting = False
            server.pull_trigger()

    def log_answer(self, task: Any, environ: dict[str, Any]) -> None:
        """The access log's line for one answer (a thread's call), with no secret."""
        if self.cfg.accesslog is None:
            return
        shown = log_environ(environ)
        headers = [
            (name[5:].replace("_", "-").lower(), value)
            for name, value in shown.items()
            if name.startswith("HTTP_")
        ]
        sent = task.content_length if task.content_length is not None else task.sent
        took = timedelta(seconds=max(time.time() - task.start_time, 0.0))
        self.log.access(_Answer(task.status, sent, task.response_headers), headers, shown, took)

    def _route_waitress_logs(self) -> None:
        """Waitress's messages go where gunicorn's go; its queue-depth warnings (every
        request that waits for a thread, under load) only when ``--log-level debug``."""
        chatty = logging.getLogger("waitress.queue")
        chatty.setLevel(logging.DEBUG if self.log.loglevel <= logging.DEBUG else logging.ERROR)
        waitress = logging.getLogger("waitress")
        waitress.handlers = list(self.log.error_log.handlers)
        waitress.setLevel(self.log.error_log.level)
        waitress.propagate = False


def _close_idle(channels: dict[int, Any], lingering: bool) -> int:
    """Close the connections with no request under way and nothing left to send, and
    end the streams (none of either while ``lingering``); how many stay open."""
    left = 0
    for channel in list(channels.values()):
        if not isinstance(channel, HTTPChannel):
            continue  # a listening socket, or the loop's trigger
        if lingering or channel.requests or channel.total_outbufs_len:
            left += 1
            if not lingering and channel.streaming and channel.requests:
                channel.connected = False  # the stream's next write ends it
        else:
            channel.handle_close()
    return left
