"""A card table's score as a log of events: hands entered, undone and corrected.

A live table never stores a total. It stores what the players reported, one
event at a time, and recomputes everything (points, boxes, bonuses, whose
deal) by replaying the log through :mod:`ginrules.engine.entries` and the
format's score pad. An event is never changed or deleted: undoing a hand and
correcting one are events too, so the table's history is the log itself.

- :class:`HandEntered`: the next hand, one :data:`Entry` per two-player hand
  dealt (two in a partnership, in the order the pad deals them).
- :class:`LastHandUndone`: the last hand still standing is taken back.
- :class:`HandCorrected`: hand ``number`` (1-based) is replaced and every
  hand after it rescored.
- :class:`NextGame`: the game is over and the same players went on to the
  next one, at another table (``slug``), under the rules it names: the same
  version, or a newer one the players chose. Nothing follows it.

:func:`replay` raises the entry's or the pad's refusal (:class:`EntryError`,
:class:`~ginrules.engine.settle.SettleError`, :class:`ScorePadError`) for an
event that cannot follow the ones before it, so a table checks an event by
replaying the log with it before it stores it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from ginrules.cards import Card
from ginrules.engine.entries import (
    CardsEntry,
    CountsEntry,
    EntryError,
    ScoredEntry,
    score_cards,
    score_counts,
)
from ginrules.engine.scorepad import (
    PadEntry,
    PadProblem,
    ScorePad,
    ScorePadError,
    Seating,
    new_score_pad,
)
from ginrules.engine.scoring import HandEnd
from ginrules.refusal import Refusal
from ginrules.rules.compile import EngineConfig

#: One two-player hand as the table reported it.
Entry = CountsEntry | CardsEntry


@dataclass(frozen=True, slots=True)
class HandEntered:
    """The next hand: one entry per two-player hand dealt."""

    entries: tuple[Entry, ...]


@dataclass(frozen=True, slots=True)
class LastHandUndone:
    """The last hand standing is taken back."""


@dataclass(frozen=True, slots=True)
class HandCorrected:
    """Hand ``number`` (1-based) replaced; every hand after it is rescored."""

    number: int
    entries: tuple[Entry, ...]


@dataclass(frozen=True, slots=True)
class NextGame:
    """The players went on to the next game at table ``slug``, under ``rules``
    (a reference) with ``fingerprint``: the table's log ends here."""

    slug: str
    rules: str
    fingerprint: str


Event = HandEntered | LastHandUndone | HandCorrected | NextGame


class TableProblem(StrEnum):
    """Why a change does not fit the table's log (words in :mod:`ginrules.words`)."""

    #: The next game has started at another table: this one takes no more changes.
    MOVED_ON = "moved_on"
    #: The next game starts only when this one is over.
    NOT_OVER = "not_over"


class TableError(Refusal):
    """A change the table's log cannot take; ``reason`` and ``params`` say why."""

    reason: TableProblem


@dataclass
class TableScore:
    """A table's score after its log: the pad, and each standing hand as scored."""

    pad: ScorePad
    #: For each hand standing, its entries and how the engine scored each.
    hands: list[tuple[tuple[Entry, ...], tuple[ScoredEntry, ...]]]
    #: Where the players went on to, once the game is over.
    next_game: NextGame | None = None


def replay(
    config: EngineConfig, first_dealers: Sequence[int], events: Iterable[Event]
) -> TableScore:
    """The score after ``events``, in order; raises the refusal of the first event
    that cannot follow the ones before it."""
    standing: list[tuple[Entry, ...]] = []
    moved: NextGame | None = None
    for event in events:
        if moved is not None:
            raise TableError(TableProblem.MOVED_ON, slug=moved.slug)
        if isinstance(event, HandEntered):
            standing.append(event.entries)
        elif isinstance(event, LastHandUndone):
            if not standing:
                raise ScorePadError(PadProblem.NO_SUCH_ENTRY, index=0)
            standing.pop()
        elif isinstance(event, NextGame):
            if not _score(config, first_dealers, standing).pad.finished:
                raise TableError(TableProblem.NOT_OVER)
            moved = event
        else:
            if not 1 <= event.number <= len(standing):
                raise ScorePadError(PadProblem.NO_SUCH_ENTRY, index=event.number)
            standing[event.number - 1] = event.entries
    score = _score(config, first_dealers, standing)
    score.next_game = moved
    return score


