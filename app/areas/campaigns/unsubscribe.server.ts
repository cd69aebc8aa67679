/**
 * The public unsubscribe page (issue 27 item 4): /Unsubscribe/{token} from a campaign mail. No sign-in;
 * the GET only asks (a link preview or a mail scanner opening it changes nothing), the POST — the
 * page's button, or a mail program's one-click `List-Unsubscribe-Post` — records the address in the
 * organisation's crm_unsub (once) and skips the address's mails still queued. A token that is altered
 * or forged is refused (400) and records nothing.
 */
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/node'
import type { Database } from '../../db/index.server'
import type { Actor } from '../../db/types'
import { timeZoneOf } from '../../facilities/facts.server'
import { localDate } from '../../format/date-ranges'
import { senderOf } from './campaigns.server'
import { UNSUB } from './rules'
import { verifyUnsub, type UnsubClaim } from './unsub-token.server'

export const UNSUBSCRIBER: Actor = { uid: 'unsubscribe-link', role: 'system' }
export const BAD_LINK = 'This unsubscribe link is not valid. Use the link in the mail exactly as it came, or reply to the mail to ask to be taken off the list.'

/** Records the claim's address as unsubscribed (once per organisation); answers whether it already was. */
export async function unsubscribe(database: Database, claim: UnsubClaim, day: string): Promise<{ already: boolean }> {
  const email = claim.email.toLowerCase()
  const known = await database.db.query(`SELECT 1 FROM c_${UNSUB} WHERE org = $1 AND lower(trim(doc ->> 'email')) = $2 LIMIT 1`, [claim.org, email])
  if (!known.rows.length) {
    const from = await database.db.query<{ company: string | null; contact: string | null }>(
      `SELECT fields ->> 'company' AS company, fields ->> 'contact' AS contact FROM crm_campaign_recipients WHERE org = $1 AND campaign_id = $2 AND lower(email) = $3 LIMIT 1`,
      [claim.org, claim.campaign, email],
    )
    const campaign = await database.db.query(`SELECT 1 FROM crm_campaign_runs WHERE org = $1 AND campaign_id = $2`, [claim.org, claim.campaign])
    await database.store.insert(UNSUBSCRIBER, claim.org, UNSUB, {
      email, name: from.rows[0]?.contact ?? '', company: from.rows[0]?.company ?? '', date: day, channel: 'Email',
      ...(campaign.rows.length ? { campaign: claim.campaign } : {}),
    })
  }
  await database.db.query(`UPDATE crm_campaign_recipients SET status = 'skipped', reason = 'unsubscribed', done_at = clock_timestamp() WHERE org = $1 AND lower(email) = $2 AND status = 'queued' AND claimed_at IS NULL`, [claim.org, email])
  return { already: known.rows.length > 0 }
}

async function claimOf(context: LoaderFunctionArgs['context'], token: string) {
  const claim = verifyUnsub(context.env.SESSION_SECRET, token)
  if (!claim) return null
  const org = await context.database.db.query(`SELECT 1 FROM crm_campaign_runs WHERE org = $1 LIMIT 1`, [claim.org])
  return org.rows.length ? claim : null
}

export async function unsubscribeLoader({ params, context }: LoaderFunctionArgs) {
  const claim = await claimOf(context, params.token ?? '')
  if (!claim) return json({ email: null, sender: null, done: false, problem: BAD_LINK }, { status: 400 })
  return json({ email: claim.email, sender: await senderOf(context.database, claim.org), done: false, problem: null })
}

export async function unsubscribeAction({ params, context }: ActionFunctionArgs) {
  const claim = await claimOf(context, params.token ?? '')
  if (!claim) return json({ email: null, sender: null, done: false, problem: BAD_LINK }, { status: 400 })
  const day = localDate(new Date(), await timeZoneOf(context, claim.org))
  const r = await unsubscribe(context.database, claim, day)
  return json({ email: claim.email, sender: await senderOf(context.database, claim.org), done: true, already: r.already, problem: null })
}
