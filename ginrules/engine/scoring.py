"""Scoring one hand: who won it, how, and for how many points (as data: the words
are made in :mod:`ginrules.words.showdown`).

Glossary:

knock
    Ending the hand with deadwood within the knock limit; the knocker scores
    the difference in deadwood after the defender lays off.
gin
    Knocking with no deadwood at all: the gin bonus plus the defender's whole
    deadwood. Gin is never undercut, and nobody lays off on it.
big gin
    All eleven cards melded right after drawing, no discard: the big-gin bonus
    plus the defender's deadwood.
undercut
    The defender ends with as little deadwood as the knocker (ties count when
    the ruleset says so) or less: the defender scores the difference plus the
    undercut bonus.
dead hand
    The stock ran down with nobody knocking; nobody scores.
box
    A hand won; boxes are worth the box bonus each at the end of the game (or
    as they are won).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from ginrules.cards import Card
from ginrules.layoffs import Defense
from ginrules.melds import Arrangement
from ginrules.rules.compile import DoubleScope, EngineConfig


class HandEnd(StrEnum):
    """How a hand ended."""

    #: The knocker had less deadwood than the defender after lay-offs.
    KNOCK = "knock"
    #: The knocker melded every card.
    GIN = "gin"
    #: All eleven cards melded after drawing.
    BIG_GIN = "big_gin"
    #: The defender matched or beat the knocker's deadwood.
    UNDERCUT = "undercut"
    #: The stock ran out; nobody scores.
    DEAD = "dead"


@dataclass(frozen=True, slots=True)
class HandScore:
    """The points of one hand, itemised."""

    end: HandEnd
    #: True when the knocker won (knock, gin, big gin), False on an undercut, None when dead.
    knocker_wins: bool | None
    #: The deadwood difference (or the defender's whole deadwood after gin).
    deadwood_points: int
    #: The gin, big-gin or undercut bonus.
    bonus: int
    #: 2 when a spade upcard doubles this hand (Oklahoma), else 1.
    multiplier: int
    #: Points the winner scores: doubled deadwood points, and the bonus when the scope says.
    points: int
    #: Boxes the winner earns: 1, 2 when spades double boxes too, 0 for a dead hand.
    boxes: int

    knocker_deadwood: int = 0
    defender_deadwood: int = 0

    def to_json(self) -> dict[str, Any]:
        return {
            "outcome": self.end.value,
            "points": self.points,
            "deadwood_points": self.deadwood_points,
            "bonus": self.bonus,
            "multiplier": self.multiplier,
            "boxes": self.boxes,
        }


DEAD_SCORE = HandScore(HandEnd.DEAD, None, 0, 0, 1, 0, 0)


def score_hand(
    config: EngineConfig,
    knocker_deadwood: int,
    defender_deadwood: int,
    *,
    big_gin: bool = False,
    upcard: Card | None = None,
    declared: bool = True,
) -> HandScore:
    """Score a showdown from the two final deadwood counts (after lay-offs).

    ``declared`` is False for a knock with no deadwood the player did not call
    gin: under ``gin_must_be_declared`` it scores as a plain knock."""
    if big_gin:
        if config.big_gin_bonus is None:
            raise ValueError("big gin is not played under this ruleset")
        end, wins, base, bonus = HandEnd.BIG_GIN, True, defender_deadwood, config.big_gin_bonus
    elif knocker_deadwood == 0 and (declared or not config.gin_must_be_declared):
        end, wins, base, bonus = HandEnd.GIN, True, defender_deadwood, config.gin_bonus
    elif defender_deadwood < knocker_deadwood or (
        config.undercut_on_tie and defender_deadwood == knocker_deadwood
    ):
        end, wins = HandEnd.UNDERCUT, False
        base, bonus = knocker_deadwood - defender_deadwood, config.undercut_bonus
    else:
        end, wins, base, bonus = HandEnd.KNOCK, True, defender_deadwood - knocker_deadwood, 0
    # A tie that is no undercut (undercut_on_tie false) is a knock worth nothing: the
    # knocker wins the hand but earns no box, and a player whose only wins were worth
    # nothing is still shut out (the shutout looks at points).
    multiplier, boxes = 1, 0 if end is HandEnd.KNOCK and base == 0 else 1
    points = base + bonus
    if config.spades_doubled(upcard):
        multiplier = 2
        scope = config.spades_double
        points = 2 * base + (bonus if scope is DoubleScope.HAND_POINTS else 2 * bonus)
        if scope is DoubleScope.WITH_BOXES:
            boxes *= 2
    return HandScore(
        end, wins, base, bonus, multiplier, points, boxes, knocker_deadwood, defender_deadwood
    )


@dataclass(frozen=True, slots=True)
class Showdown:
    """Everything laid on the table at the end of a hand that was not dead."""

    knocker: int
    #: The knocker's face-down discard (None after big gin).
    knock_discard: Card | None
    #: The melds the knocker showed, and the deadwood left.
    knocker_arrangement: Arrangement
    #: The defender's own melds, lay-offs and deadwood left.
    defense: Defense
    score: HandScore

    @property
    def winner(self) -> int:
        return self.knocker if self.score.knocker_wins else 1 - self.knocker

    def to_json(self) -> dict[str, Any]:
        return {
            "knocker": self.knocker,
            "knock_discard": None if self.knock_discard is None else str(self.knock_discard),
            "knocker_melds": self.knocker_arrangement.to_json(),
            "defender": self.defense.to_json(),
            **self.score.to_json(),
        }
