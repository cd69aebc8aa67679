/**
 * Visits (issue 27 item 2): sign-in through the one write path (the save rule in rules.ts, audit),
 * then the badge printed on the facility's badge printer and the host told (a toast on their open
 * pages, a mail); sign-out once (a write step refuses a second on every path); who is on site now;
 * the visits of a date range in the facility's time zone.
 */
import type { AppLoadContext } from '@remix-run/node'
import type { Doc } from '../../db/types'
import { requestPrint } from '../../devices/flows.server'
import { customRange } from '../../format/date-ranges'
import { formatDateTime } from '../../format/format'
import { orgPrinters } from '../../labels/printers.server'
import { sendMail } from '../../mail/mailer.server'
import type { WriteStep } from '../../records/write-hooks.server'
import { createRecord, updateRecord, type Writer } from '../../records/write.server'
import { PLATFORM_ORG } from '../../route-map'
import { AppError } from '../../utils/errors'
import { tableOf } from '../../db/sql'
import { staffOf } from '../documents/policies.server'
import { VISITS } from './rules'

export const BADGE_TEMPLATE = 'visitor_badge'

export interface SignInInput {
  visitor: string
  company: string
  purpose: string
  host_uid: string
  id_type: string
  id_checked: string
  nda_signed: string
  vehicle_plate: string
}

export interface SignInResult {
  doc: Doc
  printed: { printer: string } | { error: string }
  hostTold: boolean
}

const given = (v: unknown) => typeof v === 'string' && v.trim() !== ''

/** The next badge number of the day: V-001, V-002, … (by visits signed in since local midnight). */
async function nextBadge(context: AppLoadContext, facility: string, since: string): Promise<string> {
  const r = await context.database.db.query<{ n: string | number }>(`SELECT count(*) AS n FROM ${tableOf(VISITS)} WHERE org = $1 AND doc->>'signed_in' >= $2`, [facility, since])
  return `V-${String(Number(r.rows[0]?.n ?? 0) + 1).padStart(3, '0')}`
}

/** Signs a visitor in: the record (refused as a whole when a rule fails), the badge, the host. */
export async function signIn(context: AppLoadContext, w: Writer, input: SignInInput, today: { start: string }, origin: string): Promise<SignInResult> {
  const staff = await staffOf(context.database, w.facility)
  const host = staff.find((s) => s.uid === input.host_uid)
  if (given(input.host_uid) && !host) throw new AppError('BAD_INPUT', 'Choose a host who works at this facility.', { field: 'host_uid' })
  const record = {
    visitor: input.visitor.trim(),
    company: input.company.trim(),
    purpose: input.purpose,
    host_uid: host?.uid ?? '',
    host_name: host?.name ?? '',
    id_type: input.id_type,
    id_checked: input.id_checked === 'yes' ? 'yes' : 'no',
    nda_signed: input.nda_signed === 'yes' ? 'yes' : 'no',
    vehicle_plate: input.vehicle_plate.trim(),
    escorted: 'yes',
    badge: await nextBadge(context, w.facility, today.start),
    signed_in: new Date().toISOString(),
    signed_out: '',
  }
  const r = await createRecord(context, w, VISITS, record, { anyMinute: true })
  if (!r.doc) throw new AppError('BAD_INPUT', 'The visit was not saved.')
  const doc = r.doc
  const printed = await printBadge(context, w.facility, doc._id, origin)
  const hostTold = host ? await tellHost(context, w.facility, host, doc) : false
  return { doc, printed, hostTold }
}

/** Sends the badge to the facility's badge printer (an online one first); says why when it cannot. */
export async function printBadge(context: AppLoadContext, facility: string, id: string, origin: string): Promise<{ printer: string } | { error: string }> {
  const printers = (await orgPrinters(context, facility)).filter((p) => p.template === BADGE_TEMPLATE && p.deviceid).sort((a, b) => Number(b.online) - Number(a.online))
  const p = printers[0]
  if (!p) return { error: 'This facility has no badge printer (a printer with the visitor_badge template in Printers).' }
  try {
    requestPrint(context, facility, { id: p.id, name: p.name || p.deviceid, deviceid: p.deviceid, template: BADGE_TEMPLATE, field: p.field, online: p.online }, VISITS, id, origin)
    return { printer: p.name || p.deviceid }
  } catch (e) {
    return { error: (e as Error).message }
  }
}

