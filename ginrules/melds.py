"""Melds and deadwood: the exact best arrangement of any hand.

Glossary:

meld
    Cards laid down together that score nothing: a *set* (three or four cards
    of one rank) or a *run* (three or more cards of one suit in sequence).
    A card belongs to one meld at most.
deadwood
    The cards of a hand that are in no meld, and the sum of their values
    (ace 1 unless the ruleset says otherwise, two to ten at face value,
    jack, queen and king 10).
ace rule
    Where an ace may stand in a run: ``low`` (A-2-3 only), ``high_or_low``
    (A-2-3 or Q-K-A, never K-A-2) or ``round_the_corner`` (K-A-2 too).

How the search works, and why it is exact. Fix which cards go into sets.
The remaining cards of a suit then meld best by taking *every* maximal
stretch of three or more consecutive cards as one run: a run of any length is
a meld, so splitting or shortening a stretch never melds more. That part is a
table lookup per suit (8,192 lane masks, built once per ace rule). Only the set
choices need a search: for every rank held three or four times, use none of
it, all of it, or (with four) any three. An 11-card hand has at most three
such ranks, so at most 72 combinations, and most hands have none.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Final

from ginrules.cards import (
    LANE_BITS,
    LANE_MASK,
    Card,
    cards_to_mask,
    mask_to_cards,
)


class AceMode(StrEnum):
    """Where an ace may stand in a run."""

    LOW = "low"
    """A-2-3 only; Q-K-A and K-A-2 are not runs (the published rule)."""
    HIGH_OR_LOW = "high_or_low"
    """A-2-3 or Q-K-A, but a run never turns the corner (K-A-2)."""
    ROUND_THE_CORNER = "round_the_corner"
    """Runs wrap: Q-K-A, K-A-2 and A-2-3 are all runs."""


@dataclass(frozen=True)
class AceRule:
    """The ace knob: its place in runs and its deadwood value."""

    mode: AceMode = AceMode.LOW
    value: int = 1

    def card_value(self, card: Card) -> int:
        """Deadwood points of one card under this rule."""
        return rank_value(card.rank, self.value)


CLASSIC_ACES: Final = AceRule()


def rank_value(rank: int, ace_value: int = 1) -> int:
    """Deadwood points of a rank (0 = ace ... 12 = king)."""
    if rank == 0:
        return ace_value
    return min(rank + 1, 10)


class MeldKind(StrEnum):
    SET = "set"
    RUN = "run"


@dataclass(frozen=True)
class Meld:
    """A set or a run. A run's cards are in sequence from its low end.

    ``start`` is the run's first position: a rank (0 = ace ... 12 = king), or
    13 for an ace played high. With ``round_the_corner`` positions wrap modulo 13.
    """

    kind: MeldKind
    cards: tuple[Card, ...]
    start: int = 0

    def __str__(self) -> str:
        return " ".join(str(c) for c in self.cards)

    @property
    def mask(self) -> int:
        return cards_to_mask(self.cards)


@dataclass(frozen=True)
class Arrangement:
    """A hand split into melds and unmatched cards (the deadwood)."""

    melds: tuple[Meld, ...]
    unmatched: tuple[Card, ...]
    deadwood: int

    def to_json(self) -> dict[str, object]:
        return {
            "deadwood": self.deadwood,
            "melds": [[str(c) for c in meld.cards] for meld in self.melds],
            "unmatched": [str(c) for c in self.unmatched],
        }


@dataclass(frozen=True)
class DiscardAnalysis:
    """An 11-card hand: deadwood now, and what each discard would leave."""

    arrangement: Arrangement
    #: Deadwood of the ten cards left after each possible discard.
    after_discard: tuple[tuple[Card, int], ...]
    best_discard_deadwood: int
    best_discards: tuple[Card, ...]

    def knock_discards(self, knock_limit: int) -> tuple[Card, ...]:
        """Discards that leave deadwood within ``knock_limit``."""
        return tuple(card for card, dead in self.after_discard if dead <= knock_limit)


# --- lane tables -----------------------------------------------------------


@dataclass(frozen=True)
class _LaneOption:
    """One way to meld a suit's cards into runs."""

    melded: int  # 13-bit lane mask of the cards in runs
    deadwood: int
    max_unmatched: int  # the highest-valued unmatched card, 0 if none
    ace_high: bool  # the ace (if in a run) stands above the king


