"""Showdown logic agrees with brute force: the knocker's spread, the defender's lay-offs."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ginrules.cards import DECK, Card, parse_cards
from ginrules.layoffs import best_defense, knocker_arrangement, layoff_spots
from ginrules.melds import AceMode, AceRule, Meld, best_melds
from tests import brute_force
from tests.test_melds import ACE_RULES, meld_rich_hands


@st.composite
def showdowns(draw: st.DrawFn) -> tuple[list[Card], list[Card], AceRule]:
    rule = draw(st.sampled_from(ACE_RULES))
    knocker = draw(meld_rich_hands(10))
    melds = [frozenset(m.cards) for m in best_melds(knocker, rule).melds]
    spots = sorted(brute_force.spots(melds, rule.mode.value) - set(knocker))
    # Hand the defender some lay-off spots and their neighbours so chains occur.
    near = sorted(
        {Card((c.rank + d) % 13, c.suit) for c in spots for d in (-1, 1)}
        - set(knocker)
        - set(spots)
    )
    chosen = draw(st.lists(st.sampled_from(spots), unique=True, max_size=4)) if spots else []
    chosen += draw(st.lists(st.sampled_from(near), unique=True, max_size=3)) if near else []
    chosen = list(dict.fromkeys(chosen))[:10]
    rest = [c for c in DECK if c not in knocker and c not in chosen]
    defender = chosen + list(draw(st.permutations(rest))[: 10 - len(chosen)])
    return knocker, defender, rule


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(showdowns())
def test_defender_lay_offs_match_brute_force(
    showdown: tuple[list[Card], list[Card], AceRule],
) -> None:
    knocker, defender, rule = showdown
    mode = rule.mode.value
    arrangement = knocker_arrangement(knocker, rule)
    assert arrangement.deadwood == brute_force.min_deadwood(knocker, mode, rule.value)
    defense = best_defense(defender, arrangement.melds, rule)
    melds = [frozenset(m.cards) for m in arrangement.melds]
    assert defense.deadwood == brute_force.best_defense_deadwood(defender, melds, mode, rule.value)
    _assert_layoffs_are_legal(defender, arrangement.melds, defense.layoffs, rule)
    no_layoffs = best_defense(defender, arrangement.melds, rule, layoffs_allowed=False)
    assert no_layoffs.layoffs == ()
    assert no_layoffs.deadwood == brute_force.min_deadwood(defender, mode, rule.value)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(meld_rich_hands(10), st.sampled_from(ACE_RULES), st.data())
def test_knocker_opens_the_fewest_unseen_spots(
    knocker: list[Card], rule: AceRule, data: st.DataObject
) -> None:
    others = [c for c in DECK if c not in knocker]
    seen = data.draw(st.lists(st.sampled_from(others), unique=True, max_size=15))
    mode = rule.mode.value
    chosen = knocker_arrangement(knocker, rule, seen=seen)
    least = brute_force.min_deadwood(knocker, mode, rule.value)
    known = set(knocker) | set(seen)
    fewest = min(
        len(brute_force.spots(melds, mode) - known)
        for melds, loose in brute_force.partitions(knocker, mode)
        if sum(brute_force.card_points(c, rule.value) for c in loose) == least
    )
    assert chosen.deadwood == least
    assert len(layoff_spots(chosen.melds, rule) - known) == fewest


def _assert_layoffs_are_legal(
    defender: list[Card], melds: tuple[Meld, ...], layoffs: tuple[object, ...], rule: AceRule
) -> None:
    grown = [frozenset(m.cards) for m in melds]
    for layoff in layoffs:
        card, index = layoff.card, layoff.meld_index  # type: ignore[attr-defined]
        assert card in defender
        assert brute_force._fits(card, grown[index], rule.mode.value)
        grown[index] = grown[index] | {card}


def test_hr_undercut_example() -> None:
    # HR: knock with 8, the defender lays off two cards and ends at 6.
    knocker = parse_cards("4H 5H 6H 9C 9D 9S JS QS KS 8D")
    arrangement = knocker_arrangement(knocker)
    assert arrangement.deadwood == 8
    defender = parse_cards("7H 9H TC TD TH JC QC KC 2C 4C")
    defense = best_defense(defender, arrangement.melds)
    assert sorted(str(lay.card) for lay in defense.layoffs) == ["7H", "9H"]
    assert defense.deadwood == 6
    # The same hand without the lay-off rule keeps 7H and 9H as deadwood.
    assert best_defense(defender, arrangement.melds, layoffs_allowed=False).deadwood == 22


def test_chain_lay_off_onto_a_laid_off_card() -> None:
    knocker_melds = best_melds(parse_cards("5S 6S 7S")).melds
    defense = best_defense(parse_cards("8S 9S KD"), knocker_melds)
    assert [str(lay.card) for lay in defense.layoffs] == ["8S", "9S"]
    assert defense.deadwood == 10


def test_defender_keeps_a_card_for_its_own_meld() -> None:
    # 8S could extend the knocker's run, but it makes 8S 8D 8C, saving more.
    knocker_melds = best_melds(parse_cards("5S 6S 7S")).melds
    defense = best_defense(parse_cards("8S 8D 8C 9D"), knocker_melds)
    assert defense.layoffs == ()
    assert defense.deadwood == 9


def test_no_lay_off_past_a_four_card_set() -> None:
    knocker_melds = best_melds(parse_cards("9C 9D 9H 9S")).melds
    assert layoff_spots(knocker_melds) == set()


def test_lay_off_onto_ace_high_and_round_the_corner() -> None:
    high = AceRule(AceMode.HIGH_OR_LOW)
    melds = best_melds(parse_cards("JS QS KS"), high).melds
    assert {str(c) for c in layoff_spots(melds, high)} == {"TS", "AS"}
    assert {str(c) for c in layoff_spots(melds, AceRule())} == {"TS"}
    corner = AceRule(AceMode.ROUND_THE_CORNER)
    melds = best_melds(parse_cards("QS KS AS"), corner).melds
    defense = best_defense(parse_cards("2S 3S 5D"), melds, corner)
    assert sorted(str(lay.card) for lay in defense.layoffs) == ["2S", "3S"]
