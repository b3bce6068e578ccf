"""The card table's pages and the bot game in every language.

Each page is asked for in German, Spanish and French (``?lang=``) and must say
what the catalogue gives for its messages, in its HTML and in the words its
scripts read (``#table-words``, ``#bot-words``, ``#card-faces``). A pseudo-locale
then wraps every message of the catalogue in ``⟦…⟧``: whatever English is left
outside the brackets on a page (its text, the attributes people read, the
script's words, the game's texts) was never translated.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from ginrules.web import create_app
from ginrules.words import bot_games, i18n, tables
from ginrules.words.cards import card_faces
from ginrules.words.i18n import LANGUAGES, _, use_locale
from tests import browser_helpers
from tests.translations import pseudo_catalogue, speak_pseudo
from tests.web_helpers import Client

LANGS = ("de", "es", "fr")
PLAYERS = ("Ana", "Ben", "Chloe", "Dev")


@dataclass(frozen=True)
class Site:
    app: Flask
    client: FlaskClient
    #: Every page of the table and the bot game worth reading, by name.
    pages: dict[str, str]


def _post(client: FlaskClient, path: str, body: dict[str, Any], key: str) -> dict[str, Any]:
    answer = client.post(path, json=body, headers={"X-Scorer-Key": key})
    assert answer.status_code == 201, answer.get_data(as_text=True)
    data: dict[str, Any] = answer.get_json()
    return data


def _table(client: FlaskClient, rules: str, players: int, dealers: list[int]) -> tuple[str, str]:
    answer = client.post(
        "/api/tables",
        json={"rules": rules, "players": list(PLAYERS[:players]), "first_dealers": dealers},
    )
    assert answer.status_code == 201, answer.get_data(as_text=True)
    return answer.get_json()["slug"], answer.get_json()["scorer_key"]


def _knock(by: int, knocker: int, defender: int) -> dict[str, Any]:
    return {
        "end": "knock",
        "ended_by": by,
        "knocker_deadwood": knocker,
        "defender_deadwood": defender,
    }


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    """A classic table under way (a hand corrected, one undone), a finished one, a
    Hollywood table, and a game against the bot started from its page."""
    folder = tmp_path_factory.mktemp("languages")
    app = create_app(
        {
            "INSTANCE_PATH": folder / "instance",
            "DATABASE_URL": f"sqlite:///{folder / 'site.db'}",
            "PUBLIC_BASE_URL": "https://gin.example.org",
            "SECRET_KEY": "test-secret-key",
            "UPGRADE_ON_START": True,
            "RATE_LIMIT": "100000 per minute",
            "WTF_CSRF_ENABLED": False,
        }
    )
    client = app.test_client()
    playing, key = _table(client, "classic", 2, [0])
    hand = {"kind": "hand", "entries": [_knock(1, 3, 13)]}
    _post(client, f"/api/tables/{playing}/events", {"seen": 0, "event": hand}, key)
    correct = {"kind": "correct", "number": 1, "entries": [_knock(1, 2, 13)]}
    _post(client, f"/api/tables/{playing}/events", {"seen": 1, "event": correct}, key)
    _post(client, f"/api/tables/{playing}/events", {"seen": 2, "event": hand}, key)
    _post(client, f"/api/tables/{playing}/events", {"seen": 3, "event": {"kind": "undo"}}, key)
    finished, key = _table(client, "classic", 2, [1])
    seen = 0
    gin = {"kind": "hand", "entries": [{"end": "gin", "ended_by": 0, "defender_deadwood": 40}]}
    while not _post(client, f"/api/tables/{finished}/events", {"seen": seen, "event": gin}, key)[
        "finished"
    ]:
        seen += 1
    hollywood, key = _table(client, "hollywood", 2, [0])
    for seen in range(3):
        body = {"seen": seen, "event": {"kind": "hand", "entries": [_knock(seen % 2, 4, 30)]}}
        _post(client, f"/api/tables/{hollywood}/events", body, key)
    started = client.post("/bot/classic", data={"bot": "strong", "seed": "7"})
    assert started.status_code == 303, started.get_data(as_text=True)
    pages = {
        "start a table": "/t/new?rules=classic",
        "start a partnership": "/t/new?rules=partnership",
        "a table under way": f"/t/{playing}",
        "a finished table": f"/t/{finished}",
        "a Hollywood table": f"/t/{hollywood}",
        "start a bot game": "/bot/oklahoma",
        "a bot game": started.headers["Location"],
    }
    try:
        yield Site(app, client, pages)
    finally:
        app.extensions["ginrules.store"].close()


def _in(lang: str, path: str) -> str:
    return path + ("&" if "?" in path else "?") + f"lang={lang}"


class _Reader(HTMLParser):
    """What a person reads of a page: the text of its title and ``<main>`` (not
    scripts, nor the times Babel writes), and the attributes read aloud or shown."""

    READ = frozenset({"title", "alt", "aria-label", "placeholder"})

    def __init__(self) -> None:
        super().__init__()
        self.texts: list[str] = []
        self.scripts: dict[str, str] = {}
        self._open: list[str] = []
        self._script: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "script":
            self._script = dict(attrs).get("id") or ""
            self.scripts[self._script] = ""
        if tag in ("main", "title", "time"):
            self._open.append(tag)
        if "main" in self._open:
            self.texts.extend(value for name, value in attrs if name in self.READ and value)

    def handle_endtag(self, tag: str) -> None:
        if tag == "script":
            self._script = None
        if self._open and self._open[-1] == tag:
            self._open.pop()

    def handle_data(self, data: str) -> None:
        if self._script is not None:
            self.scripts[self._script] += data
        elif self._open and self._open[-1] in ("main", "title"):
            self.texts.append(data)


def _read(page: str) -> _Reader:
    reader = _Reader()
    reader.feed(page)
    return reader


def _text(page: str) -> str:
    return " ".join(" ".join(_read(page).texts).split())


def _script(page: str, name: str) -> Any:
    return json.loads(_read(page).scripts[name])


def _get(site: Site, path: str) -> str:
    answer = site.client.get(path)
    assert answer.status_code == 200, (path, answer.status_code)
    return answer.get_data(as_text=True)


# -- each language: the page says what the catalogue gives ---------------------------------


#: Messages each page shows (as its template writes them, with their values), by page.
SHOWN: dict[str, list[tuple[str, dict[str, object]]]] = {
    "start a table": [("Start a table", {}), ("Cut for it: the app draws", {})],
    "start a partnership": [
        ("Start the table", {}),
        ("Who deals first between players %(first)s and %(second)s?", {"first": 1, "second": 2}),
        ("Player %(number)s · team B", {"number": 4}),
    ],
    "a table under way": [
        ("Hands", {}),
        ("Bring the other phones", {}),
        ("Hand %(number)s", {"number": 2}),
    ],
    "a finished table": [("Game over", {}), ("Score pad (PDF)", {}), ("Score pad", {})],
    "a Hollywood table": [("Hand %(number)s", {"number": 4}), ("Game %(number)s", {"number": 3})],
    "start a bot game": [("Practice against the bot", {}), ("Seed (optional)", {})],
    "a bot game": [("Play again", {}), ("Discard pile", {}), ("This hand so far", {})],
}


@pytest.mark.parametrize("lang", LANGS)
def test_every_table_and_bot_page_says_what_the_catalogue_gives(site: Site, lang: str) -> None:
    for name, path in site.pages.items():
        answer = site.client.get(_in(lang, path))
        assert answer.status_code == 200, name
        assert answer.headers["Content-Language"] == lang, name
        text = _text(answer.get_data(as_text=True))
        with use_locale(lang):
            for message, values in SHOWN[name]:
                assert " ".join((_(message) % values).split()) in text, (name, lang, message)


@pytest.mark.parametrize("lang", LANGS)
def test_the_scripts_read_their_words_in_the_pages_language(site: Site, lang: str) -> None:
    table = _get(site, _in(lang, site.pages["a table under way"]))
    game = _get(site, _in(lang, site.pages["a bot game"]))
    with use_locale(lang):
        assert _script(table, "table-words") == tables.page_words()
        assert _script(game, "bot-words") == bot_games.page_words()
        assert _script(table, "card-faces") == _script(game, "card-faces") == card_faces()
    # The script asks for its updates and sends its changes in the page's language.
    root = re.search(r'<div class="table-page" id="table"[^>]*>', table)
    assert root and all(
        f"lang={lang}" in value
        for value in re.findall(r'data-(?:live|now|events|next)="([^"]*)"', root[0])
    )
    assert 'data-act="/api/bots/' in game and f"/actions?lang={lang}" in game


@pytest.mark.parametrize("lang", LANGS)
def test_a_live_update_is_worded_in_the_language_the_phone_asked_in(site: Site, lang: str) -> None:
    now = site.client.get(_in(lang, site.pages["a table under way"] + "/now")).get_json()
    score = _text(f"<main>{now['html']['score']}</main>")
    with use_locale(lang):
        assert _("Hands") in now["html"]["hands"]
        played = i18n.ngettext(
            "Game to %(target)s · %(count)s hand played",
            "Game to %(target)s · %(count)s hands played",
            1,
        )
    assert played % {"target": 100, "count": 1} in score


def test_a_language_asked_for_in_the_url_carries_on_to_the_table_and_the_game(
    site: Site,
) -> None:
    fields = {"rules": "classic", "player-0": "Ana", "player-1": "Ben"}
    started = site.client.post("/t/new?lang=fr", data=fields)
    assert started.status_code == 303
    assert re.fullmatch(r"/t/\w+\?lang=fr#key=[\w-]+", started.headers["Location"])
    page = _get(site, started.headers["Location"].partition("#")[0])
    assert "/now?lang=fr" in page
    refused = site.client.post("/t/new?lang=es", data={**fields, "player-1": ""})
    assert refused.status_code == 422 and 'action="/t/new?lang=es"' in refused.get_data(True)
    game = site.client.post("/bot/classic?lang=es", data={"bot": "random"})
    assert game.status_code == 303 and game.headers["Location"].endswith("?lang=es")
    assert 'action="/bot/classic?lang=de"' in _get(site, "/bot/classic?lang=de")


def test_the_csv_and_the_export_keep_their_english_names_in_every_language(site: Site) -> None:
    path = site.pages["a finished table"]
    english = site.client.get(path + "/hands.csv").get_data()
    for lang in LANGS:
        assert site.client.get(_in(lang, path + "/hands.csv")).get_data() == english
        assert site.client.get(_in(lang, path + "/table.json")).get_json()["ginrules_table"] == 1
    assert english.decode("utf-8-sig").startswith("hand,deal,games,dealer,players,ended by")


# -- the pseudo-locale: no English outside the brackets -------------------------------------


@pytest.fixture
def pseudo(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every language of the site speaks ``⟦message⟧`` for every message the catalogue
    holds (each plural form too)."""
    words = pseudo_catalogue(lambda message: f"⟦{message}⟧")
    speak_pseudo(monkeypatch, dict.fromkeys(LANGUAGES, words))


