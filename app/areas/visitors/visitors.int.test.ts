/**
 * The visitor log (issue 27 item 2) on the real database, PGlite and PostgreSQL, through the pages'
 * real actions and loaders: a kiosk sign-in (record, badge number, the host told live and by mail
 * through a real SMTP server), the refusals that leave nothing behind (no ID check, no agreement, a
 * host of another facility, signing out twice — on the page and on the generic write path), on site
 * now, and the day's log as CSV and PDF.
 */
import fs from 'node:fs'
import type { AppLoadContext } from '@remix-run/node'
import pino from 'pino'
import { COOKIE, createSession } from '#app/auth/session.server'
import { loadEnv, type Env } from '#app/config/env.server'
import { EventHub } from '#app/events/event-hub.server'
import { updateRecord } from '#app/records/write.server'
import { action as kioskAction } from '#app/routes/VisLog_.kiosk'
import { action as logAction, loader as logLoader } from '#app/routes/VisLog'
import { loader as exportLoader } from '#app/routes/VisLog_.export'
import { seedDemo } from '#app/seed/index.server'
import { openTestDatabase, tmpDir, type TestDatabase } from '#tests/helpers/db'
import { startSmtp, type SmtpCapture } from '#tests/helpers/smtp'

let t: TestDatabase
let env: Env
let smtp: SmtpCapture
const hub = new EventHub()
const told: Array<{ event: string; data: { title?: string; body?: string } }> = []

beforeAll(async () => {
  t = await openTestDatabase()
  smtp = await startSmtp()
  env = loadEnv({ DATA_DIR: tmpDir(), DEMO_DATA: '1', SMTP_URL: smtp.url })
  await seedDemo(t, env)
  hub.attach({ org: 'greenleaf', uid: 'u-compliance', send: (event, data) => told.push({ event, data: data as { title?: string } }), close: () => {} })
}, 300_000)
afterAll(async () => {
  await smtp?.close()
  await t?.cleanup()
  fs.rmSync(env.DATA_DIR, { recursive: true, force: true })
})

const ctx = () => ({ database: t, env, events: hub, logger: pino({ level: 'silent' }), requestId: `vis-${Math.random()}`, clientIp: '127.0.0.1' }) as unknown as AppLoadContext
const sid = (uid = 'u-admin') => createSession(t, { uid, step: 'done', facility: 'greenleaf' })
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a route module's function takes Remix's argument object
async function call(fn: (a: any) => Promise<unknown>, path: string, fields?: Record<string, string>): Promise<Response> {
  const session = await sid()
  const init: RequestInit = { headers: { Cookie: `${COOKIE}=${session}` } }
  if (fields) Object.assign(init, { method: 'POST', body: new URLSearchParams(fields), headers: { Cookie: `${COOKIE}=${session}`, 'content-type': 'application/x-www-form-urlencoded' } })
  try {
    return (await fn({ request: new Request(`http://canopy.test${path}`, init), context: ctx(), params: {} })) as Response
  } catch (e) {
    if (e instanceof Response) return e
    throw e
  }
}
const visits = async () => Number((await t.db.query<{ n: string }>(`SELECT count(*) AS n FROM c_vis_log WHERE org = 'greenleaf'`)).rows[0].n)
const good = { visitor: 'Dana Inspector', company: 'State Cannabis Board', purpose: 'State Inspection', host_uid: 'u-compliance', id_type: 'Agent Badge', id_checked: 'yes', nda_signed: 'yes', vehicle_plate: '' }

