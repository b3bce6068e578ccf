"""Meld/deadwood benchmark: ginrules against open_spiel and rlcard per hand class, same hands.

Run it through ``bench/run.sh``, which builds ``bench/.venv`` with the two peer
libraries (``rlcard==1.2.0`` and ``open_spiel==2.0.2``, never project
dependencies) and ginrules itself installed in editable mode.

The cases: each hand class dealt from a fixed seed (``bench/hand_classes.py``),
as 10-card hands (least deadwood) and as 11-card hands (least deadwood after
the best discard). A *contested* rank is held three or four times with at least
one card that can also run (three consecutive cards of its suit, ace low); a
*knot* is a contested rank with two or more cards that can run.

* ``random-N``: random (uniform) hands.
* ``meld-rich-N``: two or three real melds, knots included, filled up at random
  (the original meld-rich mix: same generator and seeds as before).
* ``one-contested-N``: exactly one contested rank, and not a knot.
* ``multi-contested-N``: two or three contested ranks, no knot, like
  ``6H 7S QH 8D 9D 7C 6D 6C 9C 7D``; near ranks and ranks apart, fours of a
  kind sometimes.
* ``knots-N``: at least one knot, like ``7C 7S 7H 8H 9H 8S 9S``; often two or
  three (a block such as 6-7-8 in three suits).
* ``near-gin-11``: melds covering 9 to 11 cards and at most 10 deadwood after
  the best discard by the reference search: hands that could knock or go gin.

The contested classes are built (sets with runs through them, filled up at
random) and kept only when ``hand_classes.classify`` puts them in their class;
the same function reports every case's class mix.

What happens, per case:

1. The hands are dealt and converted to each library's own representation
   *before* any timing: a bit mask for ginrules, open_spiel card ints, rlcard
   ``Card`` lists.
2. A coarse pass times every hand on its own (a few calls for ginrules and
   open_spiel, one for rlcard and open_spiel made exact) and keeps the answers.
   The answers are cross-checked against each other and against a small
   exhaustive reference search (independent of all three libraries). Every
   disagreement is counted and shown, and says who was wrong.
3. The mean: each library on all the hands, best of ``--repeat`` samples, a
   sample being enough whole passes over the hands to last ``--min-sample``
   seconds, with the garbage collector off.
4. The worst single hand: each library's ``--candidates`` slowest hands of the
   coarse pass are re-timed, best of several samples (five; three for rlcard)
   of about a millisecond of calls each (one call when a call takes longer),
   with the garbage collector off; the slowest of them is the library's worst
   hand. Every library is also timed that way on ginrules' worst hand.
   All times are wall-clock: on a busy machine the long samples of the means
   lose more to other processes than the short ones, so use a quiet machine.

What each library is asked:

* ginrules: ``deadwood_of_mask(mask)`` for 10 cards and
  ``best_discard_deadwood_of_mask(mask)`` for 11 cards.
* open_spiel: ``pyspiel.gin_rummy.GinRummyUtils(13, 4, 10).min_deadwood(cards)``.
  For 11 cards (``hand_size + 1``) its C++ ``MinDeadwood`` takes the meld
  group that melds the most points over all 11 cards and then drops that
  group's highest-ranked unmatched card: one call, but not always the best
  discard (ties between meld groups are broken by search order). So for 11
  cards the targets use ``open_spiel_discards``, open_spiel made exact: the
  least of its 10-card ``min_deadwood`` over the 11 discards.
* rlcard: ``melding.get_best_meld_clusters(hand)`` then
  ``utils.get_deadwood_count(hand, best[0] if best else [])``, the idiom of
  rlcard's own scorer. Both refuse anything but 10 cards and rlcard has no
  best-discard call, so for 11 cards the benchmark takes the least of that
  over the 11 possible discards (the 11 ten-card sub-hands are built before
  timing).

Exit status: 0, or 1 when ginrules disagrees with the reference on any hand
(3 instead of 0 with ``--fail-on-target`` when a target is missed).
"""

