"""A hand as a card table reports it, scored by the engine's own rules.

A live table enters each hand one of two ways, and both end in the score
pad's :class:`~ginrules.engine.scorepad.HandReport` through the engine's own
scoring (:func:`~ginrules.engine.scoring.score_hand` and
:func:`~ginrules.engine.settle.settle`); there is no second scoring here.

- :class:`CountsEntry`: how the hand ended (knock, gin, big gin or a dead
  hand), who ended it, the two final deadwood counts (the defender's after
  lay-offs), and the first upcard where the rules need it.
- :class:`CardsEntry`: the knocker's cards (ten, eleven for big gin) and the
  defender's ten; the engine finds the melds, lay-offs and the result.

Whoever ends the hand is the *knocker*, the other player of that two-player
hand the *defender*; an undercut is never entered, it is what the counts say.
An entry that cannot be (a knock over this hand's limit, gin with deadwood,
a count no hand of this size can hold) is refused with an
:class:`EntryError` and changes nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from dataclasses import field as dataclass_field
from enum import StrEnum
from functools import cache

from ginrules.cards import Card
from ginrules.engine.scorepad import HandReport, Seating
from ginrules.engine.scoring import DEAD_SCORE, HandEnd, HandScore, Showdown, score_hand
from ginrules.engine.settle import settle
from ginrules.melds import rank_value
from ginrules.refusal import Refusal
from ginrules.rules.compile import EngineConfig


class EntryProblem(StrEnum):
    """Why a reported hand cannot be (the words are made in :mod:`ginrules.words`)."""

    #: The player named as ending the hand does not play it.
    NOT_PLAYING = "not_playing"
    #: Undercut is what the counts say, never how a hand is entered.
    UNDERCUT_ENTERED = "undercut_entered"
    #: A dead hand has nobody ending it and no counts.
    DEAD_WITH_COUNTS = "dead_with_counts"
    #: A knock, gin or big gin needs the player who ended it.
    NOBODY_ENDED = "nobody_ended"
    #: A deadwood count below zero or above what a hand of this size can hold.
    NO_SUCH_COUNT = "no_such_count"
    #: Gin or big gin with deadwood left.
    GIN_WITH_DEADWOOD = "gin_with_deadwood"
    #: Big gin under rules that do not play it.
    NO_BIG_GIN = "no_big_gin"
    #: Deadwood above this hand's knock limit (Oklahoma: set by the first upcard).
    OVER_THE_LIMIT = "over_the_limit"
    #: Oklahoma sets each hand's knock limit from the first upcard: it must be given.
    UPCARD_NEEDED = "upcard_needed"


class EntryError(Refusal):
    """A reported hand that cannot be; ``reason`` and ``params`` say why, as data.
    ``field`` names the entry's field at fault, for a form to show it there."""

    reason: EntryProblem

    def __init__(self, problem: EntryProblem, *, field: str, **params: object) -> None:
        super().__init__(problem, field=field, **params)
        self.field = field
        #: Which entry of the hand (a partnership enters two), once a log knows it.
        self.entry = 0


@dataclass(frozen=True, slots=True)
class CountsEntry:
    """A hand reported by its outcome and the two final deadwood counts."""

    #: KNOCK, GIN, BIG_GIN or DEAD (an undercut is a knock the counts decide).
    end: HandEnd
    #: The table seat that knocked or went gin (None for a dead hand).
    ended_by: int | None = None
    knocker_deadwood: int = 0
    #: The defender's deadwood after lay-offs.
    defender_deadwood: int = 0
    #: The hand's first upcard (Oklahoma needs it: the limit, and a spade may double).
    upcard: Card | None = None


@dataclass(frozen=True, slots=True)
class CardsEntry:
    """A hand reported card by card: the engine melds, lays off and scores it."""

    #: The table seat that knocked or went gin.
    ended_by: int
    #: The knocker's cards after the face-down discard (all eleven for big gin).
    knocker: tuple[Card, ...]
    defender: tuple[Card, ...]
    upcard: Card | None = None
    declared: bool = True
    #: The melds the knocker showed, when they chose them (else the engine's best).
    knocker_melds: tuple[tuple[Card, ...], ...] | None = None


@dataclass(frozen=True, slots=True)
class ScoredEntry:
    """A reported hand, scored: the engine's itemised score and the pad's report."""

    score: HandScore
    report: HandReport
    #: The knocker as a table seat (None for a dead hand).
    knocker: int | None
    #: How the engine settled a hand entered card by card: melds, lay-offs, score.
    showdown: Showdown | None = dataclass_field(default=None, compare=False)


