"""Compile a validated ruleset into the engine's immutable configuration.

:class:`EngineConfig` is what the engine, the sheets and the web site read:
every knob resolved to a typed value (Oklahoma's limit as a rule of the upcard,
the big-gin bonus as a number), with a canonical JSON form and a fingerprint.
The fingerprint hashes the canonical form only, so it is the same whatever the
YAML formatting, key order, names or ``extends`` chain, and changes with any knob
that takes effect. A knob that does nothing under the rest of the rules (the
big-gin bonus when big gin is off, the shutout bonus when shutouts double the
margin) resolves to None, so it cannot make two identical games look different.
"""

from __future__ import annotations

import functools
import hashlib
import json
from dataclasses import dataclass, fields
from enum import StrEnum
from typing import Any, Final

from ginrules import schema as ruleset_schema
from ginrules.cards import RANKS, Card
from ginrules.melds import AceMode, AceRule, rank_value
from ginrules.rules.load import Ruleset

FINGERPRINT_LENGTH: Final = 12


class FirstDealer(StrEnum):
    LOW_CARD_DEALS = "low_card_deals"
    HIGH_CARD_DEALS = "high_card_deals"


class NextDealer(StrEnum):
    LOSER = "loser"
    WINNER = "winner"
    ALTERNATE = "alternate"


class DeadHandDealer(StrEnum):
    SAME_DEALER = "same_dealer"
    NEXT_DEALER = "next_dealer"


class FirstTurn(StrEnum):
    UPCARD_OFFER = "upcard_offer"
    ELEVEN_CARDS = "eleven_cards"


class DoubleScope(StrEnum):
    """What a spade upcard doubles under Oklahoma."""

    HAND_POINTS = "hand_points"
    WITH_BONUSES = "with_bonuses"
    WITH_BOXES = "with_boxes"


class BoxTiming(StrEnum):
    AFTER_GAME = "after_game"
    EACH_HAND = "each_hand"


class Shutout(StrEnum):
    DOUBLE_MARGIN = "double_margin"
    GAME_BONUS = "game_bonus"
    DOUBLE_SCORE = "double_score"
    NONE = "none"


class FormatType(StrEnum):
    TWO_PLAYER = "two_player"
    HOLLYWOOD = "hollywood"
    PARTNERSHIP = "partnership"
    THREE_HANDED = "three_handed"


class PartnershipDeck(StrEnum):
    PER_PAIRING = "per_pairing"
    SHARED = "shared"


@dataclass(frozen=True)
class EngineConfig:
    """Every rule of a table, resolved. Immutable; shared by every hand played under it."""

    ace: AceRule
    hand_size: int
    first_dealer: FirstDealer
    next_dealer: NextDealer
    after_dead_hand: DeadHandDealer
    first_turn: FirstTurn
    discard_taken_card: bool
    #: The knock limit when no upcard decides it (and Oklahoma's ceiling).
    knock_limit: int
    #: The knock limit for each rank of first upcard, ace first (13 entries).
    knock_limit_by_upcard: tuple[int, ...]
    knock_on_first_turn: bool
    #: A knock with no deadwood is gin only when the player says so (HR).
    gin_must_be_declared: bool
    oklahoma: bool
    #: What a spade first upcard doubles, or None when spades do not double.
    spades_double: DoubleScope | None
    #: The whole big-gin bonus, or None when big gin is not played.
    big_gin_bonus: int | None
    stock_end_cards_left: int
    last_discard_playable: bool
    layoffs: bool
    gin_bonus: int
    undercut_bonus: int
    undercut_on_tie: bool
    #: The points that win a game (a partnership's team target).
    target: int
    game_bonus: int
    box_bonus: int
    box_timing: BoxTiming
    shutout: Shutout
    #: The game bonus after a shutout, or None unless ``shutout`` is ``game_bonus``.
    shutout_game_bonus: int | None
    stake_per_point: float
    format: FormatType
    players: int
    games: int
    #: Partnership only (None otherwise): a deck per pairing, or one shared deck.
    partnership_deck: PartnershipDeck | None

    def knock_limit_for(self, upcard: Card | None) -> int:
        """Most deadwood a player may knock with this hand, given the first upcard."""
        if upcard is None:
            return self.knock_limit
        return self.knock_limit_by_upcard[upcard.rank]

    def spades_doubled(self, upcard: Card | None) -> bool:
        return self.spades_double is not None and upcard is not None and upcard.suit == 3

    def canonical(self) -> dict[str, Any]:
        """Plain JSON data, every knob resolved; the basis of the fingerprint."""
        data: dict[str, Any] = {"schema_version": ruleset_schema.schema_version()}
        for item in fields(self):
            value = getattr(self, item.name)
            if item.name == "ace":
                data["ace"] = {"mode": value.mode.value, "value": value.value}
            elif item.name == "knock_limit_by_upcard":
                data[item.name] = {RANKS[r]: limit for r, limit in enumerate(value)}
            elif item.name in LATER_KNOBS and value == LATER_KNOBS[item.name]:
                continue  # added after version 1: only a value away from the default counts
            elif item.name == "stake_per_point":
                data[item.name] = int(value) if float(value).is_integer() else value
            else:
                data[item.name] = value.value if isinstance(value, StrEnum) else value
        return data

    def canonical_json(self) -> str:
        return json.dumps(self.canonical(), sort_keys=True, separators=(",", ":"))

    @functools.cached_property
    def fingerprint(self) -> str:
        """The first 12 hex digits of the canonical JSON's SHA-256 (computed once)."""
        digest = hashlib.sha256(self.canonical_json().encode()).hexdigest()
        return digest[:FINGERPRINT_LENGTH]


