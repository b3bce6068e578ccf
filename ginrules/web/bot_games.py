"""Games against the bot: the one service the game's page and its API call.

A game is pinned to the rules it starts under, as a card table is
(:func:`~ginrules.web.table_service.pinned`), and stores only its bots'
name, its seed and the person's actions: a
:class:`~ginrules.engine.session.GameSession` is its seed plus the people's
choices. Every request deals the game again from the seed and replays the
actions (the engine's own session, bots and score pad: no second game loop
or scoring), so any worker serves the next move and a game survives a
restart. A move names how many actions the phone saw; a second tap of the
same move finds the count moved on and is never applied twice.

What the person sees (:func:`game_json`) is built from
:meth:`GameSession.observation` only: never the bots' cards before a
showdown, nor the seed (which deals every card) before the game is over.
"""

from __future__ import annotations

import dataclasses
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

from ginrules.cards import Card, mask_to_cards, sort_for_display
from ginrules.engine.actions import DEFEND_BEST, TAKE, Act, Action
from ginrules.engine.hand import Observation, Phase
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
from ginrules.melds import Arrangement, best_melds, scorer
from ginrules.rules.compile import EngineConfig, FormatType
from ginrules.rules.diagnostics import RulesetError
from ginrules.web.bot_store import BotGame, BotStore
from ginrules.web.refs import Loaded
from ginrules.web.storage import hash_secret, new_secret
from ginrules.web.table_service import pinned, pinned_config
from ginrules.web.table_store import Conflict
from ginrules.words import bot_games as words
from ginrules.words.cards import CardView
from ginrules.words.game import (
    bot_move,
    hand_header,
    knock_limit_words,
    net_line,
    person,
    results_lines,
    score_line,
    seat_names,
    side_name,
    silent_summary,
)
from ginrules.words.showdown import game_lines

#: The bots a person may play against, the strongest first (the default).
BOT_CHOICES: Final = ("strong", "greedy", "random")
#: The highest seed a game may be dealt from.
MAX_SEED: Final = 999_999_999
#: More moves than any game makes: ``seen`` beyond it is not a real count.
MAX_SEEN: Final = 1_000_000

__all__ = [
    "BOT_CHOICES",
    "MAX_SEED",
    "MAX_SEEN",
    "BotGameRefused",
    "Conflict",
    "GameLost",
    "Played",
    "act",
    "game_json",
    "start",
    "state",
]


class BotGameRefused(ValueError):
    """A game that cannot start, or a move that cannot be taken: ``field`` is at fault."""

    def __init__(self, field: str, reason: str, **params: object) -> None:
        super().__init__(field, reason, params)
        self.field = field
        self.reason = reason
        self.params = params


class GameLost(Exception):
    """The stored moves no longer replay (the engine or its bots changed since)."""


#: An action as the person played it: the phase, the action, the top of the pile.
Move = tuple[Phase, Action, Card | None]


@dataclass(frozen=True)
class Played:
    """A game rebuilt: the stored row, its rules, the session, and what happened."""

    game: BotGame
    config: EngineConfig
    session: GameSession
    #: The events of ``session.start()`` and then of each of the person's actions.
    steps: tuple[tuple[Event, ...], ...]
    #: Each of the person's actions with the phase it was played in and the top of the
    #: discard pile then (``steps[n + 1]`` followed ``moves[n]``).
    moves: tuple[Move, ...]


def start(games: BotStore, loaded: Loaded, bot: str, seed: int | None = None) -> tuple[Played, str]:
    """A new game under ``loaded`` against ``bot`` bots (dealt from ``seed``, or a new
    one); returns it and the player's secret key (only its hash is stored)."""
    if bot not in BOT_CHOICES:
        raise BotGameRefused("bot", "unknown_bot", names=", ".join(BOT_CHOICES))
    if seed is None:
        seed = secrets.randbelow(MAX_SEED + 1)
    elif not 0 <= seed <= MAX_SEED:
        raise BotGameRefused("seed", "seed", most=MAX_SEED)
    secret = new_secret()
    game = games.create(pinned(loaded), bot, seed, hash_secret(secret))
    return replay(game), secret


def state(games: BotStore, slug: str) -> Played | None:
    """The game as it stands, rebuilt from its moves; None for no such game."""
    game = games.get(slug)
    return None if game is None else replay(game)


