"""Golden cases: every ruleset's scenarios hold, and every knob is proved to matter.

The case files and their format are in ``tests/cases/`` (see its README).
Three things are checked:

- each case holds under its file's ruleset (one test per case, id
  ``<ruleset>:<case>``);
- each ``covers:`` entry of a case *breaks* it: the ruleset with that knob
  changed is compiled, the case is run under it, and it must fail, which
  proves the engine does not ignore the knob;
- the covered knobs are exactly the schema's knobs, so a new knob without a
  golden case fails the suite.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from ginrules import schema as ruleset_schema
from ginrules.rules import locate
from ginrules.rules.diagnostics import RulesetError
from tests.golden import (
    CASES_DIR,
    Case,
    CaseFormatError,
    Mutation,
    case_config,
    case_ruleset,
    load_case_file,
    parse_case,
    run_case,
)

#: Fewest cases a file may hold: a ruleset deserves more than a token case or two.
MINIMUM_CASES_PER_FILE = 8

CASE_FILES = sorted(CASES_DIR.glob("*.yaml"))
CASES = [case for path in CASE_FILES for case in load_case_file(path).cases]
MUTATIONS = [(case, mutation) for case in CASES for mutation in case.covers]


def _case_param(case: Case) -> object:
    marks = (
        [pytest.mark.xfail(reason=f"known engine bug: {case.known_bug}", strict=True)]
        if case.known_bug
        else []
    )
    return pytest.param(case, id=case.name, marks=marks)


# --- the folder --------------------------------------------------------------------


def test_every_ruleset_and_house_rule_has_a_case_file() -> None:
    shipped = {entry.name for entry in locate.entries()}
    assert {path.stem for path in CASE_FILES} == shipped


@pytest.mark.parametrize("path", CASE_FILES, ids=lambda p: p.stem)
def test_case_file_has_enough_cases(path: Path) -> None:
    assert len(load_case_file(path).cases) >= MINIMUM_CASES_PER_FILE


# --- each case -----------------------------------------------------------------------


@pytest.mark.parametrize("case", [_case_param(case) for case in CASES])
def test_case_holds(case: Case) -> None:
    failures = run_case(case, case_config(case))
    assert not failures, f"{case.name} fails under its own ruleset:\n  " + "\n  ".join(failures)


@pytest.mark.parametrize(
    ("case", "mutation"),
    [pytest.param(case, m, id=f"{case.name}:{m.label}") for case, m in MUTATIONS],
)
def test_case_fails_when_the_knob_changes(case: Case, mutation: Mutation) -> None:
    try:
        config = case_config(case, mutation)
    except RulesetError as error:
        pytest.fail(
            f"{case.name}: the ruleset with {mutation.label} is refused; list the knobs it"
            f" needs under 'with:':\n{error}"
        )
    failures = run_case(case, config)
    assert failures, (
        f"{case.name} still holds with {mutation.label}: the engine ignores"
        f" {mutation.knob}, or the case does not depend on it"
    )


# --- the coverage proof -----------------------------------------------------------


def test_every_knob_is_covered_by_a_golden_case() -> None:
    covered = {mutation.knob for _, mutation in MUTATIONS}
    knobs = {knob.dotted for knob in ruleset_schema.knobs()}
    assert sorted(knobs - covered) == [], "knobs without a golden case that depends on them"
    assert covered == knobs


@pytest.mark.parametrize(
    ("case", "mutation"),
    [pytest.param(case, m, id=f"{case.name}:{m.label}") for case, m in MUTATIONS],
)
def test_a_cover_changes_the_knob(case: Case, mutation: Mutation) -> None:
    own = case_ruleset(case).value(mutation.knob)
    assert not ruleset_schema.same_value(own, mutation.value), (
        f"{case.name} covers {mutation.knob} with {mutation.value!r}, the value it already has"
    )


@pytest.mark.parametrize("case", [pytest.param(case, id=case.name) for case in CASES if case.rules])
def test_case_rules_change_the_ruleset(case: Case) -> None:
    own = case_ruleset(dataclasses.replace(case, rules={}))
    unchanged = [
        knob
        for knob, value in case.rules.items()
        if ruleset_schema.same_value(own.value(knob), value)
    ]
    assert unchanged == [], f"{case.name} 'rules' restates the ruleset's own values"


# --- the format itself --------------------------------------------------------------


def _case(**entry: object) -> Case:
    return parse_case({"id": "probe", **entry}, "classic")


@pytest.mark.parametrize(
    ("entry", "message"),
    [
        ({"deadwood": "7H 8H 9H", "expect": {"deadwod": 0}}, "unknown key 'deadwod'"),
        ({"expect": {"deadwood": 0}}, "exactly one of"),
        ({"deadwood": "7H", "game": {}, "expect": {"deadwood": 0}}, "exactly one of"),
        ({"deadwood": "7H 8H 9H"}, "'expect'"),
        (
            {"deadwood": "7H 8H 9H", "covers": {"hand_scoring.gin_bonsu": 20}, "expect": {"x": 1}},
            "unknown key 'x'",
        ),
        (
            {"deadwood": "7H", "covers": {"hand_scoring.gin_bonsu": 20}, "expect": {"deadwood": 7}},
            "'hand_scoring.gin_bonsu' is not a knob",
        ),
        (
            {"deadwood": "7H", "rules": {"gin_bonus": 20}, "expect": {"deadwood": 7}},
            "'gin_bonus' is not a knob",
        ),
        (
            {"hand": {"seed": 1, "actions": ["draw", "discrad 7H"]}, "expect": {"phase": "draw"}},
            "not an action",
        ),
        (
            {"hand": {"seed": 1, "actions": ["draw-discard 3"]}, "expect": {"illegal": "x"}},
            "single last action",
        ),
        (
            {"game": {"seed": 1, "hands": ["0 wins thirty"]}, "expect": {"finished": True}},
            "not 'dead'",
        ),
        (
            {"game": {"seed": 1, "hands": []}, "expect": {"result": {"winer": 0}}},
            "unknown key 'winer'",
        ),
        ({"game": {"hands": []}, "expect": {"finished": True}}, "give the match's 'seed'"),
        (
            {"hand": {"seed": 1, "upcard": "7H"}, "expect": {"phase": "offer"}},
            "not both",
        ),
        (
            {
                "deadwood": "7H",
                "known_bug": "x",
                "covers": {"cards.ace_value": 15},
                "expect": {"deadwood": 7},
            },
            "covers nothing",
        ),
    ],
)
def test_malformed_cases_are_refused(entry: dict[str, object], message: str) -> None:
    with pytest.raises(CaseFormatError, match=message):
        _case(**entry)


def test_a_failing_case_says_what_differs() -> None:
    case = _case(deadwood="5S 6S 7S KC", expect={"deadwood": 9, "unmatched": "KC"})
    assert run_case(case, case_config(case)) == ["deadwood: expected 9, got 10"]


def test_an_action_the_engine_refuses_is_a_failure_not_an_error() -> None:
    case = _case(hand={"seed": 3, "dealer": 0, "actions": [{1: "draw"}]}, expect={"phase": "draw"})
    (failure,) = run_case(case, case_config(case))
    assert failure.startswith("action 1 (1: draw) was refused: draw: not allowed now")


def test_a_refusal_that_does_not_come_fails() -> None:
    case = _case(hand={"seed": 3, "actions": ["1: pass"]}, expect={"illegal": "anything"})
    (failure,) = run_case(case, case_config(case))
    assert "expected '1: pass' to be refused" in failure


def test_cover_forms() -> None:
    case = _case(
        deadwood="7H",
        covers={
            "cards.ace_value": [2, 15],
            "format.type": {"value": "hollywood", "with": {"format.games": 3}},
        },
        expect={"deadwood": 7},
    )
    assert [m.label for m in case.covers] == [
        "cards.ace_value=2",
        "cards.ace_value=15",
        "format.type=hollywood+format.games=3",
    ]


def test_a_mutation_the_loader_refuses_is_reported() -> None:
    case = _case(deadwood="7H", expect={"deadwood": 7})
    with pytest.raises(RulesetError, match="three-handed game has 3 players"):
        case_config(case, Mutation("format.type", "three_handed"))
