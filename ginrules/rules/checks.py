"""Cross-field checks: rules that hold between knobs, one small function each.

Each check reads the merged ruleset (every knob resolved, defaults included)
and yields :class:`Finding` objects; the function's name says what it checks,
like jsonschema's keyword functions. An error makes the ruleset unusable; a
warning points at a knob that is set but does nothing with the rest of the
rules (a likely mistake, never silently ignored).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from ginrules.cards import DECK_SIZE
from ginrules.rules.diagnostics import Severity
from ginrules.rules.phrases import Code, Phrase, Problem, phrase, said, say


@dataclass(frozen=True)
class Finding:
    severity: Severity
    #: What it says, as data.
    problem: Problem
    #: The knobs involved, ``section.name``; the first is where the message points.
    knobs: tuple[str, ...]

    @property
    def message(self) -> str:
        """What it says, in English."""
        return say(self.problem.message)


class RuleView:
    """Read access to a merged ruleset by dotted knob name."""

    def __init__(self, document: Mapping[str, Any], explicit: frozenset[str]) -> None:
        self._document = document
        self._explicit = explicit

    def __getitem__(self, dotted: str) -> Any:
        section, name = dotted.split(".")
        return self._document[section][name]

    def is_set(self, dotted: str) -> bool:
        """Did some file set this knob (rather than leaving the default)?"""
        return dotted in self._explicit

    def target_knob(self) -> str:
        """The knob that holds the points that win: the team target in a partnership game."""
        if self["format.type"] == "partnership" and self["format.team_target"] is not None:
            return "format.team_target"
        return "game_scoring.target"

    def target(self) -> int:
        return int(self[self.target_knob()])


Check = Callable[[RuleView], Iterator[Finding]]


def _error(message: Phrase, *knobs: str, expected: Phrase) -> Finding:
    """An error: what it says and what was expected."""
    return Finding("error", Problem(message, expected), knobs)


def _setting(setting: str) -> Phrase:
    """Expected: a setting, as YAML writes it (``format.players: 4``)."""
    return phrase(Code.SETTING, setting=setting)


def _either(one: str, other: str) -> Phrase:
    return phrase(Code.EITHER_SETTING, one=one, other=other)


def _less_than(target: int) -> Phrase:
    return phrase(Code.LESS_THAN, value=target)


# --- errors ----------------------------------------------------------------


def spades_double_needs_oklahoma(rules: RuleView) -> Iterator[Finding]:
    if rules["oklahoma.spades_double"] and not rules["oklahoma.enabled"]:
        yield _error(
            phrase(Code.SPADES_DOUBLE_NEEDS_OKLAHOMA),
            "oklahoma.spades_double",
            "oklahoma.enabled",
            expected=_either("oklahoma.enabled: true", "spades_double: false"),
        )


def oklahoma_needs_an_upcard(rules: RuleView) -> Iterator[Finding]:
    if rules["oklahoma.enabled"] and rules["deal.first_turn"] == "eleven_cards":
        yield _error(
            phrase(Code.OKLAHOMA_NEEDS_AN_UPCARD),
            "deal.first_turn",
            "oklahoma.enabled",
            expected=_setting("deal.first_turn: upcard_offer"),
        )


def partnership_needs_four_players(rules: RuleView) -> Iterator[Finding]:
    players = rules["format.players"]
    if rules["format.type"] == "partnership" and players != 4:
        yield _error(
            phrase(Code.PARTNERSHIP_NEEDS_FOUR_PLAYERS, players=players),
            "format.players",
            "format.type",
            expected=_setting("format.players: 4"),
        )


def partnership_needs_a_team_target(rules: RuleView) -> Iterator[Finding]:
    if rules["format.type"] == "partnership" and rules["format.team_target"] is None:
        yield _error(
            phrase(Code.PARTNERSHIP_NEEDS_A_TEAM_TARGET),
            "format.team_target",
            "format.type",
            expected=_setting("format.team_target: 125"),
        )


def team_target_only_for_partnership(rules: RuleView) -> Iterator[Finding]:
    if rules["format.type"] != "partnership" and rules["format.team_target"] is not None:
        yield _error(
            phrase(Code.TEAM_TARGET_ONLY_FOR_PARTNERSHIP),
            "format.team_target",
            "format.type",
            expected=phrase(
                Code.NO_KEY_OR_SETTING, key="team_target", setting="format.type: partnership"
            ),
        )


def hollywood_needs_three_games(rules: RuleView) -> Iterator[Finding]:
    games, kind = rules["format.games"], rules["format.type"]
    if kind == "hollywood" and games != 3:
        yield _error(
            phrase(Code.HOLLYWOOD_NEEDS_THREE_GAMES, games=games),
            "format.games",
            "format.type",
            expected=_setting("format.games: 3"),
        )
    if kind != "hollywood" and games != 1:
        yield _error(
            phrase(Code.ONLY_HOLLYWOOD_PLAYS_GAMES, format=kind),
            "format.games",
            "format.type",
            expected=_either("format.games: 1", "format.type: hollywood"),
        )


def players_fit_the_format(rules: RuleView) -> Iterator[Finding]:
    kind, players = rules["format.type"], rules["format.players"]
    wanted = {"two_player": 2, "hollywood": 2, "three_handed": 3}.get(kind)
    if wanted is not None and players != wanted:
        yield _error(
            phrase(Code.PLAYERS_FIT_THE_FORMAT, format=kind, wanted=wanted, players=players),
            "format.players",
            "format.type",
            expected=_setting(f"format.players: {wanted}"),
        )


def bonuses_stay_below_the_target(rules: RuleView) -> Iterator[Finding]:
    target = rules.target()
    target_knob = rules.target_knob()
    for knob in ("hand_scoring.gin_bonus", "hand_scoring.undercut_bonus", "game_scoring.box_bonus"):
        if rules[knob] >= target:
            yield _error(
                phrase(Code.BONUS_REACHES_TARGET, knob=knob, bonus=rules[knob], target=target),
                knob,
                target_knob,
                expected=_less_than(target),
            )
    if rules["big_gin.enabled"]:
        bonus = rules["big_gin.bonus"]
        if rules["big_gin.bonus_adds_to_gin"]:
            bonus += rules["hand_scoring.gin_bonus"]
        if bonus >= target:
            yield _error(
                phrase(Code.BIG_GIN_BONUS_REACHES_TARGET, bonus=bonus, target=target),
                "big_gin.bonus",
                target_knob,
                expected=_less_than(target),
            )


def hand_size_fits_the_deck(rules: RuleView) -> Iterator[Finding]:
    hand = rules["cards.hand_size"]
    sharing, upcards = 2, 1  # two hands from each deck: heads-up, or one pairing
    if rules["format.type"] == "partnership" and rules["format.partnership_deck"] == "shared":
        sharing, upcards = 4, 2  # four hands, and an upcard (or eleventh card) per pairing
    dealt = sharing * hand + upcards
    left = rules["stock_end.cards_left"]
    stock = DECK_SIZE - dealt
    if stock <= left:
        most = (DECK_SIZE - upcards - 1 - left) // sharing
        yield _error(
            phrase(
                Code.HAND_SIZE_EMPTIES_THE_STOCK, hands=sharing, cards=hand, stock=stock, left=left
            ),
            "cards.hand_size",
            "stock_end.cards_left",
            expected=phrase(Code.HAND_SIZE_AT_MOST, knob="cards.hand_size", most=most),
        )


def knock_limit_in_range(rules: RuleView) -> Iterator[Finding]:
    limit = rules["play.knock_limit"]
    if rules["oklahoma.enabled"] and limit == 0:
        yield _error(
            phrase(Code.KNOCK_LIMIT_ZERO_UNDER_OKLAHOMA),
            "play.knock_limit",
            "oklahoma.enabled",
            expected=phrase(Code.KNOCK_LIMIT_FOR_OKLAHOMA, knob="play.knock_limit"),
        )


def shutout_bonus_not_below_game_bonus(rules: RuleView) -> Iterator[Finding]:
    shutout, plain = rules["game_scoring.shutout_game_bonus"], rules["game_scoring.game_bonus"]
    if rules["game_scoring.shutout"] == "game_bonus" and shutout < plain:
        yield _error(
            phrase(Code.SHUTOUT_PAYS_LESS, shutout=shutout, plain=plain),
            "game_scoring.shutout_game_bonus",
            "game_scoring.game_bonus",
            expected=phrase(Code.AT_LEAST, value=plain),
        )


# --- warnings: knobs set where they do nothing -------------------------------


def inert_knobs(rules: RuleView) -> Iterator[tuple[str, Code]]:
    """Each knob that changes nothing under these settings, with what it needs to
    matter (the code of its warning): the one list ``validate``'s warnings,
    departures and the sheets use."""
    if not rules["oklahoma.enabled"]:
        yield "oklahoma.ace_upcard", Code.INERT_WITHOUT_OKLAHOMA
    if not rules["oklahoma.spades_double"]:
        yield "oklahoma.spades_double_scope", Code.INERT_WITHOUT_SPADES_DOUBLE
    if not rules["big_gin.enabled"]:
        yield "big_gin.bonus", Code.INERT_WITHOUT_BIG_GIN
        yield "big_gin.bonus_adds_to_gin", Code.INERT_WITHOUT_BIG_GIN
    if rules["game_scoring.shutout"] != "game_bonus":
        yield "game_scoring.shutout_game_bonus", Code.INERT_WITHOUT_SHUTOUT_BONUS
    if rules["format.type"] != "partnership":
        yield "format.partnership_deck", Code.INERT_WITHOUT_PARTNERSHIP
    if rules["play.knock_limit"] == 0 and not rules["oklahoma.enabled"]:
        yield "showdown.layoffs", Code.INERT_WITHOUT_KNOCKING
        yield "hand_scoring.undercut_bonus", Code.INERT_WITHOUT_KNOCKING
        yield "hand_scoring.undercut_on_tie", Code.INERT_WITHOUT_KNOCKING
        yield "play.gin_must_be_declared", Code.INERT_WITHOUT_KNOCKING


def settings_without_effect(rules: RuleView) -> Iterator[Finding]:
    for knob, needs in inert_knobs(rules):
        if rules.is_set(knob):
            yield Finding("warning", said(needs, knob=knob), (knob,))


#: Every check, run in this order.
CHECKS: tuple[Check, ...] = (
    spades_double_needs_oklahoma,
    oklahoma_needs_an_upcard,
    partnership_needs_four_players,
    partnership_needs_a_team_target,
    team_target_only_for_partnership,
    hollywood_needs_three_games,
    players_fit_the_format,
    bonuses_stay_below_the_target,
    hand_size_fits_the_deck,
    knock_limit_in_range,
    shutout_bonus_not_below_game_bonus,
    settings_without_effect,
)


def run_checks(rules: RuleView) -> list[Finding]:
    return [finding for check in CHECKS for finding in check(rules)]
