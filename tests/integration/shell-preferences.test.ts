/**
 * The shell's server side of decision 061 against a real (seeded) database: the drawer's collapse
 * is saved in the user's preference record (with and without JavaScript) and read back for the
 * first paint, next to the theme; logout answers with the login view.
 */
import type { AppLoadContext } from '@remix-run/node'
import pino from 'pino'
import { findUserByEmail } from '#app/auth/accounts.server'
import { getPrefs, savePrefs } from '#app/auth/preferences.server'
import { COOKIE, createSession, loadSession } from '#app/auth/session.server'
import { loadEnv, type Env } from '#app/config/env.server'
import { PLATFORM_ORG } from '#app/route-map'
import { action as prefsAction } from '#app/routes/Preferences'
import { action as welcomeAction } from '#app/routes/Welcome'
import { seedDemo } from '#app/seed/index.server'
import { openTestDatabase, tmpDir, type TestDatabase } from '#tests/helpers/db'

let t: TestDatabase
let env: Env
beforeAll(async () => {
  t = await openTestDatabase()
  env = loadEnv({ DATA_DIR: tmpDir() })
  await seedDemo(t, env)
})
afterAll(() => t?.cleanup())

const ctx = () => ({ database: t, env, logger: pino({ level: 'silent' }), requestId: 'shell-test', clientIp: '198.51.100.9' }) as unknown as AppLoadContext
const post = (path: string, id: string, fields: Record<string, string>) =>
  new Request(`http://localhost${path}`, { method: 'POST', headers: { Cookie: `${COOKIE}=${id}`, 'Content-Type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields).toString() })

test('the drawer’s collapse is saved per user: a redirect back without JavaScript, JSON with it', async () => {
  const grower = (await findUserByEmail(t, 'grower@greenleaf.demo'))!
  const id = await createSession(t, { uid: grower.uid, step: 'done', facility: 'greenleaf' })
  expect((await getPrefs(t, grower.uid, 'greenleaf')).collapsed).toBe(false)

  const plain = await prefsAction({ request: post('/Preferences', id, { intent: 'drawer', collapsed: 'yes', back: '/culPlants?size=20' }), context: ctx(), params: {} })
  expect(plain.status).toBe(302)
  expect(plain.headers.get('Location')).toBe('/culPlants?size=20')
  expect(await getPrefs(t, grower.uid, 'greenleaf')).toEqual({ light: false, lang: 'en', collapsed: true, density: 'comfortable' })
  // another user's record is untouched
  expect((await getPrefs(t, 'u-admin', 'greenleaf')).collapsed).toBe(false)

  const js = await prefsAction({ request: post('/Preferences', id, { intent: 'drawer', collapsed: 'no', back: '/culPlants', js: '1' }), context: ctx(), params: {} })
  expect(js.status).toBe(200)
  expect(await js.json()).toEqual({ ok: true })
  expect((await getPrefs(t, grower.uid, 'greenleaf')).collapsed).toBe(false)
  const [row] = await t.store.find(PLATFORM_ORG, 'set_preferences', { uid: grower.uid, facility: 'greenleaf' })
  expect(row.drawer).toBe('open')
})

test('the theme, the collapse and the density are saved side by side, none undoing another', async () => {
  const actor = { uid: 'u-test', requestId: 'shell-test' }
  await savePrefs(t, actor, 'u-side', 'greenleaf', { collapsed: true })
  await savePrefs(t, actor, 'u-side', 'greenleaf', { light: true })
  expect(await getPrefs(t, 'u-side', 'greenleaf')).toEqual({ light: true, lang: 'en', collapsed: true, density: 'comfortable' })
  await savePrefs(t, actor, 'u-side', 'greenleaf', { collapsed: false })
  expect(await getPrefs(t, 'u-side', 'greenleaf')).toEqual({ light: true, lang: 'en', collapsed: false, density: 'comfortable' })
  await savePrefs(t, actor, 'u-side', 'greenleaf', { density: 'compact' })
  expect(await getPrefs(t, 'u-side', 'greenleaf')).toEqual({ light: true, lang: 'en', collapsed: false, density: 'compact' })
})

test('logout ends the session and answers with the login view (SPEC §4)', async () => {
  const grower = (await findUserByEmail(t, 'grower@greenleaf.demo'))!
  const id = await createSession(t, { uid: grower.uid, step: 'done', facility: 'greenleaf' })
  const res = await welcomeAction({ request: post('/Welcome', id, { intent: 'logout' }), context: ctx(), params: {} })
  expect(res.status).toBe(302)
  expect(res.headers.get('Location')).toBe('/Welcome?msg=loggedout')
  expect((await loadSession(t, id, env.IDLE_TIMEOUT_S)).state).toBe('ended')
})
