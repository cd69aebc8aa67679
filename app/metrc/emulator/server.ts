/**
 * The METRC emulator's HTTP side (issue 9, node:http): faults first (./faults.ts), then who is
 * calling and for which license (./auth.ts), GET limits (./rate-limit.ts), then the endpoint
 * families (./endpoints): list GETs with the v2 paging wrapper or bare arrays and lastModified
 * windows (./paging.ts), by-id GETs (401 for a record outside the license), writes (./writes.ts).
 * Every request is logged (./request-log.ts). The controls live under /_emulator/ behind a token.
 */
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { existsIn, templateOf, writeAnswers } from '../reference'
import { authenticate, DENIED, licenseFor, requirePermission, requirePlants } from './auth'
import { BY_ID, LISTS } from './endpoints'
import { KEYED_READS } from './endpoints/transfers'
import { applyFaultPatch, noFaults, type Faults } from './faults'
import type { EmulatorState } from './model'
import { inWindow, page, paging, window } from './paging'
import type { StateFile } from './persist'
import { DEFAULT_LIMITS, GetLimiter, type Limits } from './rate-limit'
import { Refusal } from './refusal'
import { RequestLog, type LoggedRequest } from './request-log'
import { hasWrite, runWrite } from './writes'

export type { Faults, Limits, LoggedRequest }
export { DEFAULT_LIMITS }

/** METRC's (ASP.NET's) answer for a path it does not have */
const NO_RESOURCE = (path: string) => `No HTTP resource was found that matches the request URI '${path}'.`

