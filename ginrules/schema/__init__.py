"""The ruleset schema: the single list of every rule knob.

``ruleset.schema.json`` (JSON Schema 2020-12) declares each knob once, with its
type, default, description and the published sources for its values
(``x-sources``), plus values a source calls wrong (``x-flagged``) and a
source's words about a value that contradict itself or the others
(``x-slips``, quoted and noted, never hidden). Everything
else (validation, ``explain``, ``diff``, the README's knob table, the rule
sheets) reads the knobs from here through :data:`KNOBS`.
"""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass
from enum import StrEnum
from importlib import resources
from typing import Any, Final

SCHEMA_FILE: Final = "ruleset.schema.json"

#: Top-level keys that describe a ruleset rather than change how it plays.
METADATA_KEYS: Final = ("name", "description", "author", "notes", "extends")

KnobPath = tuple[str, str]


class Reading(StrEnum):
    """How a source's words bear on a value."""

    #: The source's main rules say it.
    RULE = "rule"
    #: The source gives it as a variation ("some play that ...").
    VARIATION = "variation"
    #: The source's main rules describe this part of the game without the
    #: rule (PG ends the game with no game bonus, no boxes, no shutout).
    OMISSION = "omission"


class Basis(StrEnum):
    """Why a value no source text states is in the schema at all."""

    #: Played at tables, stated by no source here.
    HOUSE = "house"
    #: The game the sources describe, without this optional variant.
    PLAIN = "plain"


@dataclass(frozen=True)
class Citation:
    """A source's own words for a value: ``code`` and a verbatim ``quote``."""

    code: str
    quote: str
    reading: Reading = Reading.RULE


@dataclass(frozen=True)
class PublishedValue:
    """A value of a knob and who plays it: sources quoted, software, or a basis."""

    value: object
    citations: tuple[Citation, ...] = ()
    #: Game software that plays it (``RLCard``, ``OpenSpiel``).
    software: tuple[str, ...] = ()
    basis: Basis | None = None
    note: str | None = None

    @property
    def sources(self) -> tuple[str, ...]:
        """The source texts quoted for this value, each code once, in order."""
        return tuple(dict.fromkeys(c.code for c in self.citations))

    @property
    def published(self) -> bool:
        """A source text or a piece of software plays it."""
        return bool(self.citations or self.software)


@dataclass(frozen=True)
class FlaggedValue:
    """A value some source explicitly calls wrong, in its own words (``quote``)."""

    value: object
    source: str
    quote: str
    says: str


@dataclass(frozen=True)
class Slip:
    """A source's words that contradict itself or the others, quoted and noted."""

    source: str
    quote: str
    says: str
    #: On a knob, the value the words are about (a fixed rule's slips have none).
    value: object = None


@dataclass(frozen=True)
class FixedRule:
    """A rule every ruleset plays, in the sheet section where it belongs."""

    id: str
    #: A short name: ``Settling up``.
    label: str
    rule: str
    section: str
    citations: tuple[Citation, ...]
    slips: tuple[Slip, ...] = ()

    @property
    def sources(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(c.code for c in self.citations))


@dataclass(frozen=True)
class Knob:
    """One rule knob: ``section.name`` in a ruleset file."""

    section: str
    name: str
    description: str
    default: object
    types: tuple[str, ...]
    choices: tuple[object, ...] | None
    minimum: float | None
    maximum: float | None
    published: tuple[PublishedValue, ...]
    flagged: tuple[FlaggedValue, ...]
    slips: tuple[Slip, ...] = ()

    @property
    def path(self) -> KnobPath:
        return (self.section, self.name)

    @property
    def dotted(self) -> str:
        return f"{self.section}.{self.name}"

    @property
    def label(self) -> str:
        """A short human label: ``Gin bonus``."""
        return self.name.replace("_", " ").capitalize()

    def entry_for(self, value: object) -> PublishedValue | None:
        """What the schema knows of who plays ``value``, if anything."""
        for published in self.published:
            if same_value(published.value, value):
                return published
        return None

    def sources_for(self, value: object) -> tuple[str, ...]:
        """The source texts quoted for this value (empty when none is)."""
        entry = self.entry_for(value)
        return () if entry is None else entry.sources

    def citations_for(self, value: object) -> tuple[Citation, ...]:
        entry = self.entry_for(value)
        return () if entry is None else entry.citations

    def slips_for(self, value: object) -> tuple[Slip, ...]:
        """What the sources say of ``value`` that contradicts themselves or the others."""
        return tuple(slip for slip in self.slips if same_value(slip.value, value))

    def flag_for(self, value: object) -> FlaggedValue | None:
        for flagged in self.flagged:
            if same_value(flagged.value, value):
                return flagged
        return None

    def expected(self) -> str:
        """What a valid value looks like, in words."""
        if self.choices is not None:
            return "one of " + ", ".join(_show(c) for c in self.choices)
        kind = " or ".join("a whole number" if t == "integer" else f"a {t}" for t in self.types)
        if self.minimum is not None and self.maximum is not None:
            return f"{kind} from {_show(self.minimum)} to {_show(self.maximum)}"
        return kind


