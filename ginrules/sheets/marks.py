"""House-rule marks: every knob whose value departs from classic, with sources.

The sheet prints a knob's value through :meth:`Marks.value`; when the value
departs from the classic ruleset, the value carries a *house rule* mark with
the classic value beside it and a footnote naming who plays which. Footnotes
are numbered in the order the sheet first shows them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from typing import Final

from ginrules import schema as ruleset_schema
from ginrules.rules.load import Ruleset, load_ruleset
from ginrules.words.departures import footnote_text
from ginrules.words.values import value_words

#: The ruleset every sheet is compared with.
REFERENCE: Final = "classic"


@cache
def _reference() -> Ruleset:
    return load_ruleset(REFERENCE)


@dataclass(frozen=True)
class Footnote:
    number: int
    knob: str
    label: str
    value: str
    classic: str
    #: "Played by ...", "No published source plays ...", with the source codes.
    text: str
    #: A source calls this value wrong (said politely on the sheet).
    flagged: str | None
    #: Every source code the note names.
    cites: tuple[str, ...]


@dataclass
class Marks:
    """The departures of one ruleset from classic, noted as the sheet uses them."""

    ruleset: Ruleset
    footnotes: list[Footnote] = field(default_factory=list)
    #: Knobs the sheet asked about (the template test checks every knob is).
    asked: set[str] = field(default_factory=set)

    def departs(self, dotted: str) -> bool:
        if self.ruleset.name == REFERENCE:
            return False
        mine = self.ruleset.value(dotted)
        theirs = _reference().value(dotted)
        return not ruleset_schema.same_value(mine, theirs)

    def departures(self) -> list[str]:
        """Every knob that departs from classic, in schema order."""
        return [k.dotted for k in ruleset_schema.knobs() if self.departs(k.dotted)]

    def note(self, dotted: str) -> Footnote | None:
        """The knob's footnote (made on first use), or None when it is classic."""
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
        theirs = _reference().value(dotted)
        ours = knob.sources_for(mine)
        classic = knob.sources_for(theirs)
        said = footnote_text(mine, theirs, ours, classic)
        flag = knob.flag_for(mine)
        return Footnote(
            number,
            dotted,
            _label(knob),
            value_words(mine),
            value_words(theirs),
            said,
            None if flag is None else flag.says,
            (*ours, *classic, *(() if flag is None else (flag.source,))),
        )

    def sources(self) -> list[tuple[str, str]]:
        """The source codes the footnotes cite, with their titles."""
        catalog = ruleset_schema.source_catalog()
        cited = {code for footnote in self.footnotes for code in footnote.cites}
        return [(code, info.title) for code, info in catalog.items() if code in cited]


#: Knob names that need their section to make sense on their own.
_BARE: Final = frozenset({"enabled", "bonus", "type", "players", "games", "cards_left"})


def _label(knob: ruleset_schema.Knob) -> str:
    """``Gin bonus``; ``Big gin bonus`` where the name alone says too little."""
    if knob.name in _BARE:
        return f"{knob.section} {knob.name}".replace("_", " ").capitalize()
    return knob.label
