"""A saved house rule: the share page, its versions, fork, and edit by the private link."""

from __future__ import annotations

from typing import Any

from flask import (
    Blueprint,
    Response,
    abort,
    flash,
    redirect,
    render_template,
    request,
    session,
    url_for,
)
from werkzeug.wrappers import Response as BaseResponse

from ginrules.web import forms, handoffs, refs, saving, version_pages
from ginrules.web.request_guards import no_store
from ginrules.web.security import limited, problem
from ginrules.web.storage import AlreadySaved, Version, get_store
from ginrules.web.urls import build_url, edit_url, links
from ginrules.web.views import found_or_404
from ginrules.web.views.builder import already_saved, builder_page, option_problems, yaml_editor
from ginrules.words.i18n import _
from ginrules.words.versions import bad_page, saved_version

blueprint = Blueprint("houserules", __name__)


@blueprint.get("/h/<slug>/v<int:number>/share")
def share(slug: str, number: int) -> Any:
    loaded = found_or_404(refs.saved(get_store(), slug, number))
    held = session.get(handoffs.SESSION_KEY)
    secret = handoffs.take(get_store(), held, slug)
    if isinstance(held, dict) and held.get("slug") == slug:
        session.pop(handoffs.SESSION_KEY)
    private = edit_url(slug, secret) if secret else None
    response = Response(
        render_template("web/share.html", loaded=loaded, links=links(loaded), edit_url=private)
    )
    response.headers["Cache-Control"] = "no-store"
    return response


@blueprint.get("/h/<slug>/versions")
def versions(slug: str) -> Any:
    """A page of the versions, newest first (``?page=``): one query, nothing parsed."""
    number = version_pages.page_number(request.args.get("page", "1"))
    size = version_pages.PAGE_SIZE
    found = version_pages.newest_first(
        get_store(), slug, skip=max(number - 1, 0) * size, limit=size if number else 0
    )
    if found is None:
        abort(404)
    last = version_pages.pages(found)
    if not 1 <= number <= last or not found.entries:
        return problem(400, bad_page(last))
    return render_template("web/versions.html", page=found, number=number, pages=last)


@blueprint.get("/h/<slug>/fork")
def fork(slug: str) -> BaseResponse:
    loaded = found_or_404(refs.saved(get_store(), slug))
    return redirect(build_url(loaded.ref), 303)


def _check_key(slug: str, key: str) -> Version:
    latest = get_store().get(slug)
    refused = saving.check_edit_secret(get_store(), slug, key)
    if latest is None or refused is saving.EditRefused.NO_SUCH_RULES:
        abort(404)
    if refused is not None:
        abort(403, _("That edit link is not right for these house rules."))
    return latest


@blueprint.get("/h/<slug>/edit")
@no_store
def edit(slug: str) -> Any:
    key = request.args.get("key", "")
    latest = _check_key(slug, key)
    loaded = found_or_404(refs.saved(get_store(), slug, latest.number))
    if request.args.get("mode") == "yaml":
        return yaml_editor(latest.yaml, edit=latest, key=key)
    return builder_page(
        forms.values_of(loaded.ruleset), latest.base, start=loaded, edit=latest, key=key
    )


@blueprint.post("/h/<slug>/edit")
@no_store
@limited
def edit_save(slug: str) -> Any:
    key = request.form.get("key", "")
    latest = _check_key(slug, key)
    # An edit keeps the house rule's visibility and table language unless the form
    # says otherwise.
    options = saving.save_options(request.form, latest.visibility, latest.language)
    again = saving.saved_before(get_store(), options)
    if again is not None:
        return already_saved(*again)
    if "yaml" in request.form:
        text = saving.submitted_yaml(request.form)
        ruleset, diagnostics, base = saving.read_yaml(text)
        if ruleset is None or not options.ok:
            errors = diagnostics if ruleset is None else []
            return yaml_editor(
                text, errors=errors, edit=latest, key=key, options=options, status=422
            )
    else:
        base = request.form.get("base", latest.base)
        submission = forms.read_form(request.form, base)
        option_problems(submission, options)
        if not submission.ok:
            return builder_page(
                submission.values,
                base,
                submission=submission,
                edit=latest,
                key=key,
                options=options,
                status=422,
            )
        text, ruleset = submission.yaml_text, submission.ruleset
    assert ruleset is not None
    try:
        version = saving.save_version(
            get_store(),
            slug,
            ruleset,
            text,
            base,
            visibility=options.visibility,
            form_token=options.form_token,
            language=options.table_language,
        )
    except AlreadySaved as first:  # the same form, sent twice at once
        return already_saved(first.slug, first.number)
    flash(saved_version(version.number))
    return redirect(url_for("rulesets.version_page", slug=slug, number=version.number), 303)
