/**
 * Release notes (issue 27 item 5): the product's changelog, one list for every facility
 * (crm_release_notes under the platform organisation; written by super only: the route map's
 * `writers`, enforced by the one write path), and what each person has seen of it (rel_seen,
 * migration 043). A note's text is Markdown, shown as HTML through the documents area's
 * sanitiser: nothing a writer types can run in a reader's page.
 */
import type { Database } from '../../db/index.server'
import { isYes } from '../../format/format'
import { PLATFORM_ORG } from '../../route-map'
import { markdownToHtml } from '../documents/markdown.server'
import { compareVersions, newestVersion, NOTES } from './rules'

export interface Note {
  id: string
  version: string
  title: string
  released: string | null
  category: string
  module: string
  /** the note's Markdown as sanitised HTML */
  html: string
}

/** At most this many versions in the notice; the page has the rest. */
export const NOTICE_VERSIONS = 3

const byNewest = (a: Omit<Note, 'html'>, b: Omit<Note, 'html'>) => compareVersions(b.version, a.version) || String(b.released ?? '').localeCompare(String(a.released ?? '')) || a.title.localeCompare(b.title)

type Raw = Omit<Note, 'html'> & { text: string }

/** Every published note, newest version first, its text still Markdown (every page's notice check reads these). */
async function publishedRaw(database: Database): Promise<Raw[]> {
  if (!(await database.schemas.hasCollection(NOTES))) return []
  const docs = await database.store.find(PLATFORM_ORG, NOTES, {}, 1000)
  return docs
    .filter((d) => isYes(d.published) && typeof d.version === 'string' && d.version.trim())
    .map((d) => ({
      id: d._id,
      version: String(d.version).trim(),
      title: String(d.title ?? ''),
      released: typeof d.released === 'string' ? d.released : null,
      category: String(d.category ?? ''),
      module: String(d.module ?? ''),
      text: String(d.notes ?? ''),
    }))
    .sort(byNewest)
}

const rendered = ({ text, ...n }: Raw): Note => ({ ...n, html: markdownToHtml(text) })

/** Every published note, newest version first, as sanitised HTML. */
export async function publishedNotes(database: Database): Promise<Note[]> {
  return (await publishedRaw(database)).map(rendered)
}

/** The newest version this person has seen (null: never asked yet). */
export async function seenVersion(database: Database, uid: string): Promise<string | null> {
  const r = await database.db.query<{ version: string }>('SELECT version FROM rel_seen WHERE org = $1 AND uid = $2', [PLATFORM_ORG, uid])
  return r.rows[0]?.version ?? null
}

/** Remembers that this person has seen `version`; never moves back to an older one. */
export async function markSeen(database: Database, uid: string, version: string): Promise<void> {
  const before = await seenVersion(database, uid)
  if (before !== null && compareVersions(version, before) <= 0) return
  await database.db.query(
    `INSERT INTO rel_seen (org, uid, version) VALUES ($1, $2, $3)
     ON CONFLICT (org, uid) DO UPDATE SET version = EXCLUDED.version, seen_at = clock_timestamp()`,
    [PLATFORM_ORG, uid, version],
  )
}

export interface WhatsNew {
  /** the newest published version: what dismissing the notice records */
  version: string
  notes: Note[]
}

/**
 * What the "What's new" notice shows this person: the published notes newer than the version they
 * last saw (the newest few versions), or null. Someone never asked before starts at the newest
 * version without a notice: a new account has no "since last time".
 */
export async function whatsNewFor(database: Database, uid: string): Promise<WhatsNew | null> {
  const notes = await publishedRaw(database)
  const newest = newestVersion(notes.map((n) => n.version))
  if (!newest) return null
  const seen = await seenVersion(database, uid)
  if (seen === null) {
    await database.db.query('INSERT INTO rel_seen (org, uid, version) VALUES ($1, $2, $3) ON CONFLICT (org, uid) DO NOTHING', [PLATFORM_ORG, uid, newest])
    return null
  }
  if (compareVersions(newest, seen) <= 0) return null
  const newer = notes.filter((n) => compareVersions(n.version, seen) > 0)
  const versions = [...new Set(newer.map((n) => n.version))].slice(0, NOTICE_VERSIONS)
  return { version: newest, notes: newer.filter((n) => versions.includes(n.version)).map(rendered) }
}

/** Dismissing the notice: only a published version is recorded (anything else is refused as unknown). */
export async function dismiss(database: Database, uid: string, version: string): Promise<boolean> {
  if (!(await publishedRaw(database)).some((n) => n.version === version)) return false
  await markSeen(database, uid, version)
  return true
}
