"""Games against the bot, in the house rules' database.

A game row pins the exact rules (reference, fingerprint and the YAML itself,
as a card table pins them), names the bots and the seed, and lists the
person's actions. Storing a move is one transaction that first moves the
row's ``action_count`` from the number the phone saw to the next (the
optimistic lock: on both databases that write also locks the row), then
appends the action: two taps of the same move cannot both be stored, the
second gets :class:`~ginrules.web.table_store.Conflict` with the count now.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import sqlalchemy as sa

from ginrules.web.storage import Store, as_utc, insert_under_fresh_slug, utc_now
from ginrules.web.table_store import Conflict, PinnedRules
from ginrules.web.tables import bot_games


@dataclass(frozen=True)
class BotGame:
    """One stored game: everything needed to deal it again and replay the person's moves."""

    slug: str
    rules: PinnedRules
    bot: str
    seed: int
    #: The person's actions, in order, as JSON objects (``Action.to_json``).
    actions: tuple[dict[str, Any], ...]
    player_hash: str
    created_at: datetime
    updated_at: datetime

    @property
    def action_count(self) -> int:
        return len(self.actions)


class BotStore:
    """Games against the bot in the ``store``'s database (its schema upgraded)."""

    def __init__(self, store: Store) -> None:
        self.engine = store.engine

    def create(self, rules: PinnedRules, bot: str, seed: int, player_hash: str) -> BotGame:
        """A new game under a fresh random slug, with no moves yet."""
        now = utc_now()

        def insert(connection: sa.Connection, slug: str) -> None:
            connection.execute(
                sa.insert(bot_games).values(
                    slug=slug,
                    player_hash=player_hash,
                    rules_ref=rules.ref,
                    rules_name=rules.name,
                    rules_yaml=rules.yaml,
                    fingerprint=rules.fingerprint,
                    bot=bot,
                    seed=seed,
                    actions="[]",
                    action_count=0,
                    created_at=now,
                    updated_at=now,
                )
            )

        slug = insert_under_fresh_slug(
            self.engine, insert, lambda taken: self.get(taken) is not None, "game"
        )
        found = self.get(slug)
        assert found is not None
        return found

    def get(self, slug: str) -> BotGame | None:
        with self.engine.connect() as connection:
            row = connection.execute(sa.select(bot_games).where(bot_games.c.slug == slug)).first()
        return None if row is None else _game(row)

    def append(self, slug: str, seen: int, action: dict[str, Any]) -> datetime:
        """Store ``action`` as move number ``seen + 1`` (the phone saw ``seen`` moves);
        when it was stored. Raises :class:`Conflict` when the game has moved on,
        ``KeyError`` for no game."""
        now = utc_now()
        with self.engine.begin() as connection:
            # The write comes first: it takes the row (PostgreSQL) or the database
            # (SQLite) before anything is read, so the list below is the one counted.
            moved = connection.execute(
                sa.update(bot_games)
                .where(bot_games.c.slug == slug, bot_games.c.action_count == seen)
                .values(action_count=seen + 1, updated_at=now)
                .returning(bot_games.c.actions)
            ).first()
            if moved is None:
                current = connection.execute(
                    sa.select(bot_games.c.action_count).where(bot_games.c.slug == slug)
                ).scalar_one_or_none()
                if current is None:
                    raise KeyError(slug)
                raise Conflict(int(current))
            actions = [*json.loads(moved.actions), action]
            connection.execute(
                sa.update(bot_games)
                .where(bot_games.c.slug == slug)
                .values(actions=json.dumps(actions, sort_keys=True))
            )
        return now


def _game(row: Any) -> BotGame:
    return BotGame(
        slug=row.slug,
        rules=PinnedRules(row.rules_ref, row.rules_name, row.rules_yaml, row.fingerprint),
        bot=row.bot,
        seed=int(row.seed),
        actions=tuple(json.loads(row.actions)),
        player_hash=row.player_hash,
        created_at=as_utc(row.created_at),
        updated_at=as_utc(row.updated_at),
    )
