"""One hand of gin, as a state machine under a compiled configuration.

A :class:`Hand` is made from an :class:`EngineConfig`, a dealer and a deck
order (from a seed, or laid out by a test). The player to move asks for
:meth:`Hand.legal_actions` and calls :meth:`Hand.apply`; an illegal action
raises :class:`IllegalAction` and leaves the hand exactly as it was. Every
rule comes from the configuration: the hand never asks which variant it is.

Seats are 0 and 1. The deck is dealt from its first card: one card at a time,
non-dealer first, then the upcard (or the non-dealer's eleventh card), then
the stock in order.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Final

from ginrules.cards import DECK, Card, cards_to_mask, mask_to_cards, sort_for_display
from ginrules.engine.actions import (
    BIG_GIN,
    DEFEND_BEST,
    DRAW_STOCK,
    PASS,
    TAKE,
    Act,
    Action,
    declare_gin,
    discard,
    knock,
)
from ginrules.engine.illegal import Illegal, IllegalAction
from ginrules.engine.scoring import DEAD_SCORE, HandScore, Showdown, score_hand
from ginrules.layoffs import Defense, LayoffError, best_defense, knocker_arrangement, lay_off
from ginrules.melds import Arrangement, Meld, MeldError, best_melds, make_meld, scorer
from ginrules.rules.compile import EngineConfig, FirstTurn


class Phase(StrEnum):
    """Whose decision the hand waits for, and of what kind."""

    #: First turn: take the upcard or pass (non-dealer, then dealer).
    OFFER = "offer"
    #: Draw from the stock or take the discard.
    DRAW = "draw"
    #: Discard, knock, or lay down big gin.
    DISCARD = "discard"
    #: End of the stock: take the last discard to knock or go gin, or pass.
    LAST_CHANCE = "last_chance"
    #: The defender lays off and spreads after a knock.
    LAYOFF = "layoff"
    #: The hand is over.
    OVER = "over"


# Looking up an enum member costs about 65 ns on Python 3.11, as much as a
# whole dict lookup and more than most of a turn's work: the hot paths below
# use these module constants instead.
_OFFERING: Final = Phase.OFFER
_DRAWING: Final = Phase.DRAW
_DISCARDING: Final = Phase.DISCARD
_LAST_CHANCE: Final = Phase.LAST_CHANCE
_LAYING_OFF: Final = Phase.LAYOFF
_OVER: Final = Phase.OVER
_ACT_PASS: Final = Act.PASS
_ACT_DRAW_STOCK: Final = Act.DRAW_STOCK
_ACT_TAKE: Final = Act.TAKE
_ACT_DISCARD: Final = Act.DISCARD
_ACT_KNOCK: Final = Act.KNOCK
_ACT_BIG_GIN: Final = Act.BIG_GIN
_ACT_GIN: Final = Act.GIN
_ACT_DEFEND: Final = Act.DEFEND


class Hand:
    """The state of one hand. Mutable; copy with :meth:`copy`."""

    __slots__ = (
        "_best_discard",
        "_deadwood",
        "_dearest",
        "_knock",
        "config",
        "dead",
        "dealer",
        "deck",
        "discarded",
        "hands",
        "history",
        "knock_limit",
        "must_knock",
        "offers",
        "phase",
        "pile",
        "seed",
        "showdown",
        "stock",
        "stock_only",
        "taken",
        "to_move",
        "took",
        "turns",
        "upcard",
    )

    def __init__(
        self,
        config: EngineConfig,
        dealer: int,
        deck: Sequence[Card],
        *,
        seed: int | None = None,
        check_deck: bool = True,
    ) -> None:
        if check_deck and (len(deck) != len(DECK) or cards_to_mask(deck) != _FULL_DECK):
            raise ValueError("a deck must hold each of the 52 cards once")
        if dealer not in (0, 1):
            raise ValueError(f"the dealer is seat 0 or 1, not {dealer}")
        rule = scorer(config.ace)
        self._deadwood = rule.deadwood
        self._best_discard = rule.best_discard_deadwood
        self._dearest = max(10, config.ace.value)
        self.config = config
        self.seed = seed
        self.dealer = dealer
        self.deck = tuple(deck)
        size = config.hand_size
        dealt = 2 * size
        non_dealer = 1 - dealer
        hands = [0, 0]
        for i in range(dealt):
            hands[non_dealer if i % 2 == 0 else dealer] |= self.deck[i].bit
        self.pile: list[Card] = []
        self.upcard: Card | None = None
        if config.first_turn is FirstTurn.ELEVEN_CARDS:
            hands[non_dealer] |= self.deck[dealt].bit
            self.phase = _DISCARDING
        else:
            self.upcard = self.deck[dealt]
            self.pile.append(self.upcard)
            self.phase = _OFFERING
        self.hands = hands
        #: The stock, next card last (so drawing is a pop).
        self.stock = list(reversed(self.deck[dealt + 1 :]))
        self.knock_limit = config.knock_limit_for(self.upcard)
        self.to_move = non_dealer
        #: The card just taken from the discard pile this turn, if any.
        self.taken: Card | None = None
        self.offers = 0
        self.stock_only = False
        self.must_knock = False
        #: Turns each player has finished (for ``knock_on_first_turn``).
        self.turns = [0, 0]
        #: Masks of the cards each player took from the discard pile (seen by both).
        self.took = [0, 0]
        #: Masks of the cards each player discarded face up.
        self.discarded = [0, 0]
        self.history: list[tuple[int, Action]] = []
        self.showdown: Showdown | None = None
        self.dead = False
        #: (knocker, discard, arrangement, big gin, gin declared) once someone knocks.
        self._knock: tuple[int, Card | None, Arrangement, bool, bool] | None = None

    # -- construction -----------------------------------------------------

    @classmethod
    def deal(cls, config: EngineConfig, dealer: int, seed: int) -> Hand:
        """A hand dealt from a seeded shuffle (the same seed, the same deck)."""
        return cls(config, dealer, shuffled_deck(seed), seed=seed, check_deck=False)

    @classmethod
    def from_cards(
        cls,
        config: EngineConfig,
        *,
        dealer: int,
        non_dealer_cards: Iterable[Card],
        dealer_cards: Iterable[Card],
        upcard: Card | None = None,
        stock: Iterable[Card] = (),
    ) -> Hand:
        """A hand laid out card by card (tests, golden cases, table scenarios).

        ``stock`` lists the next cards of the stock, next first; the rest of the
        deck follows in a fixed order. Under ``eleven_cards`` the non-dealer
        holds one card more and ``upcard`` must be None.
        """
        mine, theirs = list(non_dealer_cards), list(dealer_cards)
        ordered: list[Card] = []
        for a, b in zip(mine, theirs, strict=False):
            ordered += [a, b]
        extra = mine[len(theirs) :]
        if len(theirs) != config.hand_size or len(mine) != config.hand_size + len(extra):
            raise ValueError(
                f"deal {config.hand_size} cards to each player"
                + (" (and an eleventh to the non-dealer)" if extra else "")
            )
        if config.first_turn is FirstTurn.ELEVEN_CARDS:
            if upcard is not None or len(extra) != 1:
                raise ValueError("an eleven-card deal has no upcard: give the non-dealer 11 cards")
            ordered += extra
        else:
            if upcard is None or extra:
                raise ValueError("deal ten cards each and name the upcard")
            ordered.append(upcard)
        ordered += list(stock)
        used = set(ordered)
        if len(used) != len(ordered):
            raise ValueError("a card is dealt twice")
        ordered += [card for card in DECK if card not in used]
        return cls(config, dealer, ordered)

    def copy(self) -> Hand:
        other = object.__new__(Hand)
        for name in Hand.__slots__:
            value = getattr(self, name)
            setattr(other, name, list(value) if isinstance(value, list) else value)
        return other

    # -- reading the state -------------------------------------------------

    @property
    def over(self) -> bool:
        return self.phase is _OVER

    def cards(self, seat: int) -> list[Card]:
        return mask_to_cards(self.hands[seat])

    def deadwood(self, seat: int) -> int:
        return self._deadwood(self.hands[seat])

    def score(self) -> HandScore:
        if self.showdown is not None:
            return self.showdown.score
        if self.dead:
            return DEAD_SCORE
        raise ValueError("the hand is not over")

    @property
    def knock_discard(self) -> Card | None:
        """The knocker's face-down discard, once a player has knocked."""
        return None if self._knock is None else self._knock[1]

    @property
    def winner(self) -> int | None:
        return None if self.showdown is None else self.showdown.winner

    def legal_actions(self) -> tuple[Action, ...]:
        """Every action the player to move may take now (the best reply at a lay-off)."""
        phase = self.phase
        if phase is _DISCARDING:
            return self._discard_actions()
        if phase is _DRAWING:
            return _STOCK_ONLY if self.stock_only else _DRAWS
        if phase is _OFFERING or phase is _LAST_CHANCE:
            return _OFFER
        if phase is _LAYING_OFF:
            return _DEFEND
        return ()

    def _discard_actions(self) -> tuple[Action, ...]:
        mask = self.hands[self.to_move]
        choices = mask
        taken = self.taken
        if taken is not None and (self.must_knock or not self.config.discard_taken_card):
            choices &= ~taken.bit
        if self.must_knock:
            actions: tuple[Action, ...] = ()
        else:
            c = _CLUBS[choices & 0x1FFF]
            if c is None:
                c = _lane_discards(0, choices & 0x1FFF)
            d = _DIAMONDS[choices >> 16 & 0x1FFF]
            if d is None:
                d = _lane_discards(1, choices >> 16 & 0x1FFF)
            h = _HEARTS[choices >> 32 & 0x1FFF]
            if h is None:
                h = _lane_discards(2, choices >> 32 & 0x1FFF)
            s = _SPADES[choices >> 48 & 0x1FFF]
            if s is None:
                s = _lane_discards(3, choices >> 48 & 0x1FFF)
            actions = c + d + h + s
        if not (self.config.knock_on_first_turn or self.turns[self.to_move]):
            return actions
        deadwood = self._deadwood
        limit = self.knock_limit
        # One discard lowers the deadwood by at most the dearest card: a
        # cheap test first, the exact one only when a knock is in reach.
        if deadwood(mask) - self._dearest <= limit and self._best_discard(mask) <= limit:
            knocks = []
            rest = choices
            while rest:
                low = rest & -rest
                if deadwood(mask ^ low) <= limit:
                    knocks.append(_KNOCK_BY_BIT[low])
                rest ^= low
            actions += tuple(knocks)
            if self.config.gin_must_be_declared:
                actions += tuple(
                    declare_gin(k.card)
                    for k in knocks
                    if k.card and deadwood(mask ^ k.card.bit) == 0
                )
        if self.config.big_gin_bonus is not None and deadwood(mask) == 0:
            actions += (BIG_GIN,)
        return actions

    def _may_knock(self) -> bool:
        return self.config.knock_on_first_turn or self.turns[self.to_move] > 0

    # -- applying actions ------------------------------------------------------

    def apply(self, action: Action, seat: int | None = None) -> None:
        """Play ``action`` for the player to move (``seat``, when given, must be them).

        Raises :class:`IllegalAction` naming why; the hand is then unchanged.
        """
        if self.phase is _OVER:
            raise IllegalAction(Illegal.HAND_OVER, action=action)
        player = self.to_move
        if seat is not None and seat != player:
            raise IllegalAction(Illegal.NOT_YOUR_TURN, action=action, player=player, seat=seat)
        kind = action.kind
        phase = self.phase
        if phase is _DISCARDING and kind is _ACT_DISCARD:
            card = action.card
            if (
                card is None
                or not self.hands[player] & card.bit
                or (self.taken is not None and card.bit == self.taken.bit)
                or self.must_knock
            ):
                self._check_discard(action, player)  # the slow path, with the reason
            self._discard(card, player)  # type: ignore[arg-type]
        elif phase is _DRAWING and kind is _ACT_DRAW_STOCK:
            card = self.stock.pop()
            self.hands[player] |= card.bit
            self.taken = None
            self.stock_only = False
            self.phase = _DISCARDING
        elif phase is _DRAWING and kind is _ACT_TAKE and not self.stock_only:
            self._take(player)
        elif phase is _DISCARDING and kind is _ACT_KNOCK:
            self._knock_with(action, player)
        elif phase is _DISCARDING and kind is _ACT_GIN:
            self._knock_with(action, player, declared=True)
        elif phase is _DISCARDING and kind is _ACT_BIG_GIN:
            if self.config.big_gin_bonus is None:
                raise IllegalAction(Illegal.BIG_GIN_NOT_PLAYED)
            if not self._may_knock():
                raise IllegalAction(Illegal.BIG_GIN_FIRST_TURN)
            if self._deadwood(self.hands[player]) != 0:
                raise IllegalAction(Illegal.BIG_GIN_NOT_MELDED)
            self._finish_knock(player, None, self._arrange(player, None), big_gin=True)
        elif phase is _OFFERING and kind is _ACT_TAKE:
            self._take(player)
        elif phase is _OFFERING and kind is _ACT_PASS:
            self.offers += 1
            if self.offers == 1:
                self.to_move = self.dealer
            else:
                self.to_move = 1 - self.dealer
                self.phase = _DRAWING
                self.stock_only = True
        elif phase is _LAST_CHANCE and kind is _ACT_TAKE:
            if not self._could_use_last(player, self.pile[-1]):
                raise IllegalAction(Illegal.LAST_DISCARD_USELESS, player=player)
            self._take(player)
            self.must_knock = True
        elif phase is _LAST_CHANCE and kind is _ACT_PASS:
            self.dead = True
            self.phase = _OVER
        elif phase is _LAYING_OFF and kind is _ACT_DEFEND:
            self._defend(action, player)
        else:
            raise IllegalAction(
                Illegal.NOT_NOW, action=action, player=player, legal=tuple(self.legal_actions())
            )
        self.history.append((player, action))

    def _take(self, player: int) -> None:
        card = self.pile.pop()
        self.hands[player] |= card.bit
        self.took[player] |= card.bit
        self.taken = card
        self.stock_only = False
        self.phase = _DISCARDING

    def _check_discard(self, action: Action, player: int) -> None:
        card = action.card
        if card is None or not self.hands[player] & card.bit:
            raise IllegalAction(Illegal.NOT_HELD, action=action, player=player)
        if card == self.taken and not self.config.discard_taken_card:
            raise IllegalAction(Illegal.TAKEN_CARD, action=action)
        if self.must_knock:
            if card == self.taken:
                raise IllegalAction(Illegal.LAST_DISCARD_KEPT, action=action)
            if action.kind is _ACT_DISCARD:
                raise IllegalAction(Illegal.MUST_KNOCK, action=action)

    def _discard(self, card: Card, player: int) -> None:
        self.hands[player] &= ~card.bit
        self.discarded[player] |= card.bit
        self.pile.append(card)
        self.taken = None
        self.turns[player] += 1
        self.to_move = 1 - player
        if len(self.stock) > self.config.stock_end_cards_left:
            self.phase = _DRAWING
        else:
            self.stock_ran_out()

    def stock_ran_out(self) -> None:
        """The stock is down to the dead-hand count before the player to move draws: the
        hand is dead, unless the rules let that player take the last discard to knock or
        go gin. Called after a discard, and by a shared-deck round when the other
        pairing's draw left the shared stock that low."""
        top = self.pile[-1] if self.pile else None
        if (
            top is not None
            and self.config.last_discard_playable
            and self._could_use_last(self.to_move, top)
        ):
            self.phase = _LAST_CHANCE
        else:
            self.dead = True
            self.phase = _OVER

    def _could_use_last(self, seat: int, card: Card) -> bool:
        mask = self.hands[seat] | card.bit
        if self.config.big_gin_bonus is not None and self._deadwood(mask) == 0:
            return True
        limit = self.knock_limit
        return any(self._deadwood(mask ^ c.bit) <= limit for c in mask_to_cards(mask) if c != card)

    def _knock_with(self, action: Action, player: int, *, declared: bool = False) -> None:
        self._check_discard(Action(_ACT_KNOCK, action.card), player)
        card = action.card
        assert card is not None
        if not self._may_knock():
            raise IllegalAction(Illegal.KNOCK_FIRST_TURN, action=action)
        rest = self.hands[player] & ~card.bit
        deadwood = self._deadwood(rest)
        if declared and deadwood != 0:
            raise IllegalAction(Illegal.GIN_NOT_MELDED, action=action, deadwood=deadwood)
        if deadwood > self.knock_limit:
            raise IllegalAction(
                Illegal.KNOCK_OVER_LIMIT, action=action, deadwood=deadwood, limit=self.knock_limit
            )
        arrangement = self._arrange(player, action.melds, without=card)
        if arrangement.deadwood > self.knock_limit:
            raise IllegalAction(
                Illegal.MELDS_OVER_LIMIT,
                action=action,
                deadwood=arrangement.deadwood,
                limit=self.knock_limit,
            )
        self.hands[player] = rest
        self._finish_knock(player, card, arrangement, big_gin=False, declared=declared)

    def _arrange(
        self, player: int, melds: Sequence[Sequence[Card]] | None, without: Card | None = None
    ) -> Arrangement:
        mask = self.hands[player] & ~(without.bit if without else 0)
        cards = mask_to_cards(mask)
        if melds is None:
            return knocker_arrangement(cards, self.config.ace, seen=self.pile)
        return _arrangement_of(cards, melds, self.config, player=player)

    def _finish_knock(
        self,
        player: int,
        card: Card | None,
        arrangement: Arrangement,
        *,
        big_gin: bool,
        declared: bool = True,
    ) -> None:
        if not self.config.gin_must_be_declared:
            declared = True  # a knock with no deadwood is gin, said or not
        self._knock = (player, card, arrangement, big_gin, declared)
        self.taken = None
        self.must_knock = False
        defender = 1 - player
        gin = arrangement.deadwood == 0 and declared
        if gin or big_gin or not self.config.layoffs:
            defense = best_defense(
                mask_to_cards(self.hands[defender]), (), self.config.ace, layoffs_allowed=False
            )
            self._settle(defense)
        else:
            self.phase = _LAYING_OFF
            self.to_move = defender

    def _defend(self, action: Action, player: int) -> None:
        assert self._knock is not None
        knocker_melds = self._knock[2].melds
        cards = mask_to_cards(self.hands[player])
        if action.layoffs is None and action.melds is None:
            defense = best_defense(cards, knocker_melds, self.config.ace)
        else:
            defense = _defense_of(cards, knocker_melds, action, self.config, player=player)
        self._settle(defense)

    def _settle(self, defense: Defense) -> None:
        assert self._knock is not None
        knocker, card, arrangement, big_gin, declared = self._knock
        score = score_hand(
            self.config,
            arrangement.deadwood,
            defense.deadwood,
            big_gin=big_gin,
            upcard=self.upcard,
            declared=declared,
        )
        self.showdown = Showdown(knocker, card, arrangement, defense, score)
        self.phase = _OVER

    # -- what each player sees -------------------------------------------------

    def observation(self, seat: int) -> Observation:
        """What ``seat`` can see: own cards, the pile, counts; not the stock or
        the other hand, except the cards the other player took from the pile."""
        other = 1 - seat
        over = self.phase is _OVER
        return Observation(
            seat=seat,
            phase=self.phase,
            to_move=self.to_move,
            hand=self.hands[seat],
            pile=tuple(self.pile),
            stock_left=len(self.stock),
            opponent_cards=self.hands[other].bit_count(),
            opponent_known=self.hands[other] if over else self.took[other] & self.hands[other],
            opponent_discarded=self.discarded[other],
            upcard=self.upcard,
            knock_limit=self.knock_limit,
            taken=self.taken,
            turn=self.turns[seat],
            showdown=self.showdown,
        )

    # -- records ---------------------------------------------------------------

    def to_record(self, ruleset: str | None = None) -> dict[str, Any]:
        """The hand as JSON: fingerprint, seed, deal, every action, and the result."""
        return {
            "record": "ginrules-hand/1",
            "ruleset": ruleset,
            "fingerprint": self.config.fingerprint,
            "seed": self.seed,
            "dealer": self.dealer,
            "deck": " ".join(str(c) for c in self.deck),
            "actions": [{"seat": seat, **action.to_json()} for seat, action in self.history],
            "result": self.result_json(),
        }

    def result_json(self) -> dict[str, Any] | None:
        if self.showdown is not None:
            return {"winner": self.showdown.winner, **self.showdown.to_json()}
        if self.dead:
            return {"winner": None, **DEAD_SCORE.to_json()}
        return None

    def __repr__(self) -> str:
        return (
            f"<Hand {self.phase.value} to_move={self.to_move}"
            f" p0={sort_for_display(self.cards(0))} p1={sort_for_display(self.cards(1))}>"
        )


