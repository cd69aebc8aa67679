/**
 * The cultivation chain for the trace page (issue 23 item 3): mother → batch → plants → harvest →
 * packages → packages made from them (split, lab sample) → orders. Links as stored:
 * fac_plantings.mother, fac_plants.planting and .harvest, metrc_packages.SourceHarvestNames
 * (harvest names, comma-separated), metrc_packages.SourcePackageLabels (package tags,
 * comma-separated; read as text so a record without it simply has no source packages) and an
 * order's lines and picked packages (dis_orders items[].tag, packages[].tag).
 *
 * Every read is one query for a whole level (`= ANY($2)`), always `WHERE org = $1`; plants, the
 * one level that runs to hundreds, are counted and the first `limit` read.
 */
import type { Doc } from '../../db/types'
import { tableOf } from '../../db/sql'
import { registerTrace, type TraceContext, type TraceGraph, type TraceGroup, type TraceNode, type TraceProvider } from '../../records/trace.server'

type Row = { id: string; doc: Record<string, unknown> }
const docOf = (r: Row): Doc => ({ ...r.doc, _id: r.id }) as Doc

/** Most levels of packages made from packages followed (a split of a split of …). */
const MAX_DEPTH = 10

const str = (v: unknown) => (v === undefined || v === null ? '' : String(v))
const uniq = (xs: string[]) => [...new Set(xs.filter(Boolean))]
const namesIn = (v: unknown) => uniq(str(v).split(',').map((x) => x.trim()))
const measure = (v: unknown) => (v && typeof v === 'object' && 'qty' in v ? `${str((v as { qty: unknown }).qty)} ${str((v as { unit?: unknown }).unit)}`.trim() : '')

/** Reads of one organisation's cultivation records, each one query. */
class Reader {
  private tables = new Map<string, boolean>()
  constructor(private c: TraceContext) {}

  private async has(collection: string): Promise<boolean> {
    if (!this.tables.has(collection)) {
      const r = await this.c.db.query<{ t: string | null }>(`SELECT to_regclass($1)::text AS t`, [tableOf(collection)])
      this.tables.set(collection, !!r.rows[0]?.t)
    }
    return this.tables.get(collection)!
  }

  /** Rows of `collection` matching `where` ($1 is the org, $2 the values), in a stable order. */
  async rows(collection: string, where: string, values: string[], limit = 5000, order = "cts, coalesce(doc->>'Label', doc->>'tag', doc->>'name', doc->>'orderNo'), id"): Promise<Doc[]> {
    if (!values.length || !(await this.has(collection))) return []
    const r = await this.c.db.query<Row>(`SELECT id, doc FROM ${tableOf(collection)} WHERE org = $1 AND (${where}) ORDER BY ${order} LIMIT ${Math.floor(limit)}`, [this.c.org, values])
    return r.rows.map(docOf)
  }

  async count(collection: string, where: string, values: string[]): Promise<number> {
    if (!values.length || !(await this.has(collection))) return 0
    const r = await this.c.db.query<{ n: string }>(`SELECT count(*) AS n FROM ${tableOf(collection)} WHERE org = $1 AND (${where})`, [this.c.org, values])
    return Number(r.rows[0]?.n ?? 0)
  }

  /** The distinct values of a field among the rows matching `where`. */
  async distinct(collection: string, field: string, where: string, values: string[]): Promise<string[]> {
    if (!values.length || !(await this.has(collection))) return []
    const r = await this.c.db.query<{ v: string }>(`SELECT DISTINCT doc->>'${field}' AS v FROM ${tableOf(collection)} WHERE org = $1 AND (${where}) AND coalesce(doc->>'${field}', '') <> ''`, [this.c.org, values])
    return r.rows.map((x) => x.v)
  }

  byIds = (collection: string, ids: string[]) => this.rows(collection, 'id = ANY($2::text[])', uniq(ids))
  byField = (collection: string, field: string, values: string[]) => this.rows(collection, `doc->>'${field}' = ANY($2::text[])`, uniq(values))
  /** packages whose comma-separated `field` names one of `values` */
  packagesNaming = (field: 'SourceHarvestNames' | 'SourcePackageLabels', values: string[]) =>
    this.rows('metrc_packages', `EXISTS (SELECT 1 FROM unnest(string_to_array(coalesce(doc->>'${field}', ''), ',')) AS s(n) WHERE btrim(s.n) = ANY($2::text[]))`, uniq(values))
  /** orders with a line or a picked package of one of these tags */
  orders = (tags: string[]) =>
    this.rows(
      'dis_orders',
      `EXISTS (SELECT 1 FROM jsonb_array_elements(CASE WHEN jsonb_typeof(doc->'items') = 'array' THEN doc->'items' ELSE '[]'::jsonb END || CASE WHEN jsonb_typeof(doc->'packages') = 'array' THEN doc->'packages' ELSE '[]'::jsonb END) AS p(x) WHERE p.x->>'tag' = ANY($2::text[]))`,
      uniq(tags),
    )

