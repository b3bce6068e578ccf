"""Engine benchmark: whole hands with random legal players, ginrules against open_spiel and rlcard.

Run it through ``bench/run.sh engine``, which builds ``bench/.venv`` with the
two peer libraries (``rlcard==1.2.0`` and ``open_spiel==2.0.2``, never project
dependencies) and ginrules itself installed in editable mode. With
``--no-peers`` it needs ginrules only and runs from the project's own venv.

Part 1, hands per second. Each library plays whole hands of two-player gin,
both players picking uniformly among the legal actions, from the deal until
the hand is over (scored, or dead):

* ginrules: the ``classic`` ruleset; ``Hand.deal(config, dealer, seed)`` and
  ``play_hand(hand, [RandomBot(), RandomBot()], rngs)``, a new seed per hand.
* open_spiel: ``pyspiel.load_game("gin_rummy")`` (its defaults are classic
  gin: knock at 10, gin and undercut bonus 25); ``game.new_initial_state()``,
  then at a chance node a card from ``state.chance_outcomes()`` (every card
  equally likely, which the benchmark checks once), otherwise
  ``rng.choice(state.legal_actions())``, until ``state.is_terminal()``.
* rlcard: ``rlcard.make("gin-rummy", config={"seed": seed})`` with a
  ``RandomAgent`` in both seats, ``env.run(is_training=False)`` per hand.
  ``RandomAgent`` draws from numpy's global generator, which is seeded too.

Every library first plays ``--warmup`` hands (ginrules fills lookup tables
lazily), then ``--repeat`` timed samples from the same seed; a sample plays
``--hands`` hands or stops at the first hand that ends after ``--max-seconds``.
The best sample is reported. Each library also counts, inside the timed loop,
its actions per hand and how its hands end.

Part 2, ginrules only: the seconds ``--games`` whole games (default 10,000) of
the strong bot against the greedy bot take under ``classic``, seeds 0, 1, ...,
the bots changing seats every game, with the strong bot's win rate. They are
played through ``ginrules.simulate(..., jobs=N)`` for each N of ``--jobs`` (default
``1,2``; N worker processes, 1: this one), after a few untimed games. The results must
be identical; reported: each N's seconds, games/s and speed-up over ``--jobs 1``, and
the target (``--jobs 2`` at least 1.8x faster than ``--jobs 1`` on two cores).

Exit status: 0; 3 instead with ``--fail-on-target`` when ginrules plays fewer
than 10x open_spiel's hands per second.
"""

from __future__ import annotations

import argparse
import gc
import importlib
import itertools
import json
import random
import sys
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from benchlib import format_table, versions

from ginrules.engine.bots import RandomBot
from ginrules.engine.hand import Hand
from ginrules.engine.parallel import MAX_JOBS, usable_cores
from ginrules.engine.play import play_hand
from ginrules.engine.simulate import Simulation, SimulationInterrupted, simulate
from ginrules.rules.compile import EngineConfig, compile_ruleset
from ginrules.rules.load import load_ruleset

LIBRARIES: Final = ("ginrules", "open_spiel", "rlcard")
PEER_PINS: Final = {"open_spiel": "2.0.2", "rlcard": "1.2.0"}
RULESET: Final = "classic"
#: The issue's target: ginrules plays at least this many times open_spiel's hands per second.
TARGET: Final = 10.0
#: open_spiel's gin_rummy action ids: 0-51 cards, 52 draw upcard, 53 draw stock, 54 pass, 55 knock.
OPEN_SPIEL_KNOCK: Final = 55
BOTS: Final = ("strong", "greedy")
#: The issue's target: ``--jobs 2`` plays the games at least this many times faster than 1.
JOBS_TARGET: Final = 1.8
#: Untimed strong-against-greedy games before part 2 (from another seed).
GAMES_WARMUP: Final = 20

#: Plays the next hand of a seeded sequence: (actions the players took, how it ended).
HandPlayer = Callable[[], tuple[int, str]]


# --- the three libraries: a seeded sequence of hands (set up untimed) ---------


def ginrules_hands(seed: int) -> HandPlayer:
    config = classic_config()
    deal = Hand.deal
    players = [RandomBot(), RandomBot()]
    rngs = [random.Random(f"{seed}:seat0"), random.Random(f"{seed}:seat1")]
    numbers = itertools.count(seed)

    def play_one() -> tuple[int, str]:
        number = next(numbers)
        hand = deal(config, number % 2, number)
        play_hand(hand, players, rngs)
        return len(hand.history), hand.score().end.value

    return play_one


