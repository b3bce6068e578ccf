"""The storage layer on a real SQLite file and a real PostgreSQL server, the same tests on both."""

from __future__ import annotations

import dataclasses
import threading
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
import sqlalchemy as sa
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ginrules.web.storage import (
    AlreadySaved,
    Draft,
    NotFound,
    StorageError,
    Store,
    Version,
    default_url,
    hash_secret,
    new_form_token,
    new_secret,
    secret_matches,
)
from ginrules.web.tables import MIGRATIONS, versions
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


def in_utc(version: Version) -> bool:
    return version.created_at.utcoffset() == timedelta(0)


def test_upgrade_is_idempotent_and_recorded(database_url: str) -> None:
    fresh = Store(database_url)
    try:
        names = [name for name, _ in MIGRATIONS]
        assert names[0] == "0001_house_rules_and_versions"
        assert fresh.current() == []
        assert fresh.upgrade() == names
        assert fresh.current() == names
        assert fresh.upgrade() == []
        assert fresh.current() == names
        assert fresh.count() == 0
    finally:
        fresh.close()


def test_urls_are_normalised_and_shown_without_the_password(tmp_path: Path) -> None:
    for given_url in ("postgres://u:pw@db.example/g", "postgresql://u:pw@db.example/g"):
        opened = Store(given_url)  # no connection is made until it is used
        assert opened.url == "postgresql+psycopg://u:***@db.example/g"
        assert opened.engine.dialect.driver == "psycopg"
        opened.close()
    assert default_url(tmp_path) == f"sqlite:///{tmp_path / 'ginrules.db'}"


def test_sqlite_file_is_made_in_wal_mode_with_its_folder(tmp_path: Path) -> None:
    opened = Store(default_url(tmp_path / "instance" / "nested"))
    try:
        assert opened.upgrade() == [name for name, _ in MIGRATIONS]
        assert (tmp_path / "instance" / "nested" / "ginrules.db").is_file()
        with opened.engine.connect() as connection:
            assert connection.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
            assert connection.exec_driver_sql("PRAGMA foreign_keys").scalar() == 1
    finally:
        opened.close()


def test_create_then_read_latest_and_by_number(store: Store) -> None:
    before = datetime.now(UTC) - timedelta(seconds=5)
    saved = store.create(draft(), hash_secret("s"))
    assert saved.number == 1 and saved.latest == 1 and len(saved.slug) == 8
    assert set(saved.slug) <= set("23456789abcdefghjkmnpqrstuvwxyz")
    assert (saved.name, saved.author, saved.description) == ("Our table", "Ana", "Thursdays")
    assert (saved.base, saved.fingerprint, saved.forked_from) == ("classic", f"{20:064x}", None)
    assert in_utc(saved) and before <= saved.created_at <= datetime.now(UTC)
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
    assert third.created_at >= second.created_at >= first.created_at
    assert store.get(first.slug) == third
    assert store.get(first.slug, 1) == dataclasses.replace(first, latest=3)  # unchanged
    assert store.get(first.slug, 2) == dataclasses.replace(second, latest=3)
    listed = store.versions(first.slug)
    assert [v.number for v in listed] == [1, 2, 3]
    assert all(v.latest == 3 and in_utc(v) for v in listed)
    assert store.count() == 1
    with pytest.raises(NotFound):
        store.add_version("nosuchsl", draft())


def test_recent_is_newest_change_first(store: Store) -> None:
    a = store.create(draft("A"), hash_secret("a"), visibility="listed")
    b = store.create(draft("B"), hash_secret("b"), visibility="listed")
    hidden = store.create(draft("Hidden"), hash_secret("h"))  # unlisted: never on the list
    store.add_version(a.slug, draft("A2"))
    c = store.create(draft("C"), hash_secret("c"), visibility="listed")
    recent = store.recent(10)
    assert [(v.slug, v.name, v.number) for v in recent] == [
        (c.slug, "C", 1),
        (a.slug, "A2", 2),
        (b.slug, "B", 1),
    ]
    assert [v.slug for v in store.recent(2)] == [c.slug, a.slug]
    assert store.recent() == recent
    assert hidden.slug in [v.slug for v in store.recent(10, listed_only=False)]


