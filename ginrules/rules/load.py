"""Load a ruleset: read the file, follow ``extends:``, merge, validate, check.

Merge rules (documented in the README): an overlay's mapping merges into its
base's key by key; a scalar or a list replaces the base's value whole.
``extends`` itself is never inherited. Every knob remembers which file set it
(its :class:`Origin`), or that it is the schema's default.

All problems are collected and raised together in one :class:`RulesetError`,
best first; departures from the published rules come back as warnings on the
:class:`Ruleset`.
"""

from __future__ import annotations

import copy
import difflib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any

from ginrules import schema as ruleset_schema
from ginrules.rules import locate
from ginrules.rules.checks import RuleView, run_checks
from ginrules.rules.departures import departures
from ginrules.rules.diagnostics import Diagnostic, JsonPath, RulesetError, sort_diagnostics
from ginrules.rules.phrases import Code, Problem, said
from ginrules.rules.text import metadata_problems
from ginrules.rules.validate import schema_diagnostics
from ginrules.rules.yamlsource import SourceDocument, load_yaml_file, load_yaml_text

#: Longest ``extends`` chain followed before giving up.
MAX_CHAIN = 16


@dataclass(frozen=True)
class Origin:
    """Where a value was set: a file and position, or the schema default."""

    file: str | None
    line: int | None = None
    column: int | None = None

    @property
    def is_default(self) -> bool:
        return self.file is None

    def describe(self) -> str:
        if self.file is None:
            return "default"
        return f"{self.file}:{self.line}" if self.line is not None else self.file


DEFAULT_ORIGIN = Origin(None)


@dataclass(frozen=True)
class Ruleset:
    """A validated ruleset: every knob resolved, with where each value came from."""

    #: The name it is known by: a shipped name (``classic``) or the file's stem.
    name: str
    #: The file name as shown in messages, e.g. ``houserules/no-layoffs.yaml``.
    source: str
    document: Mapping[str, Any]
    provenance: Mapping[JsonPath, Origin]
    #: The files merged, this one first, then its base, and so on.
    chain: tuple[str, ...]
    warnings: tuple[Diagnostic, ...] = ()
    explicit: frozenset[str] = field(default_factory=frozenset)

    @property
    def title(self) -> str:
        return str(self.document["name"])

    def value(self, dotted: str) -> Any:
        section, name = dotted.split(".")
        return self.document[section][name]

    def origin(self, dotted: str) -> Origin:
        return self.provenance.get(tuple(dotted.split(".")), DEFAULT_ORIGIN)

    def view(self) -> RuleView:
        return RuleView(self.document, self.explicit)


@dataclass
class _Layer:
    """One file of an ``extends`` chain, merged over everything below it."""

    data: dict[str, Any]
    provenance: dict[JsonPath, Origin]
    chain: list[str]


def load_ruleset(reference: str | Path) -> Ruleset:
    """Load a shipped ruleset by name, or a ruleset file by path."""
    path = _resolve_or_raise(str(reference), None)
    return _finish(_load_chain(path, ()), path)


def load_ruleset_text(
    text: str | bytes,
    name: str = "<string>",
    base_dir: Path | None = None,
    *,
    shipped_only: bool = False,
) -> Ruleset:
    """Load a ruleset from text (an editor, a form); ``extends`` paths resolve from ``base_dir``.

    With ``shipped_only`` (text from the web), ``extends`` must name a shipped
    ruleset or house rule: a path is an error and no file is read.
    """
    source = load_yaml_text(text, name)
    layer = _layer_from_source(source, None if shipped_only else base_dir, (), shipped_only)
    return _finish(layer, Path(name))


def _resolve_or_raise(reference: str, relative_to: Path | None) -> Path:
    try:
        path = locate.resolve(reference, relative_to)
    except locate.UnknownRuleset:
        raise RulesetError([Diagnostic.of(_unknown_ruleset(reference), reference)]) from None
    if not path.is_file():
        raise RulesetError([Diagnostic.of(said(Code.NO_SUCH_RULESET_FILE), str(path))])
    return path


