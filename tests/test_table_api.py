"""The card table's JSON API over real HTTP on 127.0.0.1, on SQLite and PostgreSQL."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from ginrules.engine.scoring import HandEnd
from ginrules.engine.tablelog import HandEntered, entry_to_json
from ginrules.web import create_app
from tests.databases import database_url
from tests.engine_helpers import config
from tests.test_entries import _as_counts, _played
from tests.web_helpers import Client, live_server

__all__ = ["database_url"]  # a fixture


@pytest.fixture
def client(tmp_path: Path, database_url: str) -> Iterator[Client]:
    app = create_app(
        {
            "INSTANCE_PATH": tmp_path / "instance",
            "DATABASE_URL": database_url,
            "PUBLIC_BASE_URL": "https://gin.example.org",
            "SECRET_KEY": "test-secret-key",
            "UPGRADE_ON_START": True,
            "RATE_LIMIT": "100000 per minute",
        }
    )
    with live_server(app) as base:
        yield Client(base)
    app.extensions["ginrules.store"].close()


def knock(by: int, knocker: int, defender: int) -> dict[str, Any]:
    entry = {"end": "knock", "ended_by": by, "knocker_deadwood": knocker}
    return {"kind": "hand", "entries": [{**entry, "defender_deadwood": defender}]}


def _start(
    client: Client, rules: str = "classic", players: int = 2, dealers: tuple[int, ...] = (0,)
) -> tuple[str, str]:
    names = ["Ana", "Ben", "Chloe", "Dev"][:players]
    answer = client.send_json(
        "POST", "/api/tables", {"rules": rules, "players": names, "first_dealers": list(dealers)}
    )
    assert answer.status == 201, answer.text
    data = answer.json()
    assert answer.location == f"/api/tables/{data['slug']}"
    return data["slug"], data["scorer_key"]


def _send(
    client: Client, slug: str, key: str, seen: int, event: dict[str, Any], request_key: str = ""
) -> Any:
    body: dict[str, Any] = {"seen": seen, "event": event}
    if request_key:
        body["request_key"] = request_key
    return client.send_json(
        "POST", f"/api/tables/{slug}/events", body, {"X-Scorer-Key": key, "X-Player": "Ana"}
    )


def test_a_table_is_started_scored_undone_and_corrected_over_http(client: Client) -> None:
    slug, key = _start(client)
    first = _send(client, slug, key, 0, knock(1, 3, 13))
    assert first.status == 201, first.text
    assert first.json()["games"][0]["points"] == [0, 10]
    assert first.json()["next_deal"] == {
        "hands": [{"seats": [0, 1], "dealer": 0}],
        "sitting_out": None,
    }
    assert _send(client, slug, key, 1, knock(0, 2, 20)).status == 201
    assert _send(client, slug, key, 2, {"kind": "undo"}).status == 201
    corrected = _send(client, slug, key, 3, {**knock(1, 3, 30), "kind": "correct", "number": 1})
    assert corrected.status == 201, corrected.text
    table = client.get(f"/api/tables/{slug}").json()
    assert table["games"][0]["points"] == [0, 27]
    assert [e["kind"] for e in table["log"]] == ["hand", "hand", "undo", "correct"]
    assert {e["actor"] for e in table["log"]} == {"Ana"}
    assert table["rules"]["ref"] == "classic" and table["players"] == ["Ana", "Ben"]
    assert "scorer_key" not in table


def test_a_stale_phone_gets_409_with_the_score_and_a_retry_is_never_doubled(
    client: Client,
) -> None:
    slug, key = _start(client)
    dead = {"kind": "hand", "entries": [{"end": "dead"}]}
    assert _send(client, slug, key, 0, dead, "phone-a-1").status == 201
    stale = _send(client, slug, key, 0, dead, "phone-b-1")
    assert stale.status == 409
    assert stale.json()["table"]["last_event"] == 1
    assert stale.json()["errors"][0]["field"] == "seen"
    retry = _send(client, slug, key, 0, dead, "phone-a-1")  # the answer was lost: sent again
    assert retry.status == 201 and retry.json()["event"] == 1
    assert len(client.get(f"/api/tables/{slug}").json()["log"]) == 1


@pytest.mark.parametrize(
    ("body", "status", "field", "words"),
    [
        (
            {"seen": 0, "event": knock(0, 11, 30)},
            422,
            "event.entries.0.knocker_deadwood",
            "limit is 10",
        ),
        (
            {
                "seen": 0,
                "event": {
                    "kind": "hand",
                    "entries": [{"end": "gin", "ended_by": 0, "knocker_deadwood": 4}],
                },
            },
            422,
            "event.entries.0.knocker_deadwood",
            "4 deadwood",
        ),
        ({"seen": 0, "event": {"kind": "undo"}}, 422, "event", "no hand"),
        ({"seen": 0, "event": {"kind": "jump"}}, 422, "event", "not an event"),
        ({"seen": 0, "event": "knock"}, 400, "event", "not an event"),
        ({"seen": "0", "event": knock(0, 3, 9)}, 400, "seen", "whole number"),
        ({"seen": 0, "event": knock(0, 3, 9), "extra": 1}, 400, "extra", "unknown field"),
    ],
)
def test_an_impossible_change_is_refused_at_its_field_and_nothing_is_stored(
    client: Client, body: dict[str, Any], status: int, field: str, words: str
) -> None:
    slug, key = _start(client)
    answer = client.send_json("POST", f"/api/tables/{slug}/events", body, {"X-Scorer-Key": key})
    assert answer.status == status, answer.text
    error = answer.json()["errors"][0]
    assert error["field"] == field and words in error["message"]
    assert client.get(f"/api/tables/{slug}").json()["last_event"] == 0


def test_only_the_scorer_key_changes_the_score(client: Client) -> None:
    slug, _ = _start(client)
    body = {"seen": 0, "event": knock(0, 3, 9)}
    assert client.send_json("POST", f"/api/tables/{slug}/events", body).status == 401
    wrong = client.send_json("POST", f"/api/tables/{slug}/events", body, {"X-Scorer-Key": "not-it"})
    assert wrong.status == 403
    assert client.send_json("POST", "/api/tables/zzzzzzzz/events", body).status == 404
    assert client.get("/api/tables/zzzzzzzz").status == 404
    assert client.get(f"/api/tables/{slug}").json()["last_event"] == 0


@pytest.mark.parametrize(
    ("body", "field", "words"),
    [
        (
            {"rules": "nothing-here", "players": ["A", "B"], "first_dealers": [0]},
            "rules",
            "no such",
        ),
        ({"rules": "classic", "players": ["A"], "first_dealers": [0]}, "players", "needs 2"),
        ({"rules": "classic", "players": ["A", " "], "first_dealers": [0]}, "players.1", "name"),
        ({"rules": "classic", "players": ["A", "a"], "first_dealers": [0]}, "players", "same"),
        ({"rules": "classic", "players": ["A", "B"], "first_dealers": [3]}, "first_dealers", ""),
    ],
)
def test_a_table_that_cannot_start_is_a_422_at_its_field(
    client: Client, body: dict[str, Any], field: str, words: str
) -> None:
    answer = client.send_json("POST", "/api/tables", body)
    assert answer.status == 422, answer.text
    error = answer.json()["errors"][0]
    assert error["field"] == field and words in error["message"]


def test_a_whole_hollywood_match_entered_over_http_ends_as_the_engine_scored_it(
    client: Client,
) -> None:
    cfg = config("hollywood")
    pad, played = _played(cfg, 3)
    slug, key = _start(client, "hollywood", dealers=pad.first_dealers)  # the engine's cut
    table = client.get(f"/api/tables/{slug}").json()
    assert table["next_deal"]["hands"][0]["dealer"] == pad.first_dealers[0]
    for number, (seating, hand) in enumerate(played):
        event = HandEntered((_as_counts(seating, hand),))
        body = {"kind": "hand", "entries": [entry_to_json(e) for e in event.entries]}
        assert _send(client, slug, key, number, body).status == 201
    done = client.get(f"/api/tables/{slug}").json()
    assert done["finished"] and done["next_deal"] is None
    assert done["results"] == [result.to_json() for result in pad.results()]
    ends = {result["end"] for hand in done["hands"] for result in hand["results"]}
    assert ends <= {e.value for e in HandEnd}
