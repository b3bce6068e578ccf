"""Meld/deadwood benchmark: ginrules against open_spiel and rlcard, on the same hands.

Run it through ``bench/run.sh``, which builds ``bench/.venv`` with the two peer
libraries (``rlcard==1.2.0`` and ``open_spiel==2.0.2``, never project
dependencies) and ginrules itself installed in editable mode.

What happens, per case:

1. Hands are dealt from a fixed seed: random 10-card hands, meld-rich 10-card
   hands (two or three real melds, knots included, filled up at random),
   random 11-card hands and meld-rich 11-card hands.
2. Every hand is converted to each library's own representation *before* any
   timing: a bit mask for ginrules, open_spiel card ints, rlcard ``Card`` lists.
3. Each library computes every hand once; the answers are cross-checked
   against each other and against a small exhaustive reference search written
   here (independent of all three libraries). Every disagreement is counted and
   shown, and says who was wrong.
4. Each library is timed on the same hands: best of ``--repeat`` samples, a
   sample being enough whole passes over the hands to last ``--min-sample``
   seconds, with the garbage collector off.

What each library is asked:

* ginrules: ``deadwood_of_mask(mask)`` for 10 cards and
  ``best_discard_deadwood_of_mask(mask)`` for 11 cards.
* open_spiel: ``pyspiel.gin_rummy.GinRummyUtils(13, 4, 10).min_deadwood(cards)``.
  For 11 cards (``hand_size + 1``) its C++ ``MinDeadwood`` takes the meld
  group that melds the most points over all 11 cards and then drops that
  group's highest-ranked unmatched card: one call, but not always the best
  discard (ties between meld groups are broken by search order).
* rlcard: ``melding.get_best_meld_clusters(hand)`` then
  ``utils.get_deadwood_count(hand, best[0] if best else [])``, the idiom of
  rlcard's own scorer. Both refuse anything but 10 cards and rlcard has no
  best-discard call, so for 11 cards the benchmark takes the least of that
  over the 11 possible discards (the 11 ten-card sub-hands are built before
  timing).

Exit status: 0, or 1 when ginrules disagrees with the reference on any hand
(3 instead of 0 with ``--fail-on-target`` when a speed target is missed).
"""

from __future__ import annotations

import argparse
import gc
import itertools
import json
import math
import random
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Final, TypeVar

from benchlib import format_table, versions

RANKS: Final = "A23456789TJQK"
SUITS: Final = "CDHS"  # ginrules' suit order; open_spiel uses "scdh", rlcard S H D C
LIBRARIES: Final = ("ginrules", "open_spiel", "rlcard")
PEERS: Final = ("open_spiel", "rlcard")
#: Shown beside the table for 11-card cases: open_spiel made exact the way rlcard is.
EXACT_11: Final = "open_spiel_discards"
PEER_PINS: Final = {"open_spiel": "2.0.2", "rlcard": "1.2.0"}

#: A hand in the benchmark's neutral form: (rank 0..12, suit 0..3 in CDHS order).
Hand = tuple[tuple[int, int], ...]
H = TypeVar("H")


def card_text(card: tuple[int, int]) -> str:
    rank, suit = card
    return RANKS[rank] + SUITS[suit]


def hand_text(hand: Hand) -> str:
    return " ".join(card_text(c) for c in sorted(hand, key=lambda c: (c[1], c[0])))


def card_value(rank: int) -> int:
    return min(rank + 1, 10)


# --- dealing ----------------------------------------------------------------

DECK: Final = tuple((rank, suit) for suit in range(4) for rank in range(13))


def random_hand(rng: random.Random, size: int) -> Hand:
    return tuple(rng.sample(DECK, size))


def random_meld(rng: random.Random) -> set[tuple[int, int]]:
    """One real meld: a set, a run, or a knot (a set and a run sharing a card)."""
    kind = rng.random()
    rank = rng.randrange(13)
    suit = rng.randrange(4)
    if kind < 0.30:  # a set of three
        return {(rank, s) for s in rng.sample(range(4), 3)}
    if kind < 0.40:  # a set of four
        return {(rank, s) for s in range(4)}
    if kind < 0.75:  # a run of three to five
        length = rng.choice((3, 3, 4, 5))
        low = rng.randrange(13 - length + 1)
        return {(r, suit) for r in range(low, low + length)}
    # A knot like 7C 7S 7H 8H 9H: the run's end card is also in the set.
    others = rng.sample([s for s in range(4) if s != suit], 2)
    if rank + 2 < 13 and (rank < 2 or rng.random() < 0.5):
        run = {(r, suit) for r in range(rank, rank + 3)}
    else:
        run = {(r, suit) for r in range(rank - 2, rank + 1)}
    return run | {(rank, s) for s in others}


