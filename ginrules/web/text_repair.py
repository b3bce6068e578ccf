"""Repairing stored rules text that can no longer be shown (migration 0007).

Before issue 14 the loader let through strings no page can show: a lone surrogate
written as an escape (``"\\ud800"``) was saved with 201, and that version's sheet,
PDF and builder then answered 500; control characters, and characters that hide in
a name, were saved too. The loader refuses all of them now
(:mod:`ginrules.rules.text`), so such a stored text would no longer load at all.

This migration finds every stored text (a version's YAML, a card table's and a bot
game's pinned rules) that the loader refuses for its characters, and rewrites it so
it loads: a lone surrogate or a control character becomes U+FFFD (the replacement
character, shown as a question mark in a diamond); a character hiding in a name or
author, a bidirectional control in a description, is dropped. The escapes that make
them are rewritten in place, so the comments and the layout stay; where that is not
enough (such a character written out, not escaped) the parsed document is written out
again. The name, author and description columns follow the repaired text. The
fingerprint covers the knobs only, never the words, so a repair leaves it as it was;
it is worked out again all the same, and a version's change summary is worked out
again for it and the version after it. Each repair is logged.

It reads the tables as the migration finds them (plain table clauses).
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, Final

import sqlalchemy as sa
import yaml
from sqlalchemy.engine import Connection
from yaml.scanner import Scanner
from yaml.tokens import ScalarToken

from ginrules.rules.compile import compile_ruleset
from ginrules.rules.diagnostics import RulesetError
from ginrules.rules.load import Ruleset, load_ruleset_text
from ginrules.rules.text import RefusedCharacter, cleaned, unshowable
from ginrules.words import characters as words

log = logging.getLogger("ginrules.web")

#: Rows read at once (each text at most 64 KiB).
_BATCH: Final = 100
#: Text that could hold a refused character: an escape, a control, anything not ASCII.
_SUSPECT: Final = re.compile("[\\\\\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\U0010ffff]")
#: A double-quoted scalar's escapes; a surrogate pair written as two escapes first.
_ESCAPE: Final = re.compile(
    r"\\(?:(?P<pair>u[dD][89abAB][0-9a-fA-F]{2}\\u[dD][c-fC-F][0-9a-fA-F]{2})"
    r"|u(?P<hex4>[0-9a-fA-F]{4})|U(?P<hex8>[0-9a-fA-F]{8})"
    r"|x(?P<hex2>[0-9a-fA-F]{2})|(?P<one>.))",
    re.DOTALL,
)
_REPLACEMENT_ESCAPE: Final = "\\uFFFD"

_versions = sa.table(
    "versions",
    sa.column("id"),
    sa.column("house_rule_id"),
    sa.column("number"),
    sa.column("name"),
    sa.column("author"),
    sa.column("description"),
    sa.column("yaml"),
    sa.column("fingerprint"),
    sa.column("summary"),
)
_house_rules = sa.table("house_rules", sa.column("id"), sa.column("slug"))


@dataclass(frozen=True)
class _Pinned:
    """A table that keeps a copy of its rules: ``card_tables`` or ``bot_games``."""

    table: sa.TableClause
    prefix: str


_PINNED: Final = tuple(
    _Pinned(
        sa.table(
            name,
            sa.column("id"),
            sa.column("slug"),
            sa.column("rules_name"),
            sa.column("rules_yaml"),
            sa.column("fingerprint"),
        ),
        prefix,
    )
    for name, prefix in (("card_tables", "t"), ("bot_games", "b"))
)


def repair_stored_text(connection: Connection) -> None:
    """Migration 0007: stored YAML whose strings hold lone surrogates, made showable."""
    for row in _suspects(connection):
        _repair_version(connection, row)
    for pinned in _PINNED:
        _repair_pinned(connection, pinned)


def repaired(text: str, name: str) -> tuple[str, Ruleset] | None:
    """``text`` rewritten to load, with what it loads as; None when it needs no repair
    (or fails for another reason than its characters, or cannot be repaired)."""
    if not _refused_for_characters(text, name):
        return None
    for candidate in (_escapes_rewritten(text), _written_out_again(text)):
        if candidate is None:
            continue
        try:
            return candidate, load_ruleset_text(candidate, name, shipped_only=True)
        except RulesetError:
            continue
    log.warning(words.not_repaired(name))
    return None


def _refused_for_characters(text: str, name: str) -> bool:
    if not _SUSPECT.search(text):
        return False  # printable ASCII without escapes holds nothing to refuse
    try:
        load_ruleset_text(text, name, shipped_only=True)
    except RulesetError as error:
        return any(isinstance(d.departure, RefusedCharacter) for d in error.errors)
    return False


def _escapes_rewritten(text: str) -> str | None:
    """``text`` with each escape making an unshowable character as ``\\uFFFD``;
    None when there is nothing to rewrite (or the text does not scan)."""
    try:
        spans = [
            (token.start_mark.index, token.end_mark.index)
            for token in yaml.scan(text, Loader=yaml.SafeLoader)
            if isinstance(token, ScalarToken) and token.style == '"'
        ]
    except yaml.YAMLError:
        return None
    pieces, done = [], 0
    for start, end in spans:
        pieces += [text[done:start], _ESCAPE.sub(_replace_escape, text[start:end])]
        done = end
    rewritten = "".join(pieces) + text[done:]
    return rewritten if rewritten != text else None


def _replace_escape(escape: re.Match[str]) -> str:
    if escape["pair"]:
        return escape.group()
    digits = escape["hex4"] or escape["hex8"] or escape["hex2"]
    if digits:
        code_point = int(digits, 16)
    elif escape["one"] in Scanner.ESCAPE_REPLACEMENTS:
        code_point = ord(Scanner.ESCAPE_REPLACEMENTS[escape["one"]])
    else:
        return escape.group()  # an escaped line break
    if code_point > 0x10FFFF or unshowable(chr(code_point)) is not None:
        return _REPLACEMENT_ESCAPE
    return escape.group()


class _PlainLoader(yaml.SafeLoader):
    """PyYAML's safe loader, but dates stay text, as the ruleset loader keeps them."""

    def construct_date_as_text(self, node: yaml.Node) -> str:
        return str(node.value)


