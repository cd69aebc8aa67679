/**
 * Support tickets (issue 27 item 3; migration 039): anyone signed in opens one in their facility;
 * platform staff (super) work the queue — statuses new, open, waiting on customer, solved — and
 * reply in the thread. Each post is audited; a staff reply mails the requester and tells their open
 * pages (the shell's Support badge), a requester's post mails the platform's address (ADMIN_EMAIL).
 * A requester sees only their own tickets, in their facility.
 */
import type { AppLoadContext } from '@remix-run/node'
import type { Actor } from '../../db/types'
import { sendMail } from '../../mail/mailer.server'
import { PLATFORM_ORG } from '../../route-map'
import { AppError } from '../../utils/errors'
import { newId } from '../../utils/ids'

export const STATUSES = ['new', 'open', 'waiting', 'solved'] as const
export type Status = (typeof STATUSES)[number]
export const STATUS_LABEL: Record<Status, string> = { new: 'New', open: 'Open', waiting: 'Waiting on customer', solved: 'Solved' }

export interface Ticket {
  org: string
  id: string
  requester: string
  subject: string
  status: Status
  page: string
  createdAt: string
  updatedAt: string
  unread: number
}

const iso = (v: Date | string) => new Date(v).toISOString()
const MAX_BODY = 10_000

function check(subject: string | null, body: string) {
  if (subject !== null && !subject.trim()) throw new AppError('BAD_INPUT', 'Write a subject: what is it about?', { field: 'subject' })
  if (subject !== null && subject.length > 200) throw new AppError('BAD_INPUT', 'The subject is longer than 200 characters.', { field: 'subject' })
  if (!body.trim()) throw new AppError('BAD_INPUT', 'Describe what happened.', { field: 'body' })
  if (body.length > MAX_BODY) throw new AppError('BAD_INPUT', `The text is longer than ${MAX_BODY} characters.`, { field: 'body' })
}

/** A page inside Canopy (a path), never another site. */
export const safePage = (p: string) => (/^\/(?!\/)[^\s\\]{0,500}$/.test(p) ? p : '')

async function emailOf(context: AppLoadContext, uid: string): Promise<string> {
  const u = await context.database.store.get(PLATFORM_ORG, 'users', uid)
  return typeof u?.email === 'string' && u.web !== 'no' ? u.email : ''
}

async function mail(context: AppLoadContext, to: string, subject: string, text: string) {
  if (!to) return
  try {
    await sendMail(context.env, context.logger, { to, subject, text })
  } catch (err) {
    context.logger.warn({ err: (err as Error).message, to }, 'a support mail could not be sent')
  }
}

const origin = (context: AppLoadContext) => (context.env.PUBLIC_URL ?? `http://localhost:${context.env.PORT}`).replace(/\/$/, '')

export async function openTicket(context: AppLoadContext, actor: Actor, facility: string, input: { subject: string; body: string; page: string; file: string }): Promise<string> {
  check(input.subject, input.body)
  const id = newId()
  const postId = newId()
  const subject = input.subject.trim()
  const page = safePage(input.page)
  await context.database.store.audited(actor, { org: facility, collection: 'support_tickets_q', id, action: 'insert', before: null, after: { subject, page, body: input.body, file: input.file, status: 'new' } }, async (tx) => {
    await tx.query('INSERT INTO support_tickets_q (org, id, requester, subject, page) VALUES ($1, $2, $3, $4, $5)', [facility, id, actor.uid, subject, page])
    await tx.query('INSERT INTO support_posts (org, id, ticket_id, author, staff, body, file) VALUES ($1, $2, $3, $4, false, $5, $6)', [facility, postId, id, actor.uid, input.body, input.file])
  })
  const who = await emailOf(context, actor.uid)
  await mail(context, context.env.ADMIN_EMAIL, `[Support] New ticket: ${subject}`, `${who || actor.uid} (${facility}) opened a ticket${page ? ` from ${page}` : ''}:\n\n${input.body}\n\nAnswer it: ${origin(context)}/SupportTicket?t=${facility}:${id}\n`)
  return id
}

async function ticketRow(context: AppLoadContext, facility: string, id: string) {
  const r = await context.database.db.query<{ requester: string; subject: string; status: Status }>('SELECT requester, subject, status FROM support_tickets_q WHERE org = $1 AND id = $2', [facility, id])
  return r.rows[0] ?? null
}

/** A post in a ticket's thread: staff (super) on any ticket, the requester on their own; status follows. */
export async function replyToTicket(context: AppLoadContext, actor: Actor, staff: boolean, facility: string, id: string, input: { body: string; file: string; status?: string }): Promise<void> {
  check(null, input.body)
  const t = await ticketRow(context, facility, id)
  if (!t || (!staff && t.requester !== actor.uid)) throw new AppError('NOT_FOUND', 'There is no such ticket.')
  const wanted = staff ? (input.status && (STATUSES as readonly string[]).includes(input.status) ? (input.status as Status) : 'waiting') : 'open'
  const postId = newId()
  await context.database.store.audited(actor, { org: facility, collection: 'support_posts', id: postId, action: 'insert', before: { status: t.status }, after: { ticket: id, body: input.body, file: input.file, status: wanted } }, async (tx) => {
    await tx.query('INSERT INTO support_posts (org, id, ticket_id, author, staff, body, file) VALUES ($1, $2, $3, $4, $5, $6, $7)', [facility, postId, id, actor.uid, staff, input.body, input.file])
    await tx.query(`UPDATE support_tickets_q SET status = $3, updated_at = clock_timestamp()${staff ? '' : ', requester_read_at = clock_timestamp()'} WHERE org = $1 AND id = $2`, [facility, id, wanted])
  })
  if (staff) {
    await mail(context, await emailOf(context, t.requester), `Re: ${t.subject} [${STATUS_LABEL[wanted]}]`, `Canopy support answered your ticket “${t.subject}”:\n\n${input.body}\n\nReply or read the thread: ${origin(context)}/SupportTicket?t=${facility}:${id}\n`)
    context.events.publishToUser(facility, t.requester, 'unread', { kind: 'support', count: await unreadReplies(context, facility, t.requester) })
  } else {
    await mail(context, context.env.ADMIN_EMAIL, `[Support] Re: ${t.subject}`, `The requester answered:\n\n${input.body}\n\n${origin(context)}/SupportTicket?t=${facility}:${id}\n`)
  }
}

