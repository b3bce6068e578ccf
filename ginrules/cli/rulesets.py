"""Commands about rulesets: list, validate, compile, explain, diff, knobs."""

from __future__ import annotations

import argparse
import html
import textwrap
from pathlib import Path
from typing import Any

from ginrules import schema as ruleset_schema
from ginrules.cli.common import (
    EXIT_INVALID,
    EXIT_OK,
    EXIT_USAGE,
    AddCommand,
    Output,
    load_or_report,
)
from ginrules.rules import locate
from ginrules.rules.compile import compile_ruleset
from ginrules.rules.diagnostics import Diagnostic, RulesetError
from ginrules.rules.diff import diff, explain
from ginrules.rules.load import Ruleset, load_ruleset
from ginrules.words import builder as diff_words
from ginrules.words.departures import format_codes, origin_text, quote_lines
from ginrules.words.diagnostics import line as diagnostic_line
from ginrules.words.diagnostics import to_json as diagnostic_json
from ginrules.words.i18n import LANGUAGES, SOURCE_LOCALE, _, pgettext, use_locale

# --- list --------------------------------------------------------------------


def cmd_list(args: argparse.Namespace, output: Output) -> int:
    rows: list[dict[str, Any]] = []
    status = EXIT_OK
    for entry in locate.entries():
        try:
            ruleset = load_ruleset(entry.path)
            config = compile_ruleset(ruleset)
        except RulesetError as error:
            rows.append({"name": entry.name, "kind": entry.kind, "error": str(error)})
            status = EXIT_INVALID
            continue
        rows.append(
            {
                "name": entry.name,
                "kind": entry.kind,
                "title": ruleset.title,
                "extends": Path(ruleset.chain[1]).stem if len(ruleset.chain) > 1 else None,
                "fingerprint": config.fingerprint,
                "file": entry.display,
                "warnings": len(ruleset.warnings),
            }
        )
    if args.json:
        output.json(rows)
        return status
    for kind, heading in (("rulesets", "Base rulesets"), ("houserules", "House rules")):
        output.line(f"{heading}:")
        for row in (r for r in rows if r["kind"] == kind):
            if "error" in row:
                output.line(f"  {row['name']:<22} INVALID (run: ginrules validate {row['name']})")
                continue
            base = f"  extends {row['extends']}" if row["extends"] else ""
            flag = f"  ({_count(row['warnings'], 'warning')})" if row["warnings"] else ""
            output.line(f"  {row['name']:<22} {row['fingerprint']}  {row['title']}{base}{flag}")
        output.line()
    return status


# --- validate ----------------------------------------------------------------


def cmd_validate(args: argparse.Namespace, output: Output) -> int:
    references: list[str] = list(args.rulesets)
    if args.all:
        references += [str(entry.path) for entry in locate.entries()]
    if not references:
        output.problem("ginrules validate: name a ruleset or a file, or use --all")
        return EXIT_USAGE
    failed = False
    results: list[dict[str, Any]] = []
    for reference in references:
        diagnostics: list[Diagnostic]
        try:
            ruleset = load_ruleset(reference)
            compile_ruleset(ruleset)
            diagnostics = list(ruleset.warnings)
            name = ruleset.source
        except RulesetError as error:
            diagnostics = list(error.diagnostics)
            name = reference
        errors = [d for d in diagnostics if d.severity == "error"]
        bad = bool(errors) or (args.strict and bool(diagnostics))
        failed = failed or bad
        results.append(
            {
                "ruleset": name,
                "valid": not errors,
                "diagnostics": [diagnostic_json(d) for d in diagnostics],
            }
        )
        if args.json:
            continue
        for diagnostic in diagnostics:
            output.problem(diagnostic_line(diagnostic))
        if errors:
            output.line(f"{name}: INVALID ({_count(len(errors), 'error')})")
        else:
            warned = f" with {_count(len(diagnostics), 'warning')}" if diagnostics else ""
            output.line(f"{name}: ok{warned}")
    if args.json:
        output.json(results)
    return EXIT_INVALID if failed else EXIT_OK


