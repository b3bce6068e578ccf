"""Which language the site answers in: ``?lang=``, the switch's cookie, a house rule's
table language, ``Accept-Language``, English, in that order; the switch itself; the
caching headers; the table language on the save forms and in the API; migration 0008.

Flask's test client on a real SQLite file; nothing is mocked but one failing read.
Assertions on translated words compare with what the catalogue gives (``_`` under
``use_locale``) and fail while a catalogue still lacks them.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from flask import Flask
from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from ginrules.rules.compile import compile_ruleset
from ginrules.rules.load import load_ruleset_text
from ginrules.web import create_app, locales
from ginrules.web.responses import MEMO
from ginrules.web.storage import Store
from ginrules.web.tables import MIGRATIONS, metadata, migrations_table, versions
from ginrules.words.i18n import LANGUAGES, _, current_locale, use_locale
from tests.web_helpers import form_fields

PUBLIC = "https://gin.example.org"
RULES = "name: Table talk\nauthor: Ana\ndescription: ''\nextends: classic\n"
#: A message of every page (the layout's footer), and one of every rule sheet.
FOOTER = "ginrules: your table's Gin Rummy rules, written down, checked, printed and shared."
SHEET_HEADING = "1. The cards and melds"


@dataclass
class Site:
    app: Flask
    client: FlaskClient
    store: Store

    def fresh(self) -> FlaskClient:
        """Another reader: no cookie of their own."""
        return self.app.test_client()


@pytest.fixture
def site(tmp_path: Path) -> Iterator[Site]:
    MEMO.clear()
    app = create_app(
        {
            "INSTANCE_PATH": tmp_path / "instance",
            "DATABASE_URL": f"sqlite:///{tmp_path / 'site.db'}",
            "PUBLIC_BASE_URL": PUBLIC,
            "SECRET_KEY": "languages",
            "UPGRADE_ON_START": True,
            "RATE_LIMIT": "1000 per minute",
        }
    )
    store: Store = app.extensions["ginrules.store"]
    yield Site(app, app.test_client(), store)
    store.close()


def lang_of(answer: TestResponse) -> str:
    found = re.search(r'<html lang="([a-z]+)"', answer.get_data(as_text=True))
    assert found, answer.get_data(as_text=True)[:300]
    return found[1]


def create(client: FlaskClient, **extra: Any) -> dict[str, Any]:
    answer = client.post("/api/houserules", json={"yaml": RULES, **extra})
    assert answer.status_code == 201, answer.get_data(as_text=True)
    data: dict[str, Any] = answer.get_json()
    return data


def in_language(lang: str, message: str) -> str:
    with use_locale(lang):
        return _(message)


# -- the order of the choices ----------------------------------------------------------


def test_with_nothing_to_go_by_the_site_speaks_english(site: Site) -> None:
    answer = site.client.get("/")
    assert lang_of(answer) == "en"
    assert answer.headers["Content-Language"] == "en"


def test_accept_language_picks_the_best_language_the_site_speaks(site: Site) -> None:
    for header, expected in (
        ("de-DE,de;q=0.9", "de"),
        ("pt-BR, es;q=0.5", "es"),
        ("fr-CA", "fr"),
        ("ja, en;q=0.1", "en"),
        ("ja", "en"),
        ("en-US,en;q=0.9,de;q=0.8", "en"),
    ):
        answer = site.client.get("/rules/classic", headers={"Accept-Language": header})
        assert lang_of(answer) == expected, header
        assert answer.headers["Content-Language"] == expected


def test_the_order_is_url_then_cookie_then_table_then_browser(site: Site) -> None:
    saved = create(site.client, language="fr")
    page = f"/h/{saved['slug']}"
    german_browser = {"Accept-Language": "de"}
    reader = site.fresh()
    # The house rule's table language outvotes the browser on its own pages only.
    assert lang_of(reader.get(page, headers=german_browser)) == "fr"
    assert lang_of(reader.get("/", headers=german_browser)) == "de"
    # The reader's own choice outvotes the table language, on every page.
    reader.set_cookie(locales.COOKIE, "es")
    assert lang_of(reader.get(page, headers=german_browser)) == "es"
    assert lang_of(reader.get("/", headers=german_browser)) == "es"
    # ?lang= outvotes everything, for that request only.
    assert lang_of(reader.get(f"{page}?lang=de", headers=german_browser)) == "de"
    assert lang_of(reader.get(page, headers=german_browser)) == "es"


def test_a_house_rules_own_pages_open_in_its_table_language(site: Site) -> None:
    saved = create(site.client, language="de")
    slug = saved["slug"]
    reader = site.fresh()
    english = {"Accept-Language": "en"}
    for path in (f"/h/{slug}", f"/h/{slug}/v1", f"/h/{slug}/versions", f"/h/{slug}/v1/sheet"):
        answer = reader.get(path, headers=english)
        assert answer.status_code == 200 and lang_of(answer) == "de", path
    pdf = reader.get(f"/h/{slug}/v1/sheet.pdf", headers=english)
    assert pdf.headers["Content-Language"] == "de"
    # The share page after saving is the author's (the edit link): the author's language.
    assert lang_of(reader.get(f"/h/{slug}/v1/share", headers=english)) == "en"
    assert lang_of(reader.get("/rules/classic", headers=english)) == "en"
    assert lang_of(reader.get(f"/build?from=h/{slug}", headers=english)) == "en"


def test_an_unknown_lang_is_passed_over_not_an_error(site: Site) -> None:
    for value in ("xx", "", "klingon", "../../etc", "de\x00"):
        answer = site.client.get("/rules/classic", query_string={"lang": value})
        assert answer.status_code == 200, value
        assert lang_of(answer) == "en", value
    answer = site.client.get("/?lang=zz", headers={"Accept-Language": "fr"})
    assert lang_of(answer) == "fr"
    assert lang_of(site.client.get("/?lang=de-AT")) == "de"  # a region of a language


def test_an_unknown_cookie_is_passed_over(site: Site) -> None:
    site.client.set_cookie(locales.COOKIE, "tlh")
    assert lang_of(site.client.get("/", headers={"Accept-Language": "es"})) == "es"


def test_the_language_lasts_one_request_and_no_longer(site: Site) -> None:
    assert lang_of(site.client.get("/?lang=fr")) == "fr"
    assert current_locale() == "en"
    assert lang_of(site.client.get("/")) == "en"


# -- what speaks it ----------------------------------------------------------------------


def test_errors_and_api_messages_speak_the_language(site: Site) -> None:
    nothing = "There is nothing here. Check the link, or start from the home page."
    for lang in LANGUAGES:
        page = site.client.get(f"/no/such/page?lang={lang}")
        assert page.status_code == 404 and lang_of(page) == lang
        assert in_language(lang, nothing) in page.get_data(as_text=True)
        api = site.client.get("/api/houserules/nosuch", headers={"Accept-Language": lang})
        assert api.status_code == 404 and api.headers["Content-Language"] == lang
        assert api.get_json()["error"] == in_language(lang, nothing)


def test_sheets_speak_the_language(site: Site) -> None:
    saved = create(site.client)
    for lang in LANGUAGES:
        for path in ("/rules/classic/sheet", f"/h/{saved['slug']}/v1/sheet"):
            answer = site.client.get(f"{path}?lang={lang}")
            assert answer.status_code == 200 and lang_of(answer) == lang, (path, lang)
            assert in_language(lang, SHEET_HEADING) in answer.get_data(as_text=True)


def test_a_sheet_asked_for_in_a_language_opens_its_online_copy_in_it(site: Site) -> None:
    """The QR code printed on a sheet opens the language a link or the table chose, and
    the reader's own language when the reader's browser chose it."""

    def online(answer: TestResponse) -> set[str]:
        return set(re.findall(PUBLIC + r"/[^\"<\s]*", answer.get_data(as_text=True)))

    german = {"Accept-Language": "de"}
    assert online(site.client.get("/rules/classic/sheet", headers=german)) == {
        f"{PUBLIC}/rules/classic"
    }
    assert online(site.client.get("/rules/classic/sheet?lang=fr", headers=german)) == {
        f"{PUBLIC}/rules/classic?lang=fr"
    }
    slug = create(site.client, language="es")["slug"]
    reader = site.fresh()
    assert online(reader.get(f"/h/{slug}/v1/sheet", headers=german)) == {
        f"{PUBLIC}/h/{slug}/v1?lang=es"
    }


@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if lang != "en"])
def test_pages_show_the_catalogues_words(site: Site, lang: str) -> None:
    """Fails until the catalogue of ``lang`` has the layout's words."""
    page = site.client.get("/", headers={"Accept-Language": lang}).get_data(as_text=True)
    for message in (FOOTER, "Rulesets"):
        translated = in_language(lang, message)
        assert translated != message, f"{lang}: {message!r} is not translated yet"
        assert translated in html.unescape(page)


