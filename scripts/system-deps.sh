#!/usr/bin/env bash
# The Debian packages ginrules needs beyond Python: Pango and HarfBuzz for
# WeasyPrint's PDFs, DejaVu fonts for the sheets, poppler-utils for the tests
# that read the PDFs back, Chromium for the browser tests (driven by
# Playwright; no browser download), redis-server for the tests of REDIS_URL
# (each starts a throwaway server of its own). Installs the missing ones with
# apt-get (as root, or through sudo without a password); elsewhere it names them and goes on, and
# the tests that need them skip (fail under CI=true).
set -euo pipefail

packages=(
    libpango-1.0-0 libpangoft2-1.0-0 libharfbuzz-subset0 fonts-dejavu-core
    poppler-utils chromium redis-server
)

if ! command -v dpkg-query >/dev/null 2>&1; then
    echo "system-deps: not a Debian system; install the equivalents of: ${packages[*]}" >&2
    exit 0
fi

missing=()
for package in "${packages[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
        missing+=("$package")
    fi
done
[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" -eq 0 ]; then
    sudo=()
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
    sudo=(sudo -n)
else
    echo "system-deps: please install: ${missing[*]} (apt-get install -y ...)" >&2
    exit 0
fi

echo "system-deps: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
if ! "${sudo[@]}" apt-get install -y --no-install-recommends "${missing[@]}" >/dev/null; then
    "${sudo[@]}" apt-get update >/dev/null
    "${sudo[@]}" apt-get install -y --no-install-recommends "${missing[@]}" >/dev/null
fi
