"""Card tables under a real server: fifty phones at once, and a server killed mid-game.

Each test runs ``ginrules serve`` (gunicorn, 2 workers) as a subprocess on
127.0.0.1, on a SQLite file and on the real PostgreSQL server, and speaks to
it over plain HTTP, each phone on its own connection. What the phones were
told (201 and an event number) is then checked against the database itself:

- fifty phones entering a hand at once, each retrying with the new count when
  told it is stale (409), or after a moment when the server is busy (503, as the
  table page does), leave the log numbered 1 to 50 without a gap, every
  acknowledged request key stored exactly once, with the hand that phone sent;
- a server killed with SIGKILL (its whole process group: master and workers)
  loses no acknowledged hand; a new server on the same database gives the score
  the log replays to, and a retry of the last request key is not stored twice.

Every HTTP call and process wait has a timeout, and every server started is
stopped (SIGTERM, then SIGKILL) whatever happens.
"""

from __future__ import annotations

import http.client
import json
import os
import random
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from ginrules.engine.tablelog import event_from_json, event_to_json, replay
from ginrules.rules.compile import compile_ruleset
from ginrules.rules.load import load_ruleset
from ginrules.web.storage import Store
from ginrules.web.table_service import state
from ginrules.web.table_store import StoredEvent, TableStore
from tests.databases import database_url

__all__ = ["database_url"]  # a fixture

BIN: Final = Path(sys.executable).parent
#: Seconds a server may take to answer its first request.
READY_SECONDS: Final = 30.0
#: Seconds any one HTTP call may take.
CALL_SECONDS: Final = 20.0
PHONES: Final = 50


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@dataclass
class Server:
    process: subprocess.Popen[bytes]
    port: int
    log: Path

    def tail(self) -> str:
        return self.log.read_text(encoding="utf-8", errors="replace")[-2000:]


class Phone:
    """One HTTP client with its own connection, reconnecting when the server drops it."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=CALL_SECONDS)

    def call(
        self, method: str, path: str, body: Any = None, headers: dict[str, str] | None = None
    ) -> tuple[int, Any]:
        data = None if body is None else json.dumps(body).encode("utf-8")
        sent = {"Content-Type": "application/json", **(headers or {})}
        for attempt in range(3):
            try:
                self.connection.request(method, path, data, sent)
                response = self.connection.getresponse()
                raw = response.read()
                return response.status, json.loads(raw) if raw else None
            except (http.client.HTTPException, ConnectionError):
                # A kept-alive connection the server closed: the same request again, on a
                # new connection (a request key makes a repeated change the same change).
                self.connection.close()
                self.connection = http.client.HTTPConnection(
                    "127.0.0.1", self.port, timeout=CALL_SECONDS
                )
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")

    def close(self) -> None:
        self.connection.close()


@contextmanager
def serve(url: str, folder: Path) -> Iterator[Server]:
    """``ginrules serve`` on ``url`` (2 workers) on a free port; stopped on leaving."""
    port = _free_port()
    log = folder / f"server-{port}.log"
    env = {
        **os.environ,
        "DATABASE_URL": url,
        "GINRULES_INSTANCE": str(folder / "instance"),
        "PUBLIC_BASE_URL": f"http://127.0.0.1:{port}",
        "SECRET_KEY": "durability",
        "RATE_LIMIT": "1000000 per minute",
    }
    command = [str(BIN / "ginrules"), "serve", "--port", str(port), "--workers", "2"]
    with log.open("wb") as out:
        process = subprocess.Popen(
            command, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
        )
    server = Server(process, port, log)
    try:
        _wait_ready(server)
        yield server
    finally:
        stop(server)


def _wait_ready(server: Server) -> None:
    deadline = time.monotonic() + READY_SECONDS
    while time.monotonic() < deadline:
        assert server.process.poll() is None, f"the server exited:\n{server.tail()}"
        try:
            with socket.create_connection(("127.0.0.1", server.port), timeout=1):
                pass
            phone = Phone(server.port)
            try:
                status, _ = phone.call("GET", "/api/tables/zzzzzzzz")
            finally:
                phone.close()
            if status == 404:
                return
        except OSError:
            time.sleep(0.1)
    raise AssertionError(f"the server did not answer in {READY_SECONDS} s:\n{server.tail()}")


def stop(server: Server) -> None:
    """SIGTERM to the server's process group, SIGKILL if it lingers."""
    if server.process.poll() is None:
        _signal_group(server, signal.SIGTERM)
        try:
            server.process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            _signal_group(server, signal.SIGKILL)
            server.process.wait(timeout=15)


