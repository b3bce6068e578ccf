"""Refusals as data: an exception that says why with a reason code and parameters.

The library refuses things (an illegal action, a hand that cannot be settled,
an entry the score pad cannot take) without writing English: each refusal is a
:class:`Refusal` with a ``reason`` (a member of a small enum per kind) and named
``params``. :mod:`ginrules.words.problems` makes the sentence a person reads;
``str()`` of a refusal is a short technical form for logs and programmers.
"""

from __future__ import annotations

from enum import StrEnum


class Refusal(ValueError):
    """Something the rules or the data do not allow; ``reason`` and ``params`` say why."""

    def __init__(self, reason: StrEnum, **params: object) -> None:
        super().__init__(reason.value, params)
        self.reason = reason
        self.params: dict[str, object] = params

    def __str__(self) -> str:
        details = ", ".join(f"{key}={value}" for key, value in self.params.items())
        return f"{self.reason.value} ({details})" if details else self.reason.value
