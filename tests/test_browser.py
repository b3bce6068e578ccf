"""The site in a real browser: Debian's Chromium driven by Playwright (no browser download).

One visitor's whole story: build house rules in the form while the live
differences follow it, meet field errors and fix them, save, land on the share
page, scan its QR code (zxing-cpp) and open what it points to, print, fork,
then edit with the private link and see the new version. No page may log a
script error or a Content-Security-Policy violation on the way.

Screenshots go to the test's folder and to ``/tmp/ginrules-screens`` for
people to look at. Run with ``pytest tests/test_browser.py``; it needs
``chromium`` (``scripts/system-deps.sh``) and skips without it (fails under CI=true).
"""

from __future__ import annotations

import re
from pathlib import Path

from playwright.sync_api import Page, expect

from tests.browser_helpers import (
    TIMEOUT_MS,
    Visit,
    chromium,
    decode_qr,
    horizontal_overflow,
    shot,
    site,
)


def _no_sideways_scrolling(page: Page) -> None:
    assert horizontal_overflow(page) == 0, f"{page.url} is wider than the window"


def test_a_table_builds_shares_prints_forks_and_edits_its_rules(tmp_path: Path) -> None:
    with site(tmp_path) as (base, app), chromium(tmp_path) as visit:
        page = visit.page
        store = app.extensions["ginrules.store"]

        # -- The builder, from classic: the live differences follow a select and a number.
        page.goto(f"{base}/build?from=classic")
        expect(page.locator("h1")).to_have_text("Build your house rules")
        changes = page.locator("#live-changes li")
        on_tie = changes.filter(has_text="Undercut on tie")
        with page.expect_response(
            lambda r: r.url == f"{base}/build/preview" and r.request.method == "POST"
        ) as preview:
            page.select_option("#input-hand_scoring-undercut_on_tie", "false")
        assert preview.value.status == 200
        expect(on_tie).to_have_text(re.compile(r"Undercut on tie: no \(classic: yes\)"))
        expect(page.locator("#field-hand_scoring-undercut_on_tie")).to_have_class(
            re.compile(r"\bchanged\b")
        )
        page.fill("#input-hand_scoring-undercut_bonus", "10")
        expect(changes.filter(has_text="Undercut bonus")).to_have_text(
            re.compile(r"Undercut bonus: 10 \(classic: 25\)")
        )
        page.select_option("#input-hand_scoring-undercut_on_tie", "true")  # back to classic's
        expect(on_tie).to_have_count(0)
        expect(page.locator("#field-hand_scoring-undercut_on_tie")).not_to_have_class(
            re.compile(r"\bchanged\b")
        )
        page.select_option("#input-hand_scoring-undercut_on_tie", "false")
        expect(on_tie).to_have_count(1)

        # -- Bad values, one kind at a time: the error beside its field, nothing typed lost.
        page.fill("#input-name", "The Thursday table")
        page.fill("#input-author", "Ana")
        typed = {
            "#input-name": "The Thursday table",
            "#input-author": "Ana",
            "#input-hand_scoring-undercut_bonus": "10",
            "#input-hand_scoring-undercut_on_tie": "false",
        }
        _save_and_see_error(visit, base, "hand_scoring-gin_bonus", "lots", "whole number", typed)
        page.fill("#input-hand_scoring-gin_bonus", "20")
        typed["#input-hand_scoring-gin_bonus"] = "20"
        _save_and_see_error(visit, base, "game_scoring-target", "5", "10", typed)
        _no_sideways_scrolling(page)
        shot(page, tmp_path, "1-builder-field-error")
        assert store.count() == 0

        # -- Fixed and saved: the share page.
        page.fill("#input-game_scoring-target", "150")
        page.click("#save")
        page.wait_for_url(re.compile(r"/h/[^/]+/v1/share$"))
        share_link = page.input_value("#share-link")
        edit_link = page.input_value("#edit-link")
        slug = share_link.rsplit("/", 1)[1]
        assert share_link == f"{base}/h/{slug}"
        assert edit_link.startswith(f"{base}/h/{slug}/edit?key=")
        assert store.count() == 1

        # The QR code, as served and as the visitor sees it, is the short link.
        qr = page.locator("#share-qr")
        assert qr.evaluate("image => image.complete && image.naturalWidth > 0")
        src = qr.get_attribute("src")
        assert src
        served = page.request.get(src if src.startswith("http") else base + src)
        assert served.status == 200
        assert served.headers["content-type"] == "image/png"
        assert decode_qr(served.body()) == [share_link]
        assert decode_qr(qr.screenshot(timeout=TIMEOUT_MS)) == [share_link]
        _no_sideways_scrolling(page)
        shot(page, tmp_path, "2-share")

        # The edit link is shown once only.
        page.reload()
        expect(page.locator("#edit-link")).to_have_count(0)
        expect(page.locator(".share")).to_contain_text("shown once")

        # -- What the QR code opens: the house rules' page.
        page.goto(decode_qr(served.body())[0])
        expect(page.locator("h1")).to_have_text("The Thursday table")
        expect(page.locator(".kind")).to_contain_text(re.compile("version 1 of 1", re.I))
        differences = page.locator(".changes").first
        for line in (
            "Gin bonus: 20 (Classic Gin Rummy: 25)",
            "Undercut bonus: 10",
            "Undercut on tie: no",
            "Target: 150",
        ):
            expect(differences).to_contain_text(line)
        # The page shows the sheet's own sentences (no frame), its house rules marked.
        expect(page.locator("iframe")).to_have_count(0)
        marked = page.locator(".sheet-text [data-house]").first
        marked.scroll_into_view_if_needed()
        expect(marked).to_be_visible()
        page.evaluate("window.scrollTo(0, 0)")
        _no_sideways_scrolling(page)
        shot(page, tmp_path, "3-ruleset")

        # -- The print view marks the house rules (from the "Print and download" menu).
        page.locator("#downloads > summary").click()
        page.get_by_role("link", name="Print the rule sheet").click()
        page.wait_for_url(f"{base}/h/{slug}/v1/sheet")
        for knob in (
            "hand_scoring.gin_bonus",
            "hand_scoring.undercut_bonus",
            "hand_scoring.undercut_on_tie",
            "game_scoring.target",
        ):
            expect(page.locator(f"[data-house='{knob}']").first).to_be_visible()
        # A mark never breaks a sentence: the note at the end names the base's value.
        notes = page.locator("#notes-on-sources")
        expect(notes).to_contain_text("Gin bonus: 20 (classic plays 25)")
        expect(page.locator("body")).not_to_contain_text("house rule, classic")
        expect(page.locator("body")).to_contain_text("The Thursday table")
        _no_sideways_scrolling(page)
        shot(page, tmp_path, "4-print-view")

        # -- Forked into new rules of one's own.
        page.goto(share_link)
        page.locator("#downloads > summary").click()
        page.get_by_role("link", name="Make your own from this").click()
        page.wait_for_url(re.compile(rf"/build\?from=h/{slug}/v1$"))
        assert page.input_value("#input-hand_scoring-undercut_bonus") == "10"
        assert page.input_value("#input-hand_scoring-gin_bonus") == "20"
        page.fill("#input-name", "Friday fork")
        page.click("#save")
        page.wait_for_url(re.compile(r"/h/[^/]+/v1/share$"))
        fork_link = page.input_value("#share-link")
        assert fork_link != share_link
        page.goto(fork_link)
        expect(page.locator("h1")).to_have_text("Friday fork")
        forked = page.locator("p", has_text="Forked from")
        expect(forked).to_contain_text("The Thursday table (version 1)")
        expect(forked.locator("a")).to_have_attribute("href", f"/h/{slug}/v1")
        assert store.count() == 2

        # -- The first ones edited with the private link: version 2.
        page.goto(edit_link)
        expect(page.locator("h1")).to_contain_text("Edit “The Thursday table”")
        assert page.input_value("#input-hand_scoring-gin_bonus") == "20"
        page.fill("#input-hand_scoring-gin_bonus", "30")
        page.click("#save")
        page.wait_for_url(f"{base}/h/{slug}/v2")
        expect(page.locator(".flash")).to_contain_text("Saved version 2")
        expect(page.locator(".kind")).to_contain_text(re.compile("version 2 of 2", re.I))
        expect(page.locator("main")).to_contain_text("Changed since version 1")
        expect(page.locator("main")).to_contain_text("Gin bonus: 20 → 30")

        page.locator("#downloads > summary").click()
        page.get_by_role("link", name="All versions").click()
        page.wait_for_url(f"{base}/h/{slug}/versions")
        rows = page.locator("ol.versions > li")
        expect(rows).to_have_count(2)
        expect(rows.nth(0)).to_contain_text("Version 2: The Thursday table")
        expect(rows.nth(0)).to_contain_text("Gin bonus: 20 → 30")
        expect(rows.nth(1)).to_contain_text("The first version.")
        _no_sideways_scrolling(page)
        shot(page, tmp_path, "5-versions")

        page.goto(share_link)
        expect(page.locator(".kind")).to_contain_text(re.compile("version 2 of 2", re.I))
        page.goto(f"{base}/h/{slug}/v1")
        expect(page.locator(".notice")).to_contain_text("This is an older version")

        _only_the_expected_422(visit, base)


