# One image for the API and the worker process (see docker-compose.yml).
FROM node:20-bookworm-slim
WORKDIR /app
COPY package.json package-lock.json ./
COPY domain/package.json domain/
COPY event-store/package.json event-store/
COPY projections/package.json projections/
COPY command-api/package.json command-api/
COPY workers/package.json workers/
COPY web/package.json web/
COPY e2e/package.json e2e/
COPY bench/package.json bench/
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build
ENV NODE_ENV=production HOST=0.0.0.0 PORT=3000
EXPOSE 3000
CMD ["npx", "tsx", "command-api/src/server.ts"]
