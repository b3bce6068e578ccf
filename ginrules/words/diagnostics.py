"""A ruleset's diagnostics as people read them.

Diagnostics from the rules layer carry their message, except those worded
here (a departure or a refused character carries its data): every display of a diagnostic, the
command line's and the web site's, goes through :func:`message`.
"""

from __future__ import annotations

from ginrules.rules.departures import Departure
from ginrules.rules.diagnostics import Diagnostic
from ginrules.rules.text import RefusedCharacter
from ginrules.words.characters import diagnostic_text
from ginrules.words.departures import warning_text


def message(diagnostic: Diagnostic) -> str:
    """What the diagnostic says."""
    if isinstance(diagnostic.departure, Departure):
        return warning_text(diagnostic.departure)
    if isinstance(diagnostic.departure, RefusedCharacter):
        return diagnostic_text(diagnostic, diagnostic.departure)
    return diagnostic.message


def line(diagnostic: Diagnostic) -> str:
    """The compiler-style line: ``file:line:col: warning: message (at $.path)``."""
    return diagnostic.format(message(diagnostic))


def to_json(diagnostic: Diagnostic) -> dict[str, object]:
    return diagnostic.to_json(message(diagnostic))
