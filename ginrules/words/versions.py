"""The versions history's words: the cap on versions, bad paging values, when a
version was saved, and what the API's description says of its pages (for
programmers, kept here with the rest, in English like the rest of the OpenAPI
document)."""

from __future__ import annotations

from datetime import UTC, datetime

from babel.dates import format_date, format_time, get_datetime_format, get_time_format

from ginrules.words.i18n import _, babel_locale, format_number


def too_many_versions(limit: int) -> str:
    """Why a save past ``MAX_VERSIONS`` is refused, and what to do instead."""
    return _(
        "these house rules have {limit} versions, the most one house rule may keep;"
        " make new ones from them (Make your own from this on the latest version, or"
        " forked_from in the API) and keep"
        " changing the new house rules"
    ).format(limit=format_number(limit))


def bad_page(last: int) -> str:
    """A versions page that is not a whole number from 1 to the last page."""
    return _("page must be a whole number from 1 to {last}").format(last=last)


def version_label(number: int) -> str:
    """A version as a sheet's foot names it: ``version 3``."""
    return _("version {number}").format(number=number)


def saved_version(number: int) -> str:
    """Said once, after an edit saved a new version."""
    return _("Saved version {number}. The plain link now shows it.").format(number=number)


def _utc(when: datetime) -> datetime:
    """``when`` in UTC (a time stored without its zone is UTC already)."""
    return when.replace(tzinfo=UTC) if when.tzinfo is None else when.astimezone(UTC)


def saved_on(when: datetime) -> str:
    """The day a version was saved, as the language writes dates: ``25 Nov 2026``."""
    return format_date(_utc(when), "medium", locale=babel_locale())


def saved_at(when: datetime) -> str:
    """The day and time (UTC) a version was saved: ``25 Nov 2026, 14:03 UTC``."""
    locale = babel_locale()
    moment = _utc(when)
    time = format_time(
        moment, f"{get_time_format('short', locale).pattern} z", tzinfo=UTC, locale=locale
    )
    pattern = str(get_datetime_format("medium", locale=locale))
    return pattern.replace("{1}", format_date(moment, "medium", locale=locale)).replace("{0}", time)


#: The OpenAPI document's words for the paged versions list.
API_LIST: dict[str, str] = {
    "limit": "How many versions to answer (default 20, at most 100)",
    "before": (
        "Only versions numbered below this: the next page's cursor"
        " (default: from the latest version)"
    ),
    "next": "The next (older) page, or null after version 1",
    "changes": (
        "What the version changed against the one before it, knob by knob;"
        " null for version 1 (or when it could not be worked out)"
    ),
    "bad": "A bad limit or before (the field says which)",
}
