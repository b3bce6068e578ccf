"""Per-suit lookup tables and the set choices the search walks.

A hand is a 64-bit mask with one 16-bit lane per suit. For a fixed choice of
sets, each suit's best runs depend on its lane alone: every maximal stretch of
three or more consecutive cards is one run. So the least deadwood of each of
the 8,192 possible lanes is computed once per ace rule, and the search only
has to choose which sets to take.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Final

from ginrules.cards import LANE_BITS, LANE_MASK
from ginrules.melds.model import AceMode, AceRule, rank_value

# --- lane tables -----------------------------------------------------------


@dataclass(frozen=True)
class LaneOption:
    """One way to meld a suit's cards into runs."""

    melded: int  # 13-bit lane mask of the cards in runs
    deadwood: int
    max_unmatched: int  # the highest-valued unmatched card, 0 if none
    ace_high: bool  # the ace (if in a run) stands above the king


@dataclass(frozen=True)
class LaneTables:
    #: Least deadwood of each of the 8,192 lanes.
    deadwood: tuple[int, ...]
    #: The most one discard from the lane can save: the least deadwood less the
    #: least (deadwood - highest unmatched card) over the lane's options.
    gain: tuple[int, ...]
    #: Cards of each lane that could stand in some run (a stretch of three).
    runnable: tuple[int, ...]
    #: Every distinct option per lane; one except for an ace under high_or_low.
    options: tuple[tuple[LaneOption, ...], ...]


def _stretches(lane: int) -> int:
    """The cards of a lane in a stretch of three or more consecutive ranks."""
    starts = lane & lane >> 1 & lane >> 2
    return (starts | starts << 1 | starts << 2) & lane


def _lane_melded(lane: int, mode: AceMode) -> list[tuple[int, bool]]:
    """Candidate run-melded masks of one lane, with whether the ace plays high."""
    if mode is AceMode.LOW:
        return [(_stretches(lane), False)]
    if mode is AceMode.ROUND_THE_CORNER:
        # Three copies side by side: a stretch through the king and ace shows in the middle one.
        tripled = lane | lane << 13 | lane << 26
        return [(_stretches(tripled) >> 13 & lane, False)]
    # high_or_low: the ace stands either below the two or above the king.
    options = [(_stretches(lane), False)]
    if lane & 1:
        shifted = lane >> 1 | 1 << 12  # two .. king, then the ace on top
        melded = _stretches(shifted)
        options.append(((melded << 1 & LANE_MASK) | (melded >> 12 & 1), True))
    return options


@functools.cache
def lane_tables(rule: AceRule) -> LaneTables:
    values = tuple(rank_value(r, rule.value) for r in range(13))
    deadwood: list[int] = []
    gain: list[int] = []
    runnable: list[int] = []
    options: list[tuple[LaneOption, ...]] = []
    for lane in range(1 << 13):
        found: list[LaneOption] = []
        for melded, ace_high in _lane_melded(lane, rule.mode):
            loose = [values[r] for r in range(13) if lane >> r & 1 and not melded >> r & 1]
            option = LaneOption(melded, sum(loose), max(loose, default=0), ace_high)
            if all(o.melded != option.melded for o in found):
                found.append(option)
        found.sort(key=lambda o: (o.deadwood, o.ace_high))
        least = found[0].deadwood
        deadwood.append(least)
        gain.append(max(least - o.deadwood + o.max_unmatched for o in found))
        runnable.append(functools.reduce(int.__or__, (o.melded for o in found)))
        options.append(tuple(found))
    return LaneTables(tuple(deadwood), tuple(gain), tuple(runnable), tuple(options))


# --- set choices -----------------------------------------------------------


def lanes_of(mask: int) -> tuple[int, int, int, int]:
    return (
        mask & LANE_MASK,
        mask >> LANE_BITS & LANE_MASK,
        mask >> 2 * LANE_BITS & LANE_MASK,
        mask >> 3 * LANE_BITS & LANE_MASK,
    )


def set_ranks(a: int, b: int, c: int, d: int) -> int:
    """Ranks (as a lane mask) held in three or four suits."""
    return (a & b & (c | d)) | (c & d & (a | b))


Lanes = tuple[int, int, int, int]


def every_choice(lanes: Lanes, contested: int, can_run: Lanes) -> list[int]:
    """The hand (as a mask) left by every choice of sets among ``contested``:
    each rank taken whole or left out, or (held four times) taken as three
    sparing a card that can run. For hands with two sets of four or more, where
    walking the subsets and sparing inside them costs more."""
    a, b, c, d = lanes
    hand = a | b << LANE_BITS | c << 2 * LANE_BITS | d << 3 * LANE_BITS
    quads = a & b & c & d
    left = [hand & ~(contested * EVERY_SUIT)]
    while contested:
        bit = contested & -contested
        contested ^= bit
        whole = hand & bit * EVERY_SUIT
        options = [0, whole]
        if quads & bit:
            options += [bit << LANE_BITS * i for i in range(4) if can_run[i] & bit]
        left = [rest | kept for rest in left for kept in options]
    return left


#: No lane has a card that can run (before anyone looks).
NO_RUNS: Final = (0, 0, 0, 0)
#: A rank's bit in every lane.
EVERY_SUIT: Final = 1 | 1 << LANE_BITS | 1 << 2 * LANE_BITS | 1 << 3 * LANE_BITS


@functools.cache
def neighbours() -> tuple[int, ...]:
    """Per lane: the ranks with a card of the lane within two of them, counting
    round the corner (king next to ace), so under any ace rule a card outside
    this mask could not run even with one more card of its suit."""
    table = []
    for lane in range(1 << 13):
        near = 0
        for step in (1, 2, 11, 12):  # up one or two, down one or two (mod 13)
            near |= (lane << step | lane >> (13 - step)) & LANE_MASK
        table.append(near)
    return tuple(table)


@functools.cache
def lane_bits() -> tuple[tuple[int, ...], ...]:
    """Per lane: its cards as one-bit masks, lowest first."""
    return tuple(tuple(1 << r for r in range(13) if lane >> r & 1) for lane in range(1 << 13))
