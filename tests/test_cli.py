"""The ginrules command, in-process and as an installed program."""

from __future__ import annotations

import io
import json
import os
import shutil
import subprocess
import sys
import venv
import zipfile
from collections.abc import Callable
from pathlib import Path

import pytest

from ginrules import schema as ruleset_schema
from ginrules.cli import main
from ginrules.rules import locate
from ginrules.rules.load import Ruleset, load_ruleset
from ginrules.sheets.render import SheetOptions, scorepad_html, sheet_html
from ginrules.words.i18n import _, use_locale

ROOT = Path(__file__).resolve().parent.parent


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), out=out, err=err)
    return code, out.getvalue(), err.getvalue()


def test_list_shows_every_shipped_file() -> None:
    code, out, _ = run("list")
    assert code == 0
    for entry in locate.entries():
        assert entry.name in out
    code, out, _ = run("list", "--json")
    rows = json.loads(out)
    assert {row["name"] for row in rows} == {e.name for e in locate.entries()}
    assert all(len(row["fingerprint"]) == 12 for row in rows)


def test_validate_all_passes_and_reports_departures() -> None:
    code, out, err = run("validate", "--all")
    assert code == 0
    assert "houserules/ace-high.yaml: ok with 1 warning" in out
    assert "houserules/ace-high.yaml:10:8: warning:" in err
    assert "HR" in err
    code, _, _ = run("validate", "--all", "--strict")
    assert code == 1, "--strict turns the ace-high warning into a failure"


def test_validate_bad_file_exits_1_with_file_line_col(tmp_path: Path) -> None:
    bad = tmp_path / "table.yaml"
    bad.write_text("extends: classic\nhand_scoring:\n  gin_bonsu: 20\n", encoding="utf-8")
    code, out, err = run("validate", str(bad), "classic")
    assert code == 1
    assert "INVALID (1 error)" in out
    assert "rulesets/classic.yaml: ok" in out, "the good one is still checked"
    first = err.splitlines()[0]
    assert first.startswith(f"{locate.display_name(bad)}:3:3: error: unknown key 'gin_bonsu'")
    assert "did you mean 'gin_bonus'?" in first


def test_validate_json(tmp_path: Path) -> None:
    bad = tmp_path / "table.yaml"
    bad.write_text("play:\n  knock_limit: 12\n", encoding="utf-8")
    code, out, _ = run("validate", "--json", str(bad))
    assert code == 1
    [result] = json.loads(out)
    assert result["valid"] is False
    [diagnostic] = result["diagnostics"]
    assert diagnostic["path"] == "$.play.knock_limit"
    assert diagnostic["line"] == 2


def test_validate_unknown_name_suggests() -> None:
    code, _, err = run("validate", "clasic")
    assert code == 1
    assert "unknown ruleset 'clasic'; did you mean 'classic'?" in err


def test_compile_prints_canonical_json_and_fingerprint() -> None:
    code, out, _ = run("compile", "oklahoma")
    assert code == 0
    data = json.loads(out)
    assert data["config"]["oklahoma"] is True
    assert data["config"]["knock_limit_by_upcard"]["A"] == 0
    assert data["config"]["knock_limit_by_upcard"]["7"] == 7
    code, fingerprint, _ = run("compile", "oklahoma", "--fingerprint")
    assert fingerprint.strip() == data["fingerprint"]


def test_diff_in_words_with_sources() -> None:
    code, out, _ = run("diff", "classic", "traditional-20-10")
    assert code == 0
    assert "2 rules differ in traditional-20-10" in out
    assert "  - gin scores a 20 bonus instead of 25\n" in out
    assert "  - an undercut scores a 10 bonus instead of 25\n" in out
    assert "hand_scoring." not in out and "->" not in out  # plain words, no knob names
    assert "houserules/traditional-20-10.yaml:" in out
    code, out, _ = run("diff", "classic", "online-casino")
    assert "the shutout gives a 200 game bonus instead of doubling the margin" in out
    assert "double_margin" not in out and "game_bonus" not in out
    code, out, _ = run("diff", "classic", "oklahoma")
    assert "1 rule differs in oklahoma" in out and "Oklahoma is played" in out
    code, out, _ = run("diff", "classic", "classic")
    assert "play the same rules" in out
    code, out, _ = run("diff", "classic", "no-layoffs", "--json")
    [change] = json.loads(out)["changes"]
    assert change["knob"] == "showdown.layoffs"
    assert change["a"]["value"] is True and change["b"]["value"] is False