def _count(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


# --- compile, explain, diff --------------------------------------------------


def cmd_compile(args: argparse.Namespace, output: Output) -> int:
    ruleset = load_or_report(args.ruleset, output)
    if ruleset is None:
        return EXIT_INVALID
    config = compile_ruleset(ruleset)
    if args.fingerprint:
        output.line(config.fingerprint)
        return EXIT_OK
    output.json(
        {
            "ruleset": ruleset.source,
            "name": ruleset.title,
            "fingerprint": config.fingerprint,
            "config": config.canonical(),
        }
    )
    return EXIT_OK


def cmd_explain(args: argparse.Namespace, output: Output) -> int:
    ruleset = load_or_report(args.ruleset, output)
    if ruleset is None:
        return EXIT_INVALID
    if args.json:  # a machine format: the schema's own words, in English
        _explain_json(ruleset, output)
        return EXIT_OK
    with use_locale(args.lang):
        _explain_text(ruleset, args.quotes, output)
    return EXIT_OK


def _explain_json(ruleset: Ruleset, output: Output) -> None:
    config = compile_ruleset(ruleset)
    output.json(
        {
            "ruleset": ruleset.source,
            "name": ruleset.title,
            "chain": list(ruleset.chain),
            "fingerprint": config.fingerprint,
            "knobs": [v.to_json() for v in explain(ruleset)],
            "notes": list(ruleset.document["notes"]),
            "warnings": [diagnostic_json(w) for w in ruleset.warnings],
        }
    )


def _explain_text(ruleset: Ruleset, quotes: bool, output: Output) -> None:
    """Every knob with its value, origin and description (and the sources' words), in
    the current language; a shipped ruleset's name and notes too, a person's own as written."""
    config = compile_ruleset(ruleset)
    ours = _shipped(ruleset)
    title = _(ruleset.title) if ours else ruleset.title
    output.line(
        # Translators: the first line of ginrules explain: "Classic Gin Rummy
        # (rulesets/classic.yaml, fingerprint 89c7a615d01f)".
        _("{title} ({source}, fingerprint {fingerprint})").format(
            title=title, source=ruleset.source, fingerprint=config.fingerprint
        )
    )
    if len(ruleset.chain) > 1:
        output.line(_("merged from: {chain}").format(chain=" <- ".join(ruleset.chain)))
    section = ""
    for value in explain(ruleset):
        if value.knob.section != section:
            section = value.knob.section
            output.line(f"\n[{section}]")
        citations = value.knob.citations_for(value.value)
        cited = f"  [{format_codes(citations)}]" if citations else ""
        origin = value.origin.describe()
        if value.origin.file is None:
            # Translators: where a knob's value comes from when no file sets it (ginrules
            # explain prints "stake_per_point = 0    (default)").
            origin = pgettext("origin", "default")
        output.line(f"  {value.knob.name} = {value.shown}    ({origin}){cited}")
        for text in textwrap.wrap(_(value.knob.description), 76):
            output.line(f"      {text}")
        if quotes:
            for line in quote_lines(value.knob, value.value):
                output.line(
                    textwrap.fill(line, 78, initial_indent="      > ", subsequent_indent="        ")
                )
    if ruleset.document["notes"]:
        output.line("\n" + _("Table notes:"))
        for note in ruleset.document["notes"]:
            output.line(f"  - {_(note) if ours else note}")
    if ruleset.warnings:
        output.line(
            "\n" + _("Warnings (departures from the published rules, settings without effect):")
        )
        for warning in ruleset.warnings:
            output.line(f"  - {diagnostic_line(warning)}")


def _shipped(ruleset: Ruleset) -> bool:
    """Whether ``ruleset`` is one of ours (its words are in the catalogue) or a person's."""
    return ruleset.source in {entry.display for entry in locate.entries()}


def cmd_diff(args: argparse.Namespace, output: Output) -> int:
    first = load_or_report(args.a, output)
    second = load_or_report(args.b, output)
    if first is None or second is None:
        return EXIT_INVALID
    changes = diff(first, second)
    a_config, b_config = compile_ruleset(first), compile_ruleset(second)
    if args.json:
        output.json(
            {
                "a": {"ruleset": first.source, "fingerprint": a_config.fingerprint},
                "b": {"ruleset": second.source, "fingerprint": b_config.fingerprint},
                "changes": [c.to_json() for c in changes],
            }
        )
        return EXIT_OK
    if not changes:
        output.line(f"{first.name} and {second.name} play the same rules ({a_config.fingerprint}).")
        return EXIT_OK
    output.line(
        diff_words.diff_heading(
            len(changes), first.name, second.name, a_config.fingerprint, b_config.fingerprint
        )
    )
    for change in changes:
        sentence = diff_words.change_sentence(
            change.knob.dotted, change.before.value, change.after.value, first.value, second.value
        )
        output.line(f"  - {sentence}")
        output.line(
            "      "
            + diff_words.set_by(change.before.origin.describe(), change.after.origin.describe())
        )
        if args.quotes:
            for value in (change.before.value, change.after.value):
                shown = diff_words.value(change.knob.dotted, value)
                for line in quote_lines(change.knob, value):
                    output.line(
                        textwrap.fill(
                            diff_words.quoted(shown, line),
                            78,
                            initial_indent="      > ",
                            subsequent_indent="        ",
                        )
                    )
    return EXIT_OK


# --- knobs -------------------------------------------------------------------


def knob_table_markdown() -> str:
    """The README's knob table, generated from the schema."""
    lines = [
        "| knob | default | values | what it means | published values |",
        "|---|---|---|---|---|",
    ]
    for knob in ruleset_schema.knobs():
        published = "<br>".join(_published_cell(knob, p) for p in knob.published)
        description = knob.description.replace("|", "\\|")
        lines.append(
            f"| `{knob.dotted}` | `{ruleset_schema.show_value(knob.default)}` | {knob.expected()}"
            f" | {description} | {published or '-'} |"
        )
    return "\n".join(lines)


def _published_cell(knob: ruleset_schema.Knob, published: ruleset_schema.PublishedValue) -> str:
    """``25: BC, HR`` with the sources' own words one click away (a ``<details>``)."""
    shown = ruleset_schema.show_value(published.value)
    codes = [format_codes(published.citations)] if published.citations else []
    who = ", ".join((*codes, *published.software)) or origin_text(knob.entry_for(published.value))
    if not published.citations:
        return f"`{shown}`: {who}"
    quotes = "<br>".join(
        html.escape(line, quote=False).replace("|", "\\|")
        for line in quote_lines(knob, published.value)
    )
    return f"<details><summary><code>{shown}</code>: {who}</summary>{quotes}</details>"


def cmd_knobs(args: argparse.Namespace, output: Output) -> int:
    if args.markdown:
        output.line(knob_table_markdown())
        return EXIT_OK
    for section in ruleset_schema.sections():
        output.line(f"[{section.name}] {section.title}: {section.description}")
        for knob in section.knobs:
            default = ruleset_schema.show_value(knob.default)
            output.line(f"  {knob.name} (default {default}; {knob.expected()})")
            for text in textwrap.wrap(knob.description, 76):
                output.line(f"      {text}")
        output.line()
    return EXIT_OK


def register(add: AddCommand) -> None:
    sub = add("list", cmd_list, "list the shipped rulesets and house rules", "ginrules list")
    sub.add_argument("--json", action="store_true", help="print JSON")

    sub = add(
        "validate",
        cmd_validate,
        "check rulesets by name or path; every error at once, exit 1 on any error",
        "ginrules validate classic ./my-table.yaml",
    )
    sub.add_argument("rulesets", nargs="*", metavar="PATH_OR_NAME")
    sub.add_argument("--all", action="store_true", help="every shipped ruleset and house rule")
    sub.add_argument("--strict", action="store_true", help="treat warnings as errors")
    sub.add_argument("--json", action="store_true", help="print JSON")

    sub = add(
        "compile",
        cmd_compile,
        "print a ruleset's engine configuration as canonical JSON with its fingerprint",
        "ginrules compile oklahoma",
    )
    sub.add_argument("ruleset", metavar="NAME_OR_PATH")
    sub.add_argument("--fingerprint", action="store_true", help="print only the fingerprint")

    sub = add(
        "diff", cmd_diff, "compare two rulesets knob by knob", "ginrules diff classic oklahoma"
    )
    sub.add_argument("a", metavar="A")
    sub.add_argument("b", metavar="B")
    sub.add_argument("--json", action="store_true", help="print JSON")
    sub.add_argument("--quotes", action="store_true", help="quote the sources for each value")

    sub = add(
        "explain",
        cmd_explain,
        "every knob of a ruleset, its value and the file that set it",
        "ginrules explain straight-gin",
    )
    sub.add_argument("ruleset", metavar="NAME_OR_PATH")
    sub.add_argument("--json", action="store_true", help="print JSON")
    sub.add_argument("--quotes", action="store_true", help="quote the sources for each value")
    sub.add_argument(
        "--lang",
        choices=tuple(LANGUAGES),
        default=SOURCE_LOCALE,
        help="the language of the descriptions, the sources' words beside their"
        " translation, and a shipped ruleset's name and notes (default en; not --json)",
    )

    sub = add(
        "knobs", cmd_knobs, "every rule knob the schema declares", "ginrules knobs --markdown"
    )
    sub.add_argument("--markdown", action="store_true", help="the README's Markdown table")
