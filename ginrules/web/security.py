"""Security headers, CSRF on forms, a rate limit on saving, and errors that never leak.

Every error is a 4xx (or a plain 500 page) with a message a person can act
on: JSON for the API, a page for the site; never a traceback.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from functools import wraps
from typing import Any, Final, ParamSpec, TypeVar

from flask import Flask, Response, abort, current_app, jsonify, render_template, request
from flask_wtf.csrf import CSRFError, CSRFProtect
from limits import parse_many
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter
from sqlalchemy.exc import OperationalError
from werkzeug.exceptions import HTTPException

from ginrules.web.storage import NotFound, StorageError

P = ParamSpec("P")
R = TypeVar("R")

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
    "Referrer-Policy": "no-referrer",
    "Permissions-Policy": "camera=(), microphone=(), geolocation=()",
    "Cross-Origin-Opener-Policy": "same-origin",
}

_HEADER_LIST: Final = list(HEADERS.items())

csrf = CSRFProtect()
log = logging.getLogger("ginrules.web")


def limited(view: Callable[P, R]) -> Callable[P, R]:
    """Count a save against ``RATE_LIMIT`` for the client's address; 429 beyond it.

    Only the decorated routes pay for the check (the ``limits`` library's moving
    window, in this app's memory; one gunicorn worker counts on its own).
    """

    @wraps(view)
    def checked(*args: P.args, **kwargs: P.kwargs) -> R:
        count_request("RATE_LIMIT", "save")
        return view(*args, **kwargs)

    return checked


def count_request(setting: str, scope: str) -> None:
    """Count this request in ``scope`` against the limits of the ``setting`` config
    key for the client's address; a 429 (with Retry-After) beyond them."""
    window: MovingWindowRateLimiter = current_app.extensions["ginrules.limits"]
    who = request.remote_addr or "unknown"
    for limit in parse_many(str(current_app.config[setting])):
        if not window.hit(limit, scope, who):
            reset = window.get_window_stats(limit, scope, who).reset_time
            abort(429, retry_after=max(1, int(reset - time.time())))


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


_MESSAGES: Final = {
    400: "The request could not be read.",
    404: "There is nothing here. Check the link, or start from the home page.",
    405: "That method is not allowed here.",
    413: "That is too large: a ruleset is at most 64 KiB, a request at most 128 KiB.",
    429: "Too many saves from your address just now; wait a minute and try again.",
}


def install(app: Flask) -> None:
    csrf.init_app(app)
    app.extensions["ginrules.limits"] = MovingWindowRateLimiter(MemoryStorage())

    @app.after_request
    def headers(response: Response) -> Response:
        response.headers.extend(_HEADER_LIST)
        return response

    @app.errorhandler(CSRFError)
    def csrf_failed(error: CSRFError) -> Response:
        return problem(
            400,
            "This form has expired or did not come from this site; reload the page and"
            " save again (what you typed is kept when you go back).",
        )

    @app.errorhandler(HTTPException)
    def http_error(error: HTTPException) -> Response:
        status = error.code or 500
        message = _MESSAGES.get(status) or error.description or "Something went wrong."
        if status == 429:
            message = _MESSAGES[429]
        response = problem(status, message)
        for name in ("Allow", "Retry-After"):  # what the standard answer carries
            value = error.get_response().headers.get(name)
            if value:
                response.headers[name] = value
        return response

    @app.errorhandler(NotFound)
    def no_such_rules(error: NotFound) -> Response:
        return problem(404, _MESSAGES[404])

    @app.errorhandler(StorageError)
    def not_saved(error: StorageError) -> Response:
        return problem(409, f"Not saved: {error}. Nothing was changed; what you sent is kept.")

    @app.errorhandler(OperationalError)
    def database_down(error: OperationalError) -> Response:
        log.error("database unavailable: %s", error.orig)
        response = problem(503, "The database is not answering just now; nothing was changed.")
        response.headers["Retry-After"] = "5"
        return response

    @app.errorhandler(Exception)
    def unexpected(error: Exception) -> Response:
        log.exception("unexpected error on %s %s", request.method, request.path)
        return problem(500, "Something went wrong on our side; nothing was saved.")
