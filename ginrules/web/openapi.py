"""The OpenAPI 3.1 description of the JSON API (served at ``/api/openapi.json``).

Written next to the code it describes and checked against the running API
with schemathesis (``tests/test_openapi.py``).
"""

from __future__ import annotations

from typing import Any

from ginrules import __version__
from ginrules.web import openapi_bot, openapi_tables, openapi_versions
from ginrules.web.refs import SHIPPED_NAME_PATTERN
from ginrules.web.storage import MAX_VERSION, SLUG_PATTERN
from ginrules.web.tables import UNLISTED, VISIBILITIES
from ginrules.words.i18n import LANGUAGES
from ginrules.words.languages import API_LANGUAGE
from ginrules.words.versions import API_LIST

_REF = {"type": "string", "pattern": f"^{SHIPPED_NAME_PATTERN}$"}
_SLUG = {"type": "string", "pattern": f"^{SLUG_PATTERN}$"}


def _error_response(description: str) -> dict[str, Any]:
    return {
        "description": description,
        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}},
    }


def _json(schema_ref: str, description: str) -> dict[str, Any]:
    return {
        "description": description,
        "content": {"application/json": {"schema": {"$ref": f"#/components/schemas/{schema_ref}"}}},
    }


_NOT_FOUND = _error_response("No such ruleset or house rule")
#: The site's pages (sheets, QR codes) answer a person: an HTML error page.
_NOT_FOUND_PAGE = {
    "description": "No such ruleset or version (an HTML page)",
    "content": {"text/html": {"schema": {"type": "string"}}},
}


#: Who finds a house rule: by its link only, or on the home page too.
_VISIBILITY: dict[str, Any] = {"type": "string", "enum": list(VISIBILITIES)}
_LANGUAGE: dict[str, Any] = {"type": ["string", "null"], "enum": [*LANGUAGES, None]}


def _url() -> dict[str, Any]:
    return {"type": "string", "format": "uri"}


