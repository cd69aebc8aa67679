/**
 * Issue 20 item 6: lockout cannot be used as a weapon, and reset mail is throttled.
 * Sign-in locks by (account, address), by account except at its known addresses, by address except
 * for the accounts known there; a refusal while locked never extends a lock. Reset mail: at most
 * MAIL_LIMITS.perAddress requests per client address and perRecipient per email in the window,
 * counted under a lock. Clocks move by rewriting stored timestamps, never by waiting. The client
 * address is what Express makes of X-Forwarded-For (TRUST_PROXY defaults to loopback) where the
 * real app is used, and the load context's clientIp where a route is called directly.
 */
import fs from 'node:fs'
import path from 'node:path'
import type { AppLoadContext } from '@remix-run/node'
import pino from 'pino'
import { checkLogin, setPassword } from '#app/auth/accounts.server'
import { LIMITS } from '#app/auth/lockout.server'
import { hashPassword } from '#app/auth/password.server'
import { MAIL_LIMITS } from '#app/auth/mail-throttle.server'
import { MSG } from '#app/auth/rules'
import { loadEnv, type Env } from '#app/config/env.server'
import { PLATFORM_ORG } from '#app/route-map'
import * as loginRoute from '#app/routes/auth.login'
import * as resetMailRoute from '#app/routes/auth.sendPasswordResetMail'
import { action as welcomeAction } from '#app/routes/Welcome'
import { seedDemo } from '#app/seed/index.server'
import { openTestDatabase, TEST_DB, tmpDir, type TestDatabase } from '#tests/helpers/db'
import { startHttpApp, type TestServer } from '#tests/helpers/http-app'

const PW = 'Canopy#Demo1'
const actor = { uid: 'u-test', requestId: 'lockout-test' }

let t: TestDatabase
let env: Env
let http: TestServer
beforeAll(async () => {
  t = await openTestDatabase()
  env = loadEnv({ DATA_DIR: tmpDir() })
  await seedDemo(t, env)
  http = await startHttpApp({ routes: { 'auth/login': loginRoute, 'auth/sendPasswordResetMail': resetMailRoute }, database: t, env: { DATA_DIR: tmpDir() } })
})
afterAll(async () => {
  await http?.close()
  await t?.cleanup()
})

let seq = 0
/** a client address no other test uses */
const nextIp = () => `192.0.2.${++seq}`
// the tests' passwords are hashed with a small scrypt cost (the stored hash names its parameters), so
// the hundreds of checks below cost little; the product's own hashes are unchanged
let cheapHash: Promise<string>
/** a fresh account with web access and the licence accepted; its password set a day ago */
const newUser = async (opts: { password?: boolean; IsUsed?: string } = {}) => {
  const uid = `u-lock-${++seq}`
  const email = `${uid}@greenleaf.demo`
  await t.store.insert(actor, PLATFORM_ORG, 'users', { _id: uid, uid, email, role: 'user', org: 'greenleaf', web: 'yes', eulaip: '10.0.0.1', IsUsed: opts.IsUsed ?? 'yes', props: { facilities: ['greenleaf'], modules: { greenleaf: null } } })
  if (opts.password !== false) {
    cheapHash ??= hashPassword(PW, { N: 1024, r: 8, p: 1 })
    // the password predates the attempts below, even after their clocks are moved back
    await t.db.query(`INSERT INTO auth_passwords (uid, hash, updated_at) VALUES ($1, $2, now() - interval '1 day')`, [uid, await cheapHash])
  }
  return email
}
/** moves every recorded sign-in attempt of `email` `minutes` into the past */
const attemptsAgo = (email: string, minutes: number) => t.db.query('UPDATE auth_login_attempts SET at = at - make_interval(mins => $2) WHERE email = $1', [email, minutes])
const count = async (sql: string, params: unknown[] = []) => (await t.db.query<{ n: number }>(sql, params)).rows[0].n
const lastReason = async (email: string) => (await t.db.query<{ reason: string | null }>('SELECT reason FROM auth_login_attempts WHERE email = $1 ORDER BY seq DESC LIMIT 1', [email])).rows[0]?.reason

