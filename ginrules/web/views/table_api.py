"""The card table's JSON API: start a table, read its score, record what happened.

- ``POST /api/tables``: a table under exact rules (a shipped name or a saved
  version), its players in seat order and who won the cut; the answer carries
  the scorer key once (only its hash is kept).
- ``GET /api/tables/<slug>``: the score recomputed from the table's log.
- ``POST /api/tables/<slug>/events``: a hand entered, the last hand undone or
  a hand corrected, with the scorer key, the number of changes the phone saw
  (a 409 with the current score when another phone got there first) and a
  request key that makes a retry the same change.

Every answer's score comes from the engine's own entries and score pad.
"""

from __future__ import annotations

from typing import Any, Final

from flask import Blueprint, Response, abort, jsonify, request, url_for

from ginrules.engine.entries import EntryError
from ginrules.engine.tablelog import TableScore, entry_to_json, event_from_json
from ginrules.refusal import Refusal
from ginrules.sheets.qr import qr_data_uri
from ginrules.web import refs
from ginrules.web.json_input import (
    BadInput,
    as_whole,
    bad_input,
    field_error,
    json_object,
    list_field,
    moved_on,
    text_field,
    whole_field,
)
from ginrules.web.security import limited
from ginrules.web.storage import get_store, secret_matches
from ginrules.web.table_service import (
    MAX_SEEN,
    REQUEST_KEY_LENGTH,
    TableRefused,
    TableState,
    newer,
    next_game,
    record,
    start,
    state,
)
from ginrules.web.table_store import CardTable, Conflict, StoredEvent, TableStore
from ginrules.web.table_watch import watch_for
from ginrules.web.urls import absolute
from ginrules.words.problems import message
from ginrules.words.tables import (
    ANONYMOUS_SCORER,
    input_problem,
    moved_on_problem,
    table_refused,
)

blueprint = Blueprint("table_api", __name__, url_prefix="/api/tables")
blueprint.register_error_handler(BadInput, bad_input)

_START_KEYS: Final = frozenset({"rules", "players", "first_dealers"})
_EVENT_KEYS: Final = frozenset({"seen", "event", "request_key"})
_NEXT_KEYS: Final = frozenset({"seen", "rules", "request_key"})


def _tables() -> TableStore:
    return TableStore(get_store())


@blueprint.post("")
@limited
def start_table() -> tuple[Response, int]:
    data = json_object(_START_KEYS)
    reference = text_field(data, "rules")
    players = list_field(data, "players")
    dealers = list_field(data, "first_dealers")
    for index, name in enumerate(players):
        if not isinstance(name, str):
            raise field_error(400, f"players.{index}", input_problem("name_not_string"))
    seats = [as_whole(dealer) for dealer in dealers]
    if None in seats:
        raise field_error(400, "first_dealers", input_problem("seat_not_whole"))
    loaded = refs.resolve(get_store(), reference)
    if loaded is None:
        raise field_error(422, "rules", table_refused("no_rules", {}))
    try:
        table, secret = start(_tables(), loaded, players, [s for s in seats if s is not None])
    except TableRefused as refused:
        raise field_error(
            422, refused.field, table_refused(refused.reason, refused.params)
        ) from None
    now = state(_tables(), table.slug)
    assert now is not None
    response = jsonify({**state_json(now), "scorer_key": secret})
    response.headers["Location"] = url_for("table_api.get_table", slug=table.slug)
    response.headers["Cache-Control"] = "no-store"
    return response, 201


@blueprint.get("/<slug>")
def get_table(slug: str) -> Response:
    now = state(_tables(), slug)
    if now is None:
        abort(404)
    response = jsonify(state_json(now))
    response.headers["Cache-Control"] = "no-store"
    return response


@blueprint.post("/<slug>/events")
@limited
def add_event(slug: str) -> tuple[Response, int]:
    tables, data, seen, request_key = _scorer_request(slug, _EVENT_KEYS)
    raw = data.get("event")
    if not isinstance(raw, dict):
        raise field_error(400, "event", input_problem("not_event", name="event"))
    try:
        event = event_from_json(raw)
    except (KeyError, TypeError, ValueError, AttributeError):
        raise field_error(422, "event", input_problem("not_event", name="event")) from None
    try:
        recorded = record(tables, slug, seen, event, _actor(), request_key)
    except Conflict as moved:
        return _moved_on(slug, seen, moved.current), 409
    except EntryError as refused:
        field = f"event.entries.{refused.entry}.{refused.field}"
        raise field_error(422, field, message(refused)) from None
    except ValueError as refused:  # a refusal of the engine's (Refusal is one)
        raise field_error(422, "event", message(refused)) from None
    # This process's own phones hear at once; the others through the database.
    watch_for(get_store().engine).poke(slug, recorded.now.table.last_event)
    return _answer(recorded.now, recorded.stored), 201


