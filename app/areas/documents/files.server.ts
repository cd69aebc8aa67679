/**
 * The file screens (issue 26 item 4): /DocFileUpload (the facility's files, doc_files) and
 * /SupFileUpload (the platform's list, sup_files). A list with name, type, size, uploader, date and a
 * link that opens the file; images show a thumbnail and PDFs open in a preview; folders (the
 * category, or the sub-folder) and tags to narrow it; search by name. An upload (multipart: works
 * without JavaScript; with it the page shows progress) goes through the files module's rules (type by
 * its bytes, size limit) and then the one write path as a record; a refusal says why, nothing is kept.
 */
import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/node'
import { requireScreen } from '../../auth/screens.server'
import { readEditForm, discardUploads } from '../../files/form-uploads.server'
import { commitUpload } from '../../files/store.server'
import { createRecord, problemsOf } from '../../records/write.server'
import { PLATFORM_ORG } from '../../route-map'
import { isAppError } from '../../utils/errors'
import { writerOf } from './access.server'
import { parseFileLink } from './file-links.server'

export type FilesKind = 'facility' | 'platform'
const CONF = {
  facility: { path: '/DocFileUpload', collection: 'doc_files', folderKey: 'category' },
  platform: { path: '/SupFileUpload', collection: 'sup_files', folderKey: 'subdir' },
} as const

export interface FileRow {
  id: string
  name: string
  type: string
  size: string
  uploader: string
  uploaded: string
  folder: string
  tags: string[]
  href: string | null
  preview: 'image' | 'pdf' | null
}

const EXT_TYPE: Record<string, string> = { png: 'PNG', jpg: 'JPG', jpeg: 'JPG', webp: 'WEBP', pdf: 'PDF', csv: 'CSV', txt: 'TXT' }
const kb = (n: unknown) => (typeof n === 'number' && n > 0 ? (n >= 1024 ? `${(n / 1024).toFixed(1)} MB` : `${Math.round(n)} KB`) : '')

export function filesLoader(kind: FilesKind) {
  return async ({ request, context }: LoaderFunctionArgs) => {
    const c = CONF[kind]
    const { facility } = await requireScreen(request, context, c.path)
    const org = kind === 'platform' ? PLATFORM_ORG : facility
    const url = new URL(request.url)
    const q = (url.searchParams.get('q') ?? '').trim().toLowerCase().slice(0, 100)
    const folder = url.searchParams.get('folder') ?? ''
    const tag = url.searchParams.get('tag') ?? ''
    const docs = await context.database.store.find(org, c.collection, {}, 5000)
    const all: FileRow[] = docs.map((d) => {
      const href = typeof d.file === 'string' && d.file.startsWith('/getfiles/') ? d.file : null
      const at = href ? parseFileLink(href) : null
      const ext = String(at?.name ?? d.name ?? '').toLowerCase().split('.').pop() ?? ''
      return {
        id: d._id,
        name: String(d.name ?? at?.name ?? d._id),
        type: String(d.file_type ?? d.mime ?? EXT_TYPE[ext] ?? ''),
        size: kb(d.size_kb),
        uploader: String(d.uploaded_by ?? ''),
        uploaded: String(d.uploaded ?? d.cts ?? ''),
        folder: String(d[c.folderKey] ?? ''),
        tags: String(d.tags ?? '').split(',').map((t) => t.trim()).filter(Boolean),
        href,
        preview: href ? (['png', 'jpg', 'jpeg', 'webp'].includes(ext) ? 'image' : ext === 'pdf' ? 'pdf' : null) : null,
      }
    })
    const rows = all
      .filter((r) => (!q || r.name.toLowerCase().includes(q)) && (!folder || r.folder === folder) && (!tag || r.tags.includes(tag)))
      .sort((a, b) => b.uploaded.localeCompare(a.uploaded))
    const folders = [...new Set(all.map((r) => r.folder).filter(Boolean))].sort()
    const tags = [...new Set(all.flatMap((r) => r.tags))].sort()
    const schema = await context.database.schemas.get(c.collection)
    const categories = kind === 'facility' ? (schema?.fields.find((f) => f.key === 'category')?.en?.list ?? []) : []
    const orgs = kind === 'platform' ? (schema?.fields.find((f) => f.key === 'org')?.en?.list ?? []) : []
    return json({ kind, path: c.path, q, folder, tag, rows, folders, tags, categories, orgs, total: all.length, maxMb: context.env.MAX_UPLOAD_MB, uploaded: url.searchParams.get('uploaded') })
  }
}

export function filesAction(kind: FilesKind) {
  return async ({ request, context }: ActionFunctionArgs) => {
    const c = CONF[kind]
    const { s, facility } = await requireScreen(request, context, c.path)
    const org = kind === 'platform' ? PLATFORM_ORG : facility
    let read
    try {
      read = await readEditForm(request, context.env)
    } catch (e) {
      if (isAppError(e)) return json({ error: e.message }, { status: 400 })
      throw e
    }
    const { form, uploads } = read
    const up = uploads.find((u) => u.name === 'file')
    try {
      if (!up) return json({ error: 'Choose a file to upload.' }, { status: 400 })
      if (up.error || !up.staged) return json({ error: up.error ?? 'The file could not be read.' }, { status: 400 })
      // the platform's uploads are kept under the organisation the super user chose (its folder)
      const fileOrg = kind === 'platform' ? String(form.get('org') || PLATFORM_ORG) : org
      const subdir = kind === 'platform' ? String(form.get('subdir') || '') || null : 'uploads'
      const stored = await commitUpload(context.env.DATA_DIR, fileOrg, up.staged, subdir)
      const who = [s.user.firstname, s.user.lastname].filter(Boolean).join(' ') || s.user.email
      const base = { name: up.original.split(/[\\/]/).pop()!.slice(0, 200), uploaded_by: who, uploaded: new Date().toISOString(), file: stored.path }
      const value =
        kind === 'facility'
          ? { ...base, category: String(form.get('category') || '') || undefined, file_type: EXT_TYPE[up.staged.ext] ?? up.staged.ext.toUpperCase(), size_kb: Math.max(1, Math.round(stored.size / 1024)), tags: String(form.get('tags') ?? '').slice(0, 200) }
          : { ...base, org: fileOrg, subdir: subdir ?? '', mime: stored.type, size_kb: Math.max(1, Math.round(stored.size / 1024)) }
      await createRecord(context, writerOf(context, s, facility), c.collection, Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)), { anyMinute: true })
      return redirect(`${c.path}?uploaded=${encodeURIComponent(base.name)}`)
    } catch (e) {
      await discardUploads(uploads)
      const problems = problemsOf(e)
      if (problems) return json({ error: problems.map((p) => p.message).join(' ') }, { status: 400 })
      if (isAppError(e)) return json({ error: e.message }, { status: e.code === 'FORBIDDEN' ? 403 : 400 })
      throw e
    }
  }
}
