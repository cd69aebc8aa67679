/**
 * /CrmSalesPipeline (issue 27, decision 057): the facility's prospects (crm_prospects) on a board
 * of their stages — a column per stage with its count and estimated value, a card per prospect.
 * A move is one form post (`intent=move`, id, from, ts, stage) whether it comes from the card's
 * stage menu (no JavaScript, or the keyboard) or a drag; it goes through the one write path
 * (updateRecord: rights, audit, history, the unchanged-since check) and is refused when the
 * prospect is not this facility's, the stage is unknown, or someone moved or saved it meanwhile.
 */
import { json, redirect, type ActionFunctionArgs, type AppLoadContext, type LoaderFunctionArgs } from '@remix-run/node'
import { requireScreen } from '../../auth/screens.server'
import { isIsoDate, localDate } from '../../format/date-ranges'
import { timeZoneOf } from '../../facilities/facts.server'
import { problemsOf, updateRecord } from '../../records/write.server'
import { isAppError, statusOf } from '../../utils/errors'
import { BOARD, isStage, STAGES } from './rules'

export interface Card {
  id: string
  ts: string
  company: string
  contact: string
  value: number
  next: string
  owner: string
  stage: string
}

export interface Column {
  stage: string
  count: number
  value: number
  cards: Card[]
}

export interface BoardData {
  columns: Column[]
  /** prospects whose stage is none of the list (shown so they are not lost; a move puts them in one) */
  unstaged: Card[]
  stages: readonly string[]
  msg: string
}

const COLLECTION = 'crm_prospects'
/** the record's ts as the write path's unchanged-since check reads it (PostgreSQL gives a Date, PGlite may give text) */
const isoTs = (v: Date | string) => (v instanceof Date ? v : new Date(v)).toISOString()

async function who(request: Request, context: AppLoadContext) {
  const { s, facility } = await requireScreen(request, context, BOARD)
  if (!facility) throw new Response('Choose a facility first.', { status: 403, statusText: 'Choose a facility' })
  return { s, facility }
}

export async function boardLoader({ request, context }: LoaderFunctionArgs) {
  const { facility } = await who(request, context)
  const timeZone = await timeZoneOf(context, facility)
  const rows = (await context.database.db.query<{ id: string; doc: Record<string, unknown>; ts: Date | string }>(
    `SELECT id, doc, ts FROM c_crm_prospects WHERE org = $1 AND (doc ->> 'IsUsed') IS DISTINCT FROM 'no' ORDER BY COALESCE((doc ->> 'value')::numeric, 0) DESC, doc ->> 'company', id LIMIT 1000`,
    [facility],
  )).rows
  const day = (v: unknown) => (typeof v !== 'string' || !v ? '' : isIsoDate(v) ? v : Number.isNaN(Date.parse(v)) ? '' : localDate(new Date(v), timeZone))
  const cards: Card[] = rows.map((r) => ({
    id: r.id, ts: isoTs(r.ts), company: String(r.doc.company ?? ''), contact: String(r.doc.contact ?? ''), value: Number(r.doc.value) || 0,
    next: day(r.doc.next_followup), owner: String(r.doc.owner ?? ''), stage: String(r.doc.stage ?? ''),
  }))
  const columns = STAGES.map((stage) => {
    const list = cards.filter((c) => c.stage === stage)
    return { stage, count: list.length, value: list.reduce((a, c) => a + c.value, 0), cards: list }
  })
  const data: BoardData = { columns, unstaged: cards.filter((c) => !isStage(c.stage)), stages: STAGES, msg: new URL(request.url).searchParams.get('msg')?.slice(0, 200) ?? '' }
  return json(data, { headers: { 'Cache-Control': 'no-store' } })
}

/** Why a move is refused, with its HTTP status; null when it may go ahead. */
export class MoveRefused extends Error {
  constructor(message: string, readonly status: number) {
    super(message)
  }
}

/** Moves one prospect of the facility to a stage through the write path; returns the company's name. */
export async function moveProspect(context: AppLoadContext, w: Parameters<typeof updateRecord>[1], input: { id: string; stage: string; from?: string; ts?: string }): Promise<{ company: string; moved: boolean }> {
  if (!isStage(input.stage)) throw new MoveRefused(`“${input.stage.slice(0, 40)}” is not a stage. Choose one of: ${STAGES.join(', ')}.`, 400)
  const row = /^[\w-]{1,64}$/.test(input.id) ? await context.database.store.get(w.facility, COLLECTION, input.id) : null
  if (!row || row.IsUsed === 'no') throw new MoveRefused('That prospect was not found in this facility. It may have been removed.', 404)
  const company = String(row.company ?? '')
  const now = String(row.stage ?? '')
  if (input.from !== undefined && input.from !== now) throw new MoveRefused(`“${company}” was moved to ${now || 'no stage'} by someone else meanwhile; nothing was changed. The board now shows where it is.`, 409)
  if (now === input.stage) return { company, moved: false }
  try {
    await updateRecord(context, w, COLLECTION, input.id, { stage: input.stage }, { partial: true, expectTs: input.ts || undefined })
  } catch (e) {
    if (isAppError(e) && statusOf(e) === 409) throw new MoveRefused(`“${company}” was changed by someone else since the board was loaded; nothing was changed. The board now shows it as it is.`, 409)
    throw e
  }
  return { company, moved: true }
}

export async function boardAction({ request, context }: ActionFunctionArgs) {
  const { s, facility } = await who(request, context)
  const f = await request.formData()
  const js = f.get('_js') === '1'
  if (String(f.get('intent') ?? '') !== 'move') return json({ error: 'This page takes no such request.' }, { status: 400 })
  const writer = { user: s.user, actor: { uid: s.user.uid, origUid: s.session.orig_uid, role: s.user.role, requestId: context.requestId, session: s.session.id_hash }, facility }
  const stage = String(f.get('stage') ?? '')
  try {
    const r = await moveProspect(context, writer, { id: String(f.get('id') ?? ''), stage, from: f.has('from') ? String(f.get('from')) : undefined, ts: String(f.get('ts') ?? '') })
    const msg = r.moved ? `${r.company} moved to ${stage}.` : `${r.company} is already in ${stage}.`
    if (js) return json({ ok: true, msg })
    return redirect(`${BOARD}?msg=${encodeURIComponent(msg)}`, 303)
  } catch (e) {
    if (e instanceof MoveRefused) return json({ error: e.message }, { status: e.status })
    const problems = problemsOf(e)
    if (problems) return json({ error: problems.map((p) => (p.field ? `${p.field}: ${p.message}` : p.message)).join(' ') }, { status: 400 })
    if (isAppError(e)) return json({ error: e.message }, { status: statusOf(e) })
    throw e
  }
}