# -- the switch ----------------------------------------------------------------------------


def test_every_page_has_the_switch_with_the_current_language_marked(site: Site) -> None:
    text = site.client.get("/rules/classic?lang=es&paper=a4").get_data(as_text=True)
    switch = text[text.index('<nav class="languages"') :]
    switch = switch[: switch.index("</nav>")]
    links = re.findall(r'<a href="([^"]+)" hreflang="(\w+)" lang="\w+"([^>]*)>([^<]+)</a>', switch)
    assert [(code, name) for _, code, _, name in links] == list(LANGUAGES.items())
    assert [code for _, code, marked, _ in links if 'aria-current="true"' in marked] == ["es"]
    for href, code, _marked, _name in links:
        # Back to the same page, less the ?lang= that would outvote the choice.
        assert href == f"/language?to={code}&amp;next=/rules/classic?paper%3Da4"


def test_the_switch_remembers_the_choice_for_a_year(site: Site) -> None:
    answer = site.client.get("/language?to=de&next=/rules/classic")
    assert answer.status_code == 303 and answer.location == "/rules/classic"
    assert answer.headers["Cache-Control"] == "no-store"
    cookie = site.client.get_cookie(locales.COOKIE)
    assert cookie is not None and cookie.value == "de"
    assert cookie.max_age == 365 * 24 * 60 * 60
    assert cookie.same_site == "Lax" and cookie.http_only
    assert lang_of(site.client.get("/rules/classic")) == "de"
    assert lang_of(site.client.get("/build", headers={"Accept-Language": "fr"})) == "de"


