"""What every request passes before a view: cross-site state changes refused, no answer
built from the Host header, HSTS over HTTPS; and the edit secret kept out of caches
and out of the session cookie.

The app runs on a real SQLite file (the handoff table on PostgreSQL too); the
double-slash redirect is checked over real HTTP, where the path is sent as is.
"""

from __future__ import annotations

import http.client
import json
import re
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any, cast

import pytest
import sqlalchemy as sa
from flask import Flask
from flask.sessions import SecureCookieSessionInterface
from flask.testing import FlaskClient
from werkzeug.routing import Rule
from werkzeug.routing.converters import AnyConverter
from werkzeug.test import TestResponse

from ginrules.web import handoffs
from ginrules.web.records import utc_now
from ginrules.web.request_guards import HSTS, origin_of
from ginrules.web.storage import Store, get_store
from ginrules.web.tables import edit_handoffs
from tests.databases import database_url, store
from tests.hostile.site import PUBLIC, make_app, seed
from tests.live_server import serve
from tests.page_tour import HOUSE_YAML
from tests.web_helpers import form_fields, live_server

__all__ = ["database_url", "store"]  # fixtures

EVIL = "evil.example"
#: Every header a proxy (or an attacker) may use to name the host.
HOST_HEADERS = {
    "Host": EVIL,
    "X-Forwarded-Host": EVIL,
    "X-Forwarded-Server": EVIL,
    "X-Host": EVIL,
    "X-Original-Host": EVIL,
    "Forwarded": f"host={EVIL};proto=https",
    "X-Forwarded-Proto": "https",
}


@pytest.fixture
def app(tmp_path: Path) -> Iterator[Flask]:
    site = make_app(tmp_path, f"sqlite:///{tmp_path / 'site.db'}")
    yield site
    site.extensions["ginrules.store"].close()


@pytest.fixture
def seeded(app: Flask) -> dict[str, str]:
    return seed(app)


def _count(app: Flask) -> int:
    with app.app_context():
        return get_store().count()


# -- cross-site state changes ----------------------------------------------------------

REFUSED = [
    ({"Origin": "https://evil.example"}, "Origin"),
    ({"Origin": "https://gin.example.org.evil.example"}, "Origin"),
    ({"Origin": "http://gin.example.org"}, "Origin"),  # the same host over another scheme
    ({"Origin": "https://gin.example.org:8443"}, "Origin"),
    ({"Origin": "null"}, "Origin"),
    ({"Origin": "null", "Sec-Fetch-Site": "none"}, "Origin"),
    ({"Origin": "not a url"}, "Origin"),
    ({"Sec-Fetch-Site": "cross-site"}, "Sec-Fetch-Site"),
    ({"Sec-Fetch-Site": "same-site"}, "Sec-Fetch-Site"),
    ({"Sec-Fetch-Site": "cross-site", "Origin": PUBLIC}, "Sec-Fetch-Site"),
]


@pytest.mark.parametrize(("headers", "field"), REFUSED)
@pytest.mark.parametrize("kind", ["application/json", "text/plain"])
def test_a_cross_site_api_save_is_refused_and_saves_nothing(
    app: Flask, headers: dict[str, str], field: str, kind: str
) -> None:
    body = json.dumps({"yaml": HOUSE_YAML}) if kind == "application/json" else HOUSE_YAML
    answer = app.test_client().post(
        "/api/houserules", data=body, headers={"Content-Type": kind, **headers}
    )
    assert answer.status_code == 403, answer.text
    assert answer.json is not None
    assert answer.json["status"] == 403
    assert "another web site" in answer.json["error"] or "Origin: null" in answer.json["error"]
    assert [error["field"] for error in answer.json["errors"]] == [field]
    assert _count(app) == 0


