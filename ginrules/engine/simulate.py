"""Many seeded games between bots, and what they say about a ruleset.

:func:`simulate` plays ``games`` matches with seeds ``seed, seed + 1, ...``,
the two bots swapping seats every game, and counts how hands end, how long
they last and what they score. :func:`compare` plays the same seeds under a
second ruleset and says in words how the house rule changes the game.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ginrules.engine.bots import make_bot
from ginrules.engine.hand import Hand
from ginrules.engine.match import new_match
from ginrules.engine.scoring import HandEnd
from ginrules.rules.compile import EngineConfig

#: Hand endings in the order reports list them.
ENDINGS = (HandEnd.KNOCK, HandEnd.GIN, HandEnd.BIG_GIN, HandEnd.UNDERCUT, HandEnd.DEAD)


@dataclass
class Simulation:
    """Counts from a run of games; rates and means are derived properties."""

    fingerprint: str
    bots: tuple[str, str]
    seed: int
    matches: int = 0
    #: Games finished (three per Hollywood match).
    games: int = 0
    #: Games won by each bot, by its position in ``bots``.
    wins: list[int] = field(default_factory=lambda: [0, 0])
    hands: int = 0
    endings: Counter[str] = field(default_factory=Counter)
    turns: int = 0
    hand_points: int = 0
    game_margins: int = 0

    @property
    def decided_hands(self) -> int:
        return self.hands - self.endings[HandEnd.DEAD.value]

    def rate(self, end: HandEnd) -> float:
        return self.endings[end.value] / self.hands if self.hands else 0.0

    @property
    def win_rates(self) -> tuple[float, float]:
        total = self.games or 1
        return (self.wins[0] / total, self.wins[1] / total)

    @property
    def hands_per_game(self) -> float:
        return self.hands / self.matches if self.matches else 0.0

    @property
    def turns_per_hand(self) -> float:
        return self.turns / self.hands if self.hands else 0.0

    @property
    def points_per_hand(self) -> float:
        return self.hand_points / self.decided_hands if self.decided_hands else 0.0

    @property
    def points_per_game(self) -> float:
        return self.game_margins / self.games if self.games else 0.0

    def to_json(self) -> dict[str, Any]:
        return {
            "fingerprint": self.fingerprint,
            "seed": self.seed,
            "matches": self.matches,
            "games": self.games,
            "bots": list(self.bots),
            "wins": dict(zip(self.bots, self.wins, strict=True))
            if self.bots[0] != self.bots[1]
            else {
                f"{self.bots[0]} (first)": self.wins[0],
                f"{self.bots[1]} (second)": self.wins[1],
            },
            "win_rates": list(self.win_rates),
            "hands": self.hands,
            "rates": {end.value: self.rate(end) for end in ENDINGS},
            "hands_per_match": self.hands_per_game,
            "turns_per_hand": self.turns_per_hand,
            "points_per_decided_hand": self.points_per_hand,
            "margin_per_game": self.points_per_game,
        }


def simulate(
    config: EngineConfig,
    games: int,
    seed: int,
    bots: Sequence[str] = ("strong", "greedy"),
    progress: Callable[[int], None] | None = None,
) -> Simulation:
    """Play ``games`` seeded matches between two bots (by name), swapping seats each game."""
    first, second = bots
    result = Simulation(config.fingerprint, (first, second), seed)
    players = [make_bot(first, config.ace), make_bot(second, config.ace)]

    def count_hand(hand: Hand) -> None:
        result.hands += 1
        result.endings[hand.score().end.value] += 1
        result.turns += sum(hand.turns) + (0 if hand.dead else 1)
        result.hand_points += hand.score().points

    for number in range(games):
        match = new_match(config, seed + number)
        swap = number % 2  # which bot sits in table seat 0
        seating = [players[(seat + swap) % 2] for seat in range(match.players)]
        for game in match.play(seating, on_hand=count_hand):
            result.games += 1
            result.wins[(game.winner + swap) % 2] += 1
            result.game_margins += sum(s.margin for s in game.settlements)
        result.matches += 1
        if progress is not None:
            progress(number + 1)
    return result
