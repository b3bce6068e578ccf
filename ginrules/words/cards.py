"""Cards, melds and arrangements as text: the one place a meld is written.

A reader sees cards in their language's letters (:data:`ginrules.cards.RANK_LETTERS`):
``B♠ D♠ K♠`` in German, ``V♠ D♠ R♠`` in French, ``J♠ Q♠ K♠`` in Spanish,
and ``JS QS KS`` in English as always. Suits are the symbols ``♣♦♥♠`` or the
letters ``C D H S`` in every language (local suit letters collide: German
Kreuz and Karo, French cœur and clubs), so outside English a card is shown
with its suit symbol unless the caller asks for letters (a terminal without
UTF-8). Machine formats (JSON, CSV, YAML, the API, logs) keep the canonical
codes of :func:`ginrules.cards.format_cards`; nothing here is ever read back
by a program, though every text here parses back to the same cards.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Final

from babel.lists import format_list as _babel_list

from ginrules.cards import (
    RANK_LETTERS,
    RANKS,
    SUIT_SYMBOLS,
    SUITS,
    Card,
    CardError,
    CardProblem,
    parse_cards,
    sort_for_display,
)
from ginrules.melds import AceMode, AceRule, Arrangement, Meld, MeldError, MeldProblem, best_melds
from ginrules.words.i18n import SOURCE_LOCALE, _, babel_locale, current_locale, ngettext

#: How a typed card is shown in English messages about it, as it always was.
_ENGLISH_EXAMPLES: Final = ("7H", "TD", "10S", "AC", "7♥")


def rank_letters() -> tuple[str, ...]:
    """The reader's rank letters, ace to king (``10`` for the ten outside English)."""
    return RANK_LETTERS.get(current_locale(), RANK_LETTERS[SOURCE_LOCALE])


def symbols_by_default() -> bool:
    """Whether a reader of the current language sees suit symbols when no one asked:
    letters in English (as ever), symbols elsewhere (no suit letters there to collide)."""
    return current_locale() != SOURCE_LOCALE


def card_text(card: Card, *, symbols: bool | None = None) -> str:
    """``7H`` (``7♥`` with ``symbols``), ``B♠`` in German; ``symbols`` None: the language's way."""
    if symbols is None:
        symbols = symbols_by_default()
    return rank_letters()[card.rank] + (SUIT_SYMBOLS if symbols else SUITS)[card.suit]


def cards_text(cards: Iterable[Card], *, symbols: bool | None = None) -> str:
    """``7H 8H 9H``, or ``7♥ 8♥ 9♥`` with ``symbols``."""
    return " ".join(card_text(card, symbols=symbols) for card in cards)


def meld_text(meld: Meld | Sequence[Card], *, symbols: bool | None = None) -> str:
    """``[7C 7H 7S]``."""
    cards = meld.cards if isinstance(meld, Meld) else meld
    return f"[{cards_text(cards, symbols=symbols)}]"


def melds_text(melds: Iterable[Meld], *, symbols: bool | None = None) -> str:
    """``[7C 7H 7S] [2D 3D 4D]``; empty when there are none."""
    return " ".join(meld_text(meld, symbols=symbols) for meld in melds)


def ranks_text(ranks: str, separator: str = "-") -> str:
    """Ranks given as canonical letters (``"QKA"``) in the reader's letters: ``Q-K-A``,
    ``D-K-A`` in German, ``D-R-A`` in French (the sheet's runs around the ace)."""
    letters = rank_letters()
    return separator.join(letters[RANKS.index(rank)] for rank in ranks)


def card_faces() -> dict[str, str]:
    """What a card picture shows for each canonical rank letter: ``{"T": "10", "J": "B", ...}``
    in German. For the pages' scripts, which get canonical codes and draw the cards."""
    letters = rank_letters()
    return {rank: "10" if rank == "T" else letters[i] for i, rank in enumerate(RANKS)}


def _or_list(items: Sequence[str]) -> str:
    return _babel_list(list(items), style="or", locale=babel_locale())


def _typing_examples() -> str:
    """``7H, TD, 10S, AC or 7♥``; ``7♥, 10♦, B♠, A♣ oder 7H`` in German."""
    if current_locale() == SOURCE_LOCALE:
        return _or_list(_ENGLISH_EXAMPLES)
    cards = parse_cards("7H TD JS AC")
    return _or_list(
        [card_text(c, symbols=True) for c in cards] + [card_text(cards[0], symbols=False)]
    )


