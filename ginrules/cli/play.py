"""The ``play`` command: a person against bots at the terminal.

A :class:`~ginrules.engine.session.GameSession` deals and plays the game; the
person sits at table seat 0 as a :class:`TerminalPlayer`, which shows the
table and reads a move. This module renders the session's events in words
(:mod:`ginrules.words.game`, :mod:`ginrules.words.showdown`): what the bots
do in the person's hands, every showdown, and the score. In partnership and
three-handed games the hands between two bots are played silently and only
their results are shown.
"""

from __future__ import annotations

import argparse
import json
import random
from typing import TextIO

from ginrules.cli.common import EXIT_INVALID, EXIT_OK, AddCommand, Output, config_or_report
from ginrules.cli.terminal_player import Quit, TerminalPlayer
from ginrules.engine.bots import BOTS
from ginrules.engine.match import MatchError
from ginrules.engine.session import (
    BotMoved,
    Event,
    GameOver,
    GameSession,
    HandOver,
    HandsRecorded,
    HandStarted,
)
from ginrules.rules.compile import EngineConfig, FormatType
from ginrules.words import game as words
from ginrules.words import problems
from ginrules.words.cards import CardView
from ginrules.words.showdown import game_lines


class Renderer:
    """Prints a session's events for the person at seat 0."""

    def __init__(
        self,
        config: EngineConfig,
        names: list[str],
        person: TerminalPlayer,
        output: Output,
        *,
        ruleset: str,
        record: TextIO | None,
    ) -> None:
        self.config = config
        self.names = names
        self.person = person
        self.view: CardView = person.view
        self.output = output
        self.ruleset = ruleset
        self.record = record
        self.silent: list[HandOver] = []

    def say(self, text: str = "") -> None:
        self.output.line(text)

    def show(self, events: list[Event]) -> None:
        for event in events:
            if isinstance(event, HandStarted):
                self.hand_started(event)
            elif isinstance(event, BotMoved):
                self.bot_moved(event)
            elif isinstance(event, HandOver):
                self.hand_over(event)
            elif isinstance(event, HandsRecorded):
                self.hands_recorded(event)
            else:
                self.game_over(event)

    def hand_started(self, event: HandStarted) -> None:
        if not event.watched:
            return
        deal = event.deal
        opponent = self.names[deal.seats[1 - deal.seats.index(0)]]
        self.person.sit_down(event.hand, opponent)
        for line in words.hand_header(
            self.config, event.number, deal, event.hand, self.names, self.view
        ):
            self.say(line)

    def bot_moved(self, event: BotMoved) -> None:
        name = self.names[event.deal.seats[event.seat]]
        text = words.bot_move(name, event.phase, event.action, event.top, self.view)
        if text:
            self.say(f"  {text}")

    def hand_over(self, event: HandOver) -> None:
        if self.record is not None:
            print(json.dumps(event.record(self.ruleset)), file=self.record, flush=True)
        if event.watched:
            players = [self.names[seat] for seat in event.deal.seats]
            for line in game_lines(event.hand, players, self.view, self.config):
                self.say(line)
        else:
            self.silent.append(event)

    def hands_recorded(self, event: HandsRecorded) -> None:
        for over in self.silent:
            self.say(words.silent_summary(self.config, self.names, over.deal, over.hand.showdown))
        self.silent = []
        if self.config.format is FormatType.PARTNERSHIP:
            self.say(words.net_line(self.config, self.names, event.score.net or 0))
        self.say(words.score_line(self.config, self.names, event.score))

    def game_over(self, event: GameOver) -> None:
        for line in words.results_lines(self.config, self.names, event.results):
            self.say(line)


def play_session(session: GameSession, person: TerminalPlayer, renderer: Renderer) -> None:
    """Play to the end: render events, and ask the person whenever they are to move."""
    renderer.show(session.start())
    while not session.over:
        seat = session.to_move()
        assert seat == 0, "only the person at seat 0 is waited for"
        action = person.choose(session.observation(), session.legal(), random.Random())
        renderer.show(session.act(action))


def cmd_play(args: argparse.Namespace, output: Output) -> int:
    config = config_or_report(args.ruleset, output)
    if config is None:
        return EXIT_INVALID
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(1_000_000)
    symbols = args.symbols if args.symbols is not None else _speaks_utf8(output.out)
    view = CardView(config.ace, symbols=symbols)
    person = TerminalPlayer(config, output, view, auto_showdown=args.auto_showdown)
    try:
        players = GameSession.seats_for(config)
        session = GameSession(config, seed, [None, *([args.bot] * (players - 1))])
    except MatchError as error:
        output.problem(f"{args.ruleset}: error: {problems.message(error)}")
        return EXIT_INVALID
    record = None
    if args.record:
        try:
            record = open(args.record, "a", encoding="utf-8")  # noqa: SIM115 (closed below)
        except OSError as error:
            output.problem(problems.cannot_write(args.record, error))
            return EXIT_INVALID
    names = words.seat_names(config, players)
    renderer = Renderer(config, names, person, output, ruleset=args.ruleset, record=record)
    for line in words.welcome(args.ruleset, config, seed, args.bot, players):
        output.line(line)
    try:
        play_session(session, person, renderer)
    except (Quit, KeyboardInterrupt) as stop:
        if isinstance(stop, KeyboardInterrupt):
            output.line()  # off the prompt line
        output.line(words.abandoned(session.rounds))
        output.line(words.score_line(config, names, session.pad.snapshot()))
    except MatchError as error:
        output.problem(f"error: {problems.message(error)}")
        return EXIT_INVALID
    finally:
        if record is not None:
            record.close()
    return EXIT_OK


def _speaks_utf8(stream: TextIO) -> bool:
    encoding = getattr(stream, "encoding", None)
    return encoding is None or "utf" in encoding.lower()


def register(add: AddCommand) -> None:
    sub = add(
        "play",
        cmd_play,
        "play a game against a bot in the terminal",
        "ginrules play classic --seed 7",
    )
    sub.add_argument("ruleset", metavar="NAME_OR_PATH")
    sub.add_argument(
        "--bot", default="strong", choices=list(BOTS), help="the bots' strength (default strong)"
    )
    sub.add_argument("--seed", type=int, help="deal the same game again (default: a new one)")
    sub.add_argument(
        "--symbols",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="suits as ♣ ♦ ♥ ♠ (default when the terminal speaks UTF-8)",
    )
    sub.add_argument(
        "--auto-showdown",
        action="store_true",
        help="show the best melds at your knock, and lay off at your best, without asking",
    )
    sub.add_argument(
        "--record", metavar="FILE", help="append each hand as a JSON line, for ginrules replay"
    )