def act(games: BotStore, slug: str, seen: int, action: Action) -> Played:
    """The person plays ``action``, having seen ``seen`` moves; the game after it.

    Raises the engine's :class:`~ginrules.engine.illegal.IllegalAction` for a move the
    rules refuse, :class:`BotGameRefused` once the game is over, :class:`Conflict`
    when the phone's count is stale, ``KeyError`` for no game; nothing is stored then.
    """
    game = games.get(slug)
    if game is None:
        raise KeyError(slug)
    if seen != game.action_count:
        raise Conflict(game.action_count)
    played = replay(game)
    if played.session.to_move() is None:
        raise BotGameRefused("action", "over")
    before = _before(played.session, action)
    try:
        events = played.session.act(action)
    except SessionError:  # pragma: no cover - to_move() above says a person is waited for
        raise BotGameRefused("action", "over") from None
    stored = action.to_json()
    when = games.append(slug, seen, stored)
    moved = dataclasses.replace(game, actions=(*game.actions, stored), updated_at=when)
    steps = (*played.steps, tuple(events))
    return Played(moved, played.config, played.session, steps, (*played.moves, before))


def replay(game: BotGame) -> Played:
    """Deal the game from its seed and play the person's stored actions again."""
    try:
        config = pinned_config(game.rules.yaml, game.rules.name)
        players = GameSession.seats_for(config)
        # The person sits at table seat 0 (None: no bot there), the bots at the others.
        session = GameSession(config, game.seed, [None, *([game.bot] * (players - 1))])
        steps = [tuple(session.start())]
        moves = []
        for data in game.actions:
            action = Action.from_json(data)
            moves.append(_before(session, action))
            steps.append(tuple(session.act(action)))
    except (RulesetError, ValueError) as error:  # ValueError: IllegalAction, SessionError
        raise GameLost(game.slug) from error
    return Played(game, config, session, tuple(steps), tuple(moves))


def _before(session: GameSession, action: Action) -> Move:
    """The person's ``action`` with what the table showed when it was played."""
    seen = session.observation()
    return seen.phase, action, seen.pile[-1] if seen.pile else None


# -- what the person sees ------------------------------------------------------------


def game_json(played: Played) -> dict[str, Any]:
    """The game as the API and the page show it: the person's view, the legal moves,
    what happened, the score."""
    game, config, session = played.game, played.config, played.session
    view = CardView(config.ace, symbols=True)
    names = seat_names(config, GameSession.seats_for(config))
    story = _Story(config, names, view)
    for number, events in enumerate(played.steps):
        mine = played.moves[number - 1] if number else None
        story.read(events, mine, latest=number == len(played.steps) - 1)
    snapshot = session.pad.snapshot()
    waiting = session.to_move() is not None
    return {
        "slug": game.slug,
        "rules": {
            "ref": game.rules.ref,
            "name": game.rules.name,
            "fingerprint": game.rules.fingerprint,
            "path": _rules_path(game.rules.ref),
        },
        "bot": game.bot,
        "format": config.format.value,
        "matchup": words.matchup(config, game.bot),
        "players": names,
        "seen": game.action_count,
        "over": session.over,
        "seed": game.seed if session.over else None,
        "score": {
            "games": [
                {
                    "points": list(score.points),
                    "boxes": list(score.boxes),
                    "hands": score.hands,
                    "target": score.target,
                    "winner": score.winner,
                }
                for score in snapshot.games
            ],
            "sides": [
                person(side_name(config, names, side))
                for side in range(len(snapshot.games[0].points))
            ],
            "line": score_line(config, names, snapshot),
        },
        "hand": _hand_json(played, names, view) if waiting else None,
        "moves": _moves_json(played, view) if waiting else [],
        "this_hand": story.hand if waiting else [],
        "latest": story.latest if waiting else [],
        "last_round": story.last_round,
        "results": story.results,
    }


def _rules_path(ref: str) -> str:
    """The rules' page on the site (a saved version's never changes)."""
    return f"/{ref}" if ref.startswith("h/") else f"/rules/{ref}"


def _cards(cards: Sequence[Card]) -> list[str]:
    return [str(card) for card in cards]


def _arrangement_json(arrangement: Arrangement) -> dict[str, Any]:
    """Melds first, then the deadwood cards in order: a hand as the person sorts it."""
    return {
        "melds": [_cards(meld.cards) for meld in arrangement.melds],
        "deadwood_cards": _cards(sort_for_display(arrangement.unmatched)),
        "deadwood": arrangement.deadwood,
    }


