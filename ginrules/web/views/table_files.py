"""A card table's files, for anyone with its link, and bringing a table in.

- ``GET /t/<slug>/pad``: the filled-in score pad, printable (``?paper=letter``,
  ``?large=1`` as for blank pads); ``/t/<slug>/pad.pdf`` the same as a PDF.
- ``GET /t/<slug>/hands.csv``: one row per two-player hand, with running totals.
- ``GET /t/<slug>/table.json``: the table (players, pinned rules, whole log).
- ``POST /api/tables/import``: that JSON back as a new table, with a new scorer key
  (shown once, as when a table starts).

Every file is made from the score the log gives now, and kept under the number
of the table's last change: a repeat is served from memory, with an ETag.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Final

from flask import Blueprint, Response, abort, current_app, jsonify, request, url_for

from ginrules.sheets.render import Paper, SheetOptions
from ginrules.web.json_input import BadInput, bad_input, json_object
from ginrules.web.responses import REVALIDATE, cached
from ginrules.web.security import csrf, limited
from ginrules.web.storage import get_store
from ginrules.web.table_files import export, file_name, hands_csv, pad_html, pad_options, pad_pdf
from ginrules.web.table_import import KEYS, import_table
from ginrules.web.table_service import TableState, state
from ginrules.web.table_store import TableStore
from ginrules.web.urls import absolute
from ginrules.web.views.table_api import state_json
from ginrules.words.i18n import current_locale

blueprint = Blueprint("table_files", __name__)
blueprint.register_error_handler(BadInput, bad_input)

#: What each file is: its media type, the end of its file name, and whether a browser
#: shows it (inline) or saves it (attachment).
_FILES: Final = {
    "pad": ("text/html", ".html", "inline"),
    "pad.pdf": ("application/pdf", ".pdf", "attachment"),
    "hands.csv": ("text/csv", "-hands.csv", "attachment"),
    "table.json": ("application/json", ".json", "attachment"),
}


def _now(slug: str) -> TableState:
    now = state(TableStore(get_store()), slug)
    if now is None:
        abort(404)
    return now


def _file(
    slug: str, kind: str, make: Callable[[TableState], str | bytes], *extra: object
) -> Response:
    """The file ``kind`` of the table as it is now; a repeat (the same last change) is
    served from memory, and a browser that has it gets 304."""
    now = _now(slug)
    mimetype, suffix, disposition = _FILES[kind]
    key = "|".join(
        str(part)
        for part in (
            "table",
            kind,
            slug,
            now.table.last_event,
            current_app.config["PUBLIC_BASE_URL"],
            *extra,
        )
    )
    response = cached(key, lambda: (make(now), mimetype), REVALIDATE)
    response.headers["Content-Disposition"] = f'{disposition}; filename="{file_name(now, suffix)}"'
    return response


def _paper() -> tuple[Paper, bool]:
    """The print options asked for (404 for a paper we do not print)."""
    large = request.args.get("large", "") in ("1", "true", "yes")
    paper = request.args.get("paper", "a4")
    if paper == "a4":
        return "a4", large
    if paper == "letter":
        return "letter", large
    abort(404)


def _pad(
    slug: str, kind: str, render: Callable[[TableState, SheetOptions], str | bytes]
) -> Response:
    paper, large = _paper()
    url = absolute(url_for("table_pages.table", slug=slug))  # the table's own page

    def make(now: TableState) -> str | bytes:
        return render(now, pad_options(now, url, paper, large))

    # The pad is printed in the reader's language; the CSV and JSON are the same in all.
    return _file(slug, kind, make, paper, large, current_locale())


@blueprint.get("/t/<slug>/pad")
def pad(slug: str) -> Response:
    return _pad(slug, "pad", pad_html)


@blueprint.get("/t/<slug>/pad.pdf")
def pad_as_pdf(slug: str) -> Response:
    return _pad(slug, "pad.pdf", pad_pdf)


@blueprint.get("/t/<slug>/hands.csv")
def hands(slug: str) -> Response:
    # With a byte order mark: spreadsheets then read the names as UTF-8.
    return _file(slug, "hands.csv", lambda now: "\ufeff" + hands_csv(now))


@blueprint.get("/t/<slug>/table.json")
def table_json(slug: str) -> Response:
    return _file(
        slug, "table.json", lambda now: json.dumps(export(now), indent=2, ensure_ascii=False)
    )


@blueprint.post("/api/tables/import", provide_automatic_options=False)
@limited
def import_json() -> tuple[Response, int]:
    tables = TableStore(get_store())
    table, secret = import_table(tables, json_object(KEYS))
    now = state(tables, table.slug)
    assert now is not None
    response = jsonify({**state_json(now), "scorer_key": secret})
    response.headers["Location"] = url_for("table_api.get_table", slug=table.slug)
    response.headers["Cache-Control"] = "no-store"
    return response, 201


@blueprint.route("/api/tables/import", methods=["OPTIONS"], provide_automatic_options=False)
def import_options() -> Response:
    """Only POST: ``/api/tables/<slug>`` would also claim GET for this path (no table
    is called ``import``: slugs have no ``i`` or ``o``)."""
    return Response(status=200, headers={"Allow": "OPTIONS, POST"})


csrf.exempt(import_json)  # a JSON API, as the rest of /api: no cookie, no form
