/**
 * Conversations of one facility (issue 27 item 1; migration 038): who may be written to, starting a
 * conversation with people or a team, replying, reading, unread counts. Every query names the
 * facility; a post is audited in its own transaction. Whoever is not on the facility's staff is
 * refused, whatever path the request took.
 */
import type { Database } from '../../db/index.server'
import type { Actor } from '../../db/types'
import { newId } from '../../utils/ids'
import { AppError } from '../../utils/errors'
import { groupMembers, staffOf, type StaffMember } from '../documents/policies.server'
import type { FormUpload } from '../../files/form-uploads.server'
import { checkUploads, chosen, forgetUploads, placeUploads } from './uploads.server'

export const MAX_BODY = 10_000
export const MAX_SUBJECT = 200
export const MAX_ATTACHMENTS = 5

export interface Attachment {
  id: string
  name: string
  url: string
}

export interface Recipients {
  uids: string[]
  /** a team_groups id when the conversation is with a team */
  groupId: string | null
  label: string
}

export interface ThreadSummary {
  id: string
  subject: string
  with: string
  lastAt: string
  unread: number
  preview: string
}

export interface Post {
  id: string
  author: string
  authorName: string
  body: string
  attachments: Attachment[]
  at: string
}

const iso = (v: Date | string) => new Date(v).toISOString()

export interface Team {
  id: string
  name: string
  members: string[]
}

/** The facility's teams that have at least one member on its staff. */
export async function teamsOf(database: Database, facility: string, staff: StaffMember[]): Promise<Team[]> {
  if (!(await database.schemas.hasCollection('team_groups'))) return []
  const on = new Set(staff.map((s) => s.uid))
  return (await database.store.find(facility, 'team_groups', {}, 2000))
    .map((g) => ({ id: g._id, name: String(g.name ?? g._id), members: groupMembers(g).filter((u) => on.has(u)) }))
    .filter((g) => g.members.length > 0)
    .sort((a, b) => a.name.localeCompare(b.name))
}

/**
 * Who a "To" choice reaches: `user:{uid}` or `group:{id}`. Someone who does not work in this
 * facility (or a team of another facility) is refused: messages never cross organisations.
 */
export async function resolveRecipients(database: Database, facility: string, sender: string, to: string[]): Promise<Recipients> {
  const choices = to.map((x) => x.trim()).filter(Boolean)
  if (!choices.length) throw new AppError('BAD_INPUT', 'Choose who the message is for.', { field: 'to' })
  const staff = await staffOf(database, facility)
  const byUid = new Map(staff.map((s) => [s.uid, s]))
  const uids = new Set<string>()
  const labels: string[] = []
  let groupId: string | null = null
  for (const c of choices) {
    const [kind, id] = [c.slice(0, c.indexOf(':')), c.slice(c.indexOf(':') + 1)]
    if (kind === 'user') {
      const u = byUid.get(id)
      if (!u) throw new AppError('FORBIDDEN', 'You can only message people who work in this facility.', { field: 'to' })
      uids.add(u.uid)
      labels.push(u.name)
    } else if (kind === 'group') {
      const team = (await teamsOf(database, facility, staff)).find((g) => g.id === id)
      if (!team) throw new AppError('FORBIDDEN', 'You can only message teams of this facility.', { field: 'to' })
      groupId = team.id
      for (const m of team.members) uids.add(m)
      labels.push(team.name)
    } else throw new AppError('BAD_INPUT', 'Choose who the message is for.', { field: 'to' })
  }
  uids.delete(sender)
  if (!uids.size) throw new AppError('BAD_INPUT', 'Choose someone other than yourself.', { field: 'to' })
  return { uids: [...uids], groupId, label: labels.join(', ') }
}

/** The documents (doc_files of the facility) chosen as attachments; any other id is refused. */
export async function resolveAttachments(database: Database, facility: string, ids: string[]): Promise<Attachment[]> {
  const want = [...new Set(ids.filter(Boolean))]
  if (!want.length) return []
  if (want.length > MAX_ATTACHMENTS) throw new AppError('BAD_INPUT', `Attach at most ${MAX_ATTACHMENTS} documents.`, { field: 'attach' })
  const out: Attachment[] = []
  for (const id of want) {
    const d = await database.store.get(facility, 'doc_files', id)
    if (!d || typeof d.file !== 'string' || !d.file) throw new AppError('BAD_INPUT', 'That document is not in this facility’s files.', { field: 'attach' })
    out.push({ id, name: String(d.name ?? id), url: d.file })
  }
  return out
}

/** Files uploaded with a post: where the file store keeps them (DATA_DIR) and the staged uploads. */
export interface PostFiles {
  dataDir: string
  uploads: FormUpload[]
}

