"""The YAML editor's live check: the same validation as saving, answered as JSON.

``POST /build/yaml/check`` takes the text (a form field ``yaml``, or JSON
``{"yaml": ...}``) and answers ``{"ok": bool, "diagnostics": [...]}``, each
diagnostic with its line, column, dotted path, message and severity. Nothing is
saved. The CSRF token travels in the ``X-CSRFToken`` header, as the builder's
preview sends it. Checks count against their own, more generous rate limit
(``CHECK_RATE_LIMIT``) so typing never uses up a person's saves. Every refusal
(CSRF, too large, unreadable, too many) is JSON too, never a page, its message in the
request's language (:mod:`ginrules.words.guards`); the keys and codes stay as they are.
"""

from __future__ import annotations

import logging
from typing import Any

from flask import Blueprint, Response, jsonify, request
from flask_wtf.csrf import CSRFError
from werkzeug.exceptions import BadRequest, HTTPException

from ginrules.rules.diagnostics import Diagnostic
from ginrules.web import saving
from ginrules.web.security import count_request
from ginrules.words import guards
from ginrules.words.diagnostics import expected, hint, message

blueprint = Blueprint("yaml_check", __name__)
log = logging.getLogger("ginrules.web")


def _submitted_text() -> str:
    """The YAML text of the request: JSON ``{"yaml": text}`` or the form field ``yaml``."""
    if request.is_json:
        data = request.get_json(silent=True)
        text = data.get("yaml") if isinstance(data, dict) else None
    else:
        text = request.form.get("yaml")
    if not isinstance(text, str):
        raise BadRequest()
    return text


def _diagnostic(diagnostic: Diagnostic) -> dict[str, Any]:
    return {
        "line": diagnostic.line,
        "column": diagnostic.column,
        "path": ".".join(str(part) for part in diagnostic.path),
        "message": message(diagnostic),
        "expected": expected(diagnostic),
        "hint": hint(diagnostic),
        "severity": diagnostic.severity,
    }


@blueprint.post("/build/yaml/check")
def check() -> Response:
    count_request("CHECK_RATE_LIMIT", "yaml-check")
    text = _submitted_text()
    ruleset, diagnostics, _base = saving.read_yaml(text)
    return jsonify(
        {"ok": ruleset is not None, "diagnostics": [_diagnostic(d) for d in diagnostics]}
    )


def _refusal(status: int, description: str) -> Response:
    response = jsonify({"ok": False, "error": description, "status": status, "diagnostics": []})
    response.status_code = status
    return response


@blueprint.errorhandler(CSRFError)  # the site's own CSRF answer is registered as a 400
@blueprint.errorhandler(HTTPException)
def refused(error: HTTPException) -> Response:
    """CSRF, a body over the site's limit, an unreadable body, too many checks: JSON."""
    status = error.code or 500
    if isinstance(error, CSRFError):
        text = guards.form_expired()
    else:  # a 429 says which allowance is used up (ginrules.web.ratelimit words it)
        text = guards.refused(status) or error.description or guards.went_wrong()
    response = _refusal(status, text)
    retry_after = error.get_response().headers.get("Retry-After")
    if retry_after:
        response.headers["Retry-After"] = retry_after
    return response


@blueprint.errorhandler(Exception)
def failed(error: Exception) -> Response:
    log.exception("yaml_check failed: %s %s", request.method, request.path)
    return _refusal(500, guards.failed_here())
