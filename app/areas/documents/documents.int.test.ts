/**
 * Documents (issue 26) on the real database, PGlite and PostgreSQL: HTML with <script>, event
 * handlers, javascript: links and <iframe> sent through the editor's form and through the API is
 * stored without them; every save is a version; a restore is audited; a policy's acknowledgements;
 * and every file link of every seeded record opens (200) through the real getfiles route.
 */
import fs from 'node:fs'
import path from 'node:path'
import type { AppLoadContext } from '@remix-run/node'
import pino from 'pino'
import type { SessionUser } from '#app/auth/entitlements'
import { COOKIE, createSession } from '#app/auth/session.server'
import { signAccessToken } from '#app/auth/tokens.server'
import { loadEnv, type Env } from '#app/config/env.server'
import { EventHub } from '#app/events/event-hub.server'
import { action as editAction } from '#app/routes/DocHTMLEditor.$id'
import { action as fileUploadAction, loader as fileUploadLoader } from '#app/routes/DocFileUpload'
import { action as docListAction, loader as docListLoader } from '#app/routes/DocList'
import { loader as signaturesCsvRoute } from '#app/routes/PolDocs.$id_.signatures[.]csv'
import { action as versionsAction } from '#app/routes/DocHTMLEditor.$id_.versions'
import { loader as getfiles } from '#app/routes/getfiles.$org.$name'
import { seedDemo } from '#app/seed/index.server'
import { openTestDatabase, tmpDir, type TestDatabase } from '#tests/helpers/db'
import { dtCaller } from '#tests/helpers/dt-call'
import { demoPdf, demoPng } from './demo-files.server'
import { allFileLinks, parseFileLink } from './file-links.server'
import type { FileRow } from './files.server'
import { policiesWaitingFor, acknowledgePolicy, publishPolicy, signaturesOf } from './policies.server'
import { listVersions } from './versions.server'

let t: TestDatabase
let env: Env
const HOSTILE = `<h2 onmouseover="steal()">Harvest SOP</h2><script>fetch('/x?c='+document.cookie)</script>
<p>Wear gloves. <a href="javascript:alert(1)">click</a> <a href="JaVaScRiPt:alert(2)">again</a> <a href="https://example.com/sop">source</a></p>
<img src="x" onerror="alert(3)"><iframe src="https://evil.example"></iframe><ul><li onclick="x()">one</li></ul>`

const clean = (html: string) => {
  expect(html).not.toMatch(/<script|<iframe|onerror|onmouseover|onclick|javascript:/i)
  expect(html).toContain('<h2>Harvest SOP</h2>')
  expect(html).toContain('<li>one</li>')
  expect(html).toContain('href="https://example.com/sop"')
}

beforeAll(async () => {
  t = await openTestDatabase()
  env = loadEnv({ DATA_DIR: tmpDir(), DEMO_DATA: '1' })
  await seedDemo(t, env)
}, 300_000)
afterAll(async () => {
  await t?.cleanup()
  fs.rmSync(env.DATA_DIR, { recursive: true, force: true })
})

const ctx = () => ({ database: t, env, events: new EventHub(), logger: pino({ level: 'silent' }), requestId: `docs-${Math.random()}`, clientIp: '127.0.0.1' }) as unknown as AppLoadContext
const sid = (uid: string, facility = 'greenleaf') => createSession(t, { uid, step: 'done', facility })
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a route module's action takes Remix's argument object
const post = async (mod: (a: any) => Promise<unknown>, path: string, params: Record<string, string>, fields: Record<string, string | string[]>, session: string) => {
  const body = new URLSearchParams()
  for (const [k, v] of Object.entries(fields)) for (const x of Array.isArray(v) ? v : [v]) body.append(k, x)
  try {
    return (await mod({ request: new Request(`http://canopy.test${path}`, { method: 'POST', headers: { Cookie: `${COOKIE}=${session}`, 'content-type': 'application/x-www-form-urlencoded' }, body }), context: ctx(), params })) as Response
  } catch (e) {
    if (e instanceof Response) return e
    throw e
  }
}
const call = dtCaller({ ctx, token: (uid) => signAccessToken(env.SESSION_SECRET, { sub: uid, orig: uid, org: 'greenleaf', role: uid === 'u-admin' ? 'admin' : 'user' }), defaultUid: 'u-admin' })

