"""Rulesets end to end: the shipped files, provenance, merging, compiling, fingerprints.

Also the loader's promises under attack: hostile YAML and random mutations of
valid rulesets only ever raise :class:`RulesetError`, quickly, with a line.
"""

from __future__ import annotations

import copy
import dataclasses
import functools
import html
import json
import math
import random
import re
import time
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import yaml
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from ginrules import schema as ruleset_schema
from ginrules.cards import RANKS, Card
from ginrules.melds import AceMode, AceRule
from ginrules.rules import locate
from ginrules.rules.compile import (
    FINGERPRINT_LENGTH,
    BoxTiming,
    DeadHandDealer,
    DoubleScope,
    EngineConfig,
    FirstDealer,
    FirstTurn,
    FormatType,
    NextDealer,
    PartnershipDeck,
    Shutout,
    compile_ruleset,
)
from ginrules.rules.diagnostics import Diagnostic, RulesetError
from ginrules.rules.load import Origin, Ruleset, load_ruleset, load_ruleset_text
from ginrules.rules.text import refused_in_name, unshowable
from ginrules.rules.yamlsource import MAX_FILE_BYTES, load_yaml_file
from ginrules.sheets.render import sheet_html
from ginrules.words.diagnostics import message as diagnostic_message

REPO_ROOT = Path(__file__).resolve().parent.parent
RULESET_FILES = sorted((REPO_ROOT / "rulesets").glob("*.yaml"))
HOUSERULE_FILES = sorted((REPO_ROOT / "houserules").glob("*.yaml"))
SHIPPED_FILES = RULESET_FILES + HOUSERULE_FILES
SHIPPED_NAMES = [path.stem for path in SHIPPED_FILES]
# Hostile input must fail fast; this guards against hangs, it is not a benchmark.
HANG_GUARD_SECONDS = 2.0
FINGERPRINT = re.compile(rf"[0-9a-f]{{{FINGERPRINT_LENGTH}}}")
#: A house rule changes a few knobs; more than this is a ruleset of its own.
MAX_HOUSE_RULE_SETTINGS = 9

STR_TAG, INT_TAG, BOOL_TAG, NULL_TAG = (
    f"tag:yaml.org,2002:{kind}" for kind in ("str", "int", "bool", "null")
)
SEQ_TAG, MAP_TAG = "tag:yaml.org,2002:seq", "tag:yaml.org,2002:map"


def _shown(path: Path) -> str:
    """How a shipped file is named in messages: ``rulesets/classic.yaml``."""
    return f"{path.parent.name}/{path.name}"


def position_of(path: Path, key: str) -> tuple[int, int]:
    """Line and column of the value of the first ``key:`` in a YAML file."""
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if line.lstrip().startswith(f"{key}:"):
            value = line.split(":", 1)[1].lstrip()
            return number, len(line) - len(value) + 1
    raise AssertionError(f"{key}: not in {path}")


def leaves(data: Mapping[str, Any], prefix: tuple[str, ...] = ()) -> Iterator[tuple[str, ...]]:
    for key, value in data.items():
        if isinstance(value, Mapping):
            yield from leaves(value, (*prefix, key))
        else:
            yield (*prefix, key)


def plain(value: Any) -> Any:
    """A ruleset's frozen document as plain dicts and lists, ready for yaml.safe_dump."""
    if isinstance(value, Mapping):
        return {key: plain(item) for key, item in value.items()}
    if isinstance(value, tuple | list):
        return [plain(item) for item in value]
    return value


def set_knob(document: dict[str, Any], dotted: str, value: object) -> None:
    section, name = dotted.split(".")
    document.setdefault(section, {})[name] = value


def load_document(document: Mapping[str, Any], name: str = "document.yaml") -> Ruleset:
    return load_ruleset_text(yaml.safe_dump(dict(document), sort_keys=False), name, REPO_ROOT)


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def same_file(shown: str, expected: Path) -> bool:
    return Path(shown).resolve() == expected.resolve()


def errors_of(load: Callable[[], object]) -> list[Diagnostic]:
    with pytest.raises(RulesetError) as caught:
        load()
    assert caught.value.errors
    return caught.value.errors


def reject_constant(name: str) -> object:
    raise ValueError(f"{name} is not JSON")


def assert_strict_json(text: str) -> None:
    """The canonical form must be JSON any parser reads: no NaN or Infinity."""
    json.loads(text, parse_constant=reject_constant)


@functools.cache
def shipped(name: str) -> Ruleset:
    return load_ruleset(name)


@functools.cache
def shipped_fingerprint(name: str) -> str:
    return compile_ruleset(shipped(name)).fingerprint


def flat_document(name: str) -> dict[str, Any]:
    """A shipped ruleset with every knob written out and no ``extends``."""
    document: dict[str, Any] = plain(shipped(name).document)
    return document


def raw_document(name: str) -> dict[str, Any]:
    """A shipped file as written, ``extends`` and all."""
    path = locate.find_entry(name).path
    return copy.deepcopy(load_yaml_file(path).data)


# --- the shipped files -------------------------------------------------------


@pytest.mark.parametrize("path", SHIPPED_FILES, ids=_shown)
def test_shipped_file_loads_and_compiles(path: Path) -> None:
    ruleset = load_ruleset(path)
    config = compile_ruleset(ruleset)
    assert FINGERPRINT.fullmatch(config.fingerprint)
    assert ruleset.chain[0] == _shown(path)
    assert ruleset.source == _shown(path)
    assert all(warning.severity == "warning" for warning in ruleset.warnings)
    # The same file by its shipped name.
    assert compile_ruleset(load_ruleset(path.stem)) == config


