"""The messages of ginrules as pybabel extracts them, and each language's catalogue.

Shared by the translation tests: the extraction follows ``babel.cfg`` exactly
(code, templates, schema, shipped rulesets), so a message added anywhere is
seen here before any catalogue knows it.
"""

from __future__ import annotations

import gettext
import io
import re
from collections import Counter
from collections.abc import Callable, Mapping
from functools import cache
from pathlib import Path

from babel.messages.catalog import Catalog, Message
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from pytest import MonkeyPatch

from ginrules.words import i18n
from ginrules.words.i18n import LANGUAGES, LOCALE_DIR, SOURCE_LOCALE

ROOT = Path(__file__).resolve().parent.parent
#: Every language with a catalogue: all but the source.
TRANSLATED = tuple(lang for lang in LANGUAGES if lang != SOURCE_LOCALE)

_BRACE = re.compile(r"\{([^{}]*)\}")
_PERCENT = re.compile(r"%\((\w+)\)[sdirf]")
_TAG = re.compile(r"</?([a-zA-Z][a-zA-Z0-9]*)\b[^>]*>")


#: A message as the catalogues key it: (context or None, id or (singular, plural)).
Key = tuple[str | None, str | tuple[str, str]]


@cache
def extracted() -> dict[Key, list[str]]:
    """Every message (its context, and its id or singular and plural) and where it is used."""
    with (ROOT / "babel.cfg").open() as cfg:
        method_map, options_map = parse_mapping_cfg(cfg)  # type: ignore[no-untyped-call]
    found: dict[Key, list[str]] = {}
    for filename, lineno, message, _comments, context in extract_from_dir(
        str(ROOT), method_map, options_map
    ):
        text = message if isinstance(message, str) else (message[0], message[1])
        found.setdefault((context, text), []).append(f"{filename}:{lineno}")
    return found


def catalogue_path(lang: str) -> Path:
    return LOCALE_DIR / lang / "LC_MESSAGES" / "ginrules.po"


@cache
def catalogue(lang: str) -> Catalog:
    with catalogue_path(lang).open("rb") as source:
        return read_po(source, locale=lang)


def placeholders(text: str) -> Counter[str]:
    """The ``{name}``, ``%(name)s`` and HTML tag names of a message, counted."""
    plain = text.replace("{{", "").replace("}}", "").replace("%%", "")
    found: Counter[str] = Counter("{" + name + "}" for name in _BRACE.findall(plain))
    found.update("%(" + name + ")" for name in _PERCENT.findall(plain))
    found.update("<" + tag.lower() + ">" for tag in _TAG.findall(plain))
    return found


def translations_of(message: Message) -> list[str]:
    """The message's translation (one per plural form), empty strings where missing."""
    if isinstance(message.string, (list, tuple)):
        return [str(s) for s in message.string]
    return [str(message.string or "")]


def pseudo_catalogue(word: Callable[[str], str]) -> gettext.GNUTranslations:
    """Every extracted message (each plural form too) translated by ``word``, compiled
    as gettext reads a .mo file: a test-only language that shows where each word on a
    page comes from (``⟦message⟧``)."""
    catalog = Catalog(locale="en")  # two plural forms, as English has
    for (context, key), _uses in extracted().items():
        if isinstance(key, str):
            catalog.add(key, word(key), context=context)
        else:
            catalog.add(key, (word(key[0]), word(key[1])), context=context)
    buffer = io.BytesIO()
    write_mo(buffer, catalog)
    buffer.seek(0)
    return gettext.GNUTranslations(buffer)


def speak_pseudo(
    monkeypatch: MonkeyPatch,
    catalogues: Mapping[str, gettext.NullTranslations],
    *,
    babel_locale: str | None = None,
    listed: bool = False,
) -> None:
    """Make ginrules speak each test-only language of ``catalogues`` (code -> catalogue)
    for the test: numbers, lists and dates as ``babel_locale`` writes them, and the
    languages ``listed`` among the site's own when pages must offer and accept them."""
    real = i18n.translations
    for lang in catalogues:
        if listed:
            monkeypatch.setitem(i18n.LANGUAGES, lang, f"Pseudo {lang}")
        if babel_locale is not None:
            monkeypatch.setitem(i18n._BABEL_LOCALES, lang, babel_locale)
    monkeypatch.setattr(
        i18n,
        "translations",
        lambda locale: catalogues[locale] if locale in catalogues else real(locale),
    )
