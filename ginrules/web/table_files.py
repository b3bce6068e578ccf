"""A card table's files: the filled-in score pad, its hands as CSV, the table as JSON.

Each reads the table's score as :func:`~ginrules.web.table_service.state`
replays it from the log. The pad's lines and end rows are the engine's
(:mod:`ginrules.sheets.filled` reads the score pad hand by hand); the CSV
takes the same lines and the engine's scored entries, one row per two-player
hand. The JSON is the table itself, its pinned rules and its whole log, which
:mod:`ginrules.web.table_import` brings back as a new table.

The pad is printed in the reader's language. The CSV and the JSON are machine
formats: their column names, keys and values are English and the same in every
language, so a spreadsheet or a script that reads them by name keeps working.
"""

from __future__ import annotations

import csv
import functools
import io
import re
import unicodedata
from typing import Any, Final

from ginrules.engine.tablelog import Entry
from ginrules.rules.compile import FormatType
from ginrules.rules.load import Ruleset, load_ruleset_text
from ginrules.sheets.filled import PadFill, PadLine, pad_fill
from ginrules.sheets.render import Paper, SheetOptions, filled_scorepad_html, filled_scorepad_pdf
from ginrules.web.table_service import TableState
from ginrules.web.table_store import CardTable
from ginrules.words.i18n import SOURCE_LOCALE, format_list, use_locale
from ginrules.words.table_files import hand_columns, total_column

#: The version of the table export's shape (its ``ginrules_table`` field).
EXPORT_VERSION: Final = 1
#: A cell starting with one of these is a formula to a spreadsheet: CSV injection.
_FORMULA_STARTS: Final = ("=", "+", "-", "@", "\t", "\r")


@functools.lru_cache(maxsize=64)
def _ruleset(text: str, name: str) -> Ruleset:
    """A table's pinned rules as a ruleset (for the pad's words), read once per process."""
    return load_ruleset_text(text, name, shipped_only=True)


def table_ruleset(table: CardTable) -> Ruleset:
    return _ruleset(table.rules.yaml, table.rules.name)


def filled_pad(now: TableState) -> PadFill:
    return pad_fill(now.score.pad, now.table.players)


def pad_options(now: TableState, url: str, paper: Paper, large_print: bool) -> SheetOptions:
    """The printed pad's header: the rules' reference as its version, and the day the
    score last changed; the QR code opens ``url`` (the table's page)."""
    return SheetOptions(
        paper=paper,
        large_print=large_print,
        url=url,
        version=now.table.rules.ref,
        date=now.table.updated_at.date(),
    )


def pad_html(now: TableState, options: SheetOptions) -> str:
    return filled_scorepad_html(table_ruleset(now.table), filled_pad(now), options)


def pad_pdf(now: TableState, options: SheetOptions) -> bytes:
    return filled_scorepad_pdf(table_ruleset(now.table), filled_pad(now), options)


def file_name(now: TableState, suffix: str) -> str:
    """``<rules name>-<slug><suffix>`` in plain ASCII, safe in a download header."""
    plain = unicodedata.normalize("NFKD", now.table.rules.name).encode("ascii", "ignore")
    stem = re.sub(r"[^a-z0-9]+", "-", plain.decode("ascii").lower()).strip("-")[:60]
    return f"{stem or 'table'}-{now.table.slug}{suffix}"


# -- the hands as CSV ----------------------------------------------------------------------


def hand_rows(now: TableState) -> list[list[str | int]]:
    """The header, then one row per two-player hand standing: how it went, and every
    side's running total in every game after the hand it belongs to."""
    fill = filled_pad(now)
    several = len(fill.games) > 1
    header: list[str | int] = [
        *hand_columns(),
        *(
            total_column(side, number if several else None)
            for number in range(1, len(fill.games) + 1)
            for side in fill.sides
        ),
    ]
    # Each game's lines by hand number: a Hollywood hand is written in some games only.
    lines: list[dict[int, PadLine]] = [{line.number: line for line in g.lines} for g in fill.games]
    running = [tuple(0 for _ in fill.sides) for _ in fill.games]  # before the first hand
    rows: list[list[str | int]] = [header]
    pad = now.score.pad
    for number, (entries, scored) in enumerate(now.score.hands, start=1):
        counted = [str(g) for g, game in enumerate(lines, start=1) if number in game]
        running = [
            game[number].totals if number in game else totals
            for game, totals in zip(lines, running, strict=True)
        ]
        seatings = pad.entries[number - 1].seatings
        for deal, (entry, hand, seating) in enumerate(
            zip(entries, scored, seatings, strict=True), start=1
        ):
            report, score = hand.report, hand.score
            dealer = seating.dealer_seat
            if now.config.format is FormatType.THREE_HANDED:
                (dealer,) = {0, 1, 2} - set(seating.seats)  # the dealer sits out
            dead = report.winner is None
            rows.append(
                [
                    number,
                    deal,
                    " ".join(counted),
                    _name(fill, dealer),
                    format_list(_name(fill, seat) for seat in seating.seats),
                    "" if hand.knocker is None else _name(fill, hand.knocker),
                    score.end.value,
                    "" if dead else score.knocker_deadwood,
                    "" if dead else score.defender_deadwood,
                    _upcard(entry),
                    "" if report.winner is None else _name(fill, report.winner),
                    report.points,
                    report.boxes,
                    *(total for totals in running for total in totals),
                ]
            )
    return [[_cell(value) for value in row] for row in rows]


def hands_csv(now: TableState) -> str:
    """The hands as CSV, in English whatever the reader's language (a machine format)."""
    with use_locale(SOURCE_LOCALE):
        rows = hand_rows(now)
    out = io.StringIO()
    csv.writer(out, lineterminator="\r\n").writerows(rows)
    return out.getvalue()


def _name(fill: PadFill, seat: int) -> str:
    return fill.players[seat]


def _upcard(entry: Entry) -> str:
    return "" if entry.upcard is None else str(entry.upcard)


def _cell(value: str | int) -> str | int:
    """A text cell a spreadsheet will not run as a formula (a player may be named
    ``=HYPERLINK(...)``): such text starts with an apostrophe, as OWASP advises."""
    if isinstance(value, str) and value.startswith(_FORMULA_STARTS):
        return "'" + value
    return value


# -- the table as JSON ----------------------------------------------------------------------


def export(now: TableState) -> dict[str, Any]:
    """The table as :mod:`ginrules.web.table_import` reads it: players, who won the cut,
    the pinned rules (their reference, name, fingerprint and YAML) and the whole log.
    Its keys and values are the same in every language (nothing here is worded)."""
    table = now.table
    return {
        "ginrules_table": EXPORT_VERSION,
        "players": list(table.players),
        "first_dealers": list(table.first_dealers),
        "rules": {
            "ref": table.rules.ref,
            "name": table.rules.name,
            "fingerprint": table.rules.fingerprint,
            "yaml": table.rules.yaml,
        },
        "events": [
            {
                "number": stored.number,
                "event": stored.event,
                "actor": stored.actor,
                "at": stored.created_at.isoformat(),
            }
            for stored in now.log
        ],
    }