  /** plants whose `field` (planting, harvest) is one of `ids`: how many, and the first `limit` */
  async plants(field: 'planting' | 'harvest', ids: string[]): Promise<{ total: number; rows: Doc[] }> {
    const where = `doc->>'${field}' = ANY($2::text[])`
    const rows = await this.rows('fac_plants', where, uniq(ids), this.c.limit, `doc->>'tag', id`)
    return { total: rows.length < this.c.limit ? rows.length : await this.count('fac_plants', where, uniq(ids)), rows }
  }
}

/** A group before its records are put in words. */
interface Level {
  label: string
  collection: string
  docs: Doc[]
  total?: number
  more?: string
}

const level = (label: string, collection: string, docs: Doc[], extra: Partial<Level> = {}): Level[] => (docs.length || extra.total ? [{ label, collection, docs, ...extra }] : [])

/** Packages made from these, and from those, …: each level one query. */
async function madeFrom(r: Reader, start: Doc[]): Promise<Doc[]> {
  const seen = new Set(start.map((p) => p._id))
  const out: Doc[] = []
  let labels = start.map((p) => str(p.Label))
  for (let d = 0; d < MAX_DEPTH && labels.length; d++) {
    const next = (await r.packagesNaming('SourcePackageLabels', labels)).filter((p) => !seen.has(p._id))
    for (const p of next) seen.add(p._id)
    out.push(...next)
    labels = next.map((p) => str(p.Label))
  }
  return out
}

/** The packages these came from, and theirs, …: each level one query. */
async function sourcesOf(r: Reader, start: Doc[]): Promise<Doc[]> {
  const seen = new Set(start.map((p) => p._id))
  const out: Doc[] = []
  let labels = start.flatMap((p) => namesIn(p.SourcePackageLabels))
  for (let d = 0; d < MAX_DEPTH && labels.length; d++) {
    const next = (await r.byField('metrc_packages', 'Label', labels)).filter((p) => !seen.has(p._id))
    for (const p of next) seen.add(p._id)
    out.push(...next)
    labels = next.flatMap((p) => namesIn(p.SourcePackageLabels))
  }
  return out
}

/** Downstream of harvests: their packages, the packages made from those, the orders. */
async function belowHarvests(r: Reader, harvests: Doc[]): Promise<Level[]> {
  const names = uniq(harvests.map((h) => str(h.name)))
  const packages = await r.packagesNaming('SourceHarvestNames', names)
  const derived = await madeFrom(r, packages)
  const orders = await r.orders([...packages, ...derived].map((p) => str(p.Label)))
  return [
    ...level('Harvests', 'fac_harvests', harvests),
    ...level('Packages', 'metrc_packages', packages, names.length === 1 ? { more: `/MetrcPackages?col=SourceHarvestNames&q=${encodeURIComponent(names[0])}` } : {}),
    ...level('Packages made from them', 'metrc_packages', derived),
    ...level('Orders', 'dis_orders', orders),
  ]
}

/** Downstream of batches: their plants, the harvests those went into, and below. */
async function belowBatches(r: Reader, batches: Doc[]): Promise<Level[]> {
  const ids = batches.map((b) => b._id)
  const plants = await r.plants('planting', ids)
  const harvests = await r.byIds('fac_harvests', await r.distinct('fac_plants', 'harvest', `doc->>'planting' = ANY($2::text[])`, ids))
  return [...level('Plants', 'fac_plants', plants.rows, { total: plants.total, ...(ids.length === 1 ? { more: `/culPlants?eq=${encodeURIComponent(`planting:${ids[0]}`)}` } : {}) }), ...(await belowHarvests(r, harvests))]
}

/** Upstream of harvests: the plants cut into them, their batches and mothers. */
async function aboveHarvests(r: Reader, harvests: Doc[]): Promise<Level[]> {
  const ids = harvests.map((h) => h._id)
  const plants = await r.plants('harvest', ids)
  const batches = await r.byIds('fac_plantings', await r.distinct('fac_plants', 'planting', `doc->>'harvest' = ANY($2::text[])`, ids))
  return [...level('Plants', 'fac_plants', plants.rows, { total: plants.total, ...(ids.length === 1 ? { more: `/culPlants?eq=${encodeURIComponent(`harvest:${ids[0]}`)}` } : {}) }), ...(await aboveBatches(r, batches))]
}

async function aboveBatches(r: Reader, batches: Doc[]): Promise<Level[]> {
  const mothers = await r.byIds('fac_moms', batches.map((b) => str(b.mother)))
  return [...level('Batches', 'fac_plantings', batches), ...level('Mothers', 'fac_moms', mothers)]
}

const KIND: Record<string, string> = { fac_moms: 'Mother', fac_plantings: 'Batch', fac_plants: 'Plant', fac_harvests: 'Harvest', metrc_packages: 'Package', dis_orders: 'Order' }

