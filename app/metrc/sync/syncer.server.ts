/**
 * Who runs METRC syncs (issue 9 item 4, decision 019): one queue per organisation (its tables run
 * one after another, so one organisation's sync never waits for another's), at most one run per
 * (organisation, table) at a time (asking again while one is queued or running joins it), a
 * schedule per kind of table (reference daily, data every few minutes; METRC_SYNC_*_MINUTES), and
 * the link's health: a 401 marks the link failing and the organisation's remaining and scheduled
 * syncs stop until a key that works is saved (app/metrc/link.server.ts).
 *
 * One instance per process, on globalThis: server.ts (the schedule) and the Remix build ("Sync
 * now") are two bundles, and both must see the same queues and the same GET throttle.
 */
import type { Logger } from 'pino'
import type { Env } from '../../config/env.server'
import type { Database } from '../../db/index.server'
import type { MetrcClientOptions } from '../client/client.server'
import { MetrcError } from '../client/errors'
import { linkClient, linkedOrgs, markFailing, markOk } from '../link.server'
import { syncTable, type SyncResult } from './run.server'
import { clearStaleRuns, syncStates } from './state.server'
import { SYNC_TABLE, SYNC_TABLES, type SyncTable } from './table-map'

export type SyncEnv = Pick<Env, 'SESSION_SECRET' | 'METRC_URL' | 'METRC_SANDBOX' | 'METRC_VENDOR_KEY' | 'METRC_SYNC_DATA_MINUTES' | 'METRC_SYNC_REFERENCE_MINUTES'>

export interface OrgRun {
  results: SyncResult[]
  errors: Array<{ collection: string; message: string; kind?: string }>
}

export const DEFAULT_MINUTES = { data: 5, reference: 1440 }

/** Minutes between scheduled runs of a kind of table (0: not scheduled). */
export const intervalMinutes = (env: Pick<SyncEnv, 'METRC_SYNC_DATA_MINUTES' | 'METRC_SYNC_REFERENCE_MINUTES'>, t: SyncTable) => (t.kind === 'data' ? env.METRC_SYNC_DATA_MINUTES : env.METRC_SYNC_REFERENCE_MINUTES)

export class MetrcSyncer {
  private readonly chains = new Map<string, Promise<unknown>>()
  private readonly pending = new Map<string, Promise<SyncResult>>()
  private timer: NodeJS.Timeout | null = null
  private ticking = false

  constructor(
    readonly database: Database,
    readonly env: SyncEnv,
    readonly o: { logger?: Logger; client?: Partial<MetrcClientOptions>; tickMs?: number } = {},
  ) {}

  /** Is this (org, table) queued or running now? */
  busy(org: string, collection: string): boolean {
    return this.pending.has(`${org}\u0000${collection}`)
  }

  /** Syncs these tables (all of them when none are named) of one organisation, in its queue. */
  async run(org: string, collections: string[] = SYNC_TABLES.map((t) => t.collection)): Promise<OrgRun> {
    const runs = collections.map((c) => ({ collection: c, p: this.enqueue(org, c) }))
    const out: OrgRun = { results: [], errors: [] }
    for (const r of runs) {
      try {
        out.results.push(await r.p)
      } catch (e) {
        out.errors.push({ collection: r.collection, message: (e as Error).message, kind: e instanceof MetrcError ? e.kind : undefined })
      }
    }
    return out
  }

  private enqueue(org: string, collection: string): Promise<SyncResult> {
    const key = `${org}\u0000${collection}`
    const already = this.pending.get(key)
    if (already) return already
    const table = SYNC_TABLE.get(collection)
    if (!table) return Promise.reject(new Error(`${collection} is not synced from METRC`))
    const prev = this.chains.get(org) ?? Promise.resolve()
    const p = prev.then(() => this.runOne(org, table))
    const settled = p.catch(() => {}).finally(() => {
      this.pending.delete(key)
      if (this.chains.get(org) === settled) this.chains.delete(org)
    })
    this.chains.set(org, settled)
    this.pending.set(key, p)
    return p
  }

  private async runOne(org: string, table: SyncTable): Promise<SyncResult> {
    let requests = 0
    const onRequest = this.o.client?.onRequest
    const linked = await linkClient(this.database, this.env, org, { logger: this.o.logger, ...this.o.client, onRequest: (r) => (requests++, onRequest?.(r)) })
    if (!linked) throw new Error('This facility is not linked to METRC (or METRC is not configured on this server).')
    if (linked.link.status === 'failing') throw new MetrcError('unauthorized', `METRC refuses this facility's API key (since ${linked.link.failingSince}); an administrator must enter a new one.`, 401)
    try {
      const r = await syncTable(this.database, { org, table, client: linked.client, license: linked.link.license, state: linked.link.state, requests: () => requests })
      if (linked.link.status !== 'ok') await markOk(this.database, org)
      return r
    } catch (e) {
      if (e instanceof MetrcError && e.kind === 'unauthorized') {
        await markFailing(this.database, org, e.message)
        this.o.logger?.warn({ org, collection: table.collection, err: e.message }, 'METRC refused the key: the link is failing, syncs stop until it is fixed')
      } else this.o.logger?.warn({ org, collection: table.collection, err: (e as Error).message }, 'METRC sync failed')
      throw e
    }
  }

  /** Tables of an organisation whose schedule has come (never synced, or the interval passed since the last run). */
  async due(org: string, now = Date.now()): Promise<string[]> {
    const states = await syncStates(this.database, org)
    return SYNC_TABLES.filter((t) => {
      const every = intervalMinutes(this.env, t)
      if (!every) return false
      const last = states.get(t.collection)?.finishedAt
      return !last || now - Date.parse(last) >= every * 60_000
    }).map((t) => t.collection)
  }

  /** One look at the schedule: every linked organisation whose key is not failing gets its due tables queued. */
  async tick(): Promise<void> {
    if (this.ticking) return
    this.ticking = true
    try {
      for (const { org, status } of await linkedOrgs(this.database)) {
        if (status === 'failing') continue
        const due = (await this.due(org)).filter((c) => !this.busy(org, c))
        if (due.length) void this.run(org, due)
      }
    } catch (e) {
      this.o.logger?.warn({ err: (e as Error).message }, 'METRC sync schedule check failed')
    } finally {
      this.ticking = false
    }
  }

  async start(): Promise<void> {
    await clearStaleRuns(this.database)
    if (!this.env.METRC_SYNC_DATA_MINUTES && !this.env.METRC_SYNC_REFERENCE_MINUTES) return
    this.timer = setInterval(() => void this.tick(), this.o.tickMs ?? 30_000)
    this.timer.unref()
  }

  /** Stops the schedule and waits for the runs under way. */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer)
    this.timer = null
    await Promise.allSettled([...this.chains.values()])
  }
}

const SLOT = Symbol.for('canopy.metrc.syncer')
const slot = globalThis as { [SLOT]?: MetrcSyncer | null }

export function registerSyncer(s: MetrcSyncer | null) {
  slot[SLOT] = s
}

/** The process's syncer (made on first use when server.ts did not register one: tests, scripts). */
export function metrcSyncer(database: Database, env: SyncEnv): MetrcSyncer {
  const s = slot[SLOT]
  if (s && s.database === database) return s
  const made = new MetrcSyncer(database, env)
  slot[SLOT] = made
  return made
}
