"""Many seeded games between bots, and what they say about a ruleset.

:func:`simulate` plays ``games`` matches with seeds ``seed, seed + 1, ...``,
the two bots swapping seats every game, and counts how hands end, how long
they last and what they score. :func:`simulate_each` plays the same seeds under
several rulesets match by match (``ginrules simulate --compare``), and
:func:`ginrules.words.simulation.compare` says in words how a house rule
changes the game.

Every match depends only on the run's seed and its number, and the counts are
sums, so a run gives the same result however it is played: in this process
(``jobs=1``) or in worker processes (``jobs=N``, see
:mod:`ginrules.engine.parallel`). Ctrl-C stops a run with
:class:`SimulationInterrupted`, which carries the counts of the longest run of
matches from the first that all finished: exactly what a shorter run would
have given.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from ginrules.engine.bots import Bot, make_bot
from ginrules.engine.hand import Hand
from ginrules.engine.match import MatchError, new_match
from ginrules.engine.parallel import MAX_JOBS, run_numbered
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

    def __add__(self, other: Simulation) -> Simulation:
        """The counts of this run and another of the same ruleset and bots, as a new
        Simulation. Only sums: any order of adding gives the same result."""
        return replace(
            self,
            matches=self.matches + other.matches,
            games=self.games + other.games,
            wins=[mine + theirs for mine, theirs in zip(self.wins, other.wins, strict=True)],
            hands=self.hands + other.hands,
            endings=self.endings + other.endings,
            turns=self.turns + other.turns,
            hand_points=self.hand_points + other.hand_points,
            game_margins=self.game_margins + other.game_margins,
        )


class SimulationInterrupted(KeyboardInterrupt):
    """Ctrl-C (or a progress callback raising KeyboardInterrupt) stopped a run.

    ``results`` (one per ruleset) count matches ``0 .. done - 1``, every one of them
    finished: what a run of ``done`` games would have given. Matches finished after a
    gap are left out. It is a KeyboardInterrupt, so a caller that does not look for it
    stops as before.
    """

    def __init__(self, results: list[Simulation], done: int, requested: int) -> None:
        super().__init__(done, requested)
        self.results = results
        self.done = done
        self.requested = requested


class SimulatedMatchError(MatchError):
    """A match of a run that cannot be played (see :class:`MatchError`), with which of
    :func:`simulate_each`'s rulesets (``position``) and which match (``number``)."""

    def __init__(self, error: MatchError, position: int, number: int) -> None:
        super().__init__(error.reason, **error.params)
        self.position = position
        self.number = number


def simulate(
    config: EngineConfig,
    games: int,
    seed: int,
    bots: Sequence[str] = ("strong", "greedy"),
    progress: Callable[[int], None] | None = None,
    *,
    jobs: int = 1,
) -> Simulation:
    """Play ``games`` seeded matches between two bots (by name), swapping seats each game,
    in ``jobs`` processes (1: this one); ``progress(finished)`` is called as matches end."""
    return simulate_each([config], games, seed, bots, progress, jobs=jobs)[0]


def simulate_each(
    configs: Sequence[EngineConfig],
    games: int,
    seed: int,
    bots: Sequence[str] = ("strong", "greedy"),
    progress: Callable[[int], None] | None = None,
    *,
    jobs: int = 1,
) -> list[Simulation]:
    """:func:`simulate` under each ruleset, the same seeds, match by match: each result
    equals its own :func:`simulate`, and an interrupted run stops them all at the same
    match. ``progress`` counts match numbers played under every ruleset."""
    if not 1 <= jobs <= MAX_JOBS:
        raise ValueError(f"jobs={jobs}, from 1 to {MAX_JOBS}")
    first, second = bots
    table = _Table(tuple(configs), seed, (first, second))
    prefix = _Prefix([Simulation(c.fingerprint, table.bots, seed) for c in configs])
    try:
        if jobs == 1 or games <= 1:
            play = _prepare(table)
            for number in range(games):
                prefix.add(number, play(number))
                if progress is not None:
                    progress(number + 1)
        else:
            run_numbered(_prepare, table, games, jobs, prefix.add, progress)
    except KeyboardInterrupt as interrupt:
        done, totals = prefix.state
        raise SimulationInterrupted(list(totals), done, games) from interrupt
    return list(prefix.state[1])


@dataclass(frozen=True)
class _Table:
    """What it takes to play any match of a run (picklable, for spawned workers)."""

    configs: tuple[EngineConfig, ...]
    seed: int
    bots: tuple[str, str]


def _prepare(table: _Table) -> Callable[[int], tuple[Simulation, ...]]:
    """The bots for each ruleset, made once; then match ``number`` under each ruleset."""
    seats = [[make_bot(name, config.ace) for name in table.bots] for config in table.configs]

    def play(number: int) -> tuple[Simulation, ...]:
        results = []
        for position, (config, players) in enumerate(zip(table.configs, seats, strict=True)):
            result = Simulation(config.fingerprint, table.bots, table.seed)
            try:
                _play_match(result, config, players, table.seed + number, number % 2)
            except MatchError as error:
                raise SimulatedMatchError(error, position, number) from error
            results.append(result)
        return tuple(results)

    return play


def _play_match(
    result: Simulation, config: EngineConfig, players: list[Bot], seed: int, swap: int
) -> None:
    """Play one match into ``result``; ``swap`` says which bot sits in table seat 0."""

    def count_hand(hand: Hand) -> None:
        score = hand.score()
        result.hands += 1
        result.endings[score.end.value] += 1
        result.turns += sum(hand.turns) + (0 if hand.dead else 1)
        result.hand_points += score.points

    match = new_match(config, seed)
    seating = [players[(seat + swap) % 2] for seat in range(match.players)]
    for game in match.play(seating, on_hand=count_hand):
        result.games += 1
        result.wins[(game.winner + swap) % 2] += 1
        result.game_margins += sum(s.margin for s in game.settlements)
    result.matches += 1


class _Prefix:
    """The counts of matches ``0 .. done - 1``, from results that arrive in any order.

    ``state`` (done, totals) is replaced in one assignment, never changed in place, so
    a Ctrl-C at any moment finds it whole: the old prefix or the new one.
    """

    def __init__(self, totals: list[Simulation]) -> None:
        self.state: tuple[int, tuple[Simulation, ...]] = (0, tuple(totals))
        self.waiting: dict[int, tuple[Simulation, ...]] = {}

    def add(self, number: int, results: tuple[Simulation, ...]) -> None:
        self.waiting[number] = results
        done, totals = self.state
        while done in self.waiting:
            more = self.waiting.pop(done)
            totals = tuple(total + result for total, result in zip(totals, more, strict=True))
            done += 1
        self.state = (done, totals)
