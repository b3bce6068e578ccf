"""The golden-case runner: whole scenarios per ruleset, with the results the rules give.

A case file, ``tests/cases/<ruleset>.yaml``, names the ruleset its cases run
under and lists the cases; ``tests/cases/README.md`` documents the format.
Each case is one of five kinds:

deadwood
    A hand of cards: its best melds and deadwood.
showdown
    A knock settled at the table (:func:`ginrules.engine.settle.settle`).
hand
    A hand played through the state machine, action by action.
game
    Synthetic hand results fed to a match (:func:`ginrules.engine.match.new_match`).
round
    A partnership round's two pairings played through the engine, from one
    shared deck or one deck each (``tests/golden_rounds.py``).

:func:`load_case_file` reads a file and refuses anything it does not know (a
misspelt expectation must not pass by being ignored), :func:`case_config`
compiles the ruleset a case runs under, optionally *mutated* (one knob
changed, for the coverage proof), and :func:`run_case` plays the case and
returns its failures as readable messages: an empty list means the case holds.
"""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

import yaml

from ginrules import schema as ruleset_schema
from ginrules.cards import DECK, Card, CardError, parse_cards
from ginrules.engine.actions import Action, parse_action
from ginrules.engine.hand import Hand
from ginrules.engine.illegal import IllegalAction
from ginrules.engine.match import (
    Deal,
    HandOutcome,
    HollywoodMatch,
    Match,
    PartnershipGame,
    ThreeHandedGame,
    new_match,
)
from ginrules.engine.scoreboard import Scoreboard
from ginrules.engine.scorepad import PadEntry, new_score_pad
from ginrules.engine.scoring import HandScore, Showdown
from ginrules.engine.settle import settle
from ginrules.melds import best_melds
from ginrules.rules import locate
from ginrules.rules.compile import EngineConfig, compile_ruleset
from ginrules.rules.load import Ruleset, load_ruleset_text
from ginrules.words.problems import illegal_message, message
from ginrules.words.showdown import points_text
from tests.engine_helpers import snapshot

CASES_DIR: Final = Path(__file__).resolve().parent / "cases"

KINDS: Final = ("deadwood", "showdown", "hand", "game", "round")

_CASE_KEYS: Final = frozenset(
    {"id", "source", "note", "rules", "covers", "known_bug", "expect", *KINDS}
)
_SETUP_KEYS: Final[dict[str, frozenset[str]]] = {
    "showdown": frozenset({"knocker", "knocker_melds", "knocker_deadwood", "defender", "upcard"}),
    "hand": frozenset(
        {
            "dealer",
            "seed",
            "non_dealer_cards",
            "dealer_cards",
            "upcard",
            "stock",
            "stock_last",
            "actions",
        }
    ),
    "game": frozenset({"seed", "hands"}),
    "round": frozenset({"seed", "dealers", "pairings", "stock", "actions"}),
}
_SCORE_KEYS: Final = frozenset(
    {
        "outcome",
        "winner",
        "points",
        "bonus",
        "multiplier",
        "boxes",
        "deadwood_points",
        "knocker_deadwood",
        "defender_deadwood",
        "layoffs",
    }
)
_EXPECT_KEYS: Final[dict[str, frozenset[str]]] = {
    "deadwood": frozenset({"deadwood", "melds", "unmatched"}),
    "showdown": _SCORE_KEYS | {"error"},
    "hand": _SCORE_KEYS
    | {
        "knocker",
        "phase",
        "to_move",
        "knock_limit",
        "stock_left",
        "cards_held",
        "upcard",
        "legal",
        "legal_includes",
        "legal_excludes",
        "illegal",
    },
    "game": frozenset(
        {"error", "finished", "dealers", "next_dealer", "seats", "nets", "result", "results"}
    ),
    "round": frozenset({"turn", "stock_left", "pairings"}),
}
_BOARD_KEYS: Final = frozenset({"winner", "points", "boxes", "hands", "finished", "settlements"})
_SETTLEMENT_KEYS: Final = frozenset(
    {"loser", "shutout", "winner_total", "loser_total", "margin", "payment"}
)
_COVER_KEYS: Final = frozenset({"value", "with"})

