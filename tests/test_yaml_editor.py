"""The YAML editor: CodeMirror 6 over a plain form, with live errors from the server.

In Debian's Chromium (Playwright) on a 390 px phone: the page loads the one
committed bundle (ginrules/web/static/yaml-editor.min.js) and nothing from any
other address; an invalid value gets a lint marker on its line within seconds,
the marker moves down with the text when lines are typed above it and goes when
the value is fixed; the schema completes a section's knobs; the editor's text is
what the form saves; after a failed save, each listed error puts the cursor on
its line. With JavaScript off the plain textarea saves. The check endpoint
answers JSON for good, bad and junk bodies, and is rate-limited on its own.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal
from urllib.parse import urlencode, urlsplit

import pytest

from ginrules.web import create_app
from ginrules.words import guards
from tests.browser_helpers import ARGS, CHROMIUM, TIMEOUT_MS, Visit, chromium, site
from tests.page_checks import PHONE, page_problems
from tests.web_helpers import Client, live_server

if TYPE_CHECKING:
    from playwright.sync_api import Page

BUNDLE = Path(__file__).resolve().parent.parent / "ginrules/web/static/yaml-editor.min.js"
CHECK = "/build/yaml/check"


# -- the bundle ----------------------------------------------------------------------


def test_the_bundle_is_committed_built_and_needs_no_eval() -> None:
    text = BUNDLE.read_text(encoding="utf-8")
    header = text.split("*/", 1)[0]
    assert "@codemirror/view@" in header and "@codemirror/lang-yaml@" in header
    assert "MIT" in header
    assert len(text) / len(text.splitlines()) > 1_000, "minified"
    # Built from the pinned packages: the header names each with its locked version.
    lock = json.loads((BUNDLE.parents[3] / "editor/package-lock.json").read_text("utf-8"))
    for path, package in lock["packages"].items():
        if path.startswith("node_modules/") and not package.get("dev"):
            assert f"{path.removeprefix('node_modules/')}@{package['version']} " in header
    assert "eval(" not in text and "new Function" not in text  # CSP: script-src 'self'
    assert "https://" not in text.replace("https://codemirror.net/", "")  # nothing from a CDN


# -- in the browser --------------------------------------------------------------------


def _lines(page: Page) -> list[list[Any]]:
    """[line, severity] of each lint diagnostic the editor shows now."""
    found: list[list[Any]] = page.evaluate("document.getElementById('yaml').diagnosticLines()")
    return found


def _wait_for_lines(page: Page, expected: list[list[Any]]) -> None:
    page.wait_for_function(
        "expected => JSON.stringify(document.getElementById('yaml').diagnosticLines())"
        " === JSON.stringify(expected)",
        arg=expected,
        timeout=8_000,
    )


def _cursor_line(page: Page) -> int:
    line: int = page.evaluate(
        "(() => { const v = document.getElementById('yaml').editorView;"
        " return v.state.doc.lineAt(v.state.selection.main.head).number; })()"
    )
    return line


def _go_to_line_end(page: Page, number: int) -> None:
    page.evaluate(
        "n => { const v = document.getElementById('yaml').editorView;"
        " v.dispatch({selection: {anchor: v.state.doc.line(n).to}}); v.focus(); }",
        number,
    )


def _open_editor(page: Page, url: str) -> None:
    page.goto(url)
    page.wait_for_selector(".cm-editor .cm-content")
    assert page.locator("textarea#yaml").is_hidden()


def test_the_editor_marks_errors_live_completes_knobs_and_saves(tmp_path: Path) -> None:
    with site(tmp_path) as (base, _app), chromium(tmp_path, *PHONE) as visit:
        page = visit.page
        requested: list[str] = []
        page.on("request", lambda request: requested.append(request.url))
        _open_editor(page, base + "/build/yaml")
        scripts = page.evaluate("[...document.scripts].map(s => s.src)")
        assert base + "/static/yaml-editor.min.js" in scripts
        assert all(src.startswith(base + "/static/") for src in scripts), scripts
        text = page.evaluate("document.getElementById('yaml').editorView.state.doc.toString()")
        assert text.splitlines()[6] == "  gin_bonus: 25"
        _wait_for_lines(page, [])

        # An invalid value: a marker on its line within seconds.
        _go_to_line_end(page, 7)
        page.keyboard.press("Backspace")
        page.keyboard.press("Backspace")
        page.keyboard.type("lots")
        _wait_for_lines(page, [[7, "error"]])
        assert page.locator(".cm-lintRange-error").count() == 1
        assert page.locator(".cm-lint-marker-error").count() == 1

        # Two lines typed above it: the marker moves down with the text at once
        # (mapped through the change), and the next check agrees.
        page.keyboard.press("Control+Home")
        page.keyboard.insert_text("# our table\n# since 1987\n")
        assert _lines(page) == [[9, "error"]]
        page.wait_for_timeout(1_500)
        assert _lines(page) == [[9, "error"]]

        # Fixed: the marker goes.
        _go_to_line_end(page, 9)
        for _ in "lots":
            page.keyboard.press("Backspace")
        page.keyboard.type("30")
        _wait_for_lines(page, [])

        # The schema completes the knobs of the section the cursor is in.
        page.keyboard.insert_text("\n  ")
        page.keyboard.press("Control+Space")
        options = page.locator(".cm-tooltip-autocomplete li .cm-completionLabel")
        options.first.wait_for()
        labels = options.all_text_contents()
        assert {"gin_bonus", "undercut_bonus", "undercut_on_tie"} <= set(labels)
        assert "deal" not in labels and "extends" not in labels
        page.keyboard.type("undercut_b")
        page.keyboard.press("Enter")
        page.keyboard.type("10")
        line = page.evaluate(
            "(() => { const v = document.getElementById('yaml').editorView;"
            " return v.state.doc.lineAt(v.state.selection.main.head).text; })()"
        )
        assert line == "  undercut_bonus: 10"
        # ...and the values of an enum knob after its key.
        page.keyboard.insert_text("\ncards:\n  ace: ")
        page.keyboard.press("Control+Space")
        options.first.wait_for()
        assert set(options.all_text_contents()) == {"low", "high_or_low", "round_the_corner"}
        page.keyboard.press("Escape")
        page.keyboard.type("low")
        _wait_for_lines(page, [])
        assert "\ncards:\n  ace: low\n" in page.evaluate("document.getElementById('yaml').value")

        # The form saves what the editor holds.
        page.click("button[type=submit]")
        page.wait_for_url(re.compile(r"/h/[^/]+/v1/share"))
        slug = urlsplit(page.url).path.split("/")[2]
        # A textarea sends its lines with CRLF, as every form does.
        saved = Client(base).get(f"/h/{slug}/v1.yaml").text.replace("\r\n", "\n")
        assert "# since 1987\n" in saved
        assert "gin_bonus: 30\n  undercut_bonus: 10\ncards:\n  ace: low" in saved

        assert [url for url in requested if not url.startswith(base + "/")] == []
        assert visit.problems == []


def test_a_failed_saves_list_puts_the_cursor_on_each_line(tmp_path: Path) -> None:
    with site(tmp_path) as (base, _app), chromium(tmp_path, *PHONE) as visit:
        page = visit.page
        _open_editor(page, base + "/build/yaml")
        page.evaluate(
            "() => { const v = document.getElementById('yaml').editorView;"
            " v.dispatch({changes: {from: 0, to: v.state.doc.length, insert:"
            " 'name: Ours\\nextends: classic\\nplay:\\n  knock_limit: 99\\n"
            "game_scoring:\\n  target: lots\\n'}}); }"
        )
        page.click("button[type=submit]")
        page.wait_for_selector("#yaml-errors")
        page.wait_for_selector(".cm-editor .cm-content")
        assert (422, "POST", base + "/build/yaml") in visit.bad_answers
        links = page.locator("#yaml-errors a[data-line]")
        assert links.count() == 2
        # The listed errors are marked at once, before the first check answers.
        assert sorted(line for line, _ in _lines(page)) == [4, 6]
        assert page_problems(page, phone=True) == []

        links.nth(1).click()
        assert _cursor_line(page) == 6
        assert page.evaluate("document.activeElement.classList.contains('cm-content')")
        assert urlsplit(page.url).fragment == ""  # the link's #line-6 is not followed

        # A line typed above: the list's links follow the text they named.
        page.keyboard.press("Control+Home")
        page.keyboard.insert_text("# new first line\n")
        links.nth(0).click()
        assert _cursor_line(page) == 5
        links.nth(1).click()
        assert _cursor_line(page) == 7
        _wait_for_lines(page, [[5, "error"], [7, "error"]])
        # The browser logs the refused save's 422 as a console error: expected here.
        assert [p for p in visit.problems if "status of 422" not in p] == []


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_editor_page_passes_the_phone_checks(
    tmp_path: Path, scheme: Literal["light", "dark"]
) -> None:
    with site(tmp_path) as (base, _app), chromium(tmp_path, *PHONE) as visit:
        page = visit.page
        page.emulate_media(color_scheme=scheme)
        _open_editor(page, base + "/build/yaml")
        _wait_for_lines(page, [])
        assert page_problems(page, phone=True) == []
        assert visit.problems == []


# -- without JavaScript ------------------------------------------------------------------


@contextmanager
def _no_script_page(tmp_path: Path) -> Iterator[Page]:
    if not os.path.exists(CHROMIUM):
        pytest.skip("chromium is not installed (scripts/system-deps.sh); a failure under CI")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        try:
            context = browser.new_context(
                viewport={"width": PHONE[0], "height": PHONE[1]}, java_script_enabled=False
            )
            context.set_default_timeout(TIMEOUT_MS)
            page = context.new_page()
            Visit(page).watch()
            yield page
        finally:
            browser.close()


def test_without_javascript_the_plain_form_saves(tmp_path: Path) -> None:
    with site(tmp_path) as (base, _app), _no_script_page(tmp_path) as page:
        page.goto(base + "/build/yaml")
        assert page.locator(".cm-editor").count() == 0
        textarea = page.locator("textarea#yaml")
        assert textarea.is_visible()
        textarea.fill("name: Plain\nextends: classic\nplay:\n  knock_limit: 99\n")
        page.click("button[type=submit]")
        page.wait_for_selector("#yaml-errors")
        link = page.locator("#yaml-errors a[data-line]")
        assert link.get_attribute("href") == "#line-4"
        link.click()
        assert urlsplit(page.url).fragment == "line-4"

        page.locator("textarea#yaml").fill(
            "name: Plain\nauthor: Ana\ndescription: ''\nextends: classic\n"
        )
        page.click("button[type=submit]")
        page.wait_for_url(re.compile(r"/h/[^/]+/v1/share"))


# -- the check endpoint -------------------------------------------------------------------


@pytest.fixture
def checker(tmp_path: Path) -> Iterator[tuple[Client, str]]:
    app = create_app(
        {
            "INSTANCE_PATH": tmp_path / "instance",
            "DATABASE_URL": f"sqlite:///{tmp_path / 'site.db'}",
            "SECRET_KEY": "check-test",
            "UPGRADE_ON_START": True,
            "RATE_LIMIT": "1000 per minute",
            "CHECK_RATE_LIMIT": "20 per minute",
            "SESSION_COOKIE_SECURE": False,
        }
    )
    with live_server(app) as base:
        client = Client(base)
        token = client.form_fields("/build/yaml")["csrf_token"]
        yield client, token
    app.extensions["ginrules.store"].close()


def _post(client: Client, token: str, body: bytes, kind: str) -> tuple[int, dict[str, Any]]:
    answer = client.request(
        "POST", CHECK, body, {"Content-Type": kind, "X-CSRFToken": token, "Accept": "*/*"}
    )
    assert answer.headers.get_content_type() == "application/json", answer.text[:300]
    return answer.status, answer.json()


def test_the_check_answers_json_for_good_bad_and_junk(checker: tuple[Client, str]) -> None:
    client, token = checker
    good = json.dumps(
        {"yaml": "name: Ours\nauthor: Ana\ndescription: ''\nextends: classic\n"}
    ).encode()
    assert _post(client, token, good, "application/json") == (200, {"ok": True, "diagnostics": []})

    bad = b"yaml=name%3A+Ours%0Aextends%3A+classic%0Aplay%3A%0A++knock_limit%3A+99%0A"
    status, data = _post(client, token, bad, "application/x-www-form-urlencoded")
    assert status == 200 and data["ok"] is False
    [found] = data["diagnostics"]
    assert (found["line"], found["path"], found["severity"]) == (4, "play.knock_limit", "error")
    assert set(found) >= {"line", "column", "path", "message", "severity"}
    assert "knock_limit" in found["message"]

    status, data = _post(client, token, json.dumps({"yaml": ""}).encode(), "application/json")
    assert status == 200 and data["ok"] is False and data["diagnostics"][0]["line"] == 1

    for body, kind in (
        (b"", "application/x-www-form-urlencoded"),
        (b"", "application/json"),
        (b"\xff\xfe\x00\x01junk", "application/json"),
        (b"\xff\xfe\x00\x01junk", "application/octet-stream"),
        (b'{"yaml": 12}', "application/json"),
        (b"[1, 2]", "application/json"),
    ):
        status, data = _post(client, token, body, kind)
        assert status == 400 and data["ok"] is False and data["error"], (body, kind, data)

    raw = b"yaml=" + bytes(range(1, 256)).replace(b"&", b"")
    status, data = _post(client, token, raw, "application/x-www-form-urlencoded")
    assert status in (200, 400) and data["ok"] is False
    control = urlencode({"yaml": bytes(range(0, 32)).decode("ascii") + "\ufffd"}).encode()
    status, data = _post(client, token, control, "application/x-www-form-urlencoded")
    assert status == 200 and data["ok"] is False and data["diagnostics"][0]["line"] == 1

    huge = json.dumps({"yaml": "notes:\n" + "  - x\n" * 40_000}).encode()
    status, data = _post(client, token, huge, "application/json")
    assert status == 413 and data["ok"] is False and data["error"]

    status, data = _post(client, "", good, "application/json")  # no CSRF token
    assert status == 400 and data["ok"] is False and data["error"] == guards.form_expired()


def test_checks_have_their_own_rate_limit_and_never_use_up_saves(
    checker: tuple[Client, str],
) -> None:
    client, token = checker
    good = json.dumps(
        {"yaml": "name: Ours\nauthor: Ana\ndescription: ''\nextends: classic\n"}
    ).encode()
    statuses = [_post(client, token, good, "application/json")[0] for _ in range(22)]
    assert statuses.count(200) == 20 and statuses[-1] == 429
    answer = client.request(
        "POST", CHECK, good, {"Content-Type": "application/json", "X-CSRFToken": token}
    )
    assert answer.status == 429 and answer.headers["Retry-After"]
    fields = client.form_fields("/build/yaml")
    fields["yaml"] = "name: Ours\nauthor: Ana\ndescription: ''\nextends: classic\n"
    assert client.post_form("/build/yaml", fields).status == 303
