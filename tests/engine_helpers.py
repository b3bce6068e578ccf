"""Small builders shared by the engine tests."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

from ginrules.cards import parse_cards
from ginrules.engine.actions import DEFEND_BEST, parse_action
from ginrules.engine.hand import Hand
from ginrules.rules.compile import EngineConfig, compile_ruleset
from ginrules.rules.load import load_ruleset, load_ruleset_text

ROOT = Path(__file__).resolve().parent.parent


@cache
def config(name: str) -> EngineConfig:
    return compile_ruleset(load_ruleset(name))


def config_with(base: str, yaml_overrides: str) -> EngineConfig:
    """A base ruleset with a few knobs changed, written as YAML."""
    text = f"extends: {base}\n{yaml_overrides}"
    return compile_ruleset(load_ruleset_text(text, "test-overlay", ROOT / "rulesets"))


def hand(
    cfg: EngineConfig,
    non_dealer: str,
    dealer: str,
    upcard: str | None = None,
    stock: str = "",
    dealer_seat: int = 0,
) -> Hand:
    return Hand.from_cards(
        cfg,
        dealer=dealer_seat,
        non_dealer_cards=parse_cards(non_dealer),
        dealer_cards=parse_cards(dealer),
        upcard=parse_cards(upcard)[0] if upcard else None,
        stock=parse_cards(stock) if stock else [],
    )


def play(h: Hand, *moves: str) -> Hand:
    for move in moves:
        h.apply(DEFEND_BEST if move == "defend" else parse_action(move))
    return h


def snapshot(h: Hand) -> tuple[Any, ...]:
    """Everything that makes up a hand's state, to prove an action changed nothing."""
    return (
        tuple(h.hands),
        tuple(h.stock),
        tuple(h.pile),
        h.phase,
        h.to_move,
        h.taken,
        h.offers,
        h.stock_only,
        h.must_knock,
        tuple(h.turns),
        tuple(h.took),
        tuple(h.discarded),
        tuple(h.history),
        h.showdown,
        h.dead,
    )
