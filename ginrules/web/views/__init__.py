"""The site's pages and API, one blueprint per area.

- :mod:`.rulesets`: the home page and the page of a ruleset or saved version;
- :mod:`.prints`: sheets, score pads, PDFs, QR codes, YAML and JSON downloads;
- :mod:`.builder`: the builder, the YAML editor, the live differences;
- :mod:`.houserules`: share, versions, fork and edit of a saved house rule;
- :mod:`.api`: the JSON API.

Helpers every area shares live here.
"""

from __future__ import annotations

from flask import abort

from ginrules.rules.diff import KnobChange, diff
from ginrules.web import refs


def found_or_404(loaded: refs.Loaded | None) -> refs.Loaded:
    """The ruleset asked for, or a 404 page (or JSON answer, under /api)."""
    if loaded is None:
        abort(404)
    return loaded


def changes_between(before: refs.Loaded | None, after: refs.Loaded) -> list[KnobChange]:
    """The knobs that differ (none when there is nothing before)."""
    return [] if before is None else diff(before.ruleset, after.ruleset)
