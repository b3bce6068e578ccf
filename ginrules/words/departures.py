"""A departure from the published rules, in words: the one place it is worded.

Three tellings of one :class:`~ginrules.rules.departures.Departure`:

- :func:`warning_text`, the warning ``ginrules validate`` and the API give;
- :func:`form_text`, the builder's short line (``Undercut on tie: no (BC, PG play yes)``);
- :func:`footnote_text`, the rule sheet's note comparing a value with classic's.
"""

from __future__ import annotations

from ginrules import schema as ruleset_schema
from ginrules.rules.departures import Departure
from ginrules.words.i18n import _, format_list
from ginrules.words.values import value_words


def _codes(sources: tuple[str, ...]) -> str:
    """Source codes as the warning lists them: ``BC, PG, HR``."""
    return ", ".join(sources)


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
        sources=_codes(usual.sources),
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
            sources=_codes(departure.usual.sources),
            usual=value_words(departure.usual.value),
        )
    return _("{knob}: {value}. {warning}").format(
        knob=knob.label, value=value, warning=warning_text(departure)
    )


def footnote_text(
    mine: object, classic: object, ours: tuple[str, ...], theirs: tuple[str, ...]
) -> str:
    """The sheet's note on a value that differs from classic: who plays each."""
    if ours and theirs:
        text = _("{value} is played by {sources}; {classic} (classic) by {classic_sources}.")
    elif ours:
        text = _("{value} is played by {sources}; classic plays {classic}.")
    elif theirs:
        text = _("No published source plays {value}; {classic} (classic) by {classic_sources}.")
    else:
        text = _("No published source plays {value}; classic plays {classic}.")
    return sentence_start(
        text.format(
            value=value_words(mine),
            sources=format_list(ours),
            classic=value_words(classic),
            classic_sources=format_list(theirs),
        )
    )


def house_rule_mark(classic: str) -> str:
    """The sheet's boxed mark beside a value that departs: ``house rule, classic 25``."""
    return _("house rule, classic {classic}").format(classic=classic)