/** A record in a person's words; rooms by name. */
function nodeOf(collection: string, d: Doc, room: (id: unknown) => string): TraceNode {
  const base = { collection, id: d._id, kind: KIND[collection] ?? collection }
  const facts = (...xs: unknown[]) => xs.map(str).filter(Boolean)
  switch (collection) {
    case 'fac_moms':
      return { ...base, title: str(d.name), facts: facts(d.tag && `tag ${str(d.tag)}`, room(d.room), d.active === 'no' ? 'inactive' : '') }
    case 'fac_plantings':
      return { ...base, title: str(d.name), facts: facts(room(d.room), d.phase, d.type, d.orig !== undefined && `${str(d.count)} of ${str(d.orig)} untagged`) }
    case 'fac_plants':
      return { ...base, title: str(d.tag), facts: facts(room(d.room), d.phase, d.alive === 'no' ? 'dead' : '', measure(d.wetWeight) && `${measure(d.wetWeight)} wet`) }
    case 'fac_harvests':
      return { ...base, title: str(d.name), facts: facts(d.status, room(d.dryRoom), d.plants !== undefined && `${str(d.plants)} plants`, measure(d.wetWeight) && `${measure(d.wetWeight)} wet`, measure(d.dryWeight) && `${measure(d.dryWeight)} dry`) }
    case 'metrc_packages':
      return { ...base, title: str(d.Label), facts: facts(d.ItemName, d.Quantity !== undefined && `${str(d.Quantity)} ${str(d.UnitOfMeasureName)}`.trim(), d.LocationName, d.LabTestingState, d.IsOnHold === 'yes' || d.IsOnHold === true ? 'on hold' : '') }
    case 'dis_orders':
      return { ...base, title: str(d.orderNo), facts: facts(d.status, str(d.orderDate).slice(0, 10)), href: `/DisSales/${encodeURIComponent(d._id)}` }
    default:
      return { ...base, title: d._id, facts: [] }
  }
}

/** The trace of a record of `collection`, levels read as above; rooms named in one query at the end. */
function provider(collection: string, walk: (r: Reader, self: Doc) => Promise<{ from: Level[]; to: Level[] }>): TraceProvider {
  return {
    async trace(c: TraceContext, id: string): Promise<TraceGraph | null> {
      const r = new Reader(c)
      const [self] = await r.byIds(collection, [id])
      if (!self) return null
      const { from, to } = await walk(r, self)
      const all = [{ collection, docs: [self] }, ...from, ...to]
      const roomIds = uniq(all.flatMap((l) => l.docs.flatMap((d) => [str(d.room), str(d.dryRoom)])))
      const rooms = new Map((await r.byIds('set_rooms', roomIds)).map((x) => [x._id, str(x.name)]))
      const room = (v: unknown) => rooms.get(str(v)) ?? ''
      const group = (l: Level): TraceGroup => ({ label: l.label, total: l.total ?? l.docs.length, nodes: l.docs.slice(0, c.limit).map((d) => nodeOf(l.collection, d, room)), ...(l.more && (l.total ?? l.docs.length) > c.limit ? { more: l.more } : {}) })
      return { self: nodeOf(collection, self, room), from: from.map(group), to: to.map(group) }
    },
  }
}

export const cultivationTraces: Record<string, TraceProvider> = {
  fac_moms: provider('fac_moms', async (r, m) => {
    const batches = await r.byField('fac_plantings', 'mother', [m._id])
    return { from: [], to: [...level('Batches', 'fac_plantings', batches), ...(await belowBatches(r, batches))] }
  }),
  fac_plantings: provider('fac_plantings', async (r, b) => ({ from: level('Mothers', 'fac_moms', await r.byIds('fac_moms', [str(b.mother)])), to: await belowBatches(r, [b]) })),
  fac_plants: provider('fac_plants', async (r, p) => ({
    from: await aboveBatches(r, await r.byIds('fac_plantings', [str(p.planting)])),
    to: await belowHarvests(r, await r.byIds('fac_harvests', [str(p.harvest)])),
  })),
  fac_harvests: provider('fac_harvests', async (r, h) => ({ from: await aboveHarvests(r, [h]), to: (await belowHarvests(r, [h])).filter((l) => l.collection !== 'fac_harvests') })),
  metrc_packages: provider('metrc_packages', async (r, p) => {
    const sources = await sourcesOf(r, [p])
    const harvests = await r.byField('fac_harvests', 'name', [p, ...sources].flatMap((x) => namesIn(x.SourceHarvestNames)))
    const derived = await madeFrom(r, [p])
    const orders = await r.orders([p, ...derived].map((x) => str(x.Label)))
    return {
      from: [...level('Source packages', 'metrc_packages', sources), ...level('Harvests', 'fac_harvests', harvests), ...(await aboveHarvests(r, harvests))],
      to: [...level('Packages made from it', 'metrc_packages', derived), ...level('Orders', 'dis_orders', orders)],
    }
  }),
}

/** Registered from the area's install(). */
export function registerCultivationTraces(): void {
  for (const [collection, p] of Object.entries(cultivationTraces)) registerTrace(collection, p)
}
