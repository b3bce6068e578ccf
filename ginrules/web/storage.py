"""Saved house rules and their versions, in SQLite or PostgreSQL through SQLAlchemy Core.

One data-access layer for both databases: the same tables, statements and
transactions; the only dialect-specific code is SQLite's connection pragmas
(WAL, foreign keys), hooked through SQLAlchemy's event API. Versions are
immutable rows; saving an edit inserts the next number. Every save is one
transaction, so a failed save changes nothing.
"""

from __future__ import annotations

import hashlib
import hmac
import random
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import IntegrityError

from ginrules.web.tables import MIGRATIONS, house_rules, metadata, migrations_table, versions

if TYPE_CHECKING:
    from flask import Flask

SLUG_ALPHABET: Final = "23456789abcdefghjkmnpqrstuvwxyz"
SLUG_LENGTH: Final = 8
#: What a slug in a link may look like (new slugs are SLUG_LENGTH of SLUG_ALPHABET).
SLUG_PATTERN: Final = "[2-9a-z]{4,16}"
#: The highest version number a link may name (the API documents it).
MAX_VERSION: Final = 999_999_999
#: A version number in a link: 1 to MAX_VERSION.
VERSION_PATTERN: Final = "[1-9][0-9]{0,8}"


class StorageError(Exception):
    """The database could not do what was asked; nothing was changed."""


class NotFound(StorageError):
    """No house rule has that slug."""


@dataclass(frozen=True)
class Draft:
    """What a save stores: the YAML as the person wrote it and facts derived from it."""

    name: str
    author: str
    description: str
    yaml: str
    base: str
    fingerprint: str


@dataclass(frozen=True)
class Version:
    """One saved version of a house rule (never changes once saved)."""

    slug: str
    number: int
    name: str
    author: str
    description: str
    yaml: str
    base: str
    fingerprint: str
    created_at: datetime
    #: The house rule's newest version number when this was read.
    latest: int
    forked_from: tuple[str, int] | None


def default_url(instance_path: str | Path) -> str:
    return f"sqlite:///{Path(instance_path) / 'ginrules.db'}"


def new_secret() -> str:
    return secrets.token_urlsafe(24)


def hash_secret(secret: str) -> str:
    """A secret is 192 random bits, so one SHA-256 is enough to keep only a hash."""
    return "sha256:" + hashlib.sha256(secret.encode("utf-8")).hexdigest()


def secret_matches(secret: str, stored_hash: str) -> bool:
    return hmac.compare_digest(hash_secret(secret), stored_hash)


def _check(draft: Draft) -> None:
    """Refuse what a column cannot hold, the same way on every database.

    SQLite would store all of it; PostgreSQL refuses over-long values and NUL characters.
    """
    for name, value in vars(draft).items():
        column = versions.c[name]
        length = getattr(column.type, "length", None)
        if not isinstance(value, str):
            raise StorageError(f"{name} must be text")
        if length is not None and len(value) > length:
            raise StorageError(f"{name} is longer than {length} characters")
        if "\x00" in value:
            raise StorageError(f"{name} contains a NUL character")
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            raise StorageError(f"{name} is not valid Unicode text") from None


def utc_now() -> datetime:
    return datetime.now(UTC)


def as_utc(value: datetime) -> datetime:
    """In UTC: SQLite gives back the naive UTC time stored, PostgreSQL the session's zone."""
    return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