def open_spiel_hands(seed: int) -> HandPlayer:
    import pyspiel

    game = pyspiel.load_game("gin_rummy")
    choice = random.Random(seed).choice

    def play_one() -> tuple[int, str]:
        state = game.new_initial_state()
        actions = 0
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(choice(state.chance_outcomes())[0])
            else:
                state.apply_action(choice(state.legal_actions()))
                actions += 1
        # Chance actions are cards (0-51), so a 55 in the history is always a knock.
        return actions, "knock" if OPEN_SPIEL_KNOCK in state.history() else "dead"

    return play_one


def check_open_spiel_chance(seed: int) -> None:
    """Plays one open_spiel hand checking that every chance outcome is equally likely.

    The timed loop relies on it: it picks outcomes with ``rng.choice``, ignoring
    the probabilities.
    """
    import pyspiel

    game = pyspiel.load_game("gin_rummy")
    rng = random.Random(seed)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            probabilities = {round(p, 12) for _, p in outcomes}
            if len(probabilities) != 1:
                raise SystemExit(f"open_spiel chance outcomes are not uniform: {outcomes}")
            state.apply_action(rng.choice(outcomes)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))


def rlcard_hands(seed: int) -> HandPlayer:
    import rlcard
    from rlcard.agents import RandomAgent
    from rlcard.games.gin_rummy.utils.move import DeclareDeadHandMove, GinMove, KnockMove

    numpy = importlib.import_module("numpy")
    env = rlcard.make("gin-rummy", config={"seed": seed})
    numpy.random.seed(seed % 2**32)  # RandomAgent picks with numpy's global generator
    env.set_agents([RandomAgent(num_actions=env.num_actions) for _ in range(env.num_players)])
    run = env.run
    endings = ((GinMove, "gin"), (KnockMove, "knock"), (DeclareDeadHandMove, "dead"))

    def play_one() -> tuple[int, str]:
        run(is_training=False)
        for move in reversed(env.game.round.move_sheet):
            for kind, end in endings:
                if isinstance(move, kind):
                    return len(env.action_recorder), end
        return len(env.action_recorder), "unknown"

    return play_one


HAND_PLAYERS: Final[dict[str, Callable[[int], HandPlayer]]] = {
    "ginrules": ginrules_hands,
    "open_spiel": open_spiel_hands,
    "rlcard": rlcard_hands,
}


def classic_config() -> EngineConfig:
    return compile_ruleset(load_ruleset(RULESET))


# --- part 1: hands per second ----------------------------------------------------


@dataclass
class Sample:
    """One run of hands: how many, how long, and what happened in them."""

    hands: int = 0
    seconds: float = 0.0
    actions: int = 0
    ends: Counter[str] = field(default_factory=Counter)

    @property
    def hands_per_s(self) -> float:
        return self.hands / self.seconds if self.seconds else 0.0


def play_sample(start: Callable[[int], HandPlayer], seed: int, count: int, cap: float) -> Sample:
    """Plays up to ``count`` hands from ``seed``; stops at the first hand ending after ``cap`` s."""
    play_one = start(seed)  # set-up, untimed
    gc.collect()
    sample = Sample()
    ends = sample.ends
    actions = 0
    clock = time.perf_counter
    began = clock()
    deadline = began + cap
    now = began
    for _ in range(count):
        taken, end = play_one()
        actions += taken
        ends[end] += 1
        now = clock()
        if now >= deadline:
            break
    sample.seconds = now - began
    sample.actions = actions
    sample.hands = ends.total()
    return sample


@dataclass
class HandsResult:
    library: str
    best: Sample
    samples: list[float]  # hands per second of every timed sample
    warmup: Sample

    @property
    def actions_per_hand(self) -> float:
        return self.best.actions / self.best.hands

    @property
    def dead_share(self) -> float:
        return self.best.ends["dead"] / self.best.hands


def measure_hands(library: str, args: argparse.Namespace) -> HandsResult:
    start = HAND_PLAYERS[library]
    if library == "open_spiel":
        check_open_spiel_chance(args.seed)
    # Warm-up hands come from another seed, so the timed hands are not replays of them.
    warmup = play_sample(start, args.seed + 1_000_003, args.warmup, args.max_seconds)
    samples = [
        play_sample(start, args.seed, args.hands, args.max_seconds) for _ in range(args.repeat)
    ]
    best = max(samples, key=lambda s: s.hands_per_s)
    return HandsResult(library, best, [s.hands_per_s for s in samples], warmup)