def test_visibility_is_kept_per_house_rule_and_a_version_may_change_it(store: Store) -> None:
    first = store.create(draft("Ours"), hash_secret("o"))
    assert first.visibility == "unlisted" and not first.listed
    kept = store.add_version(first.slug, draft("Ours 2"))
    assert kept.visibility == "unlisted"
    listed = store.add_version(first.slug, draft("Ours 3"), visibility="listed")
    assert listed.listed
    assert [v.visibility for v in store.versions(first.slug)] == ["listed"] * 3
    assert [v.slug for v in store.recent()] == [first.slug]
    with pytest.raises(StorageError):
        store.create(draft("Odd"), hash_secret("x"), visibility="public")
    assert store.count() == 1


def test_a_form_token_saves_once(store: Store) -> None:
    token = new_form_token()
    first = store.create(draft("Once"), hash_secret("a"), form_token=token)
    with pytest.raises(AlreadySaved) as again:
        store.create(draft("Once"), hash_secret("b"), form_token=token)
    assert (again.value.slug, again.value.number) == (first.slug, 1)
    assert store.count() == 1
    edit = new_form_token()
    second = store.add_version(first.slug, draft("Twice"), form_token=edit)
    with pytest.raises(AlreadySaved) as repeated:
        store.add_version(first.slug, draft("Twice"), form_token=edit)
    assert (repeated.value.slug, repeated.value.number) == (first.slug, second.number)
    assert [v.number for v in store.versions(first.slug)] == [1, 2]
    assert store.saved_by_token(token) == (first.slug, 1)
    assert store.saved_by_token(new_form_token()) is None


