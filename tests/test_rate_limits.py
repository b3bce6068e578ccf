"""Rate limits that hold in a real deployment: shared by every worker, app server and
restart (the site's database, SQLite or PostgreSQL), per client behind a trusted
proxy, and a cap on the bytes one address saves a day.

The real-server test runs ``ginrules serve`` with two workers on a SQLite file; the
others run the app in this process (two apps on one database are two app servers).
"""

from __future__ import annotations

import http.client
import importlib.util
import json
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from flask import Flask
from flask.testing import FlaskClient
from limits import parse_many
from limits.strategies import MovingWindowRateLimiter
from werkzeug.test import Client

from ginrules.web import create_app, settings
from ginrules.web.ratelimit import DatabaseStorage, TrustedProxies
from ginrules.web.storage import Store
from ginrules.web.tables import rate_counters, rate_hits
from ginrules.words import limits as words
from tests.databases import database_url, store
from tests.live_server import environment, serve
from tests.redis_server import redis_server
from tests.web_helpers import form_fields

__all__ = ["database_url", "store"]  # fixtures

YAML = "name: Limited\nauthor: tester\ndescription: counted saves\nextends: classic\n"


def _config(tmp_path: Path, database: str, **extra: object) -> dict[str, object]:
    return {
        "INSTANCE_PATH": tmp_path / "instance",
        "DATABASE_URL": database,
        "SECRET_KEY": "rate-limit-tests",
        "UPGRADE_ON_START": True,
        "SESSION_COOKIE_SECURE": False,
        **extra,
    }


@pytest.fixture
def apps() -> Iterator[list[Flask]]:
    """Apps made by the test (``apps.append``); their stores are closed after it."""
    made: list[Flask] = []
    yield made
    for app in made:
        app.extensions["ginrules.store"].close()


def _app(apps: list[Flask], tmp_path: Path, database: str, **extra: object) -> Flask:
    app = create_app(_config(tmp_path, database, **extra))
    apps.append(app)
    return app


def _create(client: FlaskClient, address: str = "127.0.0.1", **headers: str) -> Any:
    return client.post(
        "/api/houserules",
        json={"yaml": YAML},
        headers=headers,
        environ_base={"REMOTE_ADDR": address},
    )


# -- the storage ---------------------------------------------------------------------


def test_the_moving_window_allows_exactly_its_limit_under_concurrency(store: Store) -> None:
    """16 threads on two engines (two pools: as two processes) hit one key 96 times."""
    other = Store(store.engine.url.render_as_string(hide_password=False))
    try:
        limiters = [MovingWindowRateLimiter(DatabaseStorage(s.engine)) for s in (store, other)]
        [limit] = parse_many("20 per minute")
        start = threading.Barrier(16)

        def attempts(n: int) -> list[bool]:
            start.wait(timeout=10)
            return [limiters[n % 2].hit(limit, "save", "198.51.100.1") for _ in range(6)]

        with ThreadPoolExecutor(16) as pool:
            allowed = sum(sum(got) for got in pool.map(attempts, range(16)))
        assert allowed == 20
        stats = limiters[0].get_window_stats(limit, "save", "198.51.100.1")
        assert stats.remaining == 0 and 55 < stats.reset_time - time.time() <= 60
        with store.engine.connect() as connection:
            stored = connection.execute(sa.select(sa.func.count()).select_from(rate_hits))
            assert stored.scalar_one() == 20, "a refused attempt leaves no hit"
    finally:
        other.close()


def test_counters_add_up_under_concurrency_and_expire(store: Store) -> None:
    counters = DatabaseStorage(store.engine)
    with ThreadPoolExecutor(8) as pool:
        list(pool.map(lambda _: counters.incr("bytes", 60, 100), range(40)))
    assert counters.get("bytes") == 4000
    assert counters.incr("bytes", 60, -500) == 3500, "a refund"
    assert 55 < counters.get_expiry("bytes") - time.time() <= 60
    counters.incr("short", 1, 7)
    time.sleep(1.1)
    assert counters.get("short") == 0 and counters.incr("short", 1, 2) == 2, "a new window"


