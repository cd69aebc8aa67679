/**
 * What waits for the user, for the shell's top bar (root loader): each area that has an inbox
 * adds its badge here when the user's menu holds its screen.
 */
import type { AppLoadContext } from '@remix-run/node'
import type { UnreadBadge } from '../components/unread-link'
import { messagesBadge } from './messaging/badge.server'
import { supportBadge } from './support/badge.server'

export async function unreadBadges(context: AppLoadContext, uid: string, facility: string, screens: string[], url: URL): Promise<UnreadBadge[]> {
  const open = new Set(screens)
  const out: UnreadBadge[] = []
  const m = await messagesBadge(context, uid, facility, open, url)
  if (m) out.push(m)
  // Support is every signed-in user's (the top bar's button), not a menu entry
  out.push(await supportBadge(context, uid, facility, url))
  return out
}
