/**
 * Canopy's one process, started by server.ts from inside the Remix server build (so every app
 * module exists once in the process: decision 022): configuration first, then the database
 * (migrated, demo data on first start), METRC, the bus, then HTTP. SIGTERM/SIGINT stop accepting,
 * drain open requests and close the database.
 */
import path from 'node:path'
import type { ServerBuild } from '@remix-run/node'
import { broadcastDevReady } from '@remix-run/node'
import { ConfigError, loadEnv, type Env } from './config/env.server'
import { openDatabase, pgliteDir, type Database } from './db/index.server'
import { LOCK_SEED } from './db/migrate.server'
import { shareSessionSecret } from './db/shared-secret.server'
import { sweepTemp } from './files/store.server'
import { answerBackupRequests } from './db/backup.server'
import { APP_VERSION } from './version'
import { seedDemo } from './seed/index.server'
import { EventHub } from './events/event-hub.server'
import { startBus, type RunningBus } from './bus/index.server'
import { notificationHandler } from './bus/notifications.server'
import { demoDevicesOn, startDemoDevices } from './devices/simulator/index.server'
import type { Simulator } from './devices/simulator/run'
import { startInProcessEmulator } from './metrc/emulator/in-process.server'
import { registerMetrcEndpoint } from './metrc/connection.server'
import { startSyncScheduler } from './metrc/sync/scheduler.server'
import { startOutboxWorker } from './metrc/outbox/scheduler.server'
import { linkDemoFacilities } from './metrc/sync/demo-links.server'
import { ReadingIngest } from './sensors/ingest.server'
import { compactReadings } from './sensors/store.server'
import { createHttpApp } from './server/http.server'
import { startPgRelay } from './events/pg-relay.server'
import { createLogger } from './utils/logger.server'
import { installServerAreas, startAreaJobs } from './areas/index.server'

const SHUTDOWN_GRACE_MS = 10_000

export interface StartOptions {
  /** the Remix server build this module is part of (server.ts imported it) */
  build: ServerBuild
  /** the folder that holds build/ and public/ */
  top: string
}

function fail(message: string): never {
  process.stderr.write(`canopy: ${message}\n`)
  process.exit(1)
}

