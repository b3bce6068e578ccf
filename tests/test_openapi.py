"""The OpenAPI document matches what the API does.

schemathesis generates requests from the document (its coverage and fuzzing
phases, positive and negative data) and checks every answer of the real app,
served over HTTP on 127.0.0.1: no 5xx, only documented status codes and content
types, bodies that match the documented schemas, 4xx for schema-violating data.

Random identifiers almost never name anything, so about two in three of the
fuzzing phase's requests are pointed at things that exist (a hook below): a
shipped ruleset, a saved house rule and its versions, the house rule's real
edit secret, rulesets that parse. The success answers (200, 201) are checked that way too, and
``test_each_operation_answers_a_known_resource_as_documented`` makes sure each
operation's success answer is checked at least once, whatever the generator drew.

Bounded and deterministic: derandomized Hypothesis, 25 examples per operation.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import jsonschema
import pytest
import schemathesis
import yaml
from flask import Flask
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from schemathesis.config import SchemathesisConfig
from schemathesis.core.parameters import ParameterLocation
from schemathesis.core.result import Ok

from ginrules.web import create_app
from ginrules.web.openapi import document
from tests.web_helpers import Client, serve_at_own_address

#: Rulesets that parse and validate, as YAML text and as a JSON object.
#: (Saved house rules say their own name, author and description.)
_YAML_BODIES = [
    "name: Schemathesis\nauthor: Ana\ndescription: ''\nextends: classic\n"
    "hand_scoring:\n  gin_bonus: 30\n",
    "name: Schemathesis undercut\nauthor: Ana\ndescription: ''\nextends: classic\n"
    "hand_scoring:\n  undercut_bonus: 20\n",
]
_OBJECT_BODY = {
    "name": "Schemathesis object",
    "author": "Ana",
    "description": "",
    "extends": "classic",
}
#: A table that starts, and a change any table can take (a dead hand).
_TABLE_BODY = {"rules": "classic", "players": ["Ana", "Ben"], "first_dealers": [1]}
_DEAD_HAND = {"seen": 0, "event": {"kind": "hand", "entries": [{"end": "dead"}]}}
#: A hand that ends classic's game: gin against 90 deadwood is 115.
_GIN_90 = {
    "seen": 0,
    "event": {"kind": "hand", "entries": [{"end": "gin", "ended_by": 0, "defender_deadwood": 90}]},
}
#: A game against the bot that starts (the same deal each time), and moves to send it.
_BOT_BODY = {"rules": "classic", "bot": "strong", "seed": 7}
_BOT_MOVES = [{"action": "pass"}, {"action": "draw"}, {"action": "take"}]
#: The same rulesets as documents: an ``application/yaml`` body is one of these,
#: serialized as YAML (its top level must be a mapping).
_YAML_DOCUMENTS = [yaml.safe_load(text) for text in _YAML_BODIES]

#: The schema-valid requests whose refusal depends on more than the schema can say:
#: whether a YAML text is a valid ruleset (422), whether ``forked_from`` or the
#: diff's ``a``/``b`` name a saved ruleset (400). A positive request may get these
#: there, and still no other 4xx; the body of each answer is checked all the same.
_ACCEPTED = ["2xx", "3xx", "401", "403", "404", "409", "429"]
_CONFIG = SchemathesisConfig.from_dict(
    {
        "operations": [
            {
                "include-operation-id": operation,
                "checks": {"positive_data_acceptance": {"expected-statuses": [*_ACCEPTED, *extra]}},
            }
            for operation, extra in (
                ("createHouseRule", ["400", "422"]),
                ("updateHouseRule", ["400", "422"]),
                ("diff", ["400"]),
                # Whether the players fit the format, or an event can follow the log.
                ("createTable", ["422"]),
                ("addTableEvent", ["422"]),
                # Whether the rules name a ruleset, or a move is legal now.
                ("createBotGame", ["422"]),
                ("addBotMove", ["422"]),
                # Whether the rules compile to their fingerprint, the log replays.
                ("importTable", ["422"]),
                # Whether the game is over yet.
                ("startNextGame", ["422"]),
            )
        ]
    }
)

#: The document as the app builds it; each request goes to the live test server.
schema = schemathesis.openapi.from_dict(document("http://127.0.0.1"), config=_CONFIG)


@dataclass
class Known:
    """Things that exist on the test server (filled in by the ``api_server`` fixture)."""

    names: list[str] = field(default_factory=list)
    slug: str = ""
    secret: str = ""
    refs: list[str] = field(default_factory=list)
    #: A card table the generator's requests use, and its scorer key.
    table: str = ""
    scorer_key: str = ""
    #: A second table only the known-request test touches (its first event is 201).
    quiet_table: str = ""
    quiet_key: str = ""
    #: A game against the bot the generator's requests use, and its player key; a
    #: second game only the known-request test touches, and a move it may take first.
    bot_game: str = ""
    player_key: str = ""
    quiet_bot_game: str = ""
    quiet_player_key: str = ""
    quiet_move: str = ""
    #: A table whose game is over (one gin), and its scorer key: its next game starts.
    over_table: str = ""
    over_key: str = ""
    #: A table's export with one change in its log: an import body that is taken.
    export: dict[str, Any] = field(default_factory=dict)


KNOWN = Known()


@pytest.fixture(scope="module")
def api_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    folder = tmp_path_factory.mktemp("openapi")

    def make(base: str) -> Flask:
        return create_app(
            {
                "INSTANCE_PATH": folder / "instance",
                "DATABASE_URL": f"sqlite:///{folder / 'api.db'}",
                "PUBLIC_BASE_URL": base,
                "SECRET_KEY": "openapi-test",
                "UPGRADE_ON_START": True,
                "RATE_LIMIT": "100000 per minute",
            }
        )

    with serve_at_own_address(make) as (base, app):
        client = Client(base)
        created = client.send_json("POST", "/api/houserules", {"yaml": _YAML_BODIES[0]})
        assert created.status == 201, created.text
        slug, secret = created.json()["slug"], created.json()["edit_secret"]
        second = client.send_json(
            "PUT", f"/api/houserules/{slug}", {"yaml": _YAML_BODIES[1]}, {"X-Edit-Secret": secret}
        )
        assert second.status == 201, second.text
        names = [r["ref"] for r in client.get("/api/rulesets").json()["rulesets"]]
        KNOWN.names, KNOWN.slug, KNOWN.secret = names, slug, secret
        KNOWN.refs = [*names[:3], f"h/{slug}", f"h/{slug}/v1", f"h/{slug}/v2"]
        for attribute in ("table", "quiet_table"):
            started = client.send_json("POST", "/api/tables", _TABLE_BODY)
            assert started.status == 201, started.text
            setattr(KNOWN, attribute, started.json()["slug"])
            key = "scorer_key" if attribute == "table" else "quiet_key"
            setattr(KNOWN, key, started.json()["scorer_key"])
        over = client.send_json("POST", "/api/tables", _TABLE_BODY)
        KNOWN.over_table, KNOWN.over_key = over.json()["slug"], over.json()["scorer_key"]
        won = client.send_json(
            "POST",
            f"/api/tables/{KNOWN.over_table}/events",
            _GIN_90,
            {"X-Scorer-Key": KNOWN.over_key},
        )
        assert won.status == 201 and won.json()["finished"], won.text
        for prefix in ("", "quiet_"):
            dealt = client.send_json("POST", "/api/bots", _BOT_BODY)
            assert dealt.status == 201, dealt.text
            setattr(KNOWN, f"{prefix}bot_game", dealt.json()["slug"])
            setattr(KNOWN, f"{prefix}player_key", dealt.json()["player_key"])
        first = next(m for m in dealt.json()["moves"] if m["card"] is None)
        KNOWN.quiet_move = first["action"]["action"]
        exported = client.get(f"/t/{KNOWN.table}/table.json")
        assert exported.status == 200, exported.text
        event = {"number": 1, "actor": "Ana", "at": "2026-05-01T20:15:00+00:00"}
        KNOWN.export = {**exported.json(), "events": [{**event, "event": _DEAD_HAND["event"]}]}
        try:
            yield base
        finally:
            KNOWN.slug = ""
    app.extensions["ginrules.store"].close()


@schema.hook
def flatmap_case(context: Any, case: Any) -> st.SearchStrategy[Any]:
    """Two times in three, the case's schema-valid parts name things that exist."""
    if not KNOWN.slug:
        return st.just(case)
    known = st.sampled_from([True, True, False])
    return known.flatmap(lambda real: _known(case) if real else st.just(case))


