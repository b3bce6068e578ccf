"""Card tables and their append-only logs, in the house rules' database.

A table row pins the exact rules (reference, fingerprint and the YAML itself)
and counts its events; an event row is never updated or deleted. Appending is
one transaction that moves the table's ``last_event`` from the number the
client saw to the next: two phones entering at once cannot both succeed
(the loser gets :class:`Conflict` with the number now current), and the
unique ``(table, number)`` constraint stands behind it on both databases. A
client's ``request_key`` makes a retry the same event, never a second one.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError

from ginrules.web.storage import StorageError, Store, as_utc, insert_under_fresh_slug, utc_now
from ginrules.web.tables import card_tables, table_events

#: The PostgreSQL channel every stored event is announced on (see :mod:`.table_watch`).
CHANNEL = "ginrules_tables"


class Conflict(StorageError):
    """Another event was stored first; ``current`` is the table's last event now."""

    def __init__(self, current: int) -> None:
        super().__init__(current)
        self.current = current


@dataclass(frozen=True)
class PinnedRules:
    """The exact rules a table plays: where they came from, and the rules themselves."""

    ref: str
    name: str
    yaml: str
    fingerprint: str


@dataclass(frozen=True)
class CardTable:
    slug: str
    rules: PinnedRules
    players: tuple[str, ...]
    first_dealers: tuple[int, ...]
    last_event: int
    created_at: datetime
    updated_at: datetime
    scorer_hash: str


@dataclass(frozen=True)
class StoredEvent:
    number: int
    event: dict[str, Any]
    actor: str
    created_at: datetime
    request_key: str | None


class TableStore:
    """Card tables in the ``store``'s database (its schema upgraded)."""

    def __init__(self, store: Store) -> None:
        self.engine = store.engine

    def create(
        self,
        rules: PinnedRules,
        players: tuple[str, ...],
        first_dealers: tuple[int, ...],
        scorer_hash: str,
        log: Sequence[StoredEvent] = (),
    ) -> CardTable:
        """A new table under a fresh random slug, with no events yet, or with ``log``
        (a table brought from elsewhere, numbered 1, 2, ...) in the same transaction."""
        now = utc_now()

        def insert(connection: sa.Connection, slug: str) -> None:
            table_id = connection.execute(
                sa.insert(card_tables)
                .values(
                    slug=slug,
                    scorer_hash=scorer_hash,
                    rules_ref=rules.ref,
                    rules_name=rules.name,
                    rules_yaml=rules.yaml,
                    fingerprint=rules.fingerprint,
                    players=json.dumps(list(players)),
                    first_dealers=json.dumps(list(first_dealers)),
                    last_event=len(log),
                    created_at=now,
                    updated_at=now,
                )
                .returning(card_tables.c.id)
            ).scalar_one()
            if log:
                connection.execute(
                    sa.insert(table_events),
                    [
                        {
                            "table_id": table_id,
                            "number": stored.number,
                            "event": json.dumps(stored.event, sort_keys=True),
                            "actor": stored.actor,
                            "request_key": stored.request_key,
                            "created_at": stored.created_at,
                        }
                        for stored in log
                    ],
                )

        slug = insert_under_fresh_slug(
            self.engine, insert, lambda taken: self.get(taken) is not None, "table"
        )
        found = self.get(slug)
        assert found is not None
        return found

    def get(self, slug: str) -> CardTable | None:
        with self.engine.connect() as connection:
            row = connection.execute(
                sa.select(card_tables).where(card_tables.c.slug == slug)
            ).first()
        return None if row is None else _table(row)

    def events(self, slug: str) -> list[StoredEvent]:
        """The table's log, in order (empty for an unknown table)."""
        with self.engine.connect() as connection:
            rows = connection.execute(
                sa.select(table_events)
                .join(card_tables, card_tables.c.id == table_events.c.table_id)
                .where(card_tables.c.slug == slug)
                .order_by(table_events.c.number)
            )
            return [_event(row) for row in rows]

    def append(
        self,
        slug: str,
        seen: int,
        event: dict[str, Any],
        actor: str,
        request_key: str | None = None,
    ) -> StoredEvent:
        """Store ``event`` as number ``seen + 1``: the client saw ``seen`` events. A
        request key already stored returns that event unchanged (a retry). Raises
        :class:`Conflict` when the table has moved on, ``KeyError`` for no table."""
        if request_key is not None:
            earlier = self._by_key(slug, request_key)
            if earlier is not None:
                return earlier
        now = utc_now()
        try:
            with self.engine.begin() as connection:
                table_id = connection.execute(
                    sa.update(card_tables)
                    .where(card_tables.c.slug == slug, card_tables.c.last_event == seen)
                    .values(last_event=seen + 1, updated_at=now)
                    .returning(card_tables.c.id)
                ).scalar_one_or_none()
                if table_id is None:
                    current = self._last_event(connection, slug)
                    if current is None:
                        raise KeyError(slug)
                    raise Conflict(current)
                connection.execute(
                    sa.insert(table_events).values(
                        table_id=table_id,
                        number=seen + 1,
                        event=json.dumps(event, sort_keys=True),
                        actor=actor,
                        request_key=request_key,
                        created_at=now,
                    )
                )
                if connection.dialect.name == "postgresql":
                    # Sent when this transaction commits: every app server's streams wake.
                    connection.execute(sa.select(sa.func.pg_notify(CHANNEL, f"{slug}:{seen + 1}")))
        except IntegrityError:
            # The same request key raced itself, or the number was taken: say what stands.
            if request_key is not None:
                earlier = self._by_key(slug, request_key)
                if earlier is not None:
                    return earlier
            table = self.get(slug)
            raise Conflict(0 if table is None else table.last_event) from None
        return StoredEvent(seen + 1, event, actor, now, request_key)

    @staticmethod
    def _last_event(connection: sa.Connection, slug: str) -> int | None:
        found = connection.execute(
            sa.select(card_tables.c.last_event).where(card_tables.c.slug == slug)
        ).scalar_one_or_none()
        return None if found is None else int(found)

    def _by_key(self, slug: str, request_key: str) -> StoredEvent | None:
        with self.engine.connect() as connection:
            row = connection.execute(
                sa.select(table_events)
                .join(card_tables, card_tables.c.id == table_events.c.table_id)
                .where(card_tables.c.slug == slug, table_events.c.request_key == request_key)
            ).first()
        return None if row is None else _event(row)


def _table(row: Any) -> CardTable:
    return CardTable(
        slug=row.slug,
        rules=PinnedRules(row.rules_ref, row.rules_name, row.rules_yaml, row.fingerprint),
        players=tuple(json.loads(row.players)),
        first_dealers=tuple(json.loads(row.first_dealers)),
        last_event=int(row.last_event),
        created_at=as_utc(row.created_at),
        updated_at=as_utc(row.updated_at),
        scorer_hash=row.scorer_hash,
    )


def _event(row: Any) -> StoredEvent:
    return StoredEvent(
        number=int(row.number),
        event=json.loads(row.event),
        actor=row.actor,
        created_at=as_utc(row.created_at),
        request_key=row.request_key,
    )
