"""The showdown: the knocker's arrangement and the defender's best reply.

Glossary:

knocker
    The player who ends the hand by knocking (deadwood within the knock limit)
    or by going gin (no deadwood at all).
defender
    The knocker's opponent, who spreads their own melds and may *lay off*.
lay off
    Add a card of one's deadwood to the knocker's melds: the fourth card of a
    three-card set, or the next card at either end of a run, including onto a
    card laid off just before (a chain). Never onto deadwood, never after gin,
    never by the knocker.
lay-off spot
    A card that could be laid off on a meld as it stands.
"""

from __future__ import annotations

import itertools
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass

from ginrules.cards import Card, cards_to_mask, mask_to_cards
from ginrules.melds import (
    CLASSIC_ACES,
    AceRule,
    Arrangement,
    Meld,
    MeldKind,
    best_arrangements,
    best_melds,
    deadwood_of_mask,
    run_card,
)


@dataclass(frozen=True)
class Layoff:
    """One card laid off, and the index of the knocker's meld it joins."""

    card: Card
    meld_index: int


@dataclass(frozen=True)
class Defense:
    """The defender's hand after the showdown."""

    arrangement: Arrangement  # the defender's own melds and remaining deadwood
    layoffs: tuple[Layoff, ...]

    @property
    def deadwood(self) -> int:
        return self.arrangement.deadwood

    def to_json(self) -> dict[str, object]:
        data = self.arrangement.to_json()
        data["layoffs"] = [
            {"card": str(layoff.card), "meld": layoff.meld_index} for layoff in self.layoffs
        ]
        return data


def _extension(meld: Meld, rule: AceRule, direction: int) -> list[Card]:
    """The cards that would extend a run, nearest first, in one direction."""
    suit = meld.cards[0].suit
    length = len(meld.cards)
    position = meld.start - 1 if direction < 0 else meld.start + length
    cards: list[Card] = []
    # A run can grow to at most 13 cards; guard the wrap-around of round the corner.
    for _ in range(13 - length):
        card = run_card(position, suit, rule.mode)
        if card is None:
            break
        cards.append(card)
        position += direction
    return cards


def layoff_spots(melds: Iterable[Meld], rule: AceRule = CLASSIC_ACES) -> set[Card]:
    """Cards that could be laid off directly on these melds as they stand."""
    spots: set[Card] = set()
    for meld in melds:
        if meld.kind is MeldKind.SET:
            if len(meld.cards) == 3:
                missing = {0, 1, 2, 3} - {c.suit for c in meld.cards}
                spots.update(Card(meld.cards[0].rank, s) for s in missing)
            continue
        for direction in (-1, 1):
            extension = _extension(meld, rule, direction)
            if extension:
                spots.add(extension[0])
    return spots


def knocker_arrangement(
    cards: Iterable[Card],
    rule: AceRule = CLASSIC_ACES,
    *,
    seen: Collection[Card] = (),
) -> Arrangement:
    """The knocker's best spread: least deadwood, then fewest lay-off spots.

    Among arrangements with equal deadwood, the knocker shows the one that
    offers the fewest lay-off spots among the cards it has not seen (its own
    cards and ``seen``, such as the discard pile, cannot be in the defender's
    hand). Remaining ties are broken in the fixed order of :func:`best_melds`.
    """
    hand = list(cards)
    known = set(hand) | set(seen)
    candidates = best_arrangements(cards_to_mask(hand), rule)
    return min(candidates, key=lambda a: len(layoff_spots(a.melds, rule) - known))


def best_defense(
    defender: Sequence[Card],
    knocker_melds: Sequence[Meld],
    rule: AceRule = CLASSIC_ACES,
    *,
    layoffs_allowed: bool = True,
) -> Defense:
    """The defender's least deadwood: own melds and lay-offs chosen together.

    Every way of laying off is tried (for each three-card set, its fourth card
    or not; for each end of each run, how far to extend it with the chain of
    cards the defender holds) and the rest of the hand is arranged at its best.
    Pass ``layoffs_allowed=False`` after gin or when the ruleset has no
    lay-offs. Among equal deadwood, fewer lay-offs win, then the fixed order.
    """
    hand_mask = cards_to_mask(defender)
    if not layoffs_allowed:
        return Defense(best_melds(defender, rule), ())
    # Each choice point lists its options: the layoffs made, as (card, meld) pairs.
    choice_points: list[list[tuple[Layoff, ...]]] = []
    for index, meld in enumerate(knocker_melds):
        if meld.kind is MeldKind.SET:
            if len(meld.cards) == 3:
                missing = next(
                    Card(meld.cards[0].rank, s)
                    for s in range(4)
                    if s not in {c.suit for c in meld.cards}
                )
                if hand_mask & missing.bit:
                    choice_points.append([(), (Layoff(missing, index),)])
            continue
        for direction in (-1, 1):
            chain: list[Card] = []
            for card in _extension(meld, rule, direction):
                if not hand_mask & card.bit:
                    break
                chain.append(card)
            if chain:
                choice_points.append(
                    [tuple(Layoff(c, index) for c in chain[:k]) for k in range(len(chain) + 1)]
                )
    best: tuple[int, int, tuple[Layoff, ...]] | None = None
    for combo in itertools.product(*choice_points):
        laid = tuple(layoff for option in combo for layoff in option)
        laid_mask = cards_to_mask(layoff.card for layoff in laid)
        if laid_mask.bit_count() != len(laid):
            continue  # the same card offered to two melds
        dead = deadwood_of_mask(hand_mask & ~laid_mask, rule)
        if best is None or (dead, len(laid)) < best[:2]:
            best = (dead, len(laid), laid)
    assert best is not None
    laid = best[2]
    rest = mask_to_cards(hand_mask & ~cards_to_mask(layoff.card for layoff in laid))
    return Defense(best_melds(rest, rule), laid)


class LayoffError(ValueError):
    """A lay-off that the rules do not allow; the message names the card."""


def lay_off(
    knocker_melds: Sequence[Meld], layoffs: Iterable[Layoff], rule: AceRule = CLASSIC_ACES
) -> tuple[Meld, ...]:
    """Apply lay-offs one by one, in order, and return the knocker's grown melds.

    A card may go on a three-card set as its fourth card, or at either end of
    a run, including next to a card laid off just before. Raises
    :class:`LayoffError` for any other card.
    """
    melds = list(knocker_melds)
    for layoff in layoffs:
        if not 0 <= layoff.meld_index < len(melds):
            raise LayoffError(
                f"{layoff.card}: there is no meld {layoff.meld_index + 1}"
                f" (the knocker shows {len(melds)})"
            )
        meld = melds[layoff.meld_index]
        if meld.kind is MeldKind.SET:
            if len(meld.cards) < 4 and layoff.card.rank == meld.cards[0].rank:
                melds[layoff.meld_index] = Meld(MeldKind.SET, (*meld.cards, layoff.card))
                continue
        else:
            below = _extension(meld, rule, -1)
            above = _extension(meld, rule, 1)
            if below and below[0] == layoff.card:
                melds[layoff.meld_index] = Meld(
                    MeldKind.RUN, (layoff.card, *meld.cards), meld.start - 1
                )
                continue
            if above and above[0] == layoff.card:
                melds[layoff.meld_index] = Meld(
                    MeldKind.RUN, (*meld.cards, layoff.card), meld.start
                )
                continue
        raise LayoffError(f"{layoff.card} does not fit on {meld}")
    return tuple(melds)
