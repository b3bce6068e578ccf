"""Knob values, knob names and outcome names as a player reads them."""

from __future__ import annotations

from typing import Final

from babel.numbers import format_decimal

from ginrules import schema as ruleset_schema
from ginrules.engine.scoring import HandEnd
from ginrules.words.i18n import N_, _, babel_locale

#: Knob values in words (any other string value is read with spaces for underscores).
_VALUES: Final[dict[object, str]] = {
    True: N_("yes"),
    False: N_("no"),
    None: N_("none"),
    "low": N_("low only"),
    "high_or_low": N_("high or low"),
    "round_the_corner": N_("round the corner"),
    "low_card_deals": N_("low card deals"),
    "high_card_deals": N_("high card deals"),
    "same_dealer": N_("same dealer"),
    "next_dealer": N_("next dealer"),
    "upcard_offer": N_("upcard offer"),
    "eleven_cards": N_("eleven cards"),
    "gin_only": N_("gin only"),
    "knock_with_1": N_("knock with 1"),
    "hand_points": N_("hand points"),
    "with_bonuses": N_("with the bonuses"),
    "with_boxes": N_("with boxes"),
    "after_game": N_("after the game"),
    "each_hand": N_("each hand"),
    "double_margin": N_("margin doubled"),
    "game_bonus": N_("bigger game bonus"),
    "double_score": N_("score doubled"),
    "two_player": N_("two players"),
    "three_handed": N_("three handed"),
    "per_pairing": N_("a deck per pairing"),
    "loser": N_("loser"),
    "winner": N_("winner"),
    "alternate": N_("alternate"),
    "hollywood": N_("hollywood"),
    "partnership": N_("partnership"),
    "shared": N_("shared"),
    "none": N_("none"),
}

#: Each knob's name on a rule sheet (its notes and its list of origins): the knob's
#: own name, with its section where the name alone says too little.
_SHEET_LABELS: Final[dict[str, str]] = {
    "cards.ace": N_("Ace"),
    "cards.ace_value": N_("Ace value"),
    "cards.hand_size": N_("Hand size"),
    "deal.first_dealer": N_("First dealer"),
    "deal.next_dealer": N_("Next dealer"),
    "deal.after_dead_hand": N_("After dead hand"),
    "deal.first_turn": N_("First turn"),
    "play.discard_taken_card": N_("Discard taken card"),
    "play.knock_limit": N_("Knock limit"),
    "play.knock_on_first_turn": N_("Knock on first turn"),
    "play.gin_must_be_declared": N_("Gin must be declared"),
    "oklahoma.enabled": N_("Oklahoma enabled"),
    "oklahoma.ace_upcard": N_("Ace upcard"),
    "oklahoma.spades_double": N_("Spades double"),
    "oklahoma.spades_double_scope": N_("Spades double scope"),
    "big_gin.enabled": N_("Big gin enabled"),
    "big_gin.bonus": N_("Big gin bonus"),
    "big_gin.bonus_adds_to_gin": N_("Bonus adds to gin"),
    "stock_end.cards_left": N_("Stock end cards left"),
    "stock_end.last_discard_playable": N_("Last discard playable"),
    "showdown.layoffs": N_("Layoffs"),
    "hand_scoring.gin_bonus": N_("Gin bonus"),
    "hand_scoring.undercut_bonus": N_("Undercut bonus"),
    "hand_scoring.undercut_on_tie": N_("Undercut on tie"),
    "game_scoring.target": N_("Target"),
    "game_scoring.game_bonus": N_("Game bonus"),
    "game_scoring.box_bonus": N_("Box bonus"),
    "game_scoring.box_timing": N_("Box timing"),
    "game_scoring.shutout": N_("Shutout"),
    "game_scoring.shutout_game_bonus": N_("Shutout game bonus"),
    "game_scoring.stake_per_point": N_("Stake per point"),
    "format.type": N_("Format type"),
    "format.players": N_("Format players"),
    "format.games": N_("Format games"),
    "format.team_target": N_("Team target"),
    "format.partnership_deck": N_("Partnership deck"),
}

#: The name of a house rule that gives none (the schema's default name).
UNTITLED: Final = N_("Untitled house rules")

#: How a hand ended, as a name.
_OUTCOMES: Final[dict[HandEnd, str]] = {
    HandEnd.KNOCK: N_("knock"),
    HandEnd.GIN: N_("gin"),
    HandEnd.BIG_GIN: N_("big gin"),
    HandEnd.UNDERCUT: N_("undercut"),
    HandEnd.DEAD: N_("dead"),
}


def value_words(value: object) -> str:
    """A knob value as a player reads it: ``yes``, ``low only``, ``25``, ``0.5`` (a
    number as the language writes it: ``0,5`` in German)."""
    if isinstance(value, bool) or value is None or isinstance(value, str):
        if value in _VALUES:
            return _(_VALUES[value])
        return str(value)
    if isinstance(value, int | float):
        return number_words(value)
    return ruleset_schema.show_value(value)


def number_words(value: float) -> str:
    """A number as the language writes it, every decimal kept: ``0.25``, ``0,25``, ``2``."""
    return format_decimal(value, format="0.##########", locale=babel_locale())


def sheet_label(dotted: str) -> str:
    """A knob's name on a rule sheet: ``Gin bonus``, ``Big gin bonus``."""
    if dotted in _SHEET_LABELS:
        return _(_SHEET_LABELS[dotted])
    return ruleset_schema.knob(dotted).label


def has_sheet_label(dotted: str) -> bool:
    """Whether the sheet has its own (translated) name for the knob."""
    return dotted in _SHEET_LABELS


def outcome_name(end: HandEnd) -> str:
    """``knock``, ``gin``, ``big gin``, ``undercut``, ``dead``."""
    return _(_OUTCOMES[end])
