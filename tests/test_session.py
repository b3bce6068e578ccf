"""The game session: people and bots driven one action at a time, reported as events."""

from __future__ import annotations

import random

import pytest

from ginrules.cards import DECK
from ginrules.engine.actions import discard
from ginrules.engine.bots import make_bot
from ginrules.engine.illegal import IllegalAction
from ginrules.engine.match import new_match
from ginrules.engine.scorepad import PadEntry, new_score_pad
from ginrules.engine.session import (
    BotMoved,
    Event,
    GameOver,
    GameSession,
    HandOver,
    HandsRecorded,
    HandStarted,
    SessionError,
)
from tests.engine_helpers import config, config_with


@pytest.mark.parametrize("name", ["classic", "hollywood", "partnership", "oklahoma"])
def test_a_session_of_bots_plays_the_same_game_as_the_match(name: str) -> None:
    cfg = config(name)
    for seed in range(3):
        match = new_match(cfg, seed)
        results = match.play([make_bot("greedy", cfg.ace) for _ in range(match.players)])
        session = GameSession(cfg, seed, ["greedy"] * match.players)
        events = session.start()
        assert session.over
        assert isinstance(events[-1], GameOver)
        assert list(events[-1].results) == results
        assert sum(isinstance(e, HandsRecorded) for e in events) == len(match.pad.entries)
        assert not any(isinstance(e, BotMoved) for e in events)  # nobody watched


def play_as_person(session: GameSession, rng: random.Random) -> list[Event]:
    """Drive the person's seat with the greedy bot's choices."""
    person = make_bot("greedy", session.config.ace)
    events = session.start()
    while not session.over:
        assert session.to_move() == 0
        events += session.act(person.choose(session.observation(), session.legal(), rng))
    return events


def test_a_person_seat_gives_legal_moves_and_the_events_come_in_order() -> None:
    cfg = config("classic")
    session = GameSession(cfg, 7, [None, "strong"])
    events = play_as_person(session, random.Random(1))
    kinds = [type(e).__name__ for e in events]
    assert kinds[0] == "HandStarted"
    assert kinds[-1] == "GameOver"
    # Every hand starts, then its bot moves, then ends, then is recorded.
    for number in range(1, session.rounds + 1):
        of_hand = [e for e in events if getattr(e, "number", None) == number]
        assert isinstance(of_hand[0], HandStarted) and of_hand[0].watched
        assert isinstance(of_hand[-1], HandsRecorded)
        assert isinstance(of_hand[-2], HandOver)
        assert all(isinstance(e, BotMoved) for e in of_hand[1:-2])
    assert session.pad.finished


def test_an_illegal_action_raises_and_changes_nothing() -> None:
    session = GameSession(config("classic"), 3, [None, "greedy"])
    session.start()
    assert session.to_move() == 0
    hand = session.hand
    assert hand is not None
    before = (hand.phase, list(hand.history), hand.observation(hand.to_move))
    held = hand.observation(hand.to_move).hand
    not_held = next(card for card in DECK if not held & card.bit)
    illegal = discard(not_held)  # never legal: the card is not in the person's hand
    assert illegal not in session.legal()
    with pytest.raises(IllegalAction):
        session.act(illegal)
    assert (hand.phase, list(hand.history), hand.observation(hand.to_move)) == before


def test_nobody_to_move_is_an_error_not_a_guess() -> None:
    session = GameSession(config("classic"), 1, ["greedy", "greedy"])
    session.start()
    with pytest.raises(SessionError):
        session.legal()
    with pytest.raises(SessionError):
        session.start()


def test_three_handed_hands_without_the_person_are_played_unwatched() -> None:
    cfg = config_with("classic", "format:\n  type: three_handed\n  players: 3\n")
    session = GameSession(cfg, 5, [None, "greedy", "greedy"])
    events = play_as_person(session, random.Random(2))
    started = [e for e in events if isinstance(e, HandStarted)]
    assert any(not e.watched for e in started)  # the person dealt and sat out
    for event in started:
        assert event.watched == (0 in event.deal.seats)
    unwatched = {e.number for e in started if not e.watched}
    assert not any(isinstance(e, BotMoved) and e.number in unwatched for e in events)


def test_a_session_with_the_wrong_number_of_seats_is_refused() -> None:
    with pytest.raises(SessionError):
        GameSession(config("classic"), 1, [None, "greedy", "greedy"])


def test_each_recorded_round_carries_the_score_as_it_was_then() -> None:
    cfg = config_with("classic", "format:\n  type: three_handed\n  players: 3\n")
    session = GameSession(cfg, 5, ["greedy", "greedy", "greedy"])
    recorded = [e for e in session.start() if isinstance(e, HandsRecorded)]
    pad = session.pad
    replay = new_score_pad(cfg, pad.first_dealers)
    for event, entry in zip(recorded, pad.entries, strict=True):
        replay.add(PadEntry(entry.reports))
        assert event.score == replay.snapshot()
    assert recorded[0].score != recorded[-1].score