def test_the_switch_goes_back_to_this_site_only(site: Site) -> None:
    for target, expected in (
        ("/h/abcd2345/versions?page=2", "/h/abcd2345/versions?page=2"),
        ("/rules/classic?lang=fr&paper=letter", "/rules/classic?paper=letter"),
        ("/rules/classic?l%61ng=fr", "/rules/classic"),
        ("https://evil.example/", "/"),
        ("//evil.example/", "/"),
        ("/\\evil.example/", "/evil.example/"),
        ("javascript:alert(1)", "/"),
        ("/\r\nSet-Cookie: x=1", "/"),
        ("", "/"),
    ):
        answer = site.client.get("/language", query_string={"to": "es", "next": target})
        assert answer.status_code == 303 and answer.location == expected, target


def test_an_unknown_choice_or_a_link_from_another_site_changes_nothing(site: Site) -> None:
    assert site.client.get("/language?to=xx&next=/").status_code == 303
    assert site.client.get_cookie(locales.COOKIE) is None
    elsewhere = {"Sec-Fetch-Site": "cross-site"}
    answer = site.client.get("/language?to=fr&next=/build", headers=elsewhere)
    assert answer.status_code == 303 and answer.location == "/build"
    assert site.client.get_cookie(locales.COOKIE) is None


# -- caching -------------------------------------------------------------------------------


def test_answers_chosen_by_headers_vary_by_them(site: Site) -> None:
    for path in ("/", "/rules/classic", "/rules/classic/sheet", "/build", "/api/rulesets"):
        answer = site.client.get(path)
        assert {"Accept-Language", "Cookie"} <= set(answer.vary), path
    chosen = site.client.get("/rules/classic?lang=de")
    assert "Accept-Language" not in chosen.vary  # the URL says: the headers do not matter
    with site.client.get("/static/site.css") as css:
        assert "Content-Language" not in css.headers and "Accept-Language" not in css.vary


def test_a_kept_page_is_kept_per_language(site: Site) -> None:
    """The memory cache never hands a German page to an English reader; ETags differ."""
    for path in ("/", "/rules/classic", "/rules/classic/sheet"):
        german = site.fresh().get(path, headers={"Accept-Language": "de"})
        english = site.fresh().get(path, headers={"Accept-Language": "en"})
        assert lang_of(german) == "de" and lang_of(english) == "en", path
        assert german.headers["ETag"] != english.headers["ETag"], path
        # The German ETag does not make the English reader's page "not modified".
        again = site.fresh().get(
            path, headers={"Accept-Language": "en", "If-None-Match": german.headers["ETag"]}
        )
        assert again.status_code == 200 and lang_of(again) == "en", path


