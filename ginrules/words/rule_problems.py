"""What is wrong with a ruleset, in words: each :class:`~ginrules.rules.diagnostics.Code`.

The rules layer finds a problem and says what it is as data (a
:class:`~ginrules.rules.diagnostics.Phrase`: a code and its parameters); here each
code is a whole sentence (or, for what was expected and for a hint, a whole
phrase) with named placeholders, in the current language. The parameters are
data as written in YAML: keys, values, paths and tags are never translated, and
the English of every phrase is the rules layer's own, word for word.

PyYAML's and jsonschema's own words (a parse error's problem and context, a
schema keyword ginrules does not use) are passed on as they are, in English.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import reduce
from typing import Final

from ginrules.rules.diagnostics import Code, Phrase
from ginrules.words.i18n import _, ngettext, pgettext


def text(phrase: Phrase) -> str:
    """What ``phrase`` says, in the current language."""
    values = phrase.values
    special = _SPECIAL.get(phrase.code)
    if special is not None:
        return special(values)
    return _pattern(phrase.code, values).format(**_field(values))


def _field(values: Mapping[str, object]) -> dict[str, object]:
    """The parameters, with the file itself as the field when the path is empty."""
    return {**values, "field": values.get("field") or _("the file")}


def _either(items: tuple[object, ...]) -> str:
    """``a``, ``a or b``, ``a or b or c``."""

    def join(one: str, other: str) -> str:
        # Translators: two choices: values as in YAML, or phrases already translated.
        return _("{one} or {other}").format(one=one, other=other)

    return reduce(join, (str(item) for item in items))


# -- phrases with more to them than one pattern ------------------------------------


def _parse_error(values: Mapping[str, object]) -> str:
    problem = values["problem"]
    if problem is None:
        message = _("could not parse YAML: invalid syntax")
    else:
        # Translators: {problem} is the YAML parser's own description, in English.
        message = _("could not parse YAML: {problem}").format(problem=problem)
    advice = values["advice"]
    assert isinstance(advice, tuple)
    for code in advice:
        # Translators: a parse error, then advice on what to do about it.
        message = _("{message}; {advice}").format(message=message, advice=_advice(code))
    context, line = values["context"], values["context_line"]
    if context is not None and line is not None:
        # Translators: {context} is the YAML parser's own words ("while parsing a block
        # mapping"), in English; {line} is where that mapping or list starts.
        message = _("{message} ({context} that starts on line {line})").format(
            message=message, context=context, line=line
        )
    elif context is not None:
        # Translators: {context} is the YAML parser's own words, in English.
        message = _("{message} ({context})").format(message=message, context=context)
    return message


def _advice(code: object) -> str:
    if code == Code.CHECK_INDENTATION:
        return _("check the indentation")
    if code == Code.QUOTE_COLON_VALUE:
        return _("a value containing ': ' must be in quotes")
    assert code == Code.QUOTE_VALUE, code
    return _("put the value in quotes")


def _wrong_type(values: Mapping[str, object]) -> str:
    """A value of the wrong kind: one whole sentence per kind of value."""
    kind = values["kind"]
    patterns = {
        # Translators: {field} is a setting's name (hand_scoring.gin_bonus) or "the file";
        # {value} is the value as written in YAML.
        "boolean": _("{field} is {value}, which is true/false"),
        "integer": _("{field} is {value}, which is a whole number"),
        "decimal": _("{field} is {value}, which is a decimal number"),
        "text": _("{field} is {value}, which is text"),
        "list": _("{field} is {value}, which is a list"),
        "mapping": _("{field} is {value}, which is a mapping"),
        "null": _("{field} is {value}, which is empty (null)"),
    }
    return patterns[str(kind)].format(**_field(values))


def _types(values: Mapping[str, object]) -> str:
    """What kind of value was expected: ``a whole number or nothing (null)``."""
    names = {
        # Translators: what a setting's value should be: "expected a whole number".
        "integer": pgettext("expected value", "a whole number"),
        "number": pgettext("expected value", "a number"),
        "boolean": pgettext("expected value", "true or false"),
        "string": pgettext("expected value", "text"),
        "object": pgettext("expected value", "a mapping of keys to values"),
        "array": pgettext("expected value", "a list"),
        "null": pgettext("expected value", "nothing (null)"),
    }
    types = values["types"]
    assert isinstance(types, tuple)
    return _either(tuple(names.get(str(name), str(name)) for name in types))


def _unknown_ruleset(values: Mapping[str, object]) -> str:
    close = values["close"]
    assert isinstance(close, tuple)
    if close:
        # Translators: {name} is the name given, quoted; {close} one to three close
        # names ("'classic' or 'oklahoma'"); {known} every name there is.
        return _("unknown ruleset {name}; did you mean {close}? (known: {known})").format(
            name=values["name"], close=_either(close), known=values["known"]
        )
    return _("unknown ruleset {name} (known: {known})").format(**values)


def _players_fit_the_format(values: Mapping[str, object]) -> str:
    patterns = {
        "two_player": _("a two-player game has {wanted} players, not {players}"),
        "hollywood": _("a hollywood game has {wanted} players, not {players}"),
        "three_handed": _("a three-handed game has {wanted} players, not {players}"),
    }
    return patterns[str(values["format"])].format(**values)


_SPECIAL: Final[dict[Code, Callable[[Mapping[str, object]], str]]] = {
    Code.PARSE_ERROR: _parse_error,
    Code.WRONG_TYPE: _wrong_type,
    Code.TYPES: _types,
    Code.UNKNOWN_RULESET: _unknown_ruleset,
    Code.PLAYERS_FIT_THE_FORMAT: _players_fit_the_format,
    Code.SETTING: lambda values: str(values["setting"]),
    Code.CHECK_INDENTATION: lambda _values: _advice(Code.CHECK_INDENTATION),
    Code.QUOTE_COLON_VALUE: lambda _values: _advice(Code.QUOTE_COLON_VALUE),
    Code.QUOTE_VALUE: lambda _values: _advice(Code.QUOTE_VALUE),
}


# -- one pattern each --------------------------------------------------------------


def _pattern(code: Code, values: Mapping[str, object]) -> str:
    """The pattern of a phrase; ``values`` choose a plural form, or the file as the field."""
    match code:
        # -- reading the file --
        case Code.FILE_TOO_LARGE:
            return _(
                "file is too large ({size} bytes); a ruleset file may be at most {most} bytes"
                " ({kib} KiB)"
            )
        case Code.CANNOT_READ:
            # Translators: {reason} is the operating system's own words.
            return _("cannot read file: {reason}")
        case Code.NOT_UTF8:
            return _("file is not valid UTF-8 (byte {byte}); save it as UTF-8")
        case Code.NOT_YAML:
            # Translators: {error} is the YAML parser's own words, in English.
            return _("could not parse YAML: {error}")
        case Code.TABS_INDENT:
            return _("tabs are not allowed for indentation; use spaces")
        case Code.TABS_HERE:
            return _("tabs are not allowed here; use spaces")
        case Code.EMPTY_FILE:
            return _("file is empty; a ruleset file needs `key: value` settings")
        case Code.TOP_LEVEL_ALIAS:
            return _(
                "the top level of a ruleset file must be a mapping of `key: value` settings,"
                " not the alias *{anchor} (anchors and aliases are not supported)"
            )
        case Code.TOP_LEVEL_LIST:
            return _(
                "the top level of a ruleset file must be a mapping of `key: value` settings,"
                " not a list"
            )
        case Code.TOP_LEVEL_VALUE:
            return _(
                "the top level of a ruleset file must be a mapping of `key: value` settings,"
                " not the value {value}"
            )
        case Code.TOP_LEVEL_OTHER:
            # Translators: {what} is the name of what the YAML parser found there.
            return _(
                "the top level of a ruleset file must be a mapping of `key: value` settings,"
                " not {what}"
            )
        case Code.SECOND_DOCUMENT:
            return _(
                "found a second YAML document; a ruleset file holds exactly one (remove the"
                " extra '---' and what follows it)"
            )
        case Code.UNUSED_ANCHOR:
            return _("anchors and aliases are not supported in ruleset files; remove &{anchor}")
        case Code.ALIAS:
            return _(
                "anchors and aliases are not supported in ruleset files; write out the value"
                " of *{anchor} in full"
            )
        case Code.TOO_DEEP:
            return _("nesting is too deep: mappings and lists may nest at most {most} levels")
        case Code.DUPLICATE_KEY:
            return _("duplicate key {key} (first defined on line {line})")
        case Code.KEY_IS_MAPPING:
            return _("keys must be strings, not a mapping")
        case Code.KEY_IS_LIST:
            return _("keys must be strings, not a list")
        case Code.EMPTY_KEY:
            return _("empty key; every setting needs a name")
        case Code.KEY_IS_NULL:
            # Translators: {key} is the key as written, quoted; {raw} the same, unquoted.
            return _(
                "key {key} is read by YAML as null, but keys must be strings; put it in quotes:"
                ' "{raw}"'
            )
        case Code.KEY_IS_BOOLEAN:
            # Translators: {value} is YAML's true or false, as it is.
            return _(
                "key {key} is read by YAML as the boolean {value}, but keys must be strings;"
                ' put it in quotes: "{raw}"'
            )
        case Code.KEY_IS_NUMBER:
            return _(
                "key {key} is read by YAML as the number {number}, but keys must be strings;"
                ' put it in quotes: "{raw}"'
            )
        case Code.NUMBER_TOO_LONG:
            return _("number is too long ({length} characters; at most {most})")
        case Code.NOT_A_VALID:
            # Translators: {tag} is a YAML tag such as !!int, as it is.
            return _("{value} is not a valid {tag}")
        case Code.NOT_FINITE:
            return _("{value} is not a finite number; write a plain number")
        case Code.UNSUPPORTED_TAG:
            return _(
                "tag {tag} is not supported in ruleset files; use plain strings, numbers,"
                " true/false, null, lists and mappings"
            )
        case Code.STOPPED:
            count = values["count"]
            assert isinstance(count, int)
            return ngettext("stopped after {count} error", "stopped after {count} errors", count)
    return _schema_pattern(code, values)


def _schema_pattern(code: Code, values: Mapping[str, object]) -> str:
    match code:
        case Code.UNKNOWN_KEY:
            # Translators: {key} is the key as written, quoted; {section} a section's name.
            return _("unknown key {key} in {section}")
        case Code.UNKNOWN_TOP_LEVEL_KEY:
            return _("unknown key {key} at the top level")
        case Code.NOT_ALLOWED:
            return _("{field} cannot be {value}")
        case Code.BELOW_MINIMUM:
            return _("{field} is {value}, below the least allowed ({limit})")
        case Code.ABOVE_MAXIMUM:
            return _("{field} is {value}, above the most allowed ({limit})")
        case Code.TOO_SHORT:
            return _("{field} is too short")
        case Code.TOO_LONG:
            return _("{field} is too long")
        case Code.REQUIRED:
            return _("{field} needs the key {key}")
        case Code.CONST:
            return _("{field} must be {wanted}")
        case Code.PATTERN:
            # Translators: {pattern} is a regular expression, as it is.
            return _("{field} is {value}, which does not match {pattern}")
        case Code.SCHEMA_OTHER:
            # Translators: {detail} is the schema checker's own words, in English.
            return _("{field}: {detail}")
        case Code.ONE_OF:
            # Translators: what was expected: {choices} are the values allowed, as in YAML.
            return _("one of {choices}")
        case Code.VALUE_RANGE:
            # Translators: what was expected.
            return _("a value from {low} to {high}")
        case Code.TEXT_LENGTH:
            high = values["high"]
            assert isinstance(high, int)
            return ngettext(
                "text of {low} to {high} character", "text of {low} to {high} characters", high
            )
        case Code.AT_MOST_ITEMS:
            count = values["count"]
            assert isinstance(count, int)
            return ngettext("at most {count} item", "at most {count} items", count)
        case Code.DID_YOU_MEAN:
            # Translators: {name} is a key or a value, quoted.
            return _("did you mean {name}?")
        # -- following extends --
        case Code.NO_SUCH_RULESET_FILE:
            return _("no such ruleset file")
        case Code.EXTENDS_A_PATH:
            return _("extends must name a shipped ruleset ({known}), not a file path")
        case Code.EXTENDS_NO_SUCH_FILE:
            return _("extends {reference}, but there is no such file ({path})")
        case Code.EXTENDS_CYCLE:
            # Translators: {cycle} is the files that extend each other, joined by ->.
            return _("extends cycle: {cycle}")
        case Code.EXTENDS_TOO_LONG:
            most = values["most"]
            assert isinstance(most, int)
            return ngettext(
                "extends chain is longer than {most} file",
                "extends chain is longer than {most} files",
                most,
            )
    return _check_pattern(code, values)


def _check_pattern(code: Code, values: Mapping[str, object]) -> str:
    """The cross-field checks. Setting names with dots and underscores and their values
    are YAML: a translation keeps them as they are."""
    match code:
        case Code.SPADES_DOUBLE_NEEDS_OKLAHOMA:
            # Translators: "spades double": a spade as Oklahoma's first upcard doubles the hand.
            return _("spades double needs Oklahoma: the first upcard's suit only matters there")
        case Code.OKLAHOMA_NEEDS_AN_UPCARD:
            return _(
                "Oklahoma sets the knock limit from the first upcard, but an eleven-card deal"
                " turns no upcard"
            )
        case Code.PARTNERSHIP_NEEDS_FOUR_PLAYERS:
            players = values["players"]
            assert isinstance(players, int)
            return ngettext(
                "a partnership game is two teams of two, not {players} player",
                "a partnership game is two teams of two, not {players} players",
                players,
            )
        case Code.PARTNERSHIP_NEEDS_A_TEAM_TARGET:
            return _("a partnership game needs a team target (usually 125 or 150)")
        case Code.TEAM_TARGET_ONLY_FOR_PARTNERSHIP:
            # Translators: format.team_target and game_scoring.target are settings, as in YAML.
            return _(
                "format.team_target is only for a partnership game; set game_scoring.target instead"
            )
        case Code.HOLLYWOOD_NEEDS_THREE_GAMES:
            return _("Hollywood scores three games at once, not {games}")
        case Code.ONLY_HOLLYWOOD_PLAYS_GAMES:
            # Translators: {format} is the value of format.type, as in YAML (two_player).
            return _("only Hollywood scores several games at once; this is a {format} game")
        case Code.BONUS_REACHES_TARGET:
            # Translators: {knob} is a bonus's setting (hand_scoring.gin_bonus).
            return _(
                "{knob} ({bonus}) is not below the game target ({target}): one hand would"
                " decide the game"
            )
        case Code.BIG_GIN_BONUS_REACHES_TARGET:
            return _("the big-gin bonus ({bonus}) is not below the game target ({target})")
        case Code.HAND_SIZE_EMPTIES_THE_STOCK:
            # Translators: {hands} hands of {cards} cards each are dealt from one deck;
            # {left} is the number of cards left in the stock at which a hand is dead.
            return _(
                "{hands} hands of {cards} cards leave a stock of {stock}, and the hand is dead"
                " at {left} left: nobody could ever draw"
            )
        case Code.KNOCK_LIMIT_ZERO_UNDER_OKLAHOMA:
            # Translators: "play.knock_limit 0" is a setting and its value, as in YAML.
            return _(
                "Oklahoma takes each hand's knock limit from the upcard, but play.knock_limit 0"
                " caps it at gin only"
            )
        case Code.SHUTOUT_PAYS_LESS:
            # Translators: shutout_game_bonus and game_bonus are settings, as in YAML.
            return _(
                "a shutout would pay less than a plain win: shutout_game_bonus ({shutout}) is"
                " below game_bonus ({plain})"
            )
        # -- warnings: {knob} is the setting that does nothing --
        case Code.INERT_WITHOUT_OKLAHOMA:
            # Translators: {knob} is a setting that does nothing; oklahoma.enabled and true
            # are YAML, as written. The same in the five messages after this one.
            return _("{knob} has no effect unless oklahoma.enabled is true")
        case Code.INERT_WITHOUT_SPADES_DOUBLE:
            return _("{knob} has no effect unless oklahoma.spades_double is true")
        case Code.INERT_WITHOUT_BIG_GIN:
            return _("{knob} has no effect unless big_gin.enabled is true")
        case Code.INERT_WITHOUT_SHUTOUT_BONUS:
            return _("{knob} has no effect unless shutout is game_bonus")
        case Code.INERT_WITHOUT_PARTNERSHIP:
            return _("{knob} has no effect unless format.type is partnership")
        case Code.INERT_WITHOUT_KNOCKING:
            return _("{knob} has no effect unless knocking is allowed (knock_limit above 0)")
        # -- what was expected --
        case Code.EITHER_SETTING:
            # Translators: what was expected: one setting or another, each as in YAML.
            return _("{one}, or {other}")
        case Code.NO_KEY_OR_SETTING:
            # Translators: what was expected: no {key} at all, or a setting as in YAML.
            return _("no {key}, or {setting}")
        case Code.LESS_THAN:
            # Translators: what was expected: a number.
            return _("less than {value}")
        case Code.AT_LEAST:
            # Translators: what was expected: a number.
            return _("at least {value}")
        case Code.HAND_SIZE_AT_MOST:
            # Translators: what was expected: {knob} is cards.hand_size.
            return _("{knob} of at most {most}")
        case Code.KNOCK_LIMIT_FOR_OKLAHOMA:
            # Translators: what was expected: {knob} is play.knock_limit.
            return _("{knob} from 1 to 10 (10 lets every upcard count)")
    raise AssertionError(f"no words for {code}")
