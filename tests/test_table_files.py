"""A card table's files: the filled-in score pad (HTML and PDF), the hands as CSV, the
table as JSON, and that JSON brought back in as a new table.

Seeded bot matches are played by the engine and entered at stored tables as a
phone enters them; every number a file shows is compared with the engine's own
score pad and results. The JSON round trip and the refused imports run on a real
SQLite file and on the real PostgreSQL server.
"""

from __future__ import annotations

import copy
import csv
import io
import json
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from flask import Flask
from flask.testing import FlaskClient

from ginrules.engine.entries import CardsEntry, CountsEntry
from ginrules.engine.scorepad import ScorePad
from ginrules.engine.scoring import HandEnd
from ginrules.engine.tablelog import HandCorrected, HandEntered, LastHandUndone
from ginrules.rules import locate
from ginrules.rules.compile import compile_ruleset
from ginrules.rules.load import load_ruleset, load_ruleset_text
from ginrules.sheets.filled import pad_fill
from ginrules.sheets.render import filled_scorepad_html
from ginrules.web import create_app, refs
from ginrules.web.storage import Draft, Store
from ginrules.web.table_service import TableState, record, start, state
from ginrules.web.table_store import TableStore
from ginrules.words.table_files import hand_columns
from tests.databases import database_url
from tests.pdf_tools import pdf_info, pdf_pages, pdf_text
from tests.test_entries import _as_cards, _as_counts, _played

__all__ = ["database_url"]  # a fixture

NAMES = ("Ana", "Ben", "Chloe", "Dev")
THREE_HANDED = (
    "name: Three at a table\nextends: classic\nformat:\n  type: three_handed\n  players: 3\n"
)
FORMATS = ["classic", "hollywood", "partnership", "three-handed"]


@dataclass
class Site:
    app: Flask
    client: FlaskClient
    store: Store
    tables: TableStore


def _site(tmp_path: Path, url: str) -> Iterator[Site]:
    app = create_app(
        {
            "INSTANCE_PATH": tmp_path / "instance",
            "DATABASE_URL": url,
            "PUBLIC_BASE_URL": "https://gin.example.org",
            "SECRET_KEY": "test-secret-key",
            "UPGRADE_ON_START": True,
            "RATE_LIMIT": "100000 per minute",
        }
    )
    store: Store = app.extensions["ginrules.store"]
    try:
        yield Site(app, app.test_client(), store, TableStore(store))
    finally:
        store.close()


@pytest.fixture
def site(tmp_path: Path) -> Iterator[Site]:
    """The site on a SQLite file."""
    yield from _site(tmp_path, f"sqlite:///{tmp_path / 'files.db'}")


@pytest.fixture
def any_site(tmp_path: Path, database_url: str) -> Iterator[Site]:
    """The site on SQLite, and on PostgreSQL."""
    yield from _site(tmp_path, database_url)


def _rules(site: Site, name: str) -> refs.Loaded:
    if name == "three-handed":
        draft = Draft("Three at a table", "Ana", "", THREE_HANDED, "classic", "")
        saved = site.store.create(draft, "sha256:x")
        loaded = refs.saved(site.store, saved.slug, 1)
    else:
        loaded = refs.shipped(name)
    assert loaded is not None
    return loaded


def _played_table(
    site: Site, name: str, seed: int, way: str = "counts", names: tuple[str, ...] = NAMES
) -> tuple[str, ScorePad]:
    """A seeded bot match of ``name``, entered hand by hand at a new table; the table's
    slug and the engine's own pad of the match."""
    loaded = _rules(site, name)
    pad, played = _played(loaded.config, seed)
    table, _ = start(site.tables, loaded, names[: pad.players], pad.first_dealers)
    queue = iter(played)
    for number, entry in enumerate(pad.entries):
        entries: list[CountsEntry | CardsEntry] = []
        for _ in entry.seatings:
            seating, hand = next(queue)
            cards = way == "cards" and hand.showdown is not None
            entries.append(_as_cards(seating, hand) if cards else _as_counts(seating, hand))
        record(site.tables, table.slug, number, HandEntered(tuple(entries)), names[0])
    return table.slug, pad


def _now(site: Site, slug: str) -> TableState:
    now = state(site.tables, slug)
    assert now is not None
    return now


# -- reading a pad's HTML ------------------------------------------------------------------


@dataclass
class Cell:
    attrs: dict[str, str]
    text: str = ""


