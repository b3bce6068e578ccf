"""The language each request is answered in, and the switch that remembers a person's.

A request speaks the first of these that names a language the site has
(:data:`~ginrules.words.i18n.LANGUAGES`; README, "Languages"):

1. ``?lang=xx`` on the URL, for this request only: a share link or QR code that says
   which language it opens in (an unknown one is passed over, never an error);
2. the person's own choice, made with the language switch on every page and kept in
   the ``lang`` cookie for a year;
3. on a saved house rule's own pages (its page, its versions, its sheets and score
   pads and their PDFs), the table language its author chose. Not on the share page
   shown after saving: that is the author's, with the private edit link and what to
   do with it, in the author's language;
4. the browser's ``Accept-Language`` (Werkzeug's ``best_match``);
5. English.

The choice is set with :func:`~ginrules.words.i18n.use_locale` before anything else
sees the request and kept until it ends, so its page, its errors, the JSON API's
messages, and the sheets and PDFs made for it all speak it. Every answer names its
language (``Content-Language``); one that followed the headers says so (``Vary:
Accept-Language, Cookie``), so no cache hands a German page to an English reader.
"""

from __future__ import annotations

import re
from contextlib import ExitStack
from dataclasses import dataclass
from enum import StrEnum
from typing import Final
from urllib.parse import parse_qsl, urlencode, urlsplit

from flask import Blueprint, Flask, Response, current_app, g, redirect, request, url_for
from sqlalchemy.exc import SQLAlchemyError
from werkzeug.wrappers import Response as BaseResponse

from ginrules.web.storage import SLUG_PATTERN, get_store
from ginrules.words.i18n import LANGUAGES, SOURCE_LOCALE, current_locale, language, use_locale

#: The URL parameter that chooses a language for one request.
QUERY: Final = "lang"
#: The cookie that keeps a person's choice.
COOKIE: Final = "lang"
#: How long the choice is kept: a year.
COOKIE_SECONDS: Final = 365 * 24 * 60 * 60
#: A saved house rule's own pages, the ones its table reads: they open in its table
#: language (its QR code leads to the first).
HOUSE_RULE_PAGES: Final = frozenset(
    {
        "rulesets.latest_page",
        "rulesets.version_page",
        "houserules.versions",
        "prints.version_resource",
    }
)
#: Only a slug that could exist is looked up.
_SLUG: Final = re.compile(SLUG_PATTERN)
_CHOICE: Final = "ginrules_language"

blueprint = Blueprint("languages", __name__)


class Source(StrEnum):
    """What chose a request's language."""

    QUERY = "query"
    COOKIE = "cookie"
    TABLE = "table"
    BROWSER = "browser"
    DEFAULT = "default"


@dataclass(frozen=True)
class Choice:
    language: str
    source: Source


@dataclass(frozen=True)
class SwitchLink:
    """One language in the switch: its code, its own name, the link that chooses it."""

    code: str
    name: str
    url: str
    current: bool


def asked() -> str | None:
    """The language ``?lang=`` names (None when it names none the site speaks)."""
    return language(request.args.get(QUERY))


def remembered() -> str | None:
    """The language the person chose with the switch."""
    return language(request.cookies.get(COOKIE))


def table_language() -> str | None:
    """The table language of the saved house rule whose own page this is. Read only
    when neither the URL nor the person chose (a page kept in memory needs no database
    otherwise); when the database cannot say, the readers' languages serve."""
    if request.endpoint not in HOUSE_RULE_PAGES:
        return None
    slug = (request.view_args or {}).get("slug")
    if not isinstance(slug, str) or not _SLUG.fullmatch(slug):
        return None
    try:
        return language(get_store().table_language(slug))
    except SQLAlchemyError:
        return None


def browser() -> str | None:
    """The best language of the browser's ``Accept-Language`` that the site speaks."""
    return request.accept_languages.best_match(tuple(LANGUAGES))


