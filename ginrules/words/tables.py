"""A card table's words: why a table cannot start, what is wrong with a request, the
table page's hands, history and score, and the words its script shows.

The API's JSON keys and reason codes (``count``, ``not_json``...) are the machine's and
stay English; the messages beside them are in the request's language.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Final

from babel.dates import format_datetime

from ginrules.cards import Card
from ginrules.engine.entries import CardsEntry, CountsEntry, ScoredEntry
from ginrules.engine.scoreboard import GameResult
from ginrules.engine.scoring import HandEnd
from ginrules.rules.compile import EngineConfig
from ginrules.words.i18n import _, babel_locale, format_number, ngettext, pgettext
from ginrules.words.showdown import points_text, table_lines
from ginrules.words.values import outcome_name

#: Who made a change when the phone did not say: stored as is (data, in English), and
#: shown in the reader's language by :func:`actor_name`.
ANONYMOUS_SCORER: Final = "a scorer"


def table_refused(reason: str, params: dict[str, object]) -> str:
    """Why a table cannot start as asked, by the reason of ``TableRefused``."""
    refused = {
        "count": _("this format needs {needed} players, not {got}"),
        "empty": _("give this player a name"),
        "too_long": _("a name has at most {most} characters"),
        "character": _("a name may not hold {character}: remove it"),
        "same_name": _("two players have the same name: give each their own"),
        "not_a_player": _("the first dealer must be one of the players"),
        "no_rules": _("there are no such rules: give a shipped name, h/<slug> or h/<slug>/v<n>"),
        "no_newer": _("these rules have no newer version to continue under"),
    }
    return refused[reason].format(**params)


def input_problem(problem: str, **params: object) -> str:
    """What is wrong with a request's body or headers, by problem."""
    problems = {
        "not_utf8": _("the body is not valid UTF-8 (byte {byte})"),
        "not_json_type": _("send application/json"),
        "not_json": _("the body is not valid JSON"),
        "not_object": _("send a JSON object"),
        "missing": _("{name} is missing"),
        "not_string": _("{name} is a string"),
        "not_whole": _("{name} is a whole number"),
        "name_not_string": _("a name is a string"),
        "seat_not_whole": _("a seat is a whole number"),
        "not_list": _("{name} is a list"),
        "not_event": _("{name} is not an event this table can take"),
        "not_choice": _('{name} is "same" or "newer"'),
        "no_key": _("send the scorer key in the X-Scorer-Key header"),
        "wrong_key": _("that scorer key is not right for this table"),
    }
    return problems[problem].format(**params)


def unknown_fields(names: Sequence[str]) -> str:
    """Fields a request may not carry: ``unknown field: colour``."""
    return ngettext("unknown field: {names}", "unknown fields: {names}", len(names)).format(
        names=", ".join(names)
    )


def moved_on_problem(current: int, seen: int) -> str:
    """A change sent by a phone that saw an older score."""
    return ngettext(
        "the table has moved on: {current} change is stored, you saw {seen}",
        "the table has moved on: {current} changes are stored, you saw {seen}",
        current,
    ).format(current=current, seen=seen)


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
        won = ngettext(
            "{name} wins with {points} after {hands} hand",
            "{name} wins with {points} after {hands} hands",
            result.hands,
        ).format(name=winner, points=result.points[result.winner], hands=result.hands)
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


def actor_name(actor: str) -> str:
    """Who made a change, as the history says it."""
    return _("a scorer") if actor == ANONYMOUS_SCORER else actor


def change_time(at: datetime) -> str:
    """When a change was stored, in the reader's language: ``1 May 2026, 20:15:03 UTC``."""
    return format_datetime(at, format="long", tzinfo=UTC, locale=babel_locale())


def pairing(first: str, second: str) -> str:
    """Two players at one hand: ``Ana v Ben``."""
    return _("{first} v {second}").format(first=first, second=second)


def page_words() -> dict[str, str]:
    """The words the table page's script shows, by key, in the page's language.

    The script fills each ``{placeholder}`` itself; none counts anything (a count
    would need the server's plural forms).
    """
    return {
        "offline": _("Offline: the score shown may be old. Hands you enter are kept."),
        "offline_unsaved": _("Offline: not saved yet. It is sent when the connection comes back."),
        "online": _("Back online."),
        "unsaved": _("Not saved yet:"),
        # Translators: a change not yet saved, such as "Hand 3: Ana gin 0 v 25".
        "queued": _("{change} (waiting for the connection)"),
        # Translators: a change not yet saved, and why, such as "the server could not take it".
        "queued_problem": _("{change} ({problem})"),
        "rebase": _("Save it as the next change"),
        "drop": _("Drop it"),
        "conflict": _("another phone changed the score first; the score shown is the new one"),
        "wrong_key": _("this phone's scoring link is not right for this table"),
        "server": _("the server could not take it now; trying again"),
        "refused": _("refused"),
        "deal_title": _("{first} v {second} · {name} deals"),
        "by_counts": _("Outcome and counts"),
        "by_cards": _("The cards"),
        "knock": pgettext("hand end", "Knock"),
        "gin": pgettext("hand end", "Gin"),
        "big_gin": pgettext("hand end", "Big gin"),
        "dead": _("Dead hand"),
        "how_ended": _("How did it end?"),
        "who_knocked": _("Who knocked?"),
        "who_went_gin": _("Who went gin?"),
        "who_ended": _("Who knocked or went gin?"),
        "deadwood": _("{name}'s deadwood"),
        "knocker_deadwood": _("the knocker's deadwood"),
        "defender_deadwood": _("the other player's deadwood"),
        "after_layoffs": _("{name}'s deadwood, after laying off"),
        "defender_after_layoffs": _("the other player's deadwood, after laying off"),
        "knocker_deadwood_input": _("knocker deadwood"),
        "defender_deadwood_input": _("defender deadwood"),
        "upcard": _("First upcard (sets the knock limit)"),
        "knock_limit": _("Knock limit: {limit}."),
        "upcard_rank": _("Upcard rank"),
        "upcard_suit": _("Upcard suit"),
        "rank": pgettext("card", "rank"),
        "suit": pgettext("card", "suit"),
        "knocker": _("Knocker"),
        "other_player": _("Other player"),
        # Translators: how many cards of a player's hand are tapped so far: "Ana: 7".
        "picked": pgettext("cards tapped", "{name}: {count}"),
        "tap_cards": _(
            "Tap the cards of {name} (ten; eleven for big gin). Tap again to take one back."
        ),
        "entry_cards": _("{name}'s cards"),
        "entry_dead": _("a dead hand"),
        # Translators: a hand entered by its counts, short: "Ana knock 3 v 13" (the deadwoods).
        "entry_knock": _("{name} knock {knocker} v {defender}"),
        "entry_gin": _("{name} gin {knocker} v {defender}"),
        "entry_big_gin": _("{name} big gin {knocker} v {defender}"),
        "hand_entered": _("Hand {number}: {entries}"),
        "hand_corrected": _("Hand {number} corrected: {entries}"),
        "waiting": _("The change above is waiting to be saved; enter the next hand once it is."),
        "enter_hand": _("Enter hand {number}"),
        "correct_hand": _("Correct hand {number}"),
        "who_enters": _("Who is entering"),
        "who_holds": _("Who holds this phone?"),
        "save_hand": _("Save hand {number}"),
        "save_correction": _("Save the correction"),
        "cancel": _("Cancel"),
        "undo_ask": _("Undo hand {number}?"),
        "undo": _("Undo hand {number}"),
        "next_game": _("Start the next game"),
        "copied": _("Link copied."),
        "copy": _("Copy this link:"),
    }
