"""The score pad: a game's hands entered one by one, and everything that follows from them.

A score pad knows nothing of cards, seeds or bots. It takes the result of
each hand as a real table reports it (who won, how, for how many points) and
keeps what the paper pad keeps: each game's running points and boxes, who has
won, the settlement with its bonuses, and whose deal it is next (and who sits
out, or who plays whom). Everything is computed from the list of entries
alone, so undoing a hand is dropping the last entry and correcting hand *k*
is recomputing from the corrected list.

One class per format, chosen from the configuration by :func:`new_score_pad`:

- :class:`TwoPlayerPad`: one game to the target.
- :class:`HollywoodPad`: three games at once; a player's first hand win is
  entered in game 1, the second in games 1-2, the third and later in all
  three, finished games taking no more; it ends when all are finished.
- :class:`PartnershipPad`: two teams of two (seats 0 and 2 against 1 and 3);
  each hand is two separate two-player hands, one per pairing, opponents
  switch every hand, and the two results are netted into one team score.
- :class:`ThreeHandedPad`: the dealer sits out each hand; the other two play.

:class:`~ginrules.engine.match.Match` deals and seeds hands for bots and
wraps a score pad; a live table feeds one directly.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, ClassVar, Final

from ginrules.engine.scoreboard import GameResult, Scoreboard
from ginrules.engine.scoring import HandEnd
from ginrules.refusal import Refusal
from ginrules.rules.compile import DeadHandDealer, EngineConfig, FormatType, NextDealer

#: A runaway guard: no real game lasts this many hands.
MAX_HANDS: Final = 2000

#: Partnership pairings by hand parity: partners sit opposite (0 & 2 against 1 & 3).
PAIRINGS: Final = (((0, 1), (2, 3)), ((0, 3), (2, 1)))


class PadProblem(StrEnum):
    """Why an entry does not fit the pad (the words are made in :mod:`ginrules.words`)."""

    #: The game (or match) is over and takes no more hands.
    FINISHED = "finished"
    #: The entry reports a different number of hands than are played at once.
    HAND_COUNT = "hand_count"
    #: The winner named does not play this hand.
    WINNER_NOT_PLAYING = "winner_not_playing"
    #: Points or boxes below zero.
    NEGATIVE = "negative"
    #: A dead hand with points, or a won hand whose outcome says dead.
    DEAD_WITH_WINNER = "dead_with_winner"
    #: No hand with that number.
    NO_SUCH_ENTRY = "no_such_entry"
    #: More hands than any real game lasts.
    RUNAWAY = "runaway"
    #: The first dealers given do not fit the format.
    FIRST_DEALER = "first_dealer"


class ScorePadError(Refusal):
    """An entry the pad refuses; ``problem`` and ``params`` say why, as data."""

    reason: PadProblem

    def __init__(self, problem: PadProblem, **params: object) -> None:
        super().__init__(problem, **params)

    @property
    def problem(self) -> PadProblem:
        return self.reason


@dataclass(frozen=True, slots=True)
class HandReport:
    """The result of one two-player hand, as the table reports it."""

    #: The winning table seat, or None for a dead hand.
    winner: int | None
    points: int = 0
    #: Boxes the winner earns: 1, 2 when a spade upcard doubles boxes, 0 for a dead hand.
    boxes: int = 1
    end: HandEnd = HandEnd.KNOCK

    @classmethod
    def dead(cls) -> HandReport:
        return cls(None, 0, 0, HandEnd.DEAD)

    def to_json(self) -> dict[str, Any]:
        return {
            "winner": self.winner,
            "points": self.points,
            "boxes": self.boxes,
            "end": self.end.value,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> HandReport:
        return cls(data["winner"], data["points"], data["boxes"], HandEnd(data["end"]))


@dataclass(frozen=True, slots=True)
class Seating:
    """One two-player hand to be played: the table seats at hand seats 0 and 1, and the dealer
    as a hand seat (0 or 1)."""

    seats: tuple[int, int]
    dealer: int

    @property
    def dealer_seat(self) -> int:
        return self.seats[self.dealer]


@dataclass(frozen=True, slots=True)
class NextDeal:
    """Who plays the next hand: one seating (two for a partnership), and who sits out."""

    seatings: tuple[Seating, ...]
    #: The table seat sitting out (three-handed: the dealer), else None.
    sitting_out: int | None = None


@dataclass(frozen=True, slots=True)
class PadEntry:
    """One hand of the game: the two-player hands it consists of (two in a partnership),
    with the seatings they were played at."""

    reports: tuple[HandReport, ...]
    seatings: tuple[Seating, ...] = field(default=(), compare=False)

    def to_json(self) -> dict[str, Any]:
        return {
            "hands": [
                {**report.to_json(), "seats": list(s.seats), "dealer": s.dealer_seat}
                for report, s in zip(self.reports, self.seatings, strict=False)
            ]
        }


@dataclass(frozen=True, slots=True)
class GameScore:
    """One game's score at a moment: immutable, for events and pages."""

    points: tuple[int, ...]
    boxes: tuple[int, ...]
    hands: int
    target: int
    winner: int | None

    @property
    def finished(self) -> bool:
        return self.winner is not None