describe('signing in at the kiosk', () => {
  it('refuses without the ID check, without the agreement, with a host of another facility: nothing written', async () => {
    const before = await visits()
    for (const [fields, message] of [
      [{ ...good, id_checked: '' }, /must check the visitor’s ID/],
      [{ ...good, nda_signed: '' }, /must accept the visitor agreement/],
      [{ ...good, host_uid: 'u-dist' }, /host who works at this facility/],
      [{ ...good, visitor: ' ' }, /visitor’s name/],
    ] as const) {
      const res = await call(kioskAction, '/VisLog/kiosk', fields)
      expect(res.status).toBe(400)
      expect(((await res.json()) as { error: string }).error).toMatch(message)
    }
    expect(await visits()).toBe(before)
  })

  it('records the visit with a badge number, tells the host live and by mail, says why no badge printed here', async () => {
    told.length = 0
    const res = await call(kioskAction, '/VisLog/kiosk', good)
    expect(res.status).toBe(302)
    const q = new URL(res.headers.get('location')!, 'http://x').searchParams
    const v = (await t.store.get('greenleaf', 'vis_log', q.get('done')!))!
    expect(v).toMatchObject({ visitor: 'Dana Inspector', host_uid: 'u-compliance', host_name: 'Jordan Lee', id_checked: 'yes', nda_signed: 'yes', signed_out: null })
    expect(String(v.badge)).toMatch(/^V-\d{3}$/)
    // no device network in this test: the page says so (the e2e test prints on the simulated printer)
    expect(q.get('printerr')).toMatch(/device network is not connected/)
    expect(told).toContainEqual({ event: 'notification', data: expect.objectContaining({ title: 'Your visitor has arrived', body: expect.stringContaining('Dana Inspector (State Cannabis Board)') }) })
    const mail = await smtp.waitFor((m) => m.to.includes('compliance@greenleaf.demo'))
    expect(mail.subject).toBe('Visitor for you: Dana Inspector (State Cannabis Board)')
    // audited like every write
    expect((await t.db.query(`SELECT 1 FROM audit_log WHERE collection = 'vis_log' AND doc_id = $1 AND action = 'insert'`, [v._id])).rows).toHaveLength(1)
  })
})

describe('signing out', () => {
  it('once: a second sign-out is refused on the page and on the generic write path, the time unchanged', async () => {
    const res = await call(kioskAction, '/VisLog/kiosk', { ...good, visitor: 'Sam Vendor', company: 'Nutrient Co', purpose: 'Vendor Delivery' })
    const id = new URL(res.headers.get('location')!, 'http://x').searchParams.get('done')!
    const onSiteBefore = ((await (await call(logLoader, '/VisLog')).json()) as { onSite: Array<{ id: string }> }).onSite
    expect(onSiteBefore.map((r) => r.id)).toContain(id)

    expect((await call(logAction, '/VisLog', { intent: 'signout', id })).status).toBe(302)
    const out = (await t.store.get('greenleaf', 'vis_log', id))!
    expect(out.signed_out).toMatch(/^\d{4}-/)
    const again = await call(logAction, '/VisLog', { intent: 'signout', id })
    expect(again.status).toBe(409)
    expect(((await again.json()) as { error: string }).error).toMatch(/Sam Vendor already signed out at/)
    const admin = (await t.store.get('auth', 'users', 'u-admin'))!
    const w = { user: admin as never, actor: { uid: 'u-admin' }, facility: 'greenleaf' }
    await expect(updateRecord(ctx(), w, 'vis_log', id, { signed_out: new Date().toISOString() }, { partial: true, anyMinute: true })).rejects.toThrow(/already signed out/)
    expect((await t.store.get('greenleaf', 'vis_log', id))!.signed_out).toBe(out.signed_out)
    const onSiteAfter = ((await (await call(logLoader, '/VisLog')).json()) as { onSite: Array<{ id: string }> }).onSite
    expect(onSiteAfter.map((r) => r.id)).not.toContain(id)
  })
})

describe('the log for a date range', () => {
  it('exports today as CSV and PDF; a bad range is refused', async () => {
    const csv = await call(exportLoader, '/VisLog/export?format=csv')
    expect(csv.status).toBe(200)
    expect(csv.headers.get('content-type')).toContain('text/csv')
    const text = await csv.text()
    expect(text.split('\r\n')[0]).toBe('Badge,Visitor,Company,Host,Purpose,ID type,ID checked,Agreement,Signed in,Signed out')
    expect(text).toContain('Dana Inspector,State Cannabis Board,Jordan Lee,State Inspection,Agent Badge,Yes,Accepted')
    expect(text).toContain('Sam Vendor')
    const pdf = await call(exportLoader, '/VisLog/export?format=pdf')
    expect(pdf.headers.get('content-type')).toBe('application/pdf')
    expect(Buffer.from(await pdf.arrayBuffer()).subarray(0, 8).toString('latin1')).toBe('%PDF-1.3')
    expect((await call(exportLoader, '/VisLog/export?from=2026-13-01&to=2026-13-02')).status).toBe(400)
    const evac = await call(exportLoader, '/VisLog/export?onsite=1')
    expect(evac.headers.get('content-disposition')).toContain('on-site.pdf')
  })
})