def test_explain_names_where_each_value_came_from() -> None:
    code, out, _ = run("explain", "straight-gin")
    assert code == 0
    assert "knock_limit = 0    (houserules/straight-gin.yaml:" in out
    assert "gin_bonus = 25    (rulesets/classic.yaml:" in out
    assert "stake_per_point = 0    (default)" in out
    assert "Warnings (departures from the published rules" in out


def test_explain_speaks_the_language_asked_for() -> None:
    code, english, _err = run("explain", "classic")
    assert code == 0
    assert run("explain", "classic", "--lang", "en")[1] == english
    code, german, _err = run("explain", "classic", "--lang", "de", "--quotes")
    assert code == 0
    knob = ruleset_schema.knob("cards.ace")
    with use_locale("de"):
        description = _(knob.description)
    assert description.split()[0] in german
    code, json_out, _err = run("explain", "classic", "--json", "--lang", "de")
    assert json.loads(json_out) == json.loads(run("explain", "classic", "--json")[1])


def test_knobs_lists_every_section() -> None:
    code, out, _ = run("knobs")
    assert code == 0
    assert "[hand_scoring]" in out and "undercut_bonus (default 25" in out


def test_deadwood_text_and_json() -> None:
    code, out, _ = run("deadwood", "7C", "7S", "7H", "8H", "9H", "2D", "3D", "4D", "KS", "QS")
    assert code == 0
    assert "deadwood:  34" in out
    code, out, _ = run("deadwood", "--json", "AS 2S 3S 9H 9D 9C KD KS 4C 5C 6H")
    data = json.loads(out)
    assert data["deadwood"] == 35
    assert data["best_discard_deadwood"] == 25
    assert data["best_discards"] == ["KD", "KS"]
    assert data["knock_discards"] == []


def test_deadwood_follows_the_rulesets_ace_rule() -> None:
    hand = ["QS", "KS", "AS", "2D", "3D", "4D", "9C", "9D", "9H", "5S"]
    _, out, _ = run("deadwood", "--json", *hand)
    assert json.loads(out)["deadwood"] == 26
    _, out, _ = run("deadwood", "--json", "--ruleset", "ace-high", *hand)
    assert json.loads(out)["deadwood"] == 5


@pytest.mark.parametrize(
    ("cards", "message"),
    [
        (["7H", "7H"], "card given twice: 7H"),
        (["7X"], "not a card: '7X'"),
        (["AS", "2S"], "10 or 11 cards, got 2"),
    ],
)
def test_deadwood_bad_hand(cards: list[str], message: str) -> None:
    code, out, err = run("deadwood", *cards)
    assert code == 1
    assert out == ""
    assert message in err


def test_deadwood_reads_every_languages_rank_letters() -> None:
    english = run("deadwood", "--json", "JS QS KS TD JD QD 9C 9D 9H 5S")
    assert english[0] == 0
    german = run("deadwood", "--json", "BS DS KS 10D BD DD 9C 9D 9H 5S")
    french = run("deadwood", "--json", "VS DS RS 10♦ VD DD 9♣ 9♦ 9♥ 5♠")
    assert german == french == english


ELEVEN = ("AS", "2S", "3S", "9H", "9D", "9C", "4D", "KS", "4C", "5C", "6C")


def test_deadwood_jsonl_batch(tmp_path: Path) -> None:
    lines = [
        {"hand": ["AS", "2S", "3S", "9H", "9D", "9C", "KD", "KS", "4C", "5C"]},
        {
            "hand": ["AS", "2S", "3S", "9H", "9D", "9C", "4D", "KS", "4C", "5C", "6C"],
            "knock_limit": 4,
        },
        {"hand": ["AS"]},
        "not json",
        {
            "hand": ["AS", "2S", "3S", "9H", "9D", "9C", "4D", "KS", "4C", "5C", "6C"],
            "knock_limit": "x",
        },
    ]
    text = "\n".join(line if isinstance(line, str) else json.dumps(line) for line in lines)
    batch = tmp_path / "hands.jsonl"
    batch.write_text(text + "\n", encoding="utf-8")
    code, out, err = run("deadwood", "--jsonl", "--input", str(batch))
    assert code == 1
    results = [json.loads(line) for line in out.splitlines()]
    assert len(results) == 5, "one output line per input line, errors included"
    assert results[0] == {
        "deadwood": 29,
        "melds": [["9C", "9D", "9H"], ["AS", "2S", "3S"]],
        "unmatched": ["4C", "5C", "KD", "KS"],
    }
    assert results[1]["best_discard_deadwood"] == 4
    assert results[1]["best_discards"] == ["KS"]
    assert results[1]["knock_discards"] == ["KS"]
    assert results[2]["line"] == 3 and "got 1" in results[2]["error"]
    assert results[3]["line"] == 4
    assert "knock_limit" in results[4]["error"]
    assert f"{batch}:3: error:" in err


