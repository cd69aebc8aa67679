/**
 * Who may publish and subscribe where on the bus (issue 8): the server everywhere; a device
 * subscribes only under its own organisation (`{org}/…`, never a filter that could reach another
 * one) and publishes only on its own topic, `{org}/bcast/{its device id}` (its readings, weights,
 * tags: issue 20 item 4, so it cannot answer for another device, nor send table changes,
 * notifications, scan replies or device requests); a user only to their own notifications and
 * scanner topics. Pure, so the embedded broker and the Mosquitto provisioning apply the same rules
 * and tests can run them without a broker.
 */
import { SEGMENT_RE, topics } from './topics'

export type BusIdentity =
  | { kind: 'server' }
  | { kind: 'device'; org: string; deviceID: string }
  | { kind: 'user'; org: string; uid: string }

/** A filter or topic lies wholly under `{org}/`: first segment literal, every other one a plain name or a whole-segment wildcard. */
function underOrg(org: string, topic: string): boolean {
  if (!SEGMENT_RE.test(org)) return false
  const p = topic.split('/')
  if (p[0] !== org || p.length < 2) return false
  // wildcards only as whole segments; '#' only last
  return p.every((s, i) => (s === '#' ? i === p.length - 1 : s === '+' || SEGMENT_RE.test(s)))
}

export function mayPublish(id: BusIdentity, topic: string): boolean {
  if (/[+#\0]/.test(topic) || topic.startsWith('$')) return false
  if (id.kind === 'server') return true
  if (id.kind === 'device') return SEGMENT_RE.test(id.org) && SEGMENT_RE.test(id.deviceID) && topic === topics.bcast(id.org, id.deviceID)
  return topic === topics.scanresp(id.org, id.uid)
}

export function maySubscribe(id: BusIdentity, filter: string): boolean {
  if (filter.startsWith('$') || filter.includes('\0')) return false
  if (id.kind === 'server') return true
  if (id.kind === 'device') return underOrg(id.org, filter)
  return filter === `${id.org}/notification/${id.uid}` || filter === `${id.org}/scanreq/${id.uid}/0`
}

export function describe(id: BusIdentity): string {
  return id.kind === 'server' ? 'server' : id.kind === 'device' ? `device ${id.org}/${id.deviceID}` : `user ${id.org}/${id.uid}`
}
