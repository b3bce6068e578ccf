"""The rule sheets and score pads in every language ginrules speaks.

- A pseudo-language proves that every word a sheet or a score pad prints comes
  from the catalogue: each extracted message is translated as ``⟦message⟧``
  (placeholders kept), and every shipped ruleset's sheet and pads (blank, in
  play, finished) must show no English word outside ``⟦⟧`` but the data a sheet
  prints as it is (card codes, numbers, players' names, source codes and the
  sources' own English words, URLs, file names).
- The four base rulesets render in English, German, Spanish and French, as HTML
  and as PDF (title, subject, keywords and language in the PDF's metadata), and
  print on as many pages in every language as the suite allows in English.
- A reviewed golden text per language for ``classic`` and ``oklahoma``
  (``tests/sheets/<lang>/<name>.txt``), compared as the English ones are; the
  translators write them with ``GINRULES_UPDATE_SHEETS=1`` and read the diff.
- The web page of a ruleset shows the printed sheet's own sentences in German too.
"""

from __future__ import annotations

import datetime as dt
import gettext
import html
import re
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import Final

import pytest
from flask.testing import FlaskClient

from ginrules import schema as ruleset_schema
from ginrules.engine.scorepad import (
    HandReport,
    PadEntry,
    ScorePad,
    new_score_pad,
    score_pad_class,
)
from ginrules.rules import locate
from ginrules.rules.compile import EngineConfig, compile_ruleset
from ginrules.rules.load import Ruleset, load_ruleset
from ginrules.sheets.filled import pad_fill
from ginrules.sheets.render import (
    CACHE,
    SheetOptions,
    filled_scorepad_html,
    scorepad_html,
    scorepad_pdf,
    sheet_html,
    sheet_pdf,
)
from ginrules.sheets.shipped import ruleset_text
from ginrules.words import i18n
from ginrules.words.values import UNTITLED
from tests.pdf_tools import pdf_info, pdf_pages
from tests.sheet_text import sheet_lines
from tests.test_sheet_consistency import GOLDEN, UPDATE
from tests.translations import TRANSLATED, pseudo_catalogue, speak_pseudo
from tests.web_helpers import site_client

SHIPPED: Final = [entry.name for entry in locate.entries()]
BASES: Final = ("classic", "oklahoma", "hollywood", "partnership")
GOLDEN_RULESETS: Final = ("classic", "oklahoma")
#: The pseudo-language; Babel writes its dates, lists and numbers as Japanese does,
#: so no English month or "and" slips through as data.
PSEUDO: Final = "xx"
OPEN, CLOSE = "⟦", "⟧"
PLAYERS: Final = ("Ana", "Ben", "Chloe", "Dev")
URL: Final = "https://gin.example.org/rules/x"
OPTIONS: Final = SheetOptions(url=URL, date=dt.date(2026, 1, 1))


# -- the pseudo-language ---------------------------------------------------------------


#: What a pseudo-translation keeps outside its brackets: placeholders (``{name}``,
#: ``%(name)s``, ``%%``) and HTML tags, so a value filled in is checked on its own.
_KEPT: Final = re.compile(r"(\{[^{}]*\}|%\(\w+\)[sdif]|%%|<[^>]*>)")


def _pseudo(text: str) -> str:
    """``Knock with {points} or fewer.`` as ``⟦Knock with ⟧{points}⟦ or fewer.⟧``."""
    return "".join(
        piece if _KEPT.fullmatch(piece) else OPEN + piece + CLOSE
        for piece in _KEPT.split(text)
        if piece
    )


@pytest.fixture(scope="module")
def pseudo_words() -> gettext.GNUTranslations:
    """Every extracted message, its words bracketed: ``⟦Knock with ⟧{points}⟦ or fewer.⟧``."""
    return pseudo_catalogue(_pseudo)


