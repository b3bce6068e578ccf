"""Properties of whole seeded games under every shipped ruleset.

For every ruleset and house rule, bots play seeded matches while a referee
checks after every action that the 52 cards are all still there, once; that
every action outside the legal list is refused and changes nothing, and every
action in it is accepted; that match scores add up from the hands; and that
every hand's record replays to the same result.
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ginrules.cards import DECK, cards_to_mask
from ginrules.engine.actions import BIG_GIN, DEFEND_BEST, DRAW_STOCK, PASS, TAKE, discard, knock
from ginrules.engine.bots import Bot, RandomBot, make_bot
from ginrules.engine.hand import Hand, Phase
from ginrules.engine.illegal import IllegalAction
from ginrules.engine.match import HandOutcome, new_match
from ginrules.engine.record import replay
from ginrules.rules import locate
from ginrules.rules.compile import BoxTiming, EngineConfig, PartnershipDeck, Shutout
from tests.engine_helpers import config, config_with, snapshot

RULESETS = [entry.name for entry in locate.entries()]
THREE_HANDED = "format: {type: three_handed, players: 3}\n"
FULL_DECK = cards_to_mask(DECK)
EVERY_SIMPLE_ACTION = (
    PASS,
    DRAW_STOCK,
    TAKE,
    BIG_GIN,
    DEFEND_BEST,
    *(discard(c) for c in DECK),
    *(knock(c) for c in DECK),
)


def check_cards(h: Hand) -> None:
    """Every card is in exactly one place: a hand, the stock, the pile or face down."""
    places = [*h.hands, cards_to_mask(h.stock), cards_to_mask(h.pile)]
    if h.knock_discard is not None:
        places.append(h.knock_discard.bit)
    total = 0
    for mask in places:
        assert not total & mask, "a card is in two places"
        total |= mask
    assert total == FULL_DECK
    assert sum(m.bit_count() for m in places) == 52


def referee_hand(
    h: Hand, players: Sequence[Bot], rngs: Sequence[random.Random], probe: random.Random
) -> None:
    """Play a hand like play_hand, checking the rules after every action."""
    while h.phase is not Phase.OVER:
        seat = h.to_move
        legal = h.legal_actions()
        assert legal, f"no legal action in {h.phase}"
        assert len(set(legal)) == len(legal)
        # A few actions outside the legal list: each refused, the hand unchanged.
        outside = [a for a in EVERY_SIMPLE_ACTION if a not in legal]
        before = snapshot(h)
        for action in probe.sample(outside, min(4, len(outside))):
            with pytest.raises(IllegalAction):
                h.apply(action)
            assert snapshot(h) == before
        # Every legal action is accepted (tried on a copy).
        if probe.random() < 0.2:
            for action in legal:
                h.copy().apply(action)
        player = players[seat]
        observation = h.observation(seat) if player.observes else None
        action = player.choose(observation, legal, rngs[seat])
        assert action in legal
        h.apply(action)
        check_cards(h)
    assert (h.showdown is None) == h.dead


def play_refereed_match(cfg: EngineConfig, seed: int, names: Sequence[str]) -> None:
    match = new_match(cfg, seed)
    bots = [make_bot(names[seat % len(names)], cfg.ace) for seat in range(match.players)]
    rngs = [random.Random(seed * 10 + seat) for seat in range(match.players)]
    probe = random.Random(seed)
    hand_points: list[int] = [0] * match.players
    while not match.finished:
        outcomes = []
        for deal in match.deals():
            h = deal.hand(cfg)
            referee_hand(h, [bots[s] for s in deal.seats], [rngs[s] for s in deal.seats], probe)
            record = json.loads(json.dumps(h.to_record()))
            assert replay(record, cfg).matches
            outcome = HandOutcome.of(h)
            if outcome.winner is not None:
                hand_points[deal.seats[outcome.winner]] += outcome.points
            outcomes.append(outcome)
        match.record(outcomes)
    results = match.results()
    assert results
    if cfg.games == 1 and cfg.partnership_deck is None:
        (result,) = results
        boxes = cfg.box_bonus * sum(result.boxes) if cfg.box_timing is BoxTiming.EACH_HAND else 0
        assert sum(result.points) == sum(hand_points) + boxes
        assert result.points[result.winner] >= cfg.target
        assert all(p < cfg.target for s, p in enumerate(result.points) if s != result.winner)
        for settlement in result.settlements:
            # The margin is what the totals say, and may be negative: the
            # loser's boxes can outweigh the winner's total and bonus.
            doubled = settlement.shutout and cfg.shutout is Shutout.DOUBLE_MARGIN
            difference = settlement.winner_total - settlement.loser_total
            assert settlement.margin == difference * (2 if doubled else 1)
            assert settlement.payment == settlement.margin * cfg.stake_per_point


@pytest.mark.parametrize("name", RULESETS)
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**32),
    bots=st.sampled_from([("strong", "greedy"), ("greedy", "greedy"), ("strong", "strong")]),
)
def test_refereed_matches(name: str, seed: int, bots: tuple[str, str]) -> None:
    play_refereed_match(config(name), seed, bots)


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32))
def test_refereed_three_handed_matches(seed: int) -> None:
    play_refereed_match(config_with("classic", THREE_HANDED), seed, ("strong", "greedy", "greedy"))


@pytest.mark.parametrize("name", RULESETS)
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32))
def test_random_players_never_break_a_hand(name: str, seed: int) -> None:
    cfg = config(name)
    h = Hand.deal(cfg, seed % 2, seed)
    referee_hand(
        h,
        [RandomBot(), RandomBot()],
        [random.Random(seed), random.Random(~seed)],
        random.Random(seed),
    )
    assert replay(json.loads(json.dumps(h.to_record())), cfg).matches


#: Seeded matches per ruleset in the bulk run (a few thousand in all, about 25,000 hands).
BULK_MATCHES = 250


@pytest.mark.parametrize("name", RULESETS)
def test_thousands_of_seeded_games_conserve_cards_replay_and_add_up(name: str) -> None:
    cfg = config(name)
    hands = 0

    shared = cfg.partnership_deck is PartnershipDeck.SHARED

    def check(h: Hand) -> None:
        nonlocal hands
        hands += 1
        assert h.over
        if shared:
            return  # one deck for two hands: tests/test_shared_deck.py checks the round
        check_cards(h)
        assert replay(h.to_record(), cfg).matches

    for seed in range(BULK_MATCHES):
        match = new_match(cfg, seed)
        names = ("strong", "greedy") if seed % 2 else ("greedy", "strong")
        bots = [make_bot(names[seat % 2], cfg.ace) for seat in range(match.players)]
        results = match.play(bots, on_hand=check)
        logged = sum(entry.points for entry in match.log)
        if cfg.games == 1 and cfg.partnership_deck is None:
            boxes = cfg.box_bonus * sum(results[0].boxes)
            each_hand = cfg.box_timing is BoxTiming.EACH_HAND
            assert sum(results[0].points) == logged + (boxes if each_hand else 0)
        else:
            for result in results:
                assert sum(result.points) <= logged + cfg.box_bonus * sum(result.boxes)
        assert all(result.points[result.winner] >= cfg.target for result in results)
    assert hands >= BULK_MATCHES
