"""A throwaway PostgreSQL server for tests that must freeze or break one.

``throwaway_cluster(folder)`` makes a new cluster (``initdb``) in a folder of its
own, starts ``postgres`` on a free port of 127.0.0.1 (as the ``postgres`` user
when we are root: the server refuses to run as root), creates a role and a
database, and yields a :class:`Cluster`: its SQLAlchemy ``url``, ``freeze()``
(SIGSTOP to the server and every process it started, as a network partition or a
hung machine looks to a client: the kernel still accepts and acknowledges TCP,
nothing answers) and ``thaw()``. Whatever happens, the server is thawed, stopped
and its files removed when the block ends. ``folder`` keeps the server's log.

The shared test server (``scripts/postgres-test-db.sh``) is never touched.
"""

from __future__ import annotations

import contextlib
import os
import pwd
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

import psycopg

BIN: Final = Path(os.environ.get("GINRULES_PG_BIN", "/usr/lib/postgresql/15/bin"))
ROLE: Final = "ginrules"
PASSWORD: Final = "ginrules-throwaway"
DATABASE: Final = "ginrules"
#: How long the server may take to start, or to stop before it is killed.
START_SECONDS: Final = 30.0
STOP_SECONDS: Final = 10.0


class ClusterUnavailable(RuntimeError):
    """PostgreSQL's programs are not installed here (tests skip, and fail under CI=true)."""


def unavailable() -> str | None:
    """Why no throwaway cluster can be made here, or None when one can."""
    for program in ("initdb", "postgres"):
        if not (BIN / program).is_file():
            return (
                f"PostgreSQL is not installed: no {BIN / program} (apt-get install postgresql-15)"
            )
    if os.geteuid() == 0:
        try:
            pwd.getpwnam("postgres")
        except KeyError:
            return "running as root, but there is no postgres user to run the server as"
    return None


@dataclass
class Cluster:
    """A running throwaway server."""

    #: ``postgresql+psycopg://ginrules:...@127.0.0.1:PORT/ginrules``
    url: str
    port: int
    process: subprocess.Popen[bytes]
    #: The server's log (stdout and stderr).
    log: Path

    def freeze(self) -> None:
        """Stop every process of the server (SIGSTOP): nothing answers, TCP still connects.

        The postmaster first, so it starts nothing new; then its children, each of
        which runs in a session of its own (PostgreSQL makes them group leaders)."""
        os.kill(self.process.pid, signal.SIGSTOP)
        for child in _children(self.process.pid):
            _signal(child, signal.SIGSTOP)

    def thaw(self) -> None:
        """Let every process of the server run again (SIGCONT)."""
        for child in _children(self.process.pid):
            _signal(child, signal.SIGCONT)
        _signal(self.process.pid, signal.SIGCONT)


def _signal(pid: int, number: signal.Signals) -> None:
    with contextlib.suppress(ProcessLookupError):  # it ended meanwhile
        os.kill(pid, number)


def _children(parent: int) -> list[int]:
    """The processes whose parent is ``parent`` (from /proc)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue  # it ended meanwhile
        # pid (comm) state ppid ...: comm may hold spaces and parentheses.
        fields = stat[stat.rindex(")") + 2 :].split()
        if int(fields[1]) == parent:
            found.append(int(entry.name))
    return found


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def _as_server_user() -> dict[str, Any]:
    """Popen arguments that run a program as ``postgres`` when we are root."""
    if os.geteuid() != 0:
        return {}
    user = pwd.getpwnam("postgres")
    return {"user": user.pw_uid, "group": user.pw_gid, "extra_groups": []}


def _own_folder() -> Path:
    """A new folder the server's user may write (a test's tmp_path is root's alone)."""
    home = Path(tempfile.mkdtemp(prefix="ginrules-pg-"))
    if os.geteuid() == 0:
        user = pwd.getpwnam("postgres")
        os.chown(home, user.pw_uid, user.pw_gid)
    return home


