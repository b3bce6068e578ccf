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

from ginrules.melds.arrange import (
    MeldError,
    MeldProblem,
    analyse_discards,
    best_arrangements,
    best_melds,
    deadwood,
    make_meld,
    run_card,
)
from ginrules.melds.model import (
    CLASSIC_ACES,
    AceMode,
    AceRule,
    Arrangement,
    DiscardAnalysis,
    Meld,
    MeldKind,
    rank_value,
)
from ginrules.melds.search import (
    MeldScorer,
    best_discard_deadwood_of_mask,
    deadwood_of_mask,
    scorer,
)

__all__ = [
    "CLASSIC_ACES",
    "AceMode",
    "AceRule",
    "Arrangement",
    "DiscardAnalysis",
    "Meld",
    "MeldError",
    "MeldKind",
    "MeldProblem",
    "MeldScorer",
    "analyse_discards",
    "best_arrangements",
    "best_discard_deadwood_of_mask",
    "best_melds",
    "deadwood",
    "deadwood_of_mask",
    "make_meld",
    "rank_value",
    "run_card",
    "scorer",
]