def meld_rich_hand(rng: random.Random, size: int) -> Hand:
    """Two or three melds (they may overlap), filled up with random cards."""
    while True:
        cards: set[tuple[int, int]] = set()
        for _ in range(rng.choice((2, 3))):
            cards |= random_meld(rng)
        if len(cards) <= size:
            break
    rest = [c for c in DECK if c not in cards]
    hand = [*cards, *rng.sample(rest, size - len(cards))]
    rng.shuffle(hand)
    return tuple(hand)


@dataclass(frozen=True)
class Case:
    name: str
    size: int
    meld_rich: bool
    description: str


CASES: Final = (
    Case("random-10", 10, False, "random 10-card hands: least deadwood"),
    Case("meld-rich-10", 10, True, "meld-rich 10-card hands: least deadwood"),
    Case("random-11", 11, False, "random 11-card hands: least deadwood after the best discard"),
    Case(
        "meld-rich-11", 11, True, "meld-rich 11-card hands: least deadwood after the best discard"
    ),
)


def deal(case: Case, count: int, seed: int) -> list[Hand]:
    rng = random.Random(f"{seed}:{case.name}")
    make = meld_rich_hand if case.meld_rich else random_hand
    return [make(rng, case.size) for _ in range(count)]


# --- the reference: an exhaustive search, independent of all three libraries ---


def _melds_of(hand: Hand) -> list[tuple[int, int]]:
    """Every meld in the hand as (bit mask over suit * 13 + rank, points)."""
    held = set(hand)
    melds: list[tuple[int, int]] = []
    for rank in range(13):
        suits = [s for s in range(4) if (rank, s) in held]
        for size in (3, 4):
            for combo in itertools.combinations(suits, size):
                bits = sum(1 << (s * 13 + rank) for s in combo)
                melds.append((bits, size * card_value(rank)))
    for suit in range(4):
        for low in range(13):
            bits = points = 0
            for rank in range(low, 13):
                if (rank, suit) not in held:
                    break
                bits |= 1 << (suit * 13 + rank)
                points += card_value(rank)
                if rank - low >= 2:
                    melds.append((bits, points))
    return melds


def reference_deadwood(hand: Hand) -> int:
    """Least deadwood of the hand: try every set of disjoint melds."""
    melds = _melds_of(hand)
    best = 0

    def search(start: int, used: int, points: int) -> None:
        nonlocal best
        best = max(best, points)
        for i in range(start, len(melds)):
            bits, value = melds[i]
            if not bits & used:
                search(i + 1, used | bits, points + value)

    search(0, 0, 0)
    return sum(card_value(rank) for rank, _ in hand) - best


def reference_best_discard(hand: Hand) -> int:
    """Least deadwood of the ten cards left after each possible discard."""
    return min(reference_deadwood(hand[:i] + hand[i + 1 :]) for i in range(len(hand)))


def reference(hand: Hand) -> int:
    return reference_best_discard(hand) if len(hand) == 11 else reference_deadwood(hand)


# --- the three libraries: conversion (untimed) and the call that is timed ----


@dataclass(frozen=True)
class Prepared:
    """One library on one case: its hands already converted, ready to run."""

    compute: Callable[[], list[int]]
    run_once: Callable[[], None]


def prepare(fn: Callable[[H], int], hands: Sequence[H]) -> Prepared:
    def compute() -> list[int]:
        return [fn(h) for h in hands]

    def run_once() -> None:
        for h in hands:
            fn(h)

    return Prepared(compute, run_once)


def prepare_ginrules(case: Case, hands: Sequence[Hand]) -> Prepared:
    from ginrules.cards import cards_to_mask, parse_cards
    from ginrules.melds import best_discard_deadwood_of_mask, deadwood_of_mask

    masks = []
    for hand in hands:
        mask = cards_to_mask(parse_cards([card_text(c) for c in hand]))
        # The documented layout (bit = suit * 16 + rank, suits CDHS); checked, not assumed.
        assert mask == sum(1 << (suit * 16 + rank) for rank, suit in hand), hand_text(hand)
        masks.append(mask)
    fn = best_discard_deadwood_of_mask if case.size == 11 else deadwood_of_mask
    return prepare(fn, masks)


