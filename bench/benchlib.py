"""What the benchmark scripts share: library versions and plain-text tables."""

from __future__ import annotations

import platform
from collections.abc import Sequence
from importlib import metadata


def versions(libraries: Sequence[str]) -> dict[str, str]:
    """Python's version and each library's installed version (or "not installed")."""
    found = {"python": platform.python_version()}
    for dist in libraries:
        try:
            found[dist] = metadata.version(dist)
        except metadata.PackageNotFoundError:
            found[dist] = "not installed"
    return found


def format_table(rows: list[list[str]]) -> str:
    """A header row, a rule, then the rows; the first column left-aligned, the rest right."""
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    lines = []
    for n, row in enumerate(rows):
        cells = [
            cell.rjust(w) if i else cell.ljust(w)
            for i, (cell, w) in enumerate(zip(row, widths, strict=True))
        ]
        lines.append("  ".join(cells).rstrip())
        if n == 0:
            lines.append("  ".join("-" * w for w in widths))
    return "\n".join(lines)