# --- part 2: strong against greedy ------------------------------------------------


@dataclass
class GamesRun:
    """The games played with one job count: how long, and what happened in them."""

    jobs: int
    seconds: float
    run: Simulation
    capped: bool

    @property
    def games(self) -> int:
        return self.run.matches

    @property
    def games_per_s(self) -> float:
        return self.games / self.seconds if self.seconds else 0.0

    @property
    def hands_per_s(self) -> float:
        return self.run.hands / self.seconds if self.seconds else 0.0


@dataclass
class GamesResult:
    requested: int
    seed: int
    cores: int
    runs: list[GamesRun] = field(default_factory=list)

    @property
    def first(self) -> GamesRun:
        return self.runs[0]

    @property
    def identical(self) -> bool | None:
        """True when every job count played the same games to the same result; None when
        there is nothing to compare (one job count, or runs cut short at different games)."""
        same = [r for r in self.runs[1:] if r.games == self.first.games]
        if not same or len(same) < len(self.runs) - 1:
            return None
        return all(r.run == self.first.run for r in same)

    def speedup(self, run: GamesRun) -> float | None:
        """How many times faster than ``--jobs 1`` (None without a ``--jobs 1`` run)."""
        base = next((r for r in self.runs if r.jobs == 1), None)
        if base is None or run.games != base.games or not run.seconds:
            return None
        return base.seconds / run.seconds

    def jobs_target(self) -> float | None:
        return next((self.speedup(r) for r in self.runs if r.jobs == 2), None)

    @property
    def strong_win_rate(self) -> float:
        return self.first.run.wins[0] / self.first.run.games if self.first.run.games else 0.0