def _suit_choices() -> str:
    """``C, D, H or S``; the symbols first outside English."""
    if current_locale() == SOURCE_LOCALE:
        return _or_list(list(SUITS))
    return _or_list([*SUIT_SYMBOLS, *SUITS])


def card_problem(error: CardError) -> str:
    """Why a typed card or hand cannot be read, in the reader's language and letters
    (an error without a reason, raised by a command, as it says)."""
    params = error.params
    if error.reason is CardProblem.NOT_A_CARD:
        # Translators: {text} is what was typed, quoted; {examples} a list of cards joined
        # with "or", in your letters ("7♥, 10♦, B♠, A♣ oder 7H"). Cards are rank then suit.
        return _("not a card: {text} (write rank then suit, like {examples})").format(
            text=repr(params["text"]), examples=_typing_examples()
        )
    if error.reason is CardProblem.ACE_WRITTEN_ONE:
        ace_of_spades = Card(0, 3)
        # Translators: {ace} is the ace's letter (A), {example} the ace of spades (A♠).
        return _("not a card: {text} (an ace is written {ace}, as in {example})").format(
            text=repr(params["text"]), ace=rank_letters()[0], example=card_text(ace_of_spades)
        )
    if error.reason is CardProblem.UNKNOWN_SUIT:
        # Translators: {suits} lists the suit symbols and the letters C, D, H, S joined with
        # "or"; the letters stay English in every language (local ones would collide).
        return _("not a card: {text} (unknown suit {suit}; use {suits})").format(
            text=repr(params["text"]), suit=repr(params["suit"]), suits=_suit_choices()
        )
    if error.reason is CardProblem.GIVEN_TWICE:
        card = params["card"]
        assert isinstance(card, Card)
        return _("card given twice: {card}").format(card=card_text(card))
    if error.reason is CardProblem.HAND_SIZE:
        allowed = params["allowed"]
        assert isinstance(allowed, tuple)
        # Translators: {allowed} is a number or numbers joined with "or" ("10 or 11"),
        # {size} the number of cards given.
        return ngettext(
            "a hand here has {allowed} card, got {size}",
            "a hand here has {allowed} cards, got {size}",
            max(allowed),
        ).format(allowed=_or_list([str(n) for n in allowed]), size=params["size"])
    return str(error)


class CardView:
    """How cards are written for one reader: with suit symbols or with letters
    (``symbols`` None: the language's way, see :func:`symbols_by_default`)."""

    def __init__(self, ace: AceRule, *, symbols: bool | None = None) -> None:
        self.ace = ace
        self.symbols = symbols

    def card(self, card: Card) -> str:
        return card_text(card, symbols=self.symbols)

    def cards(self, cards: Iterable[Card]) -> str:
        return cards_text(cards, symbols=self.symbols)

    def meld(self, meld: Meld) -> str:
        return meld_text(meld, symbols=self.symbols)

    def arrangement(self, arrangement: Arrangement) -> str:
        """``[7♥ 8♥ 9♥] [K♠ K♦ K♣]  4♣ 9♦ | deadwood 13``."""
        melds = melds_text(arrangement.melds, symbols=self.symbols)
        loose = self.cards(sort_for_display(arrangement.unmatched))
        shown = "  ".join(part for part in (melds, loose) if part) or _("no cards")
        return _("{cards} | deadwood {deadwood}").format(cards=shown, deadwood=arrangement.deadwood)

    def hand(self, cards: Sequence[Card]) -> str:
        """A hand sorted with its best melds grouped first."""
        return self.arrangement(best_melds(cards, self.ace))


def meld_problem(error: MeldError) -> str:
    """Why the cards a person chose are not a meld, in their language and letters
    (in English exactly the engine's own message)."""
    cards = cards_text(error.cards) or _("no cards")
    if error.problem is MeldProblem.TOO_FEW:
        text = _("{cards}: a meld needs at least three cards")
    elif error.problem is MeldProblem.SET_TOO_LONG:
        text = _("{cards}: a set has at most four cards")
    elif error.problem is MeldProblem.MIXED:
        text = _("{cards}: neither a set (one rank) nor a run (one suit)")
    elif error.mode is AceMode.LOW:
        text = _("{cards}: not a run of consecutive cards (aces are low here: {high} is not a run)")
    elif error.mode is AceMode.HIGH_OR_LOW:
        text = _(
            "{cards}: not a run of consecutive cards"
            " (a run may not turn the corner: {corner} is not a run)"
        )
    else:
        text = _("{cards}: not a run of consecutive cards")
    return text.format(cards=cards, high=ranks_text("QKA"), corner=ranks_text("KA2"))
