"""Cards: ranks, suits, notation and bit masks.

Glossary (the words every other module uses):

card
    One of the 52 cards of a standard deck, written rank then suit: ``7H``,
    ``TH`` or ``10H`` (ten of hearts), ``AS``, ``KD``, or with a suit symbol
    ``7♥``. Case does not matter on input; output is always ``7H``, ``TD``.
mask
    A hand as an integer with one bit per card. Each suit has its own 16-bit
    *lane* (clubs, diamonds, hearts, spades from the low end) and inside a lane
    bit 0 is the ace and bit 12 the king, so ``mask >> (16 * suit) & 0x1FFF``
    is one suit's ranks. Runs are then shifts inside a lane and sets are the
    same bit in several lanes, which is what makes the meld search fast.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Final

RANKS: Final = "A23456789TJQK"
SUITS: Final = "CDHS"
SUIT_SYMBOLS: Final = "♣♦♥♠"
SUIT_NAMES: Final = ("clubs", "diamonds", "hearts", "spades")
RANK_NAMES: Final = (
    "ace",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "jack",
    "queen",
    "king",
)

LANE_BITS: Final = 16
LANE_MASK: Final = 0x1FFF
DECK_SIZE: Final = 52

_SYMBOL_TO_SUIT: Final = {
    **{s: i for i, s in enumerate(SUITS)},
    **{s: i for i, s in enumerate(SUIT_SYMBOLS)},
    # The outlined symbols people paste from word processors.
    "♧": 0,
    "♢": 1,
    "♡": 2,
    "♤": 3,
}
_CARD_RE: Final = re.compile(r"^(10|[2-9TJQKA1])(.)$")


class CardError(ValueError):
    """A card, or a hand, that cannot be read; the message names the card."""


@dataclass(frozen=True, order=True, slots=True)
class Card:
    """A playing card. ``rank`` 0 (ace) to 12 (king); ``suit`` 0..3 in ``CDHS`` order."""

    rank: int
    suit: int
    #: This card's bit in a hand mask (kept, not computed: the engine reads it constantly).
    bit: int = field(init=False, repr=False, compare=False)
    #: 0..51, suit-major: every club, then diamonds, hearts, spades.
    index: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if not (0 <= self.rank < 13 and 0 <= self.suit < 4):
            raise CardError(f"no such card: rank {self.rank}, suit {self.suit}")
        object.__setattr__(self, "bit", 1 << (self.suit * LANE_BITS + self.rank))
        object.__setattr__(self, "index", self.suit * 13 + self.rank)

    @property
    def name(self) -> str:
        """In words: ``seven of hearts``."""
        return f"{RANK_NAMES[self.rank]} of {SUIT_NAMES[self.suit]}"

    def __str__(self) -> str:
        return RANKS[self.rank] + SUITS[self.suit]

    def __repr__(self) -> str:
        return f"Card({self!s})"

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read one card: ``7H``, ``th``, ``10H``, ``7♥``, ``AS``."""
        cleaned = text.strip().upper()
        match = _CARD_RE.match(cleaned)
        if match is None:
            raise CardError(
                f"not a card: {text!r} (write rank then suit, like 7H, TD, 10S, AC or 7♥)"
            )
        rank_text, suit_text = match.groups()
        if rank_text == "10":
            rank_text = "T"
        if rank_text == "1":
            raise CardError(f"not a card: {text!r} (an ace is written A, as in AS)")
        suit = _SYMBOL_TO_SUIT.get(suit_text)
        if suit is None:
            raise CardError(f"not a card: {text!r} (unknown suit {suit_text!r}; use C, D, H or S)")
        return cls(RANKS.index(rank_text), suit)


#: Every card, in index order.
DECK: Final = tuple(Card(rank, suit) for suit in range(4) for rank in range(13))
_BY_BIT: Final = {card.bit: card for card in DECK}


def parse_cards(
    cards: str | Iterable[str | Card], *, size: int | Sequence[int] | None = None
) -> list[Card]:
    """Read a hand: ``"7H 8H 9H"``, ``"7H,8H,9H"`` or a list of card strings.

    Raises :class:`CardError` naming the first bad card, the first card given
    twice, or the hand size when ``size`` (a number or the allowed numbers)
    does not match.
    """
    if isinstance(cards, str):
        items: list[str | Card] = [part for part in re.split(r"[\s,]+", cards.strip()) if part]
    else:
        items = list(cards)
    parsed: list[Card] = []
    seen: set[Card] = set()
    for item in items:
        card = item if isinstance(item, Card) else Card.parse(str(item))
        if card in seen:
            raise CardError(f"card given twice: {card}")
        seen.add(card)
        parsed.append(card)
    if size is not None:
        allowed = (size,) if isinstance(size, int) else tuple(size)
        if len(parsed) not in allowed:
            wanted = " or ".join(str(n) for n in allowed)
            raise CardError(f"a hand here has {wanted} cards, got {len(parsed)}")
    return parsed


def cards_to_mask(cards: Iterable[Card]) -> int:
    """The bit mask of a collection of cards."""
    mask = 0
    for card in cards:
        mask |= card.bit
    return mask


def mask_to_cards(mask: int) -> list[Card]:
    """The cards of a mask, in index order (clubs ace first)."""
    cards = []
    while mask:
        low = mask & -mask
        cards.append(_BY_BIT[low])
        mask ^= low
    return cards


def format_cards(cards: Iterable[Card], *, symbols: bool = False) -> str:
    """``7H 8H 9H``, or ``7♥ 8♥ 9♥`` with ``symbols``."""
    if symbols:
        return " ".join(RANKS[c.rank] + SUIT_SYMBOLS[c.suit] for c in cards)
    return " ".join(str(c) for c in cards)


def sort_for_display(cards: Iterable[Card]) -> list[Card]:
    """Suit by suit, ace to king inside a suit."""
    return sorted(cards, key=lambda c: (c.suit, c.rank))