_CASE_ID: Final = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")
_SEAT_PREFIX: Final = re.compile(r"(?P<seat>\d)\s*:\s*(?P<action>.+)")
_DRAW_DISCARD: Final = re.compile(r"draw-discard\s+(?P<turns>\d+)")
_HAND_RESULT: Final = re.compile(
    r"(?P<seat>\d)\s+wins\s+(?P<points>\d+)(?:\s+with\s+(?P<boxes>\d+)\s+box(?:es)?)?"
)

_HAND_HINT: Final = "'dead' or 'N wins POINTS [with B boxes]'"


class CaseFormatError(ValueError):
    """A case file that does not follow the format (tests/cases/README.md)."""


@dataclass(frozen=True)
class Mutation:
    """One knob set to another value (plus any knobs it needs to stay valid)."""

    knob: str
    value: Any
    #: Other knobs changed together with this one (the ``with:`` of a cover).
    also: Mapping[str, Any] = field(default_factory=dict)

    @property
    def label(self) -> str:
        text = f"{self.knob}={ruleset_schema.show_value(self.value)}"
        if self.also:
            text += "+" + "+".join(
                f"{k}={ruleset_schema.show_value(v)}" for k, v in sorted(self.also.items())
            )
        return text


@dataclass(frozen=True)
class Case:
    """One scenario of a case file."""

    ruleset: str
    id: str
    kind: str
    setup: Any
    expect: Mapping[str, Any]
    source: str | None = None
    #: Knobs this case changes from the file's ruleset (``rules:``), by dotted name.
    rules: Mapping[str, Any] = field(default_factory=dict)
    #: The mutations under which this case must fail (``covers:``).
    covers: tuple[Mutation, ...] = ()
    #: A known engine bug: the case fails until the engine is fixed.
    known_bug: str | None = None

    @property
    def name(self) -> str:
        return f"{self.ruleset}:{self.id}"


@dataclass(frozen=True)
class CaseFile:
    path: Path
    ruleset: str
    cases: tuple[Case, ...]


# --- reading case files ------------------------------------------------------


def load_case_file(path: Path) -> CaseFile:
    """Read and check one case file; raises :class:`CaseFormatError` naming the problem."""
    where = path.name
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except yaml.YAMLError as error:
        raise CaseFormatError(f"{where}: not valid YAML: {error}") from None
    if not isinstance(data, dict):
        raise CaseFormatError(f"{where}: expected a mapping with 'ruleset' and 'cases'")
    _only(data, {"ruleset", "cases"}, where)
    ruleset = data.get("ruleset")
    if ruleset != path.stem:
        raise CaseFormatError(f"{where}: 'ruleset' must name the file's ruleset, {path.stem!r}")
    entries = data.get("cases")
    if not isinstance(entries, list) or not entries:
        raise CaseFormatError(f"{where}: 'cases' must be a non-empty list")
    cases = tuple(parse_case(entry, ruleset) for entry in entries)
    seen: set[str] = set()
    for case in cases:
        if case.id in seen:
            raise CaseFormatError(f"{where}: two cases are called {case.id!r}")
        seen.add(case.id)
    return CaseFile(path, ruleset, cases)


