"""The ``ginrules`` command: thin subcommands over the library.

Each area's commands live in their own module and register themselves here.
Exit codes: 0 success; 1 a ruleset or a hand has errors (each printed as
``file:line:col: error: message``); 2 the command line itself is wrong.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import TextIO

from ginrules.cli import deadwood, games, play, rulesets, score, sheets, web
from ginrules.cli.common import EXIT_INVALID, EXIT_OK, EXIT_USAGE, Command, Output
from ginrules.cli.rulesets import knob_table_markdown

__all__ = ["EXIT_INVALID", "EXIT_OK", "EXIT_USAGE", "build_parser", "knob_table_markdown", "main"]


EPILOG = """\
examples:
  ginrules list
  ginrules validate classic houserules/no-layoffs.yaml my-table.yaml
  ginrules validate --all
  ginrules compile oklahoma
  ginrules diff classic traditional-20-10
  ginrules explain online-casino
  ginrules sheet classic --lang de --format pdf -o klassisch.pdf
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

    for module in (rulesets, deadwood, score, games, play, sheets, web):
        module.register(add)
    return parser


def main(
    argv: Sequence[str] | None = None,
    out: TextIO | None = None,
    err: TextIO | None = None,
    inp: TextIO | None = None,
) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    output = Output(out or sys.stdout, err or sys.stderr, inp)
    if args.command == "deadwood" and not args.jsonl and not args.cards:
        parser.error("deadwood: give the cards of a hand, or --jsonl to read a batch")
    handler: Command = args.handler
    try:
        return handler(args, output)
    except BrokenPipeError:  # `ginrules list | head`
        return EXIT_OK


if __name__ == "__main__":
    raise SystemExit(main())
