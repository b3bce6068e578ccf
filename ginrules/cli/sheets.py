"""``ginrules sheet`` and ``ginrules scorepad``: printable pages from a ruleset."""

from __future__ import annotations

import argparse
import os
from collections.abc import Callable
from pathlib import Path
from typing import Final
from urllib.parse import urlsplit

from ginrules.cli.common import (
    EXIT_INVALID,
    EXIT_OK,
    EXIT_USAGE,
    AddCommand,
    Output,
    load_or_report,
)
from ginrules.rules.load import Ruleset
from ginrules.sheets.render import (
    PAPERS,
    SheetOptions,
    default_base_url,
    online_url,
    scorepad_html,
    scorepad_pdf,
    sheet_html,
    sheet_pdf,
)
from ginrules.web.network import is_loopback
from ginrules.words import serving
from ginrules.words.i18n import LANGUAGES, SOURCE_LOCALE, use_locale

Renderer = Callable[[Ruleset, SheetOptions], str | bytes]

_RENDERERS: Final[dict[tuple[str, str], Renderer]] = {
    ("sheet", "html"): sheet_html,
    ("sheet", "pdf"): sheet_pdf,
    ("scorepad", "html"): scorepad_html,
    ("scorepad", "pdf"): scorepad_pdf,
}


def _command(document: str) -> Callable[[argparse.Namespace, Output], int]:
    def run(args: argparse.Namespace, output: Output) -> int:
        return _render(document, args, output)

    return run


def _render(document: str, args: argparse.Namespace, output: Output) -> int:
    base_url = args.base_url or default_base_url()
    parts = urlsplit(base_url)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        output.problem(
            f"error: --base-url {base_url!r} is not a web address; give one like"
            " https://rules.example.org"
        )
        return EXIT_USAGE
    binary = args.format == "pdf"
    if binary and args.output is None and _is_terminal(output):
        output.problem("error: a PDF is binary; give -o FILE (or redirect standard output)")
        return EXIT_USAGE
    ruleset = load_or_report(args.ruleset, output)
    if ruleset is None:
        return EXIT_INVALID
    options = SheetOptions(
        paper=args.paper,
        large_print=args.large_print,
        url=_in_language(online_url(base_url, ruleset), args.lang),
    )
    with use_locale(args.lang):
        made = _RENDERERS[(document, args.format)](ruleset, options)
    assert options.url is not None
    if is_loopback(urlsplit(options.url).hostname or ""):  # no phone opens this QR code
        output.problem(serving.qr_loopback(options.url))
    if args.output is None:
        _write_stdout(made, output)
        return EXIT_OK
    target = Path(args.output)
    try:
        if isinstance(made, bytes):
            target.write_bytes(made)
        else:
            target.write_text(made, encoding="utf-8")
    except OSError as error:
        output.problem(f"{target}: error: cannot write: {error.strerror or error}")
        return EXIT_INVALID
    output.problem(f"wrote {target} ({len(made):,} bytes; the QR code opens {options.url})")
    return EXIT_OK


def _in_language(url: str, lang: str) -> str:
    """The online copy in the sheet's language: a German sheet's QR code opens the German
    page (``?lang=de``); an English one the page as its reader's browser asks for it."""
    return url if lang == SOURCE_LOCALE else f"{url}?lang={lang}"


def _is_terminal(output: Output) -> bool:
    isatty = getattr(output.out, "isatty", None)
    return bool(isatty and isatty())


def _write_stdout(made: str | bytes, output: Output) -> None:
    if isinstance(made, str):
        output.out.write(made)
        return
    output.out.flush()
    buffer = getattr(output.out, "buffer", None)
    if buffer is not None:
        buffer.write(made)
        buffer.flush()
    else:  # a text-only stream (tests): write the bytes through the file descriptor
        os.write(output.out.fileno(), made)


def register(add: AddCommand) -> None:
    for document, help_text, example in (
        (
            "sheet",
            "the printable rule sheet: plain-language rules, house rules marked, worked examples",
            "ginrules sheet online-casino --format pdf --paper letter -o casino.pdf",
        ),
        (
            "scorepad",
            "a printable score pad that fits the ruleset (classic, Hollywood, partnership)",
            "ginrules scorepad hollywood --format pdf -o hollywood-pad.pdf",
        ),
    ):
        sub = add(document, _command(document), help_text, example)
        sub.add_argument("ruleset", metavar="NAME_OR_PATH")
        sub.add_argument("--format", choices=("html", "pdf"), default="html")
        sub.add_argument("--paper", choices=PAPERS, default="a4")
        sub.add_argument("--large-print", action="store_true", help="14 pt text, one column")
        sub.add_argument("-o", "--output", metavar="FILE", help="write here (default: stdout)")
        sub.add_argument(
            "--lang",
            choices=tuple(LANGUAGES),
            default=SOURCE_LOCALE,
            help="the language of the page and its cards (default en); the QR code opens"
            " the online copy in the same language",
        )
        sub.add_argument(
            "--base-url",
            metavar="URL",
            help="the web site the QR code points to"
            " (default: $PUBLIC_BASE_URL, else http://127.0.0.1:5000)",
        )
