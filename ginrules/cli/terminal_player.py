"""The person at the keyboard, as a player: shows the table, reads a move.

A typed move goes through :func:`~ginrules.engine.actions.parse_action` and
is tried on a copy of the hand first, so a move the rules refuse prints the
engine's reason and the person is asked again.
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from typing import Final, TextIO

from ginrules.cards import Card, mask_to_cards, parse_cards, sort_for_display
from ginrules.cli.common import Output
from ginrules.engine.actions import BIG_GIN, DEFEND_BEST, TAKE, Act, Action, knock, parse_action
from ginrules.engine.hand import Hand, Observation, Phase
from ginrules.engine.illegal import IllegalAction
from ginrules.engine.scoring import Showdown
from ginrules.layoffs import Layoff, LayoffError, lay_off, layoff_spots
from ginrules.melds import AceRule, Meld, scorer
from ginrules.rules.compile import EngineConfig
from ginrules.words import problems, turns
from ginrules.words.cards import CardView
from ginrules.words.game import knock_limit_words
from ginrules.words.i18n import _
from ginrules.words.showdown import YOU

QUIT_WORDS: Final = frozenset({"q", "quit", "exit"})
HELP_WORDS: Final = frozenset({"?", "h", "help"})
KNOCK_WORDS: Final = frozenset({"knock", "k", "gin", "g"})
TAKE_WORDS: Final = frozenset({"take", "t", "pile"})


class Quit(Exception):
    """The person typed q, or the input ended."""


class TerminalPlayer:
    """The person at the keyboard, as a player: shows the table, reads a move.

    It satisfies the :class:`~ginrules.engine.bots.Bot` protocol. The session
    seats it at each of the person's hands with :meth:`sit_down`; the hand is
    used only to try a typed move on a copy (for the engine's reason when it
    is refused) and, at a knock, to see the melds that lie face up.
    """

    name = YOU
    observes = True

    def __init__(
        self, config: EngineConfig, output: Output, view: CardView, *, auto_showdown: bool
    ) -> None:
        self.config = config
        self.output = output
        self.view = view
        self.auto_showdown = auto_showdown
        self.echo = not _interactive(output.inp)
        self.deadwood = scorer(config.ace).deadwood
        self.hand: Hand | None = None
        self.opponent = "bot"
        #: The hand mask before a draw from the stock, to name the card drawn.
        self._before_draw: int | None = None

    def sit_down(self, hand: Hand, opponent: str) -> None:
        self.hand = hand
        self.opponent = opponent
        self._before_draw = None

    # -- the Bot protocol ----------------------------------------------------

    def choose(
        self, observation: Observation | None, legal: Sequence[Action], rng: random.Random
    ) -> Action:
        assert observation is not None, "the person always observes"
        if observation.phase is Phase.LAYOFF:
            return self.defend(observation)
        self.show_turn(observation, legal)
        while True:
            text = self.ask(turns.moves_help())
            if not text:
                self.say(turns.moves_line(self.moves(observation, legal)))
                continue
            try:
                action = self.read_move(text, observation, legal)
                self.try_on_copy(action)
            except ValueError as error:  # IllegalAction, CardError and unreadable moves
                self.refuse(error)
                continue
            if action.kind is Act.KNOCK and not self.auto_showdown:
                action = self.choose_melds(action)
            self._before_draw = observation.hand if action.kind is Act.DRAW_STOCK else None
            return action

    # -- reading -------------------------------------------------------------

    def say(self, text: str = "") -> None:
        self.output.line(text)

    def refuse(self, error: ValueError) -> None:
        """The engine's reason for refusing a move, or why the text is not one."""
        if isinstance(error, IllegalAction):
            self.say(_("  not allowed: {reason}").format(reason=problems.message(error)))
        else:
            self.say(f"  {problems.message(error)}")

    def ask(self, help_text: str, prompt: str = turns.PROMPT) -> str:
        """A line from the person, stripped; raises :class:`Quit` on q or at the end of input."""
        while True:
            print(prompt, end="", file=self.output.out, flush=True)
            line = self.output.inp.readline()
            if not line:
                self.say()
                raise Quit
            text = line.strip()
            if self.echo:  # piped input: show it, so the transcript reads as a dialogue
                self.say(text)
            if text.lower() in QUIT_WORDS:
                raise Quit
            if text.lower() not in HELP_WORDS:
                return text
            self.say(help_text)

    def read_move(self, text: str, observation: Observation, legal: Sequence[Action]) -> Action:
        """A typed move as an action (not yet checked against the rules)."""
        words = text.split()
        verb = words[0].lower()
        top = observation.pile[-1] if observation.pile else None
        if verb in KNOCK_WORDS and len(words) == 1:
            self.knock_without_card(observation, legal)
        if verb in TAKE_WORDS and len(words) == 2:
            card = Card.parse(words[1])
            if card != top:
                raise ValueError(turns.wrong_take(card, top))
            return TAKE
        action = parse_action(text)
        if (
            action.kind is Act.DISCARD
            and observation.phase is not Phase.DISCARD
            and action.card == top
        ):
            return TAKE  # naming the card on the pile takes it
        return action

    def knock_without_card(self, observation: Observation, legal: Sequence[Action]) -> None:
        """``knock`` with no card: raise, naming the knocks there are, or why there are none."""
        knocks = [a for a in legal if a.kind is Act.KNOCK]
        if knocks:
            raise ValueError(
                turns.which_knock([self.knock_words(a, observation.hand) for a in knocks])
            )
        if observation.phase is not Phase.DISCARD:
            raise ValueError(turns.knock_after_drawing())
        # The engine's reason for the knock that comes closest.
        mask = observation.hand
        taken = observation.taken
        choices = [c for c in mask_to_cards(mask) if c != taken] or mask_to_cards(mask)
        closest = min(choices, key=lambda c: (self.deadwood(mask ^ c.bit), c.index))
        self.try_on_copy(knock(closest))
        raise ValueError(turns.which_knock_example())

    def try_on_copy(self, action: Action) -> Hand:
        """Apply ``action`` to a copy of the hand; IllegalAction says why it is refused."""
        assert self.hand is not None, "sit_down first"
        trial = self.hand.copy()
        trial.apply(action)
        return trial

    # -- showing -------------------------------------------------------------

    def show_turn(self, observation: Observation, legal: Sequence[Action]) -> None:
        view = self.view
        cards = mask_to_cards(observation.hand)
        phase = observation.phase
        if phase is Phase.DISCARD and observation.taken is not None:
            self.say(turns.you_took(view.card(observation.taken)))
        elif phase is Phase.DISCARD and self._before_draw is not None:
            (drawn,) = mask_to_cards(observation.hand & ~self._before_draw)
            self.say(turns.you_drew(view.card(drawn)))
        else:
            self.say()
            self.say(turns.your_turn(observation.phase))
            self.say(self.table_line(observation))
            known = sort_for_display(mask_to_cards(observation.opponent_known))
            if known:
                self.say(turns.opponent_holds(self.opponent, view.cards(known)))
        self.say(turns.your_hand(view.hand(cards)))
        self.say(turns.moves_line(self.moves(observation, legal)))

    def table_line(self, observation: Observation) -> str:
        assert self.hand is not None
        pile = observation.pile
        return turns.table_line(
            self.view.card(pile[-1]) if pile else None,
            len(pile),
            observation.stock_left,
            self.config.stock_end_cards_left,
            knock_limit_words(self.config, self.hand, self.view),
        )

    def knock_words(self, action: Action, mask: int) -> str:
        """``knock 3C (leaves 3)`` or ``gin 3C``, for the hand ``mask`` before the discard."""
        assert action.card is not None
        left = self.deadwood(mask ^ action.card.bit)
        return turns.knock_option(action.card, left)

    def moves(self, observation: Observation, legal: Sequence[Action]) -> list[str]:
        """The legal moves in words, as they may be typed."""
        top = observation.pile[-1] if observation.pile else None
        phase = observation.phase
        if phase is Phase.OFFER:
            return turns.offer_moves(top)
        if phase is Phase.LAST_CHANCE:
            return turns.last_chance_moves(top)
        if phase is Phase.DRAW:
            return turns.draw_moves(top, TAKE in legal)
        words = []
        mask = observation.hand
        discards = [a.card for a in legal if a.kind is Act.DISCARD and a.card is not None]
        if discards:
            example = min(
                discards,
                key=lambda c: (self.deadwood(mask ^ c.bit), -self.config.ace.card_value(c)),
            )
            taken = observation.taken
            but = taken if taken is not None and taken not in discards else None
            words.append(turns.discard_move(example, but))
        knock_cards = sorted(
            (a.card for a in legal if a.kind is Act.KNOCK and a.card is not None),
            key=lambda c: (self.deadwood(mask ^ c.bit), c.index),
        )
        words += [self.knock_words(knock(card), mask) for card in knock_cards]
        if BIG_GIN in legal:
            words.append(turns.big_gin_move())
        return words

    # -- the showdown --------------------------------------------------------

    def choose_melds(self, action: Action) -> Action:
        """At the person's knock: the melds to show, the best arrangement by default."""
        showdown = _settled(self.try_on_copy(action))
        best = showdown.knocker_arrangement
        if best.deadwood == 0 or not self.config.layoffs or action.card is None:
            return action  # gin, or no lay-offs: no other melds could do better
        self.say(turns.you_knock_discarding(self.view.card(action.card)))
        self.say(turns.melds_to_show(self.view.arrangement(best)))
        self.say(turns.melds_invitation())
        while True:
            text = self.ask(turns.melds_help(), prompt=turns.MELDS_PROMPT)
            if not text:
                return action
            try:
                chosen = Action(Act.KNOCK, action.card, melds=_read_melds(text))
                self.try_on_copy(chosen)
            except ValueError as error:
                self.refuse(error)
                continue
            return chosen

    def defend(self, observation: Observation) -> Action:
        """At the opponent's knock: the lay-offs, the best defense by default."""
        showdown = _settled(self.try_on_copy(DEFEND_BEST))
        if self.auto_showdown:
            return DEFEND_BEST
        view = self.view
        shown = showdown.knocker_arrangement
        self.say()
        self.say(turns.knocks_showing(self.opponent, shown.deadwood))
        for number, meld in enumerate(shown.melds, 1):
            self.say(turns.numbered_meld(number, view.meld(meld)))
        if shown.unmatched:
            self.say(turns.knocker_deadwood(view.cards(sort_for_display(shown.unmatched))))
        cards = mask_to_cards(observation.hand)
        self.say(turns.your_hand(view.hand(cards)))
        if not layoff_spots(shown.melds, self.config.ace) & set(cards):
            self.say(turns.nothing_fits())
            return DEFEND_BEST
        best = showdown.defense
        laid = " ".join(f"{view.card(lay.card)}>{lay.meld_index + 1}" for lay in best.layoffs)
        self.say(turns.best_defense(laid, view.arrangement(best.arrangement)))
        self.say(turns.layoffs_invitation())
        while True:
            text = self.ask(turns.layoffs_help(), prompt=turns.LAYOFFS_PROMPT)
            if not text:
                return DEFEND_BEST
            try:
                layoffs = _read_layoffs(text, shown.melds, self.config.ace)
                chosen = Action(Act.DEFEND, layoffs=layoffs)
                self.try_on_copy(chosen)
            except ValueError as error:
                self.refuse(error)
                continue
            return chosen


