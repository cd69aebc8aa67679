/**
 * The visitor log's pages (issue 27 item 2): /VisLog (staff: on site now with Sign out, the visits of
 * a date range, exports), /VisLog/kiosk (the lobby tablet's sign-in), /VisLog/onsite (the printable
 * evacuation list), /VisLog/export (CSV or PDF of a range; `?onsite=1` the evacuation list as PDF).
 * All forms post or GET without JavaScript. Entitlement: the /VisLog screen.
 */
import type { Doc } from '../../db/types'
import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/node'
import { requireScreen } from '../../auth/screens.server'
import { timeZoneOf } from '../../facilities/facts.server'
import { isIsoDate, localDate, zonedMidnight } from '../../format/date-ranges'
import { formatDateTime } from '../../format/format'
import { InvalidRecord } from '../../records/write.server'
import { PLATFORM_ORG } from '../../route-map'
import { isAppError, statusOf } from '../../utils/errors'
import { writerOf } from '../documents/access.server'
import { staffOf } from '../documents/policies.server'
import { COLUMNS, visitsCsv, visitsPdf } from './export.server'
import { VISITS, visitorAgreement } from './rules'
import { onSite, printBadge, signIn, signOut, visitsBetween } from './visits.server'

export const VISLOG = '/VisLog'

async function facilityOf(request: Request, context: LoaderFunctionArgs['context']) {
  const { s, facility } = await requireScreen(request, context, VISLOG)
  const tz = await timeZoneOf(context, facility)
  const org = await context.database.store.get(PLATFORM_ORG, 'org', facility)
  return { s, facility, tz, name: String(org?.fullName ?? facility), writer: writerOf(context, s, facility) }
}

const row = (v: Doc, tz: string) => ({ id: v._id, cells: COLUMNS.map((c) => c.value(v, tz)), out: !!v.signed_out })

function range(url: URL, tz: string) {
  const today = localDate(new Date(), tz)
  const from = url.searchParams.get('from') ?? today
  const to = url.searchParams.get('to') ?? from
  return { today, from, to }
}

function refusal(e: unknown) {
  if (e instanceof InvalidRecord) return { error: e.problems.map((p) => p.message).join(' '), status: 400 }
  if (isAppError(e)) return { error: e.message, status: statusOf(e) }
  throw e
}

export async function visLogLoader({ request, context }: LoaderFunctionArgs) {
  const f = await facilityOf(request, context)
  const url = new URL(request.url)
  const r = range(url, f.tz)
  let visits: ReturnType<typeof row>[] = []
  let rangeError: string | null = null
  try {
    visits = (await visitsBetween(context, f.facility, r.from, r.to, f.tz)).map((v) => row(v, f.tz))
  } catch (e) {
    rangeError = refusal(e).error
  }
  return json({
    facility: f.name,
    columns: COLUMNS.map((c) => c.label),
    onSite: (await onSite(context, f.facility)).map((v) => row(v, f.tz)),
    visits,
    ...r,
    rangeError,
    notice: url.searchParams.get('notice'),
  })
}

export async function visLogAction({ request, context }: ActionFunctionArgs) {
  const f = await facilityOf(request, context)
  const form = await request.formData()
  const id = String(form.get('id') ?? '')
  const intent = String(form.get('intent') ?? '')
  try {
    if (intent === 'signout') {
      const v = await signOut(context, f.writer, id)
      return redirect(`${VISLOG}?notice=${encodeURIComponent(`${String(v.visitor)} signed out at ${formatDateTime(v.signed_out, { timeZone: f.tz })}.`)}`)
    }
    if (intent === 'reprint') {
      const p = await printBadge(context, f.facility, id, new URL(request.url).origin)
      return redirect(`${VISLOG}?notice=${encodeURIComponent('printer' in p ? `Badge sent to ${p.printer}.` : `The badge was not printed: ${p.error}`)}`)
    }
    return json({ error: 'Unknown request.' }, { status: 400 })
  } catch (e) {
    const r = refusal(e)
    return json({ error: r.error }, { status: r.status })
  }
}

