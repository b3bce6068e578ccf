"""The ``round`` kind of golden case: a partnership round played through the engine.

A round is the two pairings' hands of one partnership deal. Under
``format.partnership_deck: shared`` both come from one deck and share one
stock, taking turns (:mod:`ginrules.engine.rounds`); under ``per_pairing``
each has its own deck. See ``tests/cases/README.md`` for the format.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any, Final

from ginrules.cards import DECK, Card
from ginrules.engine.match import Deal
from ginrules.engine.rounds import Round, SharedDeck, new_round
from ginrules.rules.compile import EngineConfig, PartnershipDeck
from ginrules.words.problems import message
from tests.golden import (
    _SCORE_KEYS,
    Case,
    CaseFormatError,
    _action,
    _cards,
    _check,
    _check_hand_state,
    _check_score,
    _Stop,
)

SETUP_KEYS: Final = frozenset({"seed", "dealers", "pairings", "stock", "actions"})
EXPECT_KEYS: Final = frozenset({"turn", "stock_left", "pairings"})
PAIRING_KEYS: Final = frozenset({"non_dealer_cards", "dealer_cards", "upcard"})
PAIRING_EXPECT_KEYS: Final = _SCORE_KEYS | {
    "knocker",
    "phase",
    "to_move",
    "knock_limit",
    "stock_left",
    "cards_held",
    "upcard",
}
#: The table seats of each pairing in a partnership's first hand.
SEATS: Final = ((0, 1), (2, 3))
_MOVE: Final = re.compile(r"(?P<pairing>[12])\.(?P<seat>[01])\s*:\s*(?P<action>.+)")
_RUN: Final = re.compile(r"draw-discard\s+(?P<turns>\d+)")


def check_setup(setup: Mapping[str, Any], expect: Mapping[str, Any], where: str) -> None:
    """Refuse a malformed round case before it runs."""
    if ("seed" in setup) == ("pairings" in setup):
        raise CaseFormatError(f"{where}.round: deal from a 'seed' or lay out 'pairings'")
    for pairing in setup.get("pairings", []):
        if not isinstance(pairing, dict) or set(pairing) - PAIRING_KEYS:
            raise CaseFormatError(f"{where}.round.pairings: keys are {sorted(PAIRING_KEYS)}")
    for text in setup.get("actions") or []:
        if not (_MOVE.fullmatch(str(text)) or _RUN.fullmatch(str(text))):
            raise CaseFormatError(
                f"{where}.round.actions: {text!r} is not 'P.S: action' or 'draw-discard N'"
            )
    pairings = expect.get("pairings", [])
    if not isinstance(pairings, list) or len(pairings) > 2:
        raise CaseFormatError(f"{where}.expect.pairings: a list of one mapping per pairing")
    for pairing in pairings:
        if not isinstance(pairing, dict) or set(pairing) - PAIRING_EXPECT_KEYS:
            raise CaseFormatError(f"{where}.expect.pairings: keys are the hand kind's")


def _laid_out(setup: Mapping[str, Any], config: EngineConfig, where: str) -> list[Card]:
    """The one deck that deals the laid-out pairings (see :class:`SharedDeck`)."""
    size = config.hand_size
    deck: list[Card | None] = [None] * len(DECK)
    for p, pairing in enumerate(setup["pairings"]):
        non_dealer = _cards(pairing.get("non_dealer_cards", ""), where)
        dealer = _cards(pairing.get("dealer_cards", ""), where)
        if len(non_dealer) != size or len(dealer) != size:
            raise CaseFormatError(f"{where}: each player of a pairing holds {size} cards")
        for k, card in enumerate(c for pair in zip(non_dealer, dealer, strict=True) for c in pair):
            deck[p + 2 * k] = card
        deck[4 * size + p] = _cards(pairing["upcard"], where)[0]
    placed = [card for card in deck if card is not None]
    stock = _cards(setup.get("stock", ""), where) if setup.get("stock") else []
    rest = [card for card in DECK if card not in placed and card not in stock]
    full = placed + stock + rest
    if len(set(full)) != len(DECK):
        raise CaseFormatError(f"{where}: a card is laid out twice")
    return full


def _deal_round(case: Case, config: EngineConfig) -> Round:
    setup = case.setup
    dealers = setup.get("dealers", [0, 0])
    seed = int(setup.get("seed", 0))
    deals = [Deal(SEATS[p], int(dealers[p]), seed) for p in range(2)]
    if "pairings" in setup:
        if config.partnership_deck is not PartnershipDeck.SHARED:
            raise _Stop("laid-out pairings are dealt from one shared deck; these rules deal two")
        return SharedDeck(config, deals, _laid_out(setup, config, case.name))
    return new_round(config, deals)


def _play(round_: Round, text: str) -> None:
    run = _RUN.fullmatch(text)
    if run is not None:
        for _ in range(int(run["turns"])):
            index = round_.current()
            if index is None:
                raise _Stop(f"{text}: the round ended first")
            hand = round_.hands[index]
            card = hand.stock[-1]
            round_.apply(index, _action("draw", text))
            round_.apply(index, _action(f"discard {card}", text))
        return
    move = _MOVE.fullmatch(text)
    assert move is not None
    index = int(move["pairing"]) - 1
    if round_.current() != index:
        raise _Stop(f"{text}: it is pairing {_shown(round_.current())}'s turn")
    seat = int(move["seat"])
    if round_.hands[index].to_move != seat:
        raise _Stop(f"{text}: seat {round_.hands[index].to_move} of that pairing is to move")
    round_.apply(index, _action(move["action"], text))


def _shown(index: int | None) -> str:
    return "none" if index is None else str(index + 1)


def run_round(case: Case, config: EngineConfig, failures: list[str]) -> None:
    round_ = _deal_round(case, config)
    for number, text in enumerate(case.setup.get("actions") or [], 1):
        try:
            _play(round_, str(text))
        except ValueError as error:
            raise _Stop(f"action {number} ({text}) was refused: {message(error)}") from None
    expect = case.expect
    current = round_.current()
    if "turn" in expect:
        _check(failures, "turn", expect["turn"], None if current is None else current + 1)
    if "stock_left" in expect:
        _check(failures, "stock_left", expect["stock_left"], len(round_.hands[0].stock))
    wanted: Sequence[Mapping[str, Any]] = expect.get("pairings", [])
    for p, (pairing, hand) in enumerate(zip(wanted, round_.hands, strict=False), 1):
        before = len(failures)
        _check_hand_state(failures, pairing, hand)
        if set(pairing) & (_SCORE_KEYS | {"knocker"}):
            if not hand.over:
                failures.append(f"expected the hand to be over, but it waits in {hand.phase}")
            else:
                _check_score(failures, pairing, hand.showdown, hand_seats=True)
        failures[before:] = [f"pairing {p}: {failure}" for failure in failures[before:]]
