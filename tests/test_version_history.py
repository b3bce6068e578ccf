"""The versions history costs the same with 2 versions or 2,000: what each version
changed is worked out when it is saved (or by migration 0005 for older rows), the
page and the API read a page of rows and parse nothing, and a house rule holds at
most ``MAX_VERSIONS`` versions. Real SQLite files, the real PostgreSQL, real HTTP.
"""

from __future__ import annotations

import re
import statistics
import time
import urllib.request
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

from ginrules.web import create_app, refs, saving, version_history, version_pages
from ginrules.web.responses import MEMO
from ginrules.web.storage import ChangeSummary, Draft, Store, Version, hash_secret
from ginrules.web.tables import MIGRATIONS, house_rules, metadata, migrations_table, versions
from ginrules.web.version_history import FIRST, UNKNOWN, Change, Summary
from tests.databases import database_url, store
from tests.live_server import serve
from tests.web_helpers import Client, live_server

__all__ = ["database_url", "store"]  # fixtures

GIN = "hand_scoring.gin_bonus"
PUBLIC = "https://gin.example.org"


def rules(gin: int, name: str = "Our table", notes: int = 0) -> str:
    """A valid ruleset's text; ``notes`` lines of 400 characters make it larger."""
    text = (
        f"name: {name}\nauthor: Ana\ndescription: Thursdays\nextends: classic\n"
        f"hand_scoring:\n  gin_bonus: {gin}\n"
    )
    return text + (
        "notes:\n" + "".join(f"  - {'y' * 400}\n" for _ in range(notes)) if notes else ""
    )


def parsed(text: str) -> tuple[Any, str]:
    ruleset, diagnostics, base = saving.read_yaml(text)
    assert ruleset is not None, diagnostics
    return ruleset, base


def save_first(store: Store, text: str) -> saving.Saved:
    ruleset, base = parsed(text)
    return saving.save_new(store, ruleset, text, base, None)


def save_next(store: Store, slug: str, text: str) -> Version:
    ruleset, base = parsed(text)
    return saving.save_version(store, slug, ruleset, text, base)


def stored(store: Store, slug: str) -> dict[int, str | None]:
    """Each version's summary column, as stored."""
    query = (
        sa.select(versions.c.number, versions.c.summary)
        .join(house_rules, house_rules.c.id == versions.c.house_rule_id)
        .where(house_rules.c.slug == slug)
    )
    with store.engine.connect() as connection:
        return {int(row.number): row.summary for row in connection.execute(query)}


def summary_of(store: Store, slug: str, number: int) -> Summary:
    text = stored(store, slug)[number]
    assert text is not None, f"version {number} has no summary"
    return Summary.from_text(text)


# -- summaries stored at save --------------------------------------------------------


def test_a_save_stores_what_it_changed_against_the_version_before(store: Store) -> None:
    slug = save_first(store, rules(20)).version.slug
    save_next(store, slug, rules(30))
    save_next(store, slug, rules(30, name="Our table, renamed"))
    assert summary_of(store, slug, 1) == FIRST
    assert summary_of(store, slug, 2) == Summary(False, (Change(GIN, 20, 30),))
    assert summary_of(store, slug, 3) == Summary(False, ())  # only the words changed
    assert summary_of(store, slug, 2).changes == (Change(GIN, 20, 30),)
    assert Change(GIN, 20, 30).to_json() == {
        "knob": GIN,
        "label": "Gin bonus",
        "before": 20,
        "after": 30,
    }


def test_a_summary_against_another_version_is_worked_out_when_first_shown(
    store: Store,
) -> None:
    """A summary made against version 1 is not stored as version 3's (a save came
    between): the column stays NULL, and the first page that shows it works it out."""
    slug = save_first(store, rules(20)).version.slug
    save_next(store, slug, rules(25))
    ruleset, base = parsed(rules(40))
    stale = ChangeSummary(1, Summary(False, (Change(GIN, 20, 40),)).to_text())
    store.add_version(slug, saving.draft(ruleset, rules(40), base), summary=stale)
    assert stored(store, slug)[3] is None
    page = version_pages.newest_first(store, slug)
    assert page is not None
    assert [entry.number for entry in page.entries] == [3, 2, 1]
    assert page.entries[0].summary == Summary(False, (Change(GIN, 25, 40),))
    assert summary_of(store, slug, 3) == Summary(False, (Change(GIN, 25, 40),))


def test_a_stored_summary_this_site_did_not_write_reads_as_not_known() -> None:
    assert Summary.from_text("not json") == UNKNOWN
    assert Summary.from_text('{"first": false}') == UNKNOWN
    assert Change("gone.old_knob", 1, 2).label == "Old knob"


# -- migration 0005 ----------------------------------------------------------------------


