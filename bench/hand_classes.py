"""The meld benchmark's hands: its hand classes, how a hand is classified, the reference.

A hand here is in the benchmark's neutral form, a tuple of (rank 0..12, suit
0..3) pairs, suits in ginrules' CDHS order; it depends on none of the three
libraries the benchmark times.

The words the classes use, with the classic ace rule (ace low, no wrap-around):

* a card *can run* when the hand holds three consecutive cards of its suit
  through it (the card and two neighbours on one side, or one on each side);
* a *contested* rank is held three or four times with at least one card that
  can run, so the solver must choose between the set and the run;
* a *knot* is a contested rank with two or more cards that can run, like
  ``7C 7S 7H 8H 9H 8S 9S``.

``classify`` puts every hand in exactly one class, the first that applies:
``knots`` (a knot), ``multi-contested`` (two or three contested ranks, no
knot), ``one-contested`` (exactly one, not a knot) or ``uncontested``. The
same function filters the generated hands (a generator keeps dealing until its
hand is in its class) and reports the class mix of every case.

Also here: the benchmark's cases (each class as 10-card and 11-card hands,
dealt from the seed and the case's name), the exhaustive reference search that
every answer is checked against, and that cross-check.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Final

RANKS: Final = "A23456789TJQK"
SUITS: Final = "CDHS"  # ginrules' suit order; open_spiel uses "scdh", rlcard S H D C

Card = tuple[int, int]
#: A hand in the benchmark's neutral form: (rank 0..12, suit 0..3 in CDHS order).
Hand = tuple[Card, ...]

DECK: Final = tuple((rank, suit) for suit in range(4) for rank in range(13))


def card_text(card: Card) -> str:
    rank, suit = card
    return RANKS[rank] + SUITS[suit]


def hand_text(hand: Iterable[Card]) -> str:
    return " ".join(card_text(c) for c in sorted(hand, key=lambda c: (c[1], c[0])))


def parse_hand(text: str) -> Hand:
    """``"7C 8C 9C"`` as a hand (for examples and checks)."""
    return tuple((RANKS.index(word[0]), SUITS.index(word[1])) for word in text.split())


def card_value(rank: int) -> int:
    return min(rank + 1, 10)


# --- classifying -------------------------------------------------------------


def can_run(held: set[Card] | frozenset[Card], card: Card) -> bool:
    """Whether three consecutive cards of the card's suit, through it, are all held."""
    rank, suit = card
    return any(
        all((r, suit) in held for r in range(low, low + 3))
        for low in range(max(0, rank - 2), min(rank, 10) + 1)
    )


#: The classes in the order ``classify`` tries them, with the words the report uses.
CLASS_LABELS: Final = {
    "knots": "overlap knots",
    "multi-contested": "2-3 contested ranks",
    "one-contested": "one contested rank",
    "uncontested": "no contested rank",
}


@dataclass(frozen=True)
class HandClass:
    """How many contested ranks a hand holds, and how many of them are knots."""

    contested: int
    knots: int

    @property
    def label(self) -> str:
        if self.knots:
            return "knots"
        if self.contested >= 2:
            return "multi-contested"
        return "one-contested" if self.contested else "uncontested"


def classify(hand: Hand) -> HandClass:
    """Count the hand's contested ranks and knots (see the module's docstring)."""
    held = frozenset(hand)
    contested = knots = 0
    for rank in range(13):
        cards = [(rank, s) for s in range(4) if (rank, s) in held]
        if len(cards) < 3:
            continue
        running = sum(can_run(held, c) for c in cards)
        contested += running > 0
        knots += running > 1
    return HandClass(contested, knots)


# --- dealing: the two original classes (unchanged, so old figures stay comparable) ---


def random_hand(rng: random.Random, size: int) -> Hand:
    return tuple(rng.sample(DECK, size))


def random_meld(rng: random.Random) -> set[Card]:
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
        cards: set[Card] = set()
        for _ in range(rng.choice((2, 3))):
            cards |= random_meld(rng)
        if len(cards) <= size:
            break
    rest = [c for c in DECK if c not in cards]
    hand = [*cards, *rng.sample(rest, size - len(cards))]
    rng.shuffle(hand)
    return tuple(hand)


# --- dealing: the contested classes, built and then checked by classify ------


def _fill(rng: random.Random, cards: set[Card], size: int) -> Hand:
    """The cards filled up to ``size`` with random others, in random order."""
    rest = [c for c in DECK if c not in cards]
    hand = [*sorted(cards), *rng.sample(rest, size - len(cards))]
    rng.shuffle(hand)
    return tuple(hand)


