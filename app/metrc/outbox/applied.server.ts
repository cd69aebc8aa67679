/**
 * Did METRC take an item whose answer was lost (a crash after sending, a timeout, a reset)? METRC
 * has no idempotency keys, so before sending such an item again the worker asks METRC, per
 * endpoint, for the thing the item would have made:
 *   plantings        a plant batch of that Name, modified since the item went out
 *   plant waste      a waste record carrying the item's marker in its Note
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
}

export type Applied = { applied: true; id?: number } | { applied: false } | null

const same = (a: unknown, b: unknown) => typeof a === 'string' && typeof b === 'string' && a.trim().toLowerCase() === b.trim().toLowerCase()

/** Rows of `paths` modified from a little before the item went out until now. */
async function recent(client: MetrcClient, license: string, paths: string[], item: OutboxRow): Promise<Array<Record<string, unknown>>> {
  const from = new Date(new Date(item.sent_at ?? Date.now()).getTime() - 5 * 60_000)
  const to = new Date(Date.now() + 60_000)
  const out: Array<Record<string, unknown>> = []
  for (const p of paths) out.push(...(await client.listModified<Record<string, unknown>>(p, { license, from, to })))
  return out
}

async function plant(client: MetrcClient, license: string, label: unknown): Promise<Record<string, unknown> | null> {
  try {
    return await client.get<Record<string, unknown>>(`/plants/v2/${encodeURIComponent(String(label))}`, { license })
  } catch (e) {
    if (e instanceof MetrcError && (e.kind === 'not_found' || (e.kind === 'unauthorized' && e.status === 401 && /not|outside|license/i.test(e.message)))) return null
    throw e
  }
}

async function packageByLabel(client: MetrcClient, license: string, label: unknown): Promise<Record<string, unknown> | null> {
  try {
    return await client.get<Record<string, unknown>>(`/packages/v2/${encodeURIComponent(String(label))}`, { license })
  } catch (e) {
    if (e instanceof MetrcError && (e.kind === 'not_found' || e.status === 401)) return null
    throw e
  }
}

const found = (row: Record<string, unknown> | undefined): Applied => (row ? { applied: true, ...(typeof row.Id === 'number' ? { id: row.Id } : {}) } : { applied: false })

export async function wasApplied(client: MetrcClient, license: string, item: OutboxRow): Promise<Applied> {
  const p = item.payload
  switch (item.endpoint) {
    case 'POST /plantbatches/v2/plantings':
      return found((await recent(client, license, ['/plantbatches/v2/active', '/plantbatches/v2/inactive'], item)).find((b) => same(b.Name, p.Name)))
    case 'POST /plants/v2/waste':
      return found((await recent(client, license, ['/plants/v2/waste'], item)).find((w) => typeof w.Note === 'string' && w.Note.includes(item.marker)))
    case 'POST /items/v2':
      return found((await recent(client, license, ['/items/v2/active', '/items/v2/inactive'], item)).find((i) => same(i.Name, p.Name)))
    case 'DELETE /plants/v2': {
      const pl = await plant(client, license, p.Label)
      return pl && pl.State !== 'Tracked' ? found(pl) : { applied: false }
    }
    case 'PUT /plants/v2/growthphase': {
      const pl = await plant(client, license, p.Label)
      return pl && same(pl.GrowthPhase, p.GrowthPhase) && same(pl.LocationName, p.NewLocation) ? found(pl) : { applied: false }
    }
    case 'PUT /plants/v2/harvest': {
      const pl = await plant(client, license, p.Plant)
      return pl && (pl.State === 'Harvested' || Number(pl.HarvestCount) > 0) ? found(pl) : { applied: false }
    }
    case 'POST /packages/v2':
    case 'POST /harvests/v2/packages':
      return found((await packageByLabel(client, license, p.Tag)) ?? undefined)
    case 'PUT /plants/v2/location': {
      const pl = await plant(client, license, p.Label)
      return pl && same(pl.LocationName, p.Location) ? found(pl) : { applied: false }
    }
    default:
      return item.endpoint.startsWith('PUT ') ? { applied: false } : null
  }
}