@dataclass(frozen=True, slots=True)
class Observation:
    """One player's view of a hand. Masks are hand masks (see :mod:`ginrules.cards`)."""

    seat: int
    phase: Phase
    to_move: int
    hand: int
    #: The discard pile, bottom first; the last card is the one that may be taken.
    pile: tuple[Card, ...]
    stock_left: int
    opponent_cards: int
    #: Cards known to be in the opponent's hand (taken from the pile; all of it once over).
    opponent_known: int
    opponent_discarded: int
    upcard: Card | None
    knock_limit: int
    #: The card this player just took from the pile, if any.
    taken: Card | None
    #: Turns this player has finished.
    turn: int
    showdown: Showdown | None


_FULL_DECK: Final = cards_to_mask(DECK)
_KNOCK_BY_BIT: Final = {card.bit: knock(card) for card in DECK}
_DRAWS: Final = (DRAW_STOCK, TAKE)
_STOCK_ONLY: Final = (DRAW_STOCK,)
_OFFER: Final = (TAKE, PASS)
_DEFEND: Final = (DEFEND_BEST,)
#: The discard actions of each 13-bit lane of each suit, built as they are first needed.
_LANE_DISCARDS: Final[list[list[tuple[Action, ...] | None]]] = [[None] * 8192 for _ in range(4)]


