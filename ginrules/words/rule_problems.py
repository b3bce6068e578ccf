"""What is wrong with a ruleset, in the reader's language.

The rules layer says what each problem is as data (a
:class:`~ginrules.rules.diagnostics.Phrase`: a code and its parameters) and writes
each code's words once, in English, as gettext messages
(:data:`~ginrules.rules.phrases.PATTERNS`). Here they are said through the
current language's catalogue: the same patterns, the same composition, with
gettext's functions passed in. The parameters are data as written in YAML: keys,
values, paths and tags are never translated.

PyYAML's and jsonschema's own words (a parse error's problem and context, a
schema keyword ginrules does not use) are passed on as they are, in English.
"""

from __future__ import annotations

from typing import Final

from ginrules.rules.phrases import Phrase, Wording, say
from ginrules.words.i18n import gettext, ngettext, pgettext

#: The current language's catalogue, looked up at each call.
READER: Final = Wording(gettext=gettext, ngettext=ngettext, pgettext=pgettext)


def text(phrase: Phrase) -> str:
    """What ``phrase`` says, in the current language."""
    return say(phrase, READER)
