/**
 * METRC sync against the real emulator over HTTP (issue 9 item 4), on the Canopy database: every
 * synced Metrc table is filled from METRC; a second run changes nothing and writes no audit row;
 * a change in METRC comes in through the lastModified window since the high water; a 401 marks the
 * link failing and stops the organisation's syncs; a 429 storm is waited out; METRC down is
 * recorded with since when; another organisation is not held up; a link is saved only once METRC
 * takes it, audited without the key.
 */
import { loadEnv, type Env } from '#app/config/env.server'
import { GetThrottle } from '#app/metrc/client/limits'
import { DEMO_USER_KEY, GROW_LICENSE, SHOP_LICENSE, startMetrcEmulator, type RunningEmulator } from '#app/metrc/emulator'
import { registerMetrcEndpoint } from '#app/metrc/connection.server'
import { ensureLink, getLink, saveLink } from '#app/metrc/link.server'
import { MetrcSyncer } from '#app/metrc/sync/syncer.server'
import { syncState, syncStates } from '#app/metrc/sync/state.server'
import { SYNC_TABLES } from '#app/metrc/sync/table-map'
import { ensurePlatform } from '#app/seed/index.server'
import { openTestDatabase, tmpDir, type TestDatabase } from '#tests/helpers/db'

const HARBOR_KEY = 'canopy-demo-user-key-harbor'
const HARBOR_LICENSE = '404-X0003'
let emu: RunningEmulator
let t: TestDatabase
let env: Env
let syncer: MetrcSyncer
const seen: Array<{ path: string; status: number }> = []
const faults = (b: Record<string, unknown>) => Object.assign(emu.faults, b)
const audits = async (org: string, collection?: string) =>
  (await t.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM audit_log WHERE org = $1 ${collection ? 'AND collection = $2' : "AND collection LIKE 'metrc%'"}`, collection ? [org, collection] : [org])).rows[0].n
const count = (org: string, c: string) => t.store.count(org, c)

beforeAll(async () => {
  emu = await startMetrcEmulator({ dataDir: tmpDir(), seed: { plants: 130, packages: 45 } })
  registerMetrcEndpoint({ vendorKey: emu.vendorKey, baseUrl: () => emu.url, emulated: true })
  t = await openTestDatabase()
  env = { ...loadEnv({ DATA_DIR: tmpDir(), METRC_SYNC_DATA_MINUTES: '5', METRC_SYNC_REFERENCE_MINUTES: '1440' }) }
  await ensurePlatform(t, env)
  syncer = new MetrcSyncer(t, env, { client: { throttle: new GetThrottle(), backoff: { baseMs: 20, maxMs: 100 }, onRequest: (r) => void seen.push(r) } })
  await ensureLink(t, env.SESSION_SECRET, 'grow', { state: 'CA', license: GROW_LICENSE, key: DEMO_USER_KEY })
  await ensureLink(t, env.SESSION_SECRET, 'shop', { state: 'CA', license: SHOP_LICENSE, key: DEMO_USER_KEY })
  await ensureLink(t, env.SESSION_SECRET, 'harbor', { state: 'CO', license: HARBOR_LICENSE, key: HARBOR_KEY })
})
afterAll(async () => {
  registerMetrcEndpoint(null)
  await emu?.close()
  await t?.cleanup()
})
beforeEach(() => {
  seen.length = 0
  faults({ down: false, slowMs: 0, storm429: 0, retryAfterS: 1, expiredKeys: [] })
})

describe('a full sync', () => {
  it('fills every synced Metrc table from METRC, each row once, with stable ids', async () => {
    const run = await syncer.run('grow')
    expect(run.errors).toEqual([])
    expect(run.results.map((r) => r.collection).sort()).toEqual(SYNC_TABLES.map((x) => x.collection).sort())
    // every table has rows at a cultivation license, but patients (a dispensary's: below)
    for (const r of run.results) if (r.collection !== 'metrc_patients') expect(r.rowsSeen, r.collection).toBeGreaterThan(0)
    const f = emu.state.facilities[GROW_LICENSE]
    expect(await count('grow', 'metrc_plants')).toBe(f.plants.length)
    expect(await count('grow', 'metrc_packages')).toBe(f.packages.length)
    expect(await count('grow', 'metrc_units')).toBe(6)
    expect(await count('grow', 'metrc_license')).toBe(1)
    const plant = f.plants[0]
    const doc = await t.store.get('grow', 'metrc_plants', `metrc-${plant.Id}`)
    expect(doc).toMatchObject({ Label: plant.Label, GrowthPhase: plant.GrowthPhase, IsOnHold: 'no', IsUsed: 'yes' })
    const [lic] = await t.store.find('grow', 'metrc_license')
    expect(lic).toMatchObject({ Number: GROW_LICENSE, State: 'CA', CanGrowPlants: 'yes' })
    // plants: vegetative + flowering + inactive, paged by 20: no more requests than pages (130 plants)
    const plantGets = seen.filter((s) => s.path.startsWith('/plants/v2/') && ['vegetative', 'flowering', 'inactive'].some((k) => s.path.endsWith(k)))
    const pages = ['Vegetative', 'Flowering'].reduce((n, ph) => n + Math.max(1, Math.ceil(f.plants.filter((p) => p.State === 'Tracked' && p.GrowthPhase === ph).length / 20)), 1)
    expect(plantGets.length).toBe(pages)
    const st = await syncState(t, 'grow', 'metrc_plants')
    expect(st).toMatchObject({ status: 'ok', rowsSeen: f.plants.length, rowsChanged: f.plants.length, error: null })
    expect(st!.highWater).not.toBeNull()
  })

  it('changes nothing when run again: 0 changed, no audit rows, no change event', async () => {
    const before = await audits('grow')
    let events = 0
    const on = () => void events++
    t.store.events.on('change', on)
    const run = await syncer.run('grow')
    t.store.events.off('change', on)
    expect(run.errors).toEqual([])
    expect(run.results.reduce((n, r) => n + r.inserted + r.updated, 0)).toBe(0)
    expect(await audits('grow')).toBe(before)
    expect(events).toBe(0)
    // data tables read only the window since the high water the second time
    expect(run.results.find((r) => r.collection === 'metrc_plants')!.incremental).toBe(true)
    expect(seen.some((s) => s.path === '/plants/v2/vegetative')).toBe(true)
  })

  it('brings in a change METRC made through the lastModified window since the high water', async () => {
    const f = emu.state.facilities[GROW_LICENSE]
    const p = f.plants.find((x) => x.GrowthPhase === 'Vegetative')!
    const old = f.plants.find((x) => x !== p && x.GrowthPhase === 'Vegetative')!
    Object.assign(p, { GrowthPhase: 'Flowering', FloweringDate: new Date().toISOString().slice(0, 10), LastModified: new Date().toISOString() })
    // a change dated before the high water is not asked for again (that is what the window is for)
    Object.assign(old, { LocationName: 'Nowhere' })
    const before = await audits('grow', 'metrc_plants')
    const run = await syncer.run('grow', ['metrc_plants'])
    expect(run.errors).toEqual([])
    expect(run.results[0]).toMatchObject({ incremental: true, updated: 1, inserted: 0 })
    expect(await t.store.get('grow', 'metrc_plants', `metrc-${p.Id}`)).toMatchObject({ GrowthPhase: 'Flowering' })
    expect((await t.store.get('grow', 'metrc_plants', `metrc-${old.Id}`))!.LocationName).not.toBe('Nowhere')
    expect(await audits('grow', 'metrc_plants')).toBe(before + 1)
    const [last] = (await t.store.history('grow', 'metrc_plants', `metrc-${p.Id}`)).slice(-1)
    expect(last).toMatchObject({ action: 'update', uid: 'metrc-sync' })
  })

  it('syncs plant tables of a license that cannot grow plants as empty (METRC answers 403 there)', async () => {
    const run = await syncer.run('shop', ['metrc_plants', 'metrc_plant_growth', 'metrc_packages'])
    expect(run.errors).toEqual([])
    expect(await count('shop', 'metrc_plants')).toBe(0)
    expect(await count('shop', 'metrc_packages')).toBe(emu.state.facilities[SHOP_LICENSE].packages.length)
    expect((await syncer.run('shop', ['metrc_patients'])).errors).toEqual([])
    expect(await count('shop', 'metrc_patients')).toBe(emu.state.facilities[SHOP_LICENSE].patients.length)
    expect(await count('shop', 'metrc_patients')).toBeGreaterThan(0)
  })
})

describe('faults', () => {
  it('waits out a 429 storm and completes', async () => {
    faults({ storm429: 4, retryAfterS: 0.05 })
    const run = await syncer.run('grow', ['metrc_units', 'metrc_strains', 'metrc_items'])
    expect(run.errors).toEqual([])
    expect(seen.filter((s) => s.status === 429).length).toBe(4)
    expect((await syncState(t, 'grow', 'metrc_items'))!.status).toBe('ok')
  })

  it('records METRC down with since when, and the other organisation is not held up', async () => {
    faults({ slowMs: 300 })
    const slow = syncer.run('grow', ['metrc_plants', 'metrc_packages'])
    const t0 = Date.now()
    faults({ slowMs: 0 })
    // harbor's queue is its own: it finishes while grow's is still slow
    const other = await new MetrcSyncer(t, env, { client: { throttle: new GetThrottle() } }).run('harbor', ['metrc_units'])
    expect(other.errors).toEqual([])
    await slow
    expect(Date.now() - t0).toBeLessThan(20_000)

    faults({ down: true })
    const down = await new MetrcSyncer(t, env, { client: { throttle: new GetThrottle(), attempts: 2, backoff: { baseMs: 10, maxMs: 20 }, maxRetryAfterMs: 20 } }).run('grow', ['metrc_strains'])
    expect(down.errors[0]).toMatchObject({ collection: 'metrc_strains', kind: 'unavailable' })
    const st = (await syncState(t, 'grow', 'metrc_strains'))!
    expect(st.status).toBe('error')
    expect(st.error).toMatch(/down for maintenance/)
    expect(st.errorSince).not.toBeNull()
    expect(st.okAt).not.toBeNull() // the last good run is still known
    expect((await getLink(t, env.SESSION_SECRET, 'grow'))!.status).toBe('ok') // down is not a bad key
    faults({ down: false })
    expect((await syncer.run('grow', ['metrc_strains'])).errors).toEqual([])
    expect((await syncState(t, 'grow', 'metrc_strains'))!).toMatchObject({ status: 'ok', error: null, errorSince: null })
  })

  it('marks the link failing on a 401 and stops that organisation only, until a key that works is saved', async () => {
    faults({ expiredKeys: [HARBOR_KEY] })
    const run = await syncer.run('harbor', ['metrc_units', 'metrc_items', 'metrc_packages'])
    expect(run.errors.map((e) => e.kind)).toEqual(['unauthorized', 'unauthorized', 'unauthorized'])
    const link = (await getLink(t, env.SESSION_SECRET, 'harbor'))!
    expect(link).toMatchObject({ status: 'failing' })
    expect(link.failingSince).not.toBeNull()
    // the later tables were not even asked for once the key was known bad
    expect(seen.filter((s) => s.status === 401).length).toBe(1)
    expect(await syncer.due('harbor')).not.toHaveLength(0)
    // another organisation syncs on
    expect((await syncer.run('grow', ['metrc_units'])).errors).toEqual([])
    // a key METRC refuses is not saved; one it takes is, audited without the key
    await expect(saveLink(t, env, { uid: 'u-admin' }, 'harbor', { state: 'CO', license: HARBOR_LICENSE, key: 'not-a-key' })).rejects.toThrow(/does not accept/)
    await expect(saveLink(t, env, { uid: 'u-admin' }, 'harbor', { state: 'CO', license: '999-NOPE', key: DEMO_USER_KEY })).rejects.toThrow(/does not list license/)
    faults({ expiredKeys: [] })
    const saved = await saveLink(t, env, { uid: 'u-admin' }, 'harbor', { state: 'CO', license: HARBOR_LICENSE, key: HARBOR_KEY })
    expect(saved).toMatchObject({ status: 'ok', keyHint: HARBOR_KEY.slice(-4), failingSince: null })
    const [row] = (await t.store.history('harbor', 'metrc_links', 'harbor')).slice(-1)
    expect(JSON.stringify(row)).not.toContain(HARBOR_KEY)
    expect((await syncer.run('harbor', ['metrc_units'])).errors).toEqual([])
  })

  it('runs one (org, table) at a time: asking again while it runs joins that run', async () => {
    faults({ slowMs: 50 })
    seen.length = 0
    const [a, b] = await Promise.all([syncer.run('grow', ['metrc_units']), syncer.run('grow', ['metrc_units'])])
    expect(a.results[0]).toBe(b.results[0])
    expect(seen.filter((s) => s.path === '/unitsofmeasure/v2/active')).toHaveLength(1)
    expect((await syncStates(t, 'grow')).get('metrc_units')!.status).toBe('ok')
  })
})
