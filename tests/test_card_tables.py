"""Card tables in the database: pinned rules, an append-only log, one scoring.

Every test runs on a real SQLite file and on the real PostgreSQL server.
"""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

import pytest
import sqlalchemy as sa

from ginrules.engine.entries import CardsEntry, CountsEntry, EntryError
from ginrules.engine.scorepad import ScorePadError
from ginrules.engine.scoring import HandEnd
from ginrules.engine.tablelog import HandCorrected, HandEntered, LastHandUndone
from ginrules.rules.compile import compile_ruleset
from ginrules.web import refs
from ginrules.web.storage import Draft, Store, secret_matches
from ginrules.web.table_service import TableRefused, record, start, state
from ginrules.web.table_store import Conflict, TableStore
from tests.databases import database_url, store
from tests.engine_helpers import config
from tests.test_entries import _as_cards, _as_counts, _played

__all__ = ["database_url", "store"]  # fixtures

DEAD = HandEntered((CountsEntry(HandEnd.DEAD),))


def knock(by: int, knocker: int, defender: int) -> HandEntered:
    return HandEntered((CountsEntry(HandEnd.KNOCK, by, knocker, defender),))


def _classic_table(tables: TableStore, dealer: int = 0) -> str:
    table, _ = start(tables, refs.shipped("classic"), ["Ana", "Ben"], [dealer])  # type: ignore[arg-type]
    return table.slug


def test_a_table_keeps_the_rules_it_started_under(store: Store) -> None:
    tables = TableStore(store)
    base = refs.shipped("classic")
    assert base is not None
    draft = Draft(
        name="Thursday",
        author="Ana",
        description="",
        yaml="name: Thursday\nextends: classic\nhand_scoring:\n  gin_bonus: 20\n",
        base="classic",
        fingerprint="",
    )
    saved = store.create(draft, "sha256:x")
    first = refs.saved(store, saved.slug, 1)
    assert first is not None
    table, secret = start(tables, first, ["Ana", "Ben"], [1])
    assert table.rules.ref == f"h/{saved.slug}/v1"
    assert table.rules.fingerprint == first.fingerprint
    assert "extends" not in table.rules.yaml
    assert secret_matches(secret, table.scorer_hash) and secret not in table.scorer_hash
    # A later version changes nothing for the table: it scores gin at 20.
    store.add_version(
        saved.slug, draft.__class__(**{**vars(draft), "yaml": draft.yaml + "  undercut_bonus: 5\n"})
    )
    record(tables, table.slug, 0, HandEntered((CountsEntry(HandEnd.GIN, 0, 0, 12),)), "Ana")
    now = state(tables, table.slug)
    assert now is not None
    assert now.config.fingerprint == first.fingerprint
    assert now.score.pad.snapshot().games[0].points == (32, 0)


@pytest.mark.parametrize("name", ["classic", "oklahoma-spades-150", "hollywood", "partnership"])
def test_hands_entered_at_a_stored_table_reach_the_engines_results(store: Store, name: str) -> None:
    tables = TableStore(store)
    loaded = refs.shipped(name)
    assert loaded is not None
    cfg = config(name)
    for seed, way in ((0, "counts"), (1, "cards")):
        pad, played = _played(cfg, seed)
        names = [f"P{seat}" for seat in range(4 if name == "partnership" else 2)]
        table, _ = start(tables, loaded, names, pad.first_dealers)
        queue = iter(played)
        for number, entry in enumerate(pad.entries):
            entries: list[CountsEntry | CardsEntry] = []
            for _ in entry.seatings:
                seating, hand = next(queue)
                if way == "cards" and hand.showdown is not None:
                    entries.append(_as_cards(seating, hand))
                else:
                    entries.append(_as_counts(seating, hand))
            record(tables, table.slug, number, HandEntered(tuple(entries)), "P0")
        now = state(tables, table.slug)
        assert now is not None
        assert now.score.pad.finished
        assert now.score.pad.results() == pad.results()
        assert now.score.pad.snapshot() == pad.snapshot()


def test_undo_and_correction_are_events_and_the_score_follows(store: Store) -> None:
    tables = TableStore(store)
    slug = _classic_table(tables)
    with pytest.raises(ScorePadError):
        record(tables, slug, 0, LastHandUndone(), "Ana")  # nothing to undo yet
    record(tables, slug, 0, knock(1, 3, 13), "Ana")  # Ben knocks: 10
    record(tables, slug, 1, knock(0, 2, 20), "Ben")  # Ana knocks (the loser deals): 18
    record(tables, slug, 2, LastHandUndone(), "Ana")
    now = state(tables, slug)
    assert now is not None and len(now.score.hands) == 1
    assert now.score.pad.snapshot().games[0].points == (0, 10)
    record(tables, slug, 3, HandCorrected(1, knock(1, 3, 30).entries), "Ben")
    now = state(tables, slug)
    assert now is not None
    assert now.score.pad.snapshot().games[0].points == (0, 27)
    assert [e.event["kind"] for e in now.log] == ["hand", "hand", "undo", "correct"]
    assert [e.number for e in now.log] == [1, 2, 3, 4]
    assert [e.actor for e in now.log] == ["Ana", "Ben", "Ana", "Ben"]


