"""Cards in the reader's language: the letters shown and read, and none read two ways."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ginrules.cards import (
    DECK,
    RANK_ALIASES,
    RANK_LETTERS,
    SUIT_SYMBOLS,
    SUITS,
    Card,
    CardError,
    format_cards,
    parse_cards,
)
from ginrules.melds import AceRule
from ginrules.words.cards import (
    CardView,
    card_faces,
    card_problem,
    card_text,
    cards_text,
    meld_text,
    ranks_text,
)
from ginrules.words.i18n import LANGUAGES, use_locale

LANGS = tuple(LANGUAGES)
#: Every way a suit may be typed: the letters, the symbols and their outlined forms.
SUIT_TOKENS = {**{s: i for i, s in enumerate(SUITS)}, **{s: i for i, s in enumerate(SUIT_SYMBOLS)}}
SUIT_TOKENS.update({"♧": 0, "♢": 1, "♡": 2, "♤": 3})


@pytest.mark.parametrize(
    ("lang", "letters", "symbols"),
    [
        ("en", "TH JS QD KC AS", "T♥ J♠ Q♦ K♣ A♠"),
        ("de", "10H BS DD KC AS", "10♥ B♠ D♦ K♣ A♠"),
        ("es", "10H JS QD KC AS", "10♥ J♠ Q♦ K♣ A♠"),
        ("fr", "10H VS DD RC AS", "10♥ V♠ D♦ R♣ A♠"),
    ],
)
def test_each_language_writes_its_own_rank_letters(lang: str, letters: str, symbols: str) -> None:
    cards = parse_cards("TH JS QD KC AS")
    with use_locale(lang):
        assert cards_text(cards, symbols=False) == letters
        assert cards_text(cards, symbols=True) == symbols


def test_english_is_written_as_it_always_was_and_others_with_suit_symbols() -> None:
    cards = parse_cards("7C 7H 7S TD JD QD KD")
    assert cards_text(cards) == format_cards(cards) == "7C 7H 7S TD JD QD KD"
    assert meld_text(cards[:3]) == "[7C 7H 7S]"
    with use_locale("de"):
        assert meld_text(cards[:3]) == "[7♣ 7♥ 7♠]"
        assert cards_text(cards[3:]) == "10♦ B♦ D♦ K♦"
        assert CardView(AceRule(), symbols=False).cards(cards[3:]) == "10D BD DD KD"


def test_machine_formats_stay_canonical_in_every_language() -> None:
    cards = parse_cards("TH JS QD KC")
    for lang in LANGS:
        with use_locale(lang):
            assert format_cards(cards) == "TH JS QD KC"
            assert format_cards(cards, symbols=True) == "T♥ J♠ Q♦ K♣"
            assert [str(card) for card in cards] == ["TH", "JS", "QD", "KC"]


@pytest.mark.parametrize(
    ("typed", "card"),
    [
        ("BH", "JH"),  # Bube
        ("VH", "JH"),  # valet
        ("DH", "QH"),  # Dame, dame: never the diamonds
        ("DD", "QD"),
        ("RH", "KH"),  # roi
        ("KD", "KD"),  # König, king
        ("b♠", "JS"),
        ("10♦", "TD"),
        ("d♢", "QD"),
    ],
)
def test_local_rank_letters_are_read(typed: str, card: str) -> None:
    assert str(Card.parse(typed)) == card


def test_no_rank_letter_names_two_ranks_in_any_two_languages() -> None:
    for lang, letters in RANK_LETTERS.items():
        assert len(letters) == 13, lang
        for rank, letter in enumerate(letters):
            assert RANK_ALIASES[letter] == rank, (lang, letter)
    # A letter shared by two languages means the same rank in both: D is the queen.
    assert RANK_LETTERS["de"][11] == RANK_LETTERS["fr"][11] == "D"


def test_no_typed_card_can_be_read_two_ways() -> None:
    """Every rank token before every suit token, in either case: each text one card only,
    and a token that is both a rank and a suit (``D``) is read by its place."""
    readings: dict[str, set[tuple[int, int]]] = {}
    for rank_token, rank in [*RANK_ALIASES.items(), ("T", 9), ("10", 9)]:
        for suit_token, suit in SUIT_TOKENS.items():
            for text in {rank_token + suit_token, (rank_token + suit_token).lower()}:
                readings.setdefault(text, set()).add((rank, suit))
    twice = {text: ways for text, ways in readings.items() if len(ways) > 1}
    assert not twice
    for text, ways in readings.items():
        ((rank, suit),) = ways
        assert Card.parse(text) == Card(rank, suit), text
    assert {len(text) for text in readings} == {2, 3}  # rank then suit; only 10 is two long


def test_reading_does_not_depend_on_the_readers_language() -> None:
    for shown_in in LANGS:
        with use_locale(shown_in):
            texts = [card_text(card, symbols=symbols) for card in DECK for symbols in (False, True)]
        for read_in in LANGS:
            with use_locale(read_in):
                assert [Card.parse(t) for t in texts] == [c for c in DECK for _ in (0, 1)]


@given(
    st.lists(st.sampled_from(DECK), unique=True),
    st.sampled_from(LANGS),
    st.sampled_from((None, False, True)),
)
def test_every_shown_hand_parses_back_to_the_same_cards(
    cards: list[Card], lang: str, symbols: bool | None
) -> None:
    with use_locale(lang):
        shown = cards_text(cards, symbols=symbols)
    for read_in in LANGS:
        with use_locale(read_in):
            assert parse_cards(shown) == cards


@given(st.sampled_from(DECK), st.sampled_from(LANGS), st.booleans())
def test_one_card_in_any_case_parses_back(card: Card, lang: str, symbols: bool) -> None:
    with use_locale(lang):
        shown = card_text(card, symbols=symbols)
    assert Card.parse(shown.lower()) == Card.parse(shown) == card


@given(st.text(max_size=4))
def test_card_problems_in_english_say_what_the_error_says(text: str) -> None:
    try:
        Card.parse(text)
    except CardError as error:
        assert error.reason is not None
        assert card_problem(error) == str(error)


def test_hand_problems_in_english_say_what_the_error_says() -> None:
    for hand, size in (("7H 8H 7h", None), ("7H 8H 9H", (10, 11)), ("7H", 3)):
        with pytest.raises(CardError) as caught:
            parse_cards(hand, size=size)
        assert card_problem(caught.value) == str(caught.value)


def test_card_problems_show_the_readers_letters() -> None:
    with pytest.raises(CardError) as caught:
        parse_cards("DH dh")
    with pytest.raises(CardError) as unknown:
        Card.parse("XH")
    with use_locale("de"):
        assert "D♥" in card_problem(caught.value)
        assert "B♠" in card_problem(unknown.value)
    with use_locale("fr"):
        assert "V♠" in card_problem(unknown.value)
    assert "QH" in card_problem(caught.value)


def test_a_command_line_card_error_without_a_reason_is_shown_as_written() -> None:
    assert card_problem(CardError('"hand" must be a list')) == '"hand" must be a list'


def test_runs_and_card_faces_in_the_readers_letters() -> None:
    assert ranks_text("QKA") == "Q-K-A" and ranks_text("KA2") == "K-A-2"
    assert card_faces()["T"] == "10" and card_faces()["J"] == "J"
    with use_locale("de"):
        assert ranks_text("QKA") == "D-K-A"
        assert card_faces() == {
            **{r: r for r in "A23456789"},
            "T": "10",
            "J": "B",
            "Q": "D",
            "K": "K",
        }
    with use_locale("fr"):
        assert ranks_text("QKA") == "D-R-A"
        assert (card_faces()["J"], card_faces()["K"]) == ("V", "R")


@pytest.mark.parametrize("mode", ["low", "high_or_low", "round_the_corner"])
@pytest.mark.parametrize(
    "typed", ["", "7H", "7H 7D", "7H 8H 9D", "QH KH AH", "KH AH 2H", "2H 4H 5H"]
)
def test_a_meld_refusal_is_worded_in_english_as_the_engine_says_it(typed: str, mode: str) -> None:
    from ginrules.melds import AceMode, MeldError, make_meld
    from ginrules.words.cards import meld_problem

    try:
        make_meld(parse_cards(typed) if typed else [], AceRule(AceMode(mode)))
    except MeldError as error:
        assert meld_problem(error) == str(error)
        with use_locale("de"):
            german = meld_problem(error)
        assert german != str(error)
        # The German letters of the cards, read back, are the cards typed.
        if typed and ":" in german:
            assert parse_cards(german.split(":", 1)[0]) == list(error.cards)
    else:
        assert (typed == "QH KH AH" and mode != "low") or (
            typed == "KH AH 2H" and mode == "round_the_corner"
        )
