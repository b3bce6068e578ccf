"""Reading a JSON API request: every bad input a 4xx naming its field, never a 500.

The body must say ``application/json`` (else 415, before it is read) and be UTF-8 JSON
in which no object sends a key twice (else 422 naming each such key)."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

from flask import Response, abort, current_app, jsonify, request

from ginrules.words.inputs import duplicate_key, duplicate_keys
from ginrules.words.tables import input_problem, unknown_fields


class BadInput(Exception):
    """A request the API refuses: ``status``, a message, and one error per field."""

    def __init__(self, status: int, message: str, errors: list[dict[str, Any]] | None = None):
        super().__init__(message)
        self.status = status
        self.message = message
        self.errors = errors or []


def bad_input(error: BadInput) -> Response:
    """The JSON answer to a :class:`BadInput` (an error handler of each API blueprint)."""
    response = jsonify({"error": error.message, "status": error.status, "errors": error.errors})
    response.status_code = error.status
    return response


def field_error(status: int, field: str, message: str) -> BadInput:
    return BadInput(status, message, [{"field": field, "message": message}])


def moved_on(message: str, **now: Any) -> Response:
    """The 409 of a change made against a stale ``seen``: the refusal at that field,
    with the state as it now is (``table=...`` or ``game=...``) to start again from."""
    response = jsonify(
        {"error": message, "status": 409, "errors": [{"field": "seen", "message": message}], **now}
    )
    response.status_code = 409
    return response


def body_text() -> str:
    """The request body as text: 413 past the size limit, 400 when it is not UTF-8."""
    limit = current_app.config["MAX_CONTENT_LENGTH"]
    if request.content_length is None and request.headers.get("Transfer-Encoding"):
        # A chunked body no server measured (waitress measures it): read one byte past the
        # limit, so an over-long body is a 413 instead of a cut one.
        raw = bytes(request.environ["wsgi.input"].read(limit + 1))
    else:
        raw = request.get_data(cache=False)
    if len(raw) > limit:
        abort(413)
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as error:
        raise field_error(400, "body", input_problem("not_utf8", byte=error.start)) from None


def parse_json(text: str) -> Any:
    """JSON text as Python data: 400 when it is not JSON, 422 naming every key an object
    sends twice (``ruleset.scoring.gin_bonus``; list items by index), which ``json``
    would otherwise read as the last one silently."""
    twice: dict[int, tuple[str, ...]] = {}  # by the id() of each object that does

    def pairs(items: list[tuple[str, Any]]) -> dict[str, Any]:
        found = dict(items)
        if len(found) < len(items):
            counts = Counter(key for key, _ in items)
            twice[id(found)] = tuple(key for key, count in counts.items() if count > 1)
        return found

    try:
        data = json.loads(text, object_pairs_hook=pairs)
    except (ValueError, RecursionError):
        raise field_error(400, "body", input_problem("not_json")) from None
    if twice:
        errors = [
            {"field": ".".join((*where, key)), "message": duplicate_key(key, ".".join(where))}
            for where, key in _keys_twice(data, twice)
        ]
        raise BadInput(422, duplicate_keys(), errors)
    return data


def _keys_twice(data: Any, twice: dict[int, tuple[str, ...]]) -> list[tuple[tuple[str, ...], str]]:
    """Where each key sent twice is: (the path of its object, the key), in order."""
    found: list[tuple[tuple[str, ...], str]] = []
    stack: list[tuple[tuple[str, ...], Any]] = [((), data)]
    while stack:  # no recursion: as deep as json.loads went, and no deeper
        path, value = stack.pop()
        if isinstance(value, dict):
            found.extend((path, key) for key in twice.get(id(value), ()))
            stack.extend(((*path, key), item) for key, item in reversed(value.items()))
        elif isinstance(value, list):
            stack.extend(((*path, str(i)), item) for i, item in reversed(list(enumerate(value))))
    return found


def json_object(keys: frozenset[str]) -> dict[str, Any]:
    """The body as a JSON object with no field outside ``keys``."""
    if request.mimetype != "application/json":
        raise field_error(415, "Content-Type", input_problem("not_json_type"))
    data = parse_json(body_text())
    if not isinstance(data, dict):
        raise field_error(400, "body", input_problem("not_object"))
    unknown = sorted(set(data) - keys)
    if unknown:
        message = unknown_fields(unknown)
        raise BadInput(400, message, [{"field": name, "message": message} for name in unknown])
    return data


def _present(data: dict[str, Any], name: str) -> Any:
    """The field's value; a 400 naming it when it is missing (or null)."""
    value = data.get(name)
    if value is None:
        raise field_error(400, name, input_problem("missing", name=name))
    return value


def text_field(data: dict[str, Any], name: str) -> str:
    value = _present(data, name)
    if not isinstance(value, str):
        raise field_error(400, name, input_problem("not_string", name=name))
    return value


def as_whole(value: object) -> int | None:
    """A JSON whole number (``3`` or ``3.0``, as JSON Schema counts them; never ``true``)."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return None


def whole_field(data: dict[str, Any], name: str) -> int:
    whole = as_whole(_present(data, name))
    if whole is None:
        raise field_error(400, name, input_problem("not_whole", name=name))
    return whole


def list_field(data: dict[str, Any], name: str) -> list[Any]:
    value = _present(data, name)
    if not isinstance(value, list):
        raise field_error(400, name, input_problem("not_list", name=name))
    return value
