"""Hand records: a hand as JSON, and playing a record back to check its result.

A record holds the ruleset's name and fingerprint, the seed, the dealer, the
whole deck order, every action and the result. :func:`replay` deals the same
deck under the same configuration, applies the actions one by one (each must
be legal) and compares the result with the one recorded.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Final

from ginrules.cards import CardError, parse_cards
from ginrules.engine.actions import Action
from ginrules.engine.hand import Hand
from ginrules.engine.illegal import IllegalAction
from ginrules.engine.rounds import SharedDeck
from ginrules.refusal import Refusal
from ginrules.rules.compile import EngineConfig

RECORD_FORMAT: Final = "ginrules-hand/1"


class Unplayable(StrEnum):
    """Why a record cannot be played back (:mod:`ginrules.words.problems` words it)."""

    #: Not a hand record at all.
    NOT_A_RECORD = "not_a_record"
    #: Played under other rules (``recorded`` and ``given`` fingerprints).
    OTHER_RULES = "other_rules"
    #: The deal cannot be read (``cause``).
    DEAL = "deal"
    #: Action ``number`` (``item``) cannot be read or is refused (``cause``).
    ACTION = "action"


class RecordError(Refusal):
    """A record that cannot be read or played back: ``reason`` and ``params`` say why,
    and a refused or unreadable action keeps its ``cause``."""

    reason: Unplayable

    def __init__(
        self,
        reason: Unplayable,
        *,
        number: int = 0,
        item: object = None,
        cause: Exception | None = None,
        **params: object,
    ) -> None:
        super().__init__(reason, **params)
        self.number = number
        self.item = item
        self.cause = cause

    def __str__(self) -> str:
        cause = f": {self.cause}" if self.cause is not None else ""
        return super().__str__() + cause


@dataclass(frozen=True)
class Replay:
    hand: Hand
    #: The result the record claims.
    recorded: dict[str, Any] | None

    @property
    def matches(self) -> bool:
        return self.hand.result_json() == self.recorded


def replay(record: Any, config: EngineConfig) -> Replay:
    """Play a record back under ``config`` (its fingerprint must match the record's)."""
    if not isinstance(record, dict) or record.get("record") != RECORD_FORMAT:
        raise RecordError(Unplayable.NOT_A_RECORD, format=RECORD_FORMAT)
    if record.get("fingerprint") != config.fingerprint:
        raise RecordError(
            Unplayable.OTHER_RULES, recorded=record.get("fingerprint"), given=config.fingerprint
        )
    if "round" in record:  # a pairing of a shared deck: play its whole round back
        return _replay_round(record, config)
    try:
        deck = parse_cards(record["deck"], size=52)
        hand = Hand(config, int(record["dealer"]), deck, seed=record.get("seed"))
    except (KeyError, TypeError, ValueError, CardError) as error:
        raise RecordError(Unplayable.DEAL, cause=error) from None
    for number, item in enumerate(record.get("actions", []), 1):
        try:
            action = Action.from_json(item)
            hand.apply(action, seat=item.get("seat"))
        except (IllegalAction, ValueError, CardError, AttributeError) as error:
            raise RecordError(Unplayable.ACTION, number=number, item=item, cause=error) from None
    return Replay(hand, record.get("result"))


def _replay_round(record: dict[str, Any], config: EngineConfig) -> Replay:
    context = record["round"]
    try:
        round_ = SharedDeck.replay(config, int(record.get("seed") or 0), context)
        hand = round_.hands[int(context["pairing"])]
    except (IllegalAction, KeyError, TypeError, ValueError, CardError, IndexError) as error:
        raise RecordError(Unplayable.DEAL, cause=error) from None
    return Replay(hand, record.get("result"))
