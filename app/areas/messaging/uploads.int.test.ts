/**
 * Files uploaded in a message (issue 27) on the real database, PGlite and PostgreSQL, through the
 * page's real multipart action and the file's real route: the recipient downloads what the sender
 * uploaded; someone of the same facility outside the conversation, and someone of another facility,
 * get 404; getfiles, its listing and the download-link API never reach the private folder; an
 * upload over MAX_UPLOAD_MB, or of a type the file store refuses, refuses the whole message and
 * stores nothing (no post, no file, no temp file).
 */
import fs from 'node:fs'
import path from 'node:path'
import type { AppLoadContext } from '@remix-run/node'
import pino from 'pino'
import { COOKIE, createSession } from '#app/auth/session.server'
import { loadEnv, type Env } from '#app/config/env.server'
import { EventHub } from '#app/events/event-hub.server'
import { action, loader } from '#app/routes/MsgMessages'
import { loader as fileLoader } from '#app/routes/MsgMessages_.file.$thread.$name'
import { loader as getfiles } from '#app/routes/getfiles.$org.$name'
import { loader as listing } from '#app/routes/getfiles.$org._index'
import { ensurePlatform } from '#app/seed/index.server'
import { openTestDatabase, tmpDir, type TestDatabase } from '#tests/helpers/db'
import { MSG_FOLDER } from './uploads.server'

const seedActor = { uid: 'u-seed', requestId: 'msg-up' }
let t: TestDatabase
let env: Env
const USERS = [
  { uid: 'u-ann', org: 'greenleaf', modules: { greenleaf: ['oth'] } },
  { uid: 'u-bob', org: 'greenleaf', modules: { greenleaf: ['oth'] } },
  { uid: 'u-cat', org: 'greenleaf', modules: { greenleaf: ['oth'] } },
  { uid: 'u-dan', org: 'harbor', modules: { harbor: ['oth'] } },
]
const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n')

beforeAll(async () => {
  t = await openTestDatabase()
  env = loadEnv({ DATA_DIR: tmpDir(), MAX_UPLOAD_MB: '0.01' })
  await ensurePlatform(t, env)
  for (const org of ['greenleaf', 'harbor']) await t.store.insert(seedActor, 'auth', 'org', { _id: org, name: org, fullName: `${org} full`, wid: [] })
  for (const u of USERS) await t.store.insert(seedActor, 'auth', 'users', { _id: u.uid, uid: u.uid, email: `${u.uid}@x.test`, role: 'user', org: u.org, web: 'yes', firstname: u.uid, props: { facilities: Object.keys(u.modules), modules: u.modules } })
}, 120_000)
afterAll(async () => {
  await t?.cleanup()
  fs.rmSync(env.DATA_DIR, { recursive: true, force: true })
})

const ctx = () => ({ database: t, env, events: new EventHub(), logger: pino({ level: 'silent' }), requestId: `up-${Math.random()}`, clientIp: '127.0.0.1' }) as unknown as AppLoadContext
const cookie = async (uid: string) => `${COOKIE}=${await createSession(t, { uid, step: 'done', facility: USERS.find((u) => u.uid === uid)!.org })}`
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a route module's function takes Remix's argument object
async function run(fn: (a: any) => Promise<unknown>, request: Request, params: Record<string, string> = {}): Promise<Response> {
  try {
    return (await fn({ request, context: ctx(), params })) as Response
  } catch (e) {
    if (e instanceof Response) return e
    throw e
  }
}
async function send(uid: string, fields: Record<string, string>, files: Array<{ name: string; bytes: Buffer; type: string }>): Promise<Response> {
  const form = new FormData()
  for (const [k, v] of Object.entries(fields)) form.append(k, v)
  for (const f of files) form.append('upload', new File([new Uint8Array(f.bytes)], f.name, { type: f.type }))
  return run(action, new Request('http://canopy.test/MsgMessages', { method: 'POST', headers: { Cookie: await cookie(uid) }, body: form }))
}
const download = async (uid: string, url: string) => {
  const [, , , thread, name] = new URL(url, 'http://x').pathname.split('/')
  return run(fileLoader, new Request(`http://canopy.test${url}`, { headers: { Cookie: await cookie(uid) } }), { thread: decodeURIComponent(thread), name: decodeURIComponent(name) })
}
const stored = () => {
  const dir = path.join(env.DATA_DIR, 'files', 'greenleaf', ...MSG_FOLDER.split('/'))
  return fs.existsSync(dir) ? fs.readdirSync(dir) : []
}
const temps = () => {
  const dir = path.join(env.DATA_DIR, 'files', '.tmp')
  return fs.existsSync(dir) ? fs.readdirSync(dir) : []
}
const posts = async () => Number((await t.db.query<{ n: string }>('SELECT count(*) AS n FROM msg_posts')).rows[0].n)

