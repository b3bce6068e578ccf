"""The rule sheet's own sentences on how a hand scores, by outcome.

A table that argues over a hand is shown the sentence its printed sheet says
about it: the sheet is rendered for the rules (and cached, as every sheet is),
and the items of its "Scoring a hand" section are read back as plain text, so
the words are the sheet's, in the sheet's language, never a second wording of
the rule. Each item names the outcome it scores (``<li data-scores="gin">``).
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
from ginrules.words.i18n import current_locale

_SECTION: Final = re.compile(r'<section id="hand-scoring">(.*?)</section>', re.S)
_ITEM: Final = re.compile(r'<li data-scores="([a-z_]+)">(.*?)</li>', re.S)
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


_CACHE: Final[LruCache[tuple[str, str], ScoringRules]] = LruCache(64)


def scoring_rules(ruleset: Ruleset, fingerprint: str) -> ScoringRules:
    """The sentences of the sheet of ``ruleset`` (whose rules' fingerprint is given),
    in the current language."""
    return _CACHE.get((fingerprint, current_locale()), lambda: _read(sheet_html(ruleset)))


def _read(page: str) -> ScoringRules:
    section = _SECTION.search(page)
    items = {} if section is None else dict(_ITEM.findall(section[1]))

    def scoring(outcome: str) -> str | None:
        return _text(items[outcome]) if outcome in items else None

    return ScoringRules(
        knock=scoring("knock"),
        undercut=scoring("undercut"),
        gin=scoring("gin"),
        big_gin=scoring("big_gin"),
        spades=scoring("spades"),
    )


def _text(item: str) -> str:
    return " ".join(html.unescape(_TAG.sub("", _MARK.sub("", item))).split())