_INNERMOST = re.compile(r"⟦[^⟦⟧]*⟧")
#: What a page may show that is no message: the site's name, the players' names, links,
#: fingerprints and the files' formats.
_DATA = re.compile(
    r"https?://\S+|\b[0-9a-fA-F]{12}\b|\b(?:ginrules|CSV|JSON|PDF|" + "|".join(PLAYERS) + r")\b"
)


def _untranslated(text: str) -> list[str]:
    """The words of ``text`` left outside every ``⟦…⟧`` (and outside the data)."""
    while _INNERMOST.search(text):
        text = _INNERMOST.sub(" ", text)
    return re.findall(r"[A-Za-z]{2,}(?:'[a-z]+)?", _DATA.sub(" ", text))


def _strings(value: Any, skip: frozenset[str], key: str = "") -> Iterator[tuple[str, str]]:
    if isinstance(value, dict):
        for name, item in value.items():
            if name not in skip:
                yield from _strings(item, skip, name)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item, skip, key)
    elif isinstance(value, str):
        yield key, value


#: The game's data, not its words: codes, cards, names of rules and players, links.
_GAME_DATA = frozenset(
    {"slug", "rules", "bot", "format", "players", "phase", "kind", "card", "taken", "action"}
    | {"pile_top", "melds", "deadwood_cards", "opponent_known", "page_url"}
)