def _score(
    config: EngineConfig, first_dealers: Sequence[int], standing: Sequence[tuple[Entry, ...]]
) -> TableScore:
    pad = new_score_pad(config, first_dealers)
    hands = []
    for entries in standing:
        if pad.finished:
            raise ScorePadError(PadProblem.FINISHED, hands=len(pad.entries))
        seatings = pad.next_deal().seatings
        if len(entries) != len(seatings):
            raise ScorePadError(PadProblem.HAND_COUNT, expected=len(seatings), got=len(entries))
        scored = tuple(
            _scored(config, seating, entry, index)
            for index, (entry, seating) in enumerate(zip(entries, seatings, strict=True))
        )
        pad.add(PadEntry(tuple(s.report for s in scored)))
        hands.append((entries, scored))
    return TableScore(pad, hands)


def _scored(config: EngineConfig, seating: Seating, entry: Entry, index: int) -> ScoredEntry:
    try:
        if isinstance(entry, CountsEntry):
            return score_counts(config, seating, entry)
        return score_cards(config, seating, entry)
    except EntryError as refused:
        refused.entry = index  # which of a partnership's two hands
        raise


# -- JSON, as the log is stored and as the API takes it --------------------------------


def entry_to_json(entry: Entry) -> dict[str, Any]:
    if isinstance(entry, CountsEntry):
        return {
            "end": entry.end.value,
            "ended_by": entry.ended_by,
            "knocker_deadwood": entry.knocker_deadwood,
            "defender_deadwood": entry.defender_deadwood,
            "upcard": _card(entry.upcard),
        }
    return {
        "ended_by": entry.ended_by,
        "knocker": [str(c) for c in entry.knocker],
        "defender": [str(c) for c in entry.defender],
        "upcard": _card(entry.upcard),
        "declared": entry.declared,
        "knocker_melds": None
        if entry.knocker_melds is None
        else [[str(c) for c in meld] for meld in entry.knocker_melds],
    }


def entry_from_json(data: Mapping[str, Any]) -> Entry:
    """An entry from its JSON (``knocker`` cards make it a card entry); a missing or
    wrong field raises ``KeyError``, ``TypeError`` or ``ValueError``."""
    upcard = None if data.get("upcard") is None else Card.parse(str(data["upcard"]))
    if "knocker" in data:
        melds = data.get("knocker_melds")
        return CardsEntry(
            _whole(data["ended_by"]),
            tuple(Card.parse(str(c)) for c in data["knocker"]),
            tuple(Card.parse(str(c)) for c in data["defender"]),
            upcard,
            declared=bool(data.get("declared", True)),
            knocker_melds=None
            if melds is None
            else tuple(tuple(Card.parse(str(c)) for c in meld) for meld in melds),
        )
    ended_by = data.get("ended_by")
    return CountsEntry(
        HandEnd(data["end"]),
        None if ended_by is None else _whole(ended_by),
        _whole(data.get("knocker_deadwood", 0)),
        _whole(data.get("defender_deadwood", 0)),
        upcard,
    )


def event_to_json(event: Event) -> dict[str, Any]:
    if isinstance(event, HandEntered):
        return {"kind": "hand", "entries": [entry_to_json(e) for e in event.entries]}
    if isinstance(event, LastHandUndone):
        return {"kind": "undo"}
    if isinstance(event, NextGame):
        return {
            "kind": "next",
            "slug": event.slug,
            "rules": event.rules,
            "fingerprint": event.fingerprint,
        }
    return {
        "kind": "correct",
        "number": event.number,
        "entries": [entry_to_json(e) for e in event.entries],
    }


def event_from_json(data: Mapping[str, Any]) -> Event:
    kind = data["kind"]
    if kind == "undo":
        return LastHandUndone()
    if kind == "next":
        return NextGame(str(data["slug"]), str(data["rules"]), str(data["fingerprint"]))
    entries = tuple(entry_from_json(e) for e in data["entries"])
    if kind == "hand":
        return HandEntered(entries)
    if kind == "correct":
        return HandCorrected(_whole(data["number"]), entries)
    raise ValueError(kind)


def _card(card: Card | None) -> str | None:
    return None if card is None else str(card)


def _whole(value: object) -> int:
    """A whole number from JSON (``true`` is not one); ``TypeError`` otherwise."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(value)
    return value
