"""Words about languages: the table language of a saved house rule, its choices on the
save forms, and what the API says when a value is none of them.

The languages themselves are always named in their own words (``Deutsch``,
``Español``: :data:`ginrules.words.i18n.LANGUAGES`), never translated, so a person
finds theirs whatever the page speaks. What the OpenAPI document says of the field is
for programmers, in English like the rest of that document.
"""

from __future__ import annotations

from typing import Final

from ginrules.words.i18n import LANGUAGES, _


def follow_the_reader() -> str:
    """The table-language choice that leaves each reader in their own language."""
    return _("Each reader's own language")


def table_language_choices() -> list[tuple[str, str]]:
    """The save forms' choices, as (value, words): each reader's own language (``""``),
    then every language in its own name."""
    return [("", follow_the_reader()), *LANGUAGES.items()]


def bad_table_language() -> str:
    """A save form's table language that is none of its choices (a form made by hand)."""
    return _("choose the table language from the list")


def api_bad_language() -> str:
    """An API ``language`` that is no language the site speaks."""
    return _("language is one of {codes}, or null for each reader's own language").format(
        codes=", ".join(LANGUAGES)
    )


#: The API's ``language`` field (OpenAPI), for programmers.
API_LANGUAGE: Final = (
    "The table language: the share link, the QR code and the house rule's own pages open"
    " in it for readers who chose no language of their own; null: each reader's own"
    " language. Not part of the ruleset (never in its YAML or fingerprint). An update"
    " without it keeps the house rule's."
)
