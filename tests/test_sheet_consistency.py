"""Every sentence of a rule sheet is true for the rules it is printed for.

A property test renders the sheet for many generated valid rulesets and checks
rules of consistency: no sentence for a feature that is off or impossible
under those settings, no two sections that disagree about the same knob, no
stray tokens. One reviewed golden text per shipped ruleset
(``tests/sheets/<name>.txt``) shows any change of wording in review; to
rewrite them after a deliberate change, run
``GINRULES_UPDATE_SHEETS=1 python -m pytest tests/test_sheet_consistency.py``
and read the diff.
"""

from __future__ import annotations

import os
import re
import tempfile
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ginrules.rules import locate
from ginrules.rules.diagnostics import RulesetError
from ginrules.rules.load import Ruleset, load_ruleset
from ginrules.sheets.marks import Marks
from tests.sheet_text import rules_text, sheet_lines

GOLDEN = Path(__file__).parent / "sheets"
SHIPPED = sorted(entry.name for entry in locate.entries())
UPDATE = os.environ.get("GINRULES_UPDATE_SHEETS") == "1" and os.environ.get("CI") != "true"


# --- generated rulesets ---------------------------------------------------------------


@st.composite
def documents(draw: st.DrawFn) -> dict[str, Any]:
    """A valid ruleset document (extends classic), with the cross-field checks kept."""
    kind = draw(st.sampled_from(["two_player", "hollywood", "partnership", "three_handed"]))
    fmt: dict[str, Any] = {"type": kind}
    if kind == "hollywood":
        fmt.update(players=2, games=3)
    elif kind == "partnership":
        fmt.update(players=4, games=1, team_target=draw(st.sampled_from([125, 150, 200])))
    elif kind == "three_handed":
        fmt.update(players=3, games=1)
    else:
        fmt.update(players=2, games=1)
    oklahoma = draw(st.booleans())
    knock_limit = draw(st.integers(1, 10)) if oklahoma else draw(st.sampled_from([0, 5, 10]))
    first_turn = (
        "upcard_offer" if oklahoma else draw(st.sampled_from(["upcard_offer", "eleven_cards"]))
    )
    big_gin = draw(st.booleans())
    shutout = draw(st.sampled_from(["double_margin", "game_bonus", "double_score", "none"]))
    game_bonus = draw(st.sampled_from([0, 50, 100]))
    game: dict[str, Any] = {
        "target": draw(st.sampled_from([100, 150, 250])),
        "game_bonus": game_bonus,
        "box_bonus": draw(st.sampled_from([0, 20, 25])),
        "box_timing": draw(st.sampled_from(["after_game", "each_hand"])),
        "shutout": shutout,
        "stake_per_point": draw(st.sampled_from([0, 0.25, 1])),
    }
    if shutout == "game_bonus":
        game["shutout_game_bonus"] = max(game_bonus, 200)
    document: dict[str, Any] = {
        "extends": "classic",
        "name": "Generated",
        "cards": {
            "ace": draw(st.sampled_from(["low", "high_or_low", "round_the_corner"])),
            "ace_value": draw(st.sampled_from([1, 15])),
            "hand_size": draw(st.sampled_from([7, 10])),
        },
        "deal": {
            "first_dealer": draw(st.sampled_from(["low_card_deals", "high_card_deals"])),
            "next_dealer": draw(st.sampled_from(["loser", "winner", "alternate"])),
            "after_dead_hand": draw(st.sampled_from(["same_dealer", "next_dealer"])),
            "first_turn": first_turn,
        },
        "play": {
            "discard_taken_card": draw(st.booleans()),
            "knock_limit": knock_limit,
            "knock_on_first_turn": draw(st.booleans()),
            "gin_must_be_declared": draw(st.booleans()),
        },
        "oklahoma": {"enabled": oklahoma},
        "big_gin": {"enabled": big_gin},
        "stock_end": {
            "cards_left": draw(st.sampled_from([0, 2])),
            "last_discard_playable": draw(st.booleans()),
        },
        "hand_scoring": {
            "gin_bonus": draw(st.sampled_from([0, 20, 25])),
            "undercut_bonus": draw(st.sampled_from([0, 10, 25])),
            "undercut_on_tie": draw(st.booleans()),
        },
        "game_scoring": game,
        "format": fmt,
    }
    if oklahoma:
        document["oklahoma"]["ace_upcard"] = draw(st.sampled_from(["gin_only", "knock_with_1"]))
        spades = draw(st.booleans())
        document["oklahoma"]["spades_double"] = spades
        if spades:
            document["oklahoma"]["spades_double_scope"] = draw(
                st.sampled_from(["hand_points", "with_bonuses", "with_boxes"])
            )
    if big_gin:
        document["big_gin"]["bonus"] = draw(st.sampled_from([0, 31, 50]))
        document["big_gin"]["bonus_adds_to_gin"] = draw(st.booleans())
    return document