def parse_case(entry: Any, ruleset: str) -> Case:
    """One entry of ``cases:``, checked."""
    if not isinstance(entry, dict):
        raise CaseFormatError(f"{ruleset}: each case is a mapping, not {entry!r}")
    case_id = entry.get("id")
    if not isinstance(case_id, str) or not _CASE_ID.fullmatch(case_id):
        raise CaseFormatError(f"{ruleset}: a case needs an id in kebab-case, not {case_id!r}")
    where = f"{ruleset}:{case_id}"
    _only(entry, _CASE_KEYS, where)
    kinds = [kind for kind in KINDS if kind in entry]
    if len(kinds) != 1:
        raise CaseFormatError(f"{where}: give exactly one of {', '.join(KINDS)}")
    kind = kinds[0]
    setup = entry[kind]
    if kind == "deadwood":
        if not isinstance(setup, str):
            raise CaseFormatError(f"{where}: 'deadwood' is a hand of cards, like \"7H 8H 9H\"")
    else:
        if not isinstance(setup, dict):
            raise CaseFormatError(f"{where}: '{kind}' is a mapping")
        _only(setup, _SETUP_KEYS[kind], f"{where}.{kind}")
    expect = entry.get("expect")
    if not isinstance(expect, dict) or not expect:
        raise CaseFormatError(f"{where}: 'expect' is a non-empty mapping")
    _only(expect, _EXPECT_KEYS[kind], f"{where}.expect")
    if kind == "hand":
        laid_out = _SETUP_KEYS["hand"] - {"dealer", "seed", "actions"}
        if "seed" in setup and set(setup) & laid_out:
            raise CaseFormatError(f"{where}.hand: deal from a seed or lay out the cards, not both")
        actions = [_action_item(item, where) for item in setup.get("actions") or []]
        setup = {**setup, "actions": actions}
        for action in actions:
            move = _strip_seat(action)[1]
            if not _DRAW_DISCARD.fullmatch(move):
                _action(move, f"{where}.hand.actions")
        if "illegal" in expect and (
            not actions or _DRAW_DISCARD.fullmatch(_strip_seat(actions[-1])[1])
        ):
            raise CaseFormatError(f"{where}: 'illegal' needs a single last action to refuse")
        for key in ("legal", "legal_includes", "legal_excludes"):
            for action in expect.get(key, []):
                _action(str(action), f"{where}.expect.{key}")
    if kind == "game":
        if not isinstance(setup.get("seed"), int):
            raise CaseFormatError(f"{where}.game: give the match's 'seed' (it decides the cut)")
        for hand in setup.get("hands") or []:
            for result in hand if isinstance(hand, list) else [hand]:
                if str(result).strip() != "dead" and not _HAND_RESULT.fullmatch(
                    str(result).strip()
                ):
                    raise CaseFormatError(f"{where}.game.hands: {result!r} is not {_HAND_HINT}")
        for key in ("result", "results"):
            if key not in expect:
                continue
            boards = expect[key]
            for board in [boards] if key == "result" else boards:
                if not isinstance(board, dict):
                    raise CaseFormatError(f"{where}.expect.{key}: each game is a mapping")
                _only(board, _BOARD_KEYS, f"{where}.expect.{key}")
                for settlement in board.get("settlements", []):
                    _only(settlement, _SETTLEMENT_KEYS, f"{where}.expect.{key}.settlements")
    if kind == "round":
        from tests.golden_rounds import check_setup  # the round kind lives there

        check_setup(setup, expect, where)
    rules = _knob_values(entry.get("rules", {}), f"{where}.rules")
    covers = _covers(entry.get("covers", {}), where)
    known_bug = entry.get("known_bug")
    if known_bug is not None and covers:
        raise CaseFormatError(f"{where}: a known-bug case fails anyway, so it covers nothing")
    return Case(
        ruleset=ruleset,
        id=case_id,
        kind=kind,
        setup=setup,
        expect=expect,
        source=entry.get("source"),
        rules=rules,
        covers=covers,
        known_bug=known_bug,
    )


def _action_item(item: Any, where: str) -> str:
    """An action as ``"1: draw"``: a string, or a one-pair mapping ``{1: draw}``."""
    if isinstance(item, dict) and len(item) == 1:
        ((seat, move),) = item.items()
        return f"{seat}: {move}"
    if isinstance(item, str):
        return item
    raise CaseFormatError(f"{where}.hand.actions: {item!r} is not an action")


def _only(data: Mapping[str, Any], allowed: frozenset[str] | set[str], where: str) -> None:
    unknown = sorted(set(data) - set(allowed))
    if unknown:
        raise CaseFormatError(
            f"{where}: unknown key {', '.join(map(repr, unknown))}"
            f" (known: {', '.join(sorted(allowed))})"
        )


