"""Warnings for every departure from the published rules, naming the sources.

A knob's value departs when no published source uses it (the schema's
``x-sources``), or when a source explicitly calls it wrong (``x-flagged``,
e.g. HR's list of wrong house rules). Departures are allowed: a table may
play what it likes, and the sheet says where it differs and who says otherwise.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from ginrules import schema as ruleset_schema
from ginrules.rules.checks import RuleView


@dataclass(frozen=True)
class Departure:
    knob: ruleset_schema.Knob
    value: object
    message: str
    sources: tuple[str, ...]


def departures(rules: RuleView) -> Iterator[Departure]:
    """Each knob whose value no published source plays, or one calls wrong."""
    for knob in ruleset_schema.knobs():
        value = rules[knob.dotted]
        if value is None or not knob.published:
            continue
        flagged = knob.flag_for(value)
        if flagged is not None:
            yield Departure(knob, value, flagged.says, (flagged.source,))
            continue
        if knob.sources_for(value):
            continue
        usual = knob.published[0]
        shown = ruleset_schema.show_value(value)
        yield Departure(
            knob,
            value,
            f"{knob.dotted} {shown} departs from the published rules:"
            f" {', '.join(usual.sources)} play {ruleset_schema.show_value(usual.value)}",
            usual.sources,
        )