/** Documents and uploads together stay within MAX_ATTACHMENTS; a refused upload refuses the post (nothing stored yet). */
function checkFiles(attachments: Attachment[], files: PostFiles | undefined): FormUpload[] {
  const uploads = chosen(files?.uploads)
  if (attachments.length + uploads.length > MAX_ATTACHMENTS) throw new AppError('BAD_INPUT', `Attach at most ${MAX_ATTACHMENTS} files and documents to one message.`, { field: 'upload' })
  checkUploads(uploads)
  return uploads
}

/** Places the uploads, then runs the post's transaction; a failed transaction removes the placed files again. */
async function withUploads(facility: string, threadId: string, files: PostFiles | undefined, uploads: FormUpload[], save: (uploaded: Attachment[]) => Promise<void>): Promise<void> {
  if (!uploads.length || !files) return save([])
  const placed = await placeUploads(files.dataDir, facility, threadId, uploads)
  try {
    await save(placed.attachments)
  } catch (e) {
    await forgetUploads(files.dataDir, facility, placed.stored)
    throw e
  }
}

function checkText(subject: string | null, body: string) {
  if (subject !== null && !subject.trim()) throw new AppError('BAD_INPUT', 'Write a subject.', { field: 'subject' })
  if (subject !== null && subject.length > MAX_SUBJECT) throw new AppError('BAD_INPUT', `The subject is longer than ${MAX_SUBJECT} characters.`, { field: 'subject' })
  if (!body.trim()) throw new AppError('BAD_INPUT', 'Write a message.', { field: 'body' })
  if (body.length > MAX_BODY) throw new AppError('BAD_INPUT', `The message is longer than ${MAX_BODY} characters.`, { field: 'body' })
}

/** Starts a conversation: the thread, its members (the sender has read it) and the first post, audited. */
export async function startConversation(
  database: Database,
  actor: Actor,
  facility: string,
  input: { to: string[]; subject: string; body: string; attach: string[]; files?: PostFiles },
): Promise<{ threadId: string; members: string[] }> {
  checkText(input.subject, input.body)
  const r = await resolveRecipients(database, facility, actor.uid, input.to)
  const docs = await resolveAttachments(database, facility, input.attach)
  const uploads = checkFiles(docs, input.files)
  const threadId = newId()
  const postId = newId()
  const subject = input.subject.trim()
  await withUploads(facility, threadId, input.files, uploads, async (uploaded) => {
    const attachments = [...docs, ...uploaded]
    await database.store.audited(actor, { org: facility, collection: 'msg_posts', id: postId, action: 'insert', before: null, after: { thread: threadId, subject, to: r.uids, group: r.groupId, body: input.body, attachments } }, async (tx) => {
      await tx.query('INSERT INTO msg_threads (org, id, subject, group_id, created_by) VALUES ($1, $2, $3, $4, $5)', [facility, threadId, subject, r.groupId, actor.uid])
      const p = await tx.query<{ created_at: Date | string }>('INSERT INTO msg_posts (org, id, thread_id, author, body, attachments) VALUES ($1, $2, $3, $4, $5, $6::jsonb) RETURNING created_at', [facility, postId, threadId, actor.uid, input.body, JSON.stringify(attachments)])
      const at = p.rows[0].created_at
      await tx.query('UPDATE msg_threads SET last_at = $3 WHERE org = $1 AND id = $2', [facility, threadId, at])
      await tx.query('INSERT INTO msg_members (org, thread_id, uid, read_at) VALUES ($1, $2, $3, $4)', [facility, threadId, actor.uid, at])
      for (const uid of r.uids) await tx.query('INSERT INTO msg_members (org, thread_id, uid) VALUES ($1, $2, $3)', [facility, threadId, uid])
    })
  })
  return { threadId, members: [actor.uid, ...r.uids] }
}

/** The members of a conversation; refuses one the user is not in (as if it did not exist). */
export async function membersOf(database: Database, facility: string, threadId: string, uid: string): Promise<string[]> {
  const r = await database.db.query<{ uid: string }>('SELECT uid FROM msg_members WHERE org = $1 AND thread_id = $2', [facility, threadId])
  const members = r.rows.map((x) => x.uid)
  if (!members.includes(uid)) throw new AppError('NOT_FOUND', 'There is no such conversation.')
  return members
}

/** A reply in a conversation the user is in (they have read everything up to it). */
export async function reply(database: Database, actor: Actor, facility: string, threadId: string, input: { body: string; attach: string[]; files?: PostFiles }): Promise<{ members: string[] }> {
  checkText(null, input.body)
  const members = await membersOf(database, facility, threadId, actor.uid)
  // someone who has since left the facility still reads the thread, but a new post only reaches staff
  const docs = await resolveAttachments(database, facility, input.attach)
  const uploads = checkFiles(docs, input.files)
  const postId = newId()
  await withUploads(facility, threadId, input.files, uploads, async (uploaded) => {
    const attachments = [...docs, ...uploaded]
    await database.store.audited(actor, { org: facility, collection: 'msg_posts', id: postId, action: 'insert', before: null, after: { thread: threadId, body: input.body, attachments } }, async (tx) => {
      const p = await tx.query<{ created_at: Date | string }>('INSERT INTO msg_posts (org, id, thread_id, author, body, attachments) VALUES ($1, $2, $3, $4, $5, $6::jsonb) RETURNING created_at', [facility, postId, threadId, actor.uid, input.body, JSON.stringify(attachments)])
      const at = p.rows[0].created_at
      await tx.query('UPDATE msg_threads SET last_at = $3 WHERE org = $1 AND id = $2', [facility, threadId, at])
      await tx.query('UPDATE msg_members SET read_at = $4 WHERE org = $1 AND thread_id = $2 AND uid = $3', [facility, threadId, actor.uid, at])
    })
  })
  return { members }
}

