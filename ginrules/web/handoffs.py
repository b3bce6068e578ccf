"""The edit secret of a new house rule, carried from the save to its share page
without ever sitting in the session cookie.

Flask's session cookie is signed, not encrypted: anyone holding it can read it. At a
form save the secret is split in two: a random pad of its length goes in the
session, the secret XOR the pad goes in the ``edit_handoffs`` table under a random
token (also in the session). Neither half tells anything alone. The share page
takes the row (deleting it: the link is shown once) and joins the halves; rows
older than :data:`LIFETIME` are never shown and are pruned at the next save.
"""

from __future__ import annotations

import base64
import binascii
import secrets
from datetime import timedelta
from typing import Any, Final

import sqlalchemy as sa

from ginrules.web.records import as_utc, utc_now
from ginrules.web.storage import Store
from ginrules.web.tables import edit_handoffs

#: How long a save's secret waits for its share page.
LIFETIME: Final = timedelta(hours=1)
#: The session key that holds a handoff's token and pad (and slug).
SESSION_KEY: Final = "edit_handoff"


def _xor(data: bytes, pad: bytes) -> bytes:
    return bytes(a ^ b for a, b in zip(data, pad, strict=True))


def hand_over(store: Store, slug: str, secret: str) -> dict[str, str]:
    """Store ``secret`` XOR a fresh pad for ``slug``; what the session keeps (token,
    pad and slug; never the secret)."""
    data = secret.encode("utf-8")
    pad = secrets.token_bytes(len(data))
    token = secrets.token_urlsafe(32)
    now = utc_now()
    with store.engine.begin() as connection:
        connection.execute(
            sa.delete(edit_handoffs).where(edit_handoffs.c.created_at < now - LIFETIME)
        )
        connection.execute(
            sa.insert(edit_handoffs).values(
                token=token, slug=slug, cipher=_xor(data, pad).hex(), created_at=now
            )
        )
    return {"slug": slug, "token": token, "pad": base64.urlsafe_b64encode(pad).decode("ascii")}


def take(store: Store, held: Any, slug: str) -> str | None:
    """The secret of ``slug`` that ``held`` (the session's value) hands over, once: the
    row is deleted; None when it is not for ``slug``, taken already, expired or forged."""
    if not isinstance(held, dict) or held.get("slug") != slug:
        return None
    token, pad_text = held.get("token"), held.get("pad")
    if not isinstance(token, str) or not isinstance(pad_text, str):
        return None
    row = edit_handoffs.c.token == token
    with store.engine.begin() as connection:
        found = connection.execute(
            sa.select(edit_handoffs.c.cipher, edit_handoffs.c.created_at).where(
                row, edit_handoffs.c.slug == slug
            )
        ).first()
        # Whoever deletes the row shows the secret: two reloads at once show it once.
        if found is None or connection.execute(sa.delete(edit_handoffs).where(row)).rowcount != 1:
            return None
    return _joined(found.cipher, pad_text) if _fresh(found.created_at) else None


def _fresh(created_at: Any) -> bool:
    return bool(as_utc(created_at) >= utc_now() - LIFETIME)


def _joined(cipher: str, pad_text: str) -> str | None:
    try:
        data, pad = bytes.fromhex(cipher), base64.urlsafe_b64decode(pad_text.encode("ascii"))
        return _xor(data, pad).decode("utf-8")
    except (ValueError, binascii.Error, UnicodeError):
        return None