def _open_spiel_hands(hands: Sequence[Hand]) -> tuple[Any, list[list[int]]]:
    import pyspiel

    utils = pyspiel.gin_rummy.GinRummyUtils(13, 4, 10)  # ranks, suits, hand size
    converted = []
    for hand in hands:
        names = [RANKS[rank] + SUITS[suit].lower() for rank, suit in hand]  # "7h"
        ints = [int(i) for i in utils.card_strings_to_card_ints(names)]
        back = [str(name).upper() for name in utils.card_ints_to_card_strings(ints)]
        assert back == [card_text(c) for c in hand], hand_text(hand)
        converted.append(ints)
    return utils, converted


def prepare_open_spiel(case: Case, hands: Sequence[Hand]) -> Prepared:
    utils, converted = _open_spiel_hands(hands)
    min_deadwood: Callable[[list[int]], int] = utils.min_deadwood
    return prepare(min_deadwood, converted)


def prepare_open_spiel_discards(case: Case, hands: Sequence[Hand]) -> Prepared:
    """11 cards only: the least of open_spiel's 10-card min_deadwood over the discards."""
    utils, converted = _open_spiel_hands(hands)
    min_deadwood: Callable[[list[int]], int] = utils.min_deadwood

    def best_discard(sub_hands: list[list[int]]) -> int:
        return min(min_deadwood(sub) for sub in sub_hands)

    subs = [[ints[:i] + ints[i + 1 :] for i in range(len(ints))] for ints in converted]
    return prepare(best_discard, subs)


def prepare_rlcard(case: Case, hands: Sequence[Hand]) -> Prepared:
    from rlcard.games.gin_rummy.utils import melding
    from rlcard.games.gin_rummy.utils import utils as rl_utils

    def deadwood10(cards: list[Any]) -> int:
        best = melding.get_best_meld_clusters(hand=cards)
        return int(rl_utils.get_deadwood_count(cards, best[0] if best else []))

    converted = [[rl_utils.card_from_text(card_text(c)) for c in hand] for hand in hands]
    for hand, cards in zip(hands, converted, strict=True):
        assert [str(c) for c in cards] == [card_text(c) for c in hand], hand_text(hand)
    if case.size == 10:
        return prepare(deadwood10, converted)

    def best_discard(sub_hands: list[list[Any]]) -> int:
        return min(deadwood10(sub) for sub in sub_hands)

    subs = [[cards[:i] + cards[i + 1 :] for i in range(len(cards))] for cards in converted]
    return prepare(best_discard, subs)


PREPARERS: Final[dict[str, Callable[[Case, Sequence[Hand]], Prepared]]] = {
    "ginrules": prepare_ginrules,
    "open_spiel": prepare_open_spiel,
    "rlcard": prepare_rlcard,
    EXACT_11: prepare_open_spiel_discards,
}


def libraries_for(case: Case) -> tuple[str, ...]:
    return (*LIBRARIES, EXACT_11) if case.size == 11 else LIBRARIES


def time_per_hand(
    prepared: Prepared, count: int, one_pass: float, repeat: int, min_sample: float
) -> float:
    """Seconds per hand: best of ``repeat`` samples, each of whole passes over the hands.

    ``one_pass`` (seconds, from the untimed-for-the-table first pass) sets how
    many passes make a sample last ``min_sample`` seconds.
    """
    passes = max(1, math.ceil(min_sample / max(one_pass, 1e-9)))
    best = math.inf
    gc_was_enabled = gc.isenabled()
    gc.disable()
    try:
        for _ in range(repeat):
            start = time.perf_counter()
            for _ in range(passes):
                prepared.run_once()
            best = min(best, (time.perf_counter() - start) / passes)
    finally:
        if gc_was_enabled:
            gc.enable()
    return best / count


# --- one case ------------------------------------------------------------------


@dataclass
class Disagreement:
    hand: str
    ginrules: int
    reference: int
    peer: int | None = None  # None when the line is about ginrules against the reference


@dataclass
class CrossCheck:
    disagreements: int = 0
    peer_wrong: int = 0
    ginrules_wrong: int = 0
    examples: list[Disagreement] = field(default_factory=list)