@pytest.fixture
def pseudo(
    pseudo_words: gettext.GNUTranslations, monkeypatch: pytest.MonkeyPatch
) -> Iterator[None]:
    """Speak the pseudo-language inside the test."""
    speak_pseudo(monkeypatch, {PSEUDO: pseudo_words}, babel_locale="ja_JP")
    CACHE.clear()
    with i18n.use_locale(PSEUDO):
        yield
    CACHE.clear()


def _bracketed(text: str) -> str:
    """``text`` without its ``⟦...⟧`` parts (nested ones too)."""
    out, depth = [], 0
    for char in text:
        if char == OPEN:
            depth += 1
            out.append(" ")
        elif char == CLOSE:
            depth = max(0, depth - 1)
        elif depth == 0:
            out.append(char)
    return "".join(out)


def _source_words() -> list[str]:
    """The sources' own words (printed in English, a translation beside them),
    longest first, and the source codes and titles' codes."""
    quotes: set[str] = set()
    for knob in ruleset_schema.knobs():
        for entry in knob.published:
            quotes.update(c.quote for c in entry.citations)
        quotes.update(f.quote for f in knob.flagged)
        quotes.update(s.quote for s in knob.slips)
    for rule in ruleset_schema.fixed_rules():
        quotes.update(c.quote for c in rule.citations)
        quotes.update(s.quote for s in rule.slips)
    return sorted(quotes, key=len, reverse=True)


#: Words a sheet prints as data: source codes, the program and file names, the
#: rulesets' slugs (a house rule names the rules it extends by theirs).
_DATA_WORDS: Final = frozenset(
    {*ruleset_schema.source_catalog(), "ginrules", "rulesets", "houserules", "yaml", *SHIPPED}
)
_CARD: Final = re.compile(r"(?:10|[2-9TJQKA])[CDHS]")


def visible_text(page: str) -> str:
    """What a reader of the page (or of its PDF) sees: the title, the metadata a
    PDF takes, alt texts, the page margins' texts and the body's text."""
    seen = re.findall(r"<title>(.*?)</title>", page, re.S)
    seen += re.findall(r'<meta name="(?:description|keywords)" content="([^"]*)"', page)
    seen += re.findall(r'\balt="([^"]*)"', page)
    seen += re.findall(r'\btitle="([^"]*)"', page)
    seen += re.findall(
        r"(?<![-\w])content: (.*?);", "".join(re.findall(r"<style>(.*?)</style>", page, re.S))
    )
    body = re.sub(
        r"<style.*?</style>", " ", page.split("<body", 1)[-1].split(">", 1)[-1], flags=re.S
    )
    seen.append(re.sub(r"<[^>]+>", " ", body))
    return html.unescape(" ".join(seen))


def english_words(page: str, *, allowed: tuple[str, ...] = ()) -> list[str]:
    """The words of ``page`` outside ``⟦⟧`` that are not data."""
    text = _bracketed(visible_text(page))
    text = re.sub(
        r"https?://\S+|\S+\.yaml|ginrules \S+|counter\(pages?\)|\b[0-9a-f]{12,64}\b", " ", text
    )
    for data in (*_source_words(), *allowed, *PLAYERS, *sorted(SHIPPED, key=len, reverse=True)):
        text = text.replace(data, " ")
    return [
        word
        for word in re.findall(r"[A-Za-z]{2,}", text)
        if word not in _DATA_WORDS and not _CARD.fullmatch(word)
    ]


def _played(config: EngineConfig, hands: int | None = None) -> ScorePad:
    """A pad of these rules with hands entered: all of them to the end, or ``hands``."""
    groups = score_pad_class(config).cut_groups
    pad = new_score_pad(config, [group[0] for group in groups])
    number = 0
    while not pad.finished and (hands is None or number < hands):
        seatings = pad.next_deal().seatings
        pad.add(
            PadEntry(
                tuple(
                    HandReport.dead()
                    if number % 5 == 3
                    else HandReport(s.seats[(number + table) % 2], 31 + number - 20 * table)
                    for table, s in enumerate(seatings)
                )
            )
        )
        number += 1
    return pad