def test_every_shipped_file_is_registered() -> None:
    assert sorted(entry.name for entry in locate.entries()) == sorted(SHIPPED_NAMES)
    assert {"classic", "oklahoma", "hollywood", "partnership"} <= set(SHIPPED_NAMES)


@pytest.mark.parametrize("path", HOUSERULE_FILES, ids=_shown)
def test_house_rule_extends_a_base_and_changes_a_few_knobs(path: Path) -> None:
    data = load_yaml_file(path).data
    base = data.get("extends")
    assert isinstance(base, str), f"{path.name} must extend a base ruleset"
    assert locate.find_entry(base).path.is_file()
    settings = [p for p in leaves(data) if p[0] not in ruleset_schema.METADATA_KEYS]
    assert 1 <= len(settings) <= MAX_HOUSE_RULE_SETTINGS, settings
    ruleset = load_ruleset(path)
    assert len(ruleset.chain) >= 2
    for setting in settings:
        assert ruleset.origin(".".join(setting)).file == _shown(path)


@pytest.mark.parametrize("path", RULESET_FILES, ids=_shown)
def test_base_rulesets_follow_the_published_rules(path: Path) -> None:
    assert load_ruleset(path).warnings == ()


def test_classic_has_no_warnings() -> None:
    assert load_ruleset("classic").warnings == ()


def test_ace_high_loads_with_a_warning_citing_hr() -> None:
    path = REPO_ROOT / "houserules" / "ace-high.yaml"
    ruleset = load_ruleset("ace-high")
    [warning] = [w for w in ruleset.warnings if w.path == ("cards", "ace")]
    assert warning.severity == "warning"
    assert warning.sources == ("HR",)
    assert "HR" in diagnostic_message(warning)  # worded in ginrules.words (issue 10)
    assert warning.file == "houserules/ace-high.yaml"
    assert (warning.line, warning.column) == position_of(path, "ace")
    assert warning.format().startswith(f"houserules/ace-high.yaml:{warning.line}:")
    assert compile_ruleset(ruleset).ace == AceRule(AceMode.HIGH_OR_LOW, 1)


def test_shipped_rulesets_have_distinct_fingerprints() -> None:
    fingerprints = {name: shipped_fingerprint(name) for name in SHIPPED_NAMES}
    assert len(set(fingerprints.values())) == len(fingerprints), fingerprints


# --- provenance ---------------------------------------------------------------


def test_provenance_names_the_file_and_line_of_each_knob() -> None:
    overlay = REPO_ROOT / "houserules" / "traditional-20-10.yaml"
    classic = REPO_ROOT / "rulesets" / "classic.yaml"
    ruleset = load_ruleset("traditional-20-10")
    assert ruleset.chain == ("houserules/traditional-20-10.yaml", "rulesets/classic.yaml")
    assert ruleset.origin("hand_scoring.gin_bonus") == Origin(
        "houserules/traditional-20-10.yaml", *position_of(overlay, "gin_bonus")
    )
    assert ruleset.origin("play.knock_limit") == Origin(
        "rulesets/classic.yaml", *position_of(classic, "knock_limit")
    )
    assert ruleset.origin("name") == Origin(
        "houserules/traditional-20-10.yaml", *position_of(overlay, "name")
    )
    for unset in ("oklahoma.ace_upcard", "game_scoring.stake_per_point", "format.team_target"):
        origin = ruleset.origin(unset)
        assert origin.is_default and origin.describe() == "default", unset


def test_provenance_through_a_chain_of_three() -> None:
    ruleset = load_ruleset("hollywood-20-10")
    assert ruleset.chain == (
        "houserules/hollywood-20-10.yaml",
        "rulesets/hollywood.yaml",
        "rulesets/classic.yaml",
    )
    assert ruleset.origin("hand_scoring.undercut_bonus").file == "houserules/hollywood-20-10.yaml"
    assert ruleset.origin("format.games").file == "rulesets/hollywood.yaml"
    assert ruleset.origin("game_scoring.box_bonus").file == "rulesets/classic.yaml"
    line, _ = position_of(REPO_ROOT / "rulesets" / "hollywood.yaml", "games")
    assert ruleset.origin("format.games").describe() == f"rulesets/hollywood.yaml:{line}"


# --- merging -------------------------------------------------------------------

BASE = """\
name: Base rules
author: The Tuesday table
notes:
  - first note
  - second note
hand_scoring:
  gin_bonus: 20
  undercut_bonus: 10
game_scoring:
  target: 150
"""


