"""A card table's words: why a table cannot start, and what is wrong with a request."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from ginrules.cards import Card
from ginrules.engine.entries import CardsEntry, CountsEntry, ScoredEntry
from ginrules.engine.scoreboard import GameResult
from ginrules.engine.scoring import HandEnd
from ginrules.rules.compile import EngineConfig
from ginrules.words.i18n import _, format_number
from ginrules.words.showdown import points_text, table_lines
from ginrules.words.values import outcome_name

#: Why a table cannot start as asked, by the reason of ``TableRefused``.
_REFUSED: Final[dict[str, str]] = {
    "count": "this format needs {needed} players, not {got}",
    "empty": "give this player a name",
    "too_long": "a name has at most {most} characters",
    "character": "a name may not hold {character}: remove it",
    "same_name": "two players have the same name: give each their own",
    "not_a_player": "the first dealer must be one of the players",
    "no_rules": "there are no such rules: give a shipped name, h/<slug> or h/<slug>/v<n>",
    "no_newer": "these rules have no newer version to continue under",
}

#: What is wrong with a request's body or headers, by problem.
_INPUT: Final[dict[str, str]] = {
    "not_utf8": "the body is not valid UTF-8 (byte {byte})",
    "not_json_type": "send application/json",
    "not_json": "the body is not valid JSON",
    "not_object": "send a JSON object",
    "unknown": "unknown field(s): {names}",
    "missing": "{name} is missing",
    "not_string": "{name} is a string",
    "not_whole": "{name} is a whole number",
    "not_list": "{name} is a list",
    "not_event": "{name} is not an event this table can take",
    "not_choice": '{name} is "same" or "newer"',
    "no_key": "send the scorer key in the X-Scorer-Key header",
    "wrong_key": "that scorer key is not right for this table",
    "moved_on": "the table has moved on: {current} changes are stored, you saw {seen}",
}


def table_refused(reason: str, params: dict[str, object]) -> str:
    return _(_REFUSED[reason]).format(**params)


def input_problem(problem: str, **params: object) -> str:
    return _(_INPUT[problem]).format(**params)


# -- the table page: each hand as the table reported it and the engine scored it ------


def hand_line(names: Sequence[str], scored: ScoredEntry) -> str:
    """``Ben knocks: Ben scores 17 - 4 = 13``; ``Ana goes gin: ...``; a dead hand."""
    score = scored.score
    if scored.knocker is None or scored.report.winner is None:
        return _("Dead hand: nobody scores")
    knocker = names[scored.knocker]
    how = {
        HandEnd.KNOCK: _("{name} knocks"),
        HandEnd.UNDERCUT: _("{name} knocks and is undercut"),
        HandEnd.GIN: _("{name} goes gin"),
        HandEnd.BIG_GIN: _("{name} goes big gin"),
    }[score.end].format(name=knocker)
    return _("{how}: {winner} scores {points}").format(
        how=how, winner=names[scored.report.winner], points=points_text(score)
    )


def showdown_lines(config: EngineConfig, scored: ScoredEntry, upcard: Card | None) -> list[str]:
    """A hand entered card by card, as ``ginrules score`` explains it."""
    if scored.showdown is None:
        return []
    return table_lines(scored.showdown, config, upcard)


def team_name(names: Sequence[str], team: int) -> str:
    """A partnership side: ``Ana & Chloe`` (seats 0 and 2) or ``Ben & Dan``."""
    return _("{first} & {second}").format(first=names[team], second=names[team + 2])


def sitting_out(name: str) -> str:
    return _("{name} sits out").format(name=name)


def deals(name: str) -> str:
    return _("{name} deals").format(name=name)


def result_lines(sides: Sequence[str], results: Sequence[GameResult], stake: float) -> list[str]:
    """Each game's winner and what each loser owes, as the engine settled it."""
    lines = []
    for number, result in enumerate(results, 1):
        winner = sides[result.winner]
        won = _("{name} wins with {points} after {hands} hands").format(
            name=winner, points=result.points[result.winner], hands=result.hands
        )
        if len(results) > 1:
            won = _("Game {number}: {result}").format(number=number, result=won)
        lines.append(won)
        for settlement in result.settlements:
            text = _(
                "With the bonuses, {winner} {winner_total} to {loser} {loser_total}:"
                " a margin of {margin}"
            ).format(
                winner=winner,
                winner_total=settlement.winner_total,
                loser=sides[settlement.loser],
                loser_total=settlement.loser_total,
                margin=settlement.margin,
            )
            if settlement.shutout:
                text = _("{text} (a shutout)").format(text=text)
            if stake > 0 and settlement.margin != 0:
                # A negative margin (the loser's boxes outweigh): the game's winner pays.
                payer = settlement.loser if settlement.margin > 0 else result.winner
                text = _("{text}; {name} pays {payment} at {stake} a point").format(
                    text=text,
                    name=sides[payer],
                    payment=format_number(abs(settlement.payment)),
                    stake=format_number(stake),
                )
            lines.append(text)
    return lines


def entry_words(names: Sequence[str], entry: CountsEntry | CardsEntry) -> str:
    """A hand as it was entered (for the history's before and after)."""
    if isinstance(entry, CardsEntry):
        return _("{name}'s cards {knocker} against {defender}").format(
            name=names[entry.ended_by],
            knocker=" ".join(str(c) for c in entry.knocker),
            defender=" ".join(str(c) for c in entry.defender),
        )
    if entry.end is HandEnd.DEAD or entry.ended_by is None:
        return _("a dead hand")
    return _("{name}: {end}, deadwood {knocker} against {defender}").format(
        name=names[entry.ended_by],
        end=outcome_name(entry.end),
        knocker=entry.knocker_deadwood,
        defender=entry.defender_deadwood,
    )


def change_words(kind: str, number: int | None) -> str:
    """What a change in the history did."""
    if kind == "hand":
        return _("Hand {number} entered").format(number=number)
    if kind == "undo":
        return _("Hand {number} undone").format(number=number)
    if kind == "correct":
        return _("Hand {number} corrected").format(number=number)
    return _("Next game started")