@dataclass
class CaseResult:
    case: Case
    hands: int
    seconds_per_hand: dict[str, float]
    ginrules_wrong: int
    ginrules_wrong_examples: list[Disagreement]
    checks: dict[str, CrossCheck]

    def us(self, lib: str) -> float:
        return self.seconds_per_hand[lib] * 1e6

    def ratio(self, peer: str) -> float:
        return self.seconds_per_hand[peer] / self.seconds_per_hand["ginrules"]


def run_case(case: Case, args: argparse.Namespace) -> CaseResult:
    hands = deal(case, args.hands, args.seed)
    libs = libraries_for(case)
    prepared = {lib: PREPARERS[lib](case, hands) for lib in libs}
    answers: dict[str, list[int]] = {}
    first_pass: dict[str, float] = {}
    for lib in libs:  # also the warm-up, and the measure of how long a pass takes
        start = time.perf_counter()
        answers[lib] = prepared[lib].compute()
        first_pass[lib] = time.perf_counter() - start
    truth = [reference(h) for h in hands]

    ours = answers["ginrules"]
    wrong = [
        Disagreement(hand_text(h), o, t)
        for h, o, t in zip(hands, ours, truth, strict=True)
        if o != t
    ]
    checks: dict[str, CrossCheck] = {}
    for peer in libs[1:]:
        check = CrossCheck()
        for hand, o, p, t in zip(hands, ours, answers[peer], truth, strict=True):
            if o == p:
                continue
            check.disagreements += 1
            check.peer_wrong += p != t
            check.ginrules_wrong += o != t
            if len(check.examples) < args.examples:
                check.examples.append(Disagreement(hand_text(hand), o, t, p))
        checks[peer] = check

    seconds = {
        lib: time_per_hand(prepared[lib], len(hands), first_pass[lib], args.repeat, args.min_sample)
        for lib in libs
    }
    return CaseResult(case, len(hands), seconds, len(wrong), wrong[: args.examples], checks)


# --- targets and output ------------------------------------------------------------


@dataclass(frozen=True)
class Target:
    case: str
    peer: str
    ratio: float


#: The speed-ups the issue asks for: ginrules time x ratio <= peer time.
TARGETS: Final = (
    Target("random-10", "open_spiel", 1.5),
    Target("meld-rich-10", "open_spiel", 4.0),
    Target("random-11", "open_spiel", 10.0),
    *(Target(case.name, "rlcard", 25.0) for case in CASES),
)


def report_text(results: list[CaseResult], args: argparse.Namespace, found: dict[str, str]) -> str:
    out = [
        f"meld benchmark: seed {args.seed}, {args.hands} hands per case,"
        f" best of {args.repeat} samples of >= {args.min_sample:g} s",
        "versions: " + ", ".join(f"{k} {v}" for k, v in found.items()),
    ]
    for lib, pin in PEER_PINS.items():
        if found[lib] != pin:
            out.append(f"NOTE: {lib} {found[lib]} is installed, not the pinned {pin}")
    out += [
        "11 cards, ginrules:   best_discard_deadwood_of_mask (exact)",
        "11 cards, open_spiel: its own min_deadwood on 11 cards: the meld group melding the most",
        "                      points, less its highest unmatched card (one C++ call, not exact)",
        "11 cards, rlcard:     it has no such call: least of its 10-card deadwood over the 11",
        "                      discards (exact)",
        "",
    ]
    rows = [
        [
            "case",
            "ginrules µs/hand",
            "open_spiel µs/hand",
            "rlcard µs/hand",
            "ratio vs open_spiel",
            "ratio vs rlcard",
        ]
    ]
    for r in results:
        rows.append(
            [
                r.case.name,
                f"{r.us('ginrules'):.2f}",
                f"{r.us('open_spiel'):.2f}",
                f"{r.us('rlcard'):.1f}",
                f"{r.ratio('open_spiel'):.2f}x",
                f"{r.ratio('rlcard'):.1f}x",
            ]
        )
    out += [format_table(rows), ""]
    rows = [["case", "ginrules hands/s", "open_spiel hands/s", "rlcard hands/s"]]
    for r in results:
        rows.append([r.case.name, *(f"{1 / r.seconds_per_hand[lib]:,.0f}" for lib in LIBRARIES)])
    out += [format_table(rows), ""]
    for r in results:
        if EXACT_11 in r.seconds_per_hand:
            out.append(
                f"for comparison, {r.case.name} with open_spiel made exact (least of its 10-card"
                f" min_deadwood over the 11 discards): {r.us(EXACT_11):.2f} µs/hand,"
                f" ginrules {r.ratio(EXACT_11):.2f}x faster"
            )
    out += ["", "cross-check on every hand (reference: an exhaustive search in this script):"]
    for r in results:
        out.append(f"  {r.case.name}: ginrules differs from the reference on {r.ginrules_wrong}")
        for peer, c in r.checks.items():
            out.append(
                f"    vs {peer}: {c.disagreements} of {r.hands} hands differ"
                f" ({peer} wrong on {c.peer_wrong}, ginrules wrong on {c.ginrules_wrong})"
            )
        examples = [("ginrules", d) for d in r.ginrules_wrong_examples]
        examples += [(peer, d) for peer, c in r.checks.items() for d in c.examples]
        for lib, d in examples:
            peer_value = "" if d.peer is None else f", {lib} {d.peer}"
            out.append(
                f"      {lib + ':':<20} {d.hand}: ginrules {d.ginrules}{peer_value},"
                f" reference {d.reference}"
            )
    out += ["", "targets (how many times faster ginrules must be than the peer):"]
    by_case = {r.case.name: r for r in results}
    for t in TARGETS:
        got = by_case[t.case].ratio(t.peer)
        verdict = "met" if got >= t.ratio else "NOT MET"
        out.append(f"  {t.case} vs {t.peer}: need >= {t.ratio:g}x, got {got:.2f}x: {verdict}")
    return "\n".join(out)


