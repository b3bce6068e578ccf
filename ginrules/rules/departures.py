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
    """A knob whose value departs, as data: the words are made in
    :mod:`ginrules.words.departures`."""

    knob: ruleset_schema.Knob
    value: object
    #: The source that calls this value wrong, when one does.
    flagged: ruleset_schema.FlaggedValue | None
    #: Otherwise the value the published sources play (the first listed), and who plays it.
    usual: ruleset_schema.PublishedValue | None

    @property
    def sources(self) -> tuple[str, ...]:
        """The published sources that say otherwise."""
        if self.flagged is not None:
            return (self.flagged.source,)
        return () if self.usual is None else self.usual.sources


def departures(rules: RuleView) -> Iterator[Departure]:
    """Each knob whose value no published source plays, or one calls wrong."""
    for knob in ruleset_schema.knobs():
        value = rules[knob.dotted]
        if value is None or not knob.published:
            continue
        flagged = knob.flag_for(value)
        if flagged is not None:
            yield Departure(knob, value, flagged, None)
            continue
        if knob.sources_for(value):
            continue
        yield Departure(knob, value, None, knob.published[0])
