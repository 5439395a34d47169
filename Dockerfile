# One image for the API and the worker process (docker-compose.yml, README "Production").
# The Node version is the one the tests run on; the tag is pinned so a rebuild gets the same base.

FROM node:20.20.2-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
COPY contract/package.json contract/
COPY domain/package.json domain/
COPY event-store/package.json event-store/
COPY projections/package.json projections/
COPY command-api/package.json command-api/
COPY workers/package.json workers/
COPY platform/package.json platform/
COPY web/package.json web/
COPY e2e/package.json e2e/
COPY bench/package.json bench/
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build

FROM node:20.20.2-bookworm-slim
ENV NODE_ENV=production HOST=0.0.0.0 PORT=3000 DATA_DIR=/app/data
WORKDIR /app
COPY package.json package-lock.json ./
COPY contract/package.json contract/
COPY domain/package.json domain/
COPY event-store/package.json event-store/
COPY projections/package.json projections/
COPY command-api/package.json command-api/
COPY workers/package.json workers/
COPY platform/package.json platform/
COPY web/package.json web/
COPY e2e/package.json e2e/
COPY bench/package.json bench/
# Runtime dependencies only (tsx runs the TypeScript sources; no test or build tools).
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force
COPY . .
COPY --from=build /app/web/dist web/dist
# Uploads live under DATA_DIR (a volume in docker-compose.yml); the app runs unprivileged.
RUN mkdir -p /app/data/uploads && chown -R node:node /app/data
USER node
EXPOSE 3000
HEALTHCHECK --interval=10s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/readyz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# The API; the worker process runs platform/src/worker.ts in the same image.
CMD ["node", "--import", "tsx", "platform/src/server.ts"]
