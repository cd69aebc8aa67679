/**
 * The bench's out-of-process load generator (bench/autocannon.ts): autocannon in a child process
 * against a real HTTP server in this test. Its p95 comes from every answer's time, failures are
 * counted by status, and interleaved rounds alternate the order of the servers after a warm-up of each.
 */
import http from 'node:http'
import { once } from 'node:events'
import type { AddressInfo } from 'node:net'
import { interleaved, loadRun } from '../../bench/autocannon'

describe('bench load generator', () => {
  let server: http.Server
  let base = ''
  // each request with its connection: a run of one connection is one socket
  const hits: Array<{ path: string; socket: number }> = []
  const sockets = new WeakMap<object, number>()
  let n = 0
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      const p = req.url ?? ''
      hits.push({ path: p, socket: sockets.get(req.socket) ?? -1 })
      n++
      // one answer in 10 waits 60 ms, the others answer at once: p50 is fast, p95 is not
      if (p === '/tail') setTimeout(() => res.end('ok'), n % 10 === 0 ? 60 : 0)
      else if (p === '/limited') {
        res.statusCode = n % 2 ? 429 : 200
        res.end('x')
      } else res.end('ok')
    })
    let sid = 0
    server.on('connection', (s) => sockets.set(s, sid++))
    server.listen(0, '127.0.0.1')
    await once(server, 'listening')
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  })
  afterAll(() => new Promise<void>((r) => server.close(() => r())))

  it('takes p95 from every answer and counts the answers that are not 2xx by status', async () => {
    const tail = await loadRun({ label: 'tail', url: `${base}/tail` }, { connections: 1, seconds: 2 })
    expect(tail.ok).toBeGreaterThan(20)
    expect(tail.failed).toBe(0)
    expect(tail.p50).toBeLessThan(30)
    expect(tail.p95).toBeGreaterThanOrEqual(55)
    expect(tail.rps).toBeCloseTo(tail.ok / tail.secs, 5)

    const limited = await loadRun({ label: 'limited', url: `${base}/limited` }, { connections: 2, seconds: 1 })
    expect(limited.ok).toBeGreaterThan(0)
    expect(limited.why['429']).toBe(limited.failed)
    expect(Math.abs(limited.failed - limited.ok)).toBeLessThanOrEqual(limited.ok / 2)
  }, 30_000)

  it('warms each target, then alternates their order round by round, and reports medians and ratios', async () => {
    hits.length = 0
    const r = await interleaved(
      [
        { label: 'a', url: `${base}/a` },
        { label: 'b', url: `${base}/b` },
      ],
      { connections: 1, seconds: 1, rounds: 3, warmupSeconds: 1 },
      () => {},
    )
    // the runs in the order the server saw them: each run is one connection
    const runs: string[] = []
    let last = -2
    for (const h of hits) {
      if (h.socket === last) continue
      runs.push(h.path)
      last = h.socket
    }
    expect(runs).toEqual(['/a', '/b', '/a', '/b', '/b', '/a', '/a', '/b'])
    expect(r.runs.map((x) => x.length)).toEqual([3, 3])
    expect(r.median[0].rps).toBeGreaterThan(0)
    expect(r.ratioTo0[0]).toEqual({ rps: 1, p95: 1 })
    expect(r.ratioTo0[1].rps).toBeGreaterThan(0)
  }, 60_000)
})
