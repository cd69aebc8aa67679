/**
 * Canopy's process entry: it loads the Remix server build and starts the app from inside it
 * (app/main.server.ts, exported by app/entry.server.tsx), so every app module is loaded
 * once — the routes and the services they share are one module graph (decision 022). This file
 * imports no app module; `npm run build` bundles it alone into build/server.js.
 */
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import type { ServerBuild } from '@remix-run/node'
import type { startCanopy } from './app/main.server'

// React and Remix choose their production or development build from process.env when the build
// is loaded: the app's own default (production) must be in place before that, whatever the shell says
process.env.NODE_ENV ??= 'production'

const here = path.dirname(fileURLToPath(import.meta.url))
// build/server.js in production; server.ts at the top level under tsx (`npm run dev`)
const top = path.basename(here) === 'build' ? path.dirname(here) : here
const BUILD_PATH = path.join(top, 'build', 'index.js')

if (!fs.existsSync(BUILD_PATH)) {
  process.stderr.write(`canopy: ${BUILD_PATH} is missing: run "npm run build" first (npm start does it for you)\n`)
  process.exit(1)
}
const build = (await import(pathToFileURL(BUILD_PATH).href)) as ServerBuild
const start = (build.entry.module as unknown as { startCanopy: typeof startCanopy }).startCanopy
await start({ build, top })
