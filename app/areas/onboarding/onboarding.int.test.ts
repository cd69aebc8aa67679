/**
 * Onboarding's refusals on the real database, PGlite and PostgreSQL (issue 22): a new account
 * with a duplicate name, full name or email, an unknown state or a malformed license creates
 * nothing; invitation links that are used, expired, revoked or unknown; each password rule on its
 * own; a facility admin limited to the users of their facilities and the modules they hold;
 * disabling ends sessions, refresh tokens and API tokens; props through the generic API is one
 * zod schema and a user gets its uid; and the mail goes to the outbox when SMTP_URL is unset.
 */
import fs from 'node:fs'
import path from 'node:path'
import type { AppLoadContext } from '@remix-run/node'
import pino from 'pino'
import { setPassword } from '#app/auth/accounts.server'
import { COOKIE, createSession, sessionIsLive } from '#app/auth/session.server'
import { issueRefreshToken, rotateRefreshToken, signAccessToken } from '#app/auth/tokens.server'
import { loadEnv, type Env } from '#app/config/env.server'
import { EventHub } from '#app/events/event-hub.server'
import { action as newAccountAction } from '#app/routes/SupNewAccount'
import { action as invitationAction } from '#app/routes/Invitation.$token'
import { action as userAction, loader as userLoader } from '#app/routes/Users.$uid'
import { loader as usersLoader } from '#app/routes/Users._index'
import { seedDemo } from '#app/seed/index.server'
import { openTestDatabase, tmpDir, type TestDatabase } from '#tests/helpers/db'
import { dtCaller } from '#tests/helpers/dt-call'
import { checkInvite, issueInvite } from './invitations.server'
import { PASSWORD_RULES } from './rules'

let t: TestDatabase
let env: Env

beforeAll(async () => {
  t = await openTestDatabase()
  env = loadEnv({ DATA_DIR: tmpDir(), DEMO_DATA: '1' })
  await seedDemo(t, env)
  // an admin of greenleaf who holds only Cultivation and Help there
  await t.store.insert({ uid: 'test' }, 'auth', 'users', { _id: 'u-smalladmin', uid: 'u-smalladmin', email: 'small-admin@greenleaf.test', role: 'admin', org: 'greenleaf', firstname: 'Sam', lastname: 'Small', props: { facilities: ['greenleaf'], modules: { greenleaf: ['cul', 'help'] } }, web: 'yes', eulaip: '1.1.1.1', IsUsed: 'yes' })
}, 300_000)
afterAll(async () => {
  await t?.cleanup()
  fs.rmSync(env.DATA_DIR, { recursive: true, force: true })
})

