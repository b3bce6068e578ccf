"""The hand state machine: the deal, turns, knocks, the end of the stock, the showdown."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from ginrules.cards import DECK, Card, parse_cards
from ginrules.engine.actions import (
    DEFEND_BEST,
    DRAW_STOCK,
    PASS,
    TAKE,
    Act,
    Action,
    discard,
    knock,
    parse_action,
)
from ginrules.engine.hand import Hand, Phase
from ginrules.engine.illegal import IllegalAction
from ginrules.engine.record import RecordError, replay
from ginrules.engine.scoring import HandEnd
from ginrules.layoffs import Layoff
from ginrules.words.problems import illegal_message, message
from tests.engine_helpers import config, config_with, hand, play, snapshot

# Non-dealer: melds 5S 6S 7S, JC JD JH, 9C 9D 9H and the 8D (8 deadwood) plus 2C.
KNOCKER = "5S 6S 7S JC JD JH 9C 9D 9H 2C"
DEFENDER = "4S 8S JS 2D 2H 2S 3C 3D KC KD"


@contextmanager
def refused(words: str) -> Iterator[None]:
    """The block raises IllegalAction, and its words for people say ``words``."""
    with pytest.raises(IllegalAction) as error:
        yield
    assert re.search(words, illegal_message(error.value)), illegal_message(error.value)


def test_seeded_deal_is_reproducible_and_sized() -> None:
    cfg = config("classic")
    a, b = Hand.deal(cfg, 0, 42), Hand.deal(cfg, 0, 42)
    assert a.deck == b.deck
    assert Hand.deal(cfg, 0, 43).deck != a.deck
    assert [len(a.cards(0)), len(a.cards(1))] == [10, 10]
    assert a.upcard == a.pile[-1] == a.deck[20]
    assert len(a.stock) == 31
    assert a.phase is Phase.OFFER and a.to_move == 1  # the non-dealer is offered the upcard


def test_eleven_card_deal_has_no_upcard() -> None:
    cfg = (
        config("online-casino")
        if config("online-casino").first_turn.value == "eleven_cards"
        else config_with("classic", "deal: {first_turn: eleven_cards}\n")
    )
    h = Hand.deal(cfg, 1, 7)
    assert h.upcard is None and h.pile == []
    assert len(h.cards(0)) == 11 and len(h.cards(1)) == 10
    assert h.phase is Phase.DISCARD and h.to_move == 0
    assert all(a.kind in (Act.DISCARD, Act.KNOCK, Act.BIG_GIN) for a in h.legal_actions())


def test_upcard_offer_goes_non_dealer_dealer_then_stock() -> None:
    h = Hand.deal(config("classic"), 0, 1)
    assert h.legal_actions() == (TAKE, PASS)
    play(h, "pass")
    assert h.to_move == 0 and h.phase is Phase.OFFER
    play(h, "pass")
    assert h.to_move == 1 and h.legal_actions() == (DRAW_STOCK,)
    with refused("not allowed now"):
        h.apply(TAKE)


def test_taken_card_may_not_be_discarded_unless_the_rules_allow() -> None:
    h = Hand.deal(config("classic"), 0, 3)
    upcard = h.upcard
    assert upcard is not None
    play(h, "take")
    assert discard(upcard) not in h.legal_actions()
    before = snapshot(h)
    with refused("just took"):
        h.apply(discard(upcard))
    assert snapshot(h) == before
    loose = Hand.deal(config_with("classic", "play: {discard_taken_card: true}\n"), 0, 3)
    play(loose, "take", f"discard {upcard}")
    assert loose.pile[-1] == upcard


def test_knock_within_the_limit_and_the_limit_named_when_over() -> None:
    cfg = config("classic")
    # The non-dealer (seat 1) holds 8D after drawing it: knocks discarding 2C leave 8.
    h = hand(cfg, KNOCKER, DEFENDER, upcard="QS", stock="8D", dealer_seat=0)
    play(h, "pass", "pass", "draw")
    assert knock(Card.parse("2C")) in h.legal_actions()
    assert knock(Card.parse("8D")) in h.legal_actions()
    over = config_with("classic", "play: {knock_limit: 1}\n")
    h2 = hand(over, KNOCKER, DEFENDER, upcard="QS", stock="8D")
    play(h2, "pass", "pass", "draw")
    before = snapshot(h2)
    with refused("knock limit this hand is 1"):
        h2.apply(knock(Card.parse("2C")))
    assert snapshot(h2) == before


def test_knock_then_lay_offs_then_score() -> None:
    h = hand(config("classic"), KNOCKER, DEFENDER, upcard="QS", stock="8D")
    play(h, "pass", "pass", "draw", "knock 2C")
    assert h.phase is Phase.LAYOFF and h.to_move == 0
    assert h.legal_actions() == (DEFEND_BEST,)
    play(h, "defend")
    assert h.over and h.showdown is not None
    score = h.score()
    assert score.end is HandEnd.KNOCK
    # Defender lays off 4S, 8S on the spades run and JS on the jacks: left 2D 2H 2S set,
    # 3C 3D KC KD = 26.
    assert h.showdown.defense.deadwood == 26
    assert score.points == 26 - 8
    assert h.winner == 1


def test_person_chosen_melds_and_lay_offs_are_checked() -> None:
    cfg = config("classic")
    h = hand(cfg, KNOCKER, DEFENDER, upcard="QS", stock="8D")
    play(h, "pass", "pass", "draw")
    bad = Action(Act.KNOCK, Card.parse("2C"), melds=(tuple(parse_cards("5S 6S 8D")),))
    before = snapshot(h)
    with refused("neither a set"):
        h.apply(bad)
    assert snapshot(h) == before
    not_held = Action(Act.KNOCK, Card.parse("2C"), melds=(tuple(parse_cards("QH QC QD")),))
    with refused("does not hold"):
        h.apply(not_held)
    # Showing fewer melds leaves too much deadwood to knock.
    partial = Action(Act.KNOCK, Card.parse("2C"), melds=(tuple(parse_cards("5S 6S 7S")),))
    with refused("those melds leave"):
        h.apply(partial)
    assert snapshot(h) == before
    chosen = Action(
        Act.KNOCK,
        Card.parse("2C"),
        melds=tuple(tuple(parse_cards(m)) for m in ("5S 6S 7S", "JC JD JH", "9C 9D 9H")),
    )
    h.apply(chosen)
    melds = h.showdown.knocker_arrangement.melds if h.showdown else None
    assert melds is None  # still waiting for the defender
    wrong = Action(Act.DEFEND, layoffs=(Layoff(Card.parse("KD"), 0),))
    with refused("does not fit"):
        h.apply(wrong)
    chain = Action(
        Act.DEFEND,
        layoffs=(Layoff(Card.parse("8S"), 0), Layoff(Card.parse("4S"), 0)),
    )
    h.apply(chain)
    assert h.showdown is not None
    assert [lay.card for lay in h.showdown.defense.layoffs] == parse_cards("8S 4S")
    # The defender chose not to lay the JS off: 26 + 10.
    assert h.showdown.defense.deadwood == 36


def test_gin_skips_lay_offs() -> None:
    cfg = config("classic")
    h = hand(cfg, "5S 6S 7S JC JD JH 9C 9D 9H 2C", "4S 8S JS 2D 2H 2S 3C 3D KC KD", "QS", "TC")
    play(h, "pass", "pass", "draw")
    # TC does not meld; knocking with 2C... no: discard TC keeps 2C (2 deadwood).
    play(h, "knock TC")
    assert h.phase is Phase.LAYOFF
    g = hand(cfg, "5S 6S 7S JC JD JH 9C 9D 9H 2C", "4S TS JS 2D 2H 2S 3C 3D KC KD", "QS", "8S")
    play(g, "pass", "pass", "draw", "knock 2C")
    assert g.over and g.showdown is not None
    assert g.score().end is HandEnd.GIN
    assert g.showdown.defense.layoffs == ()
    assert g.score().points == 25 + g.showdown.defense.deadwood


def test_no_knock_on_first_turn_when_the_rules_say_so() -> None:
    strict = config_with("classic", "play: {knock_on_first_turn: false}\n")
    h = hand(strict, KNOCKER, DEFENDER, upcard="QS", stock="8D 3H")
    play(h, "pass", "pass", "draw")
    assert not any(a.kind is Act.KNOCK for a in h.legal_actions())
    with refused("first turn"):
        h.apply(knock(Card.parse("2C")))


def test_dead_hand_when_the_stock_runs_down() -> None:
    cfg = config("classic")
    h = Hand.deal(cfg, 0, 11)
    play(h, "pass", "pass")
    while not h.over:
        if h.phase is Phase.DRAW:
            h.apply(DRAW_STOCK)
        else:
            # Discard the card just drawn: nobody improves, nobody knocks.
            drawn = next(a for a in h.legal_actions() if a.kind is Act.DISCARD)
            h.apply(drawn)
    assert h.dead and len(h.stock) == cfg.stock_end_cards_left
    assert h.score().end is HandEnd.DEAD and h.winner is None


def _last_chance_hand(playable: bool) -> Hand:
    """The non-dealer throws the 8D as the stock ends; the dealer could knock with it."""
    cfg = config_with(
        "classic", f"stock_end: {{cards_left: 2, last_discard_playable: {str(playable).lower()}}}\n"
    )
    dealer_cards = parse_cards("5S 6S 7S JC JD JH 9C 9D 9H KH")
    non_dealer = parse_cards("2C 3C 4D 5D 6H 7H QC QD AS KC")
    upcard = Card.parse("TD")
    used = {*dealer_cards, *non_dealer, upcard, Card.parse("8D")}
    rest = [c for c in DECK if c not in used]
    # The non-dealer draws the 1st, 3rd, ... 29th card: make the 29th the 8D.
    stock = [*rest[:28], Card.parse("8D"), *rest[28:]]
    h = Hand.from_cards(
        cfg,
        dealer=0,
        non_dealer_cards=non_dealer,
        dealer_cards=dealer_cards,
        upcard=upcard,
        stock=stock,
    )
    play(h, "pass", "pass")
    while h.phase is Phase.DRAW:
        drawn = h.stock[-1]
        h.apply(DRAW_STOCK)
        h.apply(discard(drawn))  # nobody keeps anything, nobody knocks
    return h


def test_last_discard_playable_lets_the_other_player_knock() -> None:
    h = _last_chance_hand(playable=True)
    assert h.phase is Phase.LAST_CHANCE and h.to_move == 0
    assert h.pile[-1] == Card.parse("8D") and len(h.stock) == 2
    play(h, "take")
    # Having taken it, the dealer must knock (a plain discard is refused) with another card.
    assert all(a.kind is Act.KNOCK for a in h.legal_actions())
    with refused("must knock"):
        h.apply(discard(Card.parse("KH")))
    play(h, "knock KH", "defend")
    assert h.score().end is HandEnd.KNOCK and h.winner == 0
    assert h.showdown is not None and h.showdown.knocker_arrangement.deadwood == 8


def test_without_the_variation_the_last_discard_ends_the_hand() -> None:
    h = _last_chance_hand(playable=False)
    assert h.over and h.dead and h.pile[-1] == Card.parse("8D")


def test_observation_hides_the_stock_and_the_other_hand() -> None:
    h = Hand.deal(config("classic"), 0, 5)
    upcard = h.upcard
    play(h, "take")
    seen = h.observation(0)
    assert seen.hand == h.hands[0]
    assert seen.opponent_known == (upcard.bit if upcard else 0)  # only what they took
    assert seen.opponent_cards == 11
    assert not hasattr(seen, "stock")
    assert seen.stock_left == 31


def test_illegal_actions_name_the_reason() -> None:
    h = Hand.deal(config("classic"), 0, 9)
    before = snapshot(h)
    with refused("not allowed now"):
        h.apply(DRAW_STOCK)
    with refused("player 1's turn"):
        h.apply(TAKE, seat=0)
    assert snapshot(h) == before
    with pytest.raises(ValueError) as unreadable:
        parse_action("fold")
    assert "not a move" in message(unreadable.value)


def test_record_replays_to_the_same_result_and_tampering_is_caught() -> None:
    cfg = config("classic")
    h = hand(cfg, KNOCKER, DEFENDER, upcard="QS", stock="8D")
    play(h, "pass", "pass", "draw", "knock 2C", "defend")
    record = json.loads(json.dumps(h.to_record("classic")))
    assert replay(record, cfg).matches
    record["result"]["points"] += 1
    assert not replay(record, cfg).matches
    record["actions"][3]["card"] = "QH"
    with pytest.raises(RecordError) as refused_action:
        replay(record, cfg)
    assert "action 4" in message(refused_action.value)
    with pytest.raises(RecordError) as other_rules:
        replay(record, config("oklahoma"))
    assert "same ruleset" in message(other_rules.value)