@dataclass(frozen=True, slots=True)
class PadSnapshot:
    """The whole pad's score at a moment (three games in Hollywood)."""

    format: FormatType
    games: tuple[GameScore, ...]
    #: A partnership's last hand netted for team 0 (negative: team 1 won it), else None.
    net: int | None = None


class ScorePad:
    """The common pad: entries, the dealer rule, undo and edit by recomputation.

    ``first_dealers`` are the table seats that won the cut for the first deal:
    one for two-player, Hollywood and three-handed play, one per pairing for a
    partnership (see :attr:`cut_groups`).
    """

    players: ClassVar[int] = 2
    #: The groups of table seats that cut for the first deal, one dealer each.
    cut_groups: ClassVar[tuple[tuple[int, ...], ...]] = ((0, 1),)

    def __init__(self, config: EngineConfig, first_dealers: Sequence[int]) -> None:
        if len(first_dealers) != len(self.cut_groups) or any(
            dealer not in group
            for dealer, group in zip(first_dealers, self.cut_groups, strict=False)
        ):
            raise ScorePadError(PadProblem.FIRST_DEALER, first_dealers=tuple(first_dealers))
        self.config = config
        self.first_dealers = tuple(first_dealers)
        self.entries: list[PadEntry] = []
        self._start()

    # Formats implement these.
    def _start(self) -> None:
        """Set the empty pad's state."""
        raise NotImplementedError

    def next_deal(self) -> NextDeal:
        """Who plays the next hand and who deals."""
        raise NotImplementedError

    def next_first_dealers(self) -> tuple[int, ...]:
        """Who deals first (one seat per cut group) in a game that follows this one:
        the dealer these rules give the hand after the last."""
        raise NotImplementedError

    def _enter(self, reports: Sequence[HandReport], seatings: Sequence[Seating]) -> None:
        """Enter one checked hand into the running state."""
        raise NotImplementedError

    @property
    def boards(self) -> list[Scoreboard]:
        """Each game's scoreboard (three in Hollywood)."""
        raise NotImplementedError

    # The shared mechanism.
    @property
    def finished(self) -> bool:
        return all(board.finished for board in self.boards)

    def results(self) -> list[GameResult]:
        """Each game's result; every game must be finished."""
        return [board.result() for board in self.boards]

    def add(self, entry: PadEntry | HandReport) -> None:
        """Enter the next hand (``entries[-1]`` then holds it with its seatings).
        Nothing changes when the entry is refused (:class:`ScorePadError`)."""
        reports = (entry,) if isinstance(entry, HandReport) else entry.reports
        if self.finished:
            raise ScorePadError(PadProblem.FINISHED, hands=len(self.entries))
        if len(self.entries) >= MAX_HANDS:
            raise ScorePadError(PadProblem.RUNAWAY, hands=MAX_HANDS)
        seatings = self.next_deal().seatings
        if len(reports) != len(seatings):
            raise ScorePadError(PadProblem.HAND_COUNT, expected=len(seatings), got=len(reports))
        for report, seating in zip(reports, seatings, strict=True):
            _check_report(report, seating)
        recorded = PadEntry(tuple(reports), seatings)
        self._enter(recorded.reports, seatings)
        self.entries.append(recorded)

    def undo(self) -> PadEntry:
        """Remove the last hand entered and return it."""
        if not self.entries:
            raise ScorePadError(PadProblem.NO_SUCH_ENTRY, index=0)
        last = self.entries[-1]
        self._rebuild(self.entries[:-1])
        return last

    def replace(self, index: int, entry: PadEntry | HandReport) -> None:
        """Correct hand ``index`` (0-based) and recompute everything after it. Nothing
        changes when the corrected list is refused."""
        if not 0 <= index < len(self.entries):
            raise ScorePadError(PadProblem.NO_SUCH_ENTRY, index=index)
        edited: list[PadEntry | HandReport] = list(self.entries)
        edited[index] = entry
        self._rebuild(edited)

    def _rebuild(self, entries: Sequence[PadEntry | HandReport]) -> None:
        fresh = type(self)(self.config, self.first_dealers)
        for entry in entries:
            fresh.add(entry)
        self.__dict__.update(fresh.__dict__)

    def next_dealer(
        self, dealer: int, winner: int | None, loser: int | None, seats: Sequence[int]
    ) -> int:
        """The next dealer among ``seats`` after a hand dealt by ``dealer``, by the dealer knobs."""
        config = self.config
        following = seats[(seats.index(dealer) + 1) % len(seats)]
        if winner is None or loser is None:
            return dealer if config.after_dead_hand is DeadHandDealer.SAME_DEALER else following
        if config.next_dealer is NextDealer.LOSER:
            return loser
        if config.next_dealer is NextDealer.WINNER:
            return winner
        return following

    def snapshot(self) -> PadSnapshot:
        """The score now, frozen."""
        return PadSnapshot(
            self.config.format,
            tuple(
                GameScore(
                    tuple(board.points), tuple(board.boxes), board.hands, board.target, board.winner
                )
                for board in self.boards
            ),
            getattr(self, "net", None),
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "format": self.config.format.value,
            "first_dealers": list(self.first_dealers),
            "entries": [entry.to_json() for entry in self.entries],
            "games": [
                {
                    "points": list(board.points),
                    "boxes": list(board.boxes),
                    "hands": board.hands,
                    "winner": board.winner,
                }
                for board in self.boards
            ],
            "finished": self.finished,
        }


