#!/usr/bin/env bash
# Rebuild the YAML editor's bundle, ginrules/web/static/yaml-editor.min.js, from the
# npm packages pinned in editor/package-lock.json (CodeMirror 6, bundled by esbuild).
# Needs Node 20 and npm; `make run` and the site never need Node: the built file is
# committed. Run from anywhere: bash scripts/build-editor.sh
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
editor="$root/editor"
out="$root/ginrules/web/static/yaml-editor.min.js"

cd "$editor"
npm ci --no-audit --no-fund --ignore-scripts

versions="$(node -e '
  const lock = require("./package-lock.json").packages;
  const names = Object.keys(lock).filter((p) => p.startsWith("node_modules/") && !lock[p].dev);
  console.log(names.map((p) => p.slice(13) + "@" + lock[p].version + " (" + (lock[p].license || "?") + ")").sort().join(", "));
')"
esbuild_version="$(node_modules/.bin/esbuild --version)"

banner="/*! ginrules YAML editor: CodeMirror 6 (https://codemirror.net/, MIT licence, (c) Marijn Haverbeke and others) and the Lezer YAML parser (MIT). Built by scripts/build-editor.sh with esbuild ${esbuild_version} from editor/src/yaml-editor.js and: ${versions}. Licences: see each package in editor/node_modules (MIT). */"

node_modules/.bin/esbuild src/yaml-editor.js \
  --bundle --minify --format=iife --target=es2020 --charset=utf8 \
  --legal-comments=none --banner:js="$banner" --outfile="$out.tmp"
mv "$out.tmp" "$out"

raw=$(wc -c <"$out")
zipped=$(gzip -9c "$out" | wc -c)
echo "built $out: $raw bytes, $zipped gzipped"
