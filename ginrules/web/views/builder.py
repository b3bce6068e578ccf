"""The builder, the YAML editor and the builder's live differences."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, redirect, render_template, request, session, url_for
from werkzeug.wrappers import Response as BaseResponse

from ginrules.rules.diagnostics import Diagnostic
from ginrules.rules.diff import diff
from ginrules.rules.load import Ruleset
from ginrules.web import forms, refs, saving
from ginrules.web.security import limited
from ginrules.web.storage import Version, get_store
from ginrules.web.views import found_or_404
from ginrules.words.diagnostics import message as diagnostic_message
from ginrules.words.values import value_words

blueprint = Blueprint("builder", __name__)


def _start(reference: str | None) -> refs.Loaded:
    return found_or_404(refs.resolve(get_store(), reference or "classic"))


@blueprint.get("/build")
def build() -> Any:
    start = _start(request.args.get("from"))
    values = forms.values_of(start.ruleset)
    base = start.version.base if start.version else start.ruleset.name
    if start.version is None:  # new house rules: the base's words are not theirs
        values["name"] = f"{values['name']} at our table"
        values["description"] = ""
        values["author"] = ""
    return builder_page(values, base, start=start, forked_from=start.ref if start.version else "")


def builder_page(
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
        return builder_page(
            submission.values, base, submission=submission, forked_from=forked_from, status=422
        )
    assert submission.ruleset is not None  # a submission without errors has its ruleset
    return _save_new(submission.yaml_text, submission.ruleset, base, forked_from)


def _save_new(text: str, ruleset: Ruleset, base: str, forked_from: str) -> BaseResponse:
    store = get_store()
    saved = saving.save_new(store, ruleset, text, base, saving.fork_origin(store, forked_from))
    version = saved.version
    # The secret is shown once, on the share page, and never travels in a URL.
    session["edit_secret"] = {"slug": version.slug, "secret": saved.secret}
    return redirect(url_for("houserules.share", slug=version.slug, number=version.number), 303)


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
    return yaml_editor(text, forked_from=start.ref if start.version else "")


def yaml_editor(
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


@blueprint.post("/build/yaml")
@limited
def build_yaml_save() -> Any:
    text = request.form.get("yaml", "")
    forked_from = request.form.get("forked_from", "")
    ruleset, diagnostics, base = saving.read_yaml(text)
    if ruleset is None:
        return yaml_editor(text, errors=diagnostics, forked_from=forked_from, status=422)
    return _save_new(text, ruleset, base, forked_from)


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
