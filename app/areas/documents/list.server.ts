/**
 * A documents screen's list (/DocHTMLEditor, /HTMLEditor, /PolDocs): title, category, who changed
 * it and when, its version, search by title; for policies also the published version, how many of
 * its audience have acknowledged it, and what waits for the user looking.
 */
import { json, type LoaderFunctionArgs } from '@remix-run/node'
import { docAccess } from './access.server'
import type { DocKindInfo } from './kinds'
import { policiesWaitingFor, signaturesOf, type WaitingPolicy } from './policies.server'

export interface ListRow {
  id: string
  title: string
  sub: string
  updated: string
  published: string
  version: number
  signed?: { done: number; of: number }
}

export function listLoader(kind: DocKindInfo) {
  return async ({ request, context }: LoaderFunctionArgs) => {
    const a = await docAccess(request, context, kind)
    const url = new URL(request.url)
    const q = (url.searchParams.get('q') ?? '').trim().slice(0, 100)
    const all = await context.database.store.find(a.org, kind.collection, {}, 2000)
    const rows = all.filter((d) => !q || String(d.title ?? d.name ?? '').toLowerCase().includes(q.toLowerCase()))
    const versions = new Map(
      (await context.database.db.query<{ doc_id: string; n: number }>('SELECT doc_id, max(version) AS n FROM doc_versions WHERE org = $1 AND collection = $2 GROUP BY doc_id', [a.org, kind.collection])).rows.map((r) => [r.doc_id, Number(r.n)]),
    )
    const out: ListRow[] = []
    for (const d of rows) {
      const row: ListRow = {
        id: d._id,
        title: String(d.title ?? d.name ?? d._id),
        sub: [d.doc_no, d.category, d.used_on, d.status].filter((x) => typeof x === 'string' && x).join(' · '),
        updated: d.ts,
        published: kind.kind === 'policy' ? (Number(d.published_version) ? `version ${d.published_version}` : 'not published') : String(d.published ?? '') === 'yes' ? 'yes' : 'no',
        version: versions.get(d._id) ?? 0,
      }
      if (kind.kind === 'policy' && Number(d.published_version)) {
        const s = await signaturesOf(context.database, a.facility, d)
        row.signed = { done: s.rows.filter((r) => r.signedAt).length, of: s.rows.length }
      }
      out.push(row)
    }
    out.sort((x, y) => x.title.localeCompare(y.title))
    const waiting: WaitingPolicy[] = await policiesWaitingFor(context.database, a.s.user, a.facility)
    return json({ kind: kind.kind, base: kind.base, noun: kind.noun, q, rows: out, waiting, canAdd: true })
  }
}
