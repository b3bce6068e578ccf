"""A hand's points and its showdown, told: the one place a showdown is narrated.

Two tellings of the same :class:`~ginrules.engine.scoring.Showdown`:

- :func:`table_lines`, as ``ginrules score`` settles a hand played at a real
  table (the knocker and the defender, no names);
- :func:`game_lines`, as the terminal game tells a hand just played, with the
  players' names (``you`` for the person, whose verbs agree with it).

Both use :func:`points_text` for the arithmetic and :mod:`ginrules.words.cards`
for the melds.
"""

from __future__ import annotations

from collections.abc import Sequence

from ginrules.cards import Card, sort_for_display
from ginrules.engine.hand import Hand
from ginrules.engine.scoring import HandEnd, HandScore, Showdown
from ginrules.melds import Arrangement
from ginrules.rules.compile import EngineConfig
from ginrules.words.cards import CardView, card_text, cards_text, meld_text, melds_text
from ginrules.words.i18n import N_, _, pgettext
from ginrules.words.values import outcome_name

#: The person's name at the table; sentences about the person use the second person.
YOU = "you"


def said(name: str, person: str, other: str, **params: object) -> str:
    """The sentence ``person`` about the person (``you knock``), ``other`` about anyone
    else (``{name} knocks``): two whole messages, so each language conjugates its own.
    Callers mark both with :func:`N_`, so ``pybabel extract`` finds them."""
    return (_(person) if name == YOU else _(other)).format(name=name, **params)


def points_text(score: HandScore) -> str:
    """The points in words: ``(8 - 6) + 25 undercut bonus = 27``."""
    end = score.end
    if end is HandEnd.DEAD:
        return _("a dead hand: nobody scores")
    if end is HandEnd.KNOCK:
        base = _("{defender} - {knocker}")
    elif end is HandEnd.UNDERCUT:
        base = _("({knocker} - {defender})")
    else:
        base = _("{defender} deadwood")
    base = base.format(knocker=score.knocker_deadwood, defender=score.defender_deadwood)
    if score.bonus:
        bonus = {
            HandEnd.GIN: _("{base} + {bonus} gin bonus"),
            HandEnd.BIG_GIN: _("{base} + {bonus} big gin bonus"),
            HandEnd.UNDERCUT: _("{base} + {bonus} undercut bonus"),
        }[end]
    else:
        bonus = "{base}"
    if score.multiplier == 1:
        return _("{sum} = {points}").format(
            sum=bonus.format(base=base, bonus=score.bonus), points=score.points
        )
    whole = score.points == score.multiplier * (score.deadwood_points + score.bonus)
    if (score.deadwood_points + score.bonus if whole else score.deadwood_points) == 0:
        # A spade upcard, but the part it doubles is 0: say so, never "doubled".
        return _("{sum} = {points} (a spade upcard, with nothing to double)").format(
            sum=bonus.format(base=base, bonus=score.bonus), points=score.points
        )
    if whole:
        doubled = _("2 x ({sum})").format(sum=bonus.format(base=base, bonus=score.bonus))
    else:
        doubled = bonus.format(base=_("2 x ({base})").format(base=base), bonus=score.bonus)
    return _("{sum} = {points} (doubled for a spade upcard)").format(
        sum=doubled, points=score.points
    )


# -- at a real table: ``ginrules score`` ----------------------------------------------


def _deadwood_text(arrangement: Arrangement) -> str:
    if not arrangement.unmatched:
        return _("no deadwood")
    return _("deadwood {cards} = {deadwood}").format(
        cards=cards_text(arrangement.unmatched), deadwood=arrangement.deadwood
    )


def table_lines(showdown: Showdown, config: EngineConfig, upcard: Card | None) -> list[str]:
    """The showdown as a table would say it: what each side shows and who scores what."""
    knocker = showdown.knocker_arrangement
    defense = showdown.defense
    score = showdown.score
    lines = []
    if upcard is not None and config.oklahoma:
        limit = config.knock_limit_for(upcard)
        if config.spades_doubled(upcard):
            line = _(
                "Upcard {upcard}: the knock limit this hand is {limit}"
                " and the hand counts double (a spade)"
            )
        else:
            line = _("Upcard {upcard}: the knock limit this hand is {limit}")
        lines.append(line.format(upcard=upcard, limit=limit))
    lines.append(
        _("Knocker shows: {melds}  {deadwood}").format(
            melds=melds_text(knocker.melds) or _("no melds"), deadwood=_deadwood_text(knocker)
        )
    )
    if defense.layoffs:
        laid = list_separator().join(
            _("{card} on {meld}").format(
                card=card_text(lay.card), meld=cards_text(knocker.melds[lay.meld_index].cards)
            )
            for lay in defense.layoffs
        )
        lines.append(_("Defender lays off: {layoffs}").format(layoffs=laid))
    elif score.end in (HandEnd.GIN, HandEnd.BIG_GIN):
        lines.append(_("Defender lays off: nothing (no lay-offs on gin)"))
    elif not config.layoffs:
        lines.append(_("Defender lays off: nothing (no lay-offs under these rules)"))
    else:
        lines.append(_("Defender lays off: nothing fits"))
    lines.append(
        _("Defender shows: {melds}  {deadwood}").format(
            melds=melds_text(defense.arrangement.melds) or _("no melds"),
            deadwood=_deadwood_text(defense.arrangement),
        )
    )
    outcome = (
        _("Outcome: {outcome}. The knocker scores {points}.")
        if score.knocker_wins
        else _("Outcome: {outcome}. The defender scores {points}.")
    )
    lines.append(outcome.format(outcome=outcome_name(score.end), points=points_text(score)))
    return lines


