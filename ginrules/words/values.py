"""Knob values and outcome names as a player reads them."""

from __future__ import annotations

from typing import Final

from ginrules import schema as ruleset_schema
from ginrules.engine.scoring import HandEnd
from ginrules.words.i18n import _

#: Knob values in words (any other string value is read with spaces for underscores).
_VALUES: Final[dict[object, str]] = {
    True: "yes",
    False: "no",
    None: "none",
    "low": "low only",
    "high_or_low": "high or low",
    "round_the_corner": "round the corner",
    "low_card_deals": "low card deals",
    "high_card_deals": "high card deals",
    "same_dealer": "same dealer",
    "next_dealer": "next dealer",
    "upcard_offer": "upcard offer",
    "eleven_cards": "eleven cards",
    "gin_only": "gin only",
    "knock_with_1": "knock with 1",
    "hand_points": "hand points",
    "with_bonuses": "with the bonuses",
    "with_boxes": "with boxes",
    "after_game": "after the game",
    "each_hand": "each hand",
    "double_margin": "margin doubled",
    "game_bonus": "bigger game bonus",
    "double_score": "score doubled",
    "two_player": "two players",
    "three_handed": "three handed",
    "per_pairing": "a deck per pairing",
    "loser": "loser",
    "winner": "winner",
    "alternate": "alternate",
    "hollywood": "hollywood",
    "partnership": "partnership",
    "shared": "shared",
    "none": "none",
}

#: How a hand ended, as a name.
_OUTCOMES: Final[dict[HandEnd, str]] = {
    HandEnd.KNOCK: "knock",
    HandEnd.GIN: "gin",
    HandEnd.BIG_GIN: "big gin",
    HandEnd.UNDERCUT: "undercut",
    HandEnd.DEAD: "dead",
}


def value_words(value: object) -> str:
    """A knob value as a player reads it: ``yes``, ``low only``, ``25``."""
    if isinstance(value, bool) or value is None or isinstance(value, str):
        if value in _VALUES:
            return _(_VALUES[value])
        return str(value)
    return ruleset_schema.show_value(value)


def outcome_name(end: HandEnd) -> str:
    """``knock``, ``gin``, ``big gin``, ``undercut``, ``dead``."""
    return _(_OUTCOMES[end])
