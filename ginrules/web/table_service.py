"""Starting a card table and keeping its score: the one service pages and the API call.

A table is pinned to the rules it starts under: their reference (a shipped
name or ``h/<slug>/v<n>``), their fingerprint, and the rules themselves as
one file that extends nothing, so a table scores the same whatever its base
or a later version says. Every change to the score is an event checked by
replaying the table's whole log with it (the engine's entries and score pad:
no second scoring), then stored only if nobody stored another first.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import yaml

from ginrules.engine.scorepad import score_pad_class
from ginrules.engine.tablelog import (
    Event,
    NextGame,
    TableError,
    TableProblem,
    TableScore,
    event_from_json,
    event_to_json,
    replay,
)
from ginrules.rules.compile import EngineConfig, compile_ruleset
from ginrules.rules.load import Ruleset, load_ruleset_text
from ginrules.rules.text import refused_in_name
from ginrules.web import refs
from ginrules.web.refs import Loaded
from ginrules.web.storage import Store, hash_secret, new_secret
from ginrules.web.table_store import CardTable, Conflict, PinnedRules, StoredEvent, TableStore
from ginrules.words.characters import character

#: The longest player name a table keeps.
NAME_LENGTH = 40
#: The longest request key a phone may send (a retry with it is the same change).
REQUEST_KEY_LENGTH = 64
#: More changes than any table makes: ``seen`` beyond it is not a real count.
MAX_SEEN = 1_000_000


class TableRefused(ValueError):
    """A table that cannot start as asked: ``field`` names the form field at fault."""

    def __init__(self, field: str, reason: str, **params: object) -> None:
        super().__init__(field, reason, params)
        self.field = field
        self.reason = reason
        self.params = params


@dataclass(frozen=True)
class TableState:
    """A table and its score now, recomputed from its log."""

    table: CardTable
    config: EngineConfig
    score: TableScore
    log: list[StoredEvent]


def pinned(loaded: Loaded) -> PinnedRules:
    """The rules a table keeps: ``loaded`` as one file that extends nothing."""
    text = standalone_yaml(loaded.ruleset)
    again = compile_ruleset(load_ruleset_text(text, loaded.ruleset.name, shipped_only=True))
    # The same rules, whatever the file looks like: the fingerprint says so.
    assert again.fingerprint == loaded.fingerprint, (again.fingerprint, loaded.fingerprint)
    return PinnedRules(loaded.ref, loaded.title, text, loaded.fingerprint)


def standalone_yaml(ruleset: Ruleset) -> str:
    """Every knob of the merged rules, written out, with no ``extends``."""
    document = _thawed(ruleset.document)
    document.pop("extends", None)
    return yaml.safe_dump(document, sort_keys=False, allow_unicode=True)


def start(
    tables: TableStore,
    loaded: Loaded,
    players: Sequence[str],
    first_dealers: Sequence[int],
) -> tuple[CardTable, str]:
    """A new table for ``players`` (in seat order) under ``loaded``; returns it and
    the scorer's secret (only its hash is stored)."""
    names, dealers = seated(loaded.config, players, first_dealers)
    secret = new_secret()
    table = tables.create(pinned(loaded), names, dealers, hash_secret(secret))
    return table, secret


def seated(
    config: EngineConfig, players: Sequence[str], first_dealers: Sequence[int]
) -> tuple[tuple[str, ...], tuple[int, ...]]:
    """The players' names (spaces tidied) and the first dealers, checked against the
    format of ``config``; raises :class:`TableRefused` at the field at fault."""
    names = tuple(" ".join(str(name).split()) for name in players)
    pad_class = score_pad_class(config)
    if len(names) != pad_class.players:
        raise TableRefused("players", "count", needed=pad_class.players, got=len(names))
    for seat, name in enumerate(names):
        if not name:
            raise TableRefused(f"players.{seat}", "empty")
        if len(name) > NAME_LENGTH:
            raise TableRefused(f"players.{seat}", "too_long", most=NAME_LENGTH)
        refused = refused_in_name(name)  # a control character, or one that does not show
        if refused is not None:
            raise TableRefused(
                f"players.{seat}", "character", character=character(refused.code_point)
            )
    if len(set(name.casefold() for name in names)) != len(names):
        raise TableRefused("players", "same_name")
    dealers = tuple(first_dealers)
    if len(dealers) != len(pad_class.cut_groups) or any(
        dealer not in group for dealer, group in zip(dealers, pad_class.cut_groups, strict=False)
    ):
        raise TableRefused("first_dealers", "not_a_player")
    return names, dealers


