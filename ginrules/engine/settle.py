"""Settling a played hand: the knocker's cards, the defender's, the points.

This is the showdown of :mod:`ginrules.engine.hand` without the play before it:
``ginrules score`` and the golden cases use it to score hands people actually
played. The knocker's ten kept cards come either as plain cards (the best
arrangement is shown for them) or as the melds they chose plus their unmelded
cards; eleven melded cards are big gin when the ruleset plays it.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum
from typing import Any

from ginrules.cards import Card
from ginrules.engine.scoring import Showdown, score_hand
from ginrules.layoffs import best_defense, knocker_arrangement
from ginrules.melds import Arrangement, Meld, MeldError, make_meld
from ginrules.refusal import Refusal
from ginrules.rules.compile import EngineConfig


class Unsettled(StrEnum):
    """Why a hand cannot be settled as given (:mod:`ginrules.words.problems` words it)."""

    KNOCKER_CARDS_OR_MELDS = "knocker_cards_or_melds"
    KNOCKER_CARD_TWICE = "knocker_card_twice"
    DEFENDER_CARD_COUNT = "defender_card_count"
    CARDS_IN_TWO_PLACES = "cards_in_two_places"
    NO_BIG_GIN = "no_big_gin"
    BIG_GIN_NOT_MELDED = "big_gin_not_melded"
    KNOCKER_CARD_COUNT = "knocker_card_count"
    OVER_THE_LIMIT = "over_the_limit"
    NOT_A_MELD = "not_a_meld"
    #: Oklahoma sets each hand's knock limit from the first upcard: it must be given.
    UPCARD_NEEDED = "upcard_needed"


class SettleError(Refusal):
    """A hand that cannot be settled as given: ``reason`` and ``params`` say why."""

    reason: Unsettled

    def __init__(self, reason: Unsettled, **params: object) -> None:
        super().__init__(reason, **params)


def settle(
    config: EngineConfig,
    *,
    defender: Sequence[Card],
    knocker: Sequence[Card] | None = None,
    knocker_melds: Sequence[Sequence[Card]] | None = None,
    knocker_deadwood: Sequence[Card] = (),
    upcard: Card | None = None,
    declared: bool = True,
) -> Showdown:
    """Score a knock: ``knocker`` as cards (best melds shown), or as chosen melds
    plus deadwood cards. The defender lays off and melds at their best.

    ``declared`` False: a knock with no deadwood that was not called gin, which
    scores as a plain knock where the rules say gin must be declared.

    ``upcard`` is the hand's first upcard: required under Oklahoma (it sets the
    knock limit, and a spade may double the hand), and it may be in either hand
    when a player took it. Raises :class:`SettleError` for a wrong number of
    cards, a card held twice, a chosen meld that is not a meld, deadwood over
    this hand's knock limit, or a missing Oklahoma upcard.
    """
    size = config.hand_size
    if (knocker is None) == (knocker_melds is None):
        raise SettleError(Unsettled.KNOCKER_CARDS_OR_MELDS)
    if knocker_melds is not None:
        melds = _melds(knocker_melds, config)
        cards = [c for meld in melds for c in meld.cards] + list(knocker_deadwood)
    else:
        cards = list(knocker or ())
    if len(set(cards)) != len(cards):
        raise SettleError(Unsettled.KNOCKER_CARD_TWICE)
    if len(defender) != size or len(set(defender)) != size:
        raise SettleError(Unsettled.DEFENDER_CARD_COUNT, size=size, held=len(set(defender)))
    if config.oklahoma and upcard is None:
        raise SettleError(Unsettled.UPCARD_NEEDED)
    # The first upcard may have been taken into either hand; otherwise it lies in the pile.
    clash = set(cards) & set(defender)
    if clash:
        raise SettleError(Unsettled.CARDS_IN_TWO_PLACES, cards=tuple(sorted(clash)))
    if knocker_melds is not None:
        value = config.ace.card_value
        dead = list(knocker_deadwood)
        arrangement = Arrangement(tuple(melds), tuple(dead), sum(value(c) for c in dead))
    else:
        # The knocker knows a pile card is not the defender's; a taken upcard may be.
        in_pile = upcard is not None and upcard not in cards and upcard not in defender
        seen = [upcard] if upcard is not None and in_pile else []
        arrangement = knocker_arrangement(cards, config.ace, seen=seen)
    big_gin = len(cards) == size + 1
    if big_gin:
        if config.big_gin_bonus is None:
            raise SettleError(Unsettled.NO_BIG_GIN, size=size)
        if arrangement.deadwood:
            raise SettleError(Unsettled.BIG_GIN_NOT_MELDED)
    elif len(cards) != size:
        raise SettleError(Unsettled.KNOCKER_CARD_COUNT, size=size, kept=len(cards))
    limit = config.knock_limit_for(upcard)
    if arrangement.deadwood > limit:
        raise SettleError(
            Unsettled.OVER_THE_LIMIT,
            deadwood=arrangement.deadwood,
            limit=limit,
            upcard=upcard if config.oklahoma else None,
        )
    gin = arrangement.deadwood == 0 and (declared or not config.gin_must_be_declared)
    defense = best_defense(
        list(defender),
        arrangement.melds,
        config.ace,
        layoffs_allowed=config.layoffs and not gin and not big_gin,
    )
    score = score_hand(
        config,
        arrangement.deadwood,
        defense.deadwood,
        big_gin=big_gin,
        upcard=upcard,
        declared=declared,
    )
    return Showdown(0, None, arrangement, defense, score)


def _melds(chosen: Sequence[Sequence[Card]], config: EngineConfig) -> list[Meld]:
    melds = []
    for cards in chosen:
        try:
            melds.append(make_meld(cards, config.ace))
        except MeldError as error:
            raise SettleError(Unsettled.NOT_A_MELD, error=error) from None
    return melds


def settlement_json(showdown: Showdown) -> dict[str, Any]:
    """The ``ginrules score --jsonl`` answer for a settled hand (the caller adds the words)."""
    score = showdown.score
    knocker_melds = showdown.knocker_arrangement.melds
    return {
        "outcome": score.end.value,
        "winner": "knocker" if score.knocker_wins else "defender",
        "points": score.points,
        "knocker_deadwood": showdown.knocker_arrangement.deadwood,
        "defender_deadwood": showdown.defense.deadwood,
        "layoffs": [
            {"card": str(lay.card), "meld": [str(c) for c in knocker_melds[lay.meld_index].cards]}
            for lay in showdown.defense.layoffs
        ],
        "defender_melds": [[str(c) for c in m.cards] for m in showdown.defense.arrangement.melds],
        "defender_unmatched": [str(c) for c in showdown.defense.arrangement.unmatched],
        "knocker_melds": [[str(c) for c in m.cards] for m in knocker_melds],
        "knocker_unmatched": [str(c) for c in showdown.knocker_arrangement.unmatched],
        "bonus": score.bonus,
        "multiplier": score.multiplier,
    }
