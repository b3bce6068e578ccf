"""Repairing stored rules text that can no longer be shown (migration 0007).

(Skeleton: filled in by the hostile-input work of issue 14.)
"""

from __future__ import annotations

from sqlalchemy.engine import Connection


def repair_stored_text(connection: Connection) -> None:
    """Migration 0007: stored YAML whose strings hold lone surrogates, made showable."""
