"""The commands that score and play: score, simulate, replay."""

from __future__ import annotations

import io
import json
import random
from pathlib import Path

from ginrules.cli import main
from ginrules.engine.bots import make_bot
from ginrules.engine.hand import Hand
from ginrules.engine.play import play_hand
from tests.engine_helpers import config

HR_KNOCKER = "5S 6S 7S JC JD JH 9C 9D 9H 8D"
HR_DEFENDER = "4S 8S JS 2D 2H 2S 3C 3D KC KD"


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), out=out, err=err)
    return code, out.getvalue(), err.getvalue()


def test_score_in_words() -> None:
    code, out, err = run("score", "classic", "--knocker", HR_KNOCKER, "--defender", HR_DEFENDER)
    assert code == 0, err
    assert "Knocker shows: [9C 9D 9H] [JC JD JH] [5S 6S 7S]  deadwood 8D = 8" in out
    assert "Defender lays off: JS on JC JD JH; 4S on 5S 6S 7S; 8S on 5S 6S 7S" in out
    assert "Outcome: knock. The knocker scores 26 - 8 = 18." in out


def test_score_reads_the_cards_in_any_languages_letters() -> None:
    english = run("score", "classic", "--knocker", HR_KNOCKER, "--defender", HR_DEFENDER, "--json")
    german = run(
        "score",
        "classic",
        "--knocker",
        "5S 6S 7S BC BD BH 9C 9D 9H 8D",
        "--defender",
        "4S 8S BS 2D 2H 2S 3C 3D KC KD",
        "--json",
    )
    french = run(
        "score",
        "classic",
        "--knocker",
        "5♠ 6♠ 7♠ V♣ V♦ V♥ 9♣ 9♦ 9♥ 8♦",
        "--defender",
        "4♠ 8♠ V♠ 2♦ 2♥ 2♠ 3♣ 3♦ R♣ R♦",
        "--json",
    )
    assert english[0] == 0
    assert german == french == english  # and the answer in canonical codes: JS, KC


def test_score_undercut_under_each_school() -> None:
    # Knock at 8; the defender lays off two cards and is left with 6 (the HR example).
    knocker = "5S 6S 7S JC JD JH 9C 9D 9H 8D"
    defender = "4S 8S 2C 2D 2H AC AD 3H QC QD"
    code, out, _ = run("score", "classic", "--knocker", knocker, "--defender", defender, "--json")
    assert code == 0
    data = json.loads(out)
    assert data["knocker_deadwood"] == 8 and data["defender_deadwood"] == 1 + 1 + 3 + 10 + 10
    undercut = "4S 8S 2C 2D 2H 3C 3D 3H AC 5H"
    code, out, _ = run("score", "classic", "--knocker", knocker, "--defender", undercut, "--json")
    data = json.loads(out)
    assert (data["outcome"], data["winner"]) == ("undercut", "defender")
    assert [lay["card"] for lay in data["layoffs"]] == ["4S", "8S"]
    assert data["defender_deadwood"] == 6 and data["points"] == 25 + 2
    code, out, _ = run(
        "score", "traditional-20-10", "--knocker", knocker, "--defender", undercut, "--json"
    )
    assert json.loads(out)["points"] == 10 + 2


def test_score_oklahoma_upcard_sets_the_limit_and_spades_double() -> None:
    code, _, err = run(
        "score", "oklahoma", "--knocker", HR_KNOCKER, "--defender", HR_DEFENDER, "--upcard", "5H"
    )
    assert code == 1
    assert "the knock limit is 5 (the upcard 5H sets it)" in err
    code, _, err = run(
        "score", "oklahoma", "--knocker", HR_KNOCKER, "--defender", HR_DEFENDER, "--upcard", "AH"
    )
    assert code == 1 and "the knock limit is 0" in err
    code, out, _ = run(
        "score",
        "oklahoma-spades-150",
        "--knocker",
        HR_KNOCKER,
        "--defender",
        HR_DEFENDER,
        "--upcard",
        "9S",
        "--json",
    )
    data = json.loads(out)
    assert data["multiplier"] == 2 and data["points"] == 2 * (26 - 8)


