/**
 * Who runs METRC syncs (issue 9 item 4, decision 019), around `syncTable` (./run.server.ts): one
 * queue per organisation (its tables run one after another, so one organisation's sync never waits
 * for another's), at most one run per (organisation, table) in this process (asking again while one
 * is queued or running joins it; the sync row is the lock between processes), a schedule per kind
 * of table (reference daily, data every few minutes: METRC_SYNC_*_MINUTES, 0 = off), and the
 * link's health: once METRC refuses the key (the link is failing) the organisation's queued and
 * scheduled syncs stop until a key that works is saved.
 *
 * One instance per process, on globalThis: server.ts (the schedule) and the Remix build ("Sync
 * now") are two bundles, and both must see the same queues.
 */
import type { Logger } from 'pino'
import type { Env } from '../../config/env.server'
import type { Database } from '../../db/index.server'
import type { MetrcClientOptions } from '../client/client.server'
import { metrcEndpoint } from '../connection.server'
import { linkedOrgs, linkOf } from './links.server'
import { syncTable, type SyncResult } from './run.server'
import { SYNC_TABLES, type TableSource } from './tables'

export type SyncEnv = Pick<Env, 'SESSION_SECRET' | 'METRC_URL' | 'METRC_SANDBOX' | 'METRC_VENDOR_KEY' | 'METRC_SYNC_DATA_MINUTES' | 'METRC_SYNC_REFERENCE_MINUTES'>

export const DEFAULT_MINUTES = { data: 5, reference: 1440 }

/** Minutes between scheduled runs of a kind of table (0: not scheduled). */
export const intervalMinutes = (env: Pick<SyncEnv, 'METRC_SYNC_DATA_MINUTES' | 'METRC_SYNC_REFERENCE_MINUTES'>, t: Pick<TableSource, 'kind'>) => (t.kind === 'data' ? env.METRC_SYNC_DATA_MINUTES : env.METRC_SYNC_REFERENCE_MINUTES)

const skipped = (collection: string, error: string): SyncResult => ({ collection, status: 'skipped', seen: 0, changed: 0, requests: 0, error })

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

  /** Is this (org, table) queued or running in this process? */
  busy(org: string, collection: string): boolean {
    return this.pending.has(`${org}\u0000${collection}`)
  }

  /** Syncs these tables (all of them when none are named) of one organisation, in its queue. */
  async run(org: string, collections: string[] = [...SYNC_TABLES.keys()]): Promise<SyncResult[]> {
    return Promise.all(collections.map((c) => this.enqueue(org, c)))
  }

  private enqueue(org: string, collection: string): Promise<SyncResult> {
    const key = `${org}\u0000${collection}`
    const already = this.pending.get(key)
    if (already) return already
    if (!SYNC_TABLES.has(collection)) return Promise.resolve(skipped(collection, `${collection} is not synced from METRC.`))
    const prev = this.chains.get(org) ?? Promise.resolve()
    const p = prev.then(() => this.runOne(org, collection))
    const settled = p.catch(() => {}).finally(() => {
      this.pending.delete(key)
      if (this.chains.get(org) === settled) this.chains.delete(org)
    })
    this.chains.set(org, settled)
    this.pending.set(key, p)
    return p
  }

  private async runOne(org: string, collection: string): Promise<SyncResult> {
    const endpoint = metrcEndpoint(this.env)
    if (!endpoint) return skipped(collection, 'METRC is not configured on this server.')
    const link = await linkOf(this.database, org)
    if (!link) return skipped(collection, 'This facility is not linked to METRC.')
    // a key METRC refused: nothing more for this organisation until an administrator saves a new one
    if (link.status === 'failing') return skipped(collection, `METRC refuses this facility's API key (since ${link.failingSince}): ${link.lastError ?? ''}`.trim())
    return syncTable({ database: this.database, secret: this.env.SESSION_SECRET, endpoint, logger: this.o.logger ?? silent, client: this.o.client }, org, collection)
  }

  /** Tables of an organisation whose schedule has come (never synced, or the interval passed since the last run ended). */
  async due(org: string, now = Date.now()): Promise<string[]> {
    const r = await this.database.db.query<{ collection: string; finished_at: Date | string | null }>('SELECT collection, finished_at FROM metrc_sync WHERE org = $1', [org])
    const last = new Map(r.rows.map((x) => [x.collection, x.finished_at]))
    return [...SYNC_TABLES.values()]
      .filter((t) => {
        const every = intervalMinutes(this.env, t)
        if (!every) return false
        const at = last.get(t.collection)
        return !at || now - new Date(at).getTime() >= every * 60_000
      })
      .map((t) => t.collection)
  }

  /** One look at the schedule: every linked organisation whose key is not failing gets its due tables queued. */
  async tick(): Promise<void> {
    if (this.ticking) return
    this.ticking = true
    try {
      for (const org of await linkedOrgs(this.database)) {
        if ((await linkOf(this.database, org))?.status === 'failing') continue
        const due = (await this.due(org)).filter((c) => !this.busy(org, c))
        if (due.length) void this.run(org, due)
      }
    } catch (e) {
      this.o.logger?.warn({ err: (e as Error).message }, 'METRC sync schedule check failed')
    } finally {
      this.ticking = false
    }
  }

  start(): void {
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

const noop = () => {}
const silent = { info: noop, warn: noop, error: noop, debug: noop } as unknown as Logger

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
