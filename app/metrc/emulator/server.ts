/**
 * The METRC emulator's HTTP side (issue 9): Basic auth with vendor and user keys, `licenseNumber`
 * checks (a license the key does not reach, or a record outside it: 401; plant work at a license
 * that cannot grow: 403), GET limits per facility and per vendor key (429 with Retry-After), the
 * v2 paging wrapper or bare arrays, lastModified windows, the writes of ./writes.ts, and faults a
 * test or a demo can switch on (down, slow, a 429 storm, an expired key). Every request is logged.
 */
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { TokenBuckets } from '../../server/token-bucket'
import type { EmulatorState, License } from './model'
import type { StateFile } from './persist'
import { BY_ID, LISTS } from './reads'
import { inWindow, page, paging, Refusal, window } from './rules'
import { hasWrite, runWrite } from './writes'

export interface Faults {
  /** every call answers 503 (METRC down for maintenance) */
  down: boolean
  /** added before every answer */
  slowMs: number
  /** the next this-many GETs answer 429 (with Retry-After: retryAfterS) */
  storm429: number
  retryAfterS: number
  /** user keys METRC no longer takes */
  expiredKeys: string[]
}

export interface LoggedRequest {
  method: string
  path: string
  /** the query string (lastModified windows, paging) */
  query: string
  license: string | null
  status: number
  at: number
  /** rows of a write body */
  rows?: number
  body?: unknown
}

export interface Limits {
  facilityPerSec: number
  vendorPerSec: number
  facilityInFlight: number
  vendorInFlight: number
}

export const DEFAULT_LIMITS: Limits = { facilityPerSec: 50, vendorPerSec: 150, facilityInFlight: 10, vendorInFlight: 30 }

const DENIED = 'Authorization has been denied for this request.'

