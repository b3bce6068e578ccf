"""Checks every request passes before a view sees it: cross-site state changes refused,
no answer built from the Host header, HSTS over HTTPS. (Skeleton: issue 14.)
"""

from __future__ import annotations

from flask import Flask


def install(app: Flask) -> None:
    """Install the guards on ``app``."""
