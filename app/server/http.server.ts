/**
 * The Express application: request ids and logging, compression (never on event streams),
 * static assets (fingerprinted ones cached for a year), the limits (rate, body size, time:
 * limits.server.ts) and the Remix handler.
 */
import crypto from 'node:crypto'
import path from 'node:path'
import { createRequestHandler } from '@remix-run/express'
import type { ServerBuild } from '@remix-run/node'
import compression from 'compression'
import express from 'express'
import type { Logger } from 'pino'
import { pinoHttp } from 'pino-http'
import type { Env } from '../config/env.server'
import type { Database } from '../db/index.server'
import { redactUrl } from '../utils/logger.server'
import { EventHub } from '../events/event-hub.server'
import type { Bus } from '../bus/bus.server'
import type { ReadingIngest } from '../sensors/ingest.server'
import { installLimits, quietAfterTimeout } from './limits.server'
import { readsFor } from '../utils/request-memo'
import { serviceWorkerHandler } from './service-worker.server'
import { cspNonceOf, noStoreByDefault, securityHeaders } from './security-headers.server'
import { productionErrors, refuseNul } from './input-guard.server'

export interface HttpDeps {
  env: Env
  database: Database
  logger: Logger
  /** the Remix server build, or a getter (dev reloads it) */
  build: ServerBuild | (() => Promise<ServerBuild>)
  publicDir: string
  /** server-sent event streams; one is made (relaying the store's changes) when not given */
  events?: EventHub
  /** the message bus (app/bus); device flows answer 503 without one */
  bus?: Bus
  /** the sensor ingest (app/sensors); POST /dt/v1/{deviceID} answers 503 without one */
  readings?: ReadingIngest
  /** the rate limit's clock (tests move it by hand) */
  now?: () => number
}

const QUIET = new Set(['/healthz', '/readyz'])

export function createHttpApp(deps: HttpDeps) {
  const app = express()
  const events = deps.events ?? new EventHub()
  if (!deps.events) events.relayStore(deps.database.store)
  app.locals.events = events
  app.disable('x-powered-by')
  app.set('trust proxy', deps.env.TRUST_PROXY)

  app.use(
    pinoHttp({
      logger: deps.logger,
      genReqId: (req, res) => {
        const given = req.headers['x-request-id']
        const id = typeof given === 'string' && /^[\w.-]{1,64}$/.test(given) ? given : crypto.randomUUID()
        res.setHeader('x-request-id', id)
        return id
      },
      autoLogging: { ignore: (req) => QUIET.has((req.url ?? '').split('?')[0]) },
      serializers: {
        req: (req) => ({ id: req.id, method: req.method, url: redactUrl(req.url), remoteAddress: req.remoteAddress }),
        res: (res) => ({ statusCode: res.statusCode }),
      },
      customLogLevel: (_req, res, err) => (err || res.statusCode >= 500 ? 'error' : res.statusCode >= 400 ? 'warn' : 'info'),
    }),
  )

  // security headers on every answer, static files included (decision 034)
  app.use(securityHeaders())

  app.use(
    compression({
      filter: (req, res) => {
        const type = String(res.getHeader('Content-Type') ?? '')
        if (type.includes('text/event-stream')) return false
        return compression.filter(req, res)
      },
    }),
  )

  // No cross-site form posts: a browser says where a request comes from (Sec-Fetch-Site, Origin).
  // Token-authenticated API calls carry no ambient credentials and are not affected.
  app.use((req, res, next) => {
    if (['GET', 'HEAD', 'OPTIONS'].includes(req.method)) return next()
    const site = req.headers['sec-fetch-site']
    const origin = req.headers.origin
    let cross = site !== undefined && site !== 'same-origin' && site !== 'none'
    if (!cross && origin && origin !== 'null') {
      try {
        cross = new URL(origin).host !== req.headers.host
      } catch {
        cross = true
      }
    }
    if (cross && !(req.headers['x-access-token'] && !req.headers.cookie?.includes('canopy_sid='))) {
      res.status(403).type('text/plain').send('Cross-site requests are refused. Open Canopy and try again from there.')
      return
    }
    next()
  })

  // The service worker names this build's files, so it is generated (and never cached long).
  const getBuild = typeof deps.build === 'function' ? deps.build : () => Promise.resolve(deps.build as ServerBuild)
  app.get('/sw.js', serviceWorkerHandler(getBuild, deps.publicDir))

  // Fingerprinted Remix assets never change under the same name.
  app.use('/build', express.static(path.join(deps.publicDir, 'build'), { immutable: true, maxAge: '1y', index: false }))
  app.use(express.static(deps.publicDir, { maxAge: '1h', index: false }))

  // after the static files (never counted), before Remix: rate limit, body size, time
  installLimits(app, { env: deps.env, now: deps.now })
  // a NUL character in the address is refused before any route reads it (issue 20 item 11)
  app.use(refuseNul)
  app.use(noStoreByDefault)

  app.all(
    '*',
    quietAfterTimeout(
      createRequestHandler({
        build: deps.build as ServerBuild,
        mode: deps.env.NODE_ENV,
        getLoadContext: (req, res) => ({ env: deps.env, database: deps.database, events, bus: deps.bus, readings: deps.readings, logger: (req as unknown as { log: Logger }).log ?? deps.logger, requestId: String((req as unknown as { id: string }).id), clientIp: req.ip, reads: readsFor(req.method), cspNonce: cspNonceOf(res) }),
      }),
    ),
  )
  // whatever fails before or around Remix (a malformed address, a body parser): a short page or
  // the API envelope, never a stack trace, whatever NODE_ENV says (issue 20 item 10)
  app.use(productionErrors(deps.logger))
  return app
}
