"""Cards, melds and arrangements as text: the one place a meld is written."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ginrules.cards import Card, format_cards, sort_for_display
from ginrules.melds import AceRule, Arrangement, Meld, best_melds
from ginrules.words.i18n import _


def cards_text(cards: Iterable[Card], *, symbols: bool = False) -> str:
    """``7H 8H 9H``, or ``7♥ 8♥ 9♥`` with ``symbols``."""
    return format_cards(cards, symbols=symbols)


def meld_text(meld: Meld | Sequence[Card], *, symbols: bool = False) -> str:
    """``[7C 7H 7S]``."""
    cards = meld.cards if isinstance(meld, Meld) else meld
    return f"[{cards_text(cards, symbols=symbols)}]"


def melds_text(melds: Iterable[Meld], *, symbols: bool = False) -> str:
    """``[7C 7H 7S] [2D 3D 4D]``; empty when there are none."""
    return " ".join(meld_text(meld, symbols=symbols) for meld in melds)


class CardView:
    """How cards are written for one reader: with suit symbols or with letters."""

    def __init__(self, ace: AceRule, *, symbols: bool) -> None:
        self.ace = ace
        self.symbols = symbols

    def card(self, card: Card) -> str:
        return cards_text([card], symbols=self.symbols)

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
