"""How long the classic rule sheet takes to render, as HTML and as PDF, cold and warm.

Run with the project's own venv: ``.venv/bin/python bench/bench_sheets.py``
(or ``bash bench/run.sh sheets``). Each figure is the best of ``--repeat``
rounds, in milliseconds:

- *first in a process*: a new Python process renders once (imports, template
  compilation, WeasyPrint's start-up, font loading), timed in a subprocess;
- *cold*: templates loaded, but nothing for this ruleset cached: load and
  compile the ruleset, compute the worked examples, render;
- *warm*: an unchanged fingerprint and options, served from the cache.

``--lang de,fr`` renders in those languages (each its own rows; default ``en``):
translation costs one catalogue lookup per message.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from collections.abc import Callable

from ginrules.rules.load import Ruleset, load_ruleset
from ginrules.sheets.render import CACHE, SheetOptions, sheet_html, sheet_pdf
from ginrules.words.i18n import LANGUAGES, use_locale

_FIRST = """
import time
start = time.perf_counter()
from ginrules.rules.load import Ruleset, load_ruleset
from ginrules.sheets.render import SheetOptions, sheet_{kind}
from ginrules.words.i18n import use_locale
with use_locale({lang!r}):
    sheet_{kind}(load_ruleset("classic"), SheetOptions(paper="a4"))
print((time.perf_counter() - start) * 1000)
"""


def first_in_process(kind: str, repeat: int, lang: str) -> float:
    """Milliseconds for a fresh interpreter's first render (imports included)."""
    times = []
    for _ in range(repeat):
        out = subprocess.run(
            [sys.executable, "-c", _FIRST.format(kind=kind, lang=lang)],
            check=True,
            capture_output=True,
            text=True,
        ).stdout
        times.append(float(out.strip().splitlines()[-1]))
    return min(times)


def best(operation: Callable[[], object], repeat: int, *, clear: bool) -> float:
    times = []
    for _ in range(repeat):
        if clear:
            CACHE.clear()
        start = time.perf_counter()
        operation()
        times.append(time.perf_counter() - start)
    return min(times) * 1000


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5, help="rounds per figure (default 5)")
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    parser.add_argument(
        "--lang",
        default="en",
        help="comma-separated languages (default en): " + ",".join(LANGUAGES),
    )
    args = parser.parse_args()
    languages = [lang for lang in args.lang.split(",") if lang in LANGUAGES] or ["en"]
    options = SheetOptions(paper="a4", url="https://rules.example.org/rules/classic")
    loaded = load_ruleset("classic")
    renderers: dict[str, Callable[[Ruleset, SheetOptions], str | bytes]] = {
        "html": sheet_html,
        "pdf": sheet_pdf,
    }
    results: dict[str, dict[str, float]] = {}
    for lang, (kind, render) in ((la, item) for la in languages for item in renderers.items()):

        def from_file(render: Callable[[Ruleset, SheetOptions], str | bytes] = render) -> object:
            return render(load_ruleset("classic"), options)

        def in_memory(render: Callable[[Ruleset, SheetOptions], str | bytes] = render) -> object:
            return render(loaded, options)

        with use_locale(lang):
            in_memory()  # load templates, WeasyPrint and fonts once
            results[f"{kind} {lang}"] = {
                "first_in_process_ms": first_in_process(kind, max(1, args.repeat // 2), lang),
                "cold_ms": best(from_file, args.repeat, clear=True),
                "warm_from_file_ms": best(from_file, args.repeat * 20, clear=False),
                "warm_loaded_ms": best(in_memory, args.repeat * 200, clear=False),
                "bytes": len(render(loaded, options)),
            }
    if args.json:
        print(json.dumps(results, indent=2))
        return 0
    print(f"classic rule sheet, A4, best of {args.repeat} rounds")
    print("format   first in a process  cold (not cached)  warm, from file  warm, loaded   size")
    for kind, row in results.items():
        print(
            f"{kind:<7}  {row['first_in_process_ms']:>15.0f} ms  {row['cold_ms']:>14.1f} ms"
            f"  {row['warm_from_file_ms']:>12.2f} ms  {row['warm_loaded_ms']:>9.3f} ms"
            f"  {row['bytes']:,.0f} bytes"
        )
    print(
        "warm, from file: read, validate and compile the YAML (the fingerprint is the cache"
        " key), then a cache hit\nwarm, loaded: the ruleset already in memory, as the web"
        " site holds it"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
