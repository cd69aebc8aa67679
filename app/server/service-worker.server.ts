/**
 * GET /sw.js: the service worker (public/sw-core.js) preceded by this build's shell assets, so
 * a new build installs a new worker (the script's bytes change) that precaches the new files.
 */
import fs from 'node:fs'
import path from 'node:path'
import type { ServerBuild } from '@remix-run/node'
import type { RequestHandler } from 'express'

const STATIC = ['/offline.html', '/offline.js', '/favicon.svg', '/manifest.webmanifest', '/icons/icon-192.png']

/** The entry, root and catch-all screen scripts and the stylesheets of this build. */
export function shellAssets(build: ServerBuild, publicDir: string): string[] {
  const a = build.assets
  const files = [a.entry.module, ...a.entry.imports]
  for (const id of ['root', 'routes/$']) {
    const r = a.routes[id]
    if (r) files.push(r.module, ...(r.imports ?? []))
  }
  const cssDir = path.join(publicDir, 'build', '_assets')
  const css = fs.existsSync(cssDir) ? fs.readdirSync(cssDir).filter((f) => f.endsWith('.css')).map((f) => `/build/_assets/${f}`) : []
  return [...new Set([...STATIC, ...files, ...css])]
}

export function serviceWorkerHandler(getBuild: () => Promise<ServerBuild>, publicDir: string): RequestHandler {
  let cached: { version: string; body: string } | null = null
  return async (_req, res, next) => {
    try {
      const build = await getBuild()
      if (cached?.version !== build.assets.version) {
        const core = fs.readFileSync(path.join(publicDir, 'sw-core.js'), 'utf8')
        const meta = { version: build.assets.version, precache: shellAssets(build, publicDir) }
        cached = { version: build.assets.version, body: `self.CANOPY_BUILD = ${JSON.stringify(meta)};\n${core}` }
      }
      res.set({ 'Content-Type': 'text/javascript; charset=utf-8', 'Cache-Control': 'no-cache', 'Service-Worker-Allowed': '/' })
      res.send(cached.body)
    } catch (e) {
      next(e)
    }
  }
}