export function createEmulatorServer(o: { file: StateFile; limits?: Limits; adminToken: string; maxLog?: number; onRefuse?: (ms: number) => void }) {
  const state: EmulatorState = o.file.state
  const faults: Faults = noFaults()
  const log = new RequestLog(o.maxLog)
  const limiter = new GetLimiter(o.limits ?? DEFAULT_LIMITS)

  const server = http.createServer((req, res) => {
    void handle(req, res).catch((e: Error) => {
      if (!res.headersSent) send(res, 500, { Message: `emulator error: ${e.message}` })
    })
  })
  // "reset": the connection is dropped as it arrives (a network error at the client)
  server.on('connection', (socket) => {
    if (faults.reset) socket.destroy()
  })

  function send(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
    const text = body === undefined ? '' : JSON.stringify(body)
    res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', ...headers })
    res.end(text)
    return status
  }

  async function readBody(req: http.IncomingMessage): Promise<unknown> {
    const chunks: Buffer[] = []
    let size = 0
    for await (const c of req) {
      size += (c as Buffer).length
      if (size > 5_000_000) throw new Refusal(413, 'The request body is too large.')
      chunks.push(c as Buffer)
    }
    if (!size) return undefined
    try {
      return JSON.parse(Buffer.concat(chunks).toString('utf8'))
    } catch {
      throw new Refusal(400, 'The request body is not valid JSON.', [{ row: 0, message: 'The request body is not valid JSON.' }])
    }
  }

  async function handle(req: http.IncomingMessage, res: http.ServerResponse) {
    const url = new URL(req.url ?? '/', 'http://emulator')
    const method = req.method ?? 'GET'
    const path = url.pathname.replace(/\/+$/, '') || '/'
    if (path.startsWith('/_emulator/')) return admin(req, res, path, method)
    // a kept-alive connection made before "reset" is dropped at its next request
    if (faults.reset) return void req.socket.destroy()
    const entry = log.add({ method, path, query: url.search.slice(0, 300), license: url.searchParams.get('licenseNumber'), status: 0, at: Date.now() })
    let release = () => {}
    // a write's body is taken in as it arrives, as a server does before it works on it: a slow
    // answer then still applies a write whose sender has gone away meanwhile
    const bodyRead = method === 'GET' ? null : readBody(req).then((body) => ({ body }), (error: unknown) => ({ error }))
    try {
      if (faults.slowMs) await new Promise((r) => setTimeout(r, faults.slowMs))
      if (faults.slowWritesMs && method !== 'GET') await new Promise((r) => setTimeout(r, faults.slowWritesMs))
      if (faults.down) throw new Refusal(503, 'The API is down for maintenance.', undefined, 5)
      // a path METRC does not have is 404 whoever asks (before the keys are looked at)
      const list = method === 'GET' ? LISTS[path] : undefined
      const keyed = method === 'GET' && !list ? KEYED_READS.map((k) => ({ ...k, m: k.re.exec(path) })).find((k) => k.m) : undefined
      const byIdMatch = method === 'GET' && !list && !keyed ? /^\/([a-z]+)\/v2\/([^/]+)$/.exec(path) : null
      const byIdDef = byIdMatch ? BY_ID[byIdMatch[1]] : undefined
      if (method === 'GET' ? !list && !keyed && !byIdDef : !hasWrite(method, path)) throw new Refusal(404, NO_RESOURCE(url.pathname))
      const caller = authenticate(state, req.headers.authorization, faults.expiredKeys)
      const license = licenseFor(state, caller, url.searchParams.get('licenseNumber'))
      const f = license ? state.facilities[license.Number] : null
      // each state's METRC has its own set of endpoints (patients: not in California)
      if (license?.State && !existsIn(license.State, method, path)) throw new Refusal(404, NO_RESOURCE(url.pathname))
      // the key's user needs METRC's permission for this endpoint at this license
      requirePermission(caller, keyed?.template ?? templateOf(method, path))

      if (method === 'GET') {
        if (faults.storm429 > 0) {
          faults.storm429--
          throw new Refusal(429, 'Too many requests.')
        }
        release = limiter.admit(caller.vendor, license?.Number ?? null)
        if (list) {
          if (list.license === 'required' && !license) throw new Refusal(400, 'licenseNumber is required.')
          if (list.plants && license) requirePlants(license)
          const w = list.modified ? window(url.searchParams) : null
          const p = list.shape === 'paged' ? paging(url.searchParams) : null
          let rows = list.rows(state, f, url.searchParams, caller.user)
          if (w) rows = rows.filter((r) => inWindow(w, (r as { LastModified?: unknown }).LastModified))
          const wire = list.wire ? (rows: unknown[]) => rows.map((r) => list.wire!(r as never, f!)) : (rows: unknown[]) => rows
          if (list.shape === 'paged') {
            const answer = page(rows, p)
            entry.status = send(res, 200, { ...answer, Data: wire(answer.Data) })
          } else entry.status = send(res, 200, wire(rows))
          return
        }
        if (keyed) {
          const rows = keyed.rows(state, caller.user, Number(keyed.m![1]))
          if (!rows) throw new Refusal(401, DENIED)
          entry.status = send(res, 200, page(rows, paging(url.searchParams)))
          return
        }
        if (!license || !f) throw new Refusal(400, 'licenseNumber is required.')
        const def = byIdDef!
        if (def.plants) requirePlants(license)
        const key = decodeURIComponent(byIdMatch![2])
        const here = def.rows(f).find((r) => (/^\d+$/.test(key) ? r.Id === Number(key) : r.Label === key))
        if (here) return void (entry.status = send(res, 200, def.wire ? def.wire(here, f) : here))
        // METRC answers 401, not 404, for a record that is not this license's
        throw new Refusal(401, DENIED)
      }

      if (!license || !f) throw new Refusal(400, 'licenseNumber is required.')
      const read = await bodyRead!
      if ('error' in read) throw read.error
      const body = read.body
      entry.rows = Array.isArray(body) ? body.length : undefined
      entry.body = body
      const out = runWrite(method, path, body, { state, f, license, now: new Date().toISOString() })
      o.file.changed()
      if (faults.dropAnswers > 0) {
        // applied, but the answer never reaches the caller
        faults.dropAnswers--
        entry.status = 0
        return void req.socket.destroy()
      }
      // creates and destroys answer their Ids; updates (PUT) answer nothing, as METRC documents
      entry.status = send(res, 200, writeAnswers(method) === 'ids' ? out : undefined)
    } catch (e) {
      if (!(e instanceof Refusal)) throw e
      const headers: Record<string, string> = e.status === 429 || e.status === 503 ? { 'Retry-After': String(e.retryAfterS ?? faults.retryAfterS) } : {}
      entry.status = send(res, e.status, e.rows ?? { Message: e.message }, headers)
    } finally {
      release()
      entry.ms = Date.now() - entry.at
    }
  }

  /**
   * With `x-emulator-admin: <token>`: POST /_emulator/faults {down?, reset?, slowMs?, slowWritesMs?, storm429?,
   * retryAfterS?, expiredKeys?, refuseMs?}, GET /_emulator/faults, GET and DELETE /_emulator/requests.
   */
  async function admin(req: http.IncomingMessage, res: http.ServerResponse, path: string, method: string) {
    if (req.headers['x-emulator-admin'] !== o.adminToken) return send(res, 401, { Message: 'x-emulator-admin is required for the emulator controls.' })
    if (path === '/_emulator/faults' && method === 'POST') {
      let refuseMs: number | undefined
      try {
        refuseMs = applyFaultPatch(faults, await readBody(req)).refuseMs
      } catch (e) {
        return send(res, 400, { Message: (e as Error).message })
      }
      send(res, 200, faults)
      if (refuseMs) res.once('finish', () => o.onRefuse?.(refuseMs))
      return
    }
    if (path === '/_emulator/faults' && method === 'GET') return send(res, 200, faults)
    if (path === '/_emulator/requests' && method === 'GET') return send(res, 200, log.entries)
    if (path === '/_emulator/requests' && method === 'DELETE') {
      log.clear()
      return send(res, 200, [])
    }
    return send(res, 404, { Message: 'Unknown emulator control.' })
  }

  return {
    server,
    faults,
    requests: log.entries,
    clearRequests: () => log.clear(),
    address: () => server.address() as AddressInfo,
  }
}
