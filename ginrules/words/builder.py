"""The builder's and ``ginrules diff``'s words: every knob by a plain name, never dotted.

Each knob has a short plain label (``Gin bonus``, ``Big gin allowed``), the
words of its values where the general ones read badly (``Oklahoma: on``), and
for ``ginrules diff`` a sentence saying what changes at the table ("the
shutout gives a 200 game bonus instead of doubling the margin"). A knob this
module does not know yet falls back to its schema name with spaces.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Final

from ginrules import schema as ruleset_schema
from ginrules.words.i18n import _, ngettext
from ginrules.words.values import value_words

#: The choices most tables make, first in the builder, in this order.
COMMON: Final = (
    "hand_scoring.gin_bonus",
    "hand_scoring.undercut_bonus",
    "game_scoring.target",
    "play.knock_limit",
    "oklahoma.enabled",
    "big_gin.enabled",
    "game_scoring.box_bonus",
    "game_scoring.shutout",
)

_LABELS: Final[dict[str, str]] = {
    "cards.ace": "Ace in a run",
    "cards.ace_value": "Points of an ace",
    "cards.hand_size": "Cards dealt to each player",
    "deal.first_dealer": "First dealer",
    "deal.next_dealer": "Who deals next",
    "deal.after_dead_hand": "Dealer after a dead hand",
    "deal.first_turn": "First turn",
    "play.discard_taken_card": "Discard the card just taken",
    "play.knock_limit": "Knock limit",
    "play.knock_on_first_turn": "Knock on the first turn",
    "play.gin_must_be_declared": "Gin must be said aloud",
    "oklahoma.enabled": "Oklahoma",
    "oklahoma.ace_upcard": "An ace as first upcard",
    "oklahoma.spades_double": "A spade upcard doubles the hand",
    "oklahoma.spades_double_scope": "What a spade upcard doubles",
    "big_gin.enabled": "Big gin allowed",
    "big_gin.bonus": "Big gin bonus",
    "big_gin.bonus_adds_to_gin": "Big gin bonus added to the gin bonus",
    "stock_end.cards_left": "Cards left when the hand is dead",
    "stock_end.last_discard_playable": "Last discard may still be taken",
    "showdown.layoffs": "Laying off allowed",
    "hand_scoring.gin_bonus": "Gin bonus",
    "hand_scoring.undercut_bonus": "Undercut bonus",
    "hand_scoring.undercut_on_tie": "Undercut on tie",
    "game_scoring.target": "Points to win a game",
    "game_scoring.game_bonus": "Game bonus",
    "game_scoring.box_bonus": "Boxes: points for each hand won",
    "game_scoring.box_timing": "When boxes count",
    "game_scoring.shutout": "Shutout",
    "game_scoring.shutout_game_bonus": "Game bonus after a shutout",
    "game_scoring.stake_per_point": "Stake per point",
    "format.type": "Format",
    "format.players": "Players",
    "format.games": "Games scored at once",
    "format.team_target": "Team target",
    "format.partnership_deck": "Partnership deck",
}

#: What each common choice is about, in one short sentence.
_HELP: Final[dict[str, str]] = {
    "hand_scoring.gin_bonus": "Scored on top of the other player's deadwood when you go gin.",
    "hand_scoring.undercut_bonus": "Scored by a defender who catches the knocker with less.",
    "game_scoring.target": "The first to reach it wins the game.",
    "play.knock_limit": "Most deadwood you may hold when you knock (0: gin only).",
    "oklahoma.enabled": "The first upcard sets the hand's knock limit.",
    "big_gin.enabled": "Eleven cards all melded after drawing, without a discard.",
    "game_scoring.box_bonus": "Added for every hand a player won, at the end of the game.",
    "game_scoring.shutout": "When the loser scored nothing at all.",
}

#: Yes and no, for the knobs that read better otherwise.
_ON_OFF: Final[dict[str, tuple[str, str]]] = {
    "oklahoma.enabled": ("on", "off"),
}

#: Values in words for one knob, where the general words read badly beside its label.
_CHOICES: Final[dict[str, dict[str, str]]] = {
    "cards.ace": {
        "low": "low only (A-2-3)",
        "high_or_low": "high or low (A-2-3 or Q-K-A)",
        "round_the_corner": "round the corner (K-A-2 too)",
    },
    "deal.next_dealer": {
        "loser": "the loser of the hand",
        "winner": "the winner of the hand",
        "alternate": "the players in turn",
    },
    "deal.after_dead_hand": {
        "same_dealer": "the same dealer again",
        "next_dealer": "the next dealer, as after any hand",
    },
    "deal.first_turn": {
        "upcard_offer": "an upcard is offered",
        "eleven_cards": "the non-dealer gets eleven cards",
    },
    "oklahoma.ace_upcard": {
        "gin_only": "only gin ends the hand",
        "knock_with_1": "knocking with 1 point",
    },
    "oklahoma.spades_double_scope": {
        "hand_points": "the deadwood points only",
        "with_bonuses": "the points and the gin or undercut bonus",
        "with_boxes": "the points, the bonus and the box",
    },
    "game_scoring.box_timing": {
        "after_game": "at the end of the game",
        "each_hand": "as each hand is won",
    },
    "format.type": {
        "two_player": "two players",
        "hollywood": "Hollywood (three games at once)",
        "partnership": "partnership (two against two)",
        "three_handed": "three players",
    },
    "format.partnership_deck": {
        "shared": "one deck for the table",
        "per_pairing": "a deck per pairing",
    },
    "game_scoring.shutout": {
        "double_margin": "the margin is doubled",
        "game_bonus": "a bigger game bonus",
        "double_score": "the winner's score is doubled",
        "none": "nothing extra",
    },
}

#: ``ginrules diff``'s sentences, by knob: {after} instead of {before}.
_SENTENCES: Final[dict[str, str]] = {
    "hand_scoring.gin_bonus": "gin scores a {after} bonus instead of {before}",
    "hand_scoring.undercut_bonus": "an undercut scores a {after} bonus instead of {before}",
    "game_scoring.target": "a game is played to {after} points instead of {before}",
    "play.knock_limit": "a player may knock with up to {after} deadwood instead of {before}",
    "game_scoring.box_bonus": "each hand won is worth a {after} box instead of {before}",
    "game_scoring.game_bonus": "winning a game scores a {after} bonus instead of {before}",
    "big_gin.bonus": "big gin scores a {after} bonus instead of {before}",
}

#: Yes-or-no knobs told as what now happens (true, false).
_SWITCHES: Final[dict[str, tuple[str, str]]] = {
    "oklahoma.enabled": (
        "Oklahoma is played: the first upcard sets the knock limit",
        "Oklahoma is not played",
    ),
    "big_gin.enabled": ("big gin is allowed", "big gin is not allowed"),
    "showdown.layoffs": ("the defender may lay off", "the defender may not lay off"),
    "oklahoma.spades_double": ("a spade upcard doubles the hand", "a spade upcard doubles nothing"),
    "hand_scoring.undercut_on_tie": ("a tie is an undercut", "a tie is not an undercut"),
}

#: The shutout's values as what it does and as what it did instead.
_SHUTOUT: Final[dict[str, tuple[str, str]]] = {
    "double_margin": ("doubles the margin", "doubling the margin"),
    "game_bonus": ("gives a {bonus} game bonus", "giving a {bonus} game bonus"),
    "double_score": ("doubles the winner's score", "doubling the winner's score"),
    "none": ("gives nothing extra", "giving nothing extra"),
}

_DOTTED: Final = re.compile(r"\b([a-z_]+)\.([a-z_]+)\b")


def label(dotted: str) -> str:
    """A knob's plain name: ``Gin bonus``, ``Oklahoma``."""
    if dotted in _LABELS:
        return _(_LABELS[dotted])
    return dotted.rsplit(".", 1)[-1].replace("_", " ").capitalize()


