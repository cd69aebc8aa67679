/**
 * What a person does to an outbox item (issue 9 item 5), each audited (collection `metrc_outbox`):
 *   approve  a held item goes to the queue
 *   resend   a failed item, with its fields corrected, goes to the queue again
 *   discard  a held or failed item will not be sent; the reason is required and kept
 * Who: admins and super users; users whose role or job role (users.props.roles) is the item's
 * approver role (/MetrcPrefs); compliance staff for items no preference gives an approver.
 * Corrections follow METRC's body for the endpoint (app/metrc/reference `bodyOf`): any field it
 * takes may be filled in or changed, each as the kind of value METRC's example has there (a number
 * stays a number, a list of tags a list); a field METRC does not take is refused, nothing changed.
 */
import { z } from 'zod'
import type { Database } from '../../db/index.server'
import type { Actor } from '../../db/types'
import { AppError, forbidden, notFound } from '../../utils/errors'
import { pushAbandoned } from '../drift/outbox-hook.server'
import type { OutboxRow } from './applied.server'
import { bodyOf, fieldKind } from '../reference'
import { INGREDIENT_KEYS, OUTBOX_TABS, type OutboxTab } from './tabs'
import { issueLine, issueMessage } from '../../utils/zod-messages'

export { OUTBOX_TABS, type OutboxTab }

export interface OutboxUser {
  uid: string
  role: string
  /** job roles beyond super/admin/user (users.props.roles: compliance, manager) */
  roles?: readonly string[]
  /** the original user's role while a super acts as this user (SPEC §6) */
  origRole?: string
}

export const OutboxAction = z.discriminatedUnion('intent', [
  z.object({ intent: z.literal('approve'), id: z.string().min(1).max(64) }),
  z.object({ intent: z.literal('resend'), id: z.string().min(1).max(64), fields: z.record(z.string().max(2000)).default({}) }),
  z.object({ intent: z.literal('discard'), id: z.string().min(1).max(64), reason: z.string().trim().min(3, 'Say why this will not be sent to METRC (at least 3 characters).').max(500) }),
])
export type OutboxAction = z.infer<typeof OutboxAction>

/** Admins and super; the item's approver role (/MetrcPrefs) as role or job role; compliance staff for items no preference names an approver for. */
export function mayAct(u: OutboxUser, item: Pick<OutboxRow, 'approver_role'>): boolean {
  if (u.origRole === 'super' || u.origRole === 'admin' || u.role === 'super' || u.role === 'admin') return true
  const mine = new Set([u.role, ...(u.roles ?? [])].map((r) => String(r).toLowerCase()))
  return item.approver_role ? mine.has(item.approver_role.toLowerCase()) : mine.has('compliance')
}

/** Ingredient rows typed as "SOURCE QTY UNIT; …" (the source may hold spaces: a harvest's name). */
function ingredients(key: string, endpoint: string, text: string): { value: unknown } | { error: string } {
  const keys = endpoint === 'POST /harvests/v2/packages' ? INGREDIENT_KEYS.harvest : INGREDIENT_KEYS.package
  const rows: Array<Record<string, unknown>> = []
  for (const part of text.split(/[;\n]+/).map((x) => x.trim()).filter(Boolean)) {
    const words = part.split(/\s+/)
    const qty = Number(words.at(-2))
    if (words.length < 3 || !Number.isFinite(qty) || qty <= 0) return { error: `${key}: write each as ${keys.join(' ')} (for example "${keys[0] === 'Package' ? '1A4000000000000000001234' : '2026-11-01-Dry Room-H'} 120 Grams"), separated by ;.` }
    rows.push({ [keys[0]]: words.slice(0, -2).join(' '), [keys[1]]: qty, [keys[2]]: words.at(-1) })
  }
  return rows.length ? { value: rows } : { error: `${key}: METRC needs at least one.` }
}

/**
 * A corrected field as the kind of value METRC's body takes there (its example body, else the
 * kind the item had); a message when it cannot be. An emptied field the body allows empty is null.
 */
function corrected(key: string, was: unknown, text: string, endpoint: string): { value: unknown } | { error: string } {
  const t = text.trim()
  if (key === 'Ingredients') return ingredients(key, endpoint, t)
  const example = bodyOf(endpoint)
  const kind = example && Object.hasOwn(example, key) ? (fieldKind(example[key]) ?? fieldKind(was)) : fieldKind(was)
  if (t === '' && (was === null || was === undefined || (example && example[key] === null))) return { value: null }
  if (kind === 'number') {
    const n = Number(t)
    return t !== '' && Number.isFinite(n) ? { value: n } : { error: `${key}: enter a number.` }
  }
  if (kind === 'boolean') return /^(true|false|yes|no)$/i.test(t) ? { value: /^(true|yes)$/i.test(t) } : { error: `${key}: enter yes or no.` }
  if (kind === 'list') return { value: t.split(/[\s,;]+/).filter(Boolean) }
  if (kind === 'rows') return { error: `${key}: this list of rows cannot be typed here.` }
  if (kind === 'string') return { value: t }
  if (typeof was === 'number') {
    const n = Number(t)
    return t !== '' && Number.isFinite(n) ? { value: n } : { error: `${key}: enter a number.` }
  }
  if (typeof was === 'boolean') return /^(true|false|yes|no)$/i.test(t) ? { value: /^(true|yes)$/i.test(t) } : { error: `${key}: enter yes or no.` }
  if (Array.isArray(was)) return { value: t.split(/[\s,;]+/).filter(Boolean) }
  if (was === null && t === '') return { value: null }
  return { value: t }
}

