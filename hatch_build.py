"""The wheel's build hook: compile each language's catalogue (``.po``) to ``.mo``.

The ``.po`` sources live in the repository; the compiled ``.mo`` files are
made here, at build or (editable) install time, and shipped in the wheel, so
an installed ginrules speaks every language without Babel's command line.
A fuzzy or empty translation is left out, as ``pybabel compile`` does.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

CATALOGUES = "ginrules/words/locale"


class CatalogueBuildHook(BuildHookInterface):  # type: ignore[misc]
    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        from babel.messages.mofile import write_mo
        from babel.messages.pofile import read_po

        root = Path(self.root)
        for po in sorted((root / CATALOGUES).glob("*/LC_MESSAGES/*.po")):
            with po.open("rb") as source:
                catalog = read_po(source)
            mo = po.with_suffix(".mo")
            with mo.open("wb") as target:
                write_mo(target, catalog)
            build_data["artifacts"].append(mo.relative_to(root).as_posix())
