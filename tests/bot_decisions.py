"""Every action the strong and greedy bots take on seeded games, as digests
to pin their decisions.

The bots are tuned for speed (issue 15) without changing what they do:
``tests/test_bot_decisions.py`` plays the same seeded games as when the pins
were recorded and compares a digest of the actions each bot chose in each
game. Record the pins again only for a change that *means* to alter the bots'
play: ``python -m tests.bot_decisions > tests/bots/decisions.json``.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Sequence

from ginrules.engine.actions import Action
from ginrules.engine.bots import Bot, make_bot
from ginrules.engine.hand import Observation
from ginrules.engine.match import new_match
from tests.engine_helpers import config

#: Rulesets whose rules reach the bot's decisions: the ace, the knock limit
#: (Oklahoma's upcard, straight gin), big gin, four players in partnership.
RULESETS = ("classic", "oklahoma", "straight-gin", "ace-high", "big-gin-31", "partnership")
#: Matches per ruleset (a match is a whole game to its target).
GAMES = 6


class Recorder:
    """A bot that plays as another bot and writes down every action it chooses."""

    def __init__(self, inner: Bot, log: list[str]) -> None:
        self.inner = inner
        self.name = inner.name
        self.observes = inner.observes
        self.log = log

    def choose(
        self, observation: Observation | None, legal: Sequence[Action], rng: random.Random
    ) -> Action:
        action = self.inner.choose(observation, legal, rng)
        self.log.append(f"{self.name}: {action}")
        return action


def bot_actions(name: str, seed: int) -> list[str]:
    """Every action, in order and named by bot, of one seeded strong-against-greedy match."""
    cfg = config(name)
    log: list[str] = []
    match = new_match(cfg, seed)
    strong = Recorder(make_bot("strong", cfg.ace), log)
    greedy = Recorder(make_bot("greedy", cfg.ace), log)
    seating = [strong if seat % 2 == seed % 2 else greedy for seat in range(match.players)]
    match.play(seating)
    return log


def digest(actions: list[str]) -> str:
    return hashlib.sha256("\n".join(actions).encode()).hexdigest()[:16]


def record() -> dict[str, dict[str, object]]:
    """Per ruleset and seed: how many actions the bots took and their digest."""
    pins: dict[str, dict[str, object]] = {}
    for name in RULESETS:
        for seed in range(GAMES):
            actions = bot_actions(name, seed)
            pins[f"{name}/{seed}"] = {"actions": len(actions), "digest": digest(actions)}
    return pins


if __name__ == "__main__":
    print(json.dumps(record(), indent=2, sort_keys=True))
