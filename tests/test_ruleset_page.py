"""The page of a ruleset is a web page to read on a phone, in the sheet's own words.

Tables settle arguments with the printed sheet, so the page shows the sheet's
sentences (its body, rendered by the same template with
``SheetOptions(fragment=True)``), never a second wording and never the print
layout in a frame: the house rules first, then the rules section by section,
the worked examples, the notes and sources folded, and one "Print and download"
menu. The sheet and score pad pages fit a 390 px phone too, while printing as
before (screen-only styles; tests/test_sheets.py checks the PDFs).
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Final

import pytest
from flask.testing import FlaskClient

from ginrules.rules import locate
from ginrules.rules.load import load_ruleset
from ginrules.sheets.render import SheetOptions, sheet_html
from tests.browser_helpers import chromium, site
from tests.page_checks import PHONE, page_problems
from tests.web_helpers import Client, site_client

if TYPE_CHECKING:
    from playwright.sync_api import Page

SHIPPED: Final = [entry.name for entry in locate.entries()]
PUBLISHED: Final = [entry.name for entry in locate.entries() if entry.kind == "rulesets"]
HOUSE_YAML: Final = (
    "name: The kitchen table\n"
    "author: Ana\n"
    "description: ''\n"
    "extends: classic\n"
    "hand_scoring:\n"
    "  gin_bonus: 30\n"
    "game_scoring:\n"
    "  target: 150\n"
)
#: The site's own header and footer belong to the site-wide theme, checked with
#: every page type by tests/test_pages_browser.py; these tests check the page body.
_WITHOUT_SITE_CHROME: Final = "header.site, footer.site { display: none !important; }"


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[FlaskClient]:
    with site_client(tmp_path_factory.mktemp("site"), "ruleset-page") as client:
        yield client


def _page(client: FlaskClient, path: str) -> str:
    answer = client.get(path)
    assert answer.status_code == 200, path
    return answer.get_data(as_text=True)


def _saved(client: FlaskClient) -> str:
    answer = client.post("/api/houserules", json={"yaml": HOUSE_YAML})
    assert answer.status_code == 201, answer.get_data(as_text=True)
    return str(answer.get_json()["slug"])


def _rule_sections(sheet: str) -> list[str]:
    """Each ``<section id=...>`` of the printed sheet's rules, as the sheet has it."""
    rules = sheet.split('<div class="rules">', 1)[1].split('<section class="examples"', 1)[0]
    found = re.findall(r'<section id="[^"]+">.*?</section>', rules, flags=re.S)
    assert len(found) >= 7, "the sheet has its numbered sections"
    return found


def _kind(page: str) -> str:
    match = re.search(r'<p class="kind">(.*?)</p>', page, flags=re.S)
    assert match, "the page says what kind of rules these are"
    return html.unescape(match[1])


# -- the page, without a browser -------------------------------------------------------


@pytest.mark.parametrize("name", SHIPPED)
def test_the_page_shows_the_sheets_own_sentences_not_a_frame(
    client: FlaskClient, name: str
) -> None:
    page = _page(client, f"/rules/{name}")
    sheet = sheet_html(load_ruleset(name), SheetOptions(url="https://gin.example.org/x"))
    assert "<iframe" not in page
    for section in _rule_sections(sheet):
        assert section in page, section[:80]
    examples = re.search(r'<section class="examples" id="examples">.*?</section>', sheet, re.S)
    assert examples and examples[0] in page, "the worked examples, as printed"
    for note in re.findall(r'<li id="note-\d+".*?</li>', sheet, flags=re.S):
        assert note in page, note[:80]
    # Every note mark links to a note on the same page, and the notes are folded.
    for number in re.findall(r'href="#note-(\d+)"', page):
        assert f'id="note-{number}"' in page
    if 'id="note-1"' in page:
        assert '<details class="footnotes" id="notes-on-sources">' in page
    # One list of origins (the page's, with the sources' words), folded.
    assert page.count('id="origins"') == 1
    assert '<details class="origins" id="origins">' in page


@pytest.mark.parametrize("name", SHIPPED)
def test_the_house_rules_come_before_the_rules(client: FlaskClient, name: str) -> None:
    page = _page(client, f"/rules/{name}")
    first_rules = page.index('<section id="cards">')
    assert page.index('class="house-rules"') < first_rules
    assert page.index("Start a table") < first_rules
    for knob in re.findall(r'<li data-knob="([^"]+)">', page):
        assert page.index(f'<li data-knob="{knob}">') < first_rules, knob
    # Everything to print or download sits in one folded menu, before the rules.
    menu = page.index('<details class="downloads" id="downloads">')
    assert page.index("Start a table") < menu < first_rules < page.index('id="origins"')


def test_a_saved_house_rule_lists_its_differences_with_the_bases_values_first(
    client: FlaskClient,
) -> None:
    slug = _saved(client)
    for path in (f"/h/{slug}", f"/h/{slug}/v1"):
        page = html.unescape(_page(client, path))
        first_rules = page.index('<section id="cards">')
        assert page.index("What differs from Classic Gin Rummy") < first_rules
        for knob, line in (
            ("hand_scoring.gin_bonus", "Gin bonus</strong>: 30"),
            ("game_scoring.target", "Target</strong>: 150"),
        ):
            assert page.index(f'<li data-knob="{knob}">') < first_rules
            assert page.index(line) < first_rules
        assert "(Classic Gin Rummy: 25)" in page and "(Classic Gin Rummy: 100)" in page
        assert _kind(page).startswith("House rules · version 1 of 1")
        # The marked values of the sheet, with their notes.
        assert 'data-house="hand_scoring.gin_bonus"' in page
        assert "<strong>Gin bonus: 30</strong> (classic plays 25)" in page
        assert f"/h/{slug}/versions" in page