def test_old_hits_are_pruned_as_it_goes(store: Store) -> None:
    limiter = MovingWindowRateLimiter(DatabaseStorage(store.engine))
    [limit] = parse_many("2 per second")
    assert [limiter.hit(limit, "save", "a") for _ in range(3)] == [True, True, False]
    time.sleep(1.1)
    assert limiter.hit(limit, "save", "a"), "the window moved on"
    fresh = MovingWindowRateLimiter(DatabaseStorage(store.engine))  # sweeps on its first hit
    time.sleep(1.1)
    assert fresh.hit(limit, "save", "b")
    with store.engine.connect() as connection:
        keys = connection.execute(sa.select(rate_hits.c.key)).scalars().all()
        counters = connection.execute(sa.select(rate_counters.c.key)).scalars().all()
    assert [key.split("/")[2] for key in keys] == ["b"]
    assert [key.split("/")[2] for key in counters] == ["b"]


# -- two app servers, one database ---------------------------------------------------


def test_two_app_servers_on_one_database_count_together(
    tmp_path: Path, database_url: str, apps: list[Flask]
) -> None:
    first, second = (
        _app(apps, tmp_path / name, database_url, RATE_LIMIT="4 per minute") for name in ("a", "b")
    )
    clients = [first.test_client(), second.test_client()]
    answers = [_create(clients[n % 2]) for n in range(8)]
    assert [a.status_code for a in answers] == [201] * 4 + [429] * 4
    refused = answers[-1]
    assert 1 <= int(refused.headers["Retry-After"]) <= 60
    assert refused.json["error"] == words.too_many_saves("4 per minute", 60)
    # A third app server started afterwards (a restart) sees the same counts.
    third = _app(apps, tmp_path / "c", database_url, RATE_LIMIT="4 per minute")
    assert _create(third.test_client()).status_code == 429
    assert first.extensions["ginrules.store"].count() == 4


def test_with_redis_url_app_servers_count_together_in_redis(
    tmp_path: Path, apps: list[Flask]
) -> None:
    with redis_server(tmp_path / "redis") as url:
        made = [
            _app(
                apps,
                tmp_path / name,
                f"sqlite:///{tmp_path / name}.db",
                REDIS_URL=url,
                RATE_LIMIT="3 per minute",
                DAILY_SAVE_BYTES="1000000",
            )
            for name in ("a", "b")
        ]
        clients = [app.test_client() for app in made]
        answers = [_create(clients[n % 2]).status_code for n in range(6)]
        assert answers == [201] * 3 + [429] * 3
        # Nothing was counted in either database: the counters are Redis's.
        for app in made:
            with app.extensions["ginrules.store"].engine.connect() as connection:
                assert (
                    connection.execute(
                        sa.select(sa.func.count()).select_from(rate_hits)
                    ).scalar_one()
                    == 0
                )
        # A restart (a new app server on the same Redis) still refuses.
        third = _app(
            apps,
            tmp_path / "c",
            f"sqlite:///{tmp_path / 'c'}.db",
            REDIS_URL=url,
            RATE_LIMIT="3 per minute",
        )
        assert _create(third.test_client()).status_code == 429
    # Redis gone: a save is a 503 with Retry-After, never a 500 or an uncounted save.
    down = _create(made[0].test_client(), address="192.0.2.9")
    assert down.status_code == 503 and down.headers["Retry-After"]
    assert [app.extensions["ginrules.store"].count() for app in made] == [2, 1]


def test_an_unreachable_database_is_a_503_not_a_save(tmp_path: Path, apps: list[Flask]) -> None:
    with socket.socket() as probe:  # a port nothing listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    down = f"postgresql+psycopg://ginrules:ginrules@127.0.0.1:{port}/none"
    app = _app(apps, tmp_path, down, UPGRADE_ON_START=False)
    answer = _create(app.test_client())
    assert answer.status_code == 503, answer.text
    assert answer.headers["Retry-After"] and answer.json["status"] == 503


# -- behind a proxy ------------------------------------------------------------------


def _statuses(client: FlaskClient, address: str, forwarded: str, count: int) -> list[int]:
    return [
        _create(client, address, **{"X-Forwarded-For": forwarded}).status_code for _ in range(count)
    ]


def test_each_client_behind_a_trusted_proxy_has_its_own_allowance(
    tmp_path: Path, apps: list[Flask]
) -> None:
    app = _app(
        apps,
        tmp_path,
        f"sqlite:///{tmp_path / 'site.db'}",
        RATE_LIMIT="3 per minute",
        TRUSTED_PROXIES="127.0.0.1, 10.0.0.0/8",
    )
    client = app.test_client()
    assert _statuses(client, "127.0.0.1", "203.0.113.1", 4) == [201, 201, 201, 429]
    assert _statuses(client, "127.0.0.1", "203.0.113.2", 4) == [201, 201, 201, 429]
    # Through two trusted proxies; what the client itself claims (left) is not believed.
    chain = "203.0.113.1, 198.51.100.7, 10.1.2.3"
    assert _statuses(client, "127.0.0.1", chain, 4) == [201, 201, 201, 429]
    # A spoofed header from an address that is not a trusted proxy counts as that address.
    spoofed = [_statuses(client, "192.0.2.50", f"203.0.113.{n}", 1)[0] for n in range(10, 14)]
    assert spoofed == [201, 201, 201, 429]


