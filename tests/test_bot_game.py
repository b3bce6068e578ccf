"""Practice against the bot over real HTTP on 127.0.0.1, on SQLite and PostgreSQL.

A game is stored as its seed and the person's actions and rebuilt by the
engine's own session on every request; these tests check that against a
session replayed here, beside the web code: the same score, the bots' cards
hidden until a showdown, every format the session plays, a refused move
changing nothing, a double tap never played twice, a restart losing nothing.
"""

from __future__ import annotations

import json
import re
import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from ginrules.cards import SUIT_SYMBOLS, SUITS, Card
from ginrules.engine.actions import Action
from ginrules.engine.session import GameSession, HandOver
from ginrules.rules.compile import EngineConfig
from ginrules.web import create_app
from ginrules.web.bot_store import BotStore
from ginrules.web.storage import Store
from ginrules.web.table_store import Conflict, PinnedRules
from ginrules.web.tables import bot_games
from tests.databases import database_url, store
from tests.engine_helpers import config, config_with
from tests.web_helpers import Answer, Client, live_server

__all__ = ["database_url", "store"]  # fixtures

#: Quick games, so a whole game is a few hands: the shipped formats with a low target.
QUICK: dict[str, str] = {
    "two_player": (
        "name: Quick game\nauthor: Ana\ndescription: ''\n"
        "extends: classic\ngame_scoring:\n  target: 30\n"
    ),
    "hollywood": (
        "name: Quick Hollywood\nauthor: Ana\ndescription: ''\n"
        "extends: hollywood\ngame_scoring:\n  target: 30\n"
    ),
    "partnership": (
        "name: Quick partners\nauthor: Ana\ndescription: ''\n"
        "extends: partnership\nformat:\n  team_target: 30\n"
    ),
    "three_handed": (
        "name: Three at the table\nauthor: Ana\ndescription: ''\nextends: classic\n"
        "format:\n  type: three_handed\n  players: 3\ngame_scoring:\n  target: 30\n"
    ),
}
RANKS = "A23456789TJQK"


def _app(tmp_path: Path, database_url: str) -> Flask:
    return create_app(
        {
            "INSTANCE_PATH": tmp_path / "instance",
            "DATABASE_URL": database_url,
            "PUBLIC_BASE_URL": "https://gin.example.org",
            "SECRET_KEY": "test-secret-key",
            "UPGRADE_ON_START": True,
            "RATE_LIMIT": "100000 per minute",
            "SESSION_COOKIE_SECURE": False,  # the test server speaks plain HTTP
        }
    )


@pytest.fixture
def client(tmp_path: Path, database_url: str) -> Iterator[Client]:
    app = _app(tmp_path, database_url)
    with live_server(app) as base:
        yield Client(base)
    app.extensions["ginrules.store"].close()


def start(client: Client, rules: str = "classic", **options: Any) -> tuple[dict[str, Any], str]:
    answer = client.send_json("POST", "/api/bots", {"rules": rules, **options})
    assert answer.status == 201, answer.text
    game = answer.json()
    assert answer.location == f"/api/bots/{game['slug']}"
    assert game["page_url"] == f"https://gin.example.org/b/{game['slug']}"
    return game, game.pop("player_key")


def move(client: Client, game: dict[str, Any], key: str, action: dict[str, Any]) -> Answer:
    return client.send_json(
        "POST",
        f"/api/bots/{game['slug']}/actions",
        {"seen": game["seen"], "action": action},
        {"X-Player-Key": key},
    )


def saved(client: Client, yaml_text: str) -> str:
    answer = client.send_json("POST", "/api/houserules", {"yaml": yaml_text})
    assert answer.status == 201, answer.text
    return f"h/{answer.json()['slug']}/v1"


def choose(game: dict[str, Any]) -> dict[str, Any]:
    """A simple player: go out when it can, pass offers, draw, throw the highest deadwood."""
    moves = game["moves"]
    by_kind: dict[str, list[dict[str, Any]]] = {}
    for option in moves:
        by_kind.setdefault(option["kind"], []).append(option)
    for kind in ("big_gin", "gin", "knock", "defend", "pass", "draw"):
        if kind in by_kind:
            best = min(by_kind[kind], key=lambda option: option["left"] or 0)
            return dict(best["action"])
    discards = {option["card"]: option for option in by_kind["discard"]}
    loose = [card for card in game["hand"]["deadwood_cards"] if card in discards]
    pool = loose or list(discards)
    highest = max(pool, key=lambda card: RANKS.index(card[0]))
    return dict(discards[highest]["action"])


