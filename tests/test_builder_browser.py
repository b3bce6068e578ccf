"""The builder on a phone (390 x 844) in a real browser: the common choices within two
screens, the save bar always in reach, and Back-then-Save creating nothing new."""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING

from tests.browser_helpers import phones, shot, site
from tests.page_checks import page_problems

if TYPE_CHECKING:
    from playwright.sync_api import Page

WIDTH, HEIGHT = 390, 844


def _scrolled(page: Page) -> int:
    return int(page.evaluate("Math.round(window.scrollY)"))


def _problems(page: Page) -> list[str]:
    """The page checks of the builder's own part: the site's header and footer are
    checked with the layout (tests/test_pages_browser.py), not here."""
    page.evaluate(
        "document.querySelectorAll('header.site, footer.site').forEach(e => e.hidden = true)"
    )
    try:
        return page_problems(page, phone=True)
    finally:
        page.evaluate(
            "document.querySelectorAll('header.site, footer.site').forEach(e => e.hidden = false)"
        )


def _needed(page: Page, selector: str) -> int:
    """How far the page must scroll for the control to show above the save bar."""
    return int(
        page.evaluate(
            """(selector) => {
              const box = document.querySelector(selector).getBoundingClientRect();
              const bar = document.querySelector(".builder-side").getBoundingClientRect();
              return Math.round(box.bottom + window.scrollY - (window.innerHeight - bar.height));
            }""",
            selector,
        )
    )


def _save_in_view(page: Page) -> None:
    box = page.locator("#save").bounding_box()
    assert box is not None
    assert box["y"] >= 0 and box["y"] + box["height"] <= HEIGHT, f"save button at {box}"


def test_a_phone_changes_the_common_choices_and_saves_within_two_screens(
    tmp_path: Path,
) -> None:
    from playwright.sync_api import expect

    with site(tmp_path) as (base, app), phones(1, WIDTH, HEIGHT) as [visit]:
        page = visit.page
        store = app.extensions["ginrules.store"]
        page.goto(f"{base}/build")
        height = int(page.evaluate("document.documentElement.scrollHeight"))
        print(f"builder at {WIDTH} px: {height} px tall")
        problems = _problems(page)
        assert not problems, problems
        _save_in_view(page)

        # As a person does it: tap each control (the browser scrolls it into view), type.
        farthest = 0
        for selector, value in (
            ("#input-name", "Phone table"),
            ("#input-hand_scoring-gin_bonus", "20"),
            ("#input-hand_scoring-undercut_bonus", "10"),
            ("#input-oklahoma-enabled", "true"),
        ):
            control = page.locator(selector)
            control.scroll_into_view_if_needed()
            if selector.endswith("enabled"):
                control.select_option(value)
            else:
                control.click()
                control.fill(value)
            farthest = max(farthest, _scrolled(page), _needed(page, selector))
            _save_in_view(page)
        count = page.locator("#live-count")
        expect(count).to_have_text("3 differences from classic")
        page.locator("#live > summary").click()
        changes = page.locator("#live-changes")
        expect(changes).to_contain_text("Gin bonus: 20 (classic: 25)")
        expect(changes).to_contain_text("Undercut bonus: 10 (classic: 25)")
        expect(changes).to_contain_text("Oklahoma: on (classic: off)")
        expect(changes).not_to_contain_text("oklahoma.enabled")
        # Oklahoma's own rules show once Oklahoma is on.
        expect(page.locator("#field-oklahoma-ace_upcard")).to_be_attached()
        print(f"farthest scroll: {farthest} px")
        assert farthest <= 2 * HEIGHT, f"scrolled {farthest} px"
        shot(page, tmp_path, "builder-phone-changed")
        _save_in_view(page)
        page.click("#save")
        page.wait_for_url(re.compile(r"/h/[^/]+/v1/share$"))
        first = page.url
        assert store.count() == 1
        saved = store.recent(1, listed_only=False)[0]
        assert "gin_bonus: 20" in saved.yaml and "enabled: true" in saved.yaml
        assert saved.visibility == "unlisted"

        # Back to the form, and Save again: the rules already saved, nothing new.
        page.go_back()
        page.wait_for_url(re.compile(r"/build$"))
        expect(page.locator("#input-hand_scoring-gin_bonus")).to_have_value("20")
        page.click("#save")
        page.wait_for_url(re.compile(r"/h/[^/]+/v1/share$"))
        assert page.url == first
        assert store.count() == 1
        expect(page.locator("h1")).to_contain_text("Phone table")
        assert not [p for p in visit.problems if "status of 4" not in p], visit.problems


def test_the_fork_page_passes_the_phone_checks(tmp_path: Path) -> None:
    from playwright.sync_api import expect

    with site(tmp_path) as (base, _app), phones(1, WIDTH, HEIGHT) as [visit]:
        page = visit.page
        page.goto(f"{base}/build")
        page.fill("#input-name", "The Thursday table")
        page.click("#save")
        page.wait_for_url(re.compile(r"/h/[^/]+/v1/share$"))
        slug = page.url.split("/")[-3]
        page.goto(f"{base}/h/{slug}/fork")
        expect(page.locator("h1")).to_have_text("Forked from The Thursday table (version 1)")
        assert page.input_value("#input-name") != "The Thursday table"
        problems = _problems(page)
        assert not problems, problems
        _save_in_view(page)
