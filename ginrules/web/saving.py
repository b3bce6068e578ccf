"""Saving house rules, for the HTML pages and the JSON API alike.

Validate a submitted ruleset, save it as a new house rule (with its fork
origin and a fresh edit secret) or as a new version of one, and check an
edit secret. A failed save changes nothing; the callers turn the results
into a page or a JSON answer.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum

from ginrules.rules.compile import compile_ruleset
from ginrules.rules.diagnostics import Diagnostic, RulesetError
from ginrules.rules.load import Ruleset
from ginrules.web import authorship, forms, refs, version_history, version_pages
from ginrules.web.storage import (
    FORM_TOKEN_PATTERN,
    KEEP,
    Draft,
    Store,
    Unchanged,
    Version,
    hash_secret,
    new_secret,
    secret_matches,
)
from ginrules.web.tables import UNLISTED, VISIBILITIES
from ginrules.words.diagnostics import worded
from ginrules.words.i18n import LANGUAGES, _

#: The file name that diagnostics of submitted text carry.
SUBMITTED: str = "your rules"


def submitted_yaml(form: Mapping[str, str]) -> str:
    """The YAML of a form post with its line endings as typed: a browser sends a
    textarea's lines joined by CRLF, which the saved file should not keep."""
    return form.get("yaml", "").replace("\r\n", "\n")


def read_yaml(text: str) -> tuple[Ruleset | None, list[Diagnostic], str]:
    """Validate submitted text: (ruleset or None, diagnostics, base name).

    Besides the loader's checks, the rules must extend a shipped ruleset and say
    their own name, author and description (:mod:`ginrules.web.authorship`). Each
    error's message is worded, for the pages that show ``message`` as it is.
    """
    try:
        ruleset = refs.parse_saved_text(text, SUBMITTED)
    except RulesetError as error:
        return None, [_worded(d) for d in error.diagnostics], ""
    problems = authorship.problems(ruleset, SUBMITTED)
    if len(ruleset.chain) < 2:  # extends nothing
        problem = Diagnostic(
            "error",
            SUBMITTED,
            _("say which ruleset yours starts from, e.g. extends: classic"),
            1,
            1,
            ("extends",),
        )
        problems.insert(0, problem)
    if problems:
        return None, problems, ""
    return ruleset, list(ruleset.warnings), forms.base_of(ruleset)


def _worded(diagnostic: Diagnostic) -> Diagnostic:
    """An error with its words (message, expected, hint) in the reader's language."""
    return worded(diagnostic) if diagnostic.severity == "error" else diagnostic


def draft(ruleset: Ruleset, text: str, base: str) -> Draft:
    """What is stored of a valid ruleset: its text, words, base and fingerprint."""
    doc = ruleset.document
    return Draft(
        name=str(doc.get("name") or ""),
        author=str(doc.get("author") or ""),
        description=str(doc.get("description") or ""),
        yaml=text,
        base=base,
        fingerprint=compile_ruleset(ruleset).fingerprint,
    )


def fork_origin(store: Store, forked_from: str) -> tuple[str, int] | None:
    """The saved version a new house rule was forked from (None when it names none)."""
    loaded = refs.resolve(store, forked_from) if forked_from else None
    if loaded is None or loaded.version is None:
        return None
    return loaded.version.slug, loaded.version.number


@dataclass(frozen=True)
class Saved:
    version: Version
    #: The edit secret, shown once (only its hash is stored).
    secret: str


def save_new(
    store: Store,
    ruleset: Ruleset,
    text: str,
    base: str,
    origin: tuple[str, int] | None,
    *,
    visibility: str = UNLISTED,
    form_token: str | None = None,
    language: str | None = None,
) -> Saved:
    """Save a new house rule, version 1, with a fresh edit secret and its table
    ``language`` (None: each reader's own; never part of the rules or their fingerprint).

    A ``form_token`` used before saves nothing: ``storage.AlreadySaved``."""
    secret = new_secret()
    version = store.create(
        draft(ruleset, text, base),
        hash_secret(secret),
        origin,
        visibility=visibility,
        form_token=form_token,
        summary=version_history.FIRST.to_text(),
        language=language,
    )
    return Saved(version, secret)


def save_version(
    store: Store,
    slug: str,
    ruleset: Ruleset,
    text: str,
    base: str,
    *,
    visibility: str | None = None,
    form_token: str | None = None,
    language: str | Unchanged | None = KEEP,
) -> Version:
    """Save the next version of a house rule (the caller checked the edit secret),
    with what it changed against the latest (parsed once: the parse is kept).
    ``visibility`` None and ``language`` KEEP keep the house rule's."""
    summary = version_pages.summary_after(refs.saved(store, slug), ruleset)
    return store.add_version(
        slug,
        draft(ruleset, text, base),
        visibility=visibility,
        form_token=form_token,
        summary=summary,
        language=language,
    )


@dataclass(frozen=True)
class SaveOptions:
    """A form's save options: its one-time token, the visibility and the table
    language chosen."""

    #: None when the form sent none (or not one this site makes): no check of repeats.
    form_token: str | None
    #: None when the form sent a value that is neither choice.
    visibility: str | None
    #: What the form sent, to show it again.
    sent: str
    #: The table language chosen, ``""`` for each reader's own; None when the form
    #: sent a value that is none of the choices.
    language: str | None = ""
    #: What the form sent as the language, to show it again.
    language_sent: str = ""

    @property
    def shown(self) -> str:
        return self.visibility or self.sent

    @property
    def ok(self) -> bool:
        """Every option is one of its choices."""
        return self.visibility is not None and self.language is not None

    @property
    def table_language(self) -> str | None:
        """The language to store: None (NULL) for each reader's own."""
        return self.language or None


def save_options(
    form: Mapping[str, str], default: str = UNLISTED, language: str | None = None
) -> SaveOptions:
    """Read ``form_token``, ``visibility`` and ``language`` from a posted form; what it
    leaves out is the ``default`` visibility and the table ``language`` given (an edit:
    the house rule's own)."""
    token = str(form.get("form_token", ""))
    sent = str(form.get("visibility", default))
    chosen = str(form.get("language", language or ""))
    return SaveOptions(
        token if re.fullmatch(FORM_TOKEN_PATTERN, token) else None,
        sent if sent in VISIBILITIES else None,
        sent,
        chosen if chosen == "" or chosen in LANGUAGES else None,
        chosen,
    )


def saved_before(store: Store, options: SaveOptions) -> tuple[str, int] | None:
    """What an earlier post of the same form saved (Back, then Save again), if any."""
    return store.saved_by_token(options.form_token) if options.form_token else None


class EditRefused(StrEnum):
    """Why an edit secret does not open a house rule."""

    NO_SUCH_RULES = "no_such_rules"
    NO_SECRET = "no_secret"
    WRONG_SECRET = "wrong_secret"


def check_edit_secret(store: Store, slug: str, secret: str) -> EditRefused | None:
    """None when ``secret`` edits the house rule ``slug``; else why not."""
    stored = store.edit_hash(slug)
    if stored is None:
        return EditRefused.NO_SUCH_RULES
    if not secret:
        return EditRefused.NO_SECRET
    if not secret_matches(secret, stored):
        return EditRefused.WRONG_SECRET
    return None