def help_text(dotted: str) -> str:
    """A common choice in one sentence ("" for the others)."""
    return _(_HELP[dotted]) if dotted in _HELP else ""


def value(dotted: str, raw: object) -> str:
    """A knob's value as its control and its differences show it: ``on``, ``yes``, ``25``."""
    if isinstance(raw, bool) and dotted in _ON_OFF:
        return _(_ON_OFF[dotted][0 if raw else 1])
    if isinstance(raw, str) and raw in _CHOICES.get(dotted, {}):
        return _(_CHOICES[dotted][raw])
    return value_words(raw)


def setting(dotted: str, raw: object) -> str:
    """``Big gin allowed: yes``, ``Oklahoma: on``, ``Gin bonus: 20``."""
    return _("{label}: {value}").format(label=label(dotted), value=value(dotted, raw))


def plain_message(text: str) -> str:
    """A message with every dotted knob name it holds replaced by the knob's plain name."""
    known = {knob.dotted for knob in ruleset_schema.knobs()}
    return _DOTTED.sub(lambda m: label(m[0]) if m[0] in known else m[0], text)


def field_error(dotted: str, message: str) -> str:
    """An error listed at the top of the form: ``Gin bonus: 'lots' is not a whole number``."""
    return _("{label}: {message}").format(label=label(dotted), message=plain_message(message))


