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
from ginrules.words.i18n import _, ngettext, pgettext
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

# Each table below is a function that words its entries when called, so the words
# follow the current language and ``pybabel extract`` finds every ``_()`` in it.


def _labels() -> dict[str, str]:
    """Each knob's plain name, by dotted name."""
    return {
        "cards.ace": _("Ace in a run"),
        "cards.ace_value": _("Points of an ace"),
        "cards.hand_size": _("Cards dealt to each player"),
        "deal.first_dealer": _("First dealer"),
        "deal.next_dealer": _("Who deals next"),
        "deal.after_dead_hand": _("Dealer after a dead hand"),
        "deal.first_turn": _("First turn"),
        "play.discard_taken_card": _("Discard the card just taken"),
        "play.knock_limit": _("Knock limit"),
        "play.knock_on_first_turn": _("Knock on the first turn"),
        "play.gin_must_be_declared": _("Gin must be said aloud"),
        "oklahoma.enabled": _("Oklahoma"),
        "oklahoma.ace_upcard": _("An ace as first upcard"),
        "oklahoma.spades_double": _("A spade upcard doubles the hand"),
        "oklahoma.spades_double_scope": _("What a spade upcard doubles"),
        "big_gin.enabled": _("Big gin allowed"),
        "big_gin.bonus": _("Big gin bonus"),
        "big_gin.bonus_adds_to_gin": _("Big gin bonus added to the gin bonus"),
        "stock_end.cards_left": _("Cards left when the hand is dead"),
        "stock_end.last_discard_playable": _("Last discard may still be taken"),
        "showdown.layoffs": _("Laying off allowed"),
        "hand_scoring.gin_bonus": _("Gin bonus"),
        "hand_scoring.undercut_bonus": _("Undercut bonus"),
        "hand_scoring.undercut_on_tie": _("Undercut on tie"),
        "game_scoring.target": _("Points to win a game"),
        "game_scoring.game_bonus": _("Game bonus"),
        "game_scoring.box_bonus": _("Boxes: points for each hand won"),
        "game_scoring.box_timing": _("When boxes count"),
        "game_scoring.shutout": _("Shutout"),
        "game_scoring.shutout_game_bonus": _("Game bonus after a shutout"),
        "game_scoring.stake_per_point": _("Stake per point"),
        "format.type": pgettext("game format", "Format"),
        "format.players": _("Players"),
        "format.games": _("Games scored at once"),
        "format.team_target": _("Team target"),
        "format.partnership_deck": _("Partnership deck"),
    }


def _help() -> dict[str, str]:
    """What each common choice is about, in one short sentence."""
    return {
        "hand_scoring.gin_bonus": _(
            "Scored on top of the other player's deadwood when you go gin."
        ),
        "hand_scoring.undercut_bonus": _("Scored by a defender who catches the knocker with less."),
        "game_scoring.target": _("The first to reach it wins the game."),
        "play.knock_limit": _("Most deadwood you may hold when you knock (0: gin only)."),
        "oklahoma.enabled": _("The first upcard sets the hand's knock limit."),
        "big_gin.enabled": _("Eleven cards all melded after drawing, without a discard."),
        "game_scoring.box_bonus": _("Added for every hand a player won, at the end of the game."),
        "game_scoring.shutout": _("When the loser scored nothing at all."),
    }


def _on_off() -> dict[str, tuple[str, str]]:
    """Yes and no, for the knobs that read better otherwise."""
    return {
        # Translators: Oklahoma (a variant of the game) is played: "Oklahoma: on".
        "oklahoma.enabled": (pgettext("variant played", "on"), pgettext("variant played", "off")),
    }


def _choices() -> dict[str, dict[str, str]]:
    """Values in words for one knob, where the general words read badly beside its label."""
    return {
        "cards.ace": {
            "low": _("low only (A-2-3)"),
            "high_or_low": _("high or low (A-2-3 or Q-K-A)"),
            "round_the_corner": _("round the corner (K-A-2 too)"),
        },
        "deal.next_dealer": {
            "loser": _("the loser of the hand"),
            "winner": _("the winner of the hand"),
            "alternate": _("the players in turn"),
        },
        "deal.after_dead_hand": {
            "same_dealer": _("the same dealer again"),
            "next_dealer": _("the next dealer, as after any hand"),
        },
        "deal.first_turn": {
            "upcard_offer": _("an upcard is offered"),
            "eleven_cards": _("the non-dealer gets eleven cards"),
        },
        "oklahoma.ace_upcard": {
            "gin_only": _("only gin ends the hand"),
            "knock_with_1": _("knocking with 1 point"),
        },
        "oklahoma.spades_double_scope": {
            "hand_points": _("the deadwood points only"),
            "with_bonuses": _("the points and the gin or undercut bonus"),
            "with_boxes": _("the points, the bonus and the box"),
        },
        "game_scoring.box_timing": {
            "after_game": _("at the end of the game"),
            "each_hand": _("as each hand is won"),
        },
        "format.type": {
            "two_player": _("two players"),
            "hollywood": _("Hollywood (three games at once)"),
            "partnership": _("partnership (two against two)"),
            "three_handed": _("three players"),
        },
        "format.partnership_deck": {
            "shared": _("one deck for the table"),
            "per_pairing": _("a deck per pairing"),
        },
        "game_scoring.shutout": {
            "double_margin": _("the margin is doubled"),
            "game_bonus": _("a bigger game bonus"),
            "double_score": _("the winner's score is doubled"),
            "none": _("nothing extra"),
        },
    }


