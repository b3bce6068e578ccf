"""No template prints a word that does not pass through the translation functions.

A static check of every template (the sheets' and the site's), one case per file:
the Jinja lexer splits each template into its text and its tags; the text of
``{% trans %}`` blocks is translated, as is every ``_()``/``gettext``/``pgettext``
call; whatever else a reader sees must hold no words. What a reader sees is the
HTML's text (not the contents of ``<style>`` and ``<script>``), the values of the
attributes people read (``title``, ``aria-label``, ``alt``, ``placeholder``) and
the string literals a ``{{ ... }}`` prints there (``{{ author or "unknown" }}``).

Allowed: the brand, card codes (``7H``, ``TS``), single letters (a player's or a
team's letter: ``A``, ``B``), numbers, punctuation and symbols.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path
from typing import Final

import pytest

from ginrules.rules import locate
from ginrules.sheets.templating import sheet_environment

ROOT: Final = Path(__file__).resolve().parent.parent
SITE_TEMPLATES: Final = ROOT / "ginrules" / "web" / "templates" / "web"
TEMPLATES: Final = sorted(
    [*locate.templates_dir().glob("*.html"), *SITE_TEMPLATES.glob("*.html")],
    key=lambda p: (p.parent != locate.templates_dir(), p.name),
)

#: The attributes whose values people read (or hear, from a screen reader).
READ_ATTRIBUTES: Final = frozenset({"title", "aria-label", "alt", "placeholder"})
#: The translation functions of jinja2.ext.i18n (ginrules.sheets.templating).
GETTEXT: Final = frozenset({"_", "gettext", "ngettext", "pgettext", "npgettext"})
#: Words that are never translated: the program's name, and the names of the file
#: formats and specifications the site offers (the same in every language).
ALLOWED: Final = frozenset({"ginrules", "PDF", "CSV", "JSON", "YAML", "OpenAPI", "Schema"})
#: Tags inside a run of text: ``gin<strong>rules</strong>`` reads as one word.
INLINE: Final = frozenset({"a", "b", "strong", "em", "i", "span", "small", "sup", "sub", "code"})
#: Stands for a translated text (a trans block) in the rebuilt page.
TRANSLATED: Final = "\x01"
#: Marks a ``{{ ... }}`` by its number in the rebuilt page: ``\x02<n>\x03``.
PRINTED: Final = re.compile("\x02(\\d+)\x03")
WORD: Final = re.compile(r"[^\W\d_]{2,}")
CARD: Final = re.compile(r"(?:10|[2-9TJQKA])[CDHS]")


def _words(text: str) -> list[str]:
    return [w for w in WORD.findall(text) if w not in ALLOWED and not CARD.fullmatch(w)]


def _printed_strings(tokens: list[tuple[str, str]]) -> list[str]:
    """The string literals a ``{{ ... }}`` may print: not a gettext call's, not a
    call's or filter's argument (``join("; ")``, ``url_for("x")``), not a key
    (``errors["players"]``), not a string of letters picked from (``"ABC"[seat]``)."""
    found = []
    depth_in_gettext: list[int] = []
    depth = 0
    brackets = 0
    previous = ""
    significant = [(k, v) for k, v in tokens if k != "whitespace"]
    for index, (kind, value) in enumerate(significant):
        following = significant[index + 1][1] if index + 1 < len(significant) else ""
        if kind == "operator" and value == "(":
            depth += 1
            if previous in GETTEXT:
                depth_in_gettext.append(depth)
        elif kind == "operator" and value == ")":
            if depth_in_gettext and depth_in_gettext[-1] == depth:
                depth_in_gettext.pop()
            depth -= 1
        elif kind == "operator" and value in "[]":
            brackets += 1 if value == "[" else -1
        elif kind == "string" and not (depth or brackets) and following != "[":
            found.append(value[1:-1])
        previous = value
    return found


def rebuilt(source: str) -> tuple[str, list[list[str]]]:
    """The template as the page a reader gets, with every trans block as
    :data:`TRANSLATED` and every ``{{ ... }}`` as a numbered mark; and, by number,
    the string literals each ``{{ ... }}`` may print."""
    page: list[str] = []
    printed: list[list[str]] = []
    tag: list[tuple[str, str]] = []
    in_trans = False
    in_tag: str | None = None
    for _, kind, value in sheet_environment().lex(source):
        if kind in ("block_begin", "variable_begin"):
            in_tag, tag = kind, []
            continue
        if kind in ("block_end", "variable_end"):
            names = [v for k, v in tag if k == "name"]
            if in_tag == "block_begin" and names[:1] == ["trans"]:
                in_trans = True
                page.append(TRANSLATED)
            elif in_tag == "block_begin" and names[:1] == ["endtrans"]:
                in_trans = False
            elif in_tag == "variable_begin" and not in_trans:
                page.append(f"\x02{len(printed)}\x03")
                printed.append(_printed_strings(tag))
            in_tag = None
            continue
        if in_tag is not None:
            tag.append((kind, value))
        elif kind == "data" and not in_trans:
            page.append(value)
    return "".join(page), printed


class _Reader(HTMLParser):
    """Collects what a reader sees: runs of text outside style and script (an inline
    tag does not end a run), and the attributes people read."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.seen: list[str] = [""]
        self._hidden = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("style", "script"):
            self._hidden += 1
        if tag not in INLINE:
            self.seen.append("")
        for name, value in attrs:
            if name in READ_ATTRIBUTES and value:
                self.seen += [value, ""]

    def handle_endtag(self, tag: str) -> None:
        if tag in ("style", "script"):
            self._hidden = max(0, self._hidden - 1)
        if tag not in INLINE:
            self.seen.append("")

    def handle_data(self, data: str) -> None:
        if not self._hidden:
            self.seen[-1] += data


def untranslated_words(source: str) -> list[str]:
    """Every word a reader of the template sees that is not translated."""
    page, printed = rebuilt(source)
    reader = _Reader()
    reader.feed(page)
    reader.close()
    words: list[str] = []
    for text in reader.seen:
        for number in PRINTED.findall(text):
            for literal in printed[int(number)]:
                words += _words(literal)
        words += _words(PRINTED.sub(" ", text))
    return words


@pytest.mark.parametrize(
    "template", TEMPLATES, ids=[f"{p.parent.name}/{p.name}" for p in TEMPLATES]
)
def test_every_word_of_a_template_is_translated(template: Path) -> None:
    words = untranslated_words(template.read_text(encoding="utf-8"))
    assert not words, (
        f"{template.relative_to(ROOT)}: words outside {{% trans %}} and _(): "
        + ", ".join(sorted(set(words)))
    )


def test_the_check_finds_words_outside_the_translation_functions() -> None:
    source = (
        '<p title="Open {{ x }}">{# a comment #}Hello {% trans a=1 %}Some {{ a }}{% endtrans %}'
        ' {{ _("x y") }} {{ y or "unknown" }} {{ items | join("; ") }} 7H</p>'
        '<style>p { font: sans-serif; }</style><th>A</th><img alt="QR">'
    )
    assert sorted(untranslated_words(source)) == ["Hello", "Open", "QR", "unknown"]
    assert untranslated_words('{% trans %}Hello{% endtrans %} {{ _("World") }} · 10') == []
