"""Every translation follows its language's glossary of the game's terms.

``ginrules/words/locale/<lang>/glossary.yaml`` names the word the players of
that language use for each term of the game (knock, gin, undercut, box,
deadwood, lay off, ...). Wherever an English message uses a term checked by
its glossary, each translation of it must use that word (one of its forms),
so a sheet never calls the same thing by two names.
"""

from __future__ import annotations

import re
from functools import cache
from typing import Any

import pytest
import yaml

from ginrules.words.i18n import LOCALE_DIR
from tests.translations import TRANSLATED, catalogue, translations_of

#: The terms the issue names: every glossary has them.
REQUIRED = ("knock", "gin", "undercut", "box", "deadwood", "lay off")


@cache
def glossary(lang: str) -> dict[str, Any]:
    path = LOCALE_DIR / lang / "glossary.yaml"
    assert path.exists(), f"{path} is missing"
    document = yaml.safe_load(path.read_text(encoding="utf-8"))
    assert isinstance(document, dict) and isinstance(document.get("terms"), list), path
    return document


@pytest.mark.parametrize("lang", TRANSLATED)
def test_the_glossary_gives_a_word_for_each_term_of_the_game(lang: str) -> None:
    document = glossary(lang)
    assert document["language"] == lang
    terms = document["terms"]
    named = {str(term["en"]).lower() for term in terms}
    assert set(REQUIRED) <= named, f"{lang} glossary lacks {set(REQUIRED) - named}"
    for term in terms:
        assert term.get("use"), f"{lang}: {term['en']} has no word to use"
        re.compile(term["match"])
        if term.get("check", True):
            assert term.get("forms"), f"{lang}: {term['en']} is checked but has no forms"
    checked = {str(t["en"]).lower() for t in terms if t.get("check", True)}
    assert set(REQUIRED) <= checked, (
        f"{lang}: the issue's terms must be checked: {set(REQUIRED) - checked}"
    )


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_translation_uses_the_glossarys_words(lang: str) -> None:
    terms = [t for t in glossary(lang)["terms"] if t.get("check", True)]
    patterns = [(t, re.compile(t["match"], re.IGNORECASE)) for t in terms]
    strays = []
    for message in catalogue(lang):
        if not message.id or message.fuzzy:
            continue
        source = message.id if isinstance(message.id, str) else message.id[-1]
        for term, pattern in patterns:
            if not pattern.search(source) or source in (term.get("except") or ()):
                continue
            forms = [str(form).casefold() for form in term["forms"]]
            for text in translations_of(message):
                if text and not any(form in text.casefold() for form in forms):
                    strays.append(
                        f"{term['en']!r} -> {term['use']!r}: {source[:70]!r} = {text[:70]!r}"
                    )
    assert not strays, f"{lang} translations that do not use the glossary's word:\n" + "\n".join(
        strays[:60]
    )
