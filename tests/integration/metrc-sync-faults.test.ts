/**
 * The METRC sync against the emulator's faults and the fidelity of what it stores (issue 9), on
 * both databases: documents typed as the table schemas say (check fields 'yes'/'no', METRC's
 * "0001-01-01" empty), rows METRC no longer lists removed and audited (records made in Canopy kept),
 * lab results read one package at a time; METRC down for a whole sync (failed, the panel says since
 * when; the next sync brings every row), a 429 storm in a large sync (every row, every request
 * counted, Retry-After honoured), a key expiring mid-sync (it stops, the link fails, the admins'
 * banner shows, the scheduler leaves the facility alone, a new key resumes it). Through the routes:
 * the root loader's banner (admins only), and Sync now's progress events to the user's pages.
 */
import type { AppLoadContext } from '@remix-run/node'
import pino from 'pino'
import type { SessionUser } from '#app/auth/entitlements'
import { COOKIE, createSession } from '#app/auth/session.server'
import { loadEnv, type Env } from '#app/config/env.server'
import type { MetrcEndpoint } from '#app/metrc/connection.server'
import { credentialChecker } from '#app/metrc/credentials.server'
import { DEMO_USER_KEY, GROW_LICENSE, startMetrcEmulator, type RunningEmulator } from '#app/metrc/emulator'
import { REF } from '#app/metrc/emulator/reference'
import { metrcKeyBanner } from '#app/metrc/sync/banner.server'
import { linkOf, markLink, saveLink } from '#app/metrc/sync/links.server'
import { metrcPanel } from '#app/metrc/sync/panel.server'
import { syncFacility, syncStatus, syncTable } from '#app/metrc/sync/run.server'
import { startSyncScheduler } from '#app/metrc/sync/scheduler.server'
import { SYNC_TABLES } from '#app/metrc/sync/tables'
import { PLATFORM_ORG } from '#app/route-map'
import { loader as rootLoader } from '#app/root'
import { action as syncAction } from '#app/routes/metrc.$action'
import { ensurePlatform } from '#app/seed/index.server'
import { EventHub } from '#app/events/event-hub.server'
import { openTestDatabase, tmpDir, type TestDatabase } from '#tests/helpers/db'

const FAC = 'greenleaf'
const NEW_KEY = 'canopy-demo-user-key-renewed'
let emu: RunningEmulator
let t: TestDatabase
let env: Env
let endpoint: MetrcEndpoint
const actor = { uid: 'u-admin', requestId: 'metrc-faults' }
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
const o = (client: Record<string, unknown> = {}) => ({ database: t, secret: env.SESSION_SECRET, endpoint, logger: pino({ level: 'silent' }), client: { attempts: 3, maxRetryAfterMs: 50, backoff: { baseMs: 20, maxMs: 50 }, ...client } })
const user = (role: string, modules: string[] | null = ['metrc']): SessionUser => ({ uid: `u-${role}`, email: `${role}@x.test`, role, org: FAC, props: { modules: { [FAC]: modules } } })
const ctx = (reads?: Map<string, Promise<unknown>>) => ({ database: t, env, reads }) as unknown as AppLoadContext
const grow = () => emu.state.facilities[GROW_LICENSE]
const count = (collection: string) => t.store.count(FAC, collection)

beforeAll(async () => {
  emu = await startMetrcEmulator({ dataDir: tmpDir(), seed: { plants: 400, packages: 45 } })
  t = await openTestDatabase()
  env = { ...loadEnv({ DATA_DIR: tmpDir() }), METRC_VENDOR_KEY: emu.vendorKey, METRC_URL: emu.url }
  endpoint = { vendorKey: emu.vendorKey, baseUrl: () => emu.url, emulated: true }
  await ensurePlatform(t, env)
  await t.store.insert(actor, PLATFORM_ORG, 'org', { fullName: 'Greenleaf Cultivation', state: 'CA', timezone: 'America/Los_Angeles' }, { id: FAC })
  await saveLink(t, env.SESSION_SECRET, actor, FAC, { state: 'CA', license: GROW_LICENSE, key: DEMO_USER_KEY }, credentialChecker(env))
}, 60_000)
afterAll(async () => {
  await emu?.close()
  await t?.cleanup()
})

