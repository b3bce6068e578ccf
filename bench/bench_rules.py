"""How fast rulesets load, validate and compile, and how fast hostile files are refused.

Run with the project's own venv: ``.venv/bin/python bench/bench_rules.py``.
Prints one line per case: milliseconds per operation (best of three rounds).
"""

from __future__ import annotations

import argparse
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from ginrules.rules import locate
from ginrules.rules.compile import compile_ruleset
from ginrules.rules.diagnostics import RulesetError
from ginrules.rules.load import load_ruleset
from ginrules.rules.yamlsource import MAX_FILE_BYTES


def best_of_three(operation: Callable[[], object], repeat: int) -> float:
    """Milliseconds per call, the best of three rounds of ``repeat`` calls."""
    rounds = []
    for _ in range(3):
        start = time.perf_counter()
        for _ in range(repeat):
            operation()
        rounds.append((time.perf_counter() - start) / repeat)
    return min(rounds) * 1000


def compiler(path: Path) -> Callable[[], object]:
    return lambda: compile_ruleset(load_ruleset(path))


def refused(path: Path) -> Callable[[], object]:
    def load() -> object:
        try:
            load_ruleset(path)
        except RulesetError as error:
            return error
        raise AssertionError(f"{path} was accepted")

    return load


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=20, help="calls per round")
    args = parser.parse_args()
    rows: list[tuple[str, float]] = []
    for entry in locate.entries():
        rows.append(
            (
                f"load + validate + compile {entry.name}",
                best_of_three(compiler(entry.path), args.repeat),
            )
        )
    with tempfile.TemporaryDirectory() as folder:
        base = Path(folder)
        bomb = base / "bomb.yaml"
        lines = ['a0: &a0 ["lol"]'] + [
            f"a{i}: &a{i} [{', '.join(f'*a{i - 1}' for _ in range(9))}]" for i in range(1, 10)
        ]
        bomb.write_text("\n".join(lines) + "\n", encoding="utf-8")
        deep = base / "deep.yaml"
        deep.write_text("root: " + "[" * (MAX_FILE_BYTES - 10), encoding="utf-8")
        dense = base / "dense.yaml"
        dense.write_text(
            "notes: [" + "a, " * ((MAX_FILE_BYTES - 20) // 3) + "a]\n", encoding="utf-8"
        )
        huge = base / "huge.yaml"
        huge.write_text("name: x\n" + "#" * (10 * MAX_FILE_BYTES), encoding="utf-8")
        typo = base / "typo.yaml"
        typo.write_text(
            "extends: classic\nhand_scoring:\n  gin_bonsu: 20\nplay:\n  knock_limit: 12\n",
            encoding="utf-8",
        )
        for label, path in (
            ("refuse an alias bomb", bomb),
            ("refuse nesting as deep as the size cap allows", deep),
            ("refuse a 64 KiB list (too many notes)", dense),
            ("refuse a 640 KiB file", huge),
            ("report two errors in an overlay", typo),
        ):
            rows.append((label, best_of_three(refused(path), max(1, args.repeat // 4))))
    width = max(len(label) for label, _ in rows)
    print(f"{'case':<{width}}  ms per call")
    for label, ms in rows:
        print(f"{label:<{width}}  {ms:10.2f}")


if __name__ == "__main__":
    main()
