"""The ``ginrules`` command: thin subcommands over the library.

Exit codes: 0 success; 1 a ruleset or a hand has errors (each printed as
``file:line:col: error: message``); 2 the command line itself is wrong.
"""

from __future__ import annotations

import argparse
import json
import sys
import textwrap
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TextIO

from ginrules import schema as ruleset_schema
from ginrules.cards import Card, CardError, parse_cards
from ginrules.melds import analyse_discards, best_melds
from ginrules.rules import locate
from ginrules.rules.compile import EngineConfig, compile_ruleset
from ginrules.rules.diagnostics import Diagnostic, RulesetError
from ginrules.rules.diff import diff, explain
from ginrules.rules.load import Ruleset, load_ruleset

EXIT_OK = 0
EXIT_INVALID = 1
EXIT_USAGE = 2

EPILOG = """\
examples:
  ginrules list
  ginrules validate classic houserules/no-layoffs.yaml my-table.yaml
  ginrules validate --all
  ginrules compile oklahoma
  ginrules diff classic traditional-20-10
  ginrules explain online-casino
  ginrules knobs
  ginrules deadwood 7C 7S 7H 8H 9H 2D 3D 4D KS QS
  ginrules deadwood --json "AS 2S 3S 9H 9D 9C KD KS 4C 5C 6H"
  echo '{"hand": ["AS","2S","3S","9H","9D","9C","KD","KS","4C","5C","6H"]}' \
    | ginrules deadwood --jsonl

exit codes:
  0  success
  1  a ruleset, a card or a hand has errors (or a --strict warning)
  2  the command line is wrong
"""


class _Output:
    """Where a command writes: standard output and standard error."""

    def __init__(self, out: TextIO, err: TextIO) -> None:
        self.out = out
        self.err = err

    def line(self, text: str = "") -> None:
        print(text, file=self.out)

    def problem(self, text: str) -> None:
        print(text, file=self.err)

    def json(self, data: object) -> None:
        print(json.dumps(data, indent=2, ensure_ascii=False), file=self.out)


Command = Callable[[argparse.Namespace, _Output], int]


def _load(reference: str, output: _Output) -> Ruleset | None:
    try:
        return load_ruleset(reference)
    except RulesetError as error:
        for diagnostic in error.diagnostics:
            output.problem(diagnostic.format())
        return None


# --- list --------------------------------------------------------------------


def cmd_list(args: argparse.Namespace, output: _Output) -> int:
    rows: list[dict[str, Any]] = []
    status = EXIT_OK
    for entry in locate.entries():
        try:
            ruleset = load_ruleset(entry.path)
            config = compile_ruleset(ruleset)
        except RulesetError as error:
            rows.append({"name": entry.name, "kind": entry.kind, "error": str(error)})
            status = EXIT_INVALID
            continue
        rows.append(
            {
                "name": entry.name,
                "kind": entry.kind,
                "title": ruleset.title,
                "extends": Path(ruleset.chain[1]).stem if len(ruleset.chain) > 1 else None,
                "fingerprint": config.fingerprint,
                "file": entry.display,
                "warnings": len(ruleset.warnings),
            }
        )
    if args.json:
        output.json(rows)
        return status
    for kind, heading in (("rulesets", "Base rulesets"), ("houserules", "House rules")):
        output.line(f"{heading}:")
        for row in (r for r in rows if r["kind"] == kind):
            if "error" in row:
                output.line(f"  {row['name']:<22} INVALID (run: ginrules validate {row['name']})")
                continue
            base = f"  extends {row['extends']}" if row["extends"] else ""
            flag = f"  ({_count(row['warnings'], 'warning')})" if row["warnings"] else ""
            output.line(f"  {row['name']:<22} {row['fingerprint']}  {row['title']}{base}{flag}")
        output.line()
    return status


# --- validate ----------------------------------------------------------------


def cmd_validate(args: argparse.Namespace, output: _Output) -> int:
    references: list[str] = list(args.rulesets)
    if args.all:
        references += [str(entry.path) for entry in locate.entries()]
    if not references:
        output.problem("ginrules validate: name a ruleset or a file, or use --all")
        return EXIT_USAGE
    failed = False
    results: list[dict[str, Any]] = []
    for reference in references:
        diagnostics: list[Diagnostic]
        try:
            ruleset = load_ruleset(reference)
            compile_ruleset(ruleset)
            diagnostics = list(ruleset.warnings)
            name = ruleset.source
        except RulesetError as error:
            diagnostics = list(error.diagnostics)
            name = reference
        errors = [d for d in diagnostics if d.severity == "error"]
        bad = bool(errors) or (args.strict and bool(diagnostics))
        failed = failed or bad
        results.append(
            {
                "ruleset": name,
                "valid": not errors,
                "diagnostics": [d.to_json() for d in diagnostics],
            }
        )
        if args.json:
            continue
        for diagnostic in diagnostics:
            output.problem(diagnostic.format())
        if errors:
            output.line(f"{name}: INVALID ({_count(len(errors), 'error')})")
        else:
            warned = f" with {_count(len(diagnostics), 'warning')}" if diagnostics else ""
            output.line(f"{name}: ok{warned}")
    if args.json:
        output.json(results)
    return EXIT_INVALID if failed else EXIT_OK