@blueprint.post("/<slug>/next")
@limited
def start_next_game(slug: str) -> tuple[Response, int]:
    """The same players' next game at a new table, under the same rules or (asked
    for by ``"rules": "newer"``) the house rule's newer version."""
    tables, data, seen, request_key = _scorer_request(slug, _NEXT_KEYS)
    choice = data.get("rules", "same")
    if choice not in ("same", "newer"):
        raise field_error(400, "rules", input_problem("not_choice", name="rules"))
    try:
        recorded = next_game(
            tables,
            get_store(),
            slug,
            seen,
            _actor(),
            use_newer=choice == "newer",
            request_key=request_key,
        )
    except Conflict as moved:
        return _moved_on(slug, seen, moved.current), 409
    except TableRefused as refused:
        raise field_error(422, refused.field, table_refused(refused.reason, {})) from None
    except Refusal as refused:
        raise field_error(422, "seen", message(refused)) from None
    return _answer(recorded.now, recorded.stored), 201


@blueprint.get("/<slug>/scorer-link")
def scorer_link(slug: str) -> Response:
    """The link that lets another phone score (the key in its fragment, never sent
    to a server) and its QR code, for a phone that holds the key."""
    table = _tables().get(slug)
    if table is None:
        abort(404)
    key = scorer_key(table)
    link = absolute(url_for("table_pages.table", slug=slug)) + "#key=" + key
    response = jsonify({"url": link, "qr": qr_data_uri(link)})
    response.headers["Cache-Control"] = "no-store"
    return response


def scorer_key(table: CardTable) -> str:
    """The request's scorer key, checked against the table's: 401 or 403 otherwise."""
    key = request.headers.get("X-Scorer-Key", "")
    if not key:
        raise field_error(401, "X-Scorer-Key", input_problem("no_key"))
    if not secret_matches(key, table.scorer_hash):
        raise field_error(403, "X-Scorer-Key", input_problem("wrong_key"))
    return key


def _scorer_request(
    slug: str, keys: frozenset[str]
) -> tuple[TableStore, dict[str, Any], int, str | None]:
    """A change to table ``slug`` as a scorer sends it: 404 for no such table,
    401/403 without its key; the body, the count the phone saw, its request key."""
    tables = _tables()
    table = tables.get(slug)
    if table is None:
        abort(404)
    scorer_key(table)
    data = json_object(keys)
    seen, request_key = _seen_and_key(data)
    return tables, data, seen, request_key


def _seen_and_key(data: dict[str, Any]) -> tuple[int, str | None]:
    seen = whole_field(data, "seen")
    if not 0 <= seen <= MAX_SEEN:
        raise field_error(400, "seen", input_problem("not_whole", name="seen"))
    request_key = data.get("request_key")
    if request_key is not None and (
        not isinstance(request_key, str) or not 0 < len(request_key) <= REQUEST_KEY_LENGTH
    ):
        raise field_error(400, "request_key", input_problem("not_string", name="request_key"))
    return seen, request_key


def _actor() -> str:
    """Who made a change, as the phone says (the scorer key vouches for it)."""
    name = request.headers.get("X-Player", "").strip()
    return " ".join(name.split())[:100] or ANONYMOUS_SCORER


def _moved_on(slug: str, seen: int, current: int) -> Response:
    now = state(_tables(), slug)
    assert now is not None
    return moved_on(moved_on_problem(current, seen), table=state_json(now))


def _answer(now: TableState, stored: StoredEvent) -> Response:
    response = jsonify({**state_json(now), "event": stored.number})
    response.headers["Cache-Control"] = "no-store"
    return response


def state_json(now: TableState) -> dict[str, Any]:
    """A table's score as the API and the table pages show it."""
    table, score = now.table, now.score
    later = newer(get_store(), table)
    pad = score.pad
    snapshot = pad.snapshot()
    return {
        "slug": table.slug,
        "rules": {
            "ref": table.rules.ref,
            "name": table.rules.name,
            "fingerprint": table.rules.fingerprint,
        },
        "players": list(table.players),
        "format": now.config.format.value,
        "last_event": table.last_event,
        "games": [
            {
                "points": list(game.points),
                "boxes": list(game.boxes),
                "hands": game.hands,
                "target": game.target,
                "winner": game.winner,
            }
            for game in snapshot.games
        ],
        "finished": pad.finished,
        "next_deal": None if pad.finished else _next_deal(score),
        "hands": [
            {
                "number": number,
                "entries": [entry_to_json(entry) for entry in entries],
                "results": [s.report.to_json() for s in scored],
                "deal": [
                    {"seats": list(seating.seats), "dealer": seating.dealer_seat}
                    for seating in pad_entry.seatings
                ],
            }
            for number, ((entries, scored), pad_entry) in enumerate(
                zip(score.hands, pad.entries, strict=True), start=1
            )
        ],
        "results": [result.to_json() for result in pad.results()] if pad.finished else [],
        "next_game": None
        if score.next_game is None
        else {"slug": score.next_game.slug, "rules": score.next_game.rules},
        "newer": None if later is None else {"ref": later.ref, "name": later.title},
        "log": [
            {
                "number": stored.number,
                "kind": stored.event["kind"],
                "actor": stored.actor,
                "at": stored.created_at.isoformat(),
            }
            for stored in now.log
        ],
    }


def _next_deal(score: TableScore) -> dict[str, Any]:
    deal = score.pad.next_deal()
    return {
        "hands": [
            {"seats": list(seating.seats), "dealer": seating.dealer_seat}
            for seating in deal.seatings
        ],
        "sitting_out": deal.sitting_out,
    }
