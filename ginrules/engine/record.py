"""Hand records: a hand as JSON, and playing a record back to check its result.

A record holds the ruleset's name and fingerprint, the seed, the dealer, the
whole deck order, every action and the result. :func:`replay` deals the same
deck under the same configuration, applies the actions one by one (each must
be legal) and compares the result with the one recorded.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from ginrules.cards import CardError, parse_cards
from ginrules.engine.actions import Action
from ginrules.engine.hand import Hand, IllegalAction
from ginrules.rules.compile import EngineConfig

RECORD_FORMAT: Final = "ginrules-hand/1"


class RecordError(ValueError):
    """A record that cannot be read or played back; the message says where.

    A refused action keeps the engine's refusal as ``cause``, with its ``number``
    and ``item``, so the words for people can be made from the data.
    """

    def __init__(
        self, message: str, *, number: int = 0, item: object = None, cause: Exception | None = None
    ) -> None:
        super().__init__(message)
        self.number = number
        self.item = item
        self.cause = cause


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
        raise RecordError(f'not a ginrules hand record (expected "record": "{RECORD_FORMAT}")')
    if record.get("fingerprint") != config.fingerprint:
        raise RecordError(
            f"the record was played under rules {record.get('fingerprint')}, not"
            f" {config.fingerprint}: replay it under the same ruleset"
        )
    try:
        deck = parse_cards(record["deck"], size=52)
        hand = Hand(config, int(record["dealer"]), deck, seed=record.get("seed"))
    except (KeyError, TypeError, ValueError, CardError) as error:
        raise RecordError(f"the record's deal cannot be read: {error}") from None
    for number, item in enumerate(record.get("actions", []), 1):
        try:
            action = Action.from_json(item)
            hand.apply(action, seat=item.get("seat"))
        except (IllegalAction, ValueError, CardError, AttributeError) as error:
            raise RecordError(
                f"action {number} ({item}): {error}", number=number, item=item, cause=error
            ) from None
    return Replay(hand, record.get("result"))
