"""What each version of a house rule changed, worked out once when it is saved.

(Skeleton: filled in by the versions work of issue 14.)
"""

from __future__ import annotations

from sqlalchemy.engine import Connection


def fill_summaries(connection: Connection) -> None:
    """Migration 0005: the summary of every version saved before the column existed."""
