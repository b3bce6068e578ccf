"""Who finds saved house rules (listed or unlisted), the save forms' one-time token, forks
and the builder's plain words, over real HTTP on a real SQLite file (and PostgreSQL)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from ginrules.web import create_app
from ginrules.web.responses import MEMO
from ginrules.web.storage import Store
from tests.databases import database_url
from tests.web_helpers import Client, form_fields, live_server

__all__ = ["database_url"]  # a fixture

GOOD = (
    "name: API rules\nauthor: Ana\ndescription: ''\nextends: classic\n"
    "hand_scoring:\n  gin_bonus: 20\n"
)


@pytest.fixture
def site(tmp_path: Path, database_url: str) -> Iterator[tuple[Client, Store]]:
    MEMO.clear()
    app = create_app(
        {
            "INSTANCE_PATH": tmp_path / "instance",
            "DATABASE_URL": database_url,
            "PUBLIC_BASE_URL": "https://gin.example.org",
            "SECRET_KEY": "visibility-tests",
            "UPGRADE_ON_START": True,
            "RATE_LIMIT": "1000 per minute",
            "SESSION_COOKIE_SECURE": False,
        }
    )
    with live_server(app) as base:
        yield Client(base), app.extensions["ginrules.store"]
    app.extensions["ginrules.store"].close()


def _builder(client: Client, start: str = "classic", **changes: str) -> dict[str, str]:
    fields = client.form_fields(f"/build?from={start}")
    fields.update(changes)
    return fields


def _checked(page: str, name: str) -> str:
    found = re.search(rf'<input[^>]*name="{name}" value="([^"]+)" checked', page)
    assert found, f"no {name} is checked"
    return found[1]


# -- the one-time form token ------------------------------------------------------------


def test_the_same_form_sent_twice_saves_once_and_lands_on_the_first_save(
    site: tuple[Client, Store],
) -> None:
    client, store = site
    fields = _builder(client, name="Once only", **{"hand_scoring.gin_bonus": "20"})
    assert re.fullmatch(r"[A-Za-z0-9_-]{16,64}", fields["form_token"])
    first = client.post_form("/build", fields)
    assert first.status == 303 and re.fullmatch(r"/h/[2-9a-z]+/v1/share", first.location)
    again = client.post_form("/build", fields)  # Back, then Save once more
    assert again.status == 303 and again.location == first.location
    assert store.count() == 1
    # Another visit to the builder is another form: it saves new rules.
    assert client.post_form("/build", _builder(client, name="Second")).status == 303
    assert store.count() == 2


def test_a_refused_form_keeps_its_token(site: tuple[Client, Store]) -> None:
    client, store = site
    fields = _builder(client, name="Fixed later", **{"hand_scoring.gin_bonus": "lots"})
    refused = client.post_form("/build", fields)
    assert refused.status == 422 and store.count() == 0
    again = form_fields(refused.text)
    assert again["form_token"] == fields["form_token"]
    fixed = client.post_form("/build", again | {"hand_scoring.gin_bonus": "20"})
    assert fixed.status == 303
    repeat = client.post_form("/build", again | {"hand_scoring.gin_bonus": "20"})
    assert repeat.status == 303 and repeat.location == fixed.location
    assert store.count() == 1


def test_an_edit_sent_twice_makes_one_version(site: tuple[Client, Store]) -> None:
    client, store = site
    location = client.post_form("/build", _builder(client, name="Edited")).location
    secret = re.search(r'id="edit-link"[^>]*value="[^"]*key=([^"]+)"', client.get(location).text)
    assert secret
    slug = location.split("/")[2]
    fields = client.form_fields(f"/h/{slug}/edit?key={secret[1]}")
    fields["visibility"] = "unlisted"
    fields["hand_scoring.gin_bonus"] = "30"
    first = client.post_form(f"/h/{slug}/edit", fields)
    assert first.status == 303 and first.location == f"/h/{slug}/v2"
    again = client.post_form(f"/h/{slug}/edit", fields)
    assert again.status == 303 and again.location == f"/h/{slug}/v2"
    assert [v.number for v in store.versions(slug)] == [1, 2]


def test_the_yaml_editor_checks_the_token_and_visibility_too(site: tuple[Client, Store]) -> None:
    client, store = site
    csrf = client.form_fields("/build/yaml")["csrf_token"]
    token = "a-yaml-form-token-1234"
    fields = {"csrf_token": csrf, "yaml": GOOD, "form_token": token, "visibility": "listed"}
    odd = client.post_form("/build/yaml", fields | {"visibility": "everyone"})
    assert odd.status == 422 and store.count() == 0
    first = client.post_form("/build/yaml", fields)
    again = client.post_form("/build/yaml", fields)
    assert first.status == again.status == 303 and again.location == first.location
    assert store.count() == 1
    slug = first.location.split("/")[2]
    saved = store.get(slug)
    assert saved is not None and saved.visibility == "listed"


# -- listed or unlisted -------------------------------------------------------------------


def test_the_form_asks_and_only_listed_rules_reach_the_home_page(
    site: tuple[Client, Store],
) -> None:
    client, store = site
    page = client.get("/build").text
    assert _checked(page, "visibility") == "unlisted"
    assert "only people with the link can open it" in page
    assert "Listed</strong> on the home page, with the author" in page
    hidden = client.post_form("/build", _builder(client, name="Our secret table", author="Ana"))
    shown = client.post_form(
        "/build", _builder(client, name="Our open table", author="Ben", visibility="listed")
    )
    assert hidden.status == shown.status == 303
    home = client.get("/").text
    assert "Our open table" in home and "Our secret table" not in home
    listed = client.get("/api/houserules").json()["houserules"]
    assert [rules["name"] for rules in listed] == ["Our open table"]
    assert listed[0]["visibility"] == "listed"
    slug = hidden.location.split("/")[2]
    assert client.get(f"/h/{slug}").status == 200  # still open to whoever has the link
    assert client.get(f"/api/houserules/{slug}").json()["visibility"] == "unlisted"
    odd = client.post_form("/build", _builder(client, name="Odd", visibility="everyone"))
    assert odd.status == 422 and "choose listed or unlisted" in odd.text
    assert store.count() == 2


def test_an_edit_keeps_the_choice_unless_changed(site: tuple[Client, Store]) -> None:
    client, store = site
    location = client.post_form(
        "/build", _builder(client, name="Listed one", visibility="listed")
    ).location
    secret = re.search(r'id="edit-link"[^>]*value="[^"]*key=([^"]+)"', client.get(location).text)
    assert secret
    slug = location.split("/")[2]
    edit = client.get(f"/h/{slug}/edit?key={secret[1]}").text
    assert _checked(edit, "visibility") == "listed"
    fields = form_fields(edit) | {"visibility": "unlisted"}
    assert client.post_form(f"/h/{slug}/edit", fields).status == 303
    latest = store.get(slug)
    assert latest is not None and latest.number == 2 and latest.visibility == "unlisted"
    assert store.recent() == []


def test_the_api_takes_and_tells_the_visibility(site: tuple[Client, Store]) -> None:
    client, store = site
    plain = client.send_json("POST", "/api/houserules", {"yaml": GOOD})
    assert plain.status == 201 and plain.json()["visibility"] == "unlisted"
    listed = client.send_json("POST", "/api/houserules", {"yaml": GOOD, "visibility": "listed"})
    assert listed.status == 201 and listed.json()["visibility"] == "listed"
    for bad in ("public", 1, ["listed"]):
        answer = client.send_json("POST", "/api/houserules", {"yaml": GOOD, "visibility": bad})
        assert answer.status == 400
        assert answer.json()["errors"][0]["field"] == "visibility"
    assert store.count() == 2
    slug, secret = plain.json()["slug"], plain.json()["edit_secret"]
    put = client.send_json(
        "PUT",
        f"/api/houserules/{slug}",
        {"yaml": GOOD, "visibility": "listed"},
        {"X-Edit-Secret": secret},
    )
    assert put.status == 201 and put.json()["visibility"] == "listed"
    kept = client.send_json(
        "PUT", f"/api/houserules/{slug}", {"yaml": GOOD}, {"X-Edit-Secret": secret}
    )
    assert kept.json()["visibility"] == "listed"
    assert len(client.get("/api/houserules").json()["houserules"]) == 2


# -- forks ---------------------------------------------------------------------------------


def test_a_fork_says_where_it_comes_from_and_starts_with_a_new_name(
    site: tuple[Client, Store],
) -> None:
    client, store = site
    parent = client.post_form(
        "/build", _builder(client, name="The Thursday table", **{"hand_scoring.gin_bonus": "22"})
    )
    slug = parent.location.split("/")[2]
    fork = client.get(f"/h/{slug}/fork")
    assert fork.status == 303
    page = client.get(fork.location).text
    assert "<h1>Forked from The Thursday table (version 1)</h1>" in page
    fields = form_fields(page)
    assert fields["name"] and fields["name"] != "The Thursday table"
    assert fields["hand_scoring.gin_bonus"] == "22"
    fields["visibility"] = "listed"
    child = client.post_form("/build", fields)
    assert child.status == 303
    share = client.get(child.location).text
    assert "Forked from" in share and "The Thursday table (version 1)" in share
    saved = store.get(child.location.split("/")[2])
    assert saved is not None and saved.origin is not None
    assert (saved.origin.slug, saved.origin.number, saved.origin.name) == (
        slug,
        1,
        "The Thursday table",
    )
    assert client.get(f"/api/houserules/{saved.slug}").json()["forked_from_name"] == (
        "The Thursday table"
    )
    home = client.get("/").text  # the fork was listed: the home page says it is a fork
    assert f'a fork of <a href="/h/{slug}/v1">The Thursday table (version 1)</a>' in home


# -- plain words ---------------------------------------------------------------------------


def test_the_builder_speaks_plainly_and_never_lists_an_invalid_value(
    site: tuple[Client, Store],
) -> None:
    client, _ = site
    page = client.get("/build").text
    assert "<code>hand_scoring" not in page and "Enabled" not in page
    for label in ("Gin bonus", "Undercut bonus", "Oklahoma", "Big gin allowed", "Shutout"):
        assert f">{label}</label>" in page, label
    assert '<option value="true">on</option>' in page  # Oklahoma: on or off
    common = page[page.index('id="section-common"') : page.index('id="more-rules"')]
    assert "Knock limit" in common and "Team target" not in common
    # A partnership's knobs do nothing in a two-player game: hidden.
    assert re.search(r'id="field-format-team_target"[^>]*hidden', page)
    refused = client.post_form(
        "/build",
        _builder(
            client,
            name="Bad",
            **{"hand_scoring.gin_bonus": "lots", "oklahoma.enabled": "true"},
        ),
    )
    assert refused.status == 422
    changes = refused.text[refused.text.index('id="live-changes"') :]
    changes = changes[: changes.index("</ul>")]
    assert "Oklahoma</strong>: on" in changes
    assert "Gin bonus" not in changes and "lots" not in changes
    errors = refused.text[refused.text.index('id="form-errors"') :]
    assert "Gin bonus: " in errors[: errors.index("</div>")]
    assert "hand_scoring.gin_bonus" not in errors[: errors.index("</div>")]
    csrf = form_fields(refused.text)["csrf_token"]
    preview = client.request(
        "POST",
        "/build/preview",
        b"base=classic&name=x&hand_scoring.gin_bonus=lots&big_gin.enabled=true",
        {"Content-Type": "application/x-www-form-urlencoded", "X-CSRFToken": csrf},
    ).json()
    assert [c["label"] + ": " + c["after"] for c in preview["changes"]] == ["Big gin allowed: yes"]
    assert any(text.startswith("Gin bonus: ") for text in preview["problems"])
