/** The outbox screen's tabs and the statuses each shows (shared by the server and the browser). */
export const OUTBOX_TABS = { attention: ['failed', 'held'], queued: ['pending', 'sent'], done: ['confirmed', 'discarded'] } as const
export type OutboxTab = keyof typeof OUTBOX_TABS
