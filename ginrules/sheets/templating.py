"""The one Jinja set-up for rule sheets, score pads and the web site.

Every template environment of ginrules comes from :func:`configure`: the same
loader for the sheet templates (the site adds its own in front), autoescaping,
whitespace control, the ``words`` filter, and ``jinja2.ext.i18n`` with the
translation functions of :mod:`ginrules.words.i18n`, so ``{% trans %}`` and
``_()`` in any template speak the current language.
"""

from __future__ import annotations

from functools import cache
from typing import Final, TypeVar

import jinja2

from ginrules.rules import locate
from ginrules.words import i18n
from ginrules.words.values import value_words

EXTENSIONS: Final = ("jinja2.ext.do", "jinja2.ext.i18n")

Env = TypeVar("Env", bound=jinja2.Environment)


def sheet_loader() -> jinja2.BaseLoader:
    """The sheet and score pad templates (``templates/`` at the top of the repository)."""
    return jinja2.FileSystemLoader(locate.templates_dir())


def configure(env: Env) -> Env:
    """Give ``env`` the shared settings, filters and translation functions."""
    env.autoescape = jinja2.select_autoescape(["html"])
    env.trim_blocks = True
    env.lstrip_blocks = True
    for extension in EXTENSIONS:
        env.add_extension(extension)
    env.filters["words"] = value_words
    # {% trans %} blocks are one line of words however the template wraps them,
    # as babel.cfg extracts them (trimmed = true).
    env.policies["ext.i18n.trimmed"] = True
    env.install_gettext_callables(  # type: ignore[attr-defined]
        i18n.gettext,
        i18n.ngettext,
        newstyle=True,
        pgettext=i18n.pgettext,
        npgettext=i18n.npgettext,
    )
    return env


@cache
def sheet_environment() -> jinja2.Environment:
    """The environment the sheets and score pads render in (strict: a missing value fails)."""
    return configure(jinja2.Environment(loader=sheet_loader(), undefined=jinja2.StrictUndefined))
