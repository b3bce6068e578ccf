"""Load a ruleset's YAML safely, remembering where every key and value starts.

Ruleset files are written by people and passed around, so the loader treats
them as hostile: a size cap, strict UTF-8, no tabs in indentation, no anchors
or aliases (which is what defeats "billion laughs" alias bombs), no tags beyond
YAML's plain types, a nesting limit checked while composing, no duplicate
or non-string keys, and no key or string holding a character a page cannot
show, written out or escaped (:mod:`ginrules.rules.text`). Every problem
becomes a :class:`Diagnostic` with a line and column, raised together in one
:class:`RulesetError`; nothing else escapes.

Parsing uses PyYAML's pure-Python SafeLoader (reader, scanner, parser,
resolver) with a guarded composer; the plain Python values are then built
from the composed nodes, so each key and value keeps its ``start_mark``.
Scalars resolve as YAML 1.1 does (``yes``/``no``/``on``/``off`` are booleans),
except that dates and times stay as text.
"""

from __future__ import annotations

import codecs
import math
import pathlib
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from types import MappingProxyType
from typing import Protocol

import yaml
from yaml.events import (
    AliasEvent,
    CollectionStartEvent,
    Event,
    MappingStartEvent,
    NodeEvent,
    ScalarEvent,
    SequenceStartEvent,
    StreamEndEvent,
)
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode
from yaml.reader import Reader

from ginrules.rules import text as text_rules
from ginrules.rules.diagnostics import Diagnostic, JsonPath, RulesetError
from ginrules.rules.phrases import Code, Problem, said

#: Larger files are refused before they are read in full.
MAX_FILE_BYTES = 64 * 1024
#: Mappings and lists may nest this deep (the top-level mapping is level 1).
MAX_DEPTH = 32

# A number longer than this is not a setting anyone means; refusing it keeps
# YAML 1.1's sexagesimal ints (1:2:3:...) and huge literals from costing time.
_MAX_NUMBER_CHARS = 100
# Past this many, more errors only bury the first ones.
MAX_ERRORS = 100

_YAML_TAG = "tag:yaml.org,2002:"
_NULL, _BOOL, _INT, _FLOAT = (_YAML_TAG + t for t in ("null", "bool", "int", "float"))
_STR, _SEQ, _MAP = (_YAML_TAG + t for t in ("str", "seq", "map"))
# Tags the resolver gives plain scalars that are text as far as a ruleset is
# concerned: dates and times, and the merge (<<), value (=) and yaml (! & *)
# markers, which mean nothing without the constructors we do not use.
_TEXT_TAGS = frozenset(_YAML_TAG + t for t in ("str", "timestamp", "merge", "value", "yaml"))
# The same line breaks PyYAML counts, so our marks agree with its marks.
_LINE_BREAK = re.compile("\r\n|[\n\r\x85\u2028\u2029]")
# What PyYAML's commonest complaints usually mean, as advice.
_PARSE_HINTS = (
    ("<block end>", Code.CHECK_INDENTATION),
    ("mapping values are not allowed here", Code.QUOTE_COLON_VALUE),
    ("cannot start any token", Code.QUOTE_VALUE),
)
_EMPTY = said(Code.EMPTY_FILE)
# A unique marker for "this scalar was already reported as an error".
_INVALID = object()


@dataclass(frozen=True, order=True)
class Mark:
    """A position in a source file; ``line`` and ``column`` are both 1-based."""

    line: int
    column: int


@dataclass(frozen=True)
class SourceDocument:
    """A loaded ruleset file: its plain data and where each part of it is written."""

    #: What to print as the file in diagnostics: a path as given, or ``"<string>"``.
    name: str
    #: The top-level mapping, as plain dicts, lists, str, int, float, bool and None.
    data: dict[str, object]
    #: Where the key of each mapping entry starts, by the entry's path.
    key_marks: Mapping[JsonPath, Mark]
    #: Where each value starts, by its path; the root ``()`` is included.
    value_marks: Mapping[JsonPath, Mark]

    def mark_for(self, path: Sequence[str | int], *, key: bool = False) -> Mark | None:
        """Best mark for a path: exact, else the nearest existing ancestor.

        With ``key=True`` an entry's key is preferred to its value, at the path
        itself and at each ancestor; the root has only a value mark.
        """
        whole = tuple(path)
        for end in range(len(whole), -1, -1):
            prefix = whole[:end]
            if key and prefix in self.key_marks:
                return self.key_marks[prefix]
            if prefix in self.value_marks:
                return self.value_marks[prefix]
        return None


