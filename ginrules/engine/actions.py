"""What a player can do, as small immutable values.

Every action is one :class:`Action`. Most are shared singletons (``DRAW_STOCK``,
``discard(card)``); a person's choice of melds at a knock, or of lay-offs at the
showdown, rides on the action itself, and ``None`` there means "the best", the
choice a bot or ``auto`` makes. Actions read and write a short text form
(``discard 7H``, ``knock 3C``, ``take``) and JSON.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Final

from ginrules.cards import DECK, Card, CardError, parse_cards
from ginrules.layoffs import Layoff


class Act(StrEnum):
    """The kinds of action."""

    #: Turn down the upcard on the first turn, or the last discard at the end of the stock.
    PASS = "pass"
    #: Take the top card of the stock.
    DRAW_STOCK = "draw"
    #: Take the top card of the discard pile (the upcard on the first turn).
    TAKE = "take"
    #: Discard a card and end the turn.
    DISCARD = "discard"
    #: Discard a card face down and knock (gin when no deadwood is left, unless the
    #: rules say gin must be declared: then a silent knock is a plain knock).
    KNOCK = "knock"
    #: Discard a card face down and declare gin: no deadwood may be left.
    GIN = "gin"
    #: Lay down all eleven cards, melded, without discarding.
    BIG_GIN = "big_gin"
    #: The defender's reply to a knock: own melds and lay-offs.
    DEFEND = "defend"


@dataclass(frozen=True, slots=True)
class Action:
    """One action. ``melds`` and ``layoffs`` carry a person's showdown choices."""

    kind: Act
    card: Card | None = None
    #: KNOCK: the melds the knocker shows; DEFEND: the defender's own melds. None: the best.
    melds: tuple[tuple[Card, ...], ...] | None = None
    #: DEFEND: the lay-offs, in order. None: the best defense.
    layoffs: tuple[Layoff, ...] | None = None

    def __str__(self) -> str:
        text = self.kind.value.replace("_", " ")
        if self.card is not None:
            text += f" {self.card}"
        if self.melds is not None:
            text += " [" + " | ".join(" ".join(map(str, meld)) for meld in self.melds) + "]"
        if self.layoffs is not None:
            text += " lay off " + (
                ", ".join(f"{lay.card}>{lay.meld_index + 1}" for lay in self.layoffs) or "nothing"
            )
        return text

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"action": self.kind.value}
        if self.card is not None:
            data["card"] = str(self.card)
        if self.melds is not None:
            data["melds"] = [[str(c) for c in meld] for meld in self.melds]
        if self.layoffs is not None:
            data["layoffs"] = [
                {"card": str(lay.card), "meld": lay.meld_index} for lay in self.layoffs
            ]
        return data

    @classmethod
    def from_json(cls, data: Any) -> Action:
        """Read :meth:`to_json` output; raises ValueError naming what is wrong."""
        if not isinstance(data, dict) or not isinstance(data.get("action"), str):
            raise UnreadableMove(repr(data), recorded=True)
        try:
            kind = Act(data["action"])
        except ValueError:
            known = ", ".join(a.value for a in Act)
            raise ValueError(f"unknown action {data['action']!r} (one of {known})") from None
        card = Card.parse(data["card"]) if data.get("card") is not None else None
        melds = None
        if data.get("melds") is not None:
            melds = tuple(tuple(parse_cards(meld)) for meld in data["melds"])
        layoffs = None
        if data.get("layoffs") is not None:
            layoffs = tuple(
                Layoff(Card.parse(item["card"]), int(item["meld"])) for item in data["layoffs"]
            )
        return cls(kind, card, melds, layoffs)


PASS: Final = Action(Act.PASS)
DRAW_STOCK: Final = Action(Act.DRAW_STOCK)
TAKE: Final = Action(Act.TAKE)
BIG_GIN: Final = Action(Act.BIG_GIN)
#: The defender's best reply: least deadwood, lay-offs and own melds chosen together.
DEFEND_BEST: Final = Action(Act.DEFEND)
_DISCARDS: Final = tuple(Action(Act.DISCARD, card) for card in DECK)
_KNOCKS: Final = tuple(Action(Act.KNOCK, card) for card in DECK)
_GINS: Final = tuple(Action(Act.GIN, card) for card in DECK)

_WORDS: Final = {
    "pass": PASS,
    "p": PASS,
    "draw": DRAW_STOCK,
    "d": DRAW_STOCK,
    "stock": DRAW_STOCK,
    "s": DRAW_STOCK,
    "take": TAKE,
    "t": TAKE,
    "pile": TAKE,
    "big gin": BIG_GIN,
    "big_gin": BIG_GIN,
    "defend": DEFEND_BEST,
}


def discard(card: Card) -> Action:
    return _DISCARDS[card.index]


def knock(card: Card) -> Action:
    return _KNOCKS[card.index]


def declare_gin(card: Card) -> Action:
    return _GINS[card.index]


class UnreadableMove(ValueError):
    """Typed text that is no move (``text`` is None when nothing was typed), or a
    recorded action that is no action object (``recorded``)."""

    def __init__(self, text: str | None, *, recorded: bool = False) -> None:
        super().__init__(text)
        self.text = text
        self.recorded = recorded


def parse_action(text: str) -> Action:
    """Read a typed move: ``draw``, ``take``, ``pass``, ``7H`` or ``discard 7H``,
    ``knock 3C``, ``gin 3C``, ``big gin``. Raises :class:`UnreadableMove` (or the
    :class:`~ginrules.cards.CardError` of a misspelt card)."""
    words = text.strip().split()
    if not words:
        raise UnreadableMove(None)
    phrase = " ".join(words).lower()
    if phrase in _WORDS:
        return _WORDS[phrase]
    verb, *rest = words
    verb = verb.lower() if rest else verb
    try:
        if verb in ("discard", "x") and len(rest) == 1:
            return discard(Card.parse(rest[0]))
        if verb in ("knock", "k") and len(rest) == 1:
            return knock(Card.parse(rest[0]))
        if verb in ("gin", "g") and len(rest) == 1:
            return declare_gin(Card.parse(rest[0]))
        if not rest:
            return discard(Card.parse(verb))
    except CardError:
        if rest:
            raise
    raise UnreadableMove(text.strip())
