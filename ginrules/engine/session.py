"""A game session: people and bots at one table, driven one action at a time, I/O free.

A :class:`GameSession` deals the match's hands, lets the bots move, and stops
whenever a person must choose: :meth:`GameSession.legal` gives that person's
legal actions, :meth:`GameSession.act` applies the chosen one and runs on
until a person must choose again or the game is over. What happened comes
back as a list of events, small dataclasses that a terminal, a web page or a
test renders as it likes. A session is its seed plus the people's actions:
the same seed and the same choices replay the same game.

Events, in the order they come:

- :class:`HandStarted` for every hand dealt (``watched`` when a person plays it);
- :class:`BotMoved` for each bot action in a watched hand;
- :class:`HandOver` when a hand ends (dead, or after the showdown);
- :class:`HandsRecorded` when a round's hands are entered in the score pad
  (a partnership plays two hands a round);
- :class:`GameOver` at the end, with each game's result.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ginrules.cards import Card
from ginrules.engine.actions import Action
from ginrules.engine.bots import Bot, make_bot
from ginrules.engine.hand import Hand, Observation, Phase
from ginrules.engine.match import Deal, HandOutcome, Match, bot_rngs, new_match
from ginrules.engine.rounds import Round, SharedDeck, new_round
from ginrules.engine.scoreboard import GameResult
from ginrules.engine.scorepad import PadSnapshot, ScorePad, score_pad_class
from ginrules.rules.compile import EngineConfig


@dataclass(frozen=True, slots=True)
class HandStarted:
    """A hand was dealt."""

    #: The round, from 1 (a partnership deals two hands a round).
    number: int
    deal: Deal
    hand: Hand
    #: A person plays this hand; its bot moves are reported.
    watched: bool


@dataclass(frozen=True, slots=True)
class BotMoved:
    """A bot acted in a watched hand."""

    number: int
    deal: Deal
    #: The bot's hand seat (0 or 1).
    seat: int
    #: The phase the bot acted in, and the top of the discard pile before it acted.
    phase: Phase
    action: Action
    top: Card | None


@dataclass(frozen=True, slots=True)
class HandOver:
    """A hand ended: dead, or settled at the showdown (``hand.showdown``)."""

    number: int
    deal: Deal
    hand: Hand
    watched: bool
    #: For a pairing of a shared deck: the round so far (:meth:`SharedDeck.context`).
    round: dict[str, Any] | None = None

    def record(self, ruleset: str | None) -> dict[str, Any]:
        """The hand's record (``ginrules replay`` plays it back), with its round when the
        deck was shared."""
        record = self.hand.to_record(ruleset)
        if self.round is not None:
            record["round"] = self.round
        return record


@dataclass(frozen=True, slots=True)
class HandsRecorded:
    """A round's hands were entered in the score pad."""

    number: int
    hands: tuple[tuple[Deal, Hand], ...]
    #: The score right after these hands.
    score: PadSnapshot


@dataclass(frozen=True, slots=True)
class GameOver:
    """The game (every game, in Hollywood) is finished."""

    results: tuple[GameResult, ...]


Event = HandStarted | BotMoved | HandOver | HandsRecorded | GameOver


class SessionError(ValueError):
    """A session asked for something it cannot do now (no person to move, a finished game)."""


