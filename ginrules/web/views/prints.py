"""What a ruleset prints and downloads: sheets, score pads, PDFs, QR codes, YAML, JSON.

Saved versions never change, so their resources are immutable and, after the
first, served without a database read.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Final

from flask import Blueprint, Response, abort, current_app, redirect, request, url_for
from werkzeug.wrappers import Response as BaseResponse

from ginrules import schema as ruleset_schema
from ginrules.rules.load import Ruleset
from ginrules.sheets.qr import qr_png, qr_svg
from ginrules.sheets.render import (
    SheetOptions,
    scorepad_html,
    scorepad_pdf,
    sheet_html,
    sheet_pdf,
)
from ginrules.web import refs
from ginrules.web.responses import IMMUTABLE, RELEASE, cached
from ginrules.web.storage import get_store
from ginrules.web.urls import absolute, compiled_json
from ginrules.web.views import found_or_404

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
        url=absolute(loaded.path),
        version=f"version {version.number}" if version else None,
        date=version.created_at.date() if version else None,
    )


_RENDERERS: Final[dict[str, tuple[Callable[[Ruleset, SheetOptions], str | bytes], str]]] = {
    "sheet": (sheet_html, "text/html"),
    "sheet.pdf": (sheet_pdf, "application/pdf"),
    "scorepad": (scorepad_html, "text/html"),
    "scorepad.pdf": (scorepad_pdf, "application/pdf"),
}


def _resource(
    ref: str, load: Callable[[], refs.Loaded], kind: str, policy: str, identity: str
) -> Response:
    """A sheet or score pad; ``identity`` names its content (a fingerprint, or a
    version that never changes), so a repeat needs no database read at all."""
    paper, large = _paper()
    render, mimetype = _RENDERERS[kind]

    def make() -> tuple[str | bytes, str]:
        loaded = load()
        return render(loaded.ruleset, _options(loaded, paper, large)), mimetype

    key = f"{kind}|{ref}|{identity}|{paper}|{large}|{current_app.config['PUBLIC_BASE_URL']}"
    response = cached(key, make, policy)
    if kind.endswith(".pdf"):
        filename = f"{ref.replace('/', '-')}-{kind.replace('.pdf', '')}.pdf"
        response.headers["Content-Disposition"] = f'inline; filename="{filename}"'
    return response


@blueprint.get("/rules/<name>/<any(sheet, 'sheet.pdf', scorepad, 'scorepad.pdf'):kind>")
def shipped_resource(name: str, kind: str) -> Response:
    loaded = found_or_404(refs.shipped(name))
    return _resource(loaded.ref, lambda: loaded, kind, RELEASE, loaded.fingerprint)


@blueprint.get("/h/<slug>/v<int:number>/<any(sheet, 'sheet.pdf', scorepad, 'scorepad.pdf'):kind>")
def version_resource(slug: str, number: int, kind: str) -> Response:
    if not refs.known(get_store(), slug, number):
        abort(404)

    def load() -> refs.Loaded:
        return found_or_404(refs.saved(get_store(), slug, number))

    return _resource(f"h/{slug}/v{number}", load, kind, IMMUTABLE, "immutable")


def _qr(target: str, kind: str, policy: str) -> Response:
    url = absolute(target)
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
