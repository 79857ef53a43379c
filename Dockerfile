# syntax=docker/dockerfile:1
# hindsight server image: `serve` on port 8080 (REST on /v1, MCP on /mcp, GET /health).
# See docs/deploy.md. Build: docker build -t hindsight .
#   --build-arg WITH_LOCAL_EMBEDDER=true  adds the optional @huggingface/transformers runtime
#                                         (node_modules 91 MB → 573 MB) for HINDSIGHT_EMBEDDER=local.

ARG NODE_IMAGE=node:20-bookworm-slim

# ---- build: the same commands CI runs (.ci/run: npm ci; npm test → pretest: npm run build) ----
FROM ${NODE_IMAGE} AS build
WORKDIR /app
# onnxruntime-node's install script would download GPU files; skip them (as .npmrc does, which
# npm only passes to install scripts while it still accepts unknown project config).
ENV ONNXRUNTIME_NODE_INSTALL=skip
COPY package.json package-lock.json .npmrc ./
RUN --mount=type=cache,target=/root/.npm \
    npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
RUN npm run build

# ---- runtime: production dependencies and dist/ only, run as `node` (uid 1000) ----
FROM ${NODE_IMAGE} AS runtime
# true: keep optional dependencies (@huggingface/transformers, for the `local` embedder).
ARG WITH_LOCAL_EMBEDDER=false
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
    if [ "$WITH_LOCAL_EMBEDDER" = "true" ]; then \
      npm ci --omit=dev --no-audit --no-fund; \
    else \
      npm ci --omit=dev --omit=optional --no-audit --no-fund; \
    fi
COPY --from=build /app/dist ./dist

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
