"""Every ruleset diagnostic is worded in the reader's language, from one English source.

The rules layer says what each problem is as data (a code and its parameters) and
writes each code's words once, as catalogue messages (``PATTERNS``, and what ``say``
composes); it says them in English itself, and ginrules.words.diagnostics through
the reader's catalogue. Here: every code is made by some broken ruleset below (or,
for the two no ruleset can reach, a sample) and has its words, every pattern is a
message pybabel extracts, every English display of a diagnostic is what the rules
layer's words say, and under a pseudo-language that wraps every extracted message in
``⟦⟧`` nothing of a diagnostic is left outside the catalogue but data.
"""

from __future__ import annotations

import gettext
from collections.abc import Callable, Iterator
from functools import cache, partial
from pathlib import Path
from typing import Final

import jsonschema
import pytest

from ginrules.rules import validate
from ginrules.rules.diagnostics import Diagnostic, RulesetError
from ginrules.rules.load import MAX_CHAIN, load_ruleset, load_ruleset_text
from ginrules.rules.phrases import ENGLISH, PATTERNS, Choice, Code, Phrase, Plural, phrase, say
from ginrules.rules.yamlsource import MAX_FILE_BYTES, load_yaml_file, load_yaml_text
from ginrules.words import diagnostics as words
from ginrules.words.i18n import _, use_locale
from ginrules.words.rule_problems import text
from tests.test_invalid import CASE_IDS, CASES
from tests.translations import extracted, pseudo_catalogue, speak_pseudo

#: A pseudo-language whose every message is the English one in ``⟦⟧``.
PSEUDO: Final = "qps"

#: Broken rulesets, one or more for each code the loader can report.
BROKEN: Final = {
    "indentation": "play:\n  knock_limit: 10\n gin: 2\n",
    "colon in a value": "name: a: b\n",
    "character that starts no token": "name: @x\n",
    "unclosed list": "play:\n  knock_limit: [1,\n  2\nname: x\n",
    "tab indentation": "play:\n\tknock_limit: 10\n",
    "tab in a list": "notes: [a,\tb]\n",
    "empty": "",
    "alias at the top": "*x\n",
    "list at the top": "- 1\n",
    "value at the top": "hello\n",
    "second document": "name: x\n---\nname: y\n",
    "anchor": "name: &a x\nauthor: *a\nextends: &b classic\n",
    "too deep": "notes: " + "[" * 40 + "]" * 40 + "\n",
    "duplicate key": "name: a\nname: b\n",
    "mapping as a key": "? {a: 1}\n: 2\n",
    "list as a key": "? [a]\n: 2\n",
    "empty key": "? \n: 1\n",
    "null key": "~: 1\n",
    "boolean key": "yes: 1\n",
    "number key": "3: 1\n",
    "long number": "extends: classic\nplay:\n  knock_limit: " + "1" * 101 + "\n",
    "not an int": "extends: classic\nplay:\n  knock_limit: !!int abc\n",
    "not finite": "extends: classic\nplay:\n  knock_limit: .nan\n",
    "tag": "extends: classic\nname: !foo x\n",
    "too many errors": "".join(f"k{i}: 1\n" for i in range(60)) * 2,
    "too many unknown keys": "".join(f"key_{i}: 1\n" for i in range(120)),
    "schema": (
        "extends: classic\nname: ''\nauthor: " + "x" * 201 + "\nnotes: [" + "a, " * 51 + "]\n"
        "play:\n  knock_limit: 11\n  layoffs: 1\ncards:\n  hand_size: 3\n  ace: hi\n"
        "format:\n  team_target: x\ngame_scoring:\n  target: 10.5\n"
    ),
    "extends a path": "extends: ./other.yaml\n",
    "extends an unknown name": "extends: clasic\n",
    "extends a missing file": "extends: not-there.yaml\n",
    "checks": (
        "extends: classic\nformat:\n  type: partnership\n  players: 3\n"
        "  partnership_deck: shared\ncards:\n  hand_size: 10\nstock_end:\n  cards_left: 10\n"
        "hand_scoring:\n  gin_bonus: 200\n"
    ),
    "inert knobs": (
        "extends: classic\noklahoma:\n  ace_upcard: knock_with_1\n"
        "  spades_double_scope: with_bonuses\nbig_gin:\n  bonus: 31\n"
        "game_scoring:\n  shutout_game_bonus: 100\nformat:\n  partnership_deck: per_pairing\n"
        "play:\n  knock_limit: 0\nshowdown:\n  layoffs: false\n"
    ),
}

#: The codes whose words ``say`` composes (several patterns, or a setting as it is).
COMPOSED: Final = {Code.PARSE_ERROR, Code.TYPES, Code.UNKNOWN_RULESET, Code.SETTING}

