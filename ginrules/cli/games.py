"""Commands that play: ``simulate`` (bots, many games) and ``replay`` (a hand record)."""

from __future__ import annotations

import argparse
import json
import time
from typing import Any, TextIO

from ginrules.cli.common import (
    EXIT_INVALID,
    EXIT_OK,
    EXIT_USAGE,
    AddCommand,
    Output,
    config_or_report,
)
from ginrules.engine.bots import BOTS
from ginrules.engine.match import MatchError
from ginrules.engine.parallel import MAX_JOBS, usable_cores
from ginrules.engine.record import RecordError, replay
from ginrules.engine.simulate import (
    ENDINGS,
    SimulatedMatchError,
    Simulation,
    SimulationInterrupted,
    simulate_each,
)
from ginrules.rules.compile import EngineConfig
from ginrules.words import jobs, problems
from ginrules.words.showdown import summary_line
from ginrules.words.simulation import compare

#: The exit code after Ctrl-C, as a shell reports a command ended by SIGINT (128 + 2).
EXIT_INTERRUPTED = 130


class _ProgressBar:
    """A progress bar on standard error: redrawn in place on a terminal (each 1/40 of the
    games, and at least every quarter second while games finish), a few lines otherwise."""

    #: Seconds between redraws on a terminal when the count moves but not a whole step.
    REDRAW = 0.25

    def __init__(self, stream: TextIO, total: int, label: str) -> None:
        self.stream = stream
        self.total = total
        self.label = label
        self.tty = stream.isatty()
        self.shown = -1
        self.started = self.drawn = time.perf_counter()

    def __call__(self, done: int) -> None:
        step = done * (40 if self.tty else 4) // self.total
        now = time.perf_counter()
        stale = self.tty and now - self.drawn >= self.REDRAW
        if step == self.shown and done != self.total and not stale:
            return
        self.shown, self.drawn = step, now
        filled = done * 30 // self.total
        bar = "#" * filled + "-" * (30 - filled)
        text = f"{self.label} [{bar}] {done}/{self.total} games, {now - self.started:.1f} s"
        if self.tty:
            end = "\n" if done == self.total else ""
            print(f"\r{text}", end=end, file=self.stream, flush=True)
        else:
            print(text, file=self.stream, flush=True)

    def interrupted(self) -> None:
        """End the bar's line on a terminal, so what follows starts on a line of its own."""
        if self.tty and self.shown >= 0:
            print(file=self.stream, flush=True)


def cmd_simulate(args: argparse.Namespace, output: Output) -> int:
    """Play the games (in ``--jobs`` processes) and report. Ctrl-C at any moment ends
    with exit code 130 and no traceback: during the games, with the partial report."""
    said: list[bool] = []  # set once the interrupted line is out
    try:
        return _simulate(args, output, said)
    except KeyboardInterrupt:  # while the rulesets load, or a second Ctrl-C at the end
        if not said:
            output.problem(jobs.interrupted(0, args.games))
        return EXIT_INTERRUPTED


def _simulate(args: argparse.Namespace, output: Output, said: list[bool]) -> int:
    bots = [name.strip().lower() for name in args.bots.split(",")]
    if len(bots) != 2 or any(name not in BOTS for name in bots):
        output.problem(f"error: --bots takes two of {', '.join(BOTS)}, like strong,greedy")
        return EXIT_USAGE
    if not 1 <= args.games <= 1_000_000:
        output.problem("error: --games must be between 1 and 1000000")
        return EXIT_USAGE
    workers = min(usable_cores(), MAX_JOBS) if args.jobs is None else args.jobs
    if not 1 <= workers <= MAX_JOBS:
        output.problem(jobs.jobs_out_of_range(MAX_JOBS))
        return EXIT_USAGE
    names = [args.ruleset] + ([args.compare] if args.compare else [])
    configs: list[EngineConfig] = []
    for name in names:
        config = config_or_report(name, output)
        if config is None:
            return EXIT_INVALID
        configs.append(config)
    bar = (
        None
        if args.json and not output.err.isatty()
        else _ProgressBar(output.err, args.games, ", ".join(names))
    )
    try:
        runs = simulate_each(configs, args.games, args.seed, bots, progress=bar, jobs=workers)
    except SimulationInterrupted as stop:
        if bar is not None:
            bar.interrupted()
        output.problem(jobs.interrupted(stop.done, args.games))
        said.append(True)
        if stop.done:
            _print_runs(args, names, stop.results, output)
        return EXIT_INTERRUPTED
    except MatchError as error:
        name = names[error.position] if isinstance(error, SimulatedMatchError) else names[0]
        output.problem(f"{name}: error: {problems.message(error)}")
        return EXIT_INVALID
    _print_runs(args, names, runs, output)
    return EXIT_OK