def _knob_values(data: Any, where: str) -> dict[str, Any]:
    if not isinstance(data, dict):
        raise CaseFormatError(f"{where}: a mapping of knob: value, like deal.next_dealer: winner")
    known = {knob.dotted for knob in ruleset_schema.knobs()}
    for dotted in data:
        if dotted not in known:
            raise CaseFormatError(f"{where}: {dotted!r} is not a knob")
    return dict(data)


def _covers(data: Any, where: str) -> tuple[Mutation, ...]:
    knobs = _knob_values(data, f"{where}.covers")
    mutations = []
    for dotted, spec in knobs.items():
        for choice in spec if isinstance(spec, list) else [spec]:
            if isinstance(choice, dict):
                _only(choice, _COVER_KEYS, f"{where}.covers.{dotted}")
                if "value" not in choice:
                    raise CaseFormatError(f"{where}.covers.{dotted}: give the 'value'")
                also = _knob_values(choice.get("with", {}), f"{where}.covers.{dotted}.with")
                mutations.append(Mutation(dotted, choice["value"], also))
            else:
                mutations.append(Mutation(dotted, choice))
    return tuple(mutations)


# --- the ruleset a case runs under ------------------------------------------------


def ruleset_path(name: str) -> Path:
    """The shipped file of a ruleset or house rule."""
    return locate.find_entry(name).path


def case_ruleset(case: Case, mutation: Mutation | None = None) -> Ruleset:
    """The file's ruleset with the case's ``rules:`` and the mutation applied.

    Raises :class:`ginrules.rules.diagnostics.RulesetError` when the loader
    refuses the result (a mutation that needs more knobs in its ``with:``).
    """
    return _load_overlay(case.ruleset, _overrides(case, mutation))


def case_config(case: Case, mutation: Mutation | None = None) -> EngineConfig:
    """The compiled :func:`case_ruleset`."""
    return _compile_overlay(case.ruleset, _overrides(case, mutation))


def _overrides(case: Case, mutation: Mutation | None) -> tuple[tuple[str, Any], ...]:
    overrides = dict(case.rules)
    if mutation is not None:
        overrides.update(mutation.also)
        overrides[mutation.knob] = mutation.value
    return tuple(sorted(overrides.items()))


@functools.cache
def _load_overlay(ruleset: str, overrides: tuple[tuple[str, Any], ...]) -> Ruleset:
    path = ruleset_path(ruleset)
    document: dict[str, Any] = {"extends": str(path)}
    for dotted, value in overrides:
        section, name = dotted.split(".")
        document.setdefault(section, {})[name] = value
    text = yaml.safe_dump(document, sort_keys=False)
    return load_ruleset_text(text, f"{ruleset}-case-overlay.yaml", path.parent)


@functools.cache
def _compile_overlay(ruleset: str, overrides: tuple[tuple[str, Any], ...]) -> EngineConfig:
    return compile_ruleset(_load_overlay(ruleset, overrides))


# --- running a case ---------------------------------------------------------------


class _Stop(Exception):
    """A failure after which the rest of the case cannot run."""


def run_case(case: Case, config: EngineConfig) -> list[str]:
    """Run ``case`` under ``config``; the failures, each a sentence (none: it holds).

    Errors the engine raises for the situation (an illegal action, a hand that
    cannot be dealt or settled, a match that cannot be played: all ValueErrors)
    are failures like any other; anything else propagates, as a bug would.
    """
    failures: list[str] = []
    runner = _RUNNERS[case.kind]
    try:
        runner(case, config, failures)
    except _Stop as stop:
        failures.append(str(stop))
    return failures


def _check(failures: list[str], what: str, expected: Any, actual: Any) -> None:
    if not _same(expected, actual):
        failures.append(f"{what}: expected {_show(expected)}, got {_show(actual)}")


