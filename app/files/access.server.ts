/**
 * Who may read and write an organisation's files (SPEC §7 files API): the callers of
 * POST /files/{org} (upload), POST /files/{org}/token, GET /getfiles/{org}/ (listing) and
 * GET /getfiles/{org}/{name} (download without a token). A caller is a console session or an API
 * client's `x-access-token` (auth/api-caller.server.ts `signedInCaller` for the callers that act). Reading: that organisation's users, and everyone signed in for the
 * platform's own files (PLATFORM_ORG: Canopy's logo). Writing: that organisation's users; the
 * platform's files only its super users.
 */
import type { AppLoadContext } from '@remix-run/node'
import { isApiCall, requireApiCaller } from '../auth/api-caller.server'
import { findUser } from '../auth/accounts.server'
import { facilitiesOf, type SessionUser } from '../auth/entitlements'
import { loadSession, readSessionId } from '../auth/session.server'
import { PLATFORM_ORG } from '../route-map'
import { AppError } from '../utils/errors'

/**
 * A reader of files: an API client, or any active session (a user still choosing a facility sees
 * the footer's logo too). Throws UNAUTHENTICATED.
 */
export async function fileReader(request: Request, context: AppLoadContext): Promise<SessionUser> {
  if (isApiCall(request)) return (await requireApiCaller(request, context)).user
  const look = await loadSession(context.database, readSessionId(request), context.env.IDLE_TIMEOUT_S)
  if (look.state !== 'active') throw new AppError('UNAUTHENTICATED', 'Sign in first.')
  const user = await findUser(context.database, look.session.uid)
  if (!user) throw new AppError('UNAUTHENTICATED', 'Sign in first.')
  return user
}

export const mayRead = (user: SessionUser, org: string): boolean => org === PLATFORM_ORG || facilitiesOf(user, [org]).includes(org)
export const mayWrite = (user: SessionUser, org: string): boolean => (org === PLATFORM_ORG ? user.role === 'super' : facilitiesOf(user, [org]).includes(org))

/**
 * Folders a business area keeps for itself (decision 059): `private/…` under an organisation. Their
 * files are served only by the area's own route after its own check (a message's files: the
 * conversation's members), so the files API and getfiles answer as if they did not exist: no
 * download, no listing, no download link, no upload into them.
 */
export const PRIVATE_FOLDER = 'private'
export const isPrivateFolder = (subdir: string | null | undefined): boolean => !!subdir && (subdir === PRIVATE_FOLDER || subdir.startsWith(`${PRIVATE_FOLDER}/`))
