"""A round: the hands dealt together (one heads-up, two in a partnership), and who moves.

Most formats play each hand of a round on its own deck, one after the other
(:class:`SeparateDecks`). HR's four-player game deals both pairings from one
deck (:class:`SharedDeck`, ``format.partnership_deck: shared``); these are
ginrules' own decisions, printed on the sheet as ours:

- ten cards (``cards.hand_size``) to each of the four players, then one upcard
  for each pairing (pairing 1's first), from one shuffled deck. The rest is one
  stock both pairings draw from: HR's "12 cards", from which the two upcards
  are turned, leaves 10. Under ``first_turn: eleven_cards`` each non-dealer
  gets an eleventh card instead of an upcard.
- each pairing has its own discard pile, and lays off only onto its own
  opponent's melds (each pairing is a two-player :class:`Hand`).
- the pairings take turns: one player's turn in pairing 1 (a draw and a
  discard, or one answer to the upcard offer), then one in pairing 2, and so
  on; a pairing whose hand is over is skipped, the other plays on alone.
- the dead hand, per pairing: when a player of a pairing is to draw and the
  shared stock holds ``stock_end.cards_left`` cards or fewer, that pairing's
  hand is dead (or, under ``last_discard_playable``, the player may take the
  last discard to knock or go gin). Heads-up this is the usual rule.
- Oklahoma: each pairing's own upcard sets its knock limit and spades.

A round is driven with :meth:`Round.current` (which hand moves next) and
:meth:`Round.apply`; :meth:`Round.play` plays it with bots.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from ginrules.cards import Card, parse_cards
from ginrules.engine.actions import Action
from ginrules.engine.bots import Bot
from ginrules.engine.hand import Hand, Phase, shuffled_deck
from ginrules.engine.play import play_hand
from ginrules.rules.compile import EngineConfig, PartnershipDeck

__all__ = ["Round", "SeparateDecks", "SharedDeck", "new_round"]


class DealLike(Protocol):
    """What a round needs of a deal: the table seats, the dealer (hand seat), a seed."""

    @property
    def seats(self) -> tuple[int, int]: ...
    @property
    def dealer(self) -> int: ...
    @property
    def seed(self) -> int: ...


class Round:
    """The hands of one round; ``hands[i]`` is played by ``deals[i].seats``."""

    def __init__(self, deals: Sequence[DealLike], hands: Sequence[Hand]) -> None:
        self.deals = tuple(deals)
        self.hands = tuple(hands)

    @property
    def over(self) -> bool:
        return all(hand.over for hand in self.hands)

    def current(self) -> int | None:
        """The index of the hand whose player moves next, or None when all are over."""
        raise NotImplementedError

    def apply(self, index: int, action: Action) -> None:
        """``action`` by the player to move in hand ``index`` (which must be current)."""
        self.hands[index].apply(action)

    def play(self, players: Sequence[Bot], rngs: Sequence[random.Random]) -> None:
        """Play every hand to its end; ``players[table seat]`` moves for each seat."""
        while (index := self.current()) is not None:
            hand = self.hands[index]
            seat = self.deals[index].seats[hand.to_move]
            bot = players[seat]
            observation = hand.observation(hand.to_move) if bot.observes else None
            self.apply(index, bot.choose(observation, hand.legal_actions(), rngs[seat]))


class SeparateDecks(Round):
    """Each hand on its own deck (its deal's seed), played one after the other."""

    def __init__(self, config: EngineConfig, deals: Sequence[DealLike]) -> None:
        super().__init__(deals, [Hand.deal(config, d.dealer, d.seed) for d in deals])

    def current(self) -> int | None:
        return next((i for i, hand in enumerate(self.hands) if not hand.over), None)

    def play(self, players: Sequence[Bot], rngs: Sequence[random.Random]) -> None:
        for deal, hand in zip(self.deals, self.hands, strict=True):
            play_hand(hand, [players[s] for s in deal.seats], [rngs[s] for s in deal.seats])


class SharedDeck(Round):
    """Two pairings dealt from one deck (the first deal's seed), sharing one stock and
    taking turns (see the module's rules)."""

    def __init__(
        self, config: EngineConfig, deals: Sequence[DealLike], deck: Sequence[Card] | None = None
    ) -> None:
        """Deal from ``deck`` (default: the first deal's seeded shuffle): card ``k`` of
        pairing ``p`` (in a :class:`Hand`'s order, non-dealer first) is ``deck[p + 2k]``,
        then each pairing's upcard, then the stock, next card first."""
        seed = deals[0].seed
        if deck is None:
            deck = shuffled_deck(seed)
        size = config.hand_size
        pairings = len(deals)
        dealt = 2 * size * pairings
        hands = []
        for p, deal in enumerate(deals):
            mine = deck[p:dealt:pairings]
            hands.append(
                Hand(
                    config,
                    deal.dealer,
                    (*mine, deck[dealt + p], *deck[dealt + pairings :]),
                    seed=seed,
                    check_deck=False,
                )
            )
        stock = hands[0].stock
        for hand in hands[1:]:
            hand.stock = stock  # one list: a draw in either pairing takes from it
        super().__init__(deals, hands)
        self.config = config
        self.deck = tuple(deck)
        #: The pairing whose player's turn it is.
        self.turn = 0
        #: Every action, in order: (pairing, hand seat, action).
        self.history: list[tuple[int, int, Action]] = []

    @property
    def stock_left(self) -> int:
        return len(self.hands[0].stock)

    def current(self) -> int | None:
        for _ in range(2 * len(self.hands)):
            hand = self.hands[self.turn]
            if hand.over:
                self.turn = (self.turn + 1) % len(self.hands)
                continue
            if hand.phase is Phase.DRAW and self.stock_left <= self.config.stock_end_cards_left:
                hand.stock_ran_out()
                continue  # dead now (the loop moves on), or the last-discard choice
            return self.turn
        return None

    def apply(self, index: int, action: Action) -> None:
        if index != self.current():
            raise ValueError("not this pairing's turn")
        hand = self.hands[index]
        mover = hand.to_move
        hand.apply(action)
        self.history.append((index, mover, action))
        if hand.over or hand.to_move != mover:  # that player's turn is done
            self.turn = (index + 1) % len(self.hands)

    def context(self, index: int) -> dict[str, Any]:
        """What a record of pairing ``index``'s hand needs to be played back: the one
        deck, both dealers and every action of the round so far, in order."""
        return {
            "pairing": index,
            "dealers": [deal.dealer for deal in self.deals],
            "deck": " ".join(str(card) for card in self.deck),
            "actions": [
                {"pairing": p, "seat": seat, **action.to_json()} for p, seat, action in self.history
            ],
        }

    @classmethod
    def replay(cls, config: EngineConfig, seed: int, context: dict[str, Any]) -> SharedDeck:
        """The round of a record's ``round`` context, played back action by action."""
        dealers = [int(d) for d in context["dealers"]]
        deals = [_Dealt((2 * p, 2 * p + 1), dealer, seed) for p, dealer in enumerate(dealers)]
        round_ = cls(config, deals, parse_cards(context["deck"], size=52))
        for item in context["actions"]:
            round_.apply(int(item["pairing"]), Action.from_json(item))
        round_.current()  # a hand the shared stock ran out under ends here
        return round_


@dataclass(frozen=True, slots=True)
class _Dealt:
    """A deal rebuilt from a record."""

    seats: tuple[int, int]
    dealer: int
    seed: int


def new_round(config: EngineConfig, deals: Sequence[DealLike]) -> Round:
    """The round these deals make under the configuration."""
    if config.partnership_deck is PartnershipDeck.SHARED:
        return SharedDeck(config, deals)
    return SeparateDecks(config, deals)