@dataclass
class Row:
    attrs: dict[str, str]
    cells: list[Cell] = field(default_factory=list)


@dataclass
class Table:
    attrs: dict[str, str]
    caption: str = ""
    rows: list[Row] = field(default_factory=list)


class _Tables(HTMLParser):
    """The page's tables, rows and cells, with each cell's text as a reader sees it."""

    def __init__(self) -> None:
        super().__init__()
        self.tables: list[Table] = []
        self._cell: Cell | None = None
        self._caption = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = {key: value or "" for key, value in attrs}
        if tag == "table":
            self.tables.append(Table(found))
        elif tag == "tr":
            self.tables[-1].rows.append(Row(found))
        elif tag in ("td", "th"):
            self._cell = Cell(found)
            self.tables[-1].rows[-1].cells.append(self._cell)
        elif tag == "caption":
            self._caption = True

    def handle_endtag(self, tag: str) -> None:
        if tag in ("td", "th"):
            self._cell = None
        elif tag == "caption":
            self._caption = False

    def handle_data(self, data: str) -> None:
        if self._cell is not None:
            self._cell.text = " ".join((self._cell.text + data).split())
        elif self._caption:
            self.tables[-1].caption += data


def pads(page: str) -> list[Table]:
    parser = _Tables()
    parser.feed(page)
    return [t for t in parser.tables if "pad" in t.attrs.get("class", "").split()]


def numbers(text: str) -> list[int]:
    return [int(n) for n in re.findall(r"\d+", text)]


def settlements(page: str) -> list[str]:
    found = re.findall(r'<p class="settlement"[^>]*>(.*?)</p>', page, re.S)
    return [" ".join(re.sub(r"<[^>]+>", " ", p).split()) for p in found]


def end_cells(pad_table: Table, row: str) -> dict[int, str]:
    """The cells of end row ``row`` (boxes, bonus, total), by side."""
    (found,) = [r for r in pad_table.rows if r.attrs.get("data-row") == row]
    return {int(c.attrs["data-side"]): c.text for c in found.cells if "data-side" in c.attrs}


# -- the filled-in pad ---------------------------------------------------------------------


@pytest.mark.parametrize("name", FORMATS)
def test_the_filled_pad_shows_each_hand_and_the_engines_results(site: Site, name: str) -> None:
    slug, pad = _played_table(site, name, seed=2)
    answer = site.client.get(f"/t/{slug}/pad")
    assert answer.status_code == 200 and answer.mimetype == "text/html"
    page = answer.get_data(as_text=True)
    now = _now(site, slug)
    results = pad.results()
    assert now.score.pad.results() == results
    players = NAMES[: pad.players]
    sides = (
        [f"{players[0]} and {players[2]}", f"{players[1]} and {players[3]}"]
        if name == "partnership"
        else list(players)
    )
    tables = pads(page)
    assert len(tables) == len(results)
    seen_hands: set[int] = set()
    for table, result in zip(tables, results, strict=True):
        heads = " ".join(cell.text for row in table.rows for cell in row.cells if cell.text)
        assert all(side in heads + table.caption for side in sides)
        lines = [row for row in table.rows if "data-hand" in row.attrs]
        assert len(lines) == result.hands, "one line for every hand this game counted"
        written = [int(row.attrs["data-hand"]) for row in lines]
        assert written == sorted(set(written))
        seen_hands.update(written)
        # The last running total written in each side's column is the engine's score.
        for side in range(len(sides)):
            totals = [
                numbers(cell.text)[0]
                for row in lines
                for cell in row.cells
                if cell.attrs.get("data-side") == str(side) and "data-total" in cell.attrs
            ]
            assert (totals[-1] if totals else 0) == result.points[side]
        # The end rows: boxes times their value, the winner's bonus, the totals.
        winner = result.winner
        if now.config.box_bonus:
            boxes = end_cells(table, "boxes")
            for side in range(len(sides)):
                counted = f"{result.boxes[side]} × {now.config.box_bonus}"
                assert boxes[side].endswith(f"{counted} = {result.box_points[side]}")
        bonus = end_cells(table, "bonus")
        assert set(numbers(bonus[winner])) == {s.game_bonus for s in result.settlements}
        totals_row = end_cells(table, "total")
        assert set(numbers(totals_row[winner])) == {s.winner_total for s in result.settlements}
        for settlement in result.settlements:
            assert numbers(totals_row[settlement.loser]) == [settlement.loser_total]
    assert seen_hands == set(range(1, len(pad.entries) + 1)), "no hand is left out"
    # The settlement under the pad: who won, and each loser's margin.
    said = settlements(page)
    assert len(said) == len(results)
    for text, result in zip(said, results, strict=True):
        assert f"{sides[result.winner]} won after {result.hands} hands" in text
        for settlement in result.settlements:
            assert f"{settlement.winner_total}, {sides[settlement.loser]}" in text
            assert f"{abs(settlement.margin)} points" in text