@dataclass(frozen=True)
class _LaneTables:
    #: Least deadwood of each of the 8,192 lanes.
    deadwood: tuple[int, ...]
    #: The most one discard from the lane can save: the least deadwood less the
    #: least (deadwood - highest unmatched card) over the lane's options.
    gain: tuple[int, ...]
    #: Cards of each lane that could stand in some run (a stretch of three).
    runnable: tuple[int, ...]
    #: Every distinct option per lane; one except for an ace under high_or_low.
    options: tuple[tuple[_LaneOption, ...], ...]


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
def _lane_tables(rule: AceRule) -> _LaneTables:
    values = tuple(rank_value(r, rule.value) for r in range(13))
    deadwood: list[int] = []
    gain: list[int] = []
    runnable: list[int] = []
    options: list[tuple[_LaneOption, ...]] = []
    for lane in range(1 << 13):
        found: list[_LaneOption] = []
        for melded, ace_high in _lane_melded(lane, rule.mode):
            loose = [values[r] for r in range(13) if lane >> r & 1 and not melded >> r & 1]
            option = _LaneOption(melded, sum(loose), max(loose, default=0), ace_high)
            if all(o.melded != option.melded for o in found):
                found.append(option)
        found.sort(key=lambda o: (o.deadwood, o.ace_high))
        least = found[0].deadwood
        deadwood.append(least)
        gain.append(max(least - o.deadwood + o.max_unmatched for o in found))
        runnable.append(functools.reduce(int.__or__, (o.melded for o in found)))
        options.append(tuple(found))
    return _LaneTables(tuple(deadwood), tuple(gain), tuple(runnable), tuple(options))


# --- set choices -----------------------------------------------------------


def _lanes(mask: int) -> tuple[int, int, int, int]:
    return (
        mask & LANE_MASK,
        mask >> LANE_BITS & LANE_MASK,
        mask >> 2 * LANE_BITS & LANE_MASK,
        mask >> 3 * LANE_BITS & LANE_MASK,
    )


def _set_ranks(a: int, b: int, c: int, d: int) -> int:
    """Ranks (as a lane mask) held in three or four suits."""
    return (a & b & (c | d)) | (c & d & (a | b))


Lanes = tuple[int, int, int, int]


def _every_choice(lanes: Lanes, contested: int, can_run: Lanes) -> list[int]:
    """The hand (as a mask) left by every choice of sets among ``contested``:
    each rank taken whole or left out, or (held four times) taken as three
    sparing a card that can run. For hands with two sets of four or more, where
    walking the subsets and sparing inside them costs more."""
    a, b, c, d = lanes
    hand = a | b << LANE_BITS | c << 2 * LANE_BITS | d << 3 * LANE_BITS
    quads = a & b & c & d
    left = [hand & ~(contested * _EVERY_SUIT)]
    while contested:
        bit = contested & -contested
        contested ^= bit
        whole = hand & bit * _EVERY_SUIT
        options = [0, whole]
        if quads & bit:
            options += [bit << LANE_BITS * i for i in range(4) if can_run[i] & bit]
        left = [rest | kept for rest in left for kept in options]
    return left


#: No lane has a card that can run (before anyone looks).
_NONE: Final = (0, 0, 0, 0)
#: A rank's bit in every lane.
_EVERY_SUIT: Final = 1 | 1 << LANE_BITS | 1 << 2 * LANE_BITS | 1 << 3 * LANE_BITS


# --- deadwood on masks (the hot path) --------------------------------------
#
# Which sets to take is the only search. A rank held three or four times none
# of whose cards can run is always taken as a set. The others (*contested*)
# are taken as a whole set or left out, every subset of them in turn, from all
# to none; a contested rank held four times may also be taken as three,
# sparing one card that can run. An 11-card hand has at most three contested
# ranks, most hands none or one.


