#!/usr/bin/env bash
# Installs pgvector into the local PostgreSQL server, idempotently.
# Debian bookworm ships no pgvector for PostgreSQL 15, so we build it from Debian trixie's
# source package, using a private apt configuration that leaves the system's sources untouched.
set -euo pipefail

PGVECTOR_VERSION="${PGVECTOR_VERSION:-0.8.0-1}"
PSQL=(psql -h 127.0.0.1 -U postgres -d postgres -Atq)

pg_start() {
  if ! pg_isready -h 127.0.0.1 -q; then
    echo "install-pgvector: starting PostgreSQL" >&2
    pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | sort -V | tail -1)" main start || true
    for _ in $(seq 1 30); do pg_isready -h 127.0.0.1 -q && break; sleep 1; done
  fi
}

pg_start
if [ "$("${PSQL[@]}" -c "select count(*) from pg_available_extensions where name = 'vector'")" = "1" ]; then
  echo "install-pgvector: vector extension already available" >&2
  exit 0
fi

PG_MAJOR="$("${PSQL[@]}" -c 'show server_version_num' | cut -c1-2)"
PG_CONFIG="/usr/lib/postgresql/${PG_MAJOR}/bin/pg_config"
export DEBIAN_FRONTEND=noninteractive
if [ ! -x "$PG_CONFIG" ] || ! dpkg -s "postgresql-server-dev-${PG_MAJOR}" >/dev/null 2>&1; then
  apt-get update -qq
  apt-get install -y -qq "postgresql-server-dev-${PG_MAJOR}" dpkg-dev >/dev/null
fi
pg_start # upgrading the server package can stop the running cluster

# The Debian mirror this machine already uses (no host is hard-coded here).
MIRROR="$(cat /etc/apt/sources.list /etc/apt/sources.list.d/* 2>/dev/null \
  | grep -oE '^(URIs:|deb)\s+\S+' | awk '{print $2}' | grep -E '/debian/?$' | head -1 || true)"
[ -n "$MIRROR" ] || { echo "install-pgvector: no Debian mirror found in apt sources" >&2; exit 1; }

D="$(mktemp -d)"
trap 'rm -rf "$D"' EXIT
mkdir -p "$D/lists/partial" "$D/cache/archives/partial"
echo "deb-src [trusted=yes] $MIRROR trixie main" > "$D/sources.list"
O=(-o "Dir::Etc::sourcelist=$D/sources.list" -o Dir::Etc::sourceparts=/nonexistent
   -o "Dir::State::Lists=$D/lists" -o "Dir::Cache=$D/cache")
apt-get "${O[@]}" update -qq
(cd "$D" && apt-get "${O[@]}" source -qq --download-only "pgvector=${PGVECTOR_VERSION}" >/dev/null \
  && dpkg-source -x --no-check ./pgvector_*.dsc src >/dev/null)
make -s -C "$D/src" PG_CONFIG="$PG_CONFIG" >/dev/null
make -s -C "$D/src" install PG_CONFIG="$PG_CONFIG" >/dev/null
echo "install-pgvector: installed pgvector ${PGVECTOR_VERSION} for PostgreSQL ${PG_MAJOR}" >&2
