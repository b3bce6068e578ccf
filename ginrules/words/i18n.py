"""The one translation function, the current language, lists and numbers.

Every sentence a person reads passes through :func:`gettext` (or
:func:`ngettext` where it counts something) as a whole message with named
``{placeholders}``, so a translator sees whole sentences. Catalogues are
looked up as ``ginrules/words/locale/<lang>/LC_MESSAGES/ginrules.mo``; English
is the source language and needs none. The language is a context variable:
:func:`use_locale` sets it for a block (a web request, a sheet, a command).

Lists are joined by Babel's ``format_list`` and numbers formatted by Babel
for the language. English lists are written without the serial comma
("BC, PG and HR"), as the rule sheets always have been: Babel's British
English pattern.
"""

from __future__ import annotations

import gettext as _gettext
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cache
from pathlib import Path
from typing import Final

from babel.lists import format_list as _babel_list
from babel.numbers import format_decimal

DOMAIN: Final = "ginrules"
LOCALE_DIR: Final = Path(__file__).resolve().parent / "locale"
#: The source language of every message.
SOURCE_LOCALE: Final = "en"
#: The languages ginrules speaks, each in its own name, the source first.
LANGUAGES: Final = {"en": "English", "de": "Deutsch", "es": "Español", "fr": "Français"}
#: The Babel locale whose list, number and date patterns each language uses.
_BABEL_LOCALES: Final = {"en": "en_GB", "de": "de_DE", "es": "es_ES", "fr": "fr_FR"}

_current: ContextVar[str] = ContextVar("ginrules_locale", default=SOURCE_LOCALE)


@cache
def translations(locale: str) -> _gettext.NullTranslations:
    """The catalogue of ``locale``; English (and any language without one) is the identity."""
    return _gettext.translation(DOMAIN, LOCALE_DIR, languages=[locale], fallback=True)


def current_locale() -> str:
    return _current.get()


def babel_locale() -> str:
    """The Babel locale of the current language (``de_DE``), for dates and numbers."""
    locale = _current.get()
    return _BABEL_LOCALES.get(locale, locale)


def language(tag: str | None) -> str | None:
    """The language ginrules speaks for ``tag`` (``de``, ``de-AT``, ``fr_CA``), or None."""
    if not tag:
        return None
    code = tag.strip().replace("_", "-").split("-", 1)[0].lower()
    return code if code in LANGUAGES else None


@contextmanager
def use_locale(locale: str) -> Iterator[None]:
    """Speak ``locale`` inside the block."""
    token = _current.set(locale)
    try:
        yield
    finally:
        _current.reset(token)


def gettext(message: str) -> str:
    """``message`` in the current language."""
    return translations(_current.get()).gettext(message)


def ngettext(singular: str, plural: str, count: int) -> str:
    """The form of a counted message for ``count`` in the current language."""
    return translations(_current.get()).ngettext(singular, plural, count)


def pgettext(context: str, message: str) -> str:
    """``message`` in the current language, where ``context`` tells a short word's sense."""
    return translations(_current.get()).pgettext(context, message)


def npgettext(context: str, singular: str, plural: str, count: int) -> str:
    """The counted form of a message with a ``context``."""
    return translations(_current.get()).npgettext(context, singular, plural, count)


def N_(message: str) -> str:  # the name pybabel extracts by default
    """Mark ``message`` for the catalogue where it is kept in a table and translated
    (with :func:`gettext`) where it is used."""
    return message


#: The conventional short name, so ``pybabel extract`` finds every message.
_ = gettext


def format_list(items: Iterable[str]) -> str:
    """``BC``, ``BC and PG``, ``BC, PG and HR`` in the current language."""
    locale = _current.get()
    return _babel_list(list(items), locale=_BABEL_LOCALES.get(locale, locale))


def format_number(value: float) -> str:
    """A number for people: ``1.5``, ``2``, no trailing zeros (``2.0`` is ``2``)."""
    locale = _current.get()
    return format_decimal(value, locale=_BABEL_LOCALES.get(locale, locale), group_separator=False)