def test_overlay_merges_mappings_and_replaces_scalars_and_lists(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    base = write(tmp_path / "base" / "base.yaml", BASE)
    overlay = write(
        tmp_path / "tables" / "overlay.yaml",
        "extends: ../base/base.yaml\n"
        "name: Overlay\n"
        "notes:\n"
        "  - only this note\n"
        "hand_scoring:\n"
        "  gin_bonus: 30\n",
    )
    # Paths in `extends` are relative to the overlay's folder, not the working directory.
    (tmp_path / "elsewhere").mkdir()
    monkeypatch.chdir(tmp_path / "elsewhere")
    ruleset = load_ruleset(overlay)
    assert ruleset.value("hand_scoring.gin_bonus") == 30  # a scalar replaces
    assert ruleset.value("hand_scoring.undercut_bonus") == 10  # a mapping merges
    assert ruleset.value("game_scoring.target") == 150  # a section the overlay leaves alone
    assert ruleset.document["notes"] == ("only this note",)  # a list replaces whole
    assert ruleset.document["name"] == "Overlay"
    # A file's name, description, author and notes are its own, never its base's.
    assert ruleset.document["author"] == ""
    assert "extends" not in ruleset.document
    assert [Path(f).resolve() for f in ruleset.chain] == [overlay.resolve(), base.resolve()]
    assert same_file(str(ruleset.origin("hand_scoring.gin_bonus").file), overlay)
    assert ruleset.origin("hand_scoring.gin_bonus").line == 6
    assert same_file(str(ruleset.origin("hand_scoring.undercut_bonus").file), base)
    assert ruleset.origin("hand_scoring.undercut_bonus").line == 8
    assert same_file(str(ruleset.origin("notes").file), overlay)
    assert ruleset.origin("notes").line == 4
    assert ruleset.origin("game_scoring.target").line == 10


def test_an_overlay_never_takes_its_bases_name_description_author_or_notes(
    tmp_path: Path,
) -> None:
    write(tmp_path / "base.yaml", BASE)
    bare = load_ruleset(write(tmp_path / "bare.yaml", "extends: base.yaml\n"))
    assert bare.document["notes"] == ()
    assert bare.document["name"] == "Untitled house rules"
    assert bare.document["author"] == bare.document["description"] == ""
    ours = load_ruleset(write(tmp_path / "ours.yaml", "extends: classic\n"))
    classic = load_ruleset("classic")
    page = sheet_html(ours)
    for words in (classic.document["description"], *classic.document["notes"]):
        assert words and html.escape(words, quote=False) not in page


def test_chain_of_three_by_path_each_relative_to_its_own_folder(tmp_path: Path) -> None:
    base = write(tmp_path / "club" / "shared" / "base.yaml", BASE)
    middle = write(
        tmp_path / "club" / "middle.yaml",
        "extends: shared/base.yaml\nhand_scoring:\n  undercut_bonus: 15\n",
    )
    top = write(
        tmp_path / "tables" / "top.yaml",
        "extends: ../club/middle.yaml\ngame_scoring:\n  box_bonus: 20\n",
    )
    ruleset = load_ruleset(top)
    assert [Path(f).resolve() for f in ruleset.chain] == [
        top.resolve(),
        middle.resolve(),
        base.resolve(),
    ]
    assert ruleset.value("game_scoring.box_bonus") == 20
    assert ruleset.value("hand_scoring.undercut_bonus") == 15
    assert ruleset.value("hand_scoring.gin_bonus") == 20
    assert ruleset.value("game_scoring.target") == 150
    assert same_file(str(ruleset.origin("hand_scoring.undercut_bonus").file), middle)
    assert same_file(str(ruleset.origin("hand_scoring.gin_bonus").file), base)


def test_chain_of_three_by_name(tmp_path: Path) -> None:
    middle = write(
        tmp_path / "middle.yaml", "extends: traditional-20-10\ngame_scoring:\n  target: 150\n"
    )
    top = write(tmp_path / "top.yaml", "extends: ./middle.yaml\nhand_scoring:\n  gin_bonus: 30\n")
    ruleset = load_ruleset(top)
    assert [Path(f).resolve() for f in ruleset.chain[:2]] == [top.resolve(), middle.resolve()]
    assert ruleset.chain[2:] == ("houserules/traditional-20-10.yaml", "rulesets/classic.yaml")
    assert ruleset.value("hand_scoring.gin_bonus") == 30
    assert ruleset.value("hand_scoring.undercut_bonus") == 10
    assert ruleset.value("game_scoring.target") == 150
    assert ruleset.origin("hand_scoring.undercut_bonus").file == "houserules/traditional-20-10.yaml"


def test_text_overlay_resolves_paths_from_its_base_dir(tmp_path: Path) -> None:
    write(tmp_path / "rules" / "base.yaml", BASE)
    ruleset = load_ruleset_text(
        "extends: rules/base.yaml\nhand_scoring:\n  gin_bonus: 22\n", "<form>", tmp_path
    )
    assert ruleset.chain[0] == "<form>"
    assert ruleset.value("hand_scoring.gin_bonus") == 22
    assert ruleset.value("game_scoring.target") == 150
    assert ruleset.origin("hand_scoring.gin_bonus") == Origin("<form>", 3, 14)


# --- compiling ------------------------------------------------------------------

CLASSIC_CONFIG = EngineConfig(
    ace=AceRule(AceMode.LOW, 1),
    hand_size=10,
    first_dealer=FirstDealer.LOW_CARD_DEALS,
    next_dealer=NextDealer.LOSER,
    after_dead_hand=DeadHandDealer.SAME_DEALER,
    first_turn=FirstTurn.UPCARD_OFFER,
    discard_taken_card=False,
    knock_limit=10,
    knock_limit_by_upcard=(10,) * 13,
    gin_must_be_declared=False,
    knock_on_first_turn=True,
    oklahoma=False,
    spades_double=None,
    big_gin_bonus=None,
    stock_end_cards_left=2,
    last_discard_playable=False,
    layoffs=True,
    gin_bonus=25,
    undercut_bonus=25,
    undercut_on_tie=True,
    target=100,
    game_bonus=100,
    box_bonus=25,
    box_timing=BoxTiming.AFTER_GAME,
    shutout=Shutout.DOUBLE_MARGIN,
    shutout_game_bonus=None,  # shutouts double the margin: the bonus has no effect
    stake_per_point=0.0,
    format=FormatType.TWO_PLAYER,
    players=2,
    games=1,
    partnership_deck=None,  # not a partnership game
)

OKLAHOMA_LIMITS = dict(zip(RANKS, (0, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10), strict=True))


def compiled(text: str) -> EngineConfig:
    return compile_ruleset(load_ruleset_text(text, "table.yaml", REPO_ROOT))


def every_card() -> Iterator[Card]:
    return (Card(rank, suit) for rank in range(13) for suit in range(4))


def test_classic_compiles_to_the_classic_column_of_the_rules() -> None:
    config = compile_ruleset(load_ruleset("classic"))
    assert config == CLASSIC_CONFIG
    assert all(config.knock_limit_for(card) == 10 for card in every_card())
    assert config.knock_limit_for(None) == 10
    assert not any(config.spades_doubled(card) for card in every_card())


def test_the_defaults_are_the_classic_rules() -> None:
    assert compiled("name: Nothing set\n") == CLASSIC_CONFIG


def test_config_is_immutable() -> None:
    with pytest.raises(dataclasses.FrozenInstanceError):
        CLASSIC_CONFIG.gin_bonus = 20  # type: ignore[misc]


def test_oklahoma_knock_limit_is_the_upcard_value() -> None:
    config = compile_ruleset(load_ruleset("oklahoma"))
    assert config.oklahoma
    for card in every_card():
        assert config.knock_limit_for(card) == OKLAHOMA_LIMITS[RANKS[card.rank]], card
    assert config.knock_limit_for(None) == 10


def test_oklahoma_ace_upcard_may_allow_a_knock_with_1() -> None:
    config = compiled("extends: oklahoma\noklahoma:\n  ace_upcard: knock_with_1\n")
    for card in every_card():
        expected = 1 if card.rank == 0 else OKLAHOMA_LIMITS[RANKS[card.rank]]
        assert config.knock_limit_for(card) == expected, card


def test_oklahoma_knock_limit_is_a_ceiling() -> None:
    config = compiled("extends: oklahoma\nplay:\n  knock_limit: 7\n")
    for card in every_card():
        assert config.knock_limit_for(card) == min(OKLAHOMA_LIMITS[RANKS[card.rank]], 7), card
    assert config.knock_limit_for(Card(12, 3)) == 7
    assert config.knock_limit_for(Card(4, 0)) == 5
    assert config.knock_limit_for(None) == 7


def test_straight_gin_never_allows_a_knock() -> None:
    config = compile_ruleset(load_ruleset("straight-gin"))
    assert config.knock_limit == 0
    assert {config.knock_limit_for(card) for card in every_card()} == {0}


def test_spades_double_only_on_a_spade_upcard() -> None:
    config = compile_ruleset(load_ruleset("oklahoma-spades-150"))
    assert config.spades_double is DoubleScope.WITH_BONUSES
    assert config.target == 150
    for card in every_card():
        assert config.spades_doubled(card) == (card.suit == 3), card
    assert not config.spades_doubled(None)


@pytest.mark.parametrize(
    ("text", "bonus"),
    [
        ("extends: classic\n", None),
        ("extends: big-gin-31\n", 31),
        ("extends: big-gin-31\nbig_gin:\n  bonus: 50\n", 50),
        ("extends: classic\nbig_gin: {enabled: true, bonus: 6, bonus_adds_to_gin: true}\n", 31),
        (
            "extends: traditional-20-10\n"
            "big_gin: {enabled: true, bonus: 6, bonus_adds_to_gin: true}\n",
            26,
        ),
    ],
)
def test_big_gin_bonus_resolves_to_one_number(text: str, bonus: int | None) -> None:
    assert compiled(text).big_gin_bonus == bonus


def test_partnership_target_is_the_team_target() -> None:
    config = compile_ruleset(load_ruleset("partnership"))
    assert (config.format, config.players, config.target) == (FormatType.PARTNERSHIP, 4, 125)
    assert config.partnership_deck is PartnershipDeck.SHARED  # HR's game: one deck
    two = compiled(
        "extends: partnership\nformat:\n  team_target: 150\n  partnership_deck: per_pairing\n"
    )
    assert (two.target, two.partnership_deck) == (150, PartnershipDeck.PER_PAIRING)


def test_hollywood_scores_three_games() -> None:
    config = compile_ruleset(load_ruleset("hollywood-20-10"))
    assert (config.format, config.games, config.players) == (FormatType.HOLLYWOOD, 3, 2)
    assert (config.gin_bonus, config.undercut_bonus) == (20, 10)


def test_online_casino_scoring() -> None:
    config = compile_ruleset(load_ruleset("online-casino"))
    assert (config.gin_bonus, config.undercut_bonus, config.box_bonus) == (20, 10, 20)
    assert (config.shutout, config.shutout_game_bonus) == (Shutout.GAME_BONUS, 200)
    assert config.next_dealer is NextDealer.ALTERNATE


def test_canonical_json_is_sorted_compact_strict_json() -> None:
    config = compile_ruleset(load_ruleset("oklahoma-spades-150"))
    text = config.canonical_json()
    assert_strict_json(text)
    assert json.loads(text) == config.canonical()
    assert text == json.dumps(json.loads(text), sort_keys=True, separators=(",", ":"))
    assert config.canonical()["schema_version"] == ruleset_schema.schema_version()


# --- fingerprints -----------------------------------------------------------------

_BOOL_SPELLINGS = {
    True: ("true", "True", "TRUE", "yes", "Yes", "on", "ON"),
    False: ("false", "False", "FALSE", "no", "No", "off", "OFF"),
}
_NULL_SPELLINGS = ("null", "Null", "~")
_STRING_STYLES = (None, "'", '"', "|", ">")


def _int_spellings(number: int) -> tuple[str, ...]:
    spellings = [str(number), f"+{number}" if number >= 0 else str(number)]
    if number >= 0:
        spellings.append(hex(number))
    return tuple(spellings)


def render(document: Mapping[str, Any], rnd: random.Random) -> str:
    """The same document as YAML, formatted at random.

    Key order, block or flow style for each mapping and list, the quoting of
    each string, the spelling of each number, boolean and null, indentation,
    line breaks, document markers and comments all vary.
    """

    class Dumper(yaml.SafeDumper):
        pass

    def mapping(dumper: yaml.SafeDumper, data: dict[str, Any]) -> yaml.Node:
        items = list(data.items())
        rnd.shuffle(items)
        return dumper.represent_mapping(MAP_TAG, items, flow_style=rnd.choice((True, False)))

    def sequence(dumper: yaml.SafeDumper, data: list[Any]) -> yaml.Node:
        return dumper.represent_sequence(SEQ_TAG, data, flow_style=rnd.choice((True, False)))

    def text(dumper: yaml.SafeDumper, data: str) -> yaml.Node:
        return dumper.represent_scalar(STR_TAG, data, style=rnd.choice(_STRING_STYLES))

    def boolean(dumper: yaml.SafeDumper, data: bool) -> yaml.Node:
        return dumper.represent_scalar(BOOL_TAG, rnd.choice(_BOOL_SPELLINGS[data]))

    def integer(dumper: yaml.SafeDumper, data: int) -> yaml.Node:
        return dumper.represent_scalar(INT_TAG, rnd.choice(_int_spellings(data)))

    def null(dumper: yaml.SafeDumper, data: None) -> yaml.Node:
        return dumper.represent_scalar(NULL_TAG, rnd.choice(_NULL_SPELLINGS))

    Dumper.add_representer(dict, mapping)
    Dumper.add_representer(list, sequence)
    Dumper.add_representer(str, text)
    Dumper.add_representer(bool, boolean)
    Dumper.add_representer(int, integer)
    Dumper.add_representer(type(None), null)

    dumped = yaml.dump(
        dict(document),
        Dumper=Dumper,
        sort_keys=False,
        default_flow_style=None,
        indent=rnd.choice((2, 3, 4, 8)),
        width=100_000,
        allow_unicode=rnd.choice((True, False)),
        canonical=rnd.random() < 0.1,
        explicit_start=rnd.choice((True, False)),
        explicit_end=rnd.choice((True, False)),
    )
    assert yaml.safe_load(dumped) == document, "the renderer changed the document"
    lines = dumped.splitlines()
    commented = [f"# {rnd.choice(('a comment', 'house rules', 'gin: 99'))}"]
    for line in lines:
        # A line that starts at column 0 begins a top-level entry (or a document
        # marker), so a full-line comment before it cannot land inside a value.
        if line[:1] not in ("", " ") and rnd.random() < 0.5:
            commented.append("#   " + "x" * rnd.randrange(5))
        commented.append(line)
    commented.append("# the end")
    result = "\n".join(commented) + "\n"
    if yaml.safe_load(result) != document:
        result = dumped  # a comment landed inside a value after all: keep the plain text
    return result.replace("\n", rnd.choice(("\n", "\r\n")))


_counter = iter(range(1_000_000))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    name=st.sampled_from(SHIPPED_NAMES),
    flat=st.booleans(),
    rnd=st.randoms(use_true_random=False),
)
def test_fingerprint_ignores_formatting(
    tmp_path_factory: pytest.TempPathFactory, name: str, flat: bool, rnd: random.Random
) -> None:
    document = flat_document(name) if flat else raw_document(name)
    text = render(document, rnd)
    path = tmp_path_factory.getbasetemp() / f"formatted-{next(_counter)}.yaml"
    path.write_bytes(("\ufeff" if rnd.random() < 0.2 else "").encode() + text.encode())
    assert compile_ruleset(load_ruleset(path)).fingerprint == shipped_fingerprint(name)