def _check_report(report: HandReport, seating: Seating) -> None:
    if report.points < 0 or report.boxes < 0:
        raise ScorePadError(PadProblem.NEGATIVE, points=report.points, boxes=report.boxes)
    if report.winner is None:
        if report.points or report.end is not HandEnd.DEAD:
            raise ScorePadError(PadProblem.DEAD_WITH_WINNER, points=report.points)
        return
    if report.end is HandEnd.DEAD:
        raise ScorePadError(PadProblem.DEAD_WITH_WINNER, points=report.points)
    if report.winner not in seating.seats:
        raise ScorePadError(
            PadProblem.WINNER_NOT_PLAYING, winner=report.winner, seats=seating.seats
        )


def _loser(report: HandReport, seating: Seating) -> int | None:
    if report.winner is None:
        return None
    return seating.seats[1 - seating.seats.index(report.winner)]


class TwoPlayerPad(ScorePad):
    """One game to the target between table seats 0 and 1."""

    def _start(self) -> None:
        self.board = Scoreboard(self.config, 2)
        (self.dealer,) = self.first_dealers

    @property
    def boards(self) -> list[Scoreboard]:
        return [self.board]

    def next_deal(self) -> NextDeal:
        return NextDeal((Seating((0, 1), self.dealer),))

    def next_first_dealers(self) -> tuple[int, ...]:
        return (self.dealer,)

    def _enter(self, reports: Sequence[HandReport], seatings: Sequence[Seating]) -> None:
        ((report, seating),) = zip(reports, seatings, strict=True)
        self._score(report)
        self.dealer = self.next_dealer(
            seating.dealer_seat, report.winner, _loser(report, seating), (0, 1)
        )

    def _score(self, report: HandReport) -> None:
        if report.winner is None:
            self.board.record_dead_hand()
        else:
            self.board.record(report.winner, report.points, report.boxes)


