"""Whole arrangements: the melds and unmatched cards behind the least deadwood,
the deadwood each discard leaves, and melds a person lays down."""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator, Sequence
from enum import StrEnum

from ginrules.cards import LANE_BITS, LANE_MASK, Card, cards_to_mask, mask_to_cards
from ginrules.melds.lanes import lane_tables, lanes_of, set_ranks
from ginrules.melds.model import (
    CLASSIC_ACES,
    AceMode,
    AceRule,
    Arrangement,
    DiscardAnalysis,
    Meld,
    MeldKind,
)
from ginrules.melds.search import deadwood_of_mask


def _set_removals(mask: int) -> Iterator[int]:
    """Every choice of set cards in a hand (unpruned), as the mask of the cards in sets."""
    a, b, c, d = lanes_of(mask)
    triples = set_ranks(a, b, c, d)
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
    a, b, c, d = lanes_of(removed)
    ranks = a | b | c | d
    for rank in range(13):
        if ranks >> rank & 1:
            cards = tuple(Card(rank, s) for s, lane in enumerate((a, b, c, d)) if lane >> rank & 1)
            melds.append(Meld(MeldKind.SET, cards, rank))
    return melds


def _arrangements(mask: int, rule: AceRule, least: int) -> Iterator[Arrangement]:
    """Every arrangement with ``least`` deadwood the search considers, in its
    fixed order (the others are skipped before any meld is built)."""
    tables = lane_tables(rule)
    for removed in _set_removals(mask):
        rest = mask & ~removed
        lanes = lanes_of(rest)
        for combo in itertools.product(*(tables.options[lane] for lane in lanes)):
            if sum(o.deadwood for o in combo) != least:
                continue
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
    for arrangement in _arrangements(mask, rule, deadwood_of_mask(mask, rule)):
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


class MeldProblem(StrEnum):
    """Why chosen cards are not a meld (worded in :mod:`ginrules.words.cards`)."""

    TOO_FEW = "too_few"
    SET_TOO_LONG = "set_too_long"
    MIXED = "mixed"
    NOT_A_RUN = "not_a_run"


class MeldError(ValueError):
    """Cards that do not make a meld: ``problem`` says why (the English message too),
    ``cards`` are the cards as given and ``mode`` the ace rule that judged a run."""

    def __init__(
        self, message: str, problem: MeldProblem, cards: tuple[Card, ...], mode: AceMode
    ) -> None:
        super().__init__(message)
        self.problem = problem
        self.cards = cards
        self.mode = mode


def make_meld(cards: Iterable[Card], rule: AceRule = CLASSIC_ACES) -> Meld:
    """Read a meld a person chose: a set of three or four, or a run under ``rule``.

    Raises :class:`MeldError` saying why the cards are not a meld.
    """
    given = tuple(cards)
    chosen = sorted(set(given), key=lambda c: (c.suit, c.rank))
    text = " ".join(str(c) for c in given)

    def refused(message: str, problem: MeldProblem) -> MeldError:
        return MeldError(message, problem, given, rule.mode)

    if len(chosen) < 3:
        raise refused(
            f"{text or 'no cards'}: a meld needs at least three cards", MeldProblem.TOO_FEW
        )
    if len({c.rank for c in chosen}) == 1:
        if len(chosen) > 4:
            raise refused(f"{text}: a set has at most four cards", MeldProblem.SET_TOO_LONG)
        return Meld(MeldKind.SET, tuple(chosen))
    if len({c.suit for c in chosen}) != 1:
        raise refused(f"{text}: neither a set (one rank) nor a run (one suit)", MeldProblem.MIXED)
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
    raise refused(f"{text}: not a run of consecutive cards{why}", MeldProblem.NOT_A_RUN)
