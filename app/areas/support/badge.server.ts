/** The shell's Support link with the staff replies the user has not read (the ticket the page is opening counts as read). */
import type { AppLoadContext } from '@remix-run/node'
import type { UnreadBadge } from '../../components/unread-link'
import { unreadReplies } from './tickets.server'

export async function supportBadge(context: AppLoadContext, uid: string, facility: string, url: URL): Promise<UnreadBadge> {
  const t = url.pathname === '/SupportTicket' ? (url.searchParams.get('t') ?? '') : ''
  const opening = t.startsWith(`${facility}:`) ? t.slice(facility.length + 1) : null
  return { kind: 'support', href: '/SupportTicket', label: 'Support', count: await unreadReplies(context, facility, uid, opening) }
}
