"""What a ruleset's diagnostics say, as data, and its words, written once in English.

A diagnostic's :class:`Problem` is a message, what was expected and a hint, each a
:class:`Phrase` (a :class:`Code` and its parameters). Each code's words are written
here once, in English (:data:`PATTERNS`): the rules layer says them as written
(:data:`ENGLISH`), :mod:`ginrules.words.rule_problems` through the reader's catalogue,
passing gettext's functions in (as Jinja's ``install_gettext_callables``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Final


class Code(StrEnum):
    """What a phrase of a diagnostic says; its parameters fill in the particulars.

    Parameters are data shown as written (keys and values as in YAML, quoted
    where the English quotes them), never words: whatever a reader reads is
    chosen by the code: its words are in :data:`PATTERNS` (or composed by :func:`say`).
    """

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
    CHECK_INDENTATION = "check_indentation"
    QUOTE_COLON_VALUE = "quote_colon_value"
    QUOTE_VALUE = "quote_value"
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
    UNKNOWN_RULESET = "unknown_ruleset"
    NO_SUCH_RULESET_FILE = "no_such_ruleset_file"
    EXTENDS_A_PATH = "extends_a_path"
    EXTENDS_NO_SUCH_FILE = "extends_no_such_file"
    EXTENDS_CYCLE = "extends_cycle"
    EXTENDS_TOO_LONG = "extends_too_long"
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
    INERT_WITHOUT_OKLAHOMA = "inert_without_oklahoma"
    INERT_WITHOUT_SPADES_DOUBLE = "inert_without_spades_double"
    INERT_WITHOUT_BIG_GIN = "inert_without_big_gin"
    INERT_WITHOUT_SHUTOUT_BONUS = "inert_without_shutout_bonus"
    INERT_WITHOUT_PARTNERSHIP = "inert_without_partnership"
    INERT_WITHOUT_KNOCKING = "inert_without_knocking"
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


# -- the words: every pattern once, in English ---------------------------------------


@dataclass(frozen=True)
class Wording:
    """gettext's functions, which say a pattern in some language: pybabel finds each
    pattern by their names (``words.gettext("...")``), or by :func:`N_`."""

    gettext: Callable[[str], str]
    ngettext: Callable[[str, str, int], str]
    pgettext: Callable[[str, str], str]


#: The source language: every pattern as written, the singular for one.
ENGLISH: Final = Wording(
    gettext=lambda message: message,
    ngettext=lambda singular, plural, count: singular if count == 1 else plural,
    pgettext=lambda _context, message: message,
)


def N_(pattern: str) -> str:  # the name pybabel extracts by default
    """Mark a pattern kept in a table for the catalogue; it is said by a :class:`Wording`."""
    return pattern


@dataclass(frozen=True)
class Plural:
    """A pattern with a singular and a plural form: the parameter ``count`` chooses."""

    singular: str
    plural: str
    count: str

    @classmethod
    def ngettext(cls, singular: str, plural: str, count: str) -> Plural:
        """Mark a counted pattern for the catalogue: pybabel reads a call of this name
        as a singular and a plural. ``count`` names the parameter that counts."""
        return cls(singular, plural, count)


@dataclass(frozen=True)
class Choice:
    """One whole pattern for each value of the parameter ``by``."""

    by: str
    patterns: Mapping[str, str]


#: What each code says, with named ``{placeholders}`` for its parameters; ``{field}``
#: is a setting's name, or the file itself. The codes :func:`say` composes are not here.
PATTERNS: Final[Mapping[Code, str | Plural | Choice]] = {
    # -- reading the file --
    Code.FILE_TOO_LARGE: N_(
        "file is too large ({size} bytes); a ruleset file may be at most {most} bytes ({kib} KiB)"
    ),
    # Translators: {reason} is the operating system's own words.
    Code.CANNOT_READ: N_("cannot read file: {reason}"),
    Code.NOT_UTF8: N_("file is not valid UTF-8 (byte {byte}); save it as UTF-8"),
    # Translators: {error} is the YAML parser's own words, in English.
    Code.NOT_YAML: N_("could not parse YAML: {error}"),
    Code.TABS_INDENT: N_("tabs are not allowed for indentation; use spaces"),
    Code.TABS_HERE: N_("tabs are not allowed here; use spaces"),
    Code.EMPTY_FILE: N_("file is empty; a ruleset file needs `key: value` settings"),
    Code.TOP_LEVEL_ALIAS: N_(
        "the top level of a ruleset file must be a mapping of `key: value` settings,"
        " not the alias *{anchor} (anchors and aliases are not supported)"
    ),
    Code.TOP_LEVEL_LIST: N_(
        "the top level of a ruleset file must be a mapping of `key: value` settings, not a list"
    ),
    Code.TOP_LEVEL_VALUE: N_(
        "the top level of a ruleset file must be a mapping of `key: value` settings,"
        " not the value {value}"
    ),
    # Translators: {what} is the name of what the YAML parser found there.
    Code.TOP_LEVEL_OTHER: N_(
        "the top level of a ruleset file must be a mapping of `key: value` settings, not {what}"
    ),
    Code.SECOND_DOCUMENT: N_(
        "found a second YAML document; a ruleset file holds exactly one (remove the"
        " extra '---' and what follows it)"
    ),
    Code.UNUSED_ANCHOR: N_(
        "anchors and aliases are not supported in ruleset files; remove &{anchor}"
    ),
    Code.ALIAS: N_(
        "anchors and aliases are not supported in ruleset files; write out the value"
        " of *{anchor} in full"
    ),
    Code.TOO_DEEP: N_("nesting is too deep: mappings and lists may nest at most {most} levels"),
    Code.DUPLICATE_KEY: N_("duplicate key {key} (first defined on line {line})"),
    Code.KEY_IS_MAPPING: N_("keys must be strings, not a mapping"),
    Code.KEY_IS_LIST: N_("keys must be strings, not a list"),
    Code.EMPTY_KEY: N_("empty key; every setting needs a name"),
    # Translators: {key} is the key as written, quoted; {raw} the same, unquoted.
    Code.KEY_IS_NULL: N_(
        'key {key} is read by YAML as null, but keys must be strings; put it in quotes: "{raw}"'
    ),
    # Translators: {value} is YAML's true or false, as it is.
    Code.KEY_IS_BOOLEAN: N_(
        "key {key} is read by YAML as the boolean {value}, but keys must be strings;"
        ' put it in quotes: "{raw}"'
    ),
    Code.KEY_IS_NUMBER: N_(
        "key {key} is read by YAML as the number {number}, but keys must be strings;"
        ' put it in quotes: "{raw}"'
    ),
    Code.NUMBER_TOO_LONG: N_("number is too long ({length} characters; at most {most})"),
    # Translators: {tag} is a YAML tag such as !!int, as it is.
    Code.NOT_A_VALID: N_("{value} is not a valid {tag}"),
    Code.NOT_FINITE: N_("{value} is not a finite number; write a plain number"),
    Code.UNSUPPORTED_TAG: N_(
        "tag {tag} is not supported in ruleset files; use plain strings, numbers,"
        " true/false, null, lists and mappings"
    ),
    Code.STOPPED: Plural.ngettext(
        "stopped after {count} error", "stopped after {count} errors", "count"
    ),
    # -- the advice after a parse error --
    Code.CHECK_INDENTATION: N_("check the indentation"),
    Code.QUOTE_COLON_VALUE: N_("a value containing ': ' must be in quotes"),
    Code.QUOTE_VALUE: N_("put the value in quotes"),
    # -- the schema --
    # Translators: {key} is the key as written, quoted; {section} a section's name.
    Code.UNKNOWN_KEY: N_("unknown key {key} in {section}"),
    Code.UNKNOWN_TOP_LEVEL_KEY: N_("unknown key {key} at the top level"),
    Code.WRONG_TYPE: Choice(
        "kind",
        {
            # Translators: {field} is a setting's name (hand_scoring.gin_bonus) or "the file";
            # {value} is the value as written in YAML.
            "boolean": N_("{field} is {value}, which is true/false"),
            "integer": N_("{field} is {value}, which is a whole number"),
            "decimal": N_("{field} is {value}, which is a decimal number"),
            "text": N_("{field} is {value}, which is text"),
            "list": N_("{field} is {value}, which is a list"),
            "mapping": N_("{field} is {value}, which is a mapping"),
            "null": N_("{field} is {value}, which is empty (null)"),
        },
    ),
    Code.NOT_ALLOWED: N_("{field} cannot be {value}"),
    Code.BELOW_MINIMUM: N_("{field} is {value}, below the least allowed ({limit})"),
    Code.ABOVE_MAXIMUM: N_("{field} is {value}, above the most allowed ({limit})"),
    Code.TOO_SHORT: N_("{field} is too short"),
    Code.TOO_LONG: N_("{field} is too long"),
    Code.REQUIRED: N_("{field} needs the key {key}"),
    Code.CONST: N_("{field} must be {wanted}"),
    # Translators: {pattern} is a regular expression, as it is.
    Code.PATTERN: N_("{field} is {value}, which does not match {pattern}"),
    # Translators: {detail} is the schema checker's own words, in English.
    Code.SCHEMA_OTHER: N_("{field}: {detail}"),
    # -- following extends --
    Code.NO_SUCH_RULESET_FILE: N_("no such ruleset file"),
    Code.EXTENDS_A_PATH: N_("extends must name a shipped ruleset ({known}), not a file path"),
    Code.EXTENDS_NO_SUCH_FILE: N_("extends {reference}, but there is no such file ({path})"),
    # Translators: {cycle} is the files that extend each other, joined by ->.
    Code.EXTENDS_CYCLE: N_("extends cycle: {cycle}"),
    Code.EXTENDS_TOO_LONG: Plural.ngettext(
        "extends chain is longer than {most} file",
        "extends chain is longer than {most} files",
        "most",
    ),
    # -- the cross-field checks: settings (with dots and underscores) and values are
    # YAML, kept as they are --
    # Translators: "spades double": a spade as Oklahoma's first upcard doubles the hand.
    Code.SPADES_DOUBLE_NEEDS_OKLAHOMA: N_(
        "spades double needs Oklahoma: the first upcard's suit only matters there"
    ),
    Code.OKLAHOMA_NEEDS_AN_UPCARD: N_(
        "Oklahoma sets the knock limit from the first upcard, but an eleven-card deal"
        " turns no upcard"
    ),
    Code.PARTNERSHIP_NEEDS_FOUR_PLAYERS: Plural.ngettext(
        "a partnership game is two teams of two, not {players} player",
        "a partnership game is two teams of two, not {players} players",
        "players",
    ),
    Code.PARTNERSHIP_NEEDS_A_TEAM_TARGET: N_(
        "a partnership game needs a team target (usually 125 or 150)"
    ),
    # Translators: format.team_target and game_scoring.target are settings, as in YAML.
    Code.TEAM_TARGET_ONLY_FOR_PARTNERSHIP: N_(
        "format.team_target is only for a partnership game; set game_scoring.target instead"
    ),
    Code.HOLLYWOOD_NEEDS_THREE_GAMES: N_("Hollywood scores three games at once, not {games}"),
    # Translators: {format} is the value of format.type, as in YAML (two_player).
    Code.ONLY_HOLLYWOOD_PLAYS_GAMES: N_(
        "only Hollywood scores several games at once; this is a {format} game"
    ),
    Code.PLAYERS_FIT_THE_FORMAT: Choice(
        "format",
        {
            "two_player": N_("a two-player game has {wanted} players, not {players}"),
            "hollywood": N_("a hollywood game has {wanted} players, not {players}"),
            "three_handed": N_("a three-handed game has {wanted} players, not {players}"),
        },
    ),
    # Translators: {knob} is a bonus's setting (hand_scoring.gin_bonus).
    Code.BONUS_REACHES_TARGET: N_(
        "{knob} ({bonus}) is not below the game target ({target}): one hand would decide the game"
    ),
    Code.BIG_GIN_BONUS_REACHES_TARGET: N_(
        "the big-gin bonus ({bonus}) is not below the game target ({target})"
    ),
    # Translators: {hands} hands of {cards} cards each are dealt from one deck;
    # {left} is the number of cards left in the stock at which a hand is dead.
    Code.HAND_SIZE_EMPTIES_THE_STOCK: N_(
        "{hands} hands of {cards} cards leave a stock of {stock}, and the hand is dead"
        " at {left} left: nobody could ever draw"
    ),
    # Translators: "play.knock_limit 0" is a setting and its value, as in YAML.
    Code.KNOCK_LIMIT_ZERO_UNDER_OKLAHOMA: N_(
        "Oklahoma takes each hand's knock limit from the upcard, but play.knock_limit 0"
        " caps it at gin only"
    ),
    # Translators: shutout_game_bonus and game_bonus are settings, as in YAML.
    Code.SHUTOUT_PAYS_LESS: N_(
        "a shutout would pay less than a plain win: shutout_game_bonus ({shutout}) is"
        " below game_bonus ({plain})"
    ),
    # -- warnings: {knob} is the setting that does nothing --
    # Translators: {knob} is a setting that does nothing; oklahoma.enabled and true
    # are YAML, as written. The same in the five messages after this one.
    Code.INERT_WITHOUT_OKLAHOMA: N_("{knob} has no effect unless oklahoma.enabled is true"),
    Code.INERT_WITHOUT_SPADES_DOUBLE: N_(
        "{knob} has no effect unless oklahoma.spades_double is true"
    ),
    Code.INERT_WITHOUT_BIG_GIN: N_("{knob} has no effect unless big_gin.enabled is true"),
    Code.INERT_WITHOUT_SHUTOUT_BONUS: N_("{knob} has no effect unless shutout is game_bonus"),
    Code.INERT_WITHOUT_PARTNERSHIP: N_("{knob} has no effect unless format.type is partnership"),
    Code.INERT_WITHOUT_KNOCKING: N_(
        "{knob} has no effect unless knocking is allowed (knock_limit above 0)"
    ),
    # -- what was expected --
    # Translators: what was expected: one setting or another, each as in YAML.
    Code.EITHER_SETTING: N_("{one}, or {other}"),
    # Translators: what was expected: no {key} at all, or a setting as in YAML.
    Code.NO_KEY_OR_SETTING: N_("no {key}, or {setting}"),
    # Translators: what was expected: {choices} are the values allowed, as in YAML.
    Code.ONE_OF: N_("one of {choices}"),
    # Translators: what was expected.
    Code.VALUE_RANGE: N_("a value from {low} to {high}"),
    Code.TEXT_LENGTH: Plural.ngettext(
        "text of {low} to {high} character", "text of {low} to {high} characters", "high"
    ),
    Code.AT_MOST_ITEMS: Plural.ngettext("at most {count} item", "at most {count} items", "count"),
    # Translators: what was expected: a number.
    Code.LESS_THAN: N_("less than {value}"),
    # Translators: what was expected: a number.
    Code.AT_LEAST: N_("at least {value}"),
    # Translators: what was expected: {knob} is cards.hand_size.
    Code.HAND_SIZE_AT_MOST: N_("{knob} of at most {most}"),
    # Translators: what was expected: {knob} is play.knock_limit.
    Code.KNOCK_LIMIT_FOR_OKLAHOMA: N_("{knob} from 1 to 10 (10 lets every upcard count)"),
    # -- hints --
    # Translators: {name} is a key or a value, quoted.
    Code.DID_YOU_MEAN: N_("did you mean {name}?"),
}


def say(what: Phrase, words: Wording = ENGLISH) -> str:
    """What the phrase says, in the language of ``words`` (as written: English)."""
    values = what.values
    composed = _COMPOSED.get(what.code)
    if composed is not None:
        return composed(values, words)
    pattern = PATTERNS[what.code]
    if isinstance(pattern, Plural):
        count = values[pattern.count]
        assert isinstance(count, int)
        worded = words.ngettext(pattern.singular, pattern.plural, count)
    elif isinstance(pattern, Choice):
        worded = words.gettext(pattern.patterns[str(values[pattern.by])])
    else:
        worded = words.gettext(pattern)
    if "{field}" in worded and not values.get("field"):
        values = {**values, "field": words.gettext("the file")}
    return worded.format(**values)


def _either(items: Iterable[object], words: Wording) -> str:
    """``a``, ``a or b``, ``a or b or c``."""
    one, *others = (str(item) for item in items)
    for other in others:
        # Translators: two choices: values as in YAML, or phrases already translated.
        one = words.gettext("{one} or {other}").format(one=one, other=other)
    return one


def _parse_error(values: Mapping[str, object], words: Wording) -> str:
    """PyYAML's own words (its problem and context) as they are, with advice."""
    problem = values["problem"]
    if not problem:
        message = words.gettext("could not parse YAML: invalid syntax")
    else:
        # Translators: {problem} is the YAML parser's own description, in English.
        message = words.gettext("could not parse YAML: {problem}").format(problem=problem)
    advice = values["advice"]
    assert isinstance(advice, tuple)
    for code in advice:
        # Translators: a parse error, then advice on what to do about it.
        then = words.gettext("{message}; {advice}")
        message = then.format(message=message, advice=say(phrase(code), words))
    context, line = values["context"], values["context_line"]
    if context is not None and line is not None:
        # Translators: {context} is the YAML parser's own words ("while parsing a block
        # mapping"), in English; {line} is where that mapping or list starts.
        message = words.gettext("{message} ({context} that starts on line {line})").format(
            message=message, context=context, line=line
        )
    elif context is not None:
        # Translators: {context} is the YAML parser's own words, in English.
        message = words.gettext("{message} ({context})").format(message=message, context=context)
    return message


