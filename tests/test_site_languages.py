"""The site's own pages (home, builder, YAML editor, ruleset, share, versions, errors)
in every language.

Each page is asked for with ``?lang=`` in German, Spanish and French: it answers in
that language (``<html lang>``) and shows each of its words as the catalogue gives
them (English until a translation exists, so these hold while the translators work).

A pseudo-language then proves that nothing on these pages escapes the catalogue: each
message of the extracted catalogue (tests/translations.py, as ``pybabel extract``
finds them) is "translated" to ``⟦message⟧``, and the visible text of every page,
with what people read in its attributes, must have no English outside ``⟦⟧`` but
data: what the test typed, ruleset and source names, the sources' own quotes (shown
in their own words beside a translation), codes and URLs. A second pseudo-language
makes every message half as long again with long compound words, and the German
builder and that one must fit a 390 px phone in a real browser.
"""

from __future__ import annotations

import gettext
import html
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from html.parser import HTMLParser
from pathlib import Path
from typing import Any, Final

import pytest
from flask import Flask
from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from ginrules import schema as ruleset_schema
from ginrules.web import create_app, refs
from ginrules.web.responses import MEMO
from ginrules.words import builder as builder_words
from ginrules.words import guards
from ginrules.words.i18n import _, ngettext, use_locale
from tests.translations import TRANSLATED, pseudo_catalogue, speak_pseudo

#: The test-only language whose every message is ``⟦message⟧``.
PSEUDO: Final = "xx"
#: The test-only language whose every message is longer than German's.
LONG: Final = "xl"

NAME: Final = "Quorvex Tafelrunde"
AUTHOR: Final = "Zyblor Quim"
FORK: Final = "Quorvex Zweig"

_RULES: Final = """\
name: {name}
author: "{author}"
description: Vrambo plinx.
extends: classic
notes:
  - Plorf zanu.
hand_scoring:
  gin_bonus: {gin}
"""


# -- the site, with a saved house rule, a second version and a fork ----------------------


@dataclass(frozen=True)
class Saved:
    slug: str
    secret: str
    fork: str


def _app(tmp_path: Path) -> Flask:
    return create_app(
        {
            "INSTANCE_PATH": tmp_path / "instance",
            "DATABASE_URL": f"sqlite:///{tmp_path / 'site.db'}",
            "PUBLIC_BASE_URL": "https://gin.example.org",
            "SECRET_KEY": "languages",
            "UPGRADE_ON_START": True,
            "RATE_LIMIT": "1000 per minute",
            "SESSION_COOKIE_SECURE": False,
            "WTF_CSRF_ENABLED": False,
        }
    )


def _save(client: FlaskClient) -> Saved:
    first = client.post(
        "/api/houserules",
        json={"yaml": _RULES.format(name=NAME, author=AUTHOR, gin=30), "visibility": "listed"},
    )
    assert first.status_code == 201, first.text
    slug, secret = _json(first)["slug"], _json(first)["edit_secret"]
    second = client.put(
        f"/api/houserules/{slug}",
        json={"yaml": _RULES.format(name=NAME, author=AUTHOR, gin=35)},
        headers={"X-Edit-Secret": secret},
    )
    assert second.status_code == 201, second.text
    fork = client.post(
        "/api/houserules",
        json={
            "yaml": _RULES.format(name=FORK, author="", gin=40),
            "visibility": "listed",
            "forked_from": f"h/{slug}/v2",
        },
    )
    assert fork.status_code == 201, fork.text
    return Saved(slug, secret, _json(fork)["slug"])


def _json(answer: TestResponse) -> dict[str, Any]:
    data = answer.get_json()
    assert isinstance(data, dict), answer.text[:300]
    return data


@pytest.fixture
def site(tmp_path: Path) -> Iterator[tuple[FlaskClient, Saved]]:
    MEMO.clear()
    app = _app(tmp_path)
    client = app.test_client()
    yield client, _save(client)
    app.extensions["ginrules.store"].close()
    MEMO.clear()


