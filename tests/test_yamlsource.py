from __future__ import annotations

import pathlib
import time

import pytest
import yaml
from hypothesis import assume, given
from hypothesis import strategies as st

from ginrules.rules.diagnostics import Diagnostic, JsonPath, RulesetError
from ginrules.rules.yamlsource import (
    MAX_DEPTH,
    MAX_FILE_BYTES,
    Mark,
    SourceDocument,
    load_yaml_file,
    load_yaml_text,
)
from ginrules.words.diagnostics import message as diagnostic_message

# The hostile inputs must fail fast; this is a hang guard, not a benchmark.
HANG_GUARD_SECONDS = 2.0

OKLAHOMA = """\
name: Oklahoma
scoring:
  gin_bonus: 25
  undercut:
    bonus: 25
knock:
  - 10
  - limit: upcard
    spades_double: yes
flow: [1, {b: two}]
"""


def first_error(text: str | bytes) -> Diagnostic:
    with pytest.raises(RulesetError) as excinfo:
        load_yaml_text(text, "rules.yaml")
    return excinfo.value.diagnostics[0]


def all_errors(text: str | bytes) -> list[Diagnostic]:
    with pytest.raises(RulesetError) as excinfo:
        load_yaml_text(text, "rules.yaml")
    return excinfo.value.diagnostics


# --- data and marks -------------------------------------------------------


def test_plain_data() -> None:
    doc = load_yaml_text(OKLAHOMA, "<string>")
    assert doc.name == "<string>"
    assert doc.data == {
        "name": "Oklahoma",
        "scoring": {"gin_bonus": 25, "undercut": {"bonus": 25}},
        "knock": [10, {"limit": "upcard", "spades_double": True}],
        "flow": [1, {"b": "two"}],
    }


def test_value_marks_for_nested_values_and_list_items() -> None:
    doc = load_yaml_text(OKLAHOMA, "<string>")
    assert doc.value_marks == {
        (): Mark(1, 1),
        ("name",): Mark(1, 7),
        ("scoring",): Mark(3, 3),
        ("scoring", "gin_bonus"): Mark(3, 14),
        ("scoring", "undercut"): Mark(5, 5),
        ("scoring", "undercut", "bonus"): Mark(5, 12),
        ("knock",): Mark(7, 3),
        ("knock", 0): Mark(7, 5),
        ("knock", 1): Mark(8, 5),
        ("knock", 1, "limit"): Mark(8, 12),
        ("knock", 1, "spades_double"): Mark(9, 20),
        ("flow",): Mark(10, 7),
        ("flow", 0): Mark(10, 8),
        ("flow", 1): Mark(10, 11),
        ("flow", 1, "b"): Mark(10, 15),
    }


def test_key_marks_for_nested_keys() -> None:
    doc = load_yaml_text(OKLAHOMA, "<string>")
    assert doc.key_marks == {
        ("name",): Mark(1, 1),
        ("scoring",): Mark(2, 1),
        ("scoring", "gin_bonus"): Mark(3, 3),
        ("scoring", "undercut"): Mark(4, 3),
        ("scoring", "undercut", "bonus"): Mark(5, 5),
        ("knock",): Mark(6, 1),
        ("knock", 1, "limit"): Mark(8, 5),
        ("knock", 1, "spades_double"): Mark(9, 5),
        ("flow",): Mark(10, 1),
        ("flow", 1, "b"): Mark(10, 12),
    }


def test_mark_for_exact_then_nearest_ancestor() -> None:
    doc = load_yaml_text(OKLAHOMA, "<string>")
    assert doc.mark_for(("scoring", "gin_bonus")) == Mark(3, 14)
    assert doc.mark_for(("scoring", "gin_bonus"), key=True) == Mark(3, 3)
    assert doc.mark_for(["knock", 1, "limit"]) == Mark(8, 12)
    # Missing paths fall back to the nearest ancestor that is written down.
    assert doc.mark_for(("scoring", "undercut", "missing")) == Mark(5, 5)
    assert doc.mark_for(("scoring", "undercut", "missing"), key=True) == Mark(4, 3)
    assert doc.mark_for(("knock", 5)) == Mark(7, 3)
    assert doc.mark_for(("nowhere", "at", "all")) == Mark(1, 1)
    assert doc.mark_for((), key=True) == Mark(1, 1)
    empty = SourceDocument(name="x", data={}, key_marks={}, value_marks={})
    assert empty.mark_for(("a",)) is None


