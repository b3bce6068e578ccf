"""Every sentence a person reads is made in ginrules.words (or a template).

A string literal that reads like English (three words or more) outside
``ginrules/words/`` is a finding, except docstrings, ``assert`` messages and
command-line ``help=``/``description=`` texts. The game's own words (the
engine, the sheets, the terminal game, ``ginrules score``) must have none but
the programmer-facing ones listed below. The modules that still word their
own errors and reports have a budget that may only go down: each moves to
``words/`` with the translation catalogues (issue 16).
"""

from __future__ import annotations

import ast
import re
from collections import Counter
from pathlib import Path
from typing import Final

PACKAGE: Final = Path(__file__).resolve().parent.parent / "ginrules"
ENGLISH: Final = re.compile(r"[A-Za-z]+(?:[ ,;:] ?[A-Za-z']+){2,}")

#: Areas whose every sentence must come from words/ (programmer errors aside).
STRICT: Final = (
    "engine/",
    "sheets/",
    "cli/play.py",
    "cli/terminal_player.py",
    "web/views/rulesets.py",
    "web/views/prints.py",
)

#: Programmer-facing texts in strict areas: raised for a wrong API call, never shown
#: to a player (a player's input is checked before it reaches these).
PROGRAMMER_ERRORS: Final = {
    ("engine/hand.py", "a deck must hold each of the 52 cards once"),
    ("engine/hand.py", "a card is dealt twice"),
    ("engine/hand.py", "the dealer is seat 0 or 1, not "),
    ("engine/hand.py", "an eleven-card deal has no upcard: give the non-dealer 11 cards"),
    ("engine/hand.py", "deal ten cards each and name the upcard"),
    ("engine/hand.py", " cards to each player"),
    ("engine/hand.py", " (and an eleventh to the non-dealer)"),
    ("engine/hand.py", "the hand is not over"),
    ("engine/session.py", "this format seats "),
    ("engine/session.py", "the session has started"),
    ("engine/session.py", "no person is to move"),
    ("engine/scoreboard.py", "this game is finished and takes no more entries"),
    ("engine/scoreboard.py", "the game is not finished"),
    ("engine/scoring.py", "big gin is not played under this ruleset"),
    ("engine/rounds.py", "not this pairing's turn"),
}

#: Modules that still word their own errors or reports, with how many literals each
#: holds today. A budget may only go down; a new module starts at zero.
BUDGET: Final = {
    # Ruleset diagnostics: every code's words, written once as catalogue messages (marked
    # for pybabel, said in the reader's language by words/rule_problems), in the rules layer
    # that must word its own errors without words/; and PyYAML's complaints it recognises.
    "rules/phrases.py": 81,
    "rules/yamlsource.py": 3,
    "rules/locate.py": 1,
    "schema/__init__.py": 1,
    # Card, meld and lay-off errors of the lowest layers, and the ace rules' summaries.
    "cards.py": 9,
    "melds/arrange.py": 6,
    "melds/model.py": 3,
    "layoffs.py": 3,
    # The command line's reports and errors.
    "cli/rulesets.py": 5,
    "cli/games.py": 13,
    "cli/deadwood.py": 3,
    "cli/sheets.py": 8,
    "cli/web.py": 3,
    "cli/common.py": 2,
    "cli/score.py": 3,
    "cli/__init__.py": 2,
    # The web site's forms, errors and API messages; the OpenAPI document is for programmers.
    "web/openapi.py": 33,
    "web/views/api.py": 22,
    "web/security.py": 3,
    "web/storage.py": 9,
    "web/settings.py": 2,
    # Operators' log lines when the database is away for a moment.
    "web/table_watch.py": 2,
    "web/saving.py": 1,
    "web/views/builder.py": 1,
    "web/views/houserules.py": 1,
}


def english_literals(path: Path) -> list[tuple[int, str]]:
    """String literals that read like English, less docstrings, asserts and CLI help."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skipped: set[int] = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        first = body[0] if isinstance(body, list) and body else None
        if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
            skipped.add(id(first.value))  # a docstring
        if isinstance(node, ast.Assert) and node.msg is not None:
            skipped.update(id(sub) for sub in ast.walk(node.msg))
        if isinstance(node, ast.keyword) and node.arg in ("help", "description", "epilog"):
            skipped.update(id(sub) for sub in ast.walk(node.value))
        called = (
            getattr(node.func, "attr", getattr(node.func, "id", None))
            if isinstance(node, ast.Call)
            else None
        )
        if isinstance(node, ast.Call) and called in ("add", "add_parser"):
            for arg in node.args:  # a subcommand's one-line help and its example
                skipped.update(id(sub) for sub in ast.walk(arg))
    return [
        (node.lineno, node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and id(node) not in skipped
        and ENGLISH.search(node.value)
        and not _cards_only(node.value)
    ]


def _cards_only(text: str) -> bool:
    """``5H 6H 7H 9C``: a hand of cards, not words."""
    return all(re.fullmatch(r"(?:10|[2-9TJQKA])[CDHS]", word) for word in text.split())


def findings() -> dict[str, list[tuple[int, str]]]:
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        relative = path.relative_to(PACKAGE).as_posix()
        if relative.startswith("words/"):
            continue
        literals = english_literals(path)
        if literals:
            found[relative] = literals
    return found


def test_the_games_words_come_from_the_words_package() -> None:
    strays = [
        f"ginrules/{name}:{line}: {text!r}"
        for name, literals in findings().items()
        if name.startswith(STRICT)
        for line, text in literals
        if (name, text) not in PROGRAMMER_ERRORS
    ]
    assert not strays, "sentences to move to ginrules/words/:\n" + "\n".join(strays)


def test_the_english_left_elsewhere_only_shrinks() -> None:
    over = []
    for name, literals in findings().items():
        if name.startswith(STRICT):
            continue
        budget = BUDGET.get(name, 0)
        if len(literals) > budget:
            shown = "\n    ".join(f"{line}: {text!r}" for line, text in literals)
            over.append(f"ginrules/{name}: {len(literals)} > {budget}\n    {shown}")
    assert not over, "new English outside ginrules/words/:\n" + "\n".join(over)


def test_the_scan_finds_a_planted_sentence(tmp_path: Path) -> None:
    planted = tmp_path / "planted.py"
    planted.write_text(
        '"""A docstring is fine."""\n'
        "def f() -> str:\n"
        '    assert True, "an assert message is fine"\n'
        '    return f"The knocker scores {5} points"\n'
        'HAND = "5H 6H 7H 9C"\n',
        encoding="utf-8",
    )
    assert [text for _, text in english_literals(planted)] == ["The knocker scores "]


def test_budgets_name_real_modules_and_are_not_slack() -> None:
    found = Counter({name: len(literals) for name, literals in findings().items()})
    for name, budget in BUDGET.items():
        assert (PACKAGE / name).is_file(), f"{name} in BUDGET does not exist"
        assert found[name] == budget, f"ginrules/{name}: lower its budget to {found[name]}"