def _run_through(rng: random.Random, card: Card, length: int = 3) -> set[Card]:
    """A run of ``length`` cards in the card's suit with the card somewhere in it."""
    rank, suit = card
    low = rng.randint(max(0, rank - length + 1), min(rank, 13 - length))
    return {(r, suit) for r in range(low, low + length)}


def _set_of(rng: random.Random, rank: int, four_chance: float) -> set[Card]:
    """Three cards of the rank, or all four with the given chance."""
    suits = range(4) if rng.random() < four_chance else rng.sample(range(4), 3)
    return {(rank, s) for s in suits}


def _dealt_in_class(
    build: Callable[[random.Random], set[Card]], label: str
) -> Callable[[random.Random, int], Hand]:
    """A generator: build the core cards, fill up, keep the hand if ``classify`` agrees."""

    def deal(rng: random.Random, size: int) -> Hand:
        while True:
            cards = build(rng)
            if len(cards) > size:
                continue
            hand = _fill(rng, cards, size)
            if classify(hand).label == label:
                return hand

    return deal


def _one_contested_core(rng: random.Random) -> set[Card]:
    """A set of three or four and a run of three or four through one of its cards."""
    cards = _set_of(rng, rng.randrange(13), 0.25)
    return cards | _run_through(rng, rng.choice(sorted(cards)), rng.choice((3, 3, 4)))


def _multi_contested_core(rng: random.Random) -> set[Card]:
    """Two or three sets, near (like 6 and 7) or apart, each with a run through a card."""
    if rng.random() < 0.3:  # three sets of consecutive ranks and one run through all three
        low, run_suit = rng.randrange(11), rng.randrange(4)
        others = [s for s in range(4) if s != run_suit]
        chain: set[Card] = set()
        for rank in range(low, low + 3):
            suits = [run_suit, *rng.sample(others, 3 if rng.random() < 0.1 else 2)]
            chain |= {(rank, s) for s in suits}
        return chain
    count = rng.choice((2, 3))
    if rng.random() < (0.8 if count == 3 else 0.5):  # close together: gaps of one or two ranks
        ranks = [rng.randrange(13)]
        for _ in range(count - 1):
            ranks.append(ranks[-1] + rng.choice((1, 1, 2)))
    else:
        ranks = rng.sample(range(13), count)
    if max(ranks) > 12:
        return set(DECK)  # too many cards: dealt again
    cards: set[Card] = set()
    for rank in ranks:
        cards |= _set_of(rng, rank, 0.2)
    for rank in ranks:
        own = sorted(c for c in cards if c[0] == rank)
        if not any(can_run(cards, c) for c in own):
            cards |= _run_through(rng, rng.choice(own), rng.choice((3, 3, 4)))
    return cards


def _knots_core(rng: random.Random) -> set[Card]:
    """One or more knots: a block of ranks by suits, or one set with several runs through it."""
    kind = rng.random()
    suits = rng.sample(range(4), 3)
    if kind < 0.3:  # a 3 x 3 block like 6-7-8 in clubs, hearts and spades: three knots
        low = rng.randrange(11)
        return {(r, s) for r in range(low, low + 3) for s in suits}
    if kind < 0.6:  # two ranks in three suits, two or three of the suits made into runs
        low = rng.randrange(12)
        cards = {(r, s) for r in (low, low + 1) for s in suits}
        for s in rng.sample(suits, rng.choice((2, 3))):
            cards |= _run_through(rng, (low + rng.randrange(2), s))
        return cards
    # One set of three or four (like 7C 7S 7H 8H 9H 8S 9S) with runs through
    # two or three of its cards, sometimes beside another set.
    rank = rng.randrange(13)
    cards = _set_of(rng, rank, 0.35)
    for card in rng.sample(sorted(cards), rng.choice((2, 2, 3))):
        cards |= _run_through(rng, card)
    if rng.random() < 0.3:
        cards |= _set_of(rng, rng.randrange(13), 0.0)
    return cards


one_contested_hand: Final = _dealt_in_class(_one_contested_core, "one-contested")
multi_contested_hand: Final = _dealt_in_class(_multi_contested_core, "multi-contested")
knots_hand: Final = _dealt_in_class(_knots_core, "knots")

#: The most deadwood a near-gin hand may have (after its best discard): it could knock.
NEAR_GIN: Final = 10


