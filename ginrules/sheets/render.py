"""Render rule sheets and score pads: HTML from the Jinja templates, PDF from that HTML.

One function per document and format; the ``ginrules sheet`` and ``scorepad``
commands and the web site all call these, so they print the same pages. A
rendered document depends only on the compiled rules (the fingerprint), the
ruleset's words (name, description, author, notes), the options and the language
(:func:`~ginrules.words.i18n.current_locale`), so it is kept in a small in-memory
cache under those. The fingerprint never depends on the language.
"""

from __future__ import annotations

import datetime as dt
import html
import os
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any, Final, Literal

import jinja2
from babel.dates import format_date
from markupsafe import Markup

from ginrules import __version__
from ginrules import schema as ruleset_schema
from ginrules.lru import LruCache
from ginrules.rules import locate
from ginrules.rules.compile import EngineConfig, compile_ruleset
from ginrules.rules.load import Ruleset
from ginrules.sheets.examples import worked_examples
from ginrules.sheets.filled import PadFill
from ginrules.sheets.marks import Marks
from ginrules.sheets.origins import Origins, rule_origins
from ginrules.sheets.qr import qr_data_uri
from ginrules.sheets.shipped import document_words
from ginrules.sheets.templating import sheet_environment
from ginrules.words.cards import ranks_text
from ginrules.words.departures import legend_text
from ginrules.words.i18n import _, babel_locale, current_locale
from ginrules.words.values import number_words, value_words

Paper = Literal["a4", "letter"]
Document = Literal["sheet", "scorepad"]
PAPERS: Final = ("a4", "letter")

#: Where the online copies live when neither the caller nor the environment says.
DEFAULT_BASE_URL: Final = "http://127.0.0.1:5000"


def default_base_url() -> str:
    """``PUBLIC_BASE_URL`` from the environment (the web site's setting), or the local site."""
    return os.environ.get("PUBLIC_BASE_URL", "").strip() or DEFAULT_BASE_URL


def online_url(base_url: str, ruleset: Ruleset) -> str:
    """The web page of a shipped ruleset or house rule under ``base_url``."""
    return f"{base_url.rstrip('/')}/rules/{ruleset.name}"


@dataclass(frozen=True)
class SheetOptions:
    paper: Paper = "a4"
    large_print: bool = False
    #: The online copy the QR code opens; None: ``online_url(default_base_url(), ...)``.
    url: str | None = None
    #: Shown in the header, e.g. "version 3" on the web site; None for a file.
    version: str | None = None
    #: The date in the header; None: today.
    date: dt.date | None = None
    #: Only the body (rules, examples, notes) as HTML to embed in a web page: no
    #: ``<html>``, head, styles, masthead, QR code or colophon.
    fragment: bool = False

    def for_ruleset(self, ruleset: Ruleset) -> SheetOptions:
        """These options with the URL and date filled in."""
        return replace(
            self,
            url=self.url or online_url(default_base_url(), ruleset),
            date=self.date or dt.date.today(),
        )


#: Rendered documents by (document, format, fingerprint, name, chain, words, options,
#: language): a house rule's marks depend on the rules it extends.
CACHE: Final[LruCache[tuple[Any, ...], str | bytes]] = LruCache(128)
#: The sheet's appendix as data, for the web page of the same rules.
ORIGINS: Final[LruCache[tuple[Any, ...], Origins]] = LruCache(128)


def _key(
    document: Document, kind: str, ruleset: Ruleset, config: EngineConfig, options: SheetOptions
) -> tuple[Any, ...]:
    doc = ruleset.document
    words_of = tuple(str(doc.get(field)) for field in ("name", "description", "author", "notes"))
    return (
        document,
        kind,
        config.fingerprint,
        ruleset.name,
        ruleset.chain,
        words_of,
        options,
        current_locale(),
    )


def environment() -> jinja2.Environment:
    return sheet_environment()