def _old_database(database_url: str, texts: dict[str, list[str]]) -> Store:
    """A database made by the migrations before 0005, holding ``texts``' versions (by
    slug), upgraded since: what migration 0005 meets on a site that had versions."""
    old = Store(database_url)
    now = datetime.now(UTC)
    before = [step for step in MIGRATIONS if step[0] < "0005"]
    with old.engine.begin() as connection:
        for _name, step in before:
            step(connection)
        metadata.create_all(connection, tables=[migrations_table])
        for name, _step in before:
            connection.execute(sa.insert(migrations_table).values(name=name, applied_at=now))
        for slug, versions_text in texts.items():
            rule_id = connection.execute(
                sa.insert(house_rules)
                .values(slug=slug, edit_hash="sha256:x", created_at=now, updated_at=now)
                .returning(house_rules.c.id)
            ).scalar_one()
            connection.execute(
                sa.insert(versions),
                [
                    {
                        "house_rule_id": rule_id,
                        "number": number,
                        "name": "Old",
                        "author": "Ana",
                        "description": "",
                        "yaml": text,
                        "base": "classic",
                        "fingerprint": "0" * 12,
                        "created_at": now,
                    }
                    for number, text in enumerate(versions_text, start=1)
                ],
            )
    return old


def test_migration_0005_works_out_the_summaries_of_versions_saved_before_it(
    database_url: str,
) -> None:
    # More versions than one batch of the migration, an unreadable one, a second rule.
    def gin(number: int) -> int:
        return 20 + (number - 1) % 3

    long = [rules(gin(number)) for number in range(1, 131)]
    long[60] = "name: [unreadable\n"  # version 61
    old = _old_database(database_url, {"longrule": long, "onerule": [rules(25)]})
    try:
        applied = old.upgrade()
        assert applied[0] == "0005_version_summaries"
        found = stored(old, "longrule")
        assert len(found) == 130 and all(text is not None for text in found.values())
        assert summary_of(old, "longrule", 1) == FIRST
        # Version 101 is read in the migration's second batch, version 100 in its first.
        for number in (2, 3, 4, 100, 101, 130):
            change = Change(GIN, gin(number - 1), gin(number))
            assert summary_of(old, "longrule", number) == Summary(False, (change,)), number
        assert summary_of(old, "longrule", 61) == UNKNOWN  # itself unreadable
        assert summary_of(old, "longrule", 62) == UNKNOWN  # the one before it is
        assert summary_of(old, "longrule", 63) == Summary(False, (Change(GIN, gin(62), gin(63)),))
        assert summary_of(old, "onerule", 1) == FIRST
    finally:
        old.close()


def test_filling_a_summary_reads_the_version_before_when_it_was_not_just_read(
    store: Store,
) -> None:
    slug = save_first(store, rules(20)).version.slug
    for gin in (25, 30, 35):
        save_next(store, slug, rules(gin))
    with store.engine.begin() as connection:
        connection.execute(
            sa.update(versions).where(versions.c.number.in_([1, 3])).values(summary=None)
        )
        version_history.fill_summaries(connection)
    assert summary_of(store, slug, 1) == FIRST
    assert summary_of(store, slug, 3) == Summary(False, (Change(GIN, 25, 30),))
    assert summary_of(store, slug, 4) == Summary(False, (Change(GIN, 30, 35),))


# -- pages of the site and the API -------------------------------------------------------


@pytest.fixture
def history(tmp_path: Path, database_url: str) -> Iterator[tuple[Client, Store, str]]:
    """A site with one house rule of 45 versions (gin bonus 20, 21, ... 64)."""
    MEMO.clear()
    app = create_app(
        {
            "INSTANCE_PATH": tmp_path / "instance",
            "DATABASE_URL": database_url,
            "SECRET_KEY": "versions-test",
            "PUBLIC_BASE_URL": PUBLIC,
            "UPGRADE_ON_START": True,
            "RATE_LIMIT": "1000 per minute",
        }
    )
    site_store: Store = app.extensions["ginrules.store"]
    slug = save_first(site_store, rules(20)).version.slug
    for gin in range(21, 65):
        save_next(site_store, slug, rules(gin))
    try:
        with live_server(app) as base:
            yield Client(base), site_store, slug
    finally:
        site_store.close()


def _numbers(page: str) -> list[int]:
    return [int(n) for n in re.findall(r">Version (\d+):", page)]