def _normal_url(url: str) -> str:
    for prefix in ("postgres://", "postgresql://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    return url


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA busy_timeout=10000")
    cursor.close()


def new_slug() -> str:
    return "".join(secrets.choice(SLUG_ALPHABET) for _ in range(SLUG_LENGTH))


def insert_under_fresh_slug(
    engine: Engine,
    insert: Callable[[Connection, str], None],
    taken: Callable[[str], bool],
    what: str,
) -> str:
    """Run ``insert`` in one transaction under a new random slug, trying another on
    the rare collision (``taken``); the slug it was saved under."""
    for _ in range(8):
        slug = new_slug()
        try:
            with engine.begin() as connection:
                insert(connection, slug)
        except IntegrityError:
            if taken(slug):
                continue
            raise StorageError(f"the {what} could not be saved") from None
        return slug
    raise StorageError("no free short link found; try again")


class Store:
    """House rules in one database (any SQLAlchemy URL)."""

    def __init__(self, url: str) -> None:
        self._url = sa.engine.make_url(_normal_url(url))
        if self._url.get_backend_name() == "sqlite":
            database = self._url.database
            if database and database != ":memory:":
                Path(database).parent.mkdir(parents=True, exist_ok=True)
            self.engine: Engine = sa.create_engine(
                self._url, connect_args={"check_same_thread": False}
            )
            sa.event.listen(self.engine, "connect", _sqlite_pragmas)
        else:
            self.engine = sa.create_engine(self._url, pool_pre_ping=True)

    @property
    def url(self) -> str:
        return self._url.render_as_string(hide_password=True)

    def close(self) -> None:
        self.engine.dispose()

    # -- schema ----------------------------------------------------------------------

    def upgrade(self) -> list[str]:
        """Apply the migrations not yet recorded; the names applied now."""
        with self.engine.begin() as connection:
            metadata.create_all(connection, tables=[migrations_table])
        applied = []
        done = set(self.current())
        for name, step in MIGRATIONS:
            if name in done:
                continue
            with self.engine.begin() as connection:
                step(connection)
                connection.execute(
                    sa.insert(migrations_table).values(name=name, applied_at=utc_now())
                )
            applied.append(name)
        return applied

    def current(self) -> list[str]:
        if not sa.inspect(self.engine).has_table("schema_migrations"):
            return []
        with self.engine.connect() as connection:
            rows = connection.execute(
                sa.select(migrations_table.c.name).order_by(migrations_table.c.name)
            )
            return [row.name for row in rows]

    # -- saving -------------------------------------------------------------------------

    def create(
        self, draft: Draft, edit_hash: str, forked_from: tuple[str, int] | None = None
    ) -> Version:
        """A new house rule with ``draft`` as version 1, under a fresh random slug."""
        now = utc_now()

        def insert(connection: Connection, slug: str) -> None:
            rule_id = connection.execute(
                sa.insert(house_rules)
                .values(
                    slug=slug,
                    edit_hash=edit_hash,
                    created_at=now,
                    updated_at=now,
                    forked_from_slug=forked_from[0] if forked_from else None,
                    forked_from_version=forked_from[1] if forked_from else None,
                )
                .returning(house_rules.c.id)
            ).scalar_one()
            self._insert_version(connection, rule_id, 1, draft, now)

        slug = insert_under_fresh_slug(self.engine, insert, self._slug_taken, "house rules")
        found = self.get(slug, 1)
        assert found is not None
        return found

    def add_version(self, slug: str, draft: Draft) -> Version:
        """Save ``draft`` as the next version of ``slug``.

        The transaction writes the house rule's row first (its ``updated_at``), which
        locks it on both databases, so concurrent saves of one house rule take turns
        and each counts the versions after the one before it committed. Should a
        number still be taken (unique constraint), the save counts again.
        """
        _check(draft)
        number = 0
        for attempt in range(10):
            if attempt:
                time.sleep(random.uniform(0, 0.01 * attempt))
            now = utc_now()
            try:
                with self.engine.begin() as connection:
                    rule_id = connection.execute(
                        sa.update(house_rules)
                        .where(house_rules.c.slug == slug)
                        .values(updated_at=now)
                        .returning(house_rules.c.id)
                    ).scalar_one_or_none()
                    if rule_id is None:
                        raise NotFound(f"no house rules {slug!r}")
                    latest = connection.execute(
                        sa.select(sa.func.max(versions.c.number)).where(
                            versions.c.house_rule_id == rule_id
                        )
                    ).scalar_one()
                    number = (latest or 0) + 1
                    self._insert_version(connection, rule_id, number, draft, now)
            except IntegrityError:
                if self.get(slug, number) is not None:
                    continue  # another save took that number: count again
                raise StorageError("the new version could not be saved") from None
            found = self.get(slug, number)
            assert found is not None
            return found
        raise StorageError("too many saves at once; try again")

    @staticmethod
    def _insert_version(
        connection: Connection, rule_id: int, number: int, draft: Draft, now: datetime
    ) -> None:
        _check(draft)
        connection.execute(
            sa.insert(versions).values(
                house_rule_id=rule_id,
                number=number,
                name=draft.name,
                author=draft.author,
                description=draft.description,
                yaml=draft.yaml,
                base=draft.base,
                fingerprint=draft.fingerprint,
                created_at=now,
            )
        )

    def _slug_taken(self, slug: str) -> bool:
        with self.engine.connect() as connection:
            return (
                connection.execute(
                    sa.select(house_rules.c.id).where(house_rules.c.slug == slug)
                ).first()
                is not None
            )

    # -- reading --------------------------------------------------------------------------

    def _select(self) -> sa.Select[Any]:
        latest = (
            sa.select(sa.func.max(versions.c.number))
            .where(versions.c.house_rule_id == house_rules.c.id)
            .correlate(house_rules)
            .scalar_subquery()
        )
        return sa.select(
            house_rules.c.slug,
            house_rules.c.forked_from_slug,
            house_rules.c.forked_from_version,
            versions.c.number,
            versions.c.name,
            versions.c.author,
            versions.c.description,
            versions.c.yaml,
            versions.c.base,
            versions.c.fingerprint,
            versions.c.created_at,
            latest.label("latest"),
        ).join(versions, versions.c.house_rule_id == house_rules.c.id)

    @staticmethod
    def _version(row: Any) -> Version:
        forked = None
        if row.forked_from_slug is not None and row.forked_from_version is not None:
            forked = (row.forked_from_slug, int(row.forked_from_version))
        return Version(
            slug=row.slug,
            number=int(row.number),
            name=row.name,
            author=row.author,
            description=row.description,
            yaml=row.yaml,
            base=row.base,
            fingerprint=row.fingerprint,
            created_at=as_utc(row.created_at),
            latest=int(row.latest),
            forked_from=forked,
        )

    def get(self, slug: str, number: int | None = None) -> Version | None:
        """One version (the latest when ``number`` is None), or None."""
        if number is not None and not 1 <= number <= MAX_VERSION:
            return None  # no such version, and more than the column holds
        query = self._select().where(house_rules.c.slug == slug)
        if number is None:
            query = query.order_by(versions.c.number.desc()).limit(1)
        else:
            query = query.where(versions.c.number == number)
        with self.engine.connect() as connection:
            row = connection.execute(query).first()
        return None if row is None else self._version(row)

    def versions(self, slug: str) -> list[Version]:
        query = self._select().where(house_rules.c.slug == slug).order_by(versions.c.number)
        with self.engine.connect() as connection:
            return [self._version(row) for row in connection.execute(query)]

    def recent(self, limit: int = 10) -> list[Version]:
        """The latest version of the most recently changed house rules, newest first."""
        newest = (
            sa.select(sa.func.max(versions.c.number))
            .where(versions.c.house_rule_id == house_rules.c.id)
            .correlate(house_rules)
            .scalar_subquery()
        )
        query = (
            self._select()
            .where(versions.c.number == newest)
            .order_by(house_rules.c.updated_at.desc(), house_rules.c.id.desc())
            .limit(limit)
        )
        with self.engine.connect() as connection:
            return [self._version(row) for row in connection.execute(query)]

    def edit_hash(self, slug: str) -> str | None:
        with self.engine.connect() as connection:
            value = connection.execute(
                sa.select(house_rules.c.edit_hash).where(house_rules.c.slug == slug)
            ).scalar_one_or_none()
        return None if value is None else str(value)

    def last_change(self) -> tuple[int, str]:
        """How many house rules there are and when the latest save was: a cheap
        token that changes whenever anything is saved (a cache key for lists)."""
        query = sa.select(sa.func.count(), sa.func.max(house_rules.c.updated_at))
        with self.engine.connect() as connection:
            count, newest = connection.execute(query.select_from(house_rules)).one()
        return int(count), "" if newest is None else str(newest)

    def count(self) -> int:
        with self.engine.connect() as connection:
            return int(
                connection.execute(sa.select(sa.func.count()).select_from(house_rules)).scalar_one()
            )


def get_store() -> Store:
    """The store of the app handling the current request."""
    from flask import current_app

    found: Store = current_app.extensions["ginrules.store"]
    return found


def init_app(app: Flask) -> None:
    """Open the app's store (``DATABASE_URL``), upgrading its schema when asked."""
    store = Store(str(app.config["DATABASE_URL"]))
    app.extensions["ginrules.store"] = store
    if app.config.get("UPGRADE_ON_START"):
        store.upgrade()
