/**
 * The document editor's loader and action (issue 26 item 1), for each kind (kinds.ts): the record's
 * own fields (title, category, audience…) and its HTML. Without JavaScript the HTML is edited as
 * Markdown (`format=markdown`, a Preview button shows it cleaned); with JavaScript the rich-text
 * editor posts HTML (`format=html`). Either way the save goes through the one write path, whose
 * field cleaner sanitises the HTML and whose write step makes the version.
 */
import { json, redirect, type ActionFunctionArgs, type AppLoadContext, type LoaderFunctionArgs } from '@remix-run/node'
import type { Doc } from '../../db/types'
import { problemsOf, createRecord, updateRecord } from '../../records/write.server'
import type { FieldDef } from '../../schemas/table-schema'
import { isAppError } from '../../utils/errors'
import { docAccess, docId, type DocAccess } from './access.server'
import type { DocKindInfo } from './kinds'
import { htmlToMarkdown, markdownToHtml } from './markdown.server'
import { publishPolicy } from './policies.server'
import { sanitizeDocumentHtml } from './sanitize.server'
import { latestVersion } from './versions.server'

/** The record fields the editor shows above the text, by kind. */
const META: Record<DocKindInfo['kind'], string[]> = {
  doc: ['title', 'category', 'published'],
  page: ['name', 'title', 'used_on', 'lang', 'published'],
  policy: ['title', 'doc_no', 'category', 'owner', 'groups', 'roles'],
}

export interface MetaField {
  key: string
  label: string
  kind: 'text' | 'list' | 'multi' | 'check'
  required: boolean
  options: Array<{ value: string; label: string }>
}

export type FormValues = Record<string, string | string[]>

async function metaFields(context: AppLoadContext, kind: DocKindInfo, org: string): Promise<MetaField[]> {
  const schema = await context.database.schemas.get(kind.collection)
  if (!schema) throw new Response('This table has no schema.', { status: 404 })
  const out: MetaField[] = []
  for (const key of META[kind.kind]) {
    const f = schema.fields.find((x) => x.key === key)
    if (!f) continue
    out.push({ key, label: f.label, kind: kindOf(f), required: f.required, options: await optionsOf(context, f, org) })
  }
  return out
}

const kindOf = (f: FieldDef): MetaField['kind'] => (f.type === 'check' ? 'check' : f.type === 'multilist' ? 'multi' : f.type === 'list' ? 'list' : 'text')

async function optionsOf(context: AppLoadContext, f: FieldDef, org: string): Promise<MetaField['options']> {
  if (f.en?.list?.length) return f.en.list.map((v) => ({ value: v, label: v }))
  if (f.en?.table && (await context.database.schemas.hasCollection(f.en.table))) {
    const rows = await context.database.store.find(org, f.en.table, {}, 500)
    const label = f.en.labelField ?? 'name'
    return rows.map((r) => ({ value: r._id, label: String(r[label] ?? r._id) })).sort((a, b) => a.label.localeCompare(b.label))
  }
  return []
}

const valuesOf = (doc: Doc | null, fields: MetaField[]): FormValues =>
  Object.fromEntries(fields.map((f) => [f.key, f.kind === 'multi' ? (Array.isArray(doc?.[f.key]) ? (doc![f.key] as unknown[]).map(String) : []) : String(doc?.[f.key] ?? (f.kind === 'check' ? 'no' : ''))]))

