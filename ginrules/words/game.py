"""A game at the terminal in words: the deal, the turns, the bots' moves, the score.

The terminal game (``ginrules play``) renders :mod:`ginrules.engine.session`
events and reads the person's moves; every sentence it prints is made here.
The person is :data:`~ginrules.words.showdown.YOU`; sentences about them are
their own messages (``you knock`` beside ``{name} knocks``).
"""

from __future__ import annotations

from collections.abc import Sequence

from ginrules.cards import Card
from ginrules.engine.actions import Act, Action
from ginrules.engine.hand import Hand, Phase
from ginrules.engine.match import Deal
from ginrules.engine.scoreboard import GameResult
from ginrules.engine.scorepad import PadSnapshot
from ginrules.engine.scoring import Showdown
from ginrules.rules.compile import EngineConfig, FormatType
from ginrules.words.cards import CardView
from ginrules.words.i18n import N_, _, format_number, ngettext, pgettext
from ginrules.words.showdown import YOU, outcome_line, said


def bot_name(bot: str) -> str:
    """A bot's name (``strong``, ``greedy``, ``random``) as a player reads it."""
    names = {
        # Translators: the bots' names, as in "You against the {bot} bot".
        "strong": pgettext("bot", "strong"),
        "greedy": pgettext("bot", "greedy"),
        "random": pgettext("bot", "random"),
    }
    return names.get(bot, bot)


def seat_names(config: EngineConfig, players: int) -> list[str]:
    """The players' names at the table; the person sits at seat 0."""
    if config.format is FormatType.PARTNERSHIP:
        return [YOU, _("bot 1"), _("partner"), _("bot 3")]
    if players == 2:
        return [YOU, _("bot")]
    return [YOU, *(_("bot {seat}").format(seat=seat) for seat in range(1, players))]


def person(name: str) -> str:
    """``name`` as a sentence or a scoreboard writes it: the person is ``you`` in the
    reader's language (:data:`YOU` itself stays the person's mark, never shown)."""
    # Translators: the person playing against the bots, as a name: "score (you to bot)".
    return pgettext("the person", "you") if name == YOU else name


def side_name(config: EngineConfig, names: Sequence[str], side: int) -> str:
    """A scoreboard side: a player, or a team in a partnership."""
    if config.format is FormatType.PARTNERSHIP:
        return _("team A") if side == 0 else _("team B")
    return names[side]


def welcome(ruleset: str, config: EngineConfig, seed: int, bot: str, players: int) -> list[str]:
    opponents = (
        _("the {bot} bot").format(bot=bot_name(bot))
        if players == 2
        else _("{bot} bots").format(bot=bot_name(bot))
    )
    game = {
        FormatType.TWO_PLAYER: _("one game"),
        FormatType.HOLLYWOOD: _("Hollywood, {games} games at once").format(games=config.games),
        FormatType.PARTNERSHIP: _("partnership: you and a bot partner against two bots"),
        FormatType.THREE_HANDED: _("three-handed: the dealer sits out each hand"),
    }[config.format]
    return [
        _(
            "ginrules play {ruleset} (rules {fingerprint}), seed {seed}:"
            " you against {opponents}; {game}, to {target}"
        ).format(
            ruleset=ruleset,
            fingerprint=config.fingerprint,
            seed=seed,
            opponents=opponents,
            game=game,
            target=config.target,
        ),
        _("type ? for help, q to quit"),
    ]


def knock_limit_words(config: EngineConfig, hand: Hand, view: CardView) -> str:
    limit = hand.knock_limit
    text = _("knock limit {limit} (gin only)") if limit == 0 else _("knock limit {limit}")
    text = text.format(limit=limit)
    if config.oklahoma and hand.upcard is not None:
        text = _("{limit}, set by the upcard {card}").format(
            limit=text, card=view.card(hand.upcard)
        )
    return text


def hand_header(
    config: EngineConfig, number: int, deal: Deal, hand: Hand, names: Sequence[str], view: CardView
) -> list[str]:
    """The lines that open one of the person's hands."""
    players = [names[seat] for seat in deal.seats]
    first = players[1 - deal.dealer]
    me = deal.seats.index(0)
    if config.format is FormatType.THREE_HANDED:
        # The dealer sits out (never the person, who is playing this hand).
        (out,) = (name for seat, name in enumerate(names) if seat not in deal.seats)
        deals = _("{name} deals and sits out").format(name=out)
    else:
        deals = said(players[deal.dealer], N_("you deal"), N_("{name} deals"))
    plays = said(first, N_("you play first"), N_("{name} plays first"))
    if len(names) > 2:
        title = _(
            "=== hand {number}: you against {opponent}; {deals}, {plays}"
            " (you are player {seat}) ==="
        )
    else:
        title = _("=== hand {number}; {deals}, {plays} (you are player {seat}) ===")
    notes = [knock_limit_words(config, hand, view)]
    if config.spades_doubled(hand.upcard):
        notes.append(_("a spade upcard: this hand scores double"))
    if config.format is FormatType.PARTNERSHIP:
        others = [names[s] for s in range(4) if s not in deal.seats]
        notes.append(
            _("{first} plays {second} at the other table").format(first=others[0], second=others[1])
        )
    return [
        "",
        title.format(number=number, opponent=players[1 - me], deals=deals, plays=plays, seat=me),
        "; ".join(notes),
    ]


