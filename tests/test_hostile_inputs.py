"""The last hostile inputs (issue 14), each refused with its exact status and field, on a
real SQLite file and on PostgreSQL, through Flask's in-process test client; and the rows
stored in a broken state before, repaired by migration 0007.

- a lone surrogate, NUL or other control character in any string of a ruleset (YAML
  escape, raw in the text, JSON escape; value or key): 422 at its field;
- duplicate JSON keys: 422 naming the key, on every JSON API;
- right-to-left overrides and zero-width characters in names: 422 at the field;
- a save that does not write its own name, author and description, or takes a shipped
  ruleset's name or the author ``ginrules``: 422 at each field;
- a body that is neither ``application/json`` nor ``application/yaml``: 415 at
  ``Content-Type``;

and on every refusal nothing is saved.
"""

from __future__ import annotations

import io
import json
import logging
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
import yaml
from flask.testing import FlaskClient
from hypothesis import given, settings
from hypothesis import strategies as st

from ginrules.cli import main
from ginrules.rules.compile import compile_ruleset
from ginrules.rules.diagnostics import JsonPath, RulesetError
from ginrules.rules.load import load_ruleset, load_ruleset_text
from ginrules.rules.text import RefusedCharacter
from ginrules.web import create_app
from ginrules.web.bot_store import BotStore
from ginrules.web.responses import MEMO
from ginrules.web.storage import Store, hash_secret
from ginrules.web.table_service import standalone_yaml
from ginrules.web.table_store import PinnedRules, TableStore
from ginrules.web.tables import MIGRATIONS, house_rules, migrations_table, versions
from tests.databases import database_url
from tests.web_helpers import form_fields

__all__ = ["database_url"]  # a fixture

OWN = "name: Our table\nauthor: Ana\ndescription: Gin is worth 30.\nextends: classic\n"
RULESET: dict[str, Any] = {
    "name": "Our table",
    "author": "Ana",
    "description": "Gin is worth 30.",
    "extends": "classic",
    "notes": ["The loser shuffles."],
    "hand_scoring": {"gin_bonus": 30},
}


@pytest.fixture
def site(tmp_path: Path, database_url: str) -> Iterator[tuple[FlaskClient, Store]]:
    MEMO.clear()
    app = create_app(_config(tmp_path, database_url))
    yield app.test_client(), app.extensions["ginrules.store"]
    app.extensions["ginrules.store"].close()


def _config(tmp_path: Path, database_url: str) -> dict[str, object]:
    return {
        "INSTANCE_PATH": tmp_path / "instance",
        "DATABASE_URL": database_url,
        "PUBLIC_BASE_URL": "https://gin.example.org",
        "SECRET_KEY": "hostile-input-tests",
        "UPGRADE_ON_START": True,
        "RATE_LIMIT": "100000 per minute",
        "SESSION_COOKIE_SECURE": False,
    }


def _post(client: FlaskClient, body: str | bytes, kind: str, path: str = "/api/houserules") -> Any:
    return client.post(path, data=body, headers={"Content-Type": kind})


def _fields(answer: Any) -> list[str]:
    assert answer.is_json, answer.data[:300]
    data = answer.get_json()
    assert data["status"] == answer.status_code and data["error"]
    assert all(error["message"] for error in data["errors"])
    return [error["field"] for error in data["errors"]]


def _with(**changes: Any) -> dict[str, Any]:
    return {**json.loads(json.dumps(RULESET)), **changes}


# -- characters no page can show --------------------------------------------------------

SURROGATES = [
    pytest.param(OWN + 'notes: ["lone \\ud800 half"]\n', "application/yaml", "notes.0", id="yaml"),
    pytest.param(
        json.dumps({"yaml": OWN + 'notes: ["lone \\ud800 half"]\n'}),
        "application/json",
        "notes.0",
        id="yaml-escape-in-json",
    ),
    pytest.param(
        json.dumps({"yaml": OWN + "notes: ['raw \udc80 half']\n"}),
        "application/json",
        "notes.0",
        id="raw-in-json-yaml",
    ),
    pytest.param(
        json.dumps({"ruleset": _with(notes=["ok", "x\udc80"])}),
        "application/json",
        "notes.1",
        id="json-ruleset",
    ),
    pytest.param(
        json.dumps({"ruleset": _with(deal={"first_dealer": "low\udc80"})}),
        "application/json",
        "deal.first_dealer",
        id="json-knob-value",
    ),
    pytest.param(
        json.dumps({"ruleset": _with(hand_scoring={"gin\udc80bonus": 30})}),
        "application/json",
        "hand_scoring",
        id="json-key",
    ),
    pytest.param(OWN + 'notes: ["nul \\0 inside"]\n', "application/yaml", "notes.0", id="yaml-nul"),
    pytest.param(
        OWN.replace("Ana", '"A\\x07na"'), "application/yaml", "author", id="yaml-bell-in-author"
    ),
]


