/**
 * The files API (SPEC §7, issue 7 item 3) on the real database, a real data folder and the real
 * Express app (tests/helpers/http-app.ts) serving the real route modules over HTTP: the storage
 * interface's contract with the local disk, path safety (symlinks out of the organisation's folder,
 * `..`, backslashes, NUL, encoded and double-encoded slashes and dots sent as raw URLs), the folder
 * listing (GET /getfiles/{org}/), and download tokens (POST /files/{org}/token, ?token=).
 */
import fs from 'node:fs'
import http from 'node:http'
import path from 'node:path'
import { COOKIE, createSession } from '#app/auth/session.server'
import { signAccessToken } from '#app/auth/tokens.server'
import { loadEnv } from '#app/config/env.server'
import { LocalFileStorage, type FileStorage } from '#app/files/storage.server'
import { signFileToken, verifyFileToken } from '#app/files/tokens.server'
import * as tokenRoute from '#app/routes/files.$org_.token'
import * as uploadRoute from '#app/routes/files.$org'
import * as listRoute from '#app/routes/getfiles.$org._index'
import * as fileRoute from '#app/routes/getfiles.$org.$name'
import { ensurePlatform } from '#app/seed/index.server'
import { memoryLogger, startHttpApp, type TestServer } from '#tests/helpers/http-app'
import { openTestDatabase, tmpDir, type TestDatabase } from '#tests/helpers/db'

const actor = { uid: 'u-test', requestId: 'files-api-test' }
const SECRET = 'a-test-secret-that-is-long-enough-0123456789'
let t: TestDatabase
let server: TestServer
let dataDir: string
let files: string
let outside: string
const log = memoryLogger()

const PNG = Buffer.concat([Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489', 'hex'), Buffer.alloc(32, 7)])
const HARBOR_SECRET = 'HARBOR ONLY: do not leak\n'
const OUTSIDE_SECRET = 'OUTSIDE THE DATA FOLDER\n'

const write = (rel: string, body: string | Buffer) => {
  fs.mkdirSync(path.dirname(path.join(files, rel)), { recursive: true })
  fs.writeFileSync(path.join(files, rel), body)
}

beforeAll(async () => {
  t = await openTestDatabase()
  dataDir = tmpDir()
  files = path.join(dataDir, 'files')
  outside = tmpDir('canopy-outside-')
  fs.writeFileSync(path.join(outside, 'secret.txt'), OUTSIDE_SECRET)
  const env = loadEnv({ DATA_DIR: dataDir, SESSION_SECRET: SECRET, FILE_TOKEN_TTL_S: '2', RATE_LIMIT_PER_SEC: '0', RATE_LIMIT_ADDRESS_PER_SEC: '0' })
  await ensurePlatform(t, env)
  for (const [uid, org] of [['u-green', 'greenleaf'], ['u-harbor', 'harbor'], ['u-empty', 'emptyco']] as const)
    await t.store.insert(actor, 'auth', 'users', { _id: uid, uid, email: `${uid}@x.test`, role: 'user', org, web: 'yes', props: { facilities: [org], modules: { [org]: null } } })

  write('greenleaf/logo.png', PNG)
  write('greenleaf/report.pdf', '%PDF-1.4\n%%EOF\n')
  write('greenleaf/weights.csv', 'tag,weight\n1A4000,3.5\n')
  write('greenleaf/.hidden.txt', 'hidden')
  write('greenleaf/notes.exe', 'MZ') // not a type getfiles serves: not listed either
  write('greenleaf/labs/2026/coa.pdf', '%PDF-1.4 lab\n%%EOF\n')
  write('harbor/secret.txt', HARBOR_SECRET)
  write('auth/logo.png', PNG) // the platform's own files: everyone signed in reads them
  // links placed inside greenleaf's folder that point out of it
  fs.symlinkSync(path.join(files, 'harbor', 'secret.txt'), path.join(files, 'greenleaf', 'leak.txt'))
  fs.symlinkSync(path.join(outside, 'secret.txt'), path.join(files, 'greenleaf', 'outside.txt'))
  fs.symlinkSync(outside, path.join(files, 'greenleaf', 'elsewhere'))
  fs.symlinkSync(path.join(files, 'harbor'), path.join(files, 'greenleaf', 'harborlink'))
  // a link that stays inside is fine
  fs.symlinkSync(path.join(files, 'greenleaf', 'report.pdf'), path.join(files, 'greenleaf', 'alias.pdf'))

  server = await startHttpApp({
    database: t,
    env: { ...env },
    logger: log.logger,
    routes: { 'getfiles/:org/:name': fileRoute, 'getfiles/:org': listRoute, 'files/:org/token': tokenRoute, 'files/:org': uploadRoute },
  })
})
afterAll(async () => {
  await server?.close()
  await t?.cleanup()
  fs.rmSync(dataDir, { recursive: true, force: true })
  fs.rmSync(outside, { recursive: true, force: true })
})

const sid = (uid: string, step = 'done') => createSession(t, { uid, step, facility: uid === 'u-harbor' ? 'harbor' : 'greenleaf' } as never)
const cookie = async (uid: string) => ({ Cookie: `${COOKIE}=${await sid(uid)}` })
const access = (uid: string, org: string) => ({ 'x-access-token': signAccessToken(SECRET, { sub: uid, orig: uid, org, role: 'user' }) })

/** A request with the path exactly as written (fetch would normalise `..` and `%2e%2e` first). */
function raw(rawPath: string, headers: Record<string, string> = {}, method = 'GET', body?: string): Promise<{ status: number; type: string; body: Buffer }> {
  const u = new URL(server.url)
  return new Promise((resolve, reject) => {
    const req = http.request({ host: u.hostname, port: u.port, path: rawPath, method, headers: { ...headers, ...(body ? { 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(body)) } : {}) } }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (c: Buffer) => chunks.push(c))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, type: String(res.headers['content-type'] ?? ''), body: Buffer.concat(chunks) }))
    })
    req.on('error', reject)
    req.end(body)
  })
}
const json = (r: { body: Buffer }) => JSON.parse(r.body.toString())
const makeToken = async (org: string, name: string, subdir?: string, as = 'u-green') => raw(`/files/${org}/token`, await cookie(as), 'POST', JSON.stringify({ name, ...(subdir ? { subdir } : {}) }))

