/**
 * Mail campaigns (issue 27 item 4) on the real database, PGlite and PostgreSQL, through the pages'
 * real actions and the sender job's rounds, with a real SMTP server: a template naming an unknown
 * merge field is refused on the write path; a campaign without a template, or with such a template
 * stored before the rule, is refused and leaves nothing; a campaign reaches the caller's
 * organisation's prospects only (never another's), throttled, each mail with its merge fields, an
 * unsubscribe link and a List-Unsubscribe header; the same form posted twice starts one campaign; the
 * link unsubscribes without sign-in, a forged or altered token is refused; an unsubscribed address is
 * never mailed again; a mail interrupted by a stop is never sent twice.
 */
import fs from 'node:fs'
import type { AppLoadContext } from '@remix-run/node'
import pino from 'pino'
import { findUser } from '#app/auth/accounts.server'
import type { SessionUser } from '#app/auth/entitlements'
import { COOKIE, createSession } from '#app/auth/session.server'
import { loadEnv, type Env } from '#app/config/env.server'
import { EventHub } from '#app/events/event-hub.server'
import { createRecord, InvalidRecord, updateRecord, type Writer } from '#app/records/write.server'
import { action as createAction } from '#app/routes/CrmCampaignCreate'
import { action as unsubAction, loader as unsubLoader } from '#app/routes/Unsubscribe.$token'
import { seedDemo } from '#app/seed/index.server'
import { openTestDatabase, tmpDir, type TestDatabase } from '#tests/helpers/db'
import { startSmtp, type SmtpCapture } from '#tests/helpers/smtp'
import { ALREADY_STARTED, newStartKey } from './campaigns.server'
import { failInterrupted, INTERRUPTED, sendRound, startCampaignSender } from './sender.server'
import { signUnsub, verifyUnsub } from './unsub-token.server'

let t: TestDatabase
let env: Env
let smtp: SmtpCapture
const hub = new EventHub()
const heard: Array<{ event: string; data: { id?: string; sent?: number; total?: number } }> = []
const silent = pino({ level: 'silent' })
const ORIGIN = 'http://canopy.test'

const ctx = () => ({ database: t, env, events: hub, logger: silent, requestId: `camp-${Math.random()}`, clientIp: '127.0.0.1' }) as unknown as AppLoadContext
let w: Writer
const deps = () => ({ env, database: t, logger: silent, events: hub, origin: ORIGIN })
const q = async (sql: string, p: unknown[] = []) => Number((await t.db.query<{ n: string }>(sql, p)).rows[0].n)
const counts = async () => ({
  campaigns: await q(`SELECT count(*) AS n FROM c_crm_campaigns WHERE org = 'greenleaf'`),
  runs: await q('SELECT count(*) AS n FROM crm_campaign_runs'),
  recipients: await q('SELECT count(*) AS n FROM crm_campaign_recipients'),
  unsub: await q(`SELECT count(*) AS n FROM c_crm_unsub`),
})

async function call(fn: typeof createAction | typeof unsubAction, url: string, fields: Record<string, string>, params: Record<string, string> = {}, cookie?: string): Promise<Response> {
  const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded' }
  if (cookie) headers.Cookie = `${COOKIE}=${cookie}`
  try {
    return (await fn({ request: new Request(`${ORIGIN}${url}`, { method: 'POST', headers, body: new URLSearchParams(fields) }), context: ctx(), params })) as Response
  } catch (e) {
    if (e instanceof Response) return e
    throw e
  }
}

let session = ''
const start = (fields: Record<string, string>) => call(createAction, '/CrmCampaignCreate', { key: newStartKey(), who: 'prospects', stage: '', ...fields }, {}, session)
const campaignOf = (res: Response) => new URL(res.headers.get('location')!, ORIGIN).searchParams.get('c')!
const statusOf = async (campaign: string) =>
  Object.fromEntries((await t.db.query<{ email: string; status: string }>('SELECT email, status FROM crm_campaign_recipients WHERE campaign_id = $1', [campaign])).rows.map((r) => [r.email, r.status]))
const sendAll = async () => {
  for (let i = 0; i < 20 && (await sendRound(deps(), 100)); i++);
}
const linkIn = (text: string) => /(http:\/\/canopy\.test\/Unsubscribe\/[A-Za-z0-9_.-]+)/.exec(text)?.[1]

let template = ''
const ours = Array.from({ length: 6 }, (_, i) => ({ company: `Camp Test Co ${i}`, contact: `Pat${i} Doe`, email: `pat${i}@camp-test.example`, stage: i < 4 ? 'Qualified' : 'Lead' }))
const theirs = Array.from({ length: 3 }, (_, i) => ({ company: `Harbor Only ${i}`, contact: `Kim${i} Roe`, email: `kim${i}@harbor-only.example`, stage: 'Qualified' }))

