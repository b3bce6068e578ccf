"""A rule sheet as plain text: what a reader sees, one rule per line.

Used by the sheet property test and the golden sheet texts
(``tests/sheets/<ruleset>.txt``, and ``tests/sheets/<lang>/<ruleset>.txt`` for
each translation): the sheet is rendered in the current language.
"""

from __future__ import annotations

import datetime as dt
import html
import re

from ginrules.rules.load import Ruleset
from ginrules.sheets.render import SheetOptions, sheet_html

#: Fixed options, so a golden text changes only when the words do.
OPTIONS = SheetOptions(url="http://127.0.0.1:5000/rules/x", date=dt.date(2026, 1, 1))


def sheet_lines(ruleset: Ruleset, *, notes: bool = True, rules_only: bool = False) -> list[str]:
    """The sheet's rules as lines: ``## heading`` and ``- rule``; note references
    are dropped (``[3]`` would make every golden text churn on renumbering) unless
    ``notes``; with ``rules_only``, the numbered rule sections alone."""
    page = sheet_html(ruleset, OPTIONS)
    body = page.split("<body", 1)[1].split(">", 1)[1]
    if rules_only:
        body = body.split('<section class="examples"', 1)[0]
    body = re.sub(r"<header.*?</header>", "", body, flags=re.S)
    body = re.sub(r"<footer.*?</footer>", "", body, flags=re.S)
    if notes:
        body = re.sub(r'<sup class="ref"[^>]*><a[^>]*>(\d+)</a></sup>', r"[\1]", body)
    else:
        body = re.sub(r'<sup class="ref".*?</sup>', "", body, flags=re.S)
    body = " ".join(body.split())
    body = re.sub(r"<t[dh][^>]*>", " | ", body)
    body = re.sub(r"<h[23][^>]*>", "\n## ", body)
    body = re.sub(r"<(li|p|tr|caption|span class=\"line\")[^>]*>", "\n- ", body)
    body = re.sub(r"<[^>]+>", "", body)
    lines = [" ".join(html.unescape(line).split()) for line in body.split("\n")]
    return [line for line in lines if line not in ("", "-", "##")]


def rules_text(ruleset: Ruleset) -> str:
    """The numbered rule sections only (no examples, notes or origins), as one text."""
    return "\n".join(sheet_lines(ruleset, notes=False, rules_only=True))
