"""Issue 14's figures: how ``ginrules serve`` holds up against cheap hostile requests.

Run with ``.venv/bin/python bench/bench_resilience.py`` (every scenario: two to four
minutes), or ``--only versions,slow`` for some of them. Each scenario starts a real
``ginrules serve`` subprocess on 127.0.0.1 (port 0, read from its output) in a
temporary instance folder, loads it within a bound of requests and seconds, and
prints its figures as a table (scenario, measure, value). ``--source DIR`` measures
another checkout (``python -m ginrules`` with ``PYTHONPATH=DIR``, run in ``DIR``;
e.g. ``git worktree add /tmp/before f63cab6``), so the same script measures before
and after. Scenarios:

* ``versions``: one house rule with 1,100 versions (``--big-versions``: 64 KiB
  each), saved through the checkout's own ``saving`` functions and store
  (``MAX_VERSIONS`` set high), then ``/h/<slug>/versions`` and ``GET
  /api/houserules/<slug>/versions`` timed in turn (5 requests each, 30 s per
  request; a request starts only while the 45 s of its URL would hold one more);
* ``slow``: 64 slow connections (half trickle header lines, half a body, a line or
  a byte a second; one the server closes is opened again) while two clients time
  ``/rules/classic`` and ``/`` for 15 s (5 s timeout);
* ``pdf``: 16 concurrent requests for uncached PDFs (8 versions x two sheet
  variants) while one client times ``/rules/classic`` and a share page; then a
  restart on the same instance folder and one of those PDFs again;
* ``ratelimit``: two workers, ``RATE_LIMIT="10 per minute"``: 40 creates in about
  10 s, a restart on the same database, 10 more, then 6 from each of two clients
  behind a trusted proxy (``X-Forwarded-For``; ``TRUSTED_PROXIES=127.0.0.1``);
* ``frozen``: PostgreSQL frozen (SIGSTOP on a throwaway cluster of
  ``tests/pg_cluster.py``): 48 requests at once over a page that needs no
  database, a static file, the home page and a house rule (25 s timeout); then
  how long until ``/`` answers 200 after the thaw.

The timing clients pause 50 ms between requests: they measure, they are not the
load. The server runs with ``ginrules serve``'s own defaults (2 workers x 16
threads) unless ``--workers``/``--threads`` say otherwise (the issue's figures for
slow clients and PDFs match ``--workers 2 --threads 4``, 8 threads in all); the
ratelimit scenario always runs two workers. The machine's load average is printed
with every scenario: timing on a shared machine is noisy.
"""

from __future__ import annotations

import argparse
import http.client
import importlib
import json
import math
import os
import re
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import traceback
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
SCENARIOS = ("versions", "slow", "pdf", "ratelimit", "frozen")
#: Seconds to wait for a server to say where it is and answer its first request.
STARTUP_SECONDS = 90
ADDRESS = re.compile(r"ginrules is at (http://\S+?)/ ")
SMALL_RULE = (
    "name: Bench {n}\nauthor: bench\ndescription: A benchmark house rule.\n"
    "extends: classic\nhand_scoring:\n  gin_bonus: {bonus}\n"
)

#: Run in the measured checkout: one house rule with argv[1] versions (argv[2] "1": 64 KiB
#: each), saved through that checkout's own saving functions and store. Ten texts in
#: turn, each parsed once: every version differs from the one before it.
SEED = r"""
import json, sys, time
from ginrules.web import create_app, saving

count, big = int(sys.argv[1]), sys.argv[2] == "1"

def text(key):
    head = (
        f"name: Bench versions\nauthor: bench\ndescription: Many versions.\n"
        f"extends: classic\nhand_scoring:\n  gin_bonus: {20 + key}\n"
    )
    if not big:
        return head
    note = f"note {key} " + "padding words " * 34
    head += "notes:\n" + "".join(f"  - {note.strip()} {i}\n" for i in range(50))
    pad = "# " + "comment padding " * 4 + "\n"
    while len(head) + len(pad) < 64000:
        head += pad
    return head

parsed = {}
def ruleset(n):
    key = n % 10
    if key not in parsed:
        body = text(key)
        found, problems, base = saving.read_yaml(body)
        if found is None:
            raise SystemExit(f"the seed text does not validate: {problems[:2]}")
        parsed[key] = (found, body, base)
    return parsed[key]

app = create_app()
store = app.extensions["ginrules.store"]
start = time.perf_counter()
refused = ""
with app.app_context():
    found, body, base = ruleset(0)
    slug = saving.save_new(store, found, body, base, None).version.slug
    saved = 1
    for n in range(1, count):
        found, body, base = ruleset(n)
        try:
            saving.save_version(store, slug, found, body, base)
        except Exception as error:
            refused = f"{type(error).__name__}: {error}"
            break
        saved += 1
print(json.dumps({"slug": slug, "saved": saved, "refused": refused,
                  "seconds": time.perf_counter() - start, "bytes": len(ruleset(0)[1])}))
"""


