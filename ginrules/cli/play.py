"""The ``play`` command: a person against bots at the terminal.

The person sits at table seat 0 as a :class:`TerminalPlayer`: a player like
the bots (it picks an action from the legal ones, given what its seat can
see) whose choice is a line typed at the keyboard. A :class:`Session` deals
the match's hands, says what the bots do in the person's hands, explains
every showdown and keeps the score. In partnership and three-handed games
the hands between two bots are played silently and only their results are
shown.

A typed move goes through :func:`~ginrules.engine.actions.parse_action` and
is tried on a copy of the hand first, so a move the rules refuse prints the
engine's reason and the person is asked again.
"""

from __future__ import annotations

import argparse
import json
import random
import re
from collections.abc import Iterable, Sequence
from typing import Final, TextIO

from ginrules.cards import Card, format_cards, mask_to_cards, parse_cards, sort_for_display
from ginrules.cli.common import EXIT_INVALID, EXIT_OK, AddCommand, Output, config_or_report
from ginrules.engine.actions import BIG_GIN, DEFEND_BEST, TAKE, Act, Action, knock, parse_action
from ginrules.engine.bots import BOTS, Bot, make_bot
from ginrules.engine.hand import Hand, IllegalAction, Observation, Phase
from ginrules.engine.match import Deal, HandOutcome, Match, MatchError, new_match
from ginrules.engine.play import play_hand
from ginrules.engine.scoreboard import GameResult
from ginrules.engine.scoring import HandEnd, Showdown
from ginrules.layoffs import Layoff, LayoffError, lay_off, layoff_spots
from ginrules.melds import AceRule, Arrangement, Meld, best_melds, scorer
from ginrules.rules.compile import EngineConfig, FormatType

#: The person's name at the table; the verbs agree with it (``you knock``, ``bot knocks``).
YOU: Final = "you"
QUIT_WORDS: Final = frozenset({"q", "quit", "exit"})
HELP_WORDS: Final = frozenset({"?", "h", "help"})
KNOCK_WORDS: Final = frozenset({"knock", "k", "gin", "g"})
TAKE_WORDS: Final = frozenset({"take", "t", "pile"})

MOVES_HELP: Final = """\
Type a move and press Enter:
  draw, d            take the top card of the stock
  take, t            take the top card of the discard pile (or type that card)
  pass, p            turn down the upcard, or the last discard
  7H, discard 7H     discard a card: rank A 2-9 T (or 10) J Q K, suit C D H S (or ♣ ♦ ♥ ♠)
  knock 3C, gin 3C   discard 3C face down and knock (gin when no deadwood is left)
  big gin            lay down eleven melded cards, when the rules play it
  ?, help            this help
  q, quit, Ctrl-D    leave the game; the score so far is shown"""

MELDS_HELP: Final = """\
Press Enter to show the melds offered, or type the melds you want to show,
separated by / (for example 7H 8H 9H / KS KD KC). Cards in no meld count as
deadwood, and the deadwood must stay within the knock limit.
q quits."""

LAYOFFS_HELP: Final = """\
Press Enter to take the best defense offered, or type your lay-offs in order
as CARD>MELD (for example TH>1 JH>1: a card may go next to one laid off just
before it). A card without >MELD goes on the first meld it fits. Type none to
lay off nothing. Your other cards are then melded at their best.
q quits."""


class Quit(Exception):
    """The person typed q, or the input ended."""


def _does(name: str, verb: str) -> str:
    """``you knock`` but ``bot knocks``, ``bot passes``, ``bot goes``."""
    if name == YOU:
        return f"{name} {verb}"
    ending = "es" if verb.endswith(("s", "sh", "ch", "x", "o")) else "s"
    return f"{name} {verb}{ending}"


