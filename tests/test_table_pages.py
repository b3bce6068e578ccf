"""The card table's pages, its next game and its live stream, over real HTTP on
127.0.0.1, on SQLite and PostgreSQL.

The live stream is checked across two app servers on one database: a phone
follows the table on one server while another phone enters a hand on the
other, so the news can only travel through the database (PostgreSQL's
``LISTEN/NOTIFY``, or the SQLite file), never one process's memory.
"""

from __future__ import annotations

import html
import json
import re
import threading
import time
import urllib.request
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from ginrules.web import create_app
from tests.databases import database_url
from tests.test_table_api import _send, _start, knock
from tests.web_helpers import Client, live_server

__all__ = ["database_url"]  # a fixture


def _app(tmp_path: Path, url: str, **extra: Any) -> Flask:
    return create_app(
        {
            "INSTANCE_PATH": tmp_path / "instance",
            "DATABASE_URL": url,
            "PUBLIC_BASE_URL": "https://gin.example.org",
            "SECRET_KEY": "test-secret-key",
            "UPGRADE_ON_START": True,
            "RATE_LIMIT": "100000 per minute",
            "WTF_CSRF_ENABLED": False,
            **extra,
        }
    )


@contextmanager
def _servers(tmp_path: Path, url: str, count: int, **extra: Any) -> Iterator[list[Client]]:
    apps = [_app(tmp_path, url, **extra) for _ in range(count)]
    with ExitStack() as stack:
        bases = [stack.enter_context(live_server(app)) for app in apps]
        yield [Client(base) for base in bases]
    for app in apps:
        app.extensions["ginrules.store"].close()


@pytest.fixture
def client(tmp_path: Path, database_url: str) -> Iterator[Client]:
    with _servers(tmp_path, database_url, 1) as (one,):
        yield one


def _win_classic(client: Client, slug: str, key: str) -> int:
    """Gin after gin for Ana until classic's game of 100 is over; the changes made."""
    seen = 0
    while True:
        event = {
            "kind": "hand",
            "entries": [{"end": "gin", "ended_by": 0, "defender_deadwood": 40}],
        }
        answer = _send(client, slug, key, seen, event)
        assert answer.status == 201, answer.text
        seen += 1
        if answer.json()["finished"]:
            return seen


def test_a_table_starts_from_the_form_and_the_key_stays_out_of_the_server(client: Client) -> None:
    form = client.get("/t/new?rules=partnership")
    assert form.status == 200
    assert all(f'id="players-{seat}"' in form.text for seat in range(4))
    fields = {f"player-{seat}": name for seat, name in enumerate(["Ana", "Ben", "Chloe", "Dev"])}
    answer = client.post_form(
        "/t/new", {"rules": "partnership", **fields, "dealer-0": "1", "dealer-1": "cut"}
    )
    assert answer.status == 303
    path, _, fragment = answer.location.partition("#key=")
    slug = path.rsplit("/", 1)[1]
    table = client.get(f"/api/tables/{slug}").json()
    assert table["players"] == ["Ana", "Ben", "Chloe", "Dev"]
    assert table["next_deal"]["hands"][0]["dealer"] == 1
    assert table["next_deal"]["hands"][1]["dealer"] in (2, 3)  # the server's cut
    page = client.get(path)
    assert page.status == 200 and "Ana &amp; Chloe" in page.text and fragment not in page.text
    # The fragment is the scorer key: it changes the score, the bare page link does not.
    assert _send(client, slug, fragment, 0, knock(0, 3, 9)).status == 422  # two hands a deal
    both = {"kind": "hand", "entries": [knock(0, 3, 9)["entries"][0], knock(2, 0, 5)["entries"][0]]}
    assert _send(client, slug, fragment, 0, both).status == 201


@pytest.mark.parametrize(
    ("fields", "field", "words"),
    [
        ({"player-0": "Ana", "player-1": ""}, "players-1", "give this player a name"),
        ({"player-0": "Ana", "player-1": "ana"}, "players", "the same name"),
        ({"player-0": "Ana", "player-1": "Ben", "dealer-0": "7"}, "first_dealers", "one of the"),
    ],
)
def test_a_table_that_cannot_start_says_so_at_the_field_and_saves_nothing(
    client: Client, fields: dict[str, str], field: str, words: str
) -> None:
    answer = client.post_form("/t/new", {"rules": "classic", **fields})
    assert answer.status == 422
    assert f'href="#{field}"' in answer.text and words in html.unescape(answer.text)
    assert 'value="Ana"' in answer.text  # what was typed is kept
    assert client.get("/t/new?rules=no-such-rules").status == 404


