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

from ginrules.cards import DECK, Card
from ginrules.engine.actions import BIG_GIN, DEFEND_BEST, DRAW_STOCK, PASS, TAKE, Act, Action
from ginrules.engine.hand import Observation, Phase
from ginrules.melds import AceRule, scorer
from ginrules.melds.lanes import EVERY_SUIT, neighbours


def declared_gin(legal: Sequence[Action]) -> Action | None:
    """Gin, said out loud, where the rules make a player declare it: always the
    best end of a turn that can go gin (a silent knock would lose the bonus)."""
    for action in legal:
        if action.kind is Act.GIN:
            return action
    return None


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
        self.draw_outlook = rule.draw_outlook
        self.discard_outcomes = rule.discard_outcomes

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

    def after_taking(self, hand: int, card: Card) -> int | None:
        """The least deadwood after taking ``card`` and discarding another card
        (a taken card may not go straight back), or None when taking it would
        not lower the deadwood at all.

        One best-discard search answers it: the best discard of the hand with
        the card either is the card itself (no gain: None) or is another card.
        """
        after = self.best_discard(hand | card.bit)
        return after if after < self.deadwood(hand) else None

    def wants(self, observation: Observation, card: Card) -> bool:
        return self.after_taking(observation.hand, card) is not None

    def turn_end(self, observation: Observation, legal: Sequence[Action]) -> Action:
        raise NotImplementedError


class GreedyBot(_MeldBot):
    """Lowest deadwood now: takes a card that lowers it, knocks at once, discards the
    card that leaves the least deadwood (the highest such card on a tie)."""

    name = "greedy"

    def turn_end(self, observation: Observation, legal: Sequence[Action]) -> Action:
        left = self.discard_outcomes(observation.hand)
        value = self.ace.card_value

        def key(action: Action) -> tuple[int, int, int]:
            card = action.card
            assert card is not None
            return (left[card.bit], -value(card), -card.index)

        gin = declared_gin(legal)
        if gin is not None:
            return gin
        knocks = [a for a in legal if a.kind is Act.KNOCK]
        if knocks:
            return min(knocks, key=key)
        return min(legal, key=key)


class StrongBot(_MeldBot):
    """A heuristic player that remembers the hand and looks one draw ahead.

    - *Unseen* cards are those not in its hand, not in the discard pile, not
      known to be in the opponent's hand (taken from the pile) and not thrown
      by the opponent: the cards the next stock draw may bring.
    - Discards: of the few discards that leave the least deadwood, keeps the
      hand whose deadwood is expected to be lowest after the next draw (its
      live outs count), plus a *danger* term that avoids feeding the melds
      the opponent shows by what it takes, and favours ranks it threw away.
    - Draws: takes the discard only when that beats the expected stock draw
      (taking it also shows the opponent what we collect).
    - Knocks: at once early in the hand; as the hand goes on and the
      opponent collects cards, only with deadwood low enough not to be
      undercut; always with gin, big gin or the last chance.
    """

    name = "strong"
    #: How many of the lowest-deadwood discards get the one-draw look-ahead.
    candidates = 4

    def unseen(self, observation: Observation) -> int:
        """The cards (a mask) the next stock draw may bring."""
        seen = observation.hand | observation.opponent_known | observation.opponent_discarded
        for card in observation.pile:
            seen |= card.bit
        return ~seen & _ALL_CARDS

    def expected_after_draw(self, hand: int, unseen: int, limit: int = -1) -> float:
        """Mean deadwood after drawing one of the ``unseen`` cards and discarding at best.

        Less a bonus for the chance of reaching ``limit`` (the knock limit)
        on that draw, worth more the lower the limit: under straight gin the
        hand that can go out beats the hand with the least deadwood.
        """
        now = self.deadwood(hand)
        count = unseen.bit_count()
        if not count:
            return float(now)
        # A card with no rank or suit neighbour in the hand is counted as no help
        # (the deadwood stays ``now``); the others are scored together.
        helpful = unseen & _helped_by(hand)
        total, reach = self.draw_outlook(hand, helpful, limit)
        others = count - helpful.bit_count()
        total += now * others
        if now <= limit:
            reach += others
        weight = 20 / (1 + limit) if limit >= 0 else 0
        return (total - weight * reach) / count

    def wants(self, observation: Observation, card: Card) -> bool:
        mask = observation.hand
        after_take = self.after_taking(mask, card)
        if after_take is None:
            return False
        return after_take < self.expected_after_draw(mask, self.unseen(observation)) - 1

    def turn_end(self, observation: Observation, legal: Sequence[Action]) -> Action:
        gin = declared_gin(legal)
        if gin is not None:
            return gin
        mask = observation.hand
        outcome = self.discard_outcomes(mask)
        knocks = [a for a in legal if a.kind is Act.KNOCK]
        if knocks:
            best = min(knocks, key=lambda a: outcome[a.card.bit])  # type: ignore[union-attr]
            left = outcome[best.card.bit]  # type: ignore[union-attr]
            if (
                left == 0
                or self.should_knock(observation, left)
                or not any(a.kind is Act.DISCARD for a in legal)
            ):
                return best
        ranked = sorted(
            (outcome[card.bit] + _danger(card, observation), -card.index, action)
            for action in legal
            if action.kind is Act.DISCARD and (card := action.card) is not None
        )
        unseen = self.unseen(observation)
        best_value, choice = float("inf"), ranked[0][2]
        for _, _, action in ranked[: self.candidates]:
            card = action.card
            assert card is not None
            after = self.expected_after_draw(mask ^ card.bit, unseen, observation.knock_limit)
            value = after + _danger(card, observation)
            if value < best_value:
                best_value, choice = value, action
        return choice

    def should_knock(self, observation: Observation, left: int) -> bool:
        turn = observation.turn
        if turn <= 3:
            return True
        # The opponent's deadwood falls as the hand goes on; knock only below
        # an estimate of it, and more boldly when the stock is nearly gone.
        risk = observation.opponent_known.bit_count()
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
_SUIT_NEAR: Final = neighbours()


def _helped_by(hand: int) -> int:
    """The cards that could meld with some card of ``hand``: its ranks in every
    suit, and each suit within two ranks of its cards (the king and ace count as
    neighbours, for the tables that play the ace high)."""
    a = hand & 0x1FFF
    b = hand >> 16 & 0x1FFF
    c = hand >> 32 & 0x1FFF
    d = hand >> 48 & 0x1FFF
    near = _SUIT_NEAR
    ranks = (a | b | c | d) * EVERY_SUIT
    return ranks | near[a] | near[b] << 16 | near[c] << 32 | near[d] << 48


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
