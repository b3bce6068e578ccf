"""The house-rules builder: every knob as a form control, and back to YAML.

The form is generated from the schema (sections, knobs, choices, ranges,
descriptions, sources), so a new knob appears in the builder without touching
this module. A submitted form becomes a minimal overlay (only what differs
from the base), validated by the same loader as any file; each error goes back
beside its field, and every field keeps what the person typed.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Final

import yaml
from markupsafe import Markup, escape

from ginrules import schema as ruleset_schema
from ginrules.rules.departures import Departure
from ginrules.rules.diagnostics import Diagnostic, RulesetError
from ginrules.rules.load import Ruleset
from ginrules.web import authorship, refs
from ginrules.words import builder as words
from ginrules.words import departures
from ginrules.words.departures import quote_lines
from ginrules.words.diagnostics import expected as diagnostic_expected
from ginrules.words.diagnostics import message as diagnostic_message
from ginrules.words.i18n import _

#: Words fields of the form, beside the knobs.
WORD_FIELDS: Final = ("name", "author", "description", "notes")

#: Knobs that do something only when another knob has one of some values: hidden
#: (still sent, so kept) while it has not.
REQUIRES: Final[dict[str, tuple[str, tuple[str, ...]]]] = {
    "oklahoma.ace_upcard": ("oklahoma.enabled", ("true",)),
    "oklahoma.spades_double": ("oklahoma.enabled", ("true",)),
    "oklahoma.spades_double_scope": ("oklahoma.spades_double", ("true",)),
    "big_gin.bonus": ("big_gin.enabled", ("true",)),
    "big_gin.bonus_adds_to_gin": ("big_gin.enabled", ("true",)),
    "game_scoring.shutout_game_bonus": ("game_scoring.shutout", ("game_bonus",)),
    "format.games": ("format.type", ("hollywood",)),
    "format.team_target": ("format.type", ("partnership",)),
    "format.partnership_deck": ("format.type", ("partnership",)),
}


@dataclass(frozen=True)
class Control:
    """One knob as a form control."""

    knob: ruleset_schema.Knob
    kind: str  # "select", "number", "boolean"
    options: tuple[tuple[str, str], ...] = ()
    step: str = "1"

    @property
    def field(self) -> str:
        return self.knob.dotted

    @property
    def id(self) -> str:
        return self.knob.dotted.replace(".", "-")

    @property
    def label(self) -> str:
        """Its plain name: ``Gin bonus``, ``Oklahoma``."""
        return words.label(self.knob.dotted)

    @property
    def help(self) -> str:
        return words.help_text(self.knob.dotted)

    @property
    def requires(self) -> tuple[str, tuple[str, ...]] | None:
        """The knob (and its values) this one does something under, if any."""
        return REQUIRES.get(self.knob.dotted)

    def applies(self, values: Mapping[str, str]) -> bool:
        """Does it do anything with these values of the form?"""
        if self.requires is None:
            return True
        other, wanted = self.requires
        return values.get(other) in wanted

    def label_of(self, value: str | None) -> str:
        """A field value in words (``yes``, ``after the game``); numbers as they are."""
        for option, label in self.options:
            if option == value:
                return label
        return value or words.value(self.knob.dotted, None)

    @property
    def description(self) -> Markup:
        """The schema's description of the knob, in the current language, names as code."""
        return code_spans(_(self.knob.description))

    @property
    def sources(self) -> list[tuple[str, str, list[str]]]:
        """Each value the schema knows of: in words, who plays it (codes), and the
        sources' own words, for the builder's expandable note."""
        return [
            (
                words.value(self.knob.dotted, p.value),
                ", ".join((*p.sources, *p.software)),
                quote_lines(self.knob, p.value),
            )
            for p in self.knob.published
        ]


def _control(knob: ruleset_schema.Knob) -> Control:
    if knob.choices is not None:
        options = tuple((str(c), words.value(knob.dotted, c)) for c in knob.choices)
        return Control(knob, "select", options)
    if "boolean" in knob.types:
        yes, no = words.value(knob.dotted, True), words.value(knob.dotted, False)
        return Control(knob, "boolean", (("true", yes), ("false", no)))
    return Control(knob, "number", step="any" if "number" in knob.types else "1")


