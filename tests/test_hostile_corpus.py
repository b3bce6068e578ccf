"""The hostile-request corpus (tests/hostile/corpus.jsonl, written by
scripts/make_hostile_corpus.py) sent to the site on a real SQLite file and on the real
PostgreSQL server.

Every request must get: no 5xx; an error answer as JSON (with its message) under
``/api/`` and as an HTML page elsewhere; no traceback in any body; nothing stored
by a refused request; no answer naming a forged host; and, where the corpus fixes
it, the exact status (cross-site 403, the relative 308 and its Location). All
failures are collected and reported together, by entry id.
"""

from __future__ import annotations

import base64
import io
import json
import re
import secrets
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Final

import pytest
import sqlalchemy as sa
from flask import Flask
from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from ginrules.web.tables import metadata
from tests.databases import database_url
from tests.hostile.site import filled, make_app, seed
from tests.web_helpers import form_fields

__all__ = ["database_url"]  # a fixture

CORPUS: Final = Path(__file__).parent / "hostile" / "corpus.jsonl"
ENTRIES: Final[list[dict[str, Any]]] = [
    json.loads(line) for line in CORPUS.read_text(encoding="utf-8").splitlines() if line
]
#: The tables whose rows a refused request must not change (rate counters may).
CONTENT: Final = (
    "house_rules",
    "versions",
    "form_tokens",
    "card_tables",
    "table_events",
    "bot_games",
)
#: What a traceback or a leaked exception looks like in a body.
LEAKS: Final = (
    b"Traceback (most recent call last)",
    b'File "/',
    b"sqlalchemy.exc",
    b"psycopg.errors",
    b"werkzeug.exceptions",
    b"jinja2.exceptions",
)
#: Site pages that answer JSON to their own scripts (either format is right there).
JSON_PAGES: Final = ("/build/yaml/check", "/build/preview")
EVIL: Final = b"evil.example"
_REPEAT: Final = re.compile(r"<<repeat\|(.+?)\|(\d+)>>")


def expand(text: str, values: dict[str, str]) -> str:
    """The corpus text as sent: repeat markers expanded, placeholders filled."""
    text = _REPEAT.sub(lambda found: found[1] * int(found[2]), text)
    return filled(text, {**values, "form_token": secrets.token_urlsafe(16)})


def body_of(entry: dict[str, Any], values: dict[str, str]) -> bytes:
    if "body_b64" in entry:
        return base64.b64decode(entry["body_b64"])
    return expand(entry.get("body", ""), values).encode("utf-8")


def send(
    app: Flask, client: FlaskClient, entry: dict[str, Any], values: dict[str, str]
) -> tuple[TestResponse, bytes, bytes]:
    """Send one entry; its answer, the answer's body (a live stream's first message) and
    the request's path and body as sent."""
    headers = {name: expand(value, values) for name, value in entry["headers"].items()}
    path = expand(entry["path"], values)
    body = body_of(entry, values)
    options: dict[str, Any] = {"method": entry["method"], "headers": headers, "buffered": False}
    if entry.get("chunked"):
        headers["Transfer-Encoding"] = "chunked"
        options["input_stream"] = io.BytesIO(body)
        options["environ_overrides"] = {"wsgi.input_terminated": True}
    elif body:
        options["data"] = body
    # A request with its own cookies must not replace the session the others use.
    sender = app.test_client() if "Cookie" in headers else client
    answer = sender.open(path, **options)
    try:
        if answer.mimetype == "text/event-stream":
            first = next(iter(answer.response), b"")
            received = first if isinstance(first, bytes) else str(first).encode()
        else:
            received = answer.get_data()
    finally:
        answer.close()
    return answer, received, path.encode("utf-8", "replace") + body


def counts(app: Flask) -> tuple[int, ...]:
    engine = app.extensions["ginrules.store"].engine
    query = sa.select(
        *(
            sa.select(sa.func.count()).select_from(metadata.tables[name]).scalar_subquery()
            for name in CONTENT
        )
    )
    with engine.connect() as connection:
        return tuple(connection.execute(query).one())


def _message(answer: TestResponse, body: bytes) -> str | None:
    """Why an error answer is in the wrong format or says nothing; None when it is right."""
    path = answer.request.path
    wants_json = path.startswith("/api/") or "application/json" in answer.request.headers.get(
        "Accept", ""
    )
    if answer.mimetype == "application/json":
        try:
            data = json.loads(body)
        except ValueError:
            return "JSON error answer that is not JSON"
        said = data.get("error") if isinstance(data, dict) else None
        if not isinstance(said, str) or not said.strip():
            return "JSON error answer without a message"
        if not wants_json and not path.startswith(JSON_PAGES):
            return "JSON error answer on a site page"
        return None
    if path.startswith("/api/"):
        return f"{answer.mimetype or 'untyped'} error answer under /api/"
    if answer.mimetype != "text/html":
        return f"{answer.mimetype or 'untyped'} error answer on a site page"
    if b'class="error-message"' not in body and b"error" not in body:
        return "HTML error answer without a message"
    return None


