"""A departure from the published rules, in words: the one place it is worded.

Three tellings of one :class:`~ginrules.rules.departures.Departure`:

- :func:`warning_text`, the warning ``ginrules validate`` and the API give;
- :func:`form_text`, the builder's short line (``Undercut on tie: no (BC, PG play yes)``);
- :func:`footnote_lines`, the rule sheet's note quoting who plays each value.
"""

from __future__ import annotations

from ginrules import schema as ruleset_schema
from ginrules.rules.departures import Departure
from ginrules.words.i18n import SOURCE_LOCALE, _, current_locale, format_list, pgettext
from ginrules.words.values import sheet_label, value_words


def sentence_start(text: str) -> str:
    """The sentence with its first letter upper case (``low only`` -> ``Low only``)."""
    return text[:1].upper() + text[1:]


def translated_quote(quote: str) -> str | None:
    """A source's words in the current language, or None in English (and wherever no
    translation is known): the English original is always printed, the translation
    beside it."""
    if current_locale() == SOURCE_LOCALE:
        return None
    translation = _(quote)
    return None if translation == quote else translation


def citation_text(citation: ruleset_schema.Citation) -> str:
    """A source's own words: ``PG: "the same dealer deals again"``, saying when the
    words are a variation, or the passage that leaves the rule out; in another
    language, the translation beside the English words."""
    reading = ruleset_schema.Reading
    translation = translated_quote(citation.quote)
    if translation is not None:
        return _translated_citation(citation).format(
            source=citation.code, quote=citation.quote, translation=translation
        )
    if citation.reading is reading.VARIATION:
        text = _('{source}, as a variation: "{quote}"')
    elif citation.reading is reading.OMISSION:
        text = _('{source} has no such rule: "{quote}"')
    else:
        text = _('{source}: "{quote}"')
    return text.format(source=citation.code, quote=citation.quote)


def _translated_citation(citation: ruleset_schema.Citation) -> str:
    reading = ruleset_schema.Reading
    if citation.reading is reading.VARIATION:
        # Translators: {quote} is the source's English words, kept as they are;
        # {translation} is their translation: set it off in your language's quotation marks.
        return _('{source}, as a variation: "{quote}" ({translation})')
    if citation.reading is reading.OMISSION:
        # Translators: {quote} is the source's English words, kept as they are;
        # {translation} is their translation: set it off in your language's quotation marks.
        return _('{source} has no such rule: "{quote}" ({translation})')
    # Translators: {quote} is the source's English words, kept as they are;
    # {translation} is their translation: set it off in your language's quotation marks.
    return _('{source}: "{quote}" ({translation})')


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
    translation = translated_quote(slip.quote)
    if translation is None:
        text = _('{source} writes "{quote}": {says}')
    else:
        # Translators: {quote} is the source's English words, kept as they are;
        # {translation} is their translation: set it off in your language's quotation marks.
        text = _('{source} writes "{quote}" ({translation}): {says}')
    return text.format(
        source=slip.source, quote=slip.quote, translation=translation, says=_(slip.says)
    )


def flag_text(flagged: ruleset_schema.FlaggedValue) -> str:
    """What a source says against a value, with its own words: ``HR lists this ... (HR:
    "Aces can be high OR low, so Q-K-A is a valid run.")``."""
    translation = translated_quote(flagged.quote)
    if translation is None:
        text = _('{says} ({source}: "{quote}")')
    else:
        # Translators: {quote} is the source's English words, kept as they are;
        # {translation} is their translation: set it off in your language's quotation marks.
        text = _('{says} ({source}: "{quote}" ({translation}))')
    return text.format(
        says=_(flagged.says), source=flagged.source, quote=flagged.quote, translation=translation
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
        return flag_text(departure.flagged)
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
            knob=sheet_label(knob.dotted),
            value=value,
            sources=format_codes(departure.usual.citations),
            usual=value_words(departure.usual.value),
        )
    return _("{knob}: {value}. {warning}").format(
        knob=sheet_label(knob.dotted), value=value, warning=warning_text(departure)
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
    who = pgettext("between items of a list", "; ").join(parts)
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
