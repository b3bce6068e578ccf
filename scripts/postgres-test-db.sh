#!/usr/bin/env bash
# Start the machine's PostgreSQL 15 and make the test database the storage
# tests use: role ginrules (password ginrules), database ginrules_test, on
# 127.0.0.1:5432. Idempotent. Without PostgreSQL installed it says so and
# exits 0: the PostgreSQL tests then skip (and fail under CI=true).
set -euo pipefail

version=15
cluster=main
role=ginrules
database=ginrules_test

if ! command -v pg_ctlcluster >/dev/null 2>&1 || [ ! -d "/usr/lib/postgresql/$version" ]; then
    echo "postgres-test-db: PostgreSQL $version is not installed; its tests will skip" >&2
    exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
    echo "postgres-test-db: run as root to start the cluster (or start it yourself)" >&2
    exit 0
fi

as_postgres() { runuser -u postgres -- "$@"; }

if ! pg_lsclusters --no-header | awk -v v="$version" -v c="$cluster" '$1 == v && $2 == c && $4 == "online" { found = 1 } END { exit !found }'; then
    pg_ctlcluster "$version" "$cluster" start
fi
for _ in $(seq 1 60); do
    if pg_isready -h 127.0.0.1 -p 5432 -q; then break; fi
    sleep 0.5
done
if ! pg_isready -h 127.0.0.1 -p 5432 -q; then
    echo "postgres-test-db: PostgreSQL did not accept connections within 30 s" >&2
    exit 1
fi

if [ "$(as_postgres psql -tAc "SELECT 1 FROM pg_roles WHERE rolname = '$role'")" != "1" ]; then
    as_postgres psql -q -c "CREATE ROLE $role LOGIN CREATEDB PASSWORD '$role'"
fi
if [ "$(as_postgres psql -tAc "SELECT 1 FROM pg_database WHERE datname = '$database'")" != "1" ]; then
    as_postgres createdb -O "$role" "$database"
fi
echo "postgres-test-db: PostgreSQL $version up on 127.0.0.1:5432, database $database ready" >&2