async function tellHost(context: AppLoadContext, facility: string, host: { uid: string; name: string; email: string }, v: Doc): Promise<boolean> {
  const who = `${String(v.visitor)}${given(v.company) ? ` (${String(v.company)})` : ''}`
  const title = 'Your visitor has arrived'
  const body = `${who} signed in at the front desk for: ${String(v.purpose)}. Badge ${String(v.badge)}.`
  context.events.publishToUser(facility, host.uid, 'notification', { id: v._id, title, body, from: 'Front desk', expanded: false })
  if (!host.email) return true
  const org = await context.database.store.get(PLATFORM_ORG, 'org', facility)
  try {
    await sendMail(context.env, context.logger, { to: host.email, subject: `Visitor for you: ${who}`, text: `${body}\n\nPlease meet them in the lobby of ${String(org?.fullName ?? facility)}.\n` })
  } catch (err) {
    context.logger.warn({ err: (err as Error).message, to: host.email }, 'the visitor mail to the host could not be sent')
  }
  return true
}

/** Signs a visit out (once: the write step below refuses a second, on every write path). */
export async function signOut(context: AppLoadContext, w: Writer, id: string): Promise<Doc> {
  const v = await context.database.store.get(w.facility, VISITS, id)
  if (!v) throw new AppError('NOT_FOUND', 'There is no such visit.')
  const r = await updateRecord(context, w, VISITS, id, { signed_out: new Date().toISOString() }, { partial: true, anyMinute: true })
  if (!r.doc) throw new AppError('BAD_INPUT', 'The visit was not saved.')
  return r.doc
}

/** Write step of vis_log: a visit signed out stays signed out at that time; signing out needs a sign-in. */
export const signedOutOnce: WriteStep = async (_tx, { saved, before }) => {
  const was = before?.signed_out
  if (given(was) && saved.signed_out !== was) throw new AppError('CONFLICT', `${String(saved.visitor ?? 'This visitor')} already signed out at ${formatDateTime(was)} (UTC); a visit is signed out once.`, { field: 'signed_out' })
  if (given(saved.signed_out) && !given(saved.signed_in)) throw new AppError('BAD_INPUT', 'A visit is signed out only after it was signed in.', { field: 'signed_out' })
}

/** Visitors signed in and not out, in this facility, earliest first. */
export async function onSite(context: AppLoadContext, facility: string): Promise<Doc[]> {
  const r = await context.database.db.query<{ id: string; doc: Record<string, unknown> }>(
    `SELECT id, doc FROM ${tableOf(VISITS)} WHERE org = $1 AND coalesce(doc->>'signed_in', '') <> '' AND coalesce(doc->>'signed_out', '') = '' ORDER BY doc->>'signed_in' LIMIT 2000`,
    [facility],
  )
  return r.rows.map((x) => ({ ...x.doc, _id: x.id }) as Doc)
}

/** Visits signed in between two calendar days (both included) in the facility's zone, in order. */
export async function visitsBetween(context: AppLoadContext, facility: string, from: string, to: string, timeZone: string): Promise<Doc[]> {
  const range = customRange(from, to, timeZone)
  if (!range.from || !range.to) throw new AppError('BAD_INPUT', 'Choose the first and the last day (YYYY-MM-DD).', { field: 'from' })
  if (range.from >= range.to) throw new AppError('BAD_INPUT', 'The first day comes after the last.', { field: 'from' })
  const r = await context.database.db.query<{ id: string; doc: Record<string, unknown> }>(
    `SELECT id, doc FROM ${tableOf(VISITS)} WHERE org = $1 AND doc->>'signed_in' >= $2 AND doc->>'signed_in' < $3 ORDER BY doc->>'signed_in' LIMIT 20000`,
    [facility, range.from, range.to],
  )
  return r.rows.map((x) => ({ ...x.doc, _id: x.id }) as Doc)
}