def test_every_state_change_from_another_site_is_refused(
    app: Flask, seeded: dict[str, str]
) -> None:
    client = app.test_client()
    before = _count(app)
    paths = [
        ("POST", "/build"),
        ("POST", "/build/yaml"),
        ("POST", "/build/preview"),
        ("POST", "/build/yaml/check"),
        ("POST", f"/h/{seeded['slug']}/edit"),
        ("POST", "/t/new"),
        ("POST", "/bot/classic"),
        ("PUT", f"/api/houserules/{seeded['slug']}"),
        ("POST", "/api/tables"),
        ("POST", f"/api/tables/{seeded['table']}/events"),
        ("POST", f"/api/tables/{seeded['table']}/next"),
        ("POST", "/api/tables/import"),
        ("POST", "/api/bots"),
        ("POST", f"/api/bots/{seeded['bot']}/actions"),
        ("DELETE", f"/api/houserules/{seeded['slug']}"),
        ("PATCH", "/"),
    ]
    for method, path in paths:
        answer = client.open(
            path,
            method=method,
            data={"key": seeded["secret"], "name": "Taken over"},
            headers={"Origin": "https://evil.example", "X-Edit-Secret": seeded["secret"]},
        )
        assert answer.status_code == 403, (method, path, answer.status_code)
        if path.startswith("/api/"):
            assert answer.mimetype == "application/json", path
        else:
            assert answer.mimetype == "text/html", path
            assert "another web site" in answer.text, path
    assert _count(app) == before
    with app.app_context():
        assert [v.number for v in get_store().versions(seeded["slug"])] == [1, 2]


@pytest.mark.parametrize(
    "headers",
    [
        {},  # scripts, curl, old browsers
        {"Origin": PUBLIC},
        {"Origin": "HTTPS://GIN.example.org:443"},
        {"Origin": "http://localhost"},  # the request's own origin (the test client's host)
        {"Sec-Fetch-Site": "same-origin", "Origin": PUBLIC},
        {"Sec-Fetch-Site": "none"},
        # A browser's own form post under a "no-referrer" policy.
        {"Origin": "null", "Sec-Fetch-Site": "same-origin"},
    ],
)
def test_a_save_from_this_site_or_a_script_passes(app: Flask, headers: dict[str, str]) -> None:
    answer = app.test_client().post("/api/houserules", json={"yaml": HOUSE_YAML}, headers=headers)
    assert answer.status_code == 201, answer.text
    assert _count(app) == 1


def test_reading_from_another_site_is_not_a_state_change(app: Flask) -> None:
    answer = app.test_client().get(
        "/rules/classic", headers={"Origin": "https://evil.example", "Sec-Fetch-Site": "cross-site"}
    )
    assert answer.status_code == 200


def test_the_site_builder_form_still_saves_from_its_own_page(app: Flask) -> None:
    client = app.test_client()
    fields = form_fields(client.get("/build?from=classic").text)
    fields.update({"name": "Same origin", "author": "Ana"})
    answer = client.post(
        "/build", data=fields, headers={"Origin": PUBLIC, "Sec-Fetch-Site": "same-origin"}
    )
    assert answer.status_code == 303, answer.text[:500]


def test_origin_of_normalises_and_refuses_what_is_not_a_web_origin() -> None:
    assert origin_of("HTTPS://Gin.Example.org:443/path") == "https://gin.example.org"
    assert origin_of("http://127.0.0.1:8000") == "http://127.0.0.1:8000"
    assert origin_of("http://[::1]:80") == "http://::1"
    for junk in ("null", "", "file://", "javascript:alert(1)", "http://x:99999", "gin.example"):
        assert origin_of(junk) is None, junk


# -- the Host header -------------------------------------------------------------------


def _raw_get(base: str, method: str, path: str, host: str) -> tuple[int, dict[str, str], bytes]:
    """A request sent as is (the path not normalised), with its own Host header."""
    address = base.removeprefix("http://")
    connection = http.client.HTTPConnection(address, timeout=30)
    try:
        connection.putrequest(method, path, skip_host=True, skip_accept_encoding=True)
        connection.putheader("Host", host)
        connection.putheader("Content-Length", "0")
        connection.endheaders()
        answer = connection.getresponse()
        return answer.status, dict(answer.getheaders()), answer.read()
    finally:
        connection.close()


