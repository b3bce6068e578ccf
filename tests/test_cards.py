from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ginrules.cards import (
    DECK,
    Card,
    CardError,
    cards_to_mask,
    format_cards,
    mask_to_cards,
    parse_cards,
)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("7H", "7H"),
        ("th", "TH"),
        ("10H", "TH"),
        ("10h", "TH"),
        ("7♥", "7H"),
        ("7♡", "7H"),
        ("as", "AS"),
        ("KD", "KD"),
        ("q♣", "QC"),
        (" 2s ", "2S"),
    ],
)
def test_parse_card_notations(text: str, expected: str) -> None:
    assert str(Card.parse(text)) == expected


@pytest.mark.parametrize("text", ["1H", "11H", "7X", "ZZ", "", "7", "HH", "77H"])
def test_bad_card_names_the_card(text: str) -> None:
    with pytest.raises(CardError) as excinfo:
        Card.parse(text)
    assert repr(text) in str(excinfo.value)


def test_duplicate_card_is_named() -> None:
    with pytest.raises(CardError, match="card given twice: 7H"):
        parse_cards("7H 8H 7h")


def test_ten_spellings_are_the_same_card() -> None:
    with pytest.raises(CardError, match="card given twice: TD"):
        parse_cards(["10D", "TD"])


def test_wrong_hand_size() -> None:
    with pytest.raises(CardError, match="10 or 11 cards, got 3"):
        parse_cards("7H 8H 9H", size=(10, 11))
    assert len(parse_cards("AS,2S,3S", size=3)) == 3


def test_deck_is_52_distinct_cards() -> None:
    assert len(set(DECK)) == 52
    assert len({c.bit for c in DECK}) == 52
    assert [c.index for c in DECK] == list(range(52))


@given(st.lists(st.sampled_from(DECK), unique=True))
def test_mask_round_trip(cards: list[Card]) -> None:
    mask = cards_to_mask(cards)
    assert mask.bit_count() == len(cards)
    assert mask_to_cards(mask) == sorted(cards, key=lambda c: c.index)


@given(st.lists(st.sampled_from(DECK), unique=True), st.booleans())
def test_format_parse_round_trip(cards: list[Card], symbols: bool) -> None:
    assert parse_cards(format_cards(cards, symbols=symbols)) == cards
