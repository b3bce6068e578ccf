"""The web site and JSON API over real HTTP on 127.0.0.1, on a real SQLite file
(and the main flows on a real PostgreSQL server too).

QR codes are decoded by zxing-cpp; nothing is mocked.
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
import zxingcpp
from PIL import Image

from ginrules.cli import main
from ginrules.web import create_app
from ginrules.web.responses import MEMO
from ginrules.web.storage import Store
from tests.databases import database_url
from tests.web_helpers import Client, form_fields, live_server

__all__ = ["database_url"]  # a fixture

PUBLIC = "https://gin.example.org"


def _app_config(tmp_path: Path, database: str, **extra: object) -> dict[str, object]:
    return {
        "INSTANCE_PATH": tmp_path / "instance",
        "DATABASE_URL": database,
        "PUBLIC_BASE_URL": PUBLIC,
        "SECRET_KEY": "test-secret-key",
        "UPGRADE_ON_START": True,
        "RATE_LIMIT": "1000 per minute",
        "SESSION_COOKIE_SECURE": False,  # the test server speaks plain HTTP
        **extra,
    }


@pytest.fixture
def site(tmp_path: Path) -> Iterator[tuple[Client, Store]]:
    MEMO.clear()
    app = create_app(_app_config(tmp_path, f"sqlite:///{tmp_path / 'site.db'}"))
    with live_server(app) as base:
        yield Client(base), app.extensions["ginrules.store"]
    app.extensions["ginrules.store"].close()


def _qr(png: bytes) -> list[str]:
    with Image.open(io.BytesIO(png)) as image:
        found = zxingcpp.read_barcodes(image.convert("L"))
    return [code.text for code in found]


def _save_form(client: Client, changes: dict[str, str], start: str = "classic") -> str:
    fields = client.form_fields(f"/build?from={start}")
    fields.update(changes)
    answer = client.post_form("/build", fields)
    assert answer.status == 303, answer.text[:2000]
    return answer.location


# -- pages -------------------------------------------------------------------------


def test_home_lists_the_four_base_rulesets_and_the_examples(site: tuple[Client, Store]) -> None:
    client, _ = site
    page = client.get("/")
    assert page.status == 200
    for title in ("Classic Gin Rummy", "Oklahoma Gin", "Hollywood Gin", "Partnership Gin"):
        assert title in page.text
    assert "Online casino scoring" in page.text
    assert page.text.count("Start from") >= 12
    assert "Nothing saved yet" in page.text


def test_a_ruleset_page_shows_differences_warnings_and_links(site: tuple[Client, Store]) -> None:
    client, _ = site
    page = client.get("/rules/online-casino").text
    assert 'data-knob="hand_scoring.undercut_bonus"' in page
    assert f"{PUBLIC}/rules/online-casino/sheet.pdf" in page
    assert "Make your own from this" in page
    warned = client.get("/rules/ace-high").text
    assert "wrong house rules" in warned
    for suffix, kind in (
        ("/sheet", "text/html"),
        ("/sheet.pdf", "application/pdf"),
        ("/scorepad", "text/html"),
        ("/qr.png", "image/png"),
        ("/qr.svg", "image/svg+xml"),
        (".yaml", "application/yaml"),
        (".json", "application/json"),
    ):
        answer = client.get(f"/rules/online-casino{suffix}")
        assert answer.status == 200, suffix
        assert answer.headers.get_content_type() == kind, suffix
    assert client.get("/rules/no-such").status == 404


def test_security_headers_are_on_every_page(site: tuple[Client, Store]) -> None:
    client, _ = site
    for path in ("/", "/rules/classic", "/build", "/api/rulesets", "/nowhere"):
        headers = client.get(path).headers
        assert "default-src 'self'" in headers["Content-Security-Policy"], path
        assert "script-src 'self'" in headers["Content-Security-Policy"]
        assert headers["X-Content-Type-Options"] == "nosniff"
        assert headers["Referrer-Policy"] == "same-origin"


# -- building, saving, sharing ------------------------------------------------------


def test_build_save_share_with_a_qr_that_scans_to_the_public_link(
    site: tuple[Client, Store],
) -> None:
    client, store = site
    location = _save_form(
        client,
        {
            "name": "The Thursday table",
            "author": "Ana",
            "hand_scoring.undercut_bonus": "10",
            "notes": "Loser shuffles.\nNo talking during the deal.",
        },
    )
    match = re.fullmatch(r"/h/([2-9a-z]+)/v1/share", location)
    assert match, location
    slug = match[1]
    share = client.get(location, headers={"Host": "evil.example"})
    assert share.status == 200
    assert f"{PUBLIC}/h/{slug}" in share.text
    assert "evil.example" not in share.text
    edit_link = re.search(r'id="edit-link"[^>]*value="([^"]+)"', share.text)
    assert edit_link and edit_link[1].startswith(f"{PUBLIC}/h/{slug}/edit?key=")
    again = client.get(location)
    assert "edit-link" not in again.text, "the edit link is shown once"
    png = client.get(f"/h/{slug}/qr.png", headers={"Host": "evil.example"})
    assert _qr(png.body) == [f"{PUBLIC}/h/{slug}"]
    assert store.count() == 1
    version = store.get(slug)
    assert version is not None and version.name == "The Thursday table"
    assert "undercut_bonus: 10" in version.yaml and "gin_bonus" not in version.yaml
    # The base's description is not the table's: nothing inherited through extends.
    assert version.description == ""
    assert "official two-player rules (BC)" not in client.get(f"/h/{slug}").text
    page = client.get(f"/h/{slug}").text
    assert "Loser shuffles." in page or "Loser shuffles." in client.get(f"/h/{slug}/v1/sheet").text


def test_an_invalid_form_comes_back_with_every_field_and_errors_beside_them(
    site: tuple[Client, Store],
) -> None:
    client, store = site
    fields = client.form_fields("/build?from=classic")
    fields.update(
        {
            "name": "Our <b>table</b>",
            "hand_scoring.gin_bonus": "lots",
            "game_scoring.target": "5",
            "hand_scoring.undercut_bonus": "15",
        }
    )
    answer = client.post_form("/build", fields)
    assert answer.status == 422
    page = answer.text
    again = form_fields(page)
    assert again["name"] == "Our <b>table</b>"
    assert again["hand_scoring.gin_bonus"] == "lots"
    assert again["hand_scoring.undercut_bonus"] == "15"
    gin = page[page.index('id="field-hand_scoring-gin_bonus"') :]
    assert "is not a whole number" in gin[: gin.index("</div>")]
    first_target = page[page.index('id="field-game_scoring-target"') :]
    assert "below the least allowed" in first_target[: first_target.index("</div>")], (
        "every problem is reported in the first round"
    )
    assert "Our <b>table</b>" not in page and "Our &lt;b&gt;table&lt;/b&gt;" in page
    assert store.count() == 0
    fields["hand_scoring.gin_bonus"] = "25"
    answer = client.post_form("/build", form_fields(page) | {"hand_scoring.gin_bonus": "25"})
    assert answer.status == 422  # the target is still under the minimum
    target = answer.text[answer.text.index('id="field-game_scoring-target"') :]
    assert "field-error" in target[: target.index("</div>")]
    fixed = form_fields(answer.text) | {"game_scoring.target": "150"}
    assert client.post_form("/build", fixed).status == 303
    assert store.count() == 1


def test_a_form_without_its_csrf_token_saves_nothing(site: tuple[Client, Store]) -> None:
    client, store = site
    fields = client.form_fields("/build")
    del fields["csrf_token"]
    answer = client.post_form("/build", fields)
    assert answer.status == 400 and "expired" in answer.text
    assert store.count() == 0


def test_the_yaml_editor_shows_errors_at_their_line_and_keeps_the_text(
    site: tuple[Client, Store],
) -> None:
    client, store = site
    token = client.form_fields("/build/yaml")["csrf_token"]
    text = "name: Ours\nextends: classic\nhand_scoring:\n  gin_bonsu: 20\n"
    answer = client.post_form("/build/yaml", {"csrf_token": token, "yaml": text})
    assert answer.status == 422
    assert 'data-line="4"' in answer.text and "did you mean &#39;gin_bonus&#39;" in answer.text
    assert '<li id="line-4" class="bad">' in answer.text
    assert form_fields(answer.text)["yaml"] == text
    for hostile in (
        "name: x\nextends: /etc/passwd\n",
        "a: &a [x, x]\nb: &b [*a, *a]\nc: &c [*b, *b]\nd: [*c, *c, *c]\nname: bomb\n",
        "name: !!python/object/apply:os.system ['true']\nextends: classic\n",
        "\x00name: nul\n",
    ):
        answer = client.post_form("/build/yaml", {"csrf_token": token, "yaml": hostile})
        assert answer.status == 422, hostile
        assert "root:" not in answer.text and "Traceback" not in answer.text
    assert store.count() == 0
    good = (
        "name: Ours\nauthor: Ana\ndescription: ''\nextends: online-casino\n"
        "hand_scoring:\n  gin_bonus: 30\n"
    )
    saved = client.post_form("/build/yaml", {"csrf_token": token, "yaml": good})
    assert saved.status == 303
    version = store.recent(1, listed_only=False)[0]
    assert version.yaml == good and version.base == "online-casino"


def test_edit_makes_a_new_version_and_every_version_keeps_its_link(
    site: tuple[Client, Store],
) -> None:
    client, store = site
    location = _save_form(client, {"name": "Versions", "hand_scoring.gin_bonus": "20"})
    share = client.get(location).text
    edit_url = re.search(r'id="edit-link"[^>]*value="([^"]+)"', share)
    assert edit_url
    slug = location.split("/")[2]
    key = edit_url[1].split("key=")[1]
    assert client.get(f"/h/{slug}/edit?key=wrong").status == 403
    assert client.get(f"/h/{slug}/edit").status == 403
    fields = client.form_fields(f"/h/{slug}/edit?key={key}")
    assert fields["hand_scoring.gin_bonus"] == "20"
    fields["hand_scoring.gin_bonus"] = "30"
    bad = client.post_form(f"/h/{slug}/edit", fields | {"key": "wrong"})
    assert bad.status == 403
    answer = client.post_form(f"/h/{slug}/edit", fields)
    assert answer.status == 303 and answer.location == f"/h/{slug}/v2"
    latest = client.get(f"/h/{slug}").text
    assert "version 2 of 2" in latest
    assert "Changed since version 1" in latest
    old = client.get(f"/h/{slug}/v1").text
    assert "This is an older version" in old
    assert "version 1 of 2" in old
    versions = client.get(f"/h/{slug}/versions").text
    assert "Version 2" in versions and "20 → 30" in versions
    assert [v.number for v in store.versions(slug)] == [1, 2]


def test_fork_starts_the_builder_from_a_saved_version(site: tuple[Client, Store]) -> None:
    client, store = site
    location = _save_form(client, {"name": "Parent", "hand_scoring.gin_bonus": "22"})
    slug = location.split("/")[2]
    fork = client.get(f"/h/{slug}/fork")
    assert fork.status == 303 and fork.location.endswith(f"from=h/{slug}/v1")
    fields = client.form_fields(fork.location)
    assert fields["hand_scoring.gin_bonus"] == "22"
    assert fields["forked_from"] == f"h/{slug}/v1"
    fields["name"] = "Child"
    child = client.post_form("/build", fields)
    assert child.status == 303
    child_slug = child.location.split("/")[2]
    saved = store.get(child_slug)
    assert saved is not None and saved.forked_from == (slug, 1)
    assert "Forked from" in client.get(f"/h/{child_slug}").text


# -- caching ---------------------------------------------------------------------------


def test_versioned_resources_are_immutable_with_strong_etags(site: tuple[Client, Store]) -> None:
    client, _ = site
    location = _save_form(client, {"name": "Cache me"})
    slug = location.split("/")[2]
    for path in (f"/h/{slug}/v1/sheet", f"/h/{slug}/v1/qr.png", f"/h/{slug}/v1.yaml"):
        first = client.get(path)
        etag = first.headers["ETag"]
        assert etag and not etag.startswith("W/")
        assert "immutable" in first.headers["Cache-Control"]
        again = client.get(path)
        assert again.body == first.body and again.headers["ETag"] == etag
        assert client.get(path, headers={"If-None-Match": etag}).status == 304
    assert client.get(f"/h/{slug}").headers["Cache-Control"] == "no-cache"


# -- the JSON API ---------------------------------------------------------------------------

GOOD = (
    "name: API rules\nauthor: bot\ndescription: Gin is worth 20.\nextends: classic\n"
    "hand_scoring:\n  gin_bonus: 20\n"
)


def test_api_create_read_update_with_urls(site: tuple[Client, Store]) -> None:
    client, store = site
    created = client.send_json("POST", "/api/houserules", {"yaml": GOOD})
    assert created.status == 201, created.text
    data = created.json()
    slug = data["slug"]
    for key in ("share_url", "qr_png_url", "qr_svg_url", "sheet_url", "pdf_url", "edit_url"):
        assert data[key].startswith(PUBLIC), key
    assert data["share_url"] == f"{PUBLIC}/h/{slug}"
    assert _qr(client.get(f"/h/{slug}/qr.png").body) == [data["share_url"]]
    secret = data["edit_secret"]
    assert (
        client.get(f"/api/houserules/{slug}").json()["document"]["hand_scoring"]["gin_bonus"] == 20
    )
    as_object = client.send_json(
        "POST",
        "/api/houserules",
        {"ruleset": {"name": "Obj", "author": "", "description": "", "extends": "oklahoma"}},
    )
    assert as_object.status == 201 and as_object.json()["base"] == "oklahoma"
    missing = client.send_json("PUT", f"/api/houserules/{slug}", {"yaml": GOOD})
    assert missing.status == 401
    wrong = client.send_json(
        "PUT", f"/api/houserules/{slug}", {"yaml": GOOD}, {"X-Edit-Secret": "nope"}
    )
    assert wrong.status == 403
    updated = client.send_json(
        "PUT",
        f"/api/houserules/{slug}",
        {"yaml": GOOD.replace("20", "30")},
        {"X-Edit-Secret": secret},
    )
    assert updated.status == 201 and updated.json()["version"] == 2
    assert "edit_secret" not in updated.json()
    versions = client.get(f"/api/houserules/{slug}/versions").json()["versions"]
    assert [v["version"] for v in versions] == [2, 1]  # newest first
    config = client.get(f"/api/houserules/{slug}/versions/2/config").json()
    assert config["config"]["gin_bonus"] == 30
    changes = client.get(f"/api/diff?a=classic&b=h/{slug}/v2").json()["changes"]
    assert [c["knob"] for c in changes] == ["hand_scoring.gin_bonus"]
    assert store.count() == 2


def test_api_bad_input_gets_4xx_with_fields_and_saves_nothing(
    site: tuple[Client, Store],
) -> None:
    client, store = site
    created = client.send_json("POST", "/api/houserules", {"yaml": GOOD}).json()
    slug, secret = created["slug"], created["edit_secret"]
    before = [v.yaml for v in store.versions(slug)]
    cases = [
        (
            client.request(
                "POST", "/api/houserules", b"\xff\xfename: x", {"Content-Type": "application/yaml"}
            ),
            400,
            "UTF-8",
        ),
        (
            client.request(
                "POST", "/api/houserules", b"{not json", {"Content-Type": "application/json"}
            ),
            400,
            "JSON",
        ),
        (client.send_json("POST", "/api/houserules", ["a list"]), 400, "object"),
        (client.send_json("POST", "/api/houserules", {"yaml": GOOD, "extra": 1}), 400, "extra"),
        (client.send_json("POST", "/api/houserules", {"yaml": 42}), 400, "string"),
        (client.send_json("POST", "/api/houserules", {"yaml": GOOD, "ruleset": {}}), 400, "one of"),
        (
            client.request("POST", "/api/houserules", b"name: x", {"Content-Type": "image/png"}),
            415,
            "application/json",
        ),
        (
            client.request(
                "POST", "/api/houserules", b"x" * 200_000, {"Content-Type": "application/yaml"}
            ),
            413,
            "too large",
        ),
        (
            client.send_json(
                "PUT",
                f"/api/houserules/{slug}",
                {"yaml": "name: x\nextends: classic\nplay: {knock_limit: 99}\n"},
                {"X-Edit-Secret": secret},
            ),
            422,
            "knock_limit",
        ),
        (client.send_json("POST", "/api/houserules", {"yaml": "name: [unclosed\n"}), 422, "line"),
        (client.get("/api/houserules?limit=abc"), 400, "limit"),
        (client.get("/api/diff?a=classic&b=nope"), 400, "nope"),
        (client.get("/api/houserules/zzzzzzzz"), 404, "nothing"),
    ]
    for answer, status, words in cases:
        assert answer.status == status, (status, answer.text[:300])
        assert answer.headers.get_content_type() == "application/json"
        assert words.lower() in answer.text.lower(), (words, answer.text[:300])
        assert "Traceback" not in answer.text
    invalid = client.send_json(
        "PUT",
        f"/api/houserules/{slug}",
        {"yaml": "name: x\nextends: classic\nplay: {knock_limit: 99}\n"},
        {"X-Edit-Secret": secret},
    ).json()
    assert invalid["errors"][0]["field"] == "play.knock_limit" and invalid["errors"][0]["line"] == 3
    assert [v.yaml for v in store.versions(slug)] == before
    assert store.count() == 1


def test_saving_is_rate_limited(tmp_path: Path) -> None:
    app = create_app(
        _app_config(tmp_path, f"sqlite:///{tmp_path / 'limit.db'}", RATE_LIMIT="3 per minute")
    )
    with live_server(app) as base:
        client = Client(base)
        statuses = [
            client.send_json("POST", "/api/houserules", {"yaml": GOOD}).status for _ in range(5)
        ]
        assert statuses == [201, 201, 201, 429, 429]
        assert "wait a minute" in client.send_json("POST", "/api/houserules", {"yaml": GOOD}).text
        assert client.get("/api/rulesets").status == 200, "reading is not limited"
    app.extensions["ginrules.store"].close()


def test_the_schema_and_openapi_are_served(site: tuple[Client, Store]) -> None:
    client, _ = site
    schema = client.get("/schema/ruleset.schema.json")
    assert schema.status == 200 and "hand_scoring" in schema.json()["properties"]
    document = client.get("/api/openapi.json").json()
    assert document["openapi"].startswith("3.1")
    assert document["servers"] == [{"url": PUBLIC}]


def test_db_command_creates_and_reports_the_schema(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{tmp_path / 'cli.db'}")
    monkeypatch.setenv("GINRULES_INSTANCE", str(tmp_path / "instance"))
    out, err = io.StringIO(), io.StringIO()
    assert main(["db", "upgrade"], out=out, err=err) == 0, err.getvalue()
    assert "cli.db" in out.getvalue()
    out = io.StringIO()
    assert main(["db", "upgrade"], out=out, err=err) == 0
    assert "nothing to do" in out.getvalue()
    out = io.StringIO()
    assert main(["db", "status"], out=out, err=err) == 0
    assert "0 saved house rule(s)" in out.getvalue()
    monkeypatch.setenv("PUBLIC_BASE_URL", "not a url")
    err = io.StringIO()
    assert main(["db", "status"], out=io.StringIO(), err=err) == 1
    assert "PUBLIC_BASE_URL" in err.getvalue()


def test_save_edit_and_read_on_both_databases(tmp_path: Path, database_url: str) -> None:
    """The same site on SQLite and on PostgreSQL: save, edit, versions, a refused edit."""
    app = create_app(_app_config(tmp_path, database_url))
    try:
        with live_server(app) as base:
            client = Client(base)
            location = _save_form(
                client, {"name": "Both", "hand_scoring.gin_bonus": "21", "visibility": "listed"}
            )
            slug = location.split("/")[2]
            key = re.search(r"edit\?key=([\w-]+)", client.get(location).text)
            assert key
            fields = client.form_fields(f"/h/{slug}/edit?key={key[1]}")
            assert client.post_form(f"/h/{slug}/edit", fields | {"name": "Both, v2"}).status == 303
            refused = client.send_json(
                "PUT", f"/api/houserules/{slug}", {"yaml": "name: [x\n"}, {"X-Edit-Secret": key[1]}
            )
            assert refused.status == 422
            listed = client.get(f"/api/houserules/{slug}/versions").json()["versions"]
            assert [(v["version"], v["name"]) for v in listed] == [(2, "Both, v2"), (1, "Both")]
            assert "Both, v2" in client.get("/").text  # listed at the first save, kept since
    finally:
        app.extensions["ginrules.store"].close()


def test_a_database_that_does_not_answer_gets_a_503_not_a_traceback(tmp_path: Path) -> None:
    config = _app_config(tmp_path, "postgresql://nobody:x@127.0.0.1:1/none")
    config["UPGRADE_ON_START"] = False
    app = create_app(config)
    with live_server(app) as base:
        client = Client(base)
        page = client.get("/h/abcdefgh")
        assert page.status == 503 and "not answering" in page.text
        assert page.headers["Retry-After"] == str(app.config["DB_TIMEOUT"])  # down that long
        api = client.send_json("POST", "/api/houserules", {"yaml": GOOD})
        assert api.status == 503 and api.json()["status"] == 503
        assert "Traceback" not in page.text + api.text
        assert client.get("/rules/classic").status == 200, "shipped rulesets need no database"
    app.extensions["ginrules.store"].close()
