/**
 * Who is working with documents: the signed-in user on a documents screen (entitlement checked as the
 * catch-all route checks it, 403/404 otherwise), the organisation the documents live in (the facility,
 * or the platform for /HTMLEditor) and the Writer for the one write path.
 */
import type { AppLoadContext } from '@remix-run/node'
import type { SignedIn } from '../../auth/require.server'
import { requireSession } from '../../auth/require.server'
import { requireScreen } from '../../auth/screens.server'
import type { Writer } from '../../records/write.server'
import { PLATFORM_ORG } from '../../route-map'
import type { DocKindInfo } from './kinds'

export interface DocAccess {
  s: SignedIn
  facility: string
  org: string
  writer: Writer
}

export function writerOf(context: AppLoadContext, s: SignedIn, facility: string): Writer {
  return { user: s.user, actor: { uid: s.user.uid, origUid: s.session.orig_uid, role: s.user.role, requestId: context.requestId, session: s.session.id_hash }, facility }
}

/** A documents screen's user (entitled to the kind's screen), its organisation and writer. */
export async function docAccess(request: Request, context: AppLoadContext, kind: DocKindInfo): Promise<DocAccess> {
  const { s, facility } = await requireScreen(request, context, kind.base)
  return { s, facility, org: kind.platform ? PLATFORM_ORG : facility, writer: writerOf(context, s, facility) }
}

/** Any signed-in user of the facility (policies addressed to them, published documents). */
export async function facilityUser(request: Request, context: AppLoadContext): Promise<DocAccess> {
  const s = await requireSession(request, context)
  const facility = s.session.facility ?? ''
  if (!facility) throw new Response('Choose a facility first.', { status: 403, statusText: 'Choose a facility' })
  return { s, facility, org: facility, writer: writerOf(context, s, facility) }
}

/** The id in a documents address: a record id, or 'new'. Anything else is a 404. */
export function docId(params: Record<string, string | undefined>): string | null {
  const id = params.id ?? ''
  if (id === 'new') return null
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(id)) throw new Response('There is no document at this address.', { status: 404, statusText: 'Not found' })
  return id
}