describe('the storage interface (local disk)', () => {
  const bytes = async (s: FileStorage, org: string, subdir: string | null, name: string) => {
    const got = await s.get(org, subdir, name)
    return got ? { size: got.size, mtime: got.mtime, data: Buffer.from(await new Response(got.body).arrayBuffer()) } : null
  }
  async function* chunks(...parts: string[]) {
    for (const p of parts) yield new TextEncoder().encode(p)
  }

  it('puts from a stream or a temp file, gets, stats, lists and removes', async () => {
    const dir = tmpDir()
    const s = new LocalFileStorage(dir)
    expect(await s.list('acme', null)).toEqual([]) // no folder yet: an empty list
    expect(await s.get('acme', null, 'a.txt')).toBeNull()
    expect(await s.stat('acme', null, 'a.txt')).toBeNull()

    await s.put('acme', null, 'a.txt', { stream: chunks('hello ', 'world\n') })
    const tmp = path.join(dir, 'staged.part')
    fs.writeFileSync(tmp, PNG)
    await s.put('acme', 'img/2026', 'b.png', { tmpFile: tmp })
    expect(fs.existsSync(tmp)).toBe(false) // moved, not copied
    expect(fs.readFileSync(path.join(dir, 'files', 'acme', 'img', '2026', 'b.png')).equals(PNG)).toBe(true)

    const a = await bytes(s, 'acme', null, 'a.txt')
    expect(a).toMatchObject({ size: 12 })
    expect(a!.data.toString()).toBe('hello world\n')
    expect(Math.abs(a!.mtime.getTime() - Date.now())).toBeLessThan(60_000)
    expect((await bytes(s, 'acme', 'img/2026', 'b.png'))!.data.equals(PNG)).toBe(true)
    expect(await s.stat('acme', 'img/2026', 'b.png')).toMatchObject({ size: PNG.length })

    const listed = await s.list('acme', null)
    expect(listed).toEqual([{ name: 'a.txt', size: 12, type: 'text/plain; charset=utf-8', modified: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) }]) // not the img folder
    expect(await s.list('acme', 'img/2026')).toEqual([{ name: 'b.png', size: PNG.length, type: 'image/png', modified: expect.any(String) }])

    await s.put('acme', null, 'a.txt', { stream: chunks('replaced') })
    expect((await bytes(s, 'acme', null, 'a.txt'))!.data.toString()).toBe('replaced')

    expect(await s.remove('acme', null, 'a.txt')).toBe(true)
    expect(await s.remove('acme', null, 'a.txt')).toBe(false)
    expect(await s.get('acme', null, 'a.txt')).toBeNull()
    expect(await s.list('acme', null)).toEqual([])
    expect(fs.readdirSync(path.join(dir, 'files', '.tmp'))).toEqual([]) // a streamed put leaves no temp file
    fs.rmSync(dir, { recursive: true, force: true })
  })

  it('refuses every name that could leave the organisation’s folder, before touching the disk', async () => {
    const s = new LocalFileStorage(dataDir)
    const bad: Array<[string, string | null, string]> = [
      ['..', null, 'x.txt'], ['greenleaf', '..', 'x.txt'], ['greenleaf', '../harbor', 'secret.txt'], ['greenleaf', null, '../harbor/secret.txt'],
      ['greenleaf', null, '..'], ['greenleaf', '/etc', 'passwd'], ['/etc', null, 'passwd'], ['greenleaf', null, '/etc/passwd'],
      ['greenleaf', null, '..\\harbor\\secret.txt'], ['greenleaf', 'a\\b', 'x.txt'], ['greenleaf', null, 'x.txt\0.png'], ['green\0leaf', null, 'x.txt'],
      ['greenleaf', null, '%2e%2e%2fharbor%2fsecret.txt'], ['greenleaf', '%2e%2e', 'x.txt'], ['greenleaf', null, '..%2Fharbor'], ['greenleaf', null, '%252e%252e'],
      ['greenleaf', null, '.hidden.txt'], ['greenleaf', 'a/b/c/d', 'x.txt'], ['greenleaf', 'labs/', 'x.txt'],
    ]
    for (const [org, subdir, name] of bad) {
      await expect(s.get(org, subdir, name), `${org} ${subdir} ${name}`).rejects.toMatchObject({ code: 'BAD_INPUT' })
      await expect(s.put(org, subdir, name, { stream: (async function* () {})() }), `${org} ${subdir} ${name}`).rejects.toMatchObject({ code: 'BAD_INPUT' })
      await expect(s.remove(org, subdir, name)).rejects.toMatchObject({ code: 'BAD_INPUT' })
    }
    await expect(s.list('greenleaf', '../harbor')).rejects.toMatchObject({ code: 'BAD_INPUT' })
    expect(fs.readFileSync(path.join(files, 'harbor', 'secret.txt'), 'utf8')).toBe(HARBOR_SECRET)
  })

  it('refuses a symlink inside the folder that points out of it (file or folder), and follows one that stays inside', async () => {
    const s = new LocalFileStorage(dataDir)
    for (const name of ['leak.txt', 'outside.txt']) {
      await expect(s.get('greenleaf', null, name), name).rejects.toMatchObject({ code: 'FORBIDDEN' })
      await expect(s.stat('greenleaf', null, name), name).rejects.toMatchObject({ code: 'FORBIDDEN' })
      await expect(s.remove('greenleaf', null, name), name).rejects.toMatchObject({ code: 'FORBIDDEN' })
    }
    await expect(s.get('greenleaf', 'elsewhere', 'secret.txt')).rejects.toMatchObject({ code: 'FORBIDDEN' })
    await expect(s.list('greenleaf', 'harborlink')).rejects.toMatchObject({ code: 'FORBIDDEN' })
    // writing through a linked folder is refused too, and nothing lands outside
    await expect(s.put('greenleaf', 'elsewhere', 'dropped.txt', { stream: (async function* () { yield new TextEncoder().encode('x') })() })).rejects.toMatchObject({ code: 'FORBIDDEN' })
    expect(fs.existsSync(path.join(outside, 'dropped.txt'))).toBe(false)
    expect(fs.readFileSync(path.join(outside, 'secret.txt'), 'utf8')).toBe(OUTSIDE_SECRET)
    // an organisation folder that is itself a link elsewhere is refused
    fs.symlinkSync(outside, path.join(files, 'linkedorg'))
    await expect(s.get('linkedorg', null, 'secret.txt')).rejects.toMatchObject({ code: 'FORBIDDEN' })
    await expect(s.list('linkedorg', null)).rejects.toMatchObject({ code: 'FORBIDDEN' })
    // inside → inside is fine
    const alias = await s.get('greenleaf', null, 'alias.pdf')
    expect(Buffer.from(await new Response(alias!.body).arrayBuffer()).toString()).toBe('%PDF-1.4\n%%EOF\n')
  })
})