def _same(expected: Any, actual: Any) -> bool:
    if isinstance(expected, bool) or isinstance(actual, bool):
        return type(expected) is type(actual) and expected == actual
    if isinstance(expected, float) or isinstance(actual, float):
        return (
            isinstance(expected, int | float)
            and isinstance(actual, int | float)
            and math.isclose(expected, actual, abs_tol=1e-9)
        )
    return bool(expected == actual)


def _show(value: Any) -> str:
    if isinstance(value, str):
        return value
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    return repr(value)


def _cards(text: Any, what: str) -> list[Card]:
    try:
        return parse_cards(str(text))
    except CardError as error:
        raise CaseFormatError(f"{what}: {error}") from None


def _card_set(text: Any, what: str) -> str:
    """Cards as a sorted, canonical string (for comparing card lists as sets)."""
    return " ".join(str(c) for c in sorted(_cards(text, what)))


def _run_deadwood(case: Case, config: EngineConfig, failures: list[str]) -> None:
    arrangement = best_melds(_cards(case.setup, case.name), config.ace)
    expect = case.expect
    if "deadwood" in expect:
        _check(failures, "deadwood", expect["deadwood"], arrangement.deadwood)
    if "melds" in expect:
        wanted = sorted(_card_set(meld, case.name) for meld in expect["melds"])
        got = sorted(" ".join(str(c) for c in sorted(meld.cards)) for meld in arrangement.melds)
        _check(failures, "melds", wanted, got)
    if "unmatched" in expect:
        got_unmatched = " ".join(str(c) for c in sorted(arrangement.unmatched))
        _check(failures, "unmatched", _card_set(expect["unmatched"], case.name), got_unmatched)


def _run_showdown(case: Case, config: EngineConfig, failures: list[str]) -> None:
    setup, expect = case.setup, case.expect
    upcard = _cards(setup["upcard"], case.name)[0] if setup.get("upcard") else None
    try:
        if "knocker_melds" in setup:
            showdown = settle(
                config,
                defender=_cards(setup.get("defender", ""), case.name),
                knocker_melds=[_cards(m, case.name) for m in setup["knocker_melds"]],
                knocker_deadwood=_cards(setup.get("knocker_deadwood", ""), case.name),
                upcard=upcard,
            )
        else:
            showdown = settle(
                config,
                defender=_cards(setup.get("defender", ""), case.name),
                knocker=_cards(setup.get("knocker", ""), case.name),
                upcard=upcard,
            )
    except CaseFormatError:
        raise
    except ValueError as error:
        said = message(error)
        if "error" not in expect:
            raise _Stop(f"the hand could not be settled: {said}") from None
        if str(expect["error"]) not in said:
            failures.append(f"error: expected one mentioning {expect['error']!r}, got {said!r}")
        return
    if "error" in expect:
        failures.append(
            f"error: expected the hand to be refused ({expect['error']!r}), but it settled"
            f" as {points_text(showdown.score)}"
        )
        return
    _check_score(failures, expect, showdown, hand_seats=False)


def _check_score(
    failures: list[str], expect: Mapping[str, Any], showdown: Showdown | None, *, hand_seats: bool
) -> None:
    """Compare the hand-result expectations; ``showdown`` is None for a dead hand."""
    score: HandScore | None = None if showdown is None else showdown.score
    actual: dict[str, Any] = {
        "outcome": "dead" if score is None else score.end.value,
        "points": 0 if score is None else score.points,
        "bonus": 0 if score is None else score.bonus,
        "multiplier": 1 if score is None else score.multiplier,
        "boxes": 0 if score is None else score.boxes,
        "deadwood_points": 0 if score is None else score.deadwood_points,
    }
    if showdown is None:
        actual["winner"] = None
    elif hand_seats:
        actual["winner"] = showdown.winner
        actual["knocker"] = showdown.knocker
    else:
        actual["winner"] = "knocker" if showdown.score.knocker_wins else "defender"
    if showdown is not None:
        actual["knocker_deadwood"] = showdown.knocker_arrangement.deadwood
        actual["defender_deadwood"] = showdown.defense.deadwood
    for key in sorted(set(expect) & (_SCORE_KEYS | {"knocker"})):
        if key == "layoffs":
            laid = [lay.card for lay in showdown.defense.layoffs] if showdown else []
            wanted = expect[key]
            if isinstance(wanted, int) and not isinstance(wanted, bool):
                _check(failures, "layoffs", wanted, len(laid))
            else:
                got = " ".join(str(c) for c in sorted(laid)) or "none"
                _check(failures, "layoffs", _card_set(wanted, "layoffs") or "none", got)
        elif key in actual:
            _check(failures, key, expect[key], actual[key])
        else:
            failures.append(f"{key}: expected {_show(expect[key])}, but the hand was dead")


