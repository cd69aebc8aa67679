/**
 * Uploads (issue 6 file drop, SPEC §7 files API) on the real database and a real data folder: the
 * files module (allow-list by name and by first bytes, size limit, temp file then rename), POST
 * /files/{org} (who may upload, 413 before reading, JSON answers) and the edit form's save without
 * JavaScript (a multipart post whose file is stored before validation, or refused with nothing saved).
 * The limit is 0.01 MB here (10,485 bytes) so "too large" is cheap.
 */
import fs from 'node:fs'
import path from 'node:path'
import type { AppLoadContext } from '@remix-run/node'
import pino from 'pino'
import { COOKIE, createSession } from '#app/auth/session.server'
import { loadEnv, type Env } from '#app/config/env.server'
import { commitUpload, looksLikeText, maxUploadBytes, sniff, stageUpload, sweepTemp, tempDir } from '#app/files/store.server'
import { action as uploadAction } from '#app/routes/files.$org'
import { loader as filesLoader } from '#app/routes/getfiles.$org.$name'
import { editAction } from '#app/screens/record-route.server'
import { ensurePlatform } from '#app/seed/index.server'
import { EventHub } from '#app/events/event-hub.server'
import { openTestDatabase, tmpDir, type TestDatabase } from '#tests/helpers/db'

const actor = { uid: 'u-test', requestId: 'file-upload-test' }
let t: TestDatabase
let env: Env
let limit: number
const logged: Array<Record<string, unknown>> = []