def _print_runs(
    args: argparse.Namespace, names: list[str], runs: list[Simulation], output: Output
) -> None:
    """The report of a run (and of the compared ruleset's), as text or JSON."""
    if args.json:
        data: dict[str, Any] = {"ruleset": names[0], **runs[0].to_json()}
        if args.compare:
            data["compare"] = {
                "ruleset": names[1],
                **runs[1].to_json(),
                "summary": compare(runs[0], runs[1], names[1]),
            }
        output.json(data)
        return
    for name, run in zip(names, runs, strict=True):
        _report(name, run, output)
    if args.compare:
        output.line(f"Same seeds, {names[0]} -> {names[1]}:")
        for line in compare(runs[0], runs[1], names[1]):
            output.line(f"  {line}")


def _report(name: str, run: Simulation, output: Output) -> None:
    first, second = run.bots
    if first == second:
        first, second = f"{first} (seat 0 first)", f"{second} (seat 1 first)"
    a, b = run.win_rates
    output.line(
        f"{name} ({run.fingerprint}): {run.matches} matches, {run.games} games,"
        f" {run.hands} hands, seeds {run.seed}..{run.seed + run.matches - 1}"
    )
    output.line(f"  wins: {first} {a:.1%} ({run.wins[0]}), {second} {b:.1%} ({run.wins[1]})")
    rates = ", ".join(f"{end.value.replace('_', ' ')} {run.rate(end):.1%}" for end in ENDINGS)
    output.line(f"  hands end: {rates}")
    output.line(
        f"  {run.turns_per_hand:.1f} turns per hand, {run.hands_per_game:.1f} hands per match,"
        f" {run.points_per_hand:.1f} points per decided hand,"
        f" {run.points_per_game:.1f} points' margin per game"
    )
    output.line()


def cmd_replay(args: argparse.Namespace, output: Output) -> int:
    try:
        with open(args.record, encoding="utf-8") as stream:
            text = stream.read()
    except (OSError, UnicodeDecodeError) as error:
        output.problem(f"{args.record}: error: cannot read: {error}")
        return EXIT_INVALID
    records: list[tuple[int, Any]] = []
    stripped = text.strip()
    try:
        if stripped.startswith("{") and "\n{" not in stripped:
            records = [(1, json.loads(stripped))]
        else:
            records = [
                (number, json.loads(line))
                for number, line in enumerate(text.splitlines(), 1)
                if line.strip()
            ]
    except json.JSONDecodeError as error:
        output.problem(f"{args.record}: error: not JSON: {error}")
        return EXIT_INVALID
    configs: dict[str, EngineConfig | None] = {}
    status = EXIT_OK
    for number, record in records:
        where = f"{args.record}:{number}"
        name = args.ruleset or (record.get("ruleset") if isinstance(record, dict) else None)
        if not isinstance(name, str):
            output.problem(f"{where}: error: the record names no ruleset; pass --ruleset")
            status = EXIT_INVALID
            continue
        if name not in configs:
            configs[name] = config_or_report(name, output)
        config = configs[name]
        if config is None:
            return EXIT_INVALID
        try:
            replayed = replay(record, config)
        except RecordError as error:
            output.problem(f"{where}: error: {problems.message(error)}")
            status = EXIT_INVALID
            continue
        summary = summary_line(replayed.hand)
        if replayed.matches:
            output.line(f"{where}: {summary}; same result as recorded")
        else:
            output.problem(
                f"{where}: error: replay gives {json.dumps(replayed.hand.result_json())},"
                f" the record says {json.dumps(replayed.recorded)}"
            )
            status = EXIT_INVALID
    return status


def register(add: AddCommand) -> None:
    sub = add(
        "simulate",
        cmd_simulate,
        "play many seeded games between bots and report how hands end and score",
        "ginrules simulate oklahoma --games 500 --seed 1 --bots strong,greedy --compare classic",
    )
    sub.add_argument("ruleset", metavar="NAME_OR_PATH")
    sub.add_argument("--games", type=int, default=1000, help="matches to play (default 1000)")
    sub.add_argument("--seed", type=int, default=0, help="seed of the first match (default 0)")
    sub.add_argument(
        "--bots",
        default="strong,greedy",
        help="two of random, greedy, strong (default strong,greedy)",
    )
    sub.add_argument("--compare", metavar="OTHER", help="the same seeds under another ruleset")
    sub.add_argument(
        "--jobs",
        type=int,
        metavar="N",
        help=f"worker processes to play in, 1 to {MAX_JOBS} (default: the cores this process"
        f" may use, here {min(usable_cores(), MAX_JOBS)}); the results are the same for any N",
    )
    sub.add_argument("--json", action="store_true", help="print JSON")

    sub = add(
        "replay",
        cmd_replay,
        "play hand records back and check they reach the recorded result",
        "ginrules replay hand.json",
    )
    sub.add_argument("record", metavar="FILE", help="a hand record, or JSON lines of them")
    sub.add_argument("--ruleset", help="the ruleset to replay under (default: the record's)")
