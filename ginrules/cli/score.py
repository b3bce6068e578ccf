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
        )
    except ValueError as error:
        output.problem(f"error: {error}")
        return EXIT_INVALID
    if args.json:
        output.json(settlement_json(showdown))
    else:
        for line in describe(showdown, config, upcard):
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
    return settlement_json(showdown)


def _required(item: dict[str, Any], key: str) -> Any:
    if key not in item:
        raise ValueError(f'missing "{key}"')
    return item[key]


def describe(showdown: Showdown, config: EngineConfig, upcard: Card | None) -> list[str]:
    """The showdown in words, as a table would say it."""
    knocker = showdown.knocker_arrangement
    defense = showdown.defense
    score = showdown.score
    lines = []
    if upcard is not None and config.oklahoma:
        lines.append(
            f"Upcard {upcard}: the knock limit this hand is {config.knock_limit_for(upcard)}"
            + (" and the hand counts double (a spade)" if config.spades_doubled(upcard) else "")
        )
    lines.append(f"Knocker shows: {_melds(knocker.melds)}  {_dead(knocker)}")
    if defense.layoffs:
        laid = "; ".join(
            f"{lay.card} on {knocker.melds[lay.meld_index]}" for lay in defense.layoffs
        )
        lines.append(f"Defender lays off: {laid}")
    elif score.end.value in ("gin", "big_gin"):
        lines.append("Defender lays off: nothing (no lay-offs on gin)")
    elif not config.layoffs:
        lines.append("Defender lays off: nothing (no lay-offs under these rules)")
    else:
        lines.append("Defender lays off: nothing fits")
    lines.append(
        f"Defender shows: {_melds(defense.arrangement.melds)}  {_dead(defense.arrangement)}"
    )
    who = "knocker" if score.knocker_wins else "defender"
    lines.append(
        f"Outcome: {score.end.value.replace('_', ' ')}. The {who} scores {score.explain()}."
    )
    return lines


def _melds(melds: Any) -> str:
    return " ".join(f"[{meld}]" for meld in melds) or "no melds"


def _dead(arrangement: Any) -> str:
    cards = " ".join(str(c) for c in arrangement.unmatched)
    return f"deadwood {cards} = {arrangement.deadwood}" if cards else "no deadwood"


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
    sub.add_argument("--json", action="store_true", help="print one JSON object")
    sub.add_argument(
        "--jsonl",
        action="store_true",
        help='batch: read {"knocker_melds": [[...]], "knocker_deadwood": [...], "defender":'
        ' [...], "upcard": "5S"} lines from standard input',
    )
    sub.add_argument("--input", metavar="FILE", help="with --jsonl: read this file, not stdin")
