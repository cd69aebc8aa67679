/**
 * POST /dt/v1/temp_credentials checks the credentials with METRC at once (the emulator here, as in
 * the demo): a license the key does not reach → error_lic, a key METRC refuses → error_metrc, both
 * right → valid; the answer never echoes the key. (/Credentials takes the same path,
 * submitCredentials with credentialChecker; its browser flow is in tests/e2e/sign-in.test.ts.)
 */
import type { AppLoadContext } from '@remix-run/node'
import pino from 'pino'
import { signAccessToken } from '#app/auth/tokens.server'
import { loadEnv, type Env } from '#app/config/env.server'
import { registerMetrcEndpoint } from '#app/metrc/connection.server'
import { DEMO_USER_KEY, GROW_LICENSE, startMetrcEmulator, type RunningEmulator } from '#app/metrc/emulator'
import { ensurePlatform } from '#app/seed/index.server'
import { EventHub } from '#app/events/event-hub.server'
import { openTestDatabase, tmpDir, type TestDatabase } from '#tests/helpers/db'
import { dtCaller } from '#tests/helpers/dt-call'

let emu: RunningEmulator
let t: TestDatabase
let env: Env
const ctx = () => ({ database: t, env, events: new EventHub(), logger: pino({ level: 'silent' }), requestId: `cred-${Math.random()}`, clientIp: '10.1.2.3' }) as unknown as AppLoadContext
const call = dtCaller({ ctx, token: (uid) => signAccessToken(env.SESSION_SECRET, { sub: uid, orig: uid, org: 'lobby', role: 'user' }), defaultUid: 'u-new' })

beforeAll(async () => {
  emu = await startMetrcEmulator({ dataDir: tmpDir() })
  registerMetrcEndpoint({ vendorKey: emu.vendorKey, baseUrl: () => emu.url, emulated: true })
  t = await openTestDatabase()
  env = loadEnv({ DATA_DIR: tmpDir() })
  await ensurePlatform(t, env)
  await t.store.insert({ uid: 'seed' }, 'auth', 'users', { _id: 'u-new', uid: 'u-new', email: 'new@x.test', role: 'user', org: 'lobby', web: 'yes', props: { facilities: ['lobby'], modules: { lobby: ['help'] } } })
})
afterAll(async () => {
  registerMetrcEndpoint(null)
  await emu?.close()
  await t?.cleanup()
})

describe('POST /dt/v1/temp_credentials against METRC', () => {
  it('wrong license → error_lic, wrong key → error_metrc, right → valid; the key never comes back', async () => {
    const processing = async () => (await call('GET', 'temp_processing')).body[0]
    let r = await call('POST', 'temp_credentials', { body: { state: 'CA', license: '999-NOPE', metrc: DEMO_USER_KEY } })
    expect(r.status).toBe(201)
    expect(JSON.stringify(r.body)).not.toContain(DEMO_USER_KEY)
    expect(await processing()).toMatchObject({ lic: '999-NOPE', error_lic: 'yes', error_metrc: 'no' })
    r = await call('POST', 'temp_credentials', { body: { state: 'CA', license: GROW_LICENSE, metrc: 'not-a-key-at-all' } })
    expect(await processing()).toMatchObject({ lic: GROW_LICENSE, error_lic: 'no', error_metrc: 'yes' })
    r = await call('POST', 'temp_credentials', { body: { state: 'CA', license: GROW_LICENSE, metrc: DEMO_USER_KEY } })
    expect(r.status).toBe(201)
    expect(await processing()).toMatchObject({ lic: GROW_LICENSE, metrc_api: 'valid', error_lic: 'no', error_metrc: 'no' })
    expect(emu.requests.filter((x) => x.path === '/facilities/v2')).toHaveLength(3)
  })
})