#: Codes no ruleset can reach, with what they would say.
SAMPLES: Final = {
    Code.NOT_YAML: phrase(Code.NOT_YAML, error="stream ends"),
    Code.TOP_LEVEL_OTHER: phrase(Code.TOP_LEVEL_OTHER, what="DocumentEndEvent"),
}

#: A schema with the keywords the ruleset schema does not use today.
OTHER_KEYWORDS: Final = {
    "type": "object",
    "required": ["name"],
    "properties": {
        "kind": {"const": "x"},
        "code": {"pattern": "^[a-z]+$"},
        "count": {"multipleOf": 2},
    },
}


def _loaded(load: Callable[[], object]) -> list[Diagnostic]:
    """Every diagnostic of a load: its errors, or the warnings of what loaded."""
    try:
        ruleset = load()
    except RulesetError as error:
        return error.diagnostics
    return list(getattr(ruleset, "warnings", ()))


def _long_chain(folder: Path) -> list[Diagnostic]:
    for index in range(MAX_CHAIN + 2):
        (folder / f"r{index}.yaml").write_text(f"extends: r{index + 1}.yaml\n")
    (folder / f"r{MAX_CHAIN + 2}.yaml").write_text("extends: classic\n")
    return _loaded(lambda: load_ruleset(folder / "r0.yaml"))


def _other_keywords(monkeypatch: pytest.MonkeyPatch) -> list[Diagnostic]:
    checker = jsonschema.Draft202012Validator(OTHER_KEYWORDS)
    monkeypatch.setattr(validate, "_validator", lambda: checker)
    source = load_yaml_text("kind: y\ncode: AB\ncount: 3\n", "rules.yaml")
    return validate.schema_diagnostics(source)


def reproduced(folder: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Diagnostic]:
    """The diagnostics of every broken ruleset: the folder's, the ones above, and
    those only a file, a long chain or another schema can make."""
    for case in CASES:
        yield from _loaded(partial(load_ruleset, case))
    for name, broken in BROKEN.items():
        yield from _loaded(partial(load_ruleset_text, broken, name, folder))
    yield from _loaded(lambda: load_ruleset_text("extends: ./x.yaml\n", shipped_only=True))
    yield from _loaded(lambda: load_ruleset_text(b"name: \xff\n"))
    yield from _loaded(lambda: load_ruleset_text(b"#" * (MAX_FILE_BYTES + 1)))
    yield from _loaded(lambda: load_ruleset("clasic"))
    yield from _loaded(lambda: load_ruleset(folder / "missing.yaml"))
    yield from _loaded(lambda: load_yaml_file(folder))  # a folder cannot be read
    yield from _long_chain(folder)
    yield from _other_keywords(monkeypatch)