@dataclass(frozen=True)
class MeldScorer:
    """Fast deadwood functions on masks, for one ace rule (see :func:`scorer`)."""

    rule: AceRule
    #: Least deadwood of the hand in a mask, counting every card.
    deadwood: Callable[[int], int]
    #: Least deadwood left after discarding one card of the hand in a mask.
    best_discard_deadwood: Callable[[int], int]


@functools.cache
def scorer(rule: AceRule) -> MeldScorer:
    """The fast deadwood functions for an ace rule, built once and kept."""
    tables = _lane_tables(rule)
    table = tables.deadwood
    gain = tables.gain
    runnable = tables.runnable

    def deadwood(mask: int) -> int:
        a = mask & 0x1FFF
        b = mask >> 16 & 0x1FFF
        c = mask >> 32 & 0x1FFF
        d = mask >> 48 & 0x1FFF
        sets = (a & b & (c | d)) | (c & d & (a | b))
        if not sets:
            return table[a] + table[b] + table[c] + table[d]
        if sets & (sets - 1):
            can_run = (runnable[a], runnable[b], runnable[c], runnable[d])
            contested = sets & (can_run[0] | can_run[1] | can_run[2] | can_run[3])
            if contested != sets:
                free = ~(sets ^ contested)
                a &= free
                b &= free
                c &= free
                d &= free
            if contested & (contested - 1):
                return least_deadwood(a, b, c, d, contested, can_run)
            if not contested:
                return table[a] + table[b] + table[c] + table[d]
            sets = contested
        # One rank left to choose for, by far the commonest case: take it
        # whole, leave it out, or (held four times) take three of it.
        keep = ~sets
        sa, sb, sc, sd = table[a & keep], table[b & keep], table[c & keep], table[d & keep]
        ta, tb, tc, td = table[a], table[b], table[c], table[d]
        best = sa + sb + sc + sd
        if ta + tb + tc + td < best:
            best = ta + tb + tc + td
        if a & b & c & d & sets:
            best = min(best, ta + sb + sc + sd, sa + tb + sc + sd)
            best = min(best, sa + sb + tc + sd, sa + sb + sc + td)
        return best

    def least_deadwood(a: int, b: int, c: int, d: int, contested: int, can_run: Lanes) -> int:
        """Least deadwood over every set choice among two or more contested ranks
        (``can_run``: the cards of each lane that can run, or more)."""
        quads = a & b & c & d & contested
        best = 1 << 30
        if quads & (quads - 1):
            for m in _every_choice((a, b, c, d), contested, can_run):
                total = table[m & 0x1FFF] + table[m >> 16 & 0x1FFF]
                total += table[m >> 32 & 0x1FFF] + table[m >> 48]
                if total < best:
                    best = total
            return best
        subset = contested
        while True:
            keep = ~subset
            w, x, y, z = a & keep, b & keep, c & keep, d & keep
            total = table[w] + table[x] + table[y] + table[z]
            if total < best:
                best = total
            taken = subset & quads
            if taken:
                # One set of four taken: spare each card that can run in turn.
                if can_run[0] & taken and total - table[w] + table[w | taken] < best:
                    best = total - table[w] + table[w | taken]
                if can_run[1] & taken and total - table[x] + table[x | taken] < best:
                    best = total - table[x] + table[x | taken]
                if can_run[2] & taken and total - table[y] + table[y | taken] < best:
                    best = total - table[y] + table[y | taken]
                if can_run[3] & taken and total - table[z] + table[z | taken] < best:
                    best = total - table[z] + table[z | taken]
            if not subset:
                return best
            subset = (subset - 1) & contested

    def best_discard_deadwood(mask: int) -> int:
        # Discarding the card that saves the most leaves an arrangement's
        # deadwood less that saving, and no discard does better: the answer is
        # the least (deadwood - the largest saving of one lane) over arrangements.
        a = mask & 0x1FFF
        b = mask >> 16 & 0x1FFF
        c = mask >> 32 & 0x1FFF
        d = mask >> 48 & 0x1FFF
        sets = (a & b & (c | d)) | (c & d & (a | b))
        can_run = _NONE
        if sets & (sets - 1):
            can_run = (runnable[a], runnable[b], runnable[c], runnable[d])
            contested = sets & (can_run[0] | can_run[1] | can_run[2] | can_run[3])
            if contested != sets:
                free = ~(sets ^ contested)
                a &= free
                b &= free
                c &= free
                d &= free
                sets = contested
        ta, tb, tc, td = table[a], table[b], table[c], table[d]
        ga, gb, gc, gd = gain[a], gain[b], gain[c], gain[d]
        best = ta + tb + tc + td - max(ga, gb, gc, gd)
        if sets & (sets - 1):
            best = least_discard(a, b, c, d, sets, can_run, best)
        elif sets:
            keep = ~sets
            w, x, y, z = a & keep, b & keep, c & keep, d & keep
            sa, sb, sc, sd = table[w], table[x], table[y], table[z]
            ha, hb, hc, hd = gain[w], gain[x], gain[y], gain[z]
            best = min(best, sa + sb + sc + sd - max(ha, hb, hc, hd))
            if a & b & c & d & sets:
                best = min(
                    best,
                    ta + sb + sc + sd - max(ga, hb, hc, hd),
                    sa + tb + sc + sd - max(ha, gb, hc, hd),
                    sa + sb + tc + sd - max(ha, hb, gc, hd),
                    sa + sb + sc + td - max(ha, hb, hc, gd),
                )
        # A fully melded hand whose size is not a multiple of three has a
        # four-card meld to discard from; otherwise every discard breaks a meld.
        if best == 0 and mask.bit_count() % 3 == 0 and deadwood(mask) == 0:
            return min(deadwood(mask & ~(1 << i)) for i in range(64) if mask >> i & 1)
        return best

    def least_discard(
        a: int, b: int, c: int, d: int, contested: int, can_run: Lanes, best: int
    ) -> int:
        """best_discard_deadwood over every set choice among two or more contested ranks."""
        quads = a & b & c & d & contested
        if quads & (quads - 1):
            for m in _every_choice((a, b, c, d), contested, can_run):
                w, x, y, z = m & 0x1FFF, m >> 16 & 0x1FFF, m >> 32 & 0x1FFF, m >> 48
                total = table[w] + table[x] + table[y] + table[z]
                total -= max(gain[w], gain[x], gain[y], gain[z])
                if total < best:
                    best = total
            return best
        subset = contested
        while subset:
            keep = ~subset
            w, x, y, z = a & keep, b & keep, c & keep, d & keep
            total = table[w] + table[x] + table[y] + table[z]
            gw, gx, gy, gz = gain[w], gain[x], gain[y], gain[z]
            if total - max(gw, gx, gy, gz) < best:
                best = total - max(gw, gx, gy, gz)
            taken = subset & quads
            if taken:
                # One set of four taken: spare each card that can run in turn.
                if can_run[0] & taken:
                    spared = total - table[w] + table[w | taken]
                    best = min(best, spared - max(gain[w | taken], gx, gy, gz))
                if can_run[1] & taken:
                    spared = total - table[x] + table[x | taken]
                    best = min(best, spared - max(gw, gain[x | taken], gy, gz))
                if can_run[2] & taken:
                    spared = total - table[y] + table[y | taken]
                    best = min(best, spared - max(gw, gx, gain[y | taken], gz))
                if can_run[3] & taken:
                    spared = total - table[z] + table[z | taken]
                    best = min(best, spared - max(gw, gx, gy, gain[z | taken]))
            subset = (subset - 1) & contested
        return best

    return MeldScorer(rule, deadwood, best_discard_deadwood)


