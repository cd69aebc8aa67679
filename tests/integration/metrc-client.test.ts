/**
 * The METRC client against the METRC emulator over real HTTP (issue 9): paging (the first page,
 * then the rest together), 24 h lastModified windows walked forward, retries that honour
 * Retry-After on 429 and 503, none on 401, writes in batches of 10 with row messages numbered in
 * the whole list; and the credentials check of the sign-in flow (wrong license → error_lic, wrong
 * key → error_metrc, right → valid, METRC down → pending), on the Canopy database.
 */
import { submitCredentials } from '#app/auth/flow.server'
import { loadEnv, type Env } from '#app/config/env.server'
import { MetrcClient } from '#app/metrc/client/client.server'
import { MetrcError } from '#app/metrc/client/errors'
import { GetThrottle } from '#app/metrc/client/limits'
import { checkCredentials, credentialChecker } from '#app/metrc/credentials.server'
import { DEMO_USER_KEY, GROW_LICENSE, SHOP_LICENSE, startMetrcEmulator, type RunningEmulator } from '#app/metrc/emulator'
import { ensurePlatform } from '#app/seed/index.server'
import { openTestDatabase, tmpDir, type TestDatabase } from '#tests/helpers/db'

let emu: RunningEmulator
let t: TestDatabase
let env: Env
const today = new Date().toISOString().slice(0, 10)
const seen: Array<{ method: string; path: string; status: number }> = []
const client = (o: Partial<ConstructorParameters<typeof MetrcClient>[0]> = {}) =>
  new MetrcClient({ baseUrl: emu.url, vendorKey: emu.vendorKey, userKey: DEMO_USER_KEY, throttle: new GetThrottle(), backoff: { baseMs: 20, maxMs: 100 }, onRequest: (r) => seen.push(r), ...o })
const faults = (b: Record<string, unknown>) => Object.assign(emu.faults, b)

beforeAll(async () => {
  emu = await startMetrcEmulator({ dataDir: tmpDir(), seed: { plants: 130, packages: 45 } })
  t = await openTestDatabase()
  env = { ...loadEnv({ DATA_DIR: tmpDir() }) }
  await ensurePlatform(t, env)
})
afterAll(async () => {
  await emu?.close()
  await t?.cleanup()
})
beforeEach(() => {
  seen.length = 0
  faults({ down: false, slowMs: 0, storm429: 0, retryAfterS: 1, expiredKeys: [] })
})

describe('reads', () => {
  it('reads every page of a list: the first, then the rest together, no more requests than the pages', async () => {
    const rows = await client().list<{ Label: string }>('/packages/v2/active', { license: GROW_LICENSE })
    expect(rows).toHaveLength(44) // the seed's 45th is on hold (METRC's /onhold list)
    expect(new Set(rows.map((r) => r.Label)).size).toBe(44)
    expect(seen.filter((r) => r.path === '/packages/v2/active')).toHaveLength(3) // ceil(45 / 20)
    const units = await client().list<{ Name: string }>('/unitsofmeasure/v2/active')
    expect(units.map((u) => u.Name)).toContain('Grams') // a bare array, one request
  })
  it('walks lastModified windows of 24 h forward, oldest first', async () => {
    const to = new Date()
    const from = new Date(to.getTime() - 3.5 * 86_400_000)
    const windows: string[] = []
    const rows = await client().listModified<{ LastModified: string }>('/plants/v2/vegetative', { license: GROW_LICENSE, from, to, onWindow: (_r, w) => void windows.push(w.start.toISOString()) })
    expect(windows).toHaveLength(4)
    expect([...windows].sort()).toEqual(windows)
    for (const r of rows) expect(Date.parse(r.LastModified)).toBeGreaterThanOrEqual(from.getTime())
    const all = await client().list<{ LastModified: string }>('/plants/v2/vegetative', { license: GROW_LICENSE })
    expect(rows.length).toBe(all.filter((r) => Date.parse(r.LastModified) >= from.getTime()).length)
  })
})

describe('retries', () => {
  it('retries a 429 storm after Retry-After and gets through', async () => {
    faults({ storm429: 3, retryAfterS: 0 })
    const f = await client().get<unknown[]>('/facilities/v2')
    expect(f.length).toBe(2)
    expect(seen.map((r) => r.status)).toEqual([429, 429, 429, 200])
  })
  it('does not retry a 401 (an expired key) and says so', async () => {
    faults({ expiredKeys: [DEMO_USER_KEY] })
    const e = await client().get<never>('/facilities/v2').catch((x: MetrcError) => x)
    expect(e).toBeInstanceOf(MetrcError)
    expect(e.kind).toBe('unauthorized')
    expect(seen).toHaveLength(1)
  })
  it('gives up on a METRC that stays down with a transient error', async () => {
    faults({ down: true })
    const e = await client({ attempts: 3, maxRetryAfterMs: 50 }).get<never>('/facilities/v2').catch((x: MetrcError) => x)
    expect(e.kind).toBe('unavailable')
    expect(e.transient).toBe(true)
    expect(seen.map((r) => r.status)).toEqual([503, 503, 503])
  })
  it('answers unreachable for a closed port without hanging', async () => {
    const e = await new MetrcClient({ baseUrl: 'http://127.0.0.1:9', vendorKey: emu.vendorKey, userKey: DEMO_USER_KEY, attempts: 2, backoff: { baseMs: 10, maxMs: 10 } }).get<never>('/facilities/v2').catch((x: MetrcError) => x)
    expect(e.kind).toBe('unavailable')
  })
})

