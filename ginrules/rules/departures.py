"""Warnings for every departure from the published rules, naming the sources.

A knob's value departs when no source text is quoted for it (the schema's
``x-sources``) and it is not simply the game without an optional variant, or
when a source explicitly calls it wrong (``x-flagged``, e.g. HR's list of
wrong house rules). A value played by software or as house practice departs
too: the warning says who plays it. A knob no source text speaks to at all
(the spade-double scope) never departs. Departures are allowed: a table may
play what it likes, and the sheet says where it differs and who says otherwise.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from ginrules import schema as ruleset_schema
from ginrules.rules.checks import RuleView, inert_knobs


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
    #: What the schema knows of this value (software that plays it, house practice).
    entry: ruleset_schema.PublishedValue | None = None

    @property
    def sources(self) -> tuple[str, ...]:
        """The published sources that say otherwise."""
        if self.flagged is not None:
            return (self.flagged.source,)
        return () if self.usual is None else self.usual.sources


def departures(rules: RuleView) -> Iterator[Departure]:
    """Each knob whose value no source text plays, or one calls wrong."""
    inert = {knob for knob, _ in inert_knobs(rules)}
    for knob in ruleset_schema.knobs():
        value = rules[knob.dotted]
        if value is None or knob.dotted in inert:
            continue
        flagged = knob.flag_for(value)
        if flagged is not None:
            yield Departure(knob, value, flagged, None)
            continue
        entry = knob.entry_for(value)
        if entry is not None and (entry.citations or entry.basis is ruleset_schema.Basis.PLAIN):
            continue
        usual = next((p for p in knob.published if p.citations), None)
        if usual is None:
            continue
        yield Departure(knob, value, None, usual, entry)