_CLASSIC: Final = scorer(CLASSIC_ACES)


def deadwood_of_mask(mask: int, rule: AceRule | None = None) -> int:
    """Least deadwood of the hand in ``mask``, counting every card."""
    if rule is None or rule is CLASSIC_ACES:
        return _CLASSIC.deadwood(mask)
    return scorer(rule).deadwood(mask)


def best_discard_deadwood_of_mask(mask: int, rule: AceRule | None = None) -> int:
    """Least deadwood left after discarding one card of the hand in ``mask``."""
    if rule is None or rule is CLASSIC_ACES:
        return _CLASSIC.best_discard_deadwood(mask)
    return scorer(rule).best_discard_deadwood(mask)


def _set_removals(mask: int) -> Iterator[int]:
    """Every choice of set cards in a hand (unpruned), as the mask of the cards in sets."""
    a, b, c, d = _lanes(mask)
    triples = _set_ranks(a, b, c, d)
    per_rank: list[list[int]] = []
    while triples:
        low = triples & -triples
        triples ^= low
        rank = low.bit_length() - 1
        suits = [s for s, lane in enumerate((a, b, c, d)) if lane & low]
        choices = [0, sum(1 << (s * LANE_BITS + rank) for s in suits)]
        if len(suits) == 4:
            choices += [
                sum(1 << (s * LANE_BITS + rank) for s in suits if s != spared) for spared in suits
            ]
        per_rank.append(choices)
    for combo in itertools.product(*per_rank):
        yield sum(combo)


