"""What melds are made of: the ace rule, card values, melds and arrangements."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Final

from ginrules.cards import Card, cards_to_mask


class AceMode(StrEnum):
    """Where an ace may stand in a run."""

    LOW = "low"
    """A-2-3 only; Q-K-A and K-A-2 are not runs (the published rule)."""
    HIGH_OR_LOW = "high_or_low"
    """A-2-3 or Q-K-A, but a run never turns the corner (K-A-2)."""
    ROUND_THE_CORNER = "round_the_corner"
    """Runs wrap: Q-K-A, K-A-2 and A-2-3 are all runs."""


@dataclass(frozen=True)
class AceRule:
    """The ace knob: its place in runs and its deadwood value."""

    mode: AceMode = AceMode.LOW
    value: int = 1

    def card_value(self, card: Card) -> int:
        """Deadwood points of one card under this rule."""
        return rank_value(card.rank, self.value)


CLASSIC_ACES: Final = AceRule()


def rank_value(rank: int, ace_value: int = 1) -> int:
    """Deadwood points of a rank (0 = ace ... 12 = king)."""
    if rank == 0:
        return ace_value
    return min(rank + 1, 10)


class MeldKind(StrEnum):
    SET = "set"
    RUN = "run"


@dataclass(frozen=True)
class Meld:
    """A set or a run. A run's cards are in sequence from its low end.

    ``start`` is the run's first position: a rank (0 = ace ... 12 = king), or
    13 for an ace played high. With ``round_the_corner`` positions wrap modulo 13.
    """

    kind: MeldKind
    cards: tuple[Card, ...]
    start: int = 0

    def __str__(self) -> str:
        return " ".join(str(c) for c in self.cards)

    @property
    def mask(self) -> int:
        return cards_to_mask(self.cards)


@dataclass(frozen=True)
class Arrangement:
    """A hand split into melds and unmatched cards (the deadwood)."""

    melds: tuple[Meld, ...]
    unmatched: tuple[Card, ...]
    deadwood: int

    def to_json(self) -> dict[str, object]:
        return {
            "deadwood": self.deadwood,
            "melds": [[str(c) for c in meld.cards] for meld in self.melds],
            "unmatched": [str(c) for c in self.unmatched],
        }


@dataclass(frozen=True)
class DiscardAnalysis:
    """An 11-card hand: deadwood now, and what each discard would leave."""

    arrangement: Arrangement
    #: Deadwood of the ten cards left after each possible discard.
    after_discard: tuple[tuple[Card, int], ...]
    best_discard_deadwood: int
    best_discards: tuple[Card, ...]

    def knock_discards(self, knock_limit: int) -> tuple[Card, ...]:
        """Discards that leave deadwood within ``knock_limit``."""
        return tuple(card for card, dead in self.after_discard if dead <= knock_limit)
