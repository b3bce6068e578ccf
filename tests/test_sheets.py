"""Rule sheets and score pads: every ruleset renders, every knob is explained, every
house rule is marked, and the printed PDF says what the engine says.

PDFs are read back with poppler-utils (page count, metadata, text, word sizes)
and their QR codes decoded with zxing-cpp, neither of which shares code with
WeasyPrint or qrcode.
"""

from __future__ import annotations

import html
import io
import re
from pathlib import Path

import pytest

from ginrules import schema as ruleset_schema
from ginrules.cards import Card, parse_cards
from ginrules.cli import main
from ginrules.engine.scoring import HandEnd, HandScore
from ginrules.engine.settle import settle
from ginrules.rules import locate
from ginrules.rules.compile import compile_ruleset
from ginrules.rules.load import Ruleset, load_ruleset
from ginrules.sheets.examples import worked_examples
from ginrules.sheets.marks import Marks
from ginrules.sheets.render import (
    CACHE,
    PAPERS,
    SheetOptions,
    scorepad_html,
    scorepad_pdf,
    sheet_html,
    sheet_origins,
    sheet_pdf,
)
from ginrules.sheets.scoring_rules import scoring_rules
from tests.pdf_tools import (
    page_size,
    pdf_info,
    pdf_pages,
    pdf_pngs,
    pdf_text,
    qr_texts,
    word_heights,
)

ALL = [entry.name for entry in locate.entries()]
BASE = "https://rules.example.org"

#: A house rule that changes every knob it validly can (Hollywood format).
EVERYTHING = """\
name: Everything changed
description: A table that changes every knob it can.
author: test
extends: classic
cards: {ace: round_the_corner, ace_value: 15}
deal: {first_dealer: high_card_deals, next_dealer: winner, after_dead_hand: next_dealer}
play: {discard_taken_card: true, knock_limit: 9, knock_on_first_turn: false}
oklahoma: {enabled: true, ace_upcard: knock_with_1, spades_double: true,
           spades_double_scope: with_boxes}
big_gin: {enabled: true, bonus: 50, bonus_adds_to_gin: true}
stock_end: {cards_left: 0, last_discard_playable: true}
showdown: {layoffs: false}
hand_scoring: {gin_bonus: 30, undercut_bonus: 15, undercut_on_tie: false}
game_scoring: {target: 200, game_bonus: 150, box_bonus: 10, box_timing: each_hand,
               shutout: game_bonus, shutout_game_bonus: 300, stake_per_point: 0.5}
format: {type: hollywood, games: 3}
"""


def _overlay(tmp_path: Path, text: str, name: str = "ours") -> Ruleset:
    path = tmp_path / f"{name}.yaml"
    path.write_text(text, encoding="utf-8")
    return load_ruleset(path)


def _visible_text(page: str) -> str:
    """The page's words as a reader sees them (no tags, no CSS, entities decoded)."""
    body = page.split("<body", 1)[1]
    return html.unescape(" ".join(re.sub(r"<[^>]+>", " ", body).split()))


def _options(paper: str = "a4", **kwargs: object) -> SheetOptions:
    return SheetOptions(paper=paper, **kwargs)  # type: ignore[arg-type]


# -- every ruleset, every format -------------------------------------------


@pytest.mark.parametrize("large", [False, True], ids=["standard", "large-print"])
@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("name", ALL)
def test_every_ruleset_renders_as_html(name: str, paper: str, large: bool) -> None:
    ruleset = load_ruleset(name)
    fingerprint = compile_ruleset(ruleset).fingerprint
    for page in (
        sheet_html(ruleset, _options(paper, large_print=large)),
        scorepad_html(ruleset, _options(paper, large_print=large)),
    ):
        assert page.startswith("<!doctype html>") and page.rstrip().endswith("</html>")
        assert f'data-fingerprint="{fingerprint}"' in page
        assert ("size: A4" if paper == "a4" else "size: letter") in page
        assert ('class="large' if large else 'class="standard') in page
        assert html.escape(str(ruleset.document["name"])) in page


@pytest.mark.parametrize("name", ALL)
def test_every_ruleset_renders_as_pdf(name: str, tmp_path: Path) -> None:
    ruleset = load_ruleset(name)
    sheet = tmp_path / "sheet.pdf"
    sheet.write_bytes(sheet_pdf(ruleset, _options(url=f"{BASE}/rules/{name}")))
    pad = tmp_path / "pad.pdf"
    pad.write_bytes(scorepad_pdf(ruleset, _options(url=f"{BASE}/rules/{name}")))
    info = pdf_info(sheet)
    assert info["Title"] == f"{ruleset.document['name']}: rule sheet"
    assert info["Author"] == ruleset.document["author"]
    assert 1 <= pdf_pages(sheet) <= 3
    assert pdf_pages(pad) == 1, "a score pad is one sheet of paper"
    assert pdf_info(pad)["Title"] == f"{ruleset.document['name']}: score pad"