def test_a_doubled_slash_redirects_to_the_path_never_to_the_host(
    app: Flask, seeded: dict[str, str]
) -> None:
    slug = seeded["slug"]
    cases = [
        ("GET", f"/h//{slug}", f"/h/{slug}"),
        ("GET", f"/h/{slug}//v1", f"/h/{slug}/v1"),
        ("GET", "/rules//classic///sheet?lang=en", "/rules/classic/sheet?lang=en"),
        ("GET", "/api//rulesets", "/api/rulesets"),
        ("POST", "/api//houserules", "/api/houserules"),
    ]
    with live_server(app) as base:
        for method, path, expected in cases:
            status, headers, body = _raw_get(base, method, path, EVIL)
            assert status == 308, (path, status)
            assert headers["Location"] == expected, (path, headers)
            assert EVIL.encode() not in body
            assert EVIL not in json.dumps(headers)


def test_the_served_site_never_answers_with_the_host_it_was_sent(tmp_path: Path) -> None:
    """The real ``ginrules serve`` (its own server in front of the app), not the test
    client: the relative redirect, and no page naming a forged host."""
    env = {"PUBLIC_BASE_URL": "http://gin.example.org"}  # live_server reads an http:// one
    with serve(tmp_path, "--port", "0", env=env) as running:
        base = running.started()
        status, headers, body = _raw_get(base, "GET", "/rules//classic", EVIL)
        assert (status, headers["Location"]) == (308, "/rules/classic"), (status, headers)
        assert "Strict-Transport-Security" not in headers  # plain HTTP
        for path in ("/", "/rules/classic", "/h//nothere", "/no/such/page", "/api/rulesets"):
            status, headers, body = _raw_get(base, "GET", path, EVIL)
            assert status < 500, (path, status)
            assert EVIL not in json.dumps(headers) and EVIL.encode() not in body, path


def _argument_values(rule: Rule, seeded: dict[str, str]) -> Iterator[dict[str, Any]]:
    """Every combination of real values for a rule's arguments (each ``any()`` choice)."""
    owner = "bot" if rule.rule.startswith(("/b/", "/api/bots")) else "slug"
    if rule.rule.startswith(("/t/", "/api/tables")):
        owner = "table"
    plain: dict[str, list[Any]] = {
        "slug": [seeded[owner]],
        "name": ["classic"],
        "number": [1, 2],
        "ref": ["classic", f"h/{seeded['slug']}/v2"],
        "filename": ["site.css"],
    }
    combos: list[dict[str, Any]] = [{}]
    for argument in sorted(rule.arguments):
        converter = rule._converters[argument]
        choices = (
            sorted(converter.items) if isinstance(converter, AnyConverter) else plain[argument]
        )
        combos = [{**combo, argument: choice} for combo in combos for choice in choices]
    yield from combos


def _sweep_paths(app: Flask, seeded: dict[str, str]) -> list[tuple[str, str]]:
    """(method, path) of every route of the site with every method it takes, and a
    few it does not (405 pages too must not name the host)."""
    adapter = app.url_map.bind("gin.example.org")
    found: list[tuple[str, str]] = []
    for rule in app.url_map.iter_rules():
        methods = sorted((rule.methods or set()) | {"GET", "POST", "PUT", "DELETE"})
        for values in _argument_values(rule, seeded):
            path = adapter.build(rule.endpoint, values, method=next(iter(rule.methods or {"GET"})))
            found.extend((method, path) for method in methods)
    return found


def _read(answer: TestResponse) -> bytes:
    """The body (of a live stream, its first message only); the answer closed."""
    try:
        if answer.mimetype == "text/event-stream":
            first = next(iter(answer.response), b"")
            return first if isinstance(first, bytes) else str(first).encode()
        return answer.get_data()
    finally:
        answer.close()


def test_no_answer_of_any_route_carries_the_host_header(app: Flask, seeded: dict[str, str]) -> None:
    client = app.test_client()
    pages = _sweep_paths(app, seeded)
    pages += [
        ("GET", f"/h/{seeded['slug']}/edit?key={seeded['secret']}"),
        ("GET", f"/h/{seeded['slug']}/edit?key={seeded['secret']}&mode=yaml"),
        ("GET", f"/h/{seeded['slug']}/edit?key=wrong"),
        ("GET", "/no/such/page"),
        ("GET", f"/h//{seeded['slug']}"),
        ("GET", "/static/../../etc/passwd"),
    ]
    assert len({path for _, path in pages}) > 60
    leaks = []
    for method, path in pages:
        answer = client.open(
            path,
            method=method,
            headers={**HOST_HEADERS, "X-Edit-Secret": seeded["secret"]},
            data=b"{}",
            content_type="application/json",
            buffered=False,
        )
        body = _read(answer)
        headers = "\n".join(f"{name}: {value}" for name, value in answer.headers.items())
        if EVIL in headers or EVIL.encode() in body:
            leaks.append((method, path, answer.status_code))
        assert answer.status_code < 500, (method, path, answer.status_code)
    assert not leaks, leaks


