"""HR's four-player game on one deck: the shared stock, the turns, whole games.

The rules are ginrules' decisions, written in :mod:`ginrules.engine.rounds`
and printed on the partnership sheet; the golden cases in
``tests/cases/partnership.yaml`` check them on laid-out deals. Here the
engine plays many seeded rounds and whole games, and the invariants hold.
"""

from __future__ import annotations

import itertools
import json
import random
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from ginrules.cards import DECK, cards_to_mask
from ginrules.engine.bots import make_bot
from ginrules.engine.hand import Phase
from ginrules.engine.match import Deal, PartnershipGame, bot_rngs, new_match
from ginrules.engine.record import replay
from ginrules.engine.rounds import SharedDeck, new_round
from ginrules.engine.session import BotMoved, GameSession, HandOver, HandsRecorded, HandStarted
from ginrules.rules.compile import EngineConfig, PartnershipDeck, compile_ruleset
from ginrules.rules.load import load_ruleset

FULL = cards_to_mask(DECK)


def _config(tmp_path: Path | None = None, **knobs: object) -> EngineConfig:
    if not knobs:
        return compile_ruleset(load_ruleset("partnership"))
    import tempfile

    lines = ["extends: partnership"]
    sections: dict[str, list[str]] = {}
    for dotted, value in knobs.items():
        section, name = dotted.split("__")
        shown = str(value).lower() if isinstance(value, bool) else str(value)
        sections.setdefault(section, []).append(f"{name}: {shown}")
    lines += [f"{section}: {{{', '.join(items)}}}" for section, items in sections.items()]
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "shared.yaml"
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        return compile_ruleset(load_ruleset(path))


def _deals(seed: int, dealers: tuple[int, int] = (0, 0)) -> list[Deal]:
    return [Deal((0, 1), dealers[0], seed), Deal((2, 3), dealers[1], seed + 1)]


def test_partnership_is_hrs_one_deck_game() -> None:
    config = _config()
    assert config.partnership_deck is PartnershipDeck.SHARED
    round_ = new_round(config, _deals(3))
    assert isinstance(round_, SharedDeck)
    assert round_.hands[0].stock is round_.hands[1].stock
    assert round_.stock_left == 52 - 4 * 10 - 2


def _all_cards(round_: SharedDeck) -> list[int]:
    masks = [mask for hand in round_.hands for mask in hand.hands]
    masks += [cards_to_mask(hand.pile) for hand in round_.hands]
    masks += [hand.knock_discard.bit for hand in round_.hands if hand.knock_discard]
    masks.append(cards_to_mask(round_.hands[0].stock))
    return masks


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    dealers=st.tuples(st.integers(0, 1), st.integers(0, 1)),
    cards_left=st.sampled_from([0, 2, 4]),
    last_discard=st.booleans(),
    oklahoma=st.booleans(),
)
def test_every_round_keeps_the_52_cards_and_ends(
    seed: int, dealers: tuple[int, int], cards_left: int, last_discard: bool, oklahoma: bool
) -> None:
    config = _config(
        stock_end__cards_left=cards_left,
        stock_end__last_discard_playable=last_discard,
        oklahoma__enabled=oklahoma,
    )
    round_ = new_round(config, _deals(seed, dealers))
    assert isinstance(round_, SharedDeck)
    rng = random.Random(seed)
    bots = [make_bot(name, config.ace) for name in ("random", "greedy", "strong", "random")]
    rngs = bot_rngs(seed, 4)
    for _step in range(400):
        index = round_.current()
        masks = _all_cards(round_)
        assert sum(bin(m).count("1") for m in masks) == 52
        union = 0
        for mask in masks:
            assert union & mask == 0, "a card is in two places"
            union |= mask
        assert union == FULL
        assert round_.stock_left >= cards_left, "the stock was drawn below the dead-hand count"
        if index is None:
            break
        hand = round_.hands[index]
        if hand.phase is Phase.DRAW:
            assert round_.stock_left > cards_left
        seat = round_.deals[index].seats[hand.to_move]
        bot = bots[seat]
        legal = hand.legal_actions()
        if rng.random() < 0.2:
            action = rng.choice(legal)
        else:
            observation = hand.observation(hand.to_move) if bot.observes else None
            action = bot.choose(observation, legal, rngs[seat])
        round_.apply(index, action)
    else:
        raise AssertionError("a shared round did not end in 400 actions")
    assert all(hand.over for hand in round_.hands)


def test_turns_alternate_while_both_pairings_play() -> None:
    config = _config()
    round_ = new_round(config, _deals(8))
    players = [make_bot("greedy", config.ace) for _ in range(4)]
    rngs = bot_rngs(8, 4)
    turns: list[tuple[int, bool]] = []  # (pairing, whether the other was over by then)
    while (index := round_.current()) is not None:
        hand = round_.hands[index]
        mover = hand.to_move
        seat = round_.deals[index].seats[mover]
        other_over = round_.hands[1 - index].over
        observation = hand.observation(mover) if players[seat].observes else None
        round_.apply(index, players[seat].choose(observation, hand.legal_actions(), rngs[seat]))
        if hand.over or hand.to_move != mover:
            turns.append((index, other_over))
    assert [i for i, _ in turns[:4]] == [0, 1, 0, 1]  # the four answers to the two upcards
    while_both = [i for i, other_over in turns if not other_over]
    assert all(a != b for a, b in itertools.pairwise(while_both))
    alone = [i for i, other_over in turns if other_over]
    assert len(set(alone)) <= 1, "once one pairing is over, only the other moves"


def test_whole_games_play_to_the_team_target_and_settle() -> None:
    config = _config()
    players = [make_bot(name, config.ace) for name in ("strong", "greedy", "strong", "greedy")]
    for seed in range(3):
        match = new_match(config, seed)
        assert isinstance(match, PartnershipGame)
        (result,) = match.play(players)
        assert max(result.points) >= config.target
        assert result.settlements and result.settlements[0].margin != 0
        assert all(len(entry.deal.seats) == 2 for entry in match.log)


def test_a_person_plays_a_shared_round_in_a_session() -> None:
    config = _config()
    session = GameSession(config, 4, [None, "greedy", "greedy", "greedy"])
    events = session.start()
    started = [e for e in events if isinstance(e, HandStarted)]
    assert len(started) == 2, "both pairings of a shared deck start together"
    assert [e.watched for e in started] == [True, False]
    moved_by_others = [e for e in events if isinstance(e, BotMoved)]
    assert all(e.deal.seats == (0, 1) for e in moved_by_others), "only the watched pairing"
    recorded = 0
    for _ in range(2000):
        if session.over or recorded >= 2:
            break
        events = session.act(session.legal()[0])
        recorded += sum(isinstance(e, HandsRecorded) for e in events)
        for event in events:
            if isinstance(event, HandsRecorded):
                assert len(event.hands) == 2
                assert event.hands[0][1].stock is event.hands[1][1].stock
    assert recorded >= 2 or session.over


def test_every_pairings_record_plays_back_with_its_round() -> None:
    config = _config()
    session = GameSession(config, 12, ["strong", "greedy", "greedy", "strong"])
    records = [e.record("partnership") for e in session.start() if isinstance(e, HandOver)]
    assert len(records) >= 4
    assert all(r["round"]["pairing"] in (0, 1) for r in records)
    for record in records:
        replayed = replay(json.loads(json.dumps(record)), config)
        assert replayed.matches, record["round"]["pairing"]
    # A round cut short of its actions does not reach the recorded result.
    short = json.loads(json.dumps(records[0]))
    short["round"]["actions"] = short["round"]["actions"][:4]
    assert not replay(short, config).matches
