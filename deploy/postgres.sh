#!/usr/bin/env bash
# deploy/postgres.sh start|stop|status|url|reset — a local PostgreSQL server for the read models.
#
# Uses Debian's postgresql package (installed with apt-get when no server binaries are found), runs
# its own cluster in $POSTGRES_HOME/data (not Debian's "main" cluster), listening on 127.0.0.1 only,
# with trust authentication for local connections: a development and CI server, not a hardened one.
# When run as root the server runs as the `postgres` user (PostgreSQL refuses to run as root).
#
#   start   install if needed, initdb if new, start (pg_ctl -w polls until it accepts connections),
#           create the database; prints DATABASE_URL=... Idempotent.
#   stop    fast shutdown (rolls back open transactions, then stops). Idempotent.
#   status  exit 0 and print DATABASE_URL if the server accepts connections, else exit 1.
#   url     print the SQLAlchemy URL only (for DATABASE_URL="$(deploy/postgres.sh url)").
#   reset   stop, then delete the cluster's data.
#
# Environment (all optional):
#   POSTGRES_PORT (55432)        TCP port on 127.0.0.1 (not 5432, so Debian's own cluster may keep it)
#   POSTGRES_DB (olympiad)       database created at start
#   POSTGRES_HOME (var/postgres) data (data/), log (server.log), socket directory (run/)
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
POSTGRES_PORT="${POSTGRES_PORT:-55432}"
POSTGRES_DB="${POSTGRES_DB:-olympiad}"
POSTGRES_HOME="${POSTGRES_HOME:-$ROOT/var/postgres}"
DATA="$POSTGRES_HOME/data"
RUN="$POSTGRES_HOME/run"
LOGFILE="$POSTGRES_HOME/server.log"
URL="postgresql+psycopg2://postgres@127.0.0.1:$POSTGRES_PORT/$POSTGRES_DB"

log() { echo "postgres.sh: $*" >&2; }

bindir() {
  local d
  d="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)"
  [[ -n "$d" && -x "$d/initdb" ]] && echo "$d"
}

install() {
  bindir >/dev/null && return 0
  [[ "$(id -u)" == 0 ]] || { log "PostgreSQL is not installed: run as root, or apt-get install postgresql"; exit 1; }
  log "installing Debian's postgresql package"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >&2
  apt-get install -y -qq postgresql >&2
}

# Run a server binary as the cluster owner: `postgres` when we are root, else ourselves.
as_owner() {
  if [[ "$(id -u)" == 0 ]]; then runuser -u postgres -- "$@"; else "$@"; fi
}

answers() {
  as_owner "$BIN/pg_isready" -q -h 127.0.0.1 -p "$POSTGRES_PORT" -d postgres -U postgres
}

start() {
  install
  BIN="$(bindir)"
  mkdir -p "$POSTGRES_HOME" "$RUN"
  if [[ "$(id -u)" == 0 ]]; then chown postgres: "$POSTGRES_HOME" "$RUN"; fi
  if [[ ! -f "$DATA/PG_VERSION" ]]; then
    log "initdb $DATA"
    as_owner "$BIN/initdb" -D "$DATA" -U postgres --auth=trust -E UTF8 --locale=C.UTF-8 >"$POSTGRES_HOME/initdb.log" 2>&1 \
      || { cat "$POSTGRES_HOME/initdb.log" >&2; exit 1; }
  fi
  if ! answers; then
    log "starting on 127.0.0.1:$POSTGRES_PORT"
    # synchronous_commit=off: a crash may lose the last few commits, never half of one, so a
    # read model and its recorded offsets still roll back together.
    as_owner "$BIN/pg_ctl" -D "$DATA" -l "$LOGFILE" -w -t 60 start \
      -o "-c listen_addresses=127.0.0.1 -p $POSTGRES_PORT -k $RUN -c synchronous_commit=off -c max_connections=100" >&2 \
      || { tail -n 30 "$LOGFILE" >&2; exit 1; }
  fi
  if ! as_owner "$BIN/psql" -h 127.0.0.1 -p "$POSTGRES_PORT" -U postgres -d postgres -tAc \
      "SELECT 1 FROM pg_database WHERE datname = '$POSTGRES_DB'" | grep -q 1; then
    as_owner "$BIN/createdb" -h 127.0.0.1 -p "$POSTGRES_PORT" -U postgres "$POSTGRES_DB"
    log "created database $POSTGRES_DB"
  fi
  echo "DATABASE_URL=$URL"
}

stop() {
  BIN="$(bindir)" || { log "not installed"; return 0; }
  if [[ -f "$DATA/postmaster.pid" ]]; then
    as_owner "$BIN/pg_ctl" -D "$DATA" -m fast -w stop >&2 || true
  else
    log "not running"
  fi
}

status() {
  BIN="$(bindir)" || { log "not installed"; return 1; }
  if answers; then echo "DATABASE_URL=$URL"; return 0; fi
  log "no server answers on 127.0.0.1:$POSTGRES_PORT"
  return 1
}

reset() {
  stop
  rm -rf "$POSTGRES_HOME"
  log "data deleted ($POSTGRES_HOME)"
}

case "${1:-}" in
  start) start ;;
  stop) stop ;;
  status) status ;;
  url) echo "$URL" ;;
  reset) reset ;;
  *) echo "usage: $0 start|stop|status|url|reset" >&2; exit 2 ;;
esac
