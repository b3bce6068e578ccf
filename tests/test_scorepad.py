"""The score pad: every format kept from its entries alone; undo and edit by recomputation."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ginrules.engine.bots import make_bot
from ginrules.engine.match import new_match
from ginrules.engine.scorepad import (
    HandReport,
    NextDeal,
    PadEntry,
    PadProblem,
    ScorePad,
    ScorePadError,
    Seating,
    new_score_pad,
    score_pad_class,
)
from ginrules.engine.scoring import HandEnd
from ginrules.rules import locate
from ginrules.rules.compile import EngineConfig
from tests.engine_helpers import config, config_with

RULESETS = [entry.name for entry in locate.entries()]
#: One ruleset of each format, and the dealer knobs each way.
FORMATS = ["classic", "hollywood", "partnership", "online-casino"]


def three_handed() -> EngineConfig:
    return config_with("classic", "format:\n  type: three_handed\n  players: 3\n")


def configs() -> dict[str, EngineConfig]:
    found = {name: config(name) for name in FORMATS}
    found["three-handed"] = three_handed()
    found["winner-deals"] = config_with(
        "classic", "deal:\n  next_dealer: winner\n  after_dead_hand: next_dealer\n"
    )
    return found


def replayed(pad: ScorePad) -> ScorePad:
    """A fresh pad fed only ``pad``'s reports."""
    fresh = new_score_pad(pad.config, pad.first_dealers)
    for entry in pad.entries:
        fresh.add(PadEntry(entry.reports))
    return fresh


def state(pad: ScorePad) -> tuple[Any, NextDeal]:
    return pad.to_json(), pad.next_deal()


@pytest.mark.parametrize("name", RULESETS)
def test_a_fresh_pad_fed_a_seeded_matchs_entries_keeps_the_same_score(name: str) -> None:
    cfg = config(name)
    for seed in range(12):
        try:
            match = new_match(cfg, seed)
        except ValueError:  # a shared-deck partnership is refused, as tested elsewhere
            return
        bots = [make_bot("greedy", cfg.ace) for _ in range(match.players)]
        results = match.play(bots)
        pad = replayed(match.pad)
        assert pad.finished
        assert pad.results() == results
        assert state(pad) == state(match.pad)


def test_three_handed_matches_replay_from_their_entries_too() -> None:
    cfg = three_handed()
    for seed in range(8):
        match = new_match(cfg, seed)
        results = match.play([make_bot("greedy", cfg.ace) for _ in range(3)])
        assert replayed(match.pad).results() == results


# -- random entry lists -----------------------------------------------------------


@st.composite
def report_for(draw: st.DrawFn, seating: Seating) -> HandReport:
    if draw(st.integers(0, 9)) == 0:
        return HandReport.dead()
    winner = draw(st.sampled_from(seating.seats))
    end = draw(st.sampled_from([HandEnd.KNOCK, HandEnd.GIN, HandEnd.UNDERCUT, HandEnd.BIG_GIN]))
    return HandReport(winner, draw(st.integers(0, 60)), draw(st.sampled_from([1, 1, 2])), end)


@st.composite
def filled_pad(draw: st.DrawFn) -> ScorePad:
    """A pad of a random format with a random run of valid hands entered."""
    cfg = draw(st.sampled_from(list(configs().values())))
    groups = score_pad_class(cfg).cut_groups
    pad = new_score_pad(cfg, [draw(st.sampled_from(group)) for group in groups])
    for _ in range(draw(st.integers(1, 25))):
        if pad.finished:
            break
        seatings = pad.next_deal().seatings
        pad.add(PadEntry(tuple(draw(report_for(s)) for s in seatings)))
    return pad


@settings(max_examples=150, deadline=None)
@given(data=st.data())
def test_editing_entry_k_equals_a_fresh_pad_fed_the_edited_list(data: st.DataObject) -> None:
    pad = data.draw(filled_pad())
    k = data.draw(st.integers(0, len(pad.entries) - 1))
    # The hand as it was seated: an edit changes who won and what, not who played.
    seatings = pad.entries[k].seatings
    edited_entry = PadEntry(tuple(data.draw(report_for(s)) for s in seatings))
    edited = [PadEntry(e.reports) for e in pad.entries]
    edited[k] = edited_entry
    fresh = new_score_pad(pad.config, pad.first_dealers)
    refused = None
    for entry in edited:
        try:
            fresh.add(entry)
        except ScorePadError as error:  # a later hand no longer fits (the game ended sooner)
            refused = error
            break
    before = state(pad)
    if refused is None:
        pad.replace(k, edited_entry)
        assert state(pad) == state(fresh)
    else:
        with pytest.raises(ScorePadError):
            pad.replace(k, edited_entry)
        assert state(pad) == before  # a refused edit changes nothing


@settings(max_examples=100, deadline=None)
@given(pad=filled_pad())
def test_undo_equals_a_fresh_pad_fed_all_but_the_last_entry(pad: ScorePad) -> None:
    entries = [PadEntry(e.reports) for e in pad.entries]
    last = pad.undo()
    assert last.reports == entries[-1].reports
    fresh = new_score_pad(pad.config, pad.first_dealers)
    for entry in entries[:-1]:
        fresh.add(entry)
    assert state(pad) == state(fresh)
    pad.add(last)
    assert len(pad.entries) == len(entries)