@pytest.mark.parametrize(("body", "kind", "field"), SURROGATES)
def test_a_character_no_page_can_show_is_a_422_at_its_field(
    site: tuple[FlaskClient, Store], body: str, kind: str, field: str
) -> None:
    client, store = site
    answer = _post(client, body, kind)
    assert answer.status_code == 422, answer.data[:300]
    assert _fields(answer) == [field]
    assert "U+" in answer.get_json()["errors"][0]["message"]
    assert store.count() == 0


@pytest.mark.parametrize("field", ["name", "author", "description"])
@pytest.mark.parametrize("character", ["\x00", "\ud800", "\x1b"])
def test_nul_or_invalid_unicode_in_the_words_is_a_422_naming_the_field(
    site: tuple[FlaskClient, Store], field: str, character: str
) -> None:
    client, store = site
    body = json.dumps({"ruleset": _with(**{field: f"Our{character}table"})})
    answer = _post(client, body, "application/json")
    assert answer.status_code == 422
    assert _fields(answer) == [field]
    assert store.count() == 0


def test_the_yaml_editor_shows_the_refused_character_at_its_line(
    site: tuple[FlaskClient, Store],
) -> None:
    client, store = site
    fields = form_fields(client.get("/build/yaml").get_data(as_text=True))
    fields["yaml"] = OWN + 'notes:\n  - "bad \\ud800 note"\n'
    answer = client.post("/build/yaml", data=fields)
    assert answer.status_code == 422
    page = answer.get_data(as_text=True)
    assert 'data-line="6"' in page and "notes.0" in page
    assert "U+D800, half of a UTF-16 surrogate pair" in page
    assert store.count() == 0


# -- duplicate JSON keys ----------------------------------------------------------------


def test_duplicate_json_keys_are_a_422_naming_the_key(site: tuple[FlaskClient, Store]) -> None:
    client, store = site
    twice = '{"yaml": "extends: classic", "yaml": "extends: oklahoma"}'
    answer = _post(client, twice, "application/json")
    assert (answer.status_code, _fields(answer)) == (422, ["yaml"])
    nested = (
        '{"ruleset": {"name": "x", "author": "", "description": "", "extends": "classic",'
        ' "hand_scoring": {"gin_bonus": 20, "gin_bonus": 30}, "notes": [{"a": 1, "a": 2}]}}'
    )
    answer = _post(client, nested, "application/json")
    assert answer.status_code == 422
    assert _fields(answer) == ["ruleset.hand_scoring.gin_bonus", "ruleset.notes.0.a"]
    assert store.count() == 0
    table = '{"rules": "classic", "rules": "oklahoma", "players": ["Ana", "Ben"]}'
    answer = _post(client, table, "application/json", "/api/tables")
    assert (answer.status_code, _fields(answer)) == (422, ["rules"])
    bot = '{"rules": "classic", "bot": "strong", "bot": "random"}'
    answer = _post(client, bot, "application/json", "/api/bots")
    assert (answer.status_code, _fields(answer)) == (422, ["bot"])


# -- names that hide characters ---------------------------------------------------------