describe('GET /getfiles/{org}/ (listing)', () => {
  it('lists the folder for its own users: plain servable files, no folders, hidden files or links', async () => {
    const r = await raw('/getfiles/greenleaf/', await cookie('u-green'))
    expect(r.status).toBe(200)
    expect(r.type).toMatch(/^application\/json/)
    const list = json(r) as Array<{ name: string; size: number; type: string; modified: string }>
    expect(list.map((f) => f.name)).toEqual(['logo.png', 'report.pdf', 'weights.csv'])
    expect(list[0]).toEqual({ name: 'logo.png', size: PNG.length, type: 'image/png', modified: fs.statSync(path.join(files, 'greenleaf', 'logo.png')).mtime.toISOString() })
    // without the trailing slash, and a sub-folder
    expect(json(await raw('/getfiles/greenleaf', await cookie('u-green'))).length).toBe(3)
    expect(json(await raw('/getfiles/greenleaf/?subdir=labs%2F2026', await cookie('u-green')))).toEqual([{ name: 'coa.pdf', size: 19, type: 'application/pdf', modified: expect.any(String) }])
    // an API client with its access token
    expect(json(await raw('/getfiles/greenleaf/', access('u-green', 'greenleaf'))).length).toBe(3)
  })

  it('answers an empty list for an empty or missing folder', async () => {
    expect(json(await raw('/getfiles/emptyco/', await cookie('u-empty')))).toEqual([])
    fs.mkdirSync(path.join(files, 'emptyco', 'inbox'), { recursive: true })
    expect(json(await raw('/getfiles/emptyco/?subdir=inbox', await cookie('u-empty')))).toEqual([])
  })

  it('refuses another organisation (403), anyone not signed in (401), a bad folder (400), with the JSON envelope', async () => {
    const other = await raw('/getfiles/greenleaf/', await cookie('u-harbor'))
    expect(other.status).toBe(403)
    expect(json(other)).toEqual({ errors: [{ code: 'FORBIDDEN', message: 'These files belong to another organisation.' }] })
    expect((await raw('/getfiles/greenleaf/', access('u-harbor', 'harbor'))).status).toBe(403)
    const anon = await raw('/getfiles/greenleaf/')
    expect(anon.status).toBe(401)
    expect(json(anon).errors[0].code).toBe('UNAUTHENTICATED')
    expect(json(await raw('/getfiles/greenleaf/', { 'x-access-token': 'forged.token.here' })).errors[0].code).toBe('UNAUTHENTICATED')
    for (const q of ['..', '..%2Fharbor', '%2e%2e', '%252e%252e', 'harborlink%2F..', '%2Fetc', 'a%5Cb'])
      expect((await raw(`/getfiles/greenleaf/?subdir=${q}`, await cookie('u-green'))).status, q).toBe(400)
    expect(json(await raw('/getfiles/greenleaf/?subdir=harborlink', await cookie('u-green')))).toEqual({ errors: [{ code: 'FORBIDDEN', message: 'That file is outside the organisation’s folder.' }] })
  })

  it("lists the platform's own files to everyone signed in, as getfiles serves them", async () => {
    expect(json(await raw('/getfiles/auth/', await cookie('u-harbor')))).toEqual([{ name: 'logo.png', size: PNG.length, type: 'image/png', modified: expect.any(String) }])
  })
})