class CardView:
    """How cards are written for the person: with suit symbols or with letters."""

    def __init__(self, ace: AceRule, *, symbols: bool) -> None:
        self.ace = ace
        self.symbols = symbols

    def card(self, card: Card) -> str:
        return format_cards([card], symbols=self.symbols)

    def cards(self, cards: Iterable[Card]) -> str:
        return format_cards(cards, symbols=self.symbols)

    def meld(self, meld: Meld) -> str:
        return f"[{self.cards(meld.cards)}]"

    def arrangement(self, arrangement: Arrangement) -> str:
        """``[7♥ 8♥ 9♥] [K♠ K♦ K♣]  4♣ 9♦ | deadwood 13``."""
        melds = " ".join(self.meld(meld) for meld in arrangement.melds)
        loose = self.cards(sort_for_display(arrangement.unmatched))
        shown = "  ".join(part for part in (melds, loose) if part) or "no cards"
        return f"{shown} | deadwood {arrangement.deadwood}"

    def hand(self, cards: Sequence[Card]) -> str:
        """A hand sorted with its best melds grouped first."""
        return self.arrangement(best_melds(cards, self.ace))


def knock_limit_words(config: EngineConfig, hand: Hand, view: CardView) -> str:
    limit = hand.knock_limit
    text = f"knock limit {limit}" + (" (gin only)" if limit == 0 else "")
    if config.oklahoma and hand.upcard is not None:
        text += f", set by the upcard {view.card(hand.upcard)}"
    return text


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
            text = self.ask(MOVES_HELP)
            if not text:
                self.say("moves: " + " | ".join(self.moves(observation, legal)))
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
        self.say(f"  {'not allowed: ' if isinstance(error, IllegalAction) else ''}{error}")

    def ask(self, help_text: str, prompt: str = "> ") -> str:
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
                shown = "empty" if top is None else str(top)
                raise ValueError(f"take {card}: the top of the discard pile is {shown}")
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
                "knock with which discard? "
                + ", ".join(self.knock_words(a, observation.hand) for a in knocks)
            )
        if observation.phase is not Phase.DISCARD:
            raise ValueError("you knock after drawing, as you discard: draw or take a card first")
        # The engine's reason for the knock that comes closest.
        mask = observation.hand
        taken = observation.taken
        choices = [c for c in mask_to_cards(mask) if c != taken] or mask_to_cards(mask)
        closest = min(choices, key=lambda c: (self.deadwood(mask ^ c.bit), c.index))
        self.try_on_copy(knock(closest))
        raise ValueError("knock with which discard? type knock and a card, such as knock 9D")

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
            self.say(f"you took {view.card(observation.taken)}")
        elif phase is Phase.DISCARD and self._before_draw is not None:
            (drawn,) = mask_to_cards(observation.hand & ~self._before_draw)
            self.say(f"you drew {view.card(drawn)}")
        else:
            self.say()
            self.say(f"-- your turn ({self.phase_words(observation)}) --")
            self.say(self.table_line(observation))
            known = sort_for_display(mask_to_cards(observation.opponent_known))
            if known:
                self.say(f"{self.opponent} took from the pile and holds: {view.cards(known)}")
        self.say(f"your hand: {view.hand(cards)}")
        self.say("moves: " + " | ".join(self.moves(observation, legal)))

    def phase_words(self, observation: Observation) -> str:
        return {
            Phase.OFFER: "the upcard is offered to you",
            Phase.DRAW: "draw",
            Phase.DISCARD: "discard",
            Phase.LAST_CHANCE: "the stock is out: the last discard is offered to you",
        }.get(observation.phase, observation.phase.value)

    def table_line(self, observation: Observation) -> str:
        assert self.hand is not None
        pile = observation.pile
        top = (
            f"{self.view.card(pile[-1])} ({len(pile)} card{'s' if len(pile) != 1 else ''})"
            if pile
            else "empty"
        )
        stock = f"{observation.stock_left} (dead at {self.config.stock_end_cards_left})"
        limit = knock_limit_words(self.config, self.hand, self.view)
        return f"discard pile: {top} | stock: {stock} | {limit}"

    def knock_words(self, action: Action, mask: int) -> str:
        """``knock 3C (leaves 3)`` or ``gin 3C``, for the hand ``mask`` before the discard."""
        assert action.card is not None
        left = self.deadwood(mask ^ action.card.bit)
        return f"gin {action.card}" if left == 0 else f"knock {action.card} (leaves {left})"

    def moves(self, observation: Observation, legal: Sequence[Action]) -> list[str]:
        """The legal moves in words, as they may be typed."""
        top = observation.pile[-1] if observation.pile else None
        phase = observation.phase
        if phase is Phase.OFFER:
            return [f"take {top} (the upcard)", "pass"]
        if phase is Phase.LAST_CHANCE:
            return [
                f"take {top} (the last discard; then you must knock or go gin)",
                "pass (the hand is dead)",
            ]
        if phase is Phase.DRAW:
            words = ["draw (from the stock)"]
            if TAKE in legal:
                words.append(f"take {top} (from the pile)")
            else:
                words[0] += "; the upcard was turned down, so no taking it now"
            return words
        words = []
        mask = observation.hand
        discards = [a.card for a in legal if a.kind is Act.DISCARD and a.card is not None]
        if discards:
            example = min(
                discards,
                key=lambda c: (self.deadwood(mask ^ c.bit), -self.config.ace.card_value(c)),
            )
            taken = observation.taken
            but = f" except {taken}" if taken is not None and taken not in discards else ""
            words.append(f"discard a card{but} (e.g. {example})")
        knock_cards = sorted(
            (a.card for a in legal if a.kind is Act.KNOCK and a.card is not None),
            key=lambda c: (self.deadwood(mask ^ c.bit), c.index),
        )
        words += [self.knock_words(knock(card), mask) for card in knock_cards]
        if BIG_GIN in legal:
            words.append("big gin")
        return words

    # -- the showdown --------------------------------------------------------

    def choose_melds(self, action: Action) -> Action:
        """At the person's knock: the melds to show, the best arrangement by default."""
        showdown = _settled(self.try_on_copy(action))
        best = showdown.knocker_arrangement
        if best.deadwood == 0 or not self.config.layoffs or action.card is None:
            return action  # gin, or no lay-offs: no other melds could do better
        self.say(f"you knock, discarding {self.view.card(action.card)} face down")
        self.say(f"melds to show: {self.view.arrangement(best)}")
        self.say("Enter shows them; or type your own melds, like 7H 8H 9H / KS KD KC (? for help)")
        while True:
            text = self.ask(MELDS_HELP, prompt="melds> ")
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
        self.say(f"-- {_does(self.opponent, 'knock')} with {shown.deadwood} deadwood, showing --")
        for number, meld in enumerate(shown.melds, 1):
            self.say(f"  {number}: {view.meld(meld)}")
        if shown.unmatched:
            self.say(f"  deadwood: {view.cards(sort_for_display(shown.unmatched))}")
        cards = mask_to_cards(observation.hand)
        self.say(f"your hand: {view.hand(cards)}")
        if not layoff_spots(shown.melds, self.config.ace) & set(cards):
            self.say("none of your cards fits on those melds")
            return DEFEND_BEST
        best = showdown.defense
        laid = " ".join(f"{view.card(lay.card)}>{lay.meld_index + 1}" for lay in best.layoffs)
        self.say(
            f"best defense: lay off {laid or 'nothing'}, leaving"
            f" {view.arrangement(best.arrangement)}"
        )
        self.say("Enter takes it; or type your lay-offs, like TH>1 (none for none, ? for help)")
        while True:
            text = self.ask(LAYOFFS_HELP, prompt="lay off> ")
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
                raise ValueError(f"{token}: write the meld's number after >, as in TH>1")
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
            raise ValueError(f"{card} fits on none of the knocker's melds")
    return tuple(chosen)