@pytest.mark.parametrize("name", SHIPPED_NAMES)
def test_flat_file_and_overlay_chain_give_one_fingerprint(tmp_path: Path, name: str) -> None:
    flat = write(tmp_path / "flat.yaml", yaml.safe_dump(flat_document(name), sort_keys=False))
    ruleset = load_ruleset(flat)
    assert len(ruleset.chain) == 1
    assert compile_ruleset(ruleset).fingerprint == shipped_fingerprint(name)


def test_the_same_rules_through_different_chains_give_one_fingerprint(tmp_path: Path) -> None:
    # hollywood-20-10 is houserule -> hollywood -> classic; write it as one overlay of classic,
    # and as an overlay of traditional-20-10 that switches Hollywood on.
    on_classic = write(
        tmp_path / "a.yaml",
        "extends: classic\nformat: {type: hollywood, games: 3}\n"
        "hand_scoring: {gin_bonus: 20, undercut_bonus: 10}\n",
    )
    on_traditional = write(
        tmp_path / "b.yaml",
        "extends: traditional-20-10\nname: Another name\nformat: {type: hollywood, games: 3}\n",
    )
    by_path = write(
        tmp_path / "c" / "c.yaml",
        f"extends: {REPO_ROOT / 'houserules' / 'hollywood-20-10.yaml'}\nauthor: someone\n",
    )
    expected = shipped_fingerprint("hollywood-20-10")
    for path in (on_classic, on_traditional, by_path):
        assert compile_ruleset(load_ruleset(path)).fingerprint == expected, path.name