beforeAll(async () => {
  t = await openTestDatabase()
  smtp = await startSmtp()
  env = loadEnv({ DATA_DIR: tmpDir(), DEMO_DATA: '1', SMTP_URL: smtp.url, PUBLIC_URL: ORIGIN })
  await seedDemo(t, env)
  // the test's own audience: the demo's prospects, clients and unsubscribed addresses out of the way
  for (const c of ['crm_prospects', 'set_clients', 'crm_unsub']) await t.db.query(`DELETE FROM c_${c} WHERE org IN ('greenleaf', 'harbor')`)
  for (const p of ours) await t.store.insert({ uid: 'fixture' }, 'greenleaf', 'crm_prospects', p)
  for (const p of theirs) await t.store.insert({ uid: 'fixture' }, 'harbor', 'crm_prospects', p)
  w = { user: (await findUser(t, 'u-admin')) as SessionUser, actor: { uid: 'u-admin', requestId: 'campaigns' }, facility: 'greenleaf' }
  session = await createSession(t, { uid: 'u-admin', step: 'done', facility: 'greenleaf' })
  hub.attach({ org: 'greenleaf', uid: 'u-admin', send: (event, data) => heard.push({ event, data: data as { id?: string } }), close: () => {} })
}, 300_000)
afterAll(async () => {
  await smtp?.close()
  await t?.cleanup()
  fs.rmSync(env.DATA_DIR, { recursive: true, force: true })
})

describe('mail templates', () => {
  it('refuses an unknown merge field on the write path, naming it; saves one whose fields all exist', async () => {
    const before = await q(`SELECT count(*) AS n FROM c_crm_templates WHERE org = 'greenleaf'`)
    const bad = createRecord(ctx(), w, 'crm_templates', { name: 'Typo', channel: 'Email', subject: 'Hello {{frist_name}}', body: '<p>{{company}} and {{ discount }}</p>' })
    await expect(bad).rejects.toBeInstanceOf(InvalidRecord)
    await expect(bad).rejects.toThrow(/Unknown merge fields: \{\{frist_name\}\}, \{\{discount\}\}/)
    expect(await q(`SELECT count(*) AS n FROM c_crm_templates WHERE org = 'greenleaf'`)).toBe(before)
    const ok = await createRecord(ctx(), w, 'crm_templates', { name: 'Spring menu', channel: 'Email', subject: 'Spring menu for {{company}}', body: '<p>Hi {{first_name}},</p><p>New strains at {{sender}}.</p>' })
    template = ok.doc!._id
    expect(await q(`SELECT count(*) AS n FROM c_crm_templates WHERE org = 'greenleaf'`)).toBe(before + 1)
  })
})