describe('stored HTML is sanitised on every path', () => {
  it('the editor form (rich text and Markdown) stores it without script, handlers, javascript: links or frames', async () => {
    const s = await sid('u-admin')
    const res = await post(editAction, '/DocHTMLEditor/new', { id: 'new' }, { intent: 'save', title: 'Form doc', format: 'html', html: HOSTILE }, s)
    expect(res.status).toBe(302)
    const id = res.headers.get('location')!.split('/')[2].split('?')[0]
    const doc = await t.store.get('greenleaf', 'doc_html', id)
    clean(String(doc!.body))
    const md = await post(editAction, `/DocHTMLEditor/${id}`, { id }, { intent: 'save', title: 'Form doc', format: 'markdown', markdown: '## Harvest SOP\n\n- one\n\n[source](https://example.com/sop) [x](javascript:alert(1))\n\n<script>alert(1)</script><iframe src="https://e"></iframe><img src=x onerror=alert(1)>', ts: String(doc!.ts) }, s)
    expect(md.status).toBe(302)
    clean(String((await t.store.get('greenleaf', 'doc_html', id))!.body))
  })

  it('the API (create and partial update) stores the same clean HTML', async () => {
    const created = await call('POST', 'doc_html', { body: { title: 'API doc', body: HOSTILE } })
    expect(created.status).toBe(201)
    clean(String((await t.store.get('greenleaf', 'doc_html', created.body._id))!.body))
    const put = await call('PUT', `doc_html/${created.body._id}`, { body: { body: `${HOSTILE}<p>v2</p>` } })
    expect(put.status).toBe(200)
    const stored = String((await t.store.get('greenleaf', 'doc_html', created.body._id))!.body)
    clean(stored)
    expect(stored).toContain('<p>v2</p>')
    // a platform page's HTML (sup_html.html, typed `code`) is cleaned too
    const page = await call('POST', 'sup_html', { as: 'u-super', body: { name: 'p1', title: 'P', html: HOSTILE } })
    if (page.status === 201) clean(String((await t.store.get('auth', 'sup_html', page.body._id))!.html))
    // a policy's text
    const pol = await call('POST', 'pol_docs', { body: { title: 'API policy', body: HOSTILE } })
    expect(pol.status).toBe(201)
    clean(String((await t.store.get('greenleaf', 'pol_docs', pol.body._id))!.body))
  })
})

describe('versions', () => {
  it('every save is a version with its author; a restore brings one back as a new version and is audited', async () => {
    const s = await sid('u-admin')
    const first = await post(editAction, '/DocHTMLEditor/new', { id: 'new' }, { intent: 'save', title: 'Versioned', format: 'markdown', markdown: '# One\n\nFirst text.' }, s)
    const id = first.headers.get('location')!.split('/')[2].split('?')[0]
    let doc = (await t.store.get('greenleaf', 'doc_html', id))!
    await post(editAction, `/DocHTMLEditor/${id}`, { id }, { intent: 'save', title: 'Versioned', format: 'markdown', markdown: '# One\n\nSecond text.', ts: String(doc.ts) }, s)
    doc = (await t.store.get('greenleaf', 'doc_html', id))!
    let versions = await listVersions(t, 'greenleaf', 'doc_html', id)
    expect(versions.map((v) => v.version)).toEqual([2, 1])
    expect(versions[0]).toMatchObject({ author: 'u-admin', authorName: 'Alex Morgan' })
    expect(versions[0].html).toContain('Second text.')

    const restored = await post(versionsAction, `/DocHTMLEditor/${id}/versions`, { id }, { intent: 'restore', version: '1', ts: String(doc.ts) }, s)
    expect(restored.status).toBe(302)
    versions = await listVersions(t, 'greenleaf', 'doc_html', id)
    expect(versions[0]).toMatchObject({ version: 3, restoredFrom: 1, author: 'u-admin' })
    expect((await t.store.get('greenleaf', 'doc_html', id))!.body).toContain('First text.')
    const audit = await t.db.query<{ action: string; uid: string; before: { body?: string }; after: { body?: string } }>("SELECT action, uid, before, after FROM audit_log WHERE org = 'greenleaf' AND collection = 'doc_html' AND doc_id = $1 ORDER BY seq", [id])
    const last = audit.rows.at(-1)!
    expect(last).toMatchObject({ action: 'update', uid: 'u-admin' })
    expect(String(last.before.body)).toContain('Second text.')
    expect(String(last.after.body)).toContain('First text.')
    // a stale restore (someone saved meanwhile) is refused and changes nothing
    const stale = await post(versionsAction, `/DocHTMLEditor/${id}/versions`, { id }, { intent: 'restore', version: '2', ts: String(doc.ts) }, s)
    expect(stale.status).toBe(409)
    expect((await listVersions(t, 'greenleaf', 'doc_html', id)).length).toBe(3)
  })
})

