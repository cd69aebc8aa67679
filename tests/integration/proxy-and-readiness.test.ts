/**
 * Operations behind a reverse proxy and under a load balancer (issue 28), through the real Express app:
 * - TRUST_PROXY decides whose X-Forwarded-For is believed (the client address the rate limits, the audit
 *   and sign-in lockouts use); a bad value stops the start with a message naming the setting.
 * - /readyz is not ready while a configured message bus is down (devices and live updates depend on it),
 *   ready once it connects (the Mosquitto on 127.0.0.1:1883).
 */
import net from 'node:net'
import pino from 'pino'
import type { LoaderFunctionArgs } from '@remix-run/node'
import { parseEnv } from '#app/config/env.server'
import { Bus } from '#app/bus/bus.server'
import * as readyz from '#app/routes/readyz'
import { openTestDatabase, type TestDatabase } from '#tests/helpers/db'
import { startHttpApp, type TestServer } from '#tests/helpers/http-app'

const whoami = { loader: ({ context }: LoaderFunctionArgs) => Response.json({ ip: context.clientIp }) }

async function ipSeen(trust: string | undefined, forwardedFor: string): Promise<string> {
  const env = trust === undefined ? {} : { TRUST_PROXY: parseEnv({ TRUST_PROXY: trust }).TRUST_PROXY }
  const s = await startHttpApp({ routes: { whoami }, env })
  try {
    const r = await fetch(`${s.url}/whoami`, { headers: { 'X-Forwarded-For': forwardedFor } })
    return ((await r.json()) as { ip: string }).ip
  } finally {
    await s.close()
  }
}

describe('TRUST_PROXY', () => {
  it('by default believes a proxy on this machine only', async () => {
    expect(parseEnv({}).TRUST_PROXY).toBe('loopback')
    // the test's own request comes from 127.0.0.1: a proxy on this machine
    expect(await ipSeen(undefined, '203.0.113.7')).toBe('203.0.113.7')
  })
  it('false believes no header: every request is its socket address', async () => {
    expect(await ipSeen('false', '203.0.113.7')).toBe('127.0.0.1')
  })
  it('a list of proxy addresses that does not hold the caller believes nothing it says', async () => {
    expect(await ipSeen('10.0.0.0/8, 192.168.1.1', '203.0.113.7')).toBe('127.0.0.1')
  })
  it('a number of hops takes the address that many proxies back', async () => {
    expect(await ipSeen('2', '198.51.100.1, 203.0.113.7')).toBe('198.51.100.1')
    expect(await ipSeen('1', '198.51.100.1, 203.0.113.7')).toBe('203.0.113.7')
  })
  it('refuses a value it cannot read, naming the setting', () => {
    expect(() => parseEnv({ TRUST_PROXY: 'yes please!' })).toThrow(/TRUST_PROXY.*expects loopback, true, false/s)
  })
})

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo
      s.close(() => resolve(port))
    })
  })
}

describe('/readyz and the message bus', () => {
  let t: TestDatabase
  const servers: TestServer[] = []
  const buses: Bus[] = []
  beforeAll(async () => {
    t = await openTestDatabase()
  })
  afterAll(async () => {
    for (const s of servers) await s.close()
    for (const b of buses) await b.close()
    await t.cleanup()
  })
  const serve = async (bus?: Bus) => {
    const s = await startHttpApp({ routes: { readyz }, database: t, bus })
    servers.push(s)
    return s
  }

  it('is ready without a bus (the console works; there are no devices to serve)', async () => {
    const s = await serve()
    const r = await fetch(`${s.url}/readyz`)
    expect(r.status).toBe(200)
    expect(await r.json()).toMatchObject({ status: 'ready', bus: 'none' })
  })

  it('is not ready while a configured broker does not answer', async () => {
    const bus = new Bus({ url: `mqtt://127.0.0.1:${await freePort()}`, logger: pino({ level: 'silent' }) })
    buses.push(bus)
    const s = await serve(bus)
    const r = await fetch(`${s.url}/readyz`)
    expect(r.status).toBe(503)
    expect(r.headers.get('cache-control')).toBe('no-store')
    expect(await r.json()).toMatchObject({ status: 'unavailable', reason: 'the message bus is not connected' })
  })

  it('is ready once the bus is connected (Mosquitto on 127.0.0.1:1883)', async () => {
    const bus = new Bus({ url: 'mqtt://127.0.0.1:1883', logger: pino({ level: 'silent' }) })
    buses.push(bus)
    const s = await serve(bus)
    const r = await fetch(`${s.url}/readyz`)
    expect(r.status).toBe(200)
    expect(await r.json()).toMatchObject({ status: 'ready', bus: 'connected' })
  })
})
