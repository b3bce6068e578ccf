"""The site's configuration, from the environment (documented in the README).

- ``DATABASE_URL``: any SQLAlchemy URL; default a SQLite file in the instance folder.
- ``PUBLIC_BASE_URL``: where people reach the site; share links and QR codes
  are built from it, never from the request's Host header.
- ``SECRET_KEY``: signs sessions and CSRF tokens; default a random key kept in
  the instance folder, so restarts keep people's forms valid.
- ``RATE_LIMIT``: saves allowed per address (``limits``' syntax: ``30 per minute;300 per day``).
- ``CHECK_RATE_LIMIT``: the YAML editor's live checks per address.
- ``LIVE_STREAMS``: live table streams one worker process holds at once (8);
  each holds a thread, so keep it below ``ginrules serve --threads`` (16).
- ``MAX_VERSIONS``: versions one house rule may have (1,000); a save past it is refused.
- ``DAILY_SAVE_BYTES``: bytes one address may save in a day (4 MiB).
- ``REDIS_URL``: keep the rate-limit counters in Redis (``limits``' storage) instead
  of the database; either way every worker and every app server shares them.
- ``TRUSTED_PROXIES``: addresses or networks of reverse proxies whose
  ``X-Forwarded-For``/``X-Forwarded-Proto`` are believed (none by default).
- ``PDF_RENDERS``: PDFs one worker process renders at once (1); ``PDF_QUEUE``:
  renders allowed to wait for one (4) before a 503 with ``Retry-After``.
- ``DB_TIMEOUT``: seconds a database connect, pool wait or statement may take (3)
  before the request is answered 503.
"""

from __future__ import annotations

import importlib.util
import ipaddress
import os
import secrets
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any, Final
from urllib.parse import urlsplit

from limits import parse_many

from ginrules.sheets.render import DEFAULT_BASE_URL
from ginrules.words import limits as limit_words

#: Largest request body accepted (a ruleset file is at most 64 KiB).
MAX_BODY_BYTES: Final = 128 * 1024
DEFAULT_RATE_LIMIT: Final = "30 per minute;300 per day"
#: The YAML editor's live checks per address: typing never uses up the saves.
DEFAULT_CHECK_RATE_LIMIT: Final = "120 per minute;3000 per hour"
DEFAULT_LIVE_STREAMS: Final = 8
DEFAULT_MAX_VERSIONS: Final = 1000
DEFAULT_DAILY_SAVE_BYTES: Final = 4 * 1024 * 1024
DEFAULT_PDF_RENDERS: Final = 1
#: With LIVE_STREAMS and PDF_RENDERS, below the 16 threads of ``ginrules serve``: a
#: request waiting for its PDF holds a thread.
DEFAULT_PDF_QUEUE: Final = 4
DEFAULT_DB_TIMEOUT: Final = 3


class SettingsError(ValueError):
    """A setting that cannot work, with what to do about it."""


#: An address or network of ``TRUSTED_PROXIES``.
Network = ipaddress.IPv4Network | ipaddress.IPv6Network
#: ``REDIS_URL`` schemes, and the Python package each needs (``limits``' Redis storage).
REDIS_SCHEMES: Final = {
    "redis": "redis",
    "rediss": "redis",
    "redis+unix": "redis",
    "valkey": "valkey",
    "valkeys": "valkey",
    "valkey+unix": "valkey",
}


def instance_path() -> Path:
    """``GINRULES_INSTANCE`` or ``./instance``: where the SQLite file and the key live."""
    return Path(os.environ.get("GINRULES_INSTANCE", "instance")).resolve()


def _secret_key(folder: Path) -> str:
    key_file = folder / "secret_key"
    if key_file.is_file():
        return key_file.read_text(encoding="utf-8").strip()
    folder.mkdir(parents=True, exist_ok=True)
    key = secrets.token_urlsafe(48)
    key_file.write_text(key, encoding="utf-8")
    key_file.chmod(0o600)
    return key


def public_base_url(value: str) -> str:
    """A checked base URL without a trailing slash."""
    parts = urlsplit(value.strip())
    if parts.scheme not in ("http", "https") or not parts.netloc or parts.query or parts.fragment:
        raise SettingsError(
            f"PUBLIC_BASE_URL {value!r} is not a web address like https://gin.example.org"
        )
    return value.strip().rstrip("/")


def _whole(value: str | None, name: str, default: int) -> int:
    if not value:
        return default
    if not value.strip().isdigit() or int(value) < 1:
        raise SettingsError(f"{name} {value!r} is not a whole number of at least 1")
    return int(value)