# -- figures -------------------------------------------------------------------------------


@dataclass
class Figures:
    """The rows of the final table: (scenario, measure, value)."""

    rows: list[list[str]] = field(default_factory=list)
    scenario: str = ""

    def add(self, measure: str, value: object) -> None:
        number = isinstance(value, int | float) and not isinstance(value, bool)
        shown = f"{value:,.0f}" if number else str(value)
        self.rows.append([self.scenario, measure, shown])
        print(f"  {measure}: {shown}", file=sys.stderr, flush=True)

    def load(self) -> None:
        one, five, _ = os.getloadavg()
        self.add("machine load (1 min / 5 min)", f"{one:.2f} / {five:.2f}")

    def timings(self, label: str, answers: Sequence[Answer]) -> None:
        """Count, statuses, p50/p99/max in ms of ``answers``."""
        if not answers:
            self.add(f"{label}: requests", 0)
            return
        ms = [a.seconds * 1000 for a in answers]
        self.add(f"{label}: requests", len(answers))
        self.add(f"{label}: statuses", statuses(answers))
        self.add(
            f"{label}: p50 / p99 / max ms",
            f"{pct(ms, 50):,.0f} / {pct(ms, 99):,.0f} / {max(ms):,.0f}",
        )


def pct(values: Sequence[float], q: float) -> float:
    """The ``q``-th percentile (nearest rank) of ``values``."""
    ordered = sorted(values)
    rank = max(0, min(len(ordered) - 1, math.ceil(q / 100 * len(ordered)) - 1))
    return ordered[rank]


def statuses(answers: Sequence[Answer]) -> str:
    counted = Counter(a.status for a in answers)
    return ", ".join(f"{n} x {status}" for status, n in sorted(counted.items()))


# -- HTTP ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Answer:
    path: str
    #: The HTTP status, or "timeout" / the error's class name when none came.
    status: str
    seconds: float
    size: int = 0
    headers: Mapping[str, str] = field(default_factory=dict)
    body: bytes = b""


def request(
    base: str,
    path: str,
    *,
    timeout: float,
    method: str = "GET",
    body: bytes | None = None,
    headers: Mapping[str, str] | None = None,
) -> Answer:
    """One request over a fresh connection, timed from connect to the body's last byte."""
    host, port = base.removeprefix("http://").split(":")
    start = time.perf_counter()
    connection = http.client.HTTPConnection(host, int(port), timeout=timeout)
    try:
        connection.request(method, path, body=body, headers=dict(headers or {}))
        response = connection.getresponse()
        data = response.read()
        status = str(response.status)
        seen = {k.lower(): v for k, v in response.getheaders()}
    except TimeoutError:
        return Answer(path, "timeout", time.perf_counter() - start)
    except (OSError, http.client.HTTPException) as error:
        return Answer(path, type(error).__name__, time.perf_counter() - start)
    finally:
        connection.close()
    return Answer(path, status, time.perf_counter() - start, len(data), seen, data)


def create(base: str, text: str, headers: Mapping[str, str] | None = None) -> Answer:
    """``POST /api/houserules`` with ``text`` as the JSON body's ``yaml``."""
    return request(
        base,
        "/api/houserules",
        method="POST",
        body=json.dumps({"yaml": text}).encode(),
        headers={"Content-Type": "application/json", **(headers or {})},
        timeout=30,
    )


def created_slug(answer: Answer) -> str:
    if answer.status != "201":
        raise SystemExit(f"a save answered {answer.status}: {answer.body[:300]!r}")
    return str(json.loads(answer.body)["slug"])


