"""Games and matches: who deals, who plays whom, and how hands are entered.

Each format is a small class over :class:`~ginrules.engine.scoreboard.Scoreboard`,
chosen from the configuration by :func:`new_match`:

- :class:`TwoPlayerGame`: one game to the target.
- :class:`HollywoodMatch`: three games at once; a player's first hand win is
  entered in game 1, the second in games 1-2, the third and later in all
  three, finished games taking no more; the match ends when all are finished.
- :class:`PartnershipGame`: two teams of two; each hand is two separate
  two-player hands (one per pairing, each with its own deck), opponents
  switch each hand, and the two results are netted into one team score.
- :class:`ThreeHandedGame`: the dealer sits out each hand; the other two play.

A match is driven one hand at a time: :meth:`Match.deals` says which hands to
play next (players, dealer, seed); the caller plays them (bots, a person, or
a replay) and hands them back to :meth:`Match.record`.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Final

from ginrules.engine.bots import Bot
from ginrules.engine.hand import Hand
from ginrules.engine.play import play_hand
from ginrules.engine.scoreboard import GameResult, Scoreboard
from ginrules.rules.compile import (
    DeadHandDealer,
    EngineConfig,
    FirstDealer,
    FormatType,
    NextDealer,
    PartnershipDeck,
)

#: A runaway guard: no real game lasts this many hands.
MAX_HANDS: Final = 2000


class MatchError(ValueError):
    """A match that cannot be played as configured."""


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
    end: str = "knock"

    @classmethod
    def of(cls, hand: Hand) -> HandOutcome:
        score = hand.score()
        return cls(hand.winner, score.points, score.boxes, score.end.value)

    @classmethod
    def dead(cls) -> HandOutcome:
        return cls(None, 0, 0, "dead")


@dataclass(frozen=True, slots=True)
class HandEntry:
    """A hand as the match saw it: the table seats, and who won what."""

    deal: Deal
    #: The winning table seat, or None for a dead hand.
    winner: int | None
    points: int
    end: str


class Match:
    """The common driver: seeded cuts and hand seeds, the dealer rule, the hand log."""

    players: ClassVar[int] = 2

    def __init__(self, config: EngineConfig, seed: int) -> None:
        self.config = config
        self.seed = seed
        self.rng = random.Random(seed)
        self.log: list[HandEntry] = []
        #: The deals handed out by the last :meth:`deals`, waiting for their results.
        self.issued: list[Deal] = []

    # Subclasses implement these three.
    def deals(self) -> list[Deal]:
        raise NotImplementedError

    def record(self, outcomes: Sequence[HandOutcome]) -> None:
        """Enter the hands of the last :meth:`deals`, in the same order."""
        raise NotImplementedError

    @property
    def finished(self) -> bool:
        raise NotImplementedError

    def results(self) -> list[GameResult]:
        """Each game's result (three for Hollywood)."""
        raise NotImplementedError

    def standing(self) -> str:
        """The score so far, in a line."""
        raise NotImplementedError

    # Shared helpers.
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

    def next_dealer(
        self, dealer: int, winner: int | None, loser: int | None, seats: Sequence[int]
    ) -> int:
        """The next dealer among ``seats`` after a hand dealt by ``dealer``."""
        config = self.config
        following = seats[(seats.index(dealer) + 1) % len(seats)]
        if winner is None or loser is None:
            return dealer if config.after_dead_hand is DeadHandDealer.SAME_DEALER else following
        if config.next_dealer is NextDealer.LOSER:
            return loser
        if config.next_dealer is NextDealer.WINNER:
            return winner
        return following

    def _log(self, deal: Deal, outcome: HandOutcome) -> tuple[int | None, int | None, int]:
        """Log a hand; return the winning and losing table seats and the points."""
        winner = outcome.winner
        if winner is None:
            self.log.append(HandEntry(deal, None, 0, outcome.end))
            return None, None, 0
        self.log.append(HandEntry(deal, deal.seats[winner], outcome.points, outcome.end))
        return deal.seats[winner], deal.seats[1 - winner], outcome.points

    def _pending(self, count: int) -> list[Deal]:
        if len(self.issued) != count:
            raise MatchError(f"enter {len(self.issued)} hands, as dealt, not {count}")
        deals, self.issued = self.issued, []
        return deals

    def _check_runaway(self) -> None:
        if len(self.log) > MAX_HANDS:
            raise MatchError(f"no winner after {MAX_HANDS} hands")

    def play(
        self,
        players: Sequence[Bot],
        bot_seed: int | None = None,
        on_hand: Callable[[Hand], None] | None = None,
    ) -> list[GameResult]:
        """Play the whole match with ``players`` (one per table seat)."""
        if len(players) != self.players:
            raise MatchError(f"this format needs {self.players} players, not {len(players)}")
        base = self.seed if bot_seed is None else bot_seed
        rngs = [random.Random(base * 7919 + seat + 1) for seat in range(self.players)]
        while not self.finished:
            outcomes = []
            for deal in self.deals():
                hand = deal.hand(self.config)
                play_hand(hand, [players[s] for s in deal.seats], [rngs[s] for s in deal.seats])
                if on_hand is not None:
                    on_hand(hand)
                outcomes.append(HandOutcome.of(hand))
            self.record(outcomes)
        return self.results()