#: Scoring the shipped rulesets do not print: boxes counted as won, a stake, a shutout
#: that doubles the winner's total, and one that changes the game bonus.
OVERLAYS = {
    "boxes as won, a stake": (
        "game_scoring:\n  box_timing: each_hand\n  stake_per_point: 0.25\n  shutout: double_score\n"
    ),
    "a shutout's own bonus": "game_scoring:\n  shutout: game_bonus\n  shutout_game_bonus: 200\n",
}


@pytest.mark.parametrize("name", [*(e.name for e in locate.entries()), *OVERLAYS])
def test_every_rulesets_pad_fills_with_the_engines_totals(name: str) -> None:
    """The sheets' entry point takes plain data: a played pad and the players' names."""
    if name in OVERLAYS:
        text = f"name: {name}\nextends: classic\n{OVERLAYS[name]}"
        ruleset = load_ruleset_text(text, name, shipped_only=True)
    else:
        ruleset = load_ruleset(name)
    config = compile_ruleset(ruleset)
    for seed in (0, 3):
        pad, _ = _played(config, seed)
        page = filled_scorepad_html(ruleset, pad_fill(pad, NAMES[: pad.players]))
        for table, result in zip(pads(page), pad.results(), strict=True):
            totals = end_cells(table, "total")
            assert set(numbers(totals[result.winner])) == {
                s.winner_total for s in result.settlements
            }
            lines = [row for row in table.rows if "data-hand" in row.attrs]
            assert len(lines) == result.hands
        if config.stake_per_point:
            assert " at 0.25 a point." in " ".join(settlements(page))


def test_a_game_in_play_prints_its_score_so_far_and_blank_end_rows(site: Site) -> None:
    loaded = _rules(site, "classic")
    table, _ = start(site.tables, loaded, ["Ana", "Ben"], [0])
    record(site.tables, table.slug, 0, _knock(1, 3, 13), "Ana")
    page = site.client.get(f"/t/{table.slug}/pad").get_data(as_text=True)
    (pad_table,) = pads(page)
    assert [row.attrs["data-hand"] for row in pad_table.rows if "data-hand" in row.attrs] == ["1"]
    assert not [row for row in pad_table.rows if "data-row" in row.attrs]  # blank end rows
    assert "Total" in page and "in play after 1 hand: Ana 0, Ben 10" in settlements(page)[0]


@pytest.mark.parametrize("name", ["classic", "three-handed"])
def test_the_filled_pad_pdf_reads_back_with_the_players_and_the_totals(
    site: Site, name: str, tmp_path: Path
) -> None:
    slug, pad = _played_table(site, name, seed=4)
    answer = site.client.get(f"/t/{slug}/pad.pdf")
    assert answer.status_code == 200 and answer.mimetype == "application/pdf"
    stem = "classic-gin-rummy" if name == "classic" else "three-at-a-table"
    assert answer.headers["Content-Disposition"] == f'attachment; filename="{stem}-{slug}.pdf"'
    pdf = tmp_path / "pad.pdf"
    pdf.write_bytes(answer.data)
    text = pdf_text(pdf)
    assert pdf_info(pdf)["Title"].endswith(": score pad")
    (result,) = pad.results()
    for player in NAMES[: pad.players]:
        assert f"A: {player}" in text or f"B: {player}" in text or f"C: {player}" in text
    for settlement in result.settlements:
        total = f"{NAMES[result.winner]} {settlement.winner_total}, "
        assert f"{total}{NAMES[settlement.loser]} {settlement.loser_total}" in text
    words = text.split()
    assert str(result.settlements[0].winner_total) in words


def _knock(by: int, knocker: int, defender: int) -> HandEntered:
    return HandEntered((CountsEntry(HandEnd.KNOCK, by, knocker, defender),))


