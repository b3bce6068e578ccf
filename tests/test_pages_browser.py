"""Every page type, on a 390 px phone and a 1280 px laptop, light and dark.

In Debian's Chromium (Playwright), each page of the tour (tests/page_tour.py:
home, rulesets, a saved house rule and its versions, share, sheets, score pads,
builder, YAML editor, the table's pages, the bot game, a missing page) must
show no sideways scrolling, no console or Content-Security-Policy error, no
failed request, and no serious or critical axe-core violation; on the phone
also no tap target under 44 px and no text under 16 px (tests/page_checks.py).
Each page is screenshotted into /tmp/ginrules-screens/pages/ for looking at.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import pytest

from tests.browser_helpers import SCREENS, TIMEOUT_MS, headless_chromium
from tests.page_checks import LAPTOP, PHONE, page_problems
from tests.page_tour import tour_site

if TYPE_CHECKING:
    from playwright.sync_api import Browser

PAGES = (
    "home",
    "ruleset",
    "ruleset-hollywood",
    "ruleset-partnership",
    "houserule",
    "version",
    "versions",
    "share",
    "sheet",
    "sheet-house",
    "scorepad",
    "scorepad-hollywood",
    "builder",
    "builder-fork",
    "builder-edit",
    "yaml",
    "yaml-edit",
    "table-new",
    "table",
    "table-scorer",
    "table-pad",
    "table-pad-partnership",
    "bot",
    "not-found",
)


@pytest.fixture(scope="module")
def tour(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, dict[str, str]]]:
    with tour_site(tmp_path_factory.mktemp("tour")) as found:
        yield found


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with headless_chromium() as launched:
        yield launched


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("size", [PHONE, LAPTOP], ids=["phone", "laptop"])
@pytest.mark.parametrize("name", PAGES)
def test_page_fits_reads_and_passes_axe(
    tour: tuple[str, dict[str, str]],
    browser: Browser,
    name: str,
    size: tuple[int, int],
    scheme: Any,
) -> None:
    base, pages = tour
    context = browser.new_context(
        viewport={"width": size[0], "height": size[1]}, color_scheme=scheme
    )
    try:
        context.set_default_timeout(TIMEOUT_MS)
        page = context.new_page()
        errors: list[str] = []
        page.on(
            "console",
            lambda m: (
                errors.append(m.text)
                if m.type == "error"
                # the missing page's own 404 answer, which Chromium logs as a failed load
                and not (name == "not-found" and "404" in m.text and "Failed to load" in m.text)
                else None
            ),
        )
        page.on("pageerror", lambda error: errors.append(f"script error: {error}"))
        failed: list[str] = []
        page.on(
            "response",
            lambda r: (
                failed.append(f"{r.status} {r.url}")
                if r.status >= 400 and not r.url.endswith("/rules/no-such-rules")
                else None
            ),
        )
        answer = page.goto(base + pages[name])
        assert answer is not None
        assert answer.status == (404 if name == "not-found" else 200)
        page.wait_for_load_state("networkidle")
        problems = page_problems(page, phone=size == PHONE)
        shots = SCREENS / "pages"
        shots.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(shots / f"{name}-{size[0]}-{scheme}.png"), full_page=True)
        assert not errors, errors
        assert not failed, failed
        assert not problems, "\n".join(problems)
    finally:
        context.close()


def test_the_tour_covers_every_page_type(tour: tuple[str, dict[str, str]]) -> None:
    assert set(PAGES) == set(tour[1]), "tests/page_tour.py and PAGES name the same pages"