def load_yaml_text(text: str | bytes, name: str) -> SourceDocument:
    """Load one ruleset document from text (bytes must be UTF-8; a BOM is fine).

    Raises :class:`RulesetError` carrying every problem found, each naming
    ``name`` as the file.
    """
    report = _Report(name)
    size = len(text) if isinstance(text, bytes) else len(text.encode("utf-8", "surrogatepass"))
    if size > MAX_FILE_BYTES:
        raise report.stop(None, _too_large(size))
    source = _decode(text, report) if isinstance(text, bytes) else text
    source = source.removeprefix("\ufeff")
    # Characters the reader refuses are parsed as U+FFFD (the marks stay the same)
    # and reported at the key or value they are in, like the same character escaped.
    raw = [(m.start(), ord(m.group())) for m in Reader.NON_PRINTABLE.finditer(source)]
    if raw:
        source = Reader.NON_PRINTABLE.sub("\ufffd", source)

    loader = _RulesetLoader(source, report)
    try:
        root = loader.compose_ruleset()
    except yaml.YAMLError as error:
        mark, problem = _describe_parse_error(error, source)
        _report_raw(report, source, raw, None)
        raise report.stop(mark, problem) from None
    finally:
        loader.dispose()

    builder = _Builder(loader, report)
    data = builder.mapping(root, ())
    _report_raw(report, source, raw, builder)
    report.raise_if_any()
    return SourceDocument(
        name=name,
        data=data,
        key_marks=MappingProxyType(builder.key_marks),
        value_marks=MappingProxyType(builder.value_marks),
    )


def load_yaml_file(path: pathlib.Path, display_name: str | None = None) -> SourceDocument:
    """Load a ruleset file; ``display_name`` (default: the path as given) names it in errors.

    The size is checked before the file is read, and never more than
    :data:`MAX_FILE_BYTES` + 1 bytes are read, as a pipe or device may lie
    about its size.
    """
    name = str(path) if display_name is None else display_name
    try:
        size = path.stat().st_size
        if size > MAX_FILE_BYTES:
            raise _Report(name).stop(None, _too_large(size))
        with path.open("rb") as stream:
            raw = stream.read(MAX_FILE_BYTES + 1)
    except OSError as error:
        problem = said(Code.CANNOT_READ, reason=error.strerror or str(error))
        raise _Report(name).stop(None, problem) from None
    return load_yaml_text(raw, name)


class _HasPosition(Protocol):
    # PyYAML's pure-Python and libyaml marks both look like this (0-based).
    line: int
    column: int


def _mark(node: Node) -> Mark:
    return _to_mark(node.start_mark)


def _to_mark(position: _HasPosition) -> Mark:
    return Mark(position.line + 1, position.column + 1)


def _event_mark(event: Event) -> Mark | None:
    # The pure-Python parser marks every event; the type allows it not to.
    return None if event.start_mark is None else _to_mark(event.start_mark)


def _mark_at(text: str, index: int) -> Mark:
    """The mark of ``text[index]``, counting line breaks as PyYAML does."""
    line, line_start = 1, 0
    for match in _LINE_BREAK.finditer(text, 0, index):
        line, line_start = line + 1, match.end()
    return Mark(line, index - line_start + 1)


def _report_raw(
    report: _Report, source: str, raw: list[tuple[int, int]], builder: _Builder | None
) -> None:
    """Report each character the reader refused, at the scalar it is in (when parsed)."""
    for index, code_point in raw:
        path, in_key = builder.path_at(index) if builder else ((), False)
        refused = text_rules.unshowable(chr(code_point))
        assert refused is not None, "the reader refuses no character the text rules allow"
        report.refused(_mark_at(source, index), replace(refused, in_key=in_key), path)


