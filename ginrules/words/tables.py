"""A card table's words: why a table cannot start, and what is wrong with a request."""

from __future__ import annotations

from typing import Final

from ginrules.words.i18n import _

#: Why a table cannot start as asked, by the reason of ``TableRefused``.
_REFUSED: Final[dict[str, str]] = {
    "count": "this format needs {needed} players, not {got}",
    "empty": "give this player a name",
    "too_long": "a name has at most {most} characters",
    "same_name": "two players have the same name: give each their own",
    "not_a_player": "the first dealer must be one of the players",
    "no_rules": "there are no such rules: give a shipped name, h/<slug> or h/<slug>/v<n>",
}

#: What is wrong with a request's body or headers, by problem.
_INPUT: Final[dict[str, str]] = {
    "not_utf8": "the body is not valid UTF-8 (byte {byte})",
    "not_json_type": "send application/json",
    "not_json": "the body is not valid JSON",
    "not_object": "send a JSON object",
    "unknown": "unknown field(s): {names}",
    "missing": "{name} is missing",
    "not_string": "{name} is a string",
    "not_whole": "{name} is a whole number",
    "not_list": "{name} is a list",
    "not_event": "{name} is not an event this table can take",
    "no_key": "send the scorer key in the X-Scorer-Key header",
    "wrong_key": "that scorer key is not right for this table",
    "moved_on": "the table has moved on: {current} changes are stored, you saw {seen}",
}


def table_refused(reason: str, params: dict[str, object]) -> str:
    return _(_REFUSED[reason]).format(**params)


def input_problem(problem: str, **params: object) -> str:
    return _(_INPUT[problem]).format(**params)
