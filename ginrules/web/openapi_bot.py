"""The bot game's part of the OpenAPI document (merged by :mod:`ginrules.web.openapi`).

The keys, the phases, the move kinds and the actions are the machine's and stay
English; the texts (``prompt``, ``label``, ``*_words``, the lines) are in the
request's language (``?lang=``, as on the site).
"""

from __future__ import annotations

from typing import Any, Final

from ginrules.web.bot_games import BOT_CHOICES, MAX_SEED, MAX_SEEN
from ginrules.web.storage import SLUG_PATTERN

_GAME_PARAM: Final = {
    "name": "game",
    "in": "path",
    "required": True,
    "schema": {"type": "string", "pattern": f"^{SLUG_PATTERN}$"},
}
_CARDS: Final = {"type": "array", "items": {"type": "string"}}
_LINES: Final = {"type": "array", "items": {"type": "string"}}


def _answer(schema: str, description: str) -> dict[str, Any]:
    return {
        "description": description,
        "content": {"application/json": {"schema": {"$ref": f"#/components/schemas/{schema}"}}},
    }


def _body(schema: str) -> dict[str, Any]:
    return {
        "required": True,
        "content": {"application/json": {"schema": {"$ref": f"#/components/schemas/{schema}"}}},
    }


def paths() -> dict[str, Any]:
    return {
        "/api/bots": {
            "post": {
                "summary": "Start game",
                "operationId": "createBotGame",
                "requestBody": _body("BotGameInput"),
                "responses": {
                    "201": _answer("BotGameStarted", "Game started"),
                    "400": _answer("Error", "Unreadable body"),
                    "413": _answer("Error", "Too large"),
                    "415": _answer("Error", "Not JSON"),
                    "422": _answer("Error", "Cannot start"),
                    "429": _answer("Error", "Too many"),
                },
            }
        },
        "/api/bots/{game}": {
            "get": {
                "summary": "Game state",
                "operationId": "getBotGame",
                "parameters": [_GAME_PARAM],
                "responses": {
                    "200": _answer("BotGame", "The game"),
                    "404": _answer("Error", "No game"),
                    "410": _answer("Error", "Cannot replay"),
                },
            }
        },
        "/api/bots/{game}/actions": {
            "post": {
                "summary": "Play move",
                "operationId": "addBotMove",
                "parameters": [
                    _GAME_PARAM,
                    {
                        "name": "X-Player-Key",
                        "in": "header",
                        "required": True,
                        "schema": {"type": "string"},
                    },
                ],
                "requestBody": _body("BotMove"),
                "responses": {
                    "201": _answer("BotGame", "Move played"),
                    "400": _answer("Error", "Unreadable body"),
                    "401": _answer("Error", "No key"),
                    "403": _answer("Error", "Wrong key"),
                    "404": _answer("Error", "No game"),
                    "409": _answer("BotGameMovedOn", "Stale count"),
                    "410": _answer("Error", "Cannot replay"),
                    "413": _answer("Error", "Too large"),
                    "415": _answer("Error", "Not JSON"),
                    "422": _answer("Error", "Move refused"),
                },
            }
        },
    }


