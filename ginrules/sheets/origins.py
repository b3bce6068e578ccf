"""Where each rule of a sheet comes from: the sources quoted for every value.

The sheet's appendix lists, for every rule in play, the sources whose own
words give that value (codes in print; the quotes on the web page and in
``ginrules explain --quotes``), or says that no source text states it.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

from ginrules import schema as ruleset_schema
from ginrules.rules.load import Ruleset
from ginrules.sheets.marks import Marks, knob_label
from ginrules.words.departures import (
    citation_text,
    format_codes,
    origin_text,
    played_by,
    slip_text,
)
from ginrules.words.i18n import _
from ginrules.words.values import value_words


@dataclass(frozen=True)
class RuleOrigin:
    """One rule in play and who gives it."""

    label: str
    value: str
    #: The sources' own words for it (empty when no source text states it).
    citations: tuple[ruleset_schema.Citation, ...]
    #: Who plays it when no source text says it (software, house practice).
    origin: str | None
    #: The footnote number, when the value is marked.
    note: int | None = None
    #: Where a source words this rule otherwise by slip, quoted and noted.
    slips: tuple[str, ...] = ()

    @property
    def codes(self) -> str:
        """``BC, HR, PG (variation)``: each source once, saying how its words bear on it."""
        return format_codes(self.citations)

    @property
    def quotes(self) -> list[str]:
        return [citation_text(c) for c in self.citations]


@dataclass(frozen=True)
class Origins:
    """The appendix: every rule's origin, and the sources named on the sheet."""

    rows: tuple[RuleOrigin, ...]
    #: (code, title) of every source the rows or the sheet's notes name.
    sources: tuple[tuple[str, str], ...]


def rule_origins(
    ruleset: Ruleset,
    marks: Marks,
    printed: Collection[str] | None = None,
    asked: Collection[str] | None = None,
) -> Origins:
    """Every knob in play with a value the schema knows of (those the sheet ``asked``
    about, when given: a rule the sheet does not print, such as the two-player target
    of a partnership, has no origin to give), then the fixed rules (those ``printed``,
    when given); call it once the sheet's notes are made, so their sources are listed
    too."""
    rows = []
    for knob in ruleset_schema.knobs():
        value = ruleset.value(knob.dotted)
        if value is None or knob.dotted in marks.inert or not knob.published:
            continue
        if asked is not None and knob.dotted not in asked:
            continue
        entry = knob.entry_for(value)
        if entry is not None and entry.basis is ruleset_schema.Basis.PLAIN:
            continue  # the game without a variant: nothing to say
        citations = knob.citations_for(value)
        origin = None
        if entry is not None and entry.software and citations:
            origin = played_by(entry.software)
        elif not citations:
            origin = origin_text(entry)
        note = next((f.number for f in marks.footnotes if f.knob == knob.dotted), None)
        slips = tuple(slip_text(slip) for slip in knob.slips_for(value))
        rows.append(
            RuleOrigin(knob_label(knob), value_words(value), citations, origin, note, slips)
        )
    for rule in ruleset_schema.fixed_rules():
        if printed is not None and rule.id not in printed:
            continue
        slips = tuple(slip_text(slip) for slip in rule.slips)
        rows.append(RuleOrigin(_(rule.label), "", rule.citations, None, slips=slips))
    named = {c.code for row in rows for c in row.citations}
    named |= {code for code, _ in marks.sources()}
    named |= {code for k in ruleset_schema.knobs() for code in _software(ruleset, k)}
    catalog = ruleset_schema.source_catalog()
    sources = tuple((code, _(info.title)) for code, info in catalog.items() if code in named)
    return Origins(tuple(rows), sources)


def _software(ruleset: Ruleset, knob: ruleset_schema.Knob) -> tuple[str, ...]:
    entry = knob.entry_for(ruleset.value(knob.dotted))
    return () if entry is None else entry.software
