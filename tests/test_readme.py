"""The README cannot drift: its Python session runs as a doctest, its ``$ ginrules``
examples run through ``main()`` with their shown output compared, and its table of
environment variables is the set the code reads."""

from __future__ import annotations

import ast
import doctest
import io
import re
import shlex
from dataclasses import dataclass
from pathlib import Path
from typing import Final

import pytest

from ginrules.cli import main

ROOT: Final = Path(__file__).resolve().parent.parent
README: Final = (ROOT / "README.md").read_text(encoding="utf-8")

#: Commands the test does not run, and why.
NOT_RUN: Final = {
    "play": "a game needs a person at the keyboard (tests/test_play.py plays scripted games)",
    "serve": "starts a server (tests/test_web.py serves on 127.0.0.1)",
    "db": "changes the database named by DATABASE_URL (tests/test_storage.py covers it)",
    "replay": "reads the hands recorded by the play example",
}
#: Simulations in the README are sized for people; the test plays fewer games.
MAX_GAMES: Final = 20
#: A table's own rules, as the README's ruleset-format section writes them.
OUR_TABLE: Final = """\
name: Our table
extends: classic
hand_scoring:
  gin_bonus: 20
  undercut_bonus: 10
"""


def section(title: str) -> str:
    start = README.index(f"\n## {title}\n")
    end = README.find("\n## ", start + 1)
    return README[start : end if end != -1 else len(README)]


def test_the_python_api_session_runs_as_shown() -> None:
    text = section("Python API")
    blocks = re.findall(r"```pycon\n(.*?)```", text, flags=re.S)
    assert blocks, "the Python API section has no pycon block"
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE)
    for number, block in enumerate(blocks, 1):
        test = parser.get_doctest(block, {}, f"README Python API {number}", "README.md", 0)
        assert test.examples
        runner.run(test)
    assert runner.failures == 0, f"{runner.failures} README example(s) printed something else"


@dataclass(frozen=True)
class Example:
    command: str
    shown: tuple[str, ...]


def console_examples() -> list[Example]:
    """Every ``$ ginrules ...`` line of the README's console blocks, with the output
    shown under it (continuation lines joined, comments dropped)."""
    examples: list[Example] = []
    for block in re.findall(r"```console\n(.*?)```", README, flags=re.S):
        lines = block.splitlines()
        index = 0
        while index < len(lines):
            line = lines[index]
            index += 1
            if not line.startswith("$ "):
                continue
            command = line[2:]
            while command.rstrip().endswith("\\") and index < len(lines):
                command = command.rstrip()[:-1] + " " + lines[index].strip()
                index += 1
            shown = []
            while index < len(lines) and not lines[index].startswith("$ "):
                shown.append(lines[index])
                index += 1
            examples.append(Example(command, tuple(shown)))
    return examples


EXAMPLES: Final = console_examples()


def words_of(command: str) -> tuple[list[str], str | None]:
    """The argv of ``ginrules ...`` and the standard input a ``printf ... |`` gives it."""
    given = None
    piped = re.fullmatch(r"printf '%s\\n' '(.*?)'\s*\|\s*(.*)", command)
    if piped:
        given, command = piped[1] + "\n", piped[2]
    words = shlex.split(command, comments=True)
    assert words[0] == "ginrules", command
    if ">" in words:  # a shell redirect: the test reads standard output itself
        words = words[: words.index(">")]
    return words[1:], given


def test_the_readme_has_console_examples_to_run() -> None:
    assert len(EXAMPLES) >= 20
    assert any(example.shown for example in EXAMPLES)


@pytest.mark.parametrize("example", EXAMPLES, ids=[e.command[:60] for e in EXAMPLES])
def test_a_readme_command_runs_and_prints_what_the_readme_shows(
    example: Example, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    if "=" in example.command.split()[0]:  # environment settings first: a server command
        assert "ginrules serve" in example.command
        return
    argv, given = words_of(example.command)
    if argv[0] in NOT_RUN:
        return  # see NOT_RUN for why
    if any(word == "..." for word in argv):
        assert example.command.count('"..."') >= 2  # a placeholder, not a command
        return
    if "--games" in argv:
        at = argv.index("--games") + 1
        argv[at] = str(min(int(argv[at]), MAX_GAMES))
    monkeypatch.chdir(tmp_path)
    (tmp_path / "our-table.yaml").write_text(OUR_TABLE, encoding="utf-8")
    if "--input" in argv:
        record = tmp_path / argv[argv.index("--input") + 1]
        record.write_text(
            '{"knocker_melds": [["7C","7S","7H"],["2D","3D","4D"],["9H","TH","JH"]],'
            ' "knocker_deadwood": ["5S"], "defender": ["QH","KH","5D","5C","8S","8D","2C","3C",'
            '"4S","AS"]}\n',
            encoding="utf-8",
        )
    out, err = io.StringIO(), io.StringIO()
    code = main(argv, out=out, err=err, inp=io.StringIO(given or ""))
    expected_code = 1 if "--strict" in argv else 0  # --strict: the shipped ace-high warns
    assert code == expected_code, err.getvalue()
    if example.shown:
        assert out.getvalue().splitlines() == list(example.shown)
    if "-o" in argv:
        written = tmp_path / argv[argv.index("-o") + 1]
        assert written.read_bytes().startswith(b"%PDF")


# -- the environment the site reads -----------------------------------------------------


def variables_read() -> set[str]:
    """Every environment variable the package reads (``os.environ[...]``,
    ``os.environ.get(...)``, ``os.getenv(...)``, also through a local alias such as
    ``env = os.environ``), found by walking the code. Writes (``os.environ[X] = ...``,
    ``setdefault`` for a library's own use) are not reads."""
    names: set[str] = set()
    for path in (ROOT / "ginrules").rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        aliases = {
            target.id
            for node in ast.walk(tree)
            if isinstance(node, ast.Assign) and _is_environ(node.value, set())
            for target in node.targets
            if isinstance(target, ast.Name)
        }
        for node in ast.walk(tree):
            key = None
            if (
                isinstance(node, ast.Subscript)
                and isinstance(node.ctx, ast.Load)
                and _is_environ(node.value, aliases)
            ):
                key = node.slice
            elif isinstance(node, ast.Call) and node.args:
                func = node.func
                if isinstance(func, ast.Attribute) and (
                    (func.attr in ("get", "pop") and _is_environ(func.value, aliases))
                    or func.attr == "getenv"
                ):
                    key = node.args[0]
            if isinstance(key, ast.Constant) and isinstance(key.value, str):
                names.add(key.value)
    return names


def _is_environ(node: ast.expr, aliases: set[str]) -> bool:
    """``os.environ`` or a name given it; never a WSGI ``environ`` (a request's)."""
    return (
        isinstance(node, ast.Attribute)
        and node.attr == "environ"
        and isinstance(node.value, ast.Name)
        and node.value.id == "os"
    ) or (isinstance(node, ast.Name) and node.id in aliases)


def variables_documented() -> set[str]:
    text = section("The web site and JSON API")
    table = text[text.index("| variable |") :]
    return set(re.findall(r"^\| `([A-Z_]+)` \|", table, flags=re.M))


def test_the_environment_table_names_every_variable_the_code_reads() -> None:
    read, documented = variables_read(), variables_documented()
    assert read, "no environment variable found: the walk is broken"
    assert read == documented, (
        f"read but not documented: {sorted(read - documented)};"
        f" documented but never read: {sorted(documented - read)}"
    )