describe('starting a campaign', () => {
  it('refuses a campaign without a template, and leaves nothing', async () => {
    const before = await counts()
    const res = await start({ name: 'No template', template: '' })
    expect(res.status).toBe(400)
    expect(((await res.json()) as { error: string }).error).toMatch(/Choose a template/)
    expect(await counts()).toEqual(before)
  })

  it('refuses a template stored with an unknown merge field (before the rule), and another organisation’s template', async () => {
    const old = await t.store.insert({ uid: 'fixture' }, 'greenleaf', 'crm_templates', { name: 'Old', channel: 'Email', subject: 'Hi', body: '{{manifest}}' })
    const other = await t.store.insert({ uid: 'fixture' }, 'harbor', 'crm_templates', { name: 'Harbor', channel: 'Email', subject: 'Hi', body: 'x' })
    const before = await counts()
    const r1 = await start({ name: 'Old one', template: old._id })
    expect(r1.status).toBe(400)
    expect(((await r1.json()) as { error: string }).error).toMatch(/\{\{manifest\}\}/)
    const r2 = await start({ name: 'Theirs', template: other._id })
    expect(r2.status).toBe(400)
    expect(((await r2.json()) as { error: string }).error).toMatch(/not one of your organisation/)
    expect(await counts()).toEqual(before)
  })

  it('mails the organisation’s prospects only, throttled, with merge fields, the link and List-Unsubscribe; a second post of the form is refused', async () => {
    const key = newStartKey()
    const res = await call(createAction, '/CrmCampaignCreate', { key, name: 'Spring', template, who: 'prospects', stage: 'Qualified' }, {}, session)
    expect(res.status).toBe(302)
    const id = campaignOf(res)
    expect(await statusOf(id)).toEqual(Object.fromEntries(ours.filter((p) => p.stage === 'Qualified').map((p) => [p.email, 'queued'])))
    // the same form again: refused, nothing new
    const before = await counts()
    const again = await call(createAction, '/CrmCampaignCreate', { key, name: 'Spring', template, who: 'prospects', stage: 'Qualified' }, {}, session)
    expect(again.status).toBe(409)
    expect(((await again.json()) as { error: string }).error).toBe(ALREADY_STARTED)
    expect(await counts()).toEqual(before)
    // throttled: a round sends no more than its rate
    expect(await sendRound(deps(), 3)).toBe(3)
    expect(smtp.mails.filter((m) => m.subject.startsWith('Spring menu for'))).toHaveLength(3)
    await sendAll()
    const mails = smtp.mails.filter((m) => m.subject.startsWith('Spring menu for'))
    expect(mails.map((m) => m.to[0]).sort()).toEqual(ours.filter((p) => p.stage === 'Qualified').map((p) => p.email).sort())
    expect(mails.some((m) => theirs.some((p) => m.to.includes(p.email)))).toBe(false)
    const m0 = smtp.to('pat0@camp-test.example')[0]
    expect(m0.subject).toBe('Spring menu for Camp Test Co 0')
    expect(m0.text).toContain('Hi Pat0,')
    expect(m0.text).toContain('New strains at Greenleaf Cultivation, Salinas.')
    const link = linkIn(m0.text)!
    expect(link).toBeTruthy()
    expect(m0.raw.replace(/\r?\n[ \t]+/g, ' ')).toMatch(new RegExp(`^List-Unsubscribe: <${link.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}>`, 'm'))
    expect(m0.raw).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click/m)
    expect(Object.values(await statusOf(id)).every((s) => s === 'sent')).toBe(true)
    expect((await t.store.get('greenleaf', 'crm_campaigns', id))).toMatchObject({ status: 'Completed', sent: 4 })
    expect(heard).toContainEqual({ event: 'campaign', data: expect.objectContaining({ id, sent: 4, total: 4, done: true }) })
    // the whole audience, both kinds: still never another organisation's
    await t.store.insert({ uid: 'fixture' }, 'harbor', 'set_clients', { name: 'Harbor Client', license: 'X1', email: 'client@harbor-only.example' })
    const all = campaignOf(await start({ name: 'All', template, who: 'both' }))
    expect(Object.keys(await statusOf(all)).sort()).toEqual(ours.map((p) => p.email).sort())
    await sendAll()
  })
})

describe('unsubscribing', () => {
  it('refuses a forged or altered token and records nothing', async () => {
    const good = signUnsub(env.SESSION_SECRET, { org: 'greenleaf', email: 'pat1@camp-test.example', campaign: 'x' })
    const [payload, sig] = good.split('.')
    const otherPayload = Buffer.from(JSON.stringify(['greenleaf', 'pat2@camp-test.example', 'x'])).toString('base64url')
    const forged = [
      `${otherPayload}.${sig}`, // another address under the first one's signature
      `${payload}.${sig.slice(0, -2)}AA`, // the signature altered
      signUnsub('another-secret-of-at-least-32-characters!!', { org: 'greenleaf', email: 'pat2@camp-test.example', campaign: 'x' }),
      payload,
      'not-a-token',
    ]
    const before = await counts()
    for (const token of forged) {
      expect(verifyUnsub(env.SESSION_SECRET, token)).toBeNull()
      const res = await call(unsubAction, `/Unsubscribe/${token}`, {}, { token })
      expect(res.status).toBe(400)
      const page = (await unsubLoader({ request: new Request(`${ORIGIN}/Unsubscribe/${token}`), context: ctx(), params: { token } })) as Response
      expect(page.status).toBe(400)
    }
    expect(await counts()).toEqual(before)
  })

  it('the mail’s link unsubscribes without sign-in (once); the next campaign skips the address and never mails it', async () => {
    const link = linkIn(smtp.to('pat1@camp-test.example')[0].text)!
    const token = link.split('/').pop()!
    const page = (await unsubLoader({ request: new Request(link), context: ctx(), params: { token } })) as Response
    expect(await page.json()).toMatchObject({ email: 'pat1@camp-test.example', problem: null })
    expect(await q(`SELECT count(*) AS n FROM c_crm_unsub WHERE org = 'greenleaf'`)).toBe(0) // the GET only asks
    const res = await call(unsubAction, `/Unsubscribe/${token}`, {}, { token })
    expect(res.status).toBe(200)
    expect(await res.json()).toMatchObject({ done: true, email: 'pat1@camp-test.example' })
    await call(unsubAction, `/Unsubscribe/${token}`, { 'List-Unsubscribe': 'One-Click' }, { token })
    const unsub = await t.store.find('greenleaf', 'crm_unsub', {}, 10)
    expect(unsub).toHaveLength(1)
    expect(unsub[0]).toMatchObject({ email: 'pat1@camp-test.example', company: 'Camp Test Co 1', channel: 'Email' })
    expect(await q(`SELECT count(*) AS n FROM c_crm_unsub WHERE org = 'harbor'`)).toBe(0)

    const mailedBefore = smtp.to('pat1@camp-test.example').length
    const next = campaignOf(await start({ name: 'Summer', template, who: 'prospects', stage: 'Qualified' }))
    expect((await statusOf(next))['pat1@camp-test.example']).toBe('skipped')
    await sendAll()
    expect(await statusOf(next)).toEqual({ 'pat0@camp-test.example': 'sent', 'pat1@camp-test.example': 'skipped', 'pat2@camp-test.example': 'sent', 'pat3@camp-test.example': 'sent' })
    expect(smtp.to('pat1@camp-test.example')).toHaveLength(mailedBefore)
  })

  it('an address unsubscribed while the campaign is queued is skipped at send time', async () => {
    const id = campaignOf(await start({ name: 'Autumn', template, who: 'prospects', stage: 'Lead' }))
    expect(await statusOf(id)).toEqual({ 'pat4@camp-test.example': 'queued', 'pat5@camp-test.example': 'queued' })
    await t.store.insert({ uid: 'fixture' }, 'greenleaf', 'crm_unsub', { email: 'PAT5@camp-test.example', channel: 'Email' })
    const mailed = smtp.to('pat5@camp-test.example').length
    await sendAll()
    expect(await statusOf(id)).toEqual({ 'pat4@camp-test.example': 'sent', 'pat5@camp-test.example': 'skipped' })
    expect(smtp.to('pat5@camp-test.example')).toHaveLength(mailed)
  })
})