def _types(values: Mapping[str, object], words: Wording) -> str:
    """What kind of value was expected: ``a whole number or nothing (null)``."""
    names = {
        # Translators: what a setting's value should be: "expected a whole number".
        "integer": words.pgettext("expected value", "a whole number"),
        "number": words.pgettext("expected value", "a number"),
        "boolean": words.pgettext("expected value", "true or false"),
        "string": words.pgettext("expected value", "text"),
        "object": words.pgettext("expected value", "a mapping of keys to values"),
        "array": words.pgettext("expected value", "a list"),
        "null": words.pgettext("expected value", "nothing (null)"),
    }
    types = values["types"]
    assert isinstance(types, tuple)
    return _either((names.get(str(name), str(name)) for name in types), words)


def _unknown_ruleset(values: Mapping[str, object], words: Wording) -> str:
    close = values["close"]
    assert isinstance(close, tuple)
    if close:
        # Translators: {name} is the name given, quoted; {close} one to three close
        # names ("'classic' or 'oklahoma'"); {known} every name there is.
        pattern = words.gettext("unknown ruleset {name}; did you mean {close}? (known: {known})")
        return pattern.format(**{**values, "close": _either(close, words)})
    return words.gettext("unknown ruleset {name} (known: {known})").format(**values)


#: The codes said by more than one pattern, or by none (a setting as YAML writes it).
_COMPOSED: Final[dict[Code, Callable[[Mapping[str, object], Wording], str]]] = {
    Code.PARSE_ERROR: _parse_error,
    Code.TYPES: _types,
    Code.UNKNOWN_RULESET: _unknown_ruleset,
    Code.SETTING: lambda values, _words: str(values["setting"]),
}