_CLUBS, _DIAMONDS, _HEARTS, _SPADES = _LANE_DISCARDS


def _lane_discards(suit: int, lane: int) -> tuple[Action, ...]:
    known = _LANE_DISCARDS[suit][lane]
    if known is None:
        known = tuple(discard(Card(rank, suit)) for rank in range(13) if lane >> rank & 1)
        _LANE_DISCARDS[suit][lane] = known
    return known


def shuffled_deck(seed: int) -> list[Card]:
    deck = list(DECK)
    random.Random(seed).shuffle(deck)
    return deck


def _arrangement_of(
    cards: Sequence[Card], melds: Sequence[Sequence[Card]], config: EngineConfig, *, player: int
) -> Arrangement:
    """A person's own melds checked: real melds, from the hand, no card twice."""
    held = cards_to_mask(cards)
    used = 0
    made: list[Meld] = []
    for chosen in melds:
        try:
            meld = make_meld(chosen, config.ace)
        except MeldError as error:
            raise IllegalAction(Illegal.NOT_A_MELD, player=player, error=error) from None
        if meld.mask & ~held:
            missing = tuple(c for c in meld.cards if not held & c.bit)
            raise IllegalAction(Illegal.MELD_NOT_HELD, player=player, cards=missing)
        if meld.mask & used:
            raise IllegalAction(Illegal.CARD_IN_TWO_MELDS, player=player, meld=meld)
        used |= meld.mask
        made.append(meld)
    unmatched = tuple(mask_to_cards(held & ~used))
    return Arrangement(tuple(made), unmatched, sum(config.ace.card_value(c) for c in unmatched))


def _defense_of(
    cards: Sequence[Card],
    knocker_melds: Sequence[Meld],
    action: Action,
    config: EngineConfig,
    *,
    player: int,
) -> Defense:
    layoffs = action.layoffs or ()
    if layoffs and not config.layoffs:
        raise IllegalAction(Illegal.NO_LAYOFFS)
    held = cards_to_mask(cards)
    laid = cards_to_mask(lay.card for lay in layoffs)
    if laid & ~held or laid.bit_count() != len(layoffs):
        raise IllegalAction(Illegal.LAYOFF_NOT_HELD, player=player)
    try:
        lay_off(knocker_melds, layoffs, config.ace)
    except LayoffError as error:
        raise IllegalAction(Illegal.LAYOFF_DOES_NOT_FIT, player=player, error=error) from None
    rest = mask_to_cards(held & ~laid)
    if action.melds is None:
        arrangement = best_melds(rest, config.ace)
    else:
        arrangement = _arrangement_of(rest, action.melds, config, player=player)
    return Defense(arrangement, tuple(layoffs))
