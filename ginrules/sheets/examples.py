"""Worked examples for a rule sheet, computed by the engine under the ruleset.

Nothing here types a score in by hand: each example lays fixed cards on the
table and asks the engine (``settle``, ``score_hand``, the score pad) what
this ruleset makes of them, so a house rule's sheet shows its own numbers.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Final

from ginrules.cards import Card, parse_cards
from ginrules.engine.scorepad import (
    HandReport,
    HollywoodPad,
    PadEntry,
    PartnershipPad,
    new_score_pad,
)
from ginrules.engine.scoring import HandEnd, Showdown, score_hand
from ginrules.engine.settle import SettleError, settle
from ginrules.layoffs import best_defense
from ginrules.melds import Arrangement, best_melds
from ginrules.rules.compile import EngineConfig, FormatType
from ginrules.words import examples as said
from ginrules.words.cards import card_text, cards_text, melds_text, ranks_text
from ginrules.words.showdown import layoff_list, points_text

#: The hands the showdown examples try, in order; the first that fits the
#: ruleset (hand size, knock limit) and ends the way the example needs is shown.
_KNOCKER: Final = "5H 6H 7H 9C 9D 9S JC QC KC"
_KNOCKS: Final = (
    # (knocker's deadwood card, defender)
    ("3D", "4H 8H 2S 3S 4S KD KH KS 7D 6C"),
    ("AD", "4H 8H 2S 3S 4S KD KH KS 7D 6C"),
)
_UNDERCUTS: Final = (
    ("8D", "8H 9H 2S 3S 4S KD KH KS 4C 2D"),  # HR's example: two lay-offs, down to 6
    ("8D", "2S 3S 4S KD KH KS AC AH 2D 3C"),  # no lay-offs needed: 7 against 8
    ("3D", "2S 3S 4S KD KH KS AC AH 2D 4C"),
)
_GIN: Final = ("5H 6H 7H 8H 9C 9D 9S JC QC KC", "4H 9H TC 2S 3S 4S KD KH KS 6D")
_BIG_GIN: Final = ("4H 5H 6H 7H 8H 9C 9D 9S JC QC KC", "2S 3S 4S KD KH KS 6D TD AC 2C")
#: Oklahoma's showdown examples turn up this card (limit 10, not a spade).
_OKLAHOMA_UPCARD: Final = "QD"
#: The hands of the Hollywood and partnership examples: (table seat, points).
_HOLLYWOOD_HANDS: Final = ((0, 30), (1, 22), (0, 18), (0, 41), (1, 35), (1, 27))
_PARTNERSHIP_TABLES: Final = ((0, 26), (1, 14))


@dataclass(frozen=True)
class ShowdownExample:
    title: str
    knocker: str
    knocker_deadwood: int
    layoffs: tuple[str, ...]
    defender: str
    defender_deadwood: int
    outcome: str
    winner: str
    points: int
    explain: str
    upcard: str | None = None


@dataclass(frozen=True)
class LimitRow:
    upcard: str
    #: ``knock with 7 or less``, ``gin only``.
    limit: str
    #: The limit alone, as the sheet's table shows it: ``7``, ``gin only``.
    short: str


@dataclass(frozen=True)
class HollywoodRow:
    hand: int
    winner: str
    points: int
    entered: str
    columns: tuple[str, str, str]


@dataclass(frozen=True)
class PartnershipExample:
    tables: tuple[str, ...]
    net: str
    points: int


@dataclass
class Examples:
    """Every example this ruleset gets (the empty ones do not apply)."""

    showdowns: list[ShowdownExample] = field(default_factory=list)
    limits: list[LimitRow] = field(default_factory=list)
    hollywood: list[HollywoodRow] = field(default_factory=list)
    partnership: PartnershipExample | None = None
    #: Why showdown examples are missing, when they are.
    note: str | None = None


def worked_examples(config: EngineConfig) -> Examples:
    examples = Examples()
    if config.hand_size == 10:
        _showdowns(config, examples)
    else:
        examples.note = said.ten_card_note(config.hand_size)
    if config.oklahoma:
        limits = {
            rank: config.knock_limit_for(Card.parse(f"{rank}H"))
            for rank in ("A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K")
        }
        examples.limits = [
            LimitRow(ranks_text(rank), said.limit_words(limit), said.limit_short(limit))
            for rank, limit in limits.items()
        ]
    if config.format is FormatType.HOLLYWOOD:
        examples.hollywood = _hollywood(config)
    if config.format is FormatType.PARTNERSHIP:
        examples.partnership = _partnership(config)
    return examples


def _showdowns(config: EngineConfig, examples: Examples) -> None:
    upcard = Card.parse(_OKLAHOMA_UPCARD) if config.oklahoma else None
    knock = _first(config, _KNOCKS, HandEnd.KNOCK, upcard)
    if knock is not None:
        examples.showdowns.append(_example(said.title(HandEnd.KNOCK), knock[1], upcard))
    undercut = _first(config, _UNDERCUTS, HandEnd.UNDERCUT, upcard)
    if undercut is not None:
        examples.showdowns.append(_example(said.title(HandEnd.UNDERCUT), undercut[1], upcard))
    knocker, defender = (parse_cards(text) for text in _GIN)
    gin = settle(config, knocker=knocker, defender=defender, upcard=upcard)
    examples.showdowns.append(_example(said.title(HandEnd.GIN), gin, upcard))
    if config.big_gin_bonus is not None:
        eleven, defender = (parse_cards(text) for text in _BIG_GIN)
        melds = best_melds(eleven, config.ace)
        defense = best_defense(parse_cards(defender), (), config.ace)
        score = score_hand(config, 0, defense.deadwood, big_gin=True)
        examples.showdowns.append(
            ShowdownExample(
                said.title(HandEnd.BIG_GIN),
                said.all_eleven_melded(melds_text(melds.melds)),
                0,
                (),
                _defender_words(defense.arrangement),
                score.defender_deadwood,
                score.end.value,
                "knocker",
                score.points,
                points_text(score),
            )
        )
    if config.oklahoma and config.spades_double is not None and knock is not None:
        doubled_by = Card.parse("TS")
        doubled = _settle(config, knock[0], doubled_by)
        if doubled is not None:
            examples.showdowns.append(_example(said.spade_title(), doubled, doubled_by))


def _first(
    config: EngineConfig,
    candidates: Sequence[tuple[str, str]],
    end: HandEnd,
    upcard: Card | None,
) -> tuple[tuple[str, str], Showdown] | None:
    for candidate in candidates:
        showdown = _settle(config, candidate, upcard)
        if showdown is not None and showdown.score.end is end:
            return candidate, showdown
    return None


def _settle(
    config: EngineConfig, candidate: tuple[str, str], upcard: Card | None
) -> Showdown | None:
    deadwood_card, defender = candidate
    try:
        return settle(
            config,
            knocker=parse_cards(f"{_KNOCKER} {deadwood_card}"),
            defender=parse_cards(defender),
            upcard=upcard,
        )
    except SettleError:  # over this ruleset's knock limit
        return None


def _defender_words(arrangement: Arrangement) -> str:
    shown = melds_text(arrangement.melds)
    rest = cards_text(arrangement.unmatched)
    return f"{shown} {rest}".strip()


def _example(title: str, showdown: Showdown, upcard: Card | None) -> ShowdownExample:
    knocker = showdown.knocker_arrangement
    deadwood = cards_text(knocker.unmatched)
    score = showdown.score
    return ShowdownExample(
        title,
        melds_text(knocker.melds) + (f" + {deadwood}" if deadwood else ""),
        score.knocker_deadwood,
        tuple(layoff_list(showdown)),
        _defender_words(showdown.defense.arrangement),
        score.defender_deadwood,
        score.end.value,
        "knocker" if score.knocker_wins else "defender",
        score.points,
        points_text(score),
        None if upcard is None else card_text(upcard),
    )


def _hollywood(config: EngineConfig) -> list[HollywoodRow]:
    # Typed results on a score pad, as a table keeps them: no deal, no seed.
    pad = new_score_pad(config, [0])
    assert isinstance(pad, HollywoodPad)
    rows = []
    for number, (seat, points) in enumerate(_HOLLYWOOD_HANDS, 1):
        if pad.finished:
            break
        before = [list(board.points) for board in pad.boards]
        pad.add(HandReport(seat, points))
        entered = [
            n
            for n, (board, old) in enumerate(zip(pad.boards, before, strict=True), 1)
            if list(board.points) != old
        ]
        rows.append(
            HollywoodRow(
                number,
                "AB"[seat],
                points,
                said.games_entered(entered),
                tuple(f"{b.points[0]}-{b.points[1]}" for b in pad.boards),  # type: ignore[arg-type]
            )
        )
    return rows


def _partnership(config: EngineConfig) -> PartnershipExample:
    pad = new_score_pad(config, [0, 2])
    assert isinstance(pad, PartnershipPad)
    reports = []
    tables = []
    for seating, (team, points) in zip(pad.next_deal().seatings, _PARTNERSHIP_TABLES, strict=True):
        winner = next(seat for seat in seating.seats if seat % 2 == team)
        reports.append(HandReport(winner, points))
        tables.append(said.partnership_table(seating.seats, winner, team, points))
    pad.add(PadEntry(tuple(reports)))
    net = pad.net
    (_, won), (_, lost) = _PARTNERSHIP_TABLES
    return PartnershipExample(
        tuple(tables), said.partnership_net(0 if net > 0 else 1, abs(net), won, lost), abs(net)
    )