def _known(case: Any) -> st.SearchStrategy[Any]:
    """``case`` with each of its positive (schema-valid) parts replaced by a real one."""

    def positive(location: ParameterLocation) -> bool:
        return case.meta is None or not case.meta.is_negative_at(location)

    parts: dict[str, st.SearchStrategy[Any]] = {}
    if positive(ParameterLocation.PATH):
        real = {
            "table": st.just(KNOWN.table),
            "game": st.just(KNOWN.bot_game),
            "slug": st.just(KNOWN.slug),
            "name": st.sampled_from(KNOWN.names),
            "number": st.sampled_from([1, 2]),
        }
        parts["path"] = st.fixed_dictionaries(
            {name: real.get(name, st.just(value)) for name, value in case.path_parameters.items()}
        )
    if positive(ParameterLocation.HEADER) and "X-Edit-Secret" in case.headers:
        parts["secret"] = st.just(KNOWN.secret)
    if positive(ParameterLocation.HEADER) and "X-Scorer-Key" in case.headers:
        parts["scorer_key"] = st.just(KNOWN.scorer_key)
    if positive(ParameterLocation.HEADER) and "X-Player-Key" in case.headers:
        parts["player_key"] = st.just(KNOWN.player_key)
    if positive(ParameterLocation.QUERY) and case.operation.path == "/api/diff":
        parts["query"] = st.fixed_dictionaries(
            {name: st.sampled_from(KNOWN.refs) for name in ("a", "b") if name in case.query}
        )
    if positive(ParameterLocation.BODY) and case.operation.path.startswith("/api/tables"):
        if case.operation.path == "/api/tables":
            parts["body"] = st.just(_TABLE_BODY)
        elif case.operation.path == "/api/tables/import":
            parts["body"] = st.just(KNOWN.export)
        else:
            seen = st.integers(0, 3)  # mostly a stale count by now: 409 with the score
            parts["body"] = seen.map(lambda n: {**_DEAD_HAND, "seen": n})
    elif positive(ParameterLocation.BODY) and case.operation.path.startswith("/api/bots"):
        if case.operation.path == "/api/bots":
            parts["body"] = st.just(_BOT_BODY)
        else:  # mostly a stale count or a move not legal now: 409 or 422
            moves = st.tuples(st.integers(0, 3), st.sampled_from(_BOT_MOVES))
            parts["body"] = moves.map(lambda m: {"seen": m[0], "action": m[1]})
    elif positive(ParameterLocation.BODY) and case.method in ("POST", "PUT"):
        if case.media_type == "application/json":
            parts["body"] = st.sampled_from(
                [
                    {"yaml": _YAML_BODIES[0]},
                    {"yaml": _YAML_BODIES[1], "forked_from": f"h/{KNOWN.slug}/v1"},
                    {"ruleset": _OBJECT_BODY},
                ]
            )
        elif case.media_type == "application/yaml":
            parts["body"] = st.sampled_from(_YAML_DOCUMENTS)

    def apply(values: dict[str, Any]) -> Any:
        if "path" in values:
            case.path_parameters = values["path"]
        if "secret" in values:
            headers = case.headers.copy()
            headers["X-Edit-Secret"] = values["secret"]
            case.headers = headers
        if "scorer_key" in values:
            headers = case.headers.copy()
            headers["X-Scorer-Key"] = values["scorer_key"]
            case.headers = headers
        if "player_key" in values:
            headers = case.headers.copy()
            headers["X-Player-Key"] = values["player_key"]
            case.headers = headers
        if "query" in values:
            case.query = {**case.query, **values["query"]}
        if "body" in values:
            case.body = values["body"]
        return case

    return st.fixed_dictionaries(parts).map(apply)


