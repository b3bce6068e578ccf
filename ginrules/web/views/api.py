"""The JSON API: list and read rulesets and house rules, create and update house rules,
the compiled configuration, the diff against any other ruleset. Described by the
OpenAPI document at ``/api/openapi.json`` (:mod:`ginrules.web.openapi`).

Every bad input is a 4xx with field-level messages; a failed save changes nothing.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import yaml
from flask import Blueprint, Response, abort, current_app, jsonify, request

from ginrules.rules.diagnostics import Diagnostic
from ginrules.rules.diff import diff
from ginrules.rules.yamlsource import MAX_FILE_BYTES
from ginrules.web import openapi, refs, saving, version_pages
from ginrules.web.json_input import BadInput, bad_input, body_text, field_error, parse_json
from ginrules.web.security import limited
from ginrules.web.storage import (
    KEEP,
    MAX_VERSION,
    TooManyVersions,
    Unchanged,
    Version,
    get_store,
)
from ginrules.web.tables import UNLISTED, VISIBILITIES
from ginrules.web.urls import compiled_json, edit_url, links
from ginrules.web.views import found_or_404
from ginrules.words import builder as words
from ginrules.words.diagnostics import to_json as diagnostic_json
from ginrules.words.i18n import LANGUAGES, _, ngettext
from ginrules.words.inputs import not_accepted_type
from ginrules.words.languages import api_bad_language

blueprint = Blueprint("api", __name__, url_prefix="/api")

_JSON_KEYS = {"yaml", "ruleset", "forked_from", "visibility", "language"}
#: The bodies a create or update takes: JSON, or the ruleset as YAML.
BODY_TYPES = ("application/json", "application/yaml")


blueprint.register_error_handler(BadInput, bad_input)
blueprint.register_error_handler(TooManyVersions, version_pages.refused_json)


def _summary(loaded: refs.Loaded) -> dict[str, Any]:
    doc = loaded.ruleset.document
    data: dict[str, Any] = {
        "ref": loaded.ref,
        "name": loaded.title,
        "description": str(doc.get("description") or ""),
        "author": str(doc.get("author") or ""),
        "fingerprint": loaded.fingerprint,
        **links(loaded),
    }
    if loaded.version is not None:
        version = loaded.version
        data.update(
            slug=version.slug,
            version=version.number,
            latest_version=version.latest,
            base=version.base,
            created_at=version.created_at.isoformat(),
            forked_from=(
                f"h/{version.forked_from[0]}/v{version.forked_from[1]}"
                if version.forked_from
                else None
            ),
            forked_from_name=version.origin.name if version.origin else None,
            visibility=version.visibility,
            language=version.language,
        )
    else:
        data["kind"] = next(
            e.kind for e in refs.shipped_names() if e.name == loaded.ruleset.name
        ).removesuffix("s")
    return data


def _detail(loaded: refs.Loaded) -> dict[str, Any]:
    return {
        **_summary(loaded),
        "document": _plain(loaded.ruleset.document),
        "warnings": [_diagnostic(w) for w in loaded.ruleset.warnings],
    }


def _plain(value: Any) -> Any:
    if isinstance(value, dict) or hasattr(value, "items"):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    return value


def _diagnostic(diagnostic: Diagnostic) -> dict[str, Any]:
    data = diagnostic_json(diagnostic)
    data["field"] = ".".join(str(p) for p in diagnostic.path) or None
    return data


@blueprint.get("/openapi.json")
def openapi_document() -> Response:
    return jsonify(openapi.document(str(current_app.config["PUBLIC_BASE_URL"])))


@blueprint.get("/rulesets")
def list_rulesets() -> Response:
    found = [refs.shipped(entry.name) for entry in refs.shipped_names()]
    return jsonify({"rulesets": [_summary(loaded) for loaded in found if loaded]})


@blueprint.get("/rulesets/<name>")
def get_ruleset(name: str) -> Response:
    return jsonify(_detail(found_or_404(refs.shipped(name))))


@blueprint.get("/rulesets/<name>/config")
def ruleset_config(name: str) -> Response:
    return jsonify(compiled_json(found_or_404(refs.shipped(name))))


@blueprint.get("/houserules")
def list_houserules() -> Response:
    limit = _int_arg("limit", 20, 1, 100)
    recent = [refs.saved(get_store(), v.slug, v.number) for v in get_store().recent(limit)]
    return jsonify({"houserules": [_summary(loaded) for loaded in recent if loaded]})


@blueprint.get("/houserules/<slug>")
def get_houserule(slug: str) -> Response:
    return jsonify(_detail(found_or_404(refs.saved(get_store(), slug))))


@blueprint.get("/houserules/<slug>/versions")
def list_versions(slug: str) -> Response:
    """A page of versions, newest first: ``limit`` of them numbered below ``before``."""
    limit = _int_arg("limit", version_pages.DEFAULT_LIMIT, 1, version_pages.MAX_LIMIT)
    before = _int_arg("before", MAX_VERSION + 1, 1, MAX_VERSION + 1)
    page = version_pages.newest_first(get_store(), slug, before=before, limit=limit)
    if page is None:
        abort(404)
    return jsonify(version_pages.page_json(page, limit))


@blueprint.get("/houserules/<slug>/versions/<int:number>")
def get_version(slug: str, number: int) -> Response:
    return jsonify(_detail(found_or_404(refs.saved(get_store(), slug, number))))


@blueprint.get("/houserules/<slug>/versions/<int:number>/config")
def version_config(slug: str, number: int) -> Response:
    return jsonify(compiled_json(found_or_404(refs.saved(get_store(), slug, number))))


@blueprint.get("/diff")
def diff_rulesets() -> Response:
    a = request.args.get("a", "")
    b = request.args.get("b", "")
    errors = [
        {
            "field": name,
            "message": _("no ruleset {value} (a shipped name, h/<slug> or h/<slug>/v<n>)").format(
                value=repr(value)
            ),
        }
        for name, value in (("a", a), ("b", b))
        if refs.resolve(get_store(), value) is None
    ]
    if errors:
        raise BadInput(400, _("both a and b must name rulesets"), errors)
    before = refs.resolve(get_store(), a)
    after = refs.resolve(get_store(), b)
    assert before is not None and after is not None
    changes = diff(before.ruleset, after.ruleset)
    return jsonify(
        {
            "a": before.ref,
            "b": after.ref,
            "changes": [
                {**change.to_json(), "sentence": change.sentence(before.ref, after.ref)}
                for change in changes
            ],
        }
    )


@blueprint.post("/houserules")
@limited
def create_houserule() -> tuple[Response, int]:
    body = _read_body()
    text, forked_from = body.text, body.forked_from
    ruleset, base = _validated(text)
    origin = None
    if forked_from:
        parent = refs.resolve(get_store(), forked_from)
        if parent is None or parent.version is None:
            raise BadInput(
                400,
                _("forked_from must name a saved house rule"),
                [
                    {
                        "field": "forked_from",
                        "message": _("no saved house rule {reference}").format(
                            reference=repr(forked_from)
                        ),
                    }
                ],
            )
        origin = (parent.version.slug, parent.version.number)
    saved = saving.save_new(
        get_store(),
        ruleset,
        text,
        base,
        origin,
        visibility=body.visibility or UNLISTED,
        language=None if isinstance(body.language, Unchanged) else body.language,
    )
    return _saved(saved.version, saved.secret), 201


@blueprint.put("/houserules/<slug>")
@limited
def update_houserule(slug: str) -> tuple[Response, int]:
    secret = request.headers.get("X-Edit-Secret", "")
    refused = saving.check_edit_secret(get_store(), slug, secret)
    if refused is saving.EditRefused.NO_SUCH_RULES:
        abort(404)
    if refused is saving.EditRefused.NO_SECRET:
        raise BadInput(
            401,
            _("send the edit secret in the X-Edit-Secret header"),
            [{"field": "X-Edit-Secret", "message": _("missing")}],
        )
    if refused is saving.EditRefused.WRONG_SECRET:
        raise BadInput(
            403,
            _("that edit secret is not right for these house rules"),
            [{"field": "X-Edit-Secret", "message": _("wrong secret")}],
        )
    body = _read_body()
    ruleset, base = _validated(body.text)
    version = saving.save_version(
        get_store(),
        slug,
        ruleset,
        body.text,
        base,
        visibility=body.visibility,
        language=body.language,
    )
    return _saved(version, None), 201


def _saved(version: Version, secret: str | None) -> Response:
    loaded = refs.saved(get_store(), version.slug, version.number)
    assert loaded is not None
    data = _summary(loaded)
    data["edit_url"] = edit_url(version.slug, secret) if secret else None
    if secret:
        data["edit_secret"] = secret
    response = jsonify(data)
    response.headers["Location"] = data["page_url"]
    response.headers["Cache-Control"] = "no-store"
    return response


class Body(NamedTuple):
    """What a create or update sends besides the rules' text."""

    text: str
    forked_from: str = ""
    #: None: not given.
    visibility: str | None = None
    #: The table language (None: each reader's own); KEEP: not given.
    language: str | Unchanged | None = KEEP