@pytest.mark.parametrize(
    ("field", "value", "code"),
    [
        ("name", "Classic \u202eymmuR niG", "U+202E RIGHT-TO-LEFT OVERRIDE"),
        ("name", "Our\u200btable", "U+200B ZERO WIDTH SPACE"),
        ("name", "Our\u200dtable", "U+200D ZERO WIDTH JOINER"),
        ("author", "An\u2066a", "U+2066 LEFT-TO-RIGHT ISOLATE"),
        ("author", "Ana\ufeff", "U+FEFF ZERO WIDTH NO-BREAK SPACE"),
        ("description", "Gin \u202bis worth\u202c 30.", "U+202B RIGHT-TO-LEFT EMBEDDING"),
    ],
)
def test_a_name_that_hides_a_character_is_a_422_naming_field_and_character(
    site: tuple[FlaskClient, Store], field: str, value: str, code: str
) -> None:
    client, store = site
    answer = _post(client, json.dumps({"ruleset": _with(**{field: value})}), "application/json")
    assert answer.status_code == 422
    assert _fields(answer) == [field]
    assert code in answer.get_json()["errors"][0]["message"]
    assert store.count() == 0


def test_the_builder_refuses_a_hidden_character_beside_its_field(
    site: tuple[FlaskClient, Store],
) -> None:
    client, store = site
    fields = form_fields(client.get("/build?from=classic").get_data(as_text=True))
    fields["name"] = "Our \u202etable"
    answer = client.post("/build", data=fields)
    assert answer.status_code == 422
    assert "U+202E RIGHT-TO-LEFT OVERRIDE" in answer.get_data(as_text=True)
    assert store.count() == 0


@pytest.mark.parametrize(
    "name",
    ["Gin 👩\u200d💻 night", "Gin \u2764\ufe0f", "بازی\u200cها", "Keycap 1\ufe0f\u20e3"],
)
def test_joiners_and_selectors_in_their_place_are_fine(
    site: tuple[FlaskClient, Store], name: str
) -> None:
    client, _ = site
    answer = _post(client, json.dumps({"ruleset": _with(name=name)}), "application/json")
    assert answer.status_code == 201, answer.data[:300]
    assert answer.get_json()["name"] == name


def test_a_players_name_that_hides_a_character_is_a_422_at_its_seat(
    site: tuple[FlaskClient, Store],
) -> None:
    client, _ = site
    for name in ("Be\u202en", "Ben\u200b", "Be\x00n", "Be\udc80n"):
        body = {"rules": "classic", "players": ["Ana", name], "first_dealers": [0]}
        answer = _post(client, json.dumps(body), "application/json", "/api/tables")
        assert (answer.status_code, _fields(answer)) == (422, ["players.1"]), name
    good = {"rules": "classic", "players": ["Ana", "Zoë"], "first_dealers": [0]}
    assert _post(client, json.dumps(good), "application/json", "/api/tables").status_code == 201


# -- house rules that do not say what they are ------------------------------------------


def test_a_save_without_name_author_or_description_is_a_422_at_each(
    site: tuple[FlaskClient, Store],
) -> None:
    client, store = site
    answer = _post(client, "extends: classic\n", "application/yaml")
    assert answer.status_code == 422
    assert _fields(answer) == ["name", "author", "description"]
    for missing in ("name", "author", "description"):
        ruleset = {k: v for k, v in RULESET.items() if k != missing}
        answer = _post(client, json.dumps({"ruleset": ruleset}), "application/json")
        assert (answer.status_code, _fields(answer)) == (422, [missing]), missing
    blank = _post(client, json.dumps({"ruleset": _with(name="  ")}), "application/json")
    assert (blank.status_code, _fields(blank)) == (422, ["name"])
    assert store.count() == 0
    empty_words = _with(author="", description="")
    assert (
        _post(client, json.dumps({"ruleset": empty_words}), "application/json").status_code == 201
    )


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"name": "Classic Gin Rummy"}, "name"),
        ({"name": "CLASSIC gin-rummy!"}, "name"),
        ({"name": "Oklahoma\u00a0Gin"}, "name"),
        ({"author": "ginrules"}, "author"),
        ({"author": "Gin Rules"}, "author"),
    ],
)
def test_a_shipped_name_or_the_sites_own_author_is_a_422(
    site: tuple[FlaskClient, Store], changes: dict[str, str], field: str
) -> None:
    client, store = site
    answer = _post(client, json.dumps({"ruleset": _with(**changes)}), "application/json")
    assert (answer.status_code, _fields(answer)) == (422, [field])
    assert store.count() == 0