@schema.parametrize()
@settings(
    max_examples=25,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=list(HealthCheck),
)
def test_the_api_does_what_its_openapi_document_says(case: Any, api_server: str) -> None:
    case.call_and_validate(base_url=api_server)


#: One request per operation for something that exists, and the success it must get.
def _known_requests() -> list[tuple[str, str, dict[str, Any], int]]:
    slug = "{slug}"
    return [
        ("GET", "/api/rulesets", {}, 200),
        ("GET", "/api/rulesets/{name}", {"path_parameters": {"name": "classic"}}, 200),
        ("GET", "/api/rulesets/{name}/config", {"path_parameters": {"name": "classic"}}, 200),
        ("GET", "/api/houserules", {"query": {"limit": 5}}, 200),
        (
            "POST",
            "/api/houserules",
            {"body": {"yaml": _YAML_BODIES[0]}, "media_type": "application/json"},
            201,
        ),
        ("GET", "/api/houserules/{slug}", {"path_parameters": {"slug": slug}}, 200),
        (
            "PUT",
            "/api/houserules/{slug}",
            {
                "path_parameters": {"slug": slug},
                "headers": {"X-Edit-Secret": "{secret}"},
                "body": _YAML_DOCUMENTS[1],
                "media_type": "application/yaml",
            },
            201,
        ),
        ("GET", "/api/houserules/{slug}/versions", {"path_parameters": {"slug": slug}}, 200),
        (
            "GET",
            "/api/houserules/{slug}/versions/{number}",
            {"path_parameters": {"slug": slug, "number": 1}},
            200,
        ),
        (
            "GET",
            "/api/houserules/{slug}/versions/{number}/config",
            {"path_parameters": {"slug": slug, "number": 2}},
            200,
        ),
        ("GET", "/api/diff", {"query": {"a": "classic", "b": "h/{slug}/v2"}}, 200),
        *[
            ("GET", f"/rules/{{name}}/{file}", {"path_parameters": {"name": "classic"}}, 200)
            for file in ("sheet", "sheet.pdf", "qr.png", "qr.svg")
        ],
        *[
            (
                "GET",
                f"/h/{{slug}}/v{{number}}/{file}",
                {"path_parameters": {"slug": slug, "number": 1}},
                200,
            )
            for file in ("sheet", "sheet.pdf")
        ],
        *[
            ("GET", f"/h/{{slug}}/{file}", {"path_parameters": {"slug": slug}}, 200)
            for file in ("qr.png", "qr.svg")
        ],
        (
            "POST",
            "/api/tables",
            {"body": _TABLE_BODY, "media_type": "application/json"},
            201,
        ),
        ("GET", "/api/tables/{table}", {"path_parameters": {"table": "{quiet_table}"}}, 200),
        (
            "POST",
            "/api/tables/{table}/events",
            {
                "path_parameters": {"table": "{quiet_table}"},
                "headers": {"X-Scorer-Key": "{quiet_key}"},
                "body": _DEAD_HAND,
                "media_type": "application/json",
            },
            201,
        ),
        (
            "POST",
            "/api/tables/{table}/next",
            {
                "path_parameters": {"table": "{over_table}"},
                "headers": {"X-Scorer-Key": "{over_key}"},
                "body": {"seen": 1, "rules": "same"},
                "media_type": "application/json",
            },
            201,
        ),
        (
            "GET",
            "/api/tables/{table}/scorer-link",
            {
                "path_parameters": {"table": "{quiet_table}"},
                "headers": {"X-Scorer-Key": "{quiet_key}"},
            },
            200,
        ),
        ("POST", "/api/bots", {"body": _BOT_BODY, "media_type": "application/json"}, 201),
        ("GET", "/api/bots/{game}", {"path_parameters": {"game": "{quiet_bot_game}"}}, 200),
        (
            "POST",
            "/api/bots/{game}/actions",
            {
                "path_parameters": {"game": "{quiet_bot_game}"},
                "headers": {"X-Player-Key": "{quiet_player_key}"},
                "body": {"seen": 0, "action": {"action": "{quiet_move}"}},
                "media_type": "application/json",
            },
            201,
        ),
        (
            "POST",
            "/api/tables/import",
            {"body": "{export}", "media_type": "application/json"},
            201,
        ),
        *[
            ("GET", f"/t/{{table}}/{file}", {"path_parameters": {"table": "{quiet_table}"}}, 200)
            for file in ("pad", "pad.pdf", "hands.csv", "table.json")
        ],
    ]


