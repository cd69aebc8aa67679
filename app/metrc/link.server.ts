/**
 * An organisation's link to METRC (issue 9, decision 019): state, license and the user API key,
 * sealed at rest (app/utils/seal.server.ts) in the private table `metrc_links` — never a schema
 * collection, never in a loader's answer (the key is write-only; screens see `••••` and its last 4
 * characters). A new key is checked with METRC (checkCredentials) before it is saved; every change
 * is audited without the key. A 401 during a sync marks the link failing, which stops that
 * organisation's syncs until a key that works is saved.
 */
import type { Database } from '../db/index.server'
import type { Actor } from '../db/types'
import { badInput } from '../utils/errors'
import { seal, unseal } from '../utils/seal.server'
import { METRC_STATES } from './client/states'
import type { MetrcClient, MetrcClientOptions } from './client/client.server'
import { metrcClient, metrcEndpoint } from './connection.server'
import { checkCredentials, type CredentialCheck } from './credentials.server'
import type { Env } from '../config/env.server'

export type LinkStatus = 'ok' | 'failing' | 'unchecked'

export interface MetrcLink {
  org: string
  state: string
  license: string
  status: LinkStatus
  checkedAt: string | null
  failingSince: string | null
  lastError: string | null
  /** the key's last four characters, for "••••1234" */
  keyHint: string
}

type LinkRow = { org: string; state: string; license: string; user_key: string; status: LinkStatus; checked_at: Date | string | null; failing_since: Date | string | null; last_error: string | null }

const iso = (v: Date | string | null) => (v === null ? null : (v instanceof Date ? v : new Date(v)).toISOString())

function publicLink(r: LinkRow, secret: string): MetrcLink {
  let hint = ''
  try {
    hint = unseal(secret, r.user_key).slice(-4)
  } catch {
    hint = '?'
  }
  return { org: r.org, state: r.state, license: r.license, status: r.status, checkedAt: iso(r.checked_at), failingSince: iso(r.failing_since), lastError: r.last_error, keyHint: hint }
}

export async function getLink(database: Database, secret: string, org: string): Promise<MetrcLink | null> {
  const r = await database.db.query<LinkRow>('SELECT * FROM metrc_links WHERE org = $1', [org])
  return r.rows[0] ? publicLink(r.rows[0], secret) : null
}

export async function linkedOrgs(database: Database): Promise<Array<{ org: string; status: LinkStatus }>> {
  const r = await database.db.query<{ org: string; status: LinkStatus }>('SELECT org, status FROM metrc_links ORDER BY org')
  return r.rows
}

/** A METRC client for an organisation's link (null: not linked, or no METRC configured). */
export async function linkClient(database: Database, env: Pick<Env, 'SESSION_SECRET' | 'METRC_URL' | 'METRC_SANDBOX' | 'METRC_VENDOR_KEY'>, org: string, o: Partial<MetrcClientOptions> = {}): Promise<{ client: MetrcClient; link: MetrcLink } | null> {
  const endpoint = metrcEndpoint(env)
  if (!endpoint) return null
  const r = await database.db.query<LinkRow>('SELECT * FROM metrc_links WHERE org = $1', [org])
  const row = r.rows[0]
  if (!row) return null
  return { client: metrcClient(endpoint, row.state, unseal(env.SESSION_SECRET, row.user_key), o), link: publicLink(row, env.SESSION_SECRET) }
}

export interface LinkInput {
  state: string
  license: string
  /** empty: keep the stored key (changing the license or state only) */
  key: string
}

/**
 * Saves an organisation's link after METRC accepts it: a wrong license or key, or METRC not
 * answering, is refused with the reason and changes nothing. Audited (org, collection
 * `metrc_links`), with the key left out.
 */