def schemas() -> dict[str, Any]:
    arrangement = {
        "melds": {"type": "array", "items": _CARDS},
        "deadwood_cards": _CARDS,
        "deadwood": {"type": "integer", "minimum": 0},
    }
    hand: dict[str, Any] = {
        "type": "object",
        "required": [
            "number",
            "phase",
            "prompt",
            "knock_limit",
            "melds",
            "deadwood_cards",
            "deadwood",
            "pile_top",
            "stock_left",
            "opponent_cards",
            "opponent_known",
            "knock",
        ],
        "properties": {
            "number": {"type": "integer", "minimum": 1},
            "phase": {
                "type": "string",
                "enum": ["offer", "draw", "discard", "last_chance", "layoff"],
            },
            "prompt": {"type": "string"},
            "opponent": {"type": "string"},
            "dealer": {"type": "string"},
            "knock_limit": {"type": "integer", "minimum": 0},
            "knock_limit_text": {"type": "string"},
            "doubled": {"type": "boolean"},
            **arrangement,
            "taken": {"type": ["string", "null"]},
            "pile_top": {"type": ["string", "null"]},
            "pile_count": {"type": "integer", "minimum": 0},
            "pile_size": {"type": "string"},
            "stock_left": {"type": "integer", "minimum": 0},
            "stock_words": {"type": "string"},
            "dead_at": {"type": "integer", "minimum": 0},
            "dead_at_words": {"type": "string"},
            "opponent_cards": {"type": "integer", "minimum": 0},
            "opponent_holds": {"type": "string"},
            "opponent_known": _CARDS,
            "knock": {
                "type": ["object", "null"],
                "properties": {
                    **arrangement,
                    "text": {"type": "string"},
                    "preview": {"type": "string"},
                },
            },
        },
    }
    move = {
        "type": "object",
        "required": ["action", "kind", "label"],
        "properties": {
            "action": {"type": "object", "required": ["action"]},
            "kind": {"type": "string"},
            "card": {"type": ["string", "null"]},
            "left": {"type": ["integer", "null"]},
            "label": {"type": "string"},
        },
    }
    game: dict[str, Any] = {
        "type": "object",
        "required": [
            "slug",
            "rules",
            "bot",
            "format",
            "players",
            "seen",
            "over",
            "seed",
            "score",
            "hand",
            "moves",
            "this_hand",
            "latest",
            "last_round",
            "results",
            "page_url",
        ],
        "properties": {
            "slug": {"type": "string"},
            "rules": {
                "type": "object",
                "required": ["ref", "name", "fingerprint", "path"],
                "properties": {
                    "ref": {"type": "string"},
                    "name": {"type": "string"},
                    "fingerprint": {"type": "string"},
                    "path": {"type": "string"},
                },
            },
            "bot": {"type": "string", "enum": list(BOT_CHOICES)},
            "format": {
                "type": "string",
                "enum": ["two_player", "hollywood", "partnership", "three_handed"],
            },
            "matchup": {"type": "string"},
            "players": {"type": "array", "items": {"type": "string"}},
            "seen": {"type": "integer", "minimum": 0},
            "over": {"type": "boolean"},
            "seed": {"type": ["integer", "null"]},
            "score": {
                "type": "object",
                "required": ["games", "sides", "line"],
                "properties": {
                    "games": {"type": "array", "items": {"type": "object"}},
                    "sides": {"type": "array", "items": {"type": "string"}},
                    "line": {"type": "string"},
                },
            },
            "hand": {"anyOf": [hand, {"type": "null"}]},
            "moves": {"type": "array", "items": move},
            "this_hand": _LINES,
            "latest": _LINES,
            "last_round": {
                "type": ["object", "null"],
                "properties": {
                    "number": {"type": "integer", "minimum": 1},
                    "lines": _LINES,
                    "new": {"type": "boolean"},
                },
            },
            "results": _LINES,
            "page_url": {"type": "string", "format": "uri"},
        },
    }
    return {
        "BotGameInput": {
            "type": "object",
            "additionalProperties": False,
            "required": ["rules"],
            "properties": {
                "rules": {"type": "string"},
                "bot": {"type": "string", "enum": list(BOT_CHOICES)},
                "seed": {"type": "integer", "minimum": 0, "maximum": MAX_SEED},
            },
        },
        "BotMove": {
            "type": "object",
            "additionalProperties": False,
            "required": ["seen", "action"],
            "properties": {
                "seen": {"type": "integer", "minimum": 0, "maximum": MAX_SEEN},
                "action": {"type": "object"},
            },
        },
        "BotGame": game,
        "BotGameStarted": {
            "allOf": [
                {"$ref": "#/components/schemas/BotGame"},
                {
                    "type": "object",
                    "required": ["player_key"],
                    "properties": {"player_key": {"type": "string"}},
                },
            ]
        },
        "BotGameMovedOn": {
            "allOf": [
                {"$ref": "#/components/schemas/Error"},
                {
                    "type": "object",
                    "required": ["game"],
                    "properties": {"game": {"$ref": "#/components/schemas/BotGame"}},
                },
            ]
        },
    }