def test_usage_errors_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as excinfo:
        main(["deadwood"])
    assert excinfo.value.code == 2
    with pytest.raises(SystemExit) as excinfo:
        main(["frobnicate"])
    assert excinfo.value.code == 2
    with pytest.raises(SystemExit) as excinfo:
        main(["--help"])
    assert excinfo.value.code == 0
    assert "exit codes:" in capsys.readouterr().out


BASE = "https://gin.example.org"


@pytest.mark.parametrize(
    ("document", "render"), [("sheet", sheet_html), ("scorepad", scorepad_html)]
)
def test_sheet_and_scorepad_speak_the_language_asked_for(
    document: str, render: Callable[[Ruleset, SheetOptions], str]
) -> None:
    ruleset = load_ruleset("classic")
    code, english, _err = run(document, "classic", "--base-url", BASE)
    assert code == 0 and "?lang=" not in english
    assert run(document, "classic", "--base-url", BASE, "--lang", "en")[1] == english
    for lang in ("de", "es", "fr"):
        code, out, _err = run(document, "classic", "--base-url", BASE, "--lang", lang)
        assert code == 0
        url = f"{BASE}/rules/classic?lang={lang}"  # the QR code opens the page in this language
        with use_locale(lang):
            assert out == render(ruleset, SheetOptions(url=url))


def test_an_unknown_language_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    for command in ("sheet", "scorepad", "explain"):
        with pytest.raises(SystemExit) as excinfo:
            main([command, "classic", "--lang", "nl"])
        assert excinfo.value.code == 2
        err = capsys.readouterr().err
        assert "--lang" in err and "'en', 'de', 'es', 'fr'" in err


def test_installed_wheel_works_from_any_directory(tmp_path: Path) -> None:
    """A wheel built from the source and installed into a fresh venv: the YAML and the
    compiled catalogues (the build hook's) ship inside it."""
    source = tmp_path / "src"
    shutil.copytree(
        ROOT,
        source,
        ignore=shutil.ignore_patterns(".venv", ".git", "__pycache__", "*.egg-info", ".*cache"),
    )
    env_dir = tmp_path / "venv"
    venv.create(env_dir, with_pip=True)
    python = env_dir / "bin" / "python"
    environment = {**os.environ, "PIP_DISABLE_PIP_VERSION_CHECK": "1"}
    wheels = tmp_path / "wheels"
    subprocess.run(
        [str(python), "-m", "pip", "wheel", "--quiet", "--no-deps", "-w", str(wheels), str(source)],
        check=True,
        env=environment,
        timeout=600,
    )
    (wheel,) = wheels.glob("ginrules-*.whl")
    shipped = set(zipfile.ZipFile(wheel).namelist())
    for lang in ("de", "es", "fr"):
        assert f"ginrules/words/locale/{lang}/LC_MESSAGES/ginrules.mo" in shipped, lang
    subprocess.run(
        [str(python), "-m", "pip", "install", "--quiet", str(wheel)],
        check=True,
        env=environment,
        timeout=600,
    )
    shutil.rmtree(source)  # nothing may read the source tree any more
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    program = env_dir / "bin" / "ginrules"
    listed = subprocess.run(
        [str(program), "list"], cwd=elsewhere, capture_output=True, text=True, timeout=120
    )
    assert listed.returncode == 0, listed.stderr
    assert "classic" in listed.stdout and "no-layoffs" in listed.stdout
    checked = subprocess.run(
        [str(program), "validate", "classic"],
        cwd=elsewhere,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert checked.returncode == 0, checked.stderr
    assert "rulesets/classic.yaml: ok" in checked.stdout
    templates = subprocess.run(
        [
            str(python),
            "-c",
            "import pathlib, ginrules.web as w; from ginrules.rules import locate;"
            " print(locate.templates_dir().is_dir(),"
            " (pathlib.Path(w.__file__).parent / 'templates/web/home.html').is_file())",
        ],
        cwd=elsewhere,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert templates.stdout.strip() == "True True", templates.stderr  # sheets', site's
    german = subprocess.run(
        [str(program), "sheet", "classic", "--lang", "de"],
        cwd=elsewhere,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert german.returncode == 0, german.stderr
    assert '<html lang="de"' in german.stdout
    assert sys.version_info >= (3, 11)
