# RepoScout's image: a build stage with the toolchain sqlite3 compiles with, and a slim run stage on
# the same Node LTS (24, supported until 2028-04-30; Node 20 reached its end on 2026-04-30) that
# runs the compiled bot with plain node (no run-time transpiler), as a non-root user, under an init
# (tini) so that SIGTERM reaches node and the bot drains before exit.
#
#   docker build -t reposcout .
#   docker run --env-file .env -p 8080:8080 -v reposcout-data:/data reposcout
#
# See compose.yaml for Redis and the two modes (gateway, HTTP interactions).

FROM node:24-bookworm-slim AS build
WORKDIR /app
# sqlite3 builds its native module from source: python3, make and g++.
RUN apt-get update \
  && apt-get install -y --no-install-recommends python3 make g++ \
  && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
COPY commands ./commands
COPY deploy-commands.ts ./
RUN npm run build
# Production packages only: the sandbox's, the compiler's and the tests' are left out.
RUN npm prune --omit=dev

FROM node:24-bookworm-slim AS run
RUN apt-get update \
  && apt-get install -y --no-install-recommends tini \
  && rm -rf /var/lib/apt/lists/*
WORKDIR /app
# GLIBC_TUNABLES: glibc's malloc keeps what an answer freed for the next one, instead of handing it
# back to the kernel and taking every page of it again (a page fault each) for the next answer:
# blocks under 4 MiB come from its heaps rather than each from an mmap of its own, and up to 16 MiB
# stays free at the top of a heap. Its default (a threshold that adapts, from 128 KiB) gave a 2,000-
# line first /blame about 205 page faults; with these, about 75, and a fifth less CPU (a third at
# 10,000 lines) on a machine where a fault is dear (see README, "Memory"). It costs 10-20 MB more
# resident under a burst; remove the line to favour memory. deploy/reposcout.service sets the same
# (test/deploy checks it).
# NODE_OPTIONS: V8's young generation as Node 20 sizes it (16 MiB a semi-space). Node 24's own
# default is 64 MiB, which a bot under a burst fills: 1,600 interactions a second from a cold start
# peaked at 217-218 MB resident over HTTP and 282-293 MB over the gateway, against 184-186 and
# 209-217 with this, for a quarter more time in GC (41 ms against 31 in 10 s over HTTP) and no
# slower answers (README, "Memory"). An operator who favours CPU raises it the same way. The unit
# sets the same (test/deploy checks it).
ENV NODE_ENV=production \
  DATA_DIR=/data \
  HTTP_PORT=8080 \
  GLIBC_TUNABLES=glibc.malloc.mmap_threshold=4194304:glibc.malloc.trim_threshold=16777216 \
  NODE_OPTIONS=--max-semi-space-size=16
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
# The data folder belongs to the unprivileged user `node` (uid 1000) of the base image.
RUN mkdir -p /data && chown node:node /data
VOLUME ["/data"]
USER node
EXPOSE 8080
HEALTHCHECK --interval=30s --timeout=3s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.METRICS_PORT || process.env.HTTP_PORT || 8080) + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
STOPSIGNAL SIGTERM
ENTRYPOINT ["/usr/bin/tini", "--"]
CMD ["node", "dist/src/index.js"]