def _save_and_see_error(
    visit: Visit, base: str, field: str, bad: str, error: str, typed: dict[str, str]
) -> None:
    """Type ``bad`` into a field, see the live check say so, save: a 422 with the error
    beside that field only, and every value typed still in place."""
    page = visit.page
    page.fill(f"#input-{field}", bad)
    expect(page.locator("#live-warnings")).to_contain_text(error)
    with page.expect_response(
        lambda r: r.url == f"{base}/build" and r.request.method == "POST"
    ) as answer:
        page.click("#save")
    assert answer.value.status == 422
    expect(page.locator("#form-errors")).to_contain_text(error)
    expect(page.locator(f"#field-{field} .field-error")).to_contain_text(error)
    expect(page.locator(f"#field-{field}")).to_have_class(re.compile(r"\bhas-error\b"))
    assert page.locator("form .field .field-error").count() == 1  # beside no other field
    for selector, value in {**typed, f"#input-{field}": bad}.items():
        assert page.input_value(selector) == value, selector


def _only_the_expected_422(visit: Visit, base: str) -> None:
    """No script error, no CSP violation, nothing missing: the only answers of 400
    or more are the two forms with a bad value, which Chromium logs as errors."""
    assert visit.bad_answers == [(422, "POST", f"{base}/build")] * 2, visit.bad_answers
    logged_422 = [p for p in visit.problems if "status of 422" in p]
    assert len(logged_422) == 2, visit.problems
    assert [p for p in visit.problems if p not in logged_422] == [], visit.problems


def test_the_watch_sees_a_csp_violation(tmp_path: Path) -> None:
    """The no-violation check above has teeth: an inline script is refused and reported."""
    with site(tmp_path) as (base, _app), chromium(tmp_path) as visit:
        page = visit.page
        page.goto(base + "/")
        with page.expect_console_message(
            lambda message: "CSP violation" in message.text, timeout=TIMEOUT_MS
        ):
            page.evaluate(
                "() => { const s = document.createElement('script');"
                " s.textContent = 'window.ran = true'; document.body.append(s); }"
            )
        assert page.evaluate("() => window.ran === undefined")
        assert any("script-src" in problem for problem in visit.problems), visit.problems
