/**
 * Running METRC syncs (issue 9 item 4) against the real emulator, on the Canopy database: a queue
 * per organisation (one organisation's slow sync does not hold up another's), one run per
 * (organisation, table) at a time, a 429 storm waited out, a refused key stopping that
 * organisation's queue and schedule only, the schedule per kind of table; and the Metrc screen's
 * panel and posts: Sync now, last synced / current / METRC unreachable since, the connection form
 * (administrators only; the key checked with METRC, write-only, never in the panel).
 */
import type { AppLoadContext } from '@remix-run/node'
import pino from 'pino'
import { loadEnv, type Env } from '#app/config/env.server'
import { GetThrottle } from '#app/metrc/client/limits'
import { registerMetrcEndpoint } from '#app/metrc/connection.server'
import { DEMO_USER_KEY, GROW_LICENSE, SHOP_LICENSE, startMetrcEmulator, type RunningEmulator } from '#app/metrc/emulator'
import { linkOf, saveLink } from '#app/metrc/sync/links.server'
import { metrcPanelAction } from '#app/metrc/sync/actions.server'
import { metrcPanel } from '#app/metrc/sync/panel.server'
import { syncStatus } from '#app/metrc/sync/run.server'
import { MetrcSyncer, registerSyncer } from '#app/metrc/sync/syncer.server'
import { SYNC_TABLES } from '#app/metrc/sync/tables'
import { ROUTES } from '#app/route-map'
import { ensurePlatform } from '#app/seed/index.server'
import { openTestDatabase, tmpDir, type TestDatabase } from '#tests/helpers/db'

const HARBOR_KEY = 'canopy-demo-user-key-harbor'
let emu: RunningEmulator
let t: TestDatabase
let env: Env
let syncer: MetrcSyncer
const seen = () => emu.requests
const faults = (b: Record<string, unknown>) => Object.assign(emu.faults, b)
const route = (path: string) => ROUTES.find((r) => r.path === path)!
const admin = { uid: 'u-admin', role: 'admin', modules: {} } as never
const user = { uid: 'u-compliance', role: 'user', modules: {} } as never
const ctx = () => ({ database: t, env, logger: pino({ level: 'silent' }), requestId: 'test' }) as unknown as AppLoadContext
const signedIn = (u: unknown) => ({ user: u, session: { orig_uid: null } }) as never
const post = (b: Record<string, string>) => {
  const f = new FormData()
  for (const [k, v] of Object.entries(b)) f.set(k, v)
  return f
}

beforeAll(async () => {
  emu = await startMetrcEmulator({ dataDir: tmpDir(), seed: { plants: 60, packages: 30 } })
  registerMetrcEndpoint({ vendorKey: emu.vendorKey, baseUrl: () => emu.url, emulated: true })
  t = await openTestDatabase()
  env = loadEnv({ DATA_DIR: tmpDir(), METRC_SYNC_DATA_MINUTES: '5', METRC_SYNC_REFERENCE_MINUTES: '1440' })
  await ensurePlatform(t, env)
  syncer = new MetrcSyncer(t, env, { client: { throttle: new GetThrottle(), backoff: { baseMs: 20, maxMs: 100 } } })
  registerSyncer(syncer)
  const a = { uid: 'test' }
  await saveLink(t, env.SESSION_SECRET, a, 'grow', { state: 'CA', license: GROW_LICENSE, key: DEMO_USER_KEY }, null)
  await saveLink(t, env.SESSION_SECRET, a, 'shop', { state: 'CA', license: SHOP_LICENSE, key: DEMO_USER_KEY }, null)
  await saveLink(t, env.SESSION_SECRET, a, 'harbor', { state: 'CO', license: '404-X0003', key: HARBOR_KEY }, null)
})
afterAll(async () => {
  registerSyncer(null)
  registerMetrcEndpoint(null)
  await emu?.close()
  await t?.cleanup()
})
beforeEach(() => {
  emu.clearRequests()
  faults({ down: false, slowMs: 0, storm429: 0, retryAfterS: 1, expiredKeys: [] })
})