def test_without_trusted_proxies_the_forwarded_header_is_ignored(
    tmp_path: Path, apps: list[Flask]
) -> None:
    app = _app(apps, tmp_path, f"sqlite:///{tmp_path / 'site.db'}", RATE_LIMIT="3 per minute")
    client = app.test_client()
    shared = _statuses(client, "127.0.0.1", "203.0.113.1", 2)
    shared += _statuses(client, "127.0.0.1", "203.0.113.2", 2)
    assert shared == [201, 201, 201, 429], "one allowance for the one connecting address"


def test_the_proxy_middleware_sets_address_and_scheme_only_when_trusted() -> None:
    seen: dict[str, str] = {}

    def app(environ: Any, start_response: Any) -> list[bytes]:
        seen.update(address=environ["REMOTE_ADDR"], scheme=environ["wsgi.url_scheme"])
        start_response("204 No Content", [])
        return []

    client = Client(TrustedProxies(app, settings.trusted_proxies("127.0.0.1,fd00::/8")))

    def call(address: str, forwarded: str) -> dict[str, str]:
        client.get(
            "/",
            environ_base={"REMOTE_ADDR": address},
            headers={"X-Forwarded-For": forwarded, "X-Forwarded-Proto": "https"},
        )
        return dict(seen)

    assert call("127.0.0.1", "203.0.113.1") == {"address": "203.0.113.1", "scheme": "https"}
    assert call("fd00::5", "2001:db8::1") == {"address": "2001:db8::1", "scheme": "https"}
    assert call("192.0.2.1", "203.0.113.1") == {"address": "192.0.2.1", "scheme": "http"}
    assert call("127.0.0.1", "fd00::7, 127.0.0.1") == {"address": "fd00::7", "scheme": "https"}


def test_an_ipv6_client_counts_as_its_64_network(tmp_path: Path, apps: list[Flask]) -> None:
    app = _app(apps, tmp_path, f"sqlite:///{tmp_path / 'site.db'}", RATE_LIMIT="2 per minute")
    client = app.test_client()
    statuses = [_create(client, f"2001:db8:1:2::{n}").status_code for n in range(1, 4)]
    assert statuses == [201, 201, 429], "one household's devices share an allowance"
    assert _create(client, "2001:db8:1:3::1").status_code == 201, "another network"


# -- bytes per address per day ------------------------------------------------------


def test_the_bytes_one_address_saves_a_day_are_capped(tmp_path: Path, apps: list[Flask]) -> None:
    cap = 4096
    app = _app(
        apps,
        tmp_path,
        f"sqlite:///{tmp_path / 'site.db'}",
        RATE_LIMIT="100 per minute",
        DAILY_SAVE_BYTES=cap,
    )
    client = app.test_client()
    padded = YAML + "# " + "x" * 1400 + "\n"
    api_body = json.dumps({"yaml": padded}).encode()

    def api(text: str) -> Any:
        body = json.dumps({"yaml": text}).encode()
        return client.post("/api/houserules", data=body, content_type="application/json")

    assert api(padded).status_code == 201
    invalid = api(padded.replace("extends: classic", "extends: nowhere"))
    assert invalid.status_code == 422, "refused: its bytes are given back"
    fields = form_fields(client.get("/build/yaml").text)
    fields["yaml"] = padded
    form = client.post("/build/yaml", data=fields)
    assert form.status_code == 303, form.text[:300]
    form_bytes = int(form.request.headers["Content-Length"])
    assert len(api_body) + form_bytes <= cap < 2 * len(api_body) + form_bytes

    refused = api(padded)
    assert refused.status_code == 429
    assert refused.json["error"] == words.daily_bytes(cap, int(refused.headers["Retry-After"]))
    assert "4 KiB" in refused.json["error"]
    assert 23 * 3600 < int(refused.headers["Retry-After"]) <= 24 * 3600
    fields = form_fields(client.get("/build/yaml").text)
    fields["yaml"] = padded
    page = client.post("/build/yaml", data=fields)
    assert page.status_code == 429 and "4 KiB" in page.text, "the editor's form too"
    assert app.extensions["ginrules.store"].count() == 2, "nothing saved past the cap"
    other = client.post(
        "/api/houserules",
        data=api_body,
        environ_base={"REMOTE_ADDR": "192.0.2.9"},
        content_type="application/json",
    )
    assert other.status_code == 201, "another address has its own bytes"


