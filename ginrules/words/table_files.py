"""A card table's files in words: the hands' CSV columns, and why an import is refused."""

from __future__ import annotations

from typing import Final

from ginrules.words.i18n import _

#: The CSV's columns before the running totals, in order.
_HAND_COLUMNS: Final = (
    "hand",
    "deal",
    "games",
    "dealer",
    "players",
    "ended by",
    "how",
    "knocker's deadwood",
    "defender's deadwood",
    "upcard",
    "winner",
    "points",
    "boxes",
)

#: Why a table export cannot be brought in, by problem.
_IMPORT: Final[dict[str, str]] = {
    "not_an_export": "this is not a table export: it says ginrules_table: 1",
    "too_many_events": "a table brought in has at most {most} changes",
    "extends": "a table's rules are one file that extends nothing, as its export writes them",
    "fingerprint": (
        "these rules compile to fingerprint {actual}, not {stated}: the file was changed"
    ),
    "numbered": "the changes are numbered 1, 2, 3 and so on: this one is number {number}",
    "at": "{name} is a date and time with its offset from UTC, such as 2026-05-01T20:15:00+00:00",
    "next_game": (
        "the step to the next game names a table that is not here: bring the game in without it"
    ),
    "length": "{name} is text of 1 to {most} characters",
    "reference": "{name} is a shipped ruleset's name or h/<slug>/v<n>",
}


def hand_columns() -> list[str]:
    """The CSV header's columns that describe a hand."""
    return [_(column) for column in _HAND_COLUMNS]


def total_column(side: str, game: int | None) -> str:
    """The CSV header of a side's running total (in game ``game`` of several)."""
    if game is None:
        return _("{side} total").format(side=side)
    return _("game {game}: {side} total").format(game=game, side=side)


def import_refused(problem: str, **params: object) -> str:
    return _(_IMPORT[problem]).format(**params)
