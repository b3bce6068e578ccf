"""Every broken ruleset in ``tests/invalid/`` fails with exactly the errors its header states.

The expectation syntax is documented in ``tests/invalid/README.md``: one
``# expect-error:`` comment per error, in the order the errors are reported.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from ginrules.rules import locate
from ginrules.rules.diagnostics import Diagnostic, RulesetError
from ginrules.rules.load import Ruleset, load_ruleset, load_ruleset_text

INVALID_DIR = Path(__file__).resolve().parent / "invalid"
REPO_ROOT = INVALID_DIR.parent.parent
SCHEMA_FILE = REPO_ROOT / "ginrules" / "schema" / "ruleset.schema.json"
#: The only subfolder allowed: two files that extend each other.
CYCLE_DIR = "cycle"
MINIMUM_CASES = 24

CASES = sorted(INVALID_DIR.rglob("*.yaml"))
CASE_IDS = [case.relative_to(INVALID_DIR).as_posix() for case in CASES]

_EXPECT_PREFIX = "# expect-error:"
_MODELINE = re.compile(r"# yaml-language-server: \$schema=(?P<schema>\S+)")
_CLAUSE = re.compile(
    r"""\s*(?:
        (?P<number_field>line|column)\s+(?P<number>\d+)
      | (?P<word_field>path|file)\s+(?P<word>[^,\s]+)
      | (?P<text_field>message|hint|expected)\s+contains\s+(?P<text>"(?:[^"\\]|\\.)*")
      | (?P<no_hint>no\s+hint)
    )\s*(?:,|$)""",
    re.VERBOSE,
)


@dataclass(frozen=True)
class ExpectedError:
    """One ``# expect-error:`` line."""

    file: Path
    line: int
    path: str
    column: int | None = None
    message: tuple[str, ...] = ()
    hint: tuple[str, ...] = ()
    expected: tuple[str, ...] = ()
    no_hint: bool = False


def parse_expectation(text: str, case: Path) -> ExpectedError:
    """Read the clauses after ``# expect-error:``; ``case`` is the file they are in."""
    numbers: dict[str, int] = {}
    words: dict[str, str] = {}
    texts: dict[str, list[str]] = {"message": [], "hint": [], "expected": []}
    no_hint = False
    position = 0
    text = text.strip()
    while position < len(text):
        match = _CLAUSE.match(text, position)
        if match is None or match.end() == position:
            raise ValueError(f"cannot read expectation clause at {text[position:]!r}")
        position = match.end()
        if match["number_field"]:
            numbers[match["number_field"]] = int(match["number"])
        elif match["word_field"]:
            words[match["word_field"]] = match["word"]
        elif match["text_field"]:
            texts[match["text_field"]].append(json.loads(match["text"]))
        else:
            no_hint = True
    if "line" not in numbers or "path" not in words:
        raise ValueError(f"an expectation needs a line and a path: {text!r}")
    if not words["path"].startswith("$"):
        raise ValueError(f"a path starts with $: {words['path']!r}")
    file = INVALID_DIR / words["file"] if "file" in words else case
    return ExpectedError(
        file=file,
        line=numbers["line"],
        path=words["path"],
        column=numbers.get("column"),
        message=tuple(texts["message"]),
        hint=tuple(texts["hint"]),
        expected=tuple(texts["expected"]),
        no_hint=no_hint,
    )


def expectations(case: Path) -> list[ExpectedError]:
    # Decoded leniently: not-utf8.yaml is broken on purpose, its comments are ASCII.
    text = case.read_bytes().decode("utf-8", errors="replace")
    return [
        parse_expectation(line.removeprefix(_EXPECT_PREFIX), case)
        for line in text.splitlines()
        if line.startswith(_EXPECT_PREFIX)
    ]


def names_file(shown: str, expected: Path) -> bool:
    """Does a diagnostic's file name mean ``expected``? It is relative to the cwd or the repo."""
    candidates = [Path(shown)] if Path(shown).is_absolute() else [Path(shown), REPO_ROOT / shown]
    return any(candidate.resolve() == expected.resolve() for candidate in candidates)


def mismatches(found: Diagnostic, wanted: ExpectedError) -> list[str]:
    problems = []
    if not names_file(found.file, wanted.file):
        problems.append(f"file is {found.file!r}, expected {wanted.file}")
    if found.line != wanted.line:
        problems.append(f"line is {found.line}, expected {wanted.line}")
    if wanted.column is not None and found.column != wanted.column:
        problems.append(f"column is {found.column}, expected {wanted.column}")
    if found.json_path != wanted.path:
        problems.append(f"path is {found.json_path}, expected {wanted.path}")
    for field, needles in (
        ("message", wanted.message),
        ("hint", wanted.hint),
        ("expected", wanted.expected),
    ):
        value = getattr(found, field) or ""
        problems.extend(
            f"{field} {value!r} does not contain {needle!r}"
            for needle in needles
            if needle not in value
        )
    if wanted.no_hint and found.hint is not None:
        problems.append(f"has hint {found.hint!r}, expected none")
    return problems


def load_errors(load: Callable[[], Ruleset]) -> list[Diagnostic]:
    """The errors a broken ruleset raises; anything but RulesetError fails the test."""
    try:
        load()
    except RulesetError as error:
        assert error.errors, "RulesetError raised without a single error"
        return error.errors
    pytest.fail("the broken ruleset loaded without an error")


# --- the folder --------------------------------------------------------------


def test_there_are_enough_cases() -> None:
    assert len(CASES) >= MINIMUM_CASES


