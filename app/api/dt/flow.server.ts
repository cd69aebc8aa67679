/**
 * The sign-in flow's calls of SPEC §7 (organisation API server), each with the same server
 * functions as its screen (app/auth/flow.server.ts):
 * - GET  temp_processing?email=   the state of a user's METRC credentials, as /Credentials shows it:
 *                                 own email; an admin a user of the token's facility; super anyone.
 * - GET  temp_eula                the caller's EULA state; POST {status: accepted|declined} records it (as /Eula).
 * - POST temp_credentials         {state, license, metrc | nometrc: 'yes'}: as /Credentials; the key is
 *                                 sealed and never answered back.
 * - GET  inf_global/{id}          a global message: any signed-in caller (it is shown to everyone).
 * - POST temp_manage_intake       {action: 'metrc_global_pref_delete', recid}: admin/super delete one of
 *                                 their facility's METRC preference records (metrc_prefs, /MetrcPrefs)
 *                                 through the one write path.
 * Every write goes through the store, so it leaves an audit row.
 */
import type { AppLoadContext } from '@remix-run/node'
import { z } from 'zod'
import { CredentialsInput, eulaAccepted, recordEula, submitCredentials } from '../../auth/flow.server'
import { MSG } from '../../auth/messages'
import type { Doc } from '../../db/types'
import { deleteRecord } from '../../records/write.server'
import { credentialChecker } from '../../metrc/credentials.server'
import { PLATFORM_ORG } from '../../route-map'
import { AppError, forbidden, notFound } from '../../utils/errors'
import type { ApiCaller } from '../../auth/api-caller.server'
import { bodyOf, parsed } from './body.server'
import { isAdmin, mayReadUser } from './platform.server'
import { writerOf } from './records.server'
import { checkId } from '../../utils/ids'

export const FLOW_TABLES = new Set(['temp_processing', 'temp_eula', 'temp_credentials', 'inf_global', 'temp_manage_intake'])

/** The action temp_manage_intake knows (SPEC §7 names only this one). */
export const INTAKE_ACTIONS = ['metrc_global_pref_delete'] as const
/** Where a facility's METRC preferences live (the /MetrcPrefs screen's table). */
export const METRC_PREFS = 'metrc_prefs'

const Email = z.string().trim().toLowerCase().email('must be an email address').max(254)
const same = (a: unknown, b: string) => String(a ?? '').toLowerCase() === b.toLowerCase()
const PROCESSING_FIELDS = ['_id', 'email', 'state', 'lic', 'metrc_api', 'error_lic', 'error_metrc', 'ts']
const processingView = (d: Doc) => Object.fromEntries(PROCESSING_FIELDS.filter((k) => d[k] !== undefined).map((k) => [k, d[k]]))

const notAllowed = (method: string, what: string) => new AppError('NOT_ALLOWED', `${method} is not allowed on /dt/v1/${what}`)

/** May the caller read the processing state of `email`? Own; admin: a user of the token's facility; super: anyone. */
async function mayReadProcessing(context: AppLoadContext, c: ApiCaller, email: string): Promise<boolean> {
  if (same(c.user.email, email) || c.user.role === 'super') return true
  if (c.user.role !== 'admin') return false
  const [u] = await context.database.store.find(PLATFORM_ORG, 'users', { email }, 1)
  return !!u && mayReadUser(c, u)
}

/** A flow call, or null when `table` is not one of them. */
export async function flowCall(context: AppLoadContext, c: ApiCaller, method: string, table: string, id: string | null, request: Request, url: URL): Promise<Response | null> {
  if (!FLOW_TABLES.has(table)) return null
  const { store } = context.database
  const email = c.user.email

  if (table === 'temp_processing') {
    if (method !== 'GET' || id) throw notAllowed(method, 'temp_processing (only GET ?email=)')
    const raw = url.searchParams.get('email')
    const wanted = raw === null ? email : parsed(Email, raw, 'email')
    if (raw !== null && url.searchParams.getAll('email').length > 1) throw new AppError('BAD_INPUT', 'email: give one email', { field: 'email' })
    if (!(await mayReadProcessing(context, c, wanted))) throw forbidden('You may only read the processing state of your own account.')
    const rows = await store.find(PLATFORM_ORG, 'temp_processing', { email: wanted }, 1)
    return Response.json(rows.map(processingView))
  }

  if (table === 'temp_eula') {
    if (id) throw notAllowed(method, 'temp_eula/{id}')
    if (method === 'GET') {
      const [e] = await store.find(PLATFORM_ORG, 'temp_eula', { email }, 1)
      return Response.json({ email, status: e?.status ?? null, accepted: await eulaAccepted(context.database, c.user) })
    }
    if (method === 'POST') {
      const b = await bodyOf(request, z.object({ status: z.enum(['accepted', 'declined'], { errorMap: () => ({ message: 'must be accepted or declined' }) }) }).strict())
      const doc = await recordEula(context.database, c.actor, email, b.status === 'accepted', context.clientIp ?? '')
      // SPEC §4: Disagree logs out; an API client is told to (its token still expires on its own)
      return Response.json({ email, status: doc.status, accepted: doc.status === 'accepted', ...(doc.status === 'declined' ? { logout: true } : {}) })
    }
    throw notAllowed(method, 'temp_eula')
  }

  if (table === 'temp_credentials') {
    if (method !== 'POST' || id) throw notAllowed(method, 'temp_credentials (only POST)')
    const b = await bodyOf(request, z.object({ state: z.unknown(), license: z.unknown(), metrc: z.unknown(), nometrc: z.unknown() }).strict())
    const v = parsed(CredentialsInput, b)
    const r = await submitCredentials(context.database, context.env.SESSION_SECRET, c.actor, email, v, credentialChecker(context.env))
    const wrong = r.error_lic === 'yes' || r.error_metrc === 'yes'
    // never the key, sealed or not
    return Response.json(
      { email, state: v.state, license: v.license, nometrc: v.nometrc === 'yes' ? 'yes' : 'no', ...r, message: wrong ? MSG.credentialsError : MSG.waitEmail },
      { status: 201 },
    )
  }

  if (table === 'inf_global') {
    if (method !== 'GET' || !id) throw notAllowed(method, id ? 'inf_global/{id} (read-only)' : 'inf_global (only GET /inf_global/{id})')
    const d = await store.get(PLATFORM_ORG, 'inf_global', checkId(id))
    if (!d || d.IsUsed === 'no') throw notFound('There is no global message with that id.')
    return Response.json(d)
  }

  // temp_manage_intake
  if (method !== 'POST' || id) throw notAllowed(method, 'temp_manage_intake (only POST)')
  if (!isAdmin(c)) throw forbidden('Only an admin or super may manage the METRC intake.')
  const b = await bodyOf(request, z.object({ action: z.string().max(64), recid: z.string().max(64).optional() }).strict())
  if (!(INTAKE_ACTIONS as readonly string[]).includes(b.action)) throw new AppError('BAD_INPUT', `action: "${b.action}" is not an action; the one there is: ${INTAKE_ACTIONS.join(', ')}`, { field: 'action' })
  if (!b.recid || !/^[A-Za-z0-9_-]{1,64}$/.test(b.recid)) throw new AppError('BAD_INPUT', 'recid: give the id of the METRC preference record to delete', { field: 'recid' })
  const doc = await deleteRecord(context, writerOf(c), METRC_PREFS, b.recid)
  return Response.json({ action: b.action, deleted: doc })
}
