"""What ``ginrules simulate`` says about its worker processes and about being stopped early."""

from __future__ import annotations

from ginrules.words.i18n import _


def jobs_out_of_range(most: int) -> str:
    """The usage error for a ``--jobs`` the command cannot take."""
    return _("error: --jobs must be between 1 and {most}").format(most=most)


def interrupted(done: int, requested: int) -> str:
    """The line on standard error after Ctrl-C: how far the run got. The report that
    follows covers exactly the first ``done`` games, as ``--games done`` would."""
    if done == 0:
        return _("interrupted before the first of {requested} games finished").format(
            requested=requested
        )
    return _(
        "interrupted after {done} of {requested} games: the report covers the first {done}"
    ).format(done=done, requested=requested)
