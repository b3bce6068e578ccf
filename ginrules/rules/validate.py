"""Check one ruleset file against the schema, in words a person can act on.

jsonschema finds every error (``iter_errors``); they are ranked shallow
first (a wrong section before a wrong knob), then by line; this module turns each into a
:class:`Diagnostic` at the right line, says what was expected, and suggests
the key that was probably meant ("did you mean 'gin_bonus'?", or the section
it belongs in).
"""

from __future__ import annotations

import difflib
import functools
from collections.abc import Iterator, Mapping
from typing import Any

import jsonschema
from jsonschema.exceptions import ValidationError

from ginrules import schema as ruleset_schema
from ginrules.rules.diagnostics import Diagnostic, JsonPath, format_json_path
from ginrules.rules.phrases import Code, Phrase, Problem, phrase
from ginrules.rules.yamlsource import MAX_ERRORS, SourceDocument, stopped_note


@functools.cache
def _validator() -> jsonschema.Draft202012Validator:
    return jsonschema.Draft202012Validator(ruleset_schema.schema())


def schema_diagnostics(source: SourceDocument) -> list[Diagnostic]:
    """Every schema error in one file, best first."""
    diagnostics: list[Diagnostic] = []
    for error in _validator().iter_errors(source.data):
        # Shallow problems (an unknown section) outrank deep ones; ties go by line.
        diagnostics.extend(_describe(error, source, len(error.absolute_path)))
        if len(diagnostics) > MAX_ERRORS:
            return [*diagnostics[:MAX_ERRORS], stopped_note(source.name, rank=99)]
    return diagnostics


def _describe(error: ValidationError, source: SourceDocument, rank: int) -> Iterator[Diagnostic]:
    path: JsonPath = tuple(error.absolute_path)
    if error.validator == "additionalProperties" and isinstance(error.instance, Mapping):
        allowed = list(_schema_of(error).get("properties", {}))
        for key in error.instance:
            if key in allowed:
                continue
            message = phrase(Code.UNKNOWN_TOP_LEVEL_KEY, key=repr(key))
            if path:
                message = phrase(Code.UNKNOWN_KEY, key=repr(key), section=_section_name(path))
            expected = phrase(Code.ONE_OF, choices=", ".join(allowed))
            problem = Problem(message, expected, _suggest_key(str(key), path, allowed))
            yield _diagnostic(source, (*path, str(key)), problem, rank, key=True)
        return
    problem = Problem(_message(error, path), _expected(error), _suggest_value(error))
    yield _diagnostic(source, path, problem, rank)


def _diagnostic(
    source: SourceDocument, path: JsonPath, problem: Problem, rank: int, *, key: bool = False
) -> Diagnostic:
    mark = source.mark_for(path, key=key)
    line, column = (mark.line, mark.column) if mark else (None, None)
    return Diagnostic.of(problem, source.name, line, column, path, rank=rank)


def _schema_of(error: ValidationError) -> Mapping[str, Any]:
    return error.schema if isinstance(error.schema, Mapping) else {}


def _section_name(path: JsonPath) -> str:
    return ".".join(str(p) for p in path)


def _field(path: JsonPath) -> str:
    """``hand_scoring.gin_bonus``, ``notes[0]``: the JSON path without its ``$.``;
    empty for the file itself."""
    return format_json_path(path).removeprefix("$").removeprefix(".")


def _show(value: object) -> str:
    if isinstance(value, str):
        return repr(value)
    return ruleset_schema.show_value(value)


def _message(error: ValidationError, path: JsonPath) -> Phrase:
    field = _field(path)
    value = _show(error.instance)
    validator = error.validator
    if validator == "type":
        return phrase(Code.WRONG_TYPE, field=field, value=value, kind=_kind(error.instance))
    if validator == "enum":
        return phrase(Code.NOT_ALLOWED, field=field, value=value)
    if validator in ("minimum", "exclusiveMinimum"):
        return phrase(Code.BELOW_MINIMUM, field=field, value=value, limit=error.validator_value)
    if validator in ("maximum", "exclusiveMaximum"):
        return phrase(Code.ABOVE_MAXIMUM, field=field, value=value, limit=error.validator_value)
    if validator in ("minLength", "minItems"):
        return phrase(Code.TOO_SHORT, field=field)
    if validator in ("maxLength", "maxItems"):
        return phrase(Code.TOO_LONG, field=field)
    if validator == "required":
        # One error per missing key; jsonschema names it in its message.
        required = error.validator_value if isinstance(error.validator_value, list) else []
        missing = [key for key in required if repr(key) in error.message]
        if missing:
            return phrase(Code.REQUIRED, field=field, key=repr(missing[0]))
    if validator == "const":
        return phrase(Code.CONST, field=field, wanted=_show(error.validator_value))
    if validator == "pattern":
        return phrase(Code.PATTERN, field=field, value=value, pattern=error.validator_value)
    # A keyword the schema does not use today: jsonschema's own (English) words.
    return phrase(Code.SCHEMA_OTHER, field=field, detail=error.message)


def _kind(value: object) -> str:
    """What a value is, for :data:`Code.WRONG_TYPE`."""
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "decimal"
    if isinstance(value, str):
        return "text"
    if isinstance(value, list):
        return "list"
    if isinstance(value, dict):
        return "mapping"
    return "null"


def _expected(error: ValidationError) -> Phrase | None:
    schema = _schema_of(error)
    validator = error.validator
    if validator == "enum" or "enum" in schema:
        choices = ", ".join(ruleset_schema.show_value(v) for v in schema["enum"])
        return phrase(Code.ONE_OF, choices=choices)
    if validator == "type":
        wanted = error.validator_value
        names = wanted if isinstance(wanted, list) else [wanted]
        return phrase(Code.TYPES, types=tuple(str(n) for n in names))
    if "minimum" in schema and "maximum" in schema:
        show = ruleset_schema.show_value
        return phrase(Code.VALUE_RANGE, low=show(schema["minimum"]), high=show(schema["maximum"]))
    if validator in ("maxLength", "minLength") and "maxLength" in schema:
        return phrase(Code.TEXT_LENGTH, low=schema.get("minLength", 0), high=schema["maxLength"])
    if validator in ("maxItems", "minItems") and "maxItems" in schema:
        return phrase(Code.AT_MOST_ITEMS, count=schema["maxItems"])
    return None


def _suggest_value(error: ValidationError) -> Phrase | None:
    schema = _schema_of(error)
    if error.validator != "enum" or not isinstance(error.instance, str):
        return None
    choices = [str(v) for v in schema.get("enum", [])]
    close = difflib.get_close_matches(error.instance.lower(), choices, n=1, cutoff=0.5)
    return phrase(Code.DID_YOU_MEAN, name=repr(close[0])) if close else None


def _suggest_key(key: str, path: JsonPath, allowed: list[str]) -> Phrase | None:
    """A close key here, or the same key in another section."""
    normal = key.lower().replace("-", "_").replace(" ", "_")
    close = difflib.get_close_matches(normal, allowed, n=1, cutoff=0.6)
    if close:
        return phrase(Code.DID_YOU_MEAN, name=repr(close[0]))
    if len(path) <= 1:
        everywhere = {knob.name: knob.dotted for knob in ruleset_schema.knobs()}
        everywhere.update({s.name: s.name for s in ruleset_schema.sections()})
        close = difflib.get_close_matches(normal, list(everywhere), n=1, cutoff=0.75)
        if close and everywhere[close[0]] != _section_name((*path, close[0])):
            return phrase(Code.DID_YOU_MEAN, name=repr(everywhere[close[0]]))
    return None
