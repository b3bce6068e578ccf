"""What every command shares: where it writes, exit codes, loading a ruleset."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from typing import Any, Protocol, TextIO

from ginrules.rules.compile import EngineConfig, compile_ruleset
from ginrules.rules.diagnostics import RulesetError
from ginrules.rules.load import Ruleset, load_ruleset
from ginrules.words import problems
from ginrules.words.diagnostics import line as diagnostic_line

EXIT_OK = 0
EXIT_INVALID = 1
EXIT_USAGE = 2


class Output:
    """Where a command writes (standard output and error) and reads a person's input."""

    def __init__(self, out: TextIO, err: TextIO, inp: TextIO | None = None) -> None:
        self.out = out
        self.err = err
        self.inp: TextIO = sys.stdin if inp is None else inp

    def line(self, text: str = "") -> None:
        print(text, file=self.out)

    def problem(self, text: str) -> None:
        print(text, file=self.err)

    def json(self, data: object) -> None:
        print(json.dumps(data, indent=2, ensure_ascii=False), file=self.out)


Command = Callable[[argparse.Namespace, Output], int]


class AddCommand(Protocol):
    """Registers a subcommand: ``add(name, handler, help, example)`` returns its parser."""

    def __call__(
        self, name: str, handler: Command, help_text: str, example: str
    ) -> argparse.ArgumentParser: ...


def load_or_report(reference: str, output: Output) -> Ruleset | None:
    """Load a ruleset by name or path; print its errors and return None if it has any."""
    try:
        return load_ruleset(reference)
    except RulesetError as error:
        for diagnostic in error.diagnostics:
            output.problem(diagnostic_line(diagnostic))
        return None


def config_or_report(reference: str, output: Output) -> EngineConfig | None:
    """Load and compile a ruleset; print its errors and return None if it has any."""
    ruleset = load_or_report(reference, output)
    return None if ruleset is None else compile_ruleset(ruleset)


def jsonl_batch(
    path: str | None, output: Output, answer: Callable[[dict[str, Any]], dict[str, Any]]
) -> int:
    """Read one JSON object a line (from ``path``, or standard input) and write one answer
    a line. A bad line gets ``{"error": ..., "line": N}`` (and a message on stderr) and the
    batch goes on; the exit code is 1 if any line failed."""
    if path is None:
        return _batch(output.inp, "<stdin>", output, answer)
    try:
        with open(path, encoding="utf-8") as stream:
            return _batch(stream, path, output, answer)
    except (OSError, UnicodeDecodeError) as error:
        output.problem(f"{path}: error: cannot read: {error}")
        return EXIT_INVALID


def _batch(
    stream: TextIO,
    name: str,
    output: Output,
    answer: Callable[[dict[str, Any]], dict[str, Any]],
) -> int:
    status = EXIT_OK
    for number, raw in enumerate(stream, start=1):
        if not raw.strip():
            continue
        try:
            item = json.loads(raw)
            if not isinstance(item, dict):
                raise ValueError("each line must be a JSON object")
            result = answer(item)
        except ValueError as error:  # JSON, cards, melds and table errors are all ValueErrors
            reason = problems.message(error)
            output.problem(f"{name}:{number}: error: {reason}")
            result = {"error": f"line {number}: {reason}", "line": number}
            status = EXIT_INVALID
        print(json.dumps(result, separators=(",", ":"), ensure_ascii=False), file=output.out)
    return status