export async function saveLink(database: Database, env: Parameters<typeof linkClient>[1], actor: Actor, org: string, input: LinkInput, check?: (client: MetrcClient, license: string) => Promise<CredentialCheck>): Promise<MetrcLink> {
  const state = input.state.trim().toUpperCase()
  const license = input.license.trim()
  if (!(METRC_STATES as readonly string[]).includes(state)) throw badInput(`${state || 'The state'} is not a METRC state`, { field: 'state' })
  if (!license || license.length > 60) throw badInput('Enter the facility license number', { field: 'license' })
  const before = await database.db.query<LinkRow>('SELECT * FROM metrc_links WHERE org = $1', [org])
  let key = input.key.trim()
  if (!key) {
    if (!before.rows[0]) throw badInput('Enter the METRC user API key', { field: 'key' })
    key = unseal(env.SESSION_SECRET, before.rows[0].user_key)
  }
  if (key.length > 200) throw badInput('That API key is too long', { field: 'key' })
  const endpoint = metrcEndpoint(env)
  if (!endpoint) throw badInput('METRC is not configured on this server (no vendor key and no emulator)', { field: 'key' })
  const client = metrcClient(endpoint, state, key, { timeoutMs: 10_000, attempts: 2, backoff: { baseMs: 300, maxMs: 1000 }, maxRetryAfterMs: 2000 })
  const r = await (check ?? checkCredentials)(client, license)
  if (!r.ok) {
    if (r.wrong === 'license') throw badInput(r.message, { field: 'license' })
    if (r.wrong === 'key') throw badInput(`METRC does not accept this API key: ${r.message}`, { field: 'key' })
    throw badInput(`METRC did not answer, so nothing was saved: ${r.message}`, { field: 'key' })
  }
  const sealed = seal(env.SESSION_SECRET, key)
  const prev = before.rows[0]
  await database.store.audited(actor, {
    org,
    collection: 'metrc_links',
    id: org,
    action: prev ? 'update' : 'insert',
    before: prev ? { state: prev.state, license: prev.license, status: prev.status } : null,
    after: { state, license, status: 'ok', keyChanged: input.key.trim() !== '' },
  }, async (tx) => {
    await tx.query(
      `INSERT INTO metrc_links (org, state, license, user_key, status, checked_at, failing_since, last_error, updated_at, updated_by)
       VALUES ($1, $2, $3, $4, 'ok', now(), NULL, NULL, now(), $5)
       ON CONFLICT (org) DO UPDATE SET state = EXCLUDED.state, license = EXCLUDED.license, user_key = EXCLUDED.user_key, status = 'ok',
         checked_at = now(), failing_since = NULL, last_error = NULL, updated_at = now(), updated_by = EXCLUDED.updated_by`,
      [org, state, license, sealed, actor.uid],
    )
  })
  return (await getLink(database, env.SESSION_SECRET, org))!
}

/** The demo's links (the in-process emulator's seeded licenses), written once when missing; no check, no audit. */
export async function ensureLink(database: Database, secret: string, org: string, l: { state: string; license: string; key: string }): Promise<void> {
  await database.db.query(
    `INSERT INTO metrc_links (org, state, license, user_key, status, updated_by) VALUES ($1, $2, $3, $4, 'unchecked', 'seed') ON CONFLICT (org) DO NOTHING`,
    [org, l.state, l.license, seal(secret, l.key)],
  )
}

/** METRC refused the key (401): the link is failing from now (or since it started failing). */
export async function markFailing(database: Database, org: string, error: string): Promise<void> {
  await database.db.query(`UPDATE metrc_links SET status = 'failing', failing_since = coalesce(failing_since, now()), last_error = $2, checked_at = now() WHERE org = $1`, [org, error.slice(0, 500)])
}

export async function markOk(database: Database, org: string): Promise<void> {
  await database.db.query(`UPDATE metrc_links SET status = 'ok', failing_since = NULL, last_error = NULL, checked_at = now() WHERE org = $1 AND status <> 'ok'`, [org])
}
