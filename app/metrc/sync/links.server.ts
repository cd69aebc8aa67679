/**
 * A facility's link to METRC (migration 006): state, license and the user key, sealed with
 * SESSION_SECRET. Saving checks the credentials against METRC first (the license must be among the
 * key's facilities) and writes an audit row without the key. A key that starts failing later marks
 * the link failing (since when, why) until a sync or a new key succeeds.
 */
import type { AppLoadContext } from '@remix-run/node'
import type { Database } from '../../db/index.server'
import type { Actor } from '../../db/types'
import { once } from '../../utils/request-memo'
import { AppError } from '../../utils/errors'
import { seal, unseal } from '../../utils/seal.server'
import type { CredentialCheck } from '../credentials.server'

export interface MetrcLink {
  org: string
  state: string
  license: string
  status: 'unchecked' | 'ok' | 'failing'
  checkedAt: string | null
  failingSince: string | null
  lastError: string | null
  /** when the credentials were last saved */
  updatedAt: string | null
}

type Row = { org: string; state: string; license: string; key_sealed: string; status: MetrcLink['status']; checked_at: Date | string | null; failing_since: Date | string | null; last_error: string | null; updated_at: Date | string | null }
const iso = (v: Date | string | null) => (v === null ? null : (v instanceof Date ? v : new Date(v)).toISOString())
const view = (r: Row): MetrcLink => ({ org: r.org, state: r.state, license: r.license, status: r.status, checkedAt: iso(r.checked_at), failingSince: iso(r.failing_since), lastError: r.last_error, updatedAt: iso(r.updated_at) })

export async function linkOf(database: Database, org: string): Promise<MetrcLink | null> {
  const r = await database.db.query<Row>('SELECT * FROM metrc_links WHERE org = $1', [org])
  return r.rows[0] ? view(r.rows[0]) : null
}

/** The link as the loaders of one page request read it: one primary-key row, read once per request. */
export function linkFor(context: Pick<AppLoadContext, 'database' | 'reads'>, org: string): Promise<MetrcLink | null> {
  return once(context, `metrc-link:${org}`, () => linkOf(context.database, org))
}

/** The link with its user key, for the sync (never for a page). */
export async function linkWithKey(database: Database, secret: string, org: string): Promise<(MetrcLink & { key: string }) | null> {
  const r = await database.db.query<Row>('SELECT * FROM metrc_links WHERE org = $1', [org])
  return r.rows[0] ? { ...view(r.rows[0]), key: unseal(secret, r.rows[0].key_sealed) } : null
}

export async function linkedOrgs(database: Database): Promise<string[]> {
  return (await database.db.query<{ org: string }>('SELECT org FROM metrc_links ORDER BY org')).rows.map((r) => r.org)
}

/** Checks and saves a facility's credentials; a wrong license or key changes nothing. */
export async function saveLink(database: Database, secret: string, actor: Actor, org: string, v: { state: string; license: string; key: string }, check: ((state: string, license: string, key: string) => Promise<CredentialCheck>) | null): Promise<MetrcLink> {
  let status: MetrcLink['status'] = 'unchecked'
  if (check) {
    const r = await check(v.state, v.license, v.key)
    if (!r.ok && r.wrong === 'license') throw new AppError('BAD_INPUT', `State License was incorrect: ${r.message}`, { field: 'license' })
    if (!r.ok && r.wrong === 'key') throw new AppError('BAD_INPUT', 'METRC did not accept that API key.', { field: 'key' })
    status = r.ok ? 'ok' : 'unchecked'
  }
  const before = await linkOf(database, org)
  await database.store.audited(actor, { org, collection: 'metrc_links', id: org, action: before ? 'update' : 'insert', before, after: { org, state: v.state, license: v.license, status } }, async (tx) => {
    await tx.query(
      `INSERT INTO metrc_links (org, state, license, key_sealed, status, checked_at, updated_by) VALUES ($1, $2, $3, $4, $5, CASE WHEN $5 = 'ok' THEN now() END, $6)
       ON CONFLICT (org) DO UPDATE SET state = EXCLUDED.state, license = EXCLUDED.license, key_sealed = EXCLUDED.key_sealed, status = EXCLUDED.status,
         checked_at = EXCLUDED.checked_at, failing_since = NULL, last_error = NULL, updated_at = now(), updated_by = EXCLUDED.updated_by`,
      [org, v.state, v.license, seal(secret, v.key), status, actor.uid],
    )
  })
  return (await linkOf(database, org))!
}

export async function markLink(database: Database, org: string, ok: boolean, error?: string): Promise<void> {
  if (ok) await database.db.query(`UPDATE metrc_links SET status = 'ok', checked_at = now(), failing_since = NULL, last_error = NULL WHERE org = $1`, [org])
  else await database.db.query(`UPDATE metrc_links SET status = 'failing', checked_at = now(), failing_since = coalesce(failing_since, now()), last_error = $2 WHERE org = $1`, [org, (error ?? '').slice(0, 500)])
}
