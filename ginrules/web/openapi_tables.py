"""The card table's part of the OpenAPI document (merged by :mod:`ginrules.web.openapi`).

The keys, the event kinds, the CSV's columns and the table export are the machine's
and stay English in every language; only the error messages are in the request's
language (``?lang=``, as on the site).
"""

from __future__ import annotations

from typing import Any, Final

from ginrules.web.storage import SLUG_PATTERN
from ginrules.web.table_files import EXPORT_VERSION
from ginrules.web.table_import import (
    ACTOR_LENGTH,
    MAX_EVENTS,
    RULES_REF_PATTERN,
    RULES_TEXT_LENGTH,
)
from ginrules.web.table_service import MAX_SEEN, NAME_LENGTH, REQUEST_KEY_LENGTH

_TABLE_PARAM: Final = {
    "name": "table",
    "in": "path",
    "required": True,
    "schema": {"type": "string", "pattern": f"^{SLUG_PATTERN}$"},
}


#: Parts several bodies share: the players, who deals first, the changes a phone
#: saw, and the key that makes a retry the same change.
_PLAYERS: Final = {
    "type": "array",
    "items": {"type": "string", "maxLength": NAME_LENGTH},
    "maxItems": 4,
}
_FIRST_DEALERS: Final = {
    "type": "array",
    "items": {"type": "integer", "minimum": 0, "maximum": 3},
    "maxItems": 2,
}
_SEEN: Final = {"type": "integer", "minimum": 0, "maximum": MAX_SEEN}
_REQUEST_KEY: Final = {"type": "string", "minLength": 1, "maxLength": REQUEST_KEY_LENGTH}

_SCORER_KEY: Final = {
    "name": "X-Scorer-Key",
    "in": "header",
    "required": True,
    "schema": {"type": "string"},
}


def _answer(schema: str, description: str) -> dict[str, Any]:
    return {
        "description": description,
        "content": {"application/json": {"schema": {"$ref": f"#/components/schemas/{schema}"}}},
    }


def _refused(description: str) -> dict[str, Any]:
    return _answer("Error", description)


#: What each of a table's files is.
_FILE_SCHEMAS: Final[dict[str, dict[str, Any]]] = {
    "text/html": {"type": "string"},
    "text/csv": {"type": "string"},
    "application/pdf": {"type": "string", "format": "binary"},
    "application/json": {"$ref": "#/components/schemas/TableExport"},
}


def _table_file(operation: str, summary: str, mimetype: str) -> dict[str, Any]:
    """A table's file: anyone with the table's link may read it."""
    schema = _FILE_SCHEMAS[mimetype]
    return {
        "get": {
            "summary": summary,
            "operationId": operation,
            "parameters": [_TABLE_PARAM],
            "responses": {
                "200": {"description": summary, "content": {mimetype: {"schema": schema}}},
                "304": {"description": "Not modified"},
                "404": {
                    "description": "No table",
                    "content": {
                        "text/html": {"schema": {"type": "string"}},
                        "application/json": {"schema": {"$ref": "#/components/schemas/Error"}},
                    },
                },
            },
        }
    }


