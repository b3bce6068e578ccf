"""Reading a JSON API request: every bad input a 4xx naming its field, never a 500."""

from __future__ import annotations

import json
from typing import Any

from flask import Response, abort, current_app, jsonify, request

from ginrules.words.tables import input_problem


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
    raw = request.get_data(cache=False)
    if len(raw) > current_app.config["MAX_CONTENT_LENGTH"]:
        abort(413)
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as error:
        raise field_error(400, "body", input_problem("not_utf8", byte=error.start)) from None


def json_object(keys: frozenset[str]) -> dict[str, Any]:
    """The body as a JSON object with no field outside ``keys``."""
    body = body_text()
    if request.mimetype != "application/json":
        raise field_error(415, "Content-Type", input_problem("not_json_type"))
    try:
        data = json.loads(body)
    except (ValueError, RecursionError):
        raise field_error(400, "body", input_problem("not_json")) from None
    if not isinstance(data, dict):
        raise field_error(400, "body", input_problem("not_object"))
    unknown = sorted(set(data) - keys)
    if unknown:
        message = input_problem("unknown", names=", ".join(unknown))
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
