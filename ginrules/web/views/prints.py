"""What a ruleset prints and downloads: sheets, score pads, PDFs, QR codes, YAML, JSON.

Saved versions never change, so their resources are immutable and, after the
first, served without a database read. PDFs are made by the render pool and kept
on disk (:mod:`ginrules.web.pdf_renders`), never rendered in a request.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import lru_cache
from typing import Final

from flask import Blueprint, Response, abort, current_app, redirect, request, url_for
from werkzeug.wrappers import Response as BaseResponse

from ginrules import schema as ruleset_schema
from ginrules.rules.load import Ruleset
from ginrules.sheets.qr import qr_png, qr_svg
from ginrules.sheets.render import Document, SheetOptions, scorepad_html, sheet_html
from ginrules.web import pdf_renders, refs
from ginrules.web.locales import asked, deliberate
from ginrules.web.responses import IMMUTABLE, RELEASE, cached
from ginrules.web.security import problem
from ginrules.web.storage import get_store
from ginrules.web.urls import absolute, compiled_json, in_language
from ginrules.web.views import found_or_404
from ginrules.words.i18n import current_locale
from ginrules.words.versions import version_label

blueprint = Blueprint("prints", __name__)


def _paper() -> tuple[str, bool]:
    """The print options of a sheet request (404 for a paper we do not print)."""
    paper = request.args.get("paper", "a4")
    if paper not in ("a4", "letter"):
        abort(404)
    return paper, request.args.get("large", "") in ("1", "true", "yes")


def _options(loaded: refs.Loaded, paper: str, large: bool) -> SheetOptions:
    version = loaded.version
    return SheetOptions(
        paper=paper,  # type: ignore[arg-type]
        large_print=large,
        # A sheet asked for in a language (a link's ?lang=, a table language) opens
        # its online copy in that language; one that followed the reader does not.
        url=absolute(in_language(loaded.path, deliberate())),
        version=version_label(version.number) if version else None,
        date=version.created_at.date() if version else None,
    )


_PAGES: Final[dict[str, Callable[[Ruleset, SheetOptions], str]]] = {
    "sheet": sheet_html,
    "scorepad": scorepad_html,
}
_PDFS: Final[dict[str, Document]] = {"sheet.pdf": "sheet", "scorepad.pdf": "scorepad"}


def _resource(
    ref: str, load: Callable[[], refs.Loaded], kind: str, policy: str, identity: str
) -> Response:
    """A sheet or score pad; ``identity`` names its content (a fingerprint, or a
    version that never changes), so a repeat needs no database read at all."""
    paper, large = _paper()
    base_url = current_app.config["PUBLIC_BASE_URL"]
    chosen = deliberate() or ""
    key = f"{kind}|{current_locale()}|{chosen}|{ref}|{identity}|{paper}|{large}|{base_url}"
    if kind in _PDFS:
        return _pdf(ref, key, load, _PDFS[kind], (paper, large), policy)
    page = _PAGES[kind]

    def make() -> tuple[str, str]:
        loaded = load()
        return page(loaded.ruleset, _options(loaded, paper, large)), "text/html"

    return cached(key, make, policy)


def _pdf(
    ref: str,
    key: str,
    load: Callable[[], refs.Loaded],
    document: Document,
    print_options: tuple[str, bool],
    policy: str,
) -> Response:
    """A PDF from the render pool or its disk cache (:mod:`ginrules.web.pdf_renders`),
    never rendered here; a 503 with ``Retry-After`` when the pool is full."""

    def job() -> pdf_renders.Job:
        loaded = load()
        text = loaded.version.yaml if loaded.version else None
        return pdf_renders.Job(document, loaded.ref, text, _options(loaded, *print_options))

    try:
        response = cached(key, lambda: (pdf_renders.pdf(key, job), "application/pdf"), policy)
    except pdf_renders.Busy as busy:
        response = problem(503, busy.message)
        response.headers["Retry-After"] = str(busy.seconds)
        response.headers["Cache-Control"] = "no-store"
        return response
    filename = f"{ref.replace('/', '-')}-{document}.pdf"
    response.headers["Content-Disposition"] = f'inline; filename="{filename}"'
    return response


@lru_cache(maxsize=64)
def _shipped_identity(name: str) -> str:
    """A shipped ruleset's rules and words: its PDFs are kept on disk under them."""
    loaded = found_or_404(refs.shipped(name))
    return f"{loaded.fingerprint}-{pdf_renders.document_digest(loaded.ruleset)}"


