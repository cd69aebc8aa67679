/**
 * Configuration: one zod schema, read first thing at start (server.ts, scripts, tests).
 * A bad value stops the process with a message naming the variable and what it expects.
 */
import fs from 'node:fs'
import path from 'node:path'
import crypto from 'node:crypto'
import { z } from 'zod'

const url = (protocols: string[], what: string) =>
  z
    .string()
    .trim()
    .refine((v) => {
      try {
        return protocols.includes(new URL(v).protocol)
      } catch {
        return false
      }
    }, `expects ${what}`)

const emptyToUndefined = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v)

const rate = (d: number) =>
  z.preprocess(emptyToUndefined, z.coerce.number({ invalid_type_error: 'expects requests per second' }).min(0, 'expects requests per second, 0 (off) or more').max(100_000, 'expects requests per second, at most 100000').default(d))
const burst = (d: number) =>
  z.preprocess(emptyToUndefined, z.coerce.number({ invalid_type_error: 'expects a number of requests' }).int('expects a whole number of requests').min(1, 'expects at least 1 request').max(1_000_000, 'expects at most 1000000 requests').default(d))

export const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('production'),
  PORT: z.coerce.number({ invalid_type_error: 'expects a port number' }).int().min(0, 'expects a port number 0-65535').max(65535, 'expects a port number 0-65535').default(3000),
  HOST: z.preprocess(emptyToUndefined, z.string().min(1).default('0.0.0.0')),
  // which proxies in front of Canopy may name the client's address (X-Forwarded-For; ops/proxy/README.md):
  // 'loopback' (default: a proxy on this machine), a number of hops, 'true' (any: only when nothing but the
  // proxy can reach Canopy), 'false', or addresses/CIDRs separated by commas. The rate limits, the audit's
  // address and sign-in lockouts all use the address this yields.
  TRUST_PROXY: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .trim()
      .default('loopback')
      .refine((v) => /^(true|false|\d{1,2}|[\w.:/-]+(\s*,\s*[\w.:/-]+)*)$/.test(v), 'expects loopback, true, false, a number of hops, or addresses/CIDRs separated by commas')
      .transform((v): boolean | number | string => (v === 'true' ? true : v === 'false' ? false : /^\d+$/.test(v) ? Number(v) : v)),
  ),
  DATA_DIR: z.preprocess(emptyToUndefined, z.string().min(1, 'expects a folder path').default('./data')),
  DATABASE_URL: z.preprocess(emptyToUndefined, url(['postgres:', 'postgresql:'], 'a postgres:// or postgresql:// URL').optional()),
  MQTT_URL: z.preprocess(emptyToUndefined, url(['mqtt:', 'mqtts:', 'ws:', 'wss:', 'tcp:'], 'an mqtt://, mqtts://, ws:// or wss:// URL').optional()),
  // the message bus (issue 8): MQTT_URL names an external broker; unset, an embedded one listens on
  // MQTT_PORT (TCP) and MQTT_WS_PORT (WebSocket), defaults that leave a Mosquitto on 1883 alone
  MQTT_USERNAME: z.preprocess(emptyToUndefined, z.string().max(200).optional()),
  MQTT_PASSWORD: z.preprocess(emptyToUndefined, z.string().max(4096).optional()),
  // a Mosquitto's dynamic-security admin (ops/mosquitto/README.md): with MQTT_URL, Canopy keeps
  // device keys, organisation roles and its own client there (app/bus/mosquitto.server.ts)
  MQTT_ADMIN_USERNAME: z.preprocess(emptyToUndefined, z.string().max(200).optional()),
  MQTT_ADMIN_PASSWORD: z.preprocess(emptyToUndefined, z.string().max(4096).optional()),
  MQTT_PORT: z.preprocess(emptyToUndefined, z.coerce.number({ invalid_type_error: 'expects a port number' }).int().min(0, 'expects a port number 0-65535').max(65535, 'expects a port number 0-65535').default(1884)),
  MQTT_WS_PORT: z.preprocess(emptyToUndefined, z.coerce.number({ invalid_type_error: 'expects a port number' }).int().min(0, 'expects a port number 0-65535').max(65535, 'expects a port number 0-65535').default(8884)),
  // messages per second one device or user may publish on the embedded broker (burst: 10 s of it)
  MQTT_PUBLISH_PER_SEC: rate(20),
  // the interface the embedded broker listens on: this machine only unless set (0.0.0.0 for devices
  // on the network; the Docker image sets it), and the largest packet a signed-in client may send
  // there (before signing in: 16 KiB; app/bus/packet-guard.ts)
  MQTT_HOST: z.preprocess(emptyToUndefined, z.string().trim().min(1).default('127.0.0.1')),
  MQTT_MAX_PACKET_BYTES: z.preprocess(emptyToUndefined, z.coerce.number({ invalid_type_error: 'expects bytes' }).int('expects whole bytes').min(1024, 'expects bytes, at least 1024').max(268_435_455, 'expects bytes, at most 268435455 (the MQTT maximum)').default(262_144)),
  // 1 = accept an external broker (MQTT_URL) that lets clients in without a username and password
  // (a warning is logged); unset, Canopy refuses to start with one (app/bus/anonymous-check.server.ts)
  MQTT_ALLOW_ANONYMOUS: z.preprocess(emptyToUndefined, z.enum(['0', '1']).default('0')),
  DEMO_DEVICES: z.preprocess(emptyToUndefined, z.enum(['0', '1']).optional()),
  // the device simulator (app/devices/simulator): how often a simulated sensor publishes, and where
  // simulated label printers write what they print (default DATA_DIR/prints)
  DEVICES_SENSOR_EVERY_MS: z.preprocess(emptyToUndefined, z.coerce.number({ invalid_type_error: 'expects milliseconds' }).int('expects whole milliseconds').min(200, 'expects milliseconds, at least 200').max(3_600_000, 'expects milliseconds, at most 3600000').default(5000)),
  PRINT_DIR: z.preprocess(emptyToUndefined, z.string().min(1, 'expects a folder path').optional()),
  // device ids of simulated scales or readers that never answer (to see the timeout path), comma-separated
  DEVICES_SILENT: z.preprocess(emptyToUndefined, z.string().regex(/^[A-Za-z0-9_.:@-]+(,[A-Za-z0-9_.:@-]+)*$/, 'expects device ids separated by commas').transform((v) => v.split(',')).optional()),
  // sensor readings (app/sensors): raw readings are kept this many days (hourly rollups stay), and
  // the job that drops older ones runs this often
  SENSOR_RAW_DAYS: z.preprocess(emptyToUndefined, z.coerce.number({ invalid_type_error: 'expects days' }).int('expects whole days').min(1, 'expects days, at least 1').max(3650, 'expects days, at most 3650').default(7)),
  SENSOR_COMPACT_EVERY_MIN: z.preprocess(emptyToUndefined, z.coerce.number({ invalid_type_error: 'expects minutes' }).int('expects whole minutes').min(1, 'expects minutes, at least 1').max(10_080, 'expects minutes, at most 10080').default(60)),
  SMTP_URL: z.preprocess(emptyToUndefined, url(['smtp:', 'smtps:'], 'an smtp:// or smtps:// URL').optional()),
  // the sender of every mail Canopy sends (invitations, resets, the authorization mail)
  MAIL_FROM: z.preprocess(emptyToUndefined, z.string().trim().max(300).refine((v) => /^(?:[^<>]*<[^<>\s@]+@[^<>\s@]+>|[^<>\s@]+@[^<>\s@]+)$/.test(v), 'expects an address, optionally with a name: Name <mail@example.com>').default('Canopy <no-reply@canopy.local>')),
  // the address people open Canopy at, for links in mail (default http://localhost:{PORT})
  PUBLIC_URL: z.preprocess(emptyToUndefined, url(['https:', 'http:'], 'an http(s):// URL').optional()),
  // messaging (app/areas/messaging): a message still unread this many seconds after it was sent is mailed to its reader
  MSG_UNREAD_MAIL_AFTER_S: z.preprocess(emptyToUndefined, z.coerce.number({ invalid_type_error: 'expects seconds' }).int('expects whole seconds').min(1, 'expects seconds, at least 1').max(604_800, 'expects seconds, at most 604800').default(900)),
  /** campaign mails sent per second at most (app/areas/campaigns: the throttle of the sender job) */
  CAMPAIGN_MAILS_PER_SEC: z.preprocess(emptyToUndefined, z.coerce.number({ invalid_type_error: 'expects mails per second' }).int('expects a whole number').min(1, 'expects at least 1').max(1000, 'expects at most 1000').default(5)),
  SESSION_SECRET: z.preprocess(emptyToUndefined, z.string().min(32, 'expects at least 32 characters').optional()),
  ADMIN_EMAIL: z.preprocess(emptyToUndefined, z.string().email('expects an email address').default('super@canopy.local')),
  ADMIN_PASSWORD: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .min(8, 'expects at least 8 characters')
      .refine((v) => !/["'?&/<>\s]/.test(v), 'expects no " \' ? & / < > or whitespace')
      .default('Canopy#Demo1'),
  ),
  // the first super user's name on a real install (DEMO_DATA=0)
  ADMIN_NAME: z.preprocess(emptyToUndefined, z.string().trim().min(1).max(120).default('Administrator')),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  DEMO_DATA: z.preprocess(emptyToUndefined, z.enum(['0', '1']).default('1')),
  IDLE_TIMEOUT_S: z.coerce.number({ invalid_type_error: 'expects seconds' }).int().min(5, 'expects seconds >= 5').default(3600),
  SIGNUP_URL: z.preprocess(emptyToUndefined, url(['https:', 'http:'], 'an http(s):// URL').default('https://canopy.example.com/signup')),
  DB_STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(100, 'expects milliseconds >= 100').default(15000),
  // connections each process keeps to PostgreSQL (several processes share the server's max_connections)
  DB_POOL_MAX: z.coerce.number({ invalid_type_error: 'expects a number of connections' }).int('expects a whole number').min(2, 'expects at least 2 connections').max(500, 'expects at most 500 connections').default(10),
  // the server's rate limit (app/server/rate-limit.server.ts): per signed-in caller and per client
  // address; a rate of 0 turns that limit off (benchmarks). Everyone behind one NAT shares an address.
  RATE_LIMIT_PER_SEC: rate(20),
  RATE_LIMIT_BURST: burst(60),
  RATE_LIMIT_ADDRESS_PER_SEC: rate(100),
  RATE_LIMIT_ADDRESS_BURST: burst(600),
  REQUEST_TIMEOUT_MS: z.preprocess(emptyToUndefined, z.coerce.number({ invalid_type_error: 'expects milliseconds' }).int('expects whole milliseconds').min(100, 'expects milliseconds, at least 100').max(600_000, 'expects milliseconds, at most 600000').default(30_000)),
  PIPELINE_TIMEOUT_MS: z.coerce.number().int().min(100, 'expects milliseconds >= 100').default(10000),
  // the embedded database cannot stop a running statement: a pipeline priced above this many row
  // visits is refused before it runs there (app/api/pipeline/cost.ts, decision 035); 0 turns it off
  PIPELINE_MAX_COST: z.preprocess(emptyToUndefined, z.coerce.number({ invalid_type_error: 'expects a number of row visits' }).int('expects a whole number').min(0, 'expects 0 or more').default(50_000)),
  MAX_UPLOAD_MB: z.preprocess(emptyToUndefined, z.coerce.number({ invalid_type_error: 'expects megabytes' }).positive('expects megabytes, more than 0').max(1024, 'expects megabytes, at most 1024').default(10)),
  // how long a download link (GET /getfiles/{org}/{name}?token=, app/files/tokens.server.ts) works
  FILE_TOKEN_TTL_S: z.preprocess(emptyToUndefined, z.coerce.number({ invalid_type_error: 'expects seconds' }).int('expects whole seconds').min(1, 'expects seconds, at least 1').max(86_400, 'expects seconds, at most 86400').default(300)),
  // METRC (issue 9, app/metrc/connection.server.ts): the integrator's vendor key, and METRC_URL to
  // send every state to one place (the emulator, a proxy) instead of api-{state}.metrc.com
  METRC_VENDOR_KEY: z.preprocess(emptyToUndefined, z.string().min(8, 'expects the vendor API key (at least 8 characters)').max(200, 'expects the vendor API key (at most 200 characters)').optional()),
  METRC_URL: z.preprocess(emptyToUndefined, url(['https:', 'http:'], 'an http(s):// URL').optional()),
  METRC_SANDBOX: z.preprocess(emptyToUndefined, z.enum(['0', '1']).default('0')),
  // without a vendor key, the METRC emulator (app/metrc/emulator) runs in this process on this port
  // (0: any free one); METRC_EMULATOR=0 turns it off (then METRC is simply not configured)
  // unset: on with demo data, off on a real install (DEMO_DATA=0), so a real install never talks to a pretend METRC unless asked
  METRC_EMULATOR: z.preprocess(emptyToUndefined, z.enum(['0', '1']).optional()),
  // how often the Metrc tables sync: data tables every this many minutes (0: no scheduled syncs at
  // all, Sync now only), reference tables every this many hours
  METRC_SYNC_DATA_MIN: z.preprocess(emptyToUndefined, z.coerce.number({ invalid_type_error: 'expects minutes' }).int('expects whole minutes').min(0, 'expects minutes, 0 (off) or more').max(1440, 'expects minutes, at most 1440').default(5)),
  // with the in-process emulator and demo data: link the demo facilities to it at start (0: leave them unlinked)
  METRC_DEMO_LINKS: z.preprocess(emptyToUndefined, z.enum(['0', '1']).default('1')),
  // how often the METRC outbox worker looks for pushes to send (app/metrc/outbox); 0 turns it off
  METRC_PUSH_EVERY_MS: z.preprocess(emptyToUndefined, z.coerce.number({ invalid_type_error: 'expects milliseconds' }).int('expects whole milliseconds').min(0, 'expects milliseconds, 0 (off) or more').max(3_600_000, 'expects milliseconds, at most 3600000').default(2000)),
  // how often the sync schedule looks for due tables (ms); a facility's run waits for the one before it
  METRC_SYNC_CHECK_MS: z.preprocess(emptyToUndefined, z.coerce.number({ invalid_type_error: 'expects milliseconds' }).int('expects whole milliseconds').min(100, 'expects milliseconds, at least 100').max(3_600_000, 'expects milliseconds, at most 3600000').default(60_000)),
  METRC_SYNC_REFERENCE_H: z.preprocess(emptyToUndefined, z.coerce.number({ invalid_type_error: 'expects hours' }).int('expects whole hours').min(1, 'expects hours, at least 1').max(720, 'expects hours, at most 720').default(24)),
  METRC_EMULATOR_PORT: z.preprocess(emptyToUndefined, z.coerce.number({ invalid_type_error: 'expects a port number' }).int().min(0, 'expects a port number 0-65535').max(65535, 'expects a port number 0-65535').default(3500)),
})

