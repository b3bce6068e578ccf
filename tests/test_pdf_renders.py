"""PDFs that cannot take the site down: rendered by low-priority processes behind a
bounded queue, kept on disk, and never in the way of the pages.

The first tests run the real app in this process (its render pool is real:
processes made by a fork server); the load tests start a real ``ginrules serve``
and measure the pages while sixteen uncached PDFs are asked for at once.
"""

from __future__ import annotations

import json
import os
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import replace
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from werkzeug.test import TestResponse

from ginrules.sheets.render import SheetOptions, scorepad_pdf, sheet_pdf
from ginrules.web import create_app, pdf_renders, refs
from ginrules.web.responses import MEMO
from tests.live_server import serve
from tests.pdf_tools import pdf_pages

PUBLIC = "https://gin.example.org"
PRINTS = ("sheet", "scorepad")


@pytest.fixture(autouse=True, scope="module")
def _stop_render_processes() -> Iterator[None]:
    yield
    pdf_renders.shutdown()


def _app(tmp_path: Path, **extra: Any) -> Flask:
    MEMO.clear()  # a new app is a restart: nothing in memory
    return create_app(
        {
            "INSTANCE_PATH": tmp_path / "instance",
            "DATABASE_URL": f"sqlite:///{tmp_path / 'site.db'}",
            "PUBLIC_BASE_URL": PUBLIC,
            "SECRET_KEY": "test-secret-key",
            "UPGRADE_ON_START": True,
            "RATE_LIMIT": "1000 per minute",
            **extra,
        }
    )


def _ruleset_text(number: int) -> str:
    return (
        f"name: Printed rules {number}\nauthor: tester\n"
        f"description: House rules number {number}, printed.\nextends: classic\n"
        f"hand_scoring:\n  gin_bonus: {20 + number}\n"
    )


def _save(app: Flask, number: int) -> str:
    created = app.test_client().post("/api/houserules", json={"yaml": _ruleset_text(number)})
    assert created.status_code == 201, created.get_data(as_text=True)
    return str(created.get_json()["slug"])


def _whole_pdf(body: bytes) -> bool:
    return body.startswith(b"%PDF-") and body.rstrip().endswith(b"%%EOF")


def _kept(tmp_path: Path) -> dict[str, int]:
    """The disk cache's PDFs and their modification times."""
    folder = tmp_path / "instance" / "pdf-cache"
    if not folder.is_dir():
        return {}
    return {path.name: path.stat().st_mtime_ns for path in folder.glob("*.pdf")}


def _at_once(app: Flask, paths: list[str], **headers: str) -> list[TestResponse]:
    """Each path asked for by a thread of its own, all released together."""
    start = threading.Barrier(len(paths))

    def ask(path: str) -> TestResponse:
        client = app.test_client()
        start.wait()
        return client.get(path, headers=headers)

    with ThreadPoolExecutor(len(paths)) as pool:
        return list(pool.map(ask, paths))


# -- in this process ------------------------------------------------------------------------


def test_a_kept_pdf_is_served_from_disk_after_a_restart_without_rendering(
    tmp_path: Path,
) -> None:
    app = _app(tmp_path)
    slug = _save(app, 1)
    paths = [f"/h/{slug}/v1/sheet.pdf", "/rules/classic/scorepad.pdf?paper=letter&large=1"]
    before = pdf_renders.renders_started()
    first = [app.test_client().get(path) for path in paths]
    assert [answer.status_code for answer in first] == [200, 200]
    assert all(_whole_pdf(answer.data) for answer in first)
    assert pdf_renders.renders_started() == before + 2
    kept = _kept(tmp_path)
    assert len(kept) == 2, "each PDF is kept on disk"

    restarted = _app(tmp_path)
    again = [restarted.test_client().get(path) for path in paths]
    assert [answer.data for answer in again] == [answer.data for answer in first]
    assert pdf_renders.renders_started() == before + 2, "served from disk, not rendered"
    assert _kept(tmp_path) == kept, "the kept files are untouched"
    assert again[0].headers["Content-Disposition"] == f'inline; filename="h-{slug}-v1-sheet.pdf"'
    assert "immutable" in again[0].headers["Cache-Control"]


