"""Waiting for a card table to change, across workers and across app servers.

A phone following a table holds one Server-Sent Events stream (see
:mod:`ginrules.web.views.table_live`); the thread serving it waits here until
the table's ``last_event`` passes the number the phone has. The news comes
from the database every worker shares, never from one process's memory:

- on PostgreSQL, every stored event sends ``NOTIFY ginrules_tables`` in its
  own transaction (:meth:`~ginrules.web.table_store.TableStore.append`), and
  one listening connection per process wakes the streams of that table;
  a slow poll of the watched tables stands behind it, should a notice be lost
  while the listening connection reconnects;
- on SQLite (one file on one machine), one thread per process reads the
  watched tables' ``last_event`` a few times a second while anybody waits.

A change stored by this process wakes its own streams at once (:meth:`Watch.poke`).
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections import Counter
from collections.abc import Iterable
from typing import Final

import sqlalchemy as sa

from ginrules.web.table_store import CHANNEL
from ginrules.web.tables import card_tables

#: How often SQLite tables are read while a phone waits, in seconds.
SQLITE_POLL: Final = 0.1
#: How often PostgreSQL tables are read anyway, behind the notices, in seconds.
SAFETY_POLL: Final = 5.0

log = logging.getLogger("ginrules.web")


class Watch:
    """Tables' last event numbers as this process knows them, and the threads
    waiting for them to move. One per process and database."""

    def __init__(self, engine: sa.Engine) -> None:
        self.engine = engine
        self._changed = threading.Condition()
        self._known: dict[str, int] = {}
        self._waiting: Counter[str] = Counter()
        self._thread: threading.Thread | None = None
        self._postgres = engine.dialect.name == "postgresql"

    def wait(self, slug: str, after: int, timeout: float) -> int | None:
        """The table's last event once it is past ``after``; None if it is not
        within ``timeout`` seconds (or the table is gone)."""
        deadline = time.monotonic() + timeout
        with self._changed:
            self._waiting[slug] += 1
        try:
            self._start()
            self.poke(slug, self._read([slug]).get(slug))
            with self._changed:
                while True:
                    known = self._known.get(slug)
                    if known is not None and known > after:
                        return known
                    left = deadline - time.monotonic()
                    if left <= 0:
                        return None
                    self._changed.wait(left)
        finally:
            with self._changed:
                self._waiting[slug] -= 1
                if self._waiting[slug] <= 0:
                    del self._waiting[slug]
                    self._known.pop(slug, None)

    def poke(self, slug: str, number: int | None) -> None:
        """``slug`` is at event ``number`` now: wake whoever waits for it."""
        if number is None:
            return
        with self._changed:
            if slug in self._waiting and number > self._known.get(slug, -1):
                self._known[slug] = number
                self._changed.notify_all()

    def watched(self) -> list[str]:
        with self._changed:
            return list(self._waiting)

    # -- where the news comes from ------------------------------------------------

    def _start(self) -> None:
        with self._changed:
            if self._thread is not None and self._thread.is_alive():
                return
            target = self._listen if self._postgres else self._poll
            self._thread = threading.Thread(target=target, name="ginrules-watch", daemon=True)
            self._thread.start()

    def _read(self, slugs: Iterable[str]) -> dict[str, int]:
        wanted = list(slugs)
        if not wanted:
            return {}
        with self.engine.connect() as connection:
            rows = connection.execute(
                sa.select(card_tables.c.slug, card_tables.c.last_event).where(
                    card_tables.c.slug.in_(wanted)
                )
            )
            return {row.slug: int(row.last_event) for row in rows}

    def _refresh(self) -> None:
        for slug, number in self._read(self.watched()).items():
            self.poke(slug, number)

    def _poll(self) -> None:
        while True:
            try:
                self._refresh()
            except Exception:  # the database is away for a moment: try again
                log.exception("reading watched tables failed")
            time.sleep(SQLITE_POLL)

    def _listen(self) -> None:
        import psycopg

        url = self.engine.url.set(drivername="postgresql").render_as_string(hide_password=False)
        while True:
            try:
                with psycopg.connect(url, autocommit=True, connect_timeout=5) as connection:
                    connection.execute(f"LISTEN {CHANNEL}")
                    self._refresh()  # what changed while nobody listened
                    last_poll = time.monotonic()
                    while True:
                        for notice in connection.notifies(timeout=1.0):
                            slug, _, number = notice.payload.rpartition(":")
                            self.poke(slug, int(number))
                        if time.monotonic() - last_poll > SAFETY_POLL:
                            self._refresh()
                            last_poll = time.monotonic()
            except Exception:
                log.exception("listening for table changes failed; listening again")
                time.sleep(1.0)


_watches: dict[tuple[int, str], Watch] = {}
_lock = threading.Lock()


def watch_for(engine: sa.Engine) -> Watch:
    """This process's watch on ``engine``'s database (a forked worker gets its own)."""
    key = (os.getpid(), engine.url.render_as_string(hide_password=True))
    with _lock:
        found = _watches.get(key)
        if found is None:
            found = _watches[key] = Watch(engine)
        return found