def layoff_list(showdown: Showdown) -> list[str]:
    """Each lay-off in words: ``5H on 6H 7H 8H``."""
    melds = showdown.knocker_arrangement.melds
    return [
        _("{card} on {meld}").format(
            card=card_text(lay.card), meld=cards_text(melds[lay.meld_index].cards)
        )
        for lay in showdown.defense.layoffs
    ]


def list_separator() -> str:
    """Between the items of a list whose items have commas of their own: ``; ``."""
    # Translators: French typography wants a no-break space before the semicolon.
    return pgettext("between items of a list", "; ")


def summary_line(hand: Hand) -> str:
    """One line for a replayed hand: ``63 actions, knock: player 1 scores 31 - 5 = 26``."""
    actions = len(hand.history)
    if hand.showdown is None:
        if hand.dead:
            return _("{actions} actions, a dead hand").format(actions=actions)
        return _("{actions} actions, unfinished ({phase})").format(
            actions=actions, phase=hand.phase.value
        )
    score = hand.showdown.score
    return _("{actions} actions, {outcome}: player {player} scores {points}").format(
        actions=actions,
        outcome=outcome_name(score.end),
        player=hand.showdown.winner,
        points=points_text(score),
    )


# -- in a game: the terminal's telling ----------------------------------------------


def outcome_line(showdown: Showdown, names: Sequence[str]) -> str:
    """``undercut: you score (8 - 6) + 25 undercut bonus = 27``."""
    score = showdown.score
    return said(
        names[showdown.winner],
        N_("{outcome}: you score {points}"),
        N_("{outcome}: {name} scores {points}"),
        outcome=outcome_name(score.end),
        points=points_text(score),
    )


def game_lines(hand: Hand, names: Sequence[str], view: CardView, config: EngineConfig) -> list[str]:
    """The end of a hand in words: both hands, lay-offs, the outcome and its points."""
    showdown = hand.showdown
    if showdown is None:
        lines = [
            "",
            _("-- dead hand --"),
            _("the stock is down to {cards} cards and nobody knocked: nobody scores").format(
                cards=len(hand.stock)
            ),
        ]
        lines += [
            _("{name} held: {hand}").format(name=names[seat], hand=view.hand(hand.cards(seat)))
            for seat in (0, 1)
        ]
        return lines
    knocker = names[showdown.knocker]
    defender = names[1 - showdown.knocker]
    shown = showdown.knocker_arrangement
    defense = showdown.defense
    end = showdown.score.end
    discard = showdown.knock_discard
    if end is HandEnd.BIG_GIN:
        how = said(knocker, N_("you lay down big gin"), N_("{name} lays down big gin"))
    elif end is HandEnd.GIN and discard:
        how = said(
            knocker,
            N_("you go gin, discarding {card} face down"),
            N_("{name} goes gin, discarding {card} face down"),
            card=view.card(discard),
        )
    elif end is HandEnd.GIN:
        how = said(knocker, N_("you go gin"), N_("{name} goes gin"))
    elif discard:
        how = said(
            knocker,
            N_("you knock, discarding {card} face down"),
            N_("{name} knocks, discarding {card} face down"),
            card=view.card(discard),
        )
    else:
        how = said(knocker, N_("you knock"), N_("{name} knocks"))
    lines = [
        "",
        _("-- showdown: {how} --").format(how=how),
        said(
            knocker,
            N_("you show: {cards}"),
            N_("{name} shows: {cards}"),
            cards=view.arrangement(shown),
        ),
    ]
    if defense.layoffs:
        by_meld: dict[int, list[Card]] = {}
        for lay in defense.layoffs:
            by_meld.setdefault(lay.meld_index, []).append(lay.card)
        laid = "; ".join(
            _("{cards} on {meld}").format(
                cards=view.cards(sort_for_display(cards)), meld=view.meld(shown.melds[index])
            )
            for index, cards in sorted(by_meld.items())
        )
        lines.append(
            said(defender, N_("you lay off {laid}"), N_("{name} lays off {laid}"), laid=laid)
        )
    elif end in (HandEnd.GIN, HandEnd.BIG_GIN):
        lines.append(
            said(
                defender,
                N_("you lay off nothing: no lay-offs on gin"),
                N_("{name} lays off nothing: no lay-offs on gin"),
            )
        )
    elif not config.layoffs:
        lines.append(
            said(
                defender,
                N_("you lay off nothing: no lay-offs under these rules"),
                N_("{name} lays off nothing: no lay-offs under these rules"),
            )
        )
    else:
        lines.append(said(defender, N_("you lay off nothing"), N_("{name} lays off nothing")))
    lines.append(
        said(
            defender,
            N_("you show: {cards}"),
            N_("{name} shows: {cards}"),
            cards=view.arrangement(defense.arrangement),
        )
    )
    lines.append(outcome_line(showdown, names))
    return lines


__all__ = [
    "YOU",
    "game_lines",
    "layoff_list",
    "list_separator",
    "meld_text",
    "outcome_line",
    "points_text",
    "said",
    "summary_line",
    "table_lines",
]