describe('writes', () => {
  it('sends 25 plant waste rows as 3 requests of at most 10', async () => {
    const labels = (await client().list<{ Label: string }>('/plants/v2/vegetative', { license: GROW_LICENSE })).slice(0, 25).map((p) => p.Label)
    seen.length = 0
    const rows = labels.map((l) => ({ WasteMethodName: 'Grinder', MixedMaterial: 'Soil', WasteWeight: 2, UnitOfMeasureName: 'Grams', ReasonName: 'Trimming/Pruning', Note: '', WasteDate: today, PlantLabels: [l] }))
    const r = await client().write('POST', '/plants/v2/waste', rows, { license: GROW_LICENSE })
    expect(r.ids).toHaveLength(25)
    expect(r.requests).toBe(3)
    expect(seen.map((x) => x.method)).toEqual(['POST', 'POST', 'POST'])
  })
  it("numbers a refused row in the caller's list and says how many rows were taken before it", async () => {
    const strains = Array.from({ length: 15 }, (_, i) => ({ Name: `Client Strain ${Date.now()}-${i}`, TestingStatus: 'None' }))
    strains[13].Name = ''
    const e = await client().write('POST', '/strains/v2', strains, { license: GROW_LICENSE }).then(() => null, (x: MetrcError) => x)
    expect(e).toBeInstanceOf(MetrcError)
    expect(e!.kind).toBe('rejected')
    expect(e!.rows).toEqual([{ row: 13, message: 'Name is required.' }])
    expect(e!.applied).toBe(10)
  })
  it('does not send a write to a license type that cannot do it twice: 403 is final', async () => {
    const e = await client().write('POST', '/plantbatches/v2/plantings', [{ Name: 'X', Type: 'Clone', Count: 3, Strain: 'Blue Dream', ActualDate: today }], { license: SHOP_LICENSE }).then(() => null, (x: MetrcError) => x)
    expect(e!.kind).toBe('forbidden')
    expect(seen).toHaveLength(1)
  })
})

describe('credentials', () => {
  it('checks a license against the facilities of the key', async () => {
    expect(await checkCredentials(client(), GROW_LICENSE)).toMatchObject({ ok: true, facility: { License: { Number: GROW_LICENSE } } })
    expect(await checkCredentials(client(), '999-NOPE')).toMatchObject({ ok: false, wrong: 'license' })
    expect(await checkCredentials(client({ userKey: 'not-a-key' }), GROW_LICENSE)).toMatchObject({ ok: false, wrong: 'key' })
  })
  it('sets temp_processing from the check when credentials are submitted (the sign-in flow)', async () => {
    const metrcEnv = { ...env, METRC_VENDOR_KEY: emu.vendorKey, METRC_URL: emu.url }
    const check = credentialChecker(metrcEnv)!
    const actor = { uid: 'u-lobby', requestId: 'metrc-client' }
    const submit = (email: string, license: string, metrc: string) => submitCredentials(t, env.SESSION_SECRET, actor, email, { state: 'CA', license, metrc }, check)
    expect(await submit('wrong-lic@x.test', '999-NOPE', DEMO_USER_KEY)).toEqual({ metrc_api: 'invalid', error_lic: 'yes', error_metrc: 'no' })
    expect(await submit('wrong-key@x.test', GROW_LICENSE, 'bad-key')).toEqual({ metrc_api: 'invalid', error_lic: 'no', error_metrc: 'yes' })
    expect(await submit('right@x.test', GROW_LICENSE, DEMO_USER_KEY)).toEqual({ metrc_api: 'valid', error_lic: 'no', error_metrc: 'no' })
    faults({ down: true })
    expect(await submit('later@x.test', GROW_LICENSE, DEMO_USER_KEY)).toEqual({ metrc_api: 'pending', error_lic: 'no', error_metrc: 'no' })
    const [p] = await t.store.find('auth', 'temp_processing', { email: 'wrong-lic@x.test' }, 1)
    expect(p).toMatchObject({ lic: '999-NOPE', error_lic: 'yes', metrc_api: 'invalid' })
    // the key is stored sealed, never in the clear
    const [c] = await t.store.find('auth', 'temp_credentials', { email: 'right@x.test' }, 1)
    expect(String(c.metrc)).toMatch(/^sealed:v1:/)
    expect(JSON.stringify(c)).not.toContain(DEMO_USER_KEY)
    expect(credentialChecker(env)).toBeNull() // no vendor key, no emulator registered: nothing to check against
  })
})
