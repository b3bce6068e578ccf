#!/usr/bin/env bash
# The meld/deadwood benchmark: ginrules against open_spiel and rlcard.
#
# The two peer libraries live in bench/.venv only (git-ignored); they are never
# dependencies of ginrules. ginrules itself is installed there in editable mode
# from this checkout. Arguments are passed on to bench_melds.py, e.g.
#   bash bench/run.sh --hands 2000 --json
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"
venv="$here/.venv"
python="${PYTHON:-python3.11}"
peers=(rlcard==1.2.0 open_spiel==2.0.2)

if [ ! -x "$venv/bin/python" ]; then
    echo "creating $venv with $python" >&2
    "$python" -m venv "$venv"
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check --upgrade pip
fi

# Install again only when the pins or the project's metadata change; the
# editable install picks up code changes by itself.
stamp="$venv/.bench-installed"
want="${peers[*]} $(cksum < "$root/pyproject.toml")"
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
    echo "installing ${peers[*]} and ginrules (editable) into $venv" >&2
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check \
        "${peers[@]}" -e "$root"
    printf '%s' "$want" > "$stamp"
fi

exec "$venv/bin/python" "$here/bench_melds.py" "$@"