def play_to_the_end(
    client: Client, game: dict[str, Any], key: str, most: int = 1500
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    sent: list[dict[str, Any]] = []
    while not game["over"]:
        assert len(sent) < most, "the game should be over by now"
        action = choose(game)
        answer = move(client, game, key, action)
        assert answer.status == 201, answer.text
        sent.append(action)
        game = answer.json()
        assert game["seen"] == len(sent)
    return game, sent


def session_for(cfg: EngineConfig, seed: int, bot: str, actions: list[dict[str, Any]]) -> Any:
    """The same game, replayed here by the engine's session alone."""
    session = GameSession(cfg, seed, [None, *[bot] * (GameSession.seats_for(cfg) - 1)])
    session.start()
    for action in actions:
        session.act(Action.from_json(action))
    return session


def events_for(cfg: EngineConfig, seed: int, bot: str, actions: list[dict[str, Any]]) -> list[Any]:
    """Every event of the same game, replayed here."""
    session = GameSession(cfg, seed, [None, *[bot] * (GameSession.seats_for(cfg) - 1)])
    events = list(session.start())
    for action in actions:
        events += session.act(Action.from_json(action))
    return events


def card_pattern(card: Card) -> re.Pattern[str]:
    """The card as the API writes it: ``7H`` in the state, ``7♥`` in the sentences."""
    rank = RANKS[card.rank]
    both = f"{rank}{SUITS[card.suit]}|{rank}{SUIT_SYMBOLS[card.suit]}"
    return re.compile(f"(?<![A-Za-z0-9])(?:{both})(?![A-Za-z0-9])")


def test_a_game_is_played_to_the_end_and_scored_as_the_engine_scores_it(client: Client) -> None:
    rules = saved(client, QUICK["two_player"])
    game, key = start(client, rules, bot="strong", seed=4242)
    assert game["rules"]["ref"] == rules and game["rules"]["path"] == f"/{rules}"
    assert game["seed"] is None, "the seed deals every card: not before the end"
    done, sent = play_to_the_end(client, game, key)
    assert done["seed"] == 4242 and done["hand"] is None and done["moves"] == []
    here = session_for(
        config_with("classic", "game_scoring:\n  target: 30\n"), 4242, "strong", sent
    )
    assert here.over
    (score,) = here.pad.snapshot().games
    (shown,) = done["score"]["games"]
    assert shown["points"] == list(score.points) and shown["winner"] == score.winner
    assert max(shown["points"]) >= 30
    assert done["results"][0] == "game over"
    assert any("wins" in line for line in done["results"])
    assert done["last_round"]["new"] and done["last_round"]["lines"][-1].startswith("score")
    # Over means over: no more moves, and the game reads the same afterwards.
    late = move(client, done, key, {"action": "draw"})
    assert late.status == 422 and late.json()["errors"][0]["field"] == "action"
    assert "over" in late.json()["error"]
    assert client.get(f"/api/bots/{done['slug']}").json() == done


def test_the_bots_cards_are_never_sent_before_the_showdown(client: Client) -> None:
    game, key = start(client, "classic", seed=2)
    cfg = config("classic")
    sent: list[dict[str, Any]] = []
    checked = 0
    while game["last_round"] is None:
        session = session_for(cfg, 2, "strong", sent)
        hand = session.hand
        seen = session.observation()
        bot_seat = 1 - seen.seat
        hidden = [
            c for c in hand.cards(bot_seat) if not seen.opponent_known & c.bit
        ]  # in the bot's hand and never shown
        text = json.dumps(game, ensure_ascii=False)
        leaked = [str(c) for c in hidden if card_pattern(c).search(text)]
        assert game["seed"] is None
        if game["hand"]["phase"] == "layoff":  # the bot has knocked: its melds are down
            assert game["hand"]["knock"]["melds"] and leaked
        else:
            assert not leaked, f"the bot's cards {leaked} are in the state of a hand in progress"
            assert game["hand"]["knock"] is None
            checked += 1
        assert game["hand"]["opponent_cards"] == len(hand.cards(bot_seat))
        action = choose(game)
        answer = move(client, game, key, action)
        assert answer.status == 201, answer.text
        sent.append(action)
        game = answer.json()
    assert checked > 20
    # At the showdown the bot's hand is laid down: the same check finds all of it now.
    over = [e for e in events_for(cfg, 2, "strong", sent) if isinstance(e, HandOver)]
    first = over[0].hand
    bot_seat = 1 - over[0].deal.seats.index(0)
    shown = json.dumps(game["last_round"], ensure_ascii=False)
    assert first.cards(bot_seat) and all(
        card_pattern(c).search(shown) for c in first.cards(bot_seat)
    ), shown


def test_a_knock_over_the_limit_is_refused_with_the_engines_reason(client: Client) -> None:
    game, key = start(client, "classic", seed=7)
    while game["hand"]["phase"] != "discard":
        game = move(client, game, key, choose(game)).json()
    limit = game["hand"]["knock_limit"]
    assert limit == 10 and game["hand"]["deadwood"] > 30
    card = game["hand"]["deadwood_cards"][0]
    refused = move(client, game, key, {"action": "knock", "card": card})
    assert refused.status == 422, refused.text
    (error,) = refused.json()["errors"]
    assert error["field"] == "action"
    assert re.fullmatch(
        f"knock {card}: that leaves \\d+ deadwood; the knock limit this hand is {limit}",
        error["message"],
    ), error["message"]
    after = client.get(f"/api/bots/{game['slug']}").json()
    assert after == game, "a refused move changes nothing"


def test_a_double_tap_is_played_once_and_the_second_gets_409_with_the_game(
    client: Client,
) -> None:
    game, key = start(client, "classic", seed=11)
    action = choose(game)
    first = move(client, game, key, action)
    again = move(client, game, key, action)  # the same move, from the same count
    assert first.status == 201 and again.status == 409
    body = again.json()
    assert body["errors"][0]["field"] == "seen" and "moved on" in body["error"]
    assert body["game"]["seen"] == 1 == first.json()["seen"]
    assert client.get(f"/api/bots/{game['slug']}").json()["seen"] == 1


def test_taps_at_the_same_moment_store_one_move(client: Client) -> None:
    game, key = start(client, "classic", seed=13)
    action = choose(game)
    with ThreadPoolExecutor(max_workers=4) as pool:
        answers = list(pool.map(lambda _: move(client, game, key, action), range(4)))
    assert sorted(answer.status for answer in answers) == [201, 409, 409, 409]
    stored = client.get(f"/api/bots/{game['slug']}").json()
    assert stored["seen"] == 1
    winner = next(answer for answer in answers if answer.status == 201).json()
    assert stored == winner


def test_the_store_takes_one_move_per_count_whatever_the_order(store: Store) -> None:
    games = BotStore(store)
    rules = PinnedRules("classic", "Classic Gin Rummy", "name: Classic\n", "89c7a615d01f")
    game = games.create(rules, "strong", 1, "sha256:x")
    barrier = threading.Barrier(2)

    def tap(action: str) -> str:
        barrier.wait(timeout=10)
        try:
            games.append(game.slug, 0, {"action": action})
        except Conflict as conflict:
            return f"conflict at {conflict.current}"
        return "stored"

    with ThreadPoolExecutor(max_workers=2) as pool:
        outcomes = sorted(pool.map(tap, ["pass", "take"]))
    assert outcomes == ["conflict at 1", "stored"]
    stored = games.get(game.slug)
    assert stored is not None and len(stored.actions) == stored.action_count == 1
    with pytest.raises(Conflict):
        games.append(game.slug, 0, {"action": "draw"})
    with pytest.raises(KeyError):
        games.append("zzzzzzzz", 0, {"action": "draw"})
    games.append(game.slug, 1, {"action": "draw"})
    again = games.get(game.slug)
    assert again is not None and again.actions[1] == {"action": "draw"}


def test_only_the_player_key_plays_and_unknown_games_are_404(client: Client) -> None:
    game, key = start(client, "classic", seed=3)
    action = choose(game)
    body = {"seen": 0, "action": action}
    path = f"/api/bots/{game['slug']}/actions"
    assert client.send_json("POST", path, body).status == 401
    assert client.send_json("POST", path, body, {"X-Player-Key": "not-it"}).status == 403
    assert client.send_json("POST", "/api/bots/zzzzzzzz/actions", body).status == 404
    missing = client.get("/api/bots/zzzzzzzz")
    assert missing.status == 404 and missing.json()["status"] == 404
    assert client.get(f"/api/bots/{game['slug']}").json()["seen"] == 0
    assert move(client, game, key, action).status == 201


@pytest.mark.parametrize(
    ("body", "status", "field", "words"),
    [
        ({"seen": "0", "action": {"action": "pass"}}, 400, "seen", "whole number"),
        ({"seen": -1, "action": {"action": "pass"}}, 400, "seen", "whole number"),
        ({"seen": 0}, 400, "action", "missing"),
        ({"seen": 0, "action": "pass"}, 400, "action", "not a move"),
        ({"seen": 0, "action": {"action": "jump"}}, 422, "action", "unknown action"),
        ({"seen": 0, "action": {"action": "discard", "card": "ZZ"}}, 422, "action", "ZZ"),
        ({"seen": 0, "action": {"action": "discard", "card": 7}}, 422, "action", "not a move"),
        ({"seen": 0, "action": {"action": "knock"}}, 422, "action", "knock"),
        ({"seen": 0, "action": {"action": "pass"}, "more": 1}, 400, "more", "unknown field"),
    ],
)
def test_a_bad_move_is_a_clear_error_at_its_field_and_nothing_is_stored(
    client: Client, body: dict[str, Any], status: int, field: str, words: str
) -> None:
    game, key = start(client, "classic", seed=5)
    path = f"/api/bots/{game['slug']}/actions"
    answer = client.send_json("POST", path, body, {"X-Player-Key": key})
    assert answer.status == status, answer.text
    (error,) = answer.json()["errors"]
    assert error["field"] == field and words in error["message"], error
    assert client.get(f"/api/bots/{game['slug']}").json()["seen"] == 0


@pytest.mark.parametrize(
    ("body", "status", "field", "words"),
    [
        ({"rules": "nothing-here"}, 422, "rules", "no such rules"),
        ({"rules": "classic", "bot": "clever"}, 422, "bot", "strong, greedy, random"),
        ({"rules": "classic", "bot": 3}, 400, "bot", "string"),
        ({"rules": "classic", "seed": -1}, 422, "seed", "0 to 999999999"),
        ({"rules": "classic", "seed": "7"}, 400, "seed", "whole number"),
        ({"rules": "classic", "seed": None}, 400, "seed", "missing"),
        ({"bot": "strong"}, 400, "rules", "missing"),
    ],
)
def test_a_game_that_cannot_start_is_refused_at_its_field(
    client: Client, body: dict[str, Any], status: int, field: str, words: str
) -> None:
    answer = client.send_json("POST", "/api/bots", body)
    assert answer.status == status, answer.text
    (error,) = answer.json()["errors"]
    assert error["field"] == field and words in error["message"], error


@pytest.mark.parametrize("format_type", list(QUICK))
def test_every_format_the_session_plays_is_played_to_the_end(
    client: Client, format_type: str
) -> None:
    rules = saved(client, QUICK[format_type])
    game, key = start(client, rules, bot="greedy", seed=2024)
    assert game["format"] == format_type
    players = {"partnership": 4, "three_handed": 3}.get(format_type, 2)
    assert len(game["players"]) == players and game["players"][0] == "you"
    assert len(game["score"]["games"]) == (3 if format_type == "hollywood" else 1)
    held = game["hand"]["melds"] + [game["hand"]["deadwood_cards"]]
    assert sum(len(cards) for cards in held) in (10, 11)
    done, sent = play_to_the_end(client, game, key)
    assert done["over"] and done["results"] and done["seed"] == 2024
    lines = " ".join(done["last_round"]["lines"])
    if format_type == "partnership":
        assert "team A" in done["score"]["sides"] and ("netted" in lines or "cancel" in lines)
    if format_type == "three_handed":
        assert len(done["score"]["games"][0]["points"]) == 3
    assert sent  # the person played


def test_a_game_survives_a_restart(tmp_path: Path, database_url: str) -> None:
    first = _app(tmp_path, database_url)
    sent: list[dict[str, Any]] = []
    try:
        with live_server(first) as base:
            client = Client(base)
            game, key = start(client, "oklahoma", seed=99)
            for _ in range(4):
                sent.append(choose(game))
                game = move(client, game, key, sent[-1]).json()
    finally:
        first.extensions["ginrules.store"].close()
    # Oklahoma: the upcard set this hand's knock limit, and the page says so.
    here = session_for(config("oklahoma"), 99, "strong", sent)
    assert game["hand"]["knock_limit"] == here.hand.knock_limit
    assert game["hand"]["knock_limit_text"] in game["this_hand"][1]
    assert "set by the upcard" in game["hand"]["knock_limit_text"]
    second = _app(tmp_path, database_url)  # another process: nothing kept in memory
    try:
        with live_server(second) as base:
            client = Client(base)
            again = client.get(f"/api/bots/{game['slug']}").json()
            assert again == game and again["seen"] == 4
            assert move(client, again, key, choose(again)).status == 201
    finally:
        second.extensions["ginrules.store"].close()


def test_the_pages_start_a_game_and_only_its_browser_may_play(client: Client) -> None:
    start_page = client.get("/bot/classic")
    assert start_page.status == 200 and 'name="bot"' in start_page.text
    assert client.get("/bot/nothing-here").status == 404
    fields = client.form_fields("/bot/classic")
    refused = client.post_form("/bot/classic", {**fields, "seed": "lots"})
    assert refused.status == 422 and "the seed is a whole number" in refused.text
    started = client.post_form("/bot/classic", {**fields, "bot": "greedy", "seed": "12"})
    assert started.status == 303, started.text
    slug = re.fullmatch(r"/b/([a-z0-9]+)", started.location)
    assert slug, started.location
    page = client.get(started.location)
    assert page.status == 200 and page.headers["Cache-Control"] == "no-store"
    assert 'data-key="' in page.text and "You are watching" not in page.text
    state = re.search(r'<script type="application/json" id="bot-state">(.*?)</script>', page.text)
    assert state and json.loads(state[1])["bot"] == "greedy"
    stranger = Client(client.base).get(started.location)
    assert "data-key" not in stranger.text and "You are watching" in stranger.text
    assert Client(client.base).get("/b/zzzzzzzz").status == 404


def test_the_ruleset_page_offers_the_game_under_exactly_those_rules(client: Client) -> None:
    rules = saved(client, QUICK["partnership"])
    page = client.get(f"/{rules}").text
    assert f'href="/bot/{rules}"' in page and "Play against the bot" in page
    start_page = client.get(f"/bot/{rules}")
    assert start_page.status == 200 and "You and a strong bot partner" in start_page.text
    shipped = client.get("/rules/oklahoma").text
    assert 'href="/bot/oklahoma"' in shipped


def test_a_game_whose_moves_no_longer_replay_is_410_not_500(
    tmp_path: Path, database_url: str
) -> None:
    app = _app(tmp_path, database_url)
    try:
        with live_server(app) as base:
            client = Client(base)
            game, key = start(client, "classic", seed=8)
            # As if the engine had changed since: a stored move it no longer takes.
            with app.extensions["ginrules.store"].engine.begin() as connection:
                connection.execute(
                    bot_games.update().values(actions='[{"action": "big_gin"}]', action_count=1)
                )
            lost = client.get(f"/api/bots/{game['slug']}")
            assert lost.status == 410 and "cannot be replayed" in lost.json()["error"]
            played = client.send_json(
                "POST",
                f"/api/bots/{game['slug']}/actions",
                {"seen": 1, "action": {"action": "pass"}},
                {"X-Player-Key": key},
            )
            assert played.status == 410
            assert client.get(f"/b/{game['slug']}").status == 410
    finally:
        app.extensions["ginrules.store"].close()
