import { Writable } from 'node:stream'
import pino from 'pino'
import { REDACT_PATHS, redactUrl } from '#app/utils/logger.server'

describe('logging never carries secrets', () => {
  it('redacts credentials in URLs', () => {
    expect(redactUrl('/Welcome?email=a@b.c&password=Secret1!&x=1')).toBe('/Welcome?email=a@b.c&password=[redacted]&x=1')
    expect(redactUrl('/x?token=eyJabc.def&refresh-token=zzz')).toBe('/x?token=[redacted]&refresh-token=[redacted]')
    expect(redactUrl('/dt/v1/fac_plants?count')).toBe('/dt/v1/fac_plants?count')
  })

  it('redacts headers and secret fields in log objects', () => {
    const lines: string[] = []
    const sink = new Writable({ write: (c, _e, cb) => (lines.push(c.toString()), cb()) })
    const log = pino({ redact: { paths: REDACT_PATHS, censor: '[redacted]' } }, sink)
    log.info({ req: { headers: { authorization: 'Basic dXNlcjpwYXNz', cookie: 'sid=abc', 'x-access-token': 'tok' } }, user: { password: 'pw', metrc: 'key' } }, 'hello')
    const out = JSON.parse(lines[0])
    expect(out.req.headers).toEqual({ authorization: '[redacted]', cookie: '[redacted]', 'x-access-token': '[redacted]' })
    expect(out.user).toEqual({ password: '[redacted]', metrc: '[redacted]' })
    expect(lines[0]).not.toMatch(/dXNlcjpwYXNz|sid=abc|"pw"|"key"/)
  })
})
