"""The card table's pages: start a table, and the table itself on every phone.

- ``GET /t/new?rules=<ref>`` and ``POST /t/new``: players and who deals first
  (chosen, or a cut the server draws); the answer goes to the table with the
  scorer key in the link's fragment (``#key=...``), which never reaches a server.
- ``GET /t/<slug>``: the score at the top, the next deal, the hand entry,
  the hands and the history. Readable by anyone with the link; changing the
  score takes the scorer key, which the page keeps in the phone's storage.
- ``GET /t/<slug>/now``: the score and its rendered HTML, for a page catching up.
- ``GET /t/<slug>/manifest.webmanifest`` and ``GET /t/sw.js``: the table opens
  from a phone's home screen and through short drops of the wifi.

The score is rendered once, here (``web/table_score.html``), for the first
paint and for every live update alike; ``static/table.js`` swaps it in.

Everything is worded in the request's language: the page hands its script the
words it shows (:func:`ginrules.words.tables.page_words`) and URLs that ask for
the live updates and send the changes with the page's ``?lang=``, so a phone's
score stays in the language its page opened in.
"""

from __future__ import annotations

import json
import secrets
from pathlib import Path
from typing import Any, Final

from flask import (
    Blueprint,
    Response,
    abort,
    current_app,
    redirect,
    render_template,
    request,
    url_for,
)
from werkzeug.wrappers import Response as BaseResponse

from ginrules.engine.scorepad import score_pad_class
from ginrules.engine.tablelog import (
    Entry,
    HandCorrected,
    HandEntered,
    LastHandUndone,
    event_from_json,
)
from ginrules.rules.compile import FormatType
from ginrules.sheets.qr import qr_svg
from ginrules.sheets.scoring_rules import scoring_rules
from ginrules.web import refs
from ginrules.web.locales import asked
from ginrules.web.storage import get_store
from ginrules.web.table_service import (
    NAME_LENGTH,
    TableRefused,
    TableState,
    pinned_ruleset,
    start,
    state,
)
from ginrules.web.table_store import TableStore
from ginrules.web.urls import absolute
from ginrules.web.views import found_or_404
from ginrules.web.views.table_api import state_json
from ginrules.words import tables as words
from ginrules.words.cards import card_faces
from ginrules.words.i18n import current_locale
from ginrules.words.values import outcome_name

blueprint = Blueprint("table_pages", __name__)

#: The service worker, served from /t/ so it may look after every table page.
_WORKER: Final = Path(__file__).resolve().parent.parent / "static" / "table-sw.js"


def _tables() -> TableStore:
    return TableStore(get_store())


def sides(now: TableState) -> list[str]:
    """The score's columns: the players, or a partnership's two teams."""
    names = list(now.table.players)
    if now.config.format is FormatType.PARTNERSHIP:
        return [words.team_name(names, 0), words.team_name(names, 1)]
    return names


def table_view(now: TableState) -> dict[str, Any]:
    """What the score partial shows, from the engine's pad (no arithmetic here)."""
    names = now.table.players
    pad = now.score.pad
    columns = sides(now)
    pinned = now.table.rules
    sheet = scoring_rules(pinned_ruleset(pinned.yaml, pinned.name), pinned.fingerprint)
    hands = []
    for number, (entries, scored) in enumerate(now.score.hands, start=1):
        hands.append(
            {
                "number": number,
                "parts": [
                    {
                        "line": words.hand_line(names, item),
                        "showdown": words.showdown_lines(now.config, item, entry.upcard),
                        "rule": sheet.deciding(item.score),
                        "end": outcome_name(item.score.end),
                    }
                    for entry, item in zip(entries, scored, strict=True)
                ],
            }
        )
    upcoming = None
    if not pad.finished:
        deal = pad.next_deal()
        # Three-handed, the dealer sits out and deals to the other two.
        out = deal.sitting_out
        upcoming = {
            "number": len(pad.entries) + 1,
            "hands": [
                {
                    "pairing": words.pairing(*(names[seat] for seat in seating.seats)),
                    "dealer": words.deals(names[seating.dealer_seat if out is None else out]),
                }
                for seating in deal.seatings
            ],
            "out": None if out is None else words.sitting_out(names[out]),
        }
    results = pad.results() if pad.finished else []
    return {
        "slug": now.table.slug,
        "lang": current_locale(),
        "sides": columns,
        "games": pad.snapshot().games,
        "hands": hands,
        "upcoming": upcoming,
        "finished": pad.finished,
        "results": words.result_lines(columns, results, now.config.stake_per_point),
        "next_game": now.score.next_game,
        "log": history(now),
    }


def history(now: TableState) -> list[dict[str, Any]]:
    """Every change, newest first: who, when, and the hand before and after it."""
    names = now.table.players
    standing: list[tuple[Entry, ...]] = []
    items = []

    def said(entries: tuple[Entry, ...] | None) -> str | None:
        return None if entries is None else "; ".join(words.entry_words(names, e) for e in entries)

    for stored in now.log:
        event = event_from_json(stored.event)
        before: tuple[Entry, ...] | None = None
        after: tuple[Entry, ...] | None = None
        number: int | None = None
        if isinstance(event, HandEntered):
            standing.append(after := event.entries)
            number = len(standing)
        elif isinstance(event, LastHandUndone) and standing:
            number = len(standing)
            before = standing.pop()
        elif isinstance(event, HandCorrected) and 0 < event.number <= len(standing):
            number = event.number
            before, after = standing[number - 1], event.entries
            standing[number - 1] = after
        items.append(
            {
                "what": words.change_words(stored.event["kind"], number),
                "actor": words.actor_name(stored.actor),
                "at": stored.created_at,
                "when": words.change_time(stored.created_at),
                "before": said(before),
                "after": said(after),
            }
        )
    return items[::-1]


