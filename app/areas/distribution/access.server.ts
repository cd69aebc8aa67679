/**
 * Who works a distribution or finance screen: the signed-in user entitled to that screen in the
 * facility (as the catch-all route checks it: 403/404 otherwise), the facility (the organisation
 * the records live in) and the actor every write is audited as. A refusal of the rules comes back
 * as `{ error, field }` for the form to show beside what it names; nothing was changed.
 */
import { json, type AppLoadContext } from '@remix-run/node'
import { requireScreen } from '../../auth/screens.server'
import type { Actor } from '../../db/types'
import { isAppError, statusOf } from '../../utils/errors'

export async function areaAccess(request: Request, context: AppLoadContext, path: string): Promise<{ org: string; uid: string; actor: Actor; role: string }> {
  const { s, facility } = await requireScreen(request, context, path)
  if (!facility) throw new Response('Choose a facility first.', { status: 403, statusText: 'Choose a facility' })
  return { org: facility, uid: s.user.uid, role: s.user.role, actor: { uid: s.user.uid, origUid: s.session.orig_uid, role: s.user.role, requestId: context.requestId, session: s.session.id_hash } }
}

/** Runs a form action's work; a rule's refusal is the form's error (its HTTP status), other errors go on. */
export async function refusalAsForm<T>(work: () => Promise<T>): Promise<T | ReturnType<typeof json<{ error: string; field: string | null }>>> {
  try {
    return await work()
  } catch (e) {
    if (!isAppError(e)) throw e
    const field = (e.details as { field?: string } | undefined)?.field ?? null
    return json({ error: e.message, field }, { status: statusOf(e) })
  }
}

export const str = (f: FormData, k: string) => String(f.get(k) ?? '').trim()