@settings(max_examples=40, deadline=None)
@given(
    name=st.sampled_from(SHIPPED_NAMES),
    # Text a ruleset may hold (ginrules.rules.text): nothing unshowable anywhere, nothing
    # hidden in the name and author, no bidirectional control in the description.
    title=st.text(
        st.characters(exclude_categories=["Cs", "Cc", "Cf"]), min_size=1, max_size=80
    ).filter(lambda text: refused_in_name(text) is None),
    description=st.text(st.characters(exclude_categories=["Cs", "Cc", "Cf"]), max_size=200).filter(
        lambda text: unshowable(text) is None
    ),
    author=st.text(st.characters(exclude_categories=["Cs", "Cc", "Cf"]), max_size=40).filter(
        lambda text: refused_in_name(text) is None
    ),
    notes=st.lists(
        st.text(st.characters(exclude_categories=["Cs", "Cc"]), min_size=1, max_size=40).filter(
            lambda text: unshowable(text) is None
        ),
        max_size=4,
    ),
)
def test_metadata_does_not_change_the_fingerprint(
    name: str, title: str, description: str, author: str, notes: list[str]
) -> None:
    document = flat_document(name)
    document.update(name=title, description=description, author=author, notes=notes)
    ruleset = load_document(document)
    assert ruleset.title == title
    assert compile_ruleset(ruleset).fingerprint == shipped_fingerprint(name)