@pytest.fixture
def diagnostics(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> list[Diagnostic]:
    found = list(reproduced(tmp_path, monkeypatch))
    assert found
    return found


def _phrases(diagnostic: Diagnostic) -> Iterator[Phrase]:
    if diagnostic.problem is None:
        return
    said = diagnostic.problem
    yield from (p for p in (said.message, said.expected, said.hint) if p is not None)
    advice = said.message.values.get("advice", ())  # a parse error's advice, by code
    assert isinstance(advice, tuple)
    yield from (phrase(code) for code in advice)


def every_phrase(diagnostics: list[Diagnostic]) -> dict[Code, list[Phrase]]:
    found: dict[Code, list[Phrase]] = {}
    for diagnostic in diagnostics:
        for said in _phrases(diagnostic):
            found.setdefault(said.code, []).append(said)
    for code, sample in SAMPLES.items():
        found.setdefault(code, []).append(sample)
    return found


# -- English: the rules layer's own words ----------------------------------------------


def test_every_code_is_made_by_a_broken_ruleset_or_has_a_sample(
    diagnostics: list[Diagnostic],
) -> None:
    made = {code for d in diagnostics for code in (p.code for p in _phrases(d))}
    assert set(Code) - made == set(SAMPLES)


def test_every_diagnostic_of_the_rules_layer_says_what_it_is_as_data(
    diagnostics: list[Diagnostic],
) -> None:
    bare = [d.format() for d in diagnostics if d.problem is None and d.departure is None]
    assert bare == []


def test_every_code_has_its_words_once() -> None:
    assert set(Code) - set(PATTERNS) == COMPOSED
    assert not COMPOSED & set(PATTERNS)


def _messages(pattern: str | Plural | Choice) -> list[str | tuple[str, str]]:
    if isinstance(pattern, Plural):
        return [(pattern.singular, pattern.plural)]
    if isinstance(pattern, Choice):
        return list(pattern.patterns.values())
    return [pattern]


def test_every_pattern_is_a_message_of_the_catalogue() -> None:
    messages = {key for _context, key in extracted()}
    missing = [
        (code, message)
        for code, pattern in PATTERNS.items()
        for message in _messages(pattern)
        if message not in messages
    ]
    assert missing == []


def test_every_english_diagnostic_says_what_the_rules_layers_words_say(
    diagnostics: list[Diagnostic],
) -> None:
    for diagnostic in (d for d in diagnostics if d.problem is not None):
        said = diagnostic.problem
        assert said is not None
        assert diagnostic.message == say(said.message)
        assert diagnostic.expected == (None if said.expected is None else say(said.expected))
        assert diagnostic.hint == (None if said.hint is None else say(said.hint))
        # In English, the words layer's display is the rules layer's, byte for byte.
        assert words.line(diagnostic) == diagnostic.format()
        assert words.to_json(diagnostic) == diagnostic.to_json()
        assert words.worded(diagnostic) == diagnostic


@pytest.mark.parametrize("case", CASES, ids=CASE_IDS)
def test_each_broken_file_reads_the_same_through_the_words(case: Path) -> None:
    for diagnostic in _loaded(lambda: load_ruleset(case)):
        if diagnostic.departure is None:
            assert words.line(diagnostic) == diagnostic.format()


@pytest.mark.parametrize("count", [0, 1, 2, 100])
def test_the_rules_layers_english_counts_as_gettext_does(count: int) -> None:
    null = gettext.NullTranslations()
    assert ENGLISH.ngettext("a", "b", count) == null.ngettext("a", "b", count)
    items = "item" if count == 1 else "items"
    assert say(phrase(Code.AT_MOST_ITEMS, count=count)) == f"at most {count} {items}"


def test_the_schema_keywords_ginrules_does_not_use_are_worded_too(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    said = [words.message(d) for d in _other_keywords(monkeypatch)]
    assert said == [
        "the file needs the key 'name'",
        "kind must be 'x'",
        "code is 'AB', which does not match ^[a-z]+$",
        "count: 3 is not a multiple of 2",
    ]


def test_a_sample_reads_as_it_should() -> None:
    assert text(SAMPLES[Code.NOT_YAML]) == "could not parse YAML: stream ends"
    assert text(SAMPLES[Code.TOP_LEVEL_OTHER]) == (
        "the top level of a ruleset file must be a mapping of `key: value` settings,"
        " not DocumentEndEvent"
    )


# -- other languages: every word from the catalogue ------------------------------------


@cache
def _pseudo_catalogue() -> gettext.GNUTranslations:
    """Every extracted message as ``⟦message⟧``, as gettext reads a .mo file."""
    return pseudo_catalogue(lambda message: f"⟦{message}⟧")


@pytest.fixture
def pseudo(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    # Lists as German joins them.
    speak_pseudo(monkeypatch, {PSEUDO: _pseudo_catalogue()}, babel_locale="de_DE", listed=True)
    with use_locale(PSEUDO):
        yield


def _from_the_catalogue(said: str) -> bool:
    return said.startswith("⟦") and said.endswith("⟧")


@pytest.mark.usefixtures("pseudo")
def test_every_code_is_worded_from_the_catalogue(diagnostics: list[Diagnostic]) -> None:
    phrases = every_phrase(diagnostics)
    assert set(phrases) == set(Code)
    for code, said in phrases.items():
        for one in said:
            worded = text(one)
            if code == Code.SETTING:  # a setting as YAML writes it: no words at all
                assert "⟦" not in worded and worded == one.values["setting"]
            else:
                assert _from_the_catalogue(worded), f"{code}: {worded!r}"


@pytest.mark.usefixtures("pseudo")
def test_every_line_is_worded_from_the_catalogue(diagnostics: list[Diagnostic]) -> None:
    for diagnostic in diagnostics:
        line = words.line(diagnostic)
        assert _from_the_catalogue(line), line
        assert diagnostic.location in line
        if diagnostic.path:
            assert diagnostic.json_path in line
        assert words.to_json(diagnostic)["message"] == words.message(diagnostic)


def test_in_german_the_message_is_the_catalogues() -> None:
    [unknown] = _loaded(lambda: load_ruleset_text("extends: classic\nplay:\n  knock_limt: 1\n"))
    [tabs] = _loaded(lambda: load_ruleset_text("play:\n\tknock_limit: 10\n"))
    check, *_departures = _loaded(
        lambda: load_ruleset_text("extends: classic\nhand_scoring:\n  gin_bonus: 100\n")
    )
    with use_locale("de"):
        assert words.message(unknown) == _("unknown key {key} in {section}").format(
            key="'knock_limt'", section="play"
        )
        assert words.hint(unknown) == _("did you mean {name}?").format(name="'knock_limit'")
        assert words.message(tabs) == _("tabs are not allowed for indentation; use spaces")
        assert words.expected(check) == _("less than {value}").format(value=100)
        assert words.line(tabs) == _("{where}: error: {message}").format(
            where="<string>:2:1", message=words.message(tabs)
        )