def problems_of(
    entry: dict[str, Any],
    answer: TestResponse,
    body: bytes,
    sent: bytes,
    changed: bool,
    values: dict[str, str],
) -> Iterator[str]:
    """What is wrong with one answer (nothing, for a good one)."""
    status = answer.status_code
    if status >= 500:
        yield f"{status}: {body[:160]!r}"
    if "expect" in entry and status != entry["expect"]:
        yield f"{status}, expected {entry['expect']}"
    if "location" in entry and answer.headers.get("Location") != expand(entry["location"], values):
        yield f"Location {answer.headers.get('Location')!r}"
    if status >= 400 and entry["method"] != "HEAD" and status < 500:
        wrong = _message(answer, body)
        if wrong:
            yield f"{status}: {wrong}"
    if any(leak in body for leak in LEAKS):
        yield f"{status}: a traceback in the body"
    shown = body + "\n".join(f"{k}: {v}" for k, v in answer.headers.items()).encode()
    if EVIL in shown and EVIL not in sent:
        yield f"{status}: the forged host is in the answer"
    refused = status >= 400 or status == 308 or entry["method"] in ("GET", "HEAD", "OPTIONS")
    if changed and refused:
        yield f"{status}: the database changed"


def run_corpus(app: Flask) -> tuple[list[tuple[str, str]], Counter[int]]:
    """Send every entry; the (id, problem) pairs and the statuses seen."""
    values = seed(app)
    client = app.test_client()
    values["csrf"] = form_fields(client.get("/bot/classic").text)["csrf_token"]
    found: list[tuple[str, str]] = []
    statuses: Counter[int] = Counter()
    before = counts(app)
    for entry in ENTRIES:
        answer, body, sent = send(app, client, entry, values)
        after = counts(app)
        statuses[answer.status_code] += 1
        grew_only = all(b <= a for b, a in zip(before, after, strict=True))
        changed = before != after
        for problem in problems_of(entry, answer, body, sent, changed, values):
            found.append((entry["id"], f"{entry['method']} {entry['path'][:80]}: {problem}"))
        if not grew_only:
            found.append((entry["id"], "rows disappeared"))
        before = after
    return found, statuses


#: What no stored name, author or description may hold: control characters (NUL
#: among them), lone surrogates, bidirectional controls.
UNSHOWABLE: Final = re.compile(
    "[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\ud800-\udfff\u202a-\u202e\u2066-\u2069]"
)
#: What a name or author may not hide besides (ginrules.rules.text allows the
#: zero-width joiners inside emoji and scripts, so they are not listed).
HIDDEN: Final = re.compile("[\u00ad\u200b\u200e\u200f\u2060\ufeff]")


def afterwards(app: Flask) -> Iterator[tuple[str, str]]:
    """Every version the corpus stored still shows (page, sheet, downloads, the builder
    from it, the API), and none holds text it should not."""
    client = app.test_client()
    engine = app.extensions["ginrules.store"].engine
    versions, rules = metadata.tables["versions"], metadata.tables["house_rules"]
    columns = (rules.c.slug, versions.c.number, versions.c.name, versions.c.author)
    joined = versions.join(rules, versions.c.house_rule_id == rules.c.id)
    with engine.connect() as connection:
        rows = connection.execute(
            sa.select(*columns, versions.c.description).select_from(joined)
        ).all()
    for slug, number, *texts in rows:
        where = f"h/{slug}/v{number}"
        name, author, description = texts
        for text in (name, author):
            if HIDDEN.search(text):
                yield where, f"stored name or author hides a character: {text!r}"
        for text in (name, author, description):
            if UNSHOWABLE.search(text):
                yield where, f"stored text holds {text!r}"
        for path in (
            f"/{where}",
            f"/{where}/sheet",
            f"/{where}.json",
            f"/build?from={where}",
            f"/api/houserules/{slug}/versions/{number}",
        ):
            with client.get(path) as answer:
                if answer.status_code >= 500:
                    yield where, f"GET {path}: {answer.status_code}"


def report(found: list[tuple[str, str]]) -> str:
    by_kind = Counter(entry_id.rsplit("-", 1)[0] for entry_id, _ in found)
    lines = [f"{len(found)} problems ({dict(by_kind)}):"]
    lines += [f"  {entry_id}: {problem}" for entry_id, problem in found[:300]]
    return "\n".join(lines)


def test_the_corpus_has_every_kind_of_hostile_request() -> None:
    assert len(ENTRIES) >= 500
    assert len({entry["id"] for entry in ENTRIES}) == len(ENTRIES)
    kinds = Counter(entry["kind"] for entry in ENTRIES)
    for kind in (
        "api-ruleset-types",
        "api-names",
        "api-missing",
        "bad-utf8",
        "bad-versions",
        "bad-pages",
        "bot-actions",
        "content-types",
        "cross-site",
        "deep",
        "host",
        "json-duplicates",
        "json-surrogates",
        "methods",
        "oversized",
        "paths",
        "table-events",
        "table-import",
        "yaml-attacks",
        "yaml-escapes",
    ):
        assert kinds[kind] >= 5, kind
    assert any(entry.get("chunked") for entry in ENTRIES)
    assert all(entry["method"] and entry["path"].startswith("/") for entry in ENTRIES)


@pytest.fixture
def app(tmp_path: Path, database_url: str) -> Iterator[Flask]:
    site = make_app(tmp_path, database_url)
    yield site
    site.extensions["ginrules.store"].close()


def test_every_hostile_request_gets_a_clean_answer_and_stores_nothing(app: Flask) -> None:
    found, statuses = run_corpus(app)
    assert sum(statuses.values()) == len(ENTRIES)
    found += list(afterwards(app))
    assert not found, report(found) + f"\nstatuses: {dict(sorted(statuses.items()))}"