def _filled(value: Any) -> Any:
    """``value`` with ``{slug}`` and ``{secret}`` in its strings replaced by the real ones
    (and ``{export}`` by a table's export)."""
    if value == "{export}":
        return KNOWN.export
    if isinstance(value, str):
        names: tuple[str, ...] = ("slug", "secret", "quiet_table", "quiet_key")
        names = (*names, "over_table", "over_key", "table", "scorer_key")
        bots = ("quiet_bot_game", "quiet_player_key", "quiet_move", "bot_game", "player_key")
        for name in (*names, *bots):
            value = value.replace("{" + name + "}", getattr(KNOWN, name))
        return value
    if isinstance(value, dict):
        return {key: _filled(item) for key, item in value.items()}
    return value


@pytest.mark.parametrize(
    ("method", "path", "parts", "status"),
    _known_requests(),
    ids=[f"{method} {path}" for method, path, _, _ in _known_requests()],
)
def test_each_operation_answers_a_known_resource_as_documented(
    method: str, path: str, parts: dict[str, Any], status: int, api_server: str
) -> None:
    case = schema[path][method].Case(**_filled(parts))
    problems = _nonconforming(case)
    assert not problems, f"this request for a real resource breaks the document: {problems}"
    response = case.call_and_validate(base_url=api_server)
    assert response.status_code == status, response.text[:500]


