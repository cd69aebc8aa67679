/**
 * Sync of every Metrc table from the METRC emulator (issue 9 item 4), on both databases: the
 * link's credentials are checked before they are saved (and the key is sealed); every table
 * fills; a second run changes nothing (no audit rows); data tables then read only what changed
 * since the last run; an expired key marks the link failing; METRC down is recorded as an error;
 * another facility is never touched.
 */
import pino from 'pino'
import { loadEnv, type Env } from '#app/config/env.server'
import { MetrcClient } from '#app/metrc/client/client.server'
import { GetThrottle } from '#app/metrc/client/limits'
import type { MetrcEndpoint } from '#app/metrc/connection.server'
import { credentialChecker } from '#app/metrc/credentials.server'
import { DEMO_USER_KEY, GROW_LICENSE, SHOP_LICENSE, startMetrcEmulator, type RunningEmulator } from '#app/metrc/emulator'
import { linkOf, saveLink } from '#app/metrc/sync/links.server'
import { syncFacility, syncStatus, syncTable } from '#app/metrc/sync/run.server'
import { startSyncScheduler } from '#app/metrc/sync/scheduler.server'
import { SYNC_TABLES } from '#app/metrc/sync/tables'
import { ensurePlatform } from '#app/seed/index.server'
import { openTestDatabase, tmpDir, type TestDatabase } from '#tests/helpers/db'