def test_empty_value_is_marked_on_its_own_line() -> None:
    doc = load_yaml_text("a:\nb: 1\n", "<string>")
    assert doc.data == {"a": None, "b": 1}
    assert doc.value_marks[("a",)].line == 1


def test_bom_and_crlf_do_not_shift_marks() -> None:
    doc = load_yaml_text(b"\xef\xbb\xbfa: 1\r\nb:\r\n  c: x\r\n", "<bytes>")
    assert doc.data == {"a": 1, "b": {"c": "x"}}
    assert doc.value_marks[("a",)] == Mark(1, 4)
    assert doc.key_marks[("b", "c")] == Mark(3, 3)
    assert load_yaml_text("\ufeffa: 1\n", "<string>").value_marks[("a",)] == Mark(1, 4)


def test_scalars_resolve_as_yaml_1_1_except_dates() -> None:
    text = (
        "yes_: yes\nno_: off\nnull_: ~\nint_: 0x1F\nfloat_: 1.5e+3\n"
        "date: 2024-01-31\nquoted: '25'\n'on': true\n"
    )
    assert load_yaml_text(text, "<string>").data == {
        "yes_": True,
        "no_": False,
        "null_": None,
        "int_": 31,
        "float_": 1500.0,
        "date": "2024-01-31",
        "quoted": "25",
        "on": True,
    }


@pytest.mark.parametrize("text", [".inf", "-.inf", ".nan", ".NaN", "!!float .inf"])
def test_non_finite_numbers_are_refused(text: str) -> None:
    error = first_error(f"stake: {text}\n")
    assert (error.line, error.column, error.path) == (1, 8, ("stake",))
    assert "is not a finite number" in error.message


def test_nesting_up_to_max_depth_is_fine() -> None:
    deepest = "a: " + "[" * (MAX_DEPTH - 1) + "]" * (MAX_DEPTH - 1) + "\n"
    assert load_yaml_text(deepest, "<string>").data == {"a": _nested_lists(MAX_DEPTH - 2)}
    too_deep = "a: " + "[" * MAX_DEPTH + "]" * MAX_DEPTH + "\n"
    error = first_error(too_deep)
    assert (error.line, error.column) == (1, 4 + MAX_DEPTH - 1)
    assert "nesting is too deep" in error.message


def _nested_lists(depth: int) -> object:
    value: object = []
    for _ in range(depth):
        value = [value]
    return value


# --- hostile and broken input ---------------------------------------------


@pytest.mark.parametrize(
    ("text", "line", "column", "phrase"),
    [
        ("", 1, 1, "file is empty"),
        ("# only a comment\n", 1, 1, "file is empty"),
        ("---\n", 1, 1, "file is empty"),
        ("- a\n- b\n", 1, 1, "must be a mapping"),
        ("just text\n", 1, 1, "must be a mapping"),
        ("a: 1\n---\nb: 2\n", 2, 1, "second YAML document"),
        ("a:\n\tb: 1\n", 2, 1, "tabs are not allowed for indentation; use spaces"),
        ("a:\n  b:\n  \tc: 1\n", 3, 3, "tabs are not allowed for indentation; use spaces"),
        ("a:\tb\n", 1, 3, "tabs are not allowed here"),
        ("a: &x 1\nb: *x\n", 2, 4, "anchors and aliases are not supported in ruleset files"),
        ("a: &x 1\n", 1, 4, "anchors and aliases are not supported in ruleset files"),
        ("a: *nowhere\n", 1, 4, "anchors and aliases are not supported in ruleset files"),
        ("a: 1\nb: 2\na: 3\n", 3, 1, "duplicate key 'a' (first defined on line 1)"),
        ("on: 1\n", 1, 1, "key 'on' is read by YAML as the boolean true"),
        ("rules:\n  3: x\n", 2, 3, "key '3' is read by YAML as the number 3"),
        ("? [a]\n: 1\n", 1, 3, "keys must be strings, not a list"),
        ("a: !!python/object:os.system x\n", 1, 4, "tag !!python/object:os.system"),
        ("a: !!python/name:os.system\n", 1, 4, "is not supported in ruleset files"),
        ("a: !custom 1\n", 1, 4, "tag !custom is not supported"),
        ("a: !!set {x}\n", 1, 4, "tag !!set is not supported"),
        ("a: !!int abc\n", 1, 4, "'abc' is not a valid !!int"),
        ("a: " + "1" * 200 + "\n", 1, 4, "number is too long"),
        ("a: b: c\n", 1, 5, "could not parse YAML: mapping values are not allowed here"),
        ("a:\n  - 1\n b: 2\n", 3, 2, "check the indentation"),
        ("a: [1, 2\n", 2, 1, "could not parse YAML"),
        ("a: 1\nb: \x00\n", 2, 4, "b holds U+0000 (NUL), a control character"),
        # Levels 1 and 2 are mappings, so the 31st bracket is level 33.
        ("a:\n  b: " + "[" * 40, 2, 6 + MAX_DEPTH - 2, "nesting is too deep"),
    ],
)
def test_hostile_input_is_one_clear_error(text: str, line: int, column: int, phrase: str) -> None:
    error = first_error(text)
    assert error.severity == "error"
    assert error.file == "rules.yaml"
    assert (error.line, error.column) == (line, column)
    assert phrase in diagnostic_message(error)