def _nonconforming(case: Any) -> list[str]:
    """Where the request ``case`` sends breaks the document's parameter and body schemas."""
    operation = case.operation
    parts: list[tuple[str, Any, Any]] = [
        ("path", operation.path_parameters.validation_schema, case.path_parameters),
        ("query", operation.query.validation_schema, case.query),
        ("headers", operation.headers.validation_schema, dict(case.headers)),
    ]
    if case.media_type is not None:
        body = operation.get_body_for_media_type(case.media_type)
        parts.append((f"body ({case.media_type})", body.validation_schema, case.body))
    return [
        f"{where}: {error.message}"
        for where, part_schema, value in parts
        for error in jsonschema.Draft202012Validator(part_schema).iter_errors(value)
    ]


def _deeply_nested(depth: int) -> bytes:
    return b'{"ruleset": ' + b'{"a": ' * depth + b"1" + b"}" * depth + b"}"


#: Requests the generator does not reach, each sent as raw bytes: (method, path,
#: path parameters, headers, body, what it is). Each must get a documented 4xx.
_HOSTILE: list[tuple[str, str, dict[str, Any], dict[str, str], bytes | None, str]] = [
    (
        "POST",
        "/api/houserules",
        {},
        {"Content-Type": "application/json"},
        b'{"ruleset": ' + b"[" * 5000 + b"]" * 5000 + b"}",
        "JSON nested deeper than the parser's recursion limit",
    ),
    (
        "POST",
        "/api/houserules",
        {},
        {"Content-Type": "application/json"},
        _deeply_nested(600),
        "a ruleset object 600 levels deep",
    ),
    (
        "PUT",
        "/api/houserules/{slug}",
        {"slug": "{slug}"},
        {"Content-Type": "application/json", "X-Edit-Secret": "{secret}"},
        _deeply_nested(600),
        "a ruleset object 600 levels deep, with the right edit secret",
    ),
    (
        "POST",
        "/api/houserules",
        {},
        {"Content-Type": "application/json"},
        b'{"ruleset": {"name": "Lone \\ud800 surrogate", "extends": "classic"}}',
        "a lone surrogate (not Unicode text) in the ruleset's name",
    ),
    (
        "POST",
        "/api/tables/{table}/events",
        {"table": "{table}"},
        {"Content-Type": "application/json", "X-Scorer-Key": "{scorer_key}"},
        b'{"seen": 0, "event": ' + b"[" * 5000 + b"]" * 5000 + b"}",
        "a change nested deeper than the parser's recursion limit",
    ),
    (
        "POST",
        "/api/bots/{game}/actions",
        {"game": "{bot_game}"},
        {"Content-Type": "application/json", "X-Player-Key": "{player_key}"},
        b'{"seen": 0, "action": ' + b"[" * 5000 + b"]" * 5000 + b"}",
        "a move nested deeper than the parser's recursion limit",
    ),
    (
        "POST",
        "/api/bots/{game}/actions",
        {"game": "{bot_game}"},
        {"Content-Type": "application/json", "X-Player-Key": "{player_key}"},
        b'{"seen": 0, "action": {"action": "defend", "layoffs": [{"card": "AS", "meld": 1e400}]}}',
        "a lay-off onto a meld numbered beyond any float",
    ),
    (
        "POST",
        "/api/tables/{table}/events",
        {"table": "{table}"},
        {"Content-Type": "application/json", "X-Scorer-Key": "{scorer_key}"},
        b'{"seen": 0, "event": {"kind": "hand", "entries": [{"knocker": '
        + b'["AS"]' * 1
        + b', "defender": 7, "ended_by": 0}]}}',
        "cards that are not a list of cards",
    ),
    (
        "POST",
        "/api/tables/import",
        {},
        {"Content-Type": "application/json"},
        b'{"ginrules_table": 1, "players": ["A", "B"], "first_dealers": [0], "rules": '
        + b'{"ref": "classic", "name": "C", "fingerprint": "x", "yaml": "a: &a [*a]"}, '
        + b'"events": []}',
        "rules whose YAML is a recursive alias",
    ),
    *[
        (
            "GET",
            path,
            {"slug": "{slug}", "number": 10**20},
            {},
            None,
            "a version number beyond 64 bits",
        )
        for path in (
            "/api/houserules/{slug}/versions/{number}",
            "/api/houserules/{slug}/versions/{number}/config",
            "/h/{slug}/v{number}/sheet",
            "/h/{slug}/v{number}/sheet.pdf",
        )
    ],
]


