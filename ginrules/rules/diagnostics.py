"""Errors and warnings about a ruleset, each pointing at a file, line and field.

Every problem found in a ruleset becomes a :class:`Diagnostic`. They are
collected, never raised one at a time, so a person sees every problem at once,
best first, in the ``file:line:col: error: message`` form compilers use.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Literal

Severity = Literal["error", "warning"]

#: A location inside a YAML document: mapping keys and list indexes.
JsonPath = tuple[str | int, ...]


def format_json_path(path: Sequence[str | int]) -> str:
    """``("scoring", "gin_bonus")`` -> ``$.scoring.gin_bonus``; list items as ``[0]``."""
    text = "$"
    for part in path:
        text += f"[{part}]" if isinstance(part, int) else f".{part}"
    return text


@dataclass(frozen=True)
class Diagnostic:
    """One problem (or, as a warning, one departure from published rules)."""

    severity: Severity
    file: str
    message: str
    line: int | None = None
    column: int | None = None
    path: JsonPath = ()
    expected: str | None = None
    hint: str | None = None
    #: For warnings: the published sources (codes such as ``HR``) that say otherwise.
    sources: tuple[str, ...] = ()
    #: Lower sorts first among diagnostics of the same severity and file.
    rank: int = 0
    #: A diagnostic worded elsewhere (:mod:`ginrules.words.diagnostics`): what it is, as
    #: data (``departure``), with ``message`` left empty. None: ``message`` says it.
    departure: object | None = None

    @property
    def json_path(self) -> str:
        return format_json_path(self.path)

    def format(self, message: str | None = None) -> str:
        """The one-line, compiler-style form: ``file:line:col: error: message``
        (``message`` in place of :attr:`message`, for a diagnostic worded elsewhere)."""
        where = self.file
        if self.line is not None:
            where += f":{self.line}"
            if self.column is not None:
                where += f":{self.column}"
        text = f"{where}: {self.severity}: {self.message if message is None else message}"
        details = []
        if self.path:
            details.append(f"at {self.json_path}")
        if self.expected:
            details.append(f"expected {self.expected}")
        if details:
            text += f" ({'; '.join(details)})"
        if self.hint:
            text += f"; {self.hint}"
        return text

    def to_json(self, message: str | None = None) -> dict[str, object]:
        return {
            "severity": self.severity,
            "file": self.file,
            "line": self.line,
            "column": self.column,
            "path": self.json_path,
            "message": self.message if message is None else message,
            "expected": self.expected,
            "hint": self.hint,
            "sources": list(self.sources),
        }


def sort_diagnostics(diagnostics: Iterable[Diagnostic]) -> list[Diagnostic]:
    """Errors before warnings, then best (lowest rank) first, then by position."""
    return sorted(
        diagnostics,
        key=lambda d: (
            d.severity != "error",
            d.rank,
            d.file,
            d.line if d.line is not None else 0,
            d.column if d.column is not None else 0,
            d.message,
        ),
    )


@dataclass
class RulesetError(Exception):
    """Raised when a ruleset cannot be used; carries every diagnostic found."""

    diagnostics: list[Diagnostic] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.diagnostics = sort_diagnostics(self.diagnostics)
        super().__init__(self.__str__())

    @property
    def errors(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.severity == "error"]

    def __str__(self) -> str:
        return "\n".join(d.format() for d in self.diagnostics)
