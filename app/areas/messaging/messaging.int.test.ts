/**
 * Messaging (issue 27 item 1) on the real database, PGlite and PostgreSQL, through the page's real
 * action: a message reaches its reader (unread count, the live `unread` event), a team, a reply; the
 * refusals leave nothing behind (someone outside the facility, a team of another facility, a
 * conversation one is not in, a document of another facility, an empty message); a message left
 * unread is mailed once through a real SMTP server.
 */
import fs from 'node:fs'
import type { AppLoadContext } from '@remix-run/node'
import pino from 'pino'
import { COOKIE, createSession } from '#app/auth/session.server'
import { loadEnv, type Env } from '#app/config/env.server'
import { EventHub } from '#app/events/event-hub.server'
import { action, loader } from '#app/routes/MsgMessages'
import { seedDemo } from '#app/seed/index.server'
import { openTestDatabase, tmpDir, type TestDatabase } from '#tests/helpers/db'
import { startSmtp, type SmtpCapture } from '#tests/helpers/smtp'
import { inbox, unreadCount } from './conversations.server'
import { mailUnread } from './notify.server'

let t: TestDatabase
let env: Env
let smtp: SmtpCapture
const hub = new EventHub()
const heard: Array<{ uid: string; event: string; data: { count?: number; kind?: string } }> = []

beforeAll(async () => {
  t = await openTestDatabase()
  smtp = await startSmtp()
  env = loadEnv({ DATA_DIR: tmpDir(), DEMO_DATA: '1', SMTP_URL: smtp.url, MSG_UNREAD_MAIL_AFTER_S: '1' })
  await seedDemo(t, env)
  for (const uid of ['u-admin', 'u-compliance', 'u-grower'])
    hub.attach({ org: 'greenleaf', uid, send: (event, data) => heard.push({ uid, event, data: data as { count?: number } }), close: () => {} })
}, 300_000)
afterAll(async () => {
  await smtp?.close()
  await t?.cleanup()
  fs.rmSync(env.DATA_DIR, { recursive: true, force: true })
})

const ctx = () => ({ database: t, env, events: hub, logger: pino({ level: 'silent' }), requestId: `msg-${Math.random()}`, clientIp: '127.0.0.1' }) as unknown as AppLoadContext
const sid = (uid: string, facility = 'greenleaf') => createSession(t, { uid, step: 'done', facility })

async function post(session: string, fields: Record<string, string | string[]>): Promise<Response> {
  const body = new URLSearchParams()
  for (const [k, v] of Object.entries(fields)) for (const x of Array.isArray(v) ? v : [v]) body.append(k, x)
  try {
    return (await action({ request: new Request('http://canopy.test/MsgMessages', { method: 'POST', headers: { Cookie: `${COOKIE}=${session}`, 'content-type': 'application/x-www-form-urlencoded' }, body }), context: ctx(), params: {} })) as Response
  } catch (e) {
    if (e instanceof Response) return e
    throw e
  }
}
async function get(session: string, query: string): Promise<Response> {
  try {
    return (await loader({ request: new Request(`http://canopy.test/MsgMessages${query}`, { headers: { Cookie: `${COOKIE}=${session}` } }), context: ctx(), params: {} })) as Response
  } catch (e) {
    if (e instanceof Response) return e
    throw e
  }
}
const counts = async () => {
  const q = async (sql: string) => Number((await t.db.query<{ n: string }>(sql)).rows[0].n)
  return { threads: await q('SELECT count(*) AS n FROM msg_threads'), posts: await q('SELECT count(*) AS n FROM msg_posts'), audit: await q(`SELECT count(*) AS n FROM audit_log WHERE collection = 'msg_posts'`) }
}

