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
the bots changing seats every game, with the strong bot's win rate.

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

from ginrules.engine.bots import RandomBot, make_bot
from ginrules.engine.hand import Hand
from ginrules.engine.match import new_match
from ginrules.engine.play import play_hand
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
class GamesResult:
    requested: int
    seed: int
    games: int = 0
    seconds: float = 0.0
    hands: int = 0
    strong_wins: int = 0
    ends: Counter[str] = field(default_factory=Counter)

    @property
    def capped(self) -> bool:
        return self.games < self.requested

    @property
    def strong_win_rate(self) -> float:
        return self.strong_wins / self.games if self.games else 0.0

    @property
    def games_per_s(self) -> float:
        return self.games / self.seconds if self.seconds else 0.0


def play_games(args: argparse.Namespace) -> GamesResult:
    """Strong against greedy under classic: seeds ``seed``, ``seed + 1``, ...; seats swap."""
    config = classic_config()
    players = [make_bot(name, config.ace) for name in BOTS]
    result = GamesResult(args.games, args.games_seed)
    ends = result.ends

    def count_hand(hand: Hand) -> None:
        ends[hand.score().end.value] += 1

    step = max(1, args.games // 10)
    gc.collect()
    began = time.perf_counter()
    deadline = began + args.games_max_seconds
    for number in range(args.games):
        match = new_match(config, args.games_seed + number)
        swap = number % 2  # which bot sits in table seat 0
        seating = [players[(seat + swap) % 2] for seat in range(match.players)]
        for game in match.play(seating, on_hand=count_hand):
            result.strong_wins += (game.winner + swap) % 2 == 0
        result.games += 1
        now = time.perf_counter()
        if result.games % step == 0:
            print(
                f"games: {result.games:,} of {args.games:,}, {now - began:.1f} s", file=sys.stderr
            )
        if now >= deadline:
            break
    result.seconds = time.perf_counter() - began
    result.hands = ends.total()
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
        last = games.seed + games.games - 1
        out += [
            "",
            f"{BOTS[0]} against {BOTS[1]}, {RULESET} rules, one process: {games.games:,} games"
            f" (seeds {games.seed}..{last}, the bots change seats every game)",
        ]
        if games.capped:
            out.append(
                f"NOTE: stopped by --games-max-seconds after {games.games:,} of"
                f" {games.requested:,} games; {games.requested:,} would take about"
                f" {games.requested / games.games_per_s:.0f} s"
            )
        rows = [["games", "seconds", "games/s", "hands", "hands/s", f"{BOTS[0]} wins"]]
        rows.append(
            [
                f"{games.games:,}",
                f"{games.seconds:.1f}",
                f"{games.games_per_s:.1f}",
                f"{games.hands:,}",
                f"{games.hands / games.seconds:,.0f}",
                f"{games.strong_win_rate:.1%}",
            ]
        )
        out += [format_table(rows), f"how the hands ended: {shares(games.ends)}"]
    return "\n".join(out)


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
        data["games"] = {
            "bots": list(BOTS),
            "requested": games.requested,
            "games": games.games,
            "seeds": [games.seed, games.seed + games.games - 1],
            "capped": games.capped,
            "seconds": games.seconds,
            "games_per_s": games.games_per_s,
            "hands": games.hands,
            "hands_per_s": games.hands / games.seconds,
            "strong_win_rate": games.strong_win_rate,
            "ends": dict(games.ends),
        }
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