@pytest.mark.usefixtures("pseudo")
def test_in_the_pseudo_locale_no_english_is_left_on_any_page(site: Site) -> None:
    left = {}
    for name, path in site.pages.items():
        page = _get(site, _in("de", path))
        reader = _read(page)
        words = _untranslated(" ".join(reader.texts))
        for script in ("table-words", "bot-words"):
            if script in reader.scripts:
                values = json.loads(reader.scripts[script]).values()
                words += [v for v in values if not (v.startswith("⟦") and v.endswith("⟧"))]
        if "bot-state" in reader.scripts:
            state = json.loads(reader.scripts["bot-state"])
            words += [
                f"{key}: {text}" for key, text in _strings(state, _GAME_DATA) if _untranslated(text)
            ]
        if words:
            left[name] = words
    assert not left, f"English outside ⟦…⟧: {left}"


@pytest.mark.usefixtures("pseudo")
def test_in_the_pseudo_locale_a_refused_start_and_a_live_update_are_all_messages(
    site: Site,
) -> None:
    refused = site.client.post(
        _in("de", "/t/new"), data={"rules": "classic", "player-0": "Ana", "player-1": "ana"}
    )
    assert refused.status_code == 422
    assert not _untranslated(_text(refused.get_data(as_text=True)))
    now = site.client.get(_in("de", site.pages["a finished table"] + "/now")).get_json()
    for part in ("score", "hands"):
        reader = _read(f"<main>{now['html'][part]}</main>")
        assert not _untranslated(" ".join(reader.texts)), part


