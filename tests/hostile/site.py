"""A site with something in it, for the hostile requests: one saved house rule (two
versions), one card table and one bot game, and the values that stand for them in
``corpus.jsonl`` (``{slug}``, ``{secret}``, ``{table}``, ``{scorer_key}``, ...).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Final

from flask import Flask
from flask.testing import FlaskClient

from ginrules.web import create_app
from tests.page_tour import HOUSE_YAML

PUBLIC: Final = "https://gin.example.org"


def make_app(folder: Path, database: str, **extra: Any) -> Flask:
    """The site on ``database``, its limits high enough never to answer for the request
    (the hostile requests test the answers, not the rate limit)."""
    config: dict[str, Any] = {
        "INSTANCE_PATH": folder / "instance",
        "DATABASE_URL": database,
        "PUBLIC_BASE_URL": PUBLIC,
        "SECRET_KEY": "hostile-test-key",
        "UPGRADE_ON_START": True,
        "RATE_LIMIT": "100000 per minute",
        "CHECK_RATE_LIMIT": "100000 per minute",
        "DAILY_SAVE_BYTES": 1 << 40,
        "SESSION_COOKIE_SECURE": False,
        **extra,
    }
    return create_app(config)


def _created(client: FlaskClient, path: str, body: dict[str, Any], **headers: str) -> Any:
    answer = client.open(
        path,
        method="POST" if not headers.get("X-Edit-Secret") else "PUT",
        data=json.dumps(body),
        headers={"Content-Type": "application/json", **headers},
    )
    assert answer.status_code in (200, 201), (path, answer.status_code, answer.text[:500])
    return answer.json


def seed(app: Flask) -> dict[str, str]:
    """Fill ``app`` with one of everything; the corpus's placeholders and their values."""
    client = app.test_client()
    house = _created(client, "/api/houserules", {"yaml": HOUSE_YAML})
    slug, secret = house["slug"], house["edit_secret"]
    _created(
        client,
        f"/api/houserules/{slug}",
        {"yaml": HOUSE_YAML.replace("gin_bonus: 30", "gin_bonus: 35")},
        **{"X-Edit-Secret": secret},
    )
    table = _created(
        client, "/api/tables", {"rules": "classic", "players": ["Ana", "Ben"], "first_dealers": [0]}
    )
    bot = _created(client, "/api/bots", {"rules": "classic", "seed": 7})
    return {
        "slug": slug,
        "secret": secret,
        "table": table["slug"],
        "scorer_key": table["scorer_key"],
        "bot": bot["slug"],
        "player_key": bot["player_key"],
    }


def filled(text: str, values: dict[str, str]) -> str:
    """``text`` with each ``{name}`` of ``values`` replaced (other braces left alone)."""
    for name, value in values.items():
        text = text.replace("{" + name + "}", value)
    return text