def test_invalid_utf8_names_the_first_bad_byte() -> None:
    error = first_error("a: 1\nb: café\n".encode().replace(b"\xc3\xa9", b"\xe9"))
    assert (error.line, error.column) == (2, 7)
    assert "not valid UTF-8" in error.message
    assert "0xE9" in error.message


def test_utf16_is_not_utf8() -> None:
    error = first_error("a: 1\n".encode("utf-16"))
    assert (error.line, error.column) == (1, 1)
    assert "not valid UTF-8" in error.message


@pytest.mark.parametrize("text", ["a: " + "x" * MAX_FILE_BYTES, b"a: " + b"x" * MAX_FILE_BYTES])
def test_too_large_text(text: str | bytes) -> None:
    assert "file is too large" in first_error(text).message


def test_every_duplicate_and_bad_key_is_reported() -> None:
    errors = all_errors("a: 1\nb: 2\na: 3\nyes: 4\nb: 5\nc: !!binary aGk=\n")
    assert [(e.line, e.message.split(" (")[0]) for e in errors] == [
        (3, "duplicate key 'a'"),
        (
            4,
            "key 'yes' is read by YAML as the boolean true, but keys must be strings; "
            'put it in quotes: "yes"',
        ),
        (5, "duplicate key 'b'"),
        (
            6,
            "tag !!binary is not supported in ruleset files; use plain strings, numbers, "
            "true/false, null, lists and mappings",
        ),
    ]
    assert errors[0].path == ("a",)


def test_many_errors_stop_at_a_limit() -> None:
    errors = all_errors("a: 1\n" * 500)
    assert len(errors) == 101
    assert errors[-1].message == "stopped after 100 errors"


def test_billion_laughs_fails_fast_without_expanding() -> None:
    lines = ['lol0: &lol0 "lol"']
    for level in range(1, 10):
        aliases = ", ".join([f"*lol{level - 1}"] * 10)
        lines.append(f"lol{level}: &lol{level} [{aliases}]")
    start = time.perf_counter()
    errors = all_errors("\n".join(lines) + "\n")
    assert time.perf_counter() - start < HANG_GUARD_SECONDS
    assert (errors[0].line, errors[0].column) == (2, 14)
    assert "anchors and aliases are not supported in ruleset files" in errors[0].message
    # One error per anchor, not one per alias.
    assert len(errors) == 10


@pytest.mark.parametrize(
    "text",
    [
        # As deep as a file under the size cap can go.
        "root: " + "[" * 60_000,
        "root: " + "{a: " * 15_000,
        "root:\n" + "- " * 30_000,
        "".join(" " * depth + "k:\n" for depth in range(350)),
    ],
    ids=["flow-list", "flow-mapping", "block-list", "block-mapping"],
)
def test_very_deep_nesting_fails_fast(text: str) -> None:
    start = time.perf_counter()
    error = first_error(text)
    assert time.perf_counter() - start < HANG_GUARD_SECONDS
    assert "nesting is too deep" in error.message


