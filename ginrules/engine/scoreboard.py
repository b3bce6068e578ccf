"""Scoring a game: the running score to the target, boxes, bonuses, settlement.

One :class:`Scoreboard` keeps one game between two or more sides (players,
or teams in a partnership). Hollywood keeps three at once. Every amount comes
from the configuration: the target, the game bonus, the box bonus and when
boxes count, the shutout form, and the stake per point.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ginrules.rules.compile import BoxTiming, EngineConfig, Shutout


@dataclass(frozen=True, slots=True)
class Settlement:
    """What one loser owes the winner at the end of a game."""

    loser: int
    #: The loser scored no points all game.
    shutout: bool
    #: The winner's total against this loser (shutout bonuses included).
    winner_total: int
    loser_total: int
    #: The difference in totals, doubled when the shutout doubles the margin.
    #: Negative when the loser's boxes outweigh the winner's total: the
    #: settlement follows the totals, so the game's winner then pays.
    margin: int
    #: ``margin`` times the stake per point.
    payment: float
    #: The game bonus in ``winner_total`` (the shutout's own bonus on a shutout).
    game_bonus: int

    def to_json(self) -> dict[str, Any]:
        return {
            "loser": self.loser,
            "shutout": self.shutout,
            "winner_total": self.winner_total,
            "loser_total": self.loser_total,
            "margin": self.margin,
            "payment": self.payment,
        }


@dataclass(frozen=True, slots=True)
class GameResult:
    """A finished game: the winner, the score, and each loser's settlement."""

    winner: int
    #: Points scored in play (boxes included when they count as they are won).
    points: tuple[int, ...]
    boxes: tuple[int, ...]
    hands: int
    settlements: tuple[Settlement, ...]
    #: Each side's boxes times the box bonus, added to its total at the end of the
    #: game (zeros when boxes count as they are won: they are in ``points``).
    box_points: tuple[int, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "winner": self.winner,
            "points": list(self.points),
            "boxes": list(self.boxes),
            "hands": self.hands,
            "settlements": [s.to_json() for s in self.settlements],
        }


class Scoreboard:
    """One game to the target between ``sides`` sides."""

    def __init__(self, config: EngineConfig, sides: int = 2, target: int | None = None) -> None:
        self.config = config
        self.target = config.target if target is None else target
        self.points = [0] * sides
        self.boxes = [0] * sides
        self.hands = 0
        self.winner: int | None = None

    @property
    def finished(self) -> bool:
        return self.winner is not None

    def record(self, side: int, points: int, boxes: int = 1) -> None:
        """Enter a hand won by ``side`` for ``points`` (and ``boxes``, usually 1)."""
        if self.winner is not None:
            raise ValueError("this game is finished and takes no more entries")
        self.hands += 1
        self.points[side] += points
        self.boxes[side] += boxes
        if self.config.box_timing is BoxTiming.EACH_HAND:
            self.points[side] += boxes * self.config.box_bonus
        if self.points[side] >= self.target:
            self.winner = side

    def record_dead_hand(self) -> None:
        if self.winner is None:
            self.hands += 1

    def result(self) -> GameResult:
        """The final score and settlement; the game must be finished."""
        winner = self.winner
        if winner is None:
            raise ValueError("the game is not finished")
        config = self.config
        after_game = config.box_timing is BoxTiming.AFTER_GAME
        box_bonus = config.box_bonus if after_game else 0

        def total(side: int) -> int:
            return self.points[side] + self.boxes[side] * box_bonus

        settlements = []
        for loser in range(len(self.points)):
            if loser == winner:
                continue
            shutout = self.points[loser] == 0 and config.shutout is not Shutout.NONE
            game_bonus = config.game_bonus
            if shutout and config.shutout_game_bonus is not None:
                game_bonus = config.shutout_game_bonus
            winner_total = total(winner) + game_bonus
            if shutout and config.shutout is Shutout.DOUBLE_SCORE:
                winner_total *= 2
            margin = winner_total - total(loser)
            if shutout and config.shutout is Shutout.DOUBLE_MARGIN:
                margin *= 2
            settlements.append(
                Settlement(
                    loser,
                    shutout,
                    winner_total,
                    total(loser),
                    margin,
                    margin * config.stake_per_point,
                    game_bonus,
                )
            )
        return GameResult(
            winner,
            tuple(self.points),
            tuple(self.boxes),
            self.hands,
            tuple(settlements),
            tuple(boxes * box_bonus for boxes in self.boxes),
        )