#: Seconds between two timed requests of one client: a timing client, not a load.
PACE = 0.05


def keep_timing(
    base: str, paths: Sequence[str], until: Callable[[], bool], timeout: float
) -> list[Answer]:
    """GET ``paths`` in turn, one at a time and ``PACE`` apart, until ``until()`` says stop."""
    answers: list[Answer] = []
    n = 0
    while not until():
        answers.append(request(base, paths[n % len(paths)], timeout=timeout))
        n += 1
        time.sleep(PACE)
    return answers


# -- the server ---------------------------------------------------------------------------


@dataclass
class Server:
    process: subprocess.Popen[str]
    lines: list[str] = field(default_factory=list)
    base: str = ""

    def rss_mb(self) -> tuple[float, float]:
        """(all processes, the largest one) resident memory in MB of the server's group."""
        sizes = []
        for entry in Path("/proc").iterdir():
            if not entry.name.isdigit():
                continue
            try:
                stat = (entry / "stat").read_text()
                if int(stat.rsplit(")", 1)[1].split()[2]) != self.process.pid:
                    continue
                for line in (entry / "status").read_text().splitlines():
                    if line.startswith("VmRSS:"):
                        sizes.append(int(line.split()[1]) / 1024)
            except (OSError, ValueError, IndexError):
                continue
        return sum(sizes), max(sizes, default=0.0)

    def tail(self) -> str:
        return "".join(self.lines[-30:])


@dataclass
class Setup:
    """How to start the measured checkout."""

    python: str
    source: Path
    workers: int | None
    threads: int | None

    def env(self, folder: Path, extra: Mapping[str, str]) -> dict[str, str]:
        env = {
            key: value
            for key, value in os.environ.items()
            if key not in ("PUBLIC_BASE_URL", "DATABASE_URL", "XDG_RUNTIME_DIR", "PYTHONPATH")
        }
        env.update(
            {
                "PYTHONPATH": str(self.source),
                "GINRULES_INSTANCE": str(folder / "instance"),
                "HOME": str(folder / "home"),
                "DATABASE_URL": f"sqlite:///{folder / 'bench.db'}",
                "SECRET_KEY": "bench",
                "RATE_LIMIT": "1000000 per minute",
                "CHECK_RATE_LIMIT": "1000000 per minute",
                "MAX_VERSIONS": "1000000",
                "DAILY_SAVE_BYTES": str(1 << 40),
            }
        )
        env.update(extra)
        (folder / "home").mkdir(parents=True, exist_ok=True)
        return env

    def python_run(self, args: Sequence[str], env: Mapping[str, str], timeout: float) -> str:
        """``python ARGS`` in the measured checkout; its output (exit on failure)."""
        done = subprocess.run(
            [self.python, *args],
            cwd=self.source,
            env=dict(env),
            capture_output=True,
            text=True,
            timeout=timeout,
        )
        if done.returncode:
            shown = "the seeding script" if args[0] == "-c" else " ".join(args)
            raise SystemExit(f"{shown} failed:\n{done.stdout}{done.stderr}")
        return done.stdout

    def serve_args(self, workers: int | None = None) -> list[str]:
        chosen = workers or self.workers
        return [
            *(["--workers", str(chosen)] if chosen else []),
            *(["--threads", str(self.threads)] if self.threads else []),
        ]

    @contextmanager
    def serve(self, env: Mapping[str, str], workers: int | None = None) -> Iterator[Server]:
        """``ginrules serve --port 0`` until the block ends; stopped whatever happened."""
        command = [self.python, "-m", "ginrules", "serve", "--port", "0", *self.serve_args(workers)]
        process = subprocess.Popen(
            command,
            cwd=self.source,  # python -m puts the working folder first on sys.path
            env=dict(env),
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            start_new_session=True,
        )
        server = Server(process)

        def read() -> None:
            assert process.stdout is not None
            for line in process.stdout:
                server.lines.append(line)

        reader = threading.Thread(target=read, daemon=True)
        reader.start()
        try:
            server.base = started(server)
            yield server
        finally:
            stop(process)
            reader.join(timeout=5)
            if process.stdout is not None:
                process.stdout.close()


