"""Saved house rules and their versions, in SQLite or PostgreSQL through SQLAlchemy Core.

One data-access layer for both databases: the same tables, statements and
transactions; the only dialect-specific code is SQLite's connection pragmas
(WAL, foreign keys), hooked through SQLAlchemy's event API. Versions are
immutable rows; saving an edit inserts the next number. Every save is one
transaction, so a failed save changes nothing.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import IntegrityError

from ginrules.web import db_health
from ginrules.web.records import (
    FORM_TOKEN_PATTERN,
    KEEP,
    MAX_VERSION,
    SLUG_ALPHABET,
    SLUG_LENGTH,
    SLUG_PATTERN,
    VERSION_PATTERN,
    AlreadySaved,
    ChangeSummary,
    Draft,
    NotFound,
    Origin,
    StorageError,
    TooManyVersions,
    Unchanged,
    Version,
    _normal_url,
    as_utc,
    check_language,
    check_visibility,
    default_url,
    hash_secret,
    new_form_token,
    new_secret,
    new_slug,
    record_token,
    secret_matches,
    select_versions,
    utc_now,
    version_of,
)
from ginrules.web.settings import DEFAULT_DB_TIMEOUT, DEFAULT_MAX_VERSIONS
from ginrules.web.tables import (
    LISTED,
    UNLISTED,
    applied_migrations,
    form_tokens,
    house_rules,
    upgrade,
    versions,
)
from ginrules.words.i18n import _

if TYPE_CHECKING:
    from flask import Flask


#: Re-exported from :mod:`ginrules.web.records`: callers import them from here.
__all__ = [
    "FORM_TOKEN_PATTERN",
    "KEEP",
    "MAX_VERSION",
    "SLUG_ALPHABET",
    "SLUG_LENGTH",
    "SLUG_PATTERN",
    "VERSION_PATTERN",
    "AlreadySaved",
    "ChangeSummary",
    "Draft",
    "NotFound",
    "Origin",
    "StorageError",
    "Store",
    "TooManyVersions",
    "Unchanged",
    "Version",
    "as_utc",
    "default_url",
    "hash_secret",
    "new_form_token",
    "new_secret",
    "new_slug",
    "secret_matches",
    "utc_now",
]


def _check(draft: Draft) -> None:
    """Refuse what a column cannot hold, the same way on every database.

    SQLite would store all of it; PostgreSQL refuses over-long values and NUL characters.
    """
    for name, value in vars(draft).items():
        column = versions.c[name]
        length = getattr(column.type, "length", None)
        if not isinstance(value, str):
            raise StorageError(_("{name} must be text").format(name=name))
        if length is not None and len(value) > length:
            raise StorageError(
                _("{name} is longer than {length} characters").format(name=name, length=length)
            )
        if "\x00" in value:
            raise StorageError(_("{name} contains a NUL character").format(name=name))
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            raise StorageError(_("{name} is not valid Unicode text").format(name=name)) from None


def insert_under_fresh_slug(
    engine: Engine,
    insert: Callable[[Connection, str], None],
    taken: Callable[[str], bool],
    what: str,
) -> str:
    """Run ``insert`` in one transaction under a new random slug, trying another on
    the rare collision (``taken``); the slug it was saved under."""
    for _attempt in range(8):
        slug = new_slug()
        try:
            with engine.begin() as connection:
                insert(connection, slug)
        except IntegrityError:
            if taken(slug):
                continue
            raise StorageError(f"the {what} could not be saved") from None
        return slug
    raise StorageError(_("no free short link found; try again"))


class Store:
    """House rules in one database (any SQLAlchemy URL)."""

    def __init__(
        self,
        url: str,
        *,
        max_versions: int = DEFAULT_MAX_VERSIONS,
        db_timeout: float = DEFAULT_DB_TIMEOUT,
        statement_timeout: float | None = None,
    ) -> None:
        #: Versions one house rule may have; a save past it raises :class:`TooManyVersions`.
        self.max_versions = max_versions
        #: Seconds a connect, a wait for a pooled connection or a statement may take.
        self.db_timeout = db_timeout
        self._url = sa.engine.make_url(_normal_url(url))
        if self._url.get_backend_name() == "sqlite":
            database = self._url.database
            if database and database != ":memory:":
                Path(database).parent.mkdir(parents=True, exist_ok=True)
        # Timeouts, a deadline on every call and a circuit breaker (a 503, never a wait).
        self.engine: Engine = db_health.create_engine(
            self._url, timeout=db_timeout, statement_timeout=statement_timeout
        )

    @property
    def url(self) -> str:
        return self._url.render_as_string(hide_password=True)

    def close(self) -> None:
        self.engine.dispose()

    # -- schema ----------------------------------------------------------------------

    def upgrade(self) -> list[str]:
        """Apply the migrations not yet recorded; the names applied now."""
        return upgrade(self.engine, utc_now)

    def current(self) -> list[str]:
        return applied_migrations(self.engine)

    # -- saving -------------------------------------------------------------------------

    def create(
        self,
        draft: Draft,
        edit_hash: str,
        forked_from: tuple[str, int] | None = None,
        *,
        visibility: str = UNLISTED,
        form_token: str | None = None,
        summary: str | None = None,
        language: str | None = None,
    ) -> Version:
        """A new house rule with ``draft`` as version 1, under a fresh random slug.

        With a ``form_token`` already used, nothing is saved: :class:`AlreadySaved`
        names what the first save stored. ``summary``: version 1's (JSON) summary;
        ``language``: the table language (None: each reader's own)."""
        now = utc_now()
        check_visibility(visibility)
        check_language(language)
        self._check_token(form_token)

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
                    visibility=visibility,
                    language=language,
                )
                .returning(house_rules.c.id)
            ).scalar_one()
            self._insert_version(connection, rule_id, 1, draft, now, summary)
            record_token(connection, form_token, slug, 1, now)

        try:
            slug = insert_under_fresh_slug(self.engine, insert, self._slug_taken, "house rules")
        except StorageError:
            self._check_token(form_token)  # a save with the same token won the race
            raise
        found = self.get(slug, 1)
        assert found is not None
        return found

    def add_version(
        self,
        slug: str,
        draft: Draft,
        *,
        visibility: str | None = None,
        form_token: str | None = None,
        summary: ChangeSummary | None = None,
        language: str | Unchanged | None = KEEP,
    ) -> Version:
        """Save ``draft`` as the next version of ``slug``, refused past ``max_versions``
        (:class:`TooManyVersions`).

        The transaction writes the house rule's row first (its ``updated_at``), which
        locks it on both databases, so concurrent saves of one house rule take turns
        and each counts the versions after the one before it committed. Should a
        number still be taken (unique constraint), the save counts again.
        ``visibility`` None (``language`` :data:`KEEP`) keeps the house rule's; a used
        ``form_token`` saves nothing (:class:`AlreadySaved`). ``summary`` is stored when
        it was worked out against the version before this one (else NULL: the history
        works it out when shown).
        """
        _check(draft)
        changes: dict[str, object] = {}
        if visibility is not None:
            check_visibility(visibility)
            changes["visibility"] = visibility
        if not isinstance(language, Unchanged):
            check_language(language)
            changes["language"] = language
        self._check_token(form_token)
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
                        .values(updated_at=now, **changes)
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
                    if number > self.max_versions:
                        raise TooManyVersions(self.max_versions)
                    kept = summary.text if summary and summary.previous == number - 1 else None
                    self._insert_version(connection, rule_id, number, draft, now, kept)
                    record_token(connection, form_token, slug, number, now)
            except IntegrityError:
                self._check_token(form_token)  # a save with the same token won the race
                if self.get(slug, number) is not None:
                    continue  # another save took that number: count again
                raise StorageError(_("the new version could not be saved")) from None
            found = self.get(slug, number)
            assert found is not None
            return found
        raise StorageError(_("too many saves at once; try again"))

    @staticmethod
    def _insert_version(
        connection: Connection,
        rule_id: int,
        number: int,
        draft: Draft,
        now: datetime,
        summary: str | None,
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
                summary=summary,
            )
        )

    def saved_by_token(self, token: str) -> tuple[str, int] | None:
        """What the save that used a form's one-time token stored, if one did."""
        with self.engine.connect() as connection:
            row = connection.execute(
                sa.select(form_tokens.c.slug, form_tokens.c.number).where(
                    form_tokens.c.token == token
                )
            ).first()
        return None if row is None else (str(row.slug), int(row.number))

    def _check_token(self, token: str | None) -> None:
        if token:
            used = self.saved_by_token(token)
            if used is not None:
                raise AlreadySaved(*used)

    def _slug_taken(self, slug: str) -> bool:
        with self.engine.connect() as connection:
            return (
                connection.execute(
                    sa.select(house_rules.c.id).where(house_rules.c.slug == slug)
                ).first()
                is not None
            )

    # -- reading --------------------------------------------------------------------------

    def get(self, slug: str, number: int | None = None) -> Version | None:
        """One version (the latest when ``number`` is None), or None."""
        if number is not None and not 1 <= number <= MAX_VERSION:
            return None  # no such version, and more than the column holds
        query = select_versions().where(house_rules.c.slug == slug)
        if number is None:
            query = query.order_by(versions.c.number.desc()).limit(1)
        else:
            query = query.where(versions.c.number == number)
        with self.engine.connect() as connection:
            row = connection.execute(query).first()
        return None if row is None else version_of(row)

    def versions(self, slug: str) -> list[Version]:
        """Every version, oldest first (all of them: pages read :mod:`.version_pages`)."""
        query = select_versions().where(house_rules.c.slug == slug).order_by(versions.c.number)
        with self.engine.connect() as connection:
            return [version_of(row) for row in connection.execute(query)]

    def recent(self, limit: int = 10, *, listed_only: bool = True) -> list[Version]:
        """The latest version of the most recently changed house rules, newest first:
        only the listed ones (their authors chose the home page) unless asked."""
        newest = (
            sa.select(sa.func.max(versions.c.number))
            .where(versions.c.house_rule_id == house_rules.c.id)
            .correlate(house_rules)
            .scalar_subquery()
        )
        query = (
            select_versions()
            .where(versions.c.number == newest)
            .where(house_rules.c.visibility == LISTED if listed_only else sa.true())
            .order_by(house_rules.c.updated_at.desc(), house_rules.c.id.desc())
            .limit(limit)
        )
        with self.engine.connect() as connection:
            return [version_of(row) for row in connection.execute(query)]

    def table_language(self, slug: str) -> str | None:
        """The table language of house rule ``slug`` (None: each reader's own, or no such)."""
        with self.engine.connect() as connection:
            value = connection.execute(
                sa.select(house_rules.c.language).where(house_rules.c.slug == slug)
            ).scalar_one_or_none()
        return None if value is None else str(value)

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
    store = Store(
        str(app.config["DATABASE_URL"]),
        max_versions=int(app.config["MAX_VERSIONS"]),
        db_timeout=float(app.config["DB_TIMEOUT"]),
    )
    app.extensions["ginrules.store"] = store
    if app.config.get("UPGRADE_ON_START"):
        store.upgrade()
