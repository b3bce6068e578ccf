"""A real browser for the site's tests: Debian's Chromium driven by Playwright.

No browser is ever downloaded (never ``playwright install``): the tests drive
``/usr/bin/chromium`` from the Debian package, headless, sandbox off (the
tests run as root), nothing fetched from the network, in a fresh profile in
the test's own folder. Every wait is bounded.

A :class:`Visit` watches everything a visitor would not want to see: console
errors (Chromium logs every Content-Security-Policy refusal as one, and an
init script reports each ``securitypolicyviolation`` event too), uncaught
script errors, failed requests and answers of 400 or more.
"""

from __future__ import annotations

import io
import os
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Final

import pytest
import zxingcpp
from flask import Flask
from PIL import Image

from ginrules.web import create_app
from tests.web_helpers import serve_at_own_address

if TYPE_CHECKING:
    from playwright.sync_api import Browser, ConsoleMessage, Page, Request
    from playwright.sync_api import Response as BrowserResponse

CHROMIUM: Final = "/usr/bin/chromium"
SCREENS: Final = Path("/tmp/ginrules-screens")

#: What works on a machine without network, as root.
ARGS: Final = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]

#: Every wait of a test (navigation, selectors, expectations), in milliseconds.
TIMEOUT_MS: Final = 20_000

#: Turns each CSP violation into a console error the watch below records (the
#: browser logs one too; this one names the directive and what was blocked).
_REPORT_CSP: Final = """
document.addEventListener("securitypolicyviolation", function (event) {
  console.error("CSP violation: " + event.violatedDirective + " blocked " +
                (event.blockedURI || "inline code") + " on " + event.documentURI);
});
"""


@dataclass
class Visit:
    """One browser tab and what went wrong in it."""

    page: Page
    problems: list[str] = field(default_factory=list)
    bad_answers: list[tuple[int, str, str]] = field(default_factory=list)

    def watch(self) -> None:
        self.page.on("console", self._console)
        self.page.on("pageerror", lambda error: self.problems.append(f"script error: {error}"))
        self.page.on("requestfailed", self._failed)
        self.page.on("response", self._answer)

    def _console(self, message: ConsoleMessage) -> None:
        if message.type == "error":
            self.problems.append(f"console: {message.text} ({message.location.get('url', '')})")

    def _failed(self, request: Request) -> None:
        failure = request.failure or ""
        # Leaving a page cancels what it still loads (a lazy frame, a preview): no fault.
        if "ERR_ABORTED" not in failure:
            self.problems.append(f"request failed: {request.method} {request.url}: {failure}")

    def _answer(self, response: BrowserResponse) -> None:
        if response.status >= 400:
            self.bad_answers.append((response.status, response.request.method, response.url))


@contextmanager
def chromium(tmp_path: Path, width: int = 1280, height: int = 900) -> Iterator[Visit]:
    """A headless Chromium with a fresh profile under ``tmp_path``; skips (a failure
    under CI=true) when Debian's Chromium or Playwright is missing."""
    if not os.path.exists(CHROMIUM):
        pytest.skip(  # a failure under CI=true (tests/conftest.py)
            "chromium is not installed (apt-get install chromium, or scripts/system-deps.sh); "
            "a failure under CI"
        )
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:  # pragma: no cover - a dev dependency
        pytest.skip("playwright is not installed (pip install -e '.[dev]'); a failure under CI")

    with sync_playwright() as playwright:
        context = playwright.chromium.launch_persistent_context(
            str(tmp_path / "chromium-profile"),
            executable_path=CHROMIUM,
            headless=True,
            args=ARGS,
            timeout=30_000,
            viewport={"width": width, "height": height},
            accept_downloads=False,
        )
        try:
            context.set_default_timeout(TIMEOUT_MS)
            context.set_default_navigation_timeout(TIMEOUT_MS)
            context.add_init_script(_REPORT_CSP)
            page = context.pages[0] if context.pages else context.new_page()
            visit = Visit(page)
            visit.watch()
            yield visit
        finally:
            context.close()


@contextmanager
def site(tmp_path: Path) -> Iterator[tuple[str, Flask]]:
    """The real app on 127.0.0.1 (a free port), its public base URL its own address,
    so every link and QR code opens this server; stopped and closed afterwards."""

    apps: list[Flask] = []

    def make(base: str) -> Flask:
        app = create_app(
            {
                "INSTANCE_PATH": str(tmp_path / "instance"),
                "DATABASE_URL": f"sqlite:///{tmp_path / 'site.db'}",
                "PUBLIC_BASE_URL": base,
                "SECRET_KEY": "browser-test",
                "UPGRADE_ON_START": True,
                "RATE_LIMIT": "1000 per minute",
            }
        )
        apps.append(app)
        return app

    try:
        with serve_at_own_address(make) as (base, app):
            yield base, app
    finally:  # once the server has stopped
        for app in apps:
            app.extensions["ginrules.store"].close()


def shot(page: Page, tmp_path: Path, name: str) -> Path:
    """A full-page screenshot in the test's folder, copied to ``/tmp/ginrules-screens``."""
    path = tmp_path / f"{name}.png"
    page.screenshot(path=str(path), full_page=True, timeout=TIMEOUT_MS)
    SCREENS.mkdir(parents=True, exist_ok=True)
    shutil.copy(path, SCREENS / path.name)
    return path


def decode_qr(png: bytes) -> list[str]:
    """The texts of the QR codes in a picture (zxing-cpp)."""
    with Image.open(io.BytesIO(png)) as image:
        return [code.text for code in zxingcpp.read_barcodes(image.convert("L"))]


def horizontal_overflow(page: Page) -> int:
    """How many pixels the page is wider than the window (0: no sideways scrolling)."""
    overflow = page.evaluate(
        "document.documentElement.scrollWidth - document.documentElement.clientWidth"
    )
    return int(overflow)


@contextmanager
def headless_chromium() -> Iterator[Browser]:
    """Debian's Chromium, headless, closed afterwards; skips (a failure under CI=true)
    when it or Playwright is missing."""
    if not os.path.exists(CHROMIUM):
        pytest.skip("chromium is not installed (scripts/system-deps.sh); a failure under CI")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:  # pragma: no cover - a dev dependency
        pytest.skip("playwright is not installed (pip install -e '.[dev]'); a failure under CI")

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        try:
            yield browser
        finally:
            browser.close()


@contextmanager
def phones(count: int, width: int = 390, height: int = 844) -> Iterator[list[Visit]]:
    """``count`` phones: one headless Chromium, a fresh context (its own storage,
    like a phone of its own) per phone at ``width`` px, each page watched."""
    with headless_chromium() as browser:
        visits = []
        for _ in range(count):
            context = browser.new_context(
                viewport={"width": width, "height": height},
                accept_downloads=True,
                has_touch=True,
            )
            context.set_default_timeout(TIMEOUT_MS)
            context.set_default_navigation_timeout(TIMEOUT_MS)
            context.add_init_script(_REPORT_CSP)
            visit = Visit(context.new_page())
            visit.watch()
            visits.append(visit)
        yield visits