# --- hands ------------------------------------------------------------------------


def _deal(setup: Mapping[str, Any], config: EngineConfig, where: str) -> Hand:
    dealer = int(setup.get("dealer", 0))
    if "seed" in setup:
        return Hand.deal(config, dealer, int(setup["seed"]))
    non_dealer = _cards(setup.get("non_dealer_cards", ""), where)
    dealer_cards = _cards(setup.get("dealer_cards", ""), where)
    upcard = _cards(setup["upcard"], where)[0] if setup.get("upcard") else None
    stock = _cards(setup.get("stock", ""), where) if setup.get("stock") else []
    if setup.get("stock_last"):
        last = _cards(setup["stock_last"], where)
        used = {*non_dealer, *dealer_cards, *stock, *last, *([upcard] if upcard else [])}
        stock = stock + [card for card in DECK if card not in used] + last
    return Hand.from_cards(
        config,
        dealer=dealer,
        non_dealer_cards=non_dealer,
        dealer_cards=dealer_cards,
        upcard=upcard,
        stock=stock,
    )


def _strip_seat(text: str) -> tuple[int | None, str]:
    match = _SEAT_PREFIX.fullmatch(text.strip())
    if match is None:
        return None, text.strip()
    return int(match["seat"]), match["action"].strip()


def _play(hand: Hand, text: str) -> None:
    """Play one listed action (or a ``draw-discard N`` run); raises IllegalAction."""
    seat, move = _strip_seat(text)
    run = _DRAW_DISCARD.fullmatch(move)
    if run is None:
        hand.apply(_action(move, "actions"), seat)
        return
    for turn in range(1, int(run["turns"]) + 1):
        if not hand.stock:
            raise _Stop(f"turn {turn} of {move}: the stock is empty")
        card = hand.stock[-1]
        try:
            hand.apply(parse_action("draw"))
            hand.apply(parse_action(f"discard {card}"))
        except IllegalAction as error:
            raise _Stop(f"turn {turn} of {move}: {illegal_message(error)}") from None


def _run_hand(case: Case, config: EngineConfig, failures: list[str]) -> None:
    setup, expect = case.setup, case.expect
    try:
        hand = _deal(setup, config, case.name)
    except CaseFormatError:
        raise
    except ValueError as error:
        raise _Stop(f"the hand could not be dealt: {error}") from None
    actions: list[str] = setup.get("actions") or []
    refused = expect.get("illegal")
    played = actions[:-1] if refused is not None else actions
    for number, text in enumerate(played, 1):
        try:
            _play(hand, text)
        except CaseFormatError:
            raise
        except ValueError as error:
            raise _Stop(f"action {number} ({text}) was refused: {message(error)}") from None
    if refused is not None:
        before = snapshot(hand)
        try:
            _play(hand, actions[-1])
        except IllegalAction as error:
            said = illegal_message(error)
            if str(refused) not in said:
                failures.append(
                    f"illegal: expected {actions[-1]!r} refused with {refused!r}, got {said}"
                )
            if snapshot(hand) != before:
                failures.append(f"the refused {actions[-1]!r} changed the hand")
        else:
            raise _Stop(
                f"illegal: expected {actions[-1]!r} to be refused ({refused!r}), but it was played"
            )
    _check_hand_state(failures, expect, hand)
    if set(expect) & (_SCORE_KEYS | {"knocker"}):
        if not hand.over:
            failures.append(f"expected the hand to be over, but it waits in phase {hand.phase}")
        else:
            _check_score(failures, expect, hand.showdown, hand_seats=True)


