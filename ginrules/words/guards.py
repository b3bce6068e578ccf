"""What the site says when it refuses a request for where it came from."""

from __future__ import annotations

from ginrules.words.i18n import _


def cross_site() -> str:
    return _(
        "Nothing was changed: this request was sent from another web site, and only this"
        " site's own pages may change things here. Open the page on this site and try again."
    )


def no_origin() -> str:
    return _(
        "Nothing was changed: this request came from a page with no address of its own"
        " (Origin: null), and only this site's own pages may change things here."
    )