let emu: RunningEmulator
let t: TestDatabase
let env: Env
let endpoint: MetrcEndpoint
const actor = { uid: 'u-admin', requestId: 'metrc-sync' }
const o = () => ({ database: t, secret: env.SESSION_SECRET, endpoint, logger: pino({ level: 'silent' }), client: { attempts: 2, maxRetryAfterMs: 50, backoff: { baseMs: 20, maxMs: 50 } } })
const audits = async (org: string) => (await t.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM audit_log WHERE org = $1 AND collection LIKE 'metrc_%'`, [org])).rows[0].n

beforeAll(async () => {
  emu = await startMetrcEmulator({ dataDir: tmpDir(), seed: { plants: 70, packages: 30 } })
  t = await openTestDatabase()
  env = { ...loadEnv({ DATA_DIR: tmpDir() }), METRC_VENDOR_KEY: emu.vendorKey, METRC_URL: emu.url }
  endpoint = { vendorKey: emu.vendorKey, baseUrl: () => emu.url, emulated: true }
  await ensurePlatform(t, env)
})
afterAll(async () => {
  await emu?.close()
  await t?.cleanup()
})

describe('the link to METRC', () => {
  it('is saved only with a license the key reaches, the key sealed and never in the audit', async () => {
    const check = credentialChecker(env)
    await expect(saveLink(t, env.SESSION_SECRET, actor, 'greenleaf', { state: 'CA', license: '999-NOPE', key: DEMO_USER_KEY }, check)).rejects.toThrow(/State License was incorrect/)
    await expect(saveLink(t, env.SESSION_SECRET, actor, 'greenleaf', { state: 'CA', license: GROW_LICENSE, key: 'bad' }, check)).rejects.toThrow(/did not accept that API key/)
    expect(await linkOf(t, 'greenleaf')).toBeNull()
    const link = await saveLink(t, env.SESSION_SECRET, actor, 'greenleaf', { state: 'CA', license: GROW_LICENSE, key: DEMO_USER_KEY }, check)
    expect(link).toMatchObject({ org: 'greenleaf', license: GROW_LICENSE, status: 'ok' })
    const raw = await t.db.query<{ key_sealed: string }>('SELECT key_sealed FROM metrc_links WHERE org = $1', ['greenleaf'])
    expect(raw.rows[0].key_sealed).toMatch(/^sealed:v1:/)
    const a = await t.db.query<{ after: unknown }>(`SELECT after FROM audit_log WHERE collection = 'metrc_links'`)
    expect(JSON.stringify(a.rows)).not.toContain(DEMO_USER_KEY)
    await saveLink(t, env.SESSION_SECRET, actor, 'harbor', { state: 'CA', license: SHOP_LICENSE, key: DEMO_USER_KEY }, check)
  })
})

describe('sync', () => {
  it('fills every Metrc table, and a second run changes nothing', async () => {
    const first = await syncFacility(o(), 'greenleaf')
    // California's METRC has no patients: that table is skipped, and says why
    expect(first.filter((r) => r.status !== 'done')).toEqual([expect.objectContaining({ collection: 'metrc_patients', status: 'skipped' })])
    expect(await syncStatus(t, 'greenleaf', 'metrc_patients')).toMatchObject({ status: 'idle', note: 'METRC in CA has no such list.' })
    expect(first.map((r) => r.collection).sort()).toEqual([...SYNC_TABLES.keys()].sort())
    expect(await t.store.count('greenleaf', 'metrc_plants')).toBe(70)
    expect(await t.store.count('greenleaf', 'metrc_packages')).toBe(30)
    expect(await t.store.count('greenleaf', 'metrc_units')).toBe(8)
    const [lic] = await t.store.find('greenleaf', 'metrc_license', {}, 5)
    expect(lic).toMatchObject({ Number: GROW_LICENSE, CanGrowPlants: 'yes', State: 'CA' }) // check fields store yes/no
    const [plant] = await t.store.find('greenleaf', 'metrc_plants', {}, 1)
    expect(plant._id).toMatch(/^m\d+$/)
    expect(plant.Label).toMatch(/^1A4/)
    const before = await audits('greenleaf')
    const again = await syncFacility(o(), 'greenleaf')
    expect(again.filter((r) => r.changed).map((r) => [r.collection, r.changed])).toEqual([])
    expect(await audits('greenleaf')).toBe(before)
    // a facility that cannot grow gets no plants, and nothing of greenleaf
    await syncFacility(o(), 'harbor')
    expect(await t.store.count('harbor', 'metrc_plants')).toBe(0)
    expect(await t.store.count('harbor', 'metrc_packages')).toBe(20)
  })

  it('reads data tables by lastModified after the first run and picks up a change made in METRC', async () => {
    const f = emu.state.facilities[GROW_LICENSE]
    const p = f.packages.find((x) => !x.IsFinished)!
    p.Note = 'changed in METRC'
    p.LastModified = new Date().toISOString()
    const r = await syncTable(o(), 'greenleaf', 'metrc_packages')
    expect(r).toMatchObject({ status: 'done', changed: 1 })
    const last = emu.requests.filter((x) => x.path === '/packages/v2/active').at(-1)!
    expect(last.query).toContain('lastModifiedStart=')
    expect((await t.store.get('greenleaf', 'metrc_packages', `m${p.Id}`))!.Note).toBe('changed in METRC')
    expect((await syncStatus(t, 'greenleaf', 'metrc_packages'))).toMatchObject({ status: 'idle', changed: 1, error: null })
  })

  it("mirrors the tags on hand, each kind from its list; a tag used in METRC is gone after the next sync; plant tags only where plants grow", async () => {
    const f = emu.state.facilities[GROW_LICENSE]
    const tags = (org: string, Type: string) => t.store.count(org, 'metrc_tags', { Type })
    expect(await tags('greenleaf', 'Plant')).toBe(f.tags.plant.length)
    expect(await tags('greenleaf', 'Package')).toBe(f.tags.package.length)
    const [plantTag, packageTag] = [f.tags.plant[0], f.tags.package[0]]
    expect(await t.store.get('greenleaf', 'metrc_tags', `t-${plantTag}`)).toMatchObject({ Label: plantTag, Type: 'Plant', TagInventoryTypeName: 'MedicalPlant', MetrcId: expect.any(Number) })
    expect(await t.store.get('greenleaf', 'metrc_tags', `t-${packageTag}`)).toMatchObject({ Label: packageTag, Type: 'Package' })
    // a distributor's licence: its package tags, no plant tags (METRC refuses that list there), and the table is done
    expect(await syncStatus(t, 'harbor', 'metrc_tags')).toMatchObject({ status: 'idle', error: null, refused: null })
    expect(await tags('harbor', 'Plant')).toBe(0)
    expect(await tags('harbor', 'Package')).toBe(emu.state.facilities[SHOP_LICENSE].tags.package.length)
    // the tags used in METRC (what a confirmed push of new plants or a new package does): METRC lists them no more
    const today = new Date().toISOString().slice(0, 10)
    const client = new MetrcClient({ baseUrl: emu.url, vendorKey: emu.vendorKey, userKey: DEMO_USER_KEY, throttle: new GetThrottle() })
    const batch = f.plantBatches.find((b) => Number(b.UntrackedCount) >= 2)!
    await client.write('POST', '/plantbatches/v2/growthphase', [{ Name: batch.Name, Count: 2, StartingTag: plantTag, GrowthPhase: 'Vegetative', NewLocation: 'Veg Room', GrowthDate: today }], { license: GROW_LICENSE })
    const item = f.items.find((i) => i.QuantityType === 'WeightBased')!.Name
    await client.write('POST', '/packages/v2', [{ Tag: packageTag, Item: item, Quantity: 1, UnitOfMeasure: 'Grams', Location: 'Vault', ActualDate: today, IsProductionBatch: false, IsDonation: false, ProductRequiresRemediation: false, UseSameItem: false }], { license: GROW_LICENSE })
    const before = { plant: await tags('greenleaf', 'Plant'), package: await tags('greenleaf', 'Package') }
    const r = await syncTable(o(), 'greenleaf', 'metrc_tags')
    expect(r).toMatchObject({ status: 'done', changed: 3 })
    expect(await tags('greenleaf', 'Plant')).toBe(before.plant - 2)
    expect(await tags('greenleaf', 'Package')).toBe(before.package - 1)
    expect(await t.store.get('greenleaf', 'metrc_tags', `t-${plantTag}`)).toBeNull()
    expect(await t.store.get('greenleaf', 'metrc_tags', `t-${packageTag}`)).toBeNull()
    // the tags still waiting kept their records (their Ids do not move as the list shrinks): nothing else changed
    expect((await syncTable(o(), 'greenleaf', 'metrc_tags')).changed).toBe(0)
  })

  it('an expired key marks the link failing; METRC down is recorded; the other facility is untouched', async () => {
    emu.faults.expiredKeys = [DEMO_USER_KEY]
    const r = await syncTable(o(), 'greenleaf', 'metrc_strains')
    expect(r.status).toBe('failed')
    expect(await linkOf(t, 'greenleaf')).toMatchObject({ status: 'failing', lastError: expect.stringMatching(/denied/) })
    emu.faults.expiredKeys = []
    emu.faults.down = true
    const d = await syncTable({ ...o(), endpoint: { ...endpoint } }, 'greenleaf', 'metrc_units')
    expect(d.status).toBe('failed')
    expect((await syncStatus(t, 'greenleaf', 'metrc_units'))!.error).toMatch(/not answering|503|down/i)
    expect((await syncStatus(t, 'greenleaf', 'metrc_units'))!.okAt).not.toBeNull() // in step until then: "since"
    emu.faults.down = false
    expect((await syncTable(o(), 'greenleaf', 'metrc_units')).status).toBe('done')
    expect(await linkOf(t, 'greenleaf')).toMatchObject({ status: 'ok', failingSince: null })
    expect((await linkOf(t, 'harbor'))!.status).toBe('ok')
  })
})

describe('the schedule', () => {
  it("syncs each linked facility's due tables in its own queue, and leaves a failing key alone", async () => {
    await saveLink(t, env.SESSION_SECRET, actor, 'orgc', { state: 'CA', license: GROW_LICENSE, key: DEMO_USER_KEY }, null)
    await t.db.query(`UPDATE metrc_links SET status = 'failing', failing_since = now() WHERE org = 'harbor'`)
    const before = await syncStatus(t, 'harbor', 'metrc_units')
    const s = startSyncScheduler({ env: { ...env, METRC_SYNC_DATA_MIN: 5, METRC_SYNC_REFERENCE_H: 24 }, database: t, logger: pino({ level: 'silent' }), tickMs: 50 })
    try {
      const end = Date.now() + 20_000
      while (!((await syncStatus(t, 'orgc', 'metrc_packages'))?.okAt) && Date.now() < end) await new Promise((r) => setTimeout(r, 100))
      await s.idle()
      expect((await syncStatus(t, 'orgc', 'metrc_units'))?.okAt).toBeTruthy()
      expect(await t.store.count('orgc', 'metrc_plants')).toBe(72) // the 70 seeded and the 2 the tags case grew
      expect(await syncStatus(t, 'harbor', 'metrc_units')).toEqual(before) // failing key: not tried
    } finally {
      s.stop()
      await s.idle()
    }
  })
})