const PNG = Buffer.concat([Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489', 'hex'), Buffer.alloc(64, 7)])
const PDF = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n')
const HTML = Buffer.from('<!DOCTYPE html><html><body><script>alert(document.cookie)</script></body></html>')

beforeAll(async () => {
  t = await openTestDatabase()
  env = loadEnv({ DATA_DIR: tmpDir(), MAX_UPLOAD_MB: '0.01' })
  limit = maxUploadBytes(env)
  await ensurePlatform(t, env) // the seed's schemas: fac_products has Image (fileDND, format image)
  await t.store.insert(actor, 'auth', 'org', { _id: 'greenleaf', fullName: 'Greenleaf', timezone: 'America/Los_Angeles' })
  for (const [uid, org] of [['u-green', 'greenleaf'], ['u-harbor', 'harbor']] as const)
    await t.store.insert(actor, 'auth', 'users', { _id: uid, uid, email: `${uid}@x.test`, role: 'user', org, web: 'yes', props: { facilities: [org], modules: { [org]: null } } })
})
afterAll(async () => {
  await t?.cleanup()
  fs.rmSync(env.DATA_DIR, { recursive: true, force: true })
})

const ctx = () => ({ database: t, env, events: new EventHub(), logger: pino({ level: 'info' }, { write: (s: string) => logged.push(JSON.parse(s)) }), requestId: 'test', clientIp: '127.0.0.1' }) as unknown as AppLoadContext
const sid = (uid: string) => createSession(t, { uid, step: 'done', facility: uid === 'u-harbor' ? 'harbor' : 'greenleaf' })
const orgFiles = (org = 'greenleaf') => {
  try {
    return fs.readdirSync(path.join(env.DATA_DIR, 'files', org)).filter((f) => f !== 'logo.png')
  } catch {
    return []
  }
}
const temps = () => (fs.existsSync(tempDir(env.DATA_DIR)) ? fs.readdirSync(tempDir(env.DATA_DIR)) : [])
const file = (bytes: Buffer, name: string) => new File([new Uint8Array(bytes)], name)
const form = (files: Array<[string, Buffer, string]>) => {
  const fd = new FormData()
  for (const [field, bytes, name] of files) fd.append(field, file(bytes, name))
  return fd
}
const upload = async (org: string, body: FormData | ReadableStream | null, opts: { sid?: string; query?: string; headers?: Record<string, string> } = {}) =>
  uploadAction({
    request: new Request(`http://canopy.test/files/${org}${opts.query ?? ''}`, {
      method: 'POST',
      headers: { ...(opts.sid ? { Cookie: `${COOKIE}=${opts.sid}` } : {}), ...opts.headers },
      body,
      ...(body instanceof ReadableStream ? { duplex: 'half' } : {}),
    } as RequestInit),
    context: ctx(),
    params: { org },
  })
const download = (ref: string, s: string) => {
  const u = new URL(ref, 'http://canopy.test')
  const [, , org, name] = u.pathname.split('/')
  return filesLoader({ request: new Request(u, { headers: { Cookie: `${COOKIE}=${s}` } }), context: ctx(), params: { org, name: decodeURIComponent(name) } })
}
async function* chunks(...parts: Buffer[]) {
  for (const p of parts) yield new Uint8Array(p)
}

describe('the files module', () => {
  it('knows a file by its first bytes, not its name', () => {
    expect(sniff(PNG)).toBe('png')
    expect(sniff(Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10]))).toBe('jpeg')
    expect(sniff(Buffer.from('RIFF\x10\x00\x00\x00WEBPVP8 ', 'latin1'))).toBe('webp')
    expect(sniff(PDF)).toBe('pdf')
    expect(sniff(HTML)).toBeNull()
    expect(looksLikeText(Buffer.from('tag,weight\n1A4000,3.5 g\n'))).toBe(true)
    expect(looksLikeText(Buffer.from('caf\xe9;12\n', 'latin1'))).toBe(true) // a spreadsheet's Latin-1 CSV
    expect(looksLikeText(HTML)).toBe(false)
    expect(looksLikeText(Buffer.from('\ufeff  <svg onload="x()">', 'utf8'))).toBe(false)
    expect(looksLikeText(Buffer.from([0x41, 0x00, 0x42]))).toBe(false)
  })

  it('stages to a temp file and renames it into place under a generated name; a refused one leaves nothing', async () => {
    const staged = await stageUpload(env.DATA_DIR, 'Label Photo (1).PNG', chunks(PNG.subarray(0, 10), PNG.subarray(10)), limit)
    expect(staged).toMatchObject({ ext: 'png', size: PNG.length })
    expect(fs.existsSync(staged.tmp)).toBe(true)
    const stored = await commitUpload(env.DATA_DIR, 'greenleaf', staged)
    expect(stored.name).toMatch(/^label-photo-1-[0-9a-f]{12}\.png$/)
    expect(stored.path).toBe(`/getfiles/greenleaf/${stored.name}`)
    expect(fs.readFileSync(path.join(env.DATA_DIR, 'files', 'greenleaf', stored.name)).equals(PNG)).toBe(true)
    expect(fs.existsSync(staged.tmp)).toBe(false)

    const fake = await stageUpload(env.DATA_DIR, 'photo.png', chunks(HTML), limit)
    await expect(commitUpload(env.DATA_DIR, 'greenleaf', fake)).rejects.toMatchObject({ code: 'UNSUPPORTED', message: 'photo.png is not really a PNG image: its contents do not match its name.' })
    expect(fs.existsSync(fake.tmp)).toBe(false)
    await expect(stageUpload(env.DATA_DIR, 'big.png', chunks(PNG, Buffer.alloc(limit)), limit)).rejects.toMatchObject({ code: 'TOO_LARGE', message: 'big.png is larger than 0.01 MB, the most a file may be.' })
    await expect(stageUpload(env.DATA_DIR, 'empty.txt', chunks(), limit)).rejects.toMatchObject({ code: 'BAD_INPUT' })
    expect(temps()).toEqual([])
  })

  it('removes temp files a crash left behind, once they are old', () => {
    fs.mkdirSync(tempDir(env.DATA_DIR), { recursive: true })
    const old = path.join(tempDir(env.DATA_DIR), 'crashed.part')
    fs.writeFileSync(old, 'half a file')
    expect(sweepTemp(env.DATA_DIR)).toBe(0) // fresh: maybe an upload in progress
    fs.utimesSync(old, new Date(Date.now() - 7_200_000), new Date(Date.now() - 7_200_000))
    expect(sweepTemp(env.DATA_DIR)).toBe(1)
    expect(temps()).toEqual([])
  })
})