# -- the template explains every knob, marks every departure ---------------


def test_the_sheet_template_asks_for_every_knob() -> None:
    source = (locate.templates_dir() / "sheet.html").read_text(encoding="utf-8")
    asked = set(re.findall(r'(?:value|mark)\("([a-z_]+\.[a-z_]+)"', source))
    knobs = {knob.dotted for knob in ruleset_schema.knobs()}
    assert knobs - asked == set(), "knobs the rule sheet cannot explain"
    assert asked - knobs == set(), "the template names knobs the schema does not have"


@pytest.mark.parametrize("name", ALL)
def test_every_marked_value_has_a_note_quoting_who_plays_it(name: str) -> None:
    ruleset = load_ruleset(name)
    page = sheet_html(ruleset)
    marks = Marks(ruleset)
    departures = marks.departures()
    assert set(re.findall(r'data-house="([^"]+)"', page)) == set(departures)
    assert set(re.findall(r'data-note="([^"]+)"', page)) == set(departures)
    for knob in departures:
        note = re.search(rf'<li id="note-\d+" data-note="{re.escape(knob)}">(.*?)</li>', page, re.S)
        assert note is not None
        text = _visible_text("<body>" + note.group(1))
        if marks.base is not None and marks.base.value(knob) != ruleset.value(knob):
            assert f"({marks.base.name} plays " in text, (knob, text)
        for value in (ruleset.value(knob),):
            for citation in ruleset_schema.knob(knob).citations_for(value):
                assert f"{citation.code}" in text and citation.quote[:20] in text, (knob, text)
    if name in ("classic", "oklahoma", "hollywood"):
        # A published format is not a house rule of classic: nothing of it is marked.
        assert departures == []
        assert "played as the published sources give it" in _visible_text(page)


def test_a_table_that_changes_everything_gets_every_change_marked(tmp_path: Path) -> None:
    ruleset = _overlay(tmp_path, EVERYTHING)
    page = sheet_html(ruleset)
    departures = Marks(ruleset).departures()
    assert len(departures) >= 28
    assert set(re.findall(r'data-house="([^"]+)"', page)) == set(departures)
    text = _visible_text(page)
    assert "Please note: HR" in text  # round the corner: a source calls it wrong, politely
    assert "never more than 9" in text
    assert re.search(r"a bonus of 50 \d+ , added to the gin bonus \d+ \(80 in all\)", text)
    assert "Stake: 0.5" in text


# -- it says only what applies ---------------------------------------------


def test_classic_says_nothing_of_oklahoma_big_gin_or_other_formats() -> None:
    text = _visible_text(sheet_html(load_ruleset("classic")))
    for absent in ("Oklahoma", "upcard sets", "spade", "Big gin:", "Hollywood", "team"):
        assert absent not in text, absent
    assert "Knock when the cards you keep after your discard leave 10 or fewer" in text


def test_oklahoma_explains_the_upcard_limit_and_the_ace() -> None:
    page = sheet_html(load_ruleset("oklahoma"))
    text = _visible_text(page)
    assert "the first upcard sets how much deadwood you may knock with" in text
    assert "An ace as the first upcard means gin only" in text
    row = re.search(r"<th>Limit</th>(.*?)</tr>", page, re.S)
    assert row is not None
    limits = re.findall(r"<td>([^<]+)</td>", row.group(1))
    config = compile_ruleset(load_ruleset("oklahoma"))
    assert limits == ["gin only" if n == 0 else str(n) for n in config.knock_limit_by_upcard]


def test_straight_gin_has_no_knock_or_undercut_example() -> None:
    page = sheet_html(load_ruleset("straight-gin"))
    assert "only gin ends a hand" in _visible_text(page)
    assert re.findall(r'data-example="(\w+)"', page) == ["gin"]


def test_formats_get_their_examples() -> None:
    hollywood = sheet_html(load_ruleset("hollywood"))
    assert 'data-example="hollywood"' in hollywood
    assert "<td>1, 2, 3</td>" in hollywood
    partnership = _visible_text(sheet_html(load_ruleset("partnership")))
    assert "Net: team A scores 12 (26 - 14)" in partnership
    assert "team" in partnership and "125" in partnership