def _check_hand_state(failures: list[str], expect: Mapping[str, Any], hand: Hand) -> None:
    state: dict[str, Callable[[], Any]] = {
        "phase": lambda: hand.phase.value,
        "to_move": lambda: hand.to_move,
        "knock_limit": lambda: hand.knock_limit,
        "stock_left": lambda: len(hand.stock),
        "cards_held": lambda: [len(hand.cards(0)), len(hand.cards(1))],
        "upcard": lambda: None if hand.upcard is None else str(hand.upcard),
    }
    for key, read in state.items():
        if key in expect:
            _check(failures, key, expect[key], read())
    legal = {str(action) for action in hand.legal_actions()}
    if "legal" in expect:
        wanted = {_action_text(a) for a in expect["legal"]}
        _check(failures, "legal actions", sorted(wanted), sorted(legal))
    for action in expect.get("legal_includes", []):
        if _action_text(action) not in legal:
            failures.append(f"legal actions: expected {action!r} among {sorted(legal)}")
    for action in expect.get("legal_excludes", []):
        if _action_text(action) in legal:
            failures.append(f"legal actions: expected {action!r} not to be legal")


def _action(text: str, where: str) -> Action:
    try:
        return parse_action(text)
    except ValueError as error:
        raise CaseFormatError(f"{where}: not an action: {text!r} ({error})") from None


def _action_text(text: Any) -> str:
    return str(_action(str(text), "expect"))


# --- games ------------------------------------------------------------------------


def _run_game(case: Case, config: EngineConfig, failures: list[str]) -> None:
    setup, expect = case.setup, case.expect
    wanted_error = expect.get("error")
    try:
        match = new_match(config, setup["seed"])
        dealers, seats, nets = _record_hands(match, list(setup.get("hands") or []))
    except CaseFormatError:
        raise
    except ValueError as error:
        if wanted_error is None:
            raise _Stop(f"the match could not be played: {error}") from None
        said = message(error)
        if str(wanted_error) not in said:
            failures.append(f"error: expected one mentioning {wanted_error!r}, got {said!r}")
        return
    if wanted_error is not None:
        failures.append(f"error: expected the match to be refused ({wanted_error!r}), but it ran")
        return
    _check_pad_replays(match, failures)
    if "dealers" in expect:
        _check(failures, "dealers", expect["dealers"], dealers)
    if "seats" in expect:
        _check(failures, "seats", expect["seats"], seats)
    if "nets" in expect:
        _check(failures, "nets", expect["nets"], nets)
    if "finished" in expect:
        _check(failures, "finished", expect["finished"], match.finished)
    boards = _boards(match)
    if "result" in expect:
        if len(boards) != 1:
            failures.append(f"result: expected one game, the match keeps {len(boards)}")
        else:
            _check_board(failures, "result", expect["result"], boards[0])
    if "results" in expect:
        wanted = expect["results"]
        if len(wanted) != len(boards):
            failures.append(f"results: expected {len(wanted)} games, the match keeps {len(boards)}")
        for number, (board_expect, board) in enumerate(zip(wanted, boards, strict=False), 1):
            _check_board(failures, f"game {number}", board_expect, board)
    if "next_dealer" in expect:
        if match.finished:
            failures.append("next_dealer: the match is over, nobody deals again")
        else:
            _check(failures, "next_dealer", expect["next_dealer"], _dealer_of(match, match.deals()))


def _check_pad_replays(match: Match, failures: list[str]) -> None:
    """A fresh score pad fed only the match's entries keeps the same score."""
    pad = new_score_pad(match.config, match.pad.first_dealers)
    for entry in match.pad.entries:
        pad.add(PadEntry(entry.reports))
    if pad.to_json() != match.pad.to_json() or pad.next_deal() != match.pad.next_deal():
        failures.append("score pad: a fresh pad fed the entries disagrees with the match")