def _too_large(size: int) -> Problem:
    return said(Code.FILE_TOO_LARGE, size=size, most=MAX_FILE_BYTES, kib=MAX_FILE_BYTES // 1024)


def _decode(raw: bytes, report: _Report) -> str:
    raw = raw.removeprefix(codecs.BOM_UTF8)
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as error:
        good = raw[: error.start].decode("utf-8")
        byte = f"0x{raw[error.start]:02X}"
        raise report.stop(_mark_at(good, len(good)), said(Code.NOT_UTF8, byte=byte)) from None


def _describe_parse_error(error: yaml.YAMLError, text: str) -> tuple[Mark | None, Problem]:
    """Where parsing failed, and why; PyYAML's own words (its problem and context)
    are passed on as they are, with advice for its commonest complaints."""
    if not isinstance(error, yaml.MarkedYAMLError) or error.problem_mark is None:
        return None, said(Code.NOT_YAML, error=str(error))
    where = error.problem_mark
    # PyYAML says "found character '\t' that cannot start any token"; say what to do.
    if text[where.index : where.index + 1] == "\t":
        before = text[where.index - where.column : where.index]
        indenting = before.strip(" \t") == ""
        return _to_mark(where), said(Code.TABS_INDENT if indenting else Code.TABS_HERE)
    advice = tuple(code for symptom, code in _PARSE_HINTS if symptom in (error.problem or ""))
    context, context_line = None, None
    if error.context and error.context != "while scanning for the next token":
        context = error.context
        started = error.context_mark
        if started is not None and started.line != where.line:
            context_line = started.line + 1
    problem = said(
        Code.PARSE_ERROR,
        problem=error.problem,
        advice=advice,
        context=context,
        context_line=context_line,
    )
    return _to_mark(where), problem


def _show_tag(tag: str) -> str:
    return "!!" + tag.removeprefix(_YAML_TAG) if tag.startswith(_YAML_TAG) else tag


def _non_string_key(raw: str, key: object) -> Problem:
    if raw == "":
        return said(Code.EMPTY_KEY)
    if key is None:
        return said(Code.KEY_IS_NULL, key=repr(raw), raw=raw)
    if isinstance(key, bool):
        return said(Code.KEY_IS_BOOLEAN, key=repr(raw), raw=raw, value=str(key).lower())
    return said(Code.KEY_IS_NUMBER, key=repr(raw), raw=raw, number=repr(key))


def _describe_root(event: Event) -> tuple[Mark | None, Problem]:
    if (
        isinstance(event, ScalarEvent)
        and event.value == ""
        and event.style is None
        and event.tag is None
    ):
        return Mark(1, 1), _EMPTY  # a bare '---' or only comments
    if isinstance(event, AliasEvent):
        problem = said(Code.TOP_LEVEL_ALIAS, anchor=event.anchor)
    elif isinstance(event, SequenceStartEvent):
        problem = said(Code.TOP_LEVEL_LIST)
    elif isinstance(event, ScalarEvent):
        problem = said(Code.TOP_LEVEL_VALUE, value=repr(event.value))
    else:
        problem = said(Code.TOP_LEVEL_OTHER, what=type(event).__name__)
    return _event_mark(event), problem


class _Report:
    """The diagnostics found so far for one file."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.diagnostics: list[Diagnostic] = []

    def error(self, mark: Mark | None, problem: Problem, path: JsonPath = ()) -> None:
        """Record a problem."""
        self._add(Diagnostic.of(problem, self.name, *_line_and_column(mark), path))

    def refused(self, mark: Mark, character: text_rules.RefusedCharacter, path: JsonPath) -> None:
        """Record a character the text may not hold: worded in :mod:`ginrules.words.characters`,
        with only its code (``U+202E``) as its own message."""
        line, column = _line_and_column(mark)
        self._add(
            Diagnostic("error", self.name, character.code, line, column, path, departure=character)
        )

    def stop(self, mark: Mark | None, problem: Problem, path: JsonPath = ()) -> RulesetError:
        """Record a problem after which loading cannot go on; return the error to raise."""
        self.diagnostics.append(Diagnostic.of(problem, self.name, *_line_and_column(mark), path))
        return RulesetError(list(self.diagnostics))

    def raise_if_any(self) -> None:
        if self.diagnostics:
            raise RulesetError(list(self.diagnostics))

    def _add(self, found: Diagnostic) -> None:
        self.diagnostics.append(found)
        if len(self.diagnostics) >= MAX_ERRORS:
            raise RulesetError([*self.diagnostics, stopped_note(self.name, rank=1)])


def _line_and_column(mark: Mark | None) -> tuple[int | None, int | None]:
    return (mark.line, mark.column) if mark is not None else (None, None)


def stopped_note(file: str, rank: int) -> Diagnostic:
    """The last diagnostic when there are too many: more would only bury the first."""
    return Diagnostic.of(said(Code.STOPPED, count=MAX_ERRORS), file, rank=rank)


class _RulesetLoader(yaml.SafeLoader):
    """SafeLoader whose composer refuses aliases and stops at :data:`MAX_DEPTH`.

    The stock composer answers an alias with the anchored node itself, so a
    billion-laughs file becomes a small graph that any later walk expands; and
    it recurses once per nesting level. Here an alias becomes an empty
    placeholder (so later problems are still found) and is never resolved.
    """

    def __init__(self, text: str, report: _Report) -> None:
        super().__init__(text)
        self.report = report
        self.depth = 0
        self.anchors_defined: dict[str, Mark | None] = {}
        self.aliases_used: set[str] = set()

    def compose_ruleset(self) -> MappingNode:
        """Compose the file's one document, which must be a mapping."""
        self._next_event()  # StreamStartEvent
        if self.check_event(StreamEndEvent):
            raise self.report.stop(Mark(1, 1), _EMPTY)
        root = self.compose_document()
        # compose_node has refused every other kind of root.
        assert isinstance(root, MappingNode)
        if not self.check_event(StreamEndEvent):
            self.report.error(_event_mark(self._peek_event()), said(Code.SECOND_DOCUMENT))
        for anchor, mark in self.anchors_defined.items():
            if anchor not in self.aliases_used:
                self.report.error(mark, said(Code.UNUSED_ANCHOR, anchor=anchor))
        return root

    def compose_node(self, parent: Node | None, index: int) -> Node | None:
        event = self._peek_event()
        if parent is None and not isinstance(event, MappingStartEvent):
            # Refused before composing, so a huge top-level list costs nothing.
            raise self.report.stop(*_describe_root(event))
        if isinstance(event, AliasEvent):
            self._next_event()
            self._refuse_alias(event)
            placeholder = ScalarNode(_NULL, "")
            placeholder.start_mark = placeholder.end_mark = event.start_mark
            return placeholder
        if isinstance(event, NodeEvent) and event.anchor is not None:
            self.anchors_defined.setdefault(event.anchor, _event_mark(event))
            # Hidden from the stock composer, so it never keeps the node for reuse.
            event.anchor = None
        if not isinstance(event, CollectionStartEvent):
            return super().compose_node(parent, index)
        if self.depth >= MAX_DEPTH:
            raise self.report.stop(_event_mark(event), said(Code.TOO_DEEP, most=MAX_DEPTH))
        self.depth += 1
        try:
            return super().compose_node(parent, index)
        finally:
            self.depth -= 1

    # types-PyYAML leaves these two untyped.
    def _peek_event(self) -> Event:
        event: Event = self.peek_event()  # type: ignore[no-untyped-call]
        return event

    def _next_event(self) -> Event:
        event: Event = self.get_event()  # type: ignore[no-untyped-call]
        return event

    def _refuse_alias(self, event: AliasEvent) -> None:
        name = event.anchor or ""
        # One error per anchor: a bomb repeats the same few aliases many times.
        if name in self.aliases_used:
            return
        self.aliases_used.add(name)
        self.report.error(_event_mark(event), said(Code.ALIAS, anchor=name))


class _Builder:
    """Turns composed nodes into plain Python values, recording marks and problems."""

    def __init__(self, loader: _RulesetLoader, report: _Report) -> None:
        self.report = report
        self.key_marks: dict[JsonPath, Mark] = {}
        self.value_marks: dict[JsonPath, Mark] = {}
        #: Where each scalar is in the text: (start, end, path, is a key).
        self.spans: list[tuple[int, int, JsonPath, bool]] = []
        self.constructors: dict[str, Callable[[ScalarNode], object]] = {
            _NULL: loader.construct_yaml_null,
            _BOOL: loader.construct_yaml_bool,
            _INT: loader.construct_yaml_int,
            _FLOAT: loader.construct_yaml_float,
        }

    def value(self, node: Node, path: JsonPath) -> object:
        if isinstance(node, MappingNode):
            return self.mapping(node, path)
        self.value_marks[path] = _mark(node)
        if isinstance(node, SequenceNode):
            if node.tag != _SEQ:
                self._unsupported_tag(node, path)
            return [self.value(item, (*path, i)) for i, item in enumerate(node.value)]
        built = self.scalar(node, path) if isinstance(node, ScalarNode) else None
        return None if built is _INVALID else built

    def mapping(self, node: MappingNode, path: JsonPath) -> dict[str, object]:
        self.value_marks[path] = _mark(node)
        if node.tag != _MAP:
            self._unsupported_tag(node, path)
        result: dict[str, object] = {}
        first_lines: dict[str, int] = {}
        for key_node, value_node in node.value:
            key = self.key(key_node, path)
            if key is None:
                continue
            entry = (*path, key)
            mark = _mark(key_node)
            if key in first_lines:
                first = first_lines[key]
                duplicate = said(Code.DUPLICATE_KEY, key=repr(key), line=first)
                self.report.error(mark, duplicate, entry)
                continue
            first_lines[key] = mark.line
            self.key_marks[entry] = mark
            result[key] = self.value(value_node, entry)
        return result

    def key(self, node: Node, path: JsonPath) -> str | None:
        if not isinstance(node, ScalarNode):
            mapping = isinstance(node, MappingNode)
            problem = said(Code.KEY_IS_MAPPING if mapping else Code.KEY_IS_LIST)
            self.report.error(_mark(node), problem, path)
            return None
        key = self.scalar(node, path, in_key=True)
        if isinstance(key, str):
            return key
        if key is not _INVALID:
            self.report.error(_mark(node), _non_string_key(node.value, key), path)
        return None

    def scalar(self, node: ScalarNode, path: JsonPath, *, in_key: bool = False) -> object:
        self.spans.append((node.start_mark.index, node.end_mark.index, path, in_key))
        if node.tag in _TEXT_TAGS:
            return self.text(node, path, in_key)
        construct = self.constructors.get(node.tag)
        if construct is None:
            self._unsupported_tag(node, path)
            return _INVALID
        if node.tag in (_INT, _FLOAT) and len(node.value) > _MAX_NUMBER_CHARS:
            too_long = said(Code.NUMBER_TOO_LONG, length=len(node.value), most=_MAX_NUMBER_CHARS)
            self.report.error(_mark(node), too_long, path)
            return _INVALID
        try:
            value = construct(node)
        except (ValueError, KeyError, IndexError, ArithmeticError):
            # Only reachable through an explicit tag such as `!!int abc`.
            problem = said(Code.NOT_A_VALID, value=repr(node.value), tag=_show_tag(node.tag))
            self.report.error(_mark(node), problem, path)
            return _INVALID
        if isinstance(value, float) and not math.isfinite(value):
            # .nan and .inf pass range checks (NaN compares false) and are not JSON.
            self.report.error(_mark(node), said(Code.NOT_FINITE, value=repr(node.value)), path)
            return _INVALID
        return value

    def text(self, node: ScalarNode, path: JsonPath, in_key: bool) -> str:
        """A string, checked: an unshowable character is an error at its key or value."""
        value = text_rules.join_surrogate_pairs(str(node.value))
        refused = text_rules.unshowable(value)
        if refused is not None:
            self.report.refused(_mark(node), replace(refused, in_key=in_key), path)
        return value

    def path_at(self, index: int) -> tuple[JsonPath, bool]:
        """The key or value whose scalar holds ``text[index]`` (the root when none does)."""
        for start, end, path, in_key in self.spans:
            if start <= index < end:
                return path, in_key
        return (), False

    def _unsupported_tag(self, node: Node, path: JsonPath) -> None:
        self.report.error(_mark(node), said(Code.UNSUPPORTED_TAG, tag=_show_tag(node.tag)), path)
