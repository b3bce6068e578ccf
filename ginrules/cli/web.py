"""``ginrules serve`` (the site under gunicorn) and ``ginrules db upgrade|status``."""

from __future__ import annotations

import argparse
import os
from typing import Any

from ginrules.cli.common import EXIT_INVALID, EXIT_OK, AddCommand, Output

#: Requests a worker answers before a fresh one takes its place (memory that a heavy
#: request took is given back). A fresh worker starts with cold caches: at full load
#: (thousands of requests a second) 2,000 halved the rate of cached pages, 10,000 costs
#: little and still recycles within minutes when busy ...
MAX_REQUESTS = 10_000
#: ... plus a random number up to this, so the workers do not restart together.
MAX_REQUESTS_JITTER = 1_000


def _store(output: Output, args: argparse.Namespace) -> Any:
    """The store ``ginrules db`` works on, once the database passed the start checks
    (:func:`ginrules.web.db_health.startup_problem`); None, said why, when it did not."""
    from ginrules.web import db_health, settings
    from ginrules.web.storage import Store

    try:
        config = settings.load()
    except settings.SettingsError as error:
        output.problem(f"error: {error}")
        return None
    url, timeout = str(config["DATABASE_URL"]), float(config["DB_TIMEOUT"])
    refused = db_health.startup_problem(url, may_create=_asked_to_create(args), timeout=timeout)
    if refused:
        output.problem(refused)
        return None
    migrating = args.action == "upgrade"  # one migration statement may take long
    return Store(
        url,
        max_versions=int(config["MAX_VERSIONS"]),
        db_timeout=timeout,
        statement_timeout=db_health.MIGRATION_TIMEOUT if migrating else None,
    )


def _asked_to_create(args: argparse.Namespace) -> bool:
    """May an empty database file become a new database? Only when a person runs
    ``ginrules db upgrade`` (its parsed arguments carry :func:`cmd_db`), never at the
    start of ``ginrules serve``; ``create`` in ``args`` says so outright."""
    asked = getattr(args, "create", getattr(args, "handler", None) is cmd_db)
    return bool(asked) and args.action == "upgrade"


def cmd_db(args: argparse.Namespace, output: Output) -> int:
    from ginrules.web.storage import StorageError

    store = _store(output, args)
    if store is None:
        return EXIT_INVALID
    try:
        if args.action == "upgrade":
            applied = store.upgrade()
            done = ", ".join(applied) if applied else "nothing to do"
            output.line(f"database {store.url}: {done}; schema at {store.current()[-1]}")
        else:
            current = store.current()
            output.line(f"database {store.url}: {len(current)} migration(s) applied")
            for name in current:
                output.line(f"  {name}")
            output.line(f"{store.count()} saved house rule(s)")
    except StorageError as error:
        output.problem(f"error: {error}")
        return EXIT_INVALID
    except Exception as error:  # the database is unreachable or refuses us
        output.problem(
            f"error: cannot use the database {store.url}: {error.__class__.__name__}:"
            f" {getattr(error, 'orig', None) or error}"
        )
        return EXIT_INVALID
    finally:
        store.close()
    return EXIT_OK


def cmd_serve(args: argparse.Namespace, output: Output) -> int:
    from gunicorn.app.base import BaseApplication

    from ginrules.web import create_app, network, settings
    from ginrules.web.server import WaitressWorker
    from ginrules.words import serving

    try:  # the socket first: a port in use is one clear error, and port 0 a real port
        listener = network.listen(args.host, args.port)
    except network.PortInUse:
        output.problem(serving.port_in_use(args.host, args.port))
        return EXIT_INVALID
    except OSError as error:
        output.problem(serving.cannot_listen(args.host, args.port, error.strerror or str(error)))
        return EXIT_INVALID
    host, reachable = network.reachable_host(args.host)
    os.environ["GINRULES_THREADS"] = str(args.threads)  # PDFs wait in at most half of them
    if not os.environ.get("PUBLIC_BASE_URL"):  # links and QR codes open where phones reach us
        os.environ["PUBLIC_BASE_URL"] = network.base_url(host, listener.port)
    try:
        config = settings.load()
    except settings.SettingsError as error:
        listener.close()
        output.problem(f"error: {error}")
        return EXIT_INVALID
    if cmd_db(argparse.Namespace(action="upgrade"), output) != EXIT_OK:
        listener.close()
        return EXIT_INVALID
    app = create_app()

    class Server(BaseApplication):  # type: ignore[misc]
        def load_config(self) -> None:
            options = {
                # gunicorn takes the socket opened above; it never binds (nor shares) a port.
                "bind": f"fd://{listener.fd}",
                "workers": args.workers,
                "threads": args.threads,
                # Waitress in each worker reads whole requests before a thread sees them.
                "worker_class": WaitressWorker,
                "max_requests": args.max_requests,
                "max_requests_jitter": args.max_requests_jitter,
                "control_socket_disable": not args.control_socket,
                "control_socket": args.control_socket or None,
                "accesslog": "-" if args.access_log else None,
                "errorlog": "-",
                "timeout": 60,
                "graceful_timeout": 10,
            }
            for key, value in options.items():
                if value is not None and key in self.cfg.settings:
                    self.cfg.set(key, value)

        def load(self) -> Any:
            return app

    public = str(config["PUBLIC_BASE_URL"])
    output.line(serving.serving(network.base_url(args.host, listener.port), public))
    if not network.is_loopback(network.host_of(public)):
        output.line(serving.open_on_phones(public))
    elif args.host in network.ANY_ADDRESS and not reachable:
        output.line(serving.no_lan_address())
    else:
        output.line(serving.loopback_only(public))
    output.line(serving.database(config["DATABASE_URL"].split("@")[-1]))
    os.environ.setdefault("SERVER_SOFTWARE", "gunicorn")
    Server().run()
    return EXIT_OK


def register(add: AddCommand) -> None:
    serve = add(
        "serve",
        cmd_serve,
        "run the web site: gunicorn's workers, each serving with waitress "
        "(DATABASE_URL, PUBLIC_BASE_URL, SECRET_KEY)",
        "ginrules serve --port 5000",
    )
    serve.add_argument("--host", default="127.0.0.1", help="address to listen on (127.0.0.1)")
    serve.add_argument("--port", type=int, default=5000, help="port (5000)")
    serve.add_argument("--workers", type=int, default=2, help="worker processes (2)")
    serve.add_argument(
        "--threads", type=int, default=16, help="threads per worker (16; a live table holds one)"
    )
    serve.add_argument(
        "--max-requests",
        type=int,
        default=MAX_REQUESTS,
        help=f"requests a worker answers before a fresh one takes over ({MAX_REQUESTS}; 0: never)",
    )
    serve.add_argument(
        "--max-requests-jitter",
        type=int,
        default=MAX_REQUESTS_JITTER,
        help=f"plus a random number up to this, per worker ({MAX_REQUESTS_JITTER})",
    )
    serve.add_argument(
        "--access-log", action="store_true", help="log every request (secrets redacted)"
    )
    serve.add_argument(
        "--control-socket",
        metavar="PATH",
        default="",
        help="gunicorn's control socket for gunicornc (off unless a path is given)",
    )
    db = add(
        "db",
        cmd_db,
        "create or upgrade the database schema (DATABASE_URL), or show its status",
        "ginrules db upgrade",
    )
    db.add_argument("action", choices=("upgrade", "status"))
