/**
 * `{org}/notification/{uid}` (SPEC §7): the message carries the id of an object to fetch — a
 * global message (`inf_global`: title, body, expanded, from). The server reads it and sends that
 * user's open pages of that organisation a `notification` event (a toast, SPEC §8: top right,
 * 10 s, stays while hovered). A payload that is not `{id}`, or an id with no live message, is
 * logged and dropped.
 */
import type { Logger } from 'pino'
import { z } from 'zod'
import type { Database } from '../db/index.server'
import { PLATFORM_ORG } from '../route-map'
import type { EventHub } from '../events/event-hub.server'

const NOTE = z.object({ id: z.string().trim().min(1).max(64).regex(/^[A-Za-z0-9_-]+$/) }).passthrough()

export interface Notification {
  id: string
  title: string
  body: string
  from: string
  expanded: boolean
}

const text = (v: unknown, max: number) => (typeof v === 'string' ? v.slice(0, max) : '')

export function notificationHandler(o: { database: Database; events: EventHub; logger: Logger }) {
  const log = o.logger.child({ component: 'notifications' })
  return async (org: string, uid: string, body: unknown): Promise<void> => {
    const r = NOTE.safeParse(body)
    if (!r.success) return void log.warn({ org, uid, sample: JSON.stringify(body ?? null).slice(0, 80) }, 'notification without an object id: dropped')
    try {
      const d = (await o.database.schemas.hasCollection('inf_global')) ? await o.database.store.get(PLATFORM_ORG, 'inf_global', r.data.id) : null
      if (!d || d.IsUsed === 'no') return void log.warn({ org, uid, id: r.data.id }, 'notification for a message that does not exist: dropped')
      const n: Notification = { id: d._id, title: text(d.title, 200), body: text(d.body, 2000), from: text(d.from, 200), expanded: d.expanded === true || d.expanded === 'yes' }
      const pages = o.events.publishToUser(org, uid, 'notification', n)
      log.info({ org, uid, id: n.id, pages }, 'notification relayed')
    } catch (e) {
      log.warn({ org, uid, err: (e as Error).message }, 'notification could not be read: dropped')
    }
  }
}