def choose() -> Choice:
    """This request's language and what chose it, in the order the module describes."""
    for source, find in (
        (Source.QUERY, asked),
        (Source.COOKIE, remembered),
        (Source.TABLE, table_language),
        (Source.BROWSER, browser),
    ):
        found = find()
        if found:
            return Choice(found, source)
    return Choice(SOURCE_LOCALE, Source.DEFAULT)


def _speak() -> None:
    choice = choose()
    stack = ExitStack()
    stack.enter_context(use_locale(choice.language))
    setattr(g, _CHOICE, (choice, stack))


def _label(response: Response) -> Response:
    found = g.get(_CHOICE)
    if found is None or request.endpoint == "static":
        return response
    choice: Choice = found[0]
    response.headers["Content-Language"] = choice.language
    if choice.source is not Source.QUERY:
        response.vary.add("Accept-Language")
        response.vary.add("Cookie")
    return response


def _done(_error: BaseException | None) -> None:
    found = g.pop(_CHOICE, None)
    if found is not None:
        found[1].close()


def deliberate() -> str | None:
    """This request's language when a link or the house rule chose it (``?lang=``, a
    table language), not the reader: what a printed sheet's QR code should open in."""
    found = g.get(_CHOICE)
    if found is None:
        return None
    choice: Choice = found[0]
    return choice.language if choice.source in (Source.QUERY, Source.TABLE) else None


def here() -> str:
    """This page's path and query, less ``?lang=`` (which would outvote the switch);
    the path alone after a form was sent (the form's own page)."""
    if request.method != "GET":
        return request.path
    kept = [(key, value) for key, value in request.args.items(multi=True) if key != QUERY]
    return request.path + (f"?{urlencode(kept)}" if kept else "")


def switch_links() -> list[SwitchLink]:
    """The language switch of this page: every language in its own name, the one it
    speaks marked."""
    now, back = current_locale(), here()
    return [
        SwitchLink(code, name, url_for("languages.switch", to=code, next=back), code == now)
        for code, name in LANGUAGES.items()
    ]


def same_site(target: str) -> str:
    """``target`` when it is a path on this site, else the home page: never a redirect
    to another site (``//host``, ``/\\host``, ``https://host``), and never with a
    ``?lang=`` that would outvote the choice just made."""
    if not target.startswith("/") or any(ord(c) < 32 for c in target):
        return "/"
    try:
        parts = urlsplit(target)
    except ValueError:
        return "/"
    if parts.scheme or parts.netloc:
        return "/"
    path = "/" + parts.path.lstrip("/\\")
    kept = [(k, v) for k, v in parse_qsl(parts.query, keep_blank_values=True) if k != QUERY]
    return path + (f"?{urlencode(kept)}" if kept else "")


@blueprint.get("/language")
def switch() -> BaseResponse:
    """``/language?to=es&next=/rules/classic``: remember the language and go back.

    A plain link, so the switch works without JavaScript. A link followed from another
    site (``Sec-Fetch-Site: cross-site``) goes back without changing the choice: only a
    person's own tap on this site's switch makes it."""
    response = redirect(same_site(request.args.get("next", "/")), 303)
    chosen = language(request.args.get("to"))
    cross_site = request.headers.get("Sec-Fetch-Site", "").strip().lower() == "cross-site"
    if chosen and not cross_site:
        response.set_cookie(
            COOKIE,
            chosen,
            max_age=COOKIE_SECONDS,
            samesite="Lax",
            httponly=True,
            secure=bool(current_app.config.get("SESSION_COOKIE_SECURE")),
        )
    response.headers["Cache-Control"] = "no-store"
    return response


def install(app: Flask) -> None:
    """Choose every request's language before any other check (so a refusal speaks it
    too), label every answer with it, and give the templates the switch."""
    app.register_blueprint(blueprint)
    app.before_request_funcs.setdefault(None, []).insert(0, _speak)
    app.after_request(_label)
    app.teardown_request(_done)
    app.jinja_env.globals.update(current_locale=current_locale, language_links=switch_links)
