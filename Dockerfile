# syntax=docker/dockerfile:1

# ---- build: compile TypeScript and keep only production dependencies ----
FROM node:20-bookworm AS build
WORKDIR /app
# better-sqlite3 compiles from source against Node's headers.
RUN apt-get update \
 && apt-get install -y --no-install-recommends build-essential python3 \
 && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npx tsc -p tsconfig.build.json \
 && touch dist/.built \
 && mkdir -p models \
 && npm prune --omit=dev --no-audit --no-fund

# ---- runtime: Node 20 (the uWebSockets.js build ships binaries up to Node 20) ----
FROM node:20-bookworm-slim AS runtime
# ffmpeg decodes uploads; espeak-ng and pocketsphinx are the embedded speech engines; tini reaps and forwards signals.
RUN apt-get update \
 && apt-get install -y --no-install-recommends ffmpeg espeak-ng pocketsphinx pocketsphinx-en-us tini ca-certificates \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /app
ENV NODE_ENV=production \
    VOICE_HOST=0.0.0.0 \
    VOICE_PORT=8080 \
    VOICE_SIP_PORT=5080 \
    VOICE_DATA_DIR=/data \
    AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED=true
COPY --from=build /app/package.json ./package.json
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY --from=build /app/models ./models
COPY --from=build /app/bin ./bin
COPY --from=build /app/scripts/ensure.mjs ./scripts/ensure.mjs
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
# HTTP and sockets; SIP signalling; RTP media of SIP calls (VOICE_SIP_RTP_PORTS).
EXPOSE 8080 5080/udp 5080/tcp 10000-20000/udp
# Readiness (no key): unhealthy while the store or a configured provider is down. Liveness alone is
# /voice/capabilities, for orchestrators that restart on a failed probe.
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.VOICE_PORT||8080)+'/voice/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
# SIGTERM from the orchestrator drains live sessions (VOICE_DRAIN_SECONDS) before the process exits.
STOPSIGNAL SIGTERM
ENTRYPOINT ["/usr/bin/tini", "--"]
# V8 flags: src/node-flags.ts says why.
CMD ["node", "--max-semi-space-size=4", "--enable-source-maps", "dist/src/main.js", "serve"]