class GameSession:
    """A match with people and bots; ``seats`` holds a bot name (or bot) per table seat,
    ``None`` where a person sits."""

    def __init__(self, config: EngineConfig, seed: int, seats: Sequence[str | Bot | None]) -> None:
        self.config = config
        self.seed = seed
        self.match: Match = new_match(config, seed)
        if len(seats) != self.match.players:
            raise SessionError(f"this format seats {self.match.players}, not {len(seats)}")
        self.bots: list[Bot | None] = [
            make_bot(seat, config.ace) if isinstance(seat, str) else seat for seat in seats
        ]
        # The same seeding as Match.play, so a session with bots only replays a match.
        self.rngs: list[random.Random] = bot_rngs(seed, self.match.players)
        #: Rounds entered in the score pad so far.
        self.rounds = 0
        #: The round being played (None between rounds), and which of its hands have
        #: been reported as started and as over.
        self._round: Round | None = None
        self._announced: set[int] = set()
        self._ended: set[int] = set()
        #: The hand a person is to move in, while one is.
        self._index: int | None = None
        self._started = False

    @staticmethod
    def seats_for(config: EngineConfig) -> int:
        """How many players the configuration's format seats."""
        return score_pad_class(config).players

    # -- what a person sees ----------------------------------------------------

    @property
    def pad(self) -> ScorePad:
        return self.match.pad

    @property
    def over(self) -> bool:
        return self.match.finished

    @property
    def hand(self) -> Hand | None:
        """The hand being played, while a person is to move in it."""
        if self._round is None or self._index is None:
            return None
        return self._round.hands[self._index]

    @property
    def deal(self) -> Deal:
        """The deal of the hand a person is to move in."""
        assert self._round is not None and self._index is not None
        deal = self._round.deals[self._index]
        assert isinstance(deal, Deal)
        return deal

    def to_move(self) -> int | None:
        """The table seat of the person to move, or None when nobody is waited for."""
        hand = self.hand
        if hand is None or hand.over:
            return None
        return self.deal.seats[hand.to_move]

    def legal(self) -> Sequence[Action]:
        """The legal actions of the person to move."""
        return self._waiting().legal_actions()

    def observation(self) -> Observation:
        """What the person to move can see."""
        hand = self._waiting()
        return hand.observation(hand.to_move)

    # -- driving -----------------------------------------------------------------

    def start(self) -> list[Event]:
        """Deal and play until a person must act (or, with bots only, to the end)."""
        if self._started:
            raise SessionError("the session has started")
        self._started = True
        events: list[Event] = []
        self._run(events)
        return events

    def act(self, action: Action) -> list[Event]:
        """The person to move plays ``action``; then play on until a person must act again.

        An illegal action raises :class:`~ginrules.engine.illegal.IllegalAction` and
        changes nothing.
        """
        self._waiting()
        assert self._round is not None and self._index is not None
        self._round.apply(self._index, action)
        events: list[Event] = []
        self._run(events)
        return events

    def _waiting(self) -> Hand:
        hand = self.hand
        if hand is None or hand.over or self.bots[self.deal.seats[hand.to_move]] is not None:
            raise SessionError("no person is to move")
        return hand

    def _watched(self, deal: Deal) -> bool:
        return any(self.bots[seat] is None for seat in deal.seats)

    def _run(self, events: list[Event]) -> None:
        """Play bots, hands and rounds until a person is to move or the game is over."""
        self._index = None
        while True:
            if self._round is None:
                if self.match.finished:
                    events.append(GameOver(tuple(self.match.results())))
                    return
                self._round = new_round(self.config, self.match.deals())
                self._announced, self._ended = set(), set()
            round_ = self._round
            index = round_.current()
            self._report(round_, index, events)
            if index is None:
                self._record_round(round_, events)
                continue
            hand = round_.hands[index]
            deal = round_.deals[index]
            assert isinstance(deal, Deal)
            seat = hand.to_move
            bot = self.bots[deal.seats[seat]]
            if bot is None:
                self._index = index
                return  # a person is to move
            observation = hand.observation(seat) if bot.observes else None
            phase = hand.phase
            top = hand.pile[-1] if hand.pile else None
            action = bot.choose(observation, hand.legal_actions(), self.rngs[deal.seats[seat]])
            round_.apply(index, action)
            if self._watched(deal):
                events.append(BotMoved(self.rounds + 1, deal, seat, phase, action, top))

    def _report(self, round_: Round, index: int | None, events: list[Event]) -> None:
        """HandStarted for each hand that has begun, HandOver for each that has ended."""
        for i, (deal, hand) in enumerate(zip(round_.deals, round_.hands, strict=True)):
            assert isinstance(deal, Deal)
            begun = hand.over or i == index or isinstance(round_, SharedDeck)
            if begun and i not in self._announced:
                self._announced.add(i)
                events.append(HandStarted(self.rounds + 1, deal, hand, self._watched(deal)))
            if hand.over and i not in self._ended:
                self._ended.add(i)
                context = round_.context(i) if isinstance(round_, SharedDeck) else None
                events.append(HandOver(self.rounds + 1, deal, hand, self._watched(deal), context))

    def _record_round(self, round_: Round, events: list[Event]) -> None:
        played = tuple((deal, hand) for deal, hand in zip(round_.deals, round_.hands, strict=True))
        self.match.record([HandOutcome.of(hand) for hand in round_.hands])
        self.rounds += 1
        self._round = None
        events.append(
            HandsRecorded(self.rounds, played, self.match.pad.snapshot())  # type: ignore[arg-type]
        )


__all__ = [
    "BotMoved",
    "Event",
    "GameOver",
    "GameSession",
    "HandOver",
    "HandStarted",
    "HandsRecorded",
    "SessionError",
]
