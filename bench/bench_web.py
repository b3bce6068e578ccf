"""Requests per second for the site under gunicorn, beside a hello-world Flask app.

Run with ``bash bench/run.sh web`` (or ``.venv/bin/python bench/bench_web.py``).
Both apps run under the same gunicorn settings on 127.0.0.1, loaded by the same
``wrk`` (Debian's package) with the same connections and duration, one URL at a
time. Measured: ginrules' home page, the classic rule sheet and its QR code, and a
saved house rule version's sheet and QR code (immutable, served from memory).
Target from the issue: sheet and QR pages at least 50% of hello-world's rate.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
BIN = Path(sys.executable).parent
HOUSE_RULE = "name: Bench\nextends: classic\nhand_scoring:\n  gin_bonus: 20\n"


@dataclass
class Result:
    name: str
    path: str
    requests_per_second: float
    p50_ms: float
    p99_ms: float
    errors: int
    of_hello: float = 0.0


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def wait_ready(url: str, seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(url, timeout=2) as response:
                if response.status == 200:
                    return
        except OSError:
            time.sleep(0.2)
    raise SystemExit(f"server at {url} did not answer within {seconds:.0f} s")


@contextmanager
def gunicorn(app: str, port: int, workers: int, threads: int, env: dict[str, str]) -> Iterator[str]:
    command = [
        str(BIN / "gunicorn"),
        "--bind",
        f"127.0.0.1:{port}",
        "--workers",
        str(workers),
        "--threads",
        str(threads),
        "--worker-class",
        "gthread",
        "--log-level",
        "warning",
        "--no-control-socket",
        app,
    ]
    process = subprocess.Popen(command, cwd=HERE, env=env, start_new_session=True)
    base = f"http://127.0.0.1:{port}"
    try:
        wait_ready(base + "/")
        yield base
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()


def wrk(url: str, seconds: int, connections: int) -> tuple[float, float, float, int]:
    out = subprocess.run(
        ["wrk", "-t1", f"-c{connections}", f"-d{seconds}s", "--latency", url],
        check=True,
        capture_output=True,
        text=True,
        timeout=seconds + 60,
    ).stdout
    rate = float(re.search(r"Requests/sec:\s+([\d.]+)", out)[1])  # type: ignore[index]

    def percentile(label: str) -> float:
        match = re.search(rf"^\s+{label}%\s+([\d.]+)(us|ms|s)", out, re.M)
        if not match:
            return float("nan")
        value, unit = float(match[1]), match[2]
        return value / 1000 if unit == "us" else value * 1000 if unit == "s" else value

    errors = re.search(r"Non-2xx or 3xx responses:\s+(\d+)", out)
    return rate, percentile("50"), percentile("99"), int(errors[1]) if errors else 0


def ensure_wrk() -> None:
    if shutil.which("wrk"):
        return
    if os.geteuid() == 0 and shutil.which("apt-get"):
        subprocess.run(["apt-get", "install", "-y", "wrk"], check=True, capture_output=True)
        return
    raise SystemExit("wrk is not installed: apt-get install -y wrk")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=int, default=5, help="wrk duration per URL (5)")
    parser.add_argument("--connections", type=int, default=16, help="wrk connections (16)")
    parser.add_argument("--workers", type=int, default=2, help="gunicorn workers, both apps (2)")
    parser.add_argument("--threads", type=int, default=2, help="threads per worker (2)")
    parser.add_argument("--rounds", type=int, default=3, help="interleaved rounds, best kept (3)")
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    args = parser.parse_args()
    ensure_wrk()
    best: dict[str, Result] = {}

    def measure(name: str, url: str, path: str) -> None:
        # Let the last run's keep-alive connections close (gunicorn's keepalive is
        # 2 s), so no URL starts with the previous one's sockets still open.
        time.sleep(3)
        rate, p50, p99, errors = wrk(url, args.seconds, args.connections)
        if name not in best or rate > best[name].requests_per_second:
            best[name] = Result(name, path, rate, p50, p99, errors)
        if not args.json:
            print(f"  {name:<24} {rate:>9,.0f} req/s", file=sys.stderr)

    hello_env = {**os.environ, "PYTHONPATH": str(HERE)}
    with tempfile.TemporaryDirectory(prefix="ginrules-bench-") as folder:
        port = free_port()
        site_env = {
            **os.environ,
            "GINRULES_INSTANCE": folder,
            "DATABASE_URL": f"sqlite:///{folder}/bench.db",
            "PUBLIC_BASE_URL": f"http://127.0.0.1:{port}",
            "SECRET_KEY": "bench",
            "RATE_LIMIT": "1000000 per minute",
        }
        subprocess.run(
            [str(BIN / "ginrules"), "db", "upgrade"], env=site_env, check=True, capture_output=True
        )
        site = "ginrules.web:create_app()"
        hello_port = free_port()
        with (
            gunicorn("hello_app:app", hello_port, args.workers, args.threads, hello_env) as hello,
            gunicorn(site, port, args.workers, args.threads, site_env) as base,
        ):
            request = urllib.request.Request(
                base + "/api/houserules",
                data=json.dumps({"yaml": HOUSE_RULE}).encode(),
                headers={"Content-Type": "application/json"},
                method="POST",
            )
            with urllib.request.urlopen(request, timeout=30) as response:
                slug = json.load(response)["slug"]
            targets = [
                ("hello world", hello, "/"),
                ("home page", base, "/"),
                ("sheet (classic)", base, "/rules/classic/sheet"),
                ("QR PNG (classic)", base, "/rules/classic/qr.png"),
                ("sheet (saved version)", base, f"/h/{slug}/v1/sheet"),
                ("QR PNG (saved version)", base, f"/h/{slug}/v1/qr.png"),
            ]
            for _, server, path in targets:
                for _ in range(50):  # warm every worker's caches
                    urllib.request.urlopen(server + path, timeout=10).read()
            # Rounds interleave the URLs, so a slow moment of a shared machine
            # hits all of them; the best round of each is reported.
            for number in range(1, args.rounds + 1):
                if not args.json:
                    print(f"round {number} of {args.rounds}", file=sys.stderr)
                for label, server, path in targets:
                    measure(label, server + path, path)
    results = [best[label] for label, _, _ in targets]
    hello_rate = results[0].requests_per_second
    for result in results:
        result.of_hello = result.requests_per_second / hello_rate
    target_met = all(r.of_hello >= 0.5 for r in results if "sheet" in r.name or "QR" in r.name)
    if args.json:
        print(json.dumps({"results": [asdict(r) for r in results], "target_met": target_met}))
        return 0 if target_met else 3
    print(
        f"gunicorn gthread, {args.workers} workers x {args.threads} threads; wrk -t1"
        f" -c{args.connections} -d{args.seconds}s per URL, best of {args.rounds} interleaved"
        " rounds, 127.0.0.1"
    )
    print(f"{'URL':<26} {'req/s':>9} {'p50 ms':>8} {'p99 ms':>8} {'of hello':>9}  errors")
    for r in results:
        print(
            f"{r.name:<26} {r.requests_per_second:>9,.0f} {r.p50_ms:>8.2f} {r.p99_ms:>8.2f}"
            f" {r.of_hello:>8.0%}  {r.errors}"
        )
    print(f"target: sheet and QR pages >= 50% of hello-world: {'met' if target_met else 'NOT MET'}")
    return 0 if target_met else 3


if __name__ == "__main__":
    raise SystemExit(main())
