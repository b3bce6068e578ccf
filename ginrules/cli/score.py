"""The ``score`` command: settle a real hand at the table, in words or JSON."""

from __future__ import annotations

import argparse
from typing import Any

from ginrules.cards import Card, parse_cards
from ginrules.cli.common import (
    EXIT_INVALID,
    EXIT_OK,
    AddCommand,
    Output,
    config_or_report,
    jsonl_batch,
)
from ginrules.engine.scoring import Showdown
from ginrules.engine.settle import settle, settlement_json
from ginrules.rules.compile import EngineConfig
from ginrules.words import problems
from ginrules.words.showdown import points_text, table_lines


def cmd_score(args: argparse.Namespace, output: Output) -> int:
    config = config_or_report(args.ruleset, output)
    if config is None:
        return EXIT_INVALID
    if args.jsonl:
        return jsonl_batch(args.input, output, lambda item: _answer(item, config))
    if not args.knocker or not args.defender:
        output.problem("error: give --knocker and --defender (or --jsonl to read a batch)")
        return EXIT_INVALID
    try:
        upcard = Card.parse(args.upcard) if args.upcard else None
        showdown = settle(
            config,
            knocker=parse_cards(args.knocker),
            defender=parse_cards(args.defender),
            upcard=upcard,
            declared=not args.silent,
        )
    except ValueError as error:
        output.problem(f"error: {problems.message(error)}")
        return EXIT_INVALID
    if args.json:
        output.json(_settled_json(showdown))
    else:
        for line in table_lines(showdown, config, upcard):
            output.line(line)
    return EXIT_OK


def _answer(item: dict[str, Any], config: EngineConfig) -> dict[str, Any]:
    unknown = set(item) - {"knocker_melds", "knocker_deadwood", "knocker", "defender", "upcard"}
    if unknown:
        raise ValueError(f"unknown field {sorted(unknown)[0]!r}")
    melds = item.get("knocker_melds")
    if melds is not None and not (
        isinstance(melds, list) and all(isinstance(m, list | str) for m in melds)
    ):
        raise ValueError('"knocker_melds" must be a list of melds, each a list of cards')
    upcard = item.get("upcard")
    if upcard is not None and not isinstance(upcard, str):
        raise ValueError('"upcard" must be a card like "5S"')
    showdown = settle(
        config,
        knocker=parse_cards(item["knocker"]) if "knocker" in item else None,
        knocker_melds=None if melds is None else [parse_cards(m) for m in melds],
        knocker_deadwood=parse_cards(item.get("knocker_deadwood") or []),
        defender=parse_cards(_required(item, "defender")),
        upcard=Card.parse(upcard) if upcard else None,
    )
    return _settled_json(showdown)


def _required(item: dict[str, Any], key: str) -> Any:
    if key not in item:
        raise ValueError(f'missing "{key}"')
    return item[key]


def _settled_json(showdown: Showdown) -> dict[str, Any]:
    return {**settlement_json(showdown), "explanation": points_text(showdown.score)}


def register(add: AddCommand) -> None:
    sub = add(
        "score",
        cmd_score,
        "settle a real hand: the knocker's melds, the defender's lay-offs, the points",
        'ginrules score classic --knocker "5S 6S 7S JH JD JC 9C 9D 9H 8D"'
        ' --defender "4S 8S JS 2C 2D 2H 3C 3D KC KD"',
    )
    sub.add_argument("ruleset", metavar="NAME_OR_PATH")
    sub.add_argument("--knocker", help="the knocker's ten kept cards (eleven for big gin)")
    sub.add_argument("--defender", help="the defender's ten cards")
    sub.add_argument("--upcard", help="the first upcard (Oklahoma's limit and spades)")
    sub.add_argument(
        "--silent",
        action="store_true",
        help="a knock with no deadwood that was not called gin (play.gin_must_be_declared)",
    )
    sub.add_argument("--json", action="store_true", help="print one JSON object")
    sub.add_argument(
        "--jsonl",
        action="store_true",
        help='batch: read {"knocker_melds": [[...]], "knocker_deadwood": [...], "defender":'
        ' [...], "upcard": "5S"} lines from standard input',
    )
    sub.add_argument("--input", metavar="FILE", help="with --jsonl: read this file, not stdin")