from __future__ import annotations

import argparse
import gc
import json
import math
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Final, TypeVar

from benchlib import format_table, versions
from hand_classes import (
    CASES,
    CLASS_LABELS,
    KIND_LABELS,
    NEAR_GIN,
    RANKS,
    SUITS,
    Case,
    CrossCheck,
    Disagreement,
    Hand,
    Mix,
    card_text,
    class_mix,
    cross_check,
    deal,
    hand_text,
    reference,
)

LIBRARIES: Final = ("ginrules", "open_spiel", "rlcard")
#: Shown beside the table for 11-card cases: open_spiel made exact the way rlcard is.
EXACT_11: Final = "open_spiel_discards"
PEER_PINS: Final = {"open_spiel": "2.0.2", "rlcard": "1.2.0"}
H = TypeVar("H")


# --- the three libraries: conversion (untimed) and the call that is timed ----


@dataclass(frozen=True)
class Prepared:
    """One library on one case: its call and the hands already converted for it."""

    fn: Callable[[Any], int]
    inputs: Sequence[Any]

    def run_once(self) -> None:
        fn = self.fn
        for x in self.inputs:
            fn(x)


def prepare(fn: Callable[[H], int], hands: Sequence[H]) -> Prepared:
    return Prepared(fn, list(hands))


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


# --- timing ------------------------------------------------------------------------

#: Calls per hand in the coarse pass, and samples per re-timed hand (rlcard is ~100x slower).
COARSE_CALLS: Final = {"ginrules": 3, "open_spiel": 3, "rlcard": 1, EXACT_11: 1}
RETIME_SAMPLES: Final = {"ginrules": 5, "open_spiel": 5, "rlcard": 3, EXACT_11: 5}
#: How long one sample of a re-timed hand lasts (as many calls as fit, at least one).
RETIME_SECONDS: Final = 0.001


@contextmanager
def gc_off() -> Iterator[None]:
    """The garbage collector off for the block (its pauses would land on random hands)."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def coarse_pass(prepared: Prepared, calls: int) -> tuple[list[int], list[float]]:
    """Every hand's answer and its seconds per call (``calls`` calls), gc off."""
    fn = prepared.fn
    answers: list[int] = []
    seconds: list[float] = []
    fn(prepared.inputs[0])  # warm-up: tables built on the first call are not a hand's cost
    with gc_off():
        for x in prepared.inputs:
            start = time.perf_counter()
            answers.append(fn(x))
            for _ in range(calls - 1):
                fn(x)
            seconds.append((time.perf_counter() - start) / calls)
    return answers, seconds


def time_per_hand(
    prepared: Prepared, count: int, one_pass: float, repeat: int, min_sample: float
) -> float:
    """Seconds per hand: best of ``repeat`` samples, each of whole passes over the hands.

    ``one_pass`` (seconds, from the coarse pass) sets how many passes make a
    sample last ``min_sample`` seconds.
    """
    passes = max(1, math.ceil(min_sample / max(one_pass, 1e-9)))
    best = math.inf
    with gc_off():
        for _ in range(repeat):
            start = time.perf_counter()
            for _ in range(passes):
                prepared.run_once()
            best = min(best, (time.perf_counter() - start) / passes)
    return best / count


def retime(prepared: Prepared, index: int, samples: int) -> float:
    """Seconds per call on one hand: best of ``samples`` samples of about
    ``RETIME_SECONDS`` of calls each (call with the gc off)."""
    fn, x = prepared.fn, prepared.inputs[index]
    start = time.perf_counter()
    fn(x)
    once = time.perf_counter() - start
    calls = max(1, min(5000, round(RETIME_SECONDS / max(once, 1e-9))))
    best = math.inf
    for _ in range(samples):
        start = time.perf_counter()
        for _ in range(calls):
            fn(x)
        best = min(best, (time.perf_counter() - start) / calls)
    return best