@pytest.mark.parametrize(
    ("event", "refusal"),
    [
        (knock(0, 11, 30), EntryError),  # over the knock limit
        (HandEntered((CountsEntry(HandEnd.GIN, 0, 3, 30),)), EntryError),
        (HandEntered(DEAD.entries * 2), ScorePadError),  # two hands for two players
        (HandCorrected(2, DEAD.entries), ScorePadError),  # no hand 2
    ],
)
def test_an_impossible_event_is_refused_and_nothing_is_stored(
    store: Store, event: HandEntered | LastHandUndone | HandCorrected, refusal: type[Exception]
) -> None:
    tables = TableStore(store)
    slug = _classic_table(tables)
    record(tables, slug, 0, knock(1, 3, 13), "Ana")
    with pytest.raises(refusal):
        record(tables, slug, 1, event, "Ana")
    table = tables.get(slug)
    assert table is not None and table.last_event == 1
    assert len(tables.events(slug)) == 1


def test_a_phone_that_saw_an_old_score_is_told_and_nothing_is_doubled(store: Store) -> None:
    tables = TableStore(store)
    slug = _classic_table(tables)
    record(tables, slug, 0, DEAD, "Ana")
    with pytest.raises(Conflict) as moved:
        record(tables, slug, 0, DEAD, "Ben")  # Ben's phone had not seen Ana's hand
    assert moved.value.current == 1
    with pytest.raises(Conflict):
        tables.append(slug, 0, {"kind": "undo"}, "Ben")  # the store refuses it too
    assert [e.number for e in tables.events(slug)] == [1]


def test_a_retry_with_the_same_request_key_is_the_same_event(store: Store) -> None:
    tables = TableStore(store)
    slug = _classic_table(tables)
    first = record(tables, slug, 0, DEAD, "Ana", request_key="k-1").stored
    again = record(tables, slug, 0, DEAD, "Ana", request_key="k-1").stored
    assert again.number == first.number == 1
    assert len(tables.events(slug)) == 1


def test_fifty_phones_entering_at_once_leave_a_gap_free_log(store: Store) -> None:
    tables = TableStore(store)
    slug = _classic_table(tables)
    barrier = threading.Barrier(50)

    def phone(n: int) -> int:
        barrier.wait()
        for _ in range(200):  # each phone retries until its hand is in
            try:
                table = tables.get(slug)
                assert table is not None
                return record(
                    tables, slug, table.last_event, DEAD, f"phone {n}", f"key-{n}"
                ).stored.number
            except Conflict:
                continue
            except sa.exc.TimeoutError:
                # 50 phones at once are more than one process's 30 connections: a wait
                # past DB_TIMEOUT is the site's 503, and a phone sends its hand again.
                continue
        raise AssertionError(f"phone {n} never got its hand in")

    with ThreadPoolExecutor(max_workers=50) as pool:
        numbers = list(pool.map(phone, range(50)))
    log = tables.events(slug)
    assert sorted(numbers) == list(range(1, 51))
    assert [e.number for e in log] == list(range(1, 51))
    assert sorted(e.request_key or "" for e in log) == sorted(f"key-{n}" for n in range(50))


@pytest.mark.parametrize(
    ("players", "dealers", "field"),
    [
        (["Ana"], [0], "players"),
        (["Ana", "  "], [0], "players.1"),
        (["Ana", "ana"], [0], "players"),
        (["Ana", "x" * 41], [0], "players.1"),
        (["Ana", "Ben"], [2], "first_dealers"),
    ],
)
def test_a_table_that_cannot_start_says_which_field_and_saves_nothing(
    store: Store, players: list[str], dealers: list[int], field: str
) -> None:
    tables = TableStore(store)
    with pytest.raises(TableRefused) as refused:
        start(tables, refs.shipped("classic"), players, dealers)  # type: ignore[arg-type]
    assert refused.value.field == field
    with store.engine.connect() as connection:
        assert connection.execute(sa.text("SELECT count(*) FROM card_tables")).scalar_one() == 0


def test_the_pinned_rules_compile_to_the_same_fingerprint_for_every_shipped_ruleset() -> None:
    from ginrules.rules import locate
    from ginrules.rules.load import load_ruleset_text
    from ginrules.web.table_service import pinned

    for entry in locate.entries():
        loaded = refs.shipped(entry.name)
        assert loaded is not None
        rules = pinned(loaded)
        again = compile_ruleset(load_ruleset_text(rules.yaml, entry.name, shipped_only=True))
        assert again.fingerprint == loaded.fingerprint


def test_the_score_a_change_answers_with_is_the_score_read_afresh(store: Store) -> None:
    """``record`` replays the log once, with the change: its score is the stored one."""
    tables = TableStore(store)
    slug = _classic_table(tables)
    events: list[HandEntered | LastHandUndone] = [
        knock(1, 3, 13),
        knock(0, 2, 20),
        LastHandUndone(),
    ]
    for seen, event in enumerate(events):
        recorded = record(tables, slug, seen, event, "Ana")
        fresh = state(tables, slug)
        assert fresh is not None
        assert recorded.now.table == fresh.table
        assert recorded.now.log == fresh.log
        assert recorded.now.score.pad.snapshot() == fresh.score.pad.snapshot()
        assert recorded.now.score.hands == fresh.score.hands