def started(server: Server) -> str:
    """Wait until the server says where it is and answers ``/``; its base URL."""
    deadline = time.monotonic() + STARTUP_SECONDS
    base = ""
    while time.monotonic() < deadline and server.process.poll() is None:
        if not base:
            for line in list(server.lines):
                found = ADDRESS.search(line)
                if found:
                    port = int(found[1].rsplit(":", 1)[1])
                    base = f"http://127.0.0.1:{port}"
        if base and request(base, "/", timeout=5).status == "200":
            return base
        time.sleep(0.2)
    raise SystemExit("the server did not start:\n" + server.tail())


def stop(process: subprocess.Popen[str]) -> None:
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGTERM)
    try:
        process.wait(timeout=20)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait(timeout=10)


def upgrade(setup: Setup, env: Mapping[str, str]) -> None:
    setup.python_run(["-m", "ginrules", "db", "upgrade"], env, timeout=120)


# -- scenarios ----------------------------------------------------------------------------


def scenario_versions(setup: Setup, args: argparse.Namespace, figures: Figures) -> None:
    with tempfile.TemporaryDirectory(prefix="ginrules-bench-") as name:
        env = setup.env(Path(name), {})
        upgrade(setup, env)
        seeded = json.loads(
            setup.python_run(
                ["-c", SEED, str(args.versions), "1" if args.big_versions else "0"],
                env,
                timeout=900,
            )
        )
        slug = seeded["slug"]
        figures.add(
            "versions saved (bytes of YAML each)", f"{seeded['saved']:,} ({seeded['bytes']:,})"
        )
        if seeded["refused"]:
            figures.add("the save after them refused", seeded["refused"][:80])
        figures.add("seconds to save them", f"{seeded['seconds']:.1f}")
        with setup.serve(env) as server:
            request(server.base, f"/h/{slug}", timeout=30)
            figures.add(
                "server RSS MB before (all / largest)", "{:,.0f} / {:,.0f}".format(*server.rss_mb())
            )
            half = args.versions_budget / 2
            for path in (f"/h/{slug}/versions", f"/api/houserules/{slug}/versions"):
                stop_at = time.monotonic() + half
                answers: list[Answer] = []
                # A request starts only when the budget left would hold one as long as the last.
                last = 0.0
                while len(answers) < args.version_requests and stop_at - time.monotonic() > last:
                    answers.append(request(server.base, path, timeout=30))
                    last = answers[-1].seconds
                label = path.replace(slug, "<slug>")
                figures.timings(label, answers)
                sizes = [a.size for a in answers if a.status == "200"]
                figures.add(f"{label}: bytes of a 200 answer", f"{sizes[-1]:,}" if sizes else "-")
            figures.add(
                "server RSS MB after (all / largest)", "{:,.0f} / {:,.0f}".format(*server.rss_mb())
            )


@dataclass
class SlowClients:
    """``count`` slow connections: the even ones send a header line a second, the odd ones
    a body a byte a second. One the server closes is opened again (up to ten times
    ``count`` in all), so ``count`` keep trickling; ``closed`` has the seconds each one
    the server closed had been open (seen at the next send: about a second late)."""

    base: str
    count: int
    closed: list[float] = field(default_factory=list)
    opens: int = 0
    ready: threading.Event = field(default_factory=threading.Event)

    def open(self, n: int) -> tuple[socket.socket, float] | None:
        host, port = self.base.removeprefix("http://").split(":")
        if n % 2:
            head = (
                f"POST /api/houserules HTTP/1.1\r\nHost: {host}:{port}\r\n"
                "Content-Type: application/json\r\nContent-Length: 4096\r\n\r\n"
            )
        else:
            head = f"GET /rules/classic HTTP/1.1\r\nHost: {host}:{port}\r\n"
        self.opens += 1
        opened = time.monotonic()
        try:
            sock = socket.create_connection((host, int(port)), timeout=5)
        except OSError:
            self.closed.append(0.0)
            return None
        try:
            sock.sendall(head.encode())
        except OSError:
            self.closed.append(time.monotonic() - opened)
            sock.close()
            return None
        return sock, opened

    def run(self, seconds: float) -> None:
        """Trickle for ``seconds``, then close every connection."""
        slow = [self.open(n) for n in range(self.count)]
        self.ready.set()
        end = time.monotonic() + seconds
        tick = 0
        while time.monotonic() < end:
            time.sleep(1)
            tick += 1
            for n, held in enumerate(slow):
                if held is None:
                    if self.opens < 10 * self.count:
                        slow[n] = self.open(n)
                    continue
                sock, opened = held
                try:
                    sock.sendall(b"{" if n % 2 else f"X-Slow-{tick}: {tick}\r\n".encode())
                except OSError:
                    self.closed.append(time.monotonic() - opened)
                    sock.close()
                    slow[n] = self.open(n) if self.opens < 10 * self.count else None
        for held in slow:
            if held is not None:
                held[0].close()