def near_gin_hand(rng: random.Random, size: int) -> Hand:
    """Melds (knots included) covering ``size - 2`` to ``size`` cards, and at most
    ``NEAR_GIN`` deadwood by the reference search (after the best discard for 11)."""
    while True:
        target = rng.randint(size - 2, size)
        cards: set[Card] = set()
        while len(cards) < target:
            cards |= random_meld(rng) if rng.random() < 0.75 else _knots_core(rng)
        if len(cards) > size:
            continue
        hand = _fill(rng, cards, size)
        if reference(hand) <= NEAR_GIN:
            return hand


# --- the cases: every class as 10-card and 11-card hands -------------------------


@dataclass(frozen=True)
class Case:
    """One hand class at one hand size, as the benchmark runs it."""

    name: str
    size: int
    kind: str  # the hand class, a key of KIND_LABELS
    make: Callable[[random.Random, int], Hand]
    description: str


KIND_LABELS: Final = {
    "uniform": "random (uniform)",
    "meld-rich": "meld-rich mix",
    "one-contested": CLASS_LABELS["one-contested"],
    "multi-contested": CLASS_LABELS["multi-contested"],
    "knots": CLASS_LABELS["knots"],
    "near-gin": f"near gin (<= {NEAR_GIN} after discard)",
}

#: The classes, in report order: name, kind and generator.
CLASSES: Final[tuple[tuple[str, str, Callable[[random.Random, int], Hand]], ...]] = (
    ("random", "uniform", random_hand),
    ("meld-rich", "meld-rich", meld_rich_hand),
    ("one-contested", "one-contested", one_contested_hand),
    ("multi-contested", "multi-contested", multi_contested_hand),
    ("knots", "knots", knots_hand),
    ("near-gin", "near-gin", near_gin_hand),  # 11 cards only
)


def _cases() -> tuple[Case, ...]:
    cases = []
    for size in (10, 11):
        task = "least deadwood" if size == 10 else "least deadwood after the best discard"
        for name, kind, make in CLASSES:
            if kind != "near-gin" or size == 11:
                label = f"{KIND_LABELS[kind]}, {size} cards: {task}"
                cases.append(Case(f"{name}-{size}", size, kind, make, label))
    return tuple(cases)


CASES: Final = _cases()


def deal(case: Case, count: int, seed: int) -> list[Hand]:
    """The case's hands: the same for the same seed, whatever other cases run."""
    rng = random.Random(f"{seed}:{case.name}")
    return [case.make(rng, case.size) for _ in range(count)]


@dataclass(frozen=True)
class Mix:
    """How many hands of a case fall in each class, and a few counts across classes."""

    classes: dict[str, int]  # every key of CLASS_LABELS
    two_or_more: int  # hands with two or more contested ranks (knots included)
    near_gin: int  # hands with at most NEAR_GIN deadwood (after the best discard for 11)


def class_mix(hands: Sequence[Hand], truth: Sequence[int]) -> Mix:
    """The mix of a case's hands; ``truth`` is the reference's answer for each."""
    found = [classify(h) for h in hands]
    labels = Counter(c.label for c in found)
    return Mix(
        {label: labels[label] for label in CLASS_LABELS},
        sum(c.contested >= 2 for c in found),
        sum(t <= NEAR_GIN for t in truth),
    )


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


# --- cross-checking the libraries' answers against the reference ----------------


@dataclass
class Disagreement:
    """A hand where ginrules and a peer differ, or ginrules and the reference do."""

    hand: str
    ginrules: int
    reference: int
    peer: int | None = None  # None when the line is about ginrules against the reference


@dataclass
class CrossCheck:
    """ginrules against one peer over a case: how often they differ, and who was wrong."""

    disagreements: int = 0
    peer_wrong: int = 0
    ginrules_wrong: int = 0
    examples: list[Disagreement] = field(default_factory=list)


def cross_check(
    hands: Sequence[Hand], answers: dict[str, list[int]], truth: Sequence[int], examples: int
) -> dict[str, CrossCheck]:
    """Each peer's answers (every library after the first, ginrules) against ginrules'."""
    checks: dict[str, CrossCheck] = {}
    ours = answers["ginrules"]
    for peer in list(answers)[1:]:
        check = CrossCheck()
        for hand, o, p, t in zip(hands, ours, answers[peer], truth, strict=True):
            if o == p:
                continue
            check.disagreements += 1
            check.peer_wrong += p != t
            check.ginrules_wrong += o != t
            if len(check.examples) < examples:
                check.examples.append(Disagreement(hand_text(hand), o, t, p))
        checks[peer] = check
    return checks
