# messaging-service: built from the same compiled output the tests run (node dist/apps/messaging-service/src/main.js).
# Build from the repository root:  docker build -f docker/messaging-service.Dockerfile -t parley/messaging-service .
FROM node:20-bookworm-slim AS build
WORKDIR /repo
COPY package.json package-lock.json ./
# npm install, not npm ci: see tools/dev/lib/runner.mjs (npm 11 lock files and optional native packages)
RUN npm install --no-audit --no-fund
COPY . .
RUN node tools/dev/swc-build.mjs apps/messaging-service libs/contracts libs/kafka libs/service-kit \
 && npm prune --omit=dev --no-audit --no-fund

FROM node:20-bookworm-slim AS runtime
ENV NODE_ENV=production HOST=0.0.0.0 PORT=3002
WORKDIR /app
COPY --from=build --chown=node:node /repo/node_modules ./node_modules
COPY --from=build --chown=node:node /repo/dist ./dist
USER node
EXPOSE 3002
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:'+process.env.PORT+'/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
CMD ["node", "dist/apps/messaging-service/src/main.js"]