def _unknown_ruleset(name: str) -> Problem:
    """What :func:`locate.find_entry` says of an unknown name, as data: the name, the
    close names it suggests and every known name."""
    known = [entry.name for entry in locate.entries()]
    wanted = name.strip().lower().replace("_", "-").replace(" ", "-")
    for suffix in locate.YAML_SUFFIXES:
        wanted = wanted.removesuffix(suffix)
    close = difflib.get_close_matches(wanted, known, n=3, cutoff=0.6)
    return said(
        Code.UNKNOWN_RULESET,
        name=repr(name),
        close=tuple(repr(c) for c in close),
        known=", ".join(known),
    )


def _load_chain(path: Path, seen: tuple[Path, ...]) -> _Layer:
    source = load_yaml_file(path, locate.display_name(path))
    return _layer_from_source(source, path.parent, (*seen, path.resolve()))


def _layer_from_source(
    source: SourceDocument, folder: Path | None, seen: tuple[Path, ...], shipped_only: bool = False
) -> _Layer:
    errors = [*schema_diagnostics(source), *_metadata_diagnostics(source)]
    data = source.data if isinstance(source.data, dict) else {}
    base: _Layer | None = None
    reference = data.get("extends")
    if isinstance(reference, str) and not any(d.path == ("extends",) for d in errors):
        try:
            base = _load_base(reference, source, folder, seen, shipped_only)
        except RulesetError as error:
            errors.extend(error.diagnostics)
    if errors:
        raise RulesetError(errors)
    own = _Layer(copy.deepcopy(data), {}, [source.name])
    for path, _value in _leaves(data):
        mark = source.mark_for(path)
        own.provenance[path] = Origin(
            source.name, mark.line if mark else None, mark.column if mark else None
        )
    own.data.pop("extends", None)
    if base is None:
        return own
    # A file's name, description, author and notes are its own: a ruleset that
    # extends classic and says nothing of itself must not print classic's words.
    inherited = {k: v for k, v in base.data.items() if k not in ruleset_schema.METADATA_KEYS}
    merged = _Layer(
        _merge(inherited, own.data),
        {
            **{
                path: origin
                for path, origin in _without_replaced(base.provenance, own.data).items()
                if path[0] not in ruleset_schema.METADATA_KEYS
            },
            **own.provenance,
        },
        own.chain + base.chain,
    )
    return merged


def _metadata_diagnostics(source: SourceDocument) -> list[Diagnostic]:
    """A name or author hiding a character, a description reordering its text
    (:mod:`ginrules.rules.text`): worded in :mod:`ginrules.words.characters`."""
    found = []
    for key, refused in metadata_problems(source.data):
        mark = source.mark_for((key,))
        line, column = (mark.line, mark.column) if mark else (None, None)
        found.append(
            Diagnostic("error", source.name, refused.code, line, column, (key,), departure=refused)
        )
    return found


def _load_base(
    reference: str,
    source: SourceDocument,
    folder: Path | None,
    seen: tuple[Path, ...],
    shipped_only: bool = False,
) -> _Layer:
    mark = source.mark_for(("extends",))
    line, column = (mark.line, mark.column) if mark else (None, None)

    def refused(problem: Problem) -> RulesetError:
        return RulesetError([Diagnostic.of(problem, source.name, line, column, ("extends",))])

    if shipped_only and locate.looks_like_path(reference):
        known = ", ".join(entry.name for entry in locate.entries())
        raise refused(said(Code.EXTENDS_A_PATH, known=known))

    try:
        path = locate.resolve(reference, folder)
    except locate.UnknownRuleset:
        raise refused(_unknown_ruleset(reference)) from None
    if not path.is_file():
        raise refused(said(Code.EXTENDS_NO_SUCH_FILE, reference=repr(reference), path=str(path)))
    resolved = path.resolve()
    if resolved in seen:
        cycle = " -> ".join(locate.display_name(p) for p in (*seen, resolved))
        raise refused(said(Code.EXTENDS_CYCLE, cycle=cycle))
    if len(seen) >= MAX_CHAIN:
        raise refused(said(Code.EXTENDS_TOO_LONG, most=MAX_CHAIN))
    return _load_chain(path, seen)