describe('what the sync stores', () => {
  it('types fields as the schemas do, reads lab results per package, and leaves METRC’s 0001-01-01 empty', async () => {
    emu.clearRequests()
    const first = await syncFacility(o(), FAC)
    // California's METRC has no patients (skipped, noted)
    expect(first.filter((r) => r.status !== 'done').map((r) => [r.collection, r.status])).toEqual([['metrc_patients', 'skipped']])
    // check fields are 'yes'/'no', not JSON booleans
    const cats = await t.store.find(FAC, 'metrc_item_categories', {}, 50)
    expect(cats.length).toBeGreaterThan(0)
    for (const c of cats) expect(['yes', 'no']).toContain(c.RequiresStrain)
    const [lic] = await t.store.find(FAC, 'metrc_license', {}, 5)
    expect(lic).toMatchObject({ Number: GROW_LICENSE, CanGrowPlants: 'yes' })
    const pkgs = await t.store.find(FAC, 'metrc_packages', {}, 100)
    expect(pkgs.every((p) => p.IsOnHold === 'yes' || p.IsOnHold === 'no')).toBe(true)
    expect(pkgs.every((p) => typeof p.Id === 'number' && p.Id === p.MetrcId)).toBe(true) // the METRC Id column is filled
    // lab results: one request per package that may have results, never without packageId
    const asked = emu.requests.filter((r) => r.path === '/labtests/v2/results')
    const tested = grow().packages.filter((p) => !['NotSubmitted', 'NotRequired', 'SubmittedForTesting'].includes(String(p.LabTestingState)))
    expect(asked.length).toBe(tested.length)
    expect(asked.every((r) => /packageId=\d+/.test(r.query))).toBe(true)
    expect(await count('metrc_lab_tests')).toBe(grow().labResults.length)
    const [lab] = await t.store.find(FAC, 'metrc_lab_tests', {}, 1)
    expect(lab).toMatchObject({ TestTypeName: 'THC', TestPassed: 'yes', SourcePackageLabel: expect.stringMatching(/^1A4/), PackageId: expect.any(Number) })
    // METRC's "no date": a package whose PackagedDate METRC gives as 0001-01-01 keeps it empty
    const p = grow().packages.find((x) => !x.IsFinished)!
    p.PackagedDate = '0001-01-01'
    p.FinishedDate = '0001-01-01T00:00:00'
    p.LastModified = new Date().toISOString()
    expect(await syncTable(o(), FAC, 'metrc_packages')).toMatchObject({ status: 'done', changed: 1 })
    const stored = (await t.store.get(FAC, 'metrc_packages', `m${p.Id}`))!
    expect(stored.PackagedDate).toBeUndefined()
    expect(stored.FinishedDate).toBeUndefined()
    // METRC itself refuses results without a package
    const bare = await fetch(`${emu.url}/labtests/v2/results?licenseNumber=${GROW_LICENSE}`, { headers: { Authorization: `Basic ${Buffer.from(`${emu.vendorKey}:${DEMO_USER_KEY}`).toString('base64')}` } })
    expect(bare.status).toBe(400)
    expect(await bare.json()).toEqual({ Message: 'packageId is required.' })
  })

  it('removes, audited, the rows METRC no longer lists; records made in Canopy stay', async () => {
    const saved = [...REF.customerTypes]
    try {
      REF.customerTypes.splice(REF.customerTypes.indexOf('Caregiver'), 1)
      const r = await syncTable(o(), FAC, 'metrc_customer_types')
      expect(r).toMatchObject({ status: 'done', changed: 1 })
      expect(await count('metrc_customer_types')).toBe(REF.customerTypes.length)
      expect(await t.store.get(FAC, 'metrc_customer_types', 'n-caregiver')).toBeNull()
      const a = await t.db.query<{ action: string; uid: string; before: { Name: string } }>(`SELECT action, uid, before FROM audit_log WHERE org = $1 AND collection = 'metrc_customer_types' AND doc_id = 'n-caregiver' AND action = 'delete'`, [FAC])
      expect(a.rows[0]).toMatchObject({ action: 'delete', uid: 'metrc-sync', before: { Name: 'Caregiver' } })
    } finally {
      REF.customerTypes.splice(0, REF.customerTypes.length, ...saved)
    }
    // an editable table: an item made in Canopy (not yet in METRC) stays when METRC drops one of its own
    const local = await t.store.insert(actor, FAC, 'metrc_items', { Name: 'Made here, not pushed yet', ProductCategoryName: 'Buds', UnitOfMeasureName: 'Grams' })
    const gone = grow().items.pop()!
    try {
      const r = await syncTable({ ...o(), full: true }, FAC, 'metrc_items')
      expect(r.status).toBe('done')
      expect(await t.store.get(FAC, 'metrc_items', `m${gone.Id}`)).toBeNull()
      expect(await t.store.get(FAC, 'metrc_items', local._id)).not.toBeNull()
      expect(await count('metrc_items')).toBe(grow().items.length + 1)
      // an incremental read lists only what changed: nothing is removed on it
      expect(await syncTable(o(), FAC, 'metrc_items')).toMatchObject({ status: 'done', changed: 0 })
      expect(await count('metrc_items')).toBe(grow().items.length + 1)
    } finally {
      grow().items.push(gone)
    }
  })
})

