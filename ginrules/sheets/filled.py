"""A score pad with a game's hands written in, as the players would have kept it.

The blank pad (``templates/scorepad.html``) gives each side (a player, or a
team in a partnership) its columns; a filled pad writes each hand in the
column of the side that scored it, with the running total beside it, and
the end rows (boxes, game bonus, total) and the settlement under them.

:func:`pad_fill` reads a played :class:`~ginrules.engine.scorepad.ScorePad`
hand by hand: it enters the pad's own entries, one at a time, into a fresh
pad of the same rules and keeps the engine's snapshot after each. Every
running total, partnership net and game a Hollywood hand counted in is
therefore the engine's, and the end rows are the engine's
:class:`~ginrules.engine.scoreboard.GameResult`: nothing here scores.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ginrules.engine.scoreboard import GameResult
from ginrules.engine.scorepad import GameScore, PadSnapshot, ScorePad, new_score_pad
from ginrules.rules.compile import FormatType
from ginrules.words.i18n import format_list


@dataclass(frozen=True)
class Deal:
    """One two-player hand of a pad line (a partnership deals two at once)."""

    #: The table seats playing it.
    seats: tuple[int, int]
    #: The table seat that won it; None for a dead hand.
    winner: int | None
    points: int


@dataclass(frozen=True)
class PadLine:
    """One hand as one game's columns show it."""

    #: The table's hand number (1-based), whichever games it counted in.
    number: int
    #: The side whose columns the hand is written in: None for a dead hand (or a
    #: partnership hand whose two results net to nothing).
    side: int | None
    #: The points written: the hand's, or a partnership's netted points.
    points: int
    #: The boxes the side earned with it (the engine's count, 0 for nobody).
    boxes: int
    #: Every side's running total in this game after the hand.
    totals: tuple[int, ...]
    deals: tuple[Deal, ...]


@dataclass(frozen=True)
class GameFill:
    """One game of the pad: its hands, its score now, and its result once it is over."""

    lines: tuple[PadLine, ...]
    score: GameScore
    result: GameResult | None


@dataclass(frozen=True)
class PadFill:
    """What a filled pad shows, as plain data: names, and each game's lines and result."""

    #: The rules the pad was played under (the pad printed must be of these rules).
    fingerprint: str
    #: The players' names, in table seats.
    players: tuple[str, ...]
    #: Each side's name: the player, or a partnership team's two players.
    sides: tuple[str, ...]
    games: tuple[GameFill, ...]


def pad_fill(pad: ScorePad, players: Sequence[str]) -> PadFill:
    """The filled pad of ``pad``, played by ``players`` (in table seats)."""
    config = pad.config
    names = tuple(players)
    assert len(names) == pad.players, (names, pad.players)
    partnership = config.format is FormatType.PARTNERSHIP
    # A partnership's teams are the even seats and the odd seats (partners sit opposite).
    sides = tuple(format_list(names[team::2]) for team in (0, 1)) if partnership else names
    replayed = new_score_pad(config, pad.first_dealers)
    lines: list[list[PadLine]] = [[] for _ in pad.boards]
    before = replayed.snapshot()
    for number, entry in enumerate(pad.entries, start=1):
        replayed.add(entry)
        after = replayed.snapshot()
        deals = tuple(
            Deal(seating.seats, report.winner, report.points)
            for report, seating in zip(entry.reports, entry.seatings, strict=True)
        )
        side, points = _scored_by(after, deals)
        for game, (was, now) in enumerate(zip(before.games, after.games, strict=True)):
            if now.hands == was.hands:
                continue  # a Hollywood hand not entered in this game (or the game is over)
            boxes = 0 if side is None else now.boxes[side] - was.boxes[side]
            lines[game].append(PadLine(number, side, points, boxes, now.points, deals))
        before = after
    assert before == pad.snapshot(), "the pad's own entries give the pad's score"
    results: list[GameResult | None] = (
        list(pad.results())
        if pad.finished
        else [board.result() if board.finished else None for board in pad.boards]
    )
    return PadFill(
        config.fingerprint,
        names,
        sides,
        tuple(
            GameFill(tuple(game_lines), score, result)
            for game_lines, score, result in zip(lines, before.games, results, strict=True)
        ),
    )


def _scored_by(after: PadSnapshot, deals: tuple[Deal, ...]) -> tuple[int | None, int]:
    """The side a hand is written for, and its points: a partnership's net, else the hand's."""
    if after.net is not None:
        if after.net == 0:
            return None, 0
        return (0 if after.net > 0 else 1), abs(after.net)
    (deal,) = deals
    return deal.winner, deal.points
