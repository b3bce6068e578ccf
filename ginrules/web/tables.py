"""The database tables of saved house rules, and the named migrations that make them."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Final

import sqlalchemy as sa
from sqlalchemy.engine import Connection

metadata = sa.MetaData()

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
    sa.UniqueConstraint("house_rule_id", "number", name="versions_number_unique"),
)

migrations_table = sa.Table(
    "schema_migrations",
    metadata,
    sa.Column("name", sa.String(100), primary_key=True),
    sa.Column("applied_at", sa.DateTime(timezone=True), nullable=False),
)


def _create_tables(connection: Connection) -> None:
    metadata.create_all(connection, tables=[house_rules, versions])


#: Named schema steps, in order; each runs once, in its own transaction. The first
#: creates the tables from the definitions above; a later step that changes a table
#: must also make this one create the table as it was before that change.
MIGRATIONS: Final[Sequence[tuple[str, Callable[[Connection], None]]]] = (
    ("0001_house_rules_and_versions", _create_tables),
)