def test_sixty_thousand_brackets_fail_fast() -> None:
    start = time.perf_counter()
    error = first_error("[" * 60_000)
    assert time.perf_counter() - start < HANG_GUARD_SECONDS
    # A top-level list is refused before anything inside it is read.
    assert "must be a mapping" in error.message
    error = first_error("a: " + "[" * 60_000)
    assert time.perf_counter() - start < HANG_GUARD_SECONDS
    assert (error.line, error.column) == (1, 4 + MAX_DEPTH - 1)
    assert "nesting is too deep" in error.message


# --- files ----------------------------------------------------------------


def test_load_file_names_it_as_given(tmp_path: pathlib.Path) -> None:
    path = tmp_path / "oklahoma.yaml"
    path.write_text(OKLAHOMA, encoding="utf-8")
    assert load_yaml_file(path).name == str(path)
    doc = load_yaml_file(path, display_name="rulesets/oklahoma.yaml")
    assert doc.name == "rulesets/oklahoma.yaml"
    assert doc.data["name"] == "Oklahoma"


def test_oversized_file_is_refused_by_its_size(tmp_path: pathlib.Path) -> None:
    path = tmp_path / "huge.yaml"
    with path.open("wb") as stream:  # sparse: its size is all that is checked
        stream.truncate(MAX_FILE_BYTES + 1)
    with pytest.raises(RulesetError) as excinfo:
        load_yaml_file(path, display_name="huge.yaml")
    error = excinfo.value.diagnostics[0]
    assert error.file == "huge.yaml"
    assert "file is too large" in error.message


@pytest.mark.parametrize("make", ["missing", "directory"])
def test_unreadable_file(tmp_path: pathlib.Path, make: str) -> None:
    path = tmp_path / "rules.yaml"
    if make == "directory":
        path.mkdir()
    with pytest.raises(RulesetError) as excinfo:
        load_yaml_file(path)
    assert "cannot read file" in excinfo.value.diagnostics[0].message


# --- properties -----------------------------------------------------------

#: Text a ruleset may hold (ginrules.rules.text): no surrogate, no control character
#: but tab and line breaks, not U+FFFE/U+FFFF.
showable = st.characters(
    blacklist_categories=("Cs", "Cc"), blacklist_characters="\ufffe\uffff"
) | st.sampled_from("\t\n\r")
plain_scalars = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**63), max_value=2**63)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(showable, max_size=20)
)
plain_values = st.recursive(
    plain_scalars,
    lambda children: (
        st.lists(children, max_size=4)
        | st.dictionaries(st.text(showable, max_size=10), children, max_size=4)
    ),
    max_leaves=20,
)


def paths_in(value: object, path: JsonPath = ()) -> list[JsonPath]:
    found = [path]
    if isinstance(value, dict):
        for key, item in value.items():
            found += paths_in(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found += paths_in(item, (*path, index))
    return found


@given(st.dictionaries(st.text(showable, max_size=10), plain_values, max_size=5))
def test_safe_dump_round_trips_with_every_path_marked(data: dict[str, object]) -> None:
    assume(max(len(path) for path in paths_in(data)) < MAX_DEPTH)
    for style in (False, None, True):
        doc = load_yaml_text(yaml.safe_dump(data, default_flow_style=style), "<string>")
        assert doc.data == data
        for path in paths_in(data):
            assert path in doc.value_marks
            if path and isinstance(path[-1], str):
                assert path in doc.key_marks


def assert_only_ruleset_errors(text: str | bytes) -> None:
    try:
        load_yaml_text(text, "fuzz.yaml")
    except RulesetError as error:
        assert error.diagnostics
        for diagnostic in error.diagnostics:
            assert diagnostic.file == "fuzz.yaml"
            assert diagnostic.line is None or diagnostic.line >= 1


@given(st.binary(max_size=200))
def test_garbage_bytes_raise_only_ruleset_error(raw: bytes) -> None:
    assert_only_ruleset_errors(raw)


@given(st.text(alphabet="ab1.:-?,[]{}&*!|>'\"#%@`~ \t\n\r\\", max_size=80))
def test_yaml_shaped_garbage_raises_only_ruleset_error(text: str) -> None:
    assert_only_ruleset_errors(text)


@given(st.text(max_size=80))
def test_any_text_raises_only_ruleset_error(text: str) -> None:
    assert_only_ruleset_errors(text)
