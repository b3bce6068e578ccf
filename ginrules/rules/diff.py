"""Compare two rulesets knob by knob, and explain one knob by knob.

Both read the knob list from the schema, so a new knob shows up in ``diff``
and ``explain`` without touching this module.
"""

from __future__ import annotations

from dataclasses import dataclass

from ginrules import schema as ruleset_schema
from ginrules.rules.load import Origin, Ruleset


@dataclass(frozen=True)
class KnobValue:
    """One knob of one ruleset: its value, who set it, and who publishes it."""

    knob: ruleset_schema.Knob
    value: object
    origin: Origin

    @property
    def shown(self) -> str:
        return ruleset_schema.show_value(self.value)

    @property
    def sources(self) -> tuple[str, ...]:
        return self.knob.sources_for(self.value)

    def to_json(self) -> dict[str, object]:
        return {
            "knob": self.knob.dotted,
            "value": self.value,
            "set_by": self.origin.describe(),
            "file": self.origin.file,
            "line": self.origin.line,
            "sources": list(self.sources),
            "citations": [
                {"source": c.code, "quote": c.quote, "reading": c.reading.value}
                for c in self.knob.citations_for(self.value)
            ],
            "description": self.knob.description,
        }


@dataclass(frozen=True)
class KnobChange:
    """A knob whose value differs between two rulesets."""

    before: KnobValue
    after: KnobValue

    @property
    def knob(self) -> ruleset_schema.Knob:
        return self.before.knob

    def sentence(self, before_name: str, after_name: str) -> str:
        """In words: ``Gin bonus is 20 in traditional-20-10, 25 in classic.``"""
        return (
            f"{self.knob.label} is {self.after.shown} in {after_name}"
            f" ({self.after.origin.describe()}), {self.before.shown} in {before_name}"
            f" ({self.before.origin.describe()})."
        )

    def to_json(self) -> dict[str, object]:
        return {
            "knob": self.knob.dotted,
            "description": self.knob.description,
            "a": self.before.to_json(),
            "b": self.after.to_json(),
        }


def explain(ruleset: Ruleset) -> list[KnobValue]:
    """Every knob of a ruleset in schema order, with where its value came from."""
    return [
        KnobValue(knob, ruleset.value(knob.dotted), ruleset.origin(knob.dotted))
        for knob in ruleset_schema.knobs()
    ]


def diff(before: Ruleset, after: Ruleset) -> list[KnobChange]:
    """The knobs whose values differ, in schema order."""
    return [
        KnobChange(a, b)
        for a, b in zip(explain(before), explain(after), strict=True)
        if not ruleset_schema.same_value(a.value, b.value)
    ]
