"""The ``deadwood`` command: best melds and deadwood of a hand."""

from __future__ import annotations

import argparse
from typing import Any

from ginrules.cards import Card, CardError, parse_cards
from ginrules.cli.common import (
    EXIT_INVALID,
    EXIT_OK,
    AddCommand,
    Output,
    jsonl_batch,
    load_or_report,
)
from ginrules.melds import analyse_discards, best_melds
from ginrules.rules.compile import EngineConfig, compile_ruleset

# --- deadwood ----------------------------------------------------------------


def _hand_report(cards: list[Card], config: EngineConfig, knock_limit: int) -> dict[str, Any]:
    arrangement = best_melds(cards, config.ace)
    report: dict[str, Any] = {
        "deadwood": arrangement.deadwood,
        "melds": [[str(c) for c in meld.cards] for meld in arrangement.melds],
        "unmatched": [str(c) for c in arrangement.unmatched],
    }
    if len(cards) == config.hand_size + 1:
        analysis = analyse_discards(cards, config.ace)
        report["best_discard_deadwood"] = analysis.best_discard_deadwood
        report["best_discards"] = [str(c) for c in analysis.best_discards]
        report["knock_discards"] = [str(c) for c in analysis.knock_discards(knock_limit)]
        report["knock_limit"] = knock_limit
    return report


def _read_hand(cards: object, config: EngineConfig) -> list[Card]:
    if isinstance(cards, str):
        return parse_cards(cards, size=(config.hand_size, config.hand_size + 1))
    if isinstance(cards, list) and all(isinstance(c, str) for c in cards):
        return parse_cards(cards, size=(config.hand_size, config.hand_size + 1))
    raise CardError('"hand" must be a list of cards such as ["AS", "TD", "7C"]')


def _knock_limit(value: object, default: int) -> int:
    if value is None:
        return default
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 100:
        raise CardError('"knock_limit" must be a whole number from 0 to 100')
    return value


def cmd_deadwood(args: argparse.Namespace, output: Output) -> int:
    ruleset = load_or_report(args.ruleset, output)
    if ruleset is None:
        return EXIT_INVALID
    config = compile_ruleset(ruleset)
    default_limit = config.knock_limit if args.knock_limit is None else args.knock_limit
    if args.jsonl:

        def answer(item: dict[str, Any]) -> dict[str, Any]:
            cards = _read_hand(item.get("hand"), config)
            limit = _knock_limit(item.get("knock_limit"), default_limit)
            return _hand_report(cards, config, limit)

        return jsonl_batch(args.input, output, answer)
    try:
        cards = _read_hand(" ".join(args.cards), config)
    except CardError as error:
        output.problem(f"error: {error}")
        return EXIT_INVALID
    report = _hand_report(cards, config, default_limit)
    if args.json:
        output.json(report)
        return EXIT_OK
    melds = "  ".join("[" + " ".join(m) + "]" for m in report["melds"]) or "none"
    output.line(f"melds:     {melds}")
    output.line(f"unmatched: {' '.join(report['unmatched']) or 'none'}")
    output.line(f"deadwood:  {report['deadwood']}")
    if "best_discards" in report:
        output.line(
            f"best discard: {' or '.join(report['best_discards'])}"
            f" leaves {report['best_discard_deadwood']}"
        )
        knock = " ".join(report["knock_discards"]) or "none"
        output.line(f"discards that allow a knock (limit {default_limit}): {knock}")
    return EXIT_OK


def register(add: AddCommand) -> None:
    sub = add(
        "deadwood",
        cmd_deadwood,
        "best melds and deadwood of a hand (10 cards, or 11 with the best discards)",
        "ginrules deadwood 7C 7S 7H 8H 9H 2D 3D 4D KS QS",
    )
    sub.add_argument(
        "cards",
        nargs="*",
        metavar="CARD",
        help="cards like 7H TD 10S AC 7♥; German B D K, French V D R also read",
    )
    sub.add_argument("--ruleset", default="classic", help="ace rule and knock limit from here")
    sub.add_argument("--knock-limit", type=int, default=None, help="override the knock limit")
    sub.add_argument("--json", action="store_true", help="print one JSON object")
    sub.add_argument(
        "--jsonl",
        action="store_true",
        help='batch: read {"hand": [...], "knock_limit": 10} lines from standard input',
    )
    sub.add_argument("--input", metavar="FILE", help="with --jsonl: read this file, not stdin")