describe('GET /getfiles/{org}/{name}: path safety through the real route', () => {
  it('refuses raw URLs with encoded or double-encoded slashes and dots, backslashes and NUL, never serving another organisation’s bytes', async () => {
    const green = await cookie('u-green')
    const attempts: Array<[string, number]> = [
      ['/getfiles/greenleaf/..%2Fharbor%2Fsecret.txt', 400],
      ['/getfiles/greenleaf/..%2fharbor%2fsecret.txt', 400],
      ['/getfiles/greenleaf/%2e%2e%2fharbor%2fsecret.txt', 400],
      ['/getfiles/greenleaf/%252e%252e%252fharbor%252fsecret.txt', 400],
      ['/getfiles/greenleaf/..%252Fharbor%252Fsecret.txt', 400],
      ['/getfiles/greenleaf/..%5Charbor%5Csecret.txt', 400],
      ['/getfiles/greenleaf/secret.txt%00.png', 400],
      ['/getfiles/greenleaf/%2Fetc%2Fpasswd', 400],
      ['/getfiles/greenleaf/secret.txt?subdir=..%2Fharbor', 400],
      ['/getfiles/greenleaf/secret.txt?subdir=%2e%2e', 400],
      ['/getfiles/greenleaf/secret.txt?subdir=%252e%252e%252fharbor', 400],
      ['/getfiles/greenleaf/secret.txt?subdir=%2Fharbor', 400],
      ['/getfiles/..%2Fharbor/secret.txt', 400],
      ['/getfiles/greenleaf%2F..%2Fharbor/secret.txt', 400],
      // a URL parser resolves an encoded-dot segment (and a literal one) before any route sees it:
      // what is left is harbor's own address, refused to greenleaf's user by the organisation rule
      ['/getfiles/greenleaf/%2e%2e/harbor/secret.txt', 403],
      ['/getfiles/greenleaf/../harbor/secret.txt', 403],
      // …or climbs out of /getfiles altogether: no route there
      ['/getfiles/%2e%2e/harbor%2Fsecret.txt', 404],
      // links inside greenleaf's folder that point out of it
      ['/getfiles/greenleaf/leak.txt', 403],
      ['/getfiles/greenleaf/outside.txt', 403],
      ['/getfiles/greenleaf/secret.txt?subdir=elsewhere', 403],
      ['/getfiles/greenleaf/secret.txt?subdir=harborlink', 403],
    ]
    for (const [url, status] of attempts) {
      const r = await raw(url, green)
      expect(r.status, url).toBe(status)
      expect(r.body.toString(), url).not.toContain('HARBOR ONLY')
      expect(r.body.toString(), url).not.toContain('OUTSIDE THE DATA FOLDER')
    }
    expect(log.lines).toContainEqual(expect.objectContaining({ msg: 'file read refused', org: 'greenleaf', name: 'leak.txt' }))
    // the real files are still served, and an inside link too
    const ok = await raw('/getfiles/greenleaf/logo.png', green)
    expect(ok.status).toBe(200)
    expect(ok.body.equals(PNG)).toBe(true)
    expect((await raw('/getfiles/greenleaf/coa.pdf?subdir=labs%2F2026', green)).status).toBe(200)
    expect((await raw('/getfiles/greenleaf/alias.pdf', green)).body.toString()).toBe('%PDF-1.4\n%%EOF\n')
  })

  it('answers API clients (x-access-token) with the JSON envelope, browsers with text', async () => {
    const api = await raw('/getfiles/greenleaf/logo.png', access('u-harbor', 'harbor'))
    expect(api.status).toBe(403)
    expect(json(api)).toEqual({ errors: [{ code: 'FORBIDDEN', message: 'This file belongs to another organisation.' }] })
    const mine = await raw('/getfiles/greenleaf/logo.png', access('u-green', 'greenleaf'))
    expect(mine.status).toBe(200)
    expect(mine.body.equals(PNG)).toBe(true)
    expect(json(await raw('/getfiles/greenleaf/nothing.png', access('u-green', 'greenleaf'))).errors[0].code).toBe('NOT_FOUND')
    const browser = await raw('/getfiles/greenleaf/logo.png', await cookie('u-harbor'))
    expect(browser.status).toBe(403)
    expect(browser.type).toMatch(/^text\/plain/)
  })
})

