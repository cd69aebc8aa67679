/**
 * The file screens (issue 26 item 4): /DocFileUpload (the facility's files, doc_files), /DocList (the
 * facility's document register, doc_list: licences, permits, certificates with their PDF) and
 * /SupFileUpload (the platform's list, sup_files). One list for all three: name, type, size (of the
 * stored file, read from the storage), uploader, date and links that open or download the file;
 * images and PDFs have a preview (`?preview={id}`: the image, or the PDF in the browser's viewer,
 * rendered on the server so it works without JavaScript); folders and tags to narrow it; search by
 * name. An upload (multipart: works without JavaScript; with it the page shows progress) goes
 * through the files module's rules (type by its bytes, size limit) and then the one write path as a
 * record; a refusal says why and keeps nothing — a file stored for a record the write path then
 * refused is removed again.
 */
import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/node'
import { requireScreen } from '../../auth/screens.server'
import type { Doc } from '../../db/types'
import { readEditForm, discardUploads } from '../../files/form-uploads.server'
import { refuseForField } from '../../files/rules'
import { fileStorage } from '../../files/storage.server'
import { commitUpload, removeStored, type StoredFile } from '../../files/store.server'
import { createRecord, problemsOf } from '../../records/write.server'
import { PLATFORM_ORG } from '../../route-map'
import { isAppError } from '../../utils/errors'
import { writerOf } from './access.server'
import { parseFileLink } from './file-links.server'

export type FilesKind = 'facility' | 'register' | 'platform'

/** What a row shows, read from the record the way its table keeps it. */
interface Mapped {
  name: string
  recordType: string
  uploader: string
  uploaded: string
  folder: string
  tags: string[]
  sizeKb: number | null
  /** the register's own columns */
  docNo?: string
  expires?: string
  status?: string
}

const text = (v: unknown) => (typeof v === 'string' ? v : v === undefined || v === null ? '' : String(v))
const tagsOf = (v: unknown) => (Array.isArray(v) ? v.map(String) : text(v).split(','))
  .map((t) => t.trim())
  .filter(Boolean)

const CONF = {
  facility: {
    path: '/DocFileUpload',
    title: 'File Upload',
    collection: 'doc_files',
    fileKey: 'file',
    folderKey: 'category',
    map: (d: Doc): Mapped => ({ name: text(d.name), recordType: text(d.file_type), uploader: text(d.uploaded_by), uploaded: text(d.uploaded || d.cts), folder: text(d.category), tags: tagsOf(d.tags), sizeKb: typeof d.size_kb === 'number' ? d.size_kb : null }),
  },
  register: {
    path: '/DocList',
    title: 'Documents',
    collection: 'doc_list',
    fileKey: 'link',
    folderKey: 'doc_type',
    map: (d: Doc): Mapped => ({
      name: text(d.title),
      recordType: '',
      uploader: text(d.owner),
      uploaded: text(d.updated || d.cts),
      folder: text(d.doc_type),
      tags: [text(d.status)].filter(Boolean),
      sizeKb: null,
      docNo: text(d.doc_no),
      expires: text(d.expires),
      status: text(d.status),
    }),
  },
  platform: {
    path: '/SupFileUpload',
    title: 'File Upload',
    collection: 'sup_files',
    fileKey: 'file',
    folderKey: 'subdir',
    map: (d: Doc): Mapped => ({ name: text(d.name), recordType: text(d.mime), uploader: text(d.uploaded_by), uploaded: text(d.uploaded || d.cts), folder: [text(d.org), text(d.subdir)].filter(Boolean).join('/'), tags: [], sizeKb: typeof d.size_kb === 'number' ? d.size_kb : null }),
  },
} as const

export interface FileRow {
  id: string
  name: string
  type: string
  /** bytes of the stored file; null when unknown */
  size: number | null
  uploader: string
  uploaded: string
  folder: string
  tags: string[]
  href: string | null
  /** the record links a stored file that is not there */
  missing: boolean
  preview: 'image' | 'pdf' | null
  docNo?: string
  expires?: string
  status?: string
}

/** Rows shown at once (each is a stat of its file); a search or a folder narrows the rest. */
const SHOWN = 200

