"""House-rule marks: every knob whose value departs, with the sources' own words.

A value is marked when it differs from the ruleset's own base (the ruleset it
``extends``, for a house rule) or when no source text plays it (a departure
from the published rules, for any ruleset). A shipped format such as
Oklahoma is not a house rule of classic: its defining rules are published,
so only its departures from the sources are marked.

The sheet prints a knob's value through :meth:`Marks.note`; a marked value
carries a footnote number, and the footnote quotes who plays each value.
Footnotes are numbered in the order the sheet first shows them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

from ginrules import schema as ruleset_schema
from ginrules.rules.checks import inert_knobs
from ginrules.rules.departures import Departure
from ginrules.rules.load import Ruleset, load_ruleset
from ginrules.words.departures import flag_text, footnote_lines
from ginrules.words.i18n import _
from ginrules.words.values import sheet_label, value_words

#: Where the shipped formats live; they are compared with the sources only.
SHIPPED_FORMATS = "rulesets/"
_SHIPPED = ("rulesets/", "houserules/")


@dataclass(frozen=True)
class Footnote:
    number: int
    knob: str
    label: str
    value: str
    #: The base's value in words, when the base plays another value.
    base_value: str | None
    #: One line per value named: the value, then who plays it, quoted.
    lines: tuple[str, ...]
    #: A source calls this value wrong, in its words.
    flagged: str | None
    #: Every source code the note names.
    cites: tuple[str, ...]


def base_of(ruleset: Ruleset) -> Ruleset | None:
    """The ruleset a house rule extends; None for a shipped format or a file of its own."""
    if ruleset.source.startswith(SHIPPED_FORMATS) or len(ruleset.chain) < 2:
        return None
    base = ruleset.chain[1]
    if base.startswith(_SHIPPED):
        return load_ruleset(Path(base).stem)
    return load_ruleset(Path(base))


@dataclass
class Marks:
    """The marked values of one ruleset, noted as the sheet uses them."""

    ruleset: Ruleset
    footnotes: list[Footnote] = field(default_factory=list)
    #: Knobs the sheet asked about (the template test checks every knob is).
    asked: set[str] = field(default_factory=set)

    @cached_property
    def base(self) -> Ruleset | None:
        return base_of(self.ruleset)

    @cached_property
    def base_name(self) -> str | None:
        return None if self.base is None else self.base.name

    @cached_property
    def _departures(self) -> dict[str, Departure]:
        return {
            d.departure.knob.dotted: d.departure
            for d in self.ruleset.warnings
            if isinstance(d.departure, Departure)
        }

    @cached_property
    def inert(self) -> frozenset[str]:
        """Knobs that change nothing under these rules: never marked."""
        return frozenset(knob for knob, _ in inert_knobs(self.ruleset.view()))

    def _differs_from_base(self, dotted: str) -> bool:
        if self.base is None:
            return False
        return not ruleset_schema.same_value(self.ruleset.value(dotted), self.base.value(dotted))

    def departs(self, dotted: str) -> bool:
        if dotted in self.inert:
            return False
        return dotted in self._departures or self._differs_from_base(dotted)

    def departures(self) -> list[str]:
        """Every marked knob, in schema order."""
        return [k.dotted for k in ruleset_schema.knobs() if self.departs(k.dotted)]

    def note(self, dotted: str) -> Footnote | None:
        """The knob's footnote (made on first use), or None when it is not marked."""
        self.asked.add(dotted)
        if not self.departs(dotted):
            return None
        for footnote in self.footnotes:
            if footnote.knob == dotted:
                return footnote
        footnote = self._footnote(dotted, len(self.footnotes) + 1)
        self.footnotes.append(footnote)
        return footnote

    def _footnote(self, dotted: str, number: int) -> Footnote:
        knob = ruleset_schema.knob(dotted)
        mine = self.ruleset.value(dotted)
        named = [mine]
        base_value = None
        if self._differs_from_base(dotted):
            assert self.base is not None
            base_value = self.base.value(dotted)
            named.append(base_value)
        departure = self._departures.get(dotted)
        usual = None if departure is None else departure.usual
        if usual is not None and not any(ruleset_schema.same_value(usual.value, v) for v in named):
            named.append(usual.value)
        flag = knob.flag_for(mine)
        cites = [c.code for value in named for c in knob.citations_for(value)]
        cites += [code for value in named for code in _software(knob, value)]
        if flag is not None:
            cites.append(flag.source)
        return Footnote(
            number,
            dotted,
            knob_label(knob),
            value_words(mine),
            None if base_value is None else value_words(base_value),
            tuple(footnote_lines(knob, named)),
            None if flag is None else flag_text(flag),
            tuple(dict.fromkeys(cites)),
        )

    def sources(self) -> list[tuple[str, str]]:
        """The source codes the footnotes cite, with their titles."""
        catalog = ruleset_schema.source_catalog()
        cited = {code for footnote in self.footnotes for code in footnote.cites}
        return [(code, _(info.title)) for code, info in catalog.items() if code in cited]


def _software(knob: ruleset_schema.Knob, value: object) -> tuple[str, ...]:
    entry = knob.entry_for(value)
    return () if entry is None else entry.software


def knob_label(knob: ruleset_schema.Knob) -> str:
    """``Gin bonus``; ``Big gin bonus`` where the name alone says too little."""
    return sheet_label(knob.dotted)
