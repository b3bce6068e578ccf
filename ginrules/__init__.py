"""ginrules: Gin Rummy rules as data.

Load a table's rules, check them, compile them, and play or score under them::

    >>> import ginrules
    >>> config = ginrules.compile_ruleset(ginrules.load_ruleset("classic"))
    >>> config.knock_limit, config.gin_bonus
    (10, 25)

The names here are the library's face: rulesets (:func:`load_ruleset`,
:func:`load_ruleset_text`, :func:`compile_ruleset`, :class:`EngineConfig`,
:class:`RulesetError`, :class:`Diagnostic`), cards (:class:`Card`,
:func:`parse_cards`), melds (:func:`best_melds`, :func:`deadwood`,
:func:`analyse_discards`), a hand (:class:`Hand`, :class:`Action`,
:class:`IllegalAction`), the score pad (:func:`new_score_pad`,
:class:`HandReport`), games (:func:`new_match`, :class:`GameSession`,
:func:`simulate`). Nothing here imports the web site or the PDF renderer.
"""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("ginrules")
except PackageNotFoundError:  # running from a checkout that is not installed
    __version__ = "0.0.0"

# The version is set first: modules below read it.
from ginrules.cards import Card, CardError, parse_cards
from ginrules.engine.actions import Action, parse_action
from ginrules.engine.hand import Hand
from ginrules.engine.illegal import Illegal, IllegalAction
from ginrules.engine.match import Match, MatchError, new_match
from ginrules.engine.scorepad import (
    HandReport,
    PadEntry,
    ScorePad,
    ScorePadError,
    new_score_pad,
)
from ginrules.engine.scoring import HandEnd, HandScore, Showdown
from ginrules.engine.session import GameSession
from ginrules.engine.settle import SettleError, settle
from ginrules.engine.simulate import Simulation, SimulationInterrupted, simulate
from ginrules.melds import AceRule, Arrangement, Meld, analyse_discards, best_melds, deadwood
from ginrules.rules.compile import EngineConfig, compile_ruleset
from ginrules.rules.diagnostics import Diagnostic, RulesetError
from ginrules.rules.load import Ruleset, load_ruleset, load_ruleset_text

__all__ = [
    "AceRule",
    "Action",
    "Arrangement",
    "Card",
    "CardError",
    "Diagnostic",
    "EngineConfig",
    "GameSession",
    "Hand",
    "HandEnd",
    "HandReport",
    "HandScore",
    "Illegal",
    "IllegalAction",
    "Match",
    "MatchError",
    "Meld",
    "PadEntry",
    "Ruleset",
    "RulesetError",
    "ScorePad",
    "ScorePadError",
    "SettleError",
    "Showdown",
    "Simulation",
    "SimulationInterrupted",
    "__version__",
    "analyse_discards",
    "best_melds",
    "compile_ruleset",
    "deadwood",
    "load_ruleset",
    "load_ruleset_text",
    "new_match",
    "new_score_pad",
    "parse_action",
    "parse_cards",
    "settle",
    "simulate",
]
