/**
 * Committed changes across processes on one PostgreSQL (issue 30 item 4, decision 066). With the
 * embedded broker each process has a bus of its own, so a write through one never reached the pages
 * another serves. Here each process announces its committed changes with NOTIFY on a channel named
 * for its database schema, and LISTENs on it: a change another process made is relayed to this
 * process's event streams as a `table` event (the collection only, as the bus carries it). Its own
 * notifications it skips (they went out through its own bus already). When the listening connection
 * drops, it reconnects with a growing pause and tells every page to refresh (`resync`): what was
 * announced meanwhile is lost. With an external broker (MQTT_URL) every process shares the bus and
 * this is not started; PGlite serves one process and has no use for it.
 */
import crypto from 'node:crypto'
import pg from 'pg'
import type { Logger } from 'pino'
import type { Database } from '../db/index.server'
import type { ChangeEvent } from '../db/types'
import type { EventHub } from './event-hub.server'

const COLLECTION_RE = /^[a-z][a-z0-9_]{0,62}$/
const MAX_PAUSE_MS = 30_000

/** The channel of one database schema: every process on that schema (and only those) hears it. */
export const channelOf = (schema: string) => `canopy_changes_${schema.toLowerCase().replace(/[^a-z0-9_]/g, '_')}`.slice(0, 63)

export interface PgRelay {
  /** this process's id in the notifications it sends */
  origin: string
  channel: string
  close: () => Promise<void>
}

export async function startPgRelay(o: { url: string; database: Database; events: EventHub; logger: Logger }): Promise<PgRelay> {
  const log = o.logger.child({ component: 'pg-relay' })
  const origin = crypto.randomUUID()
  const schema = (await o.database.db.query<{ s: string }>('SELECT current_schema() AS s')).rows[0]?.s ?? 'public'
  const channel = channelOf(schema)
  let closed = false
  let client: pg.Client | null = null
  let pause = 500
  let timer: NodeJS.Timeout | null = null

  const onNotice = (n: pg.Notification) => {
    if (n.channel !== channel || !n.payload) return
    let m: { o?: unknown; org?: unknown; c?: unknown }
    try {
      m = JSON.parse(n.payload) as typeof m
    } catch {
      return
    }
    if (m.o === origin || typeof m.org !== 'string' || typeof m.c !== 'string' || !COLLECTION_RE.test(m.c)) return
    o.events.publish(m.org, 'table', { collection: m.c })
  }

  const listen = async (again: boolean) => {
    const c = new pg.Client({ connectionString: o.url, application_name: 'canopy-relay' })
    c.on('notification', onNotice)
    c.on('error', (e) => log.warn({ err: e.message }, 'the change relay lost its connection'))
    c.on('end', () => {
      if (client === c) client = null
      if (!closed) retry()
    })
    try {
      await c.connect()
      await c.query(`LISTEN "${channel}"`)
    } catch (e) {
      log.warn({ err: (e as Error).message }, 'the change relay could not listen; retrying')
      await c.end().catch(() => {})
      return
    }
    if (closed) return void (await c.end().catch(() => {}))
    client = c
    pause = 500
    // changes announced while this process was not listening are lost: every page refreshes
    if (again) o.events.broadcast('resync', {})
  }
  const retry = () => {
    if (closed || timer) return
    timer = setTimeout(() => {
      timer = null
      void listen(true)
    }, pause)
    timer.unref()
    pause = Math.min(pause * 2, MAX_PAUSE_MS)
  }

  const onChange = (e: ChangeEvent) => {
    o.database.db.query('SELECT pg_notify($1, $2)', [channel, JSON.stringify({ o: origin, org: e.org, c: e.collection })]).catch((err: Error) => log.warn({ err: err.message }, 'a change could not be announced to the other processes'))
  }
  o.database.store.events.on('change', onChange)
  await listen(false)
  if (!client) retry()
  log.info({ channel }, 'committed changes are shared with the other processes on this database')

  return {
    origin,
    channel,
    close: async () => {
      closed = true
      o.database.store.events.off('change', onChange)
      if (timer) clearTimeout(timer)
      const c = client
      client = null
      await c?.end().catch(() => {})
    },
  }
}