describe('faults', () => {
  it('METRC down for a whole sync: every table failed, the panel says unreachable since when; the next sync brings every row', async () => {
    const okBefore = (await syncStatus(t, FAC, 'metrc_plants'))!.okAt
    expect(okBefore).not.toBeNull()
    emu.faults.down = true
    try {
      const down = await syncFacility(o(), FAC)
      expect(down).toHaveLength(SYNC_TABLES.size)
      // (California's METRC has no patients: that table is skipped without asking)
      expect(down.filter((r) => r.collection !== 'metrc_patients').every((r) => r.status === 'failed' && /not answering/.test(r.error ?? ''))).toBe(true)
      const panel = (await metrcPanel(ctx(), user('admin'), FAC, 'metrc_plants', new URL('http://x/MetrcPlants')))!
      expect(panel.sync).toMatchObject({ status: 'failed', okAt: okBefore, error: expect.stringMatching(/METRC is not answering/) })
      expect(panel.current).toBe(false)
      expect(panel.link!.status).toBe('ok') // METRC down is not a refused key
      // meanwhile METRC changes
      const p = grow().packages.find((x) => !x.IsFinished)!
      p.Note = 'changed while Canopy could not reach METRC'
      p.LastModified = new Date().toISOString()
      // and then is not even listening (connection refused)
      emu.faults.down = false
      await emu.unplug()
      const refused = await syncTable(o(), FAC, 'metrc_units')
      expect(refused).toMatchObject({ status: 'failed', error: expect.stringMatching(/ECONNREFUSED/) })
    } finally {
      emu.faults.down = false
      await emu.plugIn()
    }
    const back = await syncFacility(o(), FAC)
    expect(back.filter((r) => r.status !== 'done' && r.collection !== 'metrc_patients')).toEqual([])
    expect(await count('metrc_plants')).toBe(grow().plants.length)
    expect(await count('metrc_packages')).toBe(grow().packages.length)
    expect(await count('metrc_lab_tests')).toBe(grow().labResults.length)
    const changed = grow().packages.find((x) => x.Note === 'changed while Canopy could not reach METRC')!
    expect((await t.store.get(FAC, 'metrc_packages', `m${changed.Id}`))!.Note).toBe(changed.Note)
    const panel = (await metrcPanel(ctx(), user('admin'), FAC, 'metrc_plants', new URL('http://x/MetrcPlants')))!
    expect(panel.sync).toMatchObject({ status: 'idle', error: null })
    expect(panel.current).toBe(true)
  })

  it('a 429 storm during a large sync: every row arrives, every request is counted, Retry-After is honoured', async () => {
    const waits: number[] = []
    emu.clearRequests()
    emu.faults.retryAfterS = 1
    // the storm starts when the pages after the first go out together
    const storm: typeof fetch = (url, init) => {
      if (!waits.length && !emu.faults.storm429 && String(url).includes('pageNumber=2')) emu.faults.storm429 = 24
      return fetch(url, init)
    }
    const t0 = Date.now()
    const progress: Array<{ requests: number; rows: number }> = []
    const r = await syncTable({ ...o({ fetch: storm, attempts: 10, maxRetryAfterMs: 5_000, sleep: (ms: number) => (waits.push(ms), sleep(ms)) }), full: true, onProgress: (p) => void progress.push(p) }, FAC, 'metrc_plants')
    const took = Date.now() - t0
    expect(emu.faults.storm429).toBe(0)
    expect(r).toMatchObject({ status: 'done', seen: grow().plants.length })
    expect(grow().plants.length).toBe(400)
    expect(await count('metrc_plants')).toBe(400)
    const log = emu.requests
    expect(log.filter((x) => x.status === 429)).toHaveLength(24)
    expect(r.requests).toBe(log.length) // 429s included
    // ⌈rows / 20⌉ pages per list, plus the facility check, plus one retry per 429
    const pages = ['Vegetative', 'Flowering'].map((ph) => grow().plants.filter((p) => p.GrowthPhase === ph && p.State === 'Tracked').length)
    expect(log.filter((x) => x.status === 200).length).toBeGreaterThanOrEqual(1 + Math.ceil(pages[0] / 20) + Math.ceil(pages[1] / 20))
    expect(waits.filter((w) => w === 1000)).toHaveLength(24) // each 429 waited its Retry-After, no less
    expect(took).toBeGreaterThanOrEqual(1000)
    // the progress a Sync now streams: one step per request, rows read so far (the facility check's included)
    expect(progress.map((p) => p.requests)).toEqual(Array.from({ length: r.requests }, (_, i) => i + 1))
    expect(progress.every((p, i) => i === 0 || p.rows >= progress[i - 1].rows)).toBe(true)
    expect(progress[0].rows).toBeGreaterThan(0) // the facilities of the key
    expect(progress.at(-1)!.rows).toBe(progress[0].rows + 400)
  })

  it('a key expiring mid-sync stops the sync, fails the link, shows admins the banner, pauses the schedule; a new key resumes it', async () => {
    let sent = 0
    const expiring: typeof fetch = (url, init) => {
      if (++sent === 12) emu.faults.expiredKeys = [DEMO_USER_KEY]
      return fetch(url, init)
    }
    const results = await syncFacility(o({ fetch: expiring }), FAC)
    const failed = results.filter((r) => r.status === 'failed')
    expect(failed, JSON.stringify(results)).toHaveLength(1)
    expect(failed[0].error).toMatch(/denied/i)
    expect(results.at(-1)).toBe(failed[0]) // it stopped there
    expect(results.length).toBeLessThan(SYNC_TABLES.size)
    expect(results.filter((r) => r.status === 'done').length).toBeGreaterThan(0)
    const link = (await linkOf(t, FAC))!
    expect(link).toMatchObject({ status: 'failing', lastError: expect.stringMatching(/denied/i) })

    // the banner: admins and super users, since when in the facility's time zone, a way to a new key
    const reads = new Map<string, Promise<unknown>>()
    const banner = await metrcKeyBanner(ctx(reads), user('admin'), FAC)
    const zoned = new Intl.DateTimeFormat('en-US', { timeZone: 'America/Los_Angeles', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h12' }).format(new Date(link.failingSince!))
    expect(banner).toEqual({ since: zoned.replace(',', ''), timeZone: 'America/Los_Angeles', error: link.lastError, href: '/MetrcLicense#metrc-link' })
    expect(await metrcKeyBanner(ctx(), user('super', []), FAC)).toMatchObject({ href: '/MetrcLicense#metrc-link' })
    expect(await metrcKeyBanner(ctx(), user('user'), FAC)).toBeNull()
    expect(await metrcKeyBanner(ctx(), user('admin', ['cultivation']), FAC)).toMatchObject({ href: null }) // no Metrc screen to send them to
    expect(await metrcKeyBanner(ctx(), user('admin'), 'harbor')).toBeNull()
    // one read of the link per page request: the Metrc panel of the same request reuses it
    let linkReads = 0
    const query = t.db.query.bind(t.db)
    t.db.query = ((sql: string, params?: unknown[]) => {
      if (/FROM metrc_links/.test(sql)) linkReads++
      return query(sql, params)
    }) as typeof t.db.query
    try {
      await metrcPanel(ctx(reads), user('admin'), FAC, 'metrc_plants', new URL('http://x/MetrcPlants'))
      expect(linkReads).toBe(0)
      await metrcKeyBanner(ctx(), user('admin'), FAC)
      expect(linkReads).toBe(1)
    } finally {
      t.db.query = query
    }

    // the schedule leaves a failing key alone
    const s = startSyncScheduler({ env: { ...env, METRC_SYNC_DATA_MIN: 5, METRC_SYNC_REFERENCE_H: 24 }, database: t, logger: pino({ level: 'silent' }), tickMs: 50 })
    try {
      emu.clearRequests()
      await sleep(400)
      expect(emu.requests).toHaveLength(0)
      // a new key (the old one stays expired): saved, checked, and the facility's tables resume
      emu.state.users.push({ key: NEW_KEY, name: 'Renewed key', licenses: [GROW_LICENSE] })
      const saved = await saveLink(t, env.SESSION_SECRET, actor, FAC, { state: 'CA', license: GROW_LICENSE, key: NEW_KEY }, credentialChecker(env))
      expect(saved).toMatchObject({ status: 'ok', failingSince: null })
      expect(await metrcKeyBanner(ctx(), user('admin'), FAC)).toBeNull()
      const end = Date.now() + 30_000
      const pending = async () => {
        const out: string[] = []
        for (const c of SYNC_TABLES.keys()) {
          const st = await syncStatus(t, FAC, c)
          if (!st?.okAt || st.status !== 'idle') out.push(c)
        }
        return out
      }
      while ((await pending()).length && Date.now() < end) await sleep(100)
      await s.idle()
      expect(await pending()).toEqual([])
      expect((await syncStatus(t, FAC, failed[0].collection))!.status).toBe('idle') // the table that failed ran again at once
    } finally {
      s.stop()
      await s.idle()
      emu.faults.expiredKeys = []
    }
    expect(emu.requests.every((r) => r.status !== 401)).toBe(true)
    const next = await syncFacility(o(), FAC)
    expect(next.filter((r) => r.status !== 'done' && r.collection !== 'metrc_patients')).toEqual([])
    expect(await count('metrc_plants')).toBe(grow().plants.length)
    expect(await count('metrc_packages')).toBe(grow().packages.length)
  })
})

describe('through the routes', () => {
  const sessionFor = async (uid: string, role: string) => {
    if (!(await t.store.get(PLATFORM_ORG, 'users', uid))) await t.store.insert(actor, PLATFORM_ORG, 'users', { _id: uid, uid, email: `${uid}@x.test`, role, org: FAC, web: 'yes', eulaip: '127.0.0.1', props: { facilities: [FAC], modules: { [FAC]: ['metrc', 'cul'] } } })
    return `${COOKIE}=${await createSession(t, { uid, step: 'done', facility: FAC })}`
  }
  const routeCtx = (events = new EventHub()) => ({ database: t, env, events, logger: pino({ level: 'silent' }), requestId: 'faults', clientIp: '127.0.0.1', reads: new Map() }) as unknown as AppLoadContext
  const rootData = async (cookie: string) => {
    const res = (await rootLoader({ request: new Request('http://canopy.test/CulMoms', { headers: { Cookie: cookie } }), context: routeCtx(), params: {} })) as Response
    return (await res.json()) as { user: { role: string } | null; metrcBanner: unknown }
  }

  it('the root loader gives every page the banner for admins only while the key fails', async () => {
    const admin = await sessionFor('u-route-admin', 'admin')
    const grower = await sessionFor('u-route-grower', 'user')
    expect((await rootData(admin)).metrcBanner).toBeNull() // the key works
    await markLink(t, FAC, false, 'Authorization has been denied for this request.')
    const a = await rootData(admin)
    expect(a.user?.role).toBe('admin')
    expect(a.metrcBanner).toMatchObject({ timeZone: 'America/Los_Angeles', error: 'Authorization has been denied for this request.', href: '/MetrcLicense#metrc-link', since: expect.stringMatching(/^\d{2}\/\d{2}\/\d{4} \d{2}:\d{2} [AP]M$/) })
    const g = await rootData(grower)
    expect(g.user?.role).toBe('user')
    expect(g.metrcBanner).toBeNull()
    await markLink(t, FAC, true)
    expect((await rootData(admin)).metrcBanner).toBeNull()
  })

  it("Sync now streams its progress to the user's pages and still answers with the screen", async () => {
    const cookie = await sessionFor('u-route-admin', 'admin')
    const events = new EventHub()
    const got: Array<{ event: string; data: { collection: string; requests: number; rows: number; done: boolean } }> = []
    const others: unknown[] = []
    events.attach({ org: FAC, uid: 'u-route-admin', send: (event, data) => void got.push({ event, data: data as (typeof got)[number]['data'] }), close: () => {} })
    events.attach({ org: FAC, uid: 'u-route-grower', send: (event, data) => void others.push({ event, data }), close: () => {} })
    emu.faults.slowMs = 200 // each answer slower than the 150 ms between two progress events
    try {
      const res = (await syncAction({ request: new Request('http://canopy.test/metrc/sync', { method: 'POST', headers: { Cookie: cookie }, body: new URLSearchParams({ screen: '/MetrcPlants' }) }), context: routeCtx(events), params: { action: 'sync' } })) as Response
      expect(res.status).toBe(302)
      expect(res.headers.get('location')).toBe('/MetrcPlants?metrc=synced')
    } finally {
      emu.faults.slowMs = 0
    }
    const steps = got.filter((e) => e.event === 'metrc-sync').map((e) => e.data)
    expect(steps.length).toBeGreaterThan(2)
    expect(steps.every((s) => s.collection === 'metrc_plants')).toBe(true)
    expect(steps.slice(0, -1).every((s) => !s.done)).toBe(true)
    const st = (await syncStatus(t, FAC, 'metrc_plants'))!
    expect(steps.at(-1)).toMatchObject({ done: true, rows: st.seen, requests: st.requests, status: 'done' })
    for (let i = 1; i < steps.length - 1; i++) expect(steps[i].requests).toBeGreaterThan(steps[i - 1].requests)
    expect(others).toEqual([]) // another user's pages get nothing
  })
})
