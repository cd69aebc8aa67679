/**
 * One sync of one Metrc collection for one organisation (issue 9 item 4, decision 019): read what
 * METRC has (reference tables whole; data tables whole the first time, then the lastModified
 * windows since the high water, less a minute of overlap for clocks), turn each row into a
 * document (./table-map.ts) and hand them to `Store.syncMany`, which writes only new or changed
 * documents (audited) — so a second run changes nothing. A 403 on plant endpoints at a license that
 * cannot grow plants is "nothing here". Errors are recorded on the table's sync state and thrown.
 */
import type { Database } from '../../db/index.server'
import type { MetrcClient } from '../client/client.server'
import { MetrcError } from '../client/errors'
import { markDone, markError, markStarted, syncState } from './state.server'
import { toDocument, type SyncTable } from './table-map'

export const SYNC_ACTOR = { uid: 'metrc-sync', origUid: 'metrc-sync' }
const OVERLAP_MS = 60_000

export interface SyncResult {
  collection: string
  rowsSeen: number
  inserted: number
  updated: number
  requests: number
  incremental: boolean
}

export async function syncTable(database: Database, o: { org: string; table: SyncTable; client: MetrcClient; license: string; state: string; requests: () => number; now?: () => Date }): Promise<SyncResult> {
  const { org, table, client } = o
  const now = o.now ?? (() => new Date())
  const firstRequest = o.requests()
  const prev = await syncState(database, org, table.collection)
  await markStarted(database, org, table.collection)
  const to = now()
  const from = table.kind === 'data' && prev?.highWater ? new Date(Date.parse(prev.highWater) - OVERLAP_MS) : null
  const incremental = !!from && table.sources.some((s) => s.modified)
  let rowsSeen = 0
  let inserted = 0
  let updated = 0
  const ctx = { license: o.license, state: o.state }
  try {
    for (const src of table.sources) {
      const license = src.license ? o.license : undefined
      let rows: unknown[]
      try {
        rows = src.modified && from ? await client.listModified(src.path, { license: o.license, from, to }) : await client.list(src.path, { license })
      } catch (e) {
        if (table.plants && e instanceof MetrcError && e.kind === 'forbidden') rows = []
        else throw e
      }
      if (table.pick) rows = table.pick(rows, ctx)
      rowsSeen += rows.length
      const docs = rows.map((r) => toDocument(table, r, src, ctx))
      const w = await database.store.syncMany(SYNC_ACTOR, org, table.collection, docs)
      inserted += w.inserted
      updated += w.updated
    }
    await markDone(database, org, table.collection, { highWater: table.kind === 'data' ? to : null, rowsSeen, rowsChanged: inserted + updated, requests: o.requests() - firstRequest })
    return { collection: table.collection, rowsSeen, inserted, updated, requests: o.requests() - firstRequest, incremental }
  } catch (e) {
    await markError(database, org, table.collection, (e as Error).message, { rowsSeen, rowsChanged: inserted + updated, requests: o.requests() - firstRequest })
    throw e
  }
}
