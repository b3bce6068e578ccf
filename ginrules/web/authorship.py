"""What a house rule saved on the site must say of itself.

A save from the YAML editor or the API writes its own ``name``, ``author`` and
``description``, as the builder always does: the name not empty, the author and
the description possibly empty (``author: ""``), but written, so nobody's house
rules go out under a placeholder. The name may not be the name of a ruleset the
site ships, and the author may not be ``ginrules``: either would pass a visitor's
rules off as the site's own. Names are compared as people read them: case,
spacing, punctuation and compatibility forms (NFKC) aside, so ``CLASSIC gin-rummy``
is ``Classic Gin Rummy``.
"""

from __future__ import annotations

import functools
import unicodedata
from typing import Final

from ginrules.rules.diagnostics import Diagnostic
from ginrules.rules.load import Ruleset
from ginrules.web import refs
from ginrules.words import inputs as words

#: The fields a saved house rule must write, in the order they are reported.
OWN_FIELDS: Final = ("name", "author", "description")
#: The author of the shipped rulesets, which nobody else may sign with.
RESERVED_AUTHOR: Final = "ginrules"


def reading_key(text: str) -> str:
    """``text`` as compared for sameness: NFKC, case-folded, letters and digits only."""
    folded = unicodedata.normalize("NFKC", text).casefold()
    return "".join(character for character in folded if character.isalnum())


@functools.cache
def shipped_titles() -> frozenset[str]:
    """The reading keys of the shipped rulesets' names."""
    found = (refs.shipped(entry.name) for entry in refs.shipped_names())
    return frozenset(reading_key(loaded.title) for loaded in found if loaded is not None)


def problems(ruleset: Ruleset, file: str) -> list[Diagnostic]:
    """What ``ruleset`` (validated submitted text) fails to say of itself, each at its field."""
    written = {field for field in OWN_FIELDS if (field,) in ruleset.provenance}
    found = [
        Diagnostic("error", file, words.missing(field), path=(field,))
        for field in OWN_FIELDS
        if field not in written
    ]
    name = str(ruleset.document["name"])
    author = str(ruleset.document["author"])
    if "name" in written and not name.strip():
        found.append(_at(ruleset, file, "name", words.blank_name()))
    elif "name" in written and reading_key(name) in shipped_titles():
        found.append(_at(ruleset, file, "name", words.reserved_name(name)))
    if "author" in written and reading_key(author) == RESERVED_AUTHOR:
        found.append(_at(ruleset, file, "author", words.reserved_author(author)))
    return found


def _at(ruleset: Ruleset, file: str, field: str, message: str) -> Diagnostic:
    origin = ruleset.provenance.get((field,))
    line, column = (origin.line, origin.column) if origin else (None, None)
    return Diagnostic("error", file, message, line, column, (field,))