class TwoPlayerGame(Match):
    """One game to the target between table seats 0 and 1."""

    def __init__(self, config: EngineConfig, seed: int) -> None:
        super().__init__(config, seed)
        self.board = Scoreboard(config, 2)
        self.dealer = self.cut((0, 1))

    def deals(self) -> list[Deal]:
        self.issued = [Deal((0, 1), self.dealer, self.hand_seed())]
        return self.issued

    def record(self, outcomes: Sequence[HandOutcome]) -> None:
        (deal,) = self._pending(len(outcomes))
        (outcome,) = outcomes
        winner, loser, points = self._log(deal, outcome)
        if winner is None:
            self.board.record_dead_hand()
        else:
            self.board.record(winner, points, outcome.boxes)
        self.dealer = self.next_dealer(deal.seats[deal.dealer], winner, loser, (0, 1))
        self._check_runaway()

    @property
    def finished(self) -> bool:
        return self.board.finished

    def results(self) -> list[GameResult]:
        return [self.board.result()]

    def standing(self) -> str:
        return f"{self.board.points[0]} to {self.board.points[1]} (target {self.board.target})"


class HollywoodMatch(TwoPlayerGame):
    """Three games at once, entered by each player's count of hands won."""

    def __init__(self, config: EngineConfig, seed: int) -> None:
        super().__init__(config, seed)
        self.boards = [Scoreboard(config, 2) for _ in range(config.games)]
        self.wins = [0, 0]
        #: The games each player has opened (entered a first score in), in order.
        self.opened: list[list[Scoreboard]] = [[], []]

    def record(self, outcomes: Sequence[HandOutcome]) -> None:
        (deal,) = self._pending(len(outcomes))
        (outcome,) = outcomes
        winner, loser, points = self._log(deal, outcome)
        if winner is None:
            for board in self.boards:
                board.record_dead_hand()
        else:
            self.wins[winner] += 1
            for board in self.entries(winner):
                board.record(winner, points, outcome.boxes)
        self.dealer = self.next_dealer(deal.seats[deal.dealer], winner, loser, (0, 1))
        self._check_runaway()

    def entries(self, player: int) -> list[Scoreboard]:
        """Open the next game for ``player``'s new win; the open games it is entered in.

        Each win opens one more game: the first win counts in game 1, the
        second in games 1-2, the third and later in all three. A game that
        finished before the player scored in it is skipped, so a player shut
        out of game 1 enters their first win in the next game in progress
        (Hoyle).
        """
        opened = self.opened[player]
        fresh = [b for b in self.boards if not b.finished and all(b is not o for o in opened)]
        if fresh:
            opened.append(fresh[0])
        return [board for board in opened if not board.finished]

    @property
    def finished(self) -> bool:
        return all(board.finished for board in self.boards)

    def results(self) -> list[GameResult]:
        return [board.result() for board in self.boards]

    def standing(self) -> str:
        return "; ".join(
            f"game {n}: {b.points[0]}-{b.points[1]}{' (over)' if b.finished else ''}"
            for n, b in enumerate(self.boards, 1)
        )


