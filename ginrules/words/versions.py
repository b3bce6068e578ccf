"""The versions history's words: the cap on versions, bad paging values, and what the
API's description says of its pages (for programmers, kept here with the rest)."""

from __future__ import annotations

from ginrules.words.i18n import _, format_number


def too_many_versions(limit: int) -> str:
    """Why a save past ``MAX_VERSIONS`` is refused, and what to do instead."""
    return _(
        "these house rules have {limit} versions, the most one house rule may keep;"
        " fork them (Fork on the latest version, or forked_from in the API) and keep"
        " changing the new house rules"
    ).format(limit=format_number(limit))


def bad_page(last: int) -> str:
    """A versions page that is not a whole number from 1 to the last page."""
    return _("page must be a whole number from 1 to {last}").format(last=last)


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
