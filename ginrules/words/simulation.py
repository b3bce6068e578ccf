"""What a house rule changes, in words, from two simulations over the same seeds."""

from __future__ import annotations

from ginrules.engine.simulate import ENDINGS, Simulation
from ginrules.words.i18n import _
from ginrules.words.values import outcome_name


def compare(base: Simulation, other: Simulation, other_name: str) -> list[str]:
    """How ``other`` differs from ``base`` over the same seeds, in sentences."""
    lines = [
        _("{name}: games {change} ({before:.1f} -> {after:.1f} hands)").format(
            name=other_name,
            change=_change(base.hands_per_game, other.hands_per_game),
            before=base.hands_per_game,
            after=other.hands_per_game,
        ),
        _("hands {change} ({before:.1f} -> {after:.1f} turns)").format(
            change=_change(base.turns_per_hand, other.turns_per_hand),
            before=base.turns_per_hand,
            after=other.turns_per_hand,
        ),
    ]
    for end in ENDINGS:
        before, after = base.rate(end), other.rate(end)
        if before == after == 0:
            continue
        lines.append(
            _("{outcome} {times} ({before:.1%} -> {after:.1%} of hands)").format(
                outcome=outcome_name(end), times=_times(before, after), before=before, after=after
            )
        )
    lines.append(
        _("points per decided hand {change} ({before:.1f} -> {after:.1f})").format(
            change=_change(base.points_per_hand, other.points_per_hand, higher=True),
            before=base.points_per_hand,
            after=other.points_per_hand,
        )
    )
    return lines


def _change(before: float, after: float, *, higher: bool = False) -> str:
    """``12% longer`` (``higher`` for amounts), ``about the same``, ``from none``."""
    if before == 0:
        return _("from none") if after else _("unchanged")
    change = (after - before) / before
    if abs(change) < 0.005:
        return _("about the same")
    if higher:
        message = _("{percent:.0%} higher") if change > 0 else _("{percent:.0%} lower")
    else:
        message = _("{percent:.0%} longer") if change > 0 else _("{percent:.0%} shorter")
    return message.format(percent=abs(change))


def _times(before: float, after: float) -> str:
    if before == 0:
        return _("now happens") if after else _("never happens")
    if after == 0:
        return _("never happens any more")
    ratio = after / before
    if 0.95 <= ratio <= 1.05:
        return _("about as often")
    if ratio > 1:
        return _("{ratio:.1f}x more often").format(ratio=ratio)
    return _("{ratio:.1f}x less often").format(ratio=1 / ratio)
