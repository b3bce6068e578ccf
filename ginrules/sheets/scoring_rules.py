"""The rule sheet's own sentences on how a hand scores, by outcome.

A table that argues over a hand is shown the sentence its printed sheet says
about it: the sheet is rendered for the rules (and cached, as every sheet is),
and the items of its "Scoring a hand" section are read back as plain text, so
the words are the sheet's, never a second wording of the rule.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass
from typing import Final

from ginrules.engine.scoring import HandEnd, HandScore
from ginrules.lru import LruCache
from ginrules.rules.load import Ruleset
from ginrules.sheets.render import sheet_html

_SECTION: Final = re.compile(r'<section id="hand-scoring">(.*?)</section>', re.S)
_ITEM: Final = re.compile(r"<li>(.*?)</li>", re.S)
#: The source marks after a value (superscript codes), which are not words.
_MARK: Final = re.compile(r"<sup\b.*?</sup>", re.S)
_TAG: Final = re.compile(r"<[^>]+>")


@dataclass(frozen=True)
class ScoringRules:
    """The sheet's sentence for each way a hand can score (None where it prints none)."""

    knock: str | None
    undercut: str | None
    gin: str | None
    big_gin: str | None
    spades: str | None

    def deciding(self, score: HandScore) -> list[str]:
        """The sentences that decide ``score``: its outcome's, and the spade rule's
        when a spade upcard doubled it."""
        by_end = {
            HandEnd.KNOCK: self.knock,
            HandEnd.UNDERCUT: self.undercut,
            HandEnd.GIN: self.gin,
            HandEnd.BIG_GIN: self.big_gin,
        }
        found = [by_end.get(score.end)]
        if score.multiplier > 1:
            found.append(self.spades)
        return [text for text in found if text]


_CACHE: Final[LruCache[str, ScoringRules]] = LruCache(64)


def scoring_rules(ruleset: Ruleset, fingerprint: str) -> ScoringRules:
    """The sentences of the sheet of ``ruleset`` (whose rules' fingerprint is given)."""
    return _CACHE.get(fingerprint, lambda: _read(sheet_html(ruleset)))


def _read(page: str) -> ScoringRules:
    section = _SECTION.search(page)
    items = [] if section is None else [_text(item) for item in _ITEM.findall(section[1])]

    def starting(*prefixes: str) -> str | None:
        return next((text for text in items if text.startswith(prefixes)), None)

    return ScoringRules(
        knock=starting("A knock"),
        undercut=starting("Undercut"),
        gin=starting("Gin"),
        big_gin=starting("Big gin"),
        spades=starting("Spades double"),
    )


def _text(item: str) -> str:
    return " ".join(html.unescape(_TAG.sub("", _MARK.sub("", item))).split())