describe('policies', () => {
  it('a published policy waits for its group; acknowledging it is recorded; a new version asks again', async () => {
    const grower = (await t.store.find('auth', 'users', { uid: 'u-grower' }, 1))[0] as unknown as SessionUser
    const admin = (await t.store.find('auth', 'users', { uid: 'u-admin' }, 1))[0] as unknown as SessionUser
    const group = (await t.store.find('greenleaf', 'team_groups', { name: 'Grow Team A' }, 1))[0]
    const w = { user: admin, actor: { uid: 'u-admin' }, facility: 'greenleaf' }
    const created = await call('POST', 'pol_docs', { body: { title: 'Glove policy', body: '<h2>Gloves</h2><ul><li>Always</li></ul>', groups: [group._id] } })
    expect(created.status).toBe(201)
    const before = await policiesWaitingFor(t, grower, 'greenleaf')
    expect(before.some((p) => p.id === created.body._id)).toBe(false)
    const { version } = await publishPolicy(ctx(), w, created.body._id)
    expect(version).toBe(1)
    const waiting = await policiesWaitingFor(t, grower, 'greenleaf')
    expect(waiting.find((p) => p.id === created.body._id)).toMatchObject({ title: 'Glove policy', version: 1 })
    await acknowledgePolicy(t, { uid: 'u-grower' }, grower, 'greenleaf', created.body._id, 1)
    expect((await policiesWaitingFor(t, grower, 'greenleaf')).some((p) => p.id === created.body._id)).toBe(false)
    const sig = await signaturesOf(t, 'greenleaf', (await t.store.get('greenleaf', 'pol_docs', created.body._id))!)
    expect(sig.rows.find((r) => r.uid === 'u-grower')!.signedAt).toBeTruthy()
    // the export for an inspection: managers only
    const csvAs = async (uid: string) => {
      try {
        return (await signaturesCsvRoute({ request: new Request(`http://canopy.test/PolDocs/${created.body._id}/signatures.csv`, { headers: { Cookie: `${COOKIE}=${await sid(uid)}` } }), context: ctx(), params: { id: created.body._id } })) as Response
      } catch (e) {
        if (e instanceof Response) return e
        throw e
      }
    }
    const csv = await csvAs('u-admin')
    expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8')
    expect(await csv.text()).toMatch(/^Policy,Doc #,Version,Name,Email,Status,Acknowledged at \(UTC\),Earlier acknowledgement\r\nGlove policy,,1,Maria Lopez,grower@greenleaf\.demo,Acknowledged,\d{4}-/)
    expect((await csvAs('u-grower')).status).toBe(403)
    // not addressed to the compliance officer (not in the group, role user is not chosen)
    const compliance = (await t.store.find('auth', 'users', { uid: 'u-compliance' }, 1))[0] as unknown as SessionUser
    await expect(acknowledgePolicy(t, { uid: 'u-compliance' }, compliance, 'greenleaf', created.body._id, 1)).rejects.toMatchObject({ code: 'FORBIDDEN' })
    // a new version: asked again; an acknowledgement of the old one is refused
    await call('PUT', `pol_docs/${created.body._id}`, { body: { body: '<h2>Gloves</h2><ul><li>Always, nitrile</li></ul>' } })
    await publishPolicy(ctx(), w, created.body._id)
    expect((await policiesWaitingFor(t, grower, 'greenleaf')).find((p) => p.id === created.body._id)).toMatchObject({ version: 2 })
    await expect(acknowledgePolicy(t, { uid: 'u-grower' }, grower, 'greenleaf', created.body._id, 1)).rejects.toMatchObject({ code: 'CONFLICT' })
    // the API cannot publish a version that was never saved
    const bad = await call('PUT', `pol_docs/${created.body._id}`, { body: { published_version: 9 } })
    expect(bad.status).toBe(400)
  })
})

describe('file lists (/DocFileUpload, /DocList)', () => {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a route module's function takes Remix's argument object
  const send = async (mod: (a: any) => Promise<unknown>, p: string, fields: Array<[string, string | File]>, session: string) => {
    const fd = new FormData()
    for (const [k, v] of fields) fd.append(k, v)
    try {
      return (await mod({ request: new Request(`http://canopy.test${p}`, { method: 'POST', headers: { Cookie: `${COOKIE}=${session}` }, body: fd }), context: ctx(), params: {} })) as Response
    } catch (e) {
      if (e instanceof Response) return e
      throw e
    }
  }
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- as above
  const list = async (mod: (a: any) => Promise<unknown>, p: string, session: string) => (await (await mod({ request: new Request(`http://canopy.test${p}`, { headers: { Cookie: `${COOKIE}=${session}` } }), context: ctx(), params: {} }) as Response).json()) as { rows: FileRow[]; folders: string[]; tags: string[]; preview: FileRow | null; matching: number }
  const folderFiles = (sub: string) => {
    try {
      return fs.readdirSync(path.join(env.DATA_DIR, 'files', 'greenleaf', sub)).sort()
    } catch {
      return []
    }
  }
  const pdf = (name: string) => new File([new Uint8Array(demoPdf('Test', ['a']))], name, { type: 'application/pdf' })

  it('lists each file with its stored size, type, uploader, date, link and preview; folders, tags and search narrow it', async () => {
    const s = await sid('u-admin')
    const all = await list(fileUploadLoader, '/DocFileUpload', s)
    expect(all.rows.length).toBeGreaterThan(10)
    for (const r of all.rows) {
      expect(r.href, r.name).toMatch(/^\/getfiles\/greenleaf\//)
      expect(r.missing, r.name).toBe(false)
      expect(r.size, r.name).toBeGreaterThan(0)
      expect(r.uploader, r.name).toBeTruthy()
      expect(r.type, r.name).toMatch(/^(PDF|PNG|CSV)$/)
    }
    expect(all.rows.some((r) => r.preview === 'pdf')).toBe(true)
    expect(all.rows.some((r) => r.preview === 'image')).toBe(true)
    const folder = all.folders[0]
    const inFolder = await list(fileUploadLoader, `/DocFileUpload?folder=${encodeURIComponent(folder)}`, s)
    expect(inFolder.rows.length).toBeGreaterThan(0)
    expect(inFolder.rows.every((r) => r.folder === folder)).toBe(true)
    const byName = await list(fileUploadLoader, `/DocFileUpload?q=${encodeURIComponent(all.rows[0].name.slice(0, 8))}`, s)
    expect(byName.rows.every((r) => r.name.toLowerCase().includes(all.rows[0].name.slice(0, 8).toLowerCase()))).toBe(true)
    const pdfRow = all.rows.find((r) => r.preview === 'pdf')!
    expect((await list(fileUploadLoader, `/DocFileUpload?preview=${pdfRow.id}`, s)).preview).toMatchObject({ id: pdfRow.id, preview: 'pdf', href: pdfRow.href })
  })

  it('/DocList is the register as a file list: each document’s PDF opens, with its size and status', async () => {
    const s = await sid('u-admin')
    const reg = await list(docListLoader, '/DocList', s)
    expect(reg.rows.length).toBe(25)
    for (const r of reg.rows) expect(r, r.name).toMatchObject({ type: 'PDF', preview: 'pdf', missing: false, href: expect.stringMatching(/^\/getfiles\/greenleaf\/DOC-\d{4}\.pdf\?subdir=docs$/) })
    expect(reg.folders).toContain('License')
    expect(reg.tags).toContain('Current')
  })

  it('uploads a file named with `;` and `=` through the form; a file the record is refused for is not left behind', async () => {
    const s = await sid('u-admin')
    const before = folderFiles('uploads')
    const name = 'Lab report; batch=7.pdf'
    const ok = await send(fileUploadAction, '/DocFileUpload', [['folder', 'COA'], ['tags', 'lab, batch 7'], ['file', pdf(name)]], s)
    expect(ok.status).toBe(302)
    const row = (await t.store.find('greenleaf', 'doc_files', { name }, 1))[0]
    expect(row).toMatchObject({ name, category: 'COA', file_type: 'PDF', tags: 'lab, batch 7' })
    expect(folderFiles('uploads').length).toBe(before.length + 1)
    // the record is refused (a folder that is not in the list): the stored file is removed again
    const refused = await send(fileUploadAction, '/DocFileUpload', [['folder', 'Not a folder'], ['file', pdf('refused.pdf')]], s)
    expect(refused.status).toBe(400)
    expect(((await refused.json()) as { error: string }).error).toMatch(/Category/)
    expect(folderFiles('uploads').length).toBe(before.length + 1)
    expect(await t.store.find('greenleaf', 'doc_files', { name: 'refused.pdf' }, 1)).toEqual([])
  })

  it('adds a document to the register with its PDF; anything but a PDF is refused with nothing kept', async () => {
    const s = await sid('u-admin')
    const before = folderFiles('docs')
    const res = await send(docListAction, '/DocList', [['title', 'Fire permit 2027'], ['doc_no', 'DOC-0900'], ['folder', 'License'], ['expires', '2027-06-30'], ['file', pdf('fire permit.pdf')]], s)
    expect(res.status).toBe(302)
    const row = (await t.store.find('greenleaf', 'doc_list', { title: 'Fire permit 2027' }, 1))[0]
    expect(row).toMatchObject({ doc_no: 'DOC-0900', doc_type: 'License', status: 'Current', link: expect.stringMatching(/^\/getfiles\/greenleaf\/fire-permit-[0-9a-f]{12}\.pdf\?subdir=docs$/) })
    expect(folderFiles('docs').length).toBe(before.length + 1)
    const png = await send(docListAction, '/DocList', [['title', 'Photo'], ['file', new File([new Uint8Array(demoPng('x'))], 'photo.png', { type: 'image/png' })]], s)
    expect(png.status).toBe(400)
    expect(((await png.json()) as { error: string }).error).toBe('A document of the register takes a PDF document.')
    expect(folderFiles('docs').length).toBe(before.length + 1)
  })
})

describe('demo files', () => {
  it('every file link of every seeded record opens (200) through getfiles', async () => {
    const links = await allFileLinks(t)
    expect(links.length).toBeGreaterThan(100)
    const collections = new Set(links.map((l) => l.collection))
    for (const c of ['fac_products', 'dis_orders', 'pol_docs', 'doc_files', 'doc_list', 'sup_files', 'set_mylic']) expect(collections, c).toContain(c)
    const sessions = new Map<string, string>()
    sessions.set('*', await sid('u-super', 'greenleaf'))
    const failed: string[] = []
    const seen = new Set<string>()
    for (const l of links) {
      if (seen.has(l.href)) continue
      seen.add(l.href)
      const at = parseFileLink(l.href)
      if (!at) {
        failed.push(`${l.collection}/${l.id} ${l.field}: ${l.href} is not a /getfiles/ link`)
        continue
      }
      const url = new URL(l.href, 'http://canopy.test')
      const res = (await getfiles({ request: new Request(url, { headers: { Cookie: `${COOKIE}=${sessions.get('*')}` } }), context: ctx(), params: { org: at.org, name: at.name } })) as Response
      if (res.status !== 200) failed.push(`${l.collection}/${l.id} ${l.field}: ${l.href} → ${res.status}`)
      else {
        const head = Buffer.from(await res.arrayBuffer()).subarray(0, 5).toString('latin1')
        if (/\.pdf$/i.test(at.name) && head !== '%PDF-') failed.push(`${l.href} is not a PDF`)
        if (/\.png$/i.test(at.name) && head.slice(1, 4) !== 'PNG') failed.push(`${l.href} is not a PNG`)
      }
    }
    expect(failed).toEqual([])
  })
})