export async function kioskLoader({ request, context }: LoaderFunctionArgs) {
  const f = await facilityOf(request, context)
  const schema = await context.database.schemas.get(VISITS)
  const list = (k: string) => schema?.fields.find((x) => x.key === k)?.en?.list ?? []
  const url = new URL(request.url)
  const doneId = url.searchParams.get('done')
  const done = doneId ? await context.database.store.get(f.facility, VISITS, doneId) : null
  return json({
    facility: f.name,
    agreement: visitorAgreement(f.name),
    hosts: (await staffOf(context.database, f.facility)).map((s) => ({ value: s.uid, label: s.name })),
    purposes: list('purpose'),
    idTypes: list('id_type'),
    done: done ? { visitor: String(done.visitor ?? ''), badge: String(done.badge ?? ''), host: String(done.host_name ?? '') } : null,
    printed: url.searchParams.get('printed'),
    printError: url.searchParams.get('printerr'),
  })
}

export async function kioskAction({ request, context }: ActionFunctionArgs) {
  const f = await facilityOf(request, context)
  const form = await request.formData()
  const v = (k: string) => String(form.get(k) ?? '')
  const input = { visitor: v('visitor'), company: v('company'), purpose: v('purpose'), host_uid: v('host_uid'), id_type: v('id_type'), id_checked: v('id_checked'), nda_signed: v('nda_signed'), vehicle_plate: v('vehicle_plate') }
  try {
    const start = zonedMidnight(localDate(new Date(), f.tz), f.tz).toISOString()
    const r = await signIn(context, f.writer, input, { start }, new URL(request.url).origin)
    const q = new URLSearchParams({ done: r.doc._id })
    if ('printer' in r.printed) q.set('printed', r.printed.printer)
    else q.set('printerr', r.printed.error)
    return redirect(`${VISLOG}/kiosk?${q}`)
  } catch (e) {
    const r = refusal(e)
    return json({ error: r.error, values: input }, { status: r.status })
  }
}

export async function onsiteLoader({ request, context }: LoaderFunctionArgs) {
  const f = await facilityOf(request, context)
  return json({ facility: f.name, at: formatDateTime(new Date().toISOString(), { timeZone: f.tz }), columns: COLUMNS.map((c) => c.label), rows: (await onSite(context, f.facility)).map((v) => row(v, f.tz)) })
}

/** /VisLog/export?from&to&format=csv|pdf, or ?onsite=1 (the evacuation list, PDF). */
export async function exportLoader({ request, context }: LoaderFunctionArgs) {
  const f = await facilityOf(request, context)
  const url = new URL(request.url)
  const headers = (type: string, name: string) => ({ 'Content-Type': type, 'Content-Disposition': `attachment; filename="${name}"`, 'Cache-Control': 'private, no-store' })
  const slug = f.facility.replace(/[^A-Za-z0-9-]/g, '')
  if (url.searchParams.get('onsite') === '1') {
    const at = formatDateTime(new Date().toISOString(), { timeZone: f.tz })
    const pdf = await visitsPdf(`On site now — ${f.name}`, `Evacuation list, ${at}`, await onSite(context, f.facility), f.tz)
    return new Response(new Uint8Array(pdf), { headers: headers('application/pdf', `${slug}-on-site.pdf`) })
  }
  const r = range(url, f.tz)
  if (!isIsoDate(r.from) || !isIsoDate(r.to)) return new Response('Choose the first and the last day (YYYY-MM-DD).', { status: 400 })
  let visits
  try {
    visits = await visitsBetween(context, f.facility, r.from, r.to, f.tz)
  } catch (e) {
    return new Response(refusal(e).error, { status: 400 })
  }
  const name = `${slug}-visitors-${r.from}${r.to !== r.from ? `-to-${r.to}` : ''}`
  if (url.searchParams.get('format') === 'pdf') {
    const pdf = await visitsPdf(`Visitor log — ${f.name}`, `${r.from === r.to ? r.from : `${r.from} to ${r.to}`} · made ${formatDateTime(new Date().toISOString(), { timeZone: f.tz })} (${f.tz})`, visits, f.tz)
    return new Response(new Uint8Array(pdf), { headers: headers('application/pdf', `${name}.pdf`) })
  }
  return new Response(visitsCsv(visits, f.tz), { headers: headers('text/csv; charset=utf-8', `${name}.csv`) })
}