def test_a_failed_read_of_the_table_language_falls_back(
    site: Site, monkeypatch: pytest.MonkeyPatch
) -> None:
    saved = create(site.client, language="fr")
    sheet = f"/h/{saved['slug']}/v1/sheet"
    assert lang_of(site.fresh().get(sheet)) == "fr"

    def down(slug: str) -> str | None:
        raise sa.exc.OperationalError("SELECT", {}, Exception("database away"))

    monkeypatch.setattr(site.store, "table_language", down)
    answer = site.fresh().get(sheet, headers={"Accept-Language": "es"})
    assert answer.status_code == 200 and lang_of(answer) == "es"


# -- the table language: the API -----------------------------------------------------------


def test_the_api_takes_keeps_changes_and_clears_the_table_language(site: Site) -> None:
    saved = create(site.client, language="fr")
    slug, secret = saved["slug"], saved["edit_secret"]
    assert saved["language"] == "fr"
    assert saved["share_url"] == f"{PUBLIC}/h/{slug}?lang=fr"
    assert saved["qr_png_url"] == f"{PUBLIC}/h/{slug}/qr.png?lang=fr"
    assert saved["qr_svg_url"] == f"{PUBLIC}/h/{slug}/qr.svg?lang=fr"
    assert site.client.get(f"/api/houserules/{slug}").get_json()["language"] == "fr"

    def update(**extra: Any) -> dict[str, Any]:
        answer = site.client.put(
            f"/api/houserules/{slug}",
            json={"yaml": RULES, **extra},
            headers={"X-Edit-Secret": secret},
        )
        assert answer.status_code == 201, answer.get_data(as_text=True)
        data: dict[str, Any] = answer.get_json()
        return data

    assert update()["language"] == "fr"  # left out: kept
    assert update(language="de")["language"] == "de"
    yaml_body = site.client.put(
        f"/api/houserules/{slug}",
        data=RULES,
        headers={"X-Edit-Secret": secret, "Content-Type": "application/yaml"},
    )
    assert yaml_body.status_code == 201 and yaml_body.get_json()["language"] == "de"
    cleared = update(language=None)
    assert cleared["language"] is None and cleared["share_url"] == f"{PUBLIC}/h/{slug}"
    assert update()["language"] is None
    assert [v.language for v in site.store.versions(slug)] == [None] * 6
    assert create(site.client)["language"] is None  # left out of a create: each reader's own


@pytest.mark.parametrize("bad", ["xx", "DE", "de-DE", "", 7, ["fr"], {"fr": 1}, True])
def test_a_bad_api_language_is_a_422_naming_the_field(site: Site, bad: object) -> None:
    answer = site.client.post("/api/houserules", json={"yaml": RULES, "language": bad})
    assert answer.status_code == 422, answer.get_data(as_text=True)
    problem = answer.get_json()
    assert [error["field"] for error in problem["errors"]] == ["language"]
    assert site.store.count() == 0


def test_the_openapi_document_describes_the_language(site: Site) -> None:
    schemas = site.client.get("/api/openapi.json").get_json()["components"]["schemas"]
    for schema in (schemas["Summary"], schemas["RulesetInput"]):
        field = schema["properties"]["language"]
        assert field["enum"] == [*LANGUAGES, None] and field["description"]


def test_the_fingerprint_is_the_same_whatever_the_language(site: Site) -> None:
    expected = compile_ruleset(load_ruleset_text(RULES, "rules")).fingerprint
    prints = {
        create(site.client, **({"language": lang} if lang else {}))["fingerprint"]
        for lang in (None, *LANGUAGES)
    }
    assert prints == {expected}
    saved = create(site.client, language="es")
    for lang in LANGUAGES:
        config = site.client.get(f"/api/houserules/{saved['slug']}/versions/1/config?lang={lang}")
        assert config.get_json()["fingerprint"] == expected
        assert "language" not in config.get_json()["config"]
    yaml_text = site.client.get(f"/h/{saved['slug']}/v1.yaml").get_data(as_text=True)
    assert "language" not in yaml_text and yaml_text == RULES


# -- the table language: the save forms --------------------------------------------------------