def test_the_page_shows_the_engines_score_the_hands_and_the_history(client: Client) -> None:
    slug, key = _start(client)
    assert _send(client, slug, key, 0, knock(1, 3, 13)).status == 201
    cards = {
        "ended_by": 0,
        "knocker": ["AS", "2S", "3S", "4H", "5H", "6H", "7D", "8D", "9D", "KC"],
        "defender": ["AH", "2H", "3H", "QS", "QD", "QC", "9S", "9C", "8S", "8C"],
    }
    assert _send(client, slug, key, 1, {"kind": "hand", "entries": [cards]}).status == 201
    assert (
        _send(
            client,
            slug,
            key,
            2,
            {"kind": "correct", "number": 1, "entries": knock(1, 2, 13)["entries"]},
        ).status
        == 201
    )
    page = html.unescape(client.get(f"/t/{slug}").text)
    now = client.get(f"/t/{slug}/now").json()
    assert now["last_event"] == 3 and set(now["html"]) == {"score", "hands"}
    points = [int(p) for p in re.findall(r'data-side="\d">(\d+)<', now["html"]["score"])]
    assert points == now["games"][0]["points"] and points[1] == 11 and points[0] > 0
    assert "Ben knocks: Ben scores 13 - 2 = 11" in page
    assert "Knocker shows:" in page  # the cards' hand explained as ``ginrules score`` does
    # ... and the sheet's own sentence for the rule that decided each hand.
    assert "The rule sheet: “A knock scores the defender's deadwood less the knocker's" in page
    assert "Hand 1 corrected" in page and "was: Ben: knock, deadwood 3 against 13" in page
    assert client.get("/t/nosuchtable").status == 404
    assert client.get("/t/nosuchtable/now").status == 404


def test_the_next_game_is_a_logged_choice_that_ends_the_table(client: Client) -> None:
    slug, key = _start(client)
    early = client.send_json("POST", f"/api/tables/{slug}/next", {"seen": 0}, {"X-Scorer-Key": key})
    assert early.status == 422 and "when this one is over" in early.json()["errors"][0]["message"]
    seen = _win_classic(client, slug, key)
    assert (
        client.send_json(
            "POST",
            f"/api/tables/{slug}/next",
            {"seen": seen, "rules": "newer"},
            {"X-Scorer-Key": key},
        ).status
        == 422
    )  # the shipped rules have no newer version
    answer = client.send_json(
        "POST",
        f"/api/tables/{slug}/next",
        {"seen": seen, "request_key": "next-1"},
        {"X-Scorer-Key": key},
    )
    assert answer.status == 201, answer.text
    following = answer.json()["next_game"]["slug"]
    again = client.send_json(
        "POST",
        f"/api/tables/{slug}/next",
        {"seen": seen, "request_key": "next-1"},
        {"X-Scorer-Key": key},
    )
    assert again.json()["next_game"]["slug"] == following  # a retry makes no third table
    new = client.get(f"/api/tables/{following}").json()
    assert new["players"] == ["Ana", "Ben"] and new["rules"] == answer.json()["rules"]
    assert _send(client, following, key, 0, knock(0, 3, 9)).status == 201  # the same key
    late = _send(client, slug, key, seen + 1, knock(0, 3, 9))
    assert late.status == 422 and "next one has started" in late.json()["errors"][0]["message"]