# Where a knob does something: a knob that has no effect with the defaults
# (Oklahoma's ace rule without Oklahoma, say) is changed where it has one.
_OKLAHOMA: dict[str, object] = {"oklahoma.enabled": True}
_PARTNERSHIP: dict[str, object] = {
    "format.type": "partnership",
    "format.players": 4,
    "format.team_target": 125,
}
_EFFECTIVE_IN: dict[str, dict[str, object]] = {
    "oklahoma.ace_upcard": _OKLAHOMA,
    "oklahoma.spades_double": _OKLAHOMA,
    "oklahoma.spades_double_scope": {**_OKLAHOMA, "oklahoma.spades_double": True},
    "big_gin.bonus": {"big_gin.enabled": True},
    "big_gin.bonus_adds_to_gin": {"big_gin.enabled": True},
    "game_scoring.shutout_game_bonus": {"game_scoring.shutout": "game_bonus"},
    "format.partnership_deck": _PARTNERSHIP,
    "format.team_target": _PARTNERSHIP,
}
# Format knobs cannot change alone: these changes bring the knobs they need.
_ALSO_CHANGE: dict[tuple[str, object], dict[str, object]] = {
    ("format.type", "hollywood"): {"format.games": 3},
    ("format.type", "three_handed"): {"format.players": 3},
    ("format.type", "partnership"): {"format.players": 4, "format.team_target": 125},
    ("format.players", 3): {"format.type": "three_handed"},
    ("format.players", 4): {"format.type": "partnership", "format.team_target": 125},
    ("format.games", 3): {"format.type": "hollywood"},
}


def other_values(knob: ruleset_schema.Knob, current: object) -> list[object]:
    """Valid-looking values of a knob other than ``current``."""
    if knob.choices is not None:
        candidates: list[object] = list(knob.choices)
    elif "boolean" in knob.types:
        candidates = [True, False]
    else:
        numbers = [knob.minimum, knob.maximum, *(p.value for p in knob.published)]
        if isinstance(current, int | float) and not isinstance(current, bool):
            numbers += [current + 1, current - 1]
        if "number" in knob.types:
            numbers.append(0.5)
        candidates = [
            int(n) if isinstance(n, float) and n.is_integer() else n
            for n in numbers
            if isinstance(n, int | float)
            and (knob.minimum is None or n >= knob.minimum)
            and (knob.maximum is None or n <= knob.maximum)
        ]
    return sorted(
        {repr(c): c for c in candidates if c != current or type(c) is not type(current)}.values(),
        key=repr,
    )


@pytest.mark.parametrize("knob", ruleset_schema.knobs(), ids=lambda k: k.dotted)
def test_changing_any_knob_changes_the_fingerprint(knob: ruleset_schema.Knob) -> None:
    base = ruleset_schema.defaults()
    for dotted, value in _EFFECTIVE_IN.get(knob.dotted, {}).items():
        set_knob(base, dotted, value)
    before = compile_ruleset(load_document(base)).fingerprint
    current = base[knob.section][knob.name]
    tried = []
    for value in other_values(knob, current):
        changed = copy.deepcopy(base)
        for dotted, needed in _ALSO_CHANGE.get((knob.dotted, value), {}).items():
            set_knob(changed, dotted, needed)
        set_knob(changed, knob.dotted, value)
        try:
            after = compile_ruleset(load_document(changed)).fingerprint
        except RulesetError:
            continue  # not a valid combination (a bonus at the target, say)
        tried.append(value)
        assert after != before, f"{knob.dotted}: {current!r} -> {value!r} kept {before}"
    assert tried, f"no valid value of {knob.dotted} other than {current!r} was found"


# --- ranking and odd values ---------------------------------------------------------