# --- arrangements ----------------------------------------------------------


def _runs_of_lane(melded: int, suit: int, mode: AceMode, ace_high: bool) -> list[Meld]:
    """Split a lane's run-melded cards into maximal runs, low end first."""
    if melded == 0:
        return []
    if mode is AceMode.ROUND_THE_CORNER:
        if melded == LANE_MASK:
            positions = list(range(13))
            return [Meld(MeldKind.RUN, tuple(Card(p, suit) for p in positions), 0)]
        gap = next(r for r in range(13) if not melded >> r & 1)
        order = [(gap + 1 + i) % 13 for i in range(13)]
    elif ace_high:
        order = [*list(range(1, 13)), 0]
    else:
        order = list(range(13))
    runs: list[Meld] = []
    current: list[int] = []
    for index, rank in enumerate([*order, -1]):
        if rank >= 0 and melded >> rank & 1:
            current.append(index)
            continue
        if current:
            first = order[current[0]]
            start = 13 if (ace_high and first == 0) else first
            runs.append(Meld(MeldKind.RUN, tuple(Card(order[i], suit) for i in current), start))
            current = []
    return runs


def _sets_of(removed: int) -> list[Meld]:
    melds = []
    a, b, c, d = _lanes(removed)
    ranks = a | b | c | d
    for rank in range(13):
        if ranks >> rank & 1:
            cards = tuple(Card(rank, s) for s, lane in enumerate((a, b, c, d)) if lane >> rank & 1)
            melds.append(Meld(MeldKind.SET, cards, rank))
    return melds


def _arrangements(mask: int, rule: AceRule) -> Iterator[Arrangement]:
    """Every arrangement the search considers, in its fixed order."""
    tables = _lane_tables(rule)
    for removed in _set_removals(mask):
        rest = mask & ~removed
        lanes = _lanes(rest)
        for combo in itertools.product(*(tables.options[lane] for lane in lanes)):
            melds = _sets_of(removed)
            unmatched_mask = rest
            for suit, option in enumerate(combo):
                melds.extend(_runs_of_lane(option.melded, suit, rule.mode, option.ace_high))
                unmatched_mask &= ~(option.melded << (suit * LANE_BITS))
            unmatched = tuple(mask_to_cards(unmatched_mask))
            yield Arrangement(
                tuple(sorted(melds, key=_meld_order)),
                unmatched,
                sum(o.deadwood for o in combo),
            )


def _meld_order(meld: Meld) -> tuple[int, int, int]:
    first = meld.cards[0]
    return (0 if meld.kind is MeldKind.SET else 1, first.suit, meld.start)


