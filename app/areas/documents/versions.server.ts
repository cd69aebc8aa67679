/**
 * Versions of a document (issue 26 item 2). The write step (registered for each document table in
 * area.server.ts) runs inside the record's own transaction: when a save changes the title or the
 * HTML, the next version is written with who saved it and when. A document seeded or saved before
 * versions existed gets its stored state as version 1 at its first change, so nothing is lost.
 *
 * A restore writes the chosen version's title and HTML back through the one write path (rights,
 * sanitiser, audit row, the unchanged-since check) and the version it makes names the version it
 * came from (`restored_from`, carried by an AsyncLocalStorage around that one write).
 */
import { AsyncLocalStorage } from 'node:async_hooks'
import type { AppLoadContext } from '@remix-run/node'
import type { Queryable } from '../../db/driver.server'
import type { Database } from '../../db/index.server'
import type { Doc } from '../../db/types'
import type { WriteStep } from '../../records/write-hooks.server'
import { updateRecord, type Writer } from '../../records/write.server'
import { PLATFORM_ORG } from '../../route-map'
import { AppError } from '../../utils/errors'
import type { DocKindInfo } from './kinds'

export interface Version {
  version: number
  title: string
  html: string
  author: string
  authorName: string
  at: string
  restoredFrom: number | null
}

const restoring = new AsyncLocalStorage<{ from: number }>()

const str = (v: unknown) => (typeof v === 'string' ? v : v === undefined || v === null ? '' : String(v))

/** The write step of a document table whose HTML is in `bodyKey`. */
export function versionStep(bodyKey: string): WriteStep {
  return async (tx, { org, collection, actor, saved, before }) => {
    const title = str(saved.title ?? saved.name)
    const html = str(saved[bodyKey])
    const last = await tx.query<{ version: number; title: string; html: string }>(
      'SELECT version, title, html FROM doc_versions WHERE org = $1 AND collection = $2 AND doc_id = $3 ORDER BY version DESC LIMIT 1',
      [org, collection, saved._id],
    )
    let n = last.rows[0]?.version ?? 0
    const from = restoring.getStore()?.from ?? null
    if (last.rows[0] && last.rows[0].title === title && last.rows[0].html === html && from === null) return
    if (!last.rows[0] && before) {
      // stored before versions were kept (seeded, or saved by an older release): that state is version 1
      const oldTitle = str(before.title ?? before.name)
      const oldHtml = str(before[bodyKey])
      if (oldTitle === title && oldHtml === html) n = 0
      else {
        await insertVersion(tx, org, collection, saved._id, 1, oldTitle, oldHtml, 'system:seed', null, str(before.ts) || null, null)
        n = 1
      }
    }
    await insertVersion(tx, org, collection, saved._id, n + 1, title, html, actor.uid, actor.origUid ?? null, null, from)
  }
}

async function insertVersion(tx: Queryable, org: string, collection: string, id: string, version: number, title: string, html: string, uid: string, origUid: string | null, at: string | null, from: number | null) {
  await tx.query(
    `INSERT INTO doc_versions (org, collection, doc_id, version, title, html, author_uid, orig_uid, created_at, restored_from)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, COALESCE($9::timestamptz, now()), $10)`,
    [org, collection, id, version, title, html, uid, origUid, at, from],
  )
}

type Row = { version: number; title: string; html: string; author_uid: string; created_at: Date | string; restored_from: number | null; author_name: string | null }

const iso = (v: Date | string) => (v instanceof Date ? v.toISOString() : new Date(v).toISOString())
const toVersion = (r: Row): Version => ({
  version: r.version,
  title: r.title,
  html: r.html,
  author: r.author_uid,
  authorName: r.author_name || (r.author_uid === 'system:seed' ? 'Demo data' : r.author_uid),
  at: iso(r.created_at),
  restoredFrom: r.restored_from,
})

const SELECT = `SELECT v.version, v.title, v.html, v.author_uid, v.created_at, v.restored_from,
    NULLIF(trim(concat_ws(' ', u.doc->>'firstname', u.doc->>'lastname')), '') AS author_name
  FROM doc_versions v LEFT JOIN c_users u ON u.org = '${PLATFORM_ORG}' AND u.doc->>'uid' = v.author_uid`

/** Every version of a document, newest first (the HTML too: documents are small). */
export async function listVersions(database: Database, org: string, collection: string, id: string): Promise<Version[]> {
  const r = await database.db.query<Row>(`${SELECT} WHERE v.org = $1 AND v.collection = $2 AND v.doc_id = $3 ORDER BY v.version DESC`, [org, collection, id])
  return r.rows.map(toVersion)
}

export async function getVersion(database: Database, org: string, collection: string, id: string, version: number): Promise<Version | null> {
  const r = await database.db.query<Row>(`${SELECT} WHERE v.org = $1 AND v.collection = $2 AND v.doc_id = $3 AND v.version = $4`, [org, collection, id, version])
  return r.rows[0] ? toVersion(r.rows[0]) : null
}

/** The newest version number of a document (0: none yet). */
export async function latestVersion(db: Queryable, org: string, collection: string, id: string): Promise<number> {
  const r = await db.query<{ n: number | null }>('SELECT max(version) AS n FROM doc_versions WHERE org = $1 AND collection = $2 AND doc_id = $3', [org, collection, id])
  return Number(r.rows[0]?.n ?? 0)
}

/**
 * Brings version `version` back: its title and HTML saved through the one write path as a new
 * version (so the history only grows), audited like any edit. `expectTs`: the record as the user saw it.
 */
export async function restoreVersion(context: AppLoadContext, w: Writer, kind: DocKindInfo, id: string, version: number, expectTs?: string): Promise<Doc> {
  const org = kind.platform ? PLATFORM_ORG : w.facility
  const v = await getVersion(context.database, org, kind.collection, id, version)
  if (!v) throw new AppError('NOT_FOUND', `There is no version ${version} of this ${kind.noun}.`)
  const res = await restoring.run({ from: version }, () => updateRecord(context, w, kind.collection, id, { title: v.title, [kind.bodyKey]: v.html }, { partial: true, expectTs, anyMinute: true }))
  if (!res.doc) throw new AppError('CONFLICT', 'The restore was stopped by a save rule.')
  return res.doc
}