def test_the_versions_page_goes_a_page_at_a_time_newest_first(
    history: tuple[Client, Store, str],
) -> None:
    client, _, slug = history
    first = client.get(f"/h/{slug}/versions")
    assert first.status == 200
    assert _numbers(first.text) == list(range(45, 25, -1))
    assert "Page 1 of 3" in first.text and "Newer versions" not in first.text
    assert f'href="/h/{slug}/versions?page=2"' in first.text
    assert "<strong>Gin bonus</strong>: 63 → 64" in first.text
    middle = client.get(f"/h/{slug}/versions?page=2")
    assert middle.status == 200 and _numbers(middle.text) == list(range(25, 5, -1))
    assert f'href="/h/{slug}/versions"' in middle.text  # Newer: page 1's plain link
    assert f'href="/h/{slug}/versions?page=3"' in middle.text
    last = client.get(f"/h/{slug}/versions?page=3")
    assert last.status == 200 and _numbers(last.text) == [5, 4, 3, 2, 1]
    assert "The first version." in last.text and "Older versions" not in last.text
    for bad in ("0", "4", "-1", "x", "1.5", "", "99999999999999999999"):
        refused = client.get(f"/h/{slug}/versions?page={bad}")
        assert refused.status == 400, bad
        assert "page must be a whole number from 1 to 3" in refused.text
    assert client.get("/h/nosuchsl/versions").status == 404


def test_the_api_lists_versions_a_page_at_a_time_with_a_cursor(
    history: tuple[Client, Store, str],
) -> None:
    client, _, slug = history
    answer = client.get(f"/api/houserules/{slug}/versions").json()
    assert [v["version"] for v in answer["versions"]] == list(range(45, 25, -1))
    assert answer["latest_version"] == 45
    assert answer["versions"][0]["changes"] == [
        {"knob": GIN, "label": "Gin bonus", "before": 63, "after": 64}
    ]
    seen = []
    url = f"/api/houserules/{slug}/versions?limit=7"
    while url:
        page = client.get(url).json()
        assert len(page["versions"]) <= 7
        seen += [v["version"] for v in page["versions"]]
        assert page["next"] is None or page["next"].startswith(f"{PUBLIC}/api/")
        url = (page["next"] or "").removeprefix(PUBLIC)
    assert seen == list(range(45, 0, -1))
    last = client.get(f"/api/houserules/{slug}/versions?before=3").json()
    assert [v["version"] for v in last["versions"]] == [2, 1] and last["next"] is None
    assert last["versions"][1]["changes"] is None  # version 1: nothing before it
    # Each entry says what the version's own answer says (less its document).
    own = client.get(f"/api/houserules/{slug}/versions/2").json()
    del own["document"], own["warnings"]
    assert {k: v for k, v in last["versions"][0].items() if k != "changes"} == own
    for query, field in (
        ("limit=0", "limit"),
        ("limit=101", "limit"),
        ("limit=x", "limit"),
        ("before=0", "before"),
        ("before=1000000001", "before"),
        ("before=ten", "before"),
    ):
        refused = client.get(f"/api/houserules/{slug}/versions?{query}")
        assert refused.status == 400, query
        assert [e["field"] for e in refused.json()["errors"]] == [field]
    assert client.get("/api/houserules/nosuchsl/versions").status == 404


# -- the cap -------------------------------------------------------------------------


def test_a_save_past_max_versions_is_a_409_and_saves_nothing(
    tmp_path: Path, database_url: str
) -> None:
    app = create_app(
        {
            "INSTANCE_PATH": tmp_path / "instance",
            "DATABASE_URL": database_url,
            "SECRET_KEY": "cap-test",
            "UPGRADE_ON_START": True,
            "RATE_LIMIT": "1000 per minute",
            "MAX_VERSIONS": 3,
            "SESSION_COOKIE_SECURE": False,
        }
    )
    site_store: Store = app.extensions["ginrules.store"]
    try:
        with live_server(app) as base:
            client = Client(base)
            created = client.send_json("POST", "/api/houserules", {"yaml": rules(20)})
            assert created.status == 201, created.text
            slug, secret = created.json()["slug"], created.json()["edit_secret"]
            key = {"X-Edit-Secret": secret}
            for gin in (25, 30):
                put = client.send_json("PUT", f"/api/houserules/{slug}", {"yaml": rules(gin)}, key)
                assert put.status == 201, put.text
            before = site_store.get(slug)
            refused = client.send_json("PUT", f"/api/houserules/{slug}", {"yaml": rules(35)}, key)
            assert refused.status == 409, refused.text
            body = refused.json()
            assert body["status"] == 409 and "3 versions" in body["error"]
            assert "fork" in body["error"]
            assert [e["field"] for e in body["errors"]] == ["slug"]
            fields = client.form_fields(f"/h/{slug}/edit?key={secret}&mode=yaml")
            page = client.post_form(f"/h/{slug}/edit", fields | {"yaml": rules(40)})
            assert page.status == 409
            assert "3 versions" in page.text and "fork" in page.text
            assert site_store.get(slug) == before  # no version, not even updated_at
            assert len(stored(site_store, slug)) == 3
    finally:
        site_store.close()


