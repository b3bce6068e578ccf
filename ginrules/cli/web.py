"""``ginrules serve`` (the site under gunicorn) and ``ginrules db upgrade|status``."""

from __future__ import annotations

import argparse
import os
from typing import Any

from ginrules.cli.common import EXIT_INVALID, EXIT_OK, AddCommand, Output


def _store(output: Output) -> Any:
    from ginrules.web import settings
    from ginrules.web.storage import Store

    try:
        config = settings.load()
    except settings.SettingsError as error:
        output.problem(f"error: {error}")
        return None
    return Store(str(config["DATABASE_URL"]))


def cmd_db(args: argparse.Namespace, output: Output) -> int:
    from ginrules.web.storage import StorageError

    store = _store(output)
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
            f"error: cannot use the database {store.url}: {error.__class__.__name__}: {error}"
        )
        return EXIT_INVALID
    finally:
        store.close()
    return EXIT_OK


def cmd_serve(args: argparse.Namespace, output: Output) -> int:
    from gunicorn.app.base import BaseApplication

    from ginrules.web import create_app, network, settings
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
                "worker_class": "gthread",
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
        "run the web site under gunicorn (DATABASE_URL, PUBLIC_BASE_URL, SECRET_KEY)",
        "ginrules serve --port 5000",
    )
    serve.add_argument("--host", default="127.0.0.1", help="address to listen on (127.0.0.1)")
    serve.add_argument("--port", type=int, default=5000, help="port (5000)")
    serve.add_argument("--workers", type=int, default=2, help="worker processes (2)")
    serve.add_argument(
        "--threads", type=int, default=16, help="threads per worker (16; a live table holds one)"
    )
    serve.add_argument("--access-log", action="store_true", help="log every request")
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
