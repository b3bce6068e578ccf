"""The site's pages: home, a ruleset, the builder (form and YAML), share, versions, fork.

Every link and QR code is built from ``PUBLIC_BASE_URL``; what a saved
version prints, downloads and encodes never changes, so those answers are
made once and cached (see :mod:`ginrules.web.responses`).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, Final
from urllib.parse import quote

from flask import (
    Blueprint,
    Response,
    abort,
    current_app,
    flash,
    redirect,
    render_template,
    request,
    session,
    url_for,
)
from werkzeug.wrappers import Response as BaseResponse

from ginrules import schema as ruleset_schema
from ginrules.rules.diagnostics import Diagnostic, RulesetError
from ginrules.rules.diff import KnobChange, diff
from ginrules.rules.load import Ruleset
from ginrules.sheets.qr import qr_png, qr_svg
from ginrules.sheets.render import (
    SheetOptions,
    scorepad_html,
    scorepad_pdf,
    sheet_html,
    sheet_pdf,
)
from ginrules.web import forms, refs
from ginrules.web.responses import IMMUTABLE, RELEASE, REVALIDATE, cached
from ginrules.web.security import limited
from ginrules.web.storage import Draft, Store, Version, hash_secret, new_secret, secret_matches
from ginrules.words.diagnostics import message as diagnostic_message
from ginrules.words.values import value_words

blueprint = Blueprint("pages", __name__)

#: The shipped base rulesets shown first on the home page.
BASES: Final = ("classic", "oklahoma", "hollywood", "partnership")


def store() -> Store:
    found: Store = current_app.extensions["ginrules.store"]
    return found


def absolute(path: str) -> str:
    return str(current_app.config["PUBLIC_BASE_URL"]) + path


def _loaded_or_404(loaded: refs.Loaded | None) -> refs.Loaded:
    if loaded is None:
        abort(404)
    return loaded


# -- home ----------------------------------------------------------------------


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
            recent=store().recent(8),
        )
        return page, "text/html"

    change = store().last_change()
    return cached(f"home|{store().url}|{change}", make, REVALIDATE)


# -- a ruleset or a saved version -------------------------------------------------


@blueprint.get("/rules/<name>")
def shipped_page(name: str) -> Response:
    loaded = _loaded_or_404(refs.shipped(name))
    return _ruleset_page(loaded, RELEASE)


@blueprint.get("/h/<slug>")
def latest_page(slug: str) -> Response:
    loaded = _loaded_or_404(refs.saved(store(), slug))
    return _ruleset_page(loaded, REVALIDATE)


@blueprint.get("/h/<slug>/v<int:number>")
def version_page(slug: str, number: int) -> Response:
    loaded = _loaded_or_404(refs.saved(store(), slug, number))
    return _ruleset_page(loaded, REVALIDATE)


def _base_of(loaded: refs.Loaded) -> refs.Loaded | None:
    if loaded.version is not None:
        return refs.shipped(loaded.version.base) if loaded.version.base else None
    name = forms.base_of(loaded.ruleset)
    return refs.shipped(name or "classic") if loaded.ruleset.name != "classic" else None


def _changes(before: refs.Loaded | None, after: refs.Loaded) -> list[KnobChange]:
    return [] if before is None else diff(before.ruleset, after.ruleset)


def _ruleset_page(loaded: refs.Loaded, policy: str) -> Response:
    version = loaded.version
    latest = version.latest if version else None
    key = f"page|{loaded.ref}|{latest}|{current_app.config['PUBLIC_BASE_URL']}"

    def make() -> tuple[str, str]:
        base = _base_of(loaded)
        previous = None
        if version is not None and version.number > 1:
            previous = refs.saved(store(), version.slug, version.number - 1)
        forked = None
        if version is not None and version.forked_from:
            forked = refs.saved(store(), *version.forked_from)
        page = render_template(
            "web/ruleset.html",
            loaded=loaded,
            base=base,
            changes=_changes(base, loaded),
            since_previous=_changes(previous, loaded) if previous else None,
            forked=forked,
            warnings=loaded.ruleset.warnings,
            links=links(loaded),
        )
        return page, "text/html"

    return cached(key, make, policy)


def build_url(reference: str, editor: str = "pages.build") -> str:
    """The builder (or the YAML editor) starting from ``reference``."""
    return f"{url_for(editor)}?from={quote(reference, safe='/')}"


def links(loaded: refs.Loaded) -> dict[str, str]:
    """Every URL of a ruleset or saved version (absolute, from the public base URL)."""
    path = loaded.path
    found = {
        "page_url": absolute(path),
        "share_url": absolute(loaded.share_path),
        "sheet_url": absolute(f"{path}/sheet"),
        "pdf_url": absolute(f"{path}/sheet.pdf"),
        "scorepad_url": absolute(f"{path}/scorepad"),
        "scorepad_pdf_url": absolute(f"{path}/scorepad.pdf"),
        "qr_png_url": absolute(f"{loaded.share_path}/qr.png"),
        "qr_svg_url": absolute(f"{loaded.share_path}/qr.svg"),
        "yaml_url": absolute(f"{path}.yaml"),
        "json_url": absolute(f"{path}.json"),
        "fork_url": absolute(build_url(loaded.ref)),
    }
    if loaded.version is not None:
        found["versions_url"] = absolute(f"/h/{loaded.version.slug}/versions")
    return found


# -- printable and downloadable resources ----------------------------------------------


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
    loaded = _loaded_or_404(refs.shipped(name))
    return _resource(loaded.ref, lambda: loaded, kind, RELEASE, loaded.fingerprint)


@blueprint.get("/h/<slug>/v<int:number>/<any(sheet, 'sheet.pdf', scorepad, 'scorepad.pdf'):kind>")
def version_resource(slug: str, number: int, kind: str) -> Response:
    if not refs.known(store(), slug, number):
        abort(404)

    def load() -> refs.Loaded:
        return _loaded_or_404(refs.saved(store(), slug, number))

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
    loaded = _loaded_or_404(refs.shipped(name))
    return _qr(loaded.path, kind, RELEASE)


@blueprint.get("/h/<slug>/qr.<any(png, svg):kind>")
def share_qr(slug: str, kind: str) -> Response:
    if not refs.known(store(), slug, 1):
        abort(404)
    return _qr(f"/h/{slug}", kind, IMMUTABLE)  # the short link never changes


@blueprint.get("/h/<slug>/v<int:number>/qr.<any(png, svg):kind>")
def version_qr(slug: str, number: int, kind: str) -> Response:
    if not refs.known(store(), slug, number):
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


def compiled_json(loaded: refs.Loaded) -> dict[str, Any]:
    return {
        "ref": loaded.ref,
        "name": loaded.title,
        "fingerprint": loaded.fingerprint,
        "config": loaded.config.canonical(),
    }


@blueprint.get("/rules/<name>.<any(yaml, json):suffix>")
def shipped_download(name: str, suffix: str) -> Response:
    return _download(_loaded_or_404(refs.shipped(name)), suffix, RELEASE)


@blueprint.get("/h/<slug>/v<int:number>.<any(yaml, json):suffix>")
def version_download(slug: str, number: int, suffix: str) -> Response:
    return _download(_loaded_or_404(refs.saved(store(), slug, number)), suffix, IMMUTABLE)


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


# -- the builder ---------------------------------------------------------------


def _start(reference: str | None) -> refs.Loaded:
    loaded = refs.resolve(store(), reference or "classic")
    if loaded is None:
        abort(404)
    return loaded


@blueprint.get("/build")
def build() -> Any:
    start = _start(request.args.get("from"))
    values = forms.values_of(start.ruleset)
    base = start.version.base if start.version else start.ruleset.name
    if start.version is None:  # new house rules: the base's words are not theirs
        values["name"] = f"{values['name']} at our table"
        values["description"] = ""
        values["author"] = ""
    return _builder(values, base, start=start, forked_from=start.ref if start.version else "")


def _builder(
    values: dict[str, str],
    base: str,
    *,
    start: refs.Loaded | None = None,
    submission: forms.Submission | None = None,
    forked_from: str = "",
    edit: Version | None = None,
    key: str = "",
    status: int = 200,
) -> Any:
    base_loaded = refs.shipped(base)
    page = render_template(
        "web/builder.html",
        sections=forms.sections(),
        values=values,
        base=base,
        base_values=forms.values_of(base_loaded.ruleset) if base_loaded else {},
        bases=refs.shipped_names(),
        start=start,
        submission=submission,
        forked_from=forked_from,
        edit=edit,
        key=key,
    )
    return page, status


@blueprint.post("/build")
@limited
def build_save() -> Any:
    base = request.form.get("base", "classic")
    submission = forms.read_form(request.form, base)
    forked_from = request.form.get("forked_from", "")
    if not submission.ok:
        return _builder(
            submission.values, base, submission=submission, forked_from=forked_from, status=422
        )
    return _save_new(submission.yaml_text, submission.ruleset, base, forked_from)


def _draft(ruleset: Any, text: str, base: str) -> Draft:
    from ginrules.rules.compile import compile_ruleset

    doc = ruleset.document
    return Draft(
        name=str(doc.get("name") or ""),
        author=str(doc.get("author") or ""),
        description=str(doc.get("description") or ""),
        yaml=text,
        base=base,
        fingerprint=compile_ruleset(ruleset).fingerprint,
    )


def _fork_origin(forked_from: str) -> tuple[str, int] | None:
    loaded = refs.resolve(store(), forked_from) if forked_from else None
    if loaded is None or loaded.version is None:
        return None
    return loaded.version.slug, loaded.version.number


def _save_new(text: str, ruleset: Any, base: str, forked_from: str) -> BaseResponse:
    secret = new_secret()
    version = store().create(
        _draft(ruleset, text, base), hash_secret(secret), _fork_origin(forked_from)
    )
    session["edit_secret"] = {"slug": version.slug, "secret": secret}
    return redirect(url_for("pages.share", slug=version.slug, number=version.number), 303)


# -- the YAML editor -----------------------------------------------------------------


@blueprint.get("/build/yaml")
def build_yaml() -> Any:
    start = _start(request.args.get("from"))
    if start.version is not None:
        text = start.version.yaml
    else:
        values = forms.values_of(start.ruleset)
        text = forms.to_yaml(
            {
                "name": f"{values['name']} (our table)"
                if start.ruleset.name != "classic"
                else "Our table",
                "author": "",
                "extends": start.ruleset.name,
                "hand_scoring": {"gin_bonus": start.config.gin_bonus},
            }
        )
    return _yaml_editor(text, forked_from=start.ref if start.version else "")


def _yaml_editor(
    text: str,
    *,
    errors: list[Diagnostic] | None = None,
    warnings: list[Diagnostic] | None = None,
    forked_from: str = "",
    edit: Version | None = None,
    key: str = "",
    status: int = 200,
) -> Any:
    lines = {d.line for d in errors or [] if d.line}
    page = render_template(
        "web/yaml.html",
        text=text,
        errors=errors or [],
        warnings=warnings or [],
        error_lines=sorted(lines),
        forked_from=forked_from,
        edit=edit,
        key=key,
        bases=refs.shipped_names(),
    )
    return page, status


def read_yaml(text: str) -> tuple[Any, list[Diagnostic], str]:
    """Validate editor text: (ruleset or None, diagnostics, base name)."""
    try:
        ruleset = refs.parse_saved_text(text, "your rules")
    except RulesetError as error:
        return None, error.diagnostics, ""
    if len(ruleset.chain) < 2:  # extends nothing
        problem = Diagnostic(
            "error",
            "your rules",
            "say which ruleset yours starts from, e.g. extends: classic",
            1,
            1,
            ("extends",),
        )
        return None, [problem], ""
    return ruleset, list(ruleset.warnings), forms.base_of(ruleset)


@blueprint.post("/build/yaml")
@limited
def build_yaml_save() -> Any:
    text = request.form.get("yaml", "")
    forked_from = request.form.get("forked_from", "")
    ruleset, diagnostics, base = read_yaml(text)
    if ruleset is None:
        return _yaml_editor(text, errors=diagnostics, forked_from=forked_from, status=422)
    return _save_new(text, ruleset, base, forked_from)


# -- share, versions, fork, edit ------------------------------------------------------


@blueprint.get("/h/<slug>/v<int:number>/share")
def share(slug: str, number: int) -> Any:
    loaded = _loaded_or_404(refs.saved(store(), slug, number))
    secret = None
    held = session.get("edit_secret")
    if isinstance(held, dict) and held.get("slug") == slug:
        secret = str(held["secret"])
        session.pop("edit_secret")
    edit_url = absolute(url_for("pages.edit", slug=slug, key=secret)) if secret else None
    response = Response(
        render_template("web/share.html", loaded=loaded, links=links(loaded), edit_url=edit_url)
    )
    response.headers["Cache-Control"] = "no-store"
    return response


@blueprint.get("/h/<slug>/versions")
def versions(slug: str) -> Any:
    found = store().versions(slug)
    if not found:
        abort(404)
    rows = []
    previous: refs.Loaded | None = None
    for version in found:
        loaded = refs.saved(store(), slug, version.number)
        if loaded is None:
            continue
        rows.append((loaded, _changes(previous, loaded) if previous else None))
        previous = loaded
    return render_template("web/versions.html", slug=slug, rows=list(reversed(rows)))


@blueprint.get("/h/<slug>/fork")
def fork(slug: str) -> BaseResponse:
    loaded = _loaded_or_404(refs.saved(store(), slug))
    return redirect(build_url(loaded.ref), 303)


def _check_key(slug: str, key: str) -> Version:
    latest = store().get(slug)
    stored = store().edit_hash(slug)
    if latest is None or stored is None:
        abort(404)
    if not key or not secret_matches(key, stored):
        abort(403, "That edit link is not right for these house rules.")
    return latest


@blueprint.get("/h/<slug>/edit")
def edit(slug: str) -> Any:
    key = request.args.get("key", "")
    latest = _check_key(slug, key)
    loaded = _loaded_or_404(refs.saved(store(), slug, latest.number))
    if request.args.get("mode") == "yaml":
        return _yaml_editor(latest.yaml, edit=latest, key=key)
    return _builder(
        forms.values_of(loaded.ruleset), latest.base, start=loaded, edit=latest, key=key
    )


@blueprint.post("/h/<slug>/edit")
@limited
def edit_save(slug: str) -> Any:
    key = request.form.get("key", "")
    latest = _check_key(slug, key)
    if "yaml" in request.form:
        text = request.form["yaml"]
        ruleset, diagnostics, base = read_yaml(text)
        if ruleset is None:
            return _yaml_editor(text, errors=diagnostics, edit=latest, key=key, status=422)
    else:
        base = request.form.get("base", latest.base)
        submission = forms.read_form(request.form, base)
        if not submission.ok:
            return _builder(
                submission.values, base, submission=submission, edit=latest, key=key, status=422
            )
        text, ruleset = submission.yaml_text, submission.ruleset
    version = store().add_version(slug, _draft(ruleset, text, base))
    flash(f"Saved version {version.number}. The plain link now shows it.")
    return redirect(url_for("pages.version_page", slug=slug, number=version.number), 303)


# -- the builder's live differences ---------------------------------------------------


@blueprint.post("/build/preview")
def preview() -> Any:
    base = request.form.get("base", "classic")
    submission = forms.read_form(request.form, base)
    base_loaded = refs.shipped(base)
    changes: list[dict[str, Any]] = []
    if submission.ruleset is not None and base_loaded is not None:
        changes = [
            {
                "knob": change.knob.dotted,
                "label": change.knob.label,
                "before": value_words(change.before.value),
                "after": value_words(change.after.value),
            }
            for change in diff(base_loaded.ruleset, submission.ruleset)
        ]
    return {
        "changes": changes,
        "errors": submission.errors,
        "general": submission.general,
        "warnings": [diagnostic_message(w) for w in submission.warnings],
        "yaml": submission.yaml_text,
    }