def sheet_html(ruleset: Ruleset, options: SheetOptions | None = None) -> str:
    """The rule sheet as a self-contained HTML page (CSS and QR code inline); with
    ``options.fragment``, its body only, for the web page of the same rules."""
    return _html("sheet", ruleset, options)


def scorepad_html(ruleset: Ruleset, options: SheetOptions | None = None) -> str:
    """A score pad that fits the ruleset's format and scoring, as HTML."""
    return _html("scorepad", ruleset, options)


def _html(document: Document, ruleset: Ruleset, options: SheetOptions | None) -> str:
    config = compile_ruleset(ruleset)
    filled = (options or SheetOptions()).for_ruleset(ruleset)
    made = CACHE.get(
        _key(document, "html", ruleset, config, filled),
        lambda: _render(document, ruleset, config, filled)[0],
    )
    assert isinstance(made, str)
    return made


def sheet_origins(ruleset: Ruleset) -> Origins:
    """Where each rule printed on the sheet comes from: the sheet's appendix as data,
    for the web page of these rules (the same rows, the quotes one tap away)."""
    config = compile_ruleset(ruleset)
    filled = SheetOptions().for_ruleset(ruleset)
    return ORIGINS.get(
        _key("sheet", "origins", ruleset, config, filled),
        lambda: _render_sheet(ruleset, config, filled)[1],
    )


def sheet_pdf(ruleset: Ruleset, options: SheetOptions | None = None) -> bytes:
    """The rule sheet as a PDF with selectable text and title/author metadata."""
    return _pdf("sheet", ruleset, options, sheet_html)


def scorepad_pdf(ruleset: Ruleset, options: SheetOptions | None = None) -> bytes:
    return _pdf("scorepad", ruleset, options, scorepad_html)


def _pdf(
    document: Document,
    ruleset: Ruleset,
    options: SheetOptions | None,
    html: Callable[[Ruleset, SheetOptions], str],
) -> bytes:
    config = compile_ruleset(ruleset)
    filled = (options or SheetOptions()).for_ruleset(ruleset)
    made = CACHE.get(
        _key(document, "pdf", ruleset, config, filled),
        lambda: _to_pdf(html(ruleset, filled)),
    )
    assert isinstance(made, bytes)
    return made


def _to_pdf(html: str) -> bytes:
    import weasyprint  # imported late: it takes a third of a second

    pdf = weasyprint.HTML(string=html, base_url=str(locate.templates_dir())).write_pdf()
    assert pdf is not None
    return bytes(pdf)


def _render_sheet(
    ruleset: Ruleset, config: EngineConfig, options: SheetOptions
) -> tuple[str, Origins]:
    page, origins = _render("sheet", ruleset, config, options)
    assert origins is not None, "the sheet lists where its rules come from"
    return page, origins


def filled_scorepad_html(
    ruleset: Ruleset, fill: PadFill, options: SheetOptions | None = None
) -> str:
    """The score pad of ``ruleset`` with a played game written in (see
    :mod:`ginrules.sheets.filled`), as HTML. Not cached: a table's pad changes."""
    config = compile_ruleset(ruleset)
    assert fill.fingerprint == config.fingerprint, "a pad is filled under its own rules"
    page, _ = _render(
        "scorepad", ruleset, config, (options or SheetOptions()).for_ruleset(ruleset), fill
    )
    return page


def filled_scorepad_pdf(
    ruleset: Ruleset, fill: PadFill, options: SheetOptions | None = None
) -> bytes:
    """The filled score pad as a PDF (more hands than a sheet holds run onto more pages)."""
    return _to_pdf(filled_scorepad_html(ruleset, fill, options))


