"""Every citation in the schema is checked against the words of its source.

The five source texts live in ``sources/seeds/`` (copied byte for byte from
``../shared/seeds/``; ``sources/SHA256SUMS`` pins them). A citation names a
source only with a short verbatim quote of it (case and whitespace may
differ); a source that is silent is not cited. Values no source text states
are marked as house practice, as the plain game without a variant, or as the
software that plays them, and must not name a source text.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from ginrules import schema as ruleset_schema

ROOT = Path(__file__).resolve().parent.parent
SOURCES = ROOT / "sources"
SHARED_SEEDS = ROOT.parent / "shared" / "seeds"


def _normal(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip().casefold()


def _texts() -> dict[str, str]:
    catalog = ruleset_schema.source_catalog()
    return {
        code: _normal((SOURCES / info.seed).read_text(encoding="utf-8"))
        for code, info in catalog.items()
        if info.seed is not None
    }


TEXTS = _texts()
SOFTWARE = {
    code for code, info in ruleset_schema.source_catalog().items() if info.kind == "software"
}


def _citations() -> Iterator[tuple[str, ruleset_schema.Citation]]:
    for knob in ruleset_schema.knobs():
        for published in knob.published:
            for citation in published.citations:
                yield f"{knob.dotted} = {published.value!r}", citation
    for rule in ruleset_schema.fixed_rules():
        for citation in rule.citations:
            yield rule.rule, citation


def _quotes() -> Iterator[tuple[str, str, str]]:
    """Every (where, source code, quote) in the schema: citations, flags and slips."""
    for where, citation in _citations():
        yield where, citation.code, citation.quote
    for knob in ruleset_schema.knobs():
        for flagged in knob.flagged:
            yield f"{knob.dotted} = {flagged.value!r} (flagged)", flagged.source, flagged.quote
        for slip in knob.slips:
            yield f"{knob.dotted} = {slip.value!r} (slip)", slip.source, slip.quote
    for rule in ruleset_schema.fixed_rules():
        for slip in rule.slips:
            yield f"{rule.rule} (slip)", slip.source, slip.quote


QUOTES = list(_quotes())


def test_the_five_source_texts_are_in_the_catalogue() -> None:
    assert sorted(TEXTS) == ["BC", "CCJ", "HR", "PG", "TU"]
    assert {"OpenSpiel", "RLCard"} == SOFTWARE


def test_the_source_texts_are_the_shared_seeds_byte_for_byte() -> None:
    sums: dict[str, str] = {}
    for line in (SOURCES / "SHA256SUMS").read_text().splitlines():
        digest, name = line.split()
        sums[name] = digest
    for code, info in ruleset_schema.source_catalog().items():
        if info.seed is None:
            continue
        data = (SOURCES / info.seed).read_bytes()
        name = Path(info.seed).name
        assert hashlib.sha256(data).hexdigest() == sums[name], code
        shared = SHARED_SEEDS / name
        if shared.exists():  # beside a checkout of the team's shared folder
            assert shared.read_bytes() == data, f"{code}: sources/ differs from {shared}"


def test_the_catalogue_is_the_code_table_of_rules_md() -> None:
    """RULES.md lists each source's code and file; the schema's catalogue agrees, and
    every text it names is one of the pinned copies in ``sources/``."""
    catalog = {
        code: info.seed for code, info in ruleset_schema.source_catalog().items() if info.seed
    }
    pinned = {
        f"seeds/{line.split()[1]}" for line in (SOURCES / "SHA256SUMS").read_text().splitlines()
    }
    assert set(catalog.values()) == pinned
    rules_md = SHARED_SEEDS.parent / "RULES.md"
    if rules_md.exists():  # beside a checkout of the team's shared folder
        table = re.findall(
            r"^\|\s*([A-Z]+)\s*\|\s*`(seeds/[^`]+\.txt)`", rules_md.read_text(), re.M
        )
        assert dict(table) == catalog


#: A source's words quoted in prose: ``PG: "..."``, ``PG, as a variation: "..."``,
#: ``HR writes "..."``, ``HR's table: "..."``; ``...`` marks words left out.
_PROSE_QUOTE = re.compile(
    r"\b(BC|PG|HR|CCJ|TU)(?:, as a variation|'s [a-z ]{1,25}| writes| says)?:?\s+[\"“]"
    r"([^\"”]{6,}?)[\"”]"
)


def _prose_files() -> list[Path]:
    return [
        ROOT / "README.md",
        *sorted((ROOT / "rulesets").glob("*.yaml")),
        *sorted((ROOT / "houserules").glob("*.yaml")),
        *sorted((ROOT / "templates").glob("*.html")),
        *sorted((ROOT / "ginrules").rglob("*.html")),
        *sorted((ROOT / "ginrules").rglob("*.py")),
    ]


def test_every_quote_written_in_prose_is_in_its_source() -> None:
    """The README, the ruleset files (comments too), templates and code quote the
    sources only in their own words."""
    found = 0
    for path in _prose_files():
        text = re.sub(r"\n\s*#\s?", " ", path.read_text(encoding="utf-8"))  # comment lines
        for match in _PROSE_QUOTE.finditer(text):
            code, quote = match.groups()
            parts = [part for part in re.split(r"\.\.\.|…", quote) if part.strip()]
            for part in parts:
                where = f"{path.relative_to(ROOT)}: {code} {quote!r}"
                assert _normal(part) in TEXTS[code], f"{where} is not in {code}'s words"
            found += 1
    assert found >= 100  # the README's knob table alone quotes over a hundred times


@pytest.mark.parametrize(("where", "code", "quote"), QUOTES, ids=[q[0] for q in QUOTES])
def test_every_quote_is_in_its_source(where: str, code: str, quote: str) -> None:
    assert code in TEXTS, f"{where}: {code} is not a source text, so it cannot be quoted"
    assert len(quote.split()) >= 2, f"{where}: a quote of one word proves nothing"
    assert _normal(quote) in TEXTS[code], f"{where}: {code} does not say {quote!r}"


def test_every_value_has_a_quoted_source_or_says_who_plays_it() -> None:
    for knob in ruleset_schema.knobs():
        for published in knob.published:
            where = f"{knob.dotted} = {published.value!r}"
            assert published.citations or published.software or published.basis, where
            assert set(published.software) <= SOFTWARE, where
            if published.basis is not None:
                assert not published.citations, f"{where}: a house value cites a source"


def test_each_value_is_listed_once_and_is_a_valid_value() -> None:
    for knob in ruleset_schema.knobs():
        values = [ruleset_schema.show_value(p.value) for p in knob.published]
        assert len(values) == len(set(values)), knob.dotted
        for published in knob.published:
            if knob.choices is not None:
                assert published.value in knob.choices, knob.dotted
        for flagged in knob.flagged:
            assert knob.entry_for(flagged.value) is None, f"{knob.dotted}: cited and flagged"


def test_no_source_is_cited_on_both_sides_of_a_knob_for_its_main_rule() -> None:
    """A source's main rules give one value; a variation or an omission may differ."""
    main_rule = ruleset_schema.Reading.RULE
    for knob in ruleset_schema.knobs():
        seen: dict[str, object] = {}
        for published in knob.published:
            for citation in published.citations:
                if citation.reading is not main_rule:
                    continue
                earlier = seen.setdefault(citation.code, published.value)
                if knob.dotted == "format.team_target":
                    continue  # HR: "Usually 125 or 150", one quote for two values
                assert ruleset_schema.same_value(earlier, published.value), (
                    f"{knob.dotted}: {citation.code} cited for {earlier!r} and {published.value!r}"
                )


