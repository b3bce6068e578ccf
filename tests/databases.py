"""Fresh databases for tests: a SQLite file, and a schema of its own on the real PostgreSQL.

Use as fixtures: ``from tests.databases import database_url, store`` in a test
module (pytest finds imported fixtures). ``database_url`` is parametrized over
``sqlite`` and ``postgresql``; each test gets an empty database. PostgreSQL is
the server ``scripts/postgres-test-db.sh`` starts (``GINRULES_TEST_DATABASE_URL``
overrides it); when it is unreachable the test skips, which fails under CI=true.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Iterator
from pathlib import Path
from typing import Final

import pytest
import sqlalchemy as sa

from ginrules.web.storage import Store

POSTGRES_URL: Final = os.environ.get(
    "GINRULES_TEST_DATABASE_URL",
    "postgresql+psycopg://ginrules:ginrules@127.0.0.1:5432/ginrules_test",
)


def _postgres_schema() -> Iterator[str]:
    """A new empty schema on the test server; its URL puts it first on the search path."""
    engine = sa.create_engine(POSTGRES_URL, pool_pre_ping=True)
    try:
        with engine.connect() as connection:
            connection.execute(sa.text("SELECT 1"))
    except sa.exc.OperationalError as error:
        engine.dispose()
        pytest.skip(
            f"PostgreSQL is not reachable at {POSTGRES_URL.split('@')[-1]}"
            f" (run scripts/postgres-test-db.sh): {error.orig}"
        )
    schema = f"test_{secrets.token_hex(6)}"
    with engine.begin() as connection:
        connection.execute(sa.text(f'CREATE SCHEMA "{schema}"'))
    try:
        yield f"{POSTGRES_URL}?options=-csearch_path%3D{schema}"
    finally:
        with engine.begin() as connection:
            connection.execute(sa.text(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE'))
        engine.dispose()


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'ginrules.db'}"
    else:
        yield from _postgres_schema()


@pytest.fixture
def store(database_url: str) -> Iterator[Store]:
    opened = Store(database_url)
    opened.upgrade()
    try:
        yield opened
    finally:
        opened.close()
