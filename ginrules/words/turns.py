"""The person's turn at the terminal in words: the table, the moves, the prompts.

:class:`~ginrules.cli.terminal_player.TerminalPlayer` shows what the person's
seat can see and reads a typed move; every sentence it prints is made here.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from ginrules.cards import Card
from ginrules.engine.hand import Phase
from ginrules.words.i18n import N_, _, ngettext, pgettext
from ginrules.words.showdown import said

PROMPT: Final = "> "
MELDS_PROMPT: Final = "melds> "
LAYOFFS_PROMPT: Final = "lay off> "


def _phase_words(phase: Phase) -> str:
    """What the person is to do in ``phase``, in the prompt's words."""
    words = {
        Phase.OFFER: _("the upcard is offered to you"),
        Phase.DRAW: pgettext("phase", "draw"),
        Phase.DISCARD: pgettext("phase", "discard"),
        Phase.LAST_CHANCE: _("the stock is out: the last discard is offered to you"),
    }
    return words.get(phase, phase.value)


def moves_line(moves: Sequence[str]) -> str:
    return _("moves: {moves}").format(moves=" | ".join(moves))


def wrong_take(card: Card, top: Card | None) -> str:
    if top is None:
        return _("take {card}: the discard pile is empty").format(card=card)
    return _("take {card}: the top of the discard pile is {top}").format(card=card, top=top)


def which_knock(options: Sequence[str]) -> str:
    return _("knock with which discard? {options}").format(options=", ".join(options))


def knock_after_drawing() -> str:
    return _("you knock after drawing, as you discard: draw or take a card first")


def which_knock_example() -> str:
    return _("knock with which discard? type knock and a card, such as knock 9D")


def you_took(card: str) -> str:
    return _("you took {card}").format(card=card)


def you_drew(card: str) -> str:
    return _("you drew {card}").format(card=card)


def your_turn(phase: Phase) -> str:
    return _("-- your turn ({phase}) --").format(phase=_phase_words(phase))


def opponent_holds(name: str, cards: str) -> str:
    return _("{name} took from the pile and holds: {cards}").format(name=name, cards=cards)


def your_hand(hand: str) -> str:
    return _("your hand: {hand}").format(hand=hand)


def table_line(top: str | None, pile: int, stock: int, dead_at: int, limit: str) -> str:
    """``discard pile: 7H (3 cards) | stock: 28 (dead at 2) | knock limit 10``."""
    shown = (
        ngettext("{top} ({count} card)", "{top} ({count} cards)", pile).format(top=top, count=pile)
        if top is not None
        else _("empty")
    )
    return _("discard pile: {pile} | stock: {stock} (dead at {dead_at}) | {limit}").format(
        pile=shown, stock=stock, dead_at=dead_at, limit=limit
    )


def knock_option(card: Card, left: int) -> str:
    """``knock 3C (leaves 3)`` or ``gin 3C``."""
    if left == 0:
        return _("gin {card}").format(card=card)
    return _("knock {card} (leaves {left})").format(card=card, left=left)


def offer_moves(top: Card | None) -> list[str]:
    return [_("take {card} (the upcard)").format(card=top), _("pass")]


def last_chance_moves(top: Card | None) -> list[str]:
    return [
        _("take {card} (the last discard; then you must knock or go gin)").format(card=top),
        _("pass (the hand is dead)"),
    ]


def draw_moves(top: Card | None, may_take: bool) -> list[str]:
    if may_take:
        return [_("draw (from the stock)"), _("take {card} (from the pile)").format(card=top)]
    return [_("draw (from the stock); the upcard was turned down, so no taking it now")]


def discard_move(example: Card, except_card: Card | None) -> str:
    if except_card is not None:
        return _("discard a card except {taken} (e.g. {example})").format(
            taken=except_card, example=example
        )
    return _("discard a card (e.g. {example})").format(example=example)


def big_gin_move() -> str:
    return pgettext("the move typed at the terminal", "big gin")


def you_knock_discarding(card: str) -> str:
    return _("you knock, discarding {card} face down").format(card=card)


def melds_to_show(arrangement: str) -> str:
    return _("melds to show: {arrangement}").format(arrangement=arrangement)


def melds_invitation() -> str:
    return _("Enter shows them; or type your own melds, like 7H 8H 9H / KS KD KC (? for help)")


def numbered_meld(number: int, meld: str) -> str:
    return _("  {number}: {meld}").format(number=number, meld=meld)


def knocker_deadwood(cards: str) -> str:
    return _("  deadwood: {cards}").format(cards=cards)


def nothing_fits() -> str:
    return _("none of your cards fits on those melds")


def best_defense(laid: str, leaving: str) -> str:
    if not laid:
        return _("best defense: lay off nothing, leaving {leaving}").format(leaving=leaving)
    return _("best defense: lay off {laid}, leaving {leaving}").format(laid=laid, leaving=leaving)


def layoffs_invitation() -> str:
    return _("Enter takes it; or type your lay-offs, like TH>1 (none for none, ? for help)")


def meld_number_needed(token: str) -> str:
    return _("{token}: write the meld's number after >, as in TH>1").format(token=token)


def fits_no_meld(card: Card) -> str:
    return _("{card} fits on none of the knocker's melds").format(card=card)


def moves_help() -> str:
    return _("""\
Type a move and press Enter:
  draw, d            take the top card of the stock
  take, t            take the top card of the discard pile (or type that card)
  pass, p            turn down the upcard, or the last discard
  7H, discard 7H     discard a card: rank A 2-9 T (or 10) J Q K, suit C D H S (or ♣ ♦ ♥ ♠)
  knock 3C, gin 3C   discard 3C face down and knock (gin when no deadwood is left)
  big gin            lay down eleven melded cards, when the rules play it
  ?, help            this help
  q, quit, Ctrl-D    leave the game; the score so far is shown""")


def melds_help() -> str:
    return _("""\
Press Enter to show the melds offered, or type the melds you want to show,
separated by / (for example 7H 8H 9H / KS KD KC). Cards in no meld count as
deadwood, and the deadwood must stay within the knock limit.
q quits.""")


def layoffs_help() -> str:
    return _("""\
Press Enter to take the best defense offered, or type your lay-offs in order
as CARD>MELD (for example TH>1 JH>1: a card may go next to one laid off just
before it). A card without >MELD goes on the first meld it fits. Type none to
lay off nothing. Your other cards are then melded at their best.
q quits.""")


def knocks_showing(name: str, deadwood: int) -> str:
    """The opponent's knock, as the defender sees it."""
    return said(
        name,
        N_("-- you knock with {deadwood} deadwood, showing --"),
        N_("-- {name} knocks with {deadwood} deadwood, showing --"),
        deadwood=deadwood,
    )
