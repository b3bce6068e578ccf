"""A real ``ginrules serve`` for tests: started as its own process group on 127.0.0.1
(or as asked), its output collected, and stopped when the block ends, whatever happened.

``serve(folder, *args, env={...})`` yields a :class:`Running`; ``running.local`` is
the URL to reach it on this computer once ``wait_ready`` has seen it answer.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

STARTUP_SECONDS = 60
ADDRESS = re.compile(r"ginrules is at (http://\S+?)/ .*point to (http://\S+)\)")


@dataclass
class Running:
    process: subprocess.Popen[str]
    lines: list[str] = field(default_factory=list)

    def wait_for(self, pattern: re.Pattern[str], seconds: float) -> re.Match[str]:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            for line in list(self.lines):
                found = pattern.search(line)
                if found:
                    return found
            if self.process.poll() is not None:
                break
            time.sleep(0.05)
        raise AssertionError("the server did not say where it is:\n" + "".join(self.lines))

    def started(self, seconds: float = STARTUP_SECONDS) -> str:
        """Wait until it answers; the URL to reach it on this computer."""
        listening = self.wait_for(ADDRESS, seconds)[1]
        port = int(listening.rsplit(":", 1)[1])
        local = f"http://127.0.0.1:{port}"
        self.wait_ready(local + "/", seconds)
        return local

    def wait_ready(self, url: str, seconds: float) -> None:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(url, timeout=2) as answer:
                    if answer.status == 200:
                        return
            except OSError:
                time.sleep(0.1)
        raise AssertionError(f"{url} did not answer:\n" + "".join(self.lines))


def environment(tmp_path: Path, extra: Mapping[str, str]) -> dict[str, str]:
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in ("PUBLIC_BASE_URL", "DATABASE_URL", "XDG_RUNTIME_DIR")
    }
    env["GINRULES_INSTANCE"] = str(tmp_path / "instance")
    env["HOME"] = str(tmp_path / "home")  # where gunicorn would put its control socket
    env["RATE_LIMIT"] = "1000 per minute"
    env["DAILY_SAVE_BYTES"] = str(1 << 30)
    env.update(extra)
    return env


@contextmanager
def serve(
    tmp_path: Path,
    *args: str,
    env: Mapping[str, str] | None = None,
    workers: int = 1,
    threads: int = 4,
) -> Iterator[Running]:
    """``ginrules serve ARGS`` (``workers`` processes of ``threads`` threads; ``env`` over
    the test's environment) until the block ends; stopped whatever happened."""
    (tmp_path / "home").mkdir(parents=True, exist_ok=True)
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "ginrules",
            "serve",
            "--workers",
            str(workers),
            "--threads",
            str(threads),
            *args,
        ],
        env=environment(tmp_path, env or {}),
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )
    running = Running(process)

    def read() -> None:
        assert process.stdout is not None
        for line in process.stdout:
            running.lines.append(line)

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    try:
        yield running
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=10)
        reader.join(timeout=5)
        if process.stdout is not None:
            process.stdout.close()