def test_best_schema_error_comes_first() -> None:
    """``best first`` means jsonschema's ``best_match`` comes first."""
    text = "play:\n  knock_limit: eight\nstakes: 0.10\n"
    data = yaml.safe_load(text)
    best = jsonschema.exceptions.best_match(
        jsonschema.Draft202012Validator(ruleset_schema.schema()).iter_errors(data)
    )
    assert best is not None and best.validator == "additionalProperties"
    errors = errors_of(lambda: load_ruleset_text(text, "table.yaml"))
    assert [e.json_path for e in errors] == ["$.stakes", "$.play.knock_limit"]


@pytest.mark.parametrize("spelling", [".nan", ".NaN", ".inf", "-.inf"])
def test_a_stake_that_is_not_a_finite_number_is_refused(spelling: str) -> None:
    text = f"game_scoring:\n  stake_per_point: {spelling}\n"
    errors = errors_of(lambda: load_ruleset_text(text, "table.yaml"))
    assert (errors[0].line, errors[0].json_path) == (2, "$.game_scoring.stake_per_point")


def test_schema_errors_are_capped_like_yaml_errors() -> None:
    # Within the size cap, thousands of unknown keys would be megabytes of messages.
    text = "".join(f"k{i}: 1\n" for i in range(1_000))
    assert len(text.encode()) <= MAX_FILE_BYTES
    with pytest.raises(RulesetError) as caught:
        load_ruleset_text(text, "table.yaml")
    assert len(caught.value.diagnostics) <= 101
    assert "stopped after" in caught.value.diagnostics[-1].message


# --- hostile YAML ------------------------------------------------------------------


