"""Entering a hand at a card table, and reading the score, under gunicorn on 127.0.0.1.

The site runs as ``make run`` runs it (gunicorn, gthread workers) on a SQLite
file, or on PostgreSQL with ``--database-url``. ``--tables`` tables are
started at once, and every table has ``--followers`` other phones following
it live, as the table page does (a Server-Sent Events stream each, reconnecting
when the server ends it). Then ``--clients`` client threads, each its own
phone, enter hands at random tables (a knock, counted by the engine: the table
replays its whole log, so later hands cost more than early ones). It prints
the latency of an entry and the time until every follower of that table has
been pushed the new score, p50 / p90 / p99, and the entries per second.
Bounded: ``--hands`` entries in all, every wait timed out.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import statistics
import subprocess
import tempfile
import threading
import time
import urllib.error
import urllib.request
from contextlib import ExitStack
from typing import Any

from bench_web import BIN, free_port, gunicorn
from benchlib import format_table, versions


def _call(url: str, data: dict[str, Any] | None = None, key: str = "") -> tuple[int, Any]:
    headers = {"Content-Type": "application/json"}
    if key:
        headers["X-Scorer-Key"] = key
    body = None if data is None else json.dumps(data).encode()
    request = urllib.request.Request(url, data=body, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"null")


def _percentiles(values: list[float]) -> list[str]:
    ordered = sorted(values)
    cut = statistics.quantiles(ordered, n=100, method="inclusive")
    return [f"{1000 * v:.1f}" for v in (cut[49], cut[89], cut[98])]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=100, help="tables open at once (100)")
    parser.add_argument("--hands", type=int, default=2000, help="entries in all (2000)")
    parser.add_argument("--clients", type=int, default=8, help="entering phones at once (8)")
    parser.add_argument("--workers", type=int, default=2, help="gunicorn workers (2)")
    parser.add_argument("--followers", type=int, default=2, help="live phones per table (2)")
    parser.add_argument(
        "--threads", type=int, default=128, help="threads per worker (128: a stream holds one)"
    )
    parser.add_argument("--database-url", default="", help="PostgreSQL URL (default: SQLite)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    args.reuse_port = False  # bench_web's gunicorn() reads it
    if min(args.tables, args.hands, args.clients, args.workers, args.threads) < 1:
        parser.error("every number must be at least 1")

    with tempfile.TemporaryDirectory(prefix="ginrules-bench-") as folder, ExitStack() as servers:
        port = free_port()
        env = {
            **os.environ,
            "GINRULES_INSTANCE": folder,
            "DATABASE_URL": args.database_url or f"sqlite:///{folder}/bench.db",
            "PUBLIC_BASE_URL": f"http://127.0.0.1:{port}",
            "SECRET_KEY": "bench",
            "RATE_LIMIT": "100000000 per minute",
            "LIVE_STREAMS": str(args.threads - 8),
        }
        subprocess.run([str(BIN / "ginrules"), "db", "upgrade"], env=env, check=True)
        base = servers.enter_context(gunicorn("ginrules.web:create_app()", port, args, env))

        tables: list[dict[str, Any]] = []
        for n in range(args.tables):
            status, data = _call(
                base + "/api/tables",
                {"rules": "classic", "players": [f"A{n}", f"B{n}"], "first_dealers": [0]},
            )
            assert status == 201, data
            tables.append(
                {"slug": data["slug"], "key": data["scorer_key"], "lock": threading.Lock()}
            )

        entries: list[float] = []
        updates: list[float] = []
        longest = [0]
        remaining = [args.hands]
        counter = threading.Lock()
        rng = random.Random(args.seed)
        picks = [rng.randrange(args.tables) for _ in range(args.hands)]
        pushed = threading.Condition()
        #: (table, change number) -> how many followers have been pushed it.
        arrivals: dict[tuple[int, int], int] = {}
        stopping = threading.Event()

        def follow(index: int) -> None:
            """One phone following table ``index``: a stream, again when it ends."""
            slug, after = tables[index]["slug"], 0
            while not stopping.is_set():
                connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
                try:
                    connection.request("GET", f"/api/tables/{slug}/live?after={after}")
                    response = connection.getresponse()
                    assert response.status == 200, response.status
                    while not stopping.is_set():
                        line = response.fp.readline()
                        if not line:
                            break  # the server ended the stream: open the next
                        if line.startswith(b"id: "):
                            after = int(line[4:])
                            with pushed:
                                arrivals[(index, after)] = arrivals.get((index, after), 0) + 1
                                pushed.notify_all()
                except OSError:
                    time.sleep(0.2)
                finally:
                    connection.close()

        followers = [
            threading.Thread(target=follow, args=(n,), daemon=True)
            for n in range(args.tables)
            for _ in range(args.followers)
        ]
        for thread in followers:
            thread.start()
        time.sleep(2.0)  # every phone is following before the first hand

        def phone() -> None:
            while True:
                with counter:
                    if remaining[0] == 0:
                        return
                    remaining[0] -= 1
                    index = picks[remaining[0]]
                    table = tables[index]
                with table["lock"]:  # one scorer per table at a time, as at a real table
                    url = f"{base}/api/tables/{table['slug']}"
                    status, now = _call(url)
                    if now["finished"]:
                        continue
                    seat = now["next_deal"]["hands"][0]["seats"][0]
                    event = {
                        "kind": "hand",
                        "entries": [
                            {
                                "end": "knock",
                                "ended_by": seat,
                                "knocker_deadwood": 2,
                                "defender_deadwood": 5,
                            }
                        ],
                    }
                    start = time.perf_counter()
                    status, after = _call(
                        url + "/events", {"seen": now["last_event"], "event": event}, table["key"]
                    )
                    entered = time.perf_counter()
                    assert status == 201, after
                    number = after["last_event"]
                    arrived = (index, number)
                    with pushed:
                        reached = pushed.wait_for(
                            lambda at=arrived: arrivals.get(at, 0) >= args.followers,  # type: ignore[misc]
                            30,
                        )
                    assert reached, f"table {index} change {number} did not reach its phones"
                    done = time.perf_counter()
                    with counter:
                        entries.append(entered - start)
                        updates.append(done - start)
                        longest[0] = max(longest[0], number)

        started = time.perf_counter()
        threads = [threading.Thread(target=phone) for _ in range(args.clients)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        seconds = time.perf_counter() - started
        stopping.set()

    database = "PostgreSQL" if args.database_url else "SQLite"
    print(
        f"card tables: {args.tables} open, {len(entries)} hands entered by {args.clients}"
        f" phones, {database}, gunicorn {args.workers} workers x {args.threads} threads,"
        f" {args.followers} phones following every table live"
    )
    print(f"longest log: {longest[0]} changes (each entry replays its table's whole log)")
    rows = [
        ["ms", "p50", "p90", "p99"],
        ["enter a hand", *_percentiles(entries)],
        [f"... and its {args.followers} followers are pushed it", *_percentiles(updates)],
    ]
    print(format_table(rows))
    print(f"{len(entries) / seconds:.0f} hands entered per second")
    print(json.dumps(versions(["flask", "gunicorn", "sqlalchemy"])))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
