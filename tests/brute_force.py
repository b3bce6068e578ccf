"""A slow, obviously-correct reference for melds, deadwood and lay-offs.

Nothing here shares code with ``ginrules.melds`` or ``ginrules.layoffs`` beyond
the :class:`Card` type: melds are enumerated from their definitions, hands are
split by plain recursion, and lay-offs are searched card by card. The property
tests compare the fast code against this on many generated hands.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Iterable

from ginrules.cards import Card

MODES = ("low", "high_or_low", "round_the_corner")

Group = frozenset[Card]


def card_points(card: Card, ace_value: int) -> int:
    if card.rank == 0:
        return ace_value
    return 10 if card.rank >= 9 else card.rank + 1


def _run_ranks(mode: str) -> list[list[int]]:
    """Every legal run as a list of ranks (0 = ace), before choosing a suit."""
    runs: list[list[int]] = []
    if mode == "round_the_corner":
        for start in range(13):
            for length in range(3, 13):
                runs.append([(start + i) % 13 for i in range(length)])
        runs.append(list(range(13)))
        return runs
    top = 14 if mode == "high_or_low" else 13  # position 13 is an ace played high
    for start in range(top):
        for end in range(start + 3, top + 1):
            positions = list(range(start, end))
            if 0 in positions and 13 in positions:
                continue
            runs.append([p % 13 for p in positions])
    return runs


@functools.cache
def _all_runs(mode: str) -> tuple[Group, ...]:
    return tuple(
        frozenset(Card(rank, suit) for rank in ranks)
        for ranks in _run_ranks(mode)
        for suit in range(4)
    )


@functools.cache
def _run_lookup(mode: str) -> frozenset[Group]:
    return frozenset(_all_runs(mode))


def all_melds(hand: Iterable[Card], mode: str) -> list[Group]:
    cards = frozenset(hand)
    melds: list[Group] = []
    for rank in range(13):
        same = [c for c in cards if c.rank == rank]
        for size in (3, 4):
            melds.extend(frozenset(combo) for combo in itertools.combinations(same, size))
    melds.extend(run for run in _all_runs(mode) if run <= cards)
    return list(set(melds))


def partitions(hand: Iterable[Card], mode: str) -> list[tuple[list[Group], list[Card]]]:
    """Every way to split a hand into disjoint melds and loose cards."""
    cards = sorted(hand)
    melds = all_melds(cards, mode)
    results: list[tuple[list[Group], list[Card]]] = []

    def walk(rest: list[Card], chosen: list[Group], loose: list[Card]) -> None:
        if not rest:
            results.append((list(chosen), list(loose)))
            return
        first, others = rest[0], rest[1:]
        walk(others, chosen, [*loose, first])
        for meld in melds:
            if first in meld and meld <= set(rest):
                walk([c for c in others if c not in meld], [*chosen, meld], loose)

    walk(cards, [], [])
    return results


def min_deadwood(hand: Iterable[Card], mode: str, ace_value: int = 1) -> int:
    return _min_deadwood(frozenset(hand), mode, ace_value)


@functools.lru_cache(maxsize=200_000)
def _min_deadwood(hand: frozenset[Card], mode: str, ace_value: int) -> int:
    return min(sum(card_points(c, ace_value) for c in loose) for _, loose in partitions(hand, mode))


def best_after_discard(hand: list[Card], mode: str, ace_value: int = 1) -> int:
    return min(min_deadwood([c for c in hand if c != d], mode, ace_value) for d in hand)


def _fits(card: Card, meld: Group, mode: str) -> bool:
    """Would ``meld`` plus ``card`` still be a set or a run?"""
    if card in meld:
        return False
    grown = meld | {card}
    if len({c.rank for c in grown}) == 1:
        return len(grown) <= 4
    return grown in _run_lookup(mode)


def _can_lay_off_all(cards: frozenset[Card], melds: tuple[Group, ...], mode: str) -> bool:
    if not cards:
        return True
    for card in cards:
        for i, meld in enumerate(melds):
            if _fits(card, meld, mode):
                grown = (*melds[:i], meld | {card}, *melds[i + 1 :])
                if _can_lay_off_all(cards - {card}, grown, mode):
                    return True
    return False


def best_defense_deadwood(
    defender: list[Card], knocker_melds: list[Group], mode: str, ace_value: int = 1
) -> int:
    """Least defender deadwood over every legal set of lay-offs."""
    best = min_deadwood(defender, mode, ace_value)
    # Only a card of a meld's rank (a set) or suit (a run) can ever be laid off on it.
    related = [
        c
        for c in defender
        if any(
            c.rank in {m.rank for m in meld} or c.suit in {m.suit for m in meld}
            for meld in knocker_melds
        )
    ]
    for size in range(1, len(related) + 1):
        for subset in itertools.combinations(related, size):
            if _can_lay_off_all(frozenset(subset), tuple(knocker_melds), mode):
                rest = [c for c in defender if c not in subset]
                best = min(best, min_deadwood(rest, mode, ace_value))
    return best


def spots(melds: list[Group], mode: str) -> set[Card]:
    """Every card that fits one of the melds directly."""
    deck = [Card(r, s) for s in range(4) for r in range(13)]
    return {card for card in deck for meld in melds if _fits(card, meld, mode)}