export type Env = z.infer<typeof envSchema> & {
  SESSION_SECRET: string
  DATA_DIR: string
  /** 'env': SESSION_SECRET was given; 'file': generated once and kept in DATA_DIR (on PostgreSQL, shareSessionSecret then makes every process use one) */
  SESSION_SECRET_FROM: 'env' | 'file'
}

export class ConfigError extends Error {}

/** Validates `source` (process.env by default). Throws ConfigError listing every bad variable. */
export function parseEnv(source: Record<string, string | undefined> = process.env): z.infer<typeof envSchema> {
  const r = envSchema.safeParse(source)
  if (!r.success) {
    const lines = r.error.issues.map((i) => {
      const name = String(i.path[0])
      const got = source[name]
      return `  ${name}=${got === undefined ? '(unset)' : JSON.stringify(String(got).slice(0, 60))}: ${i.message}`
    })
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}\nSee .env.example for every variable.`)
  }
  return r.data
}

/**
 * Parses the environment and resolves what needs the data folder: the absolute DATA_DIR
 * (created if missing, checked writable) and SESSION_SECRET (generated once, kept in DATA_DIR).
 */
export function loadEnv(source: Record<string, string | undefined> = process.env): Env {
  const env = parseEnv(source)
  const dataDir = path.resolve(env.DATA_DIR)
  try {
    fs.mkdirSync(dataDir, { recursive: true })
    fs.accessSync(dataDir, fs.constants.R_OK | fs.constants.W_OK)
  } catch (e) {
    throw new ConfigError(`DATA_DIR=${JSON.stringify(env.DATA_DIR)}: expects a folder this process can read and write (${(e as Error).message})`)
  }
  let secret = env.SESSION_SECRET
  if (!secret) {
    const file = path.join(dataDir, 'session-secret')
    try {
      secret = fs.readFileSync(file, 'utf8').trim()
    } catch {
      secret = crypto.randomBytes(32).toString('base64url')
      fs.writeFileSync(file, secret + '\n', { mode: 0o600, flag: 'wx' })
    }
    if (secret.length < 32) throw new ConfigError(`${file}: expects a session secret of at least 32 characters; delete the file to generate a new one`)
  }
  return { ...env, DATA_DIR: dataDir, SESSION_SECRET: secret, SESSION_SECRET_FROM: env.SESSION_SECRET ? 'env' : 'file' }
}
