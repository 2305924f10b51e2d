# syntax=docker/dockerfile:1
# Multi-stage: build with dev dependencies, ship production dependencies only, run as a non-root user.
FROM node:20-bookworm-slim AS deps
WORKDIR /app
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund

FROM deps AS build
COPY . .
RUN npm run build && npm prune --omit=dev

FROM node:20-bookworm-slim AS runtime
ENV NODE_ENV=production PORT=3000 HOST=0.0.0.0 DATA_DIR=/app/data
WORKDIR /app
COPY --from=build /app/package.json ./package.json
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/build ./build
COPY --from=build /app/dist ./dist
COPY --from=build /app/public ./public
RUN mkdir -p /app/data && chown node:node /app/data
USER node
EXPOSE 3000
# Liveness: the process answers (/healthz). Readiness is /readyz (503 while the upstream api or Redis does not
# answer, and from the first moment of a shutdown): give it to the load balancer or orchestrator as the
# readiness probe, never as the liveness check (an upstream outage must not restart every instance).
HEALTHCHECK --interval=30s --timeout=3s --start-period=20s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/healthz').then(r=>process.exit(r.ok?0:1)).catch(()=>process.exit(1))"
# SIGTERM starts the graceful shutdown (readiness 503, in-flight requests finish within SHUTDOWN_TIMEOUT_MS,
# 10 s by default): give the container a longer stop grace period (docker stop -t 15, Kubernetes'
# terminationGracePeriodSeconds). SESSION_SECRET is required in production; set API_URL to use a real
# upstream instead of the embedded api. tests/scale/dockerfile-steps.test.ts runs these steps (docs/deploy.md).
STOPSIGNAL SIGTERM
CMD ["node", "dist/server.js"]
