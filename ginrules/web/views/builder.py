"""The builder, the YAML editor and the builder's live differences."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, redirect, render_template, request, session, url_for
from werkzeug.wrappers import Response as BaseResponse

from ginrules.rules.diagnostics import Diagnostic
from ginrules.rules.load import Ruleset
from ginrules.sheets.shipped import ruleset_text
from ginrules.web import forms, handoffs, refs, saving
from ginrules.web.security import limited
from ginrules.web.storage import AlreadySaved, Version, get_store, new_form_token
from ginrules.web.tables import UNLISTED
from ginrules.web.views import found_or_404
from ginrules.words import builder as words
from ginrules.words import languages
from ginrules.words.diagnostics import message as diagnostic_message
from ginrules.words.i18n import _

blueprint = Blueprint("builder", __name__)

#: The longest name the form takes.
NAME_LENGTH = 80


def _start(reference: str | None) -> refs.Loaded:
    return found_or_404(refs.resolve(get_store(), reference or "classic"))


@blueprint.get("/build")
def build() -> Any:
    start = _start(request.args.get("from"))
    values = forms.values_of(start.ruleset)
    base = start.version.base if start.version else start.ruleset.name
    if start.version is None:  # new house rules: the base's words are not theirs
        values["name"] = _("{name} at our table").format(name=ruleset_text(values["name"]))
        values["description"] = ""
        values["author"] = ""
    else:  # a fork: the same rules under a new name, by whoever forks them
        values["name"] = words.fork_name(start.version.name[: NAME_LENGTH - 12])
        values["author"] = ""
    return builder_page(values, base, start=start, forked_from=start.ref if start.version else "")


def already_saved(slug: str, number: int) -> BaseResponse:
    """The form was sent again (Back, then Save): to what its first sending saved."""
    if number == 1:
        return redirect(url_for("houserules.share", slug=slug, number=number), 303)
    return redirect(url_for("rulesets.version_page", slug=slug, number=number), 303)


def _option_words(options: saving.SaveOptions | None, edit: Version | None) -> dict[str, Any]:
    """The template variables of web/_save_options.html: a new form starts unlisted,
    for each reader's own language; an edit from the house rule's own choices."""
    choices = {"table_languages": languages.table_language_choices()}
    if options is None:
        return {
            "form_token": new_form_token(),
            "visibility": edit.visibility if edit else UNLISTED,
            "visibility_error": "",
            "language": (edit.language if edit else None) or "",
            "language_error": "",
            **choices,
        }
    return {
        # A refused form keeps its token: the same form, sent again once fixed.
        "form_token": options.form_token or new_form_token(),
        "visibility": options.shown,
        "visibility_error": "" if options.visibility else words.form_problem("visibility"),
        "language": options.language_sent,
        "language_error": "" if options.language is not None else languages.bad_table_language(),
        **choices,
    }


def option_problems(submission: forms.Submission, options: saving.SaveOptions) -> None:
    """Add the save options' problems to the builder form's."""
    if options.visibility is None:
        submission.add("visibility", words.form_problem("visibility"))
    if options.language is None:
        submission.add("language", languages.bad_table_language())


def builder_page(
    values: dict[str, str],
    base: str,
    *,
    start: refs.Loaded | None = None,
    submission: forms.Submission | None = None,
    forked_from: str = "",
    edit: Version | None = None,
    key: str = "",
    options: saving.SaveOptions | None = None,
    status: int = 200,
) -> Any:
    base_loaded = refs.shipped(base)
    base_values = forms.values_of(base_loaded.ruleset) if base_loaded else {}
    errors = submission.errors if submission else {}
    fork = refs.resolve(get_store(), forked_from) if forked_from else None
    more = forms.more_sections()
    differences = forms.differences(values, base_values, errors)
    marked = set(errors) | {d.field for d in differences}
    page = render_template(
        "web/builder.html",
        common=forms.common(),
        more=more,
        more_open=any(c.field in marked for _, controls in more for c in controls),
        values=values,
        base=base,
        base_values=base_values,
        differences=differences,
        errors=errors,
        bases=refs.shipped_names(),
        start=start,
        submission=submission,
        forked_from=forked_from,
        fork_of=fork.version if fork else None,
        edit=edit,
        key=key,
        label_of=words.label,
        field_error=words.field_error,
        save_options_styled=True,
        **_option_words(options, edit),
    )
    return page, status


@blueprint.post("/build")
@limited
def build_save() -> Any:
    base = request.form.get("base", "classic")
    options = saving.save_options(request.form)
    again = saving.saved_before(get_store(), options)
    if again is not None:
        return already_saved(*again)
    submission = forms.read_form(request.form, base)
    forked_from = request.form.get("forked_from", "")
    option_problems(submission, options)
    if not submission.ok:
        return builder_page(
            submission.values,
            base,
            submission=submission,
            forked_from=forked_from,
            options=options,
            status=422,
        )
    assert submission.ruleset is not None  # a submission without errors has its ruleset
    return _save_new(submission.yaml_text, submission.ruleset, base, forked_from, options)


def _save_new(
    text: str, ruleset: Ruleset, base: str, forked_from: str, options: saving.SaveOptions
) -> BaseResponse:
    store = get_store()
    try:
        saved = saving.save_new(
            store,
            ruleset,
            text,
            base,
            saving.fork_origin(store, forked_from),
            visibility=options.visibility or UNLISTED,
            form_token=options.form_token,
            language=options.table_language,
        )
    except AlreadySaved as first:  # the same form, sent twice at once
        return already_saved(first.slug, first.number)
    version = saved.version
    # The secret is shown once, on the share page; it never travels in a URL, and the
    # session cookie (readable by whoever holds it) keeps only half of it.
    session[handoffs.SESSION_KEY] = handoffs.hand_over(store, version.slug, saved.secret)
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
                "name": _("{name} (our table)").format(name=ruleset_text(values["name"]))
                if start.ruleset.name != "classic"
                else _("Our table"),
                "author": "",
                "description": "",
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
    options: saving.SaveOptions | None = None,
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
        **_option_words(options, edit),
    )
    return page, status


@blueprint.post("/build/yaml")
@limited
def build_yaml_save() -> Any:
    text = saving.submitted_yaml(request.form)
    forked_from = request.form.get("forked_from", "")
    options = saving.save_options(request.form)
    again = saving.saved_before(get_store(), options)
    if again is not None:
        return already_saved(*again)
    ruleset, diagnostics, base = saving.read_yaml(text)
    if ruleset is None or not options.ok:
        errors = diagnostics if ruleset is None else []
        return yaml_editor(
            text, errors=errors, forked_from=forked_from, options=options, status=422
        )
    return _save_new(text, ruleset, base, forked_from, options)


@blueprint.post("/build/preview")
def preview() -> Any:
    base = request.form.get("base", "classic")
    submission = forms.read_form(request.form, base)
    base_loaded = refs.shipped(base)
    changes: list[dict[str, Any]] = []
    if base_loaded is not None:
        base_values = forms.values_of(base_loaded.ruleset)
        changes = [
            {"knob": d.field, "label": d.label, "before": d.before, "after": d.after}
            for d in forms.differences(submission.values, base_values, submission.errors)
        ]
    return {
        "changes": changes,
        "errors": submission.errors,
        "problems": [
            words.field_error(name, message)
            for name, messages in submission.errors.items()
            for message in messages
        ]
        + [words.plain_message(text) for text in submission.general],
        "general": submission.general,
        "warnings": [words.plain_message(diagnostic_message(w)) for w in submission.warnings],
        "yaml": submission.yaml_text,
    }