const httpLogin = (email: string, password: string, ip: string) =>
  fetch(`${http.url}/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-forwarded-for': ip }, body: JSON.stringify({ email, password }) })

describe(`sign-in lockout on ${TEST_DB}`, () => {
  it(`(a) ${LIMITS.perPair} wrong passwords from address A lock the account at A only: the right password from B signs in (over HTTP)`, async () => {
    const email = await newUser()
    const [a, b] = [nextIp(), nextIp()]
    for (let i = 0; i < LIMITS.perPair; i++) {
      const r = await httpLogin(email, `Wrong#Pass${i}`, a)
      expect(r.status).toBe(401)
    }
    const locked = await httpLogin(email, PW, a)
    expect(locked.status).toBe(429)
    expect(locked.headers.get('Retry-After')).toBe(String(LIMITS.windowMinutes * 60))
    expect(await locked.json()).toEqual({ errors: [{ code: 'TOO_MANY', message: MSG.locked(LIMITS.windowMinutes) }] })
    // the address Express saw is the one recorded and judged
    expect(await count('SELECT count(*)::int AS n FROM auth_login_attempts WHERE email = $1 AND ip = $2', [email, a])).toBe(LIMITS.perPair + 1)

    const fromB = await httpLogin(email, PW, b)
    expect(fromB.status).toBe(200)
    expect((await fromB.json()).email).toBe(email)
    // A stays locked for this account (B's success is B's), and other accounts at A are not touched
    expect((await httpLogin(email, PW, a)).status).toBe(429)
    const other = await newUser()
    expect((await httpLogin(other, PW, a)).status).toBe(200)
  })

  it('(b) attempts while locked are recorded but do not extend the lock', async () => {
    const email = await newUser()
    const a = nextIp()
    for (let i = 0; i < LIMITS.perPair; i++) expect(await checkLogin(t, email, `Wrong#Pass${i}`, a)).toEqual({ ok: false, reason: 'bad' })
    await attemptsAgo(email, 10)
    // ten minutes later the lock has five to go, and twenty more tries (right password or wrong) change nothing
    for (let i = 0; i < 20; i++) {
      expect(await checkLogin(t, email, i % 2 ? PW : `Wrong#Again${i}`, a)).toEqual({ ok: false, reason: 'locked', lockMinutes: LIMITS.windowMinutes - 10 })
    }
    expect(await count(`SELECT count(*)::int AS n FROM auth_login_attempts WHERE email = $1 AND reason = 'locked: account at this address'`, [email])).toBe(20)
    // six minutes on, the five failures have left the window: the refusals, only six minutes old, did not count
    await attemptsAgo(email, 6)
    expect(await checkLogin(t, email, PW, a)).toMatchObject({ ok: true })
  })

  it(`(c) ${LIMITS.perAddress} failures from one address lock it, except for accounts that signed in from it before`, async () => {
    const nat = nextIp()
    const regular = await newUser()
    const newcomer = await newUser()
    expect(await checkLogin(t, regular, PW, nat)).toMatchObject({ ok: true })
    // a colleague behind the same NAT mistypes across several accounts (never five on one)
    const others = await Promise.all([newUser(), newUser(), newUser(), newUser(), newUser()])
    for (let i = 0; i < LIMITS.perAddress; i++) expect(await checkLogin(t, others[i % others.length], `Wrong#Pass${i}`, nat)).toEqual({ ok: false, reason: 'bad' })

    expect(await checkLogin(t, regular, PW, nat)).toMatchObject({ ok: true })
    expect(await checkLogin(t, newcomer, PW, nat)).toEqual({ ok: false, reason: 'locked', lockMinutes: LIMITS.windowMinutes })
    expect(await lastReason(newcomer)).toBe('locked: address')
    // the newcomer elsewhere is fine
    expect(await checkLogin(t, newcomer, PW, nextIp())).toMatchObject({ ok: true })
  })

  it('a burst of parallel guesses across accounts from one address is held to the address limit', async () => {
    const ip = nextIp()
    // ten accounts, four guesses each (never a pair's five)
    const users = await Promise.all(Array.from({ length: 10 }, () => newUser()))
    const rs = await Promise.all(Array.from({ length: 2 * LIMITS.perAddress }, (_, i) => checkLogin(t, users[i % users.length], `Wrong#Pass${i}`, ip)))
    expect(rs.filter((r) => !r.ok && r.reason === 'bad').length).toBe(LIMITS.perAddress)
    expect(rs.filter((r) => !r.ok && r.reason === 'locked').length).toBe(LIMITS.perAddress)
  })

  it(`(d) ${LIMITS.perAccount} failures from many addresses (in parallel) lock the account except from its known address; a password reset lifts it`, async () => {
    const email = await newUser()
    const home = nextIp()
    expect(await checkLogin(t, email, PW, home)).toMatchObject({ ok: true })
    const rs = await Promise.all(Array.from({ length: LIMITS.perAccount + 10 }, (_, i) => checkLogin(t, email, `Wrong#Pass${i}`, nextIp())))
    expect(rs.filter((r) => !r.ok && r.reason === 'bad').length).toBe(LIMITS.perAccount)
    expect(rs.filter((r) => !r.ok && r.reason === 'locked').length).toBe(10)
    expect(await lastReason(email)).toBe('locked: account')

    const away = nextIp()
    expect(await checkLogin(t, email, PW, away)).toEqual({ ok: false, reason: 'locked', lockMinutes: LIMITS.windowMinutes })
    expect(await checkLogin(t, email, PW, home)).toMatchObject({ ok: true })
    // a success from a known address does not lift the account lock elsewhere
    expect(await checkLogin(t, email, PW, away)).toMatchObject({ ok: false, reason: 'locked' })
    // the owner proves the mailbox and sets a new password: guesses at the old one no longer count
    await setPassword(t, email.split('@')[0], 'Fresh#Pass9')
    expect(await checkLogin(t, email, 'Fresh#Pass9', away)).toMatchObject({ ok: true })
  })
})