# -- the parse cache -------------------------------------------------------------------


def test_a_new_save_uncaches_no_parsed_version(store: Store) -> None:
    slug = save_first(store, rules(20)).version.slug
    first = refs.saved(store, slug, 1)
    assert first is not None and first.version is not None and first.version.latest == 1
    save_next(store, slug, rules(30))
    again = refs.saved(store, slug, 1)
    assert again is not None and again.version is not None
    assert again.ruleset is first.ruleset and again.config is first.config  # not parsed again
    assert again.version.latest == 2  # the read is current all the same


# -- load: 2,000 versions ------------------------------------------------------------------

#: Versions of the house rule the load test reads.
MANY = 2000


def _many_versions(path: Path) -> tuple[str, str]:
    """A SQLite file with one house rule of :data:`MANY` versions of 16 KiB each: the
    first and last saved by the store, the rest in one bulk insert with the summaries
    a save would have stored. The slug and the edit secret."""
    many = Store(f"sqlite:///{path}", max_versions=MANY)
    try:
        many.upgrade()
        texts = [rules(20 + n % 7, notes=40) for n in range(7)]
        rulesets = [parsed(text) for text in texts]
        drafts = [saving.draft(r, t, b) for (r, b), t in zip(rulesets, texts, strict=True)]
        changes = [
            version_history.summarize(rulesets[n - 1][0], rulesets[n][0]).to_text()
            for n in range(7)
        ]
        secret = "load-test-edit-secret"
        first = many.create(drafts[0], hash_secret(secret), summary=FIRST.to_text())
        now = datetime.now(UTC)
        with many.engine.begin() as connection:
            rule_id = connection.execute(
                sa.select(house_rules.c.id).where(house_rules.c.slug == first.slug)
            ).scalar_one()
            rows = [
                {
                    **vars(drafts[(number - 1) % 7]),
                    "house_rule_id": rule_id,
                    "number": number,
                    "created_at": now,
                    "summary": changes[(number - 1) % 7],
                }
                for number in range(2, MANY)
            ]
            connection.execute(sa.insert(versions), rows)
        last: Draft = drafts[(MANY - 1) % 7]
        summary = ChangeSummary(MANY - 1, changes[(MANY - 1) % 7])
        assert many.add_version(first.slug, last, summary=summary).number == MANY
        return first.slug, secret
    finally:
        many.close()


def _timed(url: str) -> float:
    started = time.perf_counter()
    with urllib.request.urlopen(url, timeout=10) as answer:
        answer.read()
        assert answer.status == 200, url
    return time.perf_counter() - started


@pytest.mark.load
def test_2000_versions_answer_in_under_200_ms_and_the_2001st_save_is_refused(
    tmp_path: Path,
) -> None:
    started = time.perf_counter()
    database = tmp_path / "many.db"
    slug, secret = _many_versions(database)
    setup = time.perf_counter() - started
    env = {"DATABASE_URL": f"sqlite:///{database}", "MAX_VERSIONS": str(MANY)}
    with serve(tmp_path, env=env, workers=1, threads=4) as running:
        base = running.started()
        paths = {
            "page, first": f"/h/{slug}/versions",
            "page, middle": f"/h/{slug}/versions?page=50",
            "page, last": f"/h/{slug}/versions?page=100",
            "API, first": f"/api/houserules/{slug}/versions",
            "API, middle": f"/api/houserules/{slug}/versions?before=1001&limit=100",
        }
        for path in paths.values():  # warm: the first connection, the templates
            _timed(base + path)
        times: dict[str, list[float]] = {name: [] for name in paths}
        for _ in range(20):
            for name, path in paths.items():
                times[name].append(_timed(base + path))
        every = sorted(t for found in times.values() for t in found)
        p50 = statistics.median(every)
        p99 = every[int(len(every) * 0.99) - 1]
        print(
            f"\nsetup {setup:.1f} s; {len(every)} requests: p50 {p50 * 1000:.1f} ms,"
            f" p99 {p99 * 1000:.1f} ms"
        )
        for name, found in times.items():
            print(
                f"  {name}: p50 {statistics.median(found) * 1000:.1f} ms,"
                f" max {max(found) * 1000:.1f} ms"
            )
        assert p99 < 0.2, f"p99 {p99 * 1000:.0f} ms"
        client = Client(base)
        last = client.get(f"/h/{slug}/versions?page=100")
        assert "Version 1:" in last.text and "Older versions" not in last.text
        refused = client.send_json(
            "PUT", f"/api/houserules/{slug}", {"yaml": rules(99)}, {"X-Edit-Secret": secret}
        )
        assert refused.status == 409, refused.text
        assert [e["field"] for e in refused.json()["errors"]] == ["slug"]
        assert client.get(f"/api/houserules/{slug}").json()["latest_version"] == MANY