def _sentences() -> dict[str, str]:
    """``ginrules diff``'s sentences, by knob: {after} instead of {before}."""
    return {
        "hand_scoring.gin_bonus": _("gin scores a {after} bonus instead of {before}"),
        "hand_scoring.undercut_bonus": _("an undercut scores a {after} bonus instead of {before}"),
        "game_scoring.target": _("a game is played to {after} points instead of {before}"),
        "play.knock_limit": _("a player may knock with up to {after} deadwood instead of {before}"),
        "game_scoring.box_bonus": _("each hand won is worth a {after} box instead of {before}"),
        "game_scoring.game_bonus": _("winning a game scores a {after} bonus instead of {before}"),
        "big_gin.bonus": _("big gin scores a {after} bonus instead of {before}"),
    }


def _switches() -> dict[str, tuple[str, str]]:
    """Yes-or-no knobs told as what now happens (true, false)."""
    return {
        "oklahoma.enabled": (
            _("Oklahoma is played: the first upcard sets the knock limit"),
            _("Oklahoma is not played"),
        ),
        "big_gin.enabled": (_("big gin is allowed"), _("big gin is not allowed")),
        "showdown.layoffs": (_("the defender may lay off"), _("the defender may not lay off")),
        "oklahoma.spades_double": (
            _("a spade upcard doubles the hand"),
            _("a spade upcard doubles nothing"),
        ),
        "hand_scoring.undercut_on_tie": (_("a tie is an undercut"), _("a tie is not an undercut")),
    }


def _shutout(value: str, after: bool, bonus: object) -> str:
    """The shutout's value as what it does (``after``) or as what it did instead."""
    if value == "double_margin":
        return _("doubles the margin") if after else _("doubling the margin")
    if value == "game_bonus":
        text = _("gives a {bonus} game bonus") if after else _("giving a {bonus} game bonus")
        return text.format(bonus=bonus)
    if value == "double_score":
        return _("doubles the winner's score") if after else _("doubling the winner's score")
    return _("gives nothing extra") if after else _("giving nothing extra")


#: The shutout's values :func:`_shutout` words.
_SHUTOUT: Final = frozenset({"double_margin", "game_bonus", "double_score", "none"})

_DOTTED: Final = re.compile(r"\b([a-z_]+)\.([a-z_]+)\b")


def label(dotted: str) -> str:
    """A knob's plain name: ``Gin bonus``, ``Oklahoma``."""
    known = _labels().get(dotted)
    if known is not None:
        return known
    return dotted.rsplit(".", 1)[-1].replace("_", " ").capitalize()


def help_text(dotted: str) -> str:
    """A common choice in one sentence ("" for the others)."""
    return _help().get(dotted, "")


def value(dotted: str, raw: object) -> str:
    """A knob's value as its control and its differences show it: ``on``, ``yes``, ``25``."""
    on_off = _on_off().get(dotted)
    if isinstance(raw, bool) and on_off is not None:
        return on_off[0 if raw else 1]
    choices = _choices().get(dotted, {})
    if isinstance(raw, str) and raw in choices:
        return choices[raw]
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
        does = _shutout(str(after), True, after_of("game_scoring.shutout_game_bonus"))
        did = _shutout(str(before), False, before_of("game_scoring.shutout_game_bonus"))
        return _("the shutout {does} instead of {did}").format(does=does, did=did)
    switch = _switches().get(dotted)
    if isinstance(after, bool) and switch is not None:
        return switch[0 if after else 1]
    shown = {"after": value(dotted, after), "before": value(dotted, before)}
    sentence = _sentences().get(dotted)
    if sentence is not None:
        return sentence.format(**shown)
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


def form_problem(key: str) -> str:
    """A save option's problem in words (``visibility``)."""
    return {"visibility": _("choose listed or unlisted")}[key]


# -- why a field of the builder's form is refused ------------------------------------


def unknown_base(base: str) -> str:
    return _("unknown base ruleset {base!r}").format(base=base)


def name_needed() -> str:
    return _("give your house rules a name")


def choose_one_of(choices: str) -> str:
    """A choice the form does not offer; ``choices`` are the values a file would hold."""
    return _("choose one of {choices}").format(choices=choices)


def choose_yes_or_no() -> str:
    return _("choose yes or no")


def give_a_number() -> str:
    return _("give a number")


def not_whole_number(raw: str) -> str:
    return _("{typed!r} is not a whole number").format(typed=raw)


def not_a_number(raw: str) -> str:
    return _("{typed!r} is not a number").format(typed=raw)


def expected(message: str, wanted: str) -> str:
    """A field's error with what the rules expect: ``... (expected an integer)``."""
    return _("{message} (expected {expected})").format(message=message, expected=wanted)