#: Partnership pairings by hand parity: partners sit opposite (0 & 2 against 1 & 3).
_PAIRINGS: Final = (((0, 1), (2, 3)), ((0, 3), (2, 1)))


class PartnershipGame(Match):
    """Teams 0 (seats 0 and 2) and 1 (seats 1 and 3), netted hand by hand."""

    players = 4

    def __init__(self, config: EngineConfig, seed: int) -> None:
        if config.partnership_deck is PartnershipDeck.SHARED:
            raise MatchError(
                "a partnership with one shared deck is not played by the engine yet;"
                " use format.partnership_deck: per_pairing"
            )
        super().__init__(config, seed)
        self.board = Scoreboard(config, 2)
        #: Which team deals in each pairing: each pairing cuts for the first deal.
        self.dealing_team = [self.cut(pair) % 2 for pair in _PAIRINGS[0]]
        self.hand_number = 0

    def deals(self) -> list[Deal]:
        pairs = _PAIRINGS[self.hand_number % 2]
        self.issued = [
            Deal(pair, 0 if pair[0] % 2 == team else 1, self.hand_seed())
            for pair, team in zip(pairs, self.dealing_team, strict=True)
        ]
        return self.issued

    def record(self, outcomes: Sequence[HandOutcome]) -> None:
        net = 0
        for deal, outcome in zip(self._pending(len(outcomes)), outcomes, strict=True):
            winner, _, points = self._log(deal, outcome)
            if winner is not None:
                net += points if winner % 2 == 0 else -points
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
        self.hand_number += 1
        self._check_runaway()

    @property
    def finished(self) -> bool:
        return self.board.finished

    def results(self) -> list[GameResult]:
        return [self.board.result()]

    def standing(self) -> str:
        return (
            f"team A (seats 0 & 2) {self.board.points[0]}"
            f" to team B (seats 1 & 3) {self.board.points[1]}"
            f" (target {self.board.target})"
        )


class ThreeHandedGame(Match):
    """Three players; the dealer sits out and deals to the other two."""

    players = 3

    def __init__(self, config: EngineConfig, seed: int) -> None:
        super().__init__(config, seed)
        self.board = Scoreboard(config, 3)
        self.dealer = self.cut((0, 1, 2))

    def deals(self) -> list[Deal]:
        # The player on the dealer's left plays first, as the non-dealer does heads-up.
        first = (self.dealer + 1) % 3
        second = (self.dealer + 2) % 3
        self.issued = [Deal((first, second), 1, self.hand_seed())]
        return self.issued

    def record(self, outcomes: Sequence[HandOutcome]) -> None:
        (deal,) = self._pending(len(outcomes))
        (outcome,) = outcomes
        winner, loser, points = self._log(deal, outcome)
        if winner is None:
            self.board.record_dead_hand()
        else:
            self.board.record(winner, points, outcome.boxes)
        self.dealer = self.next_dealer(self.dealer, winner, loser, (0, 1, 2))
        self._check_runaway()

    @property
    def finished(self) -> bool:
        return self.board.finished

    def results(self) -> list[GameResult]:
        return [self.board.result()]

    def standing(self) -> str:
        return " / ".join(str(p) for p in self.board.points) + f" (target {self.board.target})"


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
