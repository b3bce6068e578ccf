"""The site in a real browser: Debian's Chromium driven by Playwright (no browser download).

One visitor's whole story: build house rules in the form, meet a field error
and fix it, save, land on the share page, scan its QR code (zxing-cpp) and
open what it points to, print, fork, then edit with the private link and see
the new version. Screenshots go to the test's folder and to
``/tmp/ginrules-screens`` for people to look at.
"""

from __future__ import annotations

import io
import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import zxingcpp
from flask import Flask
from PIL import Image

from ginrules.web import create_app
from tests.web_helpers import serve_at_own_address

CHROMIUM = "/usr/bin/chromium"
SCREENS = Path("/tmp/ginrules-screens")
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


@pytest.fixture
def browser_page(tmp_path: Path) -> Iterator[Any]:
    if not os.path.exists(CHROMIUM):
        pytest.skip("chromium is not installed; a failure under CI (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=ARGS, timeout=30_000
        )
        context = browser.new_context(viewport={"width": 1280, "height": 900})
        context.set_default_timeout(20_000)
        page = context.new_page()
        problems: list[str] = []
        page.on(
            "console",
            lambda message: problems.append(message.text) if message.type == "error" else None,
        )
        page.on("pageerror", lambda error: problems.append(str(error)))
        try:
            yield page, problems
        finally:
            context.close()
            browser.close()


@pytest.fixture
def site(tmp_path: Path) -> Iterator[tuple[str, Flask]]:
    def make(base: str) -> Flask:
        return create_app(
            {
                "INSTANCE_PATH": tmp_path / "instance",
                "DATABASE_URL": f"sqlite:///{tmp_path / 'site.db'}",
                "PUBLIC_BASE_URL": base,
                "SECRET_KEY": "browser-test",
                "UPGRADE_ON_START": True,
                "RATE_LIMIT": "1000 per minute",
            }
        )

    with serve_at_own_address(make) as (base, app):
        yield base, app
    app.extensions["ginrules.store"].close()


def _shot(page: Any, tmp_path: Path, name: str) -> None:
    path = tmp_path / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    SCREENS.mkdir(exist_ok=True)
    shutil.copy(path, SCREENS / path.name)


def _decode(png: bytes) -> list[str]:
    with Image.open(io.BytesIO(png)) as image:
        return [code.text for code in zxingcpp.read_barcodes(image.convert("L"))]


def test_a_table_builds_shares_prints_forks_and_edits_its_rules(
    browser_page: Any, site: tuple[str, Flask], tmp_path: Path
) -> None:
    page, problems = browser_page
    base, app = site
    store = app.extensions["ginrules.store"]

    # Build from classic; the live differences follow the form.
    page.goto(f"{base}/build?from=classic")
    page.fill("#input-name", "The Thursday table")
    page.fill("#input-author", "Ana")
    page.select_option("#input-hand_scoring-undercut_on_tie", "false")
    page.fill("#input-hand_scoring-undercut_bonus", "10")
    page.locator("#live-changes li", has_text="Undercut bonus").wait_for()
    assert "Undercut on tie" in page.inner_text("#live-changes")
    # A bad value: the error comes back beside its field, nothing typed is lost.
    page.fill("#input-game_scoring-target", "5")
    page.click("#save")
    page.wait_for_selector("#form-errors")
    target_error = page.inner_text("#field-game_scoring-target .field-error")
    assert "10" in target_error
    assert page.input_value("#input-name") == "The Thursday table"
    assert page.input_value("#input-hand_scoring-undercut_bonus") == "10"
    assert page.input_value("#input-hand_scoring-undercut_on_tie") == "false"
    _shot(page, tmp_path, "1-builder-field-error")
    assert store.count() == 0

    page.fill("#input-game_scoring-target", "150")
    page.click("#save")
    page.wait_for_selector("#share-link")
    share_link = page.input_value("#share-link")
    edit_link = page.input_value("#edit-link")
    slug = share_link.rsplit("/", 1)[1]
    assert share_link == f"{base}/h/{slug}"
    assert edit_link.startswith(f"{base}/h/{slug}/edit?key=")
    qr_src = page.get_attribute("#share-qr", "src")
    assert qr_src
    qr = page.request.get(qr_src if qr_src.startswith("http") else base + qr_src)
    assert _decode(qr.body()) == [share_link]
    _shot(page, tmp_path, "2-share")

    # The QR code opens the house rules' page.
    page.goto(share_link)
    assert page.inner_text("h1") == "The Thursday table"
    assert "version 1 of 1" in page.inner_text(".kind").lower()
    assert "Undercut bonus" in page.inner_text(".changes")
    _shot(page, tmp_path, "3-ruleset")

    # The print view marks the house rules.
    page.click("text=Print the rule sheet")
    page.wait_for_selector("[data-house]")
    assert page.locator("[data-house='hand_scoring.undercut_bonus']").count() >= 1
    assert "house rule, classic 25" in page.inner_text("body")
    _shot(page, tmp_path, "4-print-view")

    # Fork it into new rules of our own.
    page.goto(share_link)
    page.click("text=Make your own from this")
    page.wait_for_selector("#builder")
    assert page.input_value("#input-hand_scoring-undercut_bonus") == "10"
    page.fill("#input-name", "Friday fork")
    page.click("#save")
    page.wait_for_selector("#share-link")
    fork_link = page.input_value("#share-link")
    page.goto(fork_link)
    assert "Forked from" in page.inner_text("body")

    # Edit the first ones with the private link: a new version.
    page.goto(edit_link)
    page.fill("#input-hand_scoring-gin_bonus", "30")
    page.click("#save")
    page.wait_for_url(f"{base}/h/{slug}/v2")
    assert "Saved version 2" in page.inner_text(".flash")
    assert "version 2 of 2" in page.inner_text(".kind").lower()
    assert "25 → 30" in page.inner_text("body")
    page.click("text=All versions")
    page.wait_for_selector("ol.versions")
    assert page.locator("ol.versions > li").count() == 2
    _shot(page, tmp_path, "5-versions")
    page.goto(share_link)
    assert "version 2 of 2" in page.inner_text(".kind").lower()
    page.goto(f"{base}/h/{slug}/v1")
    assert "This is an older version" in page.inner_text("body")

    # No script errors, no CSP violations, nothing missing; the one 422 is the
    # answer to the form with the bad target, which the browser logs.
    expected = "the server responded with a status of 422"
    assert [p for p in problems if expected not in p] == [], problems
