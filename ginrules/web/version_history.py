"""What each version of a house rule changed against the one before it, worked out
once (when it is saved) and kept as JSON in ``versions.summary``.

The versions history shows it for every version; working it out parses both versions
(tens of milliseconds each), so a page of the history that parsed its versions
would cost more with every version saved. The JSON (:class:`Summary`):

- ``{"first": true, "changes": []}``: version 1, nothing before it;
- ``{"first": false, "changes": [{"knob": "hand_scoring.gin_bonus", "before": 25,
  "after": 30}]}``: the knobs whose values differ (``[]``: only the words did);
- ``{"first": false, "changes": null}``: one of the two could not be read.

Saving works it out (:mod:`ginrules.web.saving`); :mod:`ginrules.web.version_pages`
reads it a page at a time. Migration 0005 works out those of the versions saved
before the column existed (:func:`fill_summaries`): in batches, in number order per
house rule, holding one batch and two parsed versions. It reads the tables as that
migration left them (plain table clauses), so it imports none of the site's modules.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Final

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from ginrules import schema as ruleset_schema
from ginrules.rules.diagnostics import RulesetError
from ginrules.rules.diff import diff
from ginrules.rules.load import Ruleset, load_ruleset_text
from ginrules.sheets.marks import knob_label

#: Versions migration 0005 reads at once (each at most 64 KiB of YAML).
_BATCH: Final = 100


@dataclass(frozen=True)
class Change:
    """A knob whose value a version changed: ``hand_scoring.gin_bonus`` 25 → 30."""

    knob: str
    before: object
    after: object

    @property
    def label(self) -> str:
        """``Gin bonus``, as the sheet names the knob, in the current language (a knob a
        later schema dropped keeps a label made of its name)."""
        try:
            return knob_label(ruleset_schema.knob(self.knob))
        except KeyError:
            return self.knob.rsplit(".", 1)[-1].replace("_", " ").capitalize()

    def stored(self) -> dict[str, object]:
        return {"knob": self.knob, "before": self.before, "after": self.after}

    def to_json(self) -> dict[str, object]:
        return {**self.stored(), "label": self.label}


@dataclass(frozen=True)
class Summary:
    """What a version changed against the one before it."""

    #: Version 1: nothing before it.
    first: bool
    #: The knobs that changed; None when it could not be worked out.
    changes: tuple[Change, ...] | None

    def to_text(self) -> str:
        changes = None if self.changes is None else [c.stored() for c in self.changes]
        return json.dumps({"first": self.first, "changes": changes}, separators=(",", ":"))

    @classmethod
    def from_text(cls, text: str) -> Summary:
        """A stored summary (one this module did not write reads as not known)."""
        try:
            data = json.loads(text)
            changes = data["changes"]
            return cls(
                bool(data["first"]),
                None
                if changes is None
                else tuple(Change(str(c["knob"]), c["before"], c["after"]) for c in changes),
            )
        except (ValueError, KeyError, TypeError):
            return UNKNOWN


FIRST: Final = Summary(True, ())
UNKNOWN: Final = Summary(False, None)


def summarize(before: Ruleset, after: Ruleset) -> Summary:
    """The knobs ``after`` changed against ``before``."""
    return Summary(
        False,
        tuple(Change(c.knob.dotted, c.before.value, c.after.value) for c in diff(before, after)),
    )


#: The two tables as migration 0005 reads and writes them.
_versions = sa.table(
    "versions",
    sa.column("id"),
    sa.column("house_rule_id"),
    sa.column("number"),
    sa.column("yaml"),
    sa.column("summary"),
)
_house_rules = sa.table("house_rules", sa.column("id"), sa.column("slug"))


def _parsed(text: str, slug: str, number: int) -> Ruleset | None:
    """Stored text read as the site reads it (``extends`` names a shipped ruleset)."""
    try:
        return load_ruleset_text(text, f"h/{slug}/v{number}", shipped_only=True)
    except (RulesetError, ValueError):  # stored before a check that refuses it now
        return None


def fill_summaries(connection: Connection) -> None:
    """Migration 0005: the summary of every version saved before the column existed.

    Versions are read in batches in number order per house rule, so the version
    before is usually the one just parsed; memory holds one batch and two parses."""
    after = (0, 0)
    held: tuple[int, int, Ruleset | None] | None = None  # house rule, number, parsed
    while True:
        batch = connection.execute(
            sa.select(
                _versions.c.id,
                _versions.c.house_rule_id,
                _versions.c.number,
                _versions.c.yaml,
                _house_rules.c.slug,
            )
            .join(_house_rules, _house_rules.c.id == _versions.c.house_rule_id)
            .where(
                _versions.c.summary.is_(None),
                sa.tuple_(_versions.c.house_rule_id, _versions.c.number) > sa.tuple_(*after),
            )
            .order_by(_versions.c.house_rule_id, _versions.c.number)
            .limit(_BATCH)
        ).all()
        if not batch:
            return
        for row in batch:
            parsed = _parsed(row.yaml, row.slug, row.number)
            summary = FIRST
            if row.number > 1:
                summary = _either(_before(connection, held, row), parsed)
            connection.execute(
                sa.update(_versions)
                .where(_versions.c.id == row.id)
                .values(summary=summary.to_text())
            )
            held = (row.house_rule_id, row.number, parsed)
            after = (row.house_rule_id, row.number)


def _before(
    connection: Connection, held: tuple[int, int, Ruleset | None] | None, row: Any
) -> Ruleset | None:
    """The version before ``row``, parsed: the one just held, or read again."""
    if held is not None and held[:2] == (row.house_rule_id, row.number - 1):
        return held[2]
    return _read_parsed(connection, row.house_rule_id, row.slug, row.number - 1)


def _either(before: Ruleset | None, after: Ruleset | None) -> Summary:
    """The summary of ``after`` against ``before``; not known when either is unreadable."""
    return UNKNOWN if before is None or after is None else summarize(before, after)


def _read_parsed(connection: Connection, rule_id: int, slug: str, number: int) -> Ruleset | None:
    text = connection.execute(
        sa.select(_versions.c.yaml).where(
            _versions.c.house_rule_id == rule_id, _versions.c.number == number
        )
    ).scalar_one_or_none()
    return None if text is None else _parsed(text, slug, number)