def _load(document: dict[str, Any]) -> Ruleset | None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "generated.yaml"
        path.write_text(yaml.safe_dump(document), encoding="utf-8")
        try:
            return load_ruleset(path)
        except RulesetError:
            return None  # a combination the cross-field checks refuse: not a sheet


# --- the consistency rules ---------------------------------------------------------


def _absent(text: str, *phrases: str) -> None:
    for phrase in phrases:
        assert phrase not in text, f"{phrase!r} printed where it cannot apply:\n{text}"


def check_sheet(ruleset: Ruleset) -> None:
    value = ruleset.value
    text = rules_text(ruleset)
    flat = " ".join(text.split("\n"))
    knocks = value("play.knock_limit") > 0 or value("oklahoma.enabled")

    # Stray tokens.
    for token in (r"\bNone\b", r"\bnull\b", r"\bTrue\b", r"\bFalse\b", r"[^\d\s]\.\d", r"\s[.,;:]"):
        assert not re.search(token, flat), (token, re.search(token, flat), flat)
    assert not re.search(r"[,;:]\s*[.,;:]|\.\s*[,;:]|\.\.", flat), flat
    assert "  " not in text

    # Features that are off, or cannot happen, are not described.
    if not knocks:
        _absent(
            flat, "Undercut", "undercut", "lay off", "Lay-offs", "knocker scores", "knock or go gin"
        )
    if not value("showdown.layoffs"):
        _absent(flat, "may lay off", "counted after lay-offs")
    if not value("big_gin.enabled"):
        _absent(flat, "Big gin", "big gin")
    if not value("oklahoma.enabled"):
        _absent(flat, "Oklahoma", "upcard sets", "first upcard also")
    if not value("oklahoma.spades_double"):
        _absent(flat, "spade", "Spade")
    if not value("game_scoring.box_bonus"):
        _absent(flat, "Boxes:", "and boxes", "plus boxes", "loser's boxes")
    if not value("game_scoring.game_bonus") and value("game_scoring.shutout") != "game_bonus":
        _absent(flat, "game bonus of", "plus the game bonus")
    if value("hand_scoring.undercut_on_tie"):
        _absent(flat, "On a tie")
    if not (knocks and value("play.gin_must_be_declared")):
        _absent(flat, "must be declared", 'Say "gin"')
    else:
        assert "scores as a plain knock" in flat
    if not value("stock_end.last_discard_playable"):
        _absent(flat, "takes that discard")
    if value("game_scoring.box_timing") == "each_hand":
        _absent(flat, "loser's boxes make")
    size = value("cards.hand_size")
    for other in ("seven", "ten", "7", "10"):
        if other not in (str(size), {7: "seven", 10: "ten"}[size]):
            _absent(flat, f"all {other} cards")
    assert f"all {size} cards" in flat
    if value("format.type") != "hollywood":
        _absent(flat, "Hollywood", "games scored at once")
    if value("format.type") != "partnership":
        _absent(flat, "team", "Team", "pairing")
    if value("format.type") != "three_handed":
        _absent(flat, "sits out")

    # Sections agree: the next dealer is said once, the way the knob says.
    dealer = value("deal.next_dealer")
    for other in {"loser", "winner"} - {dealer}:
        _absent(flat, f"the {other} of the hand deals", f"team that {other[:-2]}t the netted")
    if dealer == "alternate":
        _absent(flat, "of the hand deals and sits out")
    assert flat.count("After each hand") + flat.count("The deal alternates") == 1, flat

    # Every marked value is noted; nothing inert is listed as a rule's origin.
    lines = sheet_lines(ruleset)
    marks = Marks(ruleset)
    refs = set(re.findall(r"\[(\d+)\]", "\n".join(lines)))
    assert len(refs) == len(marks.departures()) or (not marks.departures() and not refs)