def _hand_json(played: Played, names: list[str], view: CardView) -> dict[str, Any]:
    config, session = played.config, played.session
    hand, deal = session.hand, session.deal
    assert hand is not None
    seen = session.observation()
    top = seen.pile[-1] if seen.pile else None
    opponent = names[deal.seats[1 - seen.seat]]
    return {
        "number": session.rounds + 1,
        "phase": seen.phase.value,
        "prompt": words.prompt(seen.phase, top, TAKE in session.legal(), opponent, view),
        "opponent": opponent,
        "dealer": person(names[deal.seats[deal.dealer]]),
        "knock_limit": seen.knock_limit,
        "knock_limit_text": knock_limit_words(config, hand, view),
        "doubled": config.spades_doubled(hand.upcard),
        **_arrangement_json(best_melds(mask_to_cards(seen.hand), config.ace)),
        "taken": None if seen.taken is None else str(seen.taken),
        "pile_top": None if top is None else str(top),
        "pile_count": len(seen.pile),
        "pile_size": words.pile_size(len(seen.pile)),
        "stock_left": seen.stock_left,
        "stock_words": words.stock_left(seen.stock_left),
        "dead_at": config.stock_end_cards_left,
        "dead_at_words": words.dead_at(config.stock_end_cards_left),
        "opponent_cards": seen.opponent_cards,
        "opponent_holds": words.opponent_holds(opponent, seen.opponent_cards),
        "opponent_known": _cards(sort_for_display(mask_to_cards(seen.opponent_known))),
        "knock": _knock_json(played, opponent, view) if seen.phase is Phase.LAYOFF else None,
    }


def _knock_json(played: Played, opponent: str, view: CardView) -> dict[str, Any]:
    """The bot's knock as it lies on the table (the showdown has begun), and the
    person's best reply, found on a copy of the hand."""
    hand = played.session.hand
    assert hand is not None
    trial = hand.copy()
    trial.apply(DEFEND_BEST)
    showdown = trial.showdown
    assert showdown is not None
    shown = showdown.knocker_arrangement
    return {
        **_arrangement_json(shown),
        "text": words.knocker_shows(opponent, shown.deadwood),
        "preview": words.layoff_preview(words.laid_off(showdown, view), showdown.defense.deadwood),
    }


def _moves_json(played: Played, view: CardView) -> list[dict[str, Any]]:
    config, session = played.config, played.session
    seen: Observation = session.observation()
    top = seen.pile[-1] if seen.pile else None
    deadwood = scorer(config.ace).deadwood
    moves = []
    for action in session.legal():
        left = None
        if action.kind in (Act.KNOCK, Act.GIN) and action.card is not None:
            left = deadwood(seen.hand & ~action.card.bit)
        label = words.move_label(
            seen.phase, action, top, left, view, silent_gin=not config.gin_must_be_declared
        )
        moves.append(
            {
                "action": action.to_json(),
                "kind": action.kind.value,
                "card": None if action.card is None else str(action.card),
                "left": left,
                "label": label,
            }
        )
    return moves


class _Story:
    """The events told as the terminal game tells them: the hand being played (its
    deal and the bots' moves), the last round's showdowns and score, the results."""

    def __init__(self, config: EngineConfig, names: list[str], view: CardView) -> None:
        self.config, self.names, self.view = config, names, view
        self.hand: list[str] = []
        #: The bots' moves in the hand being played since the person's last move.
        self.latest: list[str] = []
        self.round: list[str] = []
        self.silent: list[HandOver] = []
        self.last_round: dict[str, Any] | None = None
        self.results: list[str] = []

    def read(self, events: Sequence[Event], mine: Move | None, *, latest: bool) -> None:
        """The events that followed the person's move ``mine`` (None: the deal)."""
        config, names, view = self.config, self.names, self.view
        if mine is not None:
            text = words.your_move(*mine, view)
            if text:
                self.hand.append(text)
        self.latest = []
        for event in events:
            if isinstance(event, HandStarted) and event.watched:
                self.hand = _plain(
                    hand_header(config, event.number, event.deal, event.hand, names, view)
                )
                self.latest = []
            elif isinstance(event, BotMoved):
                name = names[event.deal.seats[event.seat]]
                text = bot_move(name, event.phase, event.action, event.top, view)
                if text:
                    self.hand.append(text)
                    self.latest.append(text)
            elif isinstance(event, HandOver) and event.watched:
                players = [names[seat] for seat in event.deal.seats]
                self.round += _plain(game_lines(event.hand, players, view, config))
            elif isinstance(event, HandOver):
                self.silent.append(event)
            elif isinstance(event, HandsRecorded):
                self._recorded(event, latest=latest)
            elif isinstance(event, GameOver):
                self.results = _plain(results_lines(config, names, event.results))

    def _recorded(self, event: HandsRecorded, *, latest: bool) -> None:
        config, names = self.config, self.names
        lines = self.round
        for over in self.silent:
            lines.append(silent_summary(config, names, over.deal, over.hand.showdown))
        if config.format is FormatType.PARTNERSHIP:
            lines.append(net_line(config, names, event.score.net or 0))
        lines.append(score_line(config, names, event.score))
        self.last_round = {"number": event.number, "lines": lines, "new": latest}
        self.round, self.silent = [], []


def _plain(lines: Sequence[str]) -> list[str]:
    """The terminal's lines without its blank lines and ``===``/``--`` rulings."""
    plain = (line.strip().removeprefix("===").removesuffix("===") for line in lines)
    plain = (line.strip().removeprefix("--").removesuffix("--").strip() for line in plain)
    return [line for line in plain if line]