def document(base_url: str) -> dict[str, Any]:
    summary_props: dict[str, Any] = {
        "ref": {"type": "string"},
        "name": {"type": "string"},
        "description": {"type": "string"},
        "author": {"type": "string"},
        "fingerprint": {"type": "string", "pattern": "^[0-9a-f]{12}$"},
        "kind": {"type": "string", "enum": ["ruleset", "houserule"]},
        "slug": _SLUG,
        "version": {"type": "integer", "minimum": 1},
        "latest_version": {"type": "integer", "minimum": 1},
        "base": {"type": "string"},
        "created_at": {"type": "string", "format": "date-time"},
        "forked_from": {"type": ["string", "null"]},
        "forked_from_name": {"type": ["string", "null"]},
        "visibility": _VISIBILITY,
        "language": {**_LANGUAGE, "description": API_LANGUAGE},
        **{
            name: _url()
            for name in (
                "page_url",
                "share_url",
                "sheet_url",
                "pdf_url",
                "scorepad_url",
                "scorepad_pdf_url",
                "qr_png_url",
                "qr_svg_url",
                "yaml_url",
                "json_url",
                "fork_url",
                "versions_url",
            )
        },
    }
    required = [
        "ref",
        "name",
        "fingerprint",
        "page_url",
        "share_url",
        "sheet_url",
        "pdf_url",
        "qr_png_url",
        "qr_svg_url",
    ]
    slug_param = {"name": "slug", "in": "path", "required": True, "schema": _SLUG}
    number_param = {
        "name": "number",
        "in": "path",
        "required": True,
        "schema": {"type": "integer", "minimum": 1, "maximum": MAX_VERSION},
    }
    name_param = {"name": "name", "in": "path", "required": True, "schema": _REF}
    create_body = {
        "required": True,
        "content": {
            "application/json": {"schema": {"$ref": "#/components/schemas/RulesetInput"}},
            "application/yaml": {
                "schema": {
                    "type": "object",
                    "description": "a ruleset document (see /schema/ruleset.schema.json),"
                    " at most 64 KiB",
                }
            },
        },
    }
    bad = {
        "400": _error_response("The body or a parameter cannot be read"),
        "413": _error_response("The body is too large"),
        "415": _error_response("The body is neither JSON nor YAML"),
        "422": _error_response("The ruleset has errors (each with its line and field)"),
        "409": _error_response(
            "Not stored, nothing changed: the house rule has MAX_VERSIONS versions (field"
            " slug; fork it to go on), or the database refused it"
        ),
        "429": _error_response("Too many saves from this address"),
    }
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "ginrules API",
            "version": __version__,
            "description": "Gin Rummy rulesets and house rules: read, create, version, compare.",
        },
        "servers": [{"url": base_url}],
        "paths": {
            "/api/rulesets": {
                "get": {
                    "summary": "The shipped rulesets and house rules",
                    "operationId": "listRulesets",
                    "responses": {"200": _json("RulesetList", "Every shipped ruleset")},
                }
            },
            "/api/rulesets/{name}": _get(
                "getRuleset",
                "One shipped ruleset, with its document and warnings",
                [name_param],
                "RulesetDetail",
                "The ruleset",
            ),
            "/api/rulesets/{name}/config": _get(
                "getRulesetConfig",
                "The compiled engine configuration",
                [name_param],
                "Compiled",
                "Canonical configuration",
            ),
            "/api/houserules": {
                "get": {
                    "summary": "Recently saved house rules",
                    "operationId": "listHouseRules",
                    "parameters": [
                        {
                            "name": "limit",
                            "in": "query",
                            "schema": {"type": "integer", "minimum": 1, "maximum": 100},
                        }
                    ],
                    "responses": {
                        "200": _json("HouseRuleList", "Newest first"),
                        "400": _error_response("Bad limit"),
                    },
                },
                "post": {
                    "summary": "Save new house rules (version 1); the edit secret is shown once",
                    "operationId": "createHouseRule",
                    "requestBody": create_body,
                    "responses": {"201": _json("Saved", "Saved"), **bad},
                },
            },
            "/api/houserules/{slug}": {
                "get": {
                    "summary": "The latest version of a saved house rule",
                    "operationId": "getHouseRule",
                    "parameters": [slug_param],
                    "responses": {
                        "200": _json("RulesetDetail", "Latest version"),
                        "404": _NOT_FOUND,
                    },
                },
                "put": {
                    "summary": "Save a new version (needs the edit secret)",
                    "operationId": "updateHouseRule",
                    "parameters": [
                        slug_param,
                        {
                            "name": "X-Edit-Secret",
                            "in": "header",
                            "required": True,
                            "schema": {"type": "string"},
                        },
                    ],
                    "requestBody": create_body,
                    "responses": {
                        "201": _json("Saved", "The new version"),
                        "401": _error_response("No edit secret"),
                        "403": _error_response("Wrong edit secret"),
                        "404": _NOT_FOUND,
                        **bad,
                    },
                },
            },
            "/api/houserules/{slug}/versions": {
                "get": {
                    "summary": "Every version, newest first, a page at a time",
                    "operationId": "listVersions",
                    "parameters": [slug_param, *openapi_versions.paging()],
                    "responses": {
                        "200": _json("VersionList", "Versions"),
                        "400": _error_response(API_LIST["bad"]),
                        "404": _NOT_FOUND,
                    },
                }
            },
            "/api/houserules/{slug}/versions/{number}": _get(
                "getVersion",
                "One version (never changes)",
                [slug_param, number_param],
                "RulesetDetail",
                "The version",
            ),
            "/api/houserules/{slug}/versions/{number}/config": _get(
                "getVersionConfig",
                "A version's compiled configuration",
                [slug_param, number_param],
                "Compiled",
                "Canonical configuration",
            ),
            "/api/diff": {
                "get": {
                    "summary": "What differs between two rulesets, knob by knob",
                    "operationId": "diff",
                    "parameters": [
                        {
                            "name": p,
                            "in": "query",
                            "required": True,
                            "schema": {"type": "string"},
                            "description": "a shipped name, h/<slug> or h/<slug>/v<n>",
                        }
                        for p in ("a", "b")
                    ],
                    "responses": {
                        "200": _json("Diff", "The changes"),
                        "400": _error_response("Unknown ruleset"),
                    },
                }
            },
            "/rules/{name}/sheet": _file(
                "getSheet", "The rule sheet (HTML)", "text/html", name_param
            ),
            "/rules/{name}/sheet.pdf": _file(
                "getSheetPdf", "The rule sheet (PDF)", "application/pdf", name_param
            ),
            "/rules/{name}/qr.png": _file("getQrPng", "QR code (PNG)", "image/png", name_param),
            "/rules/{name}/qr.svg": _file("getQrSvg", "QR code (SVG)", "image/svg+xml", name_param),
            "/h/{slug}/v{number}/sheet": _file(
                "getVersionSheet",
                "A version's rule sheet (HTML)",
                "text/html",
                slug_param,
                number_param,
            ),
            "/h/{slug}/v{number}/sheet.pdf": _file(
                "getVersionSheetPdf",
                "A version's rule sheet (PDF)",
                "application/pdf",
                slug_param,
                number_param,
            ),
            "/h/{slug}/qr.png": _file(
                "getShareQrPng", "The short link's QR code (PNG)", "image/png", slug_param
            ),
            "/h/{slug}/qr.svg": _file(
                "getShareQrSvg", "The short link's QR code (SVG)", "image/svg+xml", slug_param
            ),
            **openapi_tables.paths(),
            **openapi_bot.paths(),
        },
        "components": {
            "schemas": {
                **openapi_tables.schemas(),
                **openapi_bot.schemas(),
                "Error": {
                    "type": "object",
                    "required": ["error", "status"],
                    "properties": {
                        "error": {"type": "string"},
                        "status": {"type": "integer"},
                        "errors": {
                            "type": "array",
                            "items": {
                                "type": "object",
                                "properties": {
                                    "field": {"type": ["string", "null"]},
                                    "message": {"type": "string"},
                                    "line": {"type": ["integer", "null"]},
                                    "column": {"type": ["integer", "null"]},
                                },
                                "required": ["message"],
                            },
                        },
                    },
                },
                "Summary": {"type": "object", "required": required, "properties": summary_props},
                "RulesetDetail": {
                    "allOf": [
                        {"$ref": "#/components/schemas/Summary"},
                        {
                            "type": "object",
                            "required": ["document", "warnings"],
                            "properties": {
                                "document": {"type": "object"},
                                "warnings": {"type": "array", "items": {"type": "object"}},
                            },
                        },
                    ]
                },
                "Saved": {
                    "allOf": [
                        {"$ref": "#/components/schemas/Summary"},
                        {
                            "type": "object",
                            "required": ["slug", "version", "edit_url"],
                            "properties": {
                                "edit_url": {"type": ["string", "null"], "format": "uri"},
                                "edit_secret": {"type": "string"},
                            },
                        },
                    ]
                },
                "RulesetList": {
                    "type": "object",
                    "required": ["rulesets"],
                    "properties": {
                        "rulesets": {
                            "type": "array",
                            "items": {"$ref": "#/components/schemas/Summary"},
                        }
                    },
                },
                "HouseRuleList": {
                    "type": "object",
                    "required": ["houserules"],
                    "properties": {
                        "houserules": {
                            "type": "array",
                            "items": {"$ref": "#/components/schemas/Summary"},
                        }
                    },
                },
                "VersionList": openapi_versions.version_list(),
                "Compiled": {
                    "type": "object",
                    "required": ["ref", "name", "fingerprint", "config"],
                    "properties": {
                        "ref": {"type": "string"},
                        "name": {"type": "string"},
                        "fingerprint": {"type": "string"},
                        "config": {"type": "object"},
                    },
                },
                "Diff": {
                    "type": "object",
                    "required": ["a", "b", "changes"],
                    "properties": {
                        "a": {"type": "string"},
                        "b": {"type": "string"},
                        "changes": {"type": "array", "items": {"type": "object"}},
                    },
                },
                "RulesetInput": {
                    "type": "object",
                    "additionalProperties": False,
                    "properties": {
                        "yaml": {
                            "type": "string",
                            "description": "the ruleset as YAML, at most 64 KiB",
                        },
                        "ruleset": {
                            "type": "object",
                            "description": "a ruleset document; see /schema/ruleset.schema.json",
                        },
                        "forked_from": {"type": "string"},
                        "visibility": {**_VISIBILITY, "default": UNLISTED},
                        "language": {**_LANGUAGE, "description": API_LANGUAGE},
                    },
                    "oneOf": [{"required": ["yaml"]}, {"required": ["ruleset"]}],
                },
            }
        },
    }


def _get(
    operation: str,
    summary: str,
    parameters: list[dict[str, Any]],
    schema: str,
    description: str,
) -> dict[str, Any]:
    """A GET answering ``schema`` as JSON, or 404."""
    return {
        "get": {
            "summary": summary,
            "operationId": operation,
            "parameters": parameters,
            "responses": {"200": _json(schema, description), "404": _NOT_FOUND},
        }
    }


def _file(
    operation: str, summary: str, mimetype: str, *parameters: dict[str, Any]
) -> dict[str, Any]:
    schema: dict[str, Any] = (
        {"type": "string"}
        if mimetype.startswith(("text/", "image/svg"))
        else {"type": "string", "format": "binary"}
    )
    return {
        "get": {
            "summary": summary,
            "operationId": operation,
            "parameters": list(parameters),
            "responses": {
                "200": {"description": summary, "content": {mimetype: {"schema": schema}}},
                "304": {"description": "Not modified (ETag)"},
                "404": _NOT_FOUND_PAGE,
            },
        }
    }
