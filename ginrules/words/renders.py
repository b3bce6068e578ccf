"""What the site says when a printable PDF cannot be made right now, and what it logs."""

from __future__ import annotations

from ginrules.words.i18n import _, ngettext


def busy(seconds: int) -> str:
    """Every render slot and queue place of this server is taken (a 503)."""
    return ngettext(
        "Many printable PDFs are being made just now, so this one has not been started. "
        "Try again in {seconds} second; the web page and the printable sheet of these "
        "rules work meanwhile.",
        "Many printable PDFs are being made just now, so this one has not been started. "
        "Try again in {seconds} seconds; the web page and the printable sheet of these "
        "rules work meanwhile.",
        seconds,
    ).format(seconds=seconds)


def still_rendering(seconds: int) -> str:
    """The render goes on after the request gave up waiting for it (a 503)."""
    return ngettext(
        "This PDF is still being made. Reload in {seconds} second and it will be ready.",
        "This PDF is still being made. Reload in {seconds} seconds and it will be ready.",
        seconds,
    ).format(seconds=seconds)


def pool_broke(error: str) -> str:
    """For the operator's log: a render process died (killed, out of memory)."""
    return _("a PDF render process stopped unexpectedly ({error}); starting new ones").format(
        error=error
    )


def cache_unwritable(folder: str, error: str) -> str:
    """For the operator's log: rendered PDFs cannot be kept on disk."""
    return _("cannot keep rendered PDFs in {folder}: {error}").format(folder=folder, error=error)
