/**
 * The message-bus topics of SPEC §7, built and read in one place. Every topic starts with the
 * organisation; an organisation or device id is one plain segment (no `/`, `+`, `#`, `$`).
 */
export const SEGMENT_RE = /^[A-Za-z0-9][A-Za-z0-9_.:@-]{0,79}$/

export type TopicKind = 'dtupdates' | 'notification' | 'bcast' | 'request' | 'scanreq' | 'scanresp'

export const topics = {
  dtupdates: (org: string) => `${org}/dtupdates`,
  notification: (org: string, uid: string) => `${org}/notification/${uid}`,
  bcast: (org: string, device: string) => `${org}/bcast/${device}`,
  request: (org: string, device: string) => `${org}/request/${device}`,
  scanreq: (org: string, uid: string) => `${org}/scanreq/${uid}/0`,
  scanresp: (org: string, uid: string) => `${org}/scanresp/${uid}/0`,
}

/** What the server subscribes to, for every organisation. */
export const SERVER_SUBSCRIPTIONS = ['+/dtupdates', '+/notification/+', '+/bcast/+', '+/scanresp/+/0']

export interface ParsedTopic {
  org: string
  kind: TopicKind
  /** the device or user id the topic names ('' for dtupdates) */
  subject: string
}

/** A concrete topic (no wildcards) of SPEC §7, or null for anything else. */
export function parseTopic(topic: string): ParsedTopic | null {
  const p = topic.split('/')
  if (p.length < 2 || !p.every((s) => SEGMENT_RE.test(s))) return null
  const [org, kind, subject = '', tail] = p
  if (kind === 'dtupdates' && p.length === 2) return { org, kind, subject: '' }
  if ((kind === 'notification' || kind === 'bcast' || kind === 'request') && p.length === 3) return { org, kind, subject }
  if ((kind === 'scanreq' || kind === 'scanresp') && p.length === 4 && tail === '0') return { org, kind, subject }
  return null
}

/** Does an MQTT topic filter (with + and #) match a topic? */
export function filterMatches(filter: string, topic: string): boolean {
  const f = filter.split('/')
  const t = topic.split('/')
  for (let i = 0; i < f.length; i++) {
    if (f[i] === '#') return true
    if (i >= t.length) return false
    if (f[i] !== '+' && f[i] !== t[i]) return false
  }
  return f.length === t.length
}