@pytest.mark.usefixtures("pseudo")
def test_on_a_phone_the_scripts_show_only_messages_and_nothing_overflows(tmp_path: Path) -> None:
    """What the scripts build (the hand entry, the offline queue, the bot's table) at
    390 px, in the pseudo-locale."""
    from playwright.sync_api import expect

    with (
        browser_helpers.site(tmp_path) as (base, _app),
        browser_helpers.chromium(tmp_path, 390, 844) as visit,
    ):
        started = Client(base).send_json(
            "POST",
            "/api/tables",
            {"rules": "oklahoma", "players": ["Ana", "Ben"], "first_dealers": [0]},
        )
        slug, key = started.json()["slug"], started.json()["scorer_key"]
        page = visit.page
        page.goto(f"{base}/t/{slug}?lang=de#key={key}")
        enter = page.locator("#enter")
        enter.wait_for(state="visible")
        page.locator("[data-group=end] .seg").first.click()  # a knock
        page.locator("[data-group=who] .seg").nth(1).click()
        assert not _untranslated(enter.inner_text())
        assert browser_helpers.horizontal_overflow(page) == 0
        page.locator("[data-group=way] .seg").nth(1).click()  # the cards, tapped
        assert not _untranslated(enter.inner_text())
        page.locator("[data-group=way] .seg").first.click()
        page.locator("[data-group=end] .seg").first.click()
        page.locator("[data-group=who] .seg").nth(1).click()
        numbers = page.locator(".hand-part input[type=number]")
        numbers.nth(0).fill("3")
        numbers.nth(1).fill("13")
        page.locator(".upcard select").nth(0).select_option("7")
        page.locator(".upcard select").nth(1).select_option("H")
        page.context.set_offline(True)
        page.locator("[data-save]").click()
        pending = page.locator("#pending")
        pending.wait_for(state="visible")
        assert not _untranslated(pending.inner_text() + " " + enter.inner_text())
        page.context.set_offline(False)
        pending.wait_for(state="hidden")
        expect(page.locator('#score [data-side="1"]')).to_have_text("10")
        assert not _untranslated(page.locator("main").inner_text())

        page.goto(f"{base}/bot/classic?lang=de")
        page.locator("#deal").click()
        page.locator("#bot-table").wait_for(state="visible")
        assert not _untranslated(page.locator("main").inner_text())
        assert browser_helpers.horizontal_overflow(page) == 0
        problems = [p for p in visit.problems if "ERR_INTERNET_DISCONNECTED" not in p]
        assert not [p for p in problems if "/api/tables" not in p], problems