def test_a_form_save_shared_under_a_forged_host_links_to_the_public_address(app: Flask) -> None:
    client = app.test_client()
    fields = form_fields(client.get("/build?from=classic", headers=HOST_HEADERS).text)
    fields.update({"name": "Forged host", "author": "Ana"})
    saved = client.post("/build", data=fields, headers=HOST_HEADERS)
    assert saved.status_code == 303 and saved.location.startswith("/h/")
    share = client.get(saved.location, headers=HOST_HEADERS)
    assert share.status_code == 200
    assert f'value="{PUBLIC}/h/' in share.text and EVIL not in share.text


def test_a_path_with_a_nul_is_not_found_on_either_database(
    tmp_path: Path, database_url: str
) -> None:
    app = make_app(tmp_path, database_url)
    client = app.test_client()
    for path in ("/h/%00", "/h/%00/v1/sheet", "/api/houserules/%00", "/t/%00", "/api/bots/%00"):
        answer = client.get(path)
        assert answer.status_code == 404, (path, answer.status_code)
    answer = client.put("/api/houserules/%00", json={"yaml": HOUSE_YAML})
    assert answer.status_code == 404 and answer.json is not None and answer.json["error"]
    app.extensions["ginrules.store"].close()


# -- HSTS ------------------------------------------------------------------------------


def test_hsts_is_sent_on_every_answer_when_the_site_is_https(app: Flask) -> None:
    client = app.test_client()
    for path in ("/", "/api/rulesets", "/no/such/page", "/rules//classic", "/static/site.css"):
        with client.get(path) as answer:
            assert answer.headers.get("Strict-Transport-Security") == HSTS, path
    refused = client.post("/api/houserules", data="x", headers={"Origin": "https://evil.example"})
    assert refused.headers.get("Strict-Transport-Security") == HSTS


def test_no_hsts_when_the_site_is_plain_http(tmp_path: Path) -> None:
    app = make_app(tmp_path, f"sqlite:///{tmp_path / 'site.db'}", PUBLIC_BASE_URL="http://gin.lan")
    client = app.test_client()
    for path in ("/", "/api/rulesets", "/no/such/page"):
        assert "Strict-Transport-Security" not in client.get(path).headers, path
        # A proxy claiming HTTPS does not change that: the setting decides.
        answer = client.get(
            path, headers={"X-Forwarded-Proto": "https"}, base_url="https://gin.lan"
        )
        assert "Strict-Transport-Security" not in answer.headers, path
    app.extensions["ginrules.store"].close()


# -- the edit secret -------------------------------------------------------------------


def _form_save(client: FlaskClient, name: str) -> str:
    fields = form_fields(client.get("/build?from=classic").text)
    fields.update({"name": name, "author": "Ana"})
    saved = client.post("/build", data=fields)
    assert saved.status_code == 303, saved.text[:500]
    return saved.location


def _session(app: Flask, client: FlaskClient) -> tuple[str, dict[str, Any]]:
    """The session cookie as sent, and what it says (anyone holding it can read it)."""
    cookie = client.get_cookie("session")
    assert cookie is not None
    interface = cast(SecureCookieSessionInterface, app.session_interface)
    serializer = interface.get_signing_serializer(app)
    assert serializer is not None
    return cookie.value, dict(serializer.loads(cookie.value))