def _pages(ruleset: Ruleset) -> Iterator[tuple[str, str]]:
    config = compile_ruleset(ruleset)
    names = PLAYERS[: new_score_pad(config, _first_dealers(config)).players]
    yield "sheet", sheet_html(ruleset, OPTIONS)
    yield "blank pad", scorepad_html(ruleset, OPTIONS)
    for label, pad in (("pad in play", _played(config, 1)), ("finished pad", _played(config))):
        yield label, filled_scorepad_html(ruleset, pad_fill(pad, names), OPTIONS)


def _first_dealers(config: EngineConfig) -> list[int]:
    return [group[0] for group in score_pad_class(config).cut_groups]


@pytest.mark.parametrize("name", SHIPPED)
def test_every_word_of_a_sheet_and_its_pads_comes_from_the_catalogue(
    pseudo: None, name: str
) -> None:
    ruleset = load_ruleset(name)
    for label, page in _pages(ruleset):
        assert f'<html lang="{PSEUDO}">' in page
        words = english_words(page)
        assert not words, f"{name} {label}: English outside the catalogue: {sorted(set(words))}"


def test_the_pseudo_language_check_is_not_vacuous(pseudo: None) -> None:
    page = sheet_html(load_ruleset("classic"), OPTIONS)
    assert "⟦" in visible_text(page) and "⟦One standard 52-card deck, no jokers.⟧" in page
    assert english_words(page.replace("⟦Worked examples⟧", "Worked examples")) == [
        "Worked",
        "examples",
    ]


def test_a_tables_own_words_are_never_translated(pseudo: None, tmp_path: Path) -> None:
    """A house rule's own name, description and notes are shown as written; the name
    the schema gives a house rule without one is ours, and translated."""
    path = tmp_path / "ours.yaml"
    path.write_text(
        "name: Gin at the lake house\nauthor: Ana\nextends: classic\n"
        "description: Our summer rules.\nnotes: [Winner shuffles.]\n",
        encoding="utf-8",
    )
    page = sheet_html(load_ruleset(path), OPTIONS)
    assert "<h1>Gin at the lake house</h1>" in page
    assert "Our summer rules." in page and "<p>Winner shuffles.</p>" in page
    own = ("Gin at the lake house", "Our summer rules.", "Winner shuffles.", "ours")
    assert not english_words(page, allowed=own)
    untitled = tmp_path / "untitled.yaml"
    untitled.write_text("extends: classic\n", encoding="utf-8")
    assert f"<h1>{_pseudo(UNTITLED)}</h1>" in sheet_html(load_ruleset(untitled), OPTIONS)
    assert ruleset_schema.defaults()["name"] == UNTITLED


# -- the four languages, as HTML and PDF -------------------------------------------------


LANGUAGES: Final = tuple(i18n.LANGUAGES)


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("name", BASES)
def test_the_base_rulesets_render_in_every_language(name: str, lang: str) -> None:
    ruleset = load_ruleset(name)
    fingerprint = compile_ruleset(ruleset).fingerprint
    with i18n.use_locale(lang):
        for page in (sheet_html(ruleset, OPTIONS), scorepad_html(ruleset, OPTIONS)):
            assert page.startswith("<!doctype html>")
            assert f'<html lang="{lang}">' in page
            assert f'data-fingerprint="{fingerprint}"' in page
            assert html.escape(ruleset_text(str(ruleset.document["name"]))) in page