describe('the syncer', () => {
  it('schedules every table the first time, then only what its interval makes due', async () => {
    expect((await syncer.due('grow')).sort()).toEqual([...SYNC_TABLES.keys()].sort())
    const r = await syncer.run('grow')
    expect(r.filter((x) => x.status !== 'done')).toEqual([])
    expect(await syncer.due('grow')).toEqual([])
    // 6 minutes on: the data tables are due again, the reference tables not before a day
    const later = await syncer.due('grow', Date.now() + 6 * 60_000)
    expect(later.sort()).toEqual([...SYNC_TABLES.values()].filter((x) => x.kind === 'data').map((x) => x.collection).sort())
    expect(await syncer.due('grow', Date.now() + 25 * 3_600_000)).toHaveLength(SYNC_TABLES.size)
  })

  it('runs one (org, table) at a time: asking again while it is queued joins that run', async () => {
    faults({ slowMs: 30 })
    const [a, b] = await Promise.all([syncer.run('grow', ['metrc_units']), syncer.run('grow', ['metrc_units'])])
    expect(a[0]).toBe(b[0])
    expect(seen().filter((s) => s.path === '/unitsofmeasure/v2/active')).toHaveLength(1)
  })

  it("keeps a queue per organisation: a slow one does not hold up another's", async () => {
    faults({ slowMs: 400 })
    const t0 = Date.now()
    const slow = syncer.run('grow', ['metrc_strains', 'metrc_items', 'metrc_rooms'])
    await new Promise((r) => setTimeout(r, 50))
    faults({ slowMs: 0 })
    const fast = await syncer.run('shop', ['metrc_units'])
    const fastMs = Date.now() - t0
    expect(fast[0].status).toBe('done')
    await slow
    expect(fastMs).toBeLessThan(Date.now() - t0)
  })

  it('waits out a 429 storm and completes', async () => {
    faults({ storm429: 4, retryAfterS: 0.05 })
    const r = await syncer.run('grow', ['metrc_units', 'metrc_lab_types'])
    expect(r.map((x) => x.status)).toEqual(['done', 'done'])
    expect(seen().filter((s) => s.status === 429).length).toBe(4)
  })

  it("stops an organisation's queue and schedule once METRC refuses its key; others go on; a new key resumes", async () => {
    faults({ expiredKeys: [HARBOR_KEY] })
    const r = await syncer.run('harbor', ['metrc_units', 'metrc_items', 'metrc_packages'])
    expect(r.map((x) => x.status)).toEqual(['failed', 'skipped', 'skipped'])
    expect((await linkOf(t, 'harbor'))!.status).toBe('failing')
    expect(seen().filter((s) => s.status === 401)).toHaveLength(1)
    emu.clearRequests()
    await syncer.tick() // harbor's tables are due, but its key is failing: nothing is asked of METRC for it
    await syncer.stop()
    expect(seen().filter((s) => s.license === '404-X0003' || s.status === 401)).toEqual([])
    expect((await syncStatus(t, 'harbor', 'metrc_items'))).toBeNull()
    expect((await syncer.run('shop', ['metrc_units']))[0].status).toBe('done')
    faults({ expiredKeys: [] })
    const check = async () => ({ ok: true as const, facility: {} })
    await saveLink(t, env.SESSION_SECRET, { uid: 'u-admin' }, 'harbor', { state: 'CO', license: '404-X0003', key: HARBOR_KEY }, check)
    expect((await syncer.run('harbor', ['metrc_units']))[0].status).toBe('done')
  })
})

