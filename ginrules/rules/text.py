"""Which characters a ruleset's text may hold.

Every key and string value of a ruleset, at any depth, must be text that a
page, a sheet and a PDF can show: no lone surrogate (half of a UTF-16 pair,
which no UTF-8 text can hold), no control character but tab, line feed and
carriage return, and not the noncharacters U+FFFE and U+FFFF. That is the set a
YAML file may hold written out, less the C1 controls (NEL among them). Two
``\\u`` escapes that make a surrogate pair are read as the one character they
encode, as JSON reads them.

A ruleset's name and author must not hide anything either, so that one name
cannot pass for another: no invisible formatting character (Unicode's format
category: the bidirectional overrides, embeddings, isolates and marks, the
zero-width space, the word joiner, the soft hyphen, the byte order mark...)
and no filler that shows as nothing. The zero-width joiner and non-joiner are
allowed between two non-ASCII letters, marks or symbols, where they join an
emoji sequence or shape a Persian or Indic word; a variation selector only
after a non-ASCII character or a keycap's ``0``-``9``, ``#`` or ``*``. A
description must not hold the bidirectional controls that reorder what
follows them (embeddings, overrides, isolates).

A problem becomes a :class:`~ginrules.rules.diagnostics.Diagnostic` worded in
:mod:`ginrules.words.characters`: it carries a :class:`RefusedCharacter` as its
data and, as its own message, only the character's code (``U+202E``).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Final


class Kind(StrEnum):
    """Why a character is refused."""

    #: Half of a UTF-16 surrogate pair, alone: not a character at all.
    SURROGATE = "surrogate"
    #: A C0 or C1 control character (NUL among them), or DEL.
    CONTROL = "control"
    #: U+FFFE or U+FFFF, which Unicode keeps out of text.
    NONCHARACTER = "noncharacter"
    #: Invisible in a name or author: a format character or a filler.
    HIDDEN = "hidden"
    #: A bidirectional control in a description: it reorders what follows it.
    BIDI = "bidi"


@dataclass(frozen=True)
class RefusedCharacter:
    """A character a ruleset may not hold there: the data of its diagnostic."""

    code_point: int
    kind: Kind
    #: In a mapping key (the diagnostic's path is then the mapping's) rather than a value.
    in_key: bool = False

    @property
    def code(self) -> str:
        """``U+202E``."""
        return f"U+{self.code_point:04X}"


#: Text every string may hold: tab, LF, CR, printable ASCII and every other code
#: point but the C1 controls, the surrogates and U+FFFE/U+FFFF.
_UNSHOWABLE: Final = re.compile("[^\t\n\r\x20-\x7e\xa0-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")
_SURROGATE_PAIR: Final = re.compile("[\ud800-\udbff][\udc00-\udfff]")
#: Embeddings, overrides (U+202A-U+202E) and isolates (U+2066-U+2069).
BIDI_CONTROLS: Final = re.compile("[\u202a-\u202e\u2066-\u2069]")
_JOINERS: Final = frozenset((0x200C, 0x200D))
#: Invisible, but not of the format category: the combining grapheme joiner and
#: the Hangul fillers.
_FILLERS: Final = frozenset((0x034F, 0x115F, 0x1160, 0x3164, 0xFFA0))
_KEYCAP_BASES: Final = frozenset("0123456789#*")
#: The metadata each check applies to, by top-level key.
_NAME_KEYS: Final = ("name", "author")
_DESCRIPTION_KEY: Final = "description"


def join_surrogate_pairs(text: str) -> str:
    """``"\\ud83d\\ude00"`` (two escapes) as the one character they encode."""
    if not _SURROGATE_PAIR.search(text):
        return text
    return _SURROGATE_PAIR.sub(
        lambda pair: pair.group().encode("utf-16-le", "surrogatepass").decode("utf-16-le"), text
    )


def unshowable(text: str) -> RefusedCharacter | None:
    """The first character no ruleset text may hold, if any."""
    found = _UNSHOWABLE.search(text)
    if found is None:
        return None
    code_point = ord(found.group())
    if 0xD800 <= code_point <= 0xDFFF:
        kind = Kind.SURROGATE
    elif code_point in (0xFFFE, 0xFFFF):
        kind = Kind.NONCHARACTER
    else:
        kind = Kind.CONTROL
    return RefusedCharacter(code_point, kind)


def hidden_in_name(text: str) -> RefusedCharacter | None:
    """The first character that would hide in a name, if any (see the module's rules)."""
    index = _first_hidden(text)
    return None if index is None else RefusedCharacter(ord(text[index]), Kind.HIDDEN)


def _first_hidden(text: str) -> int | None:
    return next((i for i, c in enumerate(text) if _hides(text, i, c)), None)


def refused_in_name(text: str) -> RefusedCharacter | None:
    """The first character a name may not hold: unshowable or hidden."""
    return unshowable(text) or hidden_in_name(text)


def bidi_control(text: str) -> RefusedCharacter | None:
    """The first embedding, override or isolate, if any."""
    found = BIDI_CONTROLS.search(text)
    return None if found is None else RefusedCharacter(ord(found.group()), Kind.BIDI)


def _hides(text: str, index: int, character: str) -> bool:
    code_point = ord(character)
    if code_point < 0xAD:  # nothing below the soft hyphen hides (controls aside)
        return False
    if code_point in _FILLERS:
        return True
    if code_point in _JOINERS:
        return not (_joins(text, index - 1) and _joins(text, index + 1))
    if _is_variation_selector(code_point):
        before = text[index - 1] if index > 0 else " "
        return not (before in _KEYCAP_BASES or (ord(before) > 0x7F and not before.isspace()))
    return unicodedata.category(character) == "Cf"


def _joins(text: str, index: int) -> bool:
    """Can a joiner stand beside ``text[index]``: a non-ASCII letter, mark or symbol?"""
    if not 0 <= index < len(text) or ord(text[index]) <= 0x7F:
        return False
    return unicodedata.category(text[index])[0] in "LMS"


def _is_variation_selector(code_point: int) -> bool:
    return 0xFE00 <= code_point <= 0xFE0F or 0xE0100 <= code_point <= 0xE01EF


def metadata_problems(data: Mapping[str, object]) -> Iterator[tuple[str, RefusedCharacter]]:
    """What a file's name, author and description hide: (the key, the first such character)."""
    for key in (*_NAME_KEYS, _DESCRIPTION_KEY):
        value = data.get(key)
        if not isinstance(value, str):
            continue
        refused = hidden_in_name(value) if key in _NAME_KEYS else bidi_control(value)
        if refused is not None:
            yield key, refused


def cleaned(text: str, key: str | None = None) -> str:
    """``text`` made acceptable: pairs joined, unshowable characters as U+FFFD, and
    (for ``key`` ``name``/``author``/``description``) the hidden ones dropped.

    For repairing text stored before these checks; new text is refused instead.
    """
    text = _UNSHOWABLE.sub("\ufffd", join_surrogate_pairs(text))
    if key in _NAME_KEYS:
        while (index := _first_hidden(text)) is not None:
            text = text[:index] + text[index + 1 :]
    elif key == _DESCRIPTION_KEY:
        text = BIDI_CONTROLS.sub("", text)
    return text