@settings(
    max_examples=int(os.environ.get("SHEET_EXAMPLES", "40")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(documents())
def test_every_sentence_fits_the_rules_it_is_printed_for(document: dict[str, Any]) -> None:
    ruleset = _load(document)
    if ruleset is not None:
        check_sheet(ruleset)


@pytest.mark.parametrize("name", SHIPPED)
def test_shipped_sheets_are_consistent(name: str) -> None:
    check_sheet(load_ruleset(name))


def test_the_checks_catch_a_wrong_sentence(monkeypatch: pytest.MonkeyPatch) -> None:
    """The checker is not vacuous: a straight-gin sheet that talked of undercuts fails."""
    import tests.test_sheet_consistency as me

    ruleset = load_ruleset("straight-gin")
    original = rules_text
    monkeypatch.setattr(me, "rules_text", lambda r: original(r) + "\n- Undercut: 25.")
    with pytest.raises(AssertionError, match="Undercut"):
        check_sheet(ruleset)


# --- golden texts ----------------------------------------------------------------------


@pytest.mark.parametrize("name", SHIPPED)
def test_golden_sheet_text(name: str) -> None:
    text = "\n".join(sheet_lines(load_ruleset(name))) + "\n"
    path = GOLDEN / f"{name}.txt"
    if UPDATE:
        path.parent.mkdir(exist_ok=True)
        path.write_text(text, encoding="utf-8")
    assert path.exists(), f"no golden text for {name}: run with GINRULES_UPDATE_SHEETS=1"
    assert text == path.read_text(encoding="utf-8"), (
        f"the {name} sheet's words changed: review, then GINRULES_UPDATE_SHEETS=1"
    )


def test_every_golden_text_is_a_shipped_ruleset() -> None:
    assert sorted(p.stem for p in GOLDEN.glob("*.txt")) == SHIPPED


def test_a_spade_upcard_never_says_doubled_when_nothing_was() -> None:
    from ginrules.cards import Card
    from ginrules.engine.scoring import score_hand
    from ginrules.rules.compile import compile_ruleset
    from ginrules.words.showdown import points_text

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "spades.yaml"
        path.write_text(
            "extends: oklahoma\n"
            "oklahoma: {spades_double: true, spades_double_scope: hand_points}\n"
            "hand_scoring: {undercut_on_tie: false}\n",
            encoding="utf-8",
        )
        config = compile_ruleset(load_ruleset(path))
    spade = Card.parse("9S")
    tie = points_text(score_hand(config, 3, 3, upcard=spade))
    gin_against_nothing = points_text(score_hand(config, 0, 0, upcard=spade))
    knock = points_text(score_hand(config, 3, 13, upcard=spade))
    assert "doubled" not in tie and "nothing to double" in tie
    assert "doubled" not in gin_against_nothing and gin_against_nothing.endswith(
        "= 25 (a spade upcard, with nothing to double)"
    )
    assert knock == "2 x (13 - 3) = 20 (doubled for a spade upcard)"
