"""Why an action or a score-pad entry is refused, in words."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from ginrules.engine.hand import Illegal, IllegalAction
from ginrules.engine.record import RecordError
from ginrules.engine.scorepad import PadProblem, ScorePadError
from ginrules.words.i18n import _

#: How many legal actions a refusal lists before "...".
_SHOWN_LEGAL: Final = 14

_ILLEGAL: Final[dict[Illegal, str]] = {
    Illegal.HAND_OVER: "{action}: the hand is over",
    Illegal.NOT_YOUR_TURN: "{action}: it is player {player}'s turn, not player {seat}'s",
    Illegal.NOT_NOW: "{action}: not allowed now; player {player} may {legal}",
    Illegal.BIG_GIN_NOT_PLAYED: "big gin is not played under this ruleset",
    Illegal.BIG_GIN_FIRST_TURN: "big gin: no going out on your first turn under these rules",
    Illegal.BIG_GIN_NOT_MELDED: "big gin needs all eleven cards melded",
    Illegal.LAST_DISCARD_USELESS: "take: player {player} could not knock or go gin with that card",
    Illegal.NOT_HELD: "{action}: player {player} does not hold that card",
    Illegal.TAKEN_CARD: "{action}: you may not discard the card you just took from the pile",
    Illegal.LAST_DISCARD_KEPT: "{action}: you took the last discard; discard another card",
    Illegal.MUST_KNOCK: "{action}: you took the last discard, so you must knock or go gin",
    Illegal.KNOCK_FIRST_TURN: "{action}: no knocking on your first turn under these rules",
    Illegal.KNOCK_OVER_LIMIT: (
        "{action}: that leaves {deadwood} deadwood; the knock limit this hand is {limit}"
    ),
    Illegal.MELDS_OVER_LIMIT: (
        "{action}: those melds leave {deadwood} deadwood; the knock limit this hand is {limit}"
    ),
    Illegal.NOT_A_MELD: "player {player}: {error}",
    Illegal.MELD_NOT_HELD: "player {player} does not hold {cards}",
    Illegal.CARD_IN_TWO_MELDS: "player {player}: a card is in two melds ({meld})",
    Illegal.NO_LAYOFFS: "no lay-offs under this ruleset",
    Illegal.LAYOFF_NOT_HELD: "player {player}: lay off only cards you hold, each once",
    Illegal.LAYOFF_DOES_NOT_FIT: "player {player}: {error}",
}


def _legal_list(actions: Sequence[object]) -> str:
    shown = ", ".join(str(a) for a in actions[:_SHOWN_LEGAL])
    return shown + (" ..." if len(actions) > _SHOWN_LEGAL else "")


def illegal_message(error: IllegalAction) -> str:
    """Why the rules refuse the action: ``knock 3C: that leaves 12 deadwood; ...``."""
    params = dict(error.params)
    if "legal" in params:
        params["legal"] = _legal_list(params["legal"])  # type: ignore[arg-type]
    if "cards" in params:
        params["cards"] = ", ".join(str(c) for c in params["cards"])  # type: ignore[attr-defined]
    return _(_ILLEGAL[error.reason]).format(**params)


_PAD: Final[dict[PadProblem, str]] = {
    PadProblem.FINISHED: "the game is over after {hands} hands: it takes no more",
    PadProblem.HAND_COUNT: "enter {expected} hands, as dealt, not {got}",
    PadProblem.WINNER_NOT_PLAYING: "player {winner} does not play this hand",
    PadProblem.NEGATIVE: "points and boxes cannot be below zero",
    PadProblem.DEAD_WITH_WINNER: "a dead hand has no winner and no points",
    PadProblem.NO_SUCH_ENTRY: "there is no hand {index} to change",
    PadProblem.RUNAWAY: "no winner after {hands} hands",
    PadProblem.FIRST_DEALER: "the first dealer must be one of the players",
}


def pad_message(error: ScorePadError) -> str:
    """Why the score pad refuses an entry."""
    return _(_PAD[error.problem]).format(**error.params)


def message(error: ValueError) -> str:
    """Any refusal in words (an engine refusal worded here, any other as it says)."""
    if isinstance(error, IllegalAction):
        return illegal_message(error)
    if isinstance(error, ScorePadError):
        return pad_message(error)
    if isinstance(error, RecordError) and isinstance(error.cause, IllegalAction):
        return _("action {number} ({item}): {reason}").format(
            number=error.number, item=error.item, reason=illegal_message(error.cause)
        )
    return str(error)