def _read_body() -> Body:
    """The ruleset text of a create or update (raw YAML, or JSON ``{"yaml"|"ruleset": ...}``),
    the ``forked_from`` reference, the ``visibility`` and the table ``language``.

    Only ``application/json`` and ``application/yaml`` bodies are read (415 otherwise,
    before reading): a browser sends neither across sites without asking first, as it
    would ``text/plain``. JSON that sends a key twice is a 422 naming the key."""
    kind = request.mimetype
    if kind not in BODY_TYPES:
        raise field_error(415, "Content-Type", not_accepted_type(kind))
    body = body_text()
    if kind == "application/yaml":
        return Body(body)
    data = parse_json(body)
    if not isinstance(data, dict):
        raise BadInput(
            400, _("send a JSON object"), [{"field": "body", "message": _("not an object")}]
        )
    unknown = sorted(set(data) - _JSON_KEYS)
    if unknown:
        raise BadInput(
            400,
            ngettext("unknown field: {names}", "unknown fields: {names}", len(unknown)).format(
                names=", ".join(unknown)
            ),
            [{"field": name, "message": _("unknown field")} for name in unknown],
        )
    forked_from = data.get("forked_from") or ""
    if not isinstance(forked_from, str):
        raise BadInput(
            400,
            _("forked_from is a string"),
            [{"field": "forked_from", "message": _("not a string")}],
        )
    visibility = data.get("visibility")
    if visibility is not None and visibility not in VISIBILITIES:
        problem = words.form_problem("visibility")
        raise BadInput(400, problem, [{"field": "visibility", "message": problem}])
    language = data.get("language", KEEP)
    spoken = isinstance(language, str) and language in LANGUAGES
    if language is not KEEP and language is not None and not spoken:
        problem = api_bad_language()
        raise BadInput(422, problem, [{"field": "language", "message": problem}])
    if ("yaml" in data) == ("ruleset" in data):
        raise BadInput(
            400,
            _("send exactly one of yaml (text) or ruleset (an object)"),
            [{"field": "yaml", "message": _("give yaml or ruleset")}],
        )
    if "yaml" in data:
        if not isinstance(data["yaml"], str):
            raise BadInput(
                400, _("yaml is a string"), [{"field": "yaml", "message": _("not a string")}]
            )
        return Body(data["yaml"], forked_from, visibility, language)
    if not isinstance(data["ruleset"], dict):
        raise BadInput(
            400, _("ruleset is an object"), [{"field": "ruleset", "message": _("not an object")}]
        )
    if _depth(data["ruleset"]) > MAX_NESTING:
        raise BadInput(
            422,
            _("the ruleset is nested deeper than {levels} levels").format(levels=MAX_NESTING),
            [{"field": "ruleset", "message": _("nested too deeply")}],
        )
    text = yaml.safe_dump(data["ruleset"], sort_keys=False, allow_unicode=True)
    if len(text.encode("utf-8")) > MAX_FILE_BYTES:
        abort(413)
    return Body(text, forked_from, visibility, language)


