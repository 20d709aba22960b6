# Ferry agent image: multi-stage, Node 22 slim, non-root, data on a volume.
FROM node:22-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
COPY workers ./workers
COPY bench ./bench
RUN npm run build && npm prune --omit=dev

FROM node:22-slim
ARG FERRY_COMMIT=unknown
# Container mode: no config file is read; configure with ENV_* (see conf.d/ferry.conf), and
# global tag changes made through the API stay in memory.
ENV NODE_ENV=production \
    FERRY_COMMIT=${FERRY_COMMIT} \
    FERRY_CONTAINER=1 \
    ENV_HTTP_LISTEN=0.0.0.0:9529 \
    ENV_DATA_DIR=/var/lib/ferry
WORKDIR /app
RUN groupadd --system ferry && useradd --system --gid ferry --home /var/lib/ferry ferry \
    && mkdir -p /var/lib/ferry && chown ferry:ferry /var/lib/ferry
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY package.json ./
COPY conf.d ./conf.d
USER ferry
VOLUME ["/var/lib/ferry"]
EXPOSE 9529
HEALTHCHECK --interval=30s --timeout=3s CMD node -e "fetch('http://127.0.0.1:9529/v1/ping').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
ENTRYPOINT ["node", "dist/src/main.js"]
CMD ["run"]
