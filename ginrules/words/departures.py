"""A departure from the published rules, in words: the one place it is worded.

Three tellings of one :class:`~ginrules.rules.departures.Departure`:

- :func:`warning_text`, the warning ``ginrules validate`` and the API give;
- :func:`form_text`, the builder's short line (``Undercut on tie: no (BC, PG play yes)``);
- :func:`footnote_lines`, the rule sheet's note quoting who plays each value.
"""

from __future__ import annotations

from ginrules import schema as ruleset_schema
from ginrules.rules.departures import Departure
from ginrules.words.i18n import _, format_list
from ginrules.words.values import value_words


def sentence_start(text: str) -> str:
    """The sentence with its first letter upper case (``low only`` -> ``Low only``)."""
    return text[:1].upper() + text[1:]


def citation_text(citation: ruleset_schema.Citation) -> str:
    """A source's own words: ``PG: "the same dealer deals again"``, saying when the
    words are a variation, or the passage that leaves the rule out."""
    reading = ruleset_schema.Reading
    if citation.reading is reading.VARIATION:
        text = _('{source}, as a variation: "{quote}"')
    elif citation.reading is reading.OMISSION:
        text = _('{source} has no such rule: "{quote}"')
    else:
        text = _('{source}: "{quote}"')
    return text.format(source=citation.code, quote=citation.quote)


def citation_code(citation: ruleset_schema.Citation) -> str:
    """The source's code as a list of sources shows it: ``PG``, ``PG (variation)``, or
    ``PG (leaves it out)`` when the source's main text has no such rule."""
    reading = ruleset_schema.Reading
    if citation.reading is reading.VARIATION:
        return _("{source} (variation)").format(source=citation.code)
    if citation.reading is reading.OMISSION:
        return _("{source} (leaves it out)").format(source=citation.code)
    return citation.code


def format_codes(citations: tuple[ruleset_schema.Citation, ...]) -> str:
    """Each source once, in order: ``BC, HR, PG (variation)``."""
    shown: dict[str, str] = {}
    for citation in citations:
        shown.setdefault(citation.code, citation_code(citation))
    return ", ".join(shown.values())


def slip_text(slip: ruleset_schema.Slip) -> str:
    """A source's slip, quoted and noted: ``CCJ: "the winner pays the loser ...": ...``."""
    return _('{source} writes "{quote}": {says}').format(
        source=slip.source, quote=slip.quote, says=slip.says
    )


def slip_note(slip: ruleset_schema.Slip) -> str:
    """``Please note: HR writes "...": ...``, beside the value the words are about."""
    return _("Please note: {slip}").format(slip=slip_text(slip))


def played_by(software: tuple[str, ...]) -> str:
    return _("played by {software}").format(software=format_list(software))


def origin_text(entry: ruleset_schema.PublishedValue | None) -> str:
    """Who plays a value no source text states: software, house practice, or nobody."""
    if entry is not None and entry.software:
        return _("played by {software}; no source text states it").format(
            software=format_list(entry.software)
        )
    if entry is not None and entry.basis is ruleset_schema.Basis.PLAIN:
        return _("the game without this variant")
    return _("house practice; no source text states it")


def warning_text(departure: Departure) -> str:
    """``play.knock_limit 0 departs from the published rules: BC, PG play 10 (house
    practice; ...)``, or the flagging source's own words, quoted."""
    if departure.flagged is not None:
        flagged = departure.flagged
        return _('{says} ({source}: "{quote}")').format(
            says=flagged.says, source=flagged.source, quote=flagged.quote
        )
    usual = departure.usual
    assert usual is not None
    return _(
        "{knob} {value} departs from the published rules: {sources} play {usual} ({origin})"
    ).format(
        knob=departure.knob.dotted,
        value=ruleset_schema.show_value(departure.value),
        sources=format_codes(usual.citations),
        usual=ruleset_schema.show_value(usual.value),
        origin=origin_text(departure.entry),
    )


def form_text(departure: Departure) -> str:
    """``Undercut on tie: no (BC, PG, HR, CCJ, TU play yes)``, for people."""
    knob = departure.knob
    value = value_words(departure.value)
    if departure.flagged is None and departure.usual is not None:
        return _("{knob}: {value} ({sources} play {usual})").format(
            knob=knob.label,
            value=value,
            sources=format_codes(departure.usual.citations),
            usual=value_words(departure.usual.value),
        )
    return _("{knob}: {value}. {warning}").format(
        knob=knob.label, value=value, warning=warning_text(departure)
    )


def who_plays(knob: ruleset_schema.Knob, value: object) -> str:
    """Who plays ``value``, in the sources' words: ``PG: "..."; CCJ: "..."``, plus the
    software that plays it, or that no source text states it."""
    if not knob.published:
        return _("a table's own choice; the sources say nothing of it")
    entry = knob.entry_for(value)
    parts = [citation_text(c) for c in knob.citations_for(value)]
    if entry is not None and entry.software:
        parts.append(played_by(entry.software))
    if not parts:
        parts.append(origin_text(entry))
    who = "; ".join(parts)
    slips = knob.slips_for(value)
    if slips:
        who = _("{who}. {notes}").format(who=who, notes=" ".join(slip_note(s) for s in slips))
    return who


def quote_lines(knob: ruleset_schema.Knob, value: object) -> list[str]:
    """Who plays ``value``, one source per line, in their own words (for ``--quotes``,
    the builder and the web page); empty for a knob no source speaks to."""
    if not knob.published:
        return []
    entry = knob.entry_for(value)
    lines = [citation_text(c) for c in knob.citations_for(value)]
    if entry is not None and entry.software:
        lines.append(played_by(entry.software))
    lines = lines or [origin_text(entry)]
    return lines + [slip_note(slip) for slip in knob.slips_for(value)]


def footnote_lines(knob: ruleset_schema.Knob, values: list[object]) -> list[str]:
    """The sheet's note on a marked value: one line per value named, with who plays it."""
    return [
        _("{value}: {who}").format(value=sentence_start(value_words(v)), who=who_plays(knob, v))
        for v in values
    ]


def legend_text(base: str | None) -> str:
    """The sheet's legend for marked values, naming what they are compared with."""
    if base is None:
        return _(
            "A boxed value with a note number departs from every published source;"
            " the notes at the end quote who plays which."
        )
    return _(
        "A boxed value with a note number differs from {base}, the rules these extend,"
        " or from every published source; the notes at the end quote who plays which."
    ).format(base=base)
