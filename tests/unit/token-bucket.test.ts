import { callerKey } from '#app/server/rate-limit.server'
import { isApiRequest } from '#app/server/refuse.server'
import { TokenBuckets } from '#app/utils/token-bucket'
import { signAccessToken } from '#app/auth/tokens.server'

const clock = () => {
  const c = { t: 0, now: () => c.t }
  return c
}

describe('token buckets', () => {
  it('gives a new key its burst, then one token per 1/perSec, and says how long to wait', () => {
    const c = clock()
    const b = new TokenBuckets({ perSec: 20, burst: 60, now: c.now })
    for (let i = 0; i < 60; i++) expect(b.take('u')).toBe(0)
    expect(b.take('u')).toBe(50) // 1 token at 20/s
    expect(b.wait('u')).toBe(50)
    c.t += 49
    expect(b.take('u')).toBe(1)
    c.t += 1
    expect(b.take('u')).toBe(0)
    expect(b.take('u')).toBe(50)
    expect(b.take('other')).toBe(0) // keys are independent
  })

  it('sustains exactly the rate: 20/s over ten seconds lets 60 + 200 through', () => {
    const c = clock()
    const b = new TokenBuckets({ perSec: 20, burst: 60, now: c.now })
    let ok = 0
    for (; c.t <= 10_000; c.t += 10) for (let i = 0; i < 5; i++) if (b.take('u') === 0) ok++
    expect(ok).toBe(60 + 200)
  })

  it('a refused request spends nothing, and wait() changes nothing', () => {
    const c = clock()
    const b = new TokenBuckets({ perSec: 1, burst: 2, now: c.now })
    b.take('u')
    b.take('u')
    for (let i = 0; i < 10; i++) expect(b.take('u')).toBe(1000)
    c.t += 1000
    expect(b.wait('u')).toBe(0)
    expect(b.wait('u')).toBe(0)
    expect(b.take('u')).toBe(0)
    expect(b.take('u')).toBe(1000)
  })

  it('never holds more than the burst however long a key waits', () => {
    const c = clock()
    const b = new TokenBuckets({ perSec: 10, burst: 3, now: c.now })
    b.take('u')
    c.t += 3_600_000
    for (let i = 0; i < 3; i++) expect(b.take('u')).toBe(0)
    expect(b.take('u')).toBe(100)
  })

  it('forgets buckets that have refilled, and keeps at most maxKeys', () => {
    const c = clock()
    const b = new TokenBuckets({ perSec: 10, burst: 10, now: c.now, maxKeys: 100 })
    for (let i = 0; i < 50; i++) b.take(`k${i}`)
    expect(b.size).toBe(50)
    c.t += 1000 // all 50 full again
    b.take('fresh')
    expect(b.size).toBe(1)
    for (let i = 0; i < 1000; i++) b.take(`flood${i}`)
    expect(b.size).toBe(100)
    // the most recently used stay: the flood's last key still remembers its spent token
    for (let i = 0; i < 9; i++) expect(b.take('flood999')).toBe(0)
    expect(b.take('flood999')).toBe(100)
  })

  it('refuses nonsense settings', () => {
    expect(() => new TokenBuckets({ perSec: 0, burst: 1 })).toThrow()
    expect(() => new TokenBuckets({ perSec: 1, burst: 0 })).toThrow()
  })
})

describe('who a request counts for', () => {
  const secret = 's'.repeat(40)
  const tok = signAccessToken(secret, { sub: 'u-grower', orig: 'u-grower', org: 'greenleaf', role: 'user' })
  it('a valid access token names its subject; a forged or expired one counts as nobody', () => {
    expect(callerKey({ 'x-access-token': tok }, secret)).toBe('u:u-grower')
    expect(callerKey({ 'x-access-token': tok }, 'x'.repeat(40))).toBeNull()
    expect(callerKey({ 'x-access-token': tok }, secret, Date.now() + 3_600_000)).toBeNull()
  })
  it('else the session cookie, if it looks like one', () => {
    const id = 'abcDEF0123456789_-xyz'
    expect(callerKey({ cookie: `theme=dark; canopy_sid=${id}; other=1` }, secret)).toBe(`s:${id}`)
    expect(callerKey({ cookie: `canopy_sid=short` }, secret)).toBeNull()
    expect(callerKey({ cookie: `xcanopy_sid=${id}` }, secret)).toBeNull()
    expect(callerKey({}, secret)).toBeNull()
  })
  it('API paths and token callers get the JSON envelope, pages do not', () => {
    for (const p of ['/dt/v1/x', '/misc/dbops', '/auth/login', '/files/greenleaf', '/api/openapi.json']) expect(isApiRequest({ path: p, headers: {} })).toBe(true)
    for (const p of ['/Welcome', '/fac_plants', '/dtx', '/events']) expect(isApiRequest({ path: p, headers: {} })).toBe(false)
    expect(isApiRequest({ path: '/fac_plants', headers: { 'x-access-token': 'x' } })).toBe(true)
  })
})
