"""The share page right after saving, on a 390 x 844 phone in a real browser.

Ana saves her house rules in the builder and lands on the share page: the QR
code fills the width of the first screen and reads as the short link; Copy and
Share work for the short link and for the private edit link (the Web Share API
where the browser has one, the clipboard otherwise); leaving before the edit
link is kept asks first, and after she copied it (or ticked "I have kept my
edit link") leaving just leaves. Without JavaScript both links are still there
to select. The page passes the site's phone checks, light and dark.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Final

from tests.browser_helpers import SCREENS, TIMEOUT_MS, Visit, decode_qr, headless_chromium, site
from tests.page_checks import PHONE, page_problems

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Dialog, Locator, Page

#: A stand-in for the Web Share API that records what it was given.
_STUB_SHARE: Final = """
window.__shared = [];
Object.defineProperty(Navigator.prototype, "share", {
  configurable: true,
  value: function (data) { window.__shared.push(data); return Promise.resolve(); },
});
"""
#: A browser without the Web Share API (most desktop browsers).
_NO_SHARE: Final = "delete Navigator.prototype.share;"
#: Every Content-Security-Policy refusal as a console error (tests/browser_helpers.py).
_REPORT_CSP: Final = """
document.addEventListener("securitypolicyviolation", function (event) {
  console.error("CSP violation: " + event.violatedDirective + " blocked " +
                (event.blockedURI || "inline code"));
});
"""


@contextmanager
def _phone(
    browser: Browser, base: str, *, scheme: str, share: bool | None, script: bool = True
) -> Iterator[Visit]:
    """A phone of its own (fresh storage) at 390 x 844, the clipboard allowed."""
    context = browser.new_context(
        viewport={"width": PHONE[0], "height": PHONE[1]},
        has_touch=True,
        color_scheme=scheme,  # type: ignore[arg-type]
        java_script_enabled=script,
    )
    try:
        context.set_default_timeout(TIMEOUT_MS)
        context.set_default_navigation_timeout(TIMEOUT_MS)
        context.grant_permissions(["clipboard-read", "clipboard-write"], origin=base)
        context.add_init_script(_REPORT_CSP)
        if share is True:
            context.add_init_script(_STUB_SHARE)
        elif share is False:
            context.add_init_script(_NO_SHARE)
        visit = Visit(context.new_page())
        visit.watch()
        yield visit
    finally:
        context.close()


@contextmanager
def _site_and_phone(
    tmp_path: Path, *, scheme: str, share: bool | None, script: bool = True
) -> Iterator[tuple[str, Visit]]:
    """The site on its own address and one phone in front of it."""
    with (
        site(tmp_path) as (base, _app),
        headless_chromium() as browser,
        _phone(browser, base, scheme=scheme, share=share, script=script) as visit,
    ):
        yield base, visit


def _save(page: Page, base: str, name: str) -> tuple[str, str]:
    """Save house rules in the builder; on the share page, the short and edit links."""
    page.goto(f"{base}/build")
    page.fill("#input-name", name)
    page.click("#save")
    page.wait_for_url(re.compile(r"/h/[^/]+/v1/share$"))
    page.wait_for_load_state("networkidle")
    share_link = page.input_value("#share-link")
    edit_link = page.input_value("#edit-link")
    slug = share_link.rsplit("/", 1)[1]
    assert share_link == f"{base}/h/{slug}"
    assert edit_link.startswith(f"{base}/h/{slug}/edit?key=")
    return share_link, edit_link


def _buttons(page: Page, link: str, action: str) -> Locator:
    return page.locator(f'.copy-share[data-link="{link}"] button[data-action="{action}"]')


def _note(page: Page, link: str) -> Locator:
    return page.locator(f'.copy-share[data-link="{link}"] + .copy-note')


def _clipboard(page: Page) -> str:
    return str(page.evaluate("navigator.clipboard.readText()"))


def _leave(page: Page, dialogs: list[str]) -> int:
    """Tap "Open the page"; the number of leave prompts it raised (each one answered
    "stay", so the page is still there when one came)."""
    before = len(dialogs)
    page.get_by_role("link", name="Open the page").click(no_wait_after=True)
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline and len(dialogs) == before and "/share" in page.url:
        page.wait_for_timeout(100)
    page.wait_for_timeout(300)
    return len(dialogs) - before


def _answer_stay(dialogs: list[str]) -> Callable[[Dialog], None]:
    def answer(dialog: Dialog) -> None:
        dialogs.append(dialog.type)
        dialog.dismiss()  # "stay on this page"

    return answer


def _shot(page: Page, name: str) -> None:
    SCREENS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENS / f"{name}.png"), full_page=True)


def test_the_share_page_on_a_phone_with_web_share(tmp_path: Path) -> None:
    from playwright.sync_api import expect

    with _site_and_phone(tmp_path, scheme="light", share=True) as (base, visit):
        page = visit.page
        share_link, edit_link = _save(page, base, "The Thursday table")
        _shot(page, "share-phone-light")

        # The QR code: on the first screen, the width of the phone, the short link.
        qr = page.locator("#share-qr")
        assert qr.evaluate("image => image.complete && image.naturalWidth > 0")
        box = qr.bounding_box()
        assert box is not None
        assert box["y"] >= 0 and box["y"] + box["height"] <= PHONE[1], box
        assert box["width"] >= 250, box
        assert decode_qr(qr.screenshot(timeout=TIMEOUT_MS)) == [share_link]

        assert page_problems(page, phone=True) == []

        # Copy the short link: on the clipboard, and said so.
        _buttons(page, "share-link", "copy").click()
        expect(_note(page, "share-link")).to_have_text("Copied the short link.")
        assert _clipboard(page) == share_link

        # Share it: the Web Share API gets the link and the rules' name.
        _buttons(page, "share-link", "share").click()
        expect(_note(page, "share-link")).to_have_text("Shared the short link.")
        shared = page.evaluate("window.__shared")
        assert shared == [{"title": "The Thursday table", "url": share_link}]

        # Leaving before the edit link is kept: the browser asks; she stays.
        dialogs: list[str] = []
        page.on("dialog", _answer_stay(dialogs))
        assert _leave(page, dialogs) == 1
        assert dialogs == ["beforeunload"]
        assert page.url.endswith("/v1/share")
        expect(page.locator("#edit-link")).to_have_value(edit_link)
        expect(page.locator("#kept-edit-link")).not_to_be_checked()

        # She copies the edit link: kept, ticked, and leaving no longer asks.
        _buttons(page, "edit-link", "copy").click()
        expect(_note(page, "edit-link")).to_have_text("Copied the edit link.")
        assert _clipboard(page) == edit_link
        expect(page.locator("#kept-edit-link")).to_be_checked()
        page.get_by_role("link", name="Open the page").click()
        page.wait_for_url(share_link)
        assert dialogs == ["beforeunload"]

        assert visit.problems == []
        assert visit.bad_answers == []


def test_the_share_page_without_web_share_in_the_dark(tmp_path: Path) -> None:
    from playwright.sync_api import expect

    with _site_and_phone(tmp_path, scheme="dark", share=False) as (base, visit):
        page = visit.page
        share_link, edit_link = _save(page, base, "Chloe's kitchen")
        assert page.evaluate("typeof navigator.share") == "undefined"
        assert page.evaluate("matchMedia('(prefers-color-scheme: dark)').matches")
        _shot(page, "share-phone-dark")
        assert page_problems(page, phone=True) == []
        qr = page.locator("#share-qr")
        assert decode_qr(qr.screenshot(timeout=TIMEOUT_MS)) == [share_link]

        # No Web Share here: Share puts the link on the clipboard instead.
        _buttons(page, "edit-link", "share").click()
        expect(_note(page, "edit-link")).to_have_text("Copied the edit link.")
        assert _clipboard(page) == edit_link
        _buttons(page, "share-link", "share").click()
        expect(_note(page, "share-link")).to_have_text("Copied the short link.")
        assert _clipboard(page) == share_link
        expect(page.locator("#kept-edit-link")).to_be_checked()

        # Unticked, leaving asks again; ticked by hand ("written down"), it does not.
        dialogs: list[str] = []
        page.on("dialog", _answer_stay(dialogs))
        page.locator("#kept-edit-link").uncheck()
        assert _leave(page, dialogs) == 1
        page.get_by_label("I have kept my edit link").check()
        page.get_by_role("link", name="Open the page").click()
        page.wait_for_url(share_link)
        assert dialogs == ["beforeunload"]

        assert visit.problems == []
        assert visit.bad_answers == []


def test_without_javascript_both_links_are_there_to_select(tmp_path: Path) -> None:
    from playwright.sync_api import expect

    with _site_and_phone(tmp_path, scheme="light", share=None, script=False) as (base, visit):
        page = visit.page
        share_link, edit_link = _save(page, base, "No script table")
        for field, value in (("#share-link", share_link), ("#edit-link", edit_link)):
            expect(page.locator(field)).to_be_visible()
            expect(page.locator(field)).to_have_value(value)
            assert page.locator(field).get_attribute("readonly") is not None
        # The buttons and the tick box need JavaScript: not shown without it.
        expect(page.locator(".copy-share").first).to_be_hidden()
        expect(page.locator(".kept")).to_be_hidden()
        assert page_problems(page, phone=True, axe=False) == []
        assert visit.problems == []
