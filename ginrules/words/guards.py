"""What the site says when it refuses a request: for where it came from, and the
errors every page and the API share (a page that is not there, a form that expired,
something that went wrong on the site's side)."""

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


def refused(status: int) -> str | None:
    """The site's own words for an HTTP error status, or None where the error's own
    description says more (a 429 names the allowance that is used up)."""
    if status == 400:
        return _("The request could not be read.")
    if status == 404:
        return _("There is nothing here. Check the link, or start from the home page.")
    if status == 405:
        return _("That method is not allowed here.")
    if status == 413:
        return _("That is too large: a ruleset is at most 64 KiB, a request at most 128 KiB.")
    return None


def form_expired() -> str:
    return _(
        "This form has expired or did not come from this site; reload the page and"
        " save again (what you typed is kept when you go back)."
    )


def not_saved(reason: str) -> str:
    """A save the store refused (``reason`` is the store's own words)."""
    return _("Not saved: {reason}. Nothing was changed; what you sent is kept.").format(
        reason=reason
    )


def went_wrong() -> str:
    """An error with no words of its own."""
    return _("Something went wrong.")


def failed_here() -> str:
    """An unexpected error on the site's side (a 500)."""
    return _("Something went wrong on our side; nothing was saved.")
