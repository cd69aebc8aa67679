/**
 * Telling people about a message: live, to every open page of each member (an `unread` event on
 * the event stream with their new count: the shell's badge and an open inbox update), and by mail
 * to a member who has not read it within MSG_UNREAD_MAIL_AFTER_S (the job below, one mail per
 * conversation and batch of unread posts; a failed send is tried again on the next round).
 */
import type { Logger } from 'pino'
import type { Env } from '../../config/env.server'
import type { Database } from '../../db/index.server'
import type { EventHub } from '../../events/event-hub.server'
import { sendMail } from '../../mail/mailer.server'
import { PLATFORM_ORG } from '../../route-map'
import { unreadCount } from './conversations.server'

/** Each member's pages get their new unread count (the author's too: their other tabs). */
export async function announce(database: Database, events: EventHub, facility: string, members: string[], threadId: string): Promise<void> {
  for (const uid of members) events.publishToUser(facility, uid, 'unread', { kind: 'messages', count: await unreadCount(database, facility, uid), thread: threadId })
}

interface Due {
  org: string
  thread_id: string
  uid: string
  subject: string
  newest: Date | string
  n: string | number
}

/**
 * One round: every member with posts by others unread for longer than the delay and not yet mailed
 * about. Runs over every facility (a platform job); each row names its facility and the mail says which.
 */
export async function mailUnread(env: Env, database: Database, logger: Logger, origin: string): Promise<number> {
  const due = await database.db.query<Due>(
    `SELECT m.org, m.thread_id, m.uid, t.subject, max(p.created_at) AS newest, count(*) AS n
     FROM msg_members m JOIN msg_posts p ON p.org = m.org AND p.thread_id = m.thread_id JOIN msg_threads t ON t.org = m.org AND t.id = m.thread_id
     WHERE p.author <> m.uid AND (m.read_at IS NULL OR p.created_at > m.read_at) AND (m.mailed_at IS NULL OR p.created_at > m.mailed_at)
       AND p.created_at <= clock_timestamp() - make_interval(secs => $1)
     GROUP BY m.org, m.thread_id, m.uid, t.subject LIMIT 200`,
    [env.MSG_UNREAD_MAIL_AFTER_S],
  )
  let sent = 0
  for (const d of due.rows) {
    const u = await database.store.get(PLATFORM_ORG, 'users', d.uid)
    const email = typeof u?.email === 'string' ? u.email : ''
    const org = await database.store.get(PLATFORM_ORG, 'org', d.org)
    const where = String(org?.fullName ?? d.org)
    try {
      if (email && u?.web !== 'no')
        await sendMail(env, logger, {
          to: email,
          subject: `Unread message: ${d.subject}`,
          text: `You have ${Number(d.n)} unread message${Number(d.n) === 1 ? '' : 's'} in “${d.subject}” (${where}).\n\nRead and answer it in Canopy:\n${origin}/MsgMessages?c=${encodeURIComponent(d.thread_id)}\n`,
        })
      await database.db.query('UPDATE msg_members SET mailed_at = $4 WHERE org = $1 AND thread_id = $2 AND uid = $3', [d.org, d.thread_id, d.uid, d.newest])
      sent++
    } catch (err) {
      logger.warn({ err: (err as Error).message, to: email, thread: d.thread_id }, 'the unread-message mail could not be sent; trying again next round')
    }
  }
  return sent
}

/** The job: a round every few seconds (a tenth of the delay, between 1 s and 60 s). */
export function startUnreadMailer(deps: { env: Env; database: Database; logger: Logger }): { stop(): Promise<void> } {
  const every = Math.min(60_000, Math.max(1000, deps.env.MSG_UNREAD_MAIL_AFTER_S * 100))
  const origin = (deps.env.PUBLIC_URL ?? `http://localhost:${deps.env.PORT}`).replace(/\/$/, "")
  let running: Promise<unknown> = Promise.resolve()
  let busy = false
  const timer = setInterval(() => {
    if (busy) return
    busy = true
    running = mailUnread(deps.env, deps.database, deps.logger, origin)
      .catch((err: Error) => deps.logger.warn({ err: err.message }, 'the unread-message mail round failed'))
      .finally(() => (busy = false))
  }, every)
  timer.unref()
  return {
    async stop() {
      clearInterval(timer)
      await running
    },
  }
}