def code_spans(text: str) -> Markup:
    """Schema descriptions mark names with backticks: show them as code, escaped."""
    return Markup(re.sub(r"`([^`<>]+)`", r"<code>\1</code>", str(escape(text))))


def departure_words(diagnostic: Diagnostic) -> str:
    """A departure warning for people: ``Undercut on tie: no (BC, PG play yes)``."""
    if isinstance(diagnostic.departure, Departure):
        return departures.form_text(diagnostic.departure)
    return diagnostic_message(diagnostic)


@dataclass(frozen=True)
class FormSection:
    """A section of the schema as the form shows it: its title in the current language."""

    name: str
    title: str


def sections() -> list[tuple[ruleset_schema.Section, list[Control]]]:
    return [
        (section, [_control(k) for k in section.knobs]) for section in ruleset_schema.sections()
    ]


def common() -> list[Control]:
    """The choices most tables make, in the builder's order."""
    by_name = {knob.dotted: knob for knob in ruleset_schema.knobs()}
    return [_control(by_name[name]) for name in words.COMMON if name in by_name]


def more_sections() -> list[tuple[FormSection, list[Control]]]:
    """Every other knob, by section (sections left empty are left out)."""
    found = []
    for section, controls in sections():
        rest = [c for c in controls if c.field not in words.COMMON]
        if rest:
            found.append((FormSection(section.name, _(section.title)), rest))
    return found


@dataclass(frozen=True)
class Difference:
    """A knob the form sets otherwise than the base, in words."""

    field: str
    label: str
    before: str
    after: str


def differences(
    values: Mapping[str, str], base_values: Mapping[str, str], errors: Mapping[str, object]
) -> list[Difference]:
    """What the form changes from its base: never a field whose value is invalid."""
    found = []
    for _section, controls in sections():
        for control in controls:
            name = control.field
            if name in errors or _same(control.knob, values.get(name), base_values.get(name)):
                continue
            if not control.applies(values):
                continue  # a knob that does nothing with these rules
            found.append(
                Difference(
                    name,
                    control.label,
                    control.label_of(base_values.get(name)),
                    control.label_of(values.get(name)),
                )
            )
    return found


def _same(knob: ruleset_schema.Knob, typed: str | None, base: str | None) -> bool:
    """Do two field values say the same (``25`` and ``25.0`` do)? An unreadable one
    is never a difference."""
    if typed == base:
        return True
    try:
        return ruleset_schema.same_value(_parse(knob, typed or ""), _parse(knob, base or ""))
    except ValueError:
        return True