describe('a conversation between two people of a facility', () => {
  let thread = ''
  it('reaches the reader: unread count, the live event, the inbox; reading it clears the count', async () => {
    const admin = await sid('u-admin')
    const file = (await t.store.find('greenleaf', 'doc_files', {}, 50)).find((d) => typeof d.file === 'string' && d.file)!
    heard.length = 0
    const res = await post(admin, { intent: 'send', to: 'user:u-compliance', subject: 'Waste log', body: 'Please sign the waste log.', attach: file._id })
    expect(res.status).toBe(302)
    thread = new URL(res.headers.get('location')!, 'http://x').searchParams.get('c')!
    expect(await unreadCount(t, 'greenleaf', 'u-compliance')).toBe(1)
    expect(await unreadCount(t, 'greenleaf', 'u-admin')).toBe(0)
    expect(heard).toContainEqual({ uid: 'u-compliance', event: 'unread', data: { kind: 'messages', count: 1, thread } })
    const box = await inbox(t, 'greenleaf', 'u-compliance', new Map([['u-admin', 'Alex Morgan']]))
    expect(box[0]).toMatchObject({ id: thread, subject: 'Waste log', unread: 1, with: 'Alex Morgan', preview: 'Please sign the waste log.' })
    // the author's post is audited, with its attachment
    const audit = await t.db.query<{ uid: string; after: { attachments: Array<{ id: string; url: string }> } }>(`SELECT uid, after FROM audit_log WHERE collection = 'msg_posts' ORDER BY seq DESC LIMIT 1`)
    expect(audit.rows[0].uid).toBe('u-admin')
    expect(audit.rows[0].after.attachments[0]).toMatchObject({ id: file._id, url: file.file })

    // u-compliance has no Other module here: the screen refuses them, and still nothing is read
    expect((await get(await sid('u-compliance'), `?c=${thread}`)).status).toBe(403)
    // an admin of both facilities reads it (u-admin wrote it; a reply from the reader side below)
  })

  it('a reply counts for the other side, and opening the conversation marks it read', async () => {
    // the reader side: make u-compliance's account able to open the screen here
    const u = (await t.store.get('auth', 'users', 'u-compliance'))!
    const props = u.props as { modules: Record<string, string[]> }
    await t.store.update({ uid: 'test' }, 'auth', 'users', 'u-compliance', { props: { ...props, modules: { ...props.modules, greenleaf: [...props.modules.greenleaf, 'oth'] } } })
    const reader = await sid('u-compliance')
    const page = await get(reader, `?c=${thread}`)
    expect(page.status).toBe(200)
    const d = (await page.json()) as { open: { posts: Array<{ body: string; attachments: unknown[] }> } }
    expect(d.open.posts[0]).toMatchObject({ body: 'Please sign the waste log.' })
    expect(d.open.posts[0].attachments).toHaveLength(1)
    expect(await unreadCount(t, 'greenleaf', 'u-compliance')).toBe(0)
    heard.length = 0
    expect((await post(reader, { intent: 'reply', c: thread, body: 'Signed.' })).status).toBe(302)
    expect(await unreadCount(t, 'greenleaf', 'u-admin')).toBe(1)
    expect(heard).toContainEqual({ uid: 'u-admin', event: 'unread', data: { kind: 'messages', count: 1, thread } })
  })

  it('a message to a team reaches its members of the facility', async () => {
    const team = (await t.store.find('greenleaf', 'team_groups', {}, 100)).find((g) => g.name === 'Grow Team A')!
    const before = await unreadCount(t, 'greenleaf', 'u-grower')
    expect((await post(await sid('u-admin'), { intent: 'send', to: `group:${team._id}`, subject: 'Clone day', body: 'Clones Thursday.' })).status).toBe(302)
    expect(await unreadCount(t, 'greenleaf', 'u-grower')).toBe(before + 1)
  })
})

describe('refusals change nothing', () => {
  const refused = async (fields: Record<string, string | string[]>, status: number, message: RegExp, uid = 'u-admin') => {
    const before = await counts()
    const res = await post(await sid(uid), fields)
    expect(res.status).toBe(status)
    expect(((await res.json()) as { error: string }).error).toMatch(message)
    expect(await counts()).toEqual(before)
  }

  it('someone outside your facilities (a harbor-only driver, from greenleaf)', async () => {
    await refused({ intent: 'send', to: 'user:u-dist', subject: 'Hi', body: 'Hello' }, 403, /only message people who work in this facility/)
  })
  it('an account that does not exist', async () => {
    await refused({ intent: 'send', to: 'user:nobody', subject: 'Hi', body: 'Hello' }, 403, /only message people who work in this facility/)
  })
  it('a team of another facility', async () => {
    const drivers = (await t.store.find('harbor', 'team_groups', {}, 100)).find((g) => g.name === 'Drivers')!
    await refused({ intent: 'send', to: `group:${drivers._id}`, subject: 'Hi', body: 'Hello' }, 403, /only message teams of this facility/)
  })
  it('a document of another facility as attachment', async () => {
    const theirs = (await t.store.find('harbor', 'doc_files', {}, 50)).find((d) => typeof d.file === 'string' && d.file)!
    await refused({ intent: 'send', to: 'user:u-grower', subject: 'Hi', body: 'Hello', attach: theirs._id }, 400, /not in this facility’s files/)
  })
  it('a reply in a conversation one is not in', async () => {
    const other = (await t.db.query<{ id: string }>(`SELECT t.id FROM msg_threads t WHERE t.org = 'greenleaf' AND NOT EXISTS (SELECT 1 FROM msg_members m WHERE m.org = t.org AND m.thread_id = t.id AND m.uid = 'u-super') LIMIT 1`)).rows[0].id
    await refused({ intent: 'reply', c: other, body: 'Let me in' }, 404, /no such conversation/, 'u-super')
    expect((await get(await sid('u-super'), `?c=${other}`)).status).toBe(404)
  })
  it('an empty message, a missing subject, no recipient', async () => {
    await refused({ intent: 'send', to: 'user:u-grower', subject: 'Hi', body: '   ' }, 400, /Write a message/)
    await refused({ intent: 'send', to: 'user:u-grower', subject: '', body: 'Hello' }, 400, /Write a subject/)
    await refused({ intent: 'send', to: '', subject: 'Hi', body: 'Hello' }, 400, /Choose who the message is for/)
  })
})

describe('a message left unread is mailed', () => {
  it('once, after the delay, through SMTP; not to whoever read it', async () => {
    const res = await post(await sid('u-admin'), { intent: 'send', to: 'user:u-grower', subject: 'Room 2 humidity', body: 'Check the dehumidifier.' })
    expect(res.status).toBe(302)
    await new Promise((r) => setTimeout(r, 1100))
    const origin = 'http://canopy.test'
    await mailUnread(env, t, pino({ level: 'silent' }), origin)
    const mail = await smtp.waitFor((m) => m.to.includes('grower@greenleaf.demo') && m.subject === 'Unread message: Room 2 humidity')
    expect(mail.text).toContain(`${origin}/MsgMessages?c=`)
    // u-compliance opened their conversation before the round: nothing to mail them
    expect(smtp.to('compliance@greenleaf.demo').filter((m) => m.subject === 'Unread message: Waste log')).toHaveLength(0)
    const n = smtp.mails.length
    await mailUnread(env, t, pino({ level: 'silent' }), origin)
    expect(smtp.mails.length).toBe(n)
  })
})