def _alias_bomb() -> bytes:
    lines = ["a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
    for level in range(1, 10):
        lines.append(f"a{level}: &a{level} [{', '.join([f'*a{level - 1}'] * 9)}]")
    return ("\n".join(lines) + "\n").encode()


HOSTILE: dict[str, bytes] = {
    "alias-bomb": _alias_bomb(),
    "nesting-100k-deep": b"deep: " + b"[" * 100_000 + b"]" * 100_000,
    "nesting-60k-deep-within-the-cap": b"deep: " + b"[" * 60_000,
    "nesting-deep-mappings": b"deep: " + b"{a: " * 15_000,
    "nesting-deep-block": "".join(" " * i + f"k{i}:\n" for i in range(300)).encode(),
    "file-300-kb": b"notes:\n" + b"  - a note that goes on and on\n" * 10_500,
    "tabs": b"hand_scoring:\n\tgin_bonus: 20\n",
    "tab-after-a-key": b"hand_scoring:\n  gin_bonus:\t\t20\n  undercut_bonus: 10\n\t\n",
    "duplicate-keys": b"play:\n  knock_limit: 5\n" + b"play:\n  knock_limit: 6\n" * 2_000,
    "binary-garbage": bytes(range(256)) * 8,
    "png-header": b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(random.Random(7).randbytes(2_000)),
    "random-bytes": bytes(random.Random(11).randbytes(4_000)),
    "nul-in-text": b"name: gin\x00rummy\n",
    "long-number": b"play:\n  knock_limit: " + b"9" * 5_000 + b"\n",
    "sexagesimal": b"play:\n  knock_limit: " + b":".join([b"59"] * 40) + b"\n",
    "many-anchors": "".join(f"k{i}: &a{i} {i}\n" for i in range(3_000)).encode(),
    "python-tag": b"name: !!python/object/apply:os.system ['echo hi']\n",
    "custom-tag": b"play: !knock {limit: 10}\n",
    "unclosed-quote": b'name: "Classic\nplay:\n  knock_limit: 10\n',
    "unclosed-flow": b"play: {knock_limit: 10\n",
    "second-document": b"name: a\n---\nname: b\n",
    "top-level-scalar": b"just some words\n",
}
_TOO_LARGE = {"nesting-100k-deep", "file-300-kb"}


@pytest.mark.parametrize("name", list(HOSTILE))
def test_hostile_yaml_fails_fast_with_a_line(tmp_path: Path, name: str) -> None:
    path = tmp_path / f"{name}.yaml"
    path.write_bytes(HOSTILE[name])
    started = time.perf_counter()
    with pytest.raises(RulesetError) as caught:
        load_ruleset(path)
    elapsed = time.perf_counter() - started
    assert elapsed < HANG_GUARD_SECONDS, f"{name} took {elapsed:.2f}s"
    first = caught.value.errors[0]
    assert same_file(first.file, path)
    assert len(str(caught.value)) < 100_000
    if name in _TOO_LARGE:
        # A problem with the whole file has no line to point at.
        assert "too large" in first.message
        assert first.format().startswith(f"{first.file}: error: file is too large")
    else:
        assert first.line is not None and first.line >= 1, first.format()
        assert first.format().startswith(f"{first.file}:{first.line}:{first.column}: error: ")


# --- random mutations ---------------------------------------------------------------

_SECTION_NAMES = [section.name for section in ruleset_schema.sections()]
_KNOB_NAMES = sorted({knob.name for knob in ruleset_schema.knobs()})
_CHOICES = sorted({str(c) for knob in ruleset_schema.knobs() for c in knob.choices or ()})
_SCALARS = (
    st.none()
    | st.booleans()
    | st.integers(-1_000, 20_000)
    | st.floats()
    | st.text(max_size=12)
    | st.sampled_from(_CHOICES + SHIPPED_NAMES)
)
_VALUES = st.recursive(
    _SCALARS,
    lambda children: (
        st.lists(children, max_size=3)
        | st.dictionaries(st.text(max_size=8) | st.integers(0, 3), children, max_size=3)
    ),
    max_leaves=6,
)
_KEYS = st.sampled_from(_KNOB_NAMES + list(ruleset_schema.METADATA_KEYS)) | st.text(max_size=10)
_SECTIONS = st.sampled_from(_SECTION_NAMES) | st.text(max_size=10)
Mutation = tuple[str, str, str, object]
_MUTATIONS = st.lists(
    st.tuples(st.just("set"), _SECTIONS, _KEYS, _VALUES)
    | st.tuples(st.just("delete"), _SECTIONS, _KEYS, st.none())
    | st.tuples(st.just("top"), st.just(""), _KEYS | _SECTIONS, _VALUES),
    min_size=1,
    max_size=4,
)


def mutate(document: dict[str, Any], mutations: list[Mutation]) -> dict[str, Any]:
    mutant = copy.deepcopy(document)
    for action, section, key, value in mutations:
        if action == "top":
            mutant[key] = value
        elif action == "delete":
            target = mutant.get(section)
            if isinstance(target, dict):
                target.pop(key, None)
            else:
                mutant.pop(key, None)
        elif isinstance(mutant.get(section), dict):
            mutant[section][key] = value
        else:
            mutant[section] = {key: value}
    return mutant


def check_loads_or_refuses(text: str | bytes) -> None:
    """Only a RulesetError may come out; a ruleset that loads must compile."""
    try:
        ruleset = load_ruleset_text(text, "mutant.yaml", REPO_ROOT)
    except RulesetError as error:
        assert error.errors
        assert all(isinstance(d.message, str) and d.message for d in error.diagnostics)
        return
    config = compile_ruleset(ruleset)
    assert FINGERPRINT.fullmatch(config.fingerprint)
    assert_strict_json(config.canonical_json())


@settings(max_examples=150, deadline=None)
@given(name=st.sampled_from(SHIPPED_NAMES), flat=st.booleans(), mutations=_MUTATIONS)
@example(
    name="classic", flat=True, mutations=[("set", "game_scoring", "stake_per_point", math.nan)]
)
@example(name="classic", flat=False, mutations=[("set", "format", "team_target", 125.0)])
def test_mutated_rulesets_load_or_fail_cleanly(
    name: str, flat: bool, mutations: list[Mutation]
) -> None:
    document = flat_document(name) if flat else raw_document(name)
    text = yaml.safe_dump(mutate(document, mutations), allow_unicode=True, sort_keys=False)
    check_loads_or_refuses(text)


_YAML_NOISE = [*":-[]{}&*!|>'\"#%@`,? \t\n", "\r", "\x00", "\ufeff", "é", "0", "a"]


@settings(max_examples=150, deadline=None)
@given(
    name=st.sampled_from(SHIPPED_NAMES),
    edits=st.lists(
        st.tuples(
            st.floats(0, 1), st.integers(0, 3), st.sampled_from(_YAML_NOISE) | st.text(max_size=3)
        ),
        min_size=1,
        max_size=6,
    ),
    invalid_utf8=st.booleans(),
)
def test_edited_files_load_or_fail_cleanly(
    name: str, edits: list[tuple[float, int, str]], invalid_utf8: bool
) -> None:
    text = locate.find_entry(name).path.read_text(encoding="utf-8")
    for where, deleted, inserted in edits:
        at = int(where * len(text))
        text = text[:at] + inserted + text[at + deleted :]
    data = text.encode("utf-8")
    if invalid_utf8:
        data = data[: len(data) // 2] + b"\xc3(" + data[len(data) // 2 :]
    check_loads_or_refuses(data)


def test_knobs_without_effect_do_not_change_the_fingerprint(tmp_path: Path) -> None:
    classic = compile_ruleset(load_ruleset("classic")).fingerprint
    inert = tmp_path / "inert.yaml"
    inert.write_text(
        "extends: classic\ngame_scoring:\n  shutout_game_bonus: 300\n"
        "format:\n  partnership_deck: shared\nbig_gin:\n  bonus: 40\n",
        encoding="utf-8",
    )
    ruleset = load_ruleset(inert)
    assert compile_ruleset(ruleset).fingerprint == classic
    # ... but each is still reported as having no effect.
    no_effect = [w for w in ruleset.warnings if "has no effect" in w.message]
    assert {w.json_path for w in no_effect} == {
        "$.game_scoring.shutout_game_bonus",
        "$.format.partnership_deck",
        "$.big_gin.bonus",
    }


def test_hand_size_check_guards_the_deck_beyond_the_schema_limits() -> None:
    # The schema's ranges keep every real table inside the deck; the check is
    # the second line of defence should those ranges ever widen.
    from ginrules import schema as knob_schema
    from ginrules.rules.checks import RuleView, hand_size_fits_the_deck

    document = knob_schema.defaults()
    document["format"].update(type="partnership", players=4, partnership_deck="shared")
    document["cards"]["hand_size"] = 12
    document["stock_end"]["cards_left"] = 3
    [finding] = hand_size_fits_the_deck(RuleView(document, frozenset()))
    assert finding.severity == "error"
    # 4 x 12 cards and two upcards (one per pairing) leave 2.
    assert "4 hands of 12 cards leave a stock of 2" in finding.message
    document["cards"]["hand_size"] = 10
    assert list(hand_size_fits_the_deck(RuleView(document, frozenset()))) == []