# --- one case ------------------------------------------------------------------


@dataclass(frozen=True)
class Worst:
    """A library's slowest hand of a case, re-timed."""

    hand: str
    us: float


@dataclass
class CaseResult:
    case: Case
    hands: int
    seconds_per_hand: dict[str, float]
    ginrules_wrong: int
    ginrules_wrong_examples: list[Disagreement]
    checks: dict[str, CrossCheck]
    mix: Mix
    worst: dict[str, Worst]  # each library's own slowest hand
    on_ginrules_worst: dict[str, float]  # µs of every library on ginrules' slowest hand

    def us(self, lib: str) -> float:
        return self.seconds_per_hand[lib] * 1e6

    def ratio(self, peer: str) -> float:
        return self.seconds_per_hand[peer] / self.seconds_per_hand["ginrules"]


def run_case(case: Case, args: argparse.Namespace) -> CaseResult:
    hands = deal(case, args.hands, args.seed)
    libs = libraries_for(case)
    prepared = {lib: PREPARERS[lib](case, hands) for lib in libs}
    answers: dict[str, list[int]] = {}
    coarse: dict[str, list[float]] = {}
    for lib in libs:
        answers[lib], coarse[lib] = coarse_pass(prepared[lib], COARSE_CALLS[lib])
    truth = [reference(h) for h in hands]
    wrong = [
        Disagreement(hand_text(h), o, t)
        for h, o, t in zip(hands, answers["ginrules"], truth, strict=True)
        if o != t
    ]
    checks = cross_check(hands, answers, truth, args.examples)

    seconds = {
        lib: time_per_hand(
            prepared[lib], len(hands), sum(coarse[lib]), args.repeat, args.min_sample
        )
        for lib in libs
    }
    worst, on_ours = worst_hands(prepared, coarse, hands, args.candidates)
    mix = class_mix(hands, truth)
    bad = wrong[: args.examples]
    return CaseResult(case, len(hands), seconds, len(wrong), bad, checks, mix, worst, on_ours)


def worst_hands(
    prepared: dict[str, Prepared],
    coarse: dict[str, list[float]],
    hands: Sequence[Hand],
    candidates: int,
) -> tuple[dict[str, Worst], dict[str, float]]:
    """Each library's slowest hand (its ``candidates`` slowest of the coarse pass
    re-timed), and every library's µs on ginrules' slowest hand."""
    timed: dict[str, dict[int, float]] = {}
    with gc_off():
        for lib, prep in prepared.items():
            slowest = sorted(range(len(hands)), key=coarse[lib].__getitem__)[-candidates:]
            timed[lib] = {i: retime(prep, i, RETIME_SAMPLES[lib]) for i in slowest}
        ours = max(timed["ginrules"], key=timed["ginrules"].__getitem__)
        for lib, prep in prepared.items():
            if ours not in timed[lib]:
                timed[lib][ours] = retime(prep, ours, RETIME_SAMPLES[lib])
    worst = {}
    for lib, times in timed.items():
        index = max(times, key=times.__getitem__)
        worst[lib] = Worst(hand_text(hands[index]), times[index] * 1e6)
    return worst, {lib: times[ours] * 1e6 for lib, times in timed.items()}


# --- targets and output ------------------------------------------------------------


@dataclass(frozen=True)
class Target:
    """A speed-up over a peer (``peer`` set), or a bound on ginrules' worst hand in µs."""

    case: str
    peer: str | None
    bound: float

    def measured(self, r: CaseResult) -> float:
        return r.worst["ginrules"].us if self.peer is None else r.ratio(self.peer)

    def met(self, r: CaseResult) -> bool:
        got = self.measured(r)
        return got < self.bound if self.peer is None else got >= self.bound

    def text(self, r: CaseResult) -> str:
        got = self.measured(r)
        if self.peer is None:
            need = f"worst ginrules hand: need < {self.bound:g} µs, got {got:.2f} µs"
        else:
            need = f"vs {self.peer}: need >= {self.bound:g}x, got {got:.2f}x"
        return f"{self.case} {need}: {'met' if self.met(r) else 'NOT MET'}"