def _interactive(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def _settled(hand: Hand) -> Showdown:
    """The showdown of a hand just knocked (the defender at their best, if still to reply)."""
    if hand.phase is Phase.LAYOFF:
        hand.apply(DEFEND_BEST)
    assert hand.showdown is not None
    return hand.showdown


def _read_melds(text: str) -> tuple[tuple[Card, ...], ...]:
    """``7H 8H 9H / KS KD KC`` (or ``[7H 8H 9H] [KS KD KC]``); ``none`` shows no melds."""
    if text.strip().lower() == "none":
        return ()
    groups = [group for group in re.split(r"[/|;\[\]]+", text) if group.strip()]
    return tuple(tuple(parse_cards(group)) for group in groups)


def _read_layoffs(text: str, melds: Sequence[Meld], ace: AceRule) -> tuple[Layoff, ...]:
    """``TH>1 JH>1``, in order; a card alone goes on the first meld it fits."""
    if text.strip().lower() in ("none", "no", "nothing", "-"):
        return ()
    chosen: list[Layoff] = []
    for token in re.split(r"[\s,]+", text.strip()):
        card_text, arrow, target = token.partition(">")
        card = Card.parse(card_text)
        if arrow:
            if not target.isdigit():
                raise ValueError(turns.meld_number_needed(token))
            chosen.append(Layoff(card, int(target) - 1))
            continue
        for index in range(len(melds)):
            try:
                lay_off(melds, [*chosen, Layoff(card, index)], ace)
            except LayoffError:
                continue
            chosen.append(Layoff(card, index))
            break
        else:
            raise ValueError(turns.fits_no_meld(card))
    return tuple(chosen)