# --- the session --------------------------------------------------------------


def seat_names(config: EngineConfig, players: int) -> list[str]:
    if config.format is FormatType.PARTNERSHIP:
        return [YOU, "bot 1", "partner", "bot 3"]
    if players == 2:
        return [YOU, "bot"]
    return [YOU, *(f"bot {seat}" for seat in range(1, players))]


class Session:
    """A match between the person (table seat 0) and bots, hand by hand, in words."""

    def __init__(
        self,
        config: EngineConfig,
        match: Match,
        person: TerminalPlayer,
        bots: Sequence[Bot],
        output: Output,
        *,
        seed: int,
        ruleset: str,
        record: TextIO | None = None,
    ) -> None:
        self.config = config
        self.match = match
        self.person = person
        self.players: list[Bot] = [person, *bots]
        self.output = output
        self.view = person.view
        self.ruleset = ruleset
        self.record = record
        self.names = seat_names(config, match.players)
        # The same seeding as Match.play: a session replays from its seed.
        self.rngs = [random.Random(seed * 7919 + seat + 1) for seat in range(match.players)]
        self.hands = 0

    def say(self, text: str = "") -> None:
        self.output.line(text)

    # -- names of sides --------------------------------------------------------

    @property
    def partnership(self) -> bool:
        return self.config.format is FormatType.PARTNERSHIP

    def side_name(self, side: int) -> str:
        """A scoreboard side: a player, or a team in a partnership."""
        if self.partnership:
            return "team A" if side == 0 else "team B"
        return self.names[side]

    def score_line(self) -> str:
        if self.partnership:
            return f"score (you and {self.names[2]} are team A): {self.match.standing()}"
        joiner = " to " if len(self.names) == 2 else " / "
        return f"score ({joiner.join(self.names)}): {self.match.standing()}"

    # -- playing ---------------------------------------------------------------

    def play(self) -> None:
        """Play until the match is finished (Quit escapes from the person's prompt)."""
        number = 0
        while not self.match.finished:
            number += 1
            deals = self.match.deals()
            played = [(deal, self.play_deal(number, deal)) for deal in deals]
            for deal, hand in played:
                if 0 not in deal.seats:
                    self.say(self.silent_summary(deal, hand))
            if self.partnership:
                self.say(self.net_line(played))
            self.match.record([HandOutcome.of(hand) for _, hand in played])
            self.hands = number
            self.say(self.score_line())
        self.show_results(self.match.results())

    def play_deal(self, number: int, deal: Deal) -> Hand:
        hand = deal.hand(self.config)
        if 0 in deal.seats:
            self.play_with_person(number, deal, hand)
        else:
            players = [self.players[seat] for seat in deal.seats]
            play_hand(hand, players, [self.rngs[seat] for seat in deal.seats])
        if self.record is not None:
            print(json.dumps(hand.to_record(self.ruleset)), file=self.record, flush=True)
        return hand

    def play_with_person(self, number: int, deal: Deal, hand: Hand) -> None:
        names = [self.names[seat] for seat in deal.seats]
        me = deal.seats.index(0)
        opponent = names[1 - me]
        self.person.sit_down(hand, opponent)
        self.header(number, deal, hand, names)
        players = [self.players[seat] for seat in deal.seats]
        rngs = [self.rngs[seat] for seat in deal.seats]
        while not hand.over:
            seat = hand.to_move
            player = players[seat]
            observation = hand.observation(seat) if player.observes else None
            phase = hand.phase
            top = hand.pile[-1] if hand.pile else None
            action = player.choose(observation, hand.legal_actions(), rngs[seat])
            hand.apply(action)
            if seat != me:
                said = self.bot_move(names[seat], phase, action, top)
                if said:
                    self.say(f"  {said}")
        for line in self.explain(hand, names):
            self.say(line)

    def header(self, number: int, deal: Deal, hand: Hand, names: Sequence[str]) -> None:
        view = self.view
        first = names[1 - deal.dealer]
        me = deal.seats.index(0)
        if self.config.format is FormatType.THREE_HANDED:
            # The dealer sits out (never the person, who is playing this hand).
            (out,) = (name for seat, name in enumerate(self.names) if seat not in deal.seats)
            deals = f"{out} deals and sits out"
        else:
            deals = _does(names[deal.dealer], "deal")
        self.say()
        against = f": you against {names[1 - me]}" if len(self.names) > 2 else ""
        self.say(
            f"=== hand {number}{against}; {deals}, {_does(first, 'play')} first"
            f" (you are player {me}) ==="
        )
        notes = [knock_limit_words(self.config, hand, view)]
        if self.config.spades_doubled(hand.upcard):
            notes.append("a spade upcard: this hand scores double")
        if self.partnership:
            others = [self.names[s] for s in range(4) if s not in deal.seats]
            notes.append(f"{others[0]} plays {others[1]} at the other table")
        self.say("; ".join(notes))

    def bot_move(self, name: str, phase: Phase, action: Action, top: Card | None) -> str | None:
        """A bot's move as the person sees it (a card drawn from the stock stays hidden)."""
        view = self.view
        shown = "" if top is None else view.card(top)
        kind = action.kind
        if phase is Phase.OFFER:
            verb = "take" if kind is Act.TAKE else "pass"
            return f"{_does(name, verb)} the upcard {shown}"
        if phase is Phase.LAST_CHANCE:
            verb = "take" if kind is Act.TAKE else "pass"
            return f"{_does(name, verb)} the last discard {shown}"
        if kind is Act.DRAW_STOCK:
            return f"{_does(name, 'draw')} from the stock"
        if kind is Act.TAKE:
            return f"{_does(name, 'take')} {shown} from the pile"
        if kind is Act.DISCARD and action.card is not None:
            return f"{_does(name, 'discard')} {view.card(action.card)}"
        return None  # a knock or big gin: the showdown that follows says it

    # -- explaining ------------------------------------------------------------

    def explain(self, hand: Hand, names: Sequence[str]) -> list[str]:
        """The end of a hand in words: both hands, lay-offs, the outcome and its points."""
        view = self.view
        showdown = hand.showdown
        if showdown is None:
            lines = [
                "",
                "-- dead hand --",
                f"the stock is down to {len(hand.stock)} cards and nobody knocked: nobody scores",
            ]
            lines += [f"{names[seat]} held: {view.hand(hand.cards(seat))}" for seat in (0, 1)]
            return lines
        knocker = names[showdown.knocker]
        defender = names[1 - showdown.knocker]
        shown = showdown.knocker_arrangement
        defense = showdown.defense
        score = showdown.score
        end = score.end
        if end is HandEnd.BIG_GIN:
            how = f"{_does(knocker, 'lay')} down big gin"
        else:
            verb = "go" if end is HandEnd.GIN else "knock"
            discard = showdown.knock_discard
            face_down = f", discarding {view.card(discard)} face down" if discard else ""
            how = f"{_does(knocker, verb)}{' gin' if end is HandEnd.GIN else ''}{face_down}"
        lines = [
            "",
            f"-- showdown: {how} --",
            f"{_does(knocker, 'show')}: {view.arrangement(shown)}",
        ]
        if defense.layoffs:
            by_meld: dict[int, list[Card]] = {}
            for lay in defense.layoffs:
                by_meld.setdefault(lay.meld_index, []).append(lay.card)
            laid = "; ".join(
                f"{view.cards(sort_for_display(cards))} on {view.meld(shown.melds[index])}"
                for index, cards in sorted(by_meld.items())
            )
            lines.append(f"{_does(defender, 'lay')} off {laid}")
        elif end in (HandEnd.GIN, HandEnd.BIG_GIN):
            lines.append(f"{_does(defender, 'lay')} off nothing: no lay-offs on gin")
        elif not self.config.layoffs:
            lines.append(f"{_does(defender, 'lay')} off nothing: no lay-offs under these rules")
        else:
            lines.append(f"{_does(defender, 'lay')} off nothing")
        lines.append(f"{_does(defender, 'show')}: {view.arrangement(defense.arrangement)}")
        lines.append(f"{self.outcome(showdown, names)}")
        return lines

    def outcome(self, showdown: Showdown, names: Sequence[str]) -> str:
        """``undercut: you score (8 - 6) + 25 undercut bonus = 27``."""
        score = showdown.score
        end = score.end.value.replace("_", " ")
        winner = names[showdown.winner]
        return f"{end}: {_does(winner, 'score')} {score.explain()}"

    def silent_summary(self, deal: Deal, hand: Hand) -> str:
        names = [self.names[seat] for seat in deal.seats]
        where = f"{names[0]} against {names[1]}"
        if 0 not in deal.seats and not self.partnership:
            where = f"you deal and sit out; {where}"
        if hand.showdown is None:
            return f"{where}: a dead hand, nobody scores"
        return f"{where}: {self.outcome(hand.showdown, names)}"

    def net_line(self, played: Sequence[tuple[Deal, Hand]]) -> str:
        net = 0
        for deal, hand in played:
            if hand.showdown is not None:
                winner = deal.seats[hand.showdown.winner]
                points = hand.showdown.score.points
                net += points if winner % 2 == 0 else -points
        if net == 0:
            return "the two tables cancel out: nobody scores this hand"
        side = 0 if net > 0 else 1
        return f"netted: {_does(self.side_name(side), 'score')} {abs(net)}"

    def show_results(self, results: Sequence[GameResult]) -> None:
        self.say()
        self.say("=== game over ===")
        stake = self.config.stake_per_point
        for number, result in enumerate(results, 1):
            title = f"game {number}: " if len(results) > 1 else ""
            sides = range(len(result.points))
            points = ", ".join(f"{self.side_name(s)} {result.points[s]}" for s in sides)
            boxes = ", ".join(f"{self.side_name(s)} {result.boxes[s]}" for s in sides)
            winner = self.side_name(result.winner)
            self.say(
                f"{title}{_does(winner, 'win')}: {points} after {result.hands} hands"
                f" (boxes: {boxes})"
            )
            for settlement in result.settlements:
                loser = self.side_name(settlement.loser)
                text = (
                    f"  {winner} {settlement.winner_total} to {loser} {settlement.loser_total}"
                    f" with the bonuses: a margin of {settlement.margin}"
                )
                if settlement.shutout:
                    text += " (a shutout)"
                if stake > 0:
                    text += f"; {_does(loser, 'pay')} {settlement.payment:g} at {stake:g} a point"
                self.say(text)

    def abandon(self) -> None:
        self.say(f"game abandoned after {self.hands} hand{'s' if self.hands != 1 else ''}")
        self.say(self.score_line())