/** Images of the organisation's document store the editor can insert (doc_files: PNG, JPEG, WebP). */
async function storeImages(context: AppLoadContext, org: string): Promise<Array<{ name: string; href: string }>> {
  if (!(await context.database.schemas.hasCollection('doc_files'))) return []
  const rows = await context.database.store.find(org, 'doc_files', {}, 500)
  return rows
    .filter((r) => typeof r.file === 'string' && /^\/getfiles\//.test(r.file) && /\.(png|jpe?g|webp)(\?|$)/i.test(r.file.split('?')[0] + '?'))
    .map((r) => ({ name: String(r.name ?? r.file), href: String(r.file) }))
    .slice(0, 200)
}

export function editorLoader(kind: DocKindInfo) {
  return async ({ request, context, params }: LoaderFunctionArgs) => {
    const a = await docAccess(request, context, kind)
    const id = docId(params)
    const doc = id ? await context.database.store.get(a.org, kind.collection, id) : null
    if (id && !doc) throw new Response(`There is no such ${kind.noun}.`, { status: 404, statusText: 'Not found' })
    const fields = await metaFields(context, kind, a.org)
    const html = sanitizeDocumentHtml(String(doc?.[kind.bodyKey] ?? ''))
    const url = new URL(request.url)
    return json({
      kind: kind.kind,
      base: kind.base,
      noun: kind.noun,
      org: a.org,
      id,
      ts: doc?.ts ?? '',
      fields,
      values: valuesOf(doc, fields),
      html,
      markdown: htmlToMarkdown(html),
      images: await storeImages(context, a.org),
      version: id ? await latestVersion(context.database.db, a.org, kind.collection, id) : 0,
      publishedVersion: Number(doc?.published_version ?? 0) || 0,
      notice: url.searchParams.get('saved') ? 'saved' : url.searchParams.get('published') ? 'published' : null,
    })
  }
}

export type EditorReply = { formError?: string; errors?: Record<string, string>; values?: FormValues; markdown?: string; html?: string; preview?: string }

function readValues(form: FormData, fields: MetaField[]): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const f of fields) {
    if (f.kind === 'multi') out[f.key] = form.getAll(f.key).map(String).filter(Boolean)
    else if (f.kind === 'check') out[f.key] = form.get(f.key) === 'yes' ? 'yes' : 'no'
    else out[f.key] = String(form.get(f.key) ?? '')
  }
  return out
}

/** The posted HTML: the rich editor's, or the Markdown text made HTML. Not yet sanitised (the write path does). */
function postedHtml(form: FormData): { html: string; markdown: string } {
  const markdown = String(form.get('markdown') ?? '')
  if (form.get('format') === 'html') return { html: String(form.get('html') ?? ''), markdown }
  return { html: markdownToHtml(markdown), markdown }
}

export function editorAction(kind: DocKindInfo) {
  return async ({ request, context, params }: ActionFunctionArgs) => {
    const a: DocAccess = await docAccess(request, context, kind)
    const id = docId(params)
    const form = await request.formData()
    const intent = String(form.get('intent') ?? 'save')
    const fields = await metaFields(context, kind, a.org)
    const values = readValues(form, fields)
    const { html, markdown } = postedHtml(form)
    const echo = { values: values as FormValues, markdown, html: sanitizeDocumentHtml(html) }
    if (intent === 'preview') return json<EditorReply>({ ...echo, preview: sanitizeDocumentHtml(html) })
    const ts = String(form.get('ts') ?? '') || undefined
    try {
      const input = { ...values, [kind.bodyKey]: html, ...(kind.kind === 'doc' || kind.kind === 'page' ? { updated: new Date().toISOString() } : {}) }
      const res = id ? await updateRecord(context, a.writer, kind.collection, id, input, { partial: true, expectTs: ts, anyMinute: true }) : await createRecord(context, a.writer, kind.collection, input, { anyMinute: true })
      const saved = res.doc
      if (!saved) return json<EditorReply>({ ...echo, formError: 'A save rule stopped this save; nothing was saved.' }, { status: 400 })
      if (intent === 'publish' && kind.kind === 'policy') {
        const p = await publishPolicy(context, a.writer, saved._id)
        return redirect(`${kind.base}/${saved._id}?published=${p.version}`)
      }
      return redirect(`${kind.base}/${saved._id}?saved=1`)
    } catch (e) {
      const problems = problemsOf(e)
      if (problems) {
        const errors: Record<string, string> = {}
        const general: string[] = []
        for (const p of problems) {
          const key = p.field?.split(/[.[]/)[0]
          if (key && fields.some((f) => f.key === key)) errors[key] = p.message
          else general.push(p.message)
        }
        return json<EditorReply>({ ...echo, errors, formError: general.join(' ') || 'Check the fields marked below.' }, { status: 400 })
      }
      if (isAppError(e) && e.code === 'CONFLICT') return json<EditorReply>({ ...echo, formError: `Someone else saved this ${kind.noun} after you opened it, so your changes were not saved. Copy your text, open the ${kind.noun} again and make your changes there.` }, { status: 409 })
      if (isAppError(e)) return json<EditorReply>({ ...echo, formError: e.message }, { status: e.code === 'FORBIDDEN' ? 403 : 400 })
      throw e
    }
  }
}
