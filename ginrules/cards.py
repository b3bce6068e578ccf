"""Cards: ranks, suits, notation and bit masks.

Glossary (the words every other module uses):

card
    One of the 52 cards of a standard deck, written rank then suit: ``7H``,
    ``TH`` or ``10H`` (ten of hearts), ``AS``, ``KD``, or with a suit symbol
    ``7♥``. Case does not matter on input; output is always ``7H``, ``TD``:
    the canonical code every file, log and API uses.
rank letters
    How a player writes the ranks in each language ginrules speaks
    (:data:`RANK_LETTERS`): German ``B D K`` (Bube, Dame, König), French
    ``V D R`` (valet, dame, roi), Spanish and English ``J Q K``. Input accepts
    every language's letters at once, whatever the reader's language, because
    no letter names two ranks (``D`` is the queen in German and French alike);
    :mod:`ginrules.words.cards` picks the letters a reader sees. Suits are
    written with the symbols ``♣♦♥♠`` or the letters ``C D H S`` in every
    language: the local suit letters collide (German Kreuz and Karo, French
    cœur and clubs).
mask
    A hand as an integer with one bit per card. Each suit has its own 16-bit
    *lane* (clubs, diamonds, hearts, spades from the low end) and inside a lane
    bit 0 is the ace and bit 12 the king, so ``mask >> (16 * suit) & 0x1FFF``
    is one suit's ranks. Runs are then shifts inside a lane and sets are the
    same bit in several lanes, which is what makes the meld search fast.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
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

#: The rank letters a player of each language writes, ace to king. Data only: which
#: table a reader sees is :mod:`ginrules.words.cards`'s choice; the parser reads them all.
RANK_LETTERS: Final[Mapping[str, tuple[str, ...]]] = {
    "en": ("A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K"),
    # Ass, Bube, Dame, König, as printed on French-suited German decks.
    "de": ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "B", "D", "K"),
    # As, jota, reina, rey: Spanish French-suited (poker) decks print J Q K.
    "es": ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"),
    # As, valet, dame, roi.
    "fr": ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "V", "D", "R"),
}

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


def _rank_aliases() -> dict[str, int]:
    """Every rank token of every language, each to its one rank; "1" stays unknown."""
    aliases: dict[str, int] = {}
    for letters in RANK_LETTERS.values():
        for rank, letter in enumerate(letters):
            known = aliases.setdefault(letter, rank)
            assert known == rank, f"the rank letter {letter} names two ranks"
    return aliases


#: Every rank a person may type, in any language's letters: ``T`` and ``10``, ``J``, ``B``
#: and ``V`` for the jack, ``Q`` and ``D`` for the queen, ``K`` and ``R`` for the king.
RANK_ALIASES: Final[Mapping[str, int]] = _rank_aliases()
_CARD_RE: Final = re.compile(
    r"^(10|[1-9" + "".join(sorted(a for a in RANK_ALIASES if not a.isdigit())) + r"])(.)$"
)


class CardProblem(StrEnum):
    """Why a card or a hand cannot be read; :mod:`ginrules.words.cards` words each reason."""

    #: Not rank then suit (``text``).
    NOT_A_CARD = "not_a_card"
    #: An ace written ``1`` (``text``).
    ACE_WRITTEN_ONE = "ace_written_one"
    #: A rank with a suit no one writes (``text``, ``suit``).
    UNKNOWN_SUIT = "unknown_suit"
    #: The same card twice in a hand (``card``).
    GIVEN_TWICE = "given_twice"
    #: A hand of the wrong size (``allowed``: the sizes, ``size``: the cards given).
    HAND_SIZE = "hand_size"


class CardError(ValueError):
    """A card, or a hand, that cannot be read; the message names the card.

    ``str()`` is the English message (the command line's, and the logs'); ``reason``
    and ``params`` say the same as data, for :func:`ginrules.words.cards.card_problem`
    to word it in the reader's language. Both are None/empty for other uses.
    """

    def __init__(self, message: str, reason: CardProblem | None = None, **params: object) -> None:
        super().__init__(message)
        self.reason = reason
        self.params: dict[str, object] = params


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
        """Read one card: ``7H``, ``th``, ``10H``, ``7♥``, ``AS``, and the ranks in any
        language's letters (:data:`RANK_ALIASES`): ``BH`` (Bube) and ``VH`` (valet) are
        ``JH``, ``DH`` (Dame, dame) is ``QH``, ``RH`` (roi) is ``KH``."""
        cleaned = text.strip().upper()
        match = _CARD_RE.match(cleaned)
        if match is None:
            raise CardError(
                f"not a card: {text!r} (write rank then suit, like 7H, TD, 10S, AC or 7♥)",
                CardProblem.NOT_A_CARD,
                text=text,
            )
        rank_text, suit_text = match.groups()
        if rank_text == "1":
            raise CardError(
                f"not a card: {text!r} (an ace is written A, as in AS)",
                CardProblem.ACE_WRITTEN_ONE,
                text=text,
            )
        suit = _SYMBOL_TO_SUIT.get(suit_text)
        if suit is None:
            raise CardError(
                f"not a card: {text!r} (unknown suit {suit_text!r}; use C, D, H or S)",
                CardProblem.UNKNOWN_SUIT,
                text=text,
                suit=suit_text,
            )
        return cls(RANK_ALIASES[rank_text], suit)


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
            raise CardError(f"card given twice: {card}", CardProblem.GIVEN_TWICE, card=card)
        seen.add(card)
        parsed.append(card)
    if size is not None:
        allowed = (size,) if isinstance(size, int) else tuple(size)
        if len(parsed) not in allowed:
            wanted = " or ".join(str(n) for n in allowed)
            raise CardError(
                f"a hand here has {wanted} cards, got {len(parsed)}",
                CardProblem.HAND_SIZE,
                allowed=allowed,
                size=len(parsed),
            )
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
