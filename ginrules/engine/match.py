"""Matches: seeded deals for bots and simulations, scored on a score pad.

A :class:`Match` is a dealer: it cuts for the first deal and seeds each hand
from its own random generator. Everything about the score (points, boxes,
bonuses, who deals next, who sits out, who plays whom) is kept by the
format's :class:`~ginrules.engine.scorepad.ScorePad`, which a real table can
also feed directly. One thin class per format gives the pad's games by name:

- :class:`TwoPlayerGame`: one game to the target.
- :class:`HollywoodMatch`: three games at once (see :class:`HollywoodPad`).
- :class:`PartnershipGame`: two teams of two, each hand two pairings netted
  (each pairing on its own deck, or both from one shared deck: see
  :mod:`ginrules.engine.rounds`).
- :class:`ThreeHandedGame`: the dealer sits out each hand; the other two play.

A match is driven one hand at a time: :meth:`Match.deals` says which hands to
play next (players, dealer, seed); the caller plays them (bots, a person, or
a replay) and hands them back to :meth:`Match.record`.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, ClassVar, Final

from ginrules.engine.bots import Bot
from ginrules.engine.hand import Hand
from ginrules.engine.rounds import new_round
from ginrules.engine.scoreboard import GameResult, Scoreboard
from ginrules.engine.scorepad import (
    MAX_HANDS,
    HandReport,
    HollywoodPad,
    PadEntry,
    PadProblem,
    PartnershipPad,
    ScorePad,
    ScorePadError,
    score_pad_class,
)
from ginrules.engine.scoring import HandEnd
from ginrules.refusal import Refusal
from ginrules.rules.compile import EngineConfig, FirstDealer, FormatType

__all__ = [
    "MAX_HANDS",
    "Deal",
    "HandEntry",
    "HandOutcome",
    "HollywoodMatch",
    "Match",
    "MatchError",
    "MatchProblem",
    "PartnershipGame",
    "ThreeHandedGame",
    "TwoPlayerGame",
    "bot_rngs",
    "new_match",
]


class MatchProblem(StrEnum):
    """Why a match cannot go on (:mod:`ginrules.words.problems` words it)."""

    #: Results entered for a different number of hands than were dealt.
    HANDS_AS_DEALT = "hands_as_dealt"
    #: No winner after MAX_HANDS hands.
    RUNAWAY = "runaway"
    #: The wrong number of players for the format.
    PLAYERS = "players"


class MatchError(Refusal):
    """A match that cannot be played as configured: ``reason`` and ``params`` say why."""

    reason: MatchProblem

    def __init__(self, reason: MatchProblem, **params: object) -> None:
        super().__init__(reason, **params)


def bot_rngs(seed: int, players: int) -> list[random.Random]:
    """Each table seat's random generator for its bot, from the match seed: the one
    seeding rule, so a game replays the same however it is driven."""
    return [random.Random(seed * 7919 + seat + 1) for seat in range(players)]


@dataclass(frozen=True, slots=True)
class Deal:
    """One hand to play: which table seats sit at hand seats 0 and 1, who deals, the seed."""

    seats: tuple[int, int]
    #: The dealer, as a hand seat (0 or 1).
    dealer: int
    seed: int

    def hand(self, config: EngineConfig) -> Hand:
        return Hand.deal(config, self.dealer, self.seed)


@dataclass(frozen=True, slots=True)
class HandOutcome:
    """What a match needs to know of a finished hand (from :meth:`of`, or typed by a test)."""

    #: The winning hand seat (0 or 1), or None for a dead hand.
    winner: int | None
    points: int = 0
    boxes: int = 1
    end: HandEnd = HandEnd.KNOCK

    @classmethod
    def of(cls, hand: Hand) -> HandOutcome:
        score = hand.score()
        return cls(hand.winner, score.points, score.boxes, score.end)

    @classmethod
    def dead(cls) -> HandOutcome:
        return cls(None, 0, 0, HandEnd.DEAD)

    def report(self, deal: Deal) -> HandReport:
        """The same result with the winner as a table seat, for the score pad."""
        if self.winner is None:
            return HandReport.dead()
        return HandReport(deal.seats[self.winner], self.points, self.boxes, self.end)


@dataclass(frozen=True, slots=True)
class HandEntry:
    """A hand as the match saw it: the table seats, and who won what."""

    deal: Deal
    #: The winning table seat, or None for a dead hand.
    winner: int | None
    points: int
    end: HandEnd


class Match:
    """The dealer: a seeded cut, seeded hands, and the score pad that keeps the score."""

    players: ClassVar[int] = 2

    def __init__(self, config: EngineConfig, seed: int) -> None:
        self.config = config
        self.seed = seed
        self.rng = random.Random(seed)
        self.log: list[HandEntry] = []
        #: The deals handed out by the last :meth:`deals`, waiting for their results.
        self.issued: list[Deal] = []
        pad_class = score_pad_class(config)
        self.pad: ScorePad = pad_class(config, [self.cut(group) for group in pad_class.cut_groups])

    def deals(self) -> list[Deal]:
        """The hands to play next, with their seeds."""
        self.issued = [
            Deal(seating.seats, seating.dealer, self.hand_seed())
            for seating in self.pad.next_deal().seatings
        ]
        return self.issued

    def record(self, outcomes: Sequence[HandOutcome]) -> None:
        """Enter the hands of the last :meth:`deals`, in the same order."""
        if len(self.issued) != len(outcomes):
            raise MatchError(
                MatchProblem.HANDS_AS_DEALT, expected=len(self.issued), got=len(outcomes)
            )
        reports = [o.report(d) for d, o in zip(self.issued, outcomes, strict=True)]
        try:
            self.pad.add(PadEntry(tuple(reports)))
        except ScorePadError as error:
            if error.problem is PadProblem.RUNAWAY:
                raise MatchError(MatchProblem.RUNAWAY, hands=MAX_HANDS) from None
            raise
        for deal, report in zip(self.issued, reports, strict=True):
            self.log.append(HandEntry(deal, report.winner, report.points, report.end))
        self.issued = []

    @property
    def finished(self) -> bool:
        return self.pad.finished

    def results(self) -> list[GameResult]:
        """Each game's result (three for Hollywood)."""
        return self.pad.results()

    def hand_seed(self) -> int:
        return self.rng.getrandbits(63)

    def cut(self, seats: Sequence[int]) -> int:
        """Cut for the deal: the low (or high) card deals; equal ranks cut again."""
        while True:
            cards = self.rng.sample(range(52), len(seats))
            ranks = [card % 13 for card in cards]
            pick = (
                min(ranks) if self.config.first_dealer is FirstDealer.LOW_CARD_DEALS else max(ranks)
            )
            if ranks.count(pick) == 1:
                return seats[ranks.index(pick)]

    def play(
        self,
        players: Sequence[Bot],
        bot_seed: int | None = None,
        on_hand: Callable[[Hand], None] | None = None,
    ) -> list[GameResult]:
        """Play the whole match with ``players`` (one per table seat)."""
        if len(players) != self.players:
            raise MatchError(MatchProblem.PLAYERS, needed=self.players, got=len(players))
        rngs = bot_rngs(self.seed if bot_seed is None else bot_seed, self.players)
        while not self.finished:
            round_ = new_round(self.config, self.deals())
            round_.play(players, rngs)
            if on_hand is not None:
                for hand in round_.hands:
                    on_hand(hand)
            self.record([HandOutcome.of(hand) for hand in round_.hands])
        return self.results()


