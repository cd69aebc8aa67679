# Canopy on-prem image: build with dev dependencies, run with production ones, as a non-root user.
# Node.js: the current LTS line, the same as .nvmrc, package.json's engines and what .ci/run tests on.
# What it runs is what CI runs: `npm run build`, then `node build/server.js` (which migrates first).
FROM node:24-bookworm-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
# the lockfile exactly (a lockfile that drifted from package.json fails the build)
RUN npm ci --no-audit --no-fund

FROM deps AS build
# build metafiles (module lists) and source maps stay out of the image unless asked:
# docker build --build-arg KEEP_BUILD_METADATA=1 (source maps also need SOURCEMAP=1)
ARG KEEP_BUILD_METADATA=0
ARG SOURCEMAP=0
COPY . .
RUN SOURCEMAP=$SOURCEMAP npm run build \
 && if [ "$KEEP_BUILD_METADATA" != "1" ]; then rm -f build/metafile.*.json public/build/metafile.*.json; fi

FROM node:24-bookworm-slim AS prod-deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund

FROM node:24-bookworm-slim AS runtime
# in a container the embedded broker (no MQTT_URL) must answer devices outside it: MQTT_HOST 0.0.0.0 (default 127.0.0.1)
ENV NODE_ENV=production PORT=3000 HOST=0.0.0.0 MQTT_HOST=0.0.0.0 DATA_DIR=/data
WORKDIR /app
RUN groupadd --system canopy && useradd --system --gid canopy --home /app canopy \
 && mkdir -p /data && chown canopy:canopy /data
COPY --from=prod-deps --chown=canopy:canopy /app/node_modules ./node_modules
COPY --from=build --chown=canopy:canopy /app/build ./build
COPY --from=build --chown=canopy:canopy /app/public ./public
COPY --chown=canopy:canopy package.json ./
USER canopy
VOLUME ["/data"]
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=5s --start-period=120s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/readyz').then(r=>process.exit(r.ok?0:1)).catch(()=>process.exit(1))"
# Migrations run at start, before the server accepts connections.
CMD ["node", "build/server.js"]
