import { afterEach, describe, expect, it, vi } from 'vitest'
import { metrcError, retryAfterMs } from '#app/metrc/client/errors'
import { GetThrottle } from '#app/metrc/client/limits'
import { metrcBaseUrl } from '#app/metrc/client/states'
import { windows, DAY_MS } from '#app/metrc/client/windows'

describe('METRC errors', () => {
  it('reads per-row arrays, numbering rows in the whole list', () => {
    const e = metrcError(400, JSON.stringify([{ row: 0, message: 'Tag X is not valid.' }, { row: 2, message: 'Plant Batch 15 does not exist in the current Facility.' }]), { rowOffset: 10 })
    expect(e.kind).toBe('rejected')
    expect(e.rows).toEqual([
      { row: 10, message: 'Tag X is not valid.' },
      { row: 12, message: 'Plant Batch 15 does not exist in the current Facility.' },
    ])
    expect(e.message).toContain('Tag X is not valid.')
    expect(e.transient).toBe(false)
  })
  it('reads {Message}, {message} and plain text', () => {
    expect(metrcError(401, '{"Message":"Authorization has been denied for this request."}').message).toBe('Authorization has been denied for this request.')
    expect(metrcError(403, '{"message":"Insufficient permissions."}').kind).toBe('forbidden')
    const t = metrcError(401, 'The provided API key is only valid for V1 API endpoints.')
    expect(t.kind).toBe('unauthorized')
    expect(t.message).toBe('The provided API key is only valid for V1 API endpoints.')
    expect(metrcError(503, '').message).toBe('METRC answered 503')
    expect(metrcError(503, '').transient).toBe(true)
    expect(metrcError(429, '', { retryAfterMs: 2000 }).retryAfterMs).toBe(2000)
    expect(metrcError(413, '[]').kind).toBe('too_large')
  })
  it('reads Retry-After as seconds or an HTTP date', () => {
    expect(retryAfterMs('3')).toBe(3000)
    expect(retryAfterMs('0.5')).toBe(500)
    const now = Date.parse('2026-11-24T10:00:00Z')
    expect(retryAfterMs('Tue, 24 Nov 2026 10:00:07 GMT', now)).toBe(7000)
    expect(retryAfterMs('soon')).toBeUndefined()
    expect(retryAfterMs(null)).toBeUndefined()
  })
})

describe('METRC base URLs', () => {
  it('uses the state host, the sandbox, or an override', () => {
    expect(metrcBaseUrl('co')).toBe('https://api-co.metrc.com')
    expect(metrcBaseUrl('MA', { sandbox: true })).toBe('https://sandbox-api-ma.metrc.com')
    expect(metrcBaseUrl('CA', { override: 'http://127.0.0.1:3500/' })).toBe('http://127.0.0.1:3500')
    expect(() => metrcBaseUrl('WA')).toThrow(/not a METRC state/)
  })
})

describe('lastModified windows', () => {
  it('cuts a range into consecutive windows of at most 24 h, oldest first', () => {
    const from = new Date('2026-11-01T06:00:00Z')
    const w = windows(from, new Date('2026-11-03T12:00:00Z'))
    expect(w.map((x) => [x.start.toISOString(), x.end.toISOString()])).toEqual([
      ['2026-11-01T06:00:00.000Z', '2026-11-02T06:00:00.000Z'],
      ['2026-11-02T06:00:00.000Z', '2026-11-03T06:00:00.000Z'],
      ['2026-11-03T06:00:00.000Z', '2026-11-03T12:00:00.000Z'],
    ])
    for (const x of w) expect(x.end.getTime() - x.start.getTime()).toBeLessThanOrEqual(DAY_MS)
    expect(windows(from, from)).toEqual([])
  })
})

describe('GET throttle', () => {
  afterEach(() => vi.useRealTimers())
  it('keeps a facility to its in-flight cap and its starts per second', async () => {
    vi.useFakeTimers()
    const t = new GetThrottle({ facilityPerSec: 5, facilityInFlight: 2, vendorPerSec: 100, vendorInFlight: 100 })
    let inFlight = 0
    let most = 0
    const starts: number[] = []
    const job = () =>
      t.run('vk', 'LIC-1', async () => {
        starts.push(Date.now())
        most = Math.max(most, ++inFlight)
        await new Promise((r) => setTimeout(r, 10))
        inFlight--
      })
    const all = Promise.all(Array.from({ length: 12 }, job))
    await vi.advanceTimersByTimeAsync(5_000)
    await all
    expect(starts).toHaveLength(12)
    expect(most).toBe(2)
    // no 1-second span holds more than 5 starts
    for (const s of starts) expect(starts.filter((x) => x >= s && x < s + 1000).length).toBeLessThanOrEqual(5)
  })
  it('shares the vendor key limit across facilities', async () => {
    vi.useFakeTimers()
    const t = new GetThrottle({ facilityPerSec: 100, facilityInFlight: 10, vendorPerSec: 100, vendorInFlight: 3 })
    let inFlight = 0
    let most = 0
    const job = (lic: string) =>
      t.run('vk', lic, async () => {
        most = Math.max(most, ++inFlight)
        await new Promise((r) => setTimeout(r, 10))
        inFlight--
      })
    const all = Promise.all(['A', 'B', 'C', 'D'].flatMap((l) => [job(l), job(l)]))
    await vi.advanceTimersByTimeAsync(1_000)
    await all
    expect(most).toBe(3)
    expect(t.inFlight('vk')).toBe(0)
  })
})