/** Everything in the conversation is read by this user (up to its newest post). */
export async function markRead(database: Database, facility: string, threadId: string, uid: string): Promise<void> {
  await database.db.query(
    `UPDATE msg_members m SET read_at = t.last_at FROM msg_threads t
     WHERE m.org = $1 AND m.thread_id = $2 AND m.uid = $3 AND t.org = m.org AND t.id = m.thread_id AND (m.read_at IS NULL OR m.read_at < t.last_at)`,
    [facility, threadId, uid],
  )
}

/** Posts by others this user has not read, in this facility (optionally leaving one conversation out). */
export async function unreadCount(database: Database, facility: string, uid: string, except?: string | null): Promise<number> {
  const r = await database.db.query<{ n: string | number }>(
    `SELECT count(*) AS n FROM msg_members m JOIN msg_posts p ON p.org = m.org AND p.thread_id = m.thread_id
     WHERE m.org = $1 AND m.uid = $2 AND p.author <> $2 AND (m.read_at IS NULL OR p.created_at > m.read_at) AND ($3::text IS NULL OR m.thread_id <> $3)`,
    [facility, uid, except ?? null],
  )
  return Number(r.rows[0]?.n ?? 0)
}

/** The user's conversations, newest first, with what is unread in each and who else is in it (`names`: uid → name, `group:{id}` → team). */
export async function inbox(database: Database, facility: string, uid: string, names: Map<string, string>, limit = 100): Promise<ThreadSummary[]> {
  const r = await database.db.query<{ id: string; subject: string; last_at: Date | string; unread: string | number; members: string[]; preview: string | null; group_id: string | null }>(
    `SELECT t.id, t.subject, t.last_at,
       (SELECT count(*) FROM msg_posts p WHERE p.org = t.org AND p.thread_id = t.id AND p.author <> $2 AND (me.read_at IS NULL OR p.created_at > me.read_at)) AS unread,
       (SELECT array_agg(o.uid ORDER BY o.uid) FROM msg_members o WHERE o.org = t.org AND o.thread_id = t.id AND o.uid <> $2) AS members,
       (SELECT left(p.body, 120) FROM msg_posts p WHERE p.org = t.org AND p.thread_id = t.id ORDER BY p.created_at DESC LIMIT 1) AS preview,
       t.group_id
     FROM msg_members me JOIN msg_threads t ON t.org = me.org AND t.id = me.thread_id
     WHERE me.org = $1 AND me.uid = $2 ORDER BY t.last_at DESC LIMIT $3`,
    [facility, uid, limit],
  )
  return r.rows.map((x) => ({
    id: x.id,
    subject: x.subject,
    with: (x.group_id ? names.get(`group:${x.group_id}`) : null) ?? (x.members ?? []).map((u) => names.get(u) ?? u).join(', '),
    lastAt: iso(x.last_at),
    unread: Number(x.unread),
    preview: x.preview ?? '',
  }))
}

/** One conversation the user is in: subject, who is in it, the posts oldest first. */
export async function conversation(database: Database, facility: string, threadId: string, uid: string, names: Map<string, string>) {
  const members = await membersOf(database, facility, threadId, uid)
  const t = await database.db.query<{ subject: string; group_id: string | null }>('SELECT subject, group_id FROM msg_threads WHERE org = $1 AND id = $2', [facility, threadId])
  const posts = await database.db.query<{ id: string; author: string; body: string; attachments: Attachment[] | string; created_at: Date | string }>(
    'SELECT id, author, body, attachments, created_at FROM msg_posts WHERE org = $1 AND thread_id = $2 ORDER BY created_at LIMIT 1000',
    [facility, threadId],
  )
  return {
    id: threadId,
    subject: t.rows[0]?.subject ?? '',
    members: members.map((m) => names.get(m) ?? m),
    posts: posts.rows.map(
      (p): Post => ({
        id: p.id,
        author: p.author,
        authorName: names.get(p.author) ?? p.author,
        body: p.body,
        attachments: typeof p.attachments === 'string' ? (JSON.parse(p.attachments) as Attachment[]) : p.attachments,
        at: iso(p.created_at),
      }),
    ),
  }
}