export async function startCanopy({ build, top }: StartOptions): Promise<void> {
  let env: Env
  try {
    env = loadEnv()
  } catch (e) {
    fail(e instanceof ConfigError ? e.message : `could not read configuration: ${(e as Error).message}`)
  }
  const logger = createLogger(env.LOG_LEVEL, env.NODE_ENV === 'development')
  // every business area plugs its rules, METRC planners, seed data and jobs into the engine (decision 022)
  installServerAreas()

  let database: Database
  try {
    database = await openDatabase({
      databaseUrl: env.DATABASE_URL,
      dataDir: env.DATABASE_URL ? undefined : pgliteDir(env.DATA_DIR),
      statementTimeoutMs: env.DB_STATEMENT_TIMEOUT_MS,
      poolMax: env.DB_POOL_MAX,
    })
    // several processes on one PostgreSQL use one session secret (issue 30)
    env = await shareSessionSecret(database.db, env)
  } catch (e) {
    fail(`the database could not be opened: ${(e as Error).message}`)
  }
  logger.info({ database: database.db.kind, dataDir: env.DATA_DIR }, 'database ready')
  // uploads cut off by a crash or a dropped connection leave temp files behind: clear the old ones
  const swept = sweepTemp(env.DATA_DIR)
  if (swept) logger.info({ files: swept }, 'removed unfinished uploads')

  // Always: core schemas, modules, the lobby and the first super user; demo records when DEMO_DATA=1.
  try {
    // processes starting together on an empty database: one seeds, the others wait and find it done
    const r = await database.db.withAdvisoryLock(LOCK_SEED, () => seedDemo(database, env, { logger }))
    if (r.seeded) logger.info({ ms: r.ms, documents: r.documents }, 'demo data seeded')
  } catch (e) {
    await database.close().catch(() => {})
    fail(`preparing the platform data failed: ${(e as Error).message}`)
  }

  // METRC: the real one (METRC_VENDOR_KEY) or the emulator that ships with Canopy (issue 9)
  let metrc: Awaited<ReturnType<typeof startInProcessEmulator>> = null
  try {
    metrc = await startInProcessEmulator(env, logger)
  } catch (e) {
    logger.warn({ err: (e as Error).message }, 'the METRC emulator could not start; METRC calls will fail until METRC_VENDOR_KEY is set')
  }

  if (metrc) await linkDemoFacilities(database, env, logger).catch((e: Error) => logger.warn({ err: e.message }, 'linking the demo facilities to the METRC emulator failed'))

  // the Metrc tables of every linked facility, on their schedule (METRC_SYNC_DATA_MIN=0: Sync now only)
  const syncs = env.METRC_SYNC_DATA_MIN > 0 ? startSyncScheduler({ env, database, logger }) : null
  // queued METRC pushes (the outbox), sent in order per facility (METRC_PUSH_EVERY_MS=0: never)
  const pushes = env.METRC_PUSH_EVERY_MS > 0 ? startOutboxWorker({ env, database, logger }) : null

  const dev = env.NODE_ENV === 'development'

  // committed writes reach pages through the bus ({org}/dtupdates), so every instance's writes do
  const events = new EventHub()
  // sensor readings from the bus → the time series (app/sensors); raw rows past SENSOR_RAW_DAYS go hourly
  const readings = new ReadingIngest({ database, events, logger })
  const compact = () =>
    compactReadings(database.db, env.SENSOR_RAW_DAYS)
      .then((n) => n && logger.info({ readings: n }, 'old raw sensor readings dropped (hourly rollups kept)'))
      .catch((e) => logger.warn({ err: (e as Error).message }, 'sensor compaction failed'))
  const compactTimer = setInterval(compact, env.SENSOR_COMPACT_EVERY_MIN * 60_000)
  compactTimer.unref()
  let running: RunningBus
  try {
    running = await startBus({ env, database, events, logger, handlers: { onReconnect: () => events.broadcast('resync', {}), reading: readings.handle, notification: notificationHandler({ database, events, logger }) } })
  } catch (e) {
    await database.close().catch(() => {})
    fail(`the message bus could not start: ${(e as Error).message}`)
  }
  // every open page's footer shows whether devices can reach the server (issue 28)
  running.bus.on('state', (state: string) => events.broadcast('bus', { state }))
  // an embedded broker is this process's alone: on PostgreSQL, committed changes cross to the other processes by NOTIFY (decision 066)
  const relay =
    env.DATABASE_URL && !env.MQTT_URL
      ? await startPgRelay({ url: env.DATABASE_URL, database, events, logger }).catch((e: Error) => {
          logger.warn({ err: e.message }, 'committed changes are not shared with other processes on this database')
          return null
        })
      : null
  const app = createHttpApp({ env, database, logger, events, bus: running.bus, readings, build, publicDir: path.join(top, 'public') })
  const server = app.listen(env.PORT, env.HOST, () => {
    const a = server.address()
    const port = typeof a === 'object' && a ? a.port : env.PORT
    logger.info({ port }, `Canopy listening on http://${env.HOST === '0.0.0.0' ? 'localhost' : env.HOST}:${port}`)
    // `remix dev` restarts this process after each rebuild and waits for this signal
    if (dev) void broadcastDevReady(build)
    // the demo's simulated devices (issue 8): scales, RFID readers, sensors, label printers
    const mqttUrl = running.broker?.url ?? env.MQTT_URL
    if (demoDevicesOn(env) && mqttUrl) {
      const host = env.HOST === '0.0.0.0' || env.HOST === '::' ? '127.0.0.1' : env.HOST
      startDemoDevices({ env, database, mqttUrl, serverUrl: `http://${host}:${port}`, logger })
        .then((s) => (devices = s))
        .catch((e) => logger.warn({ err: (e as Error).message }, 'the demo devices could not start'))
    }
  })
  server.keepAliveTimeout = 65_000
  // the business areas' jobs (decision 022)
  const stopAreaJobs = startAreaJobs({ env, database, logger, events })
  let devices: Simulator | null = null

  let stopping = false
  const shutdown = (signal: string) => {
    if (stopping) return
    stopping = true
    logger.info({ signal }, 'shutting down: no new connections, draining requests')
    const force = setTimeout(() => {
      logger.warn('drain took too long, closing remaining connections')
      server.closeAllConnections()
    }, SHUTDOWN_GRACE_MS)
    force.unref()
    events.closeAll() // open event streams would hold the drain
    server.close(async () => {
      clearTimeout(force)
      await devices?.close().catch(() => {})
      await stopAreaJobs()
      clearInterval(compactTimer)
      await readings.close().catch(() => {})
      await running.close().catch((e) => logger.error({ err: e }, 'closing the message bus failed'))
      await relay?.close().catch(() => {})
      syncs?.stop()
      pushes?.stop()
      await pushes?.idle().catch(() => {})
      registerMetrcEndpoint(null)
      await metrc?.close().catch(() => {})
      await database.close().catch((e) => logger.error({ err: e }, 'closing the database failed'))
      logger.info('stopped')
      process.exit(0)
    })
    server.closeIdleConnections()
  }
  // `npm run backup` on the embedded database asks this process, which holds its folder (ops/backup.md)
  answerBackupRequests({ dataDir: env.DATA_DIR, db: database.db, app: APP_VERSION, log: (level, msg, extra) => logger[level](extra ?? {}, msg) })
  process.on('SIGTERM', () => shutdown('SIGTERM'))
  process.on('SIGINT', () => shutdown('SIGINT'))
}