def paths() -> dict[str, Any]:
    return {
        "/api/tables/import": {
            "post": {
                "summary": "Import table",
                "operationId": "importTable",
                "requestBody": {
                    "required": True,
                    "content": {
                        "application/json": {"schema": {"$ref": "#/components/schemas/TableExport"}}
                    },
                },
                "responses": {
                    "201": _answer("TableStarted", "Table imported"),
                    "400": _refused("Unreadable body"),
                    "413": _refused("Too large"),
                    "415": _refused("Not JSON"),
                    "422": _refused("Cannot import"),
                    "429": _refused("Too many"),
                },
            }
        },
        "/t/{table}/pad": _table_file("getTablePad", "Filled pad", "text/html"),
        "/t/{table}/pad.pdf": _table_file("getTablePadPdf", "Pad PDF", "application/pdf"),
        "/t/{table}/hands.csv": _table_file("getTableHands", "Hands CSV", "text/csv"),
        "/t/{table}/table.json": _table_file("exportTable", "Table export", "application/json"),
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
        "/api/tables/{table}/next": {
            "post": {
                "summary": "Next game",
                "operationId": "startNextGame",
                "parameters": [_TABLE_PARAM, _SCORER_KEY],
                "requestBody": {
                    "required": True,
                    "content": {
                        "application/json": {"schema": {"$ref": "#/components/schemas/NextGame"}}
                    },
                },
                "responses": {
                    "201": _answer("TableChanged", "Game started"),
                    "400": _refused("Unreadable body"),
                    "401": _refused("No key"),
                    "403": _refused("Wrong key"),
                    "404": _refused("No table"),
                    "409": _answer("TableMovedOn", "Stale score"),
                    "413": _refused("Too large"),
                    "415": _refused("Not JSON"),
                    "422": _refused("Not over"),
                    "429": _refused("Too many"),
                },
            }
        },
        "/api/tables/{table}/scorer-link": {
            "get": {
                "summary": "Scoring link",
                "operationId": "getScorerLink",
                "parameters": [_TABLE_PARAM, _SCORER_KEY],
                "responses": {
                    "200": _answer("ScorerLink", "Scoring link"),
                    "401": _refused("No key"),
                    "403": _refused("Wrong key"),
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
                    _SCORER_KEY,
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
            "next_game": {"type": ["object", "null"]},
            "newer": {"type": ["object", "null"]},
        },
    }
    return {
        "TableExport": _export(),
        "TableInput": {
            "type": "object",
            "additionalProperties": False,
            "required": ["rules", "players", "first_dealers"],
            "properties": {
                "rules": {"type": "string"},
                "players": _PLAYERS,
                "first_dealers": _FIRST_DEALERS,
            },
        },
        "TableEvent": {
            "type": "object",
            "additionalProperties": False,
            "required": ["seen", "event"],
            "properties": {
                "seen": _SEEN,
                "event": {"type": "object"},
                "request_key": _REQUEST_KEY,
            },
        },
        "NextGame": {
            "type": "object",
            "additionalProperties": False,
            "required": ["seen"],
            "properties": {
                "seen": _SEEN,
                "rules": {"type": "string", "enum": ["same", "newer"]},
                "request_key": _REQUEST_KEY,
            },
        },
        "ScorerLink": {
            "type": "object",
            "required": ["url", "qr"],
            "properties": {"url": {"type": "string"}, "qr": {"type": "string"}},
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


def _export() -> dict[str, Any]:
    """A table as ``/t/<slug>/table.json`` gives it and ``/api/tables/import`` takes it."""
    text = {"type": "string", "minLength": 1, "maxLength": RULES_TEXT_LENGTH}
    return {
        "type": "object",
        "additionalProperties": False,
        "required": ["ginrules_table", "players", "first_dealers", "rules", "events"],
        "properties": {
            "ginrules_table": {"const": EXPORT_VERSION},
            "players": _PLAYERS,
            "first_dealers": _FIRST_DEALERS,
            "rules": {
                "type": "object",
                "additionalProperties": False,
                "required": ["ref", "name", "fingerprint", "yaml"],
                "properties": {
                    "ref": {**text, "pattern": f"^{RULES_REF_PATTERN}$"},
                    "name": text,
                    "fingerprint": {"type": "string"},
                    "yaml": {"type": "string"},
                },
            },
            "events": {
                "type": "array",
                "maxItems": MAX_EVENTS,
                "items": {
                    "type": "object",
                    "additionalProperties": False,
                    "required": ["number", "event", "actor", "at"],
                    "properties": {
                        "number": {"type": "integer", "minimum": 1},
                        "event": {"type": "object"},
                        "actor": {"type": "string", "minLength": 1, "maxLength": ACTOR_LENGTH},
                        "at": {"type": "string", "format": "date-time"},
                    },
                },
            },
        },
    }