/** Staff change a ticket's status without a reply. */
export async function setStatus(context: AppLoadContext, actor: Actor, facility: string, id: string, status: string): Promise<void> {
  if (!(STATUSES as readonly string[]).includes(status)) throw new AppError('BAD_INPUT', 'Choose a status: new, open, waiting on customer or solved.', { field: 'status' })
  const t = await ticketRow(context, facility, id)
  if (!t) throw new AppError('NOT_FOUND', 'There is no such ticket.')
  await context.database.store.audited(actor, { org: facility, collection: 'support_tickets_q', id, action: 'update', before: { status: t.status }, after: { status } }, async (tx) => {
    await tx.query('UPDATE support_tickets_q SET status = $3, updated_at = clock_timestamp() WHERE org = $1 AND id = $2', [facility, id, status])
  })
}

/** Staff replies the requester has not read yet, over their tickets in this facility. */
export async function unreadReplies(context: AppLoadContext, facility: string, uid: string, except?: string | null): Promise<number> {
  const r = await context.database.db.query<{ n: string | number }>(
    `SELECT count(*) AS n FROM support_tickets_q t JOIN support_posts p ON p.org = t.org AND p.ticket_id = t.id
     WHERE t.org = $1 AND t.requester = $2 AND p.staff AND (t.requester_read_at IS NULL OR p.created_at > t.requester_read_at) AND ($3::text IS NULL OR t.id <> $3)`,
    [facility, uid, except ?? null],
  )
  return Number(r.rows[0]?.n ?? 0)
}

const UNREAD = `(SELECT count(*) FROM support_posts p WHERE p.org = t.org AND p.ticket_id = t.id AND p.staff AND (t.requester_read_at IS NULL OR p.created_at > t.requester_read_at))`
type Row = { org: string; id: string; requester: string; subject: string; status: Status; page: string; created_at: Date | string; updated_at: Date | string; unread: string | number }
const toTicket = (r: Row): Ticket => ({ org: r.org, id: r.id, requester: r.requester, subject: r.subject, status: r.status, page: r.page, createdAt: iso(r.created_at), updatedAt: iso(r.updated_at), unread: Number(r.unread) })

/** The requester's tickets in this facility, newest activity first. */
export async function myTickets(context: AppLoadContext, facility: string, uid: string): Promise<Ticket[]> {
  const r = await context.database.db.query<Row>(`SELECT t.*, ${UNREAD} AS unread FROM support_tickets_q t WHERE t.org = $1 AND t.requester = $2 ORDER BY t.updated_at DESC LIMIT 200`, [facility, uid])
  return r.rows.map(toTicket)
}

/** The staff queue: every facility's tickets of a status (or all not solved), oldest activity first. */
export async function queue(context: AppLoadContext, status: string | null): Promise<Ticket[]> {
  const r = status && (STATUSES as readonly string[]).includes(status)
    ? await context.database.db.query<Row>(`SELECT t.*, 0 AS unread FROM support_tickets_q t WHERE t.status = $1 ORDER BY t.updated_at LIMIT 500`, [status])
    : await context.database.db.query<Row>(`SELECT t.*, 0 AS unread FROM support_tickets_q t WHERE t.status <> 'solved' ORDER BY t.updated_at LIMIT 500`)
  return r.rows.map(toTicket)
}

/** One ticket with its thread; the requester reading it marks the staff's replies read. */
export async function ticketThread(context: AppLoadContext, facility: string, id: string, viewer: { uid: string; staff: boolean }) {
  const r = await context.database.db.query<Row>(`SELECT t.*, 0 AS unread FROM support_tickets_q t WHERE t.org = $1 AND t.id = $2`, [facility, id])
  const t = r.rows[0]
  if (!t || (!viewer.staff && t.requester !== viewer.uid)) throw new AppError('NOT_FOUND', 'There is no such ticket.')
  const posts = await context.database.db.query<{ id: string; author: string; staff: boolean; body: string; file: string; created_at: Date | string }>(
    'SELECT id, author, staff, body, file, created_at FROM support_posts WHERE org = $1 AND ticket_id = $2 ORDER BY created_at LIMIT 1000',
    [facility, id],
  )
  if (t.requester === viewer.uid) await context.database.db.query('UPDATE support_tickets_q SET requester_read_at = clock_timestamp() WHERE org = $1 AND id = $2', [facility, id])
  return { ticket: toTicket(t), posts: posts.rows.map((p) => ({ id: p.id, author: p.author, staff: p.staff, body: p.body, file: p.file, at: iso(p.created_at) })) }
}