def most_deadwood(config: EngineConfig) -> int:
    """The most deadwood a hand of ``config.hand_size`` cards can hold: no rank gives
    more than two unmatched cards (three would be a set), and two of every rank can
    all be unmatched (one suit pair on odd ranks, the other on even ranks: no run)."""
    return _most_deadwood(config.hand_size, config.ace.value)


@cache
def _most_deadwood(hand_size: int, ace_value: int) -> int:
    values = sorted(
        (rank_value(rank, ace_value) for rank in range(13) for _ in (0, 1)), reverse=True
    )
    return sum(values[:hand_size])


def score_counts(config: EngineConfig, seating: Seating, entry: CountsEntry) -> ScoredEntry:
    """Score a hand reported by its counts, by the engine's own rules."""
    if entry.end is HandEnd.UNDERCUT:
        raise EntryError(EntryProblem.UNDERCUT_ENTERED, field="end")
    if entry.end is HandEnd.DEAD:
        if entry.ended_by is not None or entry.knocker_deadwood or entry.defender_deadwood:
            raise EntryError(EntryProblem.DEAD_WITH_COUNTS, field="end")
        return ScoredEntry(DEAD_SCORE, HandReport.dead(), None)
    knocker = _knocker(seating, entry.ended_by)
    _check_upcard(config, entry.upcard)
    most = most_deadwood(config)
    for field, count in (
        ("knocker_deadwood", entry.knocker_deadwood),
        ("defender_deadwood", entry.defender_deadwood),
    ):
        if not 0 <= count <= most:
            raise EntryError(
                EntryProblem.NO_SUCH_COUNT,
                field=field,
                count=count,
                most=most,
                cards=config.hand_size,
            )
    big_gin = entry.end is HandEnd.BIG_GIN
    if big_gin and config.big_gin_bonus is None:
        raise EntryError(EntryProblem.NO_BIG_GIN, field="end")
    if entry.end is not HandEnd.KNOCK and entry.knocker_deadwood:
        raise EntryError(
            EntryProblem.GIN_WITH_DEADWOOD,
            field="knocker_deadwood",
            deadwood=entry.knocker_deadwood,
        )
    limit = config.knock_limit_for(entry.upcard)
    if entry.knocker_deadwood > limit:
        raise EntryError(
            EntryProblem.OVER_THE_LIMIT,
            field="knocker_deadwood",
            deadwood=entry.knocker_deadwood,
            limit=limit,
            upcard=entry.upcard if config.oklahoma else None,
        )
    # A knock reported with no deadwood is gin, unless the rules want gin said aloud:
    # then only a hand entered as gin was declared, and a silent zero knock is a knock.
    score = score_hand(
        config,
        entry.knocker_deadwood,
        entry.defender_deadwood,
        big_gin=big_gin,
        upcard=entry.upcard,
        declared=entry.end is not HandEnd.KNOCK,
    )
    return ScoredEntry(score, _report(seating, knocker, score), knocker)


def score_cards(config: EngineConfig, seating: Seating, entry: CardsEntry) -> ScoredEntry:
    """Settle a hand reported card by card (melds, lay-offs, score) by the engine.
    Raises :class:`~ginrules.engine.settle.SettleError` for cards that cannot be."""
    knocker = _knocker(seating, entry.ended_by)
    if entry.knocker_melds is None:
        showdown = settle(
            config,
            knocker=entry.knocker,
            defender=entry.defender,
            upcard=entry.upcard,
            declared=entry.declared,
        )
    else:
        melded = {card for meld in entry.knocker_melds for card in meld}
        showdown = settle(
            config,
            knocker_melds=entry.knocker_melds,
            knocker_deadwood=tuple(c for c in entry.knocker if c not in melded),
            defender=entry.defender,
            upcard=entry.upcard,
            declared=entry.declared,
        )
    return ScoredEntry(showdown.score, _report(seating, knocker, showdown.score), knocker, showdown)


def _knocker(seating: Seating, ended_by: int | None) -> int:
    if ended_by is None:
        raise EntryError(EntryProblem.NOBODY_ENDED, field="ended_by")
    if ended_by not in seating.seats:
        raise EntryError(
            EntryProblem.NOT_PLAYING, field="ended_by", player=ended_by, seats=seating.seats
        )
    return ended_by


def _check_upcard(config: EngineConfig, upcard: Card | None) -> None:
    if config.oklahoma and upcard is None:
        raise EntryError(EntryProblem.UPCARD_NEEDED, field="upcard")


def _report(seating: Seating, knocker: int, score: HandScore) -> HandReport:
    defender = _other(seating.seats, knocker)
    winner = knocker if score.knocker_wins else defender
    return HandReport(winner, score.points, score.boxes, score.end)


def _other(seats: Sequence[int], seat: int) -> int:
    return seats[1] if seats[0] == seat else seats[0]