def best_arrangements(mask: int, rule: AceRule = CLASSIC_ACES) -> list[Arrangement]:
    """Every distinct least-deadwood arrangement of a hand, in a fixed order."""
    best: list[Arrangement] = []
    seen: set[tuple[tuple[Card, ...], ...]] = set()
    for arrangement in _arrangements(mask, rule):
        if best and arrangement.deadwood > best[0].deadwood:
            continue
        if best and arrangement.deadwood < best[0].deadwood:
            best, seen = [], set()
        key = tuple(sorted(meld.cards for meld in arrangement.melds))
        if key not in seen:
            seen.add(key)
            best.append(arrangement)
    return best


def best_melds(cards: Iterable[Card], rule: AceRule = CLASSIC_ACES) -> Arrangement:
    """The least-deadwood arrangement of a hand of any size.

    Ties are broken the same way every time: runs are preferred to sets, and
    an ace is played low rather than high when either would do.
    """
    return best_arrangements(cards_to_mask(cards), rule)[0]


def deadwood(cards: Iterable[Card], rule: AceRule = CLASSIC_ACES) -> int:
    """Least deadwood of a hand, counting every card."""
    return deadwood_of_mask(cards_to_mask(cards), rule)


def analyse_discards(cards: Sequence[Card], rule: AceRule = CLASSIC_ACES) -> DiscardAnalysis:
    """For a hand just after drawing: each discard and the deadwood it leaves.

    ``best_discards`` lists every discard that reaches the least deadwood, in
    card order.
    """
    mask = cards_to_mask(cards)
    after = tuple((card, deadwood_of_mask(mask & ~card.bit, rule)) for card in sorted(cards))
    least = min(dead for _, dead in after)
    return DiscardAnalysis(
        arrangement=best_melds(cards, rule),
        after_discard=after,
        best_discard_deadwood=least,
        best_discards=tuple(card for card, dead in after if dead == least),
    )


def run_card(position: int, suit: int, mode: AceMode) -> Card | None:
    """The card at a run position in a suit, or None where a run cannot go."""
    if mode is AceMode.ROUND_THE_CORNER:
        return Card(position % 13, suit)
    if mode is AceMode.HIGH_OR_LOW and position == 13:
        return Card(0, suit)
    if 0 <= position <= 12:
        return Card(position, suit)
    return None


class MeldError(ValueError):
    """Cards that do not make a meld; the message says why."""


def make_meld(cards: Iterable[Card], rule: AceRule = CLASSIC_ACES) -> Meld:
    """Read a meld a person chose: a set of three or four, or a run under ``rule``.

    Raises :class:`MeldError` saying why the cards are not a meld.
    """
    given = list(cards)
    chosen = sorted(set(given), key=lambda c: (c.suit, c.rank))
    text = " ".join(str(c) for c in given)
    if len(chosen) < 3:
        raise MeldError(f"{text or 'no cards'}: a meld needs at least three cards")
    if len({c.rank for c in chosen}) == 1:
        if len(chosen) > 4:
            raise MeldError(f"{text}: a set has at most four cards")
        return Meld(MeldKind.SET, tuple(chosen))
    if len({c.suit for c in chosen}) != 1:
        raise MeldError(f"{text}: neither a set (one rank) nor a run (one suit)")
    suit = chosen[0].suit
    ranks = {c.rank for c in chosen}
    length = len(chosen)
    starts = range(13) if rule.mode is AceMode.ROUND_THE_CORNER else range(14 - length + 1)
    for start in starts:
        run = [run_card(start + step, suit, rule.mode) for step in range(length)]
        if None not in run and {c.rank for c in run if c is not None} == ranks:
            if start + length > 13 and rule.mode is AceMode.LOW:
                continue
            return Meld(MeldKind.RUN, tuple(c for c in run if c is not None), start)
    why = {
        AceMode.LOW: " (aces are low here: Q-K-A is not a run)",
        AceMode.HIGH_OR_LOW: " (a run may not turn the corner: K-A-2 is not a run)",
        AceMode.ROUND_THE_CORNER: "",
    }[rule.mode]
    raise MeldError(f"{text}: not a run of consecutive cards{why}")
