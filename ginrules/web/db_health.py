"""The database's health as the site sees it: timeouts, a deadline on every statement,
and 503s instead of waits or 500s. (Skeleton: filled in by issue 14's database work.)
"""

from __future__ import annotations

from flask import Flask


def install(app: Flask) -> None:
    """Hook the database's error answers into ``app``."""
