/**
 * The policy pages everyone else sees (issue 26 item 3): /PolDocs/{id}/read — the published
 * version, read and acknowledged by whom it is addressed to (any account of the facility: growers
 * hold no Other module; managers of /PolDocs may read it too) — /MyPolicies, and for managers
 * /PolDocs/{id}/signatures (who has and has not acknowledged, with dates; /PolDocs/{id}/signatures.csv for an inspection).
 */
import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/node'
import { resolveScreen } from '../../auth/screens.server'
import { formatDateTime } from '../../format/format'
import { isAppError } from '../../utils/errors'
import { docAccess, docId, facilityUser } from './access.server'
import { DOC_KINDS } from './kinds'
import { acknowledgePolicy, isAddressedTo, POLICIES, policiesWaitingFor, signaturesCsv, signaturesOf } from './policies.server'
import { sanitizeDocumentHtml } from './sanitize.server'
import { getVersion } from './versions.server'

async function readable(request: Request, context: LoaderFunctionArgs['context'], params: LoaderFunctionArgs['params']) {
  const a = await facilityUser(request, context)
  const id = docId(params)
  const policy = id ? await context.database.store.get(a.facility, POLICIES, id) : null
  if (!id || !policy) throw new Response('There is no such policy.', { status: 404, statusText: 'Not found' })
  const manager = (await resolveScreen(context.database, a.s.user, a.facility, DOC_KINDS.policy.base)) !== 'forbidden'
  const addressed = await isAddressedTo(context.database, a.facility, policy, a.s.user)
  if (!manager && !addressed) throw new Response('This policy is not addressed to you.', { status: 403, statusText: 'Not allowed' })
  return { a, id, policy, manager, addressed }
}

export async function readLoader({ request, context, params }: LoaderFunctionArgs) {
  const { a, id, policy, manager, addressed } = await readable(request, context, params)
  const version = Number(policy.published_version ?? 0) || 0
  // what was published: that version's text (a later draft is not what people sign)
  const v = version ? await getVersion(context.database, a.facility, POLICIES, id, version) : null
  const html = sanitizeDocumentHtml(v ? v.html : String(policy.body ?? ''))
  const mine = await context.database.db.query<{ acked_at: Date | string }>('SELECT acked_at FROM policy_acks WHERE org = $1 AND policy_id = $2 AND version = $3 AND uid = $4', [a.facility, id, version, a.s.user.uid])
  return json({
    id,
    title: v?.title || String(policy.title ?? ''),
    docNo: String(policy.doc_no ?? ''),
    version,
    html,
    manager,
    addressed,
    ackedAt: mine.rows[0] ? new Date(mine.rows[0].acked_at).toISOString() : null,
    done: new URL(request.url).searchParams.get('done') === '1',
  })
}

export async function readAction({ request, context, params }: ActionFunctionArgs) {
  const { a, id } = await readable(request, context, params)
  const form = await request.formData()
  const version = Number(form.get('version') ?? 0)
  if (form.get('intent') !== 'acknowledge' || form.get('confirm') !== 'yes') return json({ error: 'Tick “I have read and understood this policy” to acknowledge it.' }, { status: 400 })
  try {
    await acknowledgePolicy(context.database, a.writer.actor, a.s.user, a.facility, id, version)
  } catch (e) {
    if (isAppError(e)) return json({ error: e.message }, { status: e.code === 'FORBIDDEN' ? 403 : e.code === 'CONFLICT' ? 409 : 400 })
    throw e
  }
  return redirect(`/PolDocs/${id}/read?done=1`)
}

export async function myPoliciesLoader({ request, context }: LoaderFunctionArgs) {
  const a = await facilityUser(request, context)
  const waiting = await policiesWaitingFor(context.database, a.s.user, a.facility)
  const done = await context.database.db.query<{ policy_id: string; version: number; acked_at: Date | string; title: string | null }>(
    `SELECT k.policy_id, k.version, k.acked_at, p.doc->>'title' AS title FROM policy_acks k LEFT JOIN c_pol_docs p ON p.org = k.org AND p.id = k.policy_id
     WHERE k.org = $1 AND k.uid = $2 ORDER BY k.acked_at DESC LIMIT 200`,
    [a.facility, a.s.user.uid],
  )
  return json({ waiting, done: done.rows.map((r) => ({ id: r.policy_id, version: r.version, at: new Date(r.acked_at).toISOString(), title: r.title ?? r.policy_id })) })
}

async function signaturesOfRequest({ request, context, params }: LoaderFunctionArgs) {
  const a = await docAccess(request, context, DOC_KINDS.policy)
  const id = docId(params)
  const policy = id ? await context.database.store.get(a.facility, POLICIES, id) : null
  if (!id || !policy) throw new Response('There is no such policy.', { status: 404, statusText: 'Not found' })
  return { id, policy, s: await signaturesOf(context.database, a.facility, policy) }
}

/** /PolDocs/{id}/signatures: the page. */
export async function signaturesLoader(args: LoaderFunctionArgs) {
  const { id, policy, s } = await signaturesOfRequest(args)
  return json({ id, title: String(policy.title ?? ''), docNo: String(policy.doc_no ?? ''), version: s.version, rows: s.rows, when: formatDateTime(new Date().toISOString()) })
}

/** /PolDocs/{id}/signatures.csv: the same, as a CSV file for an inspection (a resource route: a page route cannot answer a file). */
export async function signaturesCsvLoader(args: LoaderFunctionArgs) {
  const { policy, s } = await signaturesOfRequest(args)
  const name = `${String(policy.doc_no || 'policy').replace(/[^A-Za-z0-9-]/g, '')}-v${s.version}-acknowledgements.csv`
  return new Response(signaturesCsv(policy, s), { headers: { 'Content-Type': 'text/csv; charset=utf-8', 'Content-Disposition': `attachment; filename="${name}"`, 'Cache-Control': 'private, no-store' } })
}