# -- whose deal, who sits out ---------------------------------------------------------


def dealers(pad: ScorePad, reports: list[HandReport]) -> list[int]:
    seen = []
    for report in reports:
        seen.append(pad.next_deal().seatings[0].dealer_seat)
        pad.add(report)
    seen.append(pad.next_deal().seatings[0].dealer_seat)
    return seen


def test_the_loser_deals_next_and_a_dead_hand_keeps_the_dealer_under_classic() -> None:
    pad = new_score_pad(config("classic"), [1])
    won_by_0, won_by_1 = HandReport(0, 10), HandReport(1, 10)
    assert dealers(pad, [won_by_0, HandReport.dead(), won_by_1]) == [1, 1, 1, 0]


def test_the_winner_deals_and_a_dead_hand_passes_the_deal_when_the_rules_say() -> None:
    cfg = configs()["winner-deals"]
    pad = new_score_pad(cfg, [1])
    assert dealers(pad, [HandReport(0, 10), HandReport.dead(), HandReport(0, 5)]) == [1, 0, 1, 0]


def test_the_deal_alternates_under_online_casino_rules() -> None:
    pad = new_score_pad(config("online-casino"), [0])
    assert dealers(pad, [HandReport(0, 10), HandReport(0, 10), HandReport(1, 10)]) == [0, 1, 0, 1]


def test_three_handed_the_dealer_sits_out_and_the_loser_deals_next() -> None:
    pad = new_score_pad(three_handed(), [2])
    deal = pad.next_deal()
    assert deal.sitting_out == 2
    assert deal.seatings[0].seats == (0, 1)
    pad.add(HandReport(0, 20))  # seat 1 lost: it deals and sits out
    deal = pad.next_deal()
    assert deal.sitting_out == 1
    assert set(deal.seatings[0].seats) == {0, 2}


def test_a_partnership_switches_opponents_each_hand_and_nets_the_two_tables() -> None:
    pad = new_score_pad(config("partnership"), [0, 2])
    first = pad.next_deal().seatings
    assert [s.seats for s in first] == [(0, 1), (2, 3)]
    pad.add(PadEntry((HandReport(0, 26), HandReport(3, 14))))
    assert pad.net == 12  # type: ignore[attr-defined]
    assert pad.boards[0].points == [12, 0]
    assert [s.seats for s in pad.next_deal().seatings] == [(0, 3), (2, 1)]


# -- refusals -----------------------------------------------------------------------------


def test_entries_that_do_not_fit_are_refused_with_a_reason_and_change_nothing() -> None:
    pad = new_score_pad(three_handed(), [2])
    pad.add(HandReport(0, 20))
    before = state(pad)
    cases: list[tuple[PadEntry | HandReport, PadProblem]] = [
        (HandReport(1, 10), PadProblem.WINNER_NOT_PLAYING),  # seat 1 sits out now
        (HandReport(0, -5), PadProblem.NEGATIVE),
        (HandReport(None, 5, 0, HandEnd.DEAD), PadProblem.DEAD_WITH_WINNER),
        (PadEntry((HandReport(0, 1), HandReport(2, 1))), PadProblem.HAND_COUNT),
    ]
    for entry, problem in cases:
        with pytest.raises(ScorePadError) as refused:
            pad.add(entry)
        assert refused.value.problem is problem
        assert state(pad) == before
    with pytest.raises(ScorePadError) as refused:
        pad.replace(5, HandReport(0, 1))
    assert refused.value.problem is PadProblem.NO_SUCH_ENTRY


def test_a_finished_game_takes_no_more_hands_and_settles() -> None:
    pad = new_score_pad(config("classic"), [0])
    pad.add(HandReport(0, 60))
    pad.add(HandReport(0, 45))
    assert pad.finished
    (result,) = pad.results()
    assert result.winner == 0
    assert result.settlements[0].shutout
    with pytest.raises(ScorePadError) as refused:
        pad.add(HandReport(1, 10))
    assert refused.value.problem is PadProblem.FINISHED
    pad.undo()
    assert not pad.finished


def test_the_first_dealer_must_sit_at_the_table() -> None:
    with pytest.raises(ScorePadError) as refused:
        new_score_pad(config("classic"), [2])
    assert refused.value.problem is PadProblem.FIRST_DEALER


def test_a_win_worth_nothing_earns_no_box_and_leaves_the_loser_shut_out() -> None:
    cfg = config_with("classic", "hand_scoring:\n  undercut_on_tie: false\n")
    pad = new_score_pad(cfg, [0])
    pad.add(HandReport(1, 0, 0, HandEnd.KNOCK))  # a tie at 5: the knocker's win is worth 0
    pad.add(HandReport(0, 60))
    pad.add(HandReport(0, 45))
    (result,) = pad.results()
    assert result.boxes == (2, 0)
    (settlement,) = result.settlements
    assert settlement.shutout  # seat 1 won a hand, but scored nothing all game