def test_only_the_cycle_lives_in_a_subfolder() -> None:
    folders = {case.parent.relative_to(INVALID_DIR).as_posix() for case in CASES}
    assert folders <= {".", CYCLE_DIR}
    assert len(list((INVALID_DIR / CYCLE_DIR).glob("*.yaml"))) == 2
    stray = [p.name for p in INVALID_DIR.iterdir() if p.is_dir() and p.name != CYCLE_DIR]
    assert stray == []


@pytest.mark.parametrize("case", CASES, ids=CASE_IDS)
def test_case_starts_with_the_schema_modeline(case: Path) -> None:
    first = case.read_bytes().split(b"\n", 1)[0].decode("ascii")
    match = _MODELINE.fullmatch(first)
    assert match is not None, f"{case.name} must start with the yaml-language-server modeline"
    assert (case.parent / match["schema"]).resolve() == SCHEMA_FILE.resolve()


# --- each broken file -------------------------------------------------------


@pytest.mark.parametrize("case", CASES, ids=CASE_IDS)
def test_broken_ruleset_reports_the_expected_errors(case: Path) -> None:
    wanted = expectations(case)
    assert wanted, f"{case.name} has no '{_EXPECT_PREFIX}' comment"
    errors = load_errors(lambda: load_ruleset(case))
    shown = "\n".join(error.format() for error in errors)
    assert len(errors) == len(wanted), f"expected {len(wanted)} errors, got:\n{shown}"
    for index, (found, expected) in enumerate(zip(errors, wanted, strict=True)):
        problems = mismatches(found, expected)
        assert not problems, f"error {index + 1} of {case.name}: {problems}\nall errors:\n{shown}"


@pytest.mark.parametrize("case", CASES, ids=CASE_IDS)
def test_errors_format_like_a_compiler(case: Path) -> None:
    for error in load_errors(lambda: load_ruleset(case)):
        assert error.severity == "error"
        assert error.line is not None and error.column is not None, error.format()
        assert error.format().startswith(f"{error.file}:{error.line}:{error.column}: error: ")
        assert error.message in error.format()


@pytest.mark.parametrize("case", CASES, ids=CASE_IDS)
def test_every_loader_raises_only_ruleset_errors(case: Path) -> None:
    raw = case.read_bytes()
    loaders: list[Callable[[], Ruleset]] = [
        lambda: load_ruleset(case),
        lambda: load_ruleset(str(case)),
        lambda: load_ruleset_text(raw, case.name, case.parent),
    ]
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        pass
    else:
        loaders.append(lambda: load_ruleset_text(text, case.name, case.parent))
    for load in loaders:
        load_errors(load)


@pytest.mark.parametrize(
    "case", [c for c in CASES if c.parent.name != CYCLE_DIR], ids=lambda c: c.name
)
def test_text_loader_agrees_with_the_file_loader(case: Path) -> None:
    name = locate.display_name(case)
    from_file = load_errors(lambda: load_ruleset(case))
    from_text = load_errors(lambda: load_ruleset_text(case.read_bytes(), name, case.parent))
    assert [e.format() for e in from_text] == [e.format() for e in from_file]


def test_a_cycle_is_found_from_text_too() -> None:
    first = INVALID_DIR / CYCLE_DIR / "first.yaml"
    errors = load_errors(lambda: load_ruleset_text(first.read_text(), "first.yaml", first.parent))
    assert "extends cycle" in errors[0].message
    assert errors[0].json_path == "$.extends"


@pytest.mark.parametrize(
    "content",
    [
        b"",
        b"\n\n",
        b"   \n",
        b"---\n",
        b"# only a comment\n",
        b"\xef\xbb\xbf",
        b"--- # nothing\n...",
    ],
    ids=["zero-bytes", "blank-lines", "spaces", "bare-start", "comment", "bom", "start-and-end"],
)
def test_an_empty_file_is_one_error_on_line_1(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "empty.yaml"
    path.write_bytes(content)
    errors = load_errors(lambda: load_ruleset(path))
    assert len(errors) == 1
    assert (errors[0].line, errors[0].column, errors[0].json_path) == (1, 1, "$")
    assert "file is empty" in errors[0].message


# --- the expectation syntax itself ----------------------------------------


def test_expectation_clauses_parse() -> None:
    case = INVALID_DIR / "some.yaml"
    parsed = parse_expectation(
        ' line 8, column 3, path $.a.b, file cycle/x.yaml, message contains "it\'s, \\"quoted\\"",'
        ' hint contains "did you mean", expected contains "one of", message contains "two"',
        case,
    )
    assert parsed == ExpectedError(
        file=INVALID_DIR / "cycle" / "x.yaml",
        line=8,
        path="$.a.b",
        column=3,
        message=('it\'s, "quoted"', "two"),
        hint=("did you mean",),
        expected=("one of",),
    )
    assert parse_expectation("path $, line 1, no hint", case) == ExpectedError(
        file=case, line=1, path="$", no_hint=True
    )


@pytest.mark.parametrize(
    "text",
    [
        "path $.a",  # no line
        "line 3",  # no path
        "line 3, path a.b",  # a path starts with $
        "line three, path $",
        'line 3, path $, message has "x"',
        "line 3, path $, message contains unquoted",
        "line 3 path $",  # a missing comma
    ],
)
def test_malformed_expectations_are_refused(text: str) -> None:
    with pytest.raises(ValueError):
        parse_expectation(text, INVALID_DIR / "some.yaml")