describe(`password reset mail throttle on ${TEST_DB}`, () => {
  const outbox = (e: Env) => {
    const dir = path.join(e.DATA_DIR, 'outbox')
    return fs.existsSync(dir) ? fs.readdirSync(dir) : []
  }
  const ctx = (e: Env, clientIp: string) => ({ database: t, env: e, logger: pino({ level: 'silent' }), requestId: 'test', clientIp }) as unknown as AppLoadContext
  const ask = (e: Env, email: string, ip: string) =>
    resetMailRoute.loader({ request: new Request(`http://canopy.test/auth/sendPasswordResetMail?email=${encodeURIComponent(email)}`), context: ctx(e, ip), params: {} } as never) as Promise<Response>
  const allowedAgo = (column: 'ip' | 'email', value: string, minutes: number) =>
    t.db.query(`UPDATE auth_mail_requests SET at = at - make_interval(mins => $2) WHERE ${column} = $1 AND allowed`, [value, minutes])

  it(`(e) the ${MAIL_LIMITS.perAddress + 1}th request from one address in the window is a 429 with the reason and sends no mail (over HTTP)`, async () => {
    const ip = nextIp()
    const users = await Promise.all(Array.from({ length: MAIL_LIMITS.perAddress + 1 }, () => newUser({ password: false })))
    const get = (email: string) => fetch(`${http.url}/auth/sendPasswordResetMail?email=${encodeURIComponent(email)}`, { headers: { 'x-forwarded-for': ip } })
    for (let i = 0; i < MAIL_LIMITS.perAddress; i++) {
      // known and unknown emails count alike
      const r = await get(i % 2 ? users[i] : `nobody${seq}-${i}@nowhere.demo`)
      expect(r.status).toBe(200)
      expect(await r.json()).toEqual({ message: MSG.resetSent })
    }
    const sent = outbox(http.env).length
    expect(sent).toBe(MAIL_LIMITS.perAddress / 2)
    const refused = await get(users[MAIL_LIMITS.perAddress])
    expect(refused.status).toBe(429)
    expect(refused.headers.get('Retry-After')).toBe(String(MAIL_LIMITS.windowMinutes * 60))
    const message = MSG.resetTooMany('address', MAIL_LIMITS.windowMinutes)
    expect(message).toBe('Too many password reset requests from this network address. Please try again in 15 minutes.')
    expect(await refused.json()).toEqual({ errors: [{ code: 'TOO_MANY', message }] })
    expect(outbox(http.env).length).toBe(sent)
    // another address is not held up
    expect((await fetch(`${http.url}/auth/sendPasswordResetMail?email=${encodeURIComponent(users[MAIL_LIMITS.perAddress])}`, { headers: { 'x-forwarded-for': nextIp() } })).status).toBe(200)
    expect(outbox(http.env).length).toBe(sent + 1)
  })

  it(`(e) the ${MAIL_LIMITS.perRecipient + 1}th request for one email is a 429 on the API and on the form, known account or not; refusals do not extend it`, async () => {
    const e = loadEnv({ DATA_DIR: tmpDir() })
    const known = await newUser({ password: false })
    const unknown = `nobody-${seq}@nowhere.demo`
    for (const email of [known, unknown]) {
      for (let i = 0; i < MAIL_LIMITS.perRecipient; i++) expect((await ask(e, email, nextIp())).status).toBe(200)
      const r = await ask(e, email, nextIp())
      expect(r.status).toBe(429)
      expect(await r.json()).toEqual({ errors: [{ code: 'TOO_MANY', message: MSG.resetTooMany('recipient', MAIL_LIMITS.windowMinutes) }] })
    }
    expect(outbox(e).length).toBe(MAIL_LIMITS.perRecipient)

    // the reset form (Welcome?mode=reset, with or without JavaScript) shows the same reason
    const form = await welcomeAction({ request: new Request('http://canopy.test/Welcome?mode=reset', { method: 'POST', body: new URLSearchParams({ intent: 'reset', email: known }) }), context: ctx(e, nextIp()), params: {} })
    expect(form.status).toBe(429)
    expect(form.headers.get('Retry-After')).toBe(String(MAIL_LIMITS.windowMinutes * 60))
    expect(await form.json()).toEqual({ message: MSG.resetTooMany('recipient', MAIL_LIMITS.windowMinutes), tone: 'error', email: known })
    expect(outbox(e).length).toBe(MAIL_LIMITS.perRecipient)

    // once the allowed requests have left the window the refused ones (just now) do not hold it
    await allowedAgo('email', known, MAIL_LIMITS.windowMinutes + 1)
    expect((await ask(e, known, nextIp())).status).toBe(200)
    expect(outbox(e).length).toBe(MAIL_LIMITS.perRecipient + 1)
  })

  it('20 requests at once never send more than the limits allow', async () => {
    const e = loadEnv({ DATA_DIR: tmpDir() })
    // one address, twenty different accounts: perAddress mails
    const ip = nextIp()
    const users = await Promise.all(Array.from({ length: 20 }, () => newUser({ password: false })))
    const rs = await Promise.all(users.map((u) => ask(e, u, ip)))
    expect(rs.filter((r) => r.status === 200).length).toBe(MAIL_LIMITS.perAddress)
    expect(rs.filter((r) => r.status === 429).length).toBe(20 - MAIL_LIMITS.perAddress)
    expect(outbox(e).length).toBe(MAIL_LIMITS.perAddress)
    // twenty addresses, one account: perRecipient mails
    const target = await newUser({ password: false })
    const rs2 = await Promise.all(Array.from({ length: 20 }, () => ask(e, target, nextIp())))
    expect(rs2.filter((r) => r.status === 200).length).toBe(MAIL_LIMITS.perRecipient)
    // (mails to one recipient in the same millisecond share an outbox file name: count their links)
    expect(await count(`SELECT count(*)::int AS n FROM auth_one_time_tokens WHERE email = $1 AND purpose = 'reset'`, [target])).toBe(MAIL_LIMITS.perRecipient)
  })

  it('an inactive account gets no mail, with the same answer', async () => {
    const e = loadEnv({ DATA_DIR: tmpDir() })
    const inactive = await newUser({ IsUsed: 'no' })
    const r = await ask(e, inactive, nextIp())
    expect(r.status).toBe(200)
    expect(await r.json()).toEqual({ message: MSG.resetSent })
    expect(outbox(e)).toEqual([])
    expect(await count(`SELECT count(*)::int AS n FROM auth_one_time_tokens WHERE email = $1`, [inactive])).toBe(0)
  })
})
