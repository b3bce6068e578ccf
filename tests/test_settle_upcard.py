"""Settling an Oklahoma hand whose first upcard was taken, the same way the engine plays it."""

from __future__ import annotations

import io
import json

import pytest

from ginrules.cards import Card, parse_cards
from ginrules.cli import main
from ginrules.engine.settle import SettleError, Unsettled, settle
from ginrules.words.problems import message
from tests.engine_helpers import config, hand, play

KNOCKER = "9C 9D 9S JC QC KC 5H 6H 7H 3D"
DEFENDER = "KD KH KS 2S 3S 4S 6C 7D 4H 8H"


@pytest.mark.parametrize("name", ["oklahoma", "oklahoma-spades-150"])
def test_a_taken_upcard_settles_as_the_engine_plays_the_hand(name: str) -> None:
    cfg = config(name)
    # The non-dealer takes the 9S upcard (limit 9) and knocks, discarding 2C face down.
    played = hand(cfg, "9C 9D JC QC KC 5H 6H 7H 3D 2C", DEFENDER, upcard="9S", stock="AH 2H")
    play(played, "take", "knock 2C", "defend")
    assert played.showdown is not None
    settled = settle(
        cfg, knocker=parse_cards(KNOCKER), defender=parse_cards(DEFENDER), upcard=Card.parse("9S")
    )
    assert settled.score == played.showdown.score
    assert settled.score.points > 0
    doubled = cfg.spades_double is not None
    assert settled.score.multiplier == (2 if doubled else 1)


def test_the_upcard_may_be_in_the_defenders_hand_too() -> None:
    cfg = config("oklahoma")
    settled = settle(
        cfg,
        knocker=parse_cards("9C 9D 9H JC QC KC 5H 6H 7H 3D"),
        defender=parse_cards("9S KH KS 2S 3S 4S 6C 7D 4H 8H"),
        upcard=Card.parse("9S"),
    )
    assert settled.score.points > 0


def test_oklahoma_needs_the_upcard_and_says_how_to_give_it() -> None:
    with pytest.raises(SettleError) as missing:
        settle(config("oklahoma"), knocker=parse_cards(KNOCKER), defender=parse_cards(DEFENDER))
    assert missing.value.reason is Unsettled.UPCARD_NEEDED
    assert "--upcard" in message(missing.value) and '"upcard"' in message(missing.value)
    # Classic rules need no upcard.
    assert settle(config("classic"), knocker=parse_cards(KNOCKER), defender=parse_cards(DEFENDER))


def run(*argv: str, given: str = "") -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), out=out, err=err, inp=io.StringIO(given))
    return code, out.getvalue(), err.getvalue()


def test_the_score_command_takes_a_taken_spade_upcard_and_doubles() -> None:
    code, out, err = run(
        "score", "oklahoma-spades-150", "--knocker", KNOCKER, "--defender", DEFENDER,
        "--upcard", "9S",
    )  # fmt: skip
    assert code == 0, err
    assert "Upcard 9S: the knock limit this hand is 9 and the hand counts double" in out
    assert "doubled for a spade upcard" in out
    code, out, err = run(
        "score", "oklahoma-spades-150", "--knocker", KNOCKER, "--defender", DEFENDER
    )
    assert code == 1
    assert "--upcard" in err and not out


def test_a_jsonl_line_without_the_oklahoma_upcard_is_an_error_naming_it() -> None:
    given = (
        '{"knocker_melds": [["9C","9D","9S"],["JC","QC","KC"],["5H","6H","7H"]],'
        ' "knocker_deadwood": ["3D"], "defender": ["KD","KH","KS","2S","3S","4S","6C","7D",'
        '"4H","8H"]}\n'
    )
    code, out, _ = run("score", "oklahoma", "--jsonl", given=given)
    assert code == 1
    assert json.loads(out)["error"].endswith('"upcard" in JSON)')
    with_upcard = given.replace("}\n", ', "upcard": "9S"}\n')
    code, out, _ = run("score", "oklahoma", "--jsonl", given=with_upcard)
    assert code == 0, out
    assert json.loads(out)["points"] > 0