def test_score_jsonl_batch_answers_every_line(tmp_path: Path) -> None:
    lines = [
        {
            "knocker_melds": [["5S", "6S", "7S"], ["JC", "JD", "JH"], ["9C", "9D", "9H"]],
            "knocker_deadwood": ["8D"],
            "defender": HR_DEFENDER.split(),
        },
        {"knocker_melds": [["5S", "6S", "7C"]], "knocker_deadwood": [], "defender": []},
        {"defender": HR_DEFENDER.split(), "knocker": HR_KNOCKER.split(), "colour": "red"},
        {
            "knocker_melds": [["5S", "6S", "7S"], ["JC", "JD", "JH"], ["9C", "9D", "9H", "9S"]],
            "knocker_deadwood": [],
            "defender": ["4S", "8S", "JS", "2D", "2H", "3S", "3C", "3D", "KC", "KD"],
            "upcard": "5H",
        },
    ]
    batch = tmp_path / "hands.jsonl"
    batch.write_text("\n".join(json.dumps(line) for line in lines) + "\nnot json\n")
    code, out, err = run("score", "classic", "--jsonl", "--input", str(batch))
    assert code == 1
    answers = [json.loads(line) for line in out.splitlines()]
    assert len(answers) == 5
    assert answers[0]["outcome"] == "knock" and answers[0]["points"] == 18
    assert answers[0]["winner"] == "knocker"
    assert "not a run" in answers[1]["error"] or "neither a set" in answers[1]["error"]
    assert answers[2] == {"error": "line 3: unknown field 'colour'", "line": 3}
    assert answers[3]["outcome"] == "gin" and answers[3]["layoffs"] == []
    assert answers[3]["points"] == 25 + answers[3]["defender_deadwood"]
    assert answers[4]["line"] == 5
    assert f"{batch}:5: error:" in err


def test_simulate_reports_rates_and_compares() -> None:
    code, out, err = run(
        "simulate", "classic", "--games", "30", "--seed", "4", "--compare", "oklahoma"
    )
    assert code == 0, err
    assert "classic (" in out and "30 matches" in out
    assert "wins: strong" in out and "hands end: knock" in out
    assert "Same seeds, classic -> oklahoma:" in out
    assert "30/30 games" in err  # the progress bar reached the end
    code, out, _ = run("simulate", "straight-gin", "--games", "10", "--json")
    data = json.loads(out)
    assert data["matches"] == 10
    assert data["rates"]["knock"] == 0 and data["rates"]["undercut"] == 0  # gin only
    assert abs(sum(data["rates"].values()) - 1) < 1e-9
    assert sum(data["wins"].values()) == data["games"]


def test_simulate_is_reproducible_and_rejects_bad_bots() -> None:
    first = run("simulate", "classic", "--games", "5", "--seed", "9", "--json")[1]
    second = run("simulate", "classic", "--games", "5", "--seed", "9", "--json")[1]
    assert first == second
    code, _, err = run("simulate", "classic", "--bots", "strong,clever")
    assert code == 2 and "two of random, greedy, strong" in err


def test_replay_reaches_the_recorded_result(tmp_path: Path) -> None:
    cfg = config("oklahoma")
    records = []
    for seed in range(5):
        h = Hand.deal(cfg, seed % 2, seed)
        bots = [make_bot("strong", cfg.ace), make_bot("greedy", cfg.ace)]
        play_hand(h, bots, [random.Random(seed), random.Random(seed + 1)])
        records.append(h.to_record("oklahoma"))
    path = tmp_path / "hands.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in records) + "\n")
    code, out, err = run("replay", str(path))
    assert code == 0, err
    assert out.count("same result as recorded") == 5
    records[2]["result"]["points"] = 999
    records[3]["actions"][0]["action"] = "knock"
    path.write_text("\n".join(json.dumps(r) for r in records) + "\n")
    code, out, err = run("replay", str(path))
    assert code == 1
    assert out.count("same result as recorded") == 3
    assert f"{path}:3: error: replay gives" in err
    assert f"{path}:4: error: action 1" in err
    single = tmp_path / "one.json"
    single.write_text(json.dumps(records[0], indent=2))
    assert run("replay", str(single))[0] == 0
    code, _, err = run("replay", str(single), "--ruleset", "classic")
    assert code == 1 and "same ruleset" in err