def _render(
    document: Document,
    ruleset: Ruleset,
    config: EngineConfig,
    options: SheetOptions,
    fill: PadFill | None = None,
) -> tuple[str, Origins | None]:
    """The page, and the origins its appendix listed (None for a page without one)."""
    marks = Marks(ruleset)
    assert options.url is not None and options.date is not None

    def around_value(dotted: str) -> Around:
        """The markup around a knob's value that the template words itself, inside a
        whole sentence: ``the {start}low card{end} deals``."""
        ruleset_schema.knob(dotted)  # a misspelt knob fails the render, not the reader
        marked = marks.note(dotted) is not None
        start = Markup('<span class="knob{}" data-knob="{}">').format(
            " marked" if marked else "", dotted
        )
        return Around(start, Markup("</span>") + mark(dotted))

    def value(dotted: str, shown: object = None) -> Markup:
        """A knob's value in words, with its note number when it is marked; ``shown``
        says it otherwise (a number)."""
        around = around_value(dotted)
        text = value_words(ruleset.value(dotted) if shown is None else shown)
        return around.start + text + around.end

    def mark(dotted: str) -> Markup:
        """The note number of a marked knob (empty when it is not marked)."""
        ruleset_schema.knob(dotted)
        footnote = marks.note(dotted)
        if footnote is None:
            return Markup("")
        return Markup(
            '<sup class="ref" data-house="{knob}"><a href="#note-{n}">{n}</a></sup>'
        ).format(knob=dotted, n=footnote.number)

    fixed_asked: list[str] = []

    def fixed(rule_id: str) -> str:
        """A rule every ruleset plays, where the sheet says it."""
        fixed_asked.append(rule_id)
        return _(ruleset_schema.fixed_rule(rule_id).rule)

    listed: list[Origins] = []

    def origins() -> Origins:
        """Called once the rules are printed: every rule the sheet asked about."""
        if not listed:
            listed.append(rule_origins(ruleset, marks, fixed_asked, marks.asked))
        return listed[0]

    doc = ruleset.document
    page = (
        environment()
        .get_template(f"{document}.html")
        .render(
            r=ruleset,
            doc=doc,
            words=document_words(ruleset),
            lang=current_locale(),
            printed=format_date(options.date, format="long", locale=babel_locale()),
            css_string=_css_string,
            counters=_COUNTERS,
            ranks=ranks_text,
            c=config,
            options=options,
            fingerprint=config.fingerprint,
            generator=f"ginrules {__version__}",
            value=value,
            around_value=around_value,
            mark=mark,
            marks=marks,
            examples=worked_examples(config),
            fixed=fixed,
            fixed_asked=fixed_asked,
            origins=origins,
            legend=legend_text(marks.base_name),
            qr=qr_data_uri(options.url),
            fill=fill,
            number_words=number_words,
        )
    )
    return page, listed[0] if listed else None


@dataclass(frozen=True)
class Around:
    """The markup that opens and closes a knob's value in a sentence."""

    start: Markup
    end: Markup


#: Stand-ins for the page counters in a translated margin text (``page {page} of
#: {pages}``), which :func:`_css_string` turns into CSS ``counter()`` calls.
_COUNTERS: Final = {"page": "\x01", "pages": "\x02"}
_CSS_COUNTERS: Final = {"\x01": '" counter(page) "', "\x02": '" counter(pages) "'}


def _css_string(text: str) -> Markup:
    """A (translated, autoescaped) text as the value of a page margin's ``content``:
    a quoted CSS string, the page counters in place. ``<`` is escaped too, so no
    ruleset name can close the ``<style>`` it is printed in."""
    plain = html.unescape(str(text))
    escaped = "".join(
        _CSS_COUNTERS.get(char)
        or {"\\": "\\\\", '"': '\\"', "<": "\\3C ", "\n": " "}.get(char, char)
        for char in plain
    )
    quoted = f'"{escaped}"'.removeprefix('"" ').removesuffix(' ""')
    return Markup(quoted)


__all__ = [
    "CACHE",
    "PAPERS",
    "Paper",
    "SheetOptions",
    "default_base_url",
    "filled_scorepad_html",
    "filled_scorepad_pdf",
    "online_url",
    "scorepad_html",
    "scorepad_pdf",
    "sheet_html",
    "sheet_pdf",
]
