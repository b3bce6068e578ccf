#!/usr/bin/env bash
# Start the machine's PostgreSQL 15 and make the test database the storage
# tests use: role ginrules (password ginrules), database ginrules_test, on
# 127.0.0.1:5432. Idempotent; prints one line saying what it did. Without
# PostgreSQL installed it says so and exits 0: the PostgreSQL tests then skip
# (and fail under CI=true).
set -euo pipefail

version=15
cluster=main
port=5432
role=ginrules
database=ginrules_test

fail() {
    echo "postgres-test-db: $*" >&2
    exit 1
}
trap 'fail "failed (exit $?) at: $BASH_COMMAND"' ERR

if ! command -v pg_ctlcluster >/dev/null 2>&1 || [ ! -x "/usr/lib/postgresql/$version/bin/postgres" ]; then
    echo "postgres-test-db: PostgreSQL $version is not installed; the PostgreSQL tests will skip" \
        "(apt-get install postgresql-$version)"
    exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
    echo "postgres-test-db: not root, so not starting PostgreSQL; the PostgreSQL tests need" \
        "$role@127.0.0.1:$port/$database (run this script as root once)"
    exit 0
fi

as_postgres() { runuser -u postgres -- "$@"; }
did=()

if ! pg_lsclusters --no-header | awk -v v="$version" -v c="$cluster" \
    '$1 == v && $2 == c && $4 == "online" { found = 1 } END { exit !found }'; then
    pg_ctlcluster "$version" "$cluster" start || fail "pg_ctlcluster $version $cluster start failed"
    did+=("started cluster $version/$cluster")
fi
for _ in $(seq 1 60); do
    if pg_isready -h 127.0.0.1 -p "$port" -q; then break; fi
    sleep 0.5
done
pg_isready -h 127.0.0.1 -p "$port" -q \
    || fail "PostgreSQL did not accept connections on 127.0.0.1:$port within 30 s"

listen=$(as_postgres psql -p "$port" -tAc "SHOW listen_addresses")
case "$listen" in
    localhost | 127.0.0.1 | "127.0.0.1,::1" | "localhost,127.0.0.1") ;;
    *) echo "postgres-test-db: warning: listen_addresses is '$listen', not only this machine" >&2 ;;
esac

if [ "$(as_postgres psql -p "$port" -tAc "SELECT 1 FROM pg_roles WHERE rolname = '$role'")" != "1" ]; then
    as_postgres psql -p "$port" -q -v ON_ERROR_STOP=1 \
        -c "CREATE ROLE $role LOGIN CREATEDB PASSWORD '$role'"
    did+=("created role $role")
fi
if [ "$(as_postgres psql -p "$port" -tAc "SELECT 1 FROM pg_database WHERE datname = '$database'")" != "1" ]; then
    as_postgres createdb -p "$port" -O "$role" "$database"
    did+=("created database $database")
fi

if [ "${#did[@]}" -eq 0 ]; then
    summary="already set up"
else
    summary=$(IFS=,; echo "${did[*]}" | sed 's/,/, /g')
fi
echo "postgres-test-db: $summary; $database ready for $role on 127.0.0.1:$port"
