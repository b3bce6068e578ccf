"""Fresh databases for tests: a SQLite file, and a schema of its own on the real PostgreSQL.

Use as fixtures: ``from tests.databases import database_url, store`` in a test
module, listed in its ``__all__`` so ruff sees them used (pytest finds fixtures
imported into a module). ``database_url`` is parametrized over ``sqlite`` and
``postgresql`` and gives each test an empty database; ``store`` is a ``Store`` on
it, already upgraded. PostgreSQL is the server ``scripts/postgres-test-db.sh``
starts (``GINRULES_TEST_DATABASE_URL`` overrides it); when it is unreachable the
test skips, which fails under CI=true. Its sessions run in a time zone far from
UTC, so code that forgets to convert shows it.
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
#: UTC+12:45 (+13:45 in its summer): a session time zone no code can mistake for UTC.
POSTGRES_TIME_ZONE: Final = "Pacific/Chatham"


def _postgres_schema() -> Iterator[str]:
    """A new empty schema on the test server; its URL puts it first on the search path."""
    admin = Store(POSTGRES_URL)  # the same URL rules (postgres://, postgresql://) as the site
    try:
        with admin.engine.connect() as connection:
            connection.execute(sa.text("SELECT 1"))
    except sa.exc.OperationalError as error:
        admin.close()
        pytest.skip(  # a failure under CI=true (tests/conftest.py)
            f"PostgreSQL is not reachable at {admin.url}"
            f" (run scripts/postgres-test-db.sh): {error.orig}"
        )
    schema = f"test_{secrets.token_hex(6)}"
    with admin.engine.begin() as connection:
        connection.execute(sa.text(f'CREATE SCHEMA "{schema}"'))
    url = admin.engine.url.update_query_dict(
        {"options": f"-csearch_path={schema} -ctimezone={POSTGRES_TIME_ZONE}"}
    )
    try:
        yield url.render_as_string(hide_password=False)
    finally:
        with admin.engine.begin() as connection:
            connection.execute(sa.text(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE'))
        admin.close()


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """The URL of an empty database: a new SQLite file, or a new PostgreSQL schema."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'ginrules.db'}"
    else:
        yield from _postgres_schema()


@pytest.fixture
def store(database_url: str) -> Iterator[Store]:
    """A store on ``database_url`` with its schema made."""
    opened = Store(database_url)
    opened.upgrade()
    try:
        yield opened
    finally:
        opened.close()
