/**
 * Starting a mail campaign and reading how far it got (issue 27 item 4, decision 058). Starting:
 * the template (of the caller's organisation, a mail template whose merge fields all exist) and the
 * audience are checked first — a refusal changes nothing — then the campaign record is created
 * through the one write path (crm_campaigns) and its send (crm_campaign_runs, the template as it is
 * now) and one row per recipient (crm_campaign_recipients: queued, or skipped when unsubscribed)
 * go in in one transaction. The create form's one-time key makes a second post of the same form a
 * refusal, never a second campaign. The sender job (sender.server.ts) does the mailing.
 */
import crypto from 'node:crypto'
import type { AppLoadContext } from '@remix-run/node'
import type { Database } from '../../db/index.server'
import type { Queryable } from '../../db/driver.server'
import { sqlState } from '../../db/driver.server'
import { timeZoneOf } from '../../facilities/facts.server'
import { localDate } from '../../format/date-ranges'
import { createRecord, type Writer } from '../../records/write.server'
import { PLATFORM_ORG } from '../../route-map'
import { badInput, conflict } from '../../utils/errors'
import { audienceLabel, audienceOf, isWho, type AudienceQuery } from './audience.server'
import { CAMPAIGNS, TEMPLATES, unknownFieldsMessage, unknownMergeFields } from './rules'

export const newStartKey = () => crypto.randomBytes(16).toString('base64url')

export const ALREADY_STARTED = 'This campaign has already been started: it is sending, or sent. Open it on the Campaigns page.'

export interface StartInput {
  name: string
  template: string
  who: string
  stage: string
  company?: string
  key: string
}

/** The organisation's name, as {{sender}} and the mail's signature. */
export async function senderOf(database: Database, org: string): Promise<string> {
  const o = await database.store.get(PLATFORM_ORG, 'org', org)
  return String(o?.fullName ?? o?.name ?? org)
}

/** The organisation's mail templates (not SMS), by name. */
export async function mailTemplates(database: Database, org: string) {
  const all = await database.store.find(org, TEMPLATES, {}, 1000)
  return all
    .filter((t) => String(t.channel ?? '').toLowerCase() !== 'sms')
    .map((t) => ({ id: t._id, name: String(t.name ?? t._id), subject: String(t.subject ?? ''), body: String(t.body ?? '') }))
    .sort((a, b) => a.name.localeCompare(b.name))
}

/** The checked template and audience of a start; throws the refusal a person reads. */
export async function checkStart(database: Database, org: string, input: StartInput) {
  const problems: Array<{ field: string; message: string }> = []
  if (!input.name.trim()) problems.push({ field: 'name', message: 'Give the campaign a name.' })
  if (!isWho(input.who)) problems.push({ field: 'who', message: 'Choose who receives it: prospects, clients or both.' })
  let template: Awaited<ReturnType<typeof mailTemplates>>[number] | undefined
  if (!input.template) problems.push({ field: 'template', message: 'Choose a template: a campaign mails one of your templates.' })
  else {
    template = (await mailTemplates(database, org)).find((t) => t.id === input.template)
    if (!template) problems.push({ field: 'template', message: 'That template is not one of your organisation’s mail templates.' })
    else {
      const bad = unknownMergeFields(template.subject, template.body)
      if (bad.length) problems.push({ field: 'template', message: `The template cannot be sent: ${unknownFieldsMessage(bad)}` })
      else if (!template.subject.trim()) problems.push({ field: 'template', message: 'The template has no subject. Give it one on the Templates page.' })
    }
  }
  if (problems.length) throw badInput(problems.map((p) => p.message).join(' '), { errors: problems })
  return { template: template!, query: { who: input.who, stage: input.stage.trim(), company: (input.company ?? '').trim() } as AudienceQuery }
}

const runByKey = async (q: Queryable, org: string, key: string) => (await q.query<{ campaign_id: string }>('SELECT campaign_id FROM crm_campaign_runs WHERE org = $1 AND start_key = $2', [org, key])).rows[0]