describe('the sender after a stop', () => {
  it('marks a mail claimed but never marked as failed, and never sends it again', async () => {
    await t.db.query(`DELETE FROM c_crm_unsub WHERE org = 'greenleaf'`)
    const id = campaignOf(await start({ name: 'Winter', template, who: 'prospects', stage: 'Lead' }))
    // a process claimed pat4's row and stopped before it could mark it
    await t.db.query(`UPDATE crm_campaign_recipients SET claimed_at = now() WHERE campaign_id = $1 AND email = 'pat4@camp-test.example'`, [id])
    expect(await failInterrupted(t)).toBe(1)
    const mailed = smtp.to('pat4@camp-test.example').length
    await sendAll()
    expect(await statusOf(id)).toEqual({ 'pat4@camp-test.example': 'failed', 'pat5@camp-test.example': 'sent' })
    expect((await t.db.query<{ reason: string }>(`SELECT reason FROM crm_campaign_recipients WHERE campaign_id = $1 AND status = 'failed'`, [id])).rows[0].reason).toBe(INTERRUPTED)
    expect(smtp.to('pat4@camp-test.example')).toHaveLength(mailed)
  })

  it('the job picks up where a stopped process left off (not while the campaign is paused), at its rate, and mails each address once', async () => {
    const id = campaignOf(await start({ name: 'Restart', template, who: 'prospects', stage: 'Qualified' }))
    const emails = ours.filter((p) => p.stage === 'Qualified').map((p) => p.email)
    const before = Object.fromEntries(emails.map((e) => [e, smtp.to(e).length]))
    expect(await sendRound(deps(), 2)).toBe(2) // the process that stopped after two
    // paused on its record's edit form: nothing goes out until it is set back
    await updateRecord(ctx(), w, 'crm_campaigns', id, { status: 'Paused' }, { partial: true })
    expect(await sendRound(deps(), 10)).toBe(0)
    await updateRecord(ctx(), w, 'crm_campaigns', id, { status: 'Running' }, { partial: true })
    const began = Date.now()
    const job = startCampaignSender({ env: { ...env, CAMPAIGN_MAILS_PER_SEC: 1 }, database: t, logger: silent, events: hub })
    try {
      await vi.waitFor(async () => expect(Object.values(await statusOf(id)).every((s) => s === 'sent')).toBe(true), { timeout: 15_000, interval: 200 })
    } finally {
      await job.stop()
    }
    expect(Date.now() - began).toBeGreaterThanOrEqual(1500) // two mails at one a second: at least two rounds
    for (const e of emails) expect(smtp.to(e).length - before[e]).toBe(1)
  })
})
