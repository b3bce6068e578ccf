"""The strong and greedy bots decide exactly as when their decisions were pinned
(before issue 15's speed-ups)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.bot_decisions import GAMES, RULESETS, bot_actions, digest

PINS = json.loads((Path(__file__).parent / "bots" / "decisions.json").read_text())


def test_the_pins_cover_every_ruleset_and_seed() -> None:
    assert set(PINS) == {f"{name}/{seed}" for name in RULESETS for seed in range(GAMES)}


@pytest.mark.parametrize("name", RULESETS)
def test_bot_decisions_are_unchanged(name: str) -> None:
    for seed in range(GAMES):
        actions = bot_actions(name, seed)
        pin = PINS[f"{name}/{seed}"]
        assert (len(actions), digest(actions)) == (pin["actions"], pin["digest"]), (
            f"{name} seed {seed}: the bots now play differently"
            f" (first actions: {' / '.join(actions[:6])})"
        )