def test_the_next_game_may_go_on_under_the_house_rules_newer_version(
    tmp_path: Path, database_url: str
) -> None:
    with _servers(tmp_path, database_url, 1) as (client,):
        saved = client.send_json(
            "POST",
            "/api/houserules",
            {"yaml": "name: Our rules\nauthor: Ana\ndescription: ''\nextends: classic\n"},
        )
        assert saved.status == 201, saved.text
        house = saved.json()
        slug, key = _start(client, rules=house["ref"])
        seen = _win_classic(client, slug, key)
        edited = client.send_json(
            "PUT",
            f"/api/houserules/{house['slug']}",
            {
                "yaml": "name: Our rules\nauthor: Ana\ndescription: ''\nextends: classic\n"
                "hand_scoring:\n  gin_bonus: 20\n"
            },
            {"X-Edit-Secret": house["edit_secret"]},
        )
        assert edited.status in (200, 201), edited.text
        table = client.get(f"/api/tables/{slug}").json()
        assert table["newer"]["ref"].endswith("/v2") and table["rules"]["ref"].endswith("/v1")
        answer = client.send_json(
            "POST",
            f"/api/tables/{slug}/next",
            {"seen": seen, "rules": "newer"},
            {"X-Scorer-Key": key},
        )
        assert answer.status == 201, answer.text
        new = client.get(f"/api/tables/{answer.json()['next_game']['slug']}").json()
        assert new["rules"]["ref"].endswith("/v2") and new["newer"] is None


def _events(base: str, slug: str, after: int, wanted: int, seconds: float) -> list[dict[str, Any]]:
    """Read the table's live stream until ``wanted`` table events came (or time is up)."""
    got: list[dict[str, Any]] = []
    request = urllib.request.Request(f"{base}/api/tables/{slug}/live?after={after}")
    try:
        with urllib.request.urlopen(request, timeout=seconds) as stream:
            assert stream.headers["Content-Type"].startswith("text/event-stream")
            for raw in stream:
                line = raw.decode().rstrip("\n")
                if line.startswith("data: "):
                    got.append(json.loads(line[6:]))
                    if len(got) >= wanted:
                        break
    except TimeoutError:
        pass
    return got


def test_a_hand_entered_on_one_server_reaches_a_phone_following_another(
    tmp_path: Path, database_url: str
) -> None:
    with _servers(tmp_path, database_url, 2) as (first, second):
        slug, key = _start(first)
        seen: list[list[dict[str, Any]]] = []
        follower = threading.Thread(
            target=lambda: seen.append(_events(second.base, slug, 0, 2, 8.0)), daemon=True
        )
        follower.start()
        time.sleep(0.5)  # the phone is following before the hand is entered
        assert _send(first, slug, key, 0, knock(1, 3, 13)).status == 201
        time.sleep(1.0)  # each change reaches the phone (two at once may come as one)
        assert _send(first, slug, key, 1, knock(0, 2, 12)).status == 201
        follower.join(timeout=10)
        assert seen and [event["last_event"] for event in seen[0]] == [1, 2]
        assert seen[0][-1]["games"][0]["points"] == [10, 10]
        assert 'data-side="0">10<' in seen[0][-1]["html"]["score"]


def test_a_phone_that_has_the_score_gets_only_news_and_a_busy_server_says_so(
    tmp_path: Path,
) -> None:
    url = f"sqlite:///{tmp_path / 'live.db'}"
    with _servers(tmp_path, url, 1, LIVE_STREAMS=1) as (client,):
        slug, _ = _start(client)
        held: list[list[dict[str, Any]]] = []
        holder = threading.Thread(
            target=lambda: held.append(_events(client.base, slug, 0, 1, 2.0)), daemon=True
        )
        holder.start()
        time.sleep(0.5)
        busy = client.get(f"/api/tables/{slug}/live")
        assert busy.status == 503  # the one stream this worker may hold is taken
        holder.join(timeout=5)
        assert held == [[]]  # it had event 0 already: nothing was sent
        assert client.get("/api/tables/nosuchtable/live").status == 404


def test_the_table_opens_from_the_home_screen(client: Client) -> None:
    slug, _ = _start(client)
    manifest = client.get(f"/t/{slug}/manifest.webmanifest")
    assert manifest.status == 200
    document = manifest.json()
    assert document["start_url"] == f"/t/{slug}" and document["scope"] == "/t/"
    worker = client.get("/t/sw.js")
    assert worker.status == 200 and 'addEventListener("fetch"' in worker.text
    page = client.get(f"/t/{slug}").text
    assert f'href="/t/{slug}/manifest.webmanifest"' in page
    qr = client.get(f"/t/{slug}/qr.svg")
    assert qr.status == 200 and qr.text.lstrip().startswith("<")