def test_the_edit_secret_is_not_in_the_session_cookie_and_is_shown_once(app: Flask) -> None:
    client = app.test_client()
    location = _form_save(client, "Secret keeping")
    raw, data = _session(app, client)
    assert handoffs.SESSION_KEY in data and "edit_secret" not in data
    share = client.get(location)
    link = re.search(r'id="edit-link"[^>]*value="([^"]+)"', share.text)
    assert link, share.text[:1000]
    secret = link[1].split("key=")[1]
    slug = location.split("/")[2]
    with app.app_context():
        assert get_store().edit_hash(slug) is not None
    assert secret not in raw and secret not in json.dumps(data)
    held = data[handoffs.SESSION_KEY]
    assert secret not in json.dumps(held)
    # The row holds the other half, and is gone once shown.
    with app.app_context(), get_store().engine.connect() as connection:
        assert (
            connection.execute(sa.select(sa.func.count()).select_from(edit_handoffs)).scalar() == 0
        )
    again = client.get(location)
    assert again.status_code == 200 and "edit-link" not in again.text, "shown once"
    assert client.get(f"/h/{slug}/edit?key={secret}").status_code == 200


def test_a_stolen_session_cookie_alone_does_not_give_the_secret(app: Flask) -> None:
    owner = app.test_client()
    location = _form_save(owner, "Cookie thief")
    _, data = _session(app, owner)
    held = data[handoffs.SESSION_KEY]
    with app.app_context():
        store = get_store()
        # Someone else's slug, a forged pad, a forged token: nothing.
        assert handoffs.take(store, {**held, "slug": "other"}, held["slug"]) is None
        assert handoffs.take(store, {**held, "token": "forged"}, held["slug"]) is None
        assert handoffs.take(store, "not a dict", held["slug"]) is None
    share = owner.get(location)
    assert "edit-link" in share.text  # the owner still gets it once: nothing was used up


def test_a_handoff_is_taken_once_and_expires(store: Store) -> None:
    held = handoffs.hand_over(store, "abcd2345", "s3cret-of-32-characters-exactly!")
    with store.engine.connect() as connection:
        cipher = connection.execute(sa.select(edit_handoffs.c.cipher)).scalar_one()
    assert "s3cret" not in cipher and "s3cret" not in json.dumps(held)
    assert handoffs.take(store, held, "abcd2345") == "s3cret-of-32-characters-exactly!"
    assert handoffs.take(store, held, "abcd2345") is None
    old = handoffs.hand_over(store, "abcd2345", "an old secret")
    with store.engine.begin() as connection:
        connection.execute(
            sa.update(edit_handoffs).values(created_at=utc_now() - timedelta(hours=2))
        )
    assert handoffs.take(store, old, "abcd2345") is None, "an hour old: never shown"
    stale = handoffs.hand_over(store, "abcd2345", "another old one")
    with store.engine.begin() as connection:
        connection.execute(
            sa.update(edit_handoffs)
            .where(edit_handoffs.c.token == stale["token"])
            .values(created_at=utc_now() - timedelta(hours=2))
        )
    handoffs.hand_over(store, "abcd2345", "a new one")  # prunes the stale row
    with store.engine.connect() as connection:
        tokens = connection.execute(sa.select(edit_handoffs.c.token)).scalars().all()
    assert stale["token"] not in tokens and len(tokens) == 1


def test_every_answer_that_shows_the_edit_secret_is_no_store(app: Flask) -> None:
    client = app.test_client()
    location = _form_save(client, "No store")
    share = client.get(location)
    link = re.search(r'id="edit-link"[^>]*value="([^"]+)"', share.text)
    assert link
    secret, slug = link[1].split("key=")[1], location.split("/")[2]
    answers: list[TestResponse] = [share]
    for mode in ("", "&mode=yaml"):
        page = client.get(f"/h/{slug}/edit?key={secret}{mode}")
        answers.append(page)
        fields = form_fields(page.text)
        broken = {"yaml": "name: [unclosed"} if mode else {"hand_scoring.gin_bonus": "lots"}
        answers.append(client.post(f"/h/{slug}/edit", data={**fields, **broken}))
        assert answers[-1].status_code == 422, answers[-1].text[:500]
    created = client.post("/api/houserules", json={"yaml": HOUSE_YAML})
    answers.append(created)
    assert created.json is not None
    api_secret = created.json["edit_secret"]
    answers.append(
        client.put(
            f"/api/houserules/{created.json['slug']}",
            json={"yaml": HOUSE_YAML},
            headers={"X-Edit-Secret": api_secret},
        )
    )
    shown = [a for a in answers if secret in a.text or api_secret in a.text]
    assert len(shown) >= 6
    for answer in answers:
        assert answer.headers.get("Cache-Control") == "no-store", (answer.request.path, answer)
