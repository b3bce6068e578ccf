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


@dataclass(frozen=True)
class Finding:
    severity: Severity
    message: str
    #: The knobs involved, ``section.name``; the first is where the message points.
    knobs: tuple[str, ...]
    expected: str | None = None


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


def _error(message: str, *knobs: str, expected: str | None = None) -> Finding:
    return Finding("error", message, knobs, expected)


def _unused(rules: RuleView, knob: str, needs: str) -> Iterator[Finding]:
    if rules.is_set(knob):
        yield Finding("warning", f"{knob} has no effect unless {needs}", (knob,))


# --- errors ----------------------------------------------------------------


def spades_double_needs_oklahoma(rules: RuleView) -> Iterator[Finding]:
    if rules["oklahoma.spades_double"] and not rules["oklahoma.enabled"]:
        yield _error(
            "spades double needs Oklahoma: the first upcard's suit only matters there",
            "oklahoma.spades_double",
            "oklahoma.enabled",
            expected="oklahoma.enabled: true, or spades_double: false",
        )


def oklahoma_needs_an_upcard(rules: RuleView) -> Iterator[Finding]:
    if rules["oklahoma.enabled"] and rules["deal.first_turn"] == "eleven_cards":
        yield _error(
            "Oklahoma sets the knock limit from the first upcard, but an eleven-card deal"
            " turns no upcard",
            "deal.first_turn",
            "oklahoma.enabled",
            expected="deal.first_turn: upcard_offer",
        )


def partnership_needs_four_players(rules: RuleView) -> Iterator[Finding]:
    if rules["format.type"] == "partnership" and rules["format.players"] != 4:
        yield _error(
            f"a partnership game is two teams of two, not {rules['format.players']} players",
            "format.players",
            "format.type",
            expected="format.players: 4",
        )


def partnership_needs_a_team_target(rules: RuleView) -> Iterator[Finding]:
    if rules["format.type"] == "partnership" and rules["format.team_target"] is None:
        yield _error(
            "a partnership game needs a team target (usually 125 or 150)",
            "format.team_target",
            "format.type",
            expected="format.team_target: 125",
        )


def team_target_only_for_partnership(rules: RuleView) -> Iterator[Finding]:
    if rules["format.type"] != "partnership" and rules["format.team_target"] is not None:
        yield _error(
            "format.team_target is only for a partnership game; set game_scoring.target instead",
            "format.team_target",
            "format.type",
            expected="no team_target, or format.type: partnership",
        )


def hollywood_needs_three_games(rules: RuleView) -> Iterator[Finding]:
    games = rules["format.games"]
    if rules["format.type"] == "hollywood" and games != 3:
        yield _error(
            f"Hollywood scores three games at once, not {games}",
            "format.games",
            "format.type",
            expected="format.games: 3",
        )
    if rules["format.type"] != "hollywood" and games != 1:
        yield _error(
            f"only Hollywood scores several games at once; this is a {rules['format.type']} game",
            "format.games",
            "format.type",
            expected="format.games: 1, or format.type: hollywood",
        )


def players_fit_the_format(rules: RuleView) -> Iterator[Finding]:
    wanted = {"two_player": 2, "hollywood": 2, "three_handed": 3}.get(rules["format.type"])
    if wanted is not None and rules["format.players"] != wanted:
        yield _error(
            f"a {rules['format.type'].replace('_', '-')} game has {wanted} players,"
            f" not {rules['format.players']}",
            "format.players",
            "format.type",
            expected=f"format.players: {wanted}",
        )


def bonuses_stay_below_the_target(rules: RuleView) -> Iterator[Finding]:
    target = rules.target()
    target_knob = rules.target_knob()
    for knob in ("hand_scoring.gin_bonus", "hand_scoring.undercut_bonus", "game_scoring.box_bonus"):
        if rules[knob] >= target:
            yield _error(
                f"{knob} ({rules[knob]}) is not below the game target ({target}):"
                " one hand would decide the game",
                knob,
                target_knob,
                expected=f"less than {target}",
            )
    if rules["big_gin.enabled"]:
        bonus = rules["big_gin.bonus"]
        if rules["big_gin.bonus_adds_to_gin"]:
            bonus += rules["hand_scoring.gin_bonus"]
        if bonus >= target:
            yield _error(
                f"the big-gin bonus ({bonus}) is not below the game target ({target})",
                "big_gin.bonus",
                target_knob,
                expected=f"less than {target}",
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
        yield _error(
            f"{sharing} hands of {hand} cards leave a stock of {stock}, and the hand is dead"
            f" at {left} left: nobody could ever draw",
            "cards.hand_size",
            "stock_end.cards_left",
            expected=f"cards.hand_size of at most {(DECK_SIZE - upcards - 1 - left) // sharing}",
        )


def knock_limit_in_range(rules: RuleView) -> Iterator[Finding]:
    limit = rules["play.knock_limit"]
    if rules["oklahoma.enabled"] and limit == 0:
        yield _error(
            "Oklahoma takes each hand's knock limit from the upcard, but play.knock_limit 0"
            " caps it at gin only",
            "play.knock_limit",
            "oklahoma.enabled",
            expected="play.knock_limit from 1 to 10 (10 lets every upcard count)",
        )


def shutout_bonus_not_below_game_bonus(rules: RuleView) -> Iterator[Finding]:
    if (
        rules["game_scoring.shutout"] == "game_bonus"
        and rules["game_scoring.shutout_game_bonus"] < rules["game_scoring.game_bonus"]
    ):
        yield _error(
            "a shutout would pay less than a plain win: shutout_game_bonus"
            f" ({rules['game_scoring.shutout_game_bonus']}) is below game_bonus"
            f" ({rules['game_scoring.game_bonus']})",
            "game_scoring.shutout_game_bonus",
            "game_scoring.game_bonus",
            expected=f"at least {rules['game_scoring.game_bonus']}",
        )


# --- warnings: knobs set where they do nothing -------------------------------


def inert_knobs(rules: RuleView) -> Iterator[tuple[str, str]]:
    """Each knob that changes nothing under these settings, with what it needs to
    matter: the one list ``validate``'s warnings, departures and the sheets use."""
    if not rules["oklahoma.enabled"]:
        yield "oklahoma.ace_upcard", "oklahoma.enabled is true"
    if not rules["oklahoma.spades_double"]:
        yield "oklahoma.spades_double_scope", "oklahoma.spades_double is true"
    if not rules["big_gin.enabled"]:
        yield "big_gin.bonus", "big_gin.enabled is true"
        yield "big_gin.bonus_adds_to_gin", "big_gin.enabled is true"
    if rules["game_scoring.shutout"] != "game_bonus":
        yield "game_scoring.shutout_game_bonus", "shutout is game_bonus"
    if rules["format.type"] != "partnership":
        yield "format.partnership_deck", "format.type is partnership"
    if rules["play.knock_limit"] == 0 and not rules["oklahoma.enabled"]:
        needs = "knocking is allowed (knock_limit above 0)"
        yield "showdown.layoffs", needs
        yield "hand_scoring.undercut_bonus", needs
        yield "hand_scoring.undercut_on_tie", needs
        yield "play.gin_must_be_declared", needs


def settings_without_effect(rules: RuleView) -> Iterator[Finding]:
    for knob, needs in inert_knobs(rules):
        yield from _unused(rules, knob, needs)


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