def _targets() -> tuple[Target, ...]:
    """The issue's targets: 10 cards 3x open_spiel (uniform 2.5x, meld-rich 5x), 25x rlcard
    and the worst hand under 5 µs; 11 cards 12x open_spiel made exact, 100x rlcard."""
    out: list[Target] = []
    for case in CASES:
        if case.size == 10:
            need = {"uniform": 2.5, "meld-rich": 5.0}.get(case.kind, 3.0)
            out += [
                Target(case.name, "open_spiel", need),
                Target(case.name, "rlcard", 25.0),
                Target(case.name, None, 5.0),
            ]
        else:
            out += [Target(case.name, EXACT_11, 12.0), Target(case.name, "rlcard", 100.0)]
    return tuple(out)


TARGETS: Final = _targets()


def targets_for(results: Sequence[CaseResult]) -> list[tuple[Target, CaseResult]]:
    """The targets of the cases that ran, each with its case's result."""
    by_case = {r.case.name: r for r in results}
    return [(t, by_case[t.case]) for t in TARGETS if t.case in by_case]


def _cell(value: float | None) -> str:
    return "" if value is None else f"{value:.2f}" if value < 100 else f"{value:.0f}"


def report_text(results: list[CaseResult], args: argparse.Namespace, found: dict[str, str]) -> str:
    out = [
        f"meld benchmark: seed {args.seed}, {args.hands} hands per case; means: best of"
        f" {args.repeat} samples of >= {args.min_sample:g} s; worst hands: the {args.candidates}"
        " slowest of a coarse pass per library, re-timed",
        "versions: " + ", ".join(f"{k} {v}" for k, v in found.items()),
    ]
    for lib, pin in PEER_PINS.items():
        if found[lib] != pin:
            out.append(f"NOTE: {lib} {found[lib]} is installed, not the pinned {pin}")
    out += [
        "11 cards: ginrules best_discard_deadwood_of_mask (exact); open_spiel its own",
        "  min_deadwood on 11 cards (the meld group melding the most points less its highest",
        f"  unmatched card: one C++ call, not exact); {EXACT_11} and rlcard the least of their",
        "  10-card deadwood over the 11 discards (exact; the 11-card targets use open_spiel's)",
        "",
        "mean µs per hand:",
    ]
    rows = [["case", "class", "ginrules", "open_spiel", "rlcard", EXACT_11]]
    rows[0] += ["vs open_spiel", "vs rlcard", f"vs {EXACT_11}"]
    for r in results:
        exact = EXACT_11 in r.seconds_per_hand
        rows.append(
            [r.case.name, KIND_LABELS[r.case.kind]]
            + [_cell(r.us(lib)) for lib in LIBRARIES]
            + [_cell(r.us(EXACT_11) if exact else None)]
            + [f"{r.ratio('open_spiel'):.2f}x", f"{r.ratio('rlcard'):.1f}x"]
            + [f"{r.ratio(EXACT_11):.2f}x" if exact else ""]
        )
    out += [format_table(rows), "", "slowest single hand for ginrules, every library on it (µs):"]
    rows = [["case", "ginrules", "open_spiel", "rlcard", EXACT_11, "hand"]]
    for r in results:
        on = r.on_ginrules_worst
        cells = [_cell(on.get(lib)) for lib in (*LIBRARIES, EXACT_11)]
        rows.append([r.case.name, *cells, r.worst["ginrules"].hand])
    out += [format_table(rows), "", "each library's own slowest single hand (µs):"]
    rows = [["case", "ginrules", "open_spiel", "rlcard", EXACT_11]]
    for r in results:
        cells = [
            _cell(r.worst[lib].us if lib in r.worst else None) for lib in (*LIBRARIES, EXACT_11)
        ]
        rows.append([r.case.name, *cells])
    out += [format_table(rows), ""]
    out.append(
        "class mix (classes exclusive, first that applies: knots, 2-3 contested, one, none;"
        f" '2+ contested' counts knot hands too; 'near gin': at most {NEAR_GIN} deadwood):"
    )
    rows = [["case", "hands", *CLASS_LABELS.values(), "2+ contested", "near gin"]]
    for r in results:
        m = r.mix
        counts = [str(m.classes[k]) for k in CLASS_LABELS]
        rows.append([r.case.name, str(r.hands), *counts, str(m.two_or_more), str(m.near_gin)])
    out += [format_table(rows), ""]
    out += ["cross-check on every hand (reference: an exhaustive search in hand_classes.py):"]
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
    out += ["", "targets (speed-ups: how many times faster ginrules must be than the peer):"]
    out += [f"  {t.text(r)}" for t, r in targets_for(results)]
    return "\n".join(out)