_PlainLoader.add_constructor("tag:yaml.org,2002:timestamp", _PlainLoader.construct_date_as_text)


def _written_out_again(text: str) -> str | None:
    """The document parsed, each string cleaned (:func:`ginrules.rules.text.cleaned`),
    and written out again (comments are lost)."""
    try:
        data = yaml.load(text, Loader=_PlainLoader)  # a safe loader
    except yaml.YAMLError:
        return None
    if not isinstance(data, dict):
        return None
    document = {
        _cleaned_value(key): _cleaned_value(value, key if isinstance(key, str) else None)
        for key, value in data.items()
    }
    return yaml.safe_dump(document, sort_keys=False, allow_unicode=True)


def _cleaned_value(value: Any, key: str | None = None) -> Any:
    if isinstance(value, str):
        return cleaned(value, key)
    if isinstance(value, dict):
        return {_cleaned_value(k): _cleaned_value(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_cleaned_value(item) for item in value]
    return value


def _suspects(connection: Connection) -> Iterator[Any]:
    """Every version whose text could need a repair, in batches by id."""
    after = 0
    while True:
        batch = connection.execute(
            sa.select(
                _versions.c.id,
                _versions.c.house_rule_id,
                _versions.c.number,
                _versions.c.yaml,
                _versions.c.fingerprint,
                _house_rules.c.slug,
            )
            .join(_house_rules, _house_rules.c.id == _versions.c.house_rule_id)
            .where(_versions.c.id > after)
            .order_by(_versions.c.id)
            .limit(_BATCH)
        ).all()
        if not batch:
            return
        yield from (row for row in batch if _SUSPECT.search(row.yaml))
        after = batch[-1].id


def _repair_version(connection: Connection, row: Any) -> None:
    ref = f"h/{row.slug}/v{row.number}"
    found = repaired(row.yaml, ref)
    if found is None:
        return
    text, ruleset = found
    document = ruleset.document
    fingerprint = _fingerprint(ruleset, row.fingerprint, ref)
    connection.execute(
        sa.update(_versions)
        .where(_versions.c.id == row.id)
        .values(
            yaml=text,
            name=str(document.get("name") or ""),
            author=str(document.get("author") or ""),
            description=str(document.get("description") or ""),
            fingerprint=fingerprint,
        )
    )
    log.warning(words.repaired(ref))
    _refresh_summaries(connection, row.house_rule_id, row.slug, row.number)


def _repair_pinned(connection: Connection, pinned: _Pinned) -> None:
    table = pinned.table
    after = 0
    while True:
        batch = connection.execute(
            sa.select(table.c.id, table.c.slug, table.c.rules_yaml, table.c.fingerprint)
            .where(table.c.id > after)
            .order_by(table.c.id)
            .limit(_BATCH)
        ).all()
        if not batch:
            return
        for row in batch:
            ref = f"{pinned.prefix}/{row.slug}"
            found = repaired(row.rules_yaml, ref)
            if found is None:
                continue
            text, ruleset = found
            connection.execute(
                sa.update(table)
                .where(table.c.id == row.id)
                .values(
                    rules_yaml=text,
                    rules_name=str(ruleset.document["name"]),
                    fingerprint=_fingerprint(ruleset, row.fingerprint, ref),
                )
            )
            log.warning(words.repaired(ref))
        after = batch[-1].id


def _fingerprint(ruleset: Ruleset, stored: str, ref: str) -> str:
    """The repaired rules' fingerprint: the stored one, as it covers no words."""
    fingerprint = compile_ruleset(ruleset).fingerprint
    if fingerprint != stored:
        log.warning(words.fingerprint_changed(ref, stored, fingerprint))
    return fingerprint


def _refresh_summaries(connection: Connection, rule_id: int, slug: str, number: int) -> None:
    """Work out again what version ``number`` and the one after it changed."""
    from ginrules.web import version_history  # migration 0005's, with its summaries

    for current in (number, number + 1):
        after = _read_version(connection, rule_id, slug, current)
        if after is None:
            continue
        before = _read_version(connection, rule_id, slug, current - 1) if current > 1 else None
        if current == 1:
            summary = version_history.FIRST
        elif before is None:
            summary = version_history.UNKNOWN
        else:
            summary = version_history.summarize(before, after)
        connection.execute(
            sa.update(_versions)
            .where(_versions.c.house_rule_id == rule_id, _versions.c.number == current)
            .values(summary=summary.to_text())
        )


def _read_version(connection: Connection, rule_id: int, slug: str, number: int) -> Ruleset | None:
    text = connection.execute(
        sa.select(_versions.c.yaml).where(
            _versions.c.house_rule_id == rule_id, _versions.c.number == number
        )
    ).scalar_one_or_none()
    if text is None:
        return None
    try:
        return load_ruleset_text(text, f"h/{slug}/v{number}", shipped_only=True)
    except RulesetError:
        return None