def test_the_yaml_editor_and_an_edit_refuse_rules_that_do_not_say_what_they_are(
    site: tuple[FlaskClient, Store],
) -> None:
    client, store = site
    fields = form_fields(client.get("/build/yaml").get_data(as_text=True))
    fields["yaml"] = "extends: classic\n"
    answer = client.post("/build/yaml", data=fields)
    assert answer.status_code == 422
    page = answer.get_data(as_text=True)
    for missing in ("name is missing", "author is missing", "description is missing"):
        assert missing in page
    assert store.count() == 0
    saved = _post(client, OWN, "application/yaml").get_json()
    edit = form_fields(client.get(saved["edit_url"].split(".org", 1)[1]).get_data(as_text=True))
    answer = client.post(
        f"/h/{saved['slug']}/edit",
        data={**edit, "yaml": "name: Our table\nextends: classic\n"},
    )
    assert answer.status_code == 422
    assert "author is missing" in answer.get_data(as_text=True)
    assert [v.number for v in store.versions(saved["slug"])] == [1]
    secret = {"X-Edit-Secret": saved["edit_secret"], "Content-Type": "application/yaml"}
    answer = client.put(
        f"/api/houserules/{saved['slug']}", data="extends: classic\n", headers=secret
    )
    assert (answer.status_code, _fields(answer)) == (422, ["name", "author", "description"])
    assert [v.number for v in store.versions(saved["slug"])] == [1]


# -- content types ----------------------------------------------------------------------


@pytest.mark.parametrize(
    "kind",
    [
        "text/plain",
        "text/plain; charset=utf-8",
        "text/yaml",
        "application/x-yaml",
        "application/x-www-form-urlencoded",
        "multipart/form-data; boundary=x",
        "",
    ],
)
def test_a_body_that_is_not_json_or_yaml_is_a_415_at_content_type(
    site: tuple[FlaskClient, Store], kind: str
) -> None:
    client, store = site
    answer = _post(client, OWN, kind)
    assert (answer.status_code, _fields(answer)) == (415, ["Content-Type"])
    assert store.count() == 0
    body = json.dumps({"rules": "classic", "players": ["Ana", "Ben"], "first_dealers": [0]})
    for path in ("/api/tables", "/api/bots"):
        answer = _post(client, body, kind, path)
        assert (answer.status_code, _fields(answer)) == (415, ["Content-Type"]), path


def test_json_and_yaml_bodies_are_taken(site: tuple[FlaskClient, Store]) -> None:
    client, store = site
    assert _post(client, OWN, "application/yaml").status_code == 201
    assert _post(client, OWN, "application/yaml; charset=utf-8").status_code == 201
    assert _post(client, json.dumps({"yaml": OWN}), "application/json").status_code == 201
    assert store.count() == 3


# -- the command line -------------------------------------------------------------------


