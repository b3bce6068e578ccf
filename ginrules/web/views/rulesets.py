"""The home page, and the page of a shipped ruleset or a saved version.

Both are kept (:func:`ginrules.web.responses.cached`) per language: the key names the
language each was rendered in. The blueprint also gives every page of the site the
filters that word what a page shows of a ruleset: ``ruleset_text`` (a shipped
ruleset's name, description or notes in the reader's language; a table's own words
as written), ``saved_on`` and ``saved_at`` (when a version was saved, as the
language writes dates).
"""

from __future__ import annotations

from typing import Final

from flask import Blueprint, Response, current_app, render_template
from markupsafe import Markup

from ginrules.rules import locate
from ginrules.sheets.marks import knob_label
from ginrules.sheets.render import SheetOptions, sheet_html, sheet_origins
from ginrules.sheets.shipped import ruleset_text
from ginrules.web import forms, refs
from ginrules.web.responses import RELEASE, REVALIDATE, cached
from ginrules.web.storage import get_store
from ginrules.web.urls import links
from ginrules.web.views import changes_between, found_or_404
from ginrules.words.i18n import current_locale
from ginrules.words.versions import saved_at, saved_on

blueprint = Blueprint("rulesets", __name__)
blueprint.add_app_template_filter(ruleset_text, "ruleset_text")
blueprint.add_app_template_filter(saved_on, "saved_on")
blueprint.add_app_template_filter(saved_at, "saved_at")

#: The shipped base rulesets shown first on the home page.
BASES: Final = ("classic", "oklahoma", "hollywood", "partnership")


@blueprint.get("/")
def home() -> Response:
    """Rendered again only when something was saved (one small query a request)."""

    def make() -> tuple[str, str]:
        bases = [refs.shipped(name) for name in BASES]
        examples = [
            refs.shipped(entry.name) for entry in refs.shipped_names() if entry.kind == "houserules"
        ]
        page = render_template(
            "web/home.html",
            bases=[b for b in bases if b],
            examples=[e for e in examples if e],
            recent=get_store().recent(8),
        )
        return page, "text/html"

    change = get_store().last_change()
    return cached(f"home|{current_locale()}|{get_store().url}|{change}", make, REVALIDATE)


@blueprint.get("/rules/<name>")
def shipped_page(name: str) -> Response:
    loaded = found_or_404(refs.shipped(name))
    return _ruleset_page(loaded, RELEASE)


@blueprint.get("/h/<slug>")
def latest_page(slug: str) -> Response:
    loaded = found_or_404(refs.saved(get_store(), slug))
    return _ruleset_page(loaded, REVALIDATE)


@blueprint.get("/h/<slug>/v<int:number>")
def version_page(slug: str, number: int) -> Response:
    loaded = found_or_404(refs.saved(get_store(), slug, number))
    return _ruleset_page(loaded, REVALIDATE)


def _base_of(loaded: refs.Loaded) -> refs.Loaded | None:
    if loaded.version is not None:
        return refs.shipped(loaded.version.base) if loaded.version.base else None
    name = forms.base_of(loaded.ruleset)
    return refs.shipped(name or "classic") if loaded.ruleset.name != "classic" else None


def _published(loaded: refs.Loaded) -> bool:
    """A ruleset shipped in rulesets/ (not a house rule, shipped or saved)."""
    if loaded.version is not None:
        return False
    try:
        return locate.find_entry(loaded.ruleset.name).kind == "rulesets"
    except locate.UnknownRuleset:
        return False


def _sheet_words(loaded: refs.Loaded) -> Markup:
    """The rule sheet's own sentences (its body, rendered and cached as the sheet is)."""
    return Markup(sheet_html(loaded.ruleset, SheetOptions(fragment=True)))


def _ruleset_page(loaded: refs.Loaded, policy: str) -> Response:
    version = loaded.version
    latest = version.latest if version else None
    key = f"page|{current_locale()}|{loaded.ref}|{latest}|{current_app.config['PUBLIC_BASE_URL']}"

    def make() -> tuple[str, str]:
        base = _base_of(loaded)
        previous = None
        if version is not None and version.number > 1:
            previous = refs.saved(get_store(), version.slug, version.number - 1)
        forked = None
        if version is not None and version.forked_from:
            forked = refs.saved(get_store(), *version.forked_from)
        page = render_template(
            "web/ruleset.html",
            loaded=loaded,
            base=base,
            published=_published(loaded),
            sheet=_sheet_words(loaded),
            changes=changes_between(base, loaded),
            since_previous=changes_between(previous, loaded) if previous else None,
            forked=forked,
            warnings=loaded.ruleset.warnings,
            origins=sheet_origins(loaded.ruleset),
            links=links(loaded),
            knob_label=knob_label,
        )
        return page, "text/html"

    return cached(key, make, policy)
