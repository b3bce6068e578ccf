"""A ruleset's diagnostics as people read them, in the current language.

Every diagnostic of the rules layer says what it is as data: a problem (its
message, what was expected and a hint, each a code and its parameters, worded in
:mod:`ginrules.words.rule_problems`), a departure or a refused character. Every
display of a diagnostic, the command line's, the web site's and the API's, goes
through :func:`message`, :func:`expected` and :func:`hint`, or :func:`line`,
:func:`to_json` and :func:`worded`. A diagnostic made above the rules layer
(the site's own checks) is already worded and says what its message says.
"""

from __future__ import annotations

from dataclasses import replace

from ginrules.rules.departures import Departure
from ginrules.rules.diagnostics import Diagnostic
from ginrules.rules.text import RefusedCharacter
from ginrules.words.characters import diagnostic_text
from ginrules.words.departures import warning_text
from ginrules.words.rule_problems import READER, text


def message(diagnostic: Diagnostic) -> str:
    """What the diagnostic says."""
    if diagnostic.problem is not None:
        return text(diagnostic.problem.message)
    if isinstance(diagnostic.departure, Departure):
        return warning_text(diagnostic.departure)
    if isinstance(diagnostic.departure, RefusedCharacter):
        return diagnostic_text(diagnostic, diagnostic.departure)
    return diagnostic.message


def expected(diagnostic: Diagnostic) -> str | None:
    """What was expected instead, if the diagnostic says."""
    if diagnostic.problem is None:
        return diagnostic.expected
    wanted = diagnostic.problem.expected
    return None if wanted is None else text(wanted)


def hint(diagnostic: Diagnostic) -> str | None:
    """What was probably meant (``did you mean 'gin_bonus'?``), if anything."""
    if diagnostic.problem is None:
        return diagnostic.hint
    meant = diagnostic.problem.hint
    return None if meant is None else text(meant)


def line(diagnostic: Diagnostic) -> str:
    """The compiler-style line: ``file:line:col: error: message (at $.path; expected
    ...); hint``."""
    return worded(diagnostic).format(READER)


def to_json(diagnostic: Diagnostic) -> dict[str, object]:
    """The diagnostic as the API and ``ginrules validate --json`` give it."""
    return {
        **diagnostic.to_json(),
        "message": message(diagnostic),
        "expected": expected(diagnostic),
        "hint": hint(diagnostic),
    }


def worded(diagnostic: Diagnostic) -> Diagnostic:
    """The diagnostic with its message, expected and hint in the current language,
    for a page that shows them as they are."""
    return replace(
        diagnostic,
        message=message(diagnostic),
        expected=expected(diagnostic),
        hint=hint(diagnostic),
    )