def test_claims_the_sources_do_not_make_are_gone() -> None:
    """The attributions issue 11 found wrong, one by one."""

    def cited(dotted: str, value: object) -> set[str]:
        return set(ruleset_schema.knob(dotted).sources_for(value))

    assert ruleset_schema.knob("hand_scoring.undercut_bonus").entry_for(20) is None
    assert "PG" in cited("hand_scoring.undercut_bonus", 10)
    box_pg = ruleset_schema.knob("game_scoring.box_bonus").citations_for(25)
    assert [c.reading for c in box_pg if c.code == "PG"] == [ruleset_schema.Reading.VARIATION]
    assert cited("format.type", "hollywood") == {"HR"}
    assert cited("format.type", "partnership") == {"HR"}
    assert not cited("format.type", "three_handed")
    assert "TU" not in cited("play.discard_taken_card", False)
    assert "TU" not in cited("game_scoring.target", 100)
    assert ruleset_schema.knob("game_scoring.target").entry_for(150) is None
    for code in ("GRC", "GRA", "Scarne", "Hoyle"):
        assert code not in ruleset_schema.source_catalog()
    face_down = next(r for r in ruleset_schema.fixed_rules() if "face down" in r.rule)
    assert "BC" not in face_down.sources
    assert set(face_down.sources) == {"PG", "HR", "CCJ", "TU"}
    payment = next(r for r in ruleset_schema.fixed_rules() if "pays" in r.rule)
    assert payment.sources[0] == "PG"
    assert [s.source for s in payment.slips] == ["CCJ"]
    runs = next(r for r in ruleset_schema.fixed_rules() if "run is" in r.rule)
    assert [s.quote for s in runs.slips] == ["Run (mixed suits)"]


def test_values_no_source_text_states_are_house_practice_or_software() -> None:
    house = ruleset_schema.Basis.HOUSE
    for dotted, value in [
        ("format.type", "three_handed"),
        ("format.players", 3),
        ("cards.ace_value", 15),
        ("oklahoma.spades_double_scope", "with_bonuses"),
        ("format.partnership_deck", "per_pairing"),
        ("game_scoring.box_timing", "each_hand"),
        ("hand_scoring.undercut_on_tie", False),
        ("play.knock_limit", 0),
        ("cards.hand_size", 7),
    ]:
        entry = ruleset_schema.knob(dotted).entry_for(value)
        if entry is None:  # an integer knob need not list every house value
            assert dotted == "cards.hand_size"
            continue
        assert entry.basis is house and not entry.citations, dotted
    eleven = ruleset_schema.knob("deal.first_turn").entry_for("eleven_cards")
    assert eleven is not None and eleven.software == ("RLCard",) and not eleven.citations


def test_every_fixed_rule_sits_in_a_sheet_section() -> None:
    sections = {"cards", "deal", "turn", "knocking", "layoffs", "hand_scoring", "game_scoring"}
    for rule in ruleset_schema.fixed_rules():
        assert rule.section in sections, rule.rule
        assert rule.citations, rule.rule