def test_a_form_token_sent_twice_at_once_saves_once(store: Store) -> None:
    token = new_form_token()
    outcomes: list[str] = []

    def save() -> None:
        try:
            store.create(draft("Race"), hash_secret("r"), form_token=token)
            outcomes.append("saved")
        except AlreadySaved:
            outcomes.append("already")

    threads = [threading.Thread(target=save) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(outcomes) == ["already"] * 3 + ["saved"]
    assert store.count() == 1


def _old_database(store: Store, before: str, absent: str, visibility: str) -> None:
    """The database the migrations before ``before`` made (recorded as applied), without
    the column ``absent``, holding one house rule 'oldrules' (its ``visibility`` where
    that column exists) with one version named Old."""
    from ginrules.web.tables import metadata, migrations_table

    now = datetime.now(UTC)
    with store.engine.begin() as connection:
        metadata.create_all(connection, tables=[migrations_table])
        for name, step in (m for m in MIGRATIONS if m[0] < before):
            step(connection)
            connection.execute(sa.insert(migrations_table).values(name=name, applied_at=now))
        assert absent not in {c["name"] for c in sa.inspect(connection).get_columns("house_rules")}
        columns, values = "", ""
        if visibility:
            columns, values = ", visibility", f", '{visibility}'"
        connection.execute(
            sa.text(
                f"INSERT INTO house_rules (slug, edit_hash, created_at, updated_at{columns})"
                f" VALUES ('oldrules', 'sha256:x', :now, :now{values})"
            ),
            {"now": now},
        )
        rule_id = connection.execute(sa.text("SELECT id FROM house_rules")).scalar_one()
        connection.execute(
            sa.insert(versions).values(
                house_rule_id=rule_id, created_at=now, number=1, **vars(draft("Old"))
            )
        )


def test_rows_from_before_visibility_are_unlisted(database_url: str) -> None:
    """A database made by 0001-0003, with a house rule in it, upgraded: unlisted."""
    old = Store(database_url)
    try:
        _old_database(old, "0004", "visibility", "")
        assert old.upgrade() == [name for name, _ in MIGRATIONS[3:]]
        found = old.get("oldrules")
        assert found is not None and found.visibility == "unlisted" and found.name == "Old"
        assert old.recent() == []
    finally:
        old.close()


def test_the_table_language_is_kept_per_house_rule_and_a_version_may_change_it(
    store: Store,
) -> None:
    first = store.create(draft("Ours"), hash_secret("o"), language="fr")
    assert first.language == "fr" and store.table_language(first.slug) == "fr"
    assert store.add_version(first.slug, draft("Ours 2")).language == "fr"  # kept
    cleared = store.add_version(first.slug, draft("Ours 3"), language=None)
    assert cleared.language is None and store.table_language(first.slug) is None
    store.add_version(first.slug, draft("Ours 4"), language="de")
    assert [v.language for v in store.versions(first.slug)] == ["de"] * 4
    assert store.recent(1, listed_only=False)[0].language == "de"
    with pytest.raises(StorageError):
        store.create(draft("Odd"), hash_secret("x"), language="xx")
    with pytest.raises(StorageError):
        store.add_version(first.slug, draft("Odd"), language="tlh")
    assert store.count() == 1 and len(store.versions(first.slug)) == 4
    assert store.create(draft("Plain"), hash_secret("p")).language is None
    assert store.table_language("nosuch") is None


def test_rows_from_before_the_table_language_follow_their_readers(database_url: str) -> None:
    """A database made by 0001-0007, with a house rule in it, upgraded by 0008: NULL."""
    old = Store(database_url)
    try:
        _old_database(old, "0008", "language", "listed")
        assert old.upgrade() == ["0008_house_rule_table_language"]
        found = old.get("oldrules")
        assert found is not None and found.language is None and found.listed
        assert old.add_version("oldrules", draft("New"), language="es").language == "es"
    finally:
        old.close()


def test_fork_origin_round_trips(store: Store) -> None:
    parent = store.create(draft("Parent"), hash_secret("p"))
    child = store.create(draft("Child"), hash_secret("c"), forked_from=(parent.slug, 1))
    assert child.forked_from == (parent.slug, 1)
    assert parent.forked_from is None
    edited = store.add_version(child.slug, draft("Child, edited"))
    assert edited.forked_from == (parent.slug, 1)  # the origin belongs to the house rule
    assert store.get(child.slug, 1) == dataclasses.replace(child, latest=2)


def test_only_a_hash_of_the_edit_secret_is_stored(store: Store) -> None:
    secret = new_secret()
    saved = store.create(draft(), hash_secret(secret))
    stored = store.edit_hash(saved.slug)
    assert len(secret) == 32 and new_secret() != secret
    assert stored is not None and secret not in stored and stored == hash_secret(secret)
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
    with pytest.raises(StorageError, match="NUL"):  # PostgreSQL cannot hold it; SQLite could
        store.add_version(saved.slug, draft(description="a\x00b"))
    with pytest.raises(StorageError, match="NUL"):
        store.create(draft(yaml="name: x\x00"), hash_secret("t"))
    with pytest.raises(StorageError, match="Unicode"):
        store.create(draft(author="\ud800"), hash_secret("t"))
    with pytest.raises(NotFound):
        store.add_version("nosuchsl", draft())
    assert store.versions(saved.slug) == before
    assert store.recent(listed_only=False) == before
    assert store.count() == 1


def test_concurrent_saves_get_distinct_numbers(store: Store) -> None:
    saved = store.create(draft(), hash_secret("s"))
    errors: list[BaseException] = []
    start = threading.Barrier(4)

    def save_five() -> None:
        try:
            start.wait(timeout=30)
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
    saved_versions = store.versions(saved.slug)
    assert [v.number for v in saved_versions] == list(range(1, 22))
    assert sorted(v.fingerprint for v in saved_versions[1:]) == sorted(
        f"{n:064x}" for n in range(5) for _ in range(4)
    )


def test_unicode_and_large_texts_round_trip(store: Store) -> None:
    name = "Café ♠ 🃏 Ærøskøbing"
    yaml_text = f"name: {name}\nextends: classic\nnotes:\n" + "  - ünïcode note 🂡\n" * 3000
    assert len(yaml_text.encode()) > 64 * 1024
    saved = store.create(
        draft(name=name, author="Zoë 李", description="Ünïcode ♣ 🂮", yaml=yaml_text),
        hash_secret("s"),
    )
    again = store.get(saved.slug)
    assert again == saved
    assert (again.name, again.author, again.description) == (name, "Zoë 李", "Ünïcode ♣ 🂮")
    assert again.yaml == yaml_text


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


def test_last_change_moves_with_every_save(store: Store) -> None:
    empty = store.last_change()
    assert empty[0] == 0
    saved = store.create(draft(), hash_secret("s"))
    first = store.last_change()
    assert first != empty and first[0] == 1
    store.add_version(saved.slug, draft(gin=30))
    assert store.last_change() != first
    assert store.last_change() == store.last_change()