def _record_hands(match: Match, hands: Sequence[Any]) -> tuple[list[Any], list[Any], list[int]]:
    """Enter each listed hand; the dealers, the seats that played, the partnership nets."""
    dealers: list[Any] = []
    seats: list[Any] = []
    nets: list[int] = []
    for number, entry in enumerate(hands, 1):
        if match.finished:
            raise _Stop(
                f"the match was over after hand {number - 1}, but the case lists {len(hands)} hands"
            )
        deals = match.deals()
        dealers.append(_dealer_of(match, deals))
        shown = [list(deal.seats) for deal in deals]
        seats.append(shown[0] if len(shown) == 1 else shown)
        results = entry if isinstance(entry, list) else [entry]
        if len(results) != len(deals):
            raise _Stop(
                f"hand {number}: {len(deals)} pairings play this hand, the case gives"
                f" {len(results)} results"
            )
        outcomes = [
            _outcome(str(result), deal, f"hand {number}")
            for result, deal in zip(results, deals, strict=True)
        ]
        match.record(outcomes)
        if isinstance(match, PartnershipGame):
            nets.append(match.net)
    return dealers, seats, nets


def _outcome(text: str, deal: Deal, where: str) -> HandOutcome:
    """``dead``, or ``<table seat> wins <points> [with <n> boxes]``, for one deal."""
    if text.strip() == "dead":
        return HandOutcome.dead()
    match = _HAND_RESULT.fullmatch(text.strip())
    if match is None:
        raise CaseFormatError(f"{where}: {text!r} is not {_HAND_HINT}")
    seat = int(match["seat"])
    if seat not in deal.seats:
        raise _Stop(f"{where}: player {seat} does not play it (seats {list(deal.seats)})")
    boxes = int(match["boxes"]) if match["boxes"] else 1
    return HandOutcome(deal.seats.index(seat), int(match["points"]), boxes)


def _dealer_of(match: Match, deals: Sequence[Deal]) -> Any:
    """The table seat that deals: the one sitting out in a three-handed game, one per pairing
    in a partnership."""
    if isinstance(match, ThreeHandedGame):
        (deal,) = deals
        return ({0, 1, 2} - set(deal.seats)).pop()
    dealing = [deal.seats[deal.dealer] for deal in deals]
    return dealing[0] if len(dealing) == 1 else dealing


def _boards(match: Match) -> list[Scoreboard]:
    if isinstance(match, HollywoodMatch):
        return list(match.boards)
    board = getattr(match, "board", None)
    return [board] if isinstance(board, Scoreboard) else []


def _check_board(
    failures: list[str], where: str, expect: Mapping[str, Any], board: Scoreboard
) -> None:
    actual: dict[str, Any] = {
        "winner": board.winner,
        "points": list(board.points),
        "boxes": list(board.boxes),
        "hands": board.hands,
        "finished": board.finished,
    }
    for key in sorted(set(expect) - {"settlements"}):
        _check(failures, f"{where} {key}", expect[key], actual[key])
    if "settlements" not in expect:
        return
    if not board.finished:
        failures.append(f"{where} settlements: the game is not finished")
        return
    settlements = board.result().settlements
    wanted = expect["settlements"]
    if len(wanted) != len(settlements):
        failures.append(f"{where} settlements: expected {len(wanted)}, got {len(settlements)}")
    for number, (item, settlement) in enumerate(zip(wanted, settlements, strict=False), 1):
        for key in sorted(item):
            _check(
                failures,
                f"{where} settlement {number} {key}",
                item[key],
                getattr(settlement, key),
            )


def _run_round(case: Case, config: EngineConfig, failures: list[str]) -> None:
    from tests.golden_rounds import run_round  # imports this module: loaded on first use

    run_round(case, config, failures)


_RUNNERS: Final[dict[str, Callable[[Case, EngineConfig, list[str]], None]]] = {
    "deadwood": _run_deadwood,
    "showdown": _run_showdown,
    "hand": _run_hand,
    "game": _run_game,
    "round": _run_round,
}
