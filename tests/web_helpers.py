"""A real HTTP server on 127.0.0.1 for the site's tests, and a small cookie-keeping client.

The server is werkzeug's threaded WSGI server running the real app on a free
port; the test that starts it stops it. The client speaks plain HTTP through
urllib, keeps cookies like a browser, and never follows redirects on its own,
so tests see every 303.
"""

from __future__ import annotations

import html
import http.cookiejar
import json
import re
import threading
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from email.message import Message
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

from flask import Flask
from flask.testing import FlaskClient
from werkzeug.serving import make_server


@dataclass
class Answer:
    status: int
    headers: Message
    body: bytes

    @property
    def text(self) -> str:
        return self.body.decode("utf-8")

    def json(self) -> Any:
        return json.loads(self.body)

    @property
    def location(self) -> str:
        return str(self.headers.get("Location", ""))


class _NoRedirects(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None


class Client:
    """Cookies kept, redirects not followed, every status returned (no exceptions)."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.cookies = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(self.cookies), _NoRedirects()
        )

    def request(
        self,
        method: str,
        path: str,
        body: bytes | None = None,
        headers: Mapping[str, str] | None = None,
    ) -> Answer:
        url = path if path.startswith("http") else self.base + path
        request = urllib.request.Request(url, data=body, method=method, headers=dict(headers or {}))
        try:
            with self.opener.open(request, timeout=60) as response:
                return Answer(response.status, response.headers, response.read())
        except urllib.error.HTTPError as error:
            return Answer(error.code, error.headers, error.read())

    def get(self, path: str, headers: Mapping[str, str] | None = None) -> Answer:
        return self.request("GET", path, headers=headers)

    def post_form(self, path: str, fields: Mapping[str, str]) -> Answer:
        return self.request(
            "POST",
            path,
            urlencode(fields).encode("utf-8"),
            {"Content-Type": "application/x-www-form-urlencoded"},
        )

    def send_json(
        self, method: str, path: str, data: Any, headers: Mapping[str, str] | None = None
    ) -> Answer:
        return self.request(
            method,
            path,
            json.dumps(data).encode("utf-8"),
            {"Content-Type": "application/json", **(headers or {})},
        )

    def form_fields(self, path: str) -> dict[str, str]:
        """Every named input, select and textarea of the first form on a page, as a browser
        would submit them (with the CSRF token)."""
        page = self.get(path)
        assert page.status == 200, (path, page.status, page.text[:300])
        return form_fields(page.text)


def form_fields(page: str) -> dict[str, str]:
    form = page[page.index("<form") : page.index("</form>")]
    fields: dict[str, str] = {}
    for tag in re.findall(r"<input\b[^>]*>", form):
        name = re.search(r'name="([^"]+)"', tag)
        kind = re.search(r'type="([^"]+)"', tag)
        if kind and kind[1] in ("radio", "checkbox") and not re.search(r"\bchecked\b", tag):
            continue  # as a browser sends them: only the chosen one
        if name:
            value = re.search(r'value="([^"]*)"', tag)
            fields[html.unescape(name[1])] = html.unescape(value[1]) if value else ""
    for name, inner in re.findall(r'<select[^>]*name="([^"]+)"[^>]*>(.*?)</select>', form, re.S):
        chosen = re.search(r'<option value="([^"]*)" selected', inner)
        first = re.search(r'<option value="([^"]*)"', inner)
        fields[name] = html.unescape((chosen or first)[1]) if (chosen or first) else ""  # type: ignore[index]
    for name, inner in re.findall(
        r'<textarea[^>]*name="([^"]+)"[^>]*>(.*?)</textarea>', form, re.S
    ):
        fields[name] = html.unescape(inner)
    return fields


@contextmanager
def live_server(app: Flask) -> Iterator[str]:
    """Serve ``app`` on 127.0.0.1 (a free port) in a thread; yields the base URL."""
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        thread.join(timeout=10)
        server.server_close()


@contextmanager
def serve_at_own_address(make_app: Callable[[str], Flask]) -> Iterator[tuple[str, Flask]]:
    """Like :func:`live_server`, for an app that must know its own address first
    (``PUBLIC_BASE_URL`` pointing at the test server, so links and QR codes open it)."""

    class Deferred:
        app: Flask | None = None

        def __call__(self, environ: Any, start_response: Any) -> Any:
            assert self.app is not None
            return self.app(environ, start_response)

    deferred = Deferred()
    server = make_server("127.0.0.1", 0, deferred, threaded=True)
    base = f"http://127.0.0.1:{server.server_port}"
    deferred.app = make_app(base)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield base, deferred.app
    finally:
        server.shutdown()
        thread.join(timeout=10)
        server.server_close()


@contextmanager
def site_client(folder: Path, secret: str) -> Iterator[FlaskClient]:
    """A test client of a site on its own SQLite file in ``folder`` (a public base URL,
    a generous rate limit, the page memo cleared before and after)."""
    from ginrules.web import create_app
    from ginrules.web.responses import MEMO

    MEMO.clear()
    app = create_app(
        {
            "INSTANCE_PATH": str(folder / "instance"),
            "DATABASE_URL": f"sqlite:///{folder / 'site.db'}",
            "PUBLIC_BASE_URL": "https://gin.example.org",
            "SECRET_KEY": secret,
            "UPGRADE_ON_START": True,
            "RATE_LIMIT": "1000 per minute",
        }
    )
    try:
        yield app.test_client()
    finally:
        app.extensions["ginrules.store"].close()
        MEMO.clear()
