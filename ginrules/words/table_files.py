"""A card table's files in words: the hands' CSV columns, and why an import is refused.

The CSV and the table export are machine formats: the CSV's column names, the
export's keys and its ``ginrules_table`` version stay English and never change with
the reader's language (a spreadsheet or a script reads them by name). The
messages that refuse an import are in the request's language.
"""

from __future__ import annotations

from typing import Final

from ginrules.words.i18n import _

#: The CSV's columns before the running totals, in order: English in every language.
HAND_COLUMNS: Final = (
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


def hand_columns() -> list[str]:
    """The CSV header's columns that describe a hand."""
    return list(HAND_COLUMNS)


def total_column(side: str, game: int | None) -> str:
    """The CSV header of a side's running total (in game ``game`` of several)."""
    if game is None:
        return f"{side} total"
    return f"game {game}: {side} total"


def import_refused(problem: str, **params: object) -> str:
    """Why a table export cannot be brought in, by problem."""
    refused = {
        "not_an_export": _("this is not a table export: it says ginrules_table: 1"),
        "too_many_events": _("a table brought in has at most {most} changes"),
        "extends": _(
            "a table's rules are one file that extends nothing, as its export writes them"
        ),
        "fingerprint": _(
            "these rules compile to fingerprint {actual}, not {stated}: the file was changed"
        ),
        "numbered": _("the changes are numbered 1, 2, 3 and so on: this one is number {number}"),
        "at": _(
            "{name} is a date and time with its offset from UTC, such as 2026-05-01T20:15:00+00:00"
        ),
        "next_game": _(
            "the step to the next game names a table that is not here: bring the game in without it"
        ),
        "length": _("{name} is text of 1 to {most} characters"),
        "reference": _("{name} is a shipped ruleset's name or h/<slug>/v<n>"),
    }
    return refused[problem].format(**params)
