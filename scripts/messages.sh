#!/usr/bin/env bash
# Extract every message (code, templates, schema, shipped rulesets; see babel.cfg)
# and merge it into each language's catalogue, ginrules/words/locale/<lang>/LC_MESSAGES/ginrules.po.
# New or changed messages arrive untranslated (or fuzzy): tests/test_translations.py
# fails until each has its translation. The .mo files are compiled by `make` and
# by the wheel's build hook (hatch_build.py), never committed.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${BIN:-.venv/bin}
LOCALE=ginrules/words/locale
mkdir -p build
"$BIN/pybabel" -q extract -F babel.cfg --add-location=file --sort-by-file \
    --add-comments=Translators: --project=ginrules --copyright-holder="ginrules team" \
    --msgid-bugs-address="" -o build/ginrules.pot .
for lang in de es fr; do
    if [ -f "$LOCALE/$lang/LC_MESSAGES/ginrules.po" ]; then
        "$BIN/pybabel" -q update -i build/ginrules.pot -d "$LOCALE" -D ginrules -l "$lang" \
            --ignore-obsolete
    else
        "$BIN/pybabel" -q init -i build/ginrules.pot -d "$LOCALE" -D ginrules -l "$lang"
    fi
done
grep -c '^msgid ' build/ginrules.pot | sed 's/^/messages: /'