# -- settings ------------------------------------------------------------------------


def test_bad_limit_settings_are_clear_errors(tmp_path: Path) -> None:
    def load(**values: str) -> dict[str, Any]:
        return settings.load({"INSTANCE_PATH": tmp_path, "SECRET_KEY": "x", **values})

    proxies = load(TRUSTED_PROXIES="10.0.0.1, 192.168.0.0/16,fd00::/8")["TRUSTED_PROXIES"]
    assert [str(network) for network in proxies] == ["10.0.0.1/32", "192.168.0.0/16", "fd00::/8"]
    assert load()["TRUSTED_PROXIES"] == () and load()["REDIS_URL"] is None
    for name, value, named in (
        ("TRUSTED_PROXIES", "10.0.0.1,proxy.example", "'proxy.example'"),
        ("TRUSTED_PROXIES", "10.0.0.0/33", "'10.0.0.0/33'"),
        ("REDIS_URL", "http://localhost:6379", "REDIS_URL 'http://localhost:6379'"),
        ("RATE_LIMIT", "lots", "RATE_LIMIT 'lots'"),
        ("CHECK_RATE_LIMIT", "5 per fortnight", "CHECK_RATE_LIMIT '5 per fortnight'"),
    ):
        with pytest.raises(settings.SettingsError, match=named):
            load(**{name: value})
    if importlib.util.find_spec("redis") is None:
        with pytest.raises(settings.SettingsError, match="pip install redis"):
            load(REDIS_URL="redis://localhost:6379/0")
    else:
        assert load(REDIS_URL="redis://localhost:6379/0")["REDIS_URL"].startswith("redis://")


def test_serve_refuses_a_bad_redis_url_without_a_traceback(tmp_path: Path) -> None:
    env = environment(tmp_path, {"REDIS_URL": "memcached://localhost:11211"})
    done = subprocess.run(
        [sys.executable, "-m", "ginrules", "serve", "--port", "0"],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode != 0
    assert "REDIS_URL 'memcached://localhost:11211'" in done.stderr + done.stdout
    assert "Traceback" not in done.stderr + done.stdout


# -- a real server: two workers and a restart ----------------------------------------


def _post(base: str) -> tuple[int, str]:
    host, port = base.removeprefix("http://").split(":")
    connection = http.client.HTTPConnection(host, int(port), timeout=20)
    try:  # a fresh connection each time: the workers take turns accepting them
        connection.request(
            "POST",
            "/api/houserules",
            json.dumps({"yaml": YAML}),
            {"Content-Type": "application/json"},
        )
        answer = connection.getresponse()
        answer.read()
        return answer.status, answer.getheader("Retry-After") or ""
    finally:
        connection.close()


def _cpu_ticks(group: int) -> dict[int, int]:
    """CPU time (clock ticks) of each process in the process group ``group``."""
    ticks = {}
    for entry in Path("/proc").iterdir():
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if entry.name.isdigit() and int(fields[2]) == group:
            ticks[int(entry.name)] = int(fields[11]) + int(fields[12])
    return ticks


@pytest.mark.load
def test_the_limit_holds_across_two_workers_and_a_restart(tmp_path: Path) -> None:
    env = {"RATE_LIMIT": "10 per minute", "DATABASE_URL": f"sqlite:///{tmp_path / 'site.db'}"}
    with serve(tmp_path, env=env, workers=2, threads=4) as running:
        base = running.started()
        group = running.process.pid
        before = _cpu_ticks(group)
        with ThreadPoolExecutor(16) as pool:
            answers = list(pool.map(lambda _: _post(base), range(40)))
        after = _cpu_ticks(group)
    statuses = [status for status, _ in answers]
    assert statuses.count(201) == 10 and statuses.count(429) == 30, statuses
    assert all(1 <= int(wait) <= 60 for status, wait in answers if status == 429)
    busy = [pid for pid in after if pid != group and after[pid] - before.get(pid, 0) >= 3]
    assert len(busy) >= 2, f"both workers served requests: {before} -> {after}"

    with serve(tmp_path, env=env, workers=2, threads=4) as running:
        base = running.started()
        again = [_post(base) for _ in range(3)]
    assert [status for status, _ in again] == [429] * 3, "a restart keeps the counts"
    assert all(wait for _, wait in again)