export function createEmulatorServer(o: { file: StateFile; limits?: Limits; adminToken: string; maxLog?: number }) {
  const limits = o.limits ?? DEFAULT_LIMITS
  const state: EmulatorState = o.file.state
  const faults: Faults = { down: false, slowMs: 0, storm429: 0, retryAfterS: 1, expiredKeys: [] }
  const log: LoggedRequest[] = []
  const maxLog = o.maxLog ?? 200_000
  const facilityRate = new TokenBuckets({ perSec: limits.facilityPerSec, burst: limits.facilityPerSec })
  const vendorRate = new TokenBuckets({ perSec: limits.vendorPerSec, burst: limits.vendorPerSec })
  const inFlight = new Map<string, number>()

  const server = http.createServer((req, res) => {
    void handle(req, res).catch((e: Error) => {
      if (!res.headersSent) send(res, 500, { Message: `emulator error: ${e.message}` })
    })
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
      throw new Refusal(400, 'The request body is not valid JSON.')
    }
  }

  async function handle(req: http.IncomingMessage, res: http.ServerResponse) {
    const url = new URL(req.url ?? '/', 'http://emulator')
    const method = req.method ?? 'GET'
    const path = url.pathname.replace(/\/+$/, '') || '/'
    if (path.startsWith('/_emulator/')) return admin(req, res, path, method)
    const entry: LoggedRequest = { method, path, query: url.search.slice(0, 300), license: url.searchParams.get('licenseNumber'), status: 0, at: Date.now() }
    log.push(entry)
    if (log.length > maxLog) log.splice(0, log.length - maxLog)
    let keyFacility: string | null = null
    let keyVendor: string | null = null
    try {
      if (faults.slowMs) await new Promise((r) => setTimeout(r, faults.slowMs))
      if (faults.down) throw new Refusal(503, 'The API is down for maintenance.')
      // Basic vendorKey:userKey
      const m = /^Basic\s+(\S+)$/i.exec(req.headers.authorization ?? '')
      const pair = m ? Buffer.from(m[1], 'base64').toString('utf8') : ''
      const cut = pair.indexOf(':')
      const vendor = cut > 0 ? pair.slice(0, cut) : ''
      const userKey = cut > 0 ? pair.slice(cut + 1) : ''
      const user = state.users.find((u) => u.key === userKey)
      if (!state.vendorKeys.includes(vendor) || !user || user.expired || faults.expiredKeys.includes(userKey)) throw new Refusal(401, DENIED)
      const licenseNo = url.searchParams.get('licenseNumber')
      const license: License | null = licenseNo ? (state.licenses.find((l) => l.Number.toLowerCase() === licenseNo.toLowerCase()) ?? null) : null
      if (licenseNo && (!license || !user.licenses.includes(license.Number))) throw new Refusal(401, DENIED)
      const f = license ? state.facilities[license.Number] : null

      if (method === 'GET') {
        if (faults.storm429 > 0) {
          faults.storm429--
          throw new Refusal(429, 'Too many requests.')
        }
        const waitF = license ? facilityRate.take(`${vendor}|${license.Number}`) : 0
        const waitV = vendorRate.take(vendor)
        if (waitF || waitV) throw new Refusal(429, 'Rate limit exceeded.', undefined, Math.max(1, Math.ceil(Math.max(waitF, waitV) / 1000)))
        keyVendor = `v|${vendor}`
        keyFacility = license ? `f|${vendor}|${license.Number}` : null
        if ((inFlight.get(keyVendor) ?? 0) >= limits.vendorInFlight || (keyFacility && (inFlight.get(keyFacility) ?? 0) >= limits.facilityInFlight)) {
          keyVendor = keyFacility = null
          throw new Refusal(429, 'Too many concurrent requests.', undefined, 1)
        }
        inFlight.set(keyVendor, (inFlight.get(keyVendor) ?? 0) + 1)
        if (keyFacility) inFlight.set(keyFacility, (inFlight.get(keyFacility) ?? 0) + 1)
        const list = LISTS[path]
        if (list) {
          if (list.license === 'required' && !license) throw new Refusal(400, 'licenseNumber is required.')
          if (list.plants && license && !license.CanGrowPlants) throw new Refusal(403, `License ${license.Number} (${license.LicenseType}) cannot work with plants.`)
          const w = list.modified ? window(url.searchParams) : null
          const p = list.shape === 'paged' ? paging(url.searchParams) : null
          let rows = list.rows(state, f, license, user)
          if (w) rows = rows.filter((r) => inWindow(w, (r as { LastModified?: unknown }).LastModified))
          entry.status = send(res, 200, list.shape === 'paged' ? page(rows, p) : rows)
          return
        }
        const byId = /^\/([a-z]+)\/v2\/([^/]+)$/.exec(path)
        if (byId && BY_ID[byId[1]]) {
          if (!license || !f) throw new Refusal(400, 'licenseNumber is required.')
          const def = BY_ID[byId[1]]
          if (def.plants && !license.CanGrowPlants) throw new Refusal(403, `License ${license.Number} (${license.LicenseType}) cannot work with plants.`)
          const key = decodeURIComponent(byId[2])
          const here = def.rows(f).find((r) => (/^\d+$/.test(key) ? r.Id === Number(key) : r.Label === key))
          if (here) return void (entry.status = send(res, 200, here))
          // METRC answers 401, not 404, for a record that is not this license's
          throw new Refusal(401, DENIED)
        }
        throw new Refusal(404, `No endpoint answers GET ${path}.`)
      }

      if (!hasWrite(method, path)) throw new Refusal(404, `No endpoint answers ${method} ${path}.`)
      if (!license || !f) throw new Refusal(400, 'licenseNumber is required.')
      const body = await readBody(req)
      entry.rows = Array.isArray(body) ? body.length : undefined
      entry.body = body
      const out = runWrite(method, path, body, { state, f, license, now: new Date().toISOString() })
      o.file.changed()
      entry.status = send(res, 200, out)
    } catch (e) {
      if (!(e instanceof Refusal)) throw e
      const headers: Record<string, string> = e.status === 429 ? { 'Retry-After': String(e.retryAfterS ?? faults.retryAfterS) } : e.status === 503 ? { 'Retry-After': '5' } : {}
      entry.status = send(res, e.status, e.rows ?? { Message: e.message }, headers)
    } finally {
      if (keyVendor) inFlight.set(keyVendor, (inFlight.get(keyVendor) ?? 1) - 1)
      if (keyFacility) inFlight.set(keyFacility, (inFlight.get(keyFacility) ?? 1) - 1)
    }
  }

  /** POST /_emulator/faults {down?, slowMs?, storm429?, retryAfterS?, expiredKeys?}; GET /_emulator/requests; with x-emulator-admin */
  async function admin(req: http.IncomingMessage, res: http.ServerResponse, path: string, method: string) {
    if (req.headers['x-emulator-admin'] !== o.adminToken) return send(res, 401, { Message: 'x-emulator-admin is required for the emulator controls.' })
    if (path === '/_emulator/faults' && method === 'POST') {
      try {
        const b = ((await readBody(req)) ?? {}) as Partial<Faults>
        if (typeof b.down === 'boolean') faults.down = b.down
        if (typeof b.slowMs === 'number' && b.slowMs >= 0 && b.slowMs <= 60_000) faults.slowMs = b.slowMs
        if (typeof b.storm429 === 'number' && b.storm429 >= 0) faults.storm429 = Math.floor(b.storm429)
        if (typeof b.retryAfterS === 'number' && b.retryAfterS >= 0 && b.retryAfterS <= 3600) faults.retryAfterS = b.retryAfterS
        if (Array.isArray(b.expiredKeys)) faults.expiredKeys = b.expiredKeys.filter((k): k is string => typeof k === 'string')
        return send(res, 200, faults)
      } catch (e) {
        return send(res, 400, { Message: (e as Error).message })
      }
    }
    if (path === '/_emulator/requests' && method === 'GET') return send(res, 200, log)
    if (path === '/_emulator/faults' && method === 'GET') return send(res, 200, faults)
    return send(res, 404, { Message: 'Unknown emulator control.' })
  }

  return {
    server,
    faults,
    requests: log,
    address: () => server.address() as AddressInfo,
  }
}
