"""The table's story in a real browser: three phones at 390 px around one game.

Ana opens her saved house rules, starts a table and shows its QR code; Ben and
Chloe scan it (decoded with zxing-cpp from Ana's screen) and follow the same
score. Hands are entered both ways on different phones and reach the others
without a reload; one is undone, an earlier one corrected; Chloe's wifi drops
while she enters a hand, which is sent once when it returns; the game ends,
the filled score pad is downloaded and read back with poppler, and the same
players go on to the next game. Run on SQLite and on PostgreSQL.
"""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

from flask import Flask

from ginrules.web import create_app
from tests.browser_helpers import SCREENS, Visit, decode_qr, horizontal_overflow, phones
from tests.databases import database_url
from tests.pdf_tools import need
from tests.web_helpers import Client, serve_at_own_address

if TYPE_CHECKING:
    from playwright.sync_api import Page, Route

__all__ = ["database_url"]  # a fixture

HOUSE = (
    "name: Ana's table\nauthor: Ana\nextends: classic\ndescription: Gin is worth 25, game to 100.\n"
)
#: Ben's ten cards (a knock with the king) and Ana's, for the hand entered card by card.
BEN = ["AS", "2S", "3S", "4H", "5H", "6H", "7D", "8D", "9D", "KC"]
ANA = ["AH", "2H", "3H", "QS", "QD", "QC", "9S", "9C", "8S", "8C"]


@contextmanager
def _site(tmp_path: Path, url: str) -> Iterator[str]:
    apps: list[Flask] = []

    def make(base: str) -> Flask:
        app = create_app(
            {
                "INSTANCE_PATH": str(tmp_path / "instance"),
                "DATABASE_URL": url,
                "PUBLIC_BASE_URL": base,
                "SECRET_KEY": "table-story",
                # One test server for three phones that each leave pages behind.
                "LIVE_STREAMS": 32,
                "UPGRADE_ON_START": True,
                "RATE_LIMIT": "1000 per minute",
            }
        )
        apps.append(app)
        return app

    try:
        with serve_at_own_address(make) as (base, _):
            yield base
    finally:
        for app in apps:
            app.extensions["ginrules.store"].close()


def _points(page: Page, side: int, expected: str) -> None:
    from playwright.sync_api import expect

    # Live: no reload happens between the change on another phone and this check.
    expect(page.locator(f'#score [data-side="{side}"]').first).to_have_text(expected, timeout=8000)


def _enter_counts(page: Page, end: str, who: int, knocker: str, defender: str) -> None:
    part = page.locator(".hand-part").first
    part.locator("[data-group=end] .seg", has_text=end).first.click()
    part.locator("[data-group=who] .seg").nth(who).click()
    numbers = part.locator("input[type=number]")
    if end == "Knock":
        numbers.nth(0).fill(knocker)
        numbers.nth(1).fill(defender)
    else:
        numbers.nth(0).fill(defender)
    page.locator("[data-save]").click()


def _shot(page: Page, name: str) -> None:
    SCREENS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENS / f"{name}.png"), full_page=True)


def _hands_logged(client: Client, slug: str) -> list[str]:
    return [item["kind"] for item in client.get(f"/api/tables/{slug}").json()["log"]]


