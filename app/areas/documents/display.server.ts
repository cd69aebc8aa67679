/**
 * /DisplayHTML (SPEC §2.2 "receives props"; issue 26 item 1): one document shown as a page —
 * sanitised again on the way out, set inline so it prints with the print style sheet — or the list
 * of what may be shown. Props: `name` (a published platform page meant for display, as before),
 * `page` (a platform page by id, super), `doc` (an HTML document of the facility: published ones to
 * everyone in it, drafts to those with the HTML Editor), `policy` (to whom it is addressed and its
 * managers). /DisplayHTML.pdf with the same props answers the PDF.
 */
import { json, type LoaderFunctionArgs } from '@remix-run/node'
import { requireSession } from '../../auth/require.server'
import { resolveScreen } from '../../auth/screens.server'
import { formatDateTime } from '../../format/format'
import { PLATFORM_ORG } from '../../route-map'
import type { Doc } from '../../db/types'
import { isAddressedTo, POLICIES } from './policies.server'
import { DOC_KINDS } from './kinds'
import { documentPdf } from './pdf.server'
import { sanitizeDocumentHtml } from './sanitize.server'
import { getVersion, latestVersion } from './versions.server'

const notFound = (what = 'There is no published document by that name.') => new Response(what, { status: 404, statusText: 'Not found' })
const ID = /^[A-Za-z0-9_-]{1,64}$/

export interface Shown {
  title: string
  subtitle: string
  html: string
  edit: string | null
  pdf: string
}

async function shown(request: Request, context: LoaderFunctionArgs['context']): Promise<{ doc: Shown | null; list: Array<{ href: string; title: string }> }> {
  const s = await requireSession(request, context)
  const facility = s.session.facility ?? ''
  const q = new URL(request.url).searchParams
  const may = async (path: string) => typeof (await resolveScreen(context.database, s.user, facility, path)) === 'object'
  const props = ['name', 'page', 'doc', 'policy', 'id'].find((k) => q.get(k))
  const value = props ? String(q.get(props)) : ''
  const out = (d: Doc, kind: keyof typeof DOC_KINDS, html: string, subtitle: string, prop: string): Shown => ({
    title: String(d.title ?? d.name ?? ''),
    subtitle,
    html: sanitizeDocumentHtml(html),
    edit: null,
    pdf: `/DisplayHTML.pdf?${prop}=${encodeURIComponent(value)}`,
  })
  const stamp = async (org: string, collection: string, d: Doc) => {
    const n = await latestVersion(context.database.db, org, collection, d._id)
    return `${n ? `Version ${n} · ` : ''}last changed ${formatDateTime(d.ts)}`
  }
  if (props === 'name' || props === 'id') {
    const [d] = await context.database.store.find(PLATFORM_ORG, 'sup_html', { used_on: 'DisplayHTML', name: value, published: 'yes' }, 1)
    if (!d) throw notFound()
    return { doc: out(d, 'page', String(d.html ?? ''), await stamp(PLATFORM_ORG, 'sup_html', d), 'name'), list: [] }
  }
  if (props === 'page') {
    if (!ID.test(value) || !(await may(DOC_KINDS.page.base))) throw notFound()
    const d = await context.database.store.get(PLATFORM_ORG, 'sup_html', value)
    if (!d) throw notFound()
    return { doc: { ...out(d, 'page', String(d.html ?? ''), await stamp(PLATFORM_ORG, 'sup_html', d), 'page'), edit: `/HTMLEditor/${d._id}` }, list: [] }
  }
  if (props === 'doc') {
    const d = ID.test(value) && facility ? await context.database.store.get(facility, 'doc_html', value) : null
    const editor = await may(DOC_KINDS.doc.base)
    if (!d || (!editor && String(d.published ?? '') !== 'yes')) throw notFound()
    return { doc: { ...out(d, 'doc', String(d.body ?? ''), await stamp(facility, 'doc_html', d), 'doc'), edit: editor ? `/DocHTMLEditor/${d._id}` : null }, list: [] }
  }
  if (props === 'policy') {
    const d = ID.test(value) && facility ? await context.database.store.get(facility, POLICIES, value) : null
    const manager = await may(DOC_KINDS.policy.base)
    if (!d || (!manager && !(await isAddressedTo(context.database, facility, d, s.user)))) throw notFound('There is no such policy for you.')
    const published = Number(d.published_version ?? 0)
    // managers see the text as it is now; others the published version
    const v = !manager && published ? await getVersion(context.database, facility, POLICIES, d._id, published) : null
    return { doc: { ...out(d, 'policy', v ? v.html : String(d.body ?? ''), v ? `Version ${published}` : await stamp(facility, POLICIES, d), 'policy'), edit: manager ? `/PolDocs/${d._id}` : null }, list: [] }
  }
  // the list: platform pages meant for display, and this facility's published documents
  const pages = await context.database.store.find(PLATFORM_ORG, 'sup_html', { used_on: 'DisplayHTML', published: 'yes' }, 200)
  const docs = facility && (await context.database.schemas.hasCollection('doc_html')) ? await context.database.store.find(facility, 'doc_html', { published: 'yes' }, 500) : []
  const list = [
    ...pages.map((r) => ({ href: `/DisplayHTML?name=${encodeURIComponent(String(r.name))}`, title: String(r.title ?? r.name) })),
    ...docs.map((r) => ({ href: `/DisplayHTML?doc=${r._id}`, title: String(r.title ?? r._id) })),
  ].sort((a, b) => a.title.localeCompare(b.title))
  return { doc: null, list }
}

export async function displayLoader({ request, context }: LoaderFunctionArgs) {
  return json(await shown(request, context))
}

/** /DisplayHTML.pdf?{props}: the same document as a PDF download. */
export async function displayPdfLoader({ request, context }: LoaderFunctionArgs) {
  const { doc } = await shown(request, context)
  if (!doc) throw notFound('Name a document to export.')
  const pdf = await documentPdf(doc.title, doc.subtitle, doc.html)
  const file = (doc.title.replace(/[^A-Za-z0-9]+/g, '-').replace(/^-|-$/g, '') || 'document').slice(0, 80)
  return new Response(new Uint8Array(pdf), { headers: { 'Content-Type': 'application/pdf', 'Content-Disposition': `attachment; filename="${file}.pdf"`, 'Content-Length': String(pdf.length), 'Cache-Control': 'private, no-store' } })
}