@pytest.mark.parametrize("name", ["classic", "hollywood"])
def test_a_game_longer_than_the_pad_runs_onto_more_pages_and_drops_no_hand(
    site: Site, name: str, tmp_path: Path
) -> None:
    """Ben knocks for 3 every hand: 34 hands to 100, more than a sheet's rows."""
    table, _ = start(site.tables, _rules(site, name), ["Ana", "Ben"], [0])
    number = 0
    while not _now(site, table.slug).score.pad.finished:
        record(site.tables, table.slug, number, _knock(1, 7, 10), "Ana")
        number += 1
    results = _now(site, table.slug).score.pad.results()
    page = site.client.get(f"/t/{table.slug}/pad").get_data(as_text=True)
    for pad_table, result in zip(pads(page), results, strict=True):
        lines = [row for row in pad_table.rows if "data-hand" in row.attrs]
        assert len(lines) == result.hands > 20
    pdf = tmp_path / "long.pdf"
    pdf.write_bytes(site.client.get(f"/t/{table.slug}/pad.pdf").data)
    assert pdf_pages(pdf) >= 2
    words = pdf_text(pdf).split()
    assert set(range(1, number + 1)) <= {int(w) for w in words if w.isdigit()}
    assert words.count("102") == len(results), "each game's last running total is printed"


# -- the hands as CSV ----------------------------------------------------------------------


def _csv(site: Site, slug: str) -> list[list[str]]:
    answer = site.client.get(f"/t/{slug}/hands.csv")
    assert answer.status_code == 200 and answer.mimetype == "text/csv"
    assert answer.headers["Content-Disposition"].startswith("attachment; filename=")
    return list(csv.reader(io.StringIO(answer.data.decode("utf-8-sig"))))


@pytest.mark.parametrize("name", ["hollywood", "partnership", "three-handed"])
def test_the_csv_has_a_row_for_every_two_player_hand_as_the_engine_scored_it(
    site: Site, name: str
) -> None:
    slug, pad = _played_table(site, name, seed=5, way="cards")
    rows = _csv(site, slug)
    now = _now(site, slug)
    header, body = rows[0], rows[1:]
    games = len(pad.boards)
    assert header[: len(hand_columns())] == hand_columns()
    assert len(header) == len(hand_columns()) + games * (2 if pad.players != 3 else 3)
    scored = [(n, s) for n, (_, hand) in enumerate(now.score.hands, 1) for s in hand]
    assert len(body) == len(scored) == sum(len(entry.seatings) for entry in pad.entries)
    column = {title: index for index, title in enumerate(header)}
    for row, (number, hand) in zip(body, scored, strict=True):
        assert int(row[column["hand"]]) == number
        assert int(row[column["points"]]) == hand.report.points
        assert int(row[column["boxes"]]) == hand.report.boxes
        assert row[column["how"]] == hand.score.end.value
        winner = hand.report.winner
        assert row[column["winner"]] == ("" if winner is None else NAMES[winner])
        if winner is not None:
            assert int(row[column["defender's deadwood"]]) == hand.score.defender_deadwood
    if name == "partnership":
        assert [row[column["deal"]] for row in body[:2]] == ["1", "2"]
    if name == "hollywood":
        assert body[0][column["games"]] == "1"  # a first win counts in game 1 only
    last = [int(total) for total in body[-1][len(hand_columns()) :]]
    assert last == [p for game in pad.snapshot().games for p in game.points]


def test_names_that_a_spreadsheet_would_run_as_formulas_are_neutralised(site: Site) -> None:
    names = ['=HYPERLINK("http://evil.example","x")', "+Ben", "-Chloe", "@Dev"]
    table, _ = start(site.tables, _rules(site, "partnership"), names, [0, 2])
    dead = CountsEntry(HandEnd.DEAD)
    record(site.tables, table.slug, 0, HandEntered((dead, dead)), "Ana")
    record(
        site.tables,
        table.slug,
        1,
        HandEntered((CountsEntry(HandEnd.KNOCK, 0, 2, 12), dead)),
        "Ana",
    )
    rows = _csv(site, table.slug)
    assert len(rows) == 1 + 4
    cells = [cell for row in rows for cell in row]
    assert not [cell for cell in cells if cell.startswith(("=", "+", "-", "@"))]
    assert "'" + names[0] in cells and "'-Chloe" in cells  # the names kept, made inert
    assert "'+Ben and @Dev total" in rows[0]
    assert rows[3][hand_columns().index("winner")] == "'" + names[0]


# -- the table as JSON, and back -----------------------------------------------------------