const EXT_TYPE: Record<string, string> = { png: 'PNG', jpg: 'JPEG', jpeg: 'JPEG', webp: 'WebP', pdf: 'PDF', csv: 'CSV', txt: 'TXT' }
const extOfName = (name: string) => (/\.([A-Za-z0-9]+)$/.exec(name)?.[1] ?? '').toLowerCase()
const previewOf = (ext: string): FileRow['preview'] => (['png', 'jpg', 'jpeg', 'webp'].includes(ext) ? 'image' : ext === 'pdf' ? 'pdf' : null)

/** A record as a row, its file's size read from the storage (null: no stored file behind the link). */
async function toRow(kind: FilesKind, d: Doc, dataDir: string): Promise<FileRow> {
  const c = CONF[kind]
  const m = c.map(d)
  const raw = text(d[c.fileKey]).trim()
  const href = raw.startsWith('/getfiles/') ? raw : null
  const at = href ? parseFileLink(href) : null
  const ext = extOfName(at?.name ?? m.name)
  let size: number | null = m.sizeKb ? Math.round(m.sizeKb * 1024) : null
  let missing = false
  if (at) {
    const st = await fileStorage(dataDir)
      .stat(at.org, at.subdir, at.name)
      .catch(() => null)
    if (st) size = st.size
    else missing = true
  }
  return {
    id: d._id,
    name: m.name || at?.name || d._id,
    type: EXT_TYPE[ext] ?? (m.recordType || ext.toUpperCase()),
    size,
    uploader: m.uploader,
    uploaded: m.uploaded,
    folder: m.folder,
    tags: m.tags,
    href,
    missing,
    preview: href && !missing ? previewOf(ext) : null,
    ...(kind === 'register' ? { docNo: m.docNo, expires: m.expires, status: m.status } : {}),
  }
}

const orgOf = (kind: FilesKind, facility: string) => (kind === 'platform' ? PLATFORM_ORG : facility)

export function filesLoader(kind: FilesKind) {
  return async ({ request, context }: LoaderFunctionArgs) => {
    const c = CONF[kind]
    const { facility } = await requireScreen(request, context, c.path)
    const org = orgOf(kind, facility)
    const url = new URL(request.url)
    const q = (url.searchParams.get('q') ?? '').trim().slice(0, 100)
    const folder = url.searchParams.get('folder') ?? ''
    const tag = url.searchParams.get('tag') ?? ''
    const docs = await context.database.store.find(org, c.collection, {}, 5000)
    const mapped = docs.map((d) => ({ d, m: c.map(d) }))
    const needle = q.toLowerCase()
    const matching = mapped
      .filter(({ d, m }) => (!needle || (m.name || text(d[c.fileKey])).toLowerCase().includes(needle)) && (!folder || m.folder === folder) && (!tag || m.tags.includes(tag)))
      .sort((a, b) => b.m.uploaded.localeCompare(a.m.uploaded))
    const rows = await Promise.all(matching.slice(0, SHOWN).map(({ d }) => toRow(kind, d, context.env.DATA_DIR)))
    const folders = [...new Set(mapped.map(({ m }) => m.folder).filter(Boolean))].sort()
    const tags = [...new Set(mapped.flatMap(({ m }) => m.tags))].sort()
    const previewId = url.searchParams.get('preview')
    const previewDoc = previewId ? docs.find((d) => d._id === previewId) : undefined
    const preview = previewDoc ? await toRow(kind, previewDoc, context.env.DATA_DIR) : null
    const schema = await context.database.schemas.get(c.collection)
    const listOf = (key: string) => schema?.fields.find((f) => f.key === key)?.en?.list ?? []
    return json({
      kind,
      path: c.path,
      title: c.title,
      q,
      folder,
      tag,
      rows,
      matching: matching.length,
      total: docs.length,
      folders,
      tags,
      // the upload form's lists: the table's folder list (category, document type) or the organisations
      choices: kind === 'platform' ? listOf('org') : listOf(c.folderKey),
      preview: preview && preview.preview ? preview : null,
      previewMissing: Boolean(previewId && (!preview || !preview.preview)),
      maxMb: context.env.MAX_UPLOAD_MB,
      uploaded: url.searchParams.get('uploaded'),
    })
  }
}