describe('the Metrc screen panel', () => {
  it('says when the table was last synced and whether it is current; Sync now runs it', async () => {
    const p = (await metrcPanel(ctx(), user, route('/MetrcPlants'), 'grow', 'UTC'))!
    expect(p).toMatchObject({ collection: 'metrc_plants', linked: true, current: true, canSync: true, connection: null, status: 'ok' })
    expect(p.lastOk).toMatch(/^\d\d\/\d\d\/\d{4} \d\d:\d\d [AP]M$/)
    expect(JSON.stringify(p)).not.toContain(DEMO_USER_KEY)
    expect(await metrcPanel(ctx(), user, route('/MetrcWMix'), 'grow', 'UTC').then((x) => x?.collection)).toBe('metrc_wmix')
    const before = (await syncStatus(t, 'grow', 'metrc_plants'))!.finishedAt
    expect(await metrcPanelAction(ctx(), signedIn(user), route('/MetrcPlants'), 'grow', post({ intent: 'metrc-sync' }))).toEqual({ ok: true })
    expect((await syncStatus(t, 'grow', 'metrc_plants'))!.finishedAt).not.toBe(before)
    expect(await metrcPanelAction(ctx(), signedIn(user), route('/MetrcPlants'), 'grow', post({ intent: 'toggle' }))).toBeNull()
  })

  it('says METRC is unreachable and since when; Sync now answers the error', async () => {
    faults({ down: true })
    const slowSyncer = new MetrcSyncer(t, env, { client: { throttle: new GetThrottle(), attempts: 2, backoff: { baseMs: 10, maxMs: 20 }, maxRetryAfterMs: 20 } })
    registerSyncer(slowSyncer)
    try {
      const r = await metrcPanelAction(ctx(), signedIn(user), route('/MetrcUnits'), 'grow', post({ intent: 'metrc-sync' }))
      expect(r).toMatchObject({ status: 502, error: expect.stringMatching(/METRC sync failed/) })
      const p = (await metrcPanel(ctx(), user, route('/MetrcUnits'), 'grow', 'UTC'))!
      expect(p).toMatchObject({ status: 'error', current: false })
      expect(p.error).toMatch(/not answering|maintenance/)
      expect(p.errorSince).toBe(p.lastOk)
    } finally {
      registerSyncer(syncer)
      faults({ down: false })
    }
  })

  it('lets administrators, on /MetrcLicense only, save the connection once METRC takes it; the key stays write-only', async () => {
    const lic = route('/MetrcLicense')
    expect((await metrcPanel(ctx(), user, lic, 'grow', 'UTC'))!.connection).toBeNull()
    const form = (await metrcPanel(ctx(), admin, lic, 'grow', 'UTC'))!.connection!
    expect(form).toMatchObject({ state: 'CA', license: GROW_LICENSE, keyHint: DEMO_USER_KEY.slice(-4) })
    expect(await metrcPanelAction(ctx(), signedIn(user), lic, 'grow', post({ intent: 'metrc-link', state: 'CA', license: GROW_LICENSE, key: DEMO_USER_KEY }))).toMatchObject({ status: 403 })
    expect(await metrcPanelAction(ctx(), signedIn(admin), route('/MetrcPlants'), 'grow', post({ intent: 'metrc-link', state: 'CA', license: GROW_LICENSE, key: DEMO_USER_KEY }))).toMatchObject({ status: 403 })
    const wrongLic = await metrcPanelAction(ctx(), signedIn(admin), lic, 'grow', post({ intent: 'metrc-link', state: 'CA', license: '999-NOPE', key: '' }))
    expect(wrongLic).toMatchObject({ status: 400, error: expect.stringMatching(/State License was incorrect/) })
    const wrongKey = await metrcPanelAction(ctx(), signedIn(admin), lic, 'grow', post({ intent: 'metrc-link', state: 'CA', license: GROW_LICENSE, key: 'not-a-key' }))
    expect(wrongKey).toMatchObject({ status: 400, error: expect.stringMatching(/did not accept/) })
    expect((await linkOf(t, 'grow'))!.license).toBe(GROW_LICENSE)
    // the license again with the key left empty: the stored key is kept, checked, saved
    expect(await metrcPanelAction(ctx(), signedIn(admin), lic, 'grow', post({ intent: 'metrc-link', state: 'CA', license: GROW_LICENSE, key: '' }))).toMatchObject({ ok: true })
    expect((await linkOf(t, 'grow'))!.status).toBe('ok')
    const audit = await t.db.query<{ after: unknown }>(`SELECT after FROM audit_log WHERE org = 'grow' AND collection = 'metrc_links' ORDER BY seq DESC LIMIT 1`)
    expect(JSON.stringify(audit.rows[0].after)).not.toContain(DEMO_USER_KEY)
  })
})