describe('download tokens', () => {
  it('makes a link bound to one file that works without a session, for a signed-in user of that organisation', async () => {
    const made = await makeToken('greenleaf', 'weights.csv')
    expect(made.status).toBe(200)
    const { token, url, expires } = json(made)
    expect(url).toBe(`/getfiles/greenleaf/weights.csv?token=${token}`)
    expect(Date.parse(expires) - Date.now()).toBeLessThanOrEqual(2000) // FILE_TOKEN_TTL_S=2 here
    const got = await raw(url) // no cookie at all
    expect(got.status).toBe(200)
    expect(got.body.toString()).toBe('tag,weight\n1A4000,3.5\n')
    expect(log.lines).toContainEqual(expect.objectContaining({ msg: 'download link made', org: 'greenleaf', name: 'weights.csv', uid: 'u-green' }))

    const sub = json(await makeToken('greenleaf', 'coa.pdf', 'labs/2026'))
    expect(sub.url).toBe(`/getfiles/greenleaf/coa.pdf?subdir=labs%2F2026&token=${sub.token}`)
    expect((await raw(sub.url)).status).toBe(200)
    // an API client may ask for one too
    const viaApi = await raw('/files/greenleaf/token', access('u-green', 'greenleaf'), 'POST', JSON.stringify({ name: 'report.pdf' }))
    expect(viaApi.status).toBe(200)
    expect((await raw(json(viaApi).url)).status).toBe(200)
  })

  it('refuses a token for another file, folder or organisation (403), and a forged or expired one (401)', async () => {
    const { token } = json(await makeToken('greenleaf', 'weights.csv'))
    const other = await raw(`/getfiles/greenleaf/report.pdf?token=${token}`)
    expect(other.status).toBe(403)
    expect(other.body.toString()).toBe('This download link is for another file.')
    expect((await raw(`/getfiles/greenleaf/weights.csv?subdir=labs&token=${token}`)).status).toBe(403)
    expect((await raw(`/getfiles/harbor/weights.csv?token=${token}`)).status).toBe(403)
    // a token for harbor's file, made with greenleaf's session, is refused at the source
    expect((await makeToken('harbor', 'secret.txt')).status).toBe(403)

    // forged: a changed claim, another key, no signature, garbage
    const [h, , s] = token.split('.')
    const evil = Buffer.from(JSON.stringify({ org: 'harbor', subdir: '', name: 'secret.txt', sub: 'u-green', iat: 0, exp: 9_999_999_999 })).toString('base64url')
    const wrongKey = signFileToken('another-secret-that-is-long-enough-000000', { org: 'harbor', name: 'secret.txt', sub: 'u-green' }, 60).token
    const access_ = access('u-harbor', 'harbor')['x-access-token'] // an access token is not a file token
    for (const forged of [`${h}.${evil}.${s}`, wrongKey, `${h}.${evil}.`, 'garbage', '', access_]) {
      const r = await raw(`/getfiles/harbor/secret.txt?token=${encodeURIComponent(forged)}`)
      expect(r.status, forged).toBe(401)
      expect(r.body.toString()).not.toContain('HARBOR ONLY')
    }

    // expired: FILE_TOKEN_TTL_S=2 here (times are whole seconds, so a token lives 1–2 s: with 1 s, one
    // made late in a second could expire before a loaded machine used it), dead 2.1 s after it was made
    await new Promise((r) => setTimeout(r, 2100))
    const late = await raw(`/getfiles/greenleaf/weights.csv?token=${token}`)
    expect(late.status).toBe(401)
    expect(late.body.toString()).toBe('This download link has expired; ask for a new one.')
    // and with an injected clock: valid until exp, not at it
    const t0 = Date.UTC(2026, 0, 1)
    const made = signFileToken(SECRET, { org: 'greenleaf', name: 'a.txt', sub: 'u' }, 300, t0)
    expect(verifyFileToken(SECRET, made.token, t0 + 299_999)).toMatchObject({ ok: true, claims: { org: 'greenleaf', subdir: '', name: 'a.txt' } })
    expect(verifyFileToken(SECRET, made.token, t0 + 300_000)).toEqual({ ok: false, reason: 'expired' })
  })

  it('makes no link for anyone not signed in, a missing file, a bad name or a GET', async () => {
    const anon = await raw('/files/greenleaf/token', {}, 'POST', JSON.stringify({ name: 'logo.png' }))
    expect(anon.status).toBe(401)
    expect(json(anon).errors[0].code).toBe('UNAUTHENTICATED')
    const half = await raw('/files/greenleaf/token', { Cookie: `${COOKIE}=${await sid('u-green', 'facility')}` }, 'POST', JSON.stringify({ name: 'logo.png' }))
    expect(half.status).toBe(401)
    expect(json(await makeToken('greenleaf', 'nothing.png'))).toEqual({ errors: [{ code: 'NOT_FOUND', message: 'No such file.' }] })
    expect((await makeToken('greenleaf', '../harbor/secret.txt')).status).toBe(400)
    expect((await makeToken('greenleaf', 'secret.txt', '..')).status).toBe(400)
    expect((await makeToken('greenleaf', 'leak.txt')).status).toBe(403) // a link out of the folder
    expect((await raw('/files/greenleaf/token', await cookie('u-green'), 'POST', '{}')).status).toBe(400)
    expect((await raw('/files/greenleaf/token', await cookie('u-green'))).status).toBe(405)
  })
})