@pytest.mark.parametrize(
    ("method", "path", "path_parameters", "headers", "body", "what"),
    _HOSTILE,
    ids=[f"{method} {path}: {what}" for method, path, _, _, _, what in _HOSTILE],
)
def test_hostile_requests_get_a_documented_client_error(
    method: str,
    path: str,
    path_parameters: dict[str, Any],
    headers: dict[str, str],
    body: bytes | None,
    what: str,
    api_server: str,
) -> None:
    case = schema[path][method].Case(path_parameters=_filled(path_parameters))
    response = case.call_and_validate(
        base_url=api_server, headers=_filled(headers), data=body, timeout=30
    )
    assert 400 <= response.status_code < 500, (what, response.status_code, response.text[:300])


def test_every_operation_has_a_known_request() -> None:
    documented = {
        f"{method.upper()} {path}"
        for path, methods in document("http://127.0.0.1")["paths"].items()
        for method in methods
    }
    assert documented == {f"{method} {path}" for method, path, _, _ in _known_requests()}


def test_the_served_document_is_the_one_tested(api_server: str) -> None:
    served = Client(api_server).get("/api/openapi.json")
    assert served.status == 200
    assert served.headers.get_content_type() == "application/json"
    data = json.loads(served.body)
    assert data["openapi"] == "3.1.0"
    assert data["servers"] == [{"url": api_server}]
    assert data == document(api_server)
    loaded = schemathesis.openapi.from_dict(data)
    results = list(loaded.get_all_operations())
    assert all(isinstance(result, Ok) for result in results), results
    assert len(results) == len(_known_requests())
