/**
 * Traceability (issue 23 item 3): where a record came from and where it went — a plant's batch and
 * mother, its harvest, the packages made from that and the orders they went out on. The engine
 * knows nothing of that chain: an area registers a provider per collection with `registerTrace`
 * from its install(), like registerRowAction (the engine never imports an area). The provider says
 * which records are linked, one query per level (`id = ANY($2)`, always `WHERE org = $1`); the
 * trace page (screens/record-trace.server.ts) adds each record's audit steps and METRC pushes and
 * the table screen shows a Trace link on the rows of the collections that have one.
 */
import type { Queryable } from '../db/driver.server'

/** One record on the trace: what it is, in a person's words. */
export interface TraceNode {
  collection: string
  id: string
  /** what it is: "Plant", "Batch", "Harvest", "Package", "Mother", "Order" */
  kind: string
  /** its name: a plant's tag, a batch's or harvest's name, a package's tag */
  title: string
  /** the rest worth knowing at a glance: room, status, item and quantity */
  facts: string[]
  /** its own page, for records without a trace of their own (an order: /DisSales/{id}) */
  href?: string
}

/** Records of one kind at one step of the chain: how many in all, the first few. */
export interface TraceGroup {
  /** "Plants", "Packages made from it" */
  label: string
  total: number
  nodes: TraceNode[]
  /** a table view with all of them, when there are more than shown */
  more?: string
}

export interface TraceGraph {
  self: TraceNode
  /** ancestors, nearest first */
  from: TraceGroup[]
  /** descendants, nearest first */
  to: TraceGroup[]
}

export interface TraceContext {
  db: Queryable
  /** the organisation (facility) every query filters by */
  org: string
  /** most records a group lists (the rest as a count and a link) */
  limit: number
}

export interface TraceProvider {
  /** the record's trace; null when the record is not in this organisation */
  trace(c: TraceContext, id: string): Promise<TraceGraph | null>
}

const PROVIDERS = new Map<string, TraceProvider>()

/** An area's trace for a collection's records (issue 23 item 3). */
export function registerTrace(collection: string, provider: TraceProvider): void {
  PROVIDERS.set(collection, provider)
}

export const traceProviderOf = (collection: string): TraceProvider | undefined => PROVIDERS.get(collection)

export const hasTrace = (collection: string | undefined): boolean => !!collection && PROVIDERS.has(collection)
