# Hopewell members' site. Build: docker build -t hopewell .   Run: see compose.yaml and the
# docs/operators.md#in-a-container.
# Stages: dev dependencies and the build; production dependencies only; the small runtime image.
# Node.js 26, the supported line (docs/decisions/0036-node-26.md); rebuilding the image takes its
# latest security release.
ARG NODE_IMAGE=node:26-bookworm-slim

FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json ./
# `npm ci` refuses this lock file (other platforms' optional builds are missing from it);
# `npm install` follows the same lock file.
RUN npm install --no-audit --no-fund
COPY . .
RUN npm run build

FROM ${NODE_IMAGE} AS production-dependencies
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm install --omit=dev --no-audit --no-fund && npm cache clean --force

FROM ${NODE_IMAGE}
# MALLOC_MMAP_THRESHOLD_: the C library gives memory blocks of 128 KB and more back when they are
# freed, so compiling the database's WebAssembly does not leave the server about 45 MB larger
# for good (docs/decisions/0026-memory-given-back.md).
ENV NODE_ENV=production \
    PORT=3000 \
    DATA_DIR=/data \
    MALLOC_MMAP_THRESHOLD_=131072
WORKDIR /app
COPY --from=production-dependencies /app/node_modules ./node_modules
COPY --from=build /app/build ./build
COPY package.json server.mjs tsconfig.json ./
COPY drizzle ./drizzle
# The admin command (npm run admin) runs the TypeScript sources with tsx, a production dependency.
COPY app ./app
COPY scripts ./scripts
RUN mkdir -p /data && chown node:node /data
# The embedded database (when DATABASE_URL is unset) and uploaded files.
VOLUME /data
USER node
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# node is PID 1 and handles SIGTERM itself: it finishes requests in flight (SHUTDOWN_TIMEOUT_MS),
# closes the database and exits. compose.yaml also sets init: true so a tiny init reaps zombies.
STOPSIGNAL SIGTERM
# The serve script's command: a small young generation (decision 0008) and one thread for V8's
# background compilers (decision 0031), both for a smaller idle server.
CMD ["node", "--max-semi-space-size=4", "--v8-pool-size=1", "server.mjs"]
