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
from ginrules.rules.yamlsource import MAX_ERRORS, SourceDocument


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
            note = f"stopped after {MAX_ERRORS} errors"
            return [*diagnostics[:MAX_ERRORS], Diagnostic("error", source.name, note, rank=99)]
    return diagnostics


def _describe(error: ValidationError, source: SourceDocument, rank: int) -> Iterator[Diagnostic]:
    path: JsonPath = tuple(error.absolute_path)
    validator = error.validator
    if validator == "additionalProperties" and isinstance(error.instance, Mapping):
        allowed = list(_schema_of(error).get("properties", {}))
        for key in error.instance:
            if key in allowed:
                continue
            key_path = (*path, str(key))
            mark = source.mark_for(key_path, key=True)
            where = f"in {_section_name(path)}" if path else "at the top level"
            yield Diagnostic(
                severity="error",
                file=source.name,
                line=mark.line if mark else None,
                column=mark.column if mark else None,
                path=key_path,
                message=f"unknown key {key!r} {where}",
                expected="one of " + ", ".join(allowed),
                hint=_suggest_key(str(key), path, allowed),
                rank=rank,
            )
        return
    mark = source.mark_for(path)
    yield Diagnostic(
        severity="error",
        file=source.name,
        line=mark.line if mark else None,
        column=mark.column if mark else None,
        path=path,
        message=_message(error, path),
        expected=_expected(error),
        hint=_suggest_value(error),
        rank=rank,
    )


def _schema_of(error: ValidationError) -> Mapping[str, Any]:
    return error.schema if isinstance(error.schema, Mapping) else {}


def _section_name(path: JsonPath) -> str:
    return ".".join(str(p) for p in path)


def _field(path: JsonPath) -> str:
    """``hand_scoring.gin_bonus``, ``notes[0]``: the JSON path without its ``$.``."""
    return format_json_path(path).removeprefix("$.") if path else "the file"


def _show(value: object) -> str:
    if isinstance(value, str):
        return repr(value)
    return ruleset_schema.show_value(value)


def _message(error: ValidationError, path: JsonPath) -> str:
    field = _field(path)
    instance = error.instance
    validator = error.validator
    if validator == "type":
        return f"{field} is {_show(instance)}, which is {_kind(instance)}"
    if validator == "enum":
        return f"{field} cannot be {_show(instance)}"
    if validator in ("minimum", "exclusiveMinimum"):
        return f"{field} is {_show(instance)}, below the least allowed ({error.validator_value})"
    if validator in ("maximum", "exclusiveMaximum"):
        return f"{field} is {_show(instance)}, above the most allowed ({error.validator_value})"
    if validator in ("minLength", "maxLength", "minItems", "maxItems"):
        return f"{field} is {'too short' if validator.startswith('min') else 'too long'}"
    return f"{field}: {error.message}"


def _kind(value: object) -> str:
    if isinstance(value, bool):
        return "true/false"
    if isinstance(value, int):
        return "a whole number"
    if isinstance(value, float):
        return "a decimal number"
    if isinstance(value, str):
        return "text"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a mapping"
    return "empty (null)"


_TYPE_WORDS = {
    "integer": "a whole number",
    "number": "a number",
    "boolean": "true or false",
    "string": "text",
    "object": "a mapping of keys to values",
    "array": "a list",
    "null": "nothing (null)",
}


def _expected(error: ValidationError) -> str | None:
    schema = _schema_of(error)
    validator = error.validator
    if validator == "enum" or "enum" in schema:
        return "one of " + ", ".join(ruleset_schema.show_value(v) for v in schema["enum"])
    if validator == "type":
        wanted = error.validator_value
        names = wanted if isinstance(wanted, list) else [wanted]
        return " or ".join(_TYPE_WORDS.get(str(n), str(n)) for n in names)
    if "minimum" in schema or "maximum" in schema:
        low, high = schema.get("minimum"), schema.get("maximum")
        if low is not None and high is not None:
            show = ruleset_schema.show_value
            return f"a value from {show(low)} to {show(high)}"
    if validator in ("maxLength", "minLength"):
        return (
            f"text of {schema.get('minLength', 0)} to {schema.get('maxLength', 'any')} characters"
        )
    if validator in ("maxItems", "minItems"):
        return f"at most {schema.get('maxItems')} items"
    return None


def _suggest_value(error: ValidationError) -> str | None:
    schema = _schema_of(error)
    if error.validator != "enum" or not isinstance(error.instance, str):
        return None
    choices = [str(v) for v in schema.get("enum", [])]
    close = difflib.get_close_matches(error.instance.lower(), choices, n=1, cutoff=0.5)
    return f"did you mean {close[0]!r}?" if close else None


def _suggest_key(key: str, path: JsonPath, allowed: list[str]) -> str | None:
    """A close key here, or the same key in another section."""
    normal = key.lower().replace("-", "_").replace(" ", "_")
    close = difflib.get_close_matches(normal, allowed, n=1, cutoff=0.6)
    if close:
        return f"did you mean {close[0]!r}?"
    if len(path) <= 1:
        everywhere = {knob.name: knob.dotted for knob in ruleset_schema.knobs()}
        everywhere.update({s.name: s.name for s in ruleset_schema.sections()})
        close = difflib.get_close_matches(normal, list(everywhere), n=1, cutoff=0.75)
        if close and everywhere[close[0]] != _section_name((*path, close[0])):
            return f"did you mean {everywhere[close[0]]!r}?"
    return None
