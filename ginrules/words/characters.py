"""Why a character is refused: in a ruleset's text, in a name, in a player's name.

The rules are :mod:`ginrules.rules.text`'s; these are their words. Each names
the field, the character (its code and Unicode name) and what to do.
"""

from __future__ import annotations

import unicodedata
from typing import Final

from ginrules.rules.diagnostics import Diagnostic, format_json_path
from ginrules.rules.text import Kind, RefusedCharacter
from ginrules.words.i18n import _

#: Control characters have no Unicode name; these few have a well-known one.
_CONTROL_NAMES: Final = {0x00: "NUL", 0x07: "BEL", 0x08: "BS", 0x1B: "ESC", 0x7F: "DEL"}


def _why(kind: Kind) -> str:
    """Why a character of ``kind`` is refused, with ``{where}`` and ``{character}``."""
    return {
        Kind.SURROGATE: _(
            "{where} holds {character}, half of a UTF-16 surrogate pair on its own, which is"
            " not a character; remove it or write the character it was part of"
        ),
        Kind.CONTROL: _(
            "{where} holds {character}, a control character; text may hold none but tab and"
            " line breaks: remove it"
        ),
        Kind.NONCHARACTER: _("{where} holds {character}, which is not a character: remove it"),
        Kind.HIDDEN: _(
            "{where} holds {character}, an invisible formatting character, so the name could"
            " pass for another: remove it"
        ),
        Kind.BIDI: _("{where} holds {character}, which reorders the text after it: remove it"),
    }[kind]


def character(code_point: int) -> str:
    """``U+202E RIGHT-TO-LEFT OVERRIDE``; ``U+0000 (NUL)``; ``U+D800``."""
    code = f"U+{code_point:04X}"
    if 0xD800 <= code_point <= 0xDFFF:
        return code
    name = unicodedata.name(chr(code_point), "")
    if name:
        return f"{code} {name}"
    known = _CONTROL_NAMES.get(code_point)
    return f"{code} ({known})" if known else code


def refused_text(refused: RefusedCharacter, where: str) -> str:
    """``notes[0] holds U+D800, half of a UTF-16 surrogate pair on its own, ...``."""
    return _why(refused.kind).format(where=where, character=character(refused.code_point))


def diagnostic_text(diagnostic: Diagnostic, refused: RefusedCharacter) -> str:
    """The message of a ruleset diagnostic about ``refused``, naming where it is."""
    field = format_json_path(diagnostic.path).removeprefix("$").removeprefix(".")
    if refused.in_key:
        where = _("a key in {field}").format(field=field) if field else _("a key")
    else:
        where = field or _("the file")
    return refused_text(refused, where)


# -- migration 0007's log: stored text repaired ---------------------------------------


def repaired(ref: str) -> str:
    return _(
        "repaired the stored rules of {ref}: characters no page can show are now U+FFFD,"
        " hidden ones in the name, author and description are dropped"
    ).format(ref=ref)


def not_repaired(ref: str) -> str:
    return _(
        "could not repair the stored rules of {ref}: they hold characters no page can"
        " show, and still do not load once those are replaced"
    ).format(ref=ref)


def fingerprint_changed(ref: str, stored: str, now: str) -> str:
    return _("the repaired rules of {ref} have fingerprint {now}, not {stored}").format(
        ref=ref, stored=stored, now=now
    )
