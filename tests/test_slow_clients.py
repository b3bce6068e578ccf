"""``ginrules serve`` against slow clients, recycled workers, long bodies and its own log.

Every test starts the real command (gunicorn's master, waitress in each worker,
SQLite in the test's folder) on a free port of 127.0.0.1, talks to it over real
sockets, and stops it. The timing tests are marked ``load``: each is bounded (a
fixed number of connections and requests, well under 30 s).
"""

from __future__ import annotations

import http.client
import json
import os
import re
import signal
import socket
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any

import pytest

from ginrules.web.server import BODY_BYTES
from ginrules.web.settings import MAX_BODY_BYTES
from tests.live_server import serve

#: The slow connections, half trickling headers, half a body.
SLOW = 64
#: Seconds a normal request may take while they trickle.
PROMPT_SECONDS = 1.0
HOUSE_RULE = "name: Slow day\nauthor: Tester\ndescription: A test.\nextends: classic\n"
BOOTED = re.compile(r"Booting worker with pid: (\d+)")


def _address(base: str) -> tuple[str, int]:
    host, port = base.removeprefix("http://").rsplit(":", 1)
    return host, int(port)


def _call(
    base: str, path: str, body: Any = None, headers: dict[str, str] | None = None
) -> tuple[int, bytes, float]:
    """One request on a new connection: status, body and seconds taken."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(
        base + path,
        data=data,
        headers={"Content-Type": "application/json", **(headers or {})},
        method="GET" if body is None else ("PUT" if headers else "POST"),
    )
    began = time.monotonic()
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return answer.status, answer.read(), time.monotonic() - began
    except urllib.error.HTTPError as error:
        return error.code, error.read(), time.monotonic() - began


def _save(base: str) -> dict[str, Any]:
    status, body, _ = _call(base, "/api/houserules", {"yaml": HOUSE_RULE})
    assert status == 201, body[:300]
    saved: dict[str, Any] = json.loads(body)
    return saved


class Tricklers:
    """Connections that send a request one piece a second: header lines, or (after
    whole headers announcing 4,000 bytes) a body byte by byte."""

    def __init__(self, base: str, count: int) -> None:
        self.address = _address(base)
        self.sockets: list[tuple[socket.socket, bool]] = []
        self.stopped = threading.Event()
        self.sends = 0
        for number in range(count):
            sock = socket.create_connection(self.address, timeout=5)
            by_header = number % 2 == 0
            if by_header:
                sock.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
            else:
                sock.sendall(
                    b"POST /api/houserules HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                    b"Content-Type: application/json\r\nContent-Length: 4000\r\n\r\n{"
                )
            self.sockets.append((sock, by_header))
        self.thread = threading.Thread(target=self._trickle, daemon=True)
        self.thread.start()

    def _trickle(self) -> None:
        line = 0
        while not self.stopped.wait(1.0):
            line += 1
            for sock, by_header in self.sockets:
                try:
                    sock.sendall(f"X-Slow-{line}: 1\r\n".encode() if by_header else b" ")
                    self.sends += 1
                except OSError:
                    pass  # closed by the server: fine, it holds nothing then

    def close(self) -> None:
        self.stopped.set()
        self.thread.join(timeout=5)
        for sock, _ in self.sockets:
            sock.close()


@contextmanager
def trickling(base: str, count: int) -> Iterator[Tricklers]:
    slow = Tricklers(base, count)
    try:
        yield slow
    finally:
        slow.close()


@pytest.mark.load
def test_normal_requests_are_answered_within_a_second_while_64_connections_trickle(
    tmp_path: Path,
) -> None:
    with serve(tmp_path, "--port", "0", workers=2, threads=16) as running:
        base = running.started()
        for _ in range(4):  # both workers' caches warm
            for path in ("/", "/rules/classic"):
                assert _call(base, path)[0] == 200
        with trickling(base, SLOW) as slow:
            time.sleep(2.5)  # every slow request has begun and is taking its time
            taken: list[tuple[str, int, float]] = []
            for _ in range(5):
                for path, body in (
                    ("/rules/classic", None),
                    ("/", None),
                    ("/api/houserules", {"yaml": HOUSE_RULE}),
                ):
                    status, _, seconds = _call(base, path, body)
                    taken.append((path, status, seconds))
                time.sleep(1.0)
            assert slow.sends >= SLOW * 5, "the slow connections kept trickling"
        print(
            "slowest answers while 64 connections trickled:", sorted(taken, key=lambda t: -t[2])[:3]
        )
        assert [status for _, status, _ in taken] == [200, 200, 201] * 5, taken
        late = [
            (path, round(seconds, 3)) for path, _, seconds in taken if seconds >= PROMPT_SECONDS
        ]
        assert not late, f"answered later than {PROMPT_SECONDS} s: {late}"


@pytest.mark.load
def test_workers_are_recycled_without_a_failed_request(tmp_path: Path) -> None:
    args = ("--port", "0", "--max-requests", "50", "--max-requests-jitter", "10")
    with serve(tmp_path, *args, workers=1) as running:
        base = running.started()
        began = time.monotonic()
        failed: list[tuple[int, int | str]] = []
        for number in range(300):
            path = "/rules/classic" if number % 2 else "/"
            try:
                status = _call(base, path)[0]
            except OSError as error:
                failed.append((number, repr(error)))
                continue
            if status != 200:
                failed.append((number, status))
        took = time.monotonic() - began
        pids = {match[1] for line in running.lines if (match := BOOTED.search(line))}
        recycled = [line for line in running.lines if "has answered" in line]
    print(f"300 requests in {took:.1f} s by {len(pids)} worker(s)")
    assert failed == []
    # At most 60 requests each (wait_ready's first request counts too): five workers at least.
    assert len(pids) >= 5, "".join(running.lines)
    assert len(recycled) >= 4


@pytest.mark.load
def test_the_access_log_never_shows_an_edit_secret(tmp_path: Path) -> None:
    with serve(tmp_path, "--port", "0", "--access-log") as running:
        base = running.started()
        saved = _save(base)
        slug, secret = saved["slug"], saved["edit_secret"]
        assert _call(base, f"/h/{slug}/edit?key={secret}")[0] == 200
        assert _call(base, f"/h/{slug}/edit?mode=yaml&%6Bey=SECRETVALUE")[0] in (200, 403, 404)
        assert (
            _call(base, f"/h/{slug}", headers={"Referer": f"{base}/h/{slug}/edit?key={secret}"})[0]
            == 200
        )
        edited = _call(
            base, f"/api/houserules/{slug}", {"yaml": HOUSE_RULE}, {"X-Edit-Secret": secret}
        )
        assert edited[0] in (200, 201), edited[1][:300]
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and not any(
            f"PUT /api/houserules/{slug}" in line for line in running.lines
        ):
            time.sleep(0.1)
        output = "".join(running.lines)
    assert f'"GET /h/{slug}/edit?key=[redacted] HTTP/1.1" 200' in output, output
    assert f"/h/{slug}/edit?mode=yaml&%6Bey=[redacted]" in output
    assert f"PUT /api/houserules/{slug} HTTP/1.1" in output
    assert secret not in output and "SECRETVALUE" not in output


def _raw(base: str, head: bytes, body: bytes = b"") -> tuple[int, dict[str, str], bytes]:
    """One request written as given on a socket: status, headers and body of the answer."""
    with socket.create_connection(_address(base), timeout=20) as sock:
        sock.sendall(head + body)
        answer = b""
        while chunk := sock.recv(65536):
            answer += chunk
    top, _, content = answer.partition(b"\r\n\r\n")
    lines = top.decode("latin-1").split("\r\n")
    headers = dict(line.split(": ", 1) for line in lines[1:])
    if headers.get("Transfer-Encoding") == "chunked":
        content = _dechunk(content)
    return int(lines[0].split()[1]), headers, content


def _dechunk(data: bytes) -> bytes:
    out = b""
    while True:
        size, _, rest = data.partition(b"\r\n")
        length = int(size, 16)
        if not length:
            return out
        out += rest[:length]
        data = rest[length + 2 :]


def _chunked(payload: bytes, size: int = 8192) -> bytes:
    pieces = [payload[at : at + size] for at in range(0, len(payload), size)]
    return b"".join(b"%x\r\n%s\r\n" % (len(piece), piece) for piece in pieces) + b"0\r\n\r\n"


CHUNKED_POST = (
    b"POST /api/houserules HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
    b"Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
)


def test_a_body_over_the_limit_is_the_apps_own_413_chunked_or_not(tmp_path: Path) -> None:
    padding = "#" * (200 * 1024)
    large = json.dumps({"yaml": HOUSE_RULE + padding}).encode()
    with serve(tmp_path, "--port", "0") as running:
        base = running.started()
        status, headers, body = _raw(base, CHUNKED_POST, _chunked(large))
        assert status == 413 and headers["Content-Type"] == "application/json", body[:300]
        refusal = json.loads(body)
        assert refusal["status"] == 413 and "128 KiB" in refusal["error"]
        # A body past what the server reads at all: the same answer, from the headers alone.
        declared = (
            b"POST /api/houserules HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            b"Content-Type: application/json\r\nContent-Length: %d\r\n\r\n" % (BODY_BYTES * 4)
        )
        status, headers, body = _raw(base, declared)
        assert status == 413 and json.loads(body)["error"] == refusal["error"]
        assert headers["Connection"] == "close"
        small = json.dumps({"yaml": HOUSE_RULE}).encode()
        status, _, body = _raw(base, CHUNKED_POST, _chunked(small, 16))
        assert status == 201, body[:300]
        assert json.loads(body)["name"] == "Slow day"
        # A body of exactly the limit is read whole (a house rule that size is then refused
        # as a ruleset, with its own field error: not as a cut body).
        exact = json.dumps({"yaml": HOUSE_RULE + "#" * 10}).encode()
        exact = exact[:-2] + b" " * (MAX_BODY_BYTES - len(exact)) + exact[-2:]
        status, _, body = _raw(base, CHUNKED_POST, _chunked(exact))
        assert status != 413 and status < 500, body[:300]
    assert "Traceback" not in "".join(running.lines)


def test_a_live_table_streams_through_the_real_server_and_a_stop_ends_it(tmp_path: Path) -> None:
    with serve(tmp_path, "--port", "0") as running:
        base = running.started()
        status, body, _ = _call(
            base,
            "/api/tables",
            {"rules": "classic", "players": ["Ana", "Ben"], "first_dealers": [0]},
        )
        assert status == 201, body[:300]
        slug = json.loads(body)["slug"]
        began = time.monotonic()
        with urllib.request.urlopen(f"{base}/api/tables/{slug}/live", timeout=15) as stream:
            assert stream.headers["Content-Type"].startswith("text/event-stream")
            for raw in stream:
                if raw.startswith(b"data: "):
                    event = json.loads(raw[6:])
                    break
            # The first event comes at once, not when the 50-second stream ends.
            assert time.monotonic() - began < 5
            assert event["slug"] == slug
            # Stopping: the stream ends within seconds (the browser reconnects to the
            # next server), not after the stream's 50 s nor gunicorn's graceful 10 s.
            os.kill(running.process.pid, signal.SIGTERM)
            stopping = time.monotonic()
            with suppress(http.client.IncompleteRead, OSError):
                stream.read()
            ended = time.monotonic() - stopping
        running.process.wait(timeout=20)
        stopped = time.monotonic() - stopping
    print(f"a stop ended the live stream in {ended:.1f} s; the server stopped in {stopped:.1f} s")
    assert ended < 8 and stopped < 9


@pytest.mark.parametrize(
    ("query", "shown"),
    [
        ("key=abc", "key=[redacted]"),
        ("mode=yaml&key=abc&x=1", "mode=yaml&key=[redacted]&x=1"),
        ("KEY=abc", "KEY=[redacted]"),
        ("%6Bey=abc", "%6Bey=[redacted]"),
        ("key", "key=[redacted]"),
        ("keys=1&monkey=2", "keys=1&monkey=2"),
        ("", ""),
    ],
)
def test_secret_query_parameters_are_redacted(query: str, shown: str) -> None:
    from ginrules.web.server import redact_query, redact_uri

    assert redact_query(query) == shown
    assert redact_uri(f"/h/x/edit?{query}") == f"/h/x/edit?{shown}"


def test_secret_headers_never_reach_the_log() -> None:
    from ginrules.web.server import log_environ

    shown = log_environ(
        {
            "REQUEST_URI": "/api/houserules/x?key=1",
            "QUERY_STRING": "key=1",
            "HTTP_X_EDIT_SECRET": "s1",
            "HTTP_X_SCORER_KEY": "s2",
            "HTTP_COOKIE": "session=s3",
            "HTTP_REFERER": "http://h/h/x/edit?key=s4",
            "wsgi.input": object(),
        }
    )
    assert not {"1", "s1", "s2", "session=s3"} & set(shown.values())
    assert shown["RAW_URI"] == "/api/houserules/x?key=[redacted]"
    assert shown["HTTP_REFERER"] == "http://h/h/x/edit?key=[redacted]"
    assert "wsgi.input" not in shown