def test_a_torn_file_in_the_cache_is_never_served_and_is_rendered_again(
    tmp_path: Path,
) -> None:
    app = _app(tmp_path)
    slug = _save(app, 2)
    path = f"/h/{slug}/v1/scorepad.pdf"
    whole = app.test_client().get(path).data
    (name,) = _kept(tmp_path)
    kept = tmp_path / "instance" / "pdf-cache" / name
    kept.write_bytes(whole[: len(whole) // 2])  # as a crash mid-write would leave it
    before = pdf_renders.renders_started()

    answer = _app(tmp_path).test_client().get(path)
    assert answer.status_code == 200 and answer.data == whole
    assert pdf_renders.renders_started() == before + 1
    assert kept.read_bytes() == whole, "the torn file is replaced by a whole one"
    assert not [p for p in kept.parent.iterdir() if p.suffix != ".pdf"], "no partial files left"


def test_the_served_pdf_is_the_one_the_renderer_makes(tmp_path: Path) -> None:
    app = _app(tmp_path)
    slug = _save(app, 3)
    client = app.test_client()
    sheet = client.get(f"/h/{slug}/v1/sheet.pdf?paper=letter")
    pad = client.get(f"/h/{slug}/v1/scorepad.pdf?large=1")
    with app.app_context():
        loaded = refs.saved(app.extensions["ginrules.store"], slug, 1)
    assert loaded is not None and loaded.version is not None
    made = loaded.version.created_at.date()
    options = SheetOptions(url=f"{PUBLIC}/h/{slug}/v1", version="version 1", date=made)
    assert sheet.data == sheet_pdf(loaded.ruleset, replace(options, paper="letter"))
    assert pad.data == scorepad_pdf(loaded.ruleset, replace(options, large_print=True))
    pdf = tmp_path / "sheet.pdf"
    pdf.write_bytes(sheet.data)
    assert pdf_pages(pdf) >= 1
    assert made <= date.today()


def test_requests_for_the_same_pdf_share_one_render(tmp_path: Path) -> None:
    app = _app(tmp_path)
    slug = _save(app, 4)
    before = pdf_renders.renders_started()
    answers = _at_once(app, [f"/h/{slug}/v1/sheet.pdf"] * 3)
    assert [answer.status_code for answer in answers] == [200, 200, 200]
    assert len({answer.data for answer in answers}) == 1
    assert pdf_renders.renders_started() == before + 1


@pytest.mark.parametrize(
    "bounds",
    [
        {"PDF_RENDERS": 1, "PDF_QUEUE": 1},
        # Under `ginrules serve --threads 4` PDFs hold at most two: 8 waiting would be 1.
        {"PDF_RENDERS": 1, "PDF_QUEUE": 8, "SERVER_THREADS": 4},
    ],
)
def test_past_the_queue_a_pdf_request_gets_503_with_retry_after(
    tmp_path: Path, bounds: dict[str, int]
) -> None:
    app = _app(tmp_path, **bounds)
    slugs = [_save(app, 10 + number) for number in range(6)]
    answers = _at_once(app, [f"/h/{slug}/v1/sheet.pdf" for slug in slugs])
    statuses = [answer.status_code for answer in answers]
    assert set(statuses) <= {200, 503}, statuses
    assert statuses.count(503) >= 3, f"room for two renders, six asked at once: {statuses}"
    for answer in answers:
        if answer.status_code == 200:
            assert _whole_pdf(answer.data)
        else:
            assert int(answer.headers["Retry-After"]) >= 1
            assert answer.headers["Cache-Control"] == "no-store"
            assert "Try again in" in answer.get_data(as_text=True)
    as_json = _at_once(
        app, [f"/h/{slug}/v1/scorepad.pdf" for slug in slugs], Accept="application/json"
    )
    refused = [answer for answer in as_json if answer.status_code == 503]
    assert refused, [answer.status_code for answer in as_json]
    body = refused[0].get_json()
    assert body["status"] == 503 and "Try again in" in body["error"]


def test_a_request_that_waits_too_long_gets_503_and_the_render_is_still_kept(
    tmp_path: Path,
) -> None:
    app = _app(tmp_path, PDF_WAIT_SECONDS=0.01)
    slug = _save(app, 5)
    path = f"/h/{slug}/v1/sheet.pdf?paper=letter"
    slow = app.test_client().get(path)
    assert slow.status_code == 503 and int(slow.headers["Retry-After"]) >= 1
    assert "still being made" in slow.get_data(as_text=True)
    deadline = time.monotonic() + 30
    while not _kept(tmp_path) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert _kept(tmp_path), "the render went on after the request gave up"
    before = pdf_renders.renders_started()
    ready = app.test_client().get(path)
    assert ready.status_code == 200 and _whole_pdf(ready.data)
    assert pdf_renders.renders_started() == before


def _descendants(pid: int) -> list[int]:
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            parents[int(entry.name)] = int(stat.rsplit(")", 1)[1].split()[1])
    found, frontier = [], [pid]
    while frontier:
        frontier = [child for child, parent in parents.items() if parent in frontier]
        found.extend(frontier)
    return found


def _render_processes() -> dict[int, int]:
    """This test process's fork server and render processes, with their nice values."""
    found = {}
    for pid in _descendants(os.getpid()):
        try:
            command = Path(f"/proc/{pid}/cmdline").read_bytes()
            stat = Path(f"/proc/{pid}/stat").read_text()
        except OSError:
            continue
        if b"multiprocessing.forkserver" in command:
            found[pid] = int(stat.rsplit(")", 1)[1].split()[16])
    return found


def test_render_processes_run_below_the_site_and_stop_when_asked(tmp_path: Path) -> None:
    if not Path("/proc/self/stat").exists():
        pytest.skip("no /proc to list processes in; a failure under CI")
    app = _app(tmp_path)
    assert app.test_client().get("/rules/online-casino/sheet.pdf").status_code == 200
    running = _render_processes()
    assert len(running) >= 2, "a fork server and at least one render process"
    assert min(running.values()) >= pdf_renders.NICENESS, running
    pdf_renders.shutdown()
    deadline = time.monotonic() + 10
    while len(_render_processes()) > 1 and time.monotonic() < deadline:
        time.sleep(0.1)
    assert len(_render_processes()) == 1, "only the idle fork server is left"
    answer = app.test_client().get("/rules/online-casino/scorepad.pdf")
    assert answer.status_code == 200, "a new pool starts on the next PDF"


def test_the_disk_cache_drops_its_oldest_files_past_its_limit(tmp_path: Path) -> None:
    for number in range(10):
        kept = tmp_path / f"{number}.pdf"
        kept.write_bytes(b"x" * 100)
        os.utime(kept, (1_000_000 + number, 1_000_000 + number))
    pdf_renders.prune(tmp_path, 1000)
    assert len(list(tmp_path.iterdir())) == 10, "at the limit nothing goes"
    pdf_renders.prune(tmp_path, 500)
    assert sorted(path.name for path in tmp_path.iterdir()) == [f"{n}.pdf" for n in (7, 8, 9)]


# -- a real ginrules serve ------------------------------------------------------------------


def _get(url: str) -> tuple[int, bytes, dict[str, str], float]:
    """Status, body, headers and seconds taken."""
    started = time.perf_counter()
    try:
        with urllib.request.urlopen(url, timeout=40) as answer:
            status, body, headers = answer.status, answer.read(), dict(answer.headers)
    except urllib.error.HTTPError as error:
        status, body, headers = error.code, error.read(), dict(error.headers)
    return status, body, headers, time.perf_counter() - started


def _create(base: str, number: int) -> str:
    request = urllib.request.Request(
        base + "/api/houserules",
        data=json.dumps({"yaml": _ruleset_text(number)}).encode(),
        headers={"Content-Type": "application/json"},
        method="POST",
    )
    with urllib.request.urlopen(request, timeout=30) as answer:
        assert answer.status == 201
        return str(json.load(answer)["slug"])


def _percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


@pytest.mark.load
def test_pages_stay_fast_while_sixteen_uncached_pdfs_render(tmp_path: Path) -> None:
    # Room for all sixteen (two rendering, fourteen waiting: PDFs may hold half of the
    # 36 threads), the rest for the pages: both cores render while pages are measured.
    env = {"RATE_LIMIT": "10000 per minute", "PDF_RENDERS": "2", "PDF_QUEUE": "14"}
    with serve(tmp_path, "--port", "0", env=env, workers=1, threads=36) as running:
        base = running.started()
        slugs = [_create(base, number) for number in range(16)]
        pages = [f"{base}/rules/classic", f"{base}/h/{slugs[0]}/v1", f"{base}/h/{slugs[0]}"]
        for page in pages * 2:
            assert _get(page)[0] == 200
        kinds = [f"{kind}.pdf?paper={paper}" for paper in ("a4", "letter") for kind in PRINTS]
        pdfs = [f"{base}/h/{slug}/v1/{kinds[n % 4]}" for n, slug in enumerate(slugs)]
        with ThreadPoolExecutor(16) as printing, ThreadPoolExecutor(32) as visitors:
            asked = [printing.submit(_get, url) for url in pdfs]
            visits: list[Future[tuple[int, bytes, dict[str, str], float]]] = []
            deadline = time.monotonic() + 30
            while not all(f.done() for f in asked) and time.monotonic() < deadline:
                visits.append(visitors.submit(_get, pages[len(visits) % 3]))
                time.sleep(0.05)  # a visitor every 50 ms, whatever the server does
            printed = [f.result() for f in asked]
            seen = [f.result() for f in visits]
    seconds = [answer[3] for answer in seen]
    assert {answer[0] for answer in seen} == {200}
    p50, p99 = _percentile(seconds, 0.5), _percentile(seconds, 0.99)
    print(f"pages while 16 PDFs render: n={len(seconds)} p50={p50:.3f}s p99={p99:.3f}s")
    assert len(seconds) >= 20
    assert p99 < 0.2, f"p99 {p99:.3f}s (p50 {p50:.3f}s) over {len(seconds)} page views"
    assert [answer[0] for answer in printed] == [200] * 16
    assert all(_whole_pdf(answer[1]) for answer in printed)
    assert len(_kept(tmp_path)) == 16, "each kept on disk"


@pytest.mark.load
def test_a_restarted_server_serves_its_kept_pdfs_without_rendering(tmp_path: Path) -> None:
    # The same links on both ports: a PDF's QR code holds the public base URL.
    env = {"RATE_LIMIT": "10000 per minute", "PUBLIC_BASE_URL": "http://gin.example.org"}
    with serve(tmp_path, "--port", "0", env=env) as running:
        base = running.started()
        slug = _create(base, 40)
        status, first, _, _ = _get(f"{base}/h/{slug}/v1/sheet.pdf?large=1")
        assert status == 200 and _whole_pdf(first)
    kept = _kept(tmp_path)
    assert len(kept) == 1
    with serve(tmp_path, "--port", "0", env=env) as running:
        base = running.started()
        status, again, _, seconds = _get(f"{base}/h/{slug}/v1/sheet.pdf?large=1")
    assert status == 200 and again == first
    assert _kept(tmp_path) == kept, "read from disk, not rendered and written again"
    assert seconds < 1.0, f"{seconds:.2f}s: a kept PDF needs no render process"
