"""A game against the bot in the browser, in words: the moves as buttons, the turn, refusals.

The web page shows what the person's seat sees and offers the legal moves;
the sentences it shows are made here (the deal, the bots' moves, every
showdown and the score come from :mod:`ginrules.words.game` and
:mod:`ginrules.words.showdown`, as in the terminal game).
"""

from __future__ import annotations

from ginrules.cards import Card, sort_for_display
from ginrules.engine.actions import Act, Action
from ginrules.engine.hand import Phase
from ginrules.engine.scoring import Showdown
from ginrules.rules.compile import EngineConfig, FormatType
from ginrules.words.cards import CardView
from ginrules.words.game import bot_name
from ginrules.words.i18n import _, ngettext


def pile_size(count: int) -> str:
    return ngettext("{count} card", "{count} cards", count).format(count=count)


def stock_left(count: int) -> str:
    """Under the stock: how many cards are left in it."""
    return ngettext("{count} card left", "{count} cards left", count).format(count=count)


def dead_at(count: int) -> str:
    """Under the stock: how few cards left make the hand dead."""
    return ngettext("dead at {count} card", "dead at {count} cards", count).format(count=count)


def opponent_holds(name: str, count: int) -> str:
    return ngettext("{name} holds {count} card", "{name} holds {count} cards", count).format(
        name=name, count=count
    )


def refused(reason: str, **params: object) -> str:
    """Why a game cannot start, or a move cannot be taken, by reason."""
    reasons = {
        "unknown_bot": _("the bot is one of {names}"),
        "seed": _("the seed is a whole number from 0 to {most}"),
        "over": _("the game is over: start a new one to play again"),
        "not_action": _("{name} is not a move: send one of the moves offered, such as {example}"),
        "no_key": _("send the player key in the X-Player-Key header"),
        "wrong_key": _("that player key is not right for this game"),
        "lost": _("this game cannot be replayed by this version of ginrules: start a new one"),
    }
    return reasons[reason].format(**params)


def moved_on(current: int, seen: int) -> str:
    """A move sent by a phone that saw an older game."""
    return ngettext(
        "the game has moved on: {current} move is stored, you saw {seen}",
        "the game has moved on: {current} moves are stored, you saw {seen}",
        current,
    ).format(current=current, seen=seen)


def page_words() -> dict[str, str]:
    """The words the game's script shows, by key, in the page's language (the script
    fills each ``{placeholder}``; everything else it shows comes from the game's state)."""
    return {
        "knock": _("Knock…"),
        "knock_cancel": _("Cancel the knock"),
        "knock_hint": _("Tap the card to discard face down."),
        "knock_with": _("Knock, discarding {card}"),
        "taken": _("just taken"),
        "stale": _("Another tap got there first: this is the game now."),
        "broken": _("The move did not reach the server; try again."),
        "game": _("Game {number}"),
    }


def matchup(config: EngineConfig, bot: str) -> str:
    """Who plays whom, and to what: the line under the game's title."""
    text = {
        FormatType.TWO_PLAYER: _("You against the {bot} bot: one game to {target}."),
        FormatType.HOLLYWOOD: _(
            "You against the {bot} bot: Hollywood, {games} games at once, each to {target}."
        ),
        FormatType.PARTNERSHIP: _(
            "You and a {bot} bot partner against two {bot} bots: teams play to {target}."
        ),
        FormatType.THREE_HANDED: _(
            "You against two {bot} bots, three-handed (the dealer sits out each hand), to {target}."
        ),
    }[config.format]
    return text.format(bot=bot_name(bot), games=config.games, target=config.target)


def prompt(phase: Phase, top: Card | None, may_take: bool, opponent: str, view: CardView) -> str:
    """What the person is to do now."""
    card = view.card(top) if top is not None else ""
    if phase is Phase.OFFER:
        return _("Your turn: take the upcard {card}, or pass.").format(card=card)
    if phase is Phase.DRAW and may_take:
        return _("Your turn: draw from the stock, or take {card} from the pile.").format(card=card)
    if phase is Phase.DRAW:
        return _("Your turn: draw from the stock (the upcard was turned down).")
    if phase is Phase.DISCARD:
        return _("Discard: tap a card. To knock, tap Knock first.")
    if phase is Phase.LAST_CHANCE:
        return _(
            "The stock is out: take the last discard {card} to knock or go gin, or pass."
        ).format(card=card)
    return _("{name} knocks: lay off what fits on the melds shown, then show your cards.").format(
        name=opponent
    )