def _initdb(home: Path, log: Any) -> None:
    password_file = home / "superuser-password"
    password_file.write_text(PASSWORD + "\n")
    if os.geteuid() == 0:
        user = pwd.getpwnam("postgres")
        os.chown(password_file, user.pw_uid, user.pw_gid)
    subprocess.run(
        [
            str(BIN / "initdb"),
            "--pgdata",
            str(home / "data"),
            "--username",
            "postgres",
            "--pwfile",
            str(password_file),
            "--auth-local",
            "trust",
            "--auth-host",
            "scram-sha-256",
            "--encoding",
            "UTF8",
            "--no-sync",
        ],
        check=True,
        stdout=log,
        stderr=subprocess.STDOUT,
        timeout=START_SECONDS * 2,
        **_as_server_user(),
    )


def _start(home: Path, port: int, log: Any) -> subprocess.Popen[bytes]:
    settings = {
        "listen_addresses": "127.0.0.1",
        "unix_socket_directories": str(home),
        "fsync": "off",
        "full_page_writes": "off",
        "synchronous_commit": "off",
        "max_connections": "60",
        "shared_buffers": "32MB",
    }
    options = [item for key, value in settings.items() for item in ("-c", f"{key}={value}")]
    return subprocess.Popen(
        [str(BIN / "postgres"), "-D", str(home / "data"), "-p", str(port), *options],
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
        **_as_server_user(),
    )


def _superuser(home: Path, port: int) -> str:
    return f"host={home} port={port} user=postgres dbname=postgres"


def _wait_ready(process: subprocess.Popen[bytes], home: Path, port: int, log: Path) -> None:
    deadline = time.monotonic() + START_SECONDS
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"postgres ended at start:\n{log.read_text(errors='replace')}")
        try:
            with psycopg.connect(_superuser(home, port), connect_timeout=2):
                return
        except psycopg.OperationalError:
            time.sleep(0.1)
    raise RuntimeError(f"postgres did not start in {START_SECONDS} s:\n{log.read_text()}")


def _make_database(home: Path, port: int) -> None:
    with psycopg.connect(_superuser(home, port), autocommit=True) as connection:
        connection.execute(f"CREATE ROLE {ROLE} LOGIN PASSWORD '{PASSWORD}'")
        connection.execute(f"CREATE DATABASE {DATABASE} OWNER {ROLE}")


def _stop(process: subprocess.Popen[bytes]) -> None:
    """Thaw, then a fast shutdown; killed (the postmaster and its children) if it hangs."""
    children = _children(process.pid)
    for pid in (*children, process.pid):
        _signal(pid, signal.SIGCONT)
    if process.poll() is None:
        _signal(process.pid, signal.SIGINT)
        try:
            process.wait(timeout=STOP_SECONDS)
            return
        except subprocess.TimeoutExpired:
            pass
    for pid in (process.pid, *_children(process.pid), *children):
        _signal(pid, signal.SIGKILL)
    process.wait(timeout=STOP_SECONDS)


@contextmanager
def throwaway_cluster(folder: Path) -> Iterator[Cluster]:
    """A new PostgreSQL server on 127.0.0.1 for the block; stopped and removed after it,
    whatever happened. Raises :class:`ClusterUnavailable` when PostgreSQL is missing."""
    reason = unavailable()
    if reason:
        raise ClusterUnavailable(reason)
    folder.mkdir(parents=True, exist_ok=True)
    log_path = folder / "postgres.log"
    home = _own_folder()
    process: subprocess.Popen[bytes] | None = None
    try:
        with log_path.open("ab") as log:
            _initdb(home, log)
            port = _free_port()
            process = _start(home, port, log)
        _wait_ready(process, home, port, log_path)
        _make_database(home, port)
        url = f"postgresql+psycopg://{ROLE}:{PASSWORD}@127.0.0.1:{port}/{DATABASE}"
        yield Cluster(url=url, port=port, process=process, log=log_path)
    finally:
        if process is not None:
            _stop(process)
        shutil.rmtree(home, ignore_errors=True)
