/**
 * The sign-in flow of SPEC §4: credentials → EULA → tracking-credential check (lobby only,
 * never for super) → facility → logged in. Each step is a page; the session remembers the
 * step reached, and `nextStep` decides from the data where the user goes next.
 */
import { redirect } from '@remix-run/node'
import { z } from 'zod'
import type { Database } from '../db/index.server'
import type { Actor, Doc } from '../db/types'
import { PLATFORM_ORG } from '../route-map'
import type { CredentialCheck } from './credential-check'
import { seal } from '../utils/seal.server'
import { CREDENTIAL_STATES } from './messages'
import { facilitiesOf, type SessionUser } from './entitlements'
import { updateSession, type Step } from './session.server'

export const STEP_PATH: Record<Exclude<Step, 'done'>, string> = { eula: '/Eula', credentials: '/Credentials', facility: '/Facility' }
export const LOBBY = 'lobby'

export async function activeOrgs(database: Database): Promise<Array<{ _id: string; fullName: string }>> {
  // not cached: a facility added by another process must be usable at once (the guard reads this)
  const rows = await database.store.find(PLATFORM_ORG, 'org', {}, 1000)
  return rows.filter((o) => o.IsUsed !== 'no').map((o) => ({ _id: o._id, fullName: String(o.fullName ?? o._id) })).sort((a, b) => a.fullName.localeCompare(b.fullName))
}

/** Why an API token is refused to an account that has not accepted the licence agreement (issue 20 item 12). */
export const EULA_FIRST = 'accept the licence agreement (EULA) first: sign in to the console once and agree to it; then the API gives you a token'

export async function eulaAccepted(database: Database, user: SessionUser): Promise<boolean> {
  if (user.eulaip) return true
  const [e] = await database.store.find(PLATFORM_ORG, 'temp_eula', { email: user.email }, 1)
  return e?.status === 'accepted'
}

/** temp_processing for the user's email (SPEC §3): the state of their METRC credentials. */
export async function processingOf(database: Database, email: string) {
  const [p] = await database.store.find(PLATFORM_ORG, 'temp_processing', { email }, 1)
  return p as undefined | { _id: string; error_lic?: string; error_metrc?: string; state?: string; lic?: string; metrc_api?: string }
}

/**
 * Records the user's answer to the EULA (SPEC §4): one temp_eula record per email, updated in place.
 * Used by /Eula and by POST /dt/v1/temp_eula; the store writes the audit row.
 */
export async function recordEula(database: Database, actor: Actor, email: string, agree: boolean, ip: string): Promise<Doc> {
  const [existing] = await database.store.find(PLATFORM_ORG, 'temp_eula', { email }, 1)
  const doc = { email, status: agree ? 'accepted' : 'declined', ip }
  return existing ? database.store.update(actor, PLATFORM_ORG, 'temp_eula', existing._id, doc) : database.store.insert(actor, PLATFORM_ORG, 'temp_eula', doc)
}

/** The credentials form of SPEC §5 (state, license, METRC key or "no METRC"); /Credentials and POST /dt/v1/temp_credentials. */
export const CredentialsInput = z
  .object({
    state: z.enum(CREDENTIAL_STATES, { errorMap: () => ({ message: 'Choose your state' }) }),
    license: z.string().trim().min(1, 'Enter your state license').max(60, 'That license is too long'),
    metrc: z.string().trim().max(200, 'That API key is too long').optional().default(''),
    nometrc: z.literal('yes').optional(),
  })
  .refine((v) => v.metrc !== '' || v.nometrc === 'yes', { path: ['metrc'], message: 'Enter your METRC API key, or tick "I do not use METRC"' })

/** Checks a state, license and user key against METRC (app/metrc/credentials.server.ts); null: no METRC configured. */
export type CredentialChecker = (state: string, license: string, key: string) => Promise<CredentialCheck>

export interface ProcessingState {
  metrc_api: 'pending' | 'valid' | 'invalid' | 'none'
  error_lic: 'yes' | 'no'
  error_metrc: 'yes' | 'no'
}

/**
 * Stores submitted credentials: a temp_credentials record with the key sealed (never stored or
 * shown in the clear), then checks them against METRC when a checker is given: a wrong license
 * sets error_lic, a key METRC refuses error_metrc (SPEC §4: the credentials dialog reopens); no
 * answer leaves them pending. temp_processing records the outcome. "No METRC" is not checked.
 */
export async function submitCredentials(database: Database, secret: string, actor: Actor, email: string, v: z.infer<typeof CredentialsInput>, check?: CredentialChecker | null): Promise<ProcessingState> {
  const { store } = database
  await store.insert(actor, PLATFORM_ORG, 'temp_credentials', {
    email,
    state: v.state,
    license: v.license,
    metrc: v.metrc ? seal(secret, v.metrc) : '',
    nometrc: v.nometrc === 'yes' ? 'yes' : 'no',
  })
  let state: ProcessingState = { metrc_api: 'pending', error_lic: 'no', error_metrc: 'no' }
  if (v.nometrc === 'yes' && !v.metrc) state = { ...state, metrc_api: 'none' }
  else if (check) {
    const r = await check(v.state, v.license, v.metrc)
    if (r.ok) state = { ...state, metrc_api: 'valid' }
    else if (r.wrong === 'license') state = { ...state, metrc_api: 'invalid', error_lic: 'yes' }
    else if (r.wrong === 'key') state = { ...state, metrc_api: 'invalid', error_metrc: 'yes' }
  }
  const p = await processingOf(database, email)
  const doc = { email, state: v.state, lic: v.license, ...state }
  if (p) await store.update(actor, PLATFORM_ORG, 'temp_processing', p._id, doc)
  else await store.insert(actor, PLATFORM_ORG, 'temp_processing', doc)
  return state
}

export function needsCredentialCheck(user: SessionUser): boolean {
  return user.org === LOBBY && user.role !== 'super'
}

/** Where a signed-in user goes next, given what is already done. */
export async function nextStep(database: Database, user: SessionUser, s: { step: Step; facility: string | null; credentialsSeen?: boolean }): Promise<Step> {
  if (!(await eulaAccepted(database, user))) return 'eula'
  if (needsCredentialCheck(user) && s.step !== 'facility' && s.step !== 'done') {
    const p = await processingOf(database, user.email)
    if (!p || p.error_lic === 'yes' || p.error_metrc === 'yes') return 'credentials'
  }
  if (!s.facility) {
    const orgs = facilitiesOf(user, (await activeOrgs(database)).map((o) => o._id))
    if (orgs.length !== 1) return 'facility'
  }
  return 'done'
}

/**
 * Where a sign-in goes after a step: the next step's page, or when done the page a shared link
 * asked for (`redirectTo`, an internal path the caller checked with safePath) else the start page.
 * The link rides along through every step (issue 32).
 */
export function afterStep(step: Step, redirectTo: string | null): string {
  if (step === 'done') return redirectTo ?? '/Welcome'
  return redirectTo ? `${STEP_PATH[step]}?${new URLSearchParams({ redirectTo })}` : STEP_PATH[step]
}

/** Records that a step is done and sends the user on to the next one (or the page the link asked for, or the start page). */
export async function advance(database: Database, sessionId: string, user: SessionUser, s: { step: Step; facility: string | null }, redirectTo: string | null = null): Promise<Response> {
  const step = await nextStep(database, user, s)
  await updateSession(database, sessionId, { step, facility: s.facility })
  return redirect(afterStep(step, redirectTo))
}
