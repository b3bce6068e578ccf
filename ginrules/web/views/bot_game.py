"""Practice against the bot: the start page, the game's page, and its JSON API.

Pages (``blueprint``):

- ``GET /bot/<ref>``: choose the bots (strong, greedy or random) and, to deal
  a game again, a seed; ``POST`` starts the game under exactly the rules
  ``<ref>`` names (a shipped name, ``h/<slug>`` or ``h/<slug>/v<n>``) and
  opens its page. The player key goes into this browser's session only.
- ``GET /b/<slug>``: the game; ``static/botgame.js`` draws it from the
  state embedded in the page and sends each move to the API.

The API (``api``, under ``/api/bots``):

- ``POST /api/bots``: a game under ``rules`` against ``bot`` (``seed``
  optional); the answer carries the player key once.
- ``GET /api/bots/<slug>``: the game as the person sees it.
- ``POST /api/bots/<slug>/actions``: a move, with the player key and the
  number of moves the phone saw (409 with the game when stale); a move the
  rules refuse is a 422 with the engine's reason at ``action``.
"""

from __future__ import annotations

import re
from typing import Any, Final

from flask import (
    Blueprint,
    Response,
    abort,
    jsonify,
    redirect,
    render_template,
    request,
    session,
    url_for,
)
from werkzeug.wrappers import Response as BaseResponse

from ginrules.engine.actions import Action
from ginrules.engine.illegal import IllegalAction
from ginrules.web import refs
from ginrules.web.bot_games import (
    BOT_CHOICES,
    MAX_SEED,
    MAX_SEEN,
    BotGameRefused,
    Conflict,
    GameLost,
    Played,
    act,
    game_json,
    start,
    state,
)
from ginrules.web.bot_store import BotStore
from ginrules.web.json_input import (
    BadInput,
    bad_input,
    field_error,
    json_object,
    moved_on,
    text_field,
    whole_field,
)
from ginrules.web.locales import asked
from ginrules.web.security import limited
from ginrules.web.storage import get_store, secret_matches
from ginrules.web.urls import absolute
from ginrules.web.views import found_or_404
from ginrules.words import bot_games as words
from ginrules.words.cards import card_faces
from ginrules.words.game import bot_name
from ginrules.words.i18n import current_locale
from ginrules.words.problems import message
from ginrules.words.tables import input_problem, table_refused

blueprint = Blueprint("bot_game", __name__)
api = Blueprint("bot_api", __name__, url_prefix="/api/bots")
api.register_error_handler(BadInput, bad_input)

_START_KEYS: Final = frozenset({"rules", "bot", "seed"})
_MOVE_KEYS: Final = frozenset({"seen", "action"})
#: The session keeps the player keys of this browser's latest games.
_SESSION_KEYS: Final = "bot_keys"
_KEYS_KEPT: Final = 20
#: A move any phone can read as an example.
_EXAMPLE: Final = '{"action": "draw"}'


def _games() -> BotStore:
    return BotStore(get_store())


def _refusal(refused: BotGameRefused) -> BadInput:
    return field_error(422, refused.field, words.refused(refused.reason, **refused.params))


# -- pages ---------------------------------------------------------------------------


@blueprint.get("/bot/<path:ref>")
def start_page(ref: str) -> Response:
    loaded = found_or_404(refs.resolve(get_store(), ref))
    return _start_form(loaded, {}, 200)


@blueprint.post("/bot/<path:ref>")
@limited
def start_from_page(ref: str) -> BaseResponse:
    loaded = found_or_404(refs.resolve(get_store(), ref))
    bot = request.form.get("bot", BOT_CHOICES[0])
    seed_text = request.form.get("seed", "").strip()
    seed = int(seed_text) if re.fullmatch("[0-9]{1,9}", seed_text) else None
    if seed_text and seed is None:
        return _start_form(loaded, {"seed": words.refused("seed", most=MAX_SEED)}, 422)
    try:
        played, key = start(_games(), loaded, bot, seed)
    except BotGameRefused as refused:
        text = words.refused(refused.reason, **refused.params)
        return _start_form(loaded, {refused.field: text}, 422)
    keys = dict(session.get(_SESSION_KEYS) or {})
    keys[played.game.slug] = key
    session[_SESSION_KEYS] = dict(list(keys.items())[-_KEYS_KEPT:])
    # A language asked for in the URL (?lang=) carries on to the game.
    where = url_for("bot_game.game_page", slug=played.game.slug, lang=asked())
    return redirect(where, 303)


def _start_form(loaded: refs.Loaded, errors: dict[str, str], status: int) -> Response:
    response = Response(
        render_template(
            "web/bot_game.html",
            loaded=loaded,
            bots=[(bot, bot_name(bot), words.matchup(loaded.config, bot)) for bot in BOT_CHOICES],
            chosen=request.form.get("bot", BOT_CHOICES[0]),
            seed=request.form.get("seed", ""),
            errors=errors,
            game=None,
        ),
        status=status,
    )
    response.headers["Cache-Control"] = "no-store"
    return response