#: Knobs added after schema version 1, with their defaults. They enter the
#: canonical form only when set away from the default, so a ruleset that
#: leaves them alone keeps the fingerprint it had before they existed (saved
#: house rules, shared links and tables are pinned to fingerprints).
LATER_KNOBS: Final[dict[str, object]] = {"gin_must_be_declared": False}


def compile_ruleset(ruleset: Ruleset) -> EngineConfig:
    """Resolve every knob of a validated ruleset."""
    rules = ruleset.view()
    ace = AceRule(AceMode(rules["cards.ace"]), int(rules["cards.ace_value"]))
    knock_limit = int(rules["play.knock_limit"])
    oklahoma = bool(rules["oklahoma.enabled"])
    by_upcard = tuple(
        _oklahoma_limit(rank, knock_limit, rules["oklahoma.ace_upcard"])
        if oklahoma
        else knock_limit
        for rank in range(13)
    )
    big_gin: int | None = None
    if rules["big_gin.enabled"]:
        big_gin = int(rules["big_gin.bonus"])
        if rules["big_gin.bonus_adds_to_gin"]:
            big_gin += int(rules["hand_scoring.gin_bonus"])
    return EngineConfig(
        ace=ace,
        hand_size=int(rules["cards.hand_size"]),
        first_dealer=FirstDealer(rules["deal.first_dealer"]),
        next_dealer=NextDealer(rules["deal.next_dealer"]),
        after_dead_hand=DeadHandDealer(rules["deal.after_dead_hand"]),
        first_turn=FirstTurn(rules["deal.first_turn"]),
        discard_taken_card=bool(rules["play.discard_taken_card"]),
        knock_limit=knock_limit,
        knock_limit_by_upcard=by_upcard,
        knock_on_first_turn=bool(rules["play.knock_on_first_turn"]),
        gin_must_be_declared=bool(rules["play.gin_must_be_declared"])
        and (knock_limit > 0 or oklahoma),
        oklahoma=oklahoma,
        spades_double=DoubleScope(rules["oklahoma.spades_double_scope"])
        if oklahoma and rules["oklahoma.spades_double"]
        else None,
        big_gin_bonus=big_gin,
        stock_end_cards_left=int(rules["stock_end.cards_left"]),
        last_discard_playable=bool(rules["stock_end.last_discard_playable"]),
        layoffs=bool(rules["showdown.layoffs"]),
        gin_bonus=int(rules["hand_scoring.gin_bonus"]),
        undercut_bonus=int(rules["hand_scoring.undercut_bonus"]),
        undercut_on_tie=bool(rules["hand_scoring.undercut_on_tie"]),
        target=rules.target(),
        game_bonus=int(rules["game_scoring.game_bonus"]),
        box_bonus=int(rules["game_scoring.box_bonus"]),
        box_timing=BoxTiming(rules["game_scoring.box_timing"]),
        shutout=Shutout(rules["game_scoring.shutout"]),
        shutout_game_bonus=int(rules["game_scoring.shutout_game_bonus"])
        if rules["game_scoring.shutout"] == Shutout.GAME_BONUS
        else None,
        stake_per_point=float(rules["game_scoring.stake_per_point"]),
        format=FormatType(rules["format.type"]),
        players=int(rules["format.players"]),
        games=int(rules["format.games"]),
        partnership_deck=PartnershipDeck(rules["format.partnership_deck"])
        if rules["format.type"] == FormatType.PARTNERSHIP
        else None,
    )


def _oklahoma_limit(rank: int, ceiling: int, ace_upcard: str) -> int:
    """Oklahoma: the upcard's value (face cards 10), capped by the knock limit."""
    if rank == 0:
        return 0 if ace_upcard == "gin_only" else min(1, ceiling)
    return min(rank_value(rank), ceiling)