class HollywoodPad(TwoPlayerPad):
    """Three games at once, entered by each player's count of hands won."""

    def _start(self) -> None:
        super()._start()
        self.games = [Scoreboard(self.config, 2) for _ in range(self.config.games)]
        self.wins = [0, 0]
        #: The games each player has opened (entered a first score in), in order.
        self.opened: list[list[Scoreboard]] = [[], []]

    @property
    def boards(self) -> list[Scoreboard]:
        return self.games

    def _score(self, report: HandReport) -> None:
        if report.winner is None:
            for board in self.games:
                board.record_dead_hand()
            return
        self.wins[report.winner] += 1
        for board in self.entered_in(report.winner):
            board.record(report.winner, report.points, report.boxes)

    def entered_in(self, player: int) -> list[Scoreboard]:
        """Open the next game for ``player``'s new win; the open games it is entered in.

        Each win opens one more game: the first win counts in game 1, the
        second in games 1-2, the third and later in all three. A game that
        finished before the player scored in it is skipped, so a player shut
        out of game 1 enters their first win in the next game in progress
        (Hoyle).
        """
        opened = self.opened[player]
        fresh = [b for b in self.games if not b.finished and all(b is not o for o in opened)]
        if fresh:
            opened.append(fresh[0])
        return [board for board in opened if not board.finished]


class PartnershipPad(ScorePad):
    """Teams 0 (seats 0 and 2) and 1 (seats 1 and 3), netted hand by hand."""

    players = 4
    cut_groups = PAIRINGS[0]

    def _start(self) -> None:
        self.board = Scoreboard(self.config, 2)
        #: Which team deals in each pairing.
        self.dealing_team = [dealer % 2 for dealer in self.first_dealers]
        #: The last hand's net score for team 0 (negative: team 1 won it).
        self.net = 0

    @property
    def boards(self) -> list[Scoreboard]:
        return [self.board]

    def next_deal(self) -> NextDeal:
        pairs = PAIRINGS[len(self.entries) % 2]
        return NextDeal(
            tuple(
                Seating(pair, 0 if pair[0] % 2 == team else 1)
                for pair, team in zip(pairs, self.dealing_team, strict=True)
            )
        )

    def next_first_dealers(self) -> tuple[int, ...]:
        return tuple(
            group[0] if group[0] % 2 == team else group[1]
            for group, team in zip(self.cut_groups, self.dealing_team, strict=True)
        )

    def _enter(self, reports: Sequence[HandReport], seatings: Sequence[Seating]) -> None:
        net = 0
        for report in reports:
            if report.winner is not None:
                net += report.points if report.winner % 2 == 0 else -report.points
        self.net = net
        if net == 0:
            self.board.record_dead_hand()
            winning_team = losing_team = None
        else:
            winning_team = 0 if net > 0 else 1
            losing_team = 1 - winning_team
            self.board.record(winning_team, abs(net))
        for slot, team in enumerate(self.dealing_team):
            self.dealing_team[slot] = self.next_dealer(team, winning_team, losing_team, (0, 1))


class ThreeHandedPad(ScorePad):
    """Three players; the dealer sits out and deals to the other two."""

    players = 3
    cut_groups = ((0, 1, 2),)

    def _start(self) -> None:
        self.board = Scoreboard(self.config, 3)
        (self.dealer,) = self.first_dealers

    @property
    def boards(self) -> list[Scoreboard]:
        return [self.board]

    def next_deal(self) -> NextDeal:
        # The player on the dealer's left plays first, as the non-dealer does heads-up.
        first = (self.dealer + 1) % 3
        second = (self.dealer + 2) % 3
        return NextDeal((Seating((first, second), 1),), sitting_out=self.dealer)

    def next_first_dealers(self) -> tuple[int, ...]:
        return (self.dealer,)

    def _enter(self, reports: Sequence[HandReport], seatings: Sequence[Seating]) -> None:
        ((report, seating),) = zip(reports, seatings, strict=True)
        if report.winner is None:
            self.board.record_dead_hand()
        else:
            self.board.record(report.winner, report.points, report.boxes)
        self.dealer = self.next_dealer(
            self.dealer, report.winner, _loser(report, seating), (0, 1, 2)
        )


PADS: Final[dict[FormatType, type[ScorePad]]] = {
    FormatType.TWO_PLAYER: TwoPlayerPad,
    FormatType.HOLLYWOOD: HollywoodPad,
    FormatType.PARTNERSHIP: PartnershipPad,
    FormatType.THREE_HANDED: ThreeHandedPad,
}


def score_pad_class(config: EngineConfig) -> type[ScorePad]:
    """The pad class for the configuration's format."""
    return PADS[config.format]


def new_score_pad(config: EngineConfig, first_dealers: Sequence[int]) -> ScorePad:
    """An empty score pad for the configuration's format; ``first_dealers`` won the cut."""
    return score_pad_class(config)(config, first_dealers)
