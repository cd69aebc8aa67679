/**
 * A document's versions page (issue 26 item 2): every version with author and time, one shown
 * (?v=), two compared (?a=&b=, older to newer), one restored (POST intent=restore, version=N).
 */
import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/node'
import { isAppError } from '../../utils/errors'
import { problemsOf } from '../../records/write.server'
import { docAccess, docId } from './access.server'
import { compareHtml } from './diff.server'
import type { DocKindInfo } from './kinds'
import { sanitizeDocumentHtml } from './sanitize.server'
import { listVersions, restoreVersion } from './versions.server'

const n = (v: string | null) => (v && /^\d{1,6}$/.test(v) ? Number(v) : null)

export function versionsLoader(kind: DocKindInfo) {
  return async ({ request, context, params }: LoaderFunctionArgs) => {
    const a = await docAccess(request, context, kind)
    const id = docId(params)
    const doc = id ? await context.database.store.get(a.org, kind.collection, id) : null
    if (!id || !doc) throw new Response(`There is no such ${kind.noun}.`, { status: 404, statusText: 'Not found' })
    const url = new URL(request.url)
    const versions = await listVersions(context.database, a.org, kind.collection, id)
    const show = n(url.searchParams.get('v'))
    let va = n(url.searchParams.get('a'))
    let vb = n(url.searchParams.get('b'))
    if (va !== null && vb !== null && va > vb) [va, vb] = [vb, va]
    const pick = (x: number | null) => versions.find((v) => v.version === x)
    const shown = pick(show)
    const A = pick(va)
    const B = pick(vb)
    return json({
      kind: kind.kind,
      base: kind.base,
      noun: kind.noun,
      id,
      ts: doc.ts,
      title: String(doc.title ?? doc.name ?? id),
      publishedVersion: Number(doc.published_version ?? 0) || 0,
      versions: versions.map(({ html: _html, ...v }) => v),
      shown: shown ? { ...shown, html: sanitizeDocumentHtml(shown.html) } : null,
      compare: A && B ? { a: A.version, b: B.version, titleA: A.title, titleB: B.title, ...compareHtml(A.html, B.html) } : null,
      restored: n(url.searchParams.get('restored')),
    })
  }
}

export function versionsAction(kind: DocKindInfo) {
  return async ({ request, context, params }: ActionFunctionArgs) => {
    const a = await docAccess(request, context, kind)
    const id = docId(params)
    if (!id) throw new Response('Not found', { status: 404 })
    const form = await request.formData()
    const version = n(String(form.get('version') ?? ''))
    if (form.get('intent') !== 'restore' || version === null) return json({ error: 'Choose a version to restore.' }, { status: 400 })
    try {
      await restoreVersion(context, a.writer, kind, id, version, String(form.get('ts') ?? '') || undefined)
    } catch (e) {
      const problems = problemsOf(e)
      if (problems) return json({ error: problems.map((p) => p.message).join(' ') }, { status: 400 })
      if (isAppError(e)) return json({ error: e.code === 'CONFLICT' ? `Someone saved this ${kind.noun} after you opened this page; look at the versions again before restoring.` : e.message }, { status: e.code === 'CONFLICT' ? 409 : e.code === 'NOT_FOUND' ? 404 : 400 })
      throw e
    }
    return redirect(`${kind.base}/${id}/versions?restored=${version}`)
  }
}