def change_sentence(
    dotted: str,
    before: object,
    after: object,
    before_of: Callable[[str], object],
    after_of: Callable[[str], object],
) -> str:
    """What a changed knob changes at the table, as ``ginrules diff`` says it."""
    if dotted == "game_scoring.shutout" and before in _SHUTOUT and after in _SHUTOUT:
        does = _(_SHUTOUT[str(after)][0]).format(bonus=after_of("game_scoring.shutout_game_bonus"))
        did = _(_SHUTOUT[str(before)][1]).format(bonus=before_of("game_scoring.shutout_game_bonus"))
        return _("the shutout {does} instead of {did}").format(does=does, did=did)
    if isinstance(after, bool) and dotted in _SWITCHES:
        return _(_SWITCHES[dotted][0 if after else 1])
    shown = {"after": value(dotted, after), "before": value(dotted, before)}
    if dotted in _SENTENCES:
        return _(_SENTENCES[dotted]).format(**shown)
    return _("{label}: {after} instead of {before}").format(label=label(dotted), **shown)


def diff_heading(count: int, first: str, second: str, first_print: str, second_print: str) -> str:
    """``2 rules differ in traditional-20-10 (cdf35c5a8f11) from classic (89c7a615d01f):``."""
    text = ngettext(
        "{count} rule differs in {b} ({b_print}) from {a} ({a_print}):",
        "{count} rules differ in {b} ({b_print}) from {a} ({a_print}):",
        count,
    )
    return text.format(count=count, a=first, b=second, a_print=first_print, b_print=second_print)


def set_by(first: str, second: str) -> str:
    """Where each side's value was set."""
    return _("set by {a} and {b}").format(a=first, b=second)


def quoted(shown: str, line: str) -> str:
    return _("{value}: {quote}").format(value=shown, quote=line)


def forked_heading(name: str, number: int) -> str:
    """The fork's heading: ``Forked from The Thursday table (version 2)``."""
    return _("Forked from {name} (version {number})").format(name=name, number=number)


def fork_name(name: str) -> str:
    """The name a fork starts with (not its parent's)."""
    return _("{name}, our way").format(name=name)


def new_name(name: str) -> str:
    """The name new house rules start with, from a shipped ruleset's."""
    return _("{name} at our table").format(name=name)


#: Why a save form's visibility was refused.
VISIBILITY_CHOICE: Final = "choose listed or unlisted"


def form_problem(key: str) -> str:
    """A save option's problem in words (``visibility``)."""
    return _({"visibility": VISIBILITY_CHOICE}[key])
