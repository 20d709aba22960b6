# Ferry images, from one multi-stage build (Node 22 slim, numeric non-root user, data on a
# volume; deploy/README.md has the run lines):
#   docker build -t ferry .                               the agent; uploads to ENV_DATAWAY
#   docker build --target workspace -t ferry-workspace .  the agent with its embedded workspace
# Only the workspace image carries DuckDB: it is native, most of the image's size, and the
# agent loads it only to run the workspace itself.
FROM node:22-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
COPY workers ./workers
COPY bench ./bench
RUN npm run build && npm prune --omit=dev

FROM build AS agent-modules
RUN rm -rf node_modules/@duckdb

FROM node:22-slim AS base
ARG FERRY_COMMIT=unknown
# Container mode: no config file is read; configure with ENV_* (see conf.d/ferry.conf), and
# global tag changes made through the API stay in memory.
# GLIBC_TUNABLES: large freed blocks go back to the system (the same as the service unit; see
# src/shared/malloc.ts).
ENV NODE_ENV=production \
    GLIBC_TUNABLES=glibc.malloc.mmap_threshold=131072:glibc.malloc.trim_threshold=131072 \
    FERRY_COMMIT=${FERRY_COMMIT} \
    FERRY_CONTAINER=1 \
    ENV_HTTP_LISTEN=0.0.0.0:9529 \
    ENV_DATA_DIR=/var/lib/ferry
WORKDIR /app
# Numeric ids, so that Kubernetes' runAsNonRoot can verify the user; a bind-mounted data
# directory must belong to them: chown -R 10001:10001 <dir>.
RUN groupadd --gid 10001 ferry \
    && useradd --uid 10001 --gid 10001 --no-create-home --home-dir /var/lib/ferry \
       --shell /usr/sbin/nologin ferry \
    && mkdir -p /var/lib/ferry && chown 10001:10001 /var/lib/ferry
COPY --from=build /app/dist ./dist
COPY package.json ./
COPY conf.d ./conf.d
USER 10001:10001
VOLUME ["/var/lib/ferry"]
EXPOSE 9529
# `ferry health` reads the same ENV_* as the agent, so it follows ENV_HTTP_LISTEN.
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s \
    CMD ["node", "dist/src/main.js", "health"]
# --max-semi-space-size: see src/shared/heap-flags.ts (the same as the service unit).
ENTRYPOINT ["node", "--max-semi-space-size=2", "dist/src/main.js"]
CMD ["run"]

# With no ENV_DATAWAY the agent runs the workspace in a thread and uploads to it; its ingest,
# query and Open API listen on 9528 (token and API key protected; admin stays loopback-only).
FROM base AS workspace
COPY --from=build /app/node_modules ./node_modules
ENV ENV_WORKSPACE_LISTEN=0.0.0.0:9528
EXPOSE 9528

# The default target (last): no DuckDB. Without ENV_DATAWAY it stops with "no upstream: ...".
FROM base AS agent
COPY --from=agent-modules /app/node_modules ./node_modules