def test_the_builder_saves_the_table_language_and_the_edit_keeps_it(site: Site) -> None:
    page = site.client.get("/build").get_data(as_text=True)
    assert '<select id="input-language" name="language"' in page
    fields = form_fields(page)
    assert fields["language"] == ""  # each reader's own, unless chosen
    fields.update(name="Mesa de los jueves", language="es")
    saved = site.client.post("/build", data=fields)
    assert saved.status_code == 303, saved.get_data(as_text=True)[:500]
    slug = saved.location.split("/")[2]
    found = site.store.get(slug)
    assert found is not None and found.language == "es"
    share = site.client.get(saved.location).get_data(as_text=True)
    assert f"{PUBLIC}/h/{slug}?lang=es" in share
    edit = re.search(r"/h/[^/]+/edit\?key=[A-Za-z0-9_-]+", share)
    assert edit
    form = site.client.get(edit[0]).get_data(as_text=True)
    assert '<option value="es" selected lang="es">Español</option>' in form
    edited = form_fields(form)
    edited["name"] = "Mesa de los viernes"
    assert site.client.post(edit[0].split("?")[0], data=edited).status_code == 303
    assert [v.language for v in site.store.versions(slug)] == ["es", "es"]


def test_the_yaml_editor_saves_the_table_language(site: Site) -> None:
    fields = form_fields(site.client.get("/build/yaml").get_data(as_text=True))
    fields.update(yaml=RULES, language="de")
    saved = site.client.post("/build/yaml", data=fields)
    assert saved.status_code == 303
    slug = saved.location.split("/")[2]
    found = site.store.get(slug)
    assert found is not None and found.language == "de"


def test_a_table_language_the_form_does_not_offer_is_refused(site: Site) -> None:
    fields = form_fields(site.client.get("/build/yaml").get_data(as_text=True))
    fields.update(yaml=RULES, language="tlh")
    refused = site.client.post("/build/yaml", data=fields)
    assert refused.status_code == 422
    assert "choose the table language from the list" in refused.get_data(as_text=True)
    fields = form_fields(site.client.get("/build").get_data(as_text=True))
    fields.update(language="tlh")
    assert site.client.post("/build", data=fields).status_code == 422
    assert site.store.count() == 0


# -- migration 0008 ----------------------------------------------------------------------------


def test_migration_0008_gives_an_existing_database_its_column(tmp_path: Path) -> None:
    """A database made by 0001-0007 with a saved house rule in it: upgraded, the rule
    follows its readers, and saves and the site use the new column."""
    url = f"sqlite:///{tmp_path / 'old.db'}"
    old = Store(url)
    now = datetime.now(UTC)
    before = [m for m in MIGRATIONS if m[0] < "0008"]
    with old.engine.begin() as connection:
        metadata.create_all(connection, tables=[migrations_table])
        for name, step in before:
            step(connection)
            connection.execute(sa.insert(migrations_table).values(name=name, applied_at=now))
        columns = {c["name"] for c in sa.inspect(connection).get_columns("house_rules")}
        assert "language" not in columns and "visibility" in columns
        connection.execute(
            sa.text(
                "INSERT INTO house_rules (slug, edit_hash, created_at, updated_at, visibility)"
                " VALUES ('oldrules', 'sha256:x', :now, :now, 'unlisted')"
            ),
            {"now": now},
        )
        rule_id = connection.execute(sa.text("SELECT id FROM house_rules")).scalar_one()
        fingerprint = compile_ruleset(load_ruleset_text(RULES, "rules")).fingerprint
        connection.execute(
            sa.insert(versions).values(
                house_rule_id=rule_id,
                number=1,
                name="Table talk",
                author="Ana",
                description="",
                yaml=RULES,
                base="classic",
                fingerprint=fingerprint,
                created_at=now,
            )
        )
    assert old.upgrade() == ["0008_house_rule_table_language"]
    assert old.upgrade() == []
    found = old.get("oldrules")
    assert found is not None and found.language is None and found.name == "Table talk"
    assert old.table_language("oldrules") is None
    old.close()

    app = create_app(
        {
            "INSTANCE_PATH": tmp_path / "instance",
            "DATABASE_URL": url,
            "PUBLIC_BASE_URL": PUBLIC,
            "SECRET_KEY": "languages",
            "RATE_LIMIT": "1000 per minute",
        }
    )
    client = app.test_client()
    assert lang_of(client.get("/h/oldrules", headers={"Accept-Language": "es"})) == "es"
    assert client.get("/api/houserules/oldrules").get_json()["language"] is None
    app.extensions["ginrules.store"].close()