def rate_limit(value: str, name: str) -> str:
    """A checked ``limits`` rate (``30 per minute;300 per day``)."""
    try:
        if parse_many(value):
            return value
    except ValueError:
        pass
    raise SettingsError(limit_words.bad_limit(name, value))


def trusted_proxies(value: str | Iterable[Network]) -> tuple[Network, ...]:
    """``TRUSTED_PROXIES``: comma-separated addresses or CIDR networks (a host's
    bits after the prefix are ignored: ``10.1.2.3/8`` is ``10.0.0.0/8``)."""
    if not isinstance(value, str):
        return tuple(value)
    networks = []
    for entry in value.replace(" ", ",").split(","):
        if not entry:
            continue
        try:
            networks.append(ipaddress.ip_network(entry, strict=False))
        except ValueError:
            raise SettingsError(limit_words.bad_proxy(entry)) from None
    return tuple(networks)


def redis_url(value: str | None) -> str | None:
    """A checked ``REDIS_URL`` whose client package is installed; None when unset."""
    if not value:
        return None
    parts = urlsplit(value.strip())
    package = REDIS_SCHEMES.get(parts.scheme)
    if package is None or not (parts.netloc or parts.path):
        raise SettingsError(limit_words.bad_redis_url(value))
    if importlib.util.find_spec(package) is None:
        raise SettingsError(limit_words.redis_missing())
    return value.strip()


def load(overrides: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The Flask config: the environment, then ``overrides`` (tests)."""
    overrides = dict(overrides or {})
    folder = Path(overrides.pop("INSTANCE_PATH", instance_path()))
    env = os.environ
    database = env.get("DATABASE_URL") or f"sqlite:///{folder / 'ginrules.db'}"
    config: dict[str, Any] = {
        "INSTANCE_PATH": folder,
        "DATABASE_URL": database,
        "PUBLIC_BASE_URL": env.get("PUBLIC_BASE_URL") or DEFAULT_BASE_URL,
        "SECRET_KEY": env.get("SECRET_KEY") or None,
        "RATE_LIMIT": env.get("RATE_LIMIT") or DEFAULT_RATE_LIMIT,
        "CHECK_RATE_LIMIT": env.get("CHECK_RATE_LIMIT") or DEFAULT_CHECK_RATE_LIMIT,
        "RATELIMIT_ENABLED": True,
        "LIVE_STREAMS": _whole(env.get("LIVE_STREAMS"), "LIVE_STREAMS", DEFAULT_LIVE_STREAMS),
        "MAX_VERSIONS": _whole(env.get("MAX_VERSIONS"), "MAX_VERSIONS", DEFAULT_MAX_VERSIONS),
        "DAILY_SAVE_BYTES": _whole(
            env.get("DAILY_SAVE_BYTES"), "DAILY_SAVE_BYTES", DEFAULT_DAILY_SAVE_BYTES
        ),
        "REDIS_URL": env.get("REDIS_URL") or None,
        "TRUSTED_PROXIES": env.get("TRUSTED_PROXIES") or "",
        "PDF_RENDERS": _whole(env.get("PDF_RENDERS"), "PDF_RENDERS", DEFAULT_PDF_RENDERS),
        "PDF_QUEUE": _whole(env.get("PDF_QUEUE"), "PDF_QUEUE", DEFAULT_PDF_QUEUE),
        # Set by ``ginrules serve`` (its --threads): a PDF waits in at most half of them.
        "SERVER_THREADS": _whole(env.get("GINRULES_THREADS"), "GINRULES_THREADS", 0),
        "DB_TIMEOUT": _whole(env.get("DB_TIMEOUT"), "DB_TIMEOUT", DEFAULT_DB_TIMEOUT),
        "MAX_CONTENT_LENGTH": MAX_BODY_BYTES,
        "MAX_FORM_MEMORY_SIZE": MAX_BODY_BYTES,
        "WTF_CSRF_TIME_LIMIT": None,
        "SESSION_COOKIE_SAMESITE": "Lax",
        "SESSION_COOKIE_HTTPONLY": True,
    }
    config.update(overrides)
    config["PUBLIC_BASE_URL"] = public_base_url(str(config["PUBLIC_BASE_URL"]))
    for name in ("RATE_LIMIT", "CHECK_RATE_LIMIT"):
        config[name] = rate_limit(str(config[name]), name)
    config["TRUSTED_PROXIES"] = trusted_proxies(config["TRUSTED_PROXIES"])
    config["REDIS_URL"] = redis_url(config["REDIS_URL"])
    config.setdefault("SESSION_COOKIE_SECURE", config["PUBLIC_BASE_URL"].startswith("https://"))
    if not config["SECRET_KEY"]:
        config["SECRET_KEY"] = _secret_key(folder)
    return config