def same_value(a: object, b: object) -> bool:
    # True == 1 in Python; a boolean must never match a number.
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    return a == b


def _show(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def show_value(value: object) -> str:
    """A knob value as it is written in YAML."""
    return _show(value)


@dataclass(frozen=True)
class Section:
    name: str
    title: str
    description: str
    knobs: tuple[Knob, ...]


@dataclass(frozen=True)
class SourceInfo:
    code: str
    title: str
    #: The source text, relative to ``sources/`` (texts only).
    seed: str | None
    #: ``text`` (a rules text quoted by seed) or ``software``.
    kind: str = "text"


@functools.cache
def schema() -> dict[str, Any]:
    """The JSON Schema document, parsed."""
    text = resources.files(__package__).joinpath(SCHEMA_FILE).read_text(encoding="utf-8")
    document: dict[str, Any] = json.loads(text)
    return document


def schema_version() -> int:
    return int(schema()["x-schema-version"])


@functools.cache
def sections() -> tuple[Section, ...]:
    """The knob sections, in schema order."""
    result = []
    for name, spec in schema()["properties"].items():
        if spec.get("type") != "object":
            continue
        knobs = tuple(
            _knob(name, knob_name, knob) for knob_name, knob in spec["properties"].items()
        )
        result.append(Section(name, spec["title"], spec["description"], knobs))
    return tuple(result)


def _knob(section: str, name: str, spec: dict[str, Any]) -> Knob:
    types = spec.get("type", [])
    return Knob(
        section=section,
        name=name,
        description=spec["description"],
        default=spec["default"],
        types=tuple(types) if isinstance(types, list) else (types,),
        choices=tuple(spec["enum"]) if "enum" in spec else None,
        minimum=spec.get("minimum"),
        maximum=spec.get("maximum"),
        published=tuple(_published(p) for p in spec.get("x-sources", [])),
        flagged=tuple(
            FlaggedValue(f["value"], f["source"], f["quote"], f["says"])
            for f in spec.get("x-flagged", [])
        ),
        slips=tuple(
            Slip(s["source"], s["quote"], s["says"], s["value"]) for s in spec.get("x-slips", [])
        ),
    )


def _citations(entries: list[dict[str, str]]) -> tuple[Citation, ...]:
    return tuple(
        Citation(c["code"], c["quote"], Reading(c.get("reading", Reading.RULE))) for c in entries
    )


def _published(entry: dict[str, Any]) -> PublishedValue:
    basis = entry.get("basis")
    return PublishedValue(
        entry["value"],
        _citations(entry.get("sources", [])),
        tuple(entry.get("software", ())),
        None if basis is None else Basis(basis),
        entry.get("note"),
    )


@functools.cache
def knobs() -> tuple[Knob, ...]:
    """Every rule knob, in schema order."""
    return tuple(knob for section in sections() for knob in section.knobs)


def knob(dotted: str) -> Knob:
    """Look a knob up by ``section.name``."""
    for candidate in knobs():
        if candidate.dotted == dotted:
            return candidate
    raise KeyError(dotted)


@functools.cache
def source_catalog() -> dict[str, SourceInfo]:
    return {
        code: SourceInfo(code, info["title"], info.get("seed"), info.get("kind", "text"))
        for code, info in schema()["x-source-catalog"].items()
    }


@functools.cache
def fixed_rules() -> tuple[FixedRule, ...]:
    """Rules the sources agree on, which no ruleset can change."""
    return tuple(
        FixedRule(
            rule["id"],
            rule["label"],
            rule["rule"],
            rule["section"],
            _citations(rule["sources"]),
            tuple(Slip(s["source"], s["quote"], s["says"]) for s in rule.get("flagged", [])),
        )
        for rule in schema()["x-fixed-rules"]
    )


def fixed_rule(rule_id: str) -> FixedRule:
    for rule in fixed_rules():
        if rule.id == rule_id:
            return rule
    raise KeyError(rule_id)


def defaults() -> dict[str, Any]:
    """A full document of default values (metadata and every knob)."""
    document: dict[str, Any] = {
        key: spec["default"]
        for key, spec in schema()["properties"].items()
        if spec.get("type") != "object" and key != "extends"
    }
    for section in sections():
        document[section.name] = {knob.name: knob.default for knob in section.knobs}
    return document