def test_three_phones_keep_one_score(tmp_path: Path, database_url: str) -> None:
    from playwright.sync_api import expect

    with _site(tmp_path, database_url) as base, phones(3) as (ana, ben, chloe):
        client = Client(base)
        saved = client.send_json("POST", "/api/houserules", {"yaml": HOUSE})
        assert saved.status == 201, saved.text
        house = saved.json()

        # Ana: her house rules, Start a table, the players, who deals.
        page = ana.page
        page.goto(f"{base}/h/{house['slug']}")
        page.get_by_role("link", name="Start a table").click()
        page.fill("#players-0", "Ana")
        page.fill("#players-1", "Ben")
        page.get_by_label("Player 1 deals").check()
        page.get_by_role("button", name="Start the table").click()
        page.wait_for_selector(".table-page.ready")
        slug = page.url.rsplit("/", 1)[1].split("#")[0]
        assert "#key=" not in page.url  # the key left the address bar for the phone's storage
        assert client.get(f"/api/tables/{slug}").json()["rules"]["ref"] == house["ref"]
        scorer_qr = page.locator("#scorer-qr img")
        scorer_qr.wait_for(state="visible")
        (link,) = decode_qr(scorer_qr.screenshot())
        assert link.startswith(f"{base}/t/{slug}#key=")
        (watch,) = decode_qr(page.locator("#viewer-qr img").screenshot())
        assert watch == f"{base}/t/{slug}"
        assert horizontal_overflow(page) == 0
        _shot(page, "table-start-390")

        # Ben and Chloe scan it.
        for phone in (ben, chloe):
            phone.page.goto(link)
            phone.page.wait_for_selector(".table-page.ready")
            assert phone.page.locator("#enter").is_visible()

        # Hand 1 on Ana's phone, by the counts: Ana knocks with 5 against 22.
        _enter_counts(page, "Knock", 0, "5", "22")
        for phone in (ana, ben, chloe):
            _points(phone.page, 0, "17")

        # Hand 2 on Ben's phone, card by card: Ben knocks with the king.
        ben.page.locator("[data-group=way] .seg", has_text="The cards").click()
        ben.page.locator("[data-group=who] .seg").nth(1).click()
        for card in BEN:
            ben.page.locator(f'[data-card="{card}"]').click()
        ben.page.locator("[data-group=picking] .seg").nth(1).click()
        for card in ANA:
            ben.page.locator(f'[data-card="{card}"]').click()
        _shot(ben.page, "table-cards-390")
        ben.page.locator("[data-save]").click()
        for phone in (ana, ben, chloe):
            _points(phone.page, 1, "24")
        chloe.page.get_by_text("How the cards score").first.click()
        assert chloe.page.get_by_text("Knocker shows:").first.is_visible()

        # Chloe undoes it; Ana corrects hand 1 (she had 2, not 5).
        chloe.page.once("dialog", lambda dialog: dialog.accept())
        chloe.page.locator("[data-undo]").click()
        for phone in (ana, ben, chloe):
            _points(phone.page, 1, "0")
        page.locator('[data-edit="1"]').click()
        page.locator(".hand-part input[type=number]").first.fill("2")
        page.get_by_role("button", name="Save the correction").click()
        for phone in (ana, ben, chloe):
            _points(phone.page, 0, "20")

        # Chloe's wifi drops while she enters hand 2: Ben goes gin against 30.
        chloe.page.context.set_offline(True)
        _enter_counts(chloe.page, "Gin", 1, "", "30")
        pending = chloe.page.locator("#pending")
        pending.wait_for(state="visible")
        assert "Not saved yet" in pending.inner_text()
        _shot(chloe.page, "table-offline-390")
        assert _hands_logged(client, slug) == ["hand", "hand", "undo", "correct"]
        chloe.page.context.set_offline(False)
        for phone in (ana, ben, chloe):
            _points(phone.page, 1, "55")
        pending.wait_for(state="hidden")
        assert _hands_logged(client, slug) == ["hand", "hand", "undo", "correct", "hand"]

        # Ana and Ben both enter hand 3 at once: Ben's request is still on its way
        # (held here) when Ana's is saved, so his is refused as stale, never doubled,
        # and his phone shows the score that was saved.
        held: list[Route] = []

        def hold(route: Route) -> None:
            held.append(route)

        ben.page.route("**/api/tables/*/events?*", hold)
        _enter_counts(ben.page, "Knock", 1, "3", "9")
        ben.page.wait_for_timeout(300)
        _enter_counts(page, "Knock", 0, "1", "11")
        _points(chloe.page, 0, "30")
        assert len(held) == 1
        held[0].continue_()
        ben.page.unroute("**/api/tables/*/events?*")
        stale = ben.page.locator("#pending")
        expect(stale).to_contain_text("another phone changed the score first", timeout=8000)
        _points(ben.page, 0, "30")
        ben.page.get_by_role("button", name="Drop it").click()
        stale.wait_for(state="hidden")
        assert _hands_logged(client, slug) == ["hand", "hand", "undo", "correct", "hand", "hand"]

        # Ana goes gin against 90: the game is over on every phone.
        _enter_counts(page, "Gin", 0, "", "90")
        for phone in (ana, ben, chloe):
            phone.page.locator(".game-over").wait_for(state="visible")
        table = client.get(f"/api/tables/{slug}").json()
        assert table["finished"] and table["results"][0]["winner"] == 0
        results = ben.page.locator(".results").inner_text()
        assert "Ana wins with 145 after 4 hands" in results
        _shot(ben.page, "table-over-390")

        # The filled score pad, downloaded and read back with poppler.
        with ben.page.expect_download() as download:
            ben.page.get_by_role("link", name="Score pad (PDF)").click()
        pdf = tmp_path / "pad.pdf"
        download.value.save_as(pdf)
        text = subprocess.run(
            [need("pdftotext"), "-layout", str(pdf), "-"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        assert "Ana" in text and "Ben" in text and "145" in text

        # The wide screen, then the next game with the same players.
        page.set_viewport_size({"width": 1280, "height": 900})
        _shot(page, "table-over-1280")
        page.get_by_role("button", name="Next game, same rules").click()
        page.wait_for_url(lambda url: f"/t/{slug}" not in url)
        page.wait_for_selector(".table-page.ready")
        following = page.url.rsplit("/", 1)[1]
        assert following != slug and page.locator("#enter").is_visible()  # the key came along
        ben.page.get_by_role("link", name="Go to the next game").click()
        ben.page.wait_for_url(f"{base}/t/{following}")
        _points(ben.page, 0, "0")

        _assert_clean(ana, ben, chloe, offline=(chloe,), stale=ben)


def _assert_clean(*visits: Visit, offline: tuple[Visit, ...], stale: Visit) -> None:
    """Nothing went wrong on any phone but what the story did on purpose: requests
    that failed while a phone was offline, and the one stale hand's 409."""
    for visit in visits:
        problems = [
            p
            for p in visit.problems
            if not (visit in offline and "ERR_INTERNET_DISCONNECTED" in p)
            and not (visit is stale and "status of 409" in p)
        ]
        assert problems == []
        answers = [a for a in visit.bad_answers if not (visit is stale and a[0] == 409)]
        assert answers == []
    assert [a[0] for a in stale.bad_answers] == [409]