#: Deeper than any ruleset (sections hold knobs; notes hold strings).
MAX_NESTING = 32


def _depth(value: Any, level: int = 1) -> int:
    """How deeply ``value`` nests, counting no further than past ``MAX_NESTING``."""
    if level > MAX_NESTING or not isinstance(value, dict | list):
        return level
    children = value.values() if isinstance(value, dict) else value
    return max((_depth(child, level + 1) for child in children), default=level)


def _validated(text: str) -> tuple[Any, str]:
    """The ruleset of a create or update and its base; a 422 with one error per problem
    (each at its field: a lone surrogate in ``notes[0]`` is field ``notes.0``)."""
    ruleset, diagnostics, base = saving.read_yaml(text)
    if ruleset is None:
        raise BadInput(
            422,
            _("the ruleset has errors"),
            [_diagnostic(d) for d in diagnostics if d.severity == "error"],
        )
    return ruleset, base


def _int_arg(name: str, default: int, low: int, high: int) -> int:
    raw = request.args.get(name)
    if raw is None:
        return default
    try:
        value = int(raw)
    except ValueError:
        raise BadInput(
            400,
            _("{name} is a whole number").format(name=name),
            [{"field": name, "message": _("not a number")}],
        ) from None
    if not low <= value <= high:
        raise BadInput(
            400,
            _("{name} is from {low} to {high}").format(name=name, low=low, high=high),
            [{"field": name, "message": _("out of range")}],
        )
    return value
