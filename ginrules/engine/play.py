"""Playing hands with players: the loop that asks each player in turn."""

from __future__ import annotations

import random
from collections.abc import Sequence

from ginrules.engine.bots import Bot
from ginrules.engine.hand import Hand, Phase


def play_hand(hand: Hand, players: Sequence[Bot], rngs: Sequence[random.Random]) -> Hand:
    """Play ``hand`` to its end; ``players[seat]`` moves for each seat."""
    over = Phase.OVER  # looked up once: an enum member costs ~65 ns on Python 3.11
    legal_actions = hand.legal_actions
    apply = hand.apply
    choosers = [player.choose for player in players]
    observes = [player.observes for player in players]
    while hand.phase is not over:
        seat = hand.to_move
        observation = hand.observation(seat) if observes[seat] else None
        apply(choosers[seat](observation, legal_actions(), rngs[seat]))
    return hand
