"""``ginrules play``: a person against a bot, driven by scripted and computed input."""

from __future__ import annotations

import io
import json
import random
import re
from pathlib import Path

from ginrules.cards import Card, parse_cards
from ginrules.cli import main
from ginrules.cli.common import Output
from ginrules.cli.terminal_player import TerminalPlayer
from ginrules.engine.actions import DEFEND_BEST, Act, parse_action
from ginrules.engine.hand import Hand, Phase
from ginrules.engine.record import replay
from ginrules.layoffs import Layoff
from ginrules.words.cards import CardView
from ginrules.words.showdown import points_text
from tests.engine_helpers import config


def play(*argv: str, script: str = "") -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(["play", *argv], out=out, err=err, inp=io.StringIO(script))
    return code, out.getvalue(), err.getvalue()


class Autopilot(io.StringIO):
    """Input typed on the fly from what the game printed last: knock or go gin when
    the moves offer it, else draw, pass the upcard, and discard the card the moves
    suggest; Enter at the showdown questions. Ends the input after ``limit`` lines."""

    def __init__(self, out: io.StringIO, limit: int = 3000) -> None:
        super().__init__()
        self.out = out
        self.limit = limit
        self.lines = 0

    # typeshed also sees _io._IOBase.readline (bytes) above StringIO's own.
    def readline(self, size: int | None = -1, /) -> str:  # type: ignore[override]
        self.lines += 1
        if self.lines > self.limit:
            return ""
        printed = self.out.getvalue()
        if printed.endswith(("melds> ", "lay off> ")):
            return "\n"
        moves = printed[printed.rindex("\nmoves: ") + 8 :].split("\n", 1)[0].split(" | ")
        return self.answer(moves) + "\n"

    @staticmethod
    def answer(moves: list[str]) -> str:
        if "big gin" in moves:
            return "big gin"
        for move in moves:
            if move.startswith(("gin ", "knock ")):
                return " ".join(move.split()[:2])
        for move in moves:
            if move.startswith("draw"):
                return "draw"
        if any(move.startswith("pass") for move in moves):
            return "pass"
        example = re.search(r"\(e\.g\. (\w+)\)", moves[0])
        assert example, moves
        return example.group(1)