def test_notes_names_and_descriptions_are_escaped(tmp_path: Path) -> None:
    ruleset = _overlay(
        tmp_path,
        "name: '<script>alert(1)</script> & Co'\n"
        "description: '<img src=x onerror=alert(2)>'\n"
        "author: '\"quoted\" <b>'\n"
        "extends: classic\n"
        "notes: ['<a href=\"javascript:alert(3)\">click</a>']\n",
    )
    for page in (sheet_html(ruleset), scorepad_html(ruleset)):
        assert "<script>" not in page and "<img src=x" not in page and "<a href=" not in page
        assert "&lt;script&gt;alert(1)&lt;/script&gt; &amp; Co" in page
    assert "&lt;a href=" in sheet_html(ruleset)


# -- the printed PDF --------------------------------------------------------


@pytest.mark.parametrize("paper", PAPERS)
def test_classic_prints_on_two_pages_at_most_with_a_qr_that_scans(
    paper: str, tmp_path: Path
) -> None:
    url = f"{BASE}/rules/classic"
    pdf = tmp_path / "classic.pdf"
    pdf.write_bytes(sheet_pdf(load_ruleset("classic"), _options(paper, url=url)))
    assert pdf_pages(pdf) <= 2
    width, height = page_size(pdf)
    assert (round(width), round(height)) == ((595, 842) if paper == "a4" else (612, 792))
    pages = pdf_pngs(pdf)
    assert qr_texts(pages[0]) == [url]
    text = pdf_text(pdf)
    assert url in text.replace(" ", ""), "the URL is printed under the QR code"


def test_text_is_never_below_nine_points(tmp_path: Path) -> None:
    for name, make in (("sheet", sheet_pdf), ("pad", scorepad_pdf)):
        pdf = tmp_path / f"{name}.pdf"
        pdf.write_bytes(make(load_ruleset("online-casino"), _options()))
        heights = word_heights(pdf)
        assert heights
        # A DejaVu word box is about 1.16 times the font size: 9 pt is 10.4.
        small = [(round(h, 1), word) for h, word in heights if h < 10.3]
        assert small == [], small[:10]


def test_large_print_is_large(tmp_path: Path) -> None:
    pdf = tmp_path / "large.pdf"
    pdf.write_bytes(sheet_pdf(load_ruleset("classic"), _options(large_print=True)))
    heights = sorted(h for h, _ in word_heights(pdf))
    assert heights[len(heights) // 2] >= 14 * 1.1  # the median word is 14 pt or more


@pytest.mark.parametrize(
    "name", ["classic", "traditional-20-10", "oklahoma-spades-150", "big-gin-31"]
)
def test_the_printed_examples_are_the_engines_numbers(name: str, tmp_path: Path) -> None:
    ruleset = load_ruleset(name)
    config = compile_ruleset(ruleset)
    pdf = tmp_path / "sheet.pdf"
    pdf.write_bytes(sheet_pdf(ruleset, _options()))
    text = pdf_text(pdf)
    examples = worked_examples(config)
    assert examples.showdowns
    for example in examples.showdowns:
        assert f"scores {example.explain}" in text, example.explain
    # The HR seed's undercut example, settled here without the sheet's code:
    # knock at 8, the defender lays off 8H and 9H and keeps 6.
    hr = settle(
        config,
        knocker=parse_cards("5H 6H 7H 9C 9D 9S JC QC KC 8D"),
        defender=parse_cards("8H 9H 2S 3S 4S KD KH KS 4C 2D"),
        # Oklahoma needs the hand's upcard: the sheet's examples turn up the QD (limit 10).
        upcard=Card.parse("QD") if config.oklahoma else None,
    )
    assert f"= {hr.score.points}" in text
    expected = {"classic": 27, "traditional-20-10": 12}
    if name in expected:
        assert hr.score.points == expected[name]
        assert f"(8 - 6) + {config.undercut_bonus} undercut bonus = {expected[name]}" in text


# -- the cache ---------------------------------------------------------------


def test_an_unchanged_sheet_comes_from_the_cache(tmp_path: Path) -> None:
    CACHE.clear()
    ruleset = load_ruleset("classic")
    first = sheet_html(ruleset, _options(url=f"{BASE}/x"))
    again = sheet_html(load_ruleset("classic"), _options(url=f"{BASE}/x"))
    assert again is first and (CACHE.hits, CACHE.misses) == (1, 1)
    sheet_html(ruleset, _options("letter", url=f"{BASE}/x"))
    assert CACHE.misses == 2
    changed = _overlay(
        tmp_path,
        "name: Classic Gin Rummy\nextends: classic\nhand_scoring: {gin_bonus: 20}\n",
        "classic-like",
    )
    other = sheet_html(changed, _options(url=f"{BASE}/x"))
    assert other != first and CACHE.misses == 3


# -- the commands ------------------------------------------------------------


def _run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), out=out, err=err)
    return code, out.getvalue(), err.getvalue()