def report_json(results: list[CaseResult], args: argparse.Namespace, found: dict[str, str]) -> str:
    data = {
        "seed": args.seed,
        "hands_per_case": args.hands,
        "repeat": args.repeat,
        "candidates": args.candidates,
        "versions": found,
        "cases": [
            {
                "case": r.case.name,
                "class": r.case.kind,
                "description": r.case.description,
                "hands": r.hands,
                "us_per_hand": {lib: r.us(lib) for lib in r.seconds_per_hand},
                "hands_per_s": {lib: 1 / s for lib, s in r.seconds_per_hand.items()},
                "ratio": {peer: r.ratio(peer) for peer in r.seconds_per_hand if peer != "ginrules"},
                "worst": {lib: vars(w) for lib, w in r.worst.items()},
                "ginrules_worst": {
                    "hand": r.worst["ginrules"].hand,
                    "us": r.on_ginrules_worst,
                },
                "class_mix": {
                    **r.mix.classes,
                    "two_or_more_contested": r.mix.two_or_more,
                    "near_gin": r.mix.near_gin,
                },
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
                "kind": "worst_us" if t.peer is None else "ratio",
                "required": t.bound,
                "measured": t.measured(r),
                "met": t.met(r),
            }
            for t, r in targets_for(results)
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
    parser.add_argument(
        "--candidates",
        type=int,
        default=20,
        help="slowest hands of the coarse pass re-timed per library (default 20)",
    )
    parser.add_argument(
        "--cases",
        default=",".join(c.name for c in CASES),
        help="comma-separated cases to run (default: all): " + ", ".join(c.name for c in CASES),
    )
    parser.add_argument("--examples", type=int, default=5, help="disagreements shown per peer")
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    parser.add_argument(
        "--fail-on-target", action="store_true", help="exit 3 when a target is missed"
    )
    args = parser.parse_args(argv)
    if min(args.hands, args.repeat, args.candidates) < 1 or min(args.min_sample, args.examples) < 0:
        parser.error("--hands, --repeat and --candidates must be positive, the others not negative")
    known = {c.name: c for c in CASES}
    names = [n.strip() for n in args.cases.split(",") if n.strip()]
    unknown = [n for n in names if n not in known]
    if unknown or not names:
        parser.error(
            f"unknown case(s) {', '.join(unknown) or '(none given)'}; known: {', '.join(known)}"
        )
    args.case_list = [c for c in CASES if c.name in names]
    return args


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    found = versions(("ginrules", "open_spiel", "rlcard"))
    results = []
    for case in args.case_list:
        started = time.perf_counter()
        results.append(run_case(case, args))
        print(f"{case.name}: done in {time.perf_counter() - started:.1f} s", file=sys.stderr)
    print(report_json(results, args, found) if args.json else report_text(results, args, found))
    if any(r.ginrules_wrong for r in results):
        return 1
    if args.fail_on_target and not all(t.met(r) for t, r in targets_for(results)):
        return 3
    return 0


if __name__ == "__main__":
    sys.exit(main())