const round1 = (n: number) => Math.max(1, Math.round(n / 1024))
const statusFor = (expires: string): string => {
  const t = Date.parse(expires)
  if (!expires || Number.isNaN(t)) return 'Current'
  if (t < Date.now()) return 'Expired'
  return t - Date.now() < 60 * 86_400_000 ? 'Expiring Soon' : 'Current'
}

/** The record an upload makes, by kind. */
function recordOf(kind: FilesKind, form: FormData, original: string, stored: StoredFile, who: string, subdir: string | null, fileOrg: string): Record<string, unknown> {
  const name = original.split(/[\\/]/).pop()!.slice(0, 200)
  const now = new Date().toISOString()
  const field = (k: string) => String(form.get(k) ?? '').trim()
  if (kind === 'facility') return { name, uploaded_by: who, uploaded: now, file: stored.path, category: field('folder') || undefined, file_type: EXT_TYPE[extOfName(original)] ?? extOfName(original).toUpperCase(), size_kb: round1(stored.size), tags: field('tags').slice(0, 200) }
  if (kind === 'register') {
    const expires = field('expires')
    return { title: field('title') || name.replace(/\.[^.]+$/, ''), doc_type: field('folder') || undefined, doc_no: field('doc_no') || undefined, owner: who, updated: now, expires: expires || undefined, status: statusFor(expires), link: stored.path }
  }
  return { name, uploaded_by: who, uploaded: now, file: stored.path, org: fileOrg, subdir: subdir ?? '', mime: stored.type, size_kb: round1(stored.size) }
}

export function filesAction(kind: FilesKind) {
  return async ({ request, context }: ActionFunctionArgs) => {
    const c = CONF[kind]
    const { s, facility } = await requireScreen(request, context, c.path)
    const org = orgOf(kind, facility)
    let read
    try {
      read = await readEditForm(request, context.env)
    } catch (e) {
      if (isAppError(e)) return json({ error: e.message }, { status: 400 })
      throw e
    }
    const { form, uploads } = read
    const up = uploads.find((u) => u.name === 'file')
    let stored: { file: StoredFile; org: string; subdir: string | null } | null = null
    try {
      if (!up) return json({ error: 'Choose a file to upload.' }, { status: 400 })
      if (up.error || !up.staged) return json({ error: up.error ?? 'The file could not be read.' }, { status: 400 })
      // the register keeps PDFs (its link is shown as a PDF)
      const refused = kind === 'register' ? refuseForField('pdf', 'A document of the register', up.staged.ext) : null
      if (refused) return json({ error: refused }, { status: 400 })
      // the platform's uploads are kept under the organisation the super user chose (its folder)
      const fileOrg = kind === 'platform' ? String(form.get('org') || PLATFORM_ORG) : org
      const subdir = kind === 'platform' ? String(form.get('subdir') || '') || null : kind === 'register' ? 'docs' : 'uploads'
      const file = await commitUpload(context.env.DATA_DIR, fileOrg, up.staged, subdir)
      stored = { file, org: fileOrg, subdir }
      const who = [s.user.firstname, s.user.lastname].filter(Boolean).join(' ') || s.user.email
      const value = recordOf(kind, form, up.original, file, who, subdir, fileOrg)
      const res = await createRecord(context, writerOf(context, s, facility), c.collection, Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)), { anyMinute: true })
      if (!res.doc) throw new RecordRefused('A save rule stopped this upload; nothing was kept.')
      const shown = kind === 'register' ? String(res.doc.title ?? up.original) : up.original.split(/[\\/]/).pop()!
      return redirect(`${c.path}?uploaded=${encodeURIComponent(shown)}`)
    } catch (e) {
      await discardUploads(uploads)
      // the file was stored for a record the write path refused: it must not stay behind, unlinked
      if (stored) await removeStored(context.env.DATA_DIR, stored.org, stored.file, stored.subdir).catch((err) => context.logger.warn({ err, file: stored?.file.path }, 'an unlinked upload could not be removed'))
      if (e instanceof RecordRefused) return json({ error: e.message }, { status: 400 })
      const problems = problemsOf(e)
      if (problems) return json({ error: problems.map((p) => p.message).join(' ') }, { status: 400 })
      if (isAppError(e)) return json({ error: e.message }, { status: e.code === 'FORBIDDEN' ? 403 : 400 })
      throw e
    }
  }
}

class RecordRefused extends Error {}
