"""Check (and screenshot) every page type at 390 x 844 and 1280 x 900, light and dark.

    .venv/bin/python scripts/page_report.py [--only NAME ...] [--no-axe] [--shots DIR]

Starts the site on 127.0.0.1 (a temporary SQLite database), saves one house
rule and starts one table so every page type exists, then prints what
tests/page_checks.py finds on each page. Screenshots go to DIR
(/tmp/ginrules-screens/pages by default). For looking, not for CI: the tests
run the same checks (tests/test_pages_browser.py).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.page_checks import LAPTOP, PHONE, page_problems
from tests.page_tour import page_tour, tour_site


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", nargs="*", default=None, help="page names to check")
    parser.add_argument("--no-axe", action="store_true", help="skip axe-core")
    parser.add_argument("--shots", default="/tmp/ginrules-screens/pages")
    parser.add_argument("--dark-only", action="store_true")
    args = parser.parse_args()
    shots = Path(args.shots)
    shots.mkdir(parents=True, exist_ok=True)
    from playwright.sync_api import sync_playwright

    from tests.browser_helpers import ARGS, CHROMIUM

    total = 0
    with (
        tempfile.TemporaryDirectory() as folder,
        tour_site(Path(folder)) as (base, pages),
        sync_playwright() as playwright,
    ):
        if True:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            for scheme in ("dark",) if args.dark_only else ("light", "dark"):
                for size in (PHONE, LAPTOP):
                    context = browser.new_context(
                        viewport={"width": size[0], "height": size[1]}, color_scheme=scheme
                    )
                    page = context.new_page()
                    errors: list[str] = []

                    def console(message: Any, errors: list[str] = errors) -> None:
                        if message.type == "error":
                            errors.append(message.text)

                    page.on("console", console)
                    for name, path in page_tour(pages, args.only):
                        errors.clear()
                        page.goto(base + path)
                        page.wait_for_load_state("networkidle")
                        found = page_problems(page, phone=size == PHONE, axe=not args.no_axe)
                        found += [f"console: {e}" for e in errors]
                        label = f"{name}-{size[0]}-{scheme}"
                        page.screenshot(path=str(shots / f"{label}.png"), full_page=True)
                        height = page.evaluate("document.documentElement.scrollHeight")
                        print(f"== {label}: {len(found)} problem(s), {height} px tall")
                        for item in found[:25]:
                            print("   ", item)
                        total += len(found)
                    context.close()
            browser.close()
    print(f"{total} problem(s) in all")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
