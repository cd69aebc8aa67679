/**
 * Checking a facility's METRC credentials (SPEC §4, §5, §8; issue 9): is the license among the
 * facilities the user key reaches? One GET /facilities/v2. A 401 is a key METRC does not take; a
 * list without the license is a wrong license; no answer (down, 5xx, 429 after retries) is
 * neither: the credentials stay pending and are checked again later.
 */
import { MetrcError } from './client/errors'
import type { MetrcClient } from './client/client.server'
import { metrcClient, metrcEndpoint } from './connection.server'

// the sign-in flow (app/auth) states what a credential check answers; this module is its METRC side
import type { CredentialCheck, MetrcFacility } from '../auth/credential-check'
export type { CredentialCheck, MetrcFacility }

export const sameLicense = (a: unknown, b: string) => typeof a === 'string' && a.trim().toUpperCase() === b.trim().toUpperCase()

export async function checkCredentials(client: MetrcClient, license: string): Promise<CredentialCheck> {
  try {
    const list = await client.get<unknown>('/facilities/v2')
    const facilities = (Array.isArray(list) ? list : []) as MetrcFacility[]
    const facility = facilities.find((f) => sameLicense(f?.License?.Number, license))
    if (facility) return { ok: true, facility }
    return { ok: false, wrong: 'license', message: `METRC does not list license ${license} among this key's facilities.` }
  } catch (e) {
    if (e instanceof MetrcError && (e.kind === 'unauthorized' || e.kind === 'forbidden')) return { ok: false, wrong: 'key', message: e.message }
    return { ok: false, wrong: 'unreachable', message: (e as Error).message }
  }
}

/** The checker the sign-in flow uses, or null when this process has no METRC (no vendor key, no emulator). */
export function credentialChecker(env: Parameters<typeof metrcEndpoint>[0]): ((state: string, license: string, key: string) => Promise<CredentialCheck>) | null {
  const endpoint = metrcEndpoint(env)
  if (!endpoint) return null
  // a person is waiting on the form: 10 s and two tries at most, then "pending" (checked again later)
  return (state, license, key) => checkCredentials(metrcClient(endpoint, state, key, { timeoutMs: 10_000, attempts: 2, backoff: { baseMs: 300, maxMs: 1000 }, maxRetryAfterMs: 2000 }), license)
}
