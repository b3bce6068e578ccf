"""Security headers, CSRF on forms, a rate limit on saving, and errors that never leak.

Every error is a 4xx (or a plain 500 page) with a message a person can act
on: JSON for the API, a page for the site; never a traceback.
"""

from __future__ import annotations

import logging
from typing import Any, Final

from flask import Flask, Response, jsonify, render_template, request
from flask_wtf.csrf import CSRFError, CSRFProtect
from sqlalchemy.exc import OperationalError
from werkzeug.exceptions import HTTPException

from ginrules.web import ratelimit
from ginrules.web.ratelimit import count_request as count_request
from ginrules.web.ratelimit import limited as limited
from ginrules.web.storage import NotFound, StorageError
from ginrules.words import guards as words

CSP: Final = "; ".join(
    (
        "default-src 'self'",
        "script-src 'self'",
        # The printable sheet is one self-contained page with its CSS inline.
        "style-src 'self' 'unsafe-inline'",
        "img-src 'self' data:",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'self'",
    )
)

HEADERS: Final = {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "SAMEORIGIN",
    # Never a link's path (an edit link's key) to another site; this site's own forms
    # still send their real Origin, which request_guards checks.
    "Referrer-Policy": "same-origin",
    "Permissions-Policy": "camera=(), microphone=(), geolocation=()",
    "Cross-Origin-Opener-Policy": "same-origin",
}

_HEADER_LIST: Final = list(HEADERS.items())

csrf = CSRFProtect()
log = logging.getLogger("ginrules.web")


def wants_json() -> bool:
    return request.path.startswith("/api/") or request.accept_mimetypes.best == "application/json"


def problem(status: int, message: str, **extra: Any) -> Response:
    """An error answer: JSON for the API, the error page for people."""
    if wants_json():
        response = jsonify({"error": message, "status": status, **extra})
    else:
        response = Response(
            render_template("web/error.html", status=status, message=message, **extra),
            mimetype="text/html",
        )
    response.status_code = status
    return response


def install(app: Flask) -> None:
    csrf.init_app(app)
    ratelimit.install(app)  # limited, count_request: shared counters, trusted proxies

    @app.after_request
    def headers(response: Response) -> Response:
        response.headers.extend(_HEADER_LIST)
        return response

    @app.errorhandler(CSRFError)
    def csrf_failed(error: CSRFError) -> Response:
        return problem(400, words.form_expired())

    @app.errorhandler(HTTPException)
    def http_error(error: HTTPException) -> Response:
        status = error.code or 500
        # A 429 says which allowance is used up (ginrules.web.ratelimit words it).
        message = words.refused(status) or error.description or words.went_wrong()
        response = problem(status, message)
        for name in ("Allow", "Retry-After"):  # what the standard answer carries
            value = error.get_response().headers.get(name)
            if value:
                response.headers[name] = value
        return response

    @app.errorhandler(NotFound)
    def no_such_rules(error: NotFound) -> Response:
        return problem(404, words.refused(404) or "")

    @app.errorhandler(StorageError)
    def not_saved(error: StorageError) -> Response:
        return problem(409, words.not_saved(str(error)))

    @app.errorhandler(OperationalError)
    def database_down(error: OperationalError) -> Response:
        from ginrules.web import db_health  # every database failure: its 503 and Retry-After

        return db_health.unavailable(error)

    @app.errorhandler(Exception)
    def unexpected(error: Exception) -> Response:
        log.exception("unexpected error on %s %s", request.method, request.path)
        return problem(500, words.failed_here())