def _leaves(data: Mapping[str, Any], prefix: JsonPath = ()) -> Iterator[tuple[JsonPath, Any]]:
    """Every value a file sets: mappings are walked, scalars and lists are leaves."""
    for key, value in data.items():
        path = (*prefix, key)
        if isinstance(value, dict):
            yield from _leaves(value, path)
        else:
            yield path, value


def _merge(base: Mapping[str, Any], overlay: Mapping[str, Any]) -> dict[str, Any]:
    merged = copy.deepcopy(dict(base))
    for key, value in overlay.items():
        if isinstance(value, dict) and isinstance(merged.get(key), dict):
            merged[key] = _merge(merged[key], value)
        else:
            merged[key] = copy.deepcopy(value)
    return merged


def _without_replaced(
    provenance: Mapping[JsonPath, Origin], overlay: Mapping[str, Any]
) -> dict[JsonPath, Origin]:
    """Drop the base's origins under values the overlay replaces whole."""
    replaced = {path for path, _ in _leaves(overlay)}
    return {
        path: origin
        for path, origin in provenance.items()
        if not any(path[: len(r)] == r for r in replaced)
    }


def _finish(layer: _Layer, path: Path) -> Ruleset:
    document = ruleset_schema.defaults()
    document = _merge(document, layer.data)
    # "Set" for the no-effect warnings means set by this file, not by its bases.
    explicit = frozenset(
        ".".join(str(p) for p in key)
        for key, origin in layer.provenance.items()
        if len(key) == 2 and origin.file == layer.chain[0]
    )
    rules = RuleView(document, explicit)
    diagnostics: list[Diagnostic] = []
    for finding in run_checks(rules):
        knob = _blamed_knob(layer, finding.knobs)
        origin = _origin_of(layer, knob)
        file, at = origin.file or layer.chain[0], tuple(knob.split("."))
        diagnostics.append(
            Diagnostic.of(
                finding.problem, file, origin.line, origin.column, at, severity=finding.severity
            )
        )
    for departure in departures(rules):
        origin = _origin_of(layer, departure.knob.dotted)
        # Worded in ginrules.words.departures; here only what departs: the knob and value.
        shown = f"{departure.knob.dotted} {ruleset_schema.show_value(departure.value)}"
        diagnostics.append(
            Diagnostic(
                "warning",
                origin.file or layer.chain[0],
                shown,
                origin.line,
                origin.column,
                departure.knob.path,
                sources=departure.sources,
                departure=departure,
            )
        )
    if any(d.severity == "error" for d in diagnostics):
        raise RulesetError(diagnostics)
    return Ruleset(
        name=path.stem,
        source=layer.chain[0],
        document=_freeze(document),
        provenance=MappingProxyType(dict(layer.provenance)),
        chain=tuple(layer.chain),
        warnings=tuple(sort_diagnostics(diagnostics)),
        explicit=explicit,
    )


def _blamed_knob(layer: _Layer, knobs: tuple[str, ...]) -> str:
    """The knob a cross-field problem points at: the one set nearest the top file.

    A person editing an overlay should see their own line, not a base file's;
    a default has no line, so it is blamed only when no file set any knob involved.
    """

    def depth(knob: str) -> int:
        origin = _origin_of(layer, knob)
        return layer.chain.index(origin.file) if origin.file in layer.chain else len(layer.chain)

    return min(knobs, key=depth)


def _origin_of(layer: _Layer, dotted: str) -> Origin:
    return layer.provenance.get(tuple(dotted.split(".")), DEFAULT_ORIGIN)


def _freeze(value: Any) -> Any:
    if isinstance(value, dict):
        return MappingProxyType({k: _freeze(v) for k, v in value.items()})
    if isinstance(value, list):
        return tuple(_freeze(v) for v in value)
    return value