def _pdf_language(pdf: bytes) -> list[bytes]:
    """The ``/Lang`` of the PDF's catalogue (WeasyPrint compresses its objects)."""
    found = re.findall(rb"/Lang\s*\(([^)]*)\)", pdf)
    for stream in re.finditer(rb"stream\r?\n", pdf):
        try:  # a zlib stream ends by itself: whatever follows it is left unused
            text = zlib.decompressobj().decompress(pdf[stream.end() :])
        except zlib.error:
            continue
        found += re.findall(rb"/Lang\s*\(([^)]*)\)", text)
    return found


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("name", BASES)
def test_the_base_rulesets_print_in_every_language_on_as_many_pages(
    name: str, lang: str, tmp_path: Path
) -> None:
    ruleset = load_ruleset(name)
    papers = ("a4", "letter") if name == "classic" else ("a4",)
    with i18n.use_locale(lang):
        title = ruleset_text(str(ruleset.document["name"]))
        sheet_title = i18n.gettext("%(name)s: rule sheet") % {"name": title}
        pad_title = i18n.gettext("%(name)s: score pad") % {"name": title}
        description = ruleset_text(str(ruleset.document["description"]))
        keywords = i18n.gettext("gin rummy, house rules")
        for paper in papers:
            made = sheet_pdf(ruleset, SheetOptions(paper=paper, url=URL))  # type: ignore[arg-type]
            sheet = tmp_path / f"sheet-{paper}.pdf"
            sheet.write_bytes(made)
            info = pdf_info(sheet)
            assert info["Title"] == sheet_title
            assert " ".join(info["Subject"].split()) == " ".join(description.split())
            assert info["Keywords"].startswith(keywords)
            assert _pdf_language(made) == [lang.encode()]
            pages = pdf_pages(sheet)
            limit = 2 if name == "classic" else 3
            assert 1 <= pages <= limit, f"{name} in {lang} on {paper}: {pages} pages"
        pad = tmp_path / "pad.pdf"
        pad.write_bytes(scorepad_pdf(ruleset, SheetOptions(url=URL)))
        assert pdf_info(pad)["Title"] == pad_title
        assert pdf_pages(pad) == 1, f"the {name} score pad in {lang} is one sheet of paper"


# -- reviewed golden texts per language ----------------------------------------------------


@pytest.mark.parametrize("name", GOLDEN_RULESETS)
@pytest.mark.parametrize("lang", TRANSLATED)
def test_golden_sheet_text_per_language(lang: str, name: str) -> None:
    with i18n.use_locale(lang):
        text = "\n".join(sheet_lines(load_ruleset(name))) + "\n"
    path = GOLDEN / lang / f"{name}.txt"
    if UPDATE:
        path.parent.mkdir(exist_ok=True)
        path.write_text(text, encoding="utf-8")
    assert path.exists(), (
        f"no reviewed {lang} golden text for {name}: once the {lang} catalogue is translated, "
        f"run GINRULES_UPDATE_SHEETS=1 python -m pytest {Path(__file__).name} and review "
        f"{path.relative_to(GOLDEN.parent.parent)}"
    )
    assert text == path.read_text(encoding="utf-8"), (
        f"the {name} sheet's {lang} words changed: review, then GINRULES_UPDATE_SHEETS=1"
    )


def test_the_golden_folders_hold_only_translated_shipped_rulesets() -> None:
    for folder in (p for p in GOLDEN.iterdir() if p.is_dir()):
        assert folder.name in TRANSLATED, folder
        assert {p.stem for p in folder.glob("*.txt")} <= set(SHIPPED), folder


# -- the web page speaks the sheet's words -------------------------------------------------


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[FlaskClient]:
    with site_client(tmp_path_factory.mktemp("site"), "sheet-languages") as client:
        yield client


@pytest.mark.parametrize("name", ["classic", "partnership"])
def test_the_web_page_shows_the_printed_sheets_sentences_in_german(
    client: FlaskClient, name: str
) -> None:
    answer = client.get(f"/rules/{name}?lang=de")
    assert answer.status_code == 200
    page = answer.get_data(as_text=True)
    with i18n.use_locale("de"):
        sheet = sheet_html(load_ruleset(name), SheetOptions(url=URL))
        fragment = sheet_html(load_ruleset(name), SheetOptions(url=URL, fragment=True))
    rules = sheet.split('<div class="rules">', 1)[1].split('<section class="examples"', 1)[0]
    sections = re.findall(r'<section id="[^"]+">.*?</section>', rules, flags=re.S)
    assert len(sections) >= 7
    for section in sections:
        assert section in fragment and section in page, section[:80]
