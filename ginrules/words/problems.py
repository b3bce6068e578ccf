"""Why an action or a score-pad entry is refused, in words."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from ginrules.cards import CardError
from ginrules.engine.actions import UnreadableMove
from ginrules.engine.entries import EntryError, EntryProblem
from ginrules.engine.illegal import Illegal, IllegalAction
from ginrules.engine.match import MatchError, MatchProblem
from ginrules.engine.record import RecordError, Unplayable
from ginrules.engine.scorepad import PadProblem, ScorePadError
from ginrules.engine.settle import SettleError, Unsettled
from ginrules.engine.tablelog import TableError, TableProblem
from ginrules.melds import MeldError
from ginrules.words.cards import card_problem, card_text, meld_problem
from ginrules.words.i18n import _

#: How many legal actions a refusal lists before "...".
_SHOWN_LEGAL: Final = 14


def _illegal() -> dict[Illegal, str]:
    """Why the rules refuse an action, by reason."""
    return {
        Illegal.HAND_OVER: _("{action}: the hand is over"),
        Illegal.NOT_YOUR_TURN: _("{action}: it is player {player}'s turn, not player {seat}'s"),
        Illegal.NOT_NOW: _("{action}: not allowed now; player {player} may {legal}"),
        Illegal.BIG_GIN_NOT_PLAYED: _("big gin is not played under this ruleset"),
        Illegal.BIG_GIN_FIRST_TURN: _("big gin: no going out on your first turn under these rules"),
        Illegal.BIG_GIN_NOT_MELDED: _("big gin needs all eleven cards melded"),
        Illegal.GIN_NOT_MELDED: _(
            "gin needs every card you keep melded ({deadwood} deadwood left)"
        ),
        Illegal.LAST_DISCARD_USELESS: _(
            "take: player {player} could not knock or go gin with that card"
        ),
        Illegal.NOT_HELD: _("{action}: player {player} does not hold that card"),
        Illegal.TAKEN_CARD: _("{action}: you may not discard the card you just took from the pile"),
        Illegal.LAST_DISCARD_KEPT: _("{action}: you took the last discard; discard another card"),
        Illegal.MUST_KNOCK: _("{action}: you took the last discard, so you must knock or go gin"),
        Illegal.KNOCK_FIRST_TURN: _("{action}: no knocking on your first turn under these rules"),
        Illegal.KNOCK_OVER_LIMIT: _(
            "{action}: that leaves {deadwood} deadwood; the knock limit this hand is {limit}"
        ),
        Illegal.MELDS_OVER_LIMIT: _(
            "{action}: those melds leave {deadwood} deadwood; the knock limit this hand is {limit}"
        ),
        Illegal.NOT_A_MELD: _("player {player}: {error}"),
        Illegal.MELD_NOT_HELD: _("player {player} does not hold {cards}"),
        Illegal.CARD_IN_TWO_MELDS: _("player {player}: a card is in two melds ({meld})"),
        Illegal.NO_LAYOFFS: _("no lay-offs under this ruleset"),
        Illegal.LAYOFF_NOT_HELD: _("player {player}: lay off only cards you hold, each once"),
        Illegal.LAYOFF_DOES_NOT_FIT: _("player {player}: {error}"),
    }


def _legal_list(actions: Sequence[object]) -> str:
    shown = ", ".join(str(a) for a in actions[:_SHOWN_LEGAL])
    return shown + (" ..." if len(actions) > _SHOWN_LEGAL else "")


def _worded(params: dict[str, object]) -> dict[str, object]:
    """A refusal's parameters as its reader reads them: cards in their letters, a
    meld's problem in words."""
    if "cards" in params:
        params["cards"] = ", ".join(card_text(c) for c in params["cards"])  # type: ignore[attr-defined]
    if isinstance(params.get("error"), MeldError):
        params["error"] = meld_problem(params["error"])  # type: ignore[arg-type]
    return params


def illegal_message(error: IllegalAction) -> str:
    """Why the rules refuse the action: ``knock 3C: that leaves 12 deadwood; ...``."""
    params = dict(error.params)
    if "legal" in params:
        params["legal"] = _legal_list(params["legal"])  # type: ignore[arg-type]
    return _illegal()[error.reason].format(**_worded(params))


def _pad() -> dict[PadProblem, str]:
    """Why the score pad refuses an entry, by problem."""
    return {
        PadProblem.FINISHED: _("the game is over after {hands} hands: it takes no more"),
        PadProblem.HAND_COUNT: _("enter {expected} hands, as dealt, not {got}"),
        PadProblem.WINNER_NOT_PLAYING: _("player {winner} does not play this hand"),
        PadProblem.NEGATIVE: _("points and boxes cannot be below zero"),
        PadProblem.DEAD_WITH_WINNER: _("a dead hand has no winner and no points"),
        PadProblem.NO_SUCH_ENTRY: _("there is no hand {index} to change"),
        PadProblem.RUNAWAY: _("no winner after {hands} hands"),
        PadProblem.FIRST_DEALER: _("the first dealer must be one of the players"),
    }


def _table() -> dict[TableProblem, str]:
    """Why a table refuses a change, by problem."""
    return {
        TableProblem.MOVED_ON: _("this game is over and the next one has started: change that one"),
        TableProblem.NOT_OVER: _("the next game starts when this one is over"),
    }


def pad_message(error: ScorePadError) -> str:
    """Why the score pad refuses an entry."""
    return _pad()[error.problem].format(**error.params)


