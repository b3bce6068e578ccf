"""What the store keeps and hands back (drafts, versions, fork origins), the errors it
raises, and its helpers: slugs, secrets and their hashes, times in UTC, database URLs
and SQLite's pragmas.

:mod:`ginrules.web.storage` re-exports each name, so callers import them from there.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass
from datetime import UTC, datetime
from enum import Enum
from pathlib import Path
from typing import Any, Final, NamedTuple

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from ginrules.web.tables import LISTED, UNLISTED, VISIBILITIES, form_tokens, house_rules, versions
from ginrules.words.i18n import LANGUAGES
from ginrules.words.versions import too_many_versions

SLUG_ALPHABET: Final = "23456789abcdefghjkmnpqrstuvwxyz"
SLUG_LENGTH: Final = 8
#: What a slug in a link may look like (new slugs are SLUG_LENGTH of SLUG_ALPHABET).
SLUG_PATTERN: Final = "[2-9a-z]{4,16}"
#: The highest version number a link may name (the API documents it).
MAX_VERSION: Final = 999_999_999
#: A version number in a link: 1 to MAX_VERSION.
VERSION_PATTERN: Final = "[1-9][0-9]{0,8}"
#: What a form's one-time token looks like.
FORM_TOKEN_PATTERN: Final = "[A-Za-z0-9_-]{16,64}"


class StorageError(Exception):
    """The database could not do what was asked; nothing was changed."""


class NotFound(StorageError):
    """No house rule has that slug."""


class AlreadySaved(StorageError):
    """A form's one-time token was used already: what that save stored."""

    def __init__(self, slug: str, number: int) -> None:
        super().__init__(f"h/{slug}/v{number}")
        self.slug = slug
        self.number = number


class TooManyVersions(StorageError):
    """The house rule has ``limit`` versions, the most one may have (``MAX_VERSIONS``)."""

    def __init__(self, limit: int) -> None:
        super().__init__(too_many_versions(limit))
        self.limit = limit


class Unchanged(Enum):
    """A save that leaves a house rule's setting as it is (its table language)."""

    KEEP = "keep"


#: Keep the house rule's table language (``Store.add_version``).
KEEP: Final = Unchanged.KEEP


class ChangeSummary(NamedTuple):
    """What a new version changed against version ``previous``, as the JSON text the
    ``summary`` column keeps (:mod:`ginrules.web.version_history` makes and reads it)."""

    previous: int
    text: str


class Origin(NamedTuple):
    """The saved version a house rule was forked from, with that version's name."""

    slug: str
    number: int
    name: str


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
    #: The version it was forked from: (slug, number), None when it is no fork.
    forked_from: tuple[str, int] | None
    #: ``unlisted`` (reachable by its link only) or ``listed`` (on the home page).
    visibility: str = UNLISTED
    #: The name of the version it was forked from (None when it is no fork).
    forked_from_name: str | None = None
    #: The house rule's table language when this was read (None: each reader's own).
    language: str | None = None

    @property
    def listed(self) -> bool:
        return self.visibility == LISTED

    @property
    def origin(self) -> Origin | None:
        """The version it was forked from, with its name: ``origin.name``."""
        if self.forked_from is None:
            return None
        slug, number = self.forked_from
        return Origin(slug, number, self.forked_from_name or slug)


def default_url(instance_path: str | Path) -> str:
    return f"sqlite:///{Path(instance_path) / 'ginrules.db'}"


def new_form_token() -> str:
    return secrets.token_urlsafe(24)


def new_secret() -> str:
    return secrets.token_urlsafe(24)


def hash_secret(secret: str) -> str:
    """A secret is 192 random bits, so one SHA-256 is enough to keep only a hash."""
    return "sha256:" + hashlib.sha256(secret.encode("utf-8")).hexdigest()


def secret_matches(secret: str, stored_hash: str) -> bool:
    return hmac.compare_digest(hash_secret(secret), stored_hash)


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


def latest_number() -> sa.ScalarSelect[Any]:
    """The newest version number of the house rule a query reads."""
    return (
        sa.select(sa.func.max(versions.c.number))
        .where(versions.c.house_rule_id == house_rules.c.id)
        .correlate(house_rules)
        .scalar_subquery()
    )


def house_rule_columns() -> list[Any]:
    """What every version read carries of its house rule: slug, fork origin (and that
    version's name), visibility, table language, and the newest version number."""
    parent = versions.alias("parent")
    parent_rule = house_rules.alias("parent_rule")
    parent_name = (
        sa.select(parent.c.name)
        .join(parent_rule, parent_rule.c.id == parent.c.house_rule_id)
        .where(
            parent_rule.c.slug == house_rules.c.forked_from_slug,
            parent.c.number == house_rules.c.forked_from_version,
        )
        .correlate(house_rules)
        .scalar_subquery()
    )
    return [
        house_rules.c.slug,
        house_rules.c.forked_from_slug,
        house_rules.c.forked_from_version,
        house_rules.c.visibility,
        house_rules.c.language,
        parent_name.label("forked_from_name"),
        latest_number().label("latest"),
    ]


def select_versions() -> sa.Select[Any]:
    """Versions with their house rule's slug, fork origin, visibility and newest number."""
    return sa.select(
        *house_rule_columns(),
        versions.c.number,
        versions.c.name,
        versions.c.author,
        versions.c.description,
        versions.c.yaml,
        versions.c.base,
        versions.c.fingerprint,
        versions.c.created_at,
    ).join(versions, versions.c.house_rule_id == house_rules.c.id)


def forked_from_of(row: Any) -> tuple[str, int] | None:
    """The fork origin of a row with :func:`house_rule_columns`."""
    if row.forked_from_slug is not None and row.forked_from_version is not None:
        return (row.forked_from_slug, int(row.forked_from_version))
    return None


def version_of(row: Any) -> Version:
    """A row of :func:`select_versions` as a :class:`Version`."""
    forked = forked_from_of(row)
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
        visibility=str(row.visibility),
        forked_from_name=None if forked is None else row.forked_from_name,
        language=row.language,
    )


def check_visibility(visibility: str) -> None:
    if visibility not in VISIBILITIES:
        raise StorageError(f"visibility is {' or '.join(VISIBILITIES)}")


def check_language(language: str | None) -> None:
    """A table language is one the site speaks, or None (each reader's own)."""
    if language is not None and language not in LANGUAGES:
        raise StorageError(f"language is {', '.join(LANGUAGES)} or none")


def record_token(
    connection: Connection, token: str | None, slug: str, number: int, now: datetime
) -> None:
    """Record a form's one-time token with the save it made (same transaction)."""
    if token:
        connection.execute(
            sa.insert(form_tokens).values(token=token, slug=slug, number=number, created_at=now)
        )
