"""Every page type of the site, with the data each needs (a saved house rule, a table).

Used by the page tests (tests/test_pages_browser.py) and by
``scripts/page_report.py``, which screenshots them all.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from tests.browser_helpers import site
from tests.web_helpers import Client

HOUSE_YAML = (
    "name: Our kitchen table\n"
    "author: Ana\n"
    "description: Classic gin with a bigger gin bonus.\n"
    "extends: classic\n"
    "hand_scoring:\n"
    "  gin_bonus: 30\n"
    "notes:\n"
    "  - The loser shuffles.\n"
)


@contextmanager
def tour_site(folder: Path) -> Iterator[tuple[str, dict[str, str]]]:
    """The site on 127.0.0.1 with one saved house rule (two versions) and one table;
    yields its base URL and the paths of every page type by name."""
    with site(folder) as (base, _app):
        client = Client(base)
        saved = client.send_json("POST", "/api/houserules", {"yaml": HOUSE_YAML})
        assert saved.status == 201, saved.text
        house = saved.json()
        slug = house["slug"]
        edited = client.send_json(
            "PUT",
            f"/api/houserules/{slug}",
            {"yaml": HOUSE_YAML.replace("gin_bonus: 30", "gin_bonus: 35")},
            {"X-Edit-Secret": house["edit_secret"]},
        )
        assert edited.status in (200, 201), edited.text
        table = client.send_json(
            "POST",
            "/api/tables",
            {"rules": "classic", "players": ["Ana", "Ben"], "first_dealers": [0]},
        )
        assert table.status == 201, table.text
        table_slug = table.json()["slug"]
        partnership = client.send_json(
            "POST",
            "/api/tables",
            {
                "rules": "partnership",
                "players": ["Ana", "Ben", "Chloe", "Dev"],
                "first_dealers": [0, 2],
            },
        )
        assert partnership.status == 201, partnership.text
        scorer_key = table.json()["scorer_key"]
        edit_key = house["edit_secret"]
        yield (
            base,
            {
                "home": "/",
                "ruleset": "/rules/classic",
                "ruleset-hollywood": "/rules/hollywood",
                "ruleset-partnership": "/rules/partnership",
                "houserule": f"/h/{slug}",
                "version": f"/h/{slug}/v1",
                "versions": f"/h/{slug}/versions",
                "share": f"/h/{slug}/v2/share",
                "sheet": "/rules/classic/sheet",
                "sheet-house": f"/h/{slug}/v2/sheet",
                "scorepad": "/rules/classic/scorepad",
                "scorepad-hollywood": "/rules/hollywood/scorepad",
                "builder": "/build",
                "builder-fork": f"/build?from={house['ref']}",
                "builder-edit": f"/h/{slug}/edit?key={edit_key}",
                "yaml-edit": f"/h/{slug}/edit?key={edit_key}&mode=yaml",
                "yaml": "/build/yaml",
                "table-new": "/t/new?rules=classic",
                "table": f"/t/{table_slug}",
                "table-scorer": f"/t/{table_slug}#key={scorer_key}",
                "table-pad": f"/t/{table_slug}/pad",
                "table-pad-partnership": f"/t/{partnership.json()['slug']}/pad",
                "bot": "/bot/classic",
                "not-found": "/rules/no-such-rules",
            },
        )


def page_tour(pages: dict[str, str], only: list[str] | None = None) -> Iterator[tuple[str, str]]:
    """(name, path) of each page, or of the ones named in ``only``."""
    for name, path in pages.items():
        if not only or name in only:
            yield name, path