def state(tables: TableStore, slug: str) -> TableState | None:
    """The table and its score, from its log; None for no such table."""
    table = tables.get(slug)
    if table is None:
        return None
    config = _config(table)
    log = tables.events(slug)
    score = replay(config, table.first_dealers, [event_from_json(e.event) for e in log])
    return TableState(table, config, score, log)


@dataclass(frozen=True)
class Recorded:
    """A change stored, and the table's score with it."""

    stored: StoredEvent
    now: TableState


def record(
    tables: TableStore,
    slug: str,
    seen: int,
    event: Event,
    actor: str,
    request_key: str | None = None,
) -> Recorded:
    """Check ``event`` against the table's log as the client saw it (``seen`` events) and
    store it. Raises the engine's refusal for an event that cannot be, with nothing
    stored, and :class:`~ginrules.web.table_store.Conflict` when the table moved on.

    The log is read once and replayed once, with the event: that replay is both the
    check and the new score."""
    table = tables.get(slug)
    if table is None:
        raise KeyError(slug)
    log = tables.events(slug)
    for stored in log:
        if request_key is not None and stored.request_key == request_key:
            return _reread(tables, slug, stored)  # a retry of what is stored already
    if seen != table.last_event:
        raise Conflict(table.last_event)
    config = _config(table)
    score = replay(config, table.first_dealers, [*(event_from_json(e.event) for e in log), event])
    stored = tables.append(slug, seen, event_to_json(event), actor, request_key)
    if stored.number != seen + 1 or stored.event != event_to_json(event):
        return _reread(tables, slug, stored)  # the same request key raced itself and lost
    moved = dataclasses.replace(table, last_event=stored.number, updated_at=stored.created_at)
    return Recorded(stored, TableState(moved, config, score, [*log, stored]))


def newer(store: Store, table: CardTable) -> Loaded | None:
    """Rules newer than the table's: a later version of its house rule, or a shipped
    ruleset that has changed since the table started; None when it plays the latest."""
    ref = table.rules.ref
    if ref.startswith("h/"):
        started = refs.resolve(store, ref)
        if started is None or started.fingerprint != table.rules.fingerprint:
            return None  # imported from another site: the name is not these rules here
        latest = refs.resolve(store, ref.rsplit("/", 1)[0])
        if latest is None or latest.version is None or latest.ref == ref:
            return None
        return latest
    shipped = refs.shipped(ref)
    if shipped is None or shipped.fingerprint == table.rules.fingerprint:
        return None
    return shipped


def next_game(
    tables: TableStore,
    store: Store,
    slug: str,
    seen: int,
    actor: str,
    *,
    use_newer: bool = False,
    request_key: str | None = None,
) -> Recorded:
    """The finished game's players at a new table (its slug is in the stored
    :class:`NextGame`, the same scorer key works there), under the same rules or,
    by the players' explicit choice, the newer ones; the choice ends this log."""
    now = state(tables, slug)
    if now is None:
        raise KeyError(slug)
    for stored in now.log:
        if request_key is not None and stored.request_key == request_key:
            return _reread(tables, slug, stored)
    if seen != now.table.last_event:
        raise Conflict(now.table.last_event)
    if now.score.next_game is not None:
        raise TableError(TableProblem.MOVED_ON, slug=now.score.next_game.slug)
    if not now.score.pad.finished:
        raise TableError(TableProblem.NOT_OVER)
    rules = now.table.rules
    if use_newer:
        later = newer(store, now.table)
        if later is None:
            raise TableRefused("rules", "no_newer")
        rules = pinned(later)
    dealers = now.score.pad.next_first_dealers()
    following = tables.create(rules, now.table.players, dealers, now.table.scorer_hash)
    event = NextGame(following.slug, rules.ref, rules.fingerprint)
    return record(tables, slug, seen, event, actor, request_key)


def _reread(tables: TableStore, slug: str, stored: StoredEvent) -> Recorded:
    now = state(tables, slug)
    assert now is not None
    return Recorded(stored, now)


def _config(table: CardTable) -> EngineConfig:
    return pinned_config(table.rules.yaml, table.rules.name)


@functools.lru_cache(maxsize=256)
def pinned_ruleset(text: str, name: str) -> Ruleset:
    """A table's pinned rules, read once per process (they never change)."""
    return load_ruleset_text(text, name, shipped_only=True)


@functools.lru_cache(maxsize=256)
def pinned_config(text: str, name: str) -> EngineConfig:
    """A table's pinned rules, compiled once per process: they never change, and an
    ``EngineConfig`` is immutable, so every request for the table shares it."""
    return compile_ruleset(pinned_ruleset(text, name))


def _thawed(value: Any) -> Any:
    if isinstance(value, Mapping):
        return {key: _thawed(item) for key, item in value.items()}
    if isinstance(value, tuple | list):
        return [_thawed(item) for item in value]
    return value
