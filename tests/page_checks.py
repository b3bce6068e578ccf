"""What every page must pass in a real browser, on a phone and on a laptop.

- no sideways scrolling (the page is never wider than the window);
- on a phone, no tap target under 44 x 44 CSS px (a link inside a sentence is
  exempt, as WCAG 2.5.8 exempts it: it is as tall as the line it sits in);
- on a phone, no text under 16 px (superscript note marks aside);
- axe-core (``axe-playwright-python``, its bundled ``axe.min.js``) finds no
  serious or critical accessibility violation, colour contrast included.

Each check returns sentences naming what failed, so one assertion shows all.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    from playwright.sync_api import Page

PHONE: Final = (390, 844)
LAPTOP: Final = (1280, 900)
MIN_TARGET: Final = 44
MIN_TEXT_PX: Final = 16
SERIOUS: Final = ("serious", "critical")

#: The two checks run in the page (tests/page_checks.js): too-small controls
#: (links within a line of running text exempt) and too-small text.
_SCRIPTS: Final = Path(__file__).with_suffix(".js").read_text(encoding="utf-8").split("// SMALL_")
_SMALL_TARGETS: Final = _SCRIPTS[1].split("\n", 1)[1]
_SMALL_TEXT: Final = _SCRIPTS[2].split("\n", 1)[1]


def overflow_problems(page: Page) -> list[str]:
    """The page scrolls sideways (wider than its window)."""
    extra = int(
        page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
    )
    return [f"{page.url}: {extra} px of sideways scrolling"] if extra > 0 else []


def small_targets(page: Page) -> list[str]:
    """Controls a finger cannot hit: under 44 x 44 CSS px."""
    found: list[str] = page.evaluate(_SMALL_TARGETS, MIN_TARGET)
    return [f"{page.url}: {item}" for item in found]


def small_text(page: Page) -> list[str]:
    """Text under 16 px."""
    found: list[str] = page.evaluate(_SMALL_TEXT, MIN_TEXT_PX)
    return [f"{page.url}: {item}" for item in found]


def accessibility_problems(page: Page) -> list[str]:
    """axe-core's serious and critical violations, one line per element."""
    from axe_playwright_python.sync_playwright import Axe

    results = Axe().run(page)
    problems = []
    for violation in results.response["violations"]:
        if violation.get("impact") not in SERIOUS:
            continue
        for node in violation["nodes"][:5]:
            target = " ".join(str(part) for part in node.get("target", []))
            problems.append(
                f"{page.url}: axe {violation['impact']} {violation['id']} at {target}: "
                f"{node.get('failureSummary', '').splitlines()[-1].strip()}"
            )
    return problems


def page_problems(page: Page, *, phone: bool, axe: bool = True) -> list[str]:
    """Everything above for the page as it is now."""
    problems = overflow_problems(page)
    if phone:
        problems += small_targets(page) + small_text(page)
    if axe:
        problems += accessibility_problems(page)
    return problems