@blueprint.get("/rules/<name>/<any(sheet, 'sheet.pdf', scorepad, 'scorepad.pdf'):kind>")
def shipped_resource(name: str, kind: str) -> Response:
    loaded = found_or_404(refs.shipped(name))
    return _resource(loaded.ref, lambda: loaded, kind, RELEASE, _shipped_identity(loaded.ref))


@blueprint.get("/h/<slug>/v<int:number>/<any(sheet, 'sheet.pdf', scorepad, 'scorepad.pdf'):kind>")
def version_resource(slug: str, number: int, kind: str) -> Response:
    if not refs.known(get_store(), slug, number):
        abort(404)

    def load() -> refs.Loaded:
        return found_or_404(refs.saved(get_store(), slug, number))

    return _resource(f"h/{slug}/v{number}", load, kind, IMMUTABLE, "immutable")


def _qr(target: str, kind: str, policy: str) -> Response:
    # ?lang= on the QR's own URL is the language its link opens in (a table language).
    url = absolute(in_language(target, asked()))
    if kind == "png":
        response = cached(f"qr.png|{url}", lambda: (qr_png(url), "image/png"), policy)
    else:
        response = cached(f"qr.svg|{url}", lambda: (qr_svg(url), "image/svg+xml"), policy)
    response.headers["Content-Disposition"] = (
        f'inline; filename="{target.strip("/").replace("/", "-")}-qr.{kind}"'
    )
    return response


@blueprint.get("/rules/<name>/qr.<any(png, svg):kind>")
def shipped_qr(name: str, kind: str) -> Response:
    loaded = found_or_404(refs.shipped(name))
    return _qr(loaded.path, kind, RELEASE)


@blueprint.get("/h/<slug>/qr.<any(png, svg):kind>")
def share_qr(slug: str, kind: str) -> Response:
    if not refs.known(get_store(), slug, 1):
        abort(404)
    return _qr(f"/h/{slug}", kind, IMMUTABLE)  # the short link never changes


@blueprint.get("/h/<slug>/v<int:number>/qr.<any(png, svg):kind>")
def version_qr(slug: str, number: int, kind: str) -> Response:
    if not refs.known(get_store(), slug, number):
        abort(404)
    return _qr(f"/h/{slug}/v{number}", kind, IMMUTABLE)


def _yaml_text(loaded: refs.Loaded) -> str:
    if loaded.version is not None:
        return loaded.version.yaml
    entry = next(e for e in refs.shipped_names() if e.name == loaded.ruleset.name)
    return entry.path.read_text(encoding="utf-8")


def _download(loaded: refs.Loaded, suffix: str, policy: str) -> Response:
    if suffix == "yaml":
        response = cached(
            f"yaml|{loaded.ref}|{loaded.fingerprint}",
            lambda: (_yaml_text(loaded), "application/yaml"),
            policy,
        )
    else:
        response = cached(
            f"json|{loaded.ref}|{loaded.fingerprint}",
            lambda: (json.dumps(compiled_json(loaded), indent=2), "application/json"),
            policy,
        )
    response.headers["Content-Disposition"] = (
        f'inline; filename="{loaded.ref.replace("/", "-")}.{suffix}"'
    )
    return response


@blueprint.get("/rules/<name>.<any(yaml, json):suffix>")
def shipped_download(name: str, suffix: str) -> Response:
    return _download(found_or_404(refs.shipped(name)), suffix, RELEASE)


@blueprint.get("/h/<slug>/v<int:number>.<any(yaml, json):suffix>")
def version_download(slug: str, number: int, suffix: str) -> Response:
    return _download(found_or_404(refs.saved(get_store(), slug, number)), suffix, IMMUTABLE)


@blueprint.get("/favicon.ico")
def favicon() -> BaseResponse:
    return redirect(url_for("static", filename="favicon.svg"), 301)


@blueprint.get("/schema/ruleset.schema.json")
def json_schema() -> Response:
    return cached(
        "schema",
        lambda: (json.dumps(ruleset_schema.schema(), indent=2), "application/schema+json"),
        RELEASE,
    )