def _export(site: Site, slug: str) -> dict[str, Any]:
    answer = site.client.get(f"/t/{slug}/table.json")
    assert answer.status_code == 200 and answer.mimetype == "application/json"
    data: dict[str, Any] = json.loads(answer.data)
    return data


def _counts(site: Site) -> tuple[int, int]:
    with site.store.engine.connect() as connection:
        return (
            connection.execute(sa.text("SELECT count(*) FROM card_tables")).scalar_one(),
            connection.execute(sa.text("SELECT count(*) FROM table_events")).scalar_one(),
        )


def _with_undo_and_correction(site: Site, name: str) -> tuple[str, ScorePad]:
    """A seeded match entered by cards, with a hand taken back and entered again and
    hand 1 corrected (to itself) on the way."""
    loaded = _rules(site, name)
    pad, played = _played(loaded.config, 6)
    table, _ = start(site.tables, loaded, NAMES[: pad.players], pad.first_dealers)
    queue = iter(played)
    events: list[HandEntered | LastHandUndone | HandCorrected] = []
    for entry in pad.entries:
        entries: list[CountsEntry | CardsEntry] = []
        for _ in entry.seatings:
            seating, hand = next(queue)
            cards = hand.showdown is not None
            entries.append(_as_cards(seating, hand) if cards else _as_counts(seating, hand))
        events.append(HandEntered(tuple(entries)))
    assert len(events) > 3
    first = events[0]
    assert isinstance(first, HandEntered)
    log = [*events[:3], LastHandUndone(), events[2], HandCorrected(1, first.entries), *events[3:]]
    for seen, event in enumerate(log):
        record(site.tables, table.slug, seen, event, NAMES[seen % pad.players])
    return table.slug, pad


@pytest.mark.parametrize("name", ["classic", "partnership"])
def test_a_table_exported_and_imported_is_the_same_table_under_a_new_link_and_key(
    any_site: Site, name: str
) -> None:
    site = any_site
    slug, pad = _with_undo_and_correction(site, name)
    exported = _export(site, slug)
    answer = site.client.post("/api/tables/import", json=exported)
    assert answer.status_code == 201, answer.get_data(as_text=True)
    made = answer.get_json()
    assert made["slug"] != slug and answer.headers["Location"] == f"/api/tables/{made['slug']}"
    before, after = _now(site, slug), _now(site, made["slug"])
    assert after.table.rules == before.table.rules
    assert (after.table.players, after.table.first_dealers) == (
        before.table.players,
        before.table.first_dealers,
    )
    assert after.score.pad.results() == before.score.pad.results() == pad.results()
    assert after.score.pad.snapshot() == before.score.pad.snapshot()
    assert after.score.hands == before.score.hands
    assert [(e.number, e.event, e.actor, e.created_at) for e in after.log] == [
        (e.number, e.event, e.actor, e.created_at) for e in before.log
    ]
    assert [e.event["kind"] for e in after.log][3:6] == ["undo", "hand", "correct"]
    assert _export(site, made["slug"]) == exported
    assert made["results"] == site.client.get(f"/api/tables/{slug}").get_json()["results"]
    # The scorer key is the new table's own, shown once; the old one does not open it.
    undo = {"seen": len(after.log), "event": {"kind": "undo"}}
    old_key = site.client.post(
        f"/api/tables/{made['slug']}/events", json=undo, headers={"X-Scorer-Key": "nope"}
    )
    assert old_key.status_code == 403
    new_key = site.client.post(
        f"/api/tables/{made['slug']}/events",
        json=undo,
        headers={"X-Scorer-Key": made["scorer_key"]},
    )
    assert new_key.status_code == 201
    assert "scorer_key" not in site.client.get(f"/api/tables/{made['slug']}").get_json()


def _hand(knocker: int, defender: int, by: int = 0) -> dict[str, Any]:
    entry = {"end": "knock", "ended_by": by, "knocker_deadwood": knocker}
    return {"kind": "hand", "entries": [{**entry, "defender_deadwood": defender}]}


def _append(data: dict[str, Any], *events: dict[str, Any]) -> None:
    for event in events:
        number = len(data["events"]) + 1
        at = "2026-05-01T20:15:00+00:00"
        data["events"].append({"number": number, "event": event, "actor": "Ana", "at": at})


def _set(path: str, value: Any) -> Callable[[dict[str, Any]], None]:
    def change(data: dict[str, Any]) -> None:
        *parents, last = path.split(".")
        target: Any = data
        for part in parents:
            target = target[int(part)] if part.isdigit() else target[part]
        target[int(last) if last.isdigit() else last] = value

    return change