def _count(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


# --- compile, explain, diff --------------------------------------------------


def cmd_compile(args: argparse.Namespace, output: _Output) -> int:
    ruleset = _load(args.ruleset, output)
    if ruleset is None:
        return EXIT_INVALID
    config = compile_ruleset(ruleset)
    if args.fingerprint:
        output.line(config.fingerprint)
        return EXIT_OK
    output.json(
        {
            "ruleset": ruleset.source,
            "name": ruleset.title,
            "fingerprint": config.fingerprint,
            "config": config.canonical(),
        }
    )
    return EXIT_OK


def cmd_explain(args: argparse.Namespace, output: _Output) -> int:
    ruleset = _load(args.ruleset, output)
    if ruleset is None:
        return EXIT_INVALID
    config = compile_ruleset(ruleset)
    values = explain(ruleset)
    if args.json:
        output.json(
            {
                "ruleset": ruleset.source,
                "name": ruleset.title,
                "chain": list(ruleset.chain),
                "fingerprint": config.fingerprint,
                "knobs": [v.to_json() for v in values],
                "notes": list(ruleset.document["notes"]),
                "warnings": [w.to_json() for w in ruleset.warnings],
            }
        )
        return EXIT_OK
    output.line(f"{ruleset.title} ({ruleset.source}, fingerprint {config.fingerprint})")
    if len(ruleset.chain) > 1:
        output.line("merged from: " + " <- ".join(ruleset.chain))
    section = ""
    for value in values:
        if value.knob.section != section:
            section = value.knob.section
            output.line(f"\n[{section}]")
        cited = f"  [{', '.join(value.sources)}]" if value.sources else ""
        output.line(f"  {value.knob.name} = {value.shown}    ({value.origin.describe()}){cited}")
        for text in textwrap.wrap(value.knob.description, 76):
            output.line(f"      {text}")
    if ruleset.document["notes"]:
        output.line("\nTable notes:")
        for note in ruleset.document["notes"]:
            output.line(f"  - {note}")
    if ruleset.warnings:
        output.line("\nWarnings (departures from the published rules, settings without effect):")
        for warning in ruleset.warnings:
            output.line(f"  - {warning.format()}")
    return EXIT_OK


def cmd_diff(args: argparse.Namespace, output: _Output) -> int:
    first = _load(args.a, output)
    second = _load(args.b, output)
    if first is None or second is None:
        return EXIT_INVALID
    changes = diff(first, second)
    a_config, b_config = compile_ruleset(first), compile_ruleset(second)
    if args.json:
        output.json(
            {
                "a": {"ruleset": first.source, "fingerprint": a_config.fingerprint},
                "b": {"ruleset": second.source, "fingerprint": b_config.fingerprint},
                "changes": [c.to_json() for c in changes],
            }
        )
        return EXIT_OK
    if not changes:
        output.line(f"{first.name} and {second.name} play the same rules ({a_config.fingerprint}).")
        return EXIT_OK
    output.line(
        f"{_count(len(changes), 'knob')} differ between {first.name} ({a_config.fingerprint})"
        f" and {second.name} ({b_config.fingerprint}):"
    )
    for change in changes:
        output.line(
            f"  {change.knob.label} ({change.knob.dotted}): {change.before.shown} in {first.name}"
            f" -> {change.after.shown} in {second.name}"
        )
        output.line(
            f"      set by {change.before.origin.describe()} and {change.after.origin.describe()}"
        )
    return EXIT_OK


# --- knobs -------------------------------------------------------------------


def knob_table_markdown() -> str:
    """The README's knob table, generated from the schema."""
    lines = [
        "| knob | default | values | what it means | published values |",
        "|---|---|---|---|---|",
    ]
    for knob in ruleset_schema.knobs():
        published = "; ".join(
            f"{ruleset_schema.show_value(p.value)}: {', '.join(p.sources)}" for p in knob.published
        )
        description = knob.description.replace("|", "\\|")
        lines.append(
            f"| `{knob.dotted}` | `{ruleset_schema.show_value(knob.default)}` | {knob.expected()}"
            f" | {description} | {published or '-'} |"
        )
    return "\n".join(lines)


def cmd_knobs(args: argparse.Namespace, output: _Output) -> int:
    if args.markdown:
        output.line(knob_table_markdown())
        return EXIT_OK
    for section in ruleset_schema.sections():
        output.line(f"[{section.name}] {section.title}: {section.description}")
        for knob in section.knobs:
            default = ruleset_schema.show_value(knob.default)
            output.line(f"  {knob.name} (default {default}; {knob.expected()})")
            for text in textwrap.wrap(knob.description, 76):
                output.line(f"      {text}")
        output.line()
    return EXIT_OK


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


def cmd_deadwood(args: argparse.Namespace, output: _Output) -> int:
    ruleset = _load(args.ruleset, output)
    if ruleset is None:
        return EXIT_INVALID
    config = compile_ruleset(ruleset)
    default_limit = config.knock_limit if args.knock_limit is None else args.knock_limit
    if args.jsonl:
        if args.input is None:
            return _deadwood_batch(sys.stdin, "<stdin>", config, default_limit, output)
        try:
            with open(args.input, encoding="utf-8") as stream:
                return _deadwood_batch(stream, args.input, config, default_limit, output)
        except (OSError, UnicodeDecodeError) as error:
            output.problem(f"{args.input}: error: cannot read: {error}")
            return EXIT_INVALID
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


def _deadwood_batch(
    stream: TextIO, name: str, config: EngineConfig, default_limit: int, output: _Output
) -> int:
    status = EXIT_OK
    for number, raw in enumerate(stream, start=1):
        if not raw.strip():
            continue
        try:
            item = json.loads(raw)
            if not isinstance(item, dict):
                raise CardError('each line must be a JSON object with a "hand"')
            cards = _read_hand(item.get("hand"), config)
            limit = _knock_limit(item.get("knock_limit"), default_limit)
            result = _hand_report(cards, config, limit)
        except (json.JSONDecodeError, CardError) as error:
            message = f"line {number}: {error}"
            output.problem(f"{name}:{number}: error: {error}")
            result = {"error": message, "line": number}
            status = EXIT_INVALID
        print(json.dumps(result, separators=(",", ":")), file=output.out)
    return status


# --- the parser ----------------------------------------------------------------


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="ginrules",
        description="Gin Rummy rules as data: list, check, compare and explain rulesets;"
        " count deadwood.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def add(name: str, handler: Command, help_text: str, example: str) -> argparse.ArgumentParser:
        sub = commands.add_parser(
            name,
            help=help_text,
            description=help_text,
            epilog=f"example:\n  {example}",
            formatter_class=argparse.RawDescriptionHelpFormatter,
        )
        sub.set_defaults(handler=handler)
        return sub

    sub = add("list", cmd_list, "list the shipped rulesets and house rules", "ginrules list")
    sub.add_argument("--json", action="store_true", help="print JSON")

    sub = add(
        "validate",
        cmd_validate,
        "check rulesets by name or path; every error at once, exit 1 on any error",
        "ginrules validate classic ./my-table.yaml",
    )
    sub.add_argument("rulesets", nargs="*", metavar="PATH_OR_NAME")
    sub.add_argument("--all", action="store_true", help="every shipped ruleset and house rule")
    sub.add_argument("--strict", action="store_true", help="treat warnings as errors")
    sub.add_argument("--json", action="store_true", help="print JSON")

    sub = add(
        "compile",
        cmd_compile,
        "print a ruleset's engine configuration as canonical JSON with its fingerprint",
        "ginrules compile oklahoma",
    )
    sub.add_argument("ruleset", metavar="NAME_OR_PATH")
    sub.add_argument("--fingerprint", action="store_true", help="print only the fingerprint")

    sub = add(
        "diff", cmd_diff, "compare two rulesets knob by knob", "ginrules diff classic oklahoma"
    )
    sub.add_argument("a", metavar="A")
    sub.add_argument("b", metavar="B")
    sub.add_argument("--json", action="store_true", help="print JSON")

    sub = add(
        "explain",
        cmd_explain,
        "every knob of a ruleset, its value and the file that set it",
        "ginrules explain straight-gin",
    )
    sub.add_argument("ruleset", metavar="NAME_OR_PATH")
    sub.add_argument("--json", action="store_true", help="print JSON")

    sub = add(
        "knobs", cmd_knobs, "every rule knob the schema declares", "ginrules knobs --markdown"
    )
    sub.add_argument("--markdown", action="store_true", help="the README's Markdown table")

    sub = add(
        "deadwood",
        cmd_deadwood,
        "best melds and deadwood of a hand (10 cards, or 11 with the best discards)",
        "ginrules deadwood 7C 7S 7H 8H 9H 2D 3D 4D KS QS",
    )
    sub.add_argument("cards", nargs="*", metavar="CARD", help="cards like 7H TD 10S AC 7♥")
    sub.add_argument("--ruleset", default="classic", help="ace rule and knock limit from here")
    sub.add_argument("--knock-limit", type=int, default=None, help="override the knock limit")
    sub.add_argument("--json", action="store_true", help="print one JSON object")
    sub.add_argument(
        "--jsonl",
        action="store_true",
        help='batch: read {"hand": [...], "knock_limit": 10} lines from standard input',
    )
    sub.add_argument("--input", metavar="FILE", help="with --jsonl: read this file, not stdin")
    return parser


def main(
    argv: Sequence[str] | None = None, out: TextIO | None = None, err: TextIO | None = None
) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    output = _Output(out or sys.stdout, err or sys.stderr)
    if args.command == "deadwood" and not args.jsonl and not args.cards:
        parser.error("deadwood: give the cards of a hand, or --jsonl to read a batch")
    handler: Command = args.handler
    try:
        return handler(args, output)
    except BrokenPipeError:  # `ginrules list | head`
        return EXIT_OK


if __name__ == "__main__":
    raise SystemExit(main())