def scenario_slow(setup: Setup, args: argparse.Namespace, figures: Figures) -> None:
    with tempfile.TemporaryDirectory(prefix="ginrules-bench-") as name:
        env = setup.env(Path(name), {})
        with setup.serve(env) as server:
            paths = ["/rules/classic", "/"]
            for path in paths:
                request(server.base, path, timeout=30)
            measure = args.slow_seconds
            slow = SlowClients(server.base, args.slow_connections)
            trickling = threading.Thread(target=slow.run, args=(measure + 4,), daemon=True)
            trickling.start()
            slow.ready.wait(30)
            time.sleep(2)  # every slow connection has sent something
            end = time.monotonic() + measure
            with ThreadPoolExecutor(2) as pool:
                runs = [
                    pool.submit(
                        keep_timing,
                        server.base,
                        paths[n:] + paths[:n],
                        lambda: time.monotonic() > end,
                        5,
                    )
                    for n in range(2)
                ]
                answers = [a for run in runs for a in run.result()]
            trickling.join(timeout=30)
            closed = slow.closed
            fast = sum(1 for a in answers if a.status == "200" and a.seconds <= 1)
            late = sum(1 for a in answers if a.status == "200" and a.seconds > 1)
            timed_out = sum(1 for a in answers if a.status == "timeout")
            figures.add(
                "slow connections (opened in all)", f"{args.slow_connections} ({slow.opens})"
            )
            figures.add(
                "closed by the server (after s: min / median / max)",
                f"{len(closed)} ({min(closed):.0f} / {statistics.median(closed):.0f}"
                f" / {max(closed):.0f})"
                if closed
                else "0",
            )
            figures.timings("normal GETs (5 s timeout, 2 clients)", answers)
            figures.add(
                "answered <= 1 s / > 1 s / timed out (> 5 s)", f"{fast} / {late} / {timed_out}"
            )


