"""A house rule's versions a page at a time, newest first, for the versions page and
the API, with what each changed (:mod:`ginrules.web.version_history`).

A page (:func:`newest_first`) is one query of at most a page of rows, without their
YAML, and parses nothing: its cost does not grow with the number of versions. A
version stored without its summary (another save came first) gets it the first time
a page shows it (two parses, kept). The site's page is ``?page=N`` of
:data:`PAGE_SIZE`; the API's is ``limit`` versions numbered ``before`` a number, the
next page's URL carrying the cursor.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any, Final

import sqlalchemy as sa
from flask import Response, url_for

from ginrules.rules.load import Ruleset
from ginrules.web import refs
from ginrules.web.json_input import bad_input, field_error
from ginrules.web.records import (
    ChangeSummary,
    TooManyVersions,
    as_utc,
    forked_from_of,
    house_rule_columns,
    latest_number,
)
from ginrules.web.tables import house_rules, versions
from ginrules.web.urls import absolute, version_links
from ginrules.web.version_history import FIRST, UNKNOWN, Summary, summarize

if TYPE_CHECKING:
    from ginrules.web.storage import Store

#: Versions on one page of the site's history.
PAGE_SIZE: Final = 20
#: Versions one API answer holds unless asked (``limit``), and at most.
DEFAULT_LIMIT: Final = 20
MAX_LIMIT: Final = 100


def summary_after(previous: refs.Loaded | None, ruleset: Ruleset) -> ChangeSummary | None:
    """A new version's summary against ``previous`` (the latest version when the save
    began; the store keeps it only if that is still the one before the new version)."""
    if previous is None or previous.version is None:
        return None
    return ChangeSummary(previous.version.number, summarize(previous.ruleset, ruleset).to_text())


@dataclass(frozen=True)
class Entry:
    """One version as the history lists it (without its YAML)."""

    number: int
    name: str
    author: str
    description: str
    base: str
    fingerprint: str
    created_at: datetime
    summary: Summary


@dataclass(frozen=True)
class Page:
    """Some versions of one house rule, newest first, with what they share."""

    slug: str
    #: The newest version's number and name.
    latest: int
    title: str
    visibility: str
    #: The table language (None: each reader's own).
    language: str | None
    forked_from: tuple[str, int] | None
    forked_from_name: str | None
    entries: tuple[Entry, ...]


def _latest_name() -> sa.ScalarSelect[Any]:
    newest = versions.alias("newest")
    return (
        sa.select(newest.c.name)
        .where(newest.c.house_rule_id == house_rules.c.id)
        .order_by(newest.c.number.desc())
        .limit(1)
        .correlate(house_rules)
        .scalar_subquery()
    )


def page_number(raw: str) -> int:
    """The page a ``?page=`` asks for (1 when absent); 0 when it is no page number."""
    return int(raw) if re.fullmatch("[1-9][0-9]{0,8}", raw) else 0


def pages(page: Page) -> int:
    """How many pages of :data:`PAGE_SIZE` the house rule's versions fill."""
    return max(1, -(-page.latest // PAGE_SIZE))


def newest_first(
    store: Store, slug: str, *, skip: int = 0, before: int | None = None, limit: int = PAGE_SIZE
) -> Page | None:
    """Up to ``limit`` versions of ``slug``, newest first: from the newest number less
    ``skip``, and numbered below ``before`` when given; None when there is no such
    house rule. One query reads them (two when none is left)."""
    facts = [*house_rule_columns(), _latest_name().label("title")]
    query = (
        sa.select(
            *facts,
            versions.c.id,
            versions.c.number,
            versions.c.name,
            versions.c.author,
            versions.c.description,
            versions.c.base,
            versions.c.fingerprint,
            versions.c.created_at,
            versions.c.summary,
        )
        .join(versions, versions.c.house_rule_id == house_rules.c.id)
        .where(house_rules.c.slug == slug, versions.c.number <= latest_number() - skip)
        .order_by(versions.c.number.desc())
        .limit(limit)
    )
    if before is not None:
        query = query.where(versions.c.number < before)
    with store.engine.connect() as connection:
        rows = connection.execute(query).all()
        first = rows[0] if rows else None
        if first is None:  # past the oldest (or no such house rule): its facts alone
            query = sa.select(*facts).where(house_rules.c.slug == slug)
            first = connection.execute(query).first()
    if first is None or first.latest is None:
        return None
    entries = tuple(_entry(store, slug, row) for row in rows)
    return Page(
        slug=slug,
        latest=int(first.latest),
        title=str(first.title),
        visibility=str(first.visibility),
        language=first.language,
        forked_from=forked_from_of(first),
        forked_from_name=first.forked_from_name,
        entries=entries,
    )


def _entry(store: Store, slug: str, row: Any) -> Entry:
    return Entry(
        number=int(row.number),
        name=row.name,
        author=row.author,
        description=row.description,
        base=row.base,
        fingerprint=row.fingerprint,
        created_at=as_utc(row.created_at),
        summary=(
            Summary.from_text(row.summary)
            if row.summary is not None
            else _work_out(store, slug, row.id, int(row.number))
        ),
    )


def _work_out(store: Store, slug: str, version_id: int, number: int) -> Summary:
    """The summary of a version stored without one, now stored (two parses at most)."""
    summary = FIRST
    if number > 1:
        before = refs.saved(store, slug, number - 1)
        after = refs.saved(store, slug, number)
        if before is None or after is None:
            summary = UNKNOWN
        else:
            summary = summarize(before.ruleset, after.ruleset)
    with store.engine.begin() as connection:
        connection.execute(
            sa.update(versions)
            .where(versions.c.id == version_id, versions.c.summary.is_(None))
            .values(summary=summary.to_text())
        )
    return summary


def refused_json(error: TooManyVersions) -> Response:
    """The API's 409 for a save past ``MAX_VERSIONS``: the house rule (``slug``) is full."""
    return bad_input(field_error(409, "slug", str(error)))


def page_json(page: Page, limit: int) -> dict[str, Any]:
    """The API's answer: the versions, the newest number, and the next page's URL."""
    last = page.entries[-1].number if page.entries else 1
    older = url_for("api.list_versions", slug=page.slug, before=last, limit=limit)
    return {
        "versions": [entry_json(page, entry) for entry in page.entries],
        "latest_version": page.latest,
        "next": absolute(older) if last > 1 else None,
    }


def entry_json(page: Page, entry: Entry) -> dict[str, Any]:
    """A version as the API lists it: its own answer's fields (less the document and
    warnings), and ``changes`` (null for version 1, or when not known)."""
    slug, number, forked = page.slug, entry.number, page.forked_from
    changes = entry.summary.changes
    return {
        "ref": f"h/{slug}/v{number}",
        "name": entry.name,
        "description": entry.description,
        "author": entry.author,
        "fingerprint": entry.fingerprint,
        **version_links(slug, number),
        "slug": slug,
        "version": number,
        "latest_version": page.latest,
        "base": entry.base,
        "created_at": entry.created_at.isoformat(),
        "forked_from": f"h/{forked[0]}/v{forked[1]}" if forked else None,
        "forked_from_name": (page.forked_from_name or forked[0]) if forked else None,
        "visibility": page.visibility,
        "language": page.language,
        "changes": None
        if entry.summary.first or changes is None
        else [change.to_json() for change in changes],
    }