export async function actOnItem(database: Database, org: string, user: OutboxUser, actor: Actor, input: unknown): Promise<OutboxRow> {
  const parsed = OutboxAction.safeParse(input)
  if (!parsed.success) throw new AppError('BAD_INPUT', parsed.error.issues.map((i) => issueLine(i)).join(' '), { errors: parsed.error.issues.map((i) => ({ field: i.path.join('.'), message: issueMessage(i) })) })
  const a = parsed.data
  const cur = (await database.db.query<OutboxRow>('SELECT * FROM metrc_outbox WHERE org = $1 AND id = $2', [org, a.id])).rows[0]
  if (!cur) throw notFound('That outbox item does not exist in this facility.')
  if (!mayAct(user, cur)) throw forbidden(`Only ${cur.approver_role ? `a ${cur.approver_role} or ` : ''}an administrator can do this.`)
  const allowed: Record<OutboxAction['intent'], OutboxRow['status'][]> = { approve: ['held'], resend: ['failed'], discard: ['held', 'failed'] }
  if (!allowed[a.intent].includes(cur.status)) throw new AppError('CONFLICT', `This item is ${cur.status}: it cannot be ${a.intent === 'approve' ? 'approved' : a.intent === 'resend' ? 'resent' : 'discarded'} now.`)

  let payload = cur.payload
  if (a.intent === 'resend') {
    const problems: Array<{ field: string; message: string }> = []
    const next = { ...cur.payload }
    for (const [k, text] of Object.entries(a.fields)) {
      // a field the push did not have, left empty: nothing to add
      if (!Object.hasOwn(cur.payload, k) && !text.trim()) continue
      // any field METRC's body for this endpoint takes, not only those the push had
      const example = bodyOf(cur.endpoint)
      if (!Object.hasOwn(cur.payload, k) && !(example && Object.hasOwn(example, k))) {
        problems.push({ field: k.slice(0, 64), message: `${k.slice(0, 64)}: METRC's ${cur.endpoint} takes no such field.` })
        continue
      }
      const c = corrected(k, cur.payload[k], text, cur.endpoint)
      if ('error' in c) problems.push({ field: k, message: c.error })
      else next[k] = c.value
    }
    if (problems.length) throw new AppError('BAD_INPUT', problems.map((p) => p.message).join(' '), { errors: problems })
    payload = next
  }
  const status = a.intent === 'discard' ? 'discarded' : 'pending'
  const message = a.intent === 'discard' ? `Discarded: ${a.reason}` : null
  const after = { ...cur, payload, status, message }
  await database.store.audited(actor, { org, collection: 'metrc_outbox', id: cur.id, action: 'update', before: cur, after: { ...after, intent: a.intent } }, async (tx) => {
    const r = await tx.query(
      `UPDATE metrc_outbox SET status = $3, payload = $4, message = $5, attempts = CASE WHEN $3 = 'pending' THEN 0 ELSE attempts END, next_at = now(),
         done_at = CASE WHEN $3 = 'discarded' THEN now() ELSE NULL END, updated_at = now(), updated_by = $6
       WHERE org = $1 AND id = $2 AND status = $7`,
      [org, cur.id, status, payload, message, actor.uid, cur.status],
    )
    if (!r.rowCount) throw new AppError('CONFLICT', 'Someone changed this item meanwhile; look again.')
    // a drift decision that queued it no longer holds once it will not be sent
    if (status === 'discarded') await pushAbandoned(tx, org, cur.id)
  })
  return (await database.db.query<OutboxRow>('SELECT * FROM metrc_outbox WHERE org = $1 AND id = $2', [org, a.id])).rows[0]
}

export interface OutboxView {
  counts: Record<OutboxRow['status'], number>
  items: Array<OutboxRow & { created_at: string; updated_at: string; created_by: string }>
  unreachableSince: string | null
}


/** What the outbox screen shows: counts by status and one tab's items, newest first (only those of `only`, one of the tab's statuses, when given). */
export async function outboxView(database: Database, org: string, tab: OutboxTab, limit = 200, only?: OutboxRow['status'] | null): Promise<OutboxView> {
  const counts = { held: 0, pending: 0, sent: 0, confirmed: 0, failed: 0, discarded: 0 }
  for (const r of (await database.db.query<{ status: OutboxRow['status']; n: number }>('SELECT status, count(*)::int AS n FROM metrc_outbox WHERE org = $1 GROUP BY status', [org])).rows) counts[r.status] = r.n
  const items = (await database.db.query<OutboxView['items'][number]>(
    `SELECT * FROM metrc_outbox WHERE org = $1 AND status = ANY($2) ORDER BY seq ${tab === 'queued' ? 'ASC' : 'DESC'} LIMIT ${Math.max(1, Math.min(1000, limit))}`,
    [org, only && (OUTBOX_TABS[tab] as readonly string[]).includes(only) ? [only] : [...OUTBOX_TABS[tab]]],
  )).rows
  const link = (await database.db.query<{ since: Date | string | null }>('SELECT push_unreachable_since AS since FROM metrc_links WHERE org = $1', [org])).rows[0]
  const iso = (v: unknown) => (v ? new Date(v as string).toISOString() : null)
  return { counts, items: items.map((i) => ({ ...i, created_at: iso(i.created_at)!, updated_at: iso(i.updated_at)!, sent_at: iso(i.sent_at) })), unreachableSince: iso(link?.since) }
}

/** The fields METRC's body for `endpoint` takes that `payload` lacks (not lists of rows: those are typed as Ingredients). */
export function moreFields(endpoint: string, payload: Record<string, unknown>): string[] {
  const example = bodyOf(endpoint)
  if (!example) return []
  return Object.keys(example).filter((k) => !Object.hasOwn(payload, k) && fieldKind(example[k]) !== 'rows')
}
