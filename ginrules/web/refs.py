"""Rulesets the site shows: shipped files by name, saved house rules by slug and version.

A reference is a shipped name (``classic``, ``online-casino``), ``h/<slug>``
(the latest version of a saved house rule) or ``h/<slug>/v<n>``. Saved
versions never change, so each is parsed once and kept (:data:`PARSED`).
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Final

from ginrules.lru import LruCache
from ginrules.rules import locate
from ginrules.rules.compile import EngineConfig, compile_ruleset
from ginrules.rules.diagnostics import RulesetError
from ginrules.rules.load import Ruleset, load_ruleset, load_ruleset_text
from ginrules.web.storage import SLUG_PATTERN, VERSION_PATTERN, Store, Version

#: What a shipped ruleset's name in a link may look like.
SHIPPED_NAME_PATTERN: Final = "[a-z0-9][a-z0-9_-]{0,63}"
_SAVED: Final = re.compile(f"h/(?P<slug>{SLUG_PATTERN})(?:/v(?P<number>{VERSION_PATTERN}))?")


@dataclass(frozen=True)
class Loaded:
    """A ruleset ready to show: its rules, compiled, and where it lives on the site."""

    ruleset: Ruleset
    config: EngineConfig
    #: The saved version, for a house rule saved on the site.
    version: Version | None = None

    @property
    def ref(self) -> str:
        if self.version is None:
            return self.ruleset.name
        return f"h/{self.version.slug}/v{self.version.number}"

    @property
    def path(self) -> str:
        """This exact ruleset's page (a version's page never changes)."""
        return "/" + self.ref if self.version else f"/rules/{self.ruleset.name}"

    @property
    def share_path(self) -> str:
        """The plain link: a saved house rule's latest version, or the shipped page."""
        return f"/h/{self.version.slug}" if self.version else self.path

    @property
    def title(self) -> str:
        return str(self.ruleset.document["name"])

    @property
    def fingerprint(self) -> str:
        return self.config.fingerprint


@lru_cache(maxsize=64)
def shipped(name: str) -> Loaded | None:
    try:
        entry = locate.find_entry(name)
    except locate.UnknownRuleset:
        return None
    ruleset = load_ruleset(entry.name)
    return Loaded(ruleset, compile_ruleset(ruleset))


def shipped_names() -> list[locate.Entry]:
    return locate.entries()


#: Parsed saved versions by (slug, number, SHA-256 of the text). The key leaves out
#: what a later save changes (the newest number), so a save uncaches nothing; a version
#: of 64 KiB parses to a few MB, so the cache holds a working set, not a history.
PARSED: Final[LruCache[tuple[str, int, str], tuple[Ruleset, EngineConfig]]] = LruCache(256)


def _parse_saved(version: Version) -> Loaded:
    """The version parsed (once), with this read of it (its ``latest`` is current)."""

    def parse() -> tuple[Ruleset, EngineConfig]:
        ruleset = parse_saved_text(version.yaml, f"h/{version.slug}/v{version.number}")
        return ruleset, compile_ruleset(ruleset)

    digest = hashlib.sha256(version.yaml.encode("utf-8", "surrogatepass")).hexdigest()
    ruleset, config = PARSED.get((version.slug, version.number, digest), parse)
    return Loaded(ruleset, config, version)


def parse_saved_text(text: str, name: str) -> Ruleset:
    """Text from the site: ``extends`` may only name a shipped ruleset."""
    return load_ruleset_text(text, name, shipped_only=True)


def saved(store: Store, slug: str, number: int | None = None) -> Loaded | None:
    version = store.get(slug, number)
    if version is None:
        return None
    try:
        return _parse_saved(version)
    except RulesetError:  # saved text is validated first; a schema change could break it
        return None


#: Saved versions seen to exist; they never go away, so the answer is kept.
_KNOWN: Final[LruCache[tuple[str, str, int], bool]] = LruCache(16384)


def known(store: Store, slug: str, number: int) -> bool:
    """Does version ``number`` of ``slug`` exist? (A database read the first time only.)"""
    key = (store.url, slug, number)
    if _KNOWN.peek(key):
        return True
    found = store.get(slug, number) is not None
    if found:
        _KNOWN.put(key, True)
    return found


def resolve(store: Store, reference: str) -> Loaded | None:
    """A shipped name, ``h/<slug>`` or ``h/<slug>/v<n>``; None when there is no such thing."""
    reference = reference.strip().strip("/")
    match = _SAVED.fullmatch(reference)
    if match:
        number = match["number"]
        return saved(store, match["slug"], int(number) if number else None)
    if not re.fullmatch(SHIPPED_NAME_PATTERN, reference):
        return None
    return shipped(reference)