def _unsettled() -> dict[Unsettled, str]:
    """Why a hand cannot be settled as given, by reason."""
    return {
        Unsettled.KNOCKER_CARDS_OR_MELDS: _(
            "give the knocker's cards, or the knocker's melds and deadwood"
        ),
        Unsettled.KNOCKER_CARD_TWICE: _("the knocker holds a card twice"),
        Unsettled.DEFENDER_CARD_COUNT: _("the defender holds {size} different cards, not {held}"),
        Unsettled.CARDS_IN_TWO_PLACES: _("{cards} cannot be in two places"),
        Unsettled.NO_BIG_GIN: _("the knocker keeps {size} cards (big gin is not played here)"),
        Unsettled.BIG_GIN_NOT_MELDED: _("big gin needs all eleven cards melded"),
        Unsettled.KNOCKER_CARD_COUNT: _(
            "the knocker keeps {size} cards after discarding, not {kept}"
        ),
        Unsettled.NOT_A_MELD: _("knocker's meld {error}"),
        Unsettled.UPCARD_NEEDED: _(
            "under Oklahoma the first upcard sets the knock limit: give it"
            ' (--upcard on the command line, "upcard" in JSON)'
        ),
    }


def settle_message(error: SettleError) -> str:
    """Why a hand cannot be settled as given."""
    params = dict(error.params)
    if error.reason is Unsettled.OVER_THE_LIMIT:
        return over_the_limit(params)
    return _unsettled()[error.reason].format(**_worded(params))


def _entry() -> dict[EntryProblem, str]:
    """Why a hand reported at the table cannot be, by problem."""
    return {
        EntryProblem.NOT_PLAYING: _("player {player} does not play this hand"),
        EntryProblem.UNDERCUT_ENTERED: _(
            "enter the knock: whether it is an undercut follows from the two deadwood counts"
        ),
        EntryProblem.DEAD_WITH_COUNTS: _("a dead hand has nobody ending it and no deadwood counts"),
        EntryProblem.NOBODY_ENDED: _("say who knocked or went gin"),
        EntryProblem.NO_SUCH_COUNT: _(
            "no hand of {cards} cards holds {count} deadwood (at most {most})"
        ),
        EntryProblem.GIN_WITH_DEADWOOD: _(
            "gin melds every card: the knocker has {deadwood} deadwood"
        ),
        EntryProblem.NO_BIG_GIN: _("big gin is not played under these rules"),
        EntryProblem.UPCARD_NEEDED: _(
            "under Oklahoma the first upcard sets the knock limit: give it"
        ),
    }


def entry_message(error: EntryError) -> str:
    """Why a hand reported at the table cannot be, for the field at fault."""
    params = dict(error.params)
    if error.reason is EntryProblem.OVER_THE_LIMIT:
        return over_the_limit(params)
    return _entry()[error.reason].format(**params)


def over_the_limit(params: dict[str, object]) -> str:
    """A knock over this hand's limit, saying which upcard set it under Oklahoma."""
    if params["upcard"] is not None:
        text = _(
            "the knocker has {deadwood} deadwood; the knock limit is {limit}"
            " (the upcard {upcard} sets it)"
        )
    else:
        text = _("the knocker has {deadwood} deadwood; the knock limit is {limit}")
    return text.format(**params)


def unreadable_move(error: UnreadableMove) -> str:
    if error.recorded:
        return _("not an action: {data} (expected an object with 'action')").format(data=error.text)
    if error.text is None:
        return _("type a move: draw, take, a card to discard, or knock CARD")
    return _(
        "not a move: {text!r} (try draw, take, pass, a card to discard such as 7H,"
        " knock 3C, big gin)"
    ).format(text=error.text)


def _match() -> dict[MatchProblem, str]:
    """Why a match cannot be scored, by reason."""
    return {
        MatchProblem.HANDS_AS_DEALT: _("enter {expected} hands, as dealt, not {got}"),
        MatchProblem.RUNAWAY: _("no winner after {hands} hands"),
        MatchProblem.PLAYERS: _("this format needs {needed} players, not {got}"),
    }


def match_message(error: MatchError) -> str:
    return _match()[error.reason].format(**error.params)


def record_message(error: RecordError) -> str:
    """Why a hand record cannot be played back."""
    if error.reason is Unplayable.NOT_A_RECORD:
        return _('not a ginrules hand record (expected "record": "{format}")').format(
            **error.params
        )
    if error.reason is Unplayable.OTHER_RULES:
        return _(
            "the record was played under rules {recorded}, not {given}:"
            " replay it under the same ruleset"
        ).format(**error.params)
    cause = message(error.cause) if isinstance(error.cause, ValueError) else str(error.cause)
    if error.reason is Unplayable.DEAL:
        return _("the record's deal cannot be read: {cause}").format(cause=cause)
    return _("action {number} ({item}): {cause}").format(
        number=error.number, item=error.item, cause=cause
    )


def message(error: ValueError) -> str:
    """Any refusal in words (an engine refusal worded here, any other as it says)."""
    if isinstance(error, IllegalAction):
        return illegal_message(error)
    if isinstance(error, ScorePadError):
        return pad_message(error)
    if isinstance(error, MatchError):
        return match_message(error)
    if isinstance(error, SettleError):
        return settle_message(error)
    if isinstance(error, EntryError):
        return entry_message(error)
    if isinstance(error, UnreadableMove):
        return unreadable_move(error)
    if isinstance(error, TableError):
        return _table()[error.reason].format(**error.params)
    if isinstance(error, RecordError):
        return record_message(error)
    if isinstance(error, CardError):
        return card_problem(error)
    return str(error)


def cannot_write(path: str, error: OSError) -> str:
    return _("{path}: error: cannot write: {error}").format(path=path, error=error)
