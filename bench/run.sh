#!/usr/bin/env bash
# The benchmarks, in bench/.venv: ginrules against open_spiel and rlcard.
#
#   bash bench/run.sh                          # all of them, one after another
#   bash bench/run.sh melds --hands 2000       # one, with its own options
#   bash bench/run.sh engine --games 1000 --json
#   bash bench/run.sh rules
#   bash bench/run.sh sheets
#   bash bench/run.sh web
#
# melds:  bench_melds.py, least deadwood against open_spiel and rlcard
# engine: bench_engine.py, whole hands per second against open_spiel and
#         rlcard, and the seconds for strong-against-greedy games
# rules:  bench_rules.py, loading, validating and compiling rulesets
# sheets: bench_sheets.py, the classic rule sheet as HTML and PDF, cold and warm
# web:    bench_web.py, pages, sheets and QR codes under gunicorn against hello-world (wrk)
# resilience: bench_resilience.py, issue 14's faults (versions, slow clients, PDFs,
#         rate limits, a frozen PostgreSQL) against a real ginrules serve
# table:  bench_table.py, entering a hand at one of 100 card tables, pushed live to two phones each
#
# The two peer libraries live in bench/.venv only (git-ignored); they are never
# dependencies of ginrules. ginrules itself is installed there in editable mode
# from this checkout.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"
venv="$here/.venv"
python="${PYTHON:-python3.11}"
peers=(rlcard==1.2.0 open_spiel==2.0.2)
benchmarks=(melds engine rules sheets web table resilience)

usage() {
    local IFS='|'
    echo "usage: bash bench/run.sh [${benchmarks[*]}] [options of that benchmark]" >&2
    echo "       with no argument, every benchmark runs in turn with its defaults" >&2
    echo "       (bash bench/run.sh NAME --help lists a benchmark's options)" >&2
}

# Check the name before any installing.
if [ $# -gt 0 ]; then
    case "$1" in
        melds | engine | rules | sheets | web | table | resilience) ;;
        -h | --help)
            usage
            exit 0
            ;;
        *)
            echo "unknown benchmark '$1'" >&2
            usage
            exit 2
            ;;
    esac
fi

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

if [ $# -gt 0 ]; then
    name="$1"
    shift
    exec "$venv/bin/python" "$here/bench_$name.py" "$@"
fi

# All of them; a failing one does not stop the others, but sets the exit status.
status=0
for name in "${benchmarks[@]}"; do
    echo "== bench_$name.py =="
    "$venv/bin/python" "$here/bench_$name.py" || { rc=$?; [ "$status" -ne 0 ] || status=$rc; }
    echo
done
exit "$status"