def report_json(results: list[CaseResult], args: argparse.Namespace, found: dict[str, str]) -> str:
    by_case = {r.case.name: r for r in results}
    data = {
        "seed": args.seed,
        "hands_per_case": args.hands,
        "repeat": args.repeat,
        "versions": found,
        "cases": [
            {
                "case": r.case.name,
                "description": r.case.description,
                "hands": r.hands,
                "us_per_hand": {lib: r.us(lib) for lib in r.seconds_per_hand},
                "hands_per_s": {lib: 1 / s for lib, s in r.seconds_per_hand.items()},
                "ratio": {peer: r.ratio(peer) for peer in r.seconds_per_hand if peer != "ginrules"},
                "ginrules_wrong": r.ginrules_wrong,
                "ginrules_wrong_examples": [vars(d) for d in r.ginrules_wrong_examples],
                "cross_check": {
                    peer: {
                        "disagreements": c.disagreements,
                        "peer_wrong": c.peer_wrong,
                        "ginrules_wrong": c.ginrules_wrong,
                        "examples": [vars(d) for d in c.examples],
                    }
                    for peer, c in r.checks.items()
                },
            }
            for r in results
        ],
        "targets": [
            {
                "case": t.case,
                "peer": t.peer,
                "required": t.ratio,
                "measured": by_case[t.case].ratio(t.peer),
                "met": by_case[t.case].ratio(t.peer) >= t.ratio,
            }
            for t in TARGETS
        ],
    }
    return json.dumps(data, indent=2)


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--seed", type=int, default=20240611, help="seed for the hands")
    parser.add_argument("--hands", type=int, default=6000, help="hands per case (default 6000)")
    parser.add_argument("--repeat", type=int, default=3, help="timed samples, best kept")
    parser.add_argument(
        "--min-sample",
        type=float,
        default=0.2,
        help="seconds a timed sample lasts at least (whole passes over the hands)",
    )
    parser.add_argument("--examples", type=int, default=5, help="disagreements shown per peer")
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    parser.add_argument(
        "--fail-on-target", action="store_true", help="exit 3 when a speed target is missed"
    )
    args = parser.parse_args(argv)
    if args.hands < 1 or args.repeat < 1 or args.min_sample < 0 or args.examples < 0:
        parser.error("--hands and --repeat must be positive, the others not negative")
    return args


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    found = versions(("ginrules", "open_spiel", "rlcard"))
    results = []
    for case in CASES:
        started = time.perf_counter()
        results.append(run_case(case, args))
        print(f"{case.name}: done in {time.perf_counter() - started:.1f} s", file=sys.stderr)
    print(report_json(results, args, found) if args.json else report_text(results, args, found))
    if any(r.ginrules_wrong for r in results):
        return 1
    by_case = {r.case.name: r for r in results}
    if args.fail_on_target and any(by_case[t.case].ratio(t.peer) < t.ratio for t in TARGETS):
        return 3
    return 0


if __name__ == "__main__":
    sys.exit(main())
