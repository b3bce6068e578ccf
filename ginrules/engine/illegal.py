"""Why an action is refused: a reason code and its details, never English.

:mod:`ginrules.words.problems` words each :class:`Illegal` reason. The hand
raises :class:`IllegalAction` and is left exactly as it was.
"""

from __future__ import annotations

from enum import StrEnum

from ginrules.refusal import Refusal

__all__ = ["Illegal", "IllegalAction"]


class Illegal(StrEnum):
    """Why an action is refused; :mod:`ginrules.words.problems` words each reason."""

    #: The hand is over.
    HAND_OVER = "hand_over"
    #: Another player is to move.
    NOT_YOUR_TURN = "not_your_turn"
    #: The action does not fit the phase (``legal`` says what does).
    NOT_NOW = "not_now"
    #: Big gin is not played under the ruleset.
    BIG_GIN_NOT_PLAYED = "big_gin_not_played"
    #: No going out on the first turn under the ruleset.
    BIG_GIN_FIRST_TURN = "big_gin_first_turn"
    #: Big gin with cards unmelded.
    BIG_GIN_NOT_MELDED = "big_gin_not_melded"
    #: Declaring gin with deadwood left.
    GIN_NOT_MELDED = "gin_not_melded"
    #: Taking the last discard that cannot make a knock or gin.
    LAST_DISCARD_USELESS = "last_discard_useless"
    #: Discarding a card the player does not hold.
    NOT_HELD = "not_held"
    #: Discarding the card just taken from the pile.
    TAKEN_CARD = "taken_card"
    #: Discarding the last discard just taken.
    LAST_DISCARD_KEPT = "last_discard_kept"
    #: Discarding without knocking after taking the last discard.
    MUST_KNOCK = "must_knock"
    #: Knocking on the first turn where the ruleset forbids it.
    KNOCK_FIRST_TURN = "knock_first_turn"
    #: Knocking with more deadwood than the limit.
    KNOCK_OVER_LIMIT = "knock_over_limit"
    #: Showing melds that leave more deadwood than the limit.
    MELDS_OVER_LIMIT = "melds_over_limit"
    #: A chosen meld that is no meld (``error`` says why).
    NOT_A_MELD = "not_a_meld"
    #: A chosen meld with cards the player does not hold.
    MELD_NOT_HELD = "meld_not_held"
    #: A card in two chosen melds.
    CARD_IN_TWO_MELDS = "card_in_two_melds"
    #: Laying off under a ruleset without lay-offs.
    NO_LAYOFFS = "no_layoffs"
    #: Laying off cards not held, or one twice.
    LAYOFF_NOT_HELD = "layoff_not_held"
    #: A lay-off that does not fit (``error`` says why).
    LAYOFF_DOES_NOT_FIT = "layoff_does_not_fit"


class IllegalAction(Refusal):
    """An action the rules do not allow now; the hand is unchanged.

    ``reason`` (an :class:`Illegal`) and ``params`` say why, as data; the sentence for
    a person is made by :func:`ginrules.words.problems.illegal_message`.
    """

    reason: Illegal

    def __init__(self, reason: Illegal, **params: object) -> None:
        super().__init__(reason, **params)
