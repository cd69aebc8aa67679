/**
 * Who a campaign goes to (issue 27 item 4): the prospects and/or clients of one organisation — never
 * another's: every read names `org` — optionally only prospects at one stage; one row per address
 * (the first record with it wins), addresses that do not look like one left out, and the
 * organisation's unsubscribed addresses (crm_unsub) counted apart: they are listed as skipped, never mailed.
 */
import type { Database } from '../../db/index.server'
import { mergeValuesOf, UNSUB, type MergeValues } from './rules'

export type Who = 'prospects' | 'clients' | 'both'
export const WHO: Record<Who, string> = { prospects: 'Prospects', clients: 'Clients', both: 'Prospects and clients' }
export const isWho = (v: unknown): v is Who => typeof v === 'string' && Object.prototype.hasOwnProperty.call(WHO, v)

export interface AudienceQuery {
  who: Who
  /** prospects at this stage only ('' = every stage) */
  stage: string
  /** only those whose company contains this ('' = all) */
  company?: string
}

export interface Recipient {
  email: string
  source: 'crm_prospects' | 'set_clients'
  sourceId: string
  fields: MergeValues
  unsubscribed: boolean
}

const EMAIL = /^[^\s@<>",;]+@[^\s@<>",;]+\.[^\s@<>",;]+$/
const MAX = 10_000

export const audienceLabel = (q: AudienceQuery) => `${WHO[q.who]}${q.stage && q.who !== 'clients' ? `, stage ${q.stage}` : ''}${q.company?.trim() ? `, company contains “${q.company.trim()}”` : ''}`

/** The organisation's unsubscribed addresses, lower-cased. */
export async function unsubscribed(database: Database, org: string): Promise<Set<string>> {
  const rows = await database.db.query<{ e: string }>(`SELECT DISTINCT lower(trim(doc ->> 'email')) AS e FROM c_${UNSUB} WHERE org = $1 AND coalesce(doc ->> 'email', '') <> ''`, [org])
  return new Set(rows.rows.map((r) => r.e))
}

export async function audienceOf(database: Database, org: string, q: AudienceQuery, sender: string): Promise<Recipient[]> {
  const off = await unsubscribed(database, org)
  const out = new Map<string, Recipient>()
  const like = (q.company ?? '').trim().toLowerCase()
  const add = (source: Recipient['source'], docs: Array<Record<string, unknown> & { _id: string }>) => {
    for (const d of docs) {
      if (like && !String((source === 'crm_prospects' ? d.company : d.name) ?? '').toLowerCase().includes(like)) continue
      const email = typeof d.email === 'string' ? d.email.trim() : ''
      if (!EMAIL.test(email) || String(d.IsUsed ?? '').toLowerCase() === 'no') continue
      const key = email.toLowerCase()
      if (!out.has(key)) out.set(key, { email, source, sourceId: d._id, fields: mergeValuesOf(source, d, sender), unsubscribed: off.has(key) })
    }
  }
  if (q.who !== 'clients') add('crm_prospects', (await database.store.find(org, 'crm_prospects', q.stage ? { stage: q.stage } : {}, MAX)).reverse())
  if (q.who !== 'prospects') add('set_clients', (await database.store.find(org, 'set_clients', {}, MAX)).reverse())
  return [...out.values()]
}

export const countOf = (list: Recipient[]) => {
  const skipped = list.filter((r) => r.unsubscribed).length
  return { total: list.length, unsubscribed: skipped, receive: list.length - skipped }
}
