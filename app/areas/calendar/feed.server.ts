/**
 * A user's iCalendar feed (decision 043): a secret link per user and facility. Only a hash of the
 * secret is kept (sch_feed_tokens, migration 030); making a new link revokes the old one.
 */
import crypto from 'node:crypto'
import type { Db } from '../../db/driver.server'

const hash = (token: string) => crypto.createHash('sha256').update(token).digest('hex')

/** A new secret for the user in this facility; the previous one stops working. */
export async function newFeedToken(db: Db, org: string, uid: string): Promise<string> {
  const token = crypto.randomBytes(24).toString('base64url')
  await db.query(`DELETE FROM sch_feed_tokens WHERE org = $1 AND uid = $2`, [org, uid])
  await db.query(`INSERT INTO sch_feed_tokens (token_hash, org, uid) VALUES ($1, $2, $3)`, [hash(token), org, uid])
  return token
}

export async function revokeFeed(db: Db, org: string, uid: string): Promise<number> {
  return (await db.query(`DELETE FROM sch_feed_tokens WHERE org = $1 AND uid = $2`, [org, uid])).rowCount ?? 0
}

export async function hasFeed(db: Db, org: string, uid: string): Promise<string | null> {
  const r = await db.query<{ created_at: string }>(`SELECT created_at FROM sch_feed_tokens WHERE org = $1 AND uid = $2`, [org, uid])
  return r.rows[0] ? new Date(r.rows[0].created_at).toISOString() : null
}

/** Whose feed a secret opens, or null. */
export async function feedOwner(db: Db, token: string): Promise<{ org: string; uid: string } | null> {
  if (!/^[A-Za-z0-9_-]{20,64}$/.test(token)) return null
  const r = await db.query<{ org: string; uid: string }>(`SELECT org, uid FROM sch_feed_tokens WHERE token_hash = $1`, [hash(token)])
  return r.rows[0] ?? null
}