@pytest.mark.parametrize("name", PUBLISHED)
def test_published_rulesets_are_never_called_example_house_rules(
    client: FlaskClient, name: str
) -> None:
    page = _page(client, f"/rules/{name}")
    assert "Example house rules" not in page
    assert _kind(page) == "Published ruleset"


def test_shipped_house_rules_are_not_called_published(client: FlaskClient) -> None:
    for entry in locate.entries():
        if entry.kind == "houserules":
            assert _kind(_page(client, f"/rules/{entry.name}")) == "Example house rules"


def test_the_print_and_download_menu_lists_every_format(client: FlaskClient) -> None:
    page = _page(client, "/rules/oklahoma")
    menu = page.split('<details class="downloads" id="downloads">', 1)[1].split("</details>")[0]
    base = "https://gin.example.org/rules/oklahoma"
    for link in (
        f'href="{base}/sheet"',
        f'href="{base}/sheet.pdf"',
        f'href="{base}/sheet.pdf?paper=letter"',
        f'href="{base}/sheet?large=1"',
        f'href="{base}/scorepad"',
        f'href="{base}.yaml"',
        f'href="{base}.json"',
        f'src="{base}/qr.svg"',
        "Make your own from this",
    ):
        assert link in menu, link


def test_the_fragment_is_the_sheets_body_alone() -> None:
    ruleset = load_ruleset("hollywood-20-10")
    options = SheetOptions(url="https://gin.example.org/x")
    whole = sheet_html(ruleset, options)
    body = sheet_html(ruleset, SheetOptions(url=options.url, fragment=True))
    for printed_only in ("<html", "<head", "<style", 'class="masthead"', 'class="colophon"'):
        assert printed_only in whole and printed_only not in body, printed_only
    assert 'class="origin-list"' in whole and 'class="origin-list"' not in body
    assert '<section class="footnotes" id="notes-on-sources">' in whole
    assert '<details class="footnotes" id="notes-on-sources">' in body
    # Without a masthead the link and date do not show: the same words for any site.
    elsewhere = SheetOptions(url="https://other.example/y", fragment=True)
    assert sheet_html(ruleset, elsewhere) == body


def test_the_phone_styles_of_the_print_pages_are_for_screens_only() -> None:
    """WeasyPrint lays out print media: a rule under ``@media screen`` never reaches paper."""
    css = (Path(locate.templates_dir()) / "print.css").read_text(encoding="utf-8")
    queries = re.findall(r"@media([^{]*)\{", css)
    assert any("max-width" in query for query in queries), "the phone styles are there"
    for query in queries:
        assert query.strip() in ("print",) or query.strip().startswith("screen"), query


# -- the pages on a phone, in a browser -------------------------------------------------


def _problems(page: Page, path: str) -> list[str]:
    page.add_style_tag(content=_WITHOUT_SITE_CHROME)
    return [f"{path}: {problem}" for problem in page_problems(page, phone=True)]


def test_on_a_phone_the_pages_fit_and_fold_and_the_menu_opens(tmp_path: Path) -> None:
    from playwright.sync_api import expect

    with site(tmp_path) as (base, _app), chromium(tmp_path, *PHONE) as visit:
        page = visit.page
        answer = Client(base).send_json("POST", "/api/houserules", {"yaml": HOUSE_YAML})
        slug = answer.json()["slug"]
        problems: list[str] = []
        for path in (
            "/rules/classic",
            "/rules/oklahoma",
            "/rules/hollywood",
            f"/h/{slug}",
            "/rules/classic/sheet",
            "/rules/oklahoma/sheet",
            f"/h/{slug}/v1/sheet",
            "/rules/classic/scorepad",
            "/rules/hollywood/scorepad",
            "/rules/partnership/scorepad",
        ):
            page.goto(base + path)
            problems += _problems(page, path)

        # The house rule's page: notes and sources folded, a tap opens them.
        page.goto(f"{base}/h/{slug}")
        notes = page.locator("#notes-on-sources")
        expect(notes).not_to_have_attribute("open", "")
        expect(page.locator("#note-1")).to_be_hidden()
        page.locator(".sheet-text sup.ref a").first.click()  # a note mark opens its note
        expect(page.locator("#note-1")).to_be_visible()
        expect(page.locator("#note-1")).to_contain_text("Gin bonus: 30 (classic plays 25)")
        origins = page.locator("#origins")
        quote = origins.locator("blockquote").first
        expect(quote).to_be_hidden()
        origins.locator("summary").first.click()
        origins.locator("li details summary").first.click()
        expect(quote).to_be_visible()

        # One menu for printing and downloads.
        menu = page.locator("#downloads")
        link = menu.get_by_role("link", name="Score pad")
        expect(link).to_be_hidden()
        menu.locator("summary").first.click()
        for name in ("Print the rule sheet", "PDF (A4)", "PDF (Letter)", "Score pad"):
            expect(menu.get_by_role("link", name=name)).to_be_visible()
        for name in ("YAML", "JSON", "Large print", "All versions"):
            expect(menu.get_by_role("link", name=name, exact=True)).to_be_visible()
        expect(menu.locator("img.qr")).to_be_visible()
        problems += _problems(page, f"/h/{slug} (all open)")
        assert problems == []
        assert [p for p in visit.problems if "favicon" not in p] == []