# --- the command ----------------------------------------------------------------


def cmd_play(args: argparse.Namespace, output: Output) -> int:
    config = config_or_report(args.ruleset, output)
    if config is None:
        return EXIT_INVALID
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(1_000_000)
    try:
        match = new_match(config, seed)
    except MatchError as error:
        output.problem(f"{args.ruleset}: error: {error}")
        return EXIT_INVALID
    symbols = args.symbols if args.symbols is not None else _speaks_utf8(output.out)
    view = CardView(config.ace, symbols=symbols)
    person = TerminalPlayer(config, output, view, auto_showdown=args.auto_showdown)
    bots = [make_bot(args.bot, config.ace) for _ in range(match.players - 1)]
    record = None
    if args.record:
        try:
            record = open(args.record, "a", encoding="utf-8")  # noqa: SIM115 (closed below)
        except OSError as error:
            output.problem(f"{args.record}: error: cannot write: {error}")
            return EXIT_INVALID
    session = Session(
        config, match, person, bots, output, seed=seed, ruleset=args.ruleset, record=record
    )
    opponents = f"the {args.bot} bot" if match.players == 2 else f"{args.bot} bots"
    game = {
        FormatType.TWO_PLAYER: "one game",
        FormatType.HOLLYWOOD: f"Hollywood, {config.games} games at once",
        FormatType.PARTNERSHIP: "partnership: you and a bot partner against two bots",
        FormatType.THREE_HANDED: "three-handed: the dealer sits out each hand",
    }[config.format]
    output.line(
        f"ginrules play {args.ruleset} (rules {config.fingerprint}), seed {seed}:"
        f" you against {opponents}; {game}, to {config.target}"
    )
    output.line("type ? for help, q to quit")
    try:
        session.play()
    except (Quit, KeyboardInterrupt) as stop:
        if isinstance(stop, KeyboardInterrupt):
            output.line()  # off the prompt line
        session.abandon()
    except MatchError as error:
        output.problem(f"error: {error}")
        return EXIT_INVALID
    finally:
        if record is not None:
            record.close()
    return EXIT_OK


def _speaks_utf8(stream: TextIO) -> bool:
    encoding = getattr(stream, "encoding", None)
    return encoding is None or "utf" in encoding.lower()


def register(add: AddCommand) -> None:
    sub = add(
        "play",
        cmd_play,
        "play a game against a bot in the terminal",
        "ginrules play classic --seed 7",
    )
    sub.add_argument("ruleset", metavar="NAME_OR_PATH")
    sub.add_argument(
        "--bot", default="strong", choices=list(BOTS), help="the bots' strength (default strong)"
    )
    sub.add_argument("--seed", type=int, help="deal the same game again (default: a new one)")
    sub.add_argument(
        "--symbols",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="suits as ♣ ♦ ♥ ♠ (default when the terminal speaks UTF-8)",
    )
    sub.add_argument(
        "--auto-showdown",
        action="store_true",
        help="show the best melds at your knock, and lay off at your best, without asking",
    )
    sub.add_argument(
        "--record", metavar="FILE", help="append each hand as a JSON line, for ginrules replay"
    )
