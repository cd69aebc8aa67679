/** One pino logger; child loggers per subsystem. Secrets are redacted wherever they appear. */
import pino, { type Logger } from 'pino'

export const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-access-token"]',
  'res.headers["set-cookie"]',
  'password',
  '*.password',
  'token',
  '*.token',
  'refreshToken',
  '*.metrc',
  '*.apiKey',
]

export function createLogger(level: string, pretty = false): Logger {
  return pino({
    level,
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
    base: { app: 'canopy' },
    ...(pretty ? { transport: { target: 'pino-pretty', options: { colorize: true } } } : {}),
  })
}

/** Removes secrets from a URL's query before it is logged. */
export function redactUrl(url: string): string {
  return url.replace(/([?&](?:token|password|access_token|refresh-token|key)=)[^&]*/gi, '$1[redacted]')
}