@blueprint.get("/b/<slug>")
def game_page(slug: str) -> Response:
    try:
        played = state(_games(), slug)
    except GameLost:
        abort(410, words.refused("lost"))
    if played is None:
        abort(404)
    keys = session.get(_SESSION_KEYS)
    key = keys.get(slug) if isinstance(keys, dict) else None
    response = Response(
        render_template(
            "web/bot_game.html",
            game=_answer_json(played),
            words=words.page_words(),
            faces=card_faces(),
            key=key if isinstance(key, str) else None,
            again_url=url_for("bot_game.start_page", ref=played.game.rules.ref),
            # The page's moves come back worded in the page's own language.
            state_url=url_for("bot_api.get_game", slug=slug, lang=current_locale()),
            act_url=url_for("bot_api.add_action", slug=slug, lang=current_locale()),
        )
    )
    response.headers["Cache-Control"] = "no-store"
    return response


# -- the API -------------------------------------------------------------------------


@api.post("")
@limited
def start_game() -> tuple[Response, int]:
    data = json_object(_START_KEYS)
    reference = text_field(data, "rules")
    bot = data.get("bot", BOT_CHOICES[0])
    if not isinstance(bot, str):
        raise field_error(400, "bot", input_problem("not_string", name="bot"))
    seed = whole_field(data, "seed") if "seed" in data else None
    loaded = refs.resolve(get_store(), reference)
    if loaded is None:
        raise field_error(422, "rules", table_refused("no_rules", {}))
    try:
        played, key = start(_games(), loaded, bot, seed)
    except BotGameRefused as refused:
        raise _refusal(refused) from None
    response = jsonify({**_answer_json(played), "player_key": key})
    response.headers["Location"] = url_for("bot_api.get_game", slug=played.game.slug)
    response.headers["Cache-Control"] = "no-store"
    return response, 201


@api.get("/<slug>")
def get_game(slug: str) -> Response:
    try:
        played = state(_games(), slug)
    except GameLost:
        raise field_error(410, "game", words.refused("lost")) from None
    if played is None:
        abort(404)
    return _answer(played)


@api.post("/<slug>/actions")
def add_action(slug: str) -> tuple[Response, int]:
    games = _games()
    game = games.get(slug)
    if game is None:
        abort(404)
    key = request.headers.get("X-Player-Key", "")
    if not key:
        raise field_error(401, "X-Player-Key", words.refused("no_key"))
    if not secret_matches(key, game.player_hash):
        raise field_error(403, "X-Player-Key", words.refused("wrong_key"))
    data = json_object(_MOVE_KEYS)
    seen = whole_field(data, "seen")
    if not 0 <= seen <= MAX_SEEN:
        raise field_error(400, "seen", input_problem("not_whole", name="seen"))
    action = _action(data.get("action"))
    try:
        played = act(games, slug, seen, action)
    except Conflict as moved:
        return _moved_on(slug, seen, moved.current), 409
    except GameLost:
        raise field_error(410, "game", words.refused("lost")) from None
    except BotGameRefused as refused:
        raise _refusal(refused) from None
    except IllegalAction as illegal:
        raise field_error(422, "action", message(illegal)) from None
    return _answer(played), 201


def _action(raw: object) -> Action:
    """The move sent, read as the engine's action (not yet checked against the rules)."""
    if raw is None:
        raise field_error(400, "action", input_problem("missing", name="action"))
    if not isinstance(raw, dict):
        raise field_error(
            400, "action", words.refused("not_action", name="action", example=_EXAMPLE)
        )
    try:
        return Action.from_json(raw)
    except ValueError as error:  # an unknown action or card, in words
        raise field_error(422, "action", message(error)) from None
    except (KeyError, TypeError, AttributeError, OverflowError):
        problem = words.refused("not_action", name="action", example=_EXAMPLE)
        raise field_error(422, "action", problem) from None


def _moved_on(slug: str, seen: int, current: int) -> Response:
    now = state(_games(), slug)
    assert now is not None
    response = moved_on(words.moved_on(current, seen), game=_answer_json(now))
    response.headers["Cache-Control"] = "no-store"
    return response


def _answer(played: Played) -> Response:
    response = jsonify(_answer_json(played))
    response.headers["Cache-Control"] = "no-store"
    return response


def _answer_json(played: Played) -> dict[str, Any]:
    slug = played.game.slug
    return {**game_json(played), "page_url": absolute(url_for("bot_game.game_page", slug=slug))}


__all__ = ["api", "blueprint"]
