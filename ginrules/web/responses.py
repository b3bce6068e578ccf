"""Responses for things that never change: a strong ETag, long caching, repeats from memory.

A saved version's page, sheet, PDF and QR code depend only on that version
(its fingerprint and words) and the site's base URL, so each is made once and
kept; a repeat request is a dictionary lookup, and a browser that already has
it gets 304 Not Modified.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import Final

from flask import Response, request, session

from ginrules import __version__
from ginrules.lru import LruCache

#: A year: immutable resources (versioned URLs).
IMMUTABLE: Final = "public, max-age=31536000, immutable"
#: Shipped rulesets can change with a new release of the site: an hour, then revalidate.
RELEASE: Final = "public, max-age=3600"
#: Pages that follow the latest version: always revalidate (cheap with the ETag).
REVALIDATE: Final = "no-cache"


def _tagged(body: bytes, mimetype: str) -> tuple[bytes, str, str]:
    return body, mimetype, hashlib.sha256(body).hexdigest()[:32]


#: Bodies (with their type and strong ETag) by resource key.
MEMO: Final[LruCache[str, tuple[bytes, str, str]]] = LruCache(512)


def cached(key: str, make: Callable[[], tuple[bytes | str, str]], policy: str) -> Response:
    """The response for ``key`` (made once), with a strong ETag and ``policy`` caching."""

    def made() -> tuple[bytes, str, str]:
        body, mimetype = make()
        return _tagged(body.encode("utf-8") if isinstance(body, str) else body, mimetype)

    if session.get("_flashes"):  # a message for this visitor only: never shared or kept
        body, mimetype, _ = made()
        response = Response(body, mimetype=mimetype)
        response.headers["Cache-Control"] = "no-store"
        return response
    body, mimetype, etag = MEMO.get(f"{__version__}|{key}", made)
    if etag in request.if_none_match:
        response = Response(status=304)
    else:
        response = Response(body, mimetype=mimetype)
    response.set_etag(etag)
    response.headers["Cache-Control"] = policy
    return response
