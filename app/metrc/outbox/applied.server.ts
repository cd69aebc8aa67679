/**
 * Did METRC take an item whose answer was lost (a crash after sending, a timeout, a reset)? METRC
 * has no idempotency keys, so before sending such an item again the worker asks METRC, per
 * endpoint, with what METRC really returns for it (decision 020, issue 21):
 *   plantings        a plant batch of that Name, modified since the item went out
 *   batch → plants   a plant with the StartingTag
 *   plant waste      METRC's waste rows have no Id, no note, no LastModified: the worker counted
 *                    the rows like it (date, method, reason, weight, unit, plant count) just
 *                    before it went (`check_before`); more of them now → taken
 *   destroy          the plant is no longer tracked
 *   growth phase     the plant is in that phase at that location
 *   harvest          the plant is harvested
 *   new package      a package of that tag
 *   new item         an item of that Name, modified since the item went out
 *   other PUTs       not checked: a PUT sets values, sending it again changes nothing more
 * `null` = cannot tell (a package adjustment): a person checks METRC, then resends or discards.
 */
import type { MetrcClient } from '../client/client.server'
import { MetrcError } from '../client/errors'

export interface OutboxRow {
  org: string
  id: string
  seq: number
  endpoint: string
  payload: Record<string, unknown>
  marker: string
  label: string
  source_collection: string | null
  source_id: string | null
  status: 'held' | 'pending' | 'sent' | 'confirmed' | 'failed' | 'discarded'
  attempts: number
  sent_at: Date | string | null
  approver_role: string | null
  message: string | null
  metrc_id: number | string | null
  /** what METRC held just before the item went, where the check needs it (plant waste: `{count}`) */
  check_before?: { count?: number } | null
}

export type Applied = { applied: true; id?: number } | { applied: false } | null

const same = (a: unknown, b: unknown) => typeof a === 'string' && typeof b === 'string' && a.trim().toLowerCase() === b.trim().toLowerCase()

/** Lists read during one check pass, so the items of one lost batch share their reads. */
export type ReadMemo = Map<string, Promise<Array<Record<string, unknown>>>>

/** Rows of `paths` modified from a little before the item went out until now. */
function recent(client: MetrcClient, license: string, paths: string[], item: OutboxRow, memo: ReadMemo): Promise<Array<Record<string, unknown>>> {
  const sent = new Date(item.sent_at ?? Date.now()).getTime()
  const key = `${paths.join(' ')}@${sent}`
  if (!memo.has(key)) {
    const from = new Date(sent - 5 * 60_000)
    const to = new Date(Date.now() + 60_000)
    memo.set(key, (async () => (await Promise.all(paths.map((p) => client.listModified<Record<string, unknown>>(p, { license, from, to })))).flat())())
  }
  return memo.get(key)!
}

/** A plant or package by its tag; null when METRC does not have it (404, or 401: not this license's). */
async function byLabel(client: MetrcClient, license: string, family: 'plants' | 'packages', label: unknown): Promise<Record<string, unknown> | null> {
  try {
    return await client.get<Record<string, unknown>>(`/${family}/v2/${encodeURIComponent(String(label))}`, { license })
  } catch (e) {
    if (e instanceof MetrcError && (e.kind === 'not_found' || e.status === 401)) return null
    throw e
  }
}

/** Every row of a list METRC reads whole (no lastModified), once per pass. */
function whole(client: MetrcClient, license: string, path: string, memo: ReadMemo): Promise<Array<Record<string, unknown>>> {
  if (!memo.has(path)) memo.set(path, client.list<Record<string, unknown>>(path, { license }))
  return memo.get(path)!
}

const num = (v: unknown) => Math.round(Number(v) * 10_000) / 10_000
const low = (v: unknown) => String(v ?? '').trim().toLowerCase()
/** What METRC lists of a waste (date, method, reason, unit, weight, plant count), as one string: a row of its list… */
export const wasteKeyOfRow = (row: Record<string, unknown>) => [String(row.WasteDate ?? '').slice(0, 10), low(row.WasteMethodName), low(row.WasteReasonName), low(row.WasteUnitOfMeasureName), num(row.WasteWeight), Number(row.PlantCount ?? 0)].join('|')
/** …and a waste push */
export const wasteKeyOfPush = (p: Record<string, unknown>) => wasteKeyOfRow(wasteRowOf(p))
/** A plant waste row of METRC's list and a waste push describe the same waste (METRC gives the row no id). */
export const sameWaste = (row: Record<string, unknown>, p: Record<string, unknown>): boolean => wasteKeyOfRow(row) === wasteKeyOfPush(p)

/**
 * Before a batch goes: what each item's check will compare with, for endpoints whose rows METRC
 * cannot be found by (plant waste). `pass` holds the pass's one read of the list and what it
 * confirmed since; answers one value per item (null: nothing to keep).
 */
