"""Errors and warnings about a ruleset, each pointing at a file, line and field.

Every problem found in a ruleset becomes a :class:`Diagnostic`. They are
collected, never raised one at a time, so a person sees every problem at once,
best first, in the ``file:line:col: error: message`` form compilers use.

What a diagnostic says is data too: its :class:`Problem` names the message, what
was expected and the hint, each a :class:`Phrase` (a :class:`Code` and its
parameters), which :mod:`ginrules.words.diagnostics` words in the reader's
language. The rules layer keeps its own English beside it (``message``,
``expected``, ``hint``), so it prints the same text with no catalogue at all.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
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


class Code(StrEnum):
    """What a phrase of a diagnostic says; its parameters fill in the particulars.

    Parameters are data shown as written (keys and values as in YAML, quoted
    where the English quotes them), never words: whatever a reader reads is
    chosen by the code. The words are in :mod:`ginrules.words.rule_problems`.
    """

    # -- reading the file (yamlsource) --
    FILE_TOO_LARGE = "file_too_large"
    CANNOT_READ = "cannot_read"
    NOT_UTF8 = "not_utf8"
    NOT_YAML = "not_yaml"
    PARSE_ERROR = "parse_error"
    TABS_INDENT = "tabs_indent"
    TABS_HERE = "tabs_here"
    EMPTY_FILE = "empty_file"
    TOP_LEVEL_ALIAS = "top_level_alias"
    TOP_LEVEL_LIST = "top_level_list"
    TOP_LEVEL_VALUE = "top_level_value"
    TOP_LEVEL_OTHER = "top_level_other"
    SECOND_DOCUMENT = "second_document"
    UNUSED_ANCHOR = "unused_anchor"
    ALIAS = "alias"
    TOO_DEEP = "too_deep"
    DUPLICATE_KEY = "duplicate_key"
    KEY_IS_MAPPING = "key_is_mapping"
    KEY_IS_LIST = "key_is_list"
    EMPTY_KEY = "empty_key"
    KEY_IS_NULL = "key_is_null"
    KEY_IS_BOOLEAN = "key_is_boolean"
    KEY_IS_NUMBER = "key_is_number"
    NUMBER_TOO_LONG = "number_too_long"
    NOT_A_VALID = "not_a_valid"
    NOT_FINITE = "not_finite"
    UNSUPPORTED_TAG = "unsupported_tag"
    STOPPED = "stopped"
    # -- the advice after a parse error: ``advice`` of PARSE_ERROR --
    CHECK_INDENTATION = "check_indentation"
    QUOTE_COLON_VALUE = "quote_colon_value"
    QUOTE_VALUE = "quote_value"
    # -- the schema (validate) --
    UNKNOWN_KEY = "unknown_key"
    UNKNOWN_TOP_LEVEL_KEY = "unknown_top_level_key"
    WRONG_TYPE = "wrong_type"
    NOT_ALLOWED = "not_allowed"
    BELOW_MINIMUM = "below_minimum"
    ABOVE_MAXIMUM = "above_maximum"
    TOO_SHORT = "too_short"
    TOO_LONG = "too_long"
    REQUIRED = "required"
    CONST = "const"
    PATTERN = "pattern"
    SCHEMA_OTHER = "schema_other"
    # -- following extends (load) --
    UNKNOWN_RULESET = "unknown_ruleset"
    NO_SUCH_RULESET_FILE = "no_such_ruleset_file"
    EXTENDS_A_PATH = "extends_a_path"
    EXTENDS_NO_SUCH_FILE = "extends_no_such_file"
    EXTENDS_CYCLE = "extends_cycle"
    EXTENDS_TOO_LONG = "extends_too_long"
    # -- cross-field checks (checks) --
    SPADES_DOUBLE_NEEDS_OKLAHOMA = "spades_double_needs_oklahoma"
    OKLAHOMA_NEEDS_AN_UPCARD = "oklahoma_needs_an_upcard"
    PARTNERSHIP_NEEDS_FOUR_PLAYERS = "partnership_needs_four_players"
    PARTNERSHIP_NEEDS_A_TEAM_TARGET = "partnership_needs_a_team_target"
    TEAM_TARGET_ONLY_FOR_PARTNERSHIP = "team_target_only_for_partnership"
    HOLLYWOOD_NEEDS_THREE_GAMES = "hollywood_needs_three_games"
    ONLY_HOLLYWOOD_PLAYS_GAMES = "only_hollywood_plays_games"
    PLAYERS_FIT_THE_FORMAT = "players_fit_the_format"
    BONUS_REACHES_TARGET = "bonus_reaches_target"
    BIG_GIN_BONUS_REACHES_TARGET = "big_gin_bonus_reaches_target"
    HAND_SIZE_EMPTIES_THE_STOCK = "hand_size_empties_the_stock"
    KNOCK_LIMIT_ZERO_UNDER_OKLAHOMA = "knock_limit_zero_under_oklahoma"
    SHUTOUT_PAYS_LESS = "shutout_pays_less"
    # -- warnings: a knob set where it does nothing (``knob``) --
    INERT_WITHOUT_OKLAHOMA = "inert_without_oklahoma"
    INERT_WITHOUT_SPADES_DOUBLE = "inert_without_spades_double"
    INERT_WITHOUT_BIG_GIN = "inert_without_big_gin"
    INERT_WITHOUT_SHUTOUT_BONUS = "inert_without_shutout_bonus"
    INERT_WITHOUT_PARTNERSHIP = "inert_without_partnership"
    INERT_WITHOUT_KNOCKING = "inert_without_knocking"
    # -- what was expected --
    SETTING = "setting"
    EITHER_SETTING = "either_setting"
    NO_KEY_OR_SETTING = "no_key_or_setting"
    ONE_OF = "one_of"
    TYPES = "types"
    VALUE_RANGE = "value_range"
    TEXT_LENGTH = "text_length"
    AT_MOST_ITEMS = "at_most_items"
    LESS_THAN = "less_than"
    AT_LEAST = "at_least"
    HAND_SIZE_AT_MOST = "hand_size_at_most"
    KNOCK_LIMIT_FOR_OKLAHOMA = "knock_limit_for_oklahoma"
    # -- hints --
    DID_YOU_MEAN = "did_you_mean"


@dataclass(frozen=True)
class Phrase:
    """One thing a diagnostic says, as data: a code and its parameters."""

    code: Code
    params: tuple[tuple[str, object], ...] = ()

    @property
    def values(self) -> Mapping[str, object]:
        return dict(self.params)


def phrase(code: Code, **params: object) -> Phrase:
    return Phrase(code, tuple(params.items()))


@dataclass(frozen=True)
class Problem:
    """What a diagnostic says: its message, what was expected and a hint, as data."""

    message: Phrase
    expected: Phrase | None = None
    hint: Phrase | None = None


def said(code: Code, **params: object) -> Problem:
    """A problem that is only a message."""
    return Problem(phrase(code, **params))


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
    #: What it says, as data, for :mod:`ginrules.words.diagnostics` to word in the
    #: reader's language; ``message``, ``expected`` and ``hint`` are its English.
    problem: Problem | None = None

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

    def format(self) -> str:
        """The one-line, compiler-style form in English: ``file:line:col: error: message``
        (:func:`ginrules.words.diagnostics.line` words it in the reader's language)."""
        text = f"{self.location}: {self.severity}: {self.message}"
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
