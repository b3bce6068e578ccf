"""Every message in every language: translated, with the source's placeholders.

The messages are extracted afresh (tests/translations.py follows babel.cfg),
so a sentence added to a template, the code, the schema or a shipped ruleset
without its German, Spanish and French fails here, as does a translation that
drops, renames or adds a ``{placeholder}``, a ``%(name)s`` or an HTML tag, and
a compiled catalogue (.mo) older than its source (.po).
"""

from __future__ import annotations

import gettext
import io

import pytest
from babel.messages.mofile import read_mo, write_mo

from tests.translations import (
    TRANSLATED,
    catalogue,
    catalogue_path,
    extracted,
    placeholders,
    translations_of,
)


def _key(message_id: object) -> str:
    return message_id if isinstance(message_id, str) else "\0".join(message_id)  # type: ignore[arg-type]


def _short(key: object) -> str:
    text = key if isinstance(key, str) else " | ".join(key)  # type: ignore[arg-type]
    return text if len(text) < 90 else text[:87] + "..."


def test_the_extraction_finds_the_messages_of_code_templates_schema_and_rulesets() -> None:
    places = {where.split(":")[0].split("/")[0] for uses in extracted().values() for where in uses}
    assert {"ginrules", "templates", "rulesets", "houserules"} <= places
    schema = [
        k
        for _c, k in (
            key for key, uses in extracted().items() if any("schema.json" in u for u in uses)
        )
    ]
    assert "One standard 52-card deck, no jokers." in schema


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_message_has_a_translation(lang: str) -> None:
    po = catalogue(lang)
    missing = []
    for (context, key), uses in extracted().items():
        message = po.get(key if isinstance(key, str) else key[0], context=context)
        strings = translations_of(message) if message is not None else [""]
        if message is None or message.fuzzy or not all(s.strip() for s in strings):
            missing.append(f"{_short(key)}  ({uses[0]})")
    assert not missing, (
        f"{len(missing)} messages have no {lang} translation (run `make messages`, then "
        f"translate them in {catalogue_path(lang)}):\n" + "\n".join(missing[:40])
    )


@pytest.mark.parametrize("lang", TRANSLATED)
def test_translations_keep_the_placeholders_and_tags_of_the_source(lang: str) -> None:
    wrong = []
    for message in catalogue(lang):
        if not message.id or message.fuzzy:
            continue
        ids = [message.id] if isinstance(message.id, str) else list(message.id)
        source = placeholders(ids[-1])
        for text in translations_of(message):
            if text and placeholders(text) != source:
                wrong.append(f"{_short(message.id)}: {dict(source)} != {dict(placeholders(text))}")
    assert not wrong, f"{lang} translations that change placeholders or tags:\n" + "\n".join(wrong)


@pytest.mark.parametrize("lang", TRANSLATED)
def test_the_compiled_catalogue_is_the_source_compiled(lang: str) -> None:
    po = catalogue(lang)
    mo_path = catalogue_path(lang).with_suffix(".mo")
    assert mo_path.exists(), f"{mo_path} is missing: run `make catalogues`"
    with mo_path.open("rb") as source:
        mo = read_mo(source)
    fresh = io.BytesIO()
    write_mo(fresh, po)
    fresh.seek(0)
    expected = {_key(m.id): translations_of(m) for m in read_mo(fresh) if m.id}
    compiled = {_key(m.id): translations_of(m) for m in mo if m.id}
    assert compiled == expected, f"{mo_path} is older than its .po: run `make catalogues`"
    # ... and gettext reads it as the language's plural rule says.
    with mo_path.open("rb") as source:
        compiled_catalogue = gettext.GNUTranslations(source)
    plurals = [m for m in po if m.pluralizable and not m.context and all(translations_of(m))]
    assert plurals, f"{lang}: no counted message"
    for message in plurals:
        singular, plural = (str(part) for part in message.id)
        forms = translations_of(message)
        # French counts 0 as one (plural=(n > 1)); German and Spanish count it as many.
        zero = forms[0] if lang == "fr" else forms[1]
        assert compiled_catalogue.ngettext(singular, plural, 1) == forms[0], singular
        assert compiled_catalogue.ngettext(singular, plural, 2) == forms[1], singular
        assert compiled_catalogue.ngettext(singular, plural, 0) == zero, singular
