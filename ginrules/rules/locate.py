"""Find rulesets by name or path: the registry of shipped rulesets and house rules.

The YAML files live at the top of the repository (``rulesets/``,
``houserules/``) and ship inside the wheel under ``ginrules/data/``, so the
same names work in a checkout and after ``pip install``.
"""

from __future__ import annotations

import difflib
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Final

KINDS: Final = ("rulesets", "houserules")
YAML_SUFFIXES: Final = (".yaml", ".yml")

_PACKAGE_DIR: Final = Path(__file__).resolve().parent.parent


class UnknownRuleset(LookupError):
    """No shipped ruleset has that name (the message suggests close names)."""


@dataclass(frozen=True)
class Entry:
    """A shipped ruleset or house rule."""

    name: str
    kind: str  # "rulesets" or "houserules"
    path: Path

    @property
    def display(self) -> str:
        return f"{self.kind}/{self.path.name}"


def data_dir(kind: str) -> Path:
    """Where the shipped YAML files of ``kind`` are, installed or in a checkout."""
    installed = _PACKAGE_DIR / "data" / kind
    if installed.is_dir():
        return installed
    return _PACKAGE_DIR.parent / kind


def templates_dir() -> Path:
    return data_dir("templates")


def entries() -> list[Entry]:
    """Every shipped file: base rulesets first, then house rules, by name."""
    found = []
    for kind in KINDS:
        folder = data_dir(kind)
        if not folder.is_dir():
            continue
        for path in sorted(folder.iterdir()):
            if path.suffix in YAML_SUFFIXES and path.is_file():
                found.append(Entry(path.stem, kind, path))
    return found


def _normal(name: str) -> str:
    name = name.strip().lower().replace("_", "-").replace(" ", "-")
    for suffix in YAML_SUFFIXES:
        name = name.removesuffix(suffix)
    return name


def find_entry(name: str) -> Entry:
    """A shipped ruleset by name, case-insensitively (``Classic``, ``no_layoffs``)."""
    wanted = _normal(name)
    known = entries()
    for entry in known:
        if _normal(entry.name) == wanted:
            return entry
    close = difflib.get_close_matches(wanted, [e.name for e in known], n=3, cutoff=0.6)
    hint = f"; did you mean {' or '.join(repr(c) for c in close)}?" if close else ""
    available = ", ".join(e.name for e in known)
    raise UnknownRuleset(f"unknown ruleset {name!r}{hint} (known: {available})")


def looks_like_path(reference: str) -> bool:
    return "/" in reference or os.sep in reference or reference.endswith(YAML_SUFFIXES)


def resolve(reference: str, relative_to: Path | None = None) -> Path:
    """A ruleset reference (a shipped name, or a path) as a file path.

    A path is taken relative to ``relative_to`` (the folder of the file that
    names it) when given, else to the working directory. Raises
    :class:`UnknownRuleset` for an unknown name; a path is returned as is and
    the caller reports a missing file.
    """
    if looks_like_path(reference):
        path = Path(reference).expanduser()
        if not path.is_absolute() and relative_to is not None:
            path = relative_to / path
        return path
    return find_entry(reference).path


def display_name(path: Path) -> str:
    """How to name a file in messages: ``rulesets/classic.yaml`` or a short path."""
    resolved = path.resolve()
    for kind in KINDS:
        folder = data_dir(kind).resolve()
        if resolved.parent == folder:
            return f"{kind}/{resolved.name}"
    try:
        relative = os.path.relpath(resolved)
    except ValueError:  # another drive on Windows
        return str(path)
    return relative if not relative.startswith(".." + os.sep + "..") else str(resolved)
