# gateway: built from the same compiled output the tests run (node dist/apps/gateway/src/main.js).
# Build from the repository root:  docker build -f docker/gateway.Dockerfile -t parley/gateway .
# Stages: build (every dependency, swc → dist/), deps (only the npm packages gateway loads, at the workspace's
# locked versions: docker/app-package.cjs), runtime (node, those packages and the compiled code; non-root).
FROM node:20-bookworm-slim AS build
WORKDIR /repo
COPY package.json package-lock.json .npmrc ./
# npm install, not npm ci: see tools/dev/lib/runner.mjs (npm 11 lock files and optional native packages)
RUN npm install --no-audit --no-fund
COPY . .
# apps/dashboard: the browser dashboard (vite build into dist/apps/dashboard), which the gateway serves at /dashboard
RUN node tools/dev/swc-build.mjs apps/gateway apps/dashboard libs/contracts libs/kafka libs/service-kit \
 && mkdir -p /out && node docker/app-package.cjs gateway > /out/package.json

FROM node:20-bookworm-slim AS deps
WORKDIR /app
COPY --from=build /out/package.json ./package.json
COPY package-lock.json .npmrc ./
RUN npm install --omit=dev --no-audit --no-fund && npm cache clean --force

FROM node:20-bookworm-slim AS runtime
ENV NODE_ENV=production HOST=0.0.0.0 PORT=3000
# V8 flags of every service process, as tools/dev/lib/stack.cjs runs them (SERVICE_NODE_FLAGS; docker/deployment.spec.ts
# checks they match). NODE_OPTIONS, not CMD: compose.yaml replaces the CMD with migrate + main.
ENV NODE_OPTIONS="--max-semi-space-size=4"
WORKDIR /app
# Owned by root and read-only to the app's user: the process cannot rewrite its own code.
COPY --from=deps /app/node_modules ./node_modules
COPY --from=deps /app/package.json ./package.json
COPY --from=build /repo/dist/node_modules ./dist/node_modules
COPY --from=build /repo/dist/libs ./dist/libs
COPY --from=build /repo/dist/apps/gateway ./dist/apps/gateway
COPY --from=build /repo/dist/apps/dashboard ./dist/apps/dashboard
# The media store's mount point (compose mounts a volume shared with the other service there), writable by the app.
RUN mkdir /media && chown node:node /media
USER node
# the public port, and the internal one serving /metrics in production (METRICS_PORT, default PORT + 1000)
EXPOSE 3000 4000
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:'+process.env.PORT+'/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
CMD ["node", "dist/apps/gateway/src/main.js"]
