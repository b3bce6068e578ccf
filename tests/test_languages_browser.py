"""The site's languages in a real browser: headless Chromium (Playwright) against the
real app on its own address.

- A phone whose browser asks for German sees the site in German.
- Choosing Español in the switch keeps Spanish from page to page, after a reload and
  in a new tab, with or without JavaScript.
- House rules saved with the table language Français: their QR code, decoded by
  zxing-cpp, opens the page in French on a fresh English phone, and its sheet too.

The mechanics are checked first (``lang`` attributes, the switch, the cookie); the
words last, as the catalogue gives them, so a test fails while a catalogue still
lacks them.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Final

from ginrules.web import locales
from ginrules.words.i18n import _, use_locale
from tests.browser_helpers import TIMEOUT_MS, Visit, decode_qr, headless_chromium, shot, site
from tests.page_checks import PHONE, page_problems

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

#: A message of every page (the layout's footer), and one of every rule sheet.
FOOTER: Final = "ginrules: your table's Gin Rummy rules, written down, checked, printed and shared."
SHEET_HEADING: Final = "1. The cards and melds"
YEAR: Final = 365 * 24 * 60 * 60


@contextmanager
def phone(
    browser: Browser, languages: str = "en-GB,en;q=0.9", *, script: bool = True
) -> Iterator[Visit]:
    """A phone of its own (fresh cookies) at 390 x 844 whose browser asks for ``languages``."""
    context = browser.new_context(
        viewport={"width": PHONE[0], "height": PHONE[1]},
        has_touch=True,
        locale=languages.split(",")[0],
        extra_http_headers={"Accept-Language": languages},
        java_script_enabled=script,
    )
    try:
        context.set_default_timeout(TIMEOUT_MS)
        context.set_default_navigation_timeout(TIMEOUT_MS)
        visit = Visit(context.new_page())
        visit.watch()
        yield visit
    finally:
        context.close()


def html_lang(page: Page) -> str:
    return str(page.locator("html").get_attribute("lang"))


def current_in_switch(page: Page) -> list[str]:
    marked = page.locator('nav.languages a[aria-current="true"]')
    return [str(marked.nth(i).get_attribute("hreflang")) for i in range(marked.count())]


def said(lang: str, message: str) -> str:
    """``message`` as the catalogue of ``lang`` says it; it must differ from the English."""
    with use_locale(lang):
        translated = _(message)
    assert translated != message, f"{lang}: {message!r} is not translated yet"
    return translated


def test_a_phone_that_asks_for_german_sees_the_site_in_german(tmp_path: Path) -> None:
    with (
        site(tmp_path) as (base, _app),
        headless_chromium() as browser,
        phone(browser, "de-DE,de;q=0.9") as visit,
    ):
        page = visit.page
        for path in ("/", "/rules/classic", "/build"):
            answer = page.goto(base + path)
            assert answer is not None and answer.headers["content-language"] == "de", path
            assert html_lang(page) == "de", path
            assert current_in_switch(page) == ["de"], path
        # The switch names each language in its own words, in its own language.
        names = page.locator("nav.languages a")
        assert names.all_inner_texts() == ["English", "Deutsch", "Español", "Français"]
        assert [names.nth(i).get_attribute("lang") for i in range(4)] == ["en", "de", "es", "fr"]
        page.goto(base + "/")
        shot(page, tmp_path, "languages-phone-german")
        assert page_problems(page, phone=True) == []
        assert visit.problems == [] and visit.bad_answers == []
        # The words, as the German catalogue has them.
        assert page.locator("footer.site p").inner_text() == said("de", FOOTER)
        label = page.locator("nav.languages").get_attribute("aria-label")
        assert label == said("de", "Language")
        assert said("de", "Rulesets") in page.locator("header.site").inner_text()


def test_choosing_spanish_in_the_switch_keeps_spanish(tmp_path: Path) -> None:
    with site(tmp_path) as (base, _app), headless_chromium() as browser:
        with phone(browser) as visit:
            page = visit.page
            page.goto(base + "/rules/classic")
            assert html_lang(page) == "en" and current_in_switch(page) == ["en"]
            page.locator('nav.languages a[hreflang="es"]').click()
            page.wait_for_load_state()
            # Back on the same page, now in Spanish, and remembered for a year.
            assert page.url == base + "/rules/classic"
            assert html_lang(page) == "es" and current_in_switch(page) == ["es"]
            cookie = next(c for c in page.context.cookies() if c["name"] == locales.COOKIE)
            assert cookie["value"] == "es" and cookie["sameSite"] == "Lax"
            assert cookie["httpOnly"] and cookie["expires"] > page.evaluate("Date.now()") / 1000
            assert cookie["expires"] - page.evaluate("Date.now()") / 1000 > YEAR - 3600
            # Page after page, by the site's own links.
            for link in ("/build", "/build/yaml", "/"):
                page.locator(f'header.site nav a[href="{link}"]').first.click()
                page.wait_for_url(base + link)
                assert html_lang(page) == "es", link
            page.goto(base + "/rules/oklahoma/sheet")
            assert html_lang(page) == "es"
            page.reload()
            assert html_lang(page) == "es"
            other = page.context.new_page()  # a fresh page load in a new tab
            other.goto(base + "/rules/hollywood")
            assert html_lang(other) == "es" and current_in_switch(other) == ["es"]
            other.close()
            assert visit.problems == [] and visit.bad_answers == []
            page.goto(base + "/")
            assert said("es", "Rulesets") in page.locator("header.site").inner_text()

        # The switch is plain links: it works without JavaScript too.
        with phone(browser, script=False) as visit:
            page = visit.page
            page.goto(base + "/build")
            page.locator('nav.languages a[hreflang="fr"]').click()
            page.wait_for_url(base + "/build")
            assert html_lang(page) == "fr" and current_in_switch(page) == ["fr"]
            page.goto(base + "/")
            assert html_lang(page) == "fr"


def test_a_french_tables_qr_code_opens_its_rules_in_french(tmp_path: Path) -> None:
    with site(tmp_path) as (base, _app), headless_chromium() as browser:
        with phone(browser) as author:
            page = author.page
            page.goto(base + "/build")
            page.fill("#input-name", "La table du jeudi")
            page.select_option("#input-language", "fr")
            page.click("#save")
            page.wait_for_url(re.compile(r"/h/[^/]+/v1/share$"))
            page.wait_for_load_state("networkidle")
            share_link = page.input_value("#share-link")
            slug = share_link.split("/h/", 1)[1].split("?", 1)[0]
            assert share_link == f"{base}/h/{slug}?lang=fr"
            # The share page is the author's (the edit link, shown once): in English.
            assert html_lang(page) == "en"
            # Its QR code is the table's: the short link in French.
            qr = page.locator("#share-qr")
            scanned = decode_qr(qr.screenshot(timeout=TIMEOUT_MS))
            assert scanned == [share_link]
            assert author.problems == [] and author.bad_answers == []

        with phone(browser, "en-US,en;q=0.9") as guest:  # a phone at the table
            page = guest.page
            answer = page.goto(scanned[0])
            assert answer is not None and answer.status == 200
            assert html_lang(page) == "fr" and current_in_switch(page) == ["fr"]
            # Its sheet, by the page's own link, is French too (the table's language).
            sheet = page.locator('a[href$="/sheet"]').first.get_attribute("href")
            assert sheet is not None
            page.goto(sheet if sheet.startswith("http") else base + sheet)
            assert html_lang(page) == "fr"
            sheet_text = page.locator("body").inner_text()
            assert guest.problems == [] and guest.bad_answers == []
            # ...unless the guest chooses otherwise.
            page.goto(f"{base}/h/{slug}")
            page.locator('nav.languages a[hreflang="de"]').click()
            page.wait_for_url(f"{base}/h/{slug}")
            assert html_lang(page) == "de"
            assert said("fr", SHEET_HEADING) in sheet_text
