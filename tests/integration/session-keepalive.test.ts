/**
 * /session-keepalive (issue 32 item 7) against a real database: GET tells the seconds left without
 * counting as activity, POST counts as activity, and neither brings back a sign-in that has
 * already been idle too long or has ended.
 */
import crypto from 'node:crypto'
import type { AppLoadContext } from '@remix-run/node'
import { COOKIE, createSession, endSession } from '#app/auth/session.server'
import { loadEnv, type Env } from '#app/config/env.server'
import { action, loader } from '#app/routes/session-keepalive'
import { openTestDatabase, tmpDir, type TestDatabase } from '#tests/helpers/db'

let t: TestDatabase
let env: Env

beforeAll(async () => {
  t = await openTestDatabase()
  env = loadEnv({ DATA_DIR: tmpDir(), IDLE_TIMEOUT_S: '600' })
})
afterAll(async () => {
  await t?.cleanup()
})

const context = () => ({ env, database: t }) as unknown as AppLoadContext
const request = (id: string | null, method: 'GET' | 'POST') =>
  new Request('http://localhost/session-keepalive', { method, headers: id ? { Cookie: `${COOKIE}=${id}` } : {} })
const ask = async (id: string | null) => (await loader({ request: request(id, 'GET'), context: context(), params: {} })).json() as Promise<{ signedIn: boolean; secondsLeft: number }>
const ping = async (id: string | null) => (await action({ request: request(id, 'POST'), context: context(), params: {} })).json() as Promise<{ signedIn: boolean; secondsLeft: number }>
const setAge = (id: string, seconds: number) => t.db.query(`UPDATE auth_sessions SET last_seen = now() - make_interval(secs => $2) WHERE id_hash = $1`, [crypto.createHash('sha256').update(id).digest('hex'), seconds])
const lastSeenAge = async (uid: string) => Number((await t.db.query<{ age: string }>(`SELECT extract(epoch FROM now() - last_seen) AS age FROM auth_sessions WHERE uid = $1`, [uid])).rows[0].age)

test('asking does not count as activity; a ping does', async () => {
  const id = await createSession(t, { uid: 'u-keep', step: 'done', facility: 'greenleaf' })
  await setAge(id, 500)
  const asked = await ask(id)
  expect(asked.signedIn).toBe(true)
  expect(asked.secondsLeft).toBeGreaterThan(90)
  expect(asked.secondsLeft).toBeLessThanOrEqual(100)
  expect(await lastSeenAge('u-keep')).toBeGreaterThanOrEqual(499)
  const pinged = await ping(id)
  expect(pinged.signedIn).toBe(true)
  expect(pinged.secondsLeft).toBeGreaterThanOrEqual(598)
  expect(await lastSeenAge('u-keep')).toBeLessThan(5)
})

test('an idle, ended, unfinished or missing sign-in is not signed in, and a ping does not bring it back', async () => {
  const idle = await createSession(t, { uid: 'u-idle', step: 'done', facility: 'greenleaf' })
  await setAge(idle, 601)
  expect(await ask(idle)).toEqual({ signedIn: false, secondsLeft: 0 })
  expect(await ping(idle)).toEqual({ signedIn: false, secondsLeft: 0 })
  expect(await lastSeenAge('u-idle')).toBeGreaterThanOrEqual(600)
  const ended = await createSession(t, { uid: 'u-ended', step: 'done', facility: 'greenleaf' })
  await endSession(t, ended, 'logout')
  expect(await ping(ended)).toEqual({ signedIn: false, secondsLeft: 0 })
  const unfinished = await createSession(t, { uid: 'u-half', step: 'facility' })
  expect((await ask(unfinished)).signedIn).toBe(false)
  expect(await ask(null)).toEqual({ signedIn: false, secondsLeft: 0 })
  expect(await ping('not-a-session')).toEqual({ signedIn: false, secondsLeft: 0 })
})
