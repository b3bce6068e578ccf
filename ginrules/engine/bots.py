"""Computer players: random legal, greedy, and a strong heuristic player.

A bot chooses one of the legal actions from what its seat can see (an
:class:`~ginrules.engine.hand.Observation`); it never looks at the stock or
the other hand. Bots honour every rule because they only ever pick from
:meth:`Hand.legal_actions`, which the configuration decides: the knock limit
(Oklahoma's from the upcard), big gin, the discard of a taken card, the end
of the stock.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Final, Protocol

from ginrules.cards import DECK, Card, mask_to_cards
from ginrules.engine.actions import BIG_GIN, DEFEND_BEST, DRAW_STOCK, PASS, TAKE, Act, Action
from ginrules.engine.hand import Observation, Phase
from ginrules.melds import AceRule, scorer


class Bot(Protocol):
    """Anything that picks an action. ``observes`` False skips building observations."""

    name: str
    observes: bool

    def choose(
        self, observation: Observation | None, legal: Sequence[Action], rng: random.Random
    ) -> Action: ...


class RandomBot:
    """Picks uniformly among the legal actions."""

    name = "random"
    observes = False

    def choose(
        self, observation: Observation | None, legal: Sequence[Action], rng: random.Random
    ) -> Action:
        return legal[int(rng.random() * len(legal))]


class _MeldBot:
    """Shared plumbing for bots that count deadwood under the table's ace rule."""

    name: str = "meld"
    observes: bool = True

    def __init__(self, ace: AceRule) -> None:
        rule = scorer(ace)
        self.ace = ace
        self.deadwood: Callable[[int], int] = rule.deadwood
        self.best_discard: Callable[[int], int] = rule.best_discard_deadwood

    def choose(
        self, observation: Observation | None, legal: Sequence[Action], rng: random.Random
    ) -> Action:
        assert observation is not None
        phase = observation.phase
        if phase is Phase.LAYOFF:
            return DEFEND_BEST
        if phase is Phase.LAST_CHANCE:
            return TAKE if TAKE in legal else PASS
        if phase is Phase.OFFER or phase is Phase.DRAW:
            if TAKE in legal and self.wants(observation, observation.pile[-1]):
                return TAKE
            return PASS if phase is Phase.OFFER else DRAW_STOCK
        if BIG_GIN in legal:
            return BIG_GIN
        return self.turn_end(observation, legal)

    def gain_from(self, observation: Observation, card: Card) -> int:
        """How much taking ``card`` lowers the deadwood (it may not be discarded again)."""
        mask = observation.hand
        now = self.deadwood(mask)
        with_card = mask | card.bit
        deadwood = self.deadwood
        after = min(deadwood(with_card ^ c.bit) for c in mask_to_cards(mask))
        return now - after

    def wants(self, observation: Observation, card: Card) -> bool:
        return self.gain_from(observation, card) > 0

    def turn_end(self, observation: Observation, legal: Sequence[Action]) -> Action:
        raise NotImplementedError


class GreedyBot(_MeldBot):
    """Lowest deadwood now: takes a card that lowers it, knocks at once, discards the
    card that leaves the least deadwood (the highest such card on a tie)."""

    name = "greedy"

    def turn_end(self, observation: Observation, legal: Sequence[Action]) -> Action:
        mask = observation.hand
        deadwood = self.deadwood
        value = self.ace.card_value

        def key(action: Action) -> tuple[int, int, int]:
            card = action.card
            assert card is not None
            return (deadwood(mask ^ card.bit), -value(card), -card.index)

        knocks = [a for a in legal if a.kind is Act.KNOCK]
        if knocks:
            return min(knocks, key=key)
        return min(legal, key=key)