const ctx = () => ({ database: t, env, events: new EventHub(), logger: pino({ level: 'silent' }), requestId: `onb-${Math.random()}`, clientIp: '127.0.0.1' }) as unknown as AppLoadContext
const sid = (uid: string, facility = 'greenleaf') => createSession(t, { uid, step: 'done', facility })
type Fn = (a: any) => Promise<unknown> // eslint-disable-line @typescript-eslint/no-explicit-any -- a route module's function takes Remix's argument object
const run = async (mod: Fn, p: string, params: Record<string, string>, session: string, fields?: Record<string, string | string[]>) => {
  const body = new URLSearchParams()
  for (const [k, v] of Object.entries(fields ?? {})) for (const x of Array.isArray(v) ? v : [v]) body.append(k, x)
  const headers: Record<string, string> = { Cookie: `${COOKIE}=${session}` }
  if (fields) headers['content-type'] = 'application/x-www-form-urlencoded'
  try {
    return (await mod({ request: new Request(`http://canopy.test${p}`, { method: fields ? 'POST' : 'GET', headers, ...(fields ? { body } : {}) }), context: ctx(), params })) as Response
  } catch (e) {
    if (e instanceof Response) return e
    throw e
  }
}
const call = dtCaller({ ctx, token: (uid) => signAccessToken(env.SESSION_SECRET, { sub: uid, orig: uid, org: 'greenleaf', role: uid === 'u-super' ? 'super' : 'user' }), defaultUid: 'u-super' })
const counts = async () => ({
  org: await t.store.count('auth', 'org'),
  users: await t.store.count('auth', 'users'),
  requests: await t.store.count('auth', 'sup_new_accounts'),
  audit: Number((await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM audit_log')).rows[0].n),
  tokens: Number((await t.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM auth_one_time_tokens WHERE purpose = 'invite'`)).rows[0].n),
})

const account = (over: Record<string, string | string[]> = {}) => ({
  name: 'pine-tree', fullName: 'Pine Tree Farms', kind: 'cultivation', state: 'ME', license: 'CUL-0000318', timezone: 'America/New_York',
  street: '4 Mill Road', city: 'Bangor', zip: '04401', modules: ['cul', 'dsh'], wid: ['wf-cul-harvest'], firstname: 'Owen', lastname: 'Gallagher', email: 'owen@pinetree.test', ...over,
})
const jsonOf = async (r: Response) => (await r.json()) as { errors: Record<string, string> }

describe('a new account', () => {
  it.each([
    ['a duplicate organisation name', { name: 'greenleaf' }, 'name', 'An organisation named greenleaf already exists'],
    ['a reserved name', { name: 'lobby' }, 'name', 'That name is reserved; choose another'],
    ['a duplicate full name', { fullName: 'greenleaf cultivation, salinas' }, 'fullName', 'An organisation called greenleaf cultivation, salinas already exists'],
    ['a duplicate email', { email: 'ADMIN@greenleaf.demo' }, 'email', 'A user with the address admin@greenleaf.demo already exists'],
    ['an unknown state', { state: 'TX' }, 'state', 'Choose a state from the list'],
    ['a malformed license', { license: 'CUL 0000318!' }, 'license', 'A state license is 3–40 letters, digits and dashes, e.g. CCL21-0001234'],
    ['an unknown time zone', { timezone: 'Mars/Base' }, 'timezone', 'Choose a time zone from the list'],
    ['no module', { modules: [] }, 'modules', 'Choose at least one module'],
    ['an unknown workflow', { wid: ['wf-nope'] }, 'wid', 'Unknown workflows: wf-nope'],
  ])('refuses %s with a field message and creates nothing', async (_what, over, field, message) => {
    const before = await counts()
    const r = await run(newAccountAction, '/SupNewAccount', {}, await sid('u-super'), account(over))
    expect(r.status).toBe(400)
    expect((await jsonOf(r)).errors[field]).toContain(message)
    expect(await counts()).toEqual(before)
  })

  it('is refused to anyone but super (403), nothing created', async () => {
    const before = await counts()
    for (const uid of ['u-admin', 'u-grower']) expect((await run(newAccountAction, '/SupNewAccount', {}, await sid(uid), account())).status).toBe(403)
    expect(await counts()).toEqual(before)
  })

  it('creates organisation, admin (uid, props object) and request in one go, audited, and mails the invitation to the outbox', async () => {
    const before = await counts()
    const r = await run(newAccountAction, '/SupNewAccount', {}, await sid('u-super'), account())
    expect(r.status).toBe(302)
    expect(r.headers.get('location')).toContain('created=pine-tree')
    const after = await counts()
    expect(after).toMatchObject({ org: before.org + 1, users: before.users + 1, requests: before.requests + 1, tokens: before.tokens + 1 })
    expect(after.audit).toBe(before.audit + 3)
    const [admin] = await t.store.find('auth', 'users', { email: 'owen@pinetree.test' }, 1)
    expect(admin).toMatchObject({ uid: admin._id, role: 'admin', org: 'pine-tree', props: { facilities: ['pine-tree'], modules: { 'pine-tree': ['cul', 'dsh'] } } })
    const mails = fs.readdirSync(path.join(env.DATA_DIR, 'outbox')).filter((f) => f.includes('owen@pinetree.test'))
    expect(mails).toHaveLength(1)
    const eml = fs.readFileSync(path.join(env.DATA_DIR, 'outbox', mails[0]), 'utf8')
    expect(eml).toMatch(/^From: Canopy <no-reply@canopy\.local>/m)
    expect(eml).toContain('/Invitation/')
  })
})

describe('invitations', () => {
  const invitee = async (email: string) => {
    const uid = `u-inv-${Math.random().toString(36).slice(2, 8)}`
    await t.store.insert({ uid: 'test' }, 'auth', 'users', { _id: uid, uid, email, role: 'user', org: 'greenleaf', props: { facilities: ['greenleaf'], modules: { greenleaf: ['cul'] } }, web: 'yes', IsUsed: 'yes' })
    return { uid, token: await issueInvite(t.db, uid, email) }
  }
  const choose = (token: string, password: string, confirm = password) => run(invitationAction, `/Invitation/${token}`, { token }, 'none', { password, confirm })

  it('refuses each password rule on its own, naming it, and keeps the link', async () => {
    const { token } = await invitee('rules@greenleaf.test')
    const weak: Record<string, string> = { length: 'Ab1!xyz', lower: 'ABCDEFG1!', upper: 'abcdefg1!', digit: 'Abcdefgh!', special: 'Abcdefgh1', forbidden: 'Abcdef1!x y' }
    for (const rule of PASSWORD_RULES) {
      const r = await choose(token, weak[rule.id])
      expect(r.status, rule.id).toBe(400)
      const body = (await r.json()) as { errors: Record<string, string>; failed: string[] }
      expect(body.failed).toEqual([rule.id])
      expect(body.errors.password).toBe(`The password needs: ${rule.label.toLowerCase()}.`)
    }
    expect((await choose(token, 'Good#Pass1', 'Other#Pass1')).status).toBe(400)
    expect((await checkInvite(t.db, token, false)).ok).toBe(true)
    expect((await choose(token, 'Good#Pass1')).status).toBe(302)
  })

  it('a used, expired, revoked or unknown link is refused (410) and sets nothing', async () => {
    const used = await invitee('used@greenleaf.test')
    expect((await choose(used.token, 'Good#Pass1')).status).toBe(302)
    expect((await choose(used.token, 'Other#Pass2')).status).toBe(410)
    const expired = await invitee('expired@greenleaf.test')
    await t.db.query(`UPDATE auth_one_time_tokens SET expires_at = now() - interval '1 minute' WHERE uid = $1`, [expired.uid])
    expect((await choose(expired.token, 'Good#Pass1')).status).toBe(410)
    const revoked = await invitee('revoked@greenleaf.test')
    const again = await issueInvite(t.db, revoked.uid, 'revoked@greenleaf.test') // a resend revokes the old link
    expect((await choose(revoked.token, 'Good#Pass1')).status).toBe(410)
    expect((await checkInvite(t.db, again, false)).ok).toBe(true)
    expect((await choose('x'.repeat(43), 'Good#Pass1')).status).toBe(410)
    const pw = await t.db.query('SELECT uid FROM auth_passwords WHERE uid = ANY($1)', [[expired.uid, revoked.uid]])
    expect(pw.rows).toHaveLength(0)
  })
})

describe('users and rights', () => {
  const grower = (over: Record<string, string> = {}) => ({ firstname: 'New', lastname: 'Grower', email: `g-${Math.random().toString(36).slice(2, 8)}@greenleaf.test`, role: 'user', web: 'yes', 'm:greenleaf:cul': 'yes', ...over })

  it('a plain user has no users screen (403)', async () => {
    expect((await run(usersLoader, '/Users', {}, await sid('u-grower'))).status).toBe(403)
    expect((await run(userAction, '/Users/new', { uid: 'new' }, await sid('u-grower'), grower())).status).toBe(403)
  })

  it('a facility admin may grant only modules they hold, in facilities they administer; nothing is created otherwise', async () => {
    const s = await sid('u-smalladmin')
    const before = await counts()
    const fin = await run(userAction, '/Users/new', { uid: 'new' }, s, grower({ 'm:greenleaf:fin': 'yes' }))
    expect(fin.status).toBe(403)
    expect((await jsonOf(fin)).errors.grid).toBe('You cannot grant Finance in Greenleaf Cultivation, Salinas: you do not hold it there yourself')
    const harbor = await run(userAction, '/Users/new', { uid: 'new' }, s, grower({ 'm:harbor:dis': 'yes' }))
    expect(harbor.status).toBe(403)
    expect((await jsonOf(harbor)).errors.grid).toBe('You do not administer harbor, so you cannot give access to it')
    const none = await run(userAction, '/Users/new', { uid: 'new' }, s, { ...grower(), 'm:greenleaf:cul': '' })
    expect(none.status).toBe(400)
    const dup = await run(userAction, '/Users/new', { uid: 'new' }, s, grower({ email: 'grower@greenleaf.demo' }))
    expect(dup.status).toBe(400)
    expect(await counts()).toEqual(before)
    const ok = await run(userAction, '/Users/new', { uid: 'new' }, s, grower())
    expect(ok.status).toBe(302)
  })

  it('a facility admin manages only users of their own facilities, never a super, never themselves', async () => {
    const s = await sid('u-smalladmin')
    // u-dist works in harbor only; u-compliance also in harbor; u-super is super
    for (const uid of ['u-dist', 'u-compliance', 'u-super']) {
      expect((await run(userLoader, `/Users/${uid}`, { uid }, s)).status, uid).toBe(403)
      expect((await run(userAction, `/Users/${uid}`, { uid }, s, { intent: 'disable' })).status, uid).toBe(403)
      expect((await run(userAction, `/Users/${uid}`, { uid }, s, grower())).status, uid).toBe(403)
    }
    expect((await run(userAction, '/Users/u-smalladmin', { uid: 'u-smalladmin' }, s, { intent: 'disable' })).status).toBe(400)
    const list = (await (await run(usersLoader, '/Users', {}, s)).json()) as { rows: Array<{ uid: string }> }
    const uids = list.rows.map((r) => r.uid)
    expect(uids).toContain('u-grower')
    expect(uids).not.toContain('u-dist')
    expect(uids).not.toContain('u-super')
  })

  it('disabling ends the sessions, refresh tokens and API token at once; enabling lets the user in again', async () => {
    const uid = 'u-grower'
    const mine = await sid(uid)
    const refresh = await issueRefreshToken(t, { uid, orig: uid, org: 'greenleaf' })
    expect((await call('GET', 'fac_products?limit=1', { as: uid })).status).toBe(200)
    const r = await run(userAction, `/Users/${uid}`, { uid }, await sid('u-admin'), { intent: 'disable' })
    expect(r.status).toBe(302)
    expect(await sessionIsLive(t, mine, 3600)).toBe(false)
    expect((await call('GET', 'fac_products?limit=1', { as: uid })).status).toBe(401)
    expect((await rotateRefreshToken(t, refresh)).ok).toBe(false)
    expect((await run(userAction, `/Users/${uid}`, { uid }, await sid('u-admin'), { intent: 'enable' })).status).toBe(302)
    expect((await call('GET', 'fac_products?limit=1', { as: uid })).status).toBe(200)
  })

  it('the generic API keeps props one zod-checked object and gives a new user its uid', async () => {
    const bad = await call('POST', 'users', { body: { email: 'api-bad@greenleaf.test', role: 'user', org: 'greenleaf', props: '{"facilities":["greenleaf"],"modules":{"greenleaf":["nope"]}}' } })
    expect(bad.status).toBe(400)
    const notJson = await call('POST', 'users', { body: { email: 'api-bad2@greenleaf.test', role: 'user', org: 'greenleaf', props: '{facilities' } })
    expect(notJson.status).toBe(400)
    const good = await call('POST', 'users', { body: { email: 'api-good@greenleaf.test', role: 'user', org: 'greenleaf', props: '{"facilities":["greenleaf"],"modules":{"greenleaf":["cul"]}}' } })
    expect(good.status).toBe(201)
    const stored = await t.store.get('auth', 'users', good.body._id)
    expect(stored).toMatchObject({ uid: good.body._id, props: { facilities: ['greenleaf'], modules: { greenleaf: ['cul'] } } })
    await setPassword(t, good.body._id, 'Good#Pass1')
  })
})