def test_the_command_line_refuses_such_a_file_cleanly(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text(OWN + 'notes: ["\\ud800", "\\0"]\n', encoding="utf-8")
    assert main(["validate", str(path)]) == 1
    out = capsys.readouterr()
    text = out.out + out.err
    assert f"{path}:5:9: error: notes[0] holds U+D800" in text
    assert "notes[1] holds U+0000 (NUL), a control character" in text
    assert "Traceback" not in text
    assert main(["sheet", str(path), "-o", str(tmp_path / "sheet.html")]) == 1
    assert not (tmp_path / "sheet.html").exists()


# -- the loader, for any string of a ruleset --------------------------------------------


def _string_places(value: Any, path: JsonPath = ()) -> Iterator[tuple[JsonPath, bool]]:
    """Every string of a document: (its path, whether it is a key)."""
    if isinstance(value, dict):
        for key, item in value.items():
            yield (*path, key), True
            yield from _string_places(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _string_places(item, (*path, index))
    elif isinstance(value, str):
        yield path, False


PROPERTY_RULESET: dict[str, Any] = {
    **RULESET,
    "notes": ["The loser shuffles.", "No talking during the deal."],
    "deal": {"first_dealer": "low_card_deals"},
}
PLACES = list(_string_places(PROPERTY_RULESET))


def _inserted(document: Any, path: JsonPath, in_key: bool, at: int, bad: str) -> Any:
    """``document`` with ``bad`` inserted at ``at`` into the string at ``path``."""
    if not path:
        assert isinstance(document, str)
        spot = at % (len(document) + 1)
        return document[:spot] + bad + document[spot:]
    head, rest = path[0], path[1:]
    if isinstance(document, list):
        assert isinstance(head, int)
        return [
            _inserted(v, rest, in_key, at, bad) if i == head else v for i, v in enumerate(document)
        ]
    changed = {}
    for key, value in document.items():
        if key == head and in_key and not rest:
            changed[_inserted(key, (), False, at, bad)] = value
        elif key == head:
            changed[key] = _inserted(value, rest, in_key, at, bad)
        else:
            changed[key] = value
    return changed


@settings(max_examples=150, deadline=None)
@given(
    place=st.sampled_from(PLACES),
    at=st.integers(min_value=0, max_value=100),
    bad=st.sampled_from(["\x00"]) | st.integers(0xD800, 0xDFFF).map(chr),
    raw=st.booleans(),
)
def test_a_lone_surrogate_or_nul_anywhere_is_refused_at_its_path(
    place: tuple[JsonPath, bool], at: int, bad: str, raw: bool
) -> None:
    path, in_key = place
    text = yaml.safe_dump(_inserted(PROPERTY_RULESET, path, in_key, at, bad), sort_keys=False)
    escape = "\\0" if bad == "\x00" else f"\\u{ord(bad):04X}"
    if raw and text.count(escape) == 1:
        text = text.replace(escape, bad)  # written out, inside its double quotes
    with pytest.raises(RulesetError) as refused:
        load_ruleset_text(text, "hostile.yaml", shipped_only=True)
    expected = (path[:-1] if in_key else path, in_key, ord(bad))
    found = [
        (d.path, d.departure.in_key, d.departure.code_point)
        for d in refused.value.errors
        if isinstance(d.departure, RefusedCharacter)
    ]
    assert expected in found, (text, found)


# -- migration 0007: rows stored before, repaired ---------------------------------------

BROKEN_VERSION = (
    "# Our kitchen table\n"
    "name: Broken notes\n"
    "author: Ana\n"
    "description: ''\n"
    "extends: classic\n"
    "notes:\n"
    '  - "lone \\ud800 half"  # kept\n'
    '  - "a pair \\ud83d\\ude00 is fine"\n'
    '  - "nul \\0 and bell \\a"\n'
    "  - 'not an escape: \\ud800'\n"
)
HIDDEN_NAME = "name: Evil\u202e name\nauthor: Ana\u200b\ndescription: ''\nextends: classic\n"
CLEAN = "name: Clean\nauthor: Ana\ndescription: ''\nextends: classic\n"


def _upgraded_before_0007(url: str) -> Store:
    """A store whose schema is as migration 0006 left it."""
    store = Store(url)
    with store.engine.begin() as connection:
        migrations_table.create(connection, checkfirst=True)
    for name, step in MIGRATIONS:
        if name >= "0007":
            break
        with store.engine.begin() as connection:
            step(connection)
            connection.execute(
                sa.insert(migrations_table).values(name=name, applied_at=datetime.now(UTC))
            )
    return store


def _insert_version(store: Store, slug: str, number: int, text: str, name: str) -> None:
    """A version as the site stored it before the checks: its text as it came."""
    now = datetime.now(UTC)
    fingerprint = compile_ruleset(load_ruleset("classic")).fingerprint
    with store.engine.begin() as connection:
        rule_id = connection.execute(
            sa.select(house_rules.c.id).where(house_rules.c.slug == slug)
        ).scalar_one_or_none()
        if rule_id is None:
            rule_id = connection.execute(
                sa.insert(house_rules)
                .values(slug=slug, edit_hash=hash_secret("s" * 32), created_at=now, updated_at=now)
                .returning(house_rules.c.id)
            ).scalar_one()
        connection.execute(
            sa.insert(versions).values(
                house_rule_id=rule_id,
                number=number,
                name=name,
                author="Ana",
                description="",
                yaml=text,
                base="classic",
                fingerprint=fingerprint,
                created_at=now,
            )
        )


def _pinned(note: str) -> PinnedRules:
    ruleset = load_ruleset("classic")
    text = standalone_yaml(ruleset).replace("notes:\n", f'notes:\n- "{note}"\n', 1)
    return PinnedRules("classic", "Classic Gin Rummy", text, compile_ruleset(ruleset).fingerprint)


def test_migration_0007_repairs_rows_stored_broken(
    tmp_path: Path, database_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    store = _upgraded_before_0007(database_url)
    _insert_version(store, "brokennn", 1, BROKEN_VERSION, "Broken notes")
    _insert_version(store, "brokennn", 2, BROKEN_VERSION.replace("Ana", "Ben"), "Broken notes")
    _insert_version(store, "hiddennn", 1, HIDDEN_NAME, "Evil\u202e name")
    _insert_version(store, "cleannnn", 1, CLEAN, "Clean")
    table = TableStore(store).create(
        _pinned("lone \\uDC80 half"), ("Ana", "Ben"), (0,), hash_secret("k" * 32)
    )
    game = BotStore(store).create(_pinned("bell \\a"), "strong", 7, hash_secret("p" * 32))
    with caplog.at_level(logging.WARNING, logger="ginrules.web"):
        assert store.upgrade() == [
            "0007_edit_handoffs_and_text_repair",
            "0008_house_rule_table_language",
        ]
    repaired = " ".join(record.getMessage() for record in caplog.records)
    for ref in ("h/brokennn/v1", "h/brokennn/v2", "h/hiddennn/v1", f"t/{table.slug}"):
        assert f"repaired the stored rules of {ref}" in repaired
    assert f"b/{game.slug}" in repaired and "cleannnn" not in repaired

    broken = store.get("brokennn", 1)
    assert broken is not None
    assert broken.yaml == BROKEN_VERSION.replace("\\ud800 half", "\\uFFFD half").replace(
        "\\0 and bell \\a", "\\uFFFD and bell \\uFFFD"
    )  # in place: the comment, the pair and the single-quoted text as they were
    hidden = store.get("hiddennn", 1)
    assert hidden is not None and (hidden.name, hidden.author) == ("Evil name", "Ana")
    clean = store.get("cleannnn", 1)
    assert clean is not None and clean.yaml == CLEAN
    store.close()

    MEMO.clear()
    app = create_app(_config(tmp_path, database_url))
    client = app.test_client()
    try:
        for path in (
            "/h/brokennn/v1",
            "/h/brokennn/v1/sheet",
            "/h/brokennn/v2/sheet.pdf",
            "/build?from=h/brokennn/v1",
            "/h/brokennn/versions",
            "/h/hiddennn/v1/sheet",
            f"/t/{table.slug}",
            f"/b/{game.slug}",
        ):
            assert client.get(path).status_code == 200, path
        notes = client.get("/api/houserules/brokennn/versions/1").get_json()["document"]["notes"]
        assert notes[:3] == ["lone \ufffd half", "a pair 😀 is fine", "nul \ufffd and bell \ufffd"]
        assert notes[3] == "not an escape: \\ud800"
    finally:
        app.extensions["ginrules.store"].close()


def test_the_builder_refuses_a_shipped_name_and_the_reserved_author() -> None:
    from ginrules.web import forms

    def errors(name: str, author: str) -> dict[str, list[str]]:
        fields = {"name": name, "author": author, "description": "", "base": "classic"}
        return forms.read_form(fields, "classic").errors

    assert list(errors("classic gin rummy", "Ann")) == ["name"]
    assert list(errors("Ours", "GinRules")) == ["author"]
    assert errors("Ours", "Ann") == {}


def test_a_chunked_body_over_the_limit_is_a_413_not_a_cut_one(
    site: tuple[FlaskClient, Store],
) -> None:
    client, store = site
    chunked = {"Transfer-Encoding": "chunked", "Content-Type": "application/yaml"}
    over = client.post(
        "/api/houserules", input_stream=io.BytesIO(b"a" * 200 * 1024), headers=chunked
    )
    assert over.status_code == 413 and "128 KiB" in over.get_json()["error"]
    text = b"name: Chunked\nauthor: Ann\ndescription: ''\nextends: classic\n"
    assert (
        client.post("/api/houserules", input_stream=io.BytesIO(text), headers=chunked).status_code
        == 201
    )
    assert store.count() == 1
