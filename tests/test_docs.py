"""The README and `explain` cover every knob the schema declares (Datasette's test_docs idea)."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

from ginrules import schema as ruleset_schema
from ginrules.cli import knob_table_markdown, main

ROOT = Path(__file__).resolve().parent.parent


def _readme_table() -> str:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    match = re.search(r"<!-- knob-table:start -->\n(.*?)\n<!-- knob-table:end -->", text, re.S)
    assert match, "README.md lost its knob-table markers"
    return match.group(1)


def test_readme_knob_table_is_generated_from_the_schema() -> None:
    assert _readme_table() == knob_table_markdown(), (
        "README knob table is stale: paste the output of `ginrules knobs --markdown`"
    )


def test_every_knob_is_a_row_of_the_readme_table() -> None:
    rows = {line.split("|")[1].strip().strip("`") for line in _readme_table().splitlines()[2:]}
    assert rows == {knob.dotted for knob in ruleset_schema.knobs()}


def test_every_knob_is_explained() -> None:
    out = io.StringIO()
    assert main(["explain", "classic", "--json"], out=out) == 0
    explained = {item["knob"] for item in json.loads(out.getvalue())["knobs"]}
    assert explained == {knob.dotted for knob in ruleset_schema.knobs()}
    text = io.StringIO()
    assert main(["explain", "classic"], out=text) == 0
    for knob in ruleset_schema.knobs():
        assert f"  {knob.name} = " in text.getvalue(), knob.dotted


def test_every_knob_has_description_default_and_sources() -> None:
    for knob in ruleset_schema.knobs():
        assert knob.description.strip(), knob.dotted
        spec = ruleset_schema.schema()["properties"][knob.section]["properties"][knob.name]
        assert "default" in spec, knob.dotted
        for published in knob.published:
            # Quoted sources, software, or a basis (tests/test_sources.py checks the quotes).
            assert published.sources or published.software or published.basis, knob.dotted
            for code in (*published.sources, *published.software):
                assert code in ruleset_schema.source_catalog(), (knob.dotted, code)


def test_every_section_forbids_unknown_keys() -> None:
    document = ruleset_schema.schema()
    assert document["additionalProperties"] is False
    for section in ruleset_schema.sections():
        assert document["properties"][section.name]["additionalProperties"] is False


def test_every_yaml_file_points_editors_at_the_schema() -> None:
    files = sorted((ROOT / "rulesets").glob("*.yaml")) + sorted(
        (ROOT / "houserules").glob("*.yaml")
    )
    assert len(files) >= 12
    schema_file = ROOT / "ginrules" / "schema" / "ruleset.schema.json"
    for path in files:
        first = path.read_text(encoding="utf-8").splitlines()[0]
        prefix = "# yaml-language-server: $schema="
        assert first.startswith(prefix), path.name
        assert (path.parent / first.removeprefix(prefix)).resolve() == schema_file.resolve()