def scenario_pdf(setup: Setup, args: argparse.Namespace, figures: Figures) -> None:
    with tempfile.TemporaryDirectory(prefix="ginrules-bench-") as name:
        # One public address for both servers: a PDF's links and QR code name it, so a
        # restart on another port would otherwise make different PDFs.
        env = setup.env(Path(name), {"PUBLIC_BASE_URL": "http://ginrules.bench.example"})
        with setup.serve(env) as server:
            slugs = [
                created_slug(create(server.base, SMALL_RULE.format(n=n, bonus=20 + n)))
                for n in range((args.pdfs + 1) // 2)
            ]
            html = ["/rules/classic", f"/h/{slugs[0]}/v1/share"]
            for path in html:
                request(server.base, path, timeout=30)
            variants = ("?paper=a4", "?paper=letter&large=1")
            pdfs = [f"/h/{slug}/v1/sheet.pdf{v}" for slug in slugs for v in variants][: args.pdfs]
            with ThreadPoolExecutor(len(pdfs) + 1) as pool:
                start = time.perf_counter()
                futures = [pool.submit(request, server.base, p, timeout=120) for p in pdfs]
                answers = keep_timing(
                    server.base, html, lambda: all(f.done() for f in futures), timeout=30
                )
                rendered = [f.result() for f in futures]
                all_done = time.perf_counter() - start
            figures.add("concurrent uncached PDFs", len(pdfs))
            figures.timings("HTML while they render", answers)
            figures.timings("PDFs", rendered)
            retry = sorted(
                {a.headers.get("retry-after", "") for a in rendered if a.status == "503"}
            )
            if retry:
                figures.add("PDF 503 Retry-After", ", ".join(retry))
            figures.add("seconds until every PDF answered", f"{all_done:.1f}")
        again = next((a.path for a in rendered if a.status == "200"), pdfs[0])
        with setup.serve(env) as server:
            figures.timings(
                "one of them after a restart", [request(server.base, again, timeout=120)]
            )


def scenario_ratelimit(setup: Setup, args: argparse.Namespace, figures: Figures) -> None:
    limit = "10 per minute"
    with tempfile.TemporaryDirectory(prefix="ginrules-bench-") as name:
        env = setup.env(Path(name), {"RATE_LIMIT": limit, "TRUSTED_PROXIES": "127.0.0.1"})
        figures.add("RATE_LIMIT, workers", f"{limit}, 2")
        with setup.serve(env, workers=2) as server:
            first = fire(server.base, 40, 10.0)
        figures.add("40 creates in 10 s: statuses", statuses(first))
        with setup.serve(env, workers=2) as server:
            after = fire(server.base, 10, 2.5)
            figures.add("after a restart, 10 more: statuses", statuses(after))
            for client in ("203.0.113.1", "203.0.113.2"):
                proxied = fire(server.base, 6, 1.5, {"X-Forwarded-For": client})
                figures.add(f"6 via the proxy for {client}: statuses", statuses(proxied))


def fire(
    base: str, count: int, seconds: float, headers: Mapping[str, str] | None = None
) -> list[Answer]:
    """``count`` creates, one at a time on fresh connections, spread over ``seconds``."""
    answers = []
    start = time.monotonic()
    for n in range(count):
        time.sleep(max(0.0, start + n * seconds / count - time.monotonic()))
        text = SMALL_RULE.format(n=n, bonus=20 + n % 50)
        answers.append(create(base, text, headers))
    return answers


def scenario_frozen(setup: Setup, args: argparse.Namespace, figures: Figures) -> None:
    if not (ROOT / "tests" / "pg_cluster.py").exists():
        figures.add("skipped", "tests/pg_cluster.py does not exist")
        return
    sys.path.insert(0, str(ROOT))
    pg_cluster = importlib.import_module("tests.pg_cluster")  # a throwaway PostgreSQL
    reason = pg_cluster.unavailable()
    if reason:
        figures.add("skipped", reason)
        return
    with (
        tempfile.TemporaryDirectory(prefix="ginrules-bench-") as name,
        pg_cluster.throwaway_cluster(Path(name) / "pg") as cluster,
    ):
        env = setup.env(Path(name), {"DATABASE_URL": str(cluster.url)})
        with setup.serve(env) as server:
            slug = created_slug(create(server.base, SMALL_RULE.format(n=1, bonus=21)))
            for n in range(2, 4):
                create(server.base, SMALL_RULE.format(n=n, bonus=20 + n))
            paths = ["/rules/classic", "/static/site.css", "/", f"/h/{slug}"]
            for path in paths:
                request(server.base, path, timeout=30)
            cluster.freeze()
            try:
                with ThreadPoolExecutor(args.parallel) as pool:
                    futures = [
                        pool.submit(request, server.base, paths[n % len(paths)], timeout=25)
                        for n in range(args.parallel)
                    ]
                    answers = [f.result() for f in futures]
            finally:
                cluster.thaw()
            figures.add("requests at once, PostgreSQL frozen", args.parallel)
            for path in paths:
                figures.timings(
                    path.replace(slug, "<slug>"), [a for a in answers if a.path == path]
                )
            figures.add("after the thaw, / answers 200 within", back_again(server.base, 30))


def back_again(base: str, seconds: float) -> str:
    """How long until ``/`` answers 200 (asked every 0.25 s), or what it answered last."""
    start = time.monotonic()
    answer = request(base, "/", timeout=seconds)
    while answer.status != "200" and time.monotonic() - start < seconds:
        time.sleep(0.25)
        answer = request(base, "/", timeout=seconds)
    waited = time.monotonic() - start
    if answer.status == "200":
        return f"{waited * 1000:,.0f} ms"
    return f"still {answer.status} after {waited:.0f} s"


RUNS: dict[str, Callable[[Setup, argparse.Namespace, Figures], None]] = {
    "versions": scenario_versions,
    "slow": scenario_slow,
    "pdf": scenario_pdf,
    "ratelimit": scenario_ratelimit,
    "frozen": scenario_frozen,
}


# -- main ---------------------------------------------------------------------------------


def table(rows: list[list[str]]) -> str:
    """A header row, a rule, then the rows; the last column right-aligned, the others left."""
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    lines = []
    for n, row in enumerate(rows):
        cells = [cell.ljust(w) for cell, w in zip(row[:-1], widths, strict=False)]
        lines.append("  ".join([*cells, row[-1].rjust(widths[-1])]))
        if n == 0:
            lines.append("  ".join("-" * w for w in widths))
    return "\n".join(lines)


def describe(source: Path) -> str:
    """The checkout's commit, and whether its files differ from it."""

    def git(*words: str) -> str:
        done = subprocess.run(["git", "-C", str(source), *words], capture_output=True, text=True)
        return done.stdout.strip()

    commit = git("rev-parse", "--short", "HEAD") or "unknown commit"
    changed = [line for line in git("status", "--short").splitlines() if line]
    return f"{commit}" + (f" with {len(changed)} changed/new files" if changed else "")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--python", default=sys.executable, help="the interpreter (this one)")
    parser.add_argument(
        "--source", type=Path, default=ROOT, help="the checkout to measure (this one)"
    )
    parser.add_argument(
        "--only", default=",".join(SCENARIOS), help=f"comma-separated: {','.join(SCENARIOS)}"
    )
    parser.add_argument("--workers", type=int, help="ginrules serve --workers (its default)")
    parser.add_argument("--threads", type=int, help="ginrules serve --threads (its default)")
    parser.add_argument("--versions", type=int, default=1100, help="versions (1,100)")
    parser.add_argument("--big-versions", action="store_true", help="64 KiB versions")
    parser.add_argument(
        "--version-requests", type=int, default=5, help="requests per versions URL (5)"
    )
    parser.add_argument(
        "--versions-budget", type=float, default=90, help="seconds for both URLs (90)"
    )
    parser.add_argument("--slow-connections", type=int, default=64, help="slow connections (64)")
    parser.add_argument("--slow-seconds", type=float, default=15, help="seconds timed (15)")
    parser.add_argument("--pdfs", type=int, default=16, help="concurrent uncached PDFs (16)")
    parser.add_argument("--parallel", type=int, default=48, help="requests at once, frozen (48)")
    parser.add_argument("--json", action="store_true", help="print the rows as JSON")
    args = parser.parse_args()
    numbers = (args.versions, args.version_requests, args.slow_connections, args.pdfs)
    if min(*numbers, args.parallel, args.versions_budget, args.slow_seconds) < 1:
        parser.error("every number must be at least 1")
    chosen = [name.strip() for name in args.only.split(",") if name.strip()]
    unknown = sorted(set(chosen) - set(SCENARIOS))
    if unknown:
        parser.error(
            f"unknown scenario(s) {', '.join(unknown)}; choose from {', '.join(SCENARIOS)}"
        )
    setup = Setup(args.python, args.source.resolve(), args.workers, args.threads)
    serve = "ginrules serve " + (" ".join(setup.serve_args()) or "(its defaults)")
    print(
        f"source {setup.source} ({describe(setup.source)}); {serve}; {os.cpu_count()} cores",
        file=sys.stderr,
    )
    figures = Figures()
    began = time.monotonic()
    for name in chosen:
        figures.scenario = name
        print(f"== {name}", file=sys.stderr, flush=True)
        figures.load()
        start = time.monotonic()
        try:
            RUNS[name](setup, args, figures)
        except SystemExit as failed:  # one scenario's failure does not stop the others
            figures.add("FAILED", str(failed.code).splitlines()[0][:100])
            print(failed.code, file=sys.stderr)
        except Exception as error:  # a half-finished checkout may answer anything
            figures.add("FAILED", f"{type(error).__name__}: {error}"[:100])
            traceback.print_exc()
        figures.add("seconds for the scenario", f"{time.monotonic() - start:.0f}")
    if args.json:
        print(
            json.dumps(
                [
                    dict(zip(("scenario", "measure", "value"), row, strict=True))
                    for row in figures.rows
                ],
                indent=2,
            )
        )
        return 0
    print(f"source {setup.source} ({describe(setup.source)}); {serve}; {os.cpu_count()} cores")
    print(table([["scenario", "measure", "value"], *figures.rows]))
    print(f"{time.monotonic() - began:.0f} s in all")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
