"""Babel extractors for the words that live in data, not in code.

``pybabel extract`` (see ``babel.cfg``) finds the ``_()`` calls of the code and
the ``{% trans %}`` blocks of the templates by itself. Two kinds of words live
elsewhere, and a translator must see them too:

* the schema (``ruleset.schema.json``): knob titles and descriptions, the
  fixed rules of every sheet, the source catalogue's titles, the sources'
  own quotes (printed in English with a translation beside them) and notes;
* the shipped rulesets and house rules (``rulesets/``, ``houserules/``): their
  names, descriptions and table notes, shown translated because they are ours.

Each message carries a translator comment saying where it is from; a quote's
says it is a source's verbatim words, to be translated, never reworded.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator, Mapping
from typing import IO, Any

import yaml

#: (line number, function name, message, translator comments): Babel's contract.
Message = tuple[int, str | None, str, list[str]]

#: Keys of the schema whose string values people read.
_SCHEMA_KEYS: dict[str, str] = {
    "title": "schema title",
    "description": "schema description",
    "label": "fixed rule label",
    "rule": "fixed rule, printed on every sheet",
    "note": "a note on a source's words",
    "says": "what a source says against a value, or of its own slip",
    "quote": "a source's verbatim words: translate them; the English original stays beside",
}

#: Keys of a shipped ruleset whose string values people read.
_RULESET_KEYS: tuple[str, ...] = ("name", "description", "notes")


def _json_lines(text: str) -> dict[str, int]:
    """The first line each JSON string literal appears on (for locations)."""
    lines: dict[str, int] = {}
    for number, line in enumerate(text.splitlines(), start=1):
        start = line.find('"')
        while start != -1:
            end = start + 1
            while end < len(line) and line[end] != '"':
                end += 2 if line[end] == "\\" else 1
            literal = line[start : end + 1]
            with contextlib.suppress(ValueError):
                lines.setdefault(json.loads(literal), number)
            start = line.find('"', end + 1)
    return lines


def _walk_schema(node: Any, path: str) -> Iterator[tuple[str, str, str]]:
    if isinstance(node, Mapping):
        for key, value in node.items():
            where = f"{path}/{key}"
            if isinstance(value, str) and key in _SCHEMA_KEYS and value.strip():
                yield where, _SCHEMA_KEYS[key], value
            else:
                yield from _walk_schema(value, where)
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from _walk_schema(value, f"{path}/{index}")


def extract_schema(
    fileobj: IO[bytes], keywords: object, comment_tags: object, options: object
) -> Iterator[Message]:
    """The readable strings of the ruleset schema."""
    text = fileobj.read().decode("utf-8")
    lines = _json_lines(text)
    for where, kind, message in _walk_schema(json.loads(text), ""):
        yield lines.get(message, 1), None, message, [f"{kind} ({where})"]


def extract_ruleset(
    fileobj: IO[bytes], keywords: object, comment_tags: object, options: object
) -> Iterator[Message]:
    """The name, description and notes of a shipped ruleset file."""
    text = fileobj.read().decode("utf-8")
    document = yaml.safe_load(text) or {}
    node = yaml.compose(text)
    starts: dict[str, int] = {}
    if isinstance(node, yaml.MappingNode):
        for key, value in node.value:
            starts[str(key.value)] = value.start_mark.line + 1
    for key, item in ruleset_texts(document):
        yield starts.get(key, 1), None, item, [f"a shipped ruleset's {key}"]


def ruleset_texts(document: Mapping[str, Any]) -> Iterator[tuple[str, str]]:
    """(key, text) of each name, description and table note a ruleset document gives
    people to read: what the catalogue holds of a shipped file."""
    for key in _RULESET_KEYS:
        value = document.get(key)
        for item in value if isinstance(value, list) else [value]:
            if isinstance(item, str) and item.strip():
                yield key, item