def _with(url: str, lang: str) -> str:
    return f"{url}{'&' if '?' in url else '?'}lang={lang}"


def _form(page: str) -> dict[str, str]:
    from tests.web_helpers import form_fields

    return form_fields(page)


def _pages(client: FlaskClient, saved: Saved, lang: str) -> dict[str, tuple[int, str]]:
    """Every page of these templates, in ``lang``: (status, HTML) by a short name."""
    slug, key = saved.slug, saved.secret
    example = next(e.name for e in refs.shipped_names() if e.kind == "houserules")
    gets = {
        "home": "/",
        "builder": "/build",
        "builder from a ruleset": "/build?from=oklahoma",
        "fork": f"/build?from=h/{slug}/v2",
        "edit": f"/h/{slug}/edit?key={key}",
        "yaml": "/build/yaml",
        "yaml edit": f"/h/{slug}/edit?key={key}&mode=yaml",
        "classic": "/rules/classic",
        "oklahoma": "/rules/oklahoma",
        "hollywood": "/rules/hollywood",
        "partnership": "/rules/partnership",
        "example": f"/rules/{example}",
        "latest": f"/h/{slug}",
        "older": f"/h/{slug}/v1",
        "forked": f"/h/{saved.fork}",
        "share": f"/h/{slug}/v1/share",
        "versions": f"/h/{slug}/versions",
        "not found": "/no/such/page",
    }
    pages = {}
    for name, url in gets.items():
        answer = client.get(_with(url, lang))
        pages[name] = (answer.status_code, answer.text)
    # The builder and the YAML editor refusing what was sent, each error beside its place.
    fields = _form(client.get(_with("/build", lang)).text)
    fields.update({"name": "", "hand_scoring.gin_bonus": "lots", "oklahoma.enabled": "true"})
    refused = client.post(_with("/build", lang), data=fields)
    pages["builder refused"] = (refused.status_code, refused.text)
    fields = _form(client.get(_with("/build/yaml", lang)).text)
    fields["yaml"] = (
        "name: X\nauthor: ''\ndescription: ''\nextends: classic\nplay:\n  knock_limit: 99\n"
    )
    refused = client.post(_with("/build/yaml", lang), data=fields)
    pages["yaml refused"] = (refused.status_code, refused.text)
    # Saved from the builder: the share page shows the private edit link, once.
    fields = _form(client.get(_with("/build", lang)).text)
    fields["name"] = "Quorvex Neu"
    made = client.post(_with("/build", lang), data=fields)
    assert made.status_code == 303, made.text[:500]
    share = client.get(_with(made.headers["Location"], lang))
    pages["share with edit link"] = (share.status_code, share.text)
    return pages


#: What each page must answer.
STATUS: Final = {"not found": 404, "builder refused": 422, "yaml refused": 422}


def _page_words() -> dict[str, list[str]]:
    """Messages each page shows, in the current language."""
    gin = ruleset_schema.knob("hand_scoring.gin_bonus")
    ace = ruleset_schema.knob("cards.ace")
    section = next(s for s in ruleset_schema.sections() if s.name == "cards")
    return {
        "home": [
            _("Your table's Gin Rummy rules, settled."),
            _("Start from a published ruleset"),
            _("Recently saved"),
        ],
        "builder": [
            _("Build your house rules"),
            _("What most tables change"),
            _("What the sources say"),
            builder_words.label(gin.dotted),
            builder_words.help_text(gin.dotted),
            _(section.title),
            _("No differences from %(base)s yet") % {"base": "classic"},
            ngettext("%(n)s difference from %(base)s", "%(n)s differences from %(base)s", 2)
            % {"n": "{n}", "base": "classic"},
        ],
        "fork": [
            _(
                "Its rules are filled in below: change what your table plays, give them your"
                " own name and save them as new house rules."
            )
        ],
        "edit": [_("Save a new version")],
        "yaml": [_("Write your house rules as YAML"), _("Save and get a link")],
        "classic": [
            _("Print and download"),
            _("Where these rules come from"),
            _("Tap a rule to read the sources' own words."),
        ],
        "latest": [_("Departures from the published rules"), _("All versions")],
        "share": [_("Short link"), _("The private edit link was shown once, right after saving.")],
        "share with edit link": [
            _("Your private edit link"),
            _("Could not copy: the link is selected, copy it by hand."),
            _("Copied the edit link."),
        ],
        "versions": [_("The first version.")],
        "not found": [_("Not found"), _("Back to the home page")],
        "builder refused": [_("Everything you typed is still here."), builder_words.name_needed()],
        "yaml refused": [_("YAML editor")],
        "_descriptions": [_(ace.description)],
    }