def bot_move(
    name: str, phase: Phase, action: Action, top: Card | None, view: CardView
) -> str | None:
    """A bot's move as the person sees it (a card drawn from the stock stays hidden)."""
    shown = "" if top is None else view.card(top)
    kind = action.kind
    if phase is Phase.OFFER:
        if kind is Act.TAKE:
            return _("{name} takes the upcard {card}").format(name=name, card=shown)
        return _("{name} passes the upcard {card}").format(name=name, card=shown)
    if phase is Phase.LAST_CHANCE:
        if kind is Act.TAKE:
            return _("{name} takes the last discard {card}").format(name=name, card=shown)
        return _("{name} passes the last discard {card}").format(name=name, card=shown)
    if kind is Act.DRAW_STOCK:
        return _("{name} draws from the stock").format(name=name)
    if kind is Act.TAKE:
        return _("{name} takes {card} from the pile").format(name=name, card=shown)
    if kind is Act.DISCARD and action.card is not None:
        return _("{name} discards {card}").format(name=name, card=view.card(action.card))
    return None  # a knock or big gin: the showdown that follows says it


def standing(score: PadSnapshot) -> str:
    """The score so far, in a line."""
    if score.format is FormatType.HOLLYWOOD:
        return "; ".join(
            (_("game {n}: {a}-{b} (over)") if g.finished else _("game {n}: {a}-{b}")).format(
                n=n, a=g.points[0], b=g.points[1]
            )
            for n, g in enumerate(score.games, 1)
        )
    (game,) = score.games
    if score.format is FormatType.PARTNERSHIP:
        return _("team A (seats 0 & 2) {a} to team B (seats 1 & 3) {b} (target {target})").format(
            a=game.points[0], b=game.points[1], target=game.target
        )
    if len(game.points) == 2:
        return _("{a} to {b} (target {target})").format(
            a=game.points[0], b=game.points[1], target=game.target
        )
    return _("{points} (target {target})").format(
        points=" / ".join(str(p) for p in game.points), target=game.target
    )


def score_line(config: EngineConfig, names: Sequence[str], score: PadSnapshot) -> str:
    if config.format is FormatType.PARTNERSHIP:
        return _("score (you and {partner} are team A): {standing}").format(
            partner=names[2], standing=standing(score)
        )
    if len(names) == 2:
        return _("score ({first} to {second}): {standing}").format(
            first=person(names[0]), second=person(names[1]), standing=standing(score)
        )
    return _("score ({players}): {standing}").format(
        players=" / ".join(person(name) for name in names), standing=standing(score)
    )


def silent_summary(
    config: EngineConfig, names: Sequence[str], deal: Deal, showdown: Showdown | None
) -> str:
    """A hand between two bots, in one line."""
    players = [names[seat] for seat in deal.seats]
    where = _("{first} against {second}").format(first=players[0], second=players[1])
    if 0 not in deal.seats and config.format is not FormatType.PARTNERSHIP:
        where = _("you deal and sit out; {table}").format(table=where)
    if showdown is None:
        return _("{table}: a dead hand, nobody scores").format(table=where)
    return _("{table}: {outcome}").format(table=where, outcome=outcome_line(showdown, players))


def net_line(config: EngineConfig, names: Sequence[str], net: int) -> str:
    """A partnership hand's two tables netted."""
    if net == 0:
        return _("the two tables cancel out: nobody scores this hand")
    team = side_name(config, names, 0 if net > 0 else 1)
    return _("netted: {team} scores {points}").format(team=team, points=abs(net))


def results_lines(
    config: EngineConfig, names: Sequence[str], results: Sequence[GameResult]
) -> list[str]:
    """The end of the game: each game's winner, score and settlement."""
    lines = ["", _("=== game over ===")]
    stake = config.stake_per_point
    for number, result in enumerate(results, 1):
        sides = range(len(result.points))
        shown = [person(side_name(config, names, s)) for s in sides]
        points = ", ".join(f"{shown[s]} {result.points[s]}" for s in sides)
        boxes = ", ".join(f"{shown[s]} {result.boxes[s]}" for s in sides)
        winner = side_name(config, names, result.winner)
        won = said(
            winner,
            N_("you win: {points} after {hands} hands (boxes: {boxes})"),
            N_("{name} wins: {points} after {hands} hands (boxes: {boxes})"),
            points=points,
            hands=result.hands,
            boxes=boxes,
        )
        if len(results) > 1:
            won = _("game {number}: {result}").format(number=number, result=won)
        lines.append(won)
        for settlement in result.settlements:
            loser = side_name(config, names, settlement.loser)
            text = _(
                "  {winner} {winner_total} to {loser} {loser_total} with the bonuses:"
                " a margin of {margin}"
            ).format(
                winner=person(winner),
                winner_total=settlement.winner_total,
                loser=person(loser),
                loser_total=settlement.loser_total,
                margin=settlement.margin,
            )
            if settlement.shutout:
                text = _("{text} (a shutout)").format(text=text)
            if stake > 0:
                text = said(
                    loser,
                    N_("{text}; you pay {payment} at {stake} a point"),
                    N_("{text}; {name} pays {payment} at {stake} a point"),
                    text=text,
                    payment=format_number(settlement.payment),
                    stake=format_number(stake),
                )
            lines.append(text)
    return lines


def abandoned(hands: int) -> str:
    return ngettext(
        "game abandoned after {hands} hand", "game abandoned after {hands} hands", hands
    ).format(hands=hands)
