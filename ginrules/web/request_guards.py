"""Checks every request passes before a view sees it: cross-site state changes refused,
no answer built from the Host header, HSTS over HTTPS, and no caching of pages that
show an edit secret.

- A POST, PUT, PATCH or DELETE that a browser marks as sent from another site
  (``Sec-Fetch-Site: cross-site`` or ``same-site``: no page of this site lives on a
  sibling domain), or whose ``Origin`` is neither ``PUBLIC_BASE_URL``'s origin nor
  the request's own, is answered 403 before the CSRF check, the rate limit or the
  view. ``Origin: null`` (a sandboxed frame, a ``data:`` page, or a browser told to
  hide the origin by a referrer policy) is refused unless the browser says
  ``Sec-Fetch-Site: same-origin``; the site's own ``Referrer-Policy: same-origin``
  lets browsers send their real origin on its forms. Requests without
  these headers (scripts, old browsers) pass: forms keep their CSRF tokens and the
  API its edit secrets.
- Werkzeug's slash-fixing redirect (``/h//x`` to ``/h/x``) builds an absolute
  ``Location`` from the Host header; it is answered here with the path alone.
- A path with a NUL character is a 404 before any view looks it up.
- ``Strict-Transport-Security`` when ``PUBLIC_BASE_URL`` is ``https://`` (browsers
  ignore it on a plain-HTTP answer, so behind a proxy that ends TLS it is still right).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Final, ParamSpec
from urllib.parse import urlsplit

from flask import Flask, Response, abort, current_app, make_response, redirect, request
from werkzeug.routing import RequestRedirect
from werkzeug.wrappers import Response as BaseResponse

from ginrules.web.security import problem
from ginrules.words import guards as words

P = ParamSpec("P")

#: The methods that change something (the others only read).
STATE_CHANGES: Final = frozenset({"POST", "PUT", "PATCH", "DELETE"})
#: ``Sec-Fetch-Site`` values refused on a state change.
OTHER_SITES: Final = frozenset({"cross-site", "same-site"})
#: A year, this host and its subdomains (no preload: that is the operator's choice).
HSTS: Final = "max-age=31536000; includeSubDomains"
_DEFAULT_PORTS: Final = {"http": 80, "https": 443}


def origin_of(url: str) -> str | None:
    """``scheme://host[:port]`` of an http(s) URL, in lower case and without the
    scheme's default port; None for anything else (``null``, garbage, other schemes)."""
    try:
        parts = urlsplit(url.strip())
        port = parts.port
    except ValueError:
        return None
    scheme, host = parts.scheme.lower(), parts.hostname
    if scheme not in _DEFAULT_PORTS or not host:
        return None
    if port is None or port == _DEFAULT_PORTS[scheme]:
        return f"{scheme}://{host}"
    return f"{scheme}://{host}:{port}"


def _own_origins() -> set[str | None]:
    """The site's public origin and the one this request was sent to (compared, never
    echoed: a browser cannot choose the Host header of a page on another site)."""
    public = origin_of(str(current_app.config["PUBLIC_BASE_URL"]))
    return {public, origin_of(f"{request.scheme}://{request.host}")} - {None}


def cross_site_refusal() -> Response | None:
    """The 403 of a state change sent from another site; None for everything else."""
    if request.method not in STATE_CHANGES:
        return None
    site = request.headers.get("Sec-Fetch-Site", "").strip().lower()
    origin = request.headers.get("Origin")
    if site in OTHER_SITES:
        field, message = "Sec-Fetch-Site", words.cross_site()
    elif origin is None:
        return None
    elif origin.strip().lower() == "null":
        # A browser under a "no-referrer" policy sends "Origin: null" on a page's own form
        # posts too; then its Sec-Fetch-Site (which no page can set) says.
        if site == "same-origin":
            return None
        field, message = "Origin", words.no_origin()
    elif origin_of(origin) not in _own_origins():
        field, message = "Origin", words.cross_site()
    else:
        return None
    return problem(403, message, errors=[{"field": field, "message": message}])


def relative_redirect() -> BaseResponse | None:
    """Werkzeug's own redirect of this request (merged slashes), to the path alone."""
    found = request.routing_exception
    if not isinstance(found, RequestRedirect):
        return None
    parts = urlsplit(found.new_url)
    # One leading slash: "//host/x" or "/\host" would send the browser to another site.
    location = "/" + parts.path.lstrip("/\\")
    if parts.query:
        location += f"?{parts.query}"
    return redirect(location, found.code)


def no_store(view: Callable[P, object]) -> Callable[P, Response]:
    """Mark every answer of ``view`` ``Cache-Control: no-store``: it shows an edit
    secret (in the page or a hidden field), which no cache may keep."""

    @wraps(view)
    def private(*args: P.args, **kwargs: P.kwargs) -> Response:
        response = make_response(view(*args, **kwargs))
        response.headers["Cache-Control"] = "no-store"
        return response

    return private


def install(app: Flask) -> None:
    """Install the guards on ``app``: they run before every other check."""

    def guard() -> BaseResponse | None:
        if "\x00" in request.path:  # no page has one; PostgreSQL cannot even look it up
            abort(404)
        refused = cross_site_refusal()
        return refused if refused is not None else relative_redirect()

    app.before_request_funcs.setdefault(None, []).insert(0, guard)

    @app.after_request
    def strict_transport(response: Response) -> Response:
        if str(current_app.config["PUBLIC_BASE_URL"]).startswith("https://"):
            response.headers["Strict-Transport-Security"] = HSTS
        return response