class TwoPlayerGame(Match):
    """One game to the target between table seats 0 and 1."""

    @property
    def board(self) -> Scoreboard:
        return self.pad.boards[0]


class HollywoodMatch(Match):
    """Three games at once, entered by each player's count of hands won."""

    pad: HollywoodPad

    @property
    def boards(self) -> list[Scoreboard]:
        return self.pad.boards


class PartnershipGame(Match):
    """Teams 0 (seats 0 and 2) and 1 (seats 1 and 3), netted hand by hand."""

    players = 4
    pad: PartnershipPad

    @property
    def board(self) -> Scoreboard:
        return self.pad.board

    @property
    def net(self) -> int:
        """The last hand's net score for team 0 (negative: team 1 won it)."""
        return self.pad.net


class ThreeHandedGame(Match):
    """Three players; the dealer sits out and deals to the other two."""

    players = 3

    @property
    def board(self) -> Scoreboard:
        return self.pad.boards[0]


FORMATS: Final[dict[FormatType, type[Match]]] = {
    FormatType.TWO_PLAYER: TwoPlayerGame,
    FormatType.HOLLYWOOD: HollywoodMatch,
    FormatType.PARTNERSHIP: PartnershipGame,
    FormatType.THREE_HANDED: ThreeHandedGame,
}


def new_match(config: EngineConfig, seed: int) -> Match:
    """The match the configuration's format plays."""
    return FORMATS[config.format](config, seed)


def results_json(results: Sequence[GameResult]) -> list[dict[str, Any]]:
    return [result.to_json() for result in results]
