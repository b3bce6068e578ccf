"""A ruleset's own words (name, description, table notes) in the reader's language.

The rulesets and house rules that ship with ginrules are ours: their names,
descriptions and notes are in the translation catalogues (``babel.cfg`` extracts
them), so a sheet prints them in the current language. A table's own house rule is
its own text, printed exactly as written, never translated. A text is ours when it
is, word for word, a name, description or note of a shipped file, or the name the
schema gives a house rule that names itself nothing (``Untitled house rules``).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import yaml

from ginrules.rules import locate
from ginrules.rules.load import Ruleset
from ginrules.words.extract import ruleset_texts
from ginrules.words.i18n import _
from ginrules.words.values import UNTITLED


@cache
def shipped_texts() -> frozenset[str]:
    """Every name, description and note of the shipped files, as written in them."""
    found: set[str] = set()
    for entry in locate.entries():
        document = yaml.safe_load(entry.path.read_text(encoding="utf-8")) or {}
        found.update(text for _key, text in ruleset_texts(document))
    return frozenset(found)


def ruleset_text(text: str) -> str:
    """``text`` in the current language when it is a shipped file's; else as written."""
    return _(text) if text in shipped_texts() or text == UNTITLED else text


@dataclass(frozen=True)
class DocumentWords:
    """What a sheet prints of a ruleset's document, in the reader's language."""

    name: str
    description: str
    #: The author as written (a name is never translated); empty when none is given.
    author: str
    #: The table notes, one paragraph each.
    notes: tuple[str, ...]


def document_words(ruleset: Ruleset) -> DocumentWords:
    document = ruleset.document
    return DocumentWords(
        name=ruleset_text(str(document.get("name") or ruleset.name)),
        description=ruleset_text(str(document.get("description") or "")),
        author=str(document.get("author") or ""),
        notes=paragraphs(document.get("notes")),
    )


def paragraphs(notes: object) -> tuple[str, ...]:
    """The table notes (a list, or one text) as paragraphs, each in the reader's
    language when it is ours; escaped by the template."""
    if not notes:
        return ()
    if isinstance(notes, list | tuple):
        items = [ruleset_text(str(item)) for item in notes]
    else:
        items = ruleset_text(str(notes)).split("\n\n")
    return tuple(" ".join(item.split()) for item in items if item.strip())
