/**
 * The campaign sender (issue 27 item 4, decision 058): a job that mails queued recipients through the
 * app's mail path (app/mail), at most CAMPAIGN_MAILS_PER_SEC a second. The recipients are rows, so
 * the work survives a restart: each round claims rows (`claimed_at`, FOR UPDATE SKIP LOCKED), mails
 * them and marks each sent or failed; an address unsubscribed since the start is skipped. A row
 * claimed but never marked (the process stopped mid-send) may have gone out: at the next start it is
 * marked failed, never sent again — so no one gets a campaign twice. Each round tells the
 * organisation's open pages (`campaign` event); a campaign with nothing queued is Completed. A campaign
 * whose record is set to Paused (its edit form) sends nothing until it is set back; a deleted one, nothing more.
 */
import type { Logger } from 'pino'
import type { Env } from '../../config/env.server'
import type { Database } from '../../db/index.server'
import type { Actor } from '../../db/types'
import type { EventHub } from '../../events/event-hub.server'
import { sendMail } from '../../mail/mailer.server'
import { unsubscribed } from './audience.server'
import { progressOf } from './campaigns.server'
import { renderMail } from './render'
import { CAMPAIGNS, type MergeValues } from './rules'
import { signUnsub, unsubUrl } from './unsub-token.server'

export const SENDER: Actor = { uid: 'campaign-sender', role: 'system' }
export const INTERRUPTED = 'The server stopped while this mail was being sent; it is not sent again, so that no one gets it twice.'

interface Claimed {
  org: string
  campaign_id: string
  seq: number
  email: string
  fields: MergeValues
  subject: string
  body: string
}

export interface SenderDeps {
  env: Env
  database: Database
  logger: Logger
  events?: EventHub
  /** the links' origin (PUBLIC_URL) */
  origin: string
}

/** Rows claimed by a process that stopped before marking them: failed, never sent again. */
export async function failInterrupted(database: Database): Promise<number> {
  const r = await database.db.query(`UPDATE crm_campaign_recipients SET status = 'failed', reason = $1, done_at = clock_timestamp() WHERE status = 'queued' AND claimed_at IS NOT NULL`, [INTERRUPTED])
  return r.rowCount ?? 0
}

/** One round: up to `max` queued recipients mailed; answers how many rows it settled. */
export async function sendRound(d: SenderDeps, max: number): Promise<number> {
  const claimed = await d.database.db.transaction(async (tx) =>
    (
      await tx.query<Claimed>(
        `UPDATE crm_campaign_recipients x SET claimed_at = clock_timestamp() FROM crm_campaign_runs r
         WHERE r.org = x.org AND r.campaign_id = x.campaign_id AND (x.org, x.campaign_id, x.seq) IN (
           SELECT q.org, q.campaign_id, q.seq FROM crm_campaign_recipients q JOIN crm_campaign_runs rr ON rr.org = q.org AND rr.campaign_id = q.campaign_id
             JOIN c_${CAMPAIGNS} c ON c.org = q.org AND c.id = q.campaign_id
           WHERE q.status = 'queued' AND q.claimed_at IS NULL AND coalesce(c.doc ->> 'status', '') <> 'Paused'
           ORDER BY rr.started_at, q.campaign_id, q.seq LIMIT $1 FOR UPDATE OF q SKIP LOCKED)
         RETURNING x.org, x.campaign_id, x.seq, x.email, x.fields, r.subject, r.body`,
        [max],
      )
    ).rows,
  )
  if (!claimed.length) return 0
  const offBy = new Map<string, Set<string>>()
  const touched = new Set<string>()
  const date = new Date().toISOString().slice(0, 10)
  for (const c of claimed) {
    touched.add(`${c.org}\0${c.campaign_id}`)
    if (!offBy.has(c.org)) offBy.set(c.org, await unsubscribed(d.database, c.org))
    const mark = (status: 'sent' | 'failed' | 'skipped', reason = '') =>
      d.database.db.query(`UPDATE crm_campaign_recipients SET status = $4, reason = $5, done_at = clock_timestamp() WHERE org = $1 AND campaign_id = $2 AND seq = $3`, [c.org, c.campaign_id, c.seq, status, reason])
    if (offBy.get(c.org)!.has(c.email.toLowerCase())) {
      await mark('skipped', 'unsubscribed')
      continue
    }
    const link = unsubUrl(d.origin, signUnsub(d.env.SESSION_SECRET, { org: c.org, email: c.email, campaign: c.campaign_id }))
    const mail = renderMail({ subject: c.subject, body: c.body }, { ...c.fields, date }, link)
    try {
      await sendMail(d.env, d.logger, { to: c.email, ...mail, headers: { 'List-Unsubscribe': `<${link}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' } })
      await mark('sent')
    } catch (err) {
      d.logger.warn({ err: (err as Error).message, campaign: c.campaign_id, seq: c.seq }, 'a campaign mail could not be sent')
      await mark('failed', String((err as Error).message).slice(0, 300))
    }
  }
  for (const key of touched) {
    const [org, id] = key.split('\0')
    await settle(d, org, id)
  }
  return claimed.length
}

/** A campaign's counts to its organisation's pages; Completed (with its sent count) once nothing is queued. */
async function settle(d: SenderDeps, org: string, id: string): Promise<void> {
  const [p] = await progressOf(d.database, org, id)
  if (!p) return
  if (p.queued === 0 && !p.finished) {
    const done = await d.database.db.query(`UPDATE crm_campaign_runs SET finished_at = clock_timestamp() WHERE org = $1 AND campaign_id = $2 AND finished_at IS NULL`, [org, id])
    if ((done.rowCount ?? 0) > 0 && (await d.database.store.get(org, CAMPAIGNS, id)))
      await d.database.store.update(SENDER, org, CAMPAIGNS, id, { status: 'Completed', sent: p.sent, end: new Date().toISOString().slice(0, 10) })
  }
  d.events?.publish(org, 'campaign', { id, total: p.total, sent: p.sent, failed: p.failed, skipped: p.skipped, queued: p.queued, done: p.queued === 0 })
}

/** The job: a round a second, each sending up to CAMPAIGN_MAILS_PER_SEC. */
export function startCampaignSender(deps: Omit<SenderDeps, 'origin'>): { stop(): Promise<void> } {
  const origin = (deps.env.PUBLIC_URL ?? `http://localhost:${deps.env.PORT}`).replace(/\/$/, '')
  const d = { ...deps, origin }
  let running: Promise<unknown> = failInterrupted(deps.database)
    .then((n) => n && deps.logger.warn({ rows: n }, 'campaign mails interrupted by a stop are marked failed'))
    .catch((err: Error) => deps.logger.warn({ err: err.message }, 'could not settle interrupted campaign mails'))
  let busy = false
  const timer = setInterval(() => {
    if (busy) return
    busy = true
    running = running
      .then(() => sendRound(d, deps.env.CAMPAIGN_MAILS_PER_SEC))
      .catch((err: Error) => deps.logger.warn({ err: err.message }, 'the campaign send round failed'))
      .finally(() => (busy = false))
  }, 1000)
  timer.unref()
  return {
    async stop() {
      clearInterval(timer)
      await running
    },
  }
}
