"""The storage layer on a real SQLite file and a real PostgreSQL server, the same tests on both."""

from __future__ import annotations

import threading
from datetime import UTC, datetime, timedelta

import pytest
import sqlalchemy as sa
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ginrules.web.storage import (
    Draft,
    NotFound,
    StorageError,
    Store,
    hash_secret,
    new_secret,
    secret_matches,
    versions,
)
from tests.databases import database_url, store

__all__ = ["database_url", "store"]  # fixtures


def draft(name: str = "Our table", gin: int = 20, **extra: str) -> Draft:
    fields = {
        "name": name,
        "author": "Ana",
        "description": "Thursdays",
        "yaml": f"name: {name}\nextends: classic\nhand_scoring:\n  gin_bonus: {gin}\n",
        "base": "classic",
        "fingerprint": f"{gin:064x}",
    }
    fields.update(extra)
    return Draft(**fields)


def test_upgrade_is_idempotent_and_recorded(store: Store) -> None:
    assert store.current() == ["0001_house_rules_and_versions"]
    assert store.upgrade() == []
    assert store.count() == 0


def test_create_then_read_latest_and_by_number(store: Store) -> None:
    before = datetime.now(UTC) - timedelta(seconds=5)
    saved = store.create(draft(), hash_secret("s"))
    assert saved.number == 1 and saved.latest == 1 and len(saved.slug) == 8
    assert saved.created_at.tzinfo is not None and saved.created_at >= before
    assert store.get(saved.slug) == saved
    assert store.get(saved.slug, 1) == saved
    assert store.get(saved.slug, 2) is None
    assert store.get("nosuchsl") is None
    assert store.versions("nosuchsl") == []
    assert store.count() == 1


def test_versions_are_kept_and_the_plain_read_follows_the_latest(store: Store) -> None:
    first = store.create(draft(gin=20), hash_secret("s"))
    second = store.add_version(first.slug, draft(gin=30))
    third = store.add_version(first.slug, draft(name="Renamed", gin=40))
    assert (second.number, third.number) == (2, 3)
    latest = store.get(first.slug)
    assert latest is not None and latest.number == 3 and latest.name == "Renamed"
    old = store.get(first.slug, 1)
    assert old is not None and old.yaml == first.yaml and old.latest == 3
    assert [v.number for v in store.versions(first.slug)] == [1, 2, 3]
    with pytest.raises(NotFound):
        store.add_version("nosuchsl", draft())


def test_recent_is_newest_change_first(store: Store) -> None:
    a = store.create(draft("A"), hash_secret("a"))
    b = store.create(draft("B"), hash_secret("b"))
    store.add_version(a.slug, draft("A2"))
    recent = store.recent(10)
    assert [v.name for v in recent] == ["A2", "B"]
    assert [v.slug for v in store.recent(1)] == [a.slug]
    assert b.slug in {v.slug for v in recent}


def test_fork_origin_round_trips(store: Store) -> None:
    parent = store.create(draft("Parent"), hash_secret("p"))
    child = store.create(draft("Child"), hash_secret("c"), forked_from=(parent.slug, 1))
    assert child.forked_from == (parent.slug, 1)
    assert parent.forked_from is None


def test_only_a_hash_of_the_edit_secret_is_stored(store: Store) -> None:
    secret = new_secret()
    saved = store.create(draft(), hash_secret(secret))
    stored = store.edit_hash(saved.slug)
    assert stored is not None and secret not in stored
    assert secret_matches(secret, stored)
    assert not secret_matches(secret + "x", stored)
    assert store.edit_hash("nosuchsl") is None


def test_a_failed_save_changes_nothing(store: Store) -> None:
    saved = store.create(draft(), hash_secret("s"))
    before = store.versions(saved.slug)
    with pytest.raises(StorageError, match="longer than"):
        store.add_version(saved.slug, draft(name="x" * 5000))  # longer than the column
    with pytest.raises(StorageError, match="longer than"):
        store.create(draft(fingerprint="f" * 500), hash_secret("t"))
    with pytest.raises(StorageError, match="text"):
        store.add_version(saved.slug, draft(yaml=None))  # type: ignore[arg-type]
    assert store.versions(saved.slug) == before
    assert store.count() == 1


def test_concurrent_saves_get_distinct_numbers(store: Store) -> None:
    saved = store.create(draft(), hash_secret("s"))
    errors: list[BaseException] = []

    def save_five() -> None:
        try:
            for n in range(5):
                store.add_version(saved.slug, draft(gin=n))
        except BaseException as error:
            errors.append(error)

    threads = [threading.Thread(target=save_five) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert errors == []
    assert [v.number for v in store.versions(saved.slug)] == list(range(1, 22))


def test_unicode_and_large_texts_round_trip(store: Store) -> None:
    yaml_text = "name: Café ♠ 🃏\nextends: classic\nnotes:\n" + "  - ünïcode note\n" * 3300
    assert len(yaml_text.encode()) > 60_000
    saved = store.create(draft(name="Café ♠ 🃏", yaml=yaml_text), hash_secret("s"))
    again = store.get(saved.slug)
    assert again is not None and again.yaml == yaml_text and again.name == "Café ♠ 🃏"


def test_versions_table_refuses_a_duplicate_number(store: Store) -> None:
    saved = store.create(draft(), hash_secret("s"))
    with pytest.raises(sa.exc.IntegrityError), store.engine.begin() as connection:
        rule_id = connection.execute(sa.text("SELECT id FROM house_rules")).scalar_one()
        connection.execute(
            sa.insert(versions).values(
                house_rule_id=rule_id,
                number=1,
                name="dup",
                author="",
                description="",
                yaml="",
                base="",
                fingerprint="",
                created_at=datetime.now(UTC),
            )
        )
    assert [v.name for v in store.versions(saved.slug)] == ["Our table"]


@settings(
    max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(st.lists(st.tuples(st.integers(0, 3), st.integers(0, 500)), min_size=1, max_size=12))
def test_saves_match_a_model(store: Store, steps: list[tuple[int, int]]) -> None:
    model: dict[str, list[int]] = {}
    slugs: list[str] = []
    for which, gin in steps:
        if which >= len(slugs):
            saved = store.create(draft(gin=gin), hash_secret("s"))
            slugs.append(saved.slug)
            model[saved.slug] = [gin]
        else:
            slug = slugs[which]
            store.add_version(slug, draft(gin=gin))
            model[slug].append(gin)
    for slug, gins in model.items():
        stored = store.versions(slug)
        assert [v.fingerprint for v in stored] == [f"{g:064x}" for g in gins]
        assert all(v.latest == len(gins) for v in stored)