@pytest.mark.parametrize("lang", TRANSLATED)
def test_each_page_speaks_the_language_asked_for(
    site: tuple[FlaskClient, Saved], lang: str
) -> None:
    client, saved = site
    pages = _pages(client, saved, lang)
    with use_locale(lang):
        wanted = _page_words()
    for name, (status, page) in pages.items():
        assert status == STATUS.get(name, 200), (name, status, page[:400])
        assert f'<html lang="{lang}">' in page, name
    missing = [
        f"{name}: {text!r}"
        for name, texts in wanted.items()
        if not name.startswith("_")
        for text in texts
        if text not in html.unescape(pages[name][1])
    ]
    assert not missing, "words not shown as the catalogue gives them:\n" + "\n".join(missing)
    builder = pages["builder"][1]
    # A schema description, its `names` shown as code.
    description = wanted["_descriptions"][0].replace("`", "")
    assert description in html.unescape(re.sub(r"</?code>", "", builder))


def test_the_json_answers_speak_the_language_of_the_request(
    site: tuple[FlaskClient, Saved],
) -> None:
    client, _saved = site
    app: Any = client.application
    app.config["WTF_CSRF_ENABLED"] = True  # the check refuses a request without its token
    for lang in TRANSLATED:
        answer = client.post(_with("/build/yaml/check", lang), json={"yaml": "name: x\n"})
        assert answer.status_code == 400
        with use_locale(lang):
            assert _json(answer) == {  # the message in the language; keys and codes as they are
                "ok": False,
                "error": guards.form_expired(),
                "status": 400,
                "diagnostics": [],
            }
    app.config["WTF_CSRF_ENABLED"] = False
    for lang in TRANSLATED:
        answer = client.post(
            _with("/build/preview", lang),
            data={"base": "classic", "name": "x", "oklahoma.enabled": "true"},
        )
        with use_locale(lang):
            wanted = {
                "knob": "oklahoma.enabled",
                "label": builder_words.label("oklahoma.enabled"),
                "before": builder_words.value("oklahoma.enabled", False),
                "after": builder_words.value("oklahoma.enabled", True),
            }
        assert _json(answer)["changes"] == [wanted]


# -- the pseudo-languages -----------------------------------------------------------------


_PLACEHOLDER = re.compile(r"(%\([a-z_]+\)[sd]|\{[a-z_]*(?:![rs])?(?::[^{}]*)?\}|<[^>]+>|&[a-z]+;)")


