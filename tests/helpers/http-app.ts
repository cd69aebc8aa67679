/**
 * The real Express app (createHttpApp: logging, limits, the Remix request handler) on a free
 * loopback port, serving a Remix build made of the route modules a test names instead of the
 * compiled app. Resource routes only (a loader/action answering a Response): no page rendering,
 * so no `npm run build` is needed. Real route modules (auth.login, healthz, …) can be mounted too.
 */
import { once } from 'node:events'
import type { AddressInfo } from 'node:net'
import type { ServerBuild } from '@remix-run/node'
import pino, { type Logger } from 'pino'
import { loadEnv, type Env } from '#app/config/env.server'
import type { Database } from '#app/db/index.server'
import { EventHub } from '#app/events/event-hub.server'
import { createHttpApp } from '#app/server/http.server'
import type { ReadingIngest } from '#app/sensors/ingest.server'
import type { Bus } from '#app/bus/bus.server'
import { tmpDir } from '#tests/helpers/db'

type RouteModule = { loader?: (args: any) => unknown; action?: (args: any) => unknown }

/** A server build whose routes are `path → module` (paths as Remix writes them: `dt/v1/:table`). */
export function miniBuild(routes: Record<string, RouteModule>): ServerBuild {
  const manifest: ServerBuild['routes'] = { root: { id: 'root', path: '', module: {} as never } }
  Object.entries(routes).forEach(([path, module], i) => {
    manifest[`r${i}`] = { id: `r${i}`, parentId: 'root', path, module: module as never }
  })
  return {
    mode: 'production',
    entry: { module: { default: () => new Response('no page rendering in this test build', { status: 404 }) } },
    routes: manifest,
    assets: { entry: { imports: [], module: '' }, routes: {}, url: '', version: 'test' } as never,
    publicPath: '/build/',
    assetsBuildDirectory: tmpDir(),
    future: {} as never,
    isSpaMode: false,
  }
}

export interface TestServer {
  url: string
  env: Env
  close(): Promise<void>
}

export async function startHttpApp(o: { routes: Record<string, RouteModule>; env?: Partial<Env>; database?: Database; now?: () => number; logger?: Logger; readings?: ReadingIngest; bus?: Bus }): Promise<TestServer> {
  const env = { ...loadEnv({ DATA_DIR: tmpDir() }), ...o.env }
  const app = createHttpApp({
    env,
    database: o.database ?? ({} as Database), // the given routes decide whether they need one
    readings: o.readings,
    bus: o.bus,
    logger: o.logger ?? pino({ level: 'silent' }),
    build: miniBuild(o.routes),
    publicDir: tmpDir(),
    events: new EventHub(),
    now: o.now,
  })
  const server = app.listen(0, '127.0.0.1')
  await once(server, 'listening')
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    env,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

/** A pino logger that keeps its lines for the test to read. */
export function memoryLogger(): { logger: Logger; lines: Array<Record<string, unknown>> } {
  const lines: Array<Record<string, unknown>> = []
  const logger = pino({ level: 'info' }, { write: (s: string) => void lines.push(JSON.parse(s)) })
  return { logger, lines }
}