REFUSED: list[tuple[str, Callable[[dict[str, Any]], None], int, str]] = [
    (
        "a stated fingerprint not the rules'",
        _set("rules.fingerprint", "0" * 12),
        422,
        "rules.fingerprint",
    ),
    (
        "rules changed under their fingerprint",
        lambda d: _set("rules.yaml", d["rules"]["yaml"].replace("gin_bonus: 25", "gin_bonus: 30"))(
            d
        ),
        422,
        "rules.fingerprint",
    ),
    (
        "rules that extend others",
        lambda d: _set("rules.yaml", "name: Mine\nextends: classic\n")(d),
        422,
        "rules.yaml",
    ),
    ("rules that are not rules", _set("rules.yaml", "hand_scoring: [\n"), 422, "rules.yaml"),
    (
        "a knock over the limit",
        _set("events.2.event", _hand(11, 30)),
        422,
        "events.2.event.entries.0.knocker_deadwood",
    ),
    ("an undo with no hand", _set("events.0.event", {"kind": "undo"}), 422, "events.0.event"),
    (
        "a hand that cannot be, taken back later",
        lambda d: _append(d, {"kind": "undo"}, _hand(0, 5, by=7), {"kind": "undo"}),
        422,
        "events.14.event.entries.0.ended_by",
    ),
    ("a hand after the game is over", lambda d: _append(d, _hand(2, 9)), 422, "events.13.event"),
    ("a gap in the numbers", _set("events.1.number", 3), 422, "events.1.number"),
    ("a change of no known kind", _set("events.0.event", {"kind": "jump"}), 422, "events.0.event"),
    (
        "the step to a next game elsewhere",
        lambda d: _append(
            d, {"kind": "next", "slug": "abcd2345", "rules": "classic", "fingerprint": "x"}
        ),
        422,
        "events.13.event",
    ),
    ("a time with no zone", _set("events.0.at", "2026-05-01T20:15:00"), 422, "events.0.at"),
    ("three players for two seats", _set("players", ["Ana", "Ben", "Chloe"]), 422, "players"),
    ("players not a list", _set("players", "Ana, Ben"), 400, "players"),
    ("a change that is not an object", _set("events.0.event", "hand"), 400, "events.0.event"),
    ("an unknown field", _set("extra", 1), 400, "extra"),
    ("an unknown field in the rules", _set("rules.extra", 1), 400, "rules.extra"),
    ("another export version", _set("ginrules_table", 2), 400, "ginrules_table"),
    ("a reference that is no reference", _set("rules.ref", "../classic"), 400, "rules.ref"),
    (
        "an actor longer than the log keeps",
        _set("events.0.actor", "x" * 101),
        400,
        "events.0.actor",
    ),
]


@pytest.mark.parametrize(
    ("change", "status", "field"),
    [(change, status, field) for _, change, status, field in REFUSED],
    ids=[what for what, _, _, _ in REFUSED],
)
def test_an_import_that_cannot_be_is_refused_at_its_field_and_stores_nothing(
    any_site: Site, change: Callable[[dict[str, Any]], None], status: int, field: str
) -> None:
    site = any_site
    slug, pad = _played_table(site, "classic", seed=1)
    assert len(pad.entries) == 13, "the refusals above count this game's 13 hands"
    exported = _export(site, slug)
    data = copy.deepcopy(exported)
    change(data)
    before = _counts(site)
    answer = site.client.post("/api/tables/import", json=data)
    assert answer.status_code == status, answer.get_data(as_text=True)
    errors = answer.get_json()["errors"]
    assert errors[0]["field"] == field and errors[0]["message"]
    assert _counts(site) == before
    # The untouched export is taken: the refusal was the change's doing.
    assert site.client.post("/api/tables/import", json=exported).status_code == 201


def test_an_import_that_is_not_json_is_refused(site: Site) -> None:
    answer = site.client.post(
        "/api/tables/import", data="players: [Ana]", content_type="text/plain"
    )
    assert answer.status_code == 415
    assert (
        site.client.post(
            "/api/tables/import", data=b"{", content_type="application/json"
        ).status_code
        == 400
    )
    assert _counts(site) == (0, 0)


def test_a_table_that_does_not_exist_has_no_files(site: Site) -> None:
    for file in ("pad", "pad.pdf", "hands.csv", "table.json"):
        assert site.client.get(f"/t/zzzzzzzz/{file}").status_code == 404
