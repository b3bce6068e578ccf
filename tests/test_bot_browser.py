"""A game against the bot in a real browser (Debian's Chromium, Playwright), to its end.

From a saved house rules' page (a quick game: to 30), "Play against the bot"
deals a seeded game; the test then plays it to the end on a 390 px phone
screen as a person would, tapping only what the page offers: a knock or gin
button when there is one, pass, draw, lay off, and otherwise a tap on the
highest deadwood card. Once, it tries a knock the rules refuse (over the
knock limit) and must see the engine's reason, with nothing played. No page
may log a script error or a CSP violation; the one refused move is the only
answer of 400 or more. Screenshots at 390 and 1280 px go to
``/tmp/ginrules-screens``.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Final

from playwright.sync_api import Locator, Page, ViewportSize, expect

from tests.browser_helpers import TIMEOUT_MS, chromium, horizontal_overflow, shot, site
from tests.web_helpers import Client

QUICK: Final = (
    "name: Quick game\nauthor: Ana\ndescription: ''\nextends: classic\n"
    "game_scoring:\n  target: 30\n"
)
RANKS: Final = "A23456789TJQK"
#: More moves than a game to 30 takes with this player.
MOST_MOVES: Final = 400
PHONE: Final[ViewportSize] = {"width": 390, "height": 844}
DESKTOP: Final[ViewportSize] = {"width": 1280, "height": 900}


def _highest(cards: Locator) -> Locator:
    """The tappable card of the highest rank among ``cards``."""
    codes = [str(code) for code in cards.evaluate_all("cs => cs.map(c => c.dataset.card)")]
    best = max(range(len(codes)), key=lambda i: RANKS.index(codes[i][0]))
    return cards.nth(best)


def _next_move(page: Page) -> Locator:
    """What this player taps now: going out, passing, drawing, or its worst card."""
    moves = page.locator("#bot-moves button.bot-move")
    for kind in ("big_gin", "gin", "knock", "defend", "pass", "draw"):
        found = moves.and_(page.locator(f"[data-kind='{kind}']"))
        if found.count():
            return found.first
    loose = page.locator("#bot-hand .deadwood button.playing-card")
    if loose.count():
        return _highest(loose)
    return _highest(page.locator("#bot-hand button.playing-card"))


def _try_a_knock_over_the_limit(page: Page, slug: str, client: Client) -> None:
    game = page.locator("#botgame")
    seen = game.get_attribute("data-seen")
    page.locator("#bot-moves .bot-knock-toggle").click()
    expect(page.locator("#bot-moves .bot-knock-toggle")).to_have_attribute("aria-pressed", "true")
    card = _highest(page.locator("#bot-hand button.playing-card"))
    # The page sends its moves in its own language (?lang=), and gets their words back in it.
    moved = f"/api/bots/{slug}/actions?lang=en"
    with page.expect_response(lambda r: r.url.endswith(moved)) as answer:
        card.click()
    assert answer.value.status == 422
    refusal = page.locator("#bot-refusal")
    expect(refusal).to_be_visible()
    expect(refusal).to_have_text(
        re.compile(r"^knock \w\w: that leaves \d+ deadwood; the knock limit this hand is 10$")
    )
    expect(game).to_have_attribute("data-seen", str(seen))
    assert client.get(f"/api/bots/{slug}").json()["seen"] == int(str(seen))
    assert horizontal_overflow(page) == 0


def test_a_game_against_the_bot_is_played_to_the_end_in_the_browser(tmp_path: Path) -> None:
    with (
        site(tmp_path) as (base, _app),
        chromium(tmp_path, PHONE["width"], PHONE["height"]) as visit,
    ):
        page = visit.page
        client = Client(base)
        saved = client.send_json("POST", "/api/houserules", {"yaml": QUICK})
        assert saved.status == 201, saved.text
        rules = f"h/{saved.json()['slug']}/v1"

        # -- From the rules' page to a dealt game.
        page.goto(f"{base}/{rules}")
        page.get_by_role("link", name="Play against the bot").click()
        page.wait_for_url(f"{base}/bot/{rules}")
        expect(page.locator("h1")).to_have_text("Quick game")
        expect(page.locator("input[name=bot][value=strong]")).to_be_checked()
        page.fill("#seed", "2")
        shot(page, tmp_path, "bot-1-start-390")
        page.click("#deal")
        page.wait_for_url(re.compile(rf"{base}/b/[a-z0-9]+$"))
        slug = page.url.rsplit("/", 1)[1]
        game = page.locator("#botgame")
        expect(game).to_have_attribute("data-seen", "0")
        expect(page.locator("#bot-limit")).to_have_text("10")
        expect(page.locator("#bot-prompt")).to_contain_text("Your turn")
        assert horizontal_overflow(page) == 0
        shot(page, tmp_path, "bot-2-first-turn-390")

        # -- Play it out, tapping only what the page offers.
        moves = 0
        refused = showdowns = 0
        while not page.locator("#bot-over").is_visible():
            assert moves < MOST_MOVES, "the game should be over by now"
            if page.locator("#bot-continue").is_visible():
                showdowns += 1
                if showdowns == 1:
                    expect(page.locator("#bot-last-lines")).to_contain_text("score (you to bot)")
                    shot(page, tmp_path, "bot-5-showdown-390")
                    page.set_viewport_size(DESKTOP)
                    shot(page, tmp_path, "bot-5-showdown-1280")
                    page.set_viewport_size(PHONE)
                page.click("#bot-continue")
                expect(page.locator("#bot-table")).to_be_visible()
                continue
            phase = game.get_attribute("data-phase")
            if phase == "discard" and not refused:
                shot(page, tmp_path, "bot-3-discard-390")
                page.set_viewport_size(DESKTOP)
                shot(page, tmp_path, "bot-3-discard-1280")
                page.set_viewport_size(PHONE)
                _try_a_knock_over_the_limit(page, slug, client)
                shot(page, tmp_path, "bot-4-refused-390")
                refused += 1
                page.locator("#bot-moves .bot-knock-toggle").click()  # cancel the knock
                expect(page.locator("#bot-hand .playing-card.can-knock")).to_have_count(0)
            if phase == "layoff":
                expect(page.locator("#bot-knocked")).to_be_visible()
                shot(page, tmp_path, "bot-6-layoff-390")
            _next_move(page).click()
            moves += 1
            expect(game).to_have_attribute("data-seen", str(moves), timeout=TIMEOUT_MS)
            expect(page.locator("#bot-refusal")).to_be_hidden()

        # -- The end: results in the engine's words, the seed that deals it again.
        assert refused == 1 and showdowns >= 1
        expect(page.locator("#bot-over-title")).to_have_text("game over")
        expect(page.locator("#bot-results")).to_contain_text(re.compile(r"(you win|bot wins)"))
        expect(page.locator("#bot-seed")).to_have_text("2")
        expect(page.locator("#bot-table")).to_be_hidden()
        expect(page.get_by_role("link", name="Play again")).to_have_attribute(
            "href", f"/bot/{rules}"
        )
        assert horizontal_overflow(page) == 0
        shot(page, tmp_path, "bot-7-over-390")
        page.set_viewport_size(DESKTOP)
        shot(page, tmp_path, "bot-7-over-1280")
        final = client.get(f"/api/bots/{slug}").json()
        assert final["over"] and final["seen"] == moves
        points = final["score"]["games"][0]["points"]
        assert max(points) >= 30
        expect(page.locator("#bot-score")).to_contain_text(str(max(points)))

        # A reload shows the same finished game; the API and the page agree.
        page.reload()
        expect(page.locator("#bot-over")).to_be_visible()

    # The one refused knock is the only answer of 400 or more, and the only console error.
    assert visit.bad_answers == [(422, "POST", f"{base}/api/bots/{slug}/actions?lang=en")]
    logged = [p for p in visit.problems if "status of 422" in p]
    assert len(logged) == 1 and [p for p in visit.problems if p not in logged] == []
