/** The shell's Messages link and its unread count (the conversation the page is opening counts as read). */
import type { AppLoadContext } from '@remix-run/node'
import type { UnreadBadge } from '../../components/unread-link'
import { unreadCount } from './conversations.server'

export async function messagesBadge(context: AppLoadContext, uid: string, facility: string, screens: Set<string>, url: URL): Promise<UnreadBadge | null> {
  if (!screens.has('/MsgMessages')) return null
  // the root and page loaders run side by side: the one the page marks read is not counted here
  const opening = url.pathname === '/MsgMessages' ? url.searchParams.get('c') : null
  return { kind: 'messages', href: '/MsgMessages', label: 'Messages', count: await unreadCount(context.database, facility, uid, opening) }
}
