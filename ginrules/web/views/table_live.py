"""A card table's score, pushed to every phone following it (Server-Sent Events).

``GET /api/tables/<slug>/live`` answers ``text/event-stream``: first the
score now (unless the phone's ``Last-Event-ID`` says it has it), then the new
score each time the table's log grows, as ``table`` events whose ``id`` is the
number of changes stored and whose data is the JSON of ``GET /api/tables/<slug>``
plus the rendered score (``html``) the table page swaps in. The news comes
from the database (:mod:`ginrules.web.table_watch`), so a change stored by
any worker or app server reaches every stream.

Each stream holds a server thread, so a worker holds at most ``LIVE_STREAMS``
of them (a 503 with ``Retry-After`` beyond: the page then asks every few
seconds instead) and each ends after ``STREAM_SECONDS``; the browser's
``EventSource`` reconnects by itself, saying the last change it has.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from typing import Final

from flask import Blueprint, Response, abort, current_app, request, stream_with_context

from ginrules.web.storage import get_store
from ginrules.web.table_service import TableState, state
from ginrules.web.table_store import TableStore
from ginrules.web.table_watch import Watch, watch_for
from ginrules.web.views.table_pages import live_payload
from ginrules.words.i18n import current_locale, use_locale

blueprint = Blueprint("table_live", __name__)

#: How long one stream lasts before the browser opens the next, in seconds.
STREAM_SECONDS: Final = 50.0
#: A comment this often keeps proxies from closing a quiet stream and frees the
#: thread of a phone that left within seconds (a write to it fails), in seconds.
KEEPALIVE_SECONDS: Final = 3.0
#: How long the browser waits before it reconnects, in milliseconds.
RETRY_MS: Final = 1500

_slots: dict[int, threading.BoundedSemaphore] = {}
_slots_lock = threading.Lock()


def _streams() -> threading.BoundedSemaphore:
    """This process's allowance of streams."""
    most = int(current_app.config["LIVE_STREAMS"])
    with _slots_lock:
        return _slots.setdefault(most, threading.BoundedSemaphore(most))


def table_event(now: TableState) -> str:
    """One Server-Sent Event carrying the table's score."""
    data = json.dumps(live_payload(now), separators=(",", ":"))
    return f"id: {now.table.last_event}\nevent: table\ndata: {data}\n\n"


def _after() -> int:
    given = request.headers.get("Last-Event-ID") or request.args.get("after") or ""
    return int(given) if given.isdigit() and len(given) < 10 else -1


@blueprint.get("/api/tables/<slug>/live")
def live(slug: str) -> Response:
    store = get_store()
    tables = TableStore(store)
    first = state(tables, slug)
    if first is None:
        abort(404)
    slots = _streams()
    if not slots.acquire(blocking=False):
        busy = Response("busy\n", status=503, mimetype="text/plain")
        busy.headers["Retry-After"] = "5"
        return busy
    after = _after()
    watch = watch_for(store.engine)
    # The score is worded in the language the phone asked in, however long the stream.
    locale = current_locale()

    def stream() -> Iterator[str]:
        with use_locale(locale):
            yield from _news(tables, slug, first, after, watch)

    response = Response(stream_with_context(stream()), mimetype="text/event-stream")
    response.headers["Cache-Control"] = "no-store"
    response.headers["X-Accel-Buffering"] = "no"
    # Released when the server closes the answer: at its end, or when the phone left.
    response.call_on_close(slots.release)
    return response


def _news(
    tables: TableStore, slug: str, first: TableState, after: int, watch: Watch
) -> Iterator[str]:
    """The stream's events: the score now (unless the phone has it), then each change."""
    yield f"retry: {RETRY_MS}\n\n"
    now = first
    if now.table.last_event != after:
        yield table_event(now)
    seen = now.table.last_event
    until = time.monotonic() + STREAM_SECONDS
    while (left := until - time.monotonic()) > 0:
        moved = watch.wait(slug, seen, min(KEEPALIVE_SECONDS, left))
        if moved is None:
            yield ": still here\n\n"
            continue
        fresh = state(tables, slug)
        if fresh is None:
            return
        seen = fresh.table.last_event
        yield table_event(fresh)