def move_label(
    phase: Phase,
    action: Action,
    top: Card | None,
    left: int | None,
    view: CardView,
    *,
    silent_gin: bool,
) -> str:
    """A legal move as its button says it. ``left`` is the deadwood a knock leaves;
    ``silent_gin`` says a knock that leaves none is gin (the rules do not make a
    player declare it)."""
    kind = action.kind
    card = view.card(action.card) if action.card is not None else ""
    shown = view.card(top) if top is not None else ""
    if kind is Act.PASS and phase is Phase.LAST_CHANCE:
        return _("Pass: the hand is dead")
    if kind is Act.PASS:
        return _("Pass")
    if kind is Act.TAKE and phase is Phase.OFFER:
        return _("Take the upcard {card}").format(card=shown)
    if kind is Act.TAKE and phase is Phase.LAST_CHANCE:
        return _("Take the last discard {card}").format(card=shown)
    if kind is Act.TAKE:
        return _("Take {card} from the pile").format(card=shown)
    if kind is Act.DRAW_STOCK:
        return _("Draw from the stock")
    if kind is Act.DISCARD:
        return _("Discard {card}").format(card=card)
    if kind is Act.KNOCK and left == 0 and silent_gin:
        return _("Gin: discard {card} face down").format(card=card)
    if kind is Act.KNOCK:
        return _("Knock: discard {card} face down, {left} deadwood left").format(
            card=card, left=left
        )
    if kind is Act.GIN:
        return _("Declare gin: discard {card} face down").format(card=card)
    if kind is Act.BIG_GIN:
        return _("Big gin: lay down all eleven cards")
    return _("Lay off and show your cards")


def laid_off(showdown: Showdown, view: CardView) -> str:
    """The defender's lay-offs, meld by meld: ``5♥ 9♥ on [6♥ 7♥ 8♥]``; empty for none."""
    shown = showdown.knocker_arrangement.melds
    by_meld: dict[int, list[Card]] = {}
    for lay in showdown.defense.layoffs:
        by_meld.setdefault(lay.meld_index, []).append(lay.card)
    return "; ".join(
        _("{cards} on {meld}").format(
            cards=view.cards(sort_for_display(cards)), meld=view.meld(shown[index])
        )
        for index, cards in sorted(by_meld.items())
    )


def layoff_preview(laid: str, leaving: int) -> str:
    """The defender's best reply to a knock, before it is made."""
    if not laid:
        return _("Nothing of yours fits: you show your cards with {leaving} deadwood.").format(
            leaving=leaving
        )
    return _("Your best lay-offs: {laid}, leaving {leaving} deadwood.").format(
        laid=laid, leaving=leaving
    )


def knocker_shows(name: str, deadwood: int) -> str:
    """Above the knocker's melds, drawn as cards."""
    return _("{name} knocks with {deadwood} deadwood and shows:").format(
        name=name, deadwood=deadwood
    )


def your_move(phase: Phase, action: Action, top: Card | None, view: CardView) -> str | None:
    """The person's own move in the hand's story (a knock: the showdown that follows says it)."""
    shown = "" if top is None else view.card(top)
    kind = action.kind
    if phase is Phase.OFFER and kind is Act.TAKE:
        return _("you take the upcard {card}").format(card=shown)
    if phase is Phase.OFFER:
        return _("you pass the upcard {card}").format(card=shown)
    if phase is Phase.LAST_CHANCE and kind is Act.TAKE:
        return _("you take the last discard {card}").format(card=shown)
    if phase is Phase.LAST_CHANCE:
        return _("you pass the last discard {card}").format(card=shown)
    if kind is Act.DRAW_STOCK:
        return _("you draw from the stock")
    if kind is Act.TAKE:
        return _("you take {card} from the pile").format(card=shown)
    if kind is Act.DISCARD and action.card is not None:
        return _("you discard {card}").format(card=view.card(action.card))
    return None


__all__ = [
    "dead_at",
    "knocker_shows",
    "laid_off",
    "layoff_preview",
    "matchup",
    "move_label",
    "moved_on",
    "opponent_holds",
    "page_words",
    "pile_size",
    "prompt",
    "refused",
    "stock_left",
    "your_move",
]
