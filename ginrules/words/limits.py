"""What the site says when an address has used up its allowance, and the limit settings' errors."""

from __future__ import annotations

from typing import Final

from ginrules.words.i18n import _, format_number, ngettext

_KIB: Final = 1024
_MIB: Final = 1024 * 1024


def size(count: int) -> str:
    """A number of bytes as a person reads it: ``4 MiB``, ``96 KiB``, ``500 bytes``."""
    if count >= _MIB and count % _MIB == 0:
        return _("{count} MiB").format(count=format_number(count // _MIB))
    if count >= _KIB:
        return _("{count} KiB").format(count=format_number(round(count / _KIB)))
    return ngettext("{count} byte", "{count} bytes", count).format(count=format_number(count))


def per(amount: int, multiples: int, unit: str) -> str:
    """A limit such as ``30 per minute`` or ``100 per 5 minutes`` (``unit``: limits' name:
    second, minute, hour, day, month or year)."""
    text = _per_one(unit) if multiples == 1 else _per_many(unit, multiples)
    return text.format(amount=format_number(amount), multiples=format_number(multiples))


def _per_one(unit: str) -> str:
    """A limit per one unit of time, with ``{amount}``."""
    return {
        "second": _("{amount} per second"),
        "minute": _("{amount} per minute"),
        "hour": _("{amount} per hour"),
        "day": _("{amount} per day"),
        "month": _("{amount} per month"),
    }.get(unit) or _("{amount} per year")


def _per_many(unit: str, count: int) -> str:
    """A limit per ``count`` units of time, with ``{amount}`` and ``{multiples}``."""
    if unit == "second":
        return ngettext(
            "{amount} per {multiples} second", "{amount} per {multiples} seconds", count
        )
    if unit == "minute":
        return ngettext(
            "{amount} per {multiples} minute", "{amount} per {multiples} minutes", count
        )
    if unit == "hour":
        return ngettext("{amount} per {multiples} hour", "{amount} per {multiples} hours", count)
    if unit == "day":
        return ngettext("{amount} per {multiples} day", "{amount} per {multiples} days", count)
    if unit == "month":
        return ngettext("{amount} per {multiples} month", "{amount} per {multiples} months", count)
    return ngettext("{amount} per {multiples} year", "{amount} per {multiples} years", count)


def wait(seconds: int) -> str:
    """How long to wait, rounded up to what matters: ``a minute``, ``3 hours``."""
    if seconds <= 60:
        return _("a minute")
    minutes = -(-seconds // 60)
    if minutes < 120:
        return ngettext("{count} minute", "{count} minutes", minutes).format(count=minutes)
    hours = -(-minutes // 60)
    return ngettext("{count} hour", "{count} hours", hours).format(count=hours)


def too_many_saves(limit: str, seconds: int) -> str:
    return _(
        "Too many saves from your address just now (at most {limit}); wait {wait} and try"
        " again. Nothing was changed."
    ).format(limit=limit, wait=wait(seconds))


def too_many_checks(limit: str, seconds: int) -> str:
    return _(
        "Too many checks from your address just now (at most {limit}); wait {wait} and the"
        " editor checks again. Saving still works."
    ).format(limit=limit, wait=wait(seconds))


def daily_bytes(cap: int, seconds: int) -> str:
    return _(
        "Not saved: one address may save at most {cap} a day, and yours has reached it."
        " Try again in {wait}; what you sent is kept on your side."
    ).format(cap=size(cap), wait=wait(seconds))


def counters_busy(seconds: float) -> str:
    """Logged when one process's counting waited too long for its turn (SQLite)."""
    return _("the rate-limit counters were busy for {seconds:g} s").format(seconds=seconds)


def counters_down() -> str:
    return _(
        "Nothing was changed: the site cannot count requests just now (its rate-limit store"
        " is not answering). Try again in a few seconds."
    )


def bad_limit(name: str, value: str) -> str:
    return _(
        "{name} {value!r} is not a rate limit like '30 per minute;300 per day'"
        " (a number, 'per', and second, minute, hour, day, month or year)"
    ).format(name=name, value=value)


def bad_proxy(value: str) -> str:
    return _(
        "TRUSTED_PROXIES has {value!r}, which is not an address or network like 10.0.0.1,"
        " 10.0.0.0/8 or fd00::/8 (separate several with commas)"
    ).format(value=value)


def bad_redis_url(value: str) -> str:
    return _(
        "REDIS_URL {value!r} is not a Redis address like redis://localhost:6379/0"
        " (schemes: redis, rediss, redis+unix, valkey, valkeys, valkey+unix)"
    ).format(value=value)


def redis_missing() -> str:
    return _(
        "REDIS_URL is set but the 'redis' Python package is not installed: install it"
        " (pip install redis) or unset REDIS_URL to keep the counters in the database"
    )
