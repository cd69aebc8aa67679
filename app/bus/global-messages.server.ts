/**
 * A global message written on /SupGlobalMessages (an `inf_global` record) is announced to the
 * people of the facility it was written in: one `{facility}/notification/{uid}` {id} per user who
 * may enter that facility (SPEC §7). The bus brings each back to the server like any other
 * notification (notifications.server.ts), so every instance's pages of that user get the toast.
 */
import type { AppLoadContext } from '@remix-run/node'
import { facilitiesOf, type SessionUser } from '../auth/entitlements'
import { PLATFORM_ORG } from '../route-map'
import { SEGMENT_RE, topics } from './topics'

/** at most this many people are told (a facility has tens; the bus holds what it cannot send yet) */
const MAX_RECIPIENTS = 5000

/** The users who may enter `facility` (super included; blocked and retired accounts left out). */
export async function usersOfFacility(context: AppLoadContext, facility: string): Promise<string[]> {
  const out: string[] = []
  for (let offset = 0; out.length < MAX_RECIPIENTS; offset += 1000) {
    const page = await context.database.store.find(PLATFORM_ORG, 'users', {}, 1000, offset)
    for (const d of page) {
      const u = d as unknown as SessionUser & { IsUsed?: string }
      if (u.web === 'no' || u.IsUsed === 'no' || typeof u.uid !== 'string' || !SEGMENT_RE.test(u.uid)) continue
      if (facilitiesOf(u, [facility]).length) out.push(u.uid)
    }
    if (page.length < 1000) break
  }
  return out.slice(0, MAX_RECIPIENTS)
}

/** Publishes the notification of message `id` to every user of `facility`; answers how many. */
export async function announceGlobalMessage(context: AppLoadContext, facility: string, id: string): Promise<number> {
  const log = context.logger.child({ component: 'notifications' })
  if (!context.bus) return void log.warn({ facility, id }, 'global message not announced: no message bus'), 0
  if (!facility || !SEGMENT_RE.test(facility) || facility === PLATFORM_ORG) return 0
  const uids = await usersOfFacility(context, facility)
  for (const uid of uids) context.bus.publish(topics.notification(facility, uid), { id })
  log.info({ facility, id, users: uids.length }, 'global message announced')
  return uids.length
}