def autoplay(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(["play", *argv], out=out, err=err, inp=Autopilot(out))
    return code, out.getvalue(), err.getvalue()


def test_scripted_turns_then_quit_shows_the_score() -> None:
    # Seed 1: the bot passes the upcard AD; we pass too, so we draw from the stock.
    code, out, err = play("classic", "--seed", "1", "--no-symbols", script="pass\ndraw\nq\n")
    assert code == 0, err
    assert "=== hand 1; you deal, bot plays first" in out
    assert "bot passes the upcard AD" in out
    assert "discard pile: AD (1 card) | stock: 31 (dead at 2) | knock limit 10" in out
    assert "your hand: 4C 9C 4D 5D QD 3H TH QH 8S JS | deadwood 73" in out
    assert "moves: take AD (the upcard) | pass" in out
    assert "moves: draw (from the stock)" in out
    assert "you drew " in out
    assert "moves: discard a card (e.g. " in out
    assert out.rstrip().endswith(
        "game abandoned after 0 hands\nscore (you to bot): 0 to 0 (target 100)"
    )
    assert "Traceback" not in out + err


def test_a_discard_by_card_name_in_any_notation() -> None:
    code, out, _ = play("classic", "--seed", "1", script="pass\ndraw\nq♦\n")
    assert code == 0
    assert "you drew" in out
    # QD is discarded (written q♦), so the bot's turn follows and ours comes back.
    assert out.count("-- your turn") == 3
    hands = [line for line in out.splitlines() if line.startswith("your hand:")]
    assert "Q♦" in hands[-2] and "Q♦" not in hands[-1]
    assert "discard pile: " in out.split("> q♦")[1]


def test_end_of_input_quits_cleanly() -> None:
    code, out, err = play("classic", "--seed", "1", script="pass\n")
    assert code == 0, err
    assert "game abandoned after 0 hands" in out
    assert err == ""


def test_illegal_and_unreadable_moves_give_the_reason_and_ask_again() -> None:
    script = "draw\nknock\nknock 2C\n9X\npass\ndraw\n2C\nknock\nknock QD\nq\n"
    code, out, err = play("classic", "--seed", "1", "--no-symbols", script=script)
    assert code == 0, err
    # The engine's reasons, word for word.
    assert "not allowed: draw: not allowed now; player 0 may take, pass" in out
    assert "not allowed: knock 2C: not allowed now; player 0 may take, pass" in out
    assert "not allowed: discard 2C: player 0 does not hold that card" in out
    assert "not allowed: knock QD: that leaves 43 deadwood" in out
    assert out.count("not allowed: knock QD: that leaves 43 deadwood") == 2, "knock, knock QD"
    assert "the knock limit this hand is 10" in out
    # Our own words where the engine has nothing to check yet.
    assert "you knock after drawing, as you discard: draw or take a card first" in out
    assert "not a move: '9X'" in out
    # Every refusal asks again: one prompt per line of the script.
    assert out.count("> ") == script.count("\n")
    assert "Traceback" not in out + err


def test_naming_the_upcard_takes_it_and_it_may_not_go_straight_back() -> None:
    code, out, err = play("classic", "--seed", "1", "--no-symbols", script="AD\nAD\nq\n")
    assert code == 0, err
    assert "you took AD" in out
    assert "moves: discard a card except AD (e.g. " in out
    assert "not allowed: discard AD: you may not discard the card you just took" in out


def test_help() -> None:
    code, out, _ = play("classic", "--seed", "1", script="?\nq\n")
    assert code == 0
    assert "knock 3C, gin 3C" in out
    assert "q, quit, Ctrl-D" in out


def test_a_whole_game_explains_every_showdown_as_the_engine_scored_it(tmp_path: Path) -> None:
    record = tmp_path / "hands.jsonl"
    code, out, err = autoplay(
        "classic", "--seed", "3", "--auto-showdown", "--no-symbols", "--record", str(record)
    )
    assert code == 0, err
    assert "=== game over ===" in out
    rules = config("classic")
    totals = [0, 0]
    position = 0
    names = ["you", "bot"]
    hands = [json.loads(line) for line in record.read_text(encoding="utf-8").splitlines()]
    assert len(hands) >= 2
    for number, item in enumerate(hands, 1):
        replayed = replay(item, rules)
        assert replayed.matches
        hand = replayed.hand
        position = out.index(f"=== hand {number};", position)
        if hand.showdown is None:
            expected = "-- dead hand --"
        else:
            score = hand.showdown.score
            winner = names[hand.showdown.winner]
            verb = "score" if winner == "you" else "scores"
            expected = f"{score.end.value.replace('_', ' ')}: {winner} {verb} {points_text(score)}"
            totals[hand.showdown.winner] += score.points
            knocker = names[hand.showdown.knocker]
            shown = hand.showdown.knocker_arrangement
            melds = " ".join(f"[{meld}]" for meld in shown.melds)
            shows = "you show" if knocker == "you" else "bot shows"
            assert f"{shows}: {melds}" in out[position:]
        position = out.index(expected, position)
        standing = f"score (you to bot): {totals[0]} to {totals[1]} (target 100)"
        position = out.index(standing, position)
    winner = "you win" if totals[0] > totals[1] else "bot wins"
    assert f"{winner}: you {totals[0]}, bot {totals[1]} after {len(hands)} hands" in out
    assert "with the bonuses: a margin of " in out


def test_showdown_questions_take_the_defaults_on_enter() -> None:
    code, out, err = autoplay("classic", "--seed", "11", "--no-symbols")
    assert code == 0, err
    assert "=== game over ===" in out
    asked = out.count("melds> ") + out.count("lay off> ")
    assert asked > 0, "some knock in this game should ask which melds or lay-offs"


def test_partnership_shows_the_other_table_and_the_net() -> None:
    code, out, err = autoplay("partnership", "--seed", "2", "--auto-showdown", "--no-symbols")
    assert code == 0, err
    assert "=== hand 1: you against bot 1; you deal, bot 1 plays first" in out
    assert "knock limit 10; partner plays bot 3 at the other table" in out
    assert "=== hand 2: you against bot 3;" in out, "opponents switch each hand"
    assert re.search(r"\npartner against bot [13]: |\nbot [13] against partner: ", out)
    assert re.search(r"\nnetted: team [AB] scores \d+\n|\nthe two tables cancel out", out)
    assert "score (you and partner are team A): team A (seats 0 & 2)" in out
    assert "=== game over ===" in out


def test_three_handed_the_dealer_sits_out(tmp_path: Path) -> None:
    table = tmp_path / "three.yaml"
    table.write_text(
        "extends: classic\nname: Three\nformat:\n  type: three_handed\n  players: 3\n",
        encoding="utf-8",
    )
    code, out, err = autoplay(str(table), "--seed", "5", "--auto-showdown", "--no-symbols")
    assert code == 0, err
    assert "you deal and sit out; bot 1 against bot 2: " in out
    assert re.search(r"=== hand \d+: you against bot (1|2); bot (1|2) deals and sits out, ", out)
    assert "score (you / bot 1 / bot 2): " in out
    assert "=== game over ===" in out


def test_a_ruleset_with_errors_is_reported() -> None:
    code, _, err = play("no-such-ruleset", script="q\n")
    assert code == 1
    assert err


# --- the person's choices at a showdown, on laid-out hands ------------------------


def _seated(hand: Hand, script: str, *, auto: bool = False) -> tuple[TerminalPlayer, io.StringIO]:
    rules = hand.config
    out = io.StringIO()
    output = Output(out, io.StringIO(), io.StringIO(script))
    person = TerminalPlayer(rules, output, CardView(rules.ace, symbols=False), auto_showdown=auto)
    person.sit_down(hand, "bot")
    return person, out


def _bot_knocks() -> Hand:
    """The bot (seat 1) knocks 2C with [3C 3D 3S] [KC KD KH] [6H 7H 8H], AS left;
    the person (seat 0) holds 9H and TH, a chain of lay-offs on the heart run."""
    hand = Hand.from_cards(
        config("classic"),
        dealer=1,
        non_dealer_cards=parse_cards("9H TH 5S 5D 5C JC QC 4S 2D 7S"),
        dealer_cards=parse_cards("6H 7H 8H 3S 3D 3C AS 2C KD KC"),
        upcard=Card.parse("8C"),
        stock=parse_cards("9S KH"),
    )
    for move in ("pass", "pass", "draw", "9S", "draw", "knock 2C"):
        hand.apply(parse_action(move))
    assert hand.phase is Phase.LAYOFF and hand.to_move == 0
    return hand


def test_the_defender_accepts_the_best_lay_offs_with_enter() -> None:
    hand = _bot_knocks()
    person, out = _seated(hand, "\n")
    assert person.choose(hand.observation(0), hand.legal_actions(), random.Random(0)) is DEFEND_BEST
    shown = out.getvalue()
    assert "-- bot knocks with 1 deadwood, showing --" in shown
    assert "  3: [6H 7H 8H]" in shown
    assert "best defense: lay off 9H>3 TH>3, leaving" in shown


def test_the_defender_chooses_lay_offs() -> None:
    hand = _bot_knocks()
    # TH alone does not fit (9H must go first): the engine says why, and we ask again.
    person, out = _seated(hand, "TH>3\nQC>9\n9H\n")
    action = person.choose(hand.observation(0), hand.legal_actions(), random.Random(0))
    assert "not allowed: player 0: TH does not fit on 6H 7H 8H" in out.getvalue()
    assert "not allowed: player 0: QC: there is no meld 9 (the knocker shows 3)" in out.getvalue()
    assert action.kind is Act.DEFEND and action.layoffs == (Layoff(Card.parse("9H"), 2),)
    hand.apply(action)
    assert hand.showdown is not None
    assert hand.showdown.defense.deadwood == 43  # TH stays in the deadwood
    assert hand.showdown.score.points == 42


def test_auto_showdown_never_asks_the_defender() -> None:
    hand = _bot_knocks()
    person, out = _seated(hand, "", auto=True)
    assert person.choose(hand.observation(0), hand.legal_actions(), random.Random(0)) is DEFEND_BEST
    assert "lay off>" not in out.getvalue()


def _person_can_knock() -> Hand:
    """The person (seat 0) draws KH to [3C 4C 5C 6C] [8D 8H 8S] AD 2S 3D: knock KH leaves 6."""
    hand = Hand.from_cards(
        config("classic"),
        dealer=1,
        non_dealer_cards=parse_cards("3C 4C 5C 6C 8D 8H 8S 2S AD 3D"),
        dealer_cards=parse_cards("6H 7H 9H 3S 4D 3H AS 2C KD KC"),
        upcard=Card.parse("TC"),
        stock=parse_cards("KH"),
    )
    for move in ("pass", "pass", "draw"):
        hand.apply(parse_action(move))
    return hand


def test_the_knocker_chooses_the_melds_to_show() -> None:
    hand = _person_can_knock()
    script = "knock\nknock KH\n3C 4C 5C / 8D 8H 8S\n[8S 8H 8D] [3C 4C 5C 6C]\n"
    person, out = _seated(hand, script)
    action = person.choose(hand.observation(0), hand.legal_actions(), random.Random(0))
    shown = out.getvalue()
    assert "your hand: [8D 8H 8S] [3C 4C 5C 6C]  AD 3D KH 2S | deadwood 16" in shown
    assert "knock with which discard? knock KH (leaves 6)" in shown
    assert "melds to show: [8D 8H 8S] [3C 4C 5C 6C]  AD 3D 2S | deadwood 6" in shown
    assert "not allowed: knock KH [3C 4C 5C | 8D 8H 8S]: those melds leave 12 deadwood" in shown
    assert action.kind is Act.KNOCK and action.card == Card.parse("KH")
    assert action.melds is not None and len(action.melds) == 2
    hand.apply(action)
    assert hand.phase is Phase.LAYOFF


def test_oklahoma_says_the_upcard_sets_the_knock_limit() -> None:
    code, out, _ = play("oklahoma", "--seed", "1", "--no-symbols", script="q\n")
    assert code == 0
    assert "discard pile: AD (1 card) | stock: 31 (dead at 2) | knock limit 0 (gin only)," in out
    assert "knock limit 0 (gin only), set by the upcard AD" in out