/** Starts a campaign; answers its record's id. */
export async function startCampaign(context: AppLoadContext, w: Writer, input: StartInput): Promise<{ id: string; receive: number; skipped: number }> {
  const { database } = context
  const org = w.facility
  if (!input.key) throw badInput('This form is out of date. Open Create Campaign again.')
  if (await runByKey(database.db, org, input.key)) throw conflict(ALREADY_STARTED)
  const { template, query } = await checkStart(database, org, input)
  const sender = await senderOf(database, org)
  const list = await audienceOf(database, org, query, sender)
  const receive = list.filter((r) => !r.unsubscribed).length
  if (!receive) throw badInput('No one on this list can receive it: nobody has an email address, or every address has unsubscribed.')
  const today = localDate(new Date(), await timeZoneOf(context, org))
  const created = await createRecord(context, w, CAMPAIGNS, { name: input.name.trim(), channel: 'Email', status: 'Running', start: today, audience: audienceLabel(query), sent: 0, owner: [w.user.firstname, w.user.lastname].filter(Boolean).join(' ') || w.user.email })
  if (!created.doc) throw badInput('The campaign was not saved.')
  const id = created.doc._id
  try {
    await database.db.transaction(async (tx) => {
      await tx.query('INSERT INTO crm_campaign_runs (org, campaign_id, start_key, template_id, subject, body, audience, started_by) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)', [
        org, id, input.key, template.id, template.subject, template.body, audienceLabel(query), w.actor.uid,
      ])
      for (let i = 0; i < list.length; i += 500) {
        const chunk = list.slice(i, i + 500)
        const params: unknown[] = [org, id]
        const values = chunk.map((r, j) => {
          params.push(i + j + 1, r.email, r.source, r.sourceId, JSON.stringify(r.fields), r.unsubscribed ? 'skipped' : 'queued', r.unsubscribed ? 'unsubscribed' : '')
          const b = params.length - 7
          return `($1, $2, $${b + 1}, $${b + 2}, $${b + 3}, $${b + 4}, $${b + 5}::jsonb, $${b + 6}, $${b + 7}, ${r.unsubscribed ? 'clock_timestamp()' : 'NULL'})`
        })
        await tx.query(`INSERT INTO crm_campaign_recipients (org, campaign_id, seq, email, source, source_id, fields, status, reason, done_at) VALUES ${values.join(', ')}`, params)
      }
    })
  } catch (e) {
    // the same form posted twice at once: the other post started it; this record goes again
    await database.store.remove(w.actor, org, CAMPAIGNS, id).catch(() => undefined)
    if (sqlState(e) === '23505') throw conflict(ALREADY_STARTED)
    throw e
  }
  return { id, receive, skipped: list.length - receive }
}

export interface Progress {
  id: string
  name: string
  status: string
  channel: string
  /** false: a campaign record without a send (made in the table, or before campaigns were sent) */
  sending: boolean
  subject: string
  audience: string
  started: string
  finished: string | null
  total: number
  sent: number
  failed: number
  skipped: number
  queued: number
}

type ProgressRow = { id: string; doc: Record<string, unknown>; subject: string | null; audience: string | null; started_at: Date | string | null; finished_at: Date | string | null; total: string; sent: string; failed: string; skipped: string; queued: string }

/** Every campaign of the organisation (or one), newest first, with how far its send got. */
export async function progressOf(database: Database, org: string, campaign?: string): Promise<Progress[]> {
  const r = await database.db.query<ProgressRow>(
    `SELECT c.id, c.doc, r.subject, r.audience, r.started_at, r.finished_at,
       (SELECT count(*) FROM crm_campaign_recipients x WHERE x.org = c.org AND x.campaign_id = c.id) AS total,
       (SELECT count(*) FROM crm_campaign_recipients x WHERE x.org = c.org AND x.campaign_id = c.id AND x.status = 'sent') AS sent,
       (SELECT count(*) FROM crm_campaign_recipients x WHERE x.org = c.org AND x.campaign_id = c.id AND x.status = 'failed') AS failed,
       (SELECT count(*) FROM crm_campaign_recipients x WHERE x.org = c.org AND x.campaign_id = c.id AND x.status = 'skipped') AS skipped,
       (SELECT count(*) FROM crm_campaign_recipients x WHERE x.org = c.org AND x.campaign_id = c.id AND x.status = 'queued') AS queued
     FROM c_${CAMPAIGNS} c LEFT JOIN crm_campaign_runs r ON r.org = c.org AND r.campaign_id = c.id
     WHERE c.org = $1 ${campaign ? 'AND c.id = $2' : ''}
     ORDER BY r.started_at DESC NULLS LAST, c.doc ->> 'start' DESC NULLS LAST, c.id LIMIT 300`,
    campaign ? [org, campaign] : [org],
  )
  const iso = (d: Date | string) => new Date(d).toISOString()
  const str = (v: unknown) => (typeof v === 'string' ? v : '')
  return r.rows.map((x) => ({
    id: x.id, name: str(x.doc.name) || x.id, status: str(x.doc.status), channel: str(x.doc.channel), sending: x.started_at !== null,
    subject: x.subject ?? '', audience: x.audience ?? str(x.doc.audience), started: x.started_at ? iso(x.started_at) : str(x.doc.start), finished: x.finished_at ? iso(x.finished_at) : null,
    total: Number(x.total), sent: Number(x.sent), failed: Number(x.failed), skipped: Number(x.skipped), queued: Number(x.queued),
  }))
}

export interface RecipientRow {
  seq: number
  email: string
  company: string
  status: 'queued' | 'sent' | 'failed' | 'skipped'
  reason: string
  at: string | null
}

/** One campaign's recipients, in order (up to `limit`). */
export async function recipientsOf(database: Database, org: string, campaign: string, limit = 2000): Promise<RecipientRow[]> {
  const r = await database.db.query<{ seq: number; email: string; company: string | null; status: RecipientRow['status']; reason: string; done_at: Date | string | null }>(
    `SELECT seq, email, fields ->> 'company' AS company, status, reason, done_at FROM crm_campaign_recipients WHERE org = $1 AND campaign_id = $2 ORDER BY seq LIMIT $3`,
    [org, campaign, limit],
  )
  return r.rows.map((x) => ({ seq: Number(x.seq), email: x.email, company: x.company ?? '', status: x.status, reason: x.reason, at: x.done_at ? new Date(x.done_at).toISOString() : null }))
}