export async function checkBefore(client: MetrcClient, license: string, endpoint: string, payloads: Array<Record<string, unknown>>, pass: PassCounts): Promise<Array<{ count: number } | null>> {
  if (endpoint !== 'POST /plants/v2/waste') return payloads.map(() => null)
  if (!pass.waste) {
    pass.waste = new Map()
    for (const r of await client.list<Record<string, unknown>>('/plants/v2/waste', { license })) countWaste(pass.waste, wasteKeyOfRow(r))
  }
  const counts = pass.waste
  const inBatch = new Map<string, number>()
  return payloads.map((p) => {
    const key = wasteKeyOfPush(p)
    const before = (counts.get(key) ?? 0) + (inBatch.get(key) ?? 0)
    inBatch.set(key, (inBatch.get(key) ?? 0) + 1)
    return { count: before }
  })
}
/** the pass's read of METRC's waste list as counts per waste, with the wastes METRC confirmed since added */
export interface PassCounts {
  waste?: Map<string, number>
}
export const countWaste = (m: Map<string, number>, key: string) => m.set(key, (m.get(key) ?? 0) + 1)
/** a waste push as the row METRC would list for it */
export const wasteRowOf = (p: Record<string, unknown>): Record<string, unknown> => ({ WasteDate: p.WasteDate, WasteMethodName: p.WasteMethodName, WasteReasonName: p.ReasonName, WasteUnitOfMeasureName: p.UnitOfMeasureName, WasteWeight: p.WasteWeight, PlantCount: Array.isArray(p.PlantLabels) ? p.PlantLabels.length : 0 })

const found = (row: Record<string, unknown> | undefined): Applied => (row ? { applied: true, ...(typeof row.Id === 'number' ? { id: row.Id } : {}) } : { applied: false })

export async function wasApplied(client: MetrcClient, license: string, item: OutboxRow, memo: ReadMemo = new Map()): Promise<Applied> {
  const p = item.payload
  switch (item.endpoint) {
    case 'POST /plantbatches/v2/plantings':
      return found((await recent(client, license, ['/plantbatches/v2/active', '/plantbatches/v2/inactive'], item, memo)).find((b) => same(b.Name, p.Name)))
    case 'POST /plants/v2/waste': {
      const before = item.check_before?.count
      if (typeof before !== 'number') return null
      const now = (await whole(client, license, '/plants/v2/waste', memo)).filter((w) => sameWaste(w, p)).length
      return now > before ? { applied: true } : { applied: false }
    }
    case 'POST /plantbatches/v2/growthphase': {
      const pl = await byLabel(client, license, 'plants', p.StartingTag)
      return pl ? found(pl) : { applied: false }
    }
    case 'POST /items/v2':
      return found((await recent(client, license, ['/items/v2/active', '/items/v2/inactive'], item, memo)).find((i) => same(i.Name, p.Name)))
    case 'DELETE /plants/v2': {
      const pl = await byLabel(client, license, 'plants', p.Label)
      return pl && pl.State !== 'Tracked' ? found(pl) : { applied: false }
    }
    case 'PUT /plants/v2/growthphase': {
      const pl = await byLabel(client, license, 'plants', p.Label)
      return pl && same(pl.GrowthPhase, p.GrowthPhase) && same(pl.LocationName, p.NewLocation) ? found(pl) : { applied: false }
    }
    case 'PUT /plants/v2/harvest': {
      const pl = await byLabel(client, license, 'plants', p.Plant)
      return pl && (pl.State === 'Harvested' || Number(pl.HarvestCount) > 0) ? found(pl) : { applied: false }
    }
    case 'POST /packages/v2':
    case 'POST /harvests/v2/packages':
      return found((await byLabel(client, license, 'packages', p.Tag)) ?? undefined)
    case 'PUT /plants/v2/location': {
      const pl = await byLabel(client, license, 'plants', p.Label)
      return pl && same(pl.LocationName, p.Location) ? found(pl) : { applied: false }
    }
    // a shipped order (areas/distribution/metrc.server.ts): its template by the manifest number it is named after, its receipt by the invoice number
    case 'POST /transfers/v2/templates/outgoing':
      return found((await recent(client, license, ['/transfers/v2/templates/outgoing'], item, memo)).find((t) => same(t.Name, p.Name)))
    case 'POST /sales/v2/receipts':
      if (typeof p.ExternalReceiptNumber !== 'string' || !p.ExternalReceiptNumber) return null
      return found((await recent(client, license, ['/sales/v2/receipts/active'], item, memo)).find((r) => same(r.ExternalReceiptNumber, p.ExternalReceiptNumber)))
    default:
      return item.endpoint.startsWith('PUT ') ? { applied: false } : null
  }
}