describe('POST /files/{org}', () => {
  it("stores a user's file in their organisation and answers its reference, which getfiles serves", async () => {
    const s = await sid('u-green')
    const res = await upload('greenleaf', form([['files[0]', PNG, 'leaf.png']]), { sid: s })
    expect(res.status).toBe(200)
    const body = await res.json()
    expect(body.files).toEqual([{ name: expect.stringMatching(/^leaf-[0-9a-f]{12}\.png$/), path: expect.stringMatching(/^\/getfiles\/greenleaf\/leaf-/), size: PNG.length, type: 'image/png' }])
    const got = await download(body.files[0].path, s)
    expect(got.status).toBe(200)
    expect(got.headers.get('Content-Type')).toBe('image/png')
    expect(Buffer.from(await got.arrayBuffer()).equals(PNG)).toBe(true)
    expect(logged).toContainEqual(expect.objectContaining({ msg: 'files uploaded', org: 'greenleaf', uid: 'u-green' }))
  })

  it('takes `files` too, and csv/txt, which are served as downloads', async () => {
    const s = await sid('u-green')
    const res = await upload('greenleaf', form([['files', Buffer.from('tag,weight\n1A4000,3.5\n'), 'weights.csv']]), { sid: s })
    expect(res.status).toBe(200)
    const [f] = (await res.json()).files
    expect(f.type).toBe('text/csv')
    const got = await download(f.path, s)
    expect(got.headers.get('Content-Type')).toBe('text/plain; charset=utf-8')
    expect(got.headers.get('Content-Disposition')).toBe(`attachment; filename="${f.name}"`)
    expect(await got.text()).toBe('tag,weight\n1A4000,3.5\n')
  })

  it('stores in a sub-folder with ?subdir=, and refuses a folder name that could leave the organisation', async () => {
    const s = await sid('u-green')
    const res = await upload('greenleaf', form([['files[0]', PDF, 'coa.pdf']]), { sid: s, query: '?subdir=labs/2026' })
    expect(res.status).toBe(200)
    const [f] = (await res.json()).files
    expect(f.path).toBe(`/getfiles/greenleaf/${f.name}?subdir=labs%2F2026`)
    expect(fs.existsSync(path.join(env.DATA_DIR, 'files', 'greenleaf', 'labs', '2026', f.name))).toBe(true)
    expect((await download(f.path, s)).status).toBe(200)
    expect((await download(`/getfiles/greenleaf/${f.name}`, s)).status).toBe(404) // not in the top folder
    for (const bad of ['..', '../harbor', '/etc', 'a/../../b', 'a/b/c/d'])
      expect((await upload('greenleaf', form([['files[0]', PNG, 'x.png']]), { sid: s, query: `?subdir=${encodeURIComponent(bad)}` })).status, bad).toBe(400)
    expect((await download(`/getfiles/greenleaf/${f.name}?subdir=..%2Fharbor`, s)).status).toBe(400)
  })

  it('never takes the path from the file name', async () => {
    const s = await sid('u-green')
    const before = orgFiles('harbor').length
    for (const name of ['../../harbor/evil.png', '..\\..\\evil.png', '/etc/passwd.png', 'C:\\fakepath\\x.png']) {
      const res = await upload('greenleaf', form([['files[0]', PNG, name]]), { sid: s })
      expect(res.status, name).toBe(200)
      const [f] = (await res.json()).files
      expect(f.path, name).toMatch(/^\/getfiles\/greenleaf\/[a-z0-9-]+-[0-9a-f]{12}\.png$/)
    }
    expect(orgFiles('harbor').length).toBe(before)
    expect(fs.existsSync(path.join(env.DATA_DIR, 'harbor'))).toBe(false)
    expect((await upload('..', form([['files[0]', PNG, 'x.png']]), { sid: s })).status).toBe(400)
  })

  it('refuses anyone not signed in, and users of another organisation, storing nothing', async () => {
    const before = orgFiles()
    const anon = await upload('greenleaf', form([['files[0]', PNG, 'a.png']]))
    expect(anon.status).toBe(401)
    expect((await anon.json()).errors[0]).toMatchObject({ code: 'UNAUTHENTICATED' })
    const half = await createSession(t, { uid: 'u-green', step: 'facility' })
    expect((await upload('greenleaf', form([['files[0]', PNG, 'a.png']]), { sid: half })).status).toBe(401)
    const other = await upload('greenleaf', form([['files[0]', PNG, 'a.png']]), { sid: await sid('u-harbor') })
    expect(other.status).toBe(403)
    expect(await other.json()).toEqual({ errors: [{ code: 'FORBIDDEN', message: 'You can not upload files to another organisation.' }] })
    expect((await upload('auth', form([['files[0]', PNG, 'a.png']]), { sid: await sid('u-green') })).status).toBe(403) // the platform's files: super only
    expect(orgFiles()).toEqual(before)
    expect(logged).toContainEqual(expect.objectContaining({ msg: 'upload refused', org: 'greenleaf', code: 'FORBIDDEN', uid: 'u-harbor' }))
  })

  it('refuses a body over the limit by its Content-Length before reading it', async () => {
    let pulled = false
    const body = new ReadableStream({
      pull(c) {
        pulled = true
        c.enqueue(new Uint8Array(1024))
      },
    }, { highWaterMark: 0 })
    const res = await upload('greenleaf', body, { sid: await sid('u-green'), headers: { 'Content-Type': 'multipart/form-data; boundary=x', 'Content-Length': String(limit * 20) } })
    expect(res.status).toBe(413)
    expect((await res.json()).errors[0]).toEqual({ code: 'TOO_LARGE', message: 'The file is larger than 0.01 MB, the most a file may be.' })
    expect(pulled).toBe(false)
  })

  it('refuses a file over the limit while streaming, keeping no part of it', async () => {
    const before = orgFiles()
    const res = await upload('greenleaf', form([['files[0]', Buffer.concat([PNG, Buffer.alloc(limit)]), 'huge.png']]), { sid: await sid('u-green') })
    expect(res.status).toBe(413)
    expect((await res.json()).errors[0].message).toBe('huge.png is larger than 0.01 MB, the most a file may be.')
    expect(orgFiles()).toEqual(before)
    expect(temps()).toEqual([])
  })

  it('refuses forbidden types by name and by content (415), and keeps nothing of a request refused part-way', async () => {
    const s = await sid('u-green')
    const before = orgFiles()
    const cases: Array<[Buffer, string, RegExp]> = [
      [Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>'), 'logo.svg', /SVG and HTML files are not accepted/],
      [HTML, 'page.html', /SVG and HTML files are not accepted/],
      [HTML, 'photo.png', /photo\.png is not really a PNG image/],
      [PNG, 'report.pdf', /report\.pdf is not really a PDF document/],
      [HTML, 'notes.txt', /notes\.txt is not really a text file/],
      [Buffer.from('MZ\x90\x00', 'latin1'), 'tool.exe', /only PNG, JPEG, WebP, PDF, CSV and TXT files are accepted/],
      [PNG, 'noextension', /only PNG, JPEG/],
    ]
    for (const [bytes, name, msg] of cases) {
      const res = await upload('greenleaf', form([['files[0]', bytes, name]]), { sid: s })
      expect(res.status, name).toBe(415)
      const err = (await res.json()).errors[0]
      expect(err.code).toBe('UNSUPPORTED')
      expect(err.message, name).toMatch(msg)
    }
    // the first file is fine, the second is not: neither is kept
    const two = await upload('greenleaf', form([['files[0]', PNG, 'ok.png'], ['files[1]', HTML, 'bad.png']]), { sid: s })
    expect(two.status).toBe(415)
    expect(orgFiles()).toEqual(before)
    expect(temps()).toEqual([])
  })

  it('says what is wrong with a request that carries no file or is not multipart', async () => {
    const s = await sid('u-green')
    const none = await upload('greenleaf', form([]), { sid: s })
    expect(none.status).toBe(400)
    expect((await none.json()).errors[0].message).toBe('Send a file as files[0].')
    const other = new FormData()
    other.append('photo', file(PNG, 'a.png'))
    expect((await upload('greenleaf', other, { sid: s })).status).toBe(400) // not files[0]: ignored, so no file
    const json = await uploadAction({ request: new Request('http://canopy.test/files/greenleaf', { method: 'POST', headers: { Cookie: `${COOKIE}=${s}`, 'Content-Type': 'application/json' }, body: '{}' }), context: ctx(), params: { org: 'greenleaf' } })
    expect(json.status).toBe(400)
    expect((await json.json()).errors[0].message).toBe('Send the file as multipart/form-data.')
  })
})

describe('the edit form without JavaScript (a multipart post)', () => {
  const save = async (s: string, fields: Array<[string, string | File]>, id?: string) => {
    const fd = new FormData()
    for (const [k, v] of fields) fd.append(k, v)
    return editAction({
      request: new Request(`http://canopy.test/culProducts/${id ? `${id}/edit` : 'new'}`, { method: 'POST', headers: { Cookie: `${COOKIE}=${s}` }, body: fd }),
      context: ctx(),
      params: { screen: 'culProducts', ...(id ? { id } : {}) },
    })
  }
  const products = async (name: string) => (await t.store.find('greenleaf', 'fac_products', {})).filter((r) => r.name === name)

  it('stores the chosen file before validation and saves its reference in the field', async () => {
    const s = await sid('u-green')
    const res = await save(s, [['name', 'Leaf Gummies'], ['image', ''], ['image', file(PNG, 'gummies.png')]])
    expect(res.status).toBe(302)
    const [row] = await products('Leaf Gummies')
    expect(row.image).toMatch(/^\/getfiles\/greenleaf\/gummies-[0-9a-f]{12}\.png$/)
    const got = await download(String(row.image), s)
    expect(Buffer.from(await got.arrayBuffer()).equals(PNG)).toBe(true)
    expect(temps()).toEqual([])

    // saved again with no new file (an empty file input) keeps the stored one, posted in the hidden input
    const kept = await save(s, [['__ts', row.ts], ['name', 'Leaf Gummies 10 pack'], ['image', String(row.image)], ['image', new File([], '')]], row._id)
    expect(kept.status).toBe(302)
    const after = (await t.store.get('greenleaf', 'fac_products', row._id))!
    expect(after.image).toBe(row.image)

    // the same as a browser posts it: an empty file input is a part with filename=""
    const b = 'XbrowserBoundary'
    const part = (name: string, value: string, file = false) =>
      `--${b}\r\nContent-Disposition: form-data; name="${name}"${file ? '; filename=""\r\nContent-Type: application/octet-stream' : ''}\r\n\r\n${value}\r\n`
    const body = part('__ts', after.ts) + part('name', 'Leaf Gummies 20 pack') + part('image', String(row.image)) + part('image', '', true) + `--${b}--\r\n`
    const browser = await editAction({
      request: new Request(`http://canopy.test/culProducts/${row._id}/edit`, { method: 'POST', headers: { Cookie: `${COOKIE}=${s}`, 'Content-Type': `multipart/form-data; boundary=${b}` }, body }),
      context: ctx(),
      params: { screen: 'culProducts', id: row._id },
    })
    expect(browser.status).toBe(302)
    expect((await t.store.get('greenleaf', 'fac_products', row._id))!).toMatchObject({ name: 'Leaf Gummies 20 pack', image: row.image })
  })

  it('refuses a file over the limit or of a forbidden type with the field error, saving nothing', async () => {
    const s = await sid('u-green')
    const before = orgFiles()
    const cases: Array<[File, string]> = [
      [file(Buffer.concat([PNG, Buffer.alloc(limit)]), 'huge.png'), 'huge.png is larger than 0.01 MB, the most a file may be.'],
      [file(HTML, 'photo.png'), 'photo.png is not really a PNG image: its contents do not match its name.'],
      [file(HTML, 'page.html'), 'page.html: SVG and HTML files are not accepted, because they can carry scripts.'],
      [file(PDF, 'coa.pdf'), 'Image takes an image: PNG, JPEG or WebP.'],
    ]
    for (const [file, message] of cases) {
      const res = await save(s, [['name', `Refused ${file.name}`], ['image', ''], ['image', file]])
      expect(res.status, file.name).toBe(400)
      const reply = await res.json()
      expect(reply.error, file.name).toEqual({ image: [message] })
      expect(await products(`Refused ${file.name}`)).toEqual([])
    }
    // a file refused while another field is wrong too: both errors come back
    const both = await (await save(s, [['name', ''], ['image', file(HTML, 'page.html')]])).json()
    expect(both.error).toMatchObject({ name: [expect.stringMatching(/Product/)], image: [expect.stringMatching(/SVG and HTML/)] })
    expect(orgFiles()).toEqual(before)
    expect(temps()).toEqual([])
  })

  it('keeps the stored file when the save is refused for another reason, so it need not be chosen again', async () => {
    const s = await sid('u-green')
    const res = await save(s, [['name', ''], ['image', file(PNG, 'kept.png')]])
    expect(res.status).toBe(400)
    const reply = await res.json()
    expect(reply.error!.name).toBeTruthy()
    expect(reply.initialValue!.image).toMatch(/^\/getfiles\/greenleaf\/kept-[0-9a-f]{12}\.png$/)
    expect(temps()).toEqual([])
  })
})
