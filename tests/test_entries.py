"""A hand as the table reports it: both ways of entering it score as the engine played it.

Seeded bot matches are played by the engine; every hand is then entered again
the table's two ways (the outcome with the two deadwood counts, and the cards)
into a fresh score pad, which must reach the engine's own totals, boxes,
bonuses and settlement exactly, for every shipped ruleset and house rule.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ginrules.cards import Card, parse_cards
from ginrules.engine.bots import make_bot
from ginrules.engine.entries import (
    CardsEntry,
    CountsEntry,
    EntryError,
    EntryProblem,
    ScoredEntry,
    most_deadwood,
    score_cards,
    score_counts,
)
from ginrules.engine.hand import Hand
from ginrules.engine.match import new_match
from ginrules.engine.scorepad import PadEntry, ScorePad, Seating, new_score_pad
from ginrules.engine.scoring import HandEnd, score_hand
from ginrules.melds import scorer
from ginrules.rules import locate
from ginrules.rules.compile import EngineConfig
from ginrules.words.problems import message
from tests.engine_helpers import config, config_with

RULESETS = [entry.name for entry in locate.entries()]
SEEDS = range(12)
SEATING = Seating((0, 1), dealer=1)


def three_handed() -> EngineConfig:
    return config_with("classic", "format:\n  type: three_handed\n  players: 3\n")


def _played(cfg: EngineConfig, seed: int) -> tuple[ScorePad, list[tuple[Seating, Hand]]]:
    """A seeded match of greedy bots, and each two-player hand with its seating."""
    match = new_match(cfg, seed)
    hands: list[Hand] = []
    match.play([make_bot("greedy", cfg.ace) for _ in range(match.players)], on_hand=hands.append)
    seatings = [seating for entry in match.pad.entries for seating in entry.seatings]
    assert len(seatings) == len(hands)
    for seating, hand in zip(seatings, hands, strict=True):
        assert hand.dealer == seating.dealer
    return match.pad, list(zip(seatings, hands, strict=True))


def _as_counts(seating: Seating, hand: Hand) -> CountsEntry:
    """What a player at the table types: how it ended, who, the two counts, the upcard."""
    if hand.showdown is None:
        return CountsEntry(HandEnd.DEAD, upcard=hand.upcard)
    score = hand.showdown.score
    end = HandEnd.KNOCK if score.end is HandEnd.UNDERCUT else score.end
    return CountsEntry(
        end,
        seating.seats[hand.showdown.knocker],
        score.knocker_deadwood,
        score.defender_deadwood,
        hand.upcard,
    )


def _as_cards(seating: Seating, hand: Hand) -> CardsEntry:
    """The cards on the table at the showdown, and the melds the knocker showed."""
    showdown = hand.showdown
    assert showdown is not None
    knocker = showdown.knocker
    declared = showdown.score.end in (HandEnd.GIN, HandEnd.BIG_GIN) or bool(
        showdown.knocker_arrangement.deadwood
    )
    return CardsEntry(
        seating.seats[knocker],
        tuple(hand.cards(knocker)),
        tuple(hand.cards(1 - knocker)),
        hand.upcard,
        declared=declared,
        knocker_melds=tuple(meld.cards for meld in showdown.knocker_arrangement.melds),
    )


def _entered(pad: ScorePad, played: list[tuple[Seating, Hand]], way: str) -> ScorePad:
    """A fresh pad fed the hands as the table enters them, one pad entry at a time."""
    cfg = pad.config
    fresh = new_score_pad(cfg, pad.first_dealers)
    queue = iter(played)
    for entry in pad.entries:
        reports = []
        for _ in entry.seatings:
            seating, hand = next(queue)
            scored: ScoredEntry
            if way == "cards" and hand.showdown is not None:
                scored = score_cards(cfg, seating, _as_cards(seating, hand))
            else:
                scored = score_counts(cfg, seating, _as_counts(seating, hand))
            assert scored.score == hand.score() or hand.showdown is None
            reports.append(scored.report)
        assert tuple(reports) == entry.reports
        fresh.add(PadEntry(tuple(reports)))
    return fresh


@pytest.mark.parametrize("way", ["counts", "cards"])
@pytest.mark.parametrize("name", [*RULESETS, "three-handed"])
def test_hands_entered_at_the_table_reach_the_engines_results(name: str, way: str) -> None:
    cfg = three_handed() if name == "three-handed" else config(name)
    for seed in SEEDS:
        pad, played = _played(cfg, seed)
        fresh = _entered(pad, played, way)
        assert fresh.finished
        assert fresh.results() == pad.results()
        assert fresh.snapshot() == pad.snapshot()
        assert fresh.next_deal() == pad.next_deal()


def test_the_issues_oklahoma_hand_scores_with_its_taken_upcard_both_ways() -> None:
    cfg = config("oklahoma-spades-150")
    cards = CardsEntry(
        0,
        tuple(parse_cards("9C 9D 9S JC QC KC 5H 6H 7H 3D")),
        tuple(parse_cards("KD KH KS 2S 3S 4S 6C 7D 4H 8H")),
        upcard=Card.parse("9S"),
    )
    by_cards = score_cards(cfg, SEATING, cards)
    by_counts = score_counts(cfg, SEATING, CountsEntry(HandEnd.KNOCK, 0, 3, 13, Card.parse("9S")))
    assert by_cards.report == by_counts.report
    assert by_counts.score.multiplier == 2 and by_counts.report.winner == 0


def test_big_gin_scores_the_same_entered_by_counts_or_by_its_eleven_cards() -> None:
    cfg = config("big-gin-31")
    eleven = tuple(parse_cards("9C 9D 9S JC QC KC 5H 6H 7H 8H 9H"))
    defender = tuple(parse_cards("KD KH KS 2S 3S 4S TC 6D 4H 2H"))
    by_cards = score_cards(cfg, SEATING, CardsEntry(1, eleven, defender))
    by_counts = score_counts(cfg, SEATING, CountsEntry(HandEnd.BIG_GIN, 1, 0, 22))
    assert by_cards.score.end is HandEnd.BIG_GIN
    assert by_cards.report == by_counts.report
    assert by_counts.report.points == 22 + 31


def test_a_tie_is_an_undercut_decided_by_the_counts_and_never_entered_as_one() -> None:
    cfg = config("classic")
    scored = score_counts(cfg, SEATING, CountsEntry(HandEnd.KNOCK, 0, 7, 7))
    assert scored.score.end is HandEnd.UNDERCUT and scored.report.winner == 1
    assert scored.report.points == 25
    with pytest.raises(EntryError) as refused:
        score_counts(cfg, SEATING, CountsEntry(HandEnd.UNDERCUT, 0, 7, 5))
    assert refused.value.field == "end"


def test_a_silent_zero_knock_is_a_plain_knock_only_where_gin_must_be_declared() -> None:
    plain = config("classic")
    declared = config_with("classic", "play:\n  gin_must_be_declared: true\n")
    silent = CountsEntry(HandEnd.KNOCK, 1, 0, 12)
    assert score_counts(plain, SEATING, silent).score.end is HandEnd.GIN
    assert score_counts(declared, SEATING, silent).report.points == 12
    gin = CountsEntry(HandEnd.GIN, 1, 0, 12)
    assert score_counts(declared, SEATING, gin).report.points == 12 + declared.gin_bonus


@pytest.mark.parametrize(
    ("name", "entry", "problem", "field", "words"),
    [
        (
            "classic",
            CountsEntry(HandEnd.KNOCK, 0, 11, 30),
            EntryProblem.OVER_THE_LIMIT,
            "knocker_deadwood",
            "the knocker has 11 deadwood; the knock limit is 10",
        ),
        (
            "oklahoma",
            CountsEntry(HandEnd.KNOCK, 0, 5, 30, Card.parse("4H")),
            EntryProblem.OVER_THE_LIMIT,
            "knocker_deadwood",
            "the knock limit is 4 (the upcard 4H sets it)",
        ),
        (
            "oklahoma",
            CountsEntry(HandEnd.KNOCK, 0, 5, 30),
            EntryProblem.UPCARD_NEEDED,
            "upcard",
            "the first upcard sets the knock limit",
        ),
        (
            "classic",
            CountsEntry(HandEnd.GIN, 0, 4, 30),
            EntryProblem.GIN_WITH_DEADWOOD,
            "knocker_deadwood",
            "the knocker has 4 deadwood",
        ),
        (
            "classic",
            CountsEntry(HandEnd.KNOCK, 0, 3, 99),
            EntryProblem.NO_SUCH_COUNT,
            "defender_deadwood",
            "no hand of 10 cards holds 99 deadwood (at most 98)",
        ),
        (
            "classic",
            CountsEntry(HandEnd.KNOCK, 0, -1, 20),
            EntryProblem.NO_SUCH_COUNT,
            "knocker_deadwood",
            "holds -1 deadwood",
        ),
        (
            "classic",
            CountsEntry(HandEnd.BIG_GIN, 0, 0, 20),
            EntryProblem.NO_BIG_GIN,
            "end",
            "big gin is not played",
        ),
        (
            "classic",
            CountsEntry(HandEnd.KNOCK, 2, 3, 20),
            EntryProblem.NOT_PLAYING,
            "ended_by",
            "player 2 does not play this hand",
        ),
        (
            "classic",
            CountsEntry(HandEnd.KNOCK, None, 3, 20),
            EntryProblem.NOBODY_ENDED,
            "ended_by",
            "say who knocked",
        ),
        (
            "classic",
            CountsEntry(HandEnd.DEAD, 0),
            EntryProblem.DEAD_WITH_COUNTS,
            "end",
            "a dead hand has nobody ending it",
        ),
    ],
)
def test_an_impossible_entry_is_refused_at_its_field_in_words(
    name: str, entry: CountsEntry, problem: EntryProblem, field: str, words: str
) -> None:
    with pytest.raises(EntryError) as refused:
        score_counts(config(name), SEATING, entry)
    assert refused.value.reason is problem
    assert refused.value.field == field
    assert words in message(refused.value)


@settings(max_examples=200, deadline=None)
@given(
    knocker=st.integers(0, 10),
    defender=st.integers(0, 98),
    upcard=st.sampled_from([None, *parse_cards("AS 5S TS KH 7D")]),
    name=st.sampled_from(["classic", "traditional", "oklahoma-spades-150", "online-casino"]),
)
def test_counts_score_as_the_engine_scores_a_showdown(
    knocker: int, defender: int, upcard: Card | None, name: str
) -> None:
    cfg = config(name)
    if cfg.oklahoma and upcard is None:
        upcard = Card.parse("TD")
    end = HandEnd.GIN if knocker == 0 else HandEnd.KNOCK
    entry = CountsEntry(end, 1, knocker, defender, upcard)
    if knocker > cfg.knock_limit_for(upcard):
        with pytest.raises(EntryError):
            score_counts(cfg, SEATING, entry)
        return
    scored = score_counts(cfg, SEATING, entry)
    assert scored.score == score_hand(cfg, knocker, defender, upcard=upcard)
    assert scored.report.points == scored.score.points
    assert scored.report.winner == (1 if scored.score.knocker_wins else 0)


@pytest.mark.parametrize("size", [7, 8, 10])
@pytest.mark.parametrize("ace", ["low", "round_the_corner"])
def test_the_most_deadwood_a_hand_holds_is_reached_by_some_hand(size: int, ace: str) -> None:
    """Two of each rank from the top, one suit pair on odd ranks and the other on even
    ranks: no set and no run, so every card is deadwood."""
    worth = "  ace_value: 15\n" if ace == "round_the_corner" else ""
    cfg = config_with("classic", f"cards:\n  hand_size: {size}\n  ace: {ace}\n{worth}")
    value = cfg.ace.card_value
    ranks = sorted(range(13), key=lambda r: value(Card(r, 0)), reverse=True)
    cards = [Card(rank, suit) for rank in ranks for suit in ((0, 1) if rank % 2 else (2, 3))]
    hand = cards[:size]
    counted = scorer(cfg.ace).deadwood(sum(c.bit for c in hand))
    assert counted == sum(value(c) for c in hand) == most_deadwood(cfg)
