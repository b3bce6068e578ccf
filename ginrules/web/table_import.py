"""Bringing a card table in from its JSON export: a new table, the same rules, the same log.

The export (:func:`ginrules.web.table_files.export`) carries the players, who
won the cut, the pinned rules and the whole log. Everything is checked before
anything is stored, then the table and its log are stored in one transaction,
under a new slug and a new scorer key:

- the shape, field by field: a 400 naming the field, as the other table calls do;
- the rules: the YAML must load as one file that extends nothing and compile to
  the fingerprint it states (a 422 at ``rules.yaml`` or ``rules.fingerprint``);
- the players and the first dealers, as a new table checks them;
- the log: numbered 1, 2, 3 ..., every change readable and taken by the engine
  after the ones before it, as the table took it when it was recorded (a 422 at
  ``events.<i>.event``, down to the entry's field when the engine names one).

The format is the machine's: its keys, event kinds and version stay English
whatever language the site speaks; only the refusals are worded for people.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import replace
from datetime import UTC, datetime
from typing import Any, Final

from ginrules.engine.entries import EntryError
from ginrules.engine.tablelog import Event, event_from_json, event_to_json, replay
from ginrules.rules.compile import EngineConfig
from ginrules.rules.diagnostics import RulesetError
from ginrules.web.json_input import BadInput, as_whole, field_error
from ginrules.web.refs import SHIPPED_NAME_PATTERN
from ginrules.web.storage import SLUG_PATTERN, VERSION_PATTERN, hash_secret, new_secret
from ginrules.web.table_files import EXPORT_VERSION
from ginrules.web.table_service import TableRefused, pinned_config, pinned_ruleset, seated
from ginrules.web.table_store import CardTable, PinnedRules, StoredEvent, TableStore
from ginrules.words.diagnostics import message as diagnostic_message
from ginrules.words.problems import message
from ginrules.words.table_files import import_refused
from ginrules.words.tables import input_problem, table_refused, unknown_fields

#: The fields of an export, of its rules and of each change of its log.
KEYS: Final = frozenset({"ginrules_table", "players", "first_dealers", "rules", "events"})
RULES_KEYS: Final = frozenset({"ref", "name", "fingerprint", "yaml"})
EVENT_KEYS: Final = frozenset({"number", "event", "actor", "at"})
#: More changes than a table makes: each is checked by replaying the log up to it.
MAX_EVENTS: Final = 500
#: The longest rules reference and name a table keeps (their columns).
RULES_TEXT_LENGTH: Final = 200
#: What a table's rules reference looks like: a shipped name, or a saved version.
RULES_REF_PATTERN: Final = f"(?:{SHIPPED_NAME_PATTERN}|h/{SLUG_PATTERN}/v{VERSION_PATTERN})"
#: The longest name of whoever made a change (its column).
ACTOR_LENGTH: Final = 100


def import_table(tables: TableStore, data: Mapping[str, Any]) -> tuple[CardTable, str]:
    """A new table from an export's fields (``data``, unknown keys already refused);
    returns it and its new scorer key. Raises :class:`BadInput` with nothing stored."""
    if as_whole(data.get("ginrules_table")) != EXPORT_VERSION:
        raise field_error(400, "ginrules_table", import_refused("not_an_export"))
    players = [_text(name, f"players.{seat}") for seat, name in enumerate(_list(data, "players"))]
    dealers = [
        _whole(seat, f"first_dealers.{n}") for n, seat in enumerate(_list(data, "first_dealers"))
    ]
    given = _object(data.get("rules"), "rules", RULES_KEYS)
    rules = PinnedRules(
        ref=_text(given.get("ref"), "rules.ref", RULES_TEXT_LENGTH, RULES_REF_PATTERN),
        name=_text(given.get("name"), "rules.name", RULES_TEXT_LENGTH),
        yaml=_text(given.get("yaml"), "rules.yaml"),
        fingerprint=_text(given.get("fingerprint"), "rules.fingerprint"),
    )
    raw_log = _list(data, "events")
    if len(raw_log) > MAX_EVENTS:
        raise field_error(400, "events", import_refused("too_many_events", most=MAX_EVENTS))
    log = [_stored(item, f"events.{index}") for index, item in enumerate(raw_log)]

    config = _compiled(rules)
    try:
        names, first_dealers = seated(config, players, dealers)
    except TableRefused as refused:
        raise field_error(
            422, refused.field, table_refused(refused.reason, refused.params)
        ) from None
    events = [_event(stored, index) for index, stored in enumerate(log)]
    _replays(config, first_dealers, events)
    # Each change stored as a recorded one is: the engine's own JSON of it.
    log = [replace(stored, event=event_to_json(e)) for stored, e in zip(log, events, strict=True)]
    secret = new_secret()
    table = tables.create(rules, names, first_dealers, hash_secret(secret), log)
    return table, secret


def _compiled(rules: PinnedRules) -> EngineConfig:
    """The snapshot's rules, compiled: one file that extends nothing, with the
    fingerprint it states."""
    try:
        ruleset = pinned_ruleset(rules.yaml, rules.name)
        config = pinned_config(rules.yaml, rules.name)  # the cache the table then reads
    except RulesetError as error:
        errors = error.errors or error.diagnostics
        raise BadInput(
            422,
            diagnostic_message(errors[0]),
            [
                {
                    "field": "rules.yaml",
                    "message": diagnostic_message(d),
                    "line": d.line,
                    "column": d.column,
                }
                for d in errors
            ],
        ) from None
    if len(ruleset.chain) != 1:
        raise field_error(422, "rules.yaml", import_refused("extends"))
    if config.fingerprint != rules.fingerprint:
        raise field_error(
            422,
            "rules.fingerprint",
            import_refused("fingerprint", actual=config.fingerprint, stated=rules.fingerprint),
        )
    return config


def _stored(item: object, field: str) -> StoredEvent:
    """One change of the log as it will be stored (its event still to be read)."""
    data = _object(item, field, EVENT_KEYS)
    number = _whole(data.get("number"), f"{field}.number")
    event = data.get("event")
    if not isinstance(event, dict):
        raise field_error(400, f"{field}.event", input_problem("not_event", name=f"{field}.event"))
    actor = _text(data.get("actor"), f"{field}.actor", ACTOR_LENGTH)
    at = _text(data.get("at"), f"{field}.at")
    try:
        when = datetime.fromisoformat(at)
    except ValueError:
        when = None
    if when is None or when.tzinfo is None:
        raise field_error(422, f"{field}.at", import_refused("at", name=f"{field}.at"))
    return StoredEvent(number, event, actor, when.astimezone(UTC), None)


def _event(stored: StoredEvent, index: int) -> Event:
    """The change ``stored`` as the engine reads it."""
    field = f"events.{index}"
    if stored.number != index + 1:
        raise field_error(422, f"{field}.number", import_refused("numbered", number=stored.number))
    if stored.event.get("kind") == "next":
        raise field_error(422, f"{field}.event", import_refused("next_game"))
    try:
        return event_from_json(stored.event)
    except (KeyError, TypeError, ValueError, AttributeError):
        raise field_error(
            422, f"{field}.event", input_problem("not_event", name=f"{field}.event")
        ) from None


def _replays(config: EngineConfig, first_dealers: tuple[int, ...], events: list[Event]) -> None:
    """Every change is taken after the ones before it, as when it was recorded: the
    log up to each change replays (an undo can hide a hand that never could be)."""
    for index in range(len(events)):
        try:
            replay(config, first_dealers, events[: index + 1])
        except EntryError as refused:
            entry = getattr(refused, "entry", 0)  # which of a partnership's two hands
            field = f"events.{index}.event.entries.{entry}.{refused.field}"
            raise field_error(422, field, message(refused)) from None
        except ValueError as refused:  # the engine's refusals, and cards that cannot be
            raise field_error(422, f"events.{index}.event", message(refused)) from None


def _object(value: object, field: str, keys: frozenset[str]) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise field_error(400, field, input_problem("not_object"))
    unknown = sorted(set(value) - keys)
    if unknown:
        text = unknown_fields(unknown)
        raise BadInput(
            400, text, [{"field": f"{field}.{name}", "message": text} for name in unknown]
        )
    return value


def _list(data: Mapping[str, Any], name: str) -> list[Any]:
    value = data.get(name)
    if value is None:
        raise field_error(400, name, input_problem("missing", name=name))
    if not isinstance(value, list):
        raise field_error(400, name, input_problem("not_list", name=name))
    return value


def _text(value: object, field: str, most: int | None = None, pattern: str = "") -> str:
    if value is None:
        raise field_error(400, field, input_problem("missing", name=field))
    if not isinstance(value, str):
        raise field_error(400, field, input_problem("not_string", name=field))
    if most is not None and not 0 < len(value) <= most:
        raise field_error(400, field, import_refused("length", name=field, most=most))
    if pattern and not re.fullmatch(pattern, value):
        raise field_error(400, field, import_refused("reference", name=field))
    return value


def _whole(value: object, field: str) -> int:
    whole = as_whole(value)
    if whole is None:
        raise field_error(400, field, input_problem("not_whole", name=field))
    return whole