def kill_hard(server: Server) -> None:
    """``kill -9`` the master and its workers at once: no shutdown of any kind."""
    _signal_group(server, signal.SIGKILL)
    server.process.wait(timeout=15)


def _signal_group(server: Server, signal_number: signal.Signals) -> None:
    with suppress(ProcessLookupError):  # the whole group is gone already
        os.killpg(server.process.pid, signal_number)


def _start_table(phone: Phone) -> tuple[str, str]:
    status, body = phone.call(
        "POST", "/api/tables", {"rules": "classic", "players": ["Ana", "Ben"], "first_dealers": [0]}
    )
    assert status == 201, body
    return body["slug"], body["scorer_key"]


def _hand(n: int) -> dict[str, Any]:
    """Phone ``n``'s own hand: a knock by seat (n // 10) % 2 for 1 to 3 points, never
    the same twice among fifty, never enough to end the game (a side reaches 60)."""
    knocker = 1 + n % 10
    return {
        "kind": "hand",
        "entries": [
            {
                "end": "knock",
                "ended_by": (n // 10) % 2,
                "knocker_deadwood": knocker,
                "defender_deadwood": knocker + 1 + n // 20,
            }
        ],
    }


def _stored_log(url: str, slug: str) -> list[StoredEvent]:
    store = Store(url)
    try:
        return TableStore(store).events(slug)
    finally:
        store.close()


def _normal(event: dict[str, Any]) -> dict[str, Any]:
    return event_to_json(event_from_json(event))


def test_fifty_phones_entering_at_once_leave_one_gap_free_log(
    database_url: str, tmp_path: Path
) -> None:
    with serve(database_url, tmp_path) as server:
        setup = Phone(server.port)
        try:
            slug, key = _start_table(setup)
        finally:
            setup.close()
        path = f"/api/tables/{slug}/events"
        headers = {"X-Scorer-Key": key}
        ready = threading.Barrier(PHONES, timeout=30)

        def enter(n: int) -> tuple[int, int]:
            phone = Phone(server.port)
            try:
                status, table = phone.call("GET", f"/api/tables/{slug}")
                assert status == 200, table
                seen = table["last_event"]
                body = {"seen": seen, "event": _hand(n), "request_key": f"phone-{n}"}
                ready.wait()  # everybody saw the same count; now all at once
                deadline = time.monotonic() + 90
                for tries in range(1, 400):
                    assert time.monotonic() < deadline, f"phone {n} is still trying"
                    status, answer = phone.call("POST", path, {**body, "seen": seen}, headers)
                    if status == 201:
                        return answer["event"], tries
                    if status == 503:  # busy (a burst of 50 on SQLite): as table.js, again
                        time.sleep(random.uniform(0.5, 1.5))
                        continue
                    assert status == 409, (status, answer)
                    seen = answer["table"]["last_event"]  # the count now: try again
                    time.sleep(random.uniform(0, 0.02))
                raise AssertionError(f"phone {n} never got its hand in")
            finally:
                phone.close()

        with ThreadPoolExecutor(max_workers=PHONES) as pool:
            futures = [pool.submit(enter, n) for n in range(PHONES)]
            told = [future.result(timeout=120) for future in futures]
        reader = Phone(server.port)
        try:
            status, served = reader.call("GET", f"/api/tables/{slug}")
        finally:
            reader.close()
    assert status == 200

    numbers = [number for number, _ in told]
    assert sorted(numbers) == list(range(1, PHONES + 1)), "each phone its own event"
    assert max(tries for _, tries in told) > 1, "the phones did collide"
    log = _stored_log(database_url, slug)
    assert [stored.number for stored in log] == list(range(1, PHONES + 1)), "no gap"
    by_key = {stored.request_key: stored for stored in log}
    assert len(by_key) == len(log), "no request key twice"
    assert sorted(k or "" for k in by_key) == sorted(f"phone-{n}" for n in range(PHONES))
    for n, (number, _) in enumerate(told):
        stored = by_key[f"phone-{n}"]
        assert stored.number == number and stored.event == _normal(_hand(n))
    assert len({json.dumps(stored.event, sort_keys=True) for stored in log}) == PHONES
    # The score the server gives is the log's replay.
    config = compile_ruleset(load_ruleset("classic"))
    replayed = replay(config, (0,), [event_from_json(stored.event) for stored in log])
    assert served["games"][0]["points"] == list(replayed.pad.snapshot().games[0].points)
    assert served["last_event"] == PHONES


def test_a_server_killed_between_entries_loses_no_acknowledged_hand(
    database_url: str, tmp_path: Path
) -> None:
    acknowledged: dict[str, int] = {}  # request key: event number
    sent: dict[str, dict[str, Any]] = {}
    in_flight = "hand-in-flight"
    with serve(database_url, tmp_path) as first:
        phone = Phone(first.port)
        try:
            slug, key = _start_table(phone)
            headers = {"X-Scorer-Key": key}
            for n in range(8):
                body = {"seen": n, "event": _hand(n), "request_key": f"hand-{n}"}
                status, answer = phone.call("POST", f"/api/tables/{slug}/events", body, headers)
                assert status == 201, answer
                acknowledged[f"hand-{n}"], sent[f"hand-{n}"] = answer["event"], body
        finally:
            phone.close()
        # One more hand on its way as the server dies: stored or not, never half.
        late = {"seen": 8, "event": _hand(8), "request_key": in_flight}
        sent[in_flight] = late

        def send_late() -> None:
            dying = Phone(first.port)
            try:
                dying.call("POST", f"/api/tables/{slug}/events", late, headers)
            except (OSError, http.client.HTTPException):
                pass  # the server died under it: no answer, so not acknowledged
            finally:
                dying.close()

        thread = threading.Thread(target=send_late)
        thread.start()
        time.sleep(random.uniform(0.0, 0.02))
        kill_hard(first)
        thread.join(timeout=CALL_SECONDS + 5)
        assert not thread.is_alive()

    log = _stored_log(database_url, slug)
    stored_keys = [stored.request_key for stored in log]
    for request_key, number in acknowledged.items():
        assert stored_keys.count(request_key) == 1 and log[number - 1].request_key == request_key
    assert [stored.number for stored in log] == list(range(1, len(log) + 1))
    assert len(log) in (8, 9) and stored_keys[8:] in ([], [in_flight])

    with serve(database_url, tmp_path) as second:
        phone = Phone(second.port)
        try:
            path = f"/api/tables/{slug}/events"
            status, table = phone.call("GET", f"/api/tables/{slug}")
            assert status == 200 and table["last_event"] == len(log)
            # The last acknowledged hand sent again, as a phone that never heard back would.
            status, again = phone.call("POST", path, sent["hand-7"], headers)
            assert status == 201 and again["event"] == acknowledged["hand-7"]
            # The hand in flight, sent again: stored once, whatever happened to it.
            status, late_again = phone.call("POST", path, {**late, "seen": 8}, headers)
            assert status == 201 and late_again["event"] == 9
            status, served = phone.call("GET", f"/api/tables/{slug}")
        finally:
            phone.close()

    after = _stored_log(database_url, slug)
    assert [stored.number for stored in after] == list(range(1, 10))
    assert [stored.request_key for stored in after] == [*acknowledged, in_flight]
    for stored in after:
        assert stored.event == _normal(sent[stored.request_key or ""]["event"])
    store = Store(database_url)
    try:
        now = state(TableStore(store), slug)
    finally:
        store.close()
    assert now is not None
    assert served["games"] == [
        {
            "points": list(game.points),
            "boxes": list(game.boxes),
            "hands": game.hands,
            "target": game.target,
            "winner": game.winner,
        }
        for game in now.score.pad.snapshot().games
    ]
    config = compile_ruleset(load_ruleset("classic"))
    hands = [event_from_json(_normal(sent[k]["event"])) for k in [*acknowledged, in_flight]]
    assert now.score.pad.snapshot() == replay(config, (0,), hands).pad.snapshot()
