"""The versions list's part of the OpenAPI document (used by :mod:`ginrules.web.openapi`):
its paging parameters and its answer, each version with what it changed."""

from __future__ import annotations

from typing import Any

from ginrules.web.storage import MAX_VERSION
from ginrules.web.version_pages import DEFAULT_LIMIT, MAX_LIMIT
from ginrules.words.versions import API_LIST


def paging() -> list[dict[str, Any]]:
    """The versions list's ``limit`` and ``before`` (a cursor: the next page's URL has it)."""
    return [
        {
            "name": "limit",
            "in": "query",
            "description": API_LIST["limit"],
            "schema": {
                "type": "integer",
                "minimum": 1,
                "maximum": MAX_LIMIT,
                "default": DEFAULT_LIMIT,
            },
        },
        {
            "name": "before",
            "in": "query",
            "description": API_LIST["before"],
            "schema": {"type": "integer", "minimum": 1, "maximum": MAX_VERSION + 1},
        },
    ]


def version_list() -> dict[str, Any]:
    """A page of versions: each a Summary with its ``changes``, and the next page."""
    change = {
        "type": "object",
        "required": ["knob", "label", "before", "after"],
        "properties": {
            "knob": {"type": "string"},
            "label": {"type": "string"},
            "before": {},
            "after": {},
        },
    }
    entry = {
        "allOf": [
            {"$ref": "#/components/schemas/Summary"},
            {
                "type": "object",
                "required": ["slug", "version", "changes"],
                "properties": {
                    "changes": {
                        "type": ["array", "null"],
                        "items": change,
                        "description": API_LIST["changes"],
                    }
                },
            },
        ]
    }
    return {
        "type": "object",
        "required": ["versions", "latest_version", "next"],
        "properties": {
            "versions": {"type": "array", "items": entry},
            "latest_version": {"type": "integer", "minimum": 1},
            "next": {"type": ["string", "null"], "format": "uri", "description": API_LIST["next"]},
        },
    }
