/**
 * Support tickets (issue 27 item 3) on the real database, PGlite and PostgreSQL, through the page's
 * real action and loader: a ticket opened with a file and the page it came from, mailed to platform
 * staff through a real SMTP server; staff reply (mailed to the requester, their badge counts it),
 * the requester answers (mailed to staff), staff solve it; the refusals change nothing.
 */
import fs from 'node:fs'
import type { AppLoadContext } from '@remix-run/node'
import pino from 'pino'
import { COOKIE, createSession } from '#app/auth/session.server'
import { loadEnv, type Env } from '#app/config/env.server'
import { EventHub } from '#app/events/event-hub.server'
import { action, loader } from '#app/routes/SupportTicket'
import { seedDemo } from '#app/seed/index.server'
import { openTestDatabase, tmpDir, type TestDatabase } from '#tests/helpers/db'
import { startSmtp, type SmtpCapture } from '#tests/helpers/smtp'
import { unreadReplies } from './tickets.server'

let t: TestDatabase
let env: Env
let smtp: SmtpCapture
const hub = new EventHub()
const heard: Array<{ event: string; data: unknown }> = []

beforeAll(async () => {
  t = await openTestDatabase()
  smtp = await startSmtp()
  env = loadEnv({ DATA_DIR: tmpDir(), DEMO_DATA: '1', SMTP_URL: smtp.url, ADMIN_EMAIL: 'support@canopy.test', PUBLIC_URL: 'http://canopy.test' })
  await seedDemo(t, env)
  hub.attach({ org: 'greenleaf', uid: 'u-admin', send: (event, data) => heard.push({ event, data }), close: () => {} })
}, 300_000)
afterAll(async () => {
  await smtp?.close()
  await t?.cleanup()
  fs.rmSync(env.DATA_DIR, { recursive: true, force: true })
})

const ctx = () => ({ database: t, env, events: hub, logger: pino({ level: 'silent' }), requestId: `sup-${Math.random()}`, clientIp: '127.0.0.1' }) as unknown as AppLoadContext
const sid = (uid: string, facility = 'greenleaf') => createSession(t, { uid, step: 'done', facility })
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a route module's function takes Remix's argument object
async function run(fn: (a: any) => Promise<unknown>, uid: string, query: string, body?: FormData, facility = 'greenleaf'): Promise<Response> {
  const headers = { Cookie: `${COOKIE}=${await sid(uid, facility)}` }
  try {
    return (await fn({ request: new Request(`http://canopy.test/SupportTicket${query}`, body ? { method: 'POST', headers, body } : { headers }), context: ctx(), params: {} })) as Response
  } catch (e) {
    if (e instanceof Response) return e
    throw e
  }
}
const fd = (fields: Record<string, string>, file?: { name: string; bytes: Buffer; type: string }) => {
  const f = new FormData()
  for (const [k, v] of Object.entries(fields)) f.append(k, v)
  if (file) f.append('file', new Blob([new Uint8Array(file.bytes)], { type: file.type }), file.name)
  return f
}
const count = async () => Number((await t.db.query<{ n: string }>('SELECT count(*) AS n FROM support_posts')).rows[0].n)

describe('a ticket from new to solved', () => {
  let ref = ''
  it('is opened with a file and the page it came from, and mailed to platform staff', async () => {
    const res = await run(action, 'u-admin', '', fd({ intent: 'open', subject: 'Scale reads zero', body: 'The trim room scale shows 0.00 g.', page: '/culPlants?x=1' }, { name: 'note.txt', bytes: Buffer.from('scale log\n'), type: 'text/plain' }))
    expect(res.status).toBe(302)
    ref = new URL(res.headers.get('location')!, 'http://x').searchParams.get('t')!
    expect(ref).toMatch(/^greenleaf:/)
    const mail = await smtp.waitFor((m) => m.to.includes('support@canopy.test') && m.subject === '[Support] New ticket: Scale reads zero')
    expect(mail.text).toContain(`http://canopy.test/SupportTicket?t=${ref}`)
    const page = (await (await run(loader, 'u-admin', `?t=${ref}`)).json()) as { open: { ticket: { status: string; page: string }; posts: Array<{ file: string }> } }
    expect(page.open.ticket).toMatchObject({ status: 'new', page: '/culPlants?x=1' })
    expect(page.open.posts[0].file).toMatch(/^\/getfiles\/greenleaf\/.+\.txt\?subdir=support$/)
  })

  it('staff reply: mailed to the requester, counted in their shell, status waiting; the answer goes back to staff; solved', async () => {
    heard.length = 0
    expect((await run(action, 'u-super', '', fd({ intent: 'reply', t: ref, body: 'Please recalibrate with the 100 g weight.', status: 'waiting' }))).status).toBe(302)
    await smtp.waitFor((m) => m.to.includes('admin@greenleaf.demo') && m.subject === 'Re: Scale reads zero [Waiting on customer]' && m.text.includes('100 g weight'))
    expect(heard).toContainEqual({ event: 'unread', data: { kind: 'support', count: 1 } })
    expect(await unreadReplies(ctx(), 'greenleaf', 'u-admin')).toBe(1)
    await run(loader, 'u-admin', `?t=${ref}`)
    expect(await unreadReplies(ctx(), 'greenleaf', 'u-admin')).toBe(0)
    expect((await run(action, 'u-admin', '', fd({ intent: 'reply', t: ref, body: 'Done, it reads 100.0 g now.' }))).status).toBe(302)
    await smtp.waitFor((m) => m.to.includes('support@canopy.test') && m.subject === '[Support] Re: Scale reads zero' && m.text.includes('100.0 g'))
    expect((await run(action, 'u-super', '', fd({ intent: 'status', t: ref, status: 'solved' }))).status).toBe(302)
    const page = (await (await run(loader, 'u-super', `?t=${ref}`)).json()) as { open: { ticket: { status: string }; posts: unknown[] } }
    expect(page.open.ticket.status).toBe('solved')
    expect(page.open.posts).toHaveLength(3)
    const audit = await t.db.query(`SELECT 1 FROM audit_log WHERE collection IN ('support_tickets_q', 'support_posts') AND doc_id IS NOT NULL`)
    expect(audit.rows.length).toBeGreaterThanOrEqual(4)
  })

  it('refusals change nothing: no text, someone else’s ticket, another facility’s, a bad status, a file type not accepted', async () => {
    const before = await count()
    const bad = async (uid: string, fields: Record<string, string>, status: number, facility = 'greenleaf', file?: { name: string; bytes: Buffer; type: string }) => {
      const res = await run(action, uid, '', fd(fields, file), facility)
      expect(res.status).toBe(status)
    }
    await bad('u-admin', { intent: 'open', subject: 'x', body: '  ' }, 400)
    await bad('u-admin', { intent: 'open', subject: '', body: 'text' }, 400)
    await bad('u-compliance', { intent: 'reply', t: ref, body: 'not mine' }, 404)
    await bad('u-admin', { intent: 'reply', t: ref.replace('greenleaf', 'harbor'), body: 'wrong org' }, 404, 'harbor')
    await bad('u-super', { intent: 'status', t: ref, status: 'closed' }, 400)
    await bad('u-admin', { intent: 'open', subject: 'page', body: 'svg', page: '/x' }, 400, 'greenleaf', { name: 'shot.svg', bytes: Buffer.from('<svg/>'), type: 'image/svg+xml' })
    expect(await count()).toBe(before)
    expect((await run(loader, 'u-compliance', `?t=${ref}`)).status).toBe(404)
  })
})