def show(value: object) -> str:
    """A knob value as a form field holds it."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def values_of(ruleset: Ruleset) -> dict[str, str]:
    """The form fields of an existing ruleset (its words and every knob)."""
    doc = ruleset.document
    notes = doc.get("notes") or []
    values = {
        "name": str(doc.get("name") or ""),
        "author": str(doc.get("author") or ""),
        "description": str(doc.get("description") or ""),
        "notes": "\n".join(str(n) for n in notes),
    }
    for knob in ruleset_schema.knobs():
        values[knob.dotted] = show(ruleset.value(knob.dotted))
    return values


@dataclass
class Submission:
    """A submitted builder form: what was typed, the YAML made of it, the errors."""

    values: dict[str, str]
    base: str
    errors: dict[str, list[str]] = field(default_factory=dict)
    #: Errors with no field of their own (shown at the top).
    general: list[str] = field(default_factory=list)
    warnings: list[Diagnostic] = field(default_factory=list)
    yaml_text: str = ""
    ruleset: Ruleset | None = None

    @property
    def ok(self) -> bool:
        return self.ruleset is not None and not self.errors and not self.general

    def add(self, name: str, message: str) -> None:
        self.errors.setdefault(name, []).append(message)


def read_form(form: Mapping[str, str], base: str) -> Submission:
    """Turn the posted fields into an overlay of ``base`` and validate it."""
    known = {knob.dotted for knob in ruleset_schema.knobs()}
    values = {key: str(form.get(key, "")) for key in (*WORD_FIELDS, *known)}
    submission = Submission(values, base)
    loaded = refs.shipped(base)
    if loaded is None:
        submission.general.append(words.unknown_base(base))
        return submission
    document: dict[str, Any] = {"name": values["name"].strip()}
    # Always written, even empty: the base's words are not the table's, and
    # ``extends`` would otherwise bring them in.
    for word in ("description", "author"):
        document[word] = " ".join(values[word].split())
    document["extends"] = base
    document["notes"] = [line.strip() for line in values["notes"].splitlines() if line.strip()]
    for knob in ruleset_schema.knobs():
        raw = values[knob.dotted].strip()
        if raw == "" and knob.dotted not in form:
            continue  # a control the page did not send: keep the base's value
        try:
            value = _parse(knob, raw)
        except ValueError as error:
            submission.add(knob.dotted, str(error))
            continue
        if not ruleset_schema.same_value(value, loaded.ruleset.value(knob.dotted)):
            document.setdefault(knob.section, {})[knob.name] = value
    if not document["name"]:
        submission.add("name", words.name_needed())
    submission.yaml_text = to_yaml(document)
    # Validate what could be read even when some fields could not, so every
    # problem is reported at once (the unreadable fields keep their base value).
    try:
        ruleset = refs.parse_saved_text(submission.yaml_text, "form")
    except RulesetError as error:
        for diagnostic in error.diagnostics:
            _place(submission, diagnostic)
        return submission
    submission.warnings = list(ruleset.warnings)
    for problem in authorship.problems(ruleset, "form"):  # a reserved name or author
        where = str(problem.path[0])
        if where not in submission.errors:  # a blank name already has its message
            submission.add(where, problem.message)
    if not submission.errors:
        submission.ruleset = ruleset
    return submission


def _place(submission: Submission, diagnostic: Diagnostic) -> None:
    if diagnostic.severity != "error":
        submission.warnings.append(diagnostic)
        return
    path = diagnostic.path
    message = diagnostic_message(diagnostic)
    dotted = ".".join(str(p) for p in path)
    if dotted and message.startswith(dotted + " "):
        message = message[len(dotted) + 1 :]  # shown beside its field: no need to name it
    message = words.plain_message(message)
    wanted = diagnostic_expected(diagnostic)
    text = words.expected(message, wanted) if wanted else message
    if len(path) >= 2 and f"{path[0]}.{path[1]}" in submission.values:
        submission.add(f"{path[0]}.{path[1]}", text)
    elif path and str(path[0]) in submission.values:
        submission.add(str(path[0]), text)
    else:
        submission.general.append(text)


def _parse(knob: ruleset_schema.Knob, raw: str) -> object:
    if knob.choices is not None:
        if raw not in {str(c) for c in knob.choices}:
            raise ValueError(words.choose_one_of(", ".join(str(c) for c in knob.choices)))
        return raw
    if "boolean" in knob.types:
        if raw not in ("true", "false"):
            raise ValueError(words.choose_yes_or_no())
        return raw == "true"
    if raw == "":
        if "null" in knob.types:
            return None
        raise ValueError(words.give_a_number())
    if "integer" in knob.types and "number" not in knob.types:
        try:
            return int(raw)
        except ValueError:
            raise ValueError(words.not_whole_number(raw)) from None
    try:
        number = float(raw)
    except ValueError:
        raise ValueError(words.not_a_number(raw)) from None
    if not math.isfinite(number):
        raise ValueError(words.not_a_number(raw))
    return int(number) if number.is_integer() else number


def to_yaml(document: Mapping[str, Any]) -> str:
    """The overlay as a YAML file, with the schema comment editors understand."""
    body = yaml.safe_dump(dict(document), sort_keys=False, allow_unicode=True, width=88)
    return "# yaml-language-server: $schema=/schema/ruleset.schema.json\n" + body


def base_of(ruleset: Ruleset) -> str:
    """The shipped ruleset a saved one extends (the first file after its own)."""
    for link in ruleset.chain[1:2]:
        name = link.rsplit("/", 1)[-1].removesuffix(".yaml").removesuffix(".yml")
        return name
    return ""
