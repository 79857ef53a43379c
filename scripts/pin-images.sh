#!/usr/bin/env bash
# scripts/pin-images.sh [node=TAG] [postgres=TAG] [redis=TAG]
#
# The deployment's images are exact releases: node (the Dockerfile's ARG NODE_IMAGE and
# docker-compose.yml's build argument, kept equal), postgres and redis (docker-compose.yml).
# This moves any of them to a new tag, e.g. `node=24.23.0-bookworm-slim` or
# `postgres=0.8.1-pg16`, and pins every one to the digest the registry gives for its tag now
# (`tag@sha256:…`), rewriting the defaults in place. A digest that cannot be resolved (no
# registry reachable, no tool) leaves that image as it was and makes the script exit 1.
#
# Resolves with the first of: `docker buildx imagetools inspect`, `skopeo inspect`, `crane
# digest`, or `docker pull` + `docker image inspect` (RepoDigests). Review the change with
# `git diff`, then boot it: `npm run test:deploy` (or `docker compose up -d --build --wait`).
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
DOCKERFILE="$ROOT/Dockerfile"
COMPOSE="$ROOT/docker-compose.yml"

# name → how its default is written: the variable in docker-compose.yml, and the repository.
declare -A VAR=([node]=HINDSIGHT_NODE_IMAGE [postgres]=HINDSIGHT_POSTGRES_IMAGE [redis]=HINDSIGHT_REDIS_IMAGE)
declare -A REPO=([node]=node [postgres]=pgvector/pgvector [redis]=redis)
declare -A TAG=()

for arg in "$@"; do
  name="${arg%%=*}" tag="${arg#*=}"
  if [ -z "${VAR[$name]:-}" ] || [ "$name" = "$arg" ] || [ -z "$tag" ]; then
    echo "usage: $0 [node=TAG] [postgres=TAG] [redis=TAG]" >&2
    exit 2
  fi
  TAG[$name]="${tag%%@*}"
done

# The current default of a compose variable: ${VAR:-repo:tag[@digest]}
current() { sed -n "s/.*\${${VAR[$1]}:-\([^}]*\)}.*/\1/p" "$COMPOSE" | head -1; }

digest_of() { # REF → sha256:… on stdout
  local ref="$1" out
  if docker buildx version > /dev/null 2>&1 &&
    out="$(docker buildx imagetools inspect --format '{{json .Manifest}}' "$ref" 2> /dev/null)"; then
    sed -n 's/.*"digest":"\(sha256:[0-9a-f]\{64\}\)".*/\1/p' <<< "$out" | head -1
    return
  fi
  if command -v skopeo > /dev/null && out="$(skopeo inspect --format '{{.Digest}}' "docker://docker.io/${ref}" 2> /dev/null)"; then
    echo "$out"
    return
  fi
  if command -v crane > /dev/null && out="$(crane digest "$ref" 2> /dev/null)"; then
    echo "$out"
    return
  fi
  if command -v docker > /dev/null && docker pull -q "$ref" > /dev/null 2>&1 &&
    out="$(docker image inspect --format '{{range .RepoDigests}}{{println .}}{{end}}' "$ref" 2> /dev/null)"; then
    grep -m1 -o 'sha256:[0-9a-f]\{64\}' <<< "$out"
    return
  fi
  return 1
}

failed=0
for name in node postgres redis; do
  was="$(current "$name")"
  [ -n "$was" ] || { echo "pin-images: no default for ${VAR[$name]} in docker-compose.yml" >&2; exit 2; }
  tag="${TAG[$name]:-${was#"${REPO[$name]}":}}"
  tag="${tag%%@*}"
  ref="${REPO[$name]}:$tag"
  if ! digest="$(digest_of "$ref")" || ! [[ "$digest" =~ ^sha256:[0-9a-f]{64}$ ]]; then
    echo "pin-images: cannot resolve $ref to a digest (no registry or tool reachable): left as $was" >&2
    failed=1
    continue
  fi
  now="$ref@$digest"
  [ "$now" = "$was" ] && { echo "$name: $now (unchanged)"; continue; }
  # Compose's default, and for node the Dockerfile's ARG as well.
  sed -i "s|\${${VAR[$name]}:-[^}]*}|\${${VAR[$name]}:-$now}|" "$COMPOSE"
  [ "$name" = node ] && sed -i "s|^ARG NODE_IMAGE=.*|ARG NODE_IMAGE=$now|" "$DOCKERFILE"
  echo "$name: $was -> $now"
done
exit "$failed"