def score_html(now: TableState) -> dict[str, str]:
    """The score and the next deal, and the hands with the history, as every phone
    shows them (the page's ``#score`` and ``#hands``)."""
    view = table_view(now)
    return {
        "score": render_template("web/table_score.html", view=view),
        "hands": render_template("web/table_hands.html", view=view),
    }


def _form_config(now: TableState) -> dict[str, Any]:
    """What the page's script needs to build the entry form for these rules."""
    config = now.config
    return {
        "format": config.format.value,
        "hand_size": config.hand_size,
        "big_gin": config.big_gin_bonus is not None,
        "oklahoma": config.oklahoma,
        "knock_limit": config.knock_limit,
        "gin_must_be_declared": config.gin_must_be_declared,
    }


@blueprint.get("/t/new")
def new_table() -> str:
    loaded = found_or_404(refs.resolve(get_store(), request.args.get("rules", "classic")))
    return _start_form(loaded, {}, {})


def _start_form(loaded: refs.Loaded, given: dict[str, Any], errors: dict[str, str]) -> str:
    pad_class = score_pad_class(loaded.config)
    return render_template(
        "web/table_new.html",
        loaded=loaded,
        seats=range(pad_class.players),
        cut_groups=pad_class.cut_groups,
        partnership=loaded.config.format is FormatType.PARTNERSHIP,
        given=given,
        errors=errors,
        name_length=NAME_LENGTH,
    )


@blueprint.post("/t/new")
def create_table() -> BaseResponse | tuple[str, int]:
    loaded = found_or_404(refs.resolve(get_store(), request.form.get("rules", "")))
    pad_class = score_pad_class(loaded.config)
    players = [request.form.get(f"player-{seat}", "") for seat in range(pad_class.players)]
    dealers = []
    for group_index, group in enumerate(pad_class.cut_groups):
        chosen = request.form.get(f"dealer-{group_index}", "cut")
        if chosen == "cut":
            dealers.append(secrets.choice(group))  # the server cuts the cards
        elif chosen.isdigit() and len(chosen) < 3:
            dealers.append(int(chosen))
        else:
            dealers.append(-1)
    try:
        table, secret = start(_tables(), loaded, players, dealers)
    except TableRefused as refused:
        field = refused.field.replace(".", "-")
        errors = {field: words.table_refused(refused.reason, refused.params)}
        return _start_form(loaded, dict(request.form), errors), 422
    # A language asked for in the URL (?lang=) carries on to the table.
    where = url_for("table_pages.table", slug=table.slug, lang=asked())
    return redirect(where + "#key=" + secret, code=303)


@blueprint.get("/t/<slug>")
def table(slug: str) -> str:
    now = _state_or_404(slug)
    state = state_json(now)  # its "newer" is read once, for the notice too
    later = state["newer"]
    return render_template(
        "web/table.html",
        now=now,
        view=table_view(now),
        state=state,
        form=_form_config(now),
        words=words.page_words(),
        faces=card_faces(),
        # The page asks for its updates and sends its changes in its own language.
        lang=current_locale(),
        rules_path=_rules_path(now.table.rules.ref),
        viewer_url=absolute(url_for("table_pages.table", slug=slug)),
        newer=later,
        newer_path=None if later is None else _rules_path(later["ref"]),
    )


def _rules_path(ref: str) -> str:
    return "/" + ref if ref.startswith("h/") else f"/rules/{ref}"


@blueprint.get("/t/<slug>/qr.svg")
def viewer_qr(slug: str) -> Response:
    """The QR code of the table's watching link."""
    if _tables().get(slug) is None:
        abort(404)
    url = absolute(url_for("table_pages.table", slug=slug))
    response = current_app.response_class(qr_svg(url), mimetype="image/svg+xml")
    response.headers["Cache-Control"] = "public, max-age=86400"
    return response


def live_payload(now: TableState) -> dict[str, Any]:
    """The score as the API gives it, with its rendered parts: what a page swaps in."""
    return {**state_json(now), "html": score_html(now)}


def _state_or_404(slug: str) -> TableState:
    now = state(_tables(), slug)
    if now is None:
        abort(404)
    return now


@blueprint.get("/t/<slug>/now")
def table_now(slug: str) -> Response:
    now = _state_or_404(slug)
    response = current_app.response_class(
        json.dumps(live_payload(now)), mimetype="application/json"
    )
    response.headers["Cache-Control"] = "no-store"
    return response


@blueprint.get("/t/<slug>/manifest.webmanifest")
def manifest(slug: str) -> Response:
    now = _state_or_404(slug)
    start_url = url_for("table_pages.table", slug=slug)
    document = {
        "name": " · ".join(now.table.players),
        "lang": current_locale(),
        "short_name": "ginrules",
        "start_url": start_url,
        "scope": "/t/",
        "display": "standalone",
        "background_color": "#fbfaf7",
        "theme_color": "#1d5c3a",
        "icons": [
            {
                "src": url_for("static", filename="favicon.svg"),
                "sizes": "any",
                "type": "image/svg+xml",
            }
        ],
    }
    response = current_app.response_class(
        json.dumps(document), mimetype="application/manifest+json"
    )
    return response


@blueprint.get("/t/sw.js")
def service_worker() -> Response:
    response = current_app.response_class(
        _WORKER.read_text(encoding="utf-8"), mimetype="text/javascript"
    )
    response.headers["Cache-Control"] = "no-cache"
    return response