class StrongBot(_MeldBot):
    """A heuristic player that remembers the hand.

    - Draws: takes the discard only when it melds at once (taking it shows the
      opponent a card of ours); otherwise draws blind.
    - Discards: weighs the deadwood left against each card's live *outs* (the
      unseen cards that would meld it) and its *danger* (how well it fits the
      cards the opponent took from the pile, or is close to the rank and suit
      of cards the opponent wanted); cards the opponent threw away are safe.
    - Knocks: at once early in the hand; as the stock runs down and the
      opponent's hand improves, only with deadwood low enough not to be
      undercut; always when it is gin, big gin or the last chance.
    """

    name = "strong"

    def wants(self, observation: Observation, card: Card) -> bool:
        gain = self.gain_from(observation, card)
        # A card that joins a meld lowers the deadwood by at least its own
        # value; a mere swap of a high card for a lower one is not worth
        # showing the opponent what we collect.
        return gain >= 4 or (
            gain > 0
            and self.deadwood(observation.hand | card.bit) < self.deadwood(observation.hand)
        )

    def turn_end(self, observation: Observation, legal: Sequence[Action]) -> Action:
        mask = observation.hand
        deadwood = self.deadwood
        knocks = [a for a in legal if a.kind is Act.KNOCK]
        if knocks:
            best = min(knocks, key=lambda a: deadwood(mask ^ a.card.bit))  # type: ignore[union-attr]
            left = deadwood(mask ^ best.card.bit)  # type: ignore[union-attr]
            if (
                left == 0
                or self.should_knock(observation, left)
                or not any(a.kind is Act.DISCARD for a in legal)
            ):
                return best
        discards = [a for a in legal if a.kind is Act.DISCARD]
        seen = mask | observation.opponent_known | observation.opponent_discarded
        for card in observation.pile:
            seen |= card.bit
        unseen = ~seen & _ALL_CARDS
        late = observation.stock_left < 10
        weight_outs = 1 if late else 2

        def cost(action: Action) -> float:
            card = action.card
            assert card is not None
            rest = mask ^ card.bit
            return (
                deadwood(rest)
                + weight_outs * _outs(card, rest, unseen)
                + 3 * _danger(card, observation)
            )

        return min(discards, key=lambda a: (cost(a), -a.card.index))  # type: ignore[union-attr]

    def should_knock(self, observation: Observation, left: int) -> bool:
        turn = observation.turn
        if turn <= 3:
            return True
        # The opponent's deadwood falls as the hand goes on; knock only below
        # an estimate of it, and more boldly when the stock is nearly gone.
        risk = len(mask_to_cards(observation.opponent_known))
        allowed = 10 - turn // 2 - 2 * risk
        if observation.stock_left <= 6:
            allowed = max(allowed, 5)
        return left <= max(allowed, 2)


_ALL_CARDS: Final = 0x1FFF | 0x1FFF << 16 | 0x1FFF << 32 | 0x1FFF << 48


def _bit(rank: int, suit: int) -> int:
    return 1 << (suit * 16 + rank) if 0 <= rank <= 12 else 0


#: Per card (by index): its rank in every suit, and the cards 1 and 2 below and above it.
_RANK: Final = tuple(sum(_bit(c.rank, s) for s in range(4)) & ~c.bit for c in DECK)
_LOW1: Final = tuple(_bit(c.rank - 1, c.suit) for c in DECK)
_LOW2: Final = tuple(_bit(c.rank - 2, c.suit) for c in DECK)
_HIGH1: Final = tuple(_bit(c.rank + 1, c.suit) for c in DECK)
_HIGH2: Final = tuple(_bit(c.rank + 2, c.suit) for c in DECK)


def _outs(card: Card, rest: int, unseen: int) -> int:
    """Unseen cards that would meld ``card`` with what is kept (what discarding it gives up)."""
    i = card.index
    outs = 0
    same_rank = _RANK[i]
    if rest & same_rank:
        outs += (unseen & same_rank).bit_count()
    low1, low2, high1, high2 = _LOW1[i], _LOW2[i], _HIGH1[i], _HIGH2[i]
    if rest & low1:
        outs += bool(unseen & low2) + bool(unseen & high1)
    elif rest & low2 and unseen & low1:
        outs += 1
    if rest & high1:
        outs += bool(unseen & high2) + bool(unseen & low1)
    elif rest & high2 and unseen & high1:
        outs += 1
    return outs


def _danger(card: Card, observation: Observation) -> int:
    """How well ``card`` would fit what the opponent collects (less when they threw its kind)."""
    i = card.index
    known = observation.opponent_known
    thrown = observation.opponent_discarded
    near = _LOW1[i] | _LOW2[i] | _HIGH1[i] | _HIGH2[i]
    danger = 0
    if known & _RANK[i]:
        danger += 2
    if known & near:
        danger += 2
    if thrown & _RANK[i]:
        danger -= 1
    if thrown & (_LOW1[i] | _HIGH1[i]):
        danger -= 1
    return danger


BOTS: Final[dict[str, Callable[[AceRule], Bot]]] = {
    "random": lambda ace: RandomBot(),
    "greedy": GreedyBot,
    "strong": StrongBot,
}


def make_bot(name: str, ace: AceRule) -> Bot:
    """A bot by name (case-insensitive); ValueError lists the names."""
    try:
        return BOTS[name.strip().lower()](ace)
    except KeyError:
        raise ValueError(f"unknown bot {name!r} (one of {', '.join(BOTS)})") from None