describe('a file uploaded with a message', () => {
  let url = ''
  let thread = ''
  it('reaches the recipient, who downloads it whole under its own name', async () => {
    const res = await send('u-ann', { intent: 'send', to: 'user:u-bob', subject: 'Lab report', body: 'See the attached report.' }, [{ name: 'Lab report (May).pdf', bytes: PDF, type: 'application/pdf' }])
    expect(res.status).toBe(302)
    thread = new URL(res.headers.get('location')!, 'http://x').searchParams.get('c')!
    const page = (await (await run(loader, new Request(`http://canopy.test/MsgMessages?c=${thread}`, { headers: { Cookie: await cookie('u-bob') } }))).json()) as { open: { posts: Array<{ attachments: Array<{ name: string; url: string }> }> } }
    const [a] = page.open.posts[0].attachments
    expect(a.name).toBe('Lab report (May).pdf')
    url = a.url
    const file = await download('u-bob', url)
    expect(file.status).toBe(200)
    expect(file.headers.get('content-type')).toBe('application/pdf')
    expect(file.headers.get('content-disposition')).toContain("filename*=UTF-8''Lab%20report%20(May).pdf")
    expect(Buffer.from(await file.arrayBuffer()).equals(PDF)).toBe(true)
    expect((await download('u-ann', url)).status).toBe(200)
  })

  it('is not found for anyone outside the conversation, in this facility or another, nor through getfiles', async () => {
    expect((await download('u-cat', url)).status).toBe(404)
    expect((await download('u-dan', url)).status).toBe(404)
    // a member asking for a file of another conversation by this conversation's address: 404 as well
    const name = decodeURIComponent(url.split('/').pop()!)
    const other = await send('u-ann', { intent: 'send', to: 'user:u-cat', subject: 'Other', body: 'Hi' }, [])
    const otherThread = new URL(other.headers.get('location')!, 'http://x').searchParams.get('c')!
    expect((await download('u-cat', `/MsgMessages/file/${otherThread}/${name}`)).status).toBe(404)
    // the organisation's file routes never serve, list or sign the private folder, even to a member
    const g = await run(getfiles, new Request(`http://canopy.test/getfiles/greenleaf/${name}?subdir=${encodeURIComponent(MSG_FOLDER)}`, { headers: { Cookie: await cookie('u-cat') } }), { org: 'greenleaf', name })
    expect(g.status).toBe(404)
    const l = await run(listing, new Request(`http://canopy.test/getfiles/greenleaf/?subdir=${encodeURIComponent(MSG_FOLDER)}`, { headers: { Cookie: await cookie('u-bob') } }), { org: 'greenleaf' })
    expect(l.status).toBe(404)
  })

  it('over the size limit, or of a refused type, refuses the whole message with a clear reason and stores nothing', async () => {
    const before = { posts: await posts(), files: stored().length }
    const big = Buffer.concat([PDF, Buffer.alloc(20_000, 0x20)])
    const over = await send('u-ann', { intent: 'reply', c: thread, body: 'Bigger one' }, [{ name: 'big.pdf', bytes: big, type: 'application/pdf' }])
    expect(over.status).toBe(413)
    expect(((await over.json()) as { error: string; field: string }).error).toMatch(/big\.pdf is larger than 0\.01 MB/)
    const svg = await send('u-ann', { intent: 'send', to: 'user:u-bob', subject: 'Logo', body: 'Logo' }, [{ name: 'logo.svg', bytes: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'), type: 'image/svg+xml' }])
    expect(svg.status).toBe(415)
    expect(((await svg.json()) as { error: string }).error).toMatch(/SVG and HTML files are not accepted/)
    const fake = await send('u-ann', { intent: 'reply', c: thread, body: 'Fake' }, [{ name: 'ok.txt', bytes: Buffer.from('fine'), type: 'text/plain' }, { name: 'fake.pdf', bytes: Buffer.from('not a pdf at all'), type: 'application/pdf' }])
    expect(fake.status).toBe(415)
    expect(await posts()).toBe(before.posts)
    expect(stored().length).toBe(before.files)
    expect(temps()).toEqual([])
  })
})
