#!/usr/bin/env bash
# Starts a local PostgreSQL for the toolgate store tests (Debian/Ubuntu packaging) and prints the URL to use:
#
#   TOOLGATE_TEST_POSTGRES_URL="$(scripts/start-postgres.sh | tail -n 1)" npm test
#
# Idempotent: installs the `postgresql` package when it is missing (needs root), creates a cluster when there
# is none, lets 127.0.0.1 connect without a password (trust, test machines only), starts the cluster, and
# creates the database. Exits non-zero with a message saying what failed.
# Environment: TOOLGATE_PG_PORT (default 5432), TOOLGATE_PG_DB (default toolgate_test).
set -euo pipefail

PORT="${TOOLGATE_PG_PORT:-5432}"
DB="${TOOLGATE_PG_DB:-toolgate_test}"
CLUSTER=main

fail() {
  echo "start-postgres: $*" >&2
  exit 1
}

as_postgres() {
  if [ "$(id -un)" = postgres ]; then
    "$@"
  elif command -v runuser >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
    runuser -u postgres -- "$@"
  elif command -v sudo >/dev/null 2>&1; then
    sudo -n -u postgres -- "$@"
  else
    fail "need root, sudo or the postgres user to run: $*"
  fi
}

as_root() {
  if [ "$(id -u)" = 0 ]; then
    "$@"
  elif command -v sudo >/dev/null 2>&1; then
    sudo -n -- "$@"
  else
    fail "need root or sudo to run: $*"
  fi
}

if ! command -v pg_ctlcluster >/dev/null 2>&1; then
  command -v apt-get >/dev/null 2>&1 || fail "pg_ctlcluster not found and apt-get is unavailable; install PostgreSQL (Debian package 'postgresql') first"
  echo "start-postgres: installing the postgresql package" >&2
  as_root env DEBIAN_FRONTEND=noninteractive apt-get update -q >&2 || fail "apt-get update failed"
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q postgresql >&2 || fail "apt-get install postgresql failed"
fi

VERSION="$(ls /usr/lib/postgresql 2>/dev/null | sort -V | tail -n 1)"
[ -n "$VERSION" ] || fail "no server found under /usr/lib/postgresql; is the postgresql package installed?"

CONF_DIR="/etc/postgresql/$VERSION/$CLUSTER"
if [ ! -f "$CONF_DIR/postgresql.conf" ]; then
  echo "start-postgres: creating cluster $VERSION/$CLUSTER on port $PORT" >&2
  as_root pg_createcluster --port "$PORT" "$VERSION" "$CLUSTER" >&2 || fail "pg_createcluster $VERSION $CLUSTER failed"
fi

CLUSTER_PORT="$(pg_conftool "$VERSION" "$CLUSTER" show -s port 2>/dev/null || echo "")"
if [ "$CLUSTER_PORT" != "$PORT" ]; then
  as_root pg_conftool "$VERSION" "$CLUSTER" set port "$PORT" || fail "could not set port $PORT in $CONF_DIR/postgresql.conf"
  NEEDS_RESTART=1
fi

HBA="$CONF_DIR/pg_hba.conf"
[ -f "$HBA" ] || fail "$HBA not found"
MARK="# toolgate tests: password-less TCP from this machine"
if ! grep -qF "$MARK" "$HBA"; then
  # First matching line wins in pg_hba.conf, so the trust lines go on top.
  TMP="$(mktemp)"
  {
    echo "$MARK"
    echo "host all all 127.0.0.1/32 trust"
    echo "host all all ::1/128 trust"
    cat "$HBA"
  } >"$TMP"
  as_root cp "$TMP" "$HBA" || fail "could not write $HBA"
  rm -f "$TMP"
  NEEDS_RELOAD=1
fi

STATUS="$(pg_lsclusters -h "$VERSION" "$CLUSTER" 2>/dev/null | awk '{print $4}')"
if [ "$STATUS" = online ]; then
  if [ -n "${NEEDS_RESTART:-}" ]; then
    as_root pg_ctlcluster "$VERSION" "$CLUSTER" restart >&2 || fail "could not restart cluster $VERSION/$CLUSTER"
  elif [ -n "${NEEDS_RELOAD:-}" ]; then
    as_root pg_ctlcluster "$VERSION" "$CLUSTER" reload >&2 || fail "could not reload cluster $VERSION/$CLUSTER"
  fi
else
  as_root pg_ctlcluster "$VERSION" "$CLUSTER" start >&2 ||
    fail "could not start cluster $VERSION/$CLUSTER; see /var/log/postgresql/postgresql-$VERSION-$CLUSTER.log"
fi

for _ in $(seq 1 60); do
  if pg_isready -q -h 127.0.0.1 -p "$PORT"; then break; fi
  sleep 0.5
done
pg_isready -q -h 127.0.0.1 -p "$PORT" || fail "server did not accept connections on 127.0.0.1:$PORT within 30 s"

PSQL=(psql -X -q -h 127.0.0.1 -p "$PORT" -U postgres -d postgres -v ON_ERROR_STOP=1)
"${PSQL[@]}" -tAc "select 1" >/dev/null ||
  fail "cannot connect as postgres to 127.0.0.1:$PORT without a password; check $HBA"
if [ "$("${PSQL[@]}" -tAc "select 1 from pg_database where datname = '$DB'")" != 1 ]; then
  "${PSQL[@]}" -c "create database \"$DB\"" >&2 || fail "could not create database $DB"
fi

echo "postgres://postgres@127.0.0.1:$PORT/$DB"
