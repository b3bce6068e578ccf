"""The words of a rule sheet's worked examples."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from ginrules.engine.scoring import HandEnd
from ginrules.words.i18n import N_, _, pgettext

_TITLES: Final = {
    HandEnd.KNOCK: N_("A knock"),
    HandEnd.UNDERCUT: N_("An undercut"),
    HandEnd.GIN: N_("Gin"),
    HandEnd.BIG_GIN: N_("Big gin"),
}
_TEAMS: Final = ("A", "B")


def title(end: HandEnd) -> str:
    """The heading of the showdown example that ends this way."""
    return _(_TITLES[end])


def spade_title() -> str:
    return _("A knock with a spade upcard")


def ten_card_note(hand_size: int) -> str:
    return _("The showdown examples are for ten-card hands; this ruleset deals {cards}.").format(
        cards=hand_size
    )


def limit_words(limit: int) -> str:
    """An Oklahoma upcard's limit: ``gin only``, ``knock with 7 or less``."""
    if limit == 0:
        return _("gin only")
    return _("knock with {limit} or less").format(limit=limit)


def limit_short(limit: int) -> str:
    """An Oklahoma upcard's limit in the sheet's table of limits: ``gin only``, ``7``."""
    if limit == 0:
        return _("gin only")
    return str(limit)


def all_eleven_melded(melds: str) -> str:
    return _("{melds}, all eleven cards melded").format(melds=melds)


def games_entered(games: Sequence[int]) -> str:
    """The Hollywood games a win was entered in: ``1, 2`` or ``none``."""
    return ", ".join(str(n) for n in games) or pgettext("no Hollywood games", "none")


def partnership_table(seats: Sequence[int], winner: int, team: int, points: int) -> str:
    return _("players {first} and {second}: player {winner} (team {team}) wins {points}").format(
        first=seats[0] + 1, second=seats[1] + 1, winner=winner + 1, team=_TEAMS[team], points=points
    )


def partnership_net(team: int, net: int, won: int, lost: int) -> str:
    return _("team {team} scores {net} ({won} - {lost})").format(
        team=_TEAMS[team], net=net, won=won, lost=lost
    )
