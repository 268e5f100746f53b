#!/usr/bin/env bash
# A throwaway PostgreSQL database for the store-postgres tests, on this machine.
#   test-postgres.sh create      install Debian's `postgresql` if missing, start its cluster, create a
#                                new role and database, print the database URL (only that) on stdout
#   test-postgres.sh drop URL    drop the database and role of a URL printed by `create`
# Progress goes to stderr. Needs root or sudo (apt-get, and psql as the `postgres` user).
set -euo pipefail

log() { printf '%s\n' "$*" >&2; }
as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }
as_postgres() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else sudo -u postgres "$@"; fi; }

install_postgres() {
  if ls /usr/lib/postgresql/*/bin/postgres >/dev/null 2>&1 && command -v pg_ctlcluster >/dev/null 2>&1; then return; fi
  log "installing PostgreSQL (Debian package postgresql)"
  export DEBIAN_FRONTEND=noninteractive
  as_root apt-get update -qq >&2
  as_root apt-get install -y -qq --no-install-recommends postgresql >&2
}

# The newest installed major version, with a `main` cluster that is running; prints its port.
start_cluster() {
  local version port
  version=$(ls /usr/lib/postgresql | sort -V | tail -n 1)
  if ! pg_lsclusters -h | awk -v v="$version" '$1 == v && $2 == "main" { found = 1 } END { exit !found }'; then
    log "creating PostgreSQL $version cluster main"
    as_root pg_createcluster "$version" main >&2
  fi
  if ! pg_lsclusters -h | awk -v v="$version" '$1 == v && $2 == "main" && $4 == "online" { found = 1 } END { exit !found }'; then
    log "starting PostgreSQL $version cluster main"
    as_root pg_ctlcluster "$version" main start >&2
  fi
  port=$(pg_lsclusters -h | awk -v v="$version" '$1 == v && $2 == "main" { print $3 }')
  for _ in $(seq 1 60); do
    if pg_isready -q -h 127.0.0.1 -p "$port"; then printf '%s' "$port"; return; fi
    sleep 1
  done
  log "PostgreSQL $version did not accept connections on 127.0.0.1:$port"
  exit 1
}

create() {
  install_postgres
  local port name password
  port=$(start_cluster)
  name="openwork_test_$(date +%s)_$$"
  password=$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')
  as_postgres psql -q -v ON_ERROR_STOP=1 -p "$port" \
    -c "CREATE ROLE $name LOGIN PASSWORD '$password'" \
    -c "CREATE DATABASE $name OWNER $name" >&2
  log "created throwaway database $name on 127.0.0.1:$port"
  printf 'postgresql://%s:%s@127.0.0.1:%s/%s\n' "$name" "$password" "$port" "$name"
}

drop() {
  local url=$1 name port
  name=${url##*/}
  port=${url##*:}; port=${port%%/*}
  case "$name" in openwork_test_*) ;; *) log "refusing to drop $name: not a database made by this script"; exit 1 ;; esac
  as_postgres psql -q -v ON_ERROR_STOP=1 -p "$port" \
    -c "DROP DATABASE IF EXISTS $name WITH (FORCE)" \
    -c "DROP ROLE IF EXISTS $name" >&2
  log "dropped throwaway database $name"
}

case "${1:-}" in
  create) create ;;
  drop) drop "${2:?usage: test-postgres.sh drop URL}" ;;
  *) log "usage: test-postgres.sh create | drop URL"; exit 2 ;;
esac
