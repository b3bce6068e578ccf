"""Errors and warnings about a ruleset, each pointing at a file, line and field.

Every problem found in a ruleset becomes a :class:`Diagnostic`. They are
collected, never raised one at a time, so a person sees every problem at once,
best first, in the ``file:line:col: error: message`` form compilers use.

What a diagnostic says is data too: its :class:`~ginrules.rules.phrases.Problem`,
whose words are written once, in English, in :mod:`ginrules.rules.phrases`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Literal

from ginrules.rules.phrases import ENGLISH, Problem, Wording, say

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
    #: data (``departure``), with ``message`` only the data's gist (a knob and value, a
    #: character's code). None: ``message`` (or ``problem``) says it.
    departure: object | None = None
    #: What it says, as data, for :mod:`ginrules.words.diagnostics` to say in the
    #: reader's language; ``message``, ``expected`` and ``hint`` are its English (:meth:`of`).
    problem: Problem | None = None

    @classmethod
    def of(
        cls,
        problem: Problem,
        file: str,
        line: int | None = None,
        column: int | None = None,
        path: JsonPath = (),
        *,
        severity: Severity = "error",
        rank: int = 0,
    ) -> Diagnostic:
        """The diagnostic that says ``problem``, with its English."""
        wanted, meant = problem.expected, problem.hint
        expected, hint = (None if part is None else say(part) for part in (wanted, meant))
        message = say(problem.message)
        return cls(
            severity, file, message, line, column, path, expected, hint, (), rank, problem=problem
        )

    @property
    def json_path(self) -> str:
        return format_json_path(self.path)

    @property
    def location(self) -> str:
        """``file:line:col``, as far as it is known."""
        where = self.file
        if self.line is not None:
            where += f":{self.line}"
            if self.column is not None:
                where += f":{self.column}"
        return where

    def format(self, words: Wording = ENGLISH) -> str:
        """The compiler-style line, ``file:line:col: error: message (at $.path; expected
        ...); hint``, in English, or as said by ``words`` (:mod:`ginrules.words.diagnostics`)."""
        message, path, expected = self.message, self.json_path, self.expected
        if self.path and expected:
            # Translators: a problem with a ruleset, where it is in the file ($.play.knock_limit)
            # and what was expected instead.
            message = words.gettext("{message} (at {path}; expected {expected})").format(
                message=message, path=path, expected=expected
            )
        elif self.path:
            # Translators: a problem with a ruleset and where it is in the file
            # ($.play.knock_limit).
            message = words.gettext("{message} (at {path})").format(message=message, path=path)
        elif expected:
            # Translators: a problem with a ruleset and what was expected instead.
            message = words.gettext("{message} (expected {expected})").format(
                message=message, expected=expected
            )
        if self.hint:
            # Translators: a problem with a ruleset, then a hint ("did you mean 'gin_bonus'?").
            message = words.gettext("{message}; {hint}").format(message=message, hint=self.hint)
        where = self.location
        if self.severity == "error":
            # Translators: a line as compilers print it; {where} is file:line:column. Editors
            # find problems by "error:" and "warning:": translate them as your compilers do.
            return words.gettext("{where}: error: {message}").format(where=where, message=message)
        # Translators: the same, for a warning.
        return words.gettext("{where}: warning: {message}").format(where=where, message=message)

    def to_json(self) -> dict[str, object]:
        return {
            "severity": self.severity,
            "file": self.file,
            "line": self.line,
            "column": self.column,
            "path": self.json_path,
            "message": self.message,
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