def test_sheet_command_writes_html_to_stdout() -> None:
    code, out, _ = _run("sheet", "online-casino", "--base-url", BASE)
    assert code == 0
    assert out.startswith("<!doctype html>")
    assert f"{BASE}/rules/online-casino" in out


def test_sheet_and_scorepad_commands_write_pdfs_whose_qr_opens_the_base_url(
    tmp_path: Path,
) -> None:
    for command in ("sheet", "scorepad"):
        pdf = tmp_path / f"{command}.pdf"
        code, _, err = _run(
            command,
            "hollywood",
            "--format",
            "pdf",
            "--paper",
            "letter",
            "-o",
            str(pdf),
            "--base-url",
            "https://gin.example/club/",
        )
        assert code == 0, err
        assert "wrote" in err
        assert qr_texts(pdf_pngs(pdf)[0]) == ["https://gin.example/club/rules/hollywood"]


def test_sheet_command_refuses_bad_input_clearly(tmp_path: Path) -> None:
    code, out, err = _run("sheet", "classic", "--base-url", "javascript:alert(1)")
    assert code == 2 and out == "" and "not a web address" in err
    code, _, err = _run("sheet", "no-such-rules")
    assert code == 1 and "unknown ruleset 'no-such-rules'" in err
    code, _, err = _run("sheet", "classic", "-o", str(tmp_path / "missing" / "x.html"))
    assert code == 1 and "cannot write" in err and "Traceback" not in err

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    terminal, errors = Terminal(), io.StringIO()
    assert main(["sheet", "classic", "--format", "pdf"], out=terminal, err=errors) == 2
    assert "give -o FILE" in errors.getvalue() and terminal.getvalue() == ""


def test_the_appendix_names_the_origin_only_of_rules_the_sheet_prints() -> None:
    """A partnership plays to its team target, so the two-player target has no origin
    to give; rules without boxes say nothing of when boxes are added."""

    def labels(name: str) -> list[str]:
        return [row.label for row in sheet_origins(load_ruleset(name)).rows]

    assert "Target" not in labels("partnership")
    assert "Team target" in labels("partnership")
    assert "Box timing" not in labels("traditional")
    assert "Box timing" in labels("classic")


@pytest.mark.parametrize("name", ["classic", "traditional", "partnership", "straight-gin"])
def test_the_web_page_and_the_sheet_list_the_same_origins(name: str) -> None:
    ruleset = load_ruleset(name)
    page = sheet_html(ruleset, SheetOptions(url="http://127.0.0.1:5000/x"))
    appendix = html.unescape(page.split('id="origins"', 1)[1])
    rows = sheet_origins(ruleset).rows
    assert rows
    for row in rows:
        assert f"<strong>{row.label}" in appendix, row.label
    assert appendix.count("<li>") == len(rows)


def test_a_source_is_named_with_how_its_words_bear_on_the_value() -> None:
    """PG gives 25s only as a variation, and its main text leaves out the game bonus."""
    classic = {row.label: row.codes for row in sheet_origins(load_ruleset("classic")).rows}
    assert classic["Gin bonus"] == "BC, HR, PG (variation)"
    traditional = {row.label: row.codes for row in sheet_origins(load_ruleset("traditional")).rows}
    assert traditional["Game bonus"] == "PG (leaves it out)"
    assert traditional["Gin bonus"] == "PG, CCJ, TU"


@pytest.mark.parametrize("name", ALL)
def test_a_table_quotes_the_sheets_own_sentence_for_how_each_hand_scored(name: str) -> None:
    ruleset = load_ruleset(name)
    config = compile_ruleset(ruleset)
    rules = scoring_rules(ruleset, config.fingerprint)
    unmarked = re.sub(r"<sup\b.*?</sup>", "", sheet_html(ruleset), flags=re.S)  # source codes
    page = html.unescape(re.sub(r"<[^>]+>", "", unmarked))
    flat = " ".join(page.split())
    knocks = config.knock_limit > 0 or config.oklahoma  # straight gin has no knock
    for end, text in (
        (HandEnd.KNOCK, rules.knock),
        (HandEnd.UNDERCUT, rules.undercut),
        (HandEnd.GIN, rules.gin),
    ):
        if end is HandEnd.GIN or knocks:
            assert text is not None and text in flat, (end, text)
        else:
            assert text is None
    if knocks:
        assert f"plus {config.undercut_bonus}." in (rules.undercut or "")
    assert str(config.gin_bonus) in (rules.gin or "")
    assert (rules.big_gin is not None) == (config.big_gin_bonus is not None)
    assert (rules.spades is not None) == (config.spades_double is not None)
    if config.spades_double is not None:
        doubled = HandScore(HandEnd.GIN, True, 10, 25, 2, 70, 2)
        assert rules.deciding(doubled) == [rules.gin, rules.spades]
