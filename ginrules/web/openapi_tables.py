"""The card table's part of the OpenAPI document (merged by :mod:`ginrules.web.openapi`)."""

from __future__ import annotations

from typing import Any, Final

from ginrules.web.storage import SLUG_PATTERN
from ginrules.web.table_service import MAX_SEEN, NAME_LENGTH, REQUEST_KEY_LENGTH

_TABLE_PARAM: Final = {
    "name": "table",
    "in": "path",
    "required": True,
    "schema": {"type": "string", "pattern": f"^{SLUG_PATTERN}$"},
}


def _answer(schema: str, description: str) -> dict[str, Any]:
    return {
        "description": description,
        "content": {"application/json": {"schema": {"$ref": f"#/components/schemas/{schema}"}}},
    }


def _refused(description: str) -> dict[str, Any]:
    return _answer("Error", description)


def paths() -> dict[str, Any]:
    return {
        "/api/tables": {
            "post": {
                "summary": "Start table",
                "operationId": "createTable",
                "requestBody": {
                    "required": True,
                    "content": {
                        "application/json": {"schema": {"$ref": "#/components/schemas/TableInput"}}
                    },
                },
                "responses": {
                    "201": _answer("TableStarted", "Table started"),
                    "400": _refused("Unreadable body"),
                    "413": _refused("Too large"),
                    "415": _refused("Not JSON"),
                    "422": _refused("Cannot start"),
                    "429": _refused("Too many"),
                },
            }
        },
        "/api/tables/{table}": {
            "get": {
                "summary": "Table score",
                "operationId": "getTable",
                "parameters": [_TABLE_PARAM],
                "responses": {
                    "200": _answer("Table", "The score"),
                    "404": _refused("No table"),
                },
            }
        },
        "/api/tables/{table}/events": {
            "post": {
                "summary": "Record change",
                "operationId": "addTableEvent",
                "parameters": [
                    _TABLE_PARAM,
                    {
                        "name": "X-Scorer-Key",
                        "in": "header",
                        "required": True,
                        "schema": {"type": "string"},
                    },
                    {"name": "X-Player", "in": "header", "schema": {"type": "string"}},
                ],
                "requestBody": {
                    "required": True,
                    "content": {
                        "application/json": {"schema": {"$ref": "#/components/schemas/TableEvent"}}
                    },
                },
                "responses": {
                    "201": _answer("TableChanged", "Change stored"),
                    "400": _refused("Unreadable body"),
                    "401": _refused("No key"),
                    "403": _refused("Wrong key"),
                    "404": _refused("No table"),
                    "409": _answer("TableMovedOn", "Stale score"),
                    "413": _refused("Too large"),
                    "415": _refused("Not JSON"),
                    "422": _refused("Impossible change"),
                    "429": _refused("Too many"),
                },
            }
        },
    }


def schemas() -> dict[str, Any]:
    games = {
        "type": "array",
        "items": {
            "type": "object",
            "required": ["points", "boxes", "hands", "target", "winner"],
            "properties": {
                "points": {"type": "array", "items": {"type": "integer"}},
                "boxes": {"type": "array", "items": {"type": "integer"}},
                "hands": {"type": "integer"},
                "target": {"type": "integer"},
                "winner": {"type": ["integer", "null"]},
            },
        },
    }
    table: dict[str, Any] = {
        "type": "object",
        "required": [
            "slug",
            "rules",
            "players",
            "format",
            "last_event",
            "games",
            "finished",
            "next_deal",
            "hands",
            "results",
            "log",
        ],
        "properties": {
            "slug": {"type": "string"},
            "rules": {
                "type": "object",
                "required": ["ref", "name", "fingerprint"],
                "properties": {
                    "ref": {"type": "string"},
                    "name": {"type": "string"},
                    "fingerprint": {"type": "string"},
                },
            },
            "players": {"type": "array", "items": {"type": "string"}},
            "format": {
                "type": "string",
                "enum": ["two_player", "hollywood", "partnership", "three_handed"],
            },
            "last_event": {"type": "integer", "minimum": 0},
            "games": games,
            "finished": {"type": "boolean"},
            "next_deal": {"type": ["object", "null"]},
            "hands": {"type": "array", "items": {"type": "object"}},
            "results": {"type": "array", "items": {"type": "object"}},
            "log": {"type": "array", "items": {"type": "object"}},
        },
    }
    return {
        "TableInput": {
            "type": "object",
            "additionalProperties": False,
            "required": ["rules", "players", "first_dealers"],
            "properties": {
                "rules": {"type": "string"},
                "players": {
                    "type": "array",
                    "items": {"type": "string", "maxLength": NAME_LENGTH},
                    "maxItems": 4,
                },
                "first_dealers": {
                    "type": "array",
                    "items": {"type": "integer", "minimum": 0, "maximum": 3},
                    "maxItems": 2,
                },
            },
        },
        "TableEvent": {
            "type": "object",
            "additionalProperties": False,
            "required": ["seen", "event"],
            "properties": {
                "seen": {"type": "integer", "minimum": 0, "maximum": MAX_SEEN},
                "event": {"type": "object"},
                "request_key": {
                    "type": "string",
                    "minLength": 1,
                    "maxLength": REQUEST_KEY_LENGTH,
                },
            },
        },
        "Table": table,
        "TableStarted": {
            "allOf": [
                {"$ref": "#/components/schemas/Table"},
                {
                    "type": "object",
                    "required": ["scorer_key"],
                    "properties": {"scorer_key": {"type": "string"}},
                },
            ]
        },
        "TableChanged": {
            "allOf": [
                {"$ref": "#/components/schemas/Table"},
                {
                    "type": "object",
                    "required": ["event"],
                    "properties": {"event": {"type": "integer", "minimum": 1}},
                },
            ]
        },
        "TableMovedOn": {
            "allOf": [
                {"$ref": "#/components/schemas/Error"},
                {
                    "type": "object",
                    "required": ["table"],
                    "properties": {"table": {"$ref": "#/components/schemas/Table"}},
                },
            ]
        },
    }
