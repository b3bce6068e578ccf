"""The database tables of saved house rules, and the named migrations that make them."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Final

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine

metadata = sa.MetaData()

#: A house rule's two visibilities; new and migrated rows are unlisted.
UNLISTED: Final = "unlisted"
LISTED: Final = "listed"
VISIBILITIES: Final = (UNLISTED, LISTED)

house_rules = sa.Table(
    "house_rules",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("slug", sa.String(16), nullable=False, unique=True),
    sa.Column("edit_hash", sa.String(128), nullable=False),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False, index=True),
    sa.Column("forked_from_slug", sa.String(16), nullable=True),
    sa.Column("forked_from_version", sa.Integer, nullable=True),
    #: ``unlisted`` (only people with the link find it) or ``listed`` on the home page;
    #: added by migration 0004 (rows from before it are unlisted: nobody was asked).
    sa.Column("visibility", sa.String(10), nullable=False, server_default=UNLISTED),
    #: The table language (``ginrules.words.i18n.LANGUAGES``): the share link, the QR code
    #: and the house rule's own pages open in it; NULL: each reader's own language.
    #: Added by migration 0008 (rows from before it follow their readers).
    sa.Column("language", sa.String(16), nullable=True),
)

versions = sa.Table(
    "versions",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column(
        "house_rule_id",
        sa.Integer,
        sa.ForeignKey("house_rules.id", ondelete="RESTRICT"),
        nullable=False,
    ),
    sa.Column("number", sa.Integer, nullable=False),
    sa.Column("name", sa.String(200), nullable=False),
    sa.Column("author", sa.String(400), nullable=False),
    sa.Column("description", sa.Text, nullable=False),
    sa.Column("yaml", sa.Text, nullable=False),
    sa.Column("base", sa.String(200), nullable=False),
    sa.Column("fingerprint", sa.String(64), nullable=False),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    #: JSON: what this version changed against the one before it, worked out when it
    #: was saved (the versions page reads it instead of parsing every version);
    #: added by migration 0005, which fills it in for the versions saved before.
    sa.Column("summary", sa.Text, nullable=True),
    sa.UniqueConstraint("house_rule_id", "number", name="versions_number_unique"),
)

#: A card table keeping a game's score: pinned to one exact rules version, whose YAML
#: it keeps (the rules it started under, whatever later versions say).
card_tables = sa.Table(
    "card_tables",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("slug", sa.String(16), nullable=False, unique=True),
    sa.Column("scorer_hash", sa.String(128), nullable=False),
    sa.Column("rules_ref", sa.String(200), nullable=False),
    sa.Column("rules_name", sa.String(200), nullable=False),
    sa.Column("rules_yaml", sa.Text, nullable=False),
    sa.Column("fingerprint", sa.String(64), nullable=False),
    #: JSON: the players' names, in table seats.
    sa.Column("players", sa.Text, nullable=False),
    #: JSON: the seats that won the cut for the first deal.
    sa.Column("first_dealers", sa.Text, nullable=False),
    #: The number of the table's last event (0 before any): the optimistic lock.
    sa.Column("last_event", sa.Integer, nullable=False),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
)

#: A table's log, append-only: hands entered, undone, corrected, each numbered.
table_events = sa.Table(
    "table_events",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column(
        "table_id", sa.Integer, sa.ForeignKey("card_tables.id", ondelete="RESTRICT"), nullable=False
    ),
    sa.Column("number", sa.Integer, nullable=False),
    #: JSON of the event (:func:`ginrules.engine.tablelog.event_to_json`).
    sa.Column("event", sa.Text, nullable=False),
    sa.Column("actor", sa.String(100), nullable=False),
    #: The client's key for this event: a retry with the same key is the same event.
    sa.Column("request_key", sa.String(64), nullable=True),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    sa.UniqueConstraint("table_id", "number", name="table_events_number_unique"),
    sa.UniqueConstraint("table_id", "request_key", name="table_events_request_unique"),
)

#: A game against the bot: the rules pinned as a table pins them, the bot, the seed and
#: the person's actions. A session is its seed plus the person's choices, so the game
#: is rebuilt by replaying them; nothing else about it is stored.
bot_games = sa.Table(
    "bot_games",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("slug", sa.String(16), nullable=False, unique=True),
    sa.Column("player_hash", sa.String(128), nullable=False),
    sa.Column("rules_ref", sa.String(200), nullable=False),
    sa.Column("rules_name", sa.String(200), nullable=False),
    sa.Column("rules_yaml", sa.Text, nullable=False),
    sa.Column("fingerprint", sa.String(64), nullable=False),
    #: The bots' name (``ginrules.engine.bots.BOTS``).
    sa.Column("bot", sa.String(20), nullable=False),
    sa.Column("seed", sa.BigInteger, nullable=False),
    #: JSON: the person's actions in order (``Action.to_json``).
    sa.Column("actions", sa.Text, nullable=False),
    #: How many actions are stored: the optimistic lock a move must name.
    sa.Column("action_count", sa.Integer, nullable=False),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
)

#: A builder or editor form's one-time token, recorded in the transaction that saved it:
#: the same form sent again (Back, then Save) finds what it saved instead of saving twice.
form_tokens = sa.Table(
    "form_tokens",
    metadata,
    sa.Column("token", sa.String(64), primary_key=True),
    sa.Column("slug", sa.String(16), nullable=False),
    sa.Column("number", sa.Integer, nullable=False),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
)

#: Rate-limit counters every worker and app server shares (``ginrules.web.ratelimit``):
#: a fixed window's count per key, with the time (epoch seconds) the window ends.
rate_counters = sa.Table(
    "rate_counters",
    metadata,
    sa.Column("key", sa.String(255), primary_key=True),
    sa.Column("count", sa.BigInteger, nullable=False),
    sa.Column("expires_at", sa.Float, nullable=False),
)

#: One row per counted request of a moving-window limit: its key and time (epoch seconds).
rate_hits = sa.Table(
    "rate_hits",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("key", sa.String(255), nullable=False),
    sa.Column("at", sa.Float, nullable=False),
    sa.Index("rate_hits_key_at", "key", "at"),
)

#: A new house rule's edit secret on its way from the save to the share page that
#: shows it once, kept out of the session cookie: the cookie holds ``token`` and a
#: one-time pad, this row the secret XOR the pad; read once, then deleted.
edit_handoffs = sa.Table(
    "edit_handoffs",
    metadata,
    sa.Column("token", sa.String(64), primary_key=True),
    sa.Column("slug", sa.String(16), nullable=False),
    sa.Column("cipher", sa.String(256), nullable=False),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
)

migrations_table = sa.Table(
    "schema_migrations",
    metadata,
    sa.Column("name", sa.String(100), primary_key=True),
    sa.Column("applied_at", sa.DateTime(timezone=True), nullable=False),
)


#: The columns of house_rules that later migrations added (0004, 0008).
_LATER_HOUSE_RULE_COLUMNS: Final = frozenset({"visibility", "language"})


def _create_tables(connection: Connection) -> None:
    # house_rules as it was before 0004 added its visibility and 0008 its language.
    before = sa.MetaData()
    first = sa.Table(
        "house_rules",
        before,
        *(
            column._copy()
            for column in house_rules.columns
            if column.name not in _LATER_HOUSE_RULE_COLUMNS
        ),
    )
    before.create_all(connection, tables=[first])
    # versions as it was before 0005 added its summary.
    old_columns = [column._copy() for column in versions.columns if column.name != "summary"]
    sa.Table(
        "versions",
        before,
        *old_columns,
        sa.UniqueConstraint("house_rule_id", "number", name="versions_number_unique"),
    )
    before.create_all(connection, tables=[before.tables["versions"]])


def _create_card_tables(connection: Connection) -> None:
    metadata.create_all(connection, tables=[card_tables, table_events])


def _create_bot_games(connection: Connection) -> None:
    metadata.create_all(connection, tables=[bot_games])


def _add_visibility_and_form_tokens(connection: Connection) -> None:
    # The column as the table defines it (type, NOT NULL, the default for existing rows).
    column = sa.schema.CreateColumn(house_rules.c.visibility).compile(dialect=connection.dialect)
    connection.execute(sa.text(f"ALTER TABLE {house_rules.name} ADD COLUMN {column}"))
    metadata.create_all(connection, tables=[form_tokens])


def _add_version_summaries(connection: Connection) -> None:
    column = sa.schema.CreateColumn(versions.c.summary).compile(dialect=connection.dialect)
    connection.execute(sa.text(f"ALTER TABLE {versions.name} ADD COLUMN {column}"))
    from ginrules.web import version_history  # it reads rulesets: imported when needed

    version_history.fill_summaries(connection)


def _create_rate_limit_tables(connection: Connection) -> None:
    metadata.create_all(connection, tables=[rate_counters, rate_hits])


def _add_edit_handoffs_and_repair_text(connection: Connection) -> None:
    metadata.create_all(connection, tables=[edit_handoffs])
    from ginrules.web import text_repair  # it reads rulesets: imported when needed

    text_repair.repair_stored_text(connection)


def _add_table_language(connection: Connection) -> None:
    column = sa.schema.CreateColumn(house_rules.c.language).compile(dialect=connection.dialect)
    connection.execute(sa.text(f"ALTER TABLE {house_rules.name} ADD COLUMN {column}"))


#: Named schema steps, in order; each runs once, in its own transaction. The first
#: creates the tables from the definitions above; a later step that changes a table
#: must also make this one create the table as it was before that change.
MIGRATIONS: Final[Sequence[tuple[str, Callable[[Connection], None]]]] = (
    ("0001_house_rules_and_versions", _create_tables),
    ("0002_card_tables_and_their_events", _create_card_tables),
    ("0003_bot_games", _create_bot_games),
    ("0004_visibility_and_form_tokens", _add_visibility_and_form_tokens),
    ("0005_version_summaries", _add_version_summaries),
    ("0006_rate_limit_counters", _create_rate_limit_tables),
    ("0007_edit_handoffs_and_text_repair", _add_edit_handoffs_and_repair_text),
    ("0008_house_rule_table_language", _add_table_language),
)


def applied_migrations(engine: Engine) -> list[str]:
    """The names of the migrations recorded as applied, in order."""
    if not sa.inspect(engine).has_table(migrations_table.name):
        return []
    with engine.connect() as connection:
        rows = connection.execute(
            sa.select(migrations_table.c.name).order_by(migrations_table.c.name)
        )
        return [row.name for row in rows]


def upgrade(engine: Engine, now: Callable[[], datetime]) -> list[str]:
    """Apply the migrations not yet recorded, each in its own transaction with its
    record; the names applied now."""
    with engine.begin() as connection:
        metadata.create_all(connection, tables=[migrations_table])
    applied = []
    done = set(applied_migrations(engine))
    for name, step in MIGRATIONS:
        if name in done:
            continue
        with engine.begin() as connection:
            step(connection)
            connection.execute(sa.insert(migrations_table).values(name=name, applied_at=now()))
        applied.append(name)
    return applied