def time_games(config: EngineConfig, games: int, seed: int, jobs: int, cap: float) -> GamesRun:
    """Plays ``games`` strong-against-greedy games in ``jobs`` processes; stops (with the
    games finished from the first on) after ``cap`` seconds."""
    step = max(1, games // 10)
    out_of_time = False
    gc.collect()
    began = time.perf_counter()
    deadline = began + cap

    def progress(done: int) -> None:
        nonlocal out_of_time
        now = time.perf_counter()
        if done % step == 0:
            print(
                f"games, --jobs {jobs}: {done:,} of {games:,}, {now - began:.1f} s",
                file=sys.stderr,
            )
        if now >= deadline and done < games:
            out_of_time = True
            raise KeyboardInterrupt  # simulate() stops and hands back the games finished

    try:
        run = simulate(config, games, seed, BOTS, progress, jobs=jobs)
    except SimulationInterrupted as stop:
        if not out_of_time:
            raise
        run = stop.results[0]
    seconds = time.perf_counter() - began
    return GamesRun(jobs, seconds, run, capped=run.matches < games)


def play_games(args: argparse.Namespace) -> GamesResult:
    """Strong against greedy under classic: seeds ``seed``, ``seed + 1``, ...; seats swap;
    once per job count. A run cut short by the cap sets how many games the next ones play,
    so every job count plays the same games."""
    config = classic_config()
    simulate(config, GAMES_WARMUP, args.games_seed + 1_000_003, BOTS)  # untimed
    result = GamesResult(args.games, args.games_seed, usable_cores())
    games = args.games
    for jobs in args.jobs:
        run = time_games(config, games, args.games_seed, jobs, args.games_max_seconds)
        result.runs.append(run)
        games = min(games, run.games)
    return result


# --- output -------------------------------------------------------------------------


def ratio(results: dict[str, HandsResult], peer: str) -> float:
    return results["ginrules"].best.hands_per_s / results[peer].best.hands_per_s


def target_met(results: dict[str, HandsResult]) -> bool | None:
    return ratio(results, "open_spiel") >= TARGET if "open_spiel" in results else None


def shares(ends: Counter[str]) -> str:
    total = ends.total()
    return ", ".join(f"{end} {count / total:.1%}" for end, count in ends.most_common())


def report_text(
    hands: dict[str, HandsResult],
    games: GamesResult | None,
    args: argparse.Namespace,
    found: dict[str, str],
) -> str:
    out = [
        f"engine benchmark: {RULESET} rules, random legal players, seed {args.seed};"
        f" after {args.warmup} warm-up hands, best of {args.repeat} samples of"
        f" {args.hands} hands (a sample stops after {args.max_seconds:g} s)",
        "versions: " + ", ".join(f"{k} {v}" for k, v in found.items()),
    ]
    for lib, pin in PEER_PINS.items():
        if lib in found and found[lib] != pin:
            out.append(f"NOTE: {lib} {found[lib]} is installed, not the pinned {pin}")
    out.append("")
    rows = [
        [
            "library",
            "hands/s",
            "ms/hand",
            "hands timed",
            "actions/hand",
            "dead hands",
            "ginrules faster by",
        ]
    ]
    for lib, r in hands.items():
        rows.append(
            [
                lib,
                f"{r.best.hands_per_s:,.0f}",
                f"{1000 / r.best.hands_per_s:.3f}",
                f"{r.best.hands:,}",
                f"{r.actions_per_hand:.1f}",
                f"{r.dead_share:.1%}",
                "" if lib == "ginrules" else f"{ratio(hands, lib):.2f}x",
            ]
        )
    out += [format_table(rows), ""]
    out.append("how the timed hands ended:")
    for lib, r in hands.items():
        out.append(f"  {lib}: {shares(r.best.ends)}")
    out.append("every timed sample, hands/s:")
    for lib, r in hands.items():
        out.append(f"  {lib}: " + ", ".join(f"{rate:,.0f}" for rate in r.samples))
    met = target_met(hands)
    if met is not None:
        out += [
            "",
            f"target: ginrules >= {TARGET:g}x open_spiel's hands/s: got"
            f" {ratio(hands, 'open_spiel'):.2f}x: {'met' if met else 'NOT MET'}",
        ]
    if games is not None:
        out += ["", *games_text(games)]
    return "\n".join(out)


def games_text(games: GamesResult) -> list[str]:
    count = games.first.games
    out = [
        f"{BOTS[0]} against {BOTS[1]}, {RULESET} rules: {count:,} games (seeds {games.seed}.."
        f"{games.seed + count - 1}, the bots change seats every game), --jobs"
        f" {', '.join(str(r.jobs) for r in games.runs)} on {games.cores} usable cores"
    ]
    for run in games.runs:
        if run.capped:
            out.append(
                f"NOTE: --jobs {run.jobs} stopped by --games-max-seconds after {run.games:,}"
                f" of {games.requested:,} games; {games.requested:,} would take about"
                f" {games.requested / run.games_per_s:.0f} s"
            )
    rows = [["jobs", "games", "seconds", "games/s", "hands", "hands/s", "faster than --jobs 1"]]
    for run in games.runs:
        speedup = games.speedup(run)
        rows.append(
            [
                str(run.jobs),
                f"{run.games:,}",
                f"{run.seconds:.1f}",
                f"{run.games_per_s:.1f}",
                f"{run.run.hands:,}",
                f"{run.hands_per_s:,.0f}",
                "" if speedup is None or run.jobs == 1 else f"{speedup:.2f}x",
            ]
        )
    out.append(format_table(rows))
    identical = games.identical
    if identical is not None:
        out.append(
            "results: identical for every job count"
            if identical
            else "results: DIFFERENT between job counts (a bug: they must be identical)"
        )
    ends = shares(games.first.run.endings)
    out.append(f"{BOTS[0]} wins {games.strong_win_rate:.1%}; hands ended: {ends}")
    measured = games.jobs_target()
    if measured is not None:
        met = "met" if measured >= JOBS_TARGET else "NOT MET"
        out.append(f"target: --jobs 2 >= {JOBS_TARGET:g}x --jobs 1: got {measured:.2f}x: {met}")
    return out


def games_json(games: GamesResult) -> dict[str, Any]:
    first = games.first
    data: dict[str, Any] = {
        "bots": list(BOTS),
        "requested": games.requested,
        "games": first.games,
        "seeds": [games.seed, games.seed + first.games - 1],
        "capped": any(run.capped for run in games.runs),
        "cores": games.cores,
        "seconds": first.seconds,
        "games_per_s": first.games_per_s,
        "hands": first.run.hands,
        "hands_per_s": first.hands_per_s,
        "strong_win_rate": games.strong_win_rate,
        "ends": dict(games.first.run.endings),
        "jobs": [
            {
                "jobs": run.jobs,
                "games": run.games,
                "seconds": run.seconds,
                "games_per_s": run.games_per_s,
                "hands_per_s": run.hands_per_s,
                "speedup": games.speedup(run),
                "capped": run.capped,
            }
            for run in games.runs
        ],
        "identical": games.identical,
    }
    measured = games.jobs_target()
    if measured is not None:
        data["jobs_target"] = {
            "jobs": 2,
            "required": JOBS_TARGET,
            "measured": measured,
            "met": measured >= JOBS_TARGET,
        }
    return data


def report_json(
    hands: dict[str, HandsResult],
    games: GamesResult | None,
    args: argparse.Namespace,
    found: dict[str, str],
) -> str:
    data: dict[str, Any] = {
        "ruleset": RULESET,
        "seed": args.seed,
        "hands_per_sample": args.hands,
        "max_seconds_per_sample": args.max_seconds,
        "warmup_hands": args.warmup,
        "repeat": args.repeat,
        "versions": found,
        "hands": {
            lib: {
                "hands_per_s": r.best.hands_per_s,
                "ms_per_hand": 1000 / r.best.hands_per_s,
                "hands_timed": r.best.hands,
                "seconds": r.best.seconds,
                "actions_per_hand": r.actions_per_hand,
                "dead_share": r.dead_share,
                "ends": dict(r.best.ends),
                "samples_hands_per_s": r.samples,
            }
            for lib, r in hands.items()
        },
        "ratio": {peer: ratio(hands, peer) for peer in hands if peer != "ginrules"},
    }
    met = target_met(hands)
    if met is not None:
        data["target"] = {
            "peer": "open_spiel",
            "required": TARGET,
            "measured": ratio(hands, "open_spiel"),
            "met": met,
        }
    if games is not None:
        data["games"] = games_json(games)
    return json.dumps(data, indent=2)


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--seed", type=int, default=20240611, help="seed for the hands")
    parser.add_argument(
        "--hands", type=int, default=2000, help="hands per timed sample (default 2000)"
    )
    parser.add_argument(
        "--max-seconds",
        type=float,
        default=4.0,
        help="a sample stops at the first hand that ends after this many seconds (default 4)",
    )
    parser.add_argument("--warmup", type=int, default=100, help="untimed hands first (default 100)")
    parser.add_argument(
        "--repeat", type=int, default=5, help="timed samples, best kept (default 5)"
    )
    parser.add_argument(
        "--games",
        type=int,
        default=10_000,
        help="strong-against-greedy games to time (default 10000; 0 skips them)",
    )
    parser.add_argument("--games-seed", type=int, default=0, help="seed of the first game")
    parser.add_argument(
        "--games-max-seconds",
        type=float,
        default=600.0,
        help="stop the games after this many seconds (default 600)",
    )
    parser.add_argument(
        "--jobs",
        default="1,2",
        help="job counts to play the games with, comma-separated (default 1,2)",
    )
    parser.add_argument(
        "--no-peers", action="store_true", help="ginrules only (no open_spiel, no rlcard)"
    )
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    parser.add_argument(
        "--fail-on-target",
        action="store_true",
        help=f"exit 3 when ginrules is under {TARGET:g}x open_spiel's hands/s",
    )
    args = parser.parse_args(argv)
    if args.hands < 1 or args.repeat < 1 or args.max_seconds <= 0 or args.games_max_seconds <= 0:
        parser.error("--hands, --repeat, --max-seconds and --games-max-seconds must be positive")
    if args.warmup < 0 or args.games < 0:
        parser.error("--warmup and --games must not be negative")
    try:
        jobs = [int(word) for word in args.jobs.split(",")]
    except ValueError:
        parser.error("--jobs takes whole numbers separated by commas, like 1,2")
    if not jobs or any(not 1 <= n <= MAX_JOBS for n in jobs):
        parser.error(f"--jobs: each job count is from 1 to {MAX_JOBS}")
    args.jobs = list(dict.fromkeys(jobs))
    return args


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    libraries = ("ginrules",) if args.no_peers else LIBRARIES
    if not args.no_peers:
        for module in ("pyspiel", "rlcard"):
            try:
                importlib.import_module(module)
            except ImportError:
                print(
                    f"cannot import {module}: run through bench/run.sh engine,"
                    " or pass --no-peers for ginrules alone",
                    file=sys.stderr,
                )
                return 2
    found = versions(libraries)
    hands: dict[str, HandsResult] = {}
    for lib in libraries:
        started = time.perf_counter()
        hands[lib] = measure_hands(lib, args)
        print(
            f"{lib}: {hands[lib].best.hands_per_s:,.0f} hands/s,"
            f" done in {time.perf_counter() - started:.1f} s",
            file=sys.stderr,
        )
    games = play_games(args) if args.games else None
    print(
        report_json(hands, games, args, found)
        if args.json
        else report_text(hands, games, args, found)
    )
    if args.fail_on_target and target_met(hands) is False:
        return 3
    return 0


if __name__ == "__main__":
    sys.exit(main())