def _stretched(message: str) -> str:
    """A message half as long again, its words joined in threes into long compounds
    (placeholders and tags kept), the way German can make one word of three."""
    parts = _PLACEHOLDER.split(message)
    for index in range(0, len(parts), 2):
        words = parts[index].split(" ")
        joined = []
        for start in range(0, len(words), 3):
            group = "".join(w + w[: len(w) // 2] for w in words[start : start + 3])
            joined.append(group)
        parts[index] = " ".join(joined)
    return "⟦" + "".join(parts) + "⟧"


@cache
def _pseudo(lang: str) -> gettext.GNUTranslations:
    if lang == PSEUDO:
        return pseudo_catalogue(lambda message: "⟦" + message + "⟧")
    return pseudo_catalogue(_stretched)


@pytest.fixture
def pseudo(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The two pseudo-languages, spoken by the site as if they were its own (dates and
    numbers as German writes them: digits and dots, no English month names)."""
    catalogues = {lang: _pseudo(lang) for lang in (PSEUDO, LONG)}
    speak_pseudo(monkeypatch, catalogues, babel_locale="de_DE", listed=True)
    yield


#: Elements whose text is never checked: code and the YAML text are data, scripts and
#: styles are not read; the sheet's own sentences have their own pseudo-language test
#: (tests/test_sheet_languages.py).
_SKIPPED_TAGS: Final = frozenset({"script", "style", "code", "textarea"})
_SKIPPED_IDS: Final = frozenset({"rules"})
#: Attributes people read, and the words the page hands its scripts.
_READ_ATTRIBUTES: Final = frozenset(
    {"title", "aria-label", "alt", "placeholder"}
    | {"data-none", "data-one", "data-many", "data-copied", "data-shared"}
    | {"data-not-copied", "data-not-shared"}
)
_VOID: Final = frozenset({"br", "img", "input", "link", "meta", "hr", "source", "wbr"})


class _Reader(HTMLParser):
    """The text a person reads on a page (and in its read attributes), less data."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.texts: list[str] = []
        self.stack: list[bool] = []  # per open element: is its text skipped?

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        skipped = bool(self.stack and self.stack[-1])
        # Another language's own name (the language switch) is never translated.
        skipped |= tag in _SKIPPED_TAGS or found.get("id") in _SKIPPED_IDS or "lang" in found
        skipped |= "brand" in (found.get("class") or "").split()
        if not skipped:
            self.texts += [v for k, v in attrs if k in _READ_ATTRIBUTES and v]
        if tag not in _VOID:
            self.stack.append(skipped)

    def handle_endtag(self, tag: str) -> None:
        if tag not in _VOID and self.stack:
            self.stack.pop()

    def handle_data(self, data: str) -> None:
        if not (self.stack and self.stack[-1]):
            self.texts.append(data)


def _readable(page: str) -> str:
    reader = _Reader()
    body = page[page.index("<body") :]
    reader.feed(body)
    return " ".join(reader.texts)


@cache
def _quotes() -> tuple[str, ...]:
    """The sources' own words: shown as written, a translation beside them."""
    found: set[str] = set()

    def walk(node: object) -> None:
        if isinstance(node, dict):
            for key, value in node.items():
                if key == "quote" and isinstance(value, str):
                    found.add(value)
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(ruleset_schema.schema())
    return tuple(sorted(found, key=len, reverse=True))


def _data_words() -> frozenset[str]:
    """Words that are data on these pages, never messages."""
    names = {entry.name for entry in refs.shipped_names()}
    words = {part for name in names for part in re.split(r"[-_ ]", name)}
    typed = f"{NAME} {AUTHOR} {FORK} Quorvex Neu Vrambo plinx Plorf zanu lots"
    codes = set(ruleset_schema.source_catalog())
    brands = {"YAML", "JSON", "PDF", "Schema", "OpenAPI", "UTC", "ginrules"}
    return frozenset(words | set(typed.split()) | codes | brands)


def _english_left(text: str) -> list[str]:
    """Words outside ``⟦⟧`` that are not data."""
    for quote in _quotes():
        text = text.replace(quote, " ")
    text = re.sub(r"(?:https?://|/h/|/rules/)[^\s⟦⟧]+", " ", text)
    while True:  # innermost first: a message holds translated values
        shorter = re.sub(r"⟦[^⟦⟧]*⟧", " ", text)
        if shorter == text:
            break
        text = shorter
    data = _data_words()
    return [
        word
        for word in re.findall(r"[A-Za-z][A-Za-z']+", text)
        if word not in data and not re.fullmatch(r"(?:10|[2-9TJQKA])[CDHS]", word)
    ]


def test_no_english_escapes_the_catalogue_on_any_page(
    site: tuple[FlaskClient, Saved], pseudo: None
) -> None:
    client, saved = site
    pages = _pages(client, saved, PSEUDO)
    left = {}
    for name, (status, page) in pages.items():
        assert status == STATUS.get(name, 200), (name, status, page[:400])
        assert f'<html lang="{PSEUDO}">' in page, name
        english = _english_left(_readable(page))
        if english:
            left[name] = sorted(set(english))
    assert not left, "English outside the catalogue:\n" + "\n".join(
        f"{name}: {' '.join(words)}" for name, words in left.items()
    )


def test_the_pseudo_language_sees_the_pages_words() -> None:
    """The check itself: a planted English word is found, data and ⟦⟧ are not."""
    page = (
        '<html><body><p title="⟦Hi⟧">⟦Saved: ⟦classic⟧⟧ Plorf zanu <code>xyz abc</code></p>'
        '<p aria-label="Secret word">BC</p><nav lang="de"><a>Deutsch</a></nav></body></html>'
    )
    assert _english_left(_readable(page)) == ["Secret", "word"]


def test_the_json_words_of_the_builder_are_in_the_catalogue(
    site: tuple[FlaskClient, Saved], pseudo: None
) -> None:
    client, _saved = site
    sent = {"base": "classic", "name": "x", "oklahoma.enabled": "true"}
    answer = client.post(
        _with("/build/preview", PSEUDO), data={**sent, "hand_scoring.gin_bonus": "lots"}
    )
    data = _json(answer)
    texts = [c[key] for c in data["changes"] for key in ("label", "before", "after")]
    texts += data["problems"] + data["warnings"]
    assert texts and not _english_left(" ".join(texts)), json.dumps(data, ensure_ascii=False)


# -- a phone, in German and in long words --------------------------------------------------


#: The site's header and footer are checked with the layout (its own tests), not here.
_WITHOUT_CHROME: Final = (
    "document.querySelectorAll('header.site, footer.site').forEach(e => e.remove())"
)


@pytest.mark.parametrize("lang", ["de", LONG])
def test_the_builder_fits_a_phone_in_long_words(tmp_path: Path, pseudo: None, lang: str) -> None:
    """German on a 390 px phone, and words half as long again: nothing wider than the
    phone, every control big enough to tap, no text too small; the YAML editor and a
    ruleset's page too."""
    from playwright.sync_api import expect

    from tests.browser_helpers import phones, shot
    from tests.browser_helpers import site as live_site
    from tests.page_checks import page_problems

    with live_site(tmp_path) as (base, _app), phones(1) as [visit]:
        page = visit.page
        page.goto(f"{base}/build?lang={lang}")
        assert page.locator("html").get_attribute("lang") == lang
        page.locator("#more-rules > summary").click()
        page.locator("#live > summary").click()
        page.select_option("#input-oklahoma-enabled", "true")
        page.locator("#input-hand_scoring-gin_bonus").fill("lots")  # an error beside it
        expect(page.locator("#live-changes li")).not_to_have_count(0)
        expect(page.locator("#live-warnings li")).not_to_have_count(0)
        shot(page, tmp_path, f"builder-{lang}-phone")
        page.evaluate(_WITHOUT_CHROME)
        problems = page_problems(page, phone=True, axe=False)
        for url in ("/build/yaml", "/rules/oklahoma"):
            page.goto(f"{base}{url}?lang={lang}")
            for folded in page.locator("details > summary").all():
                if folded.is_visible():
                    folded.click()
            page.evaluate(_WITHOUT_CHROME)
            problems += page_problems(page, phone=True, axe=False)
        assert not problems, problems
        assert not visit.problems, visit.problems
