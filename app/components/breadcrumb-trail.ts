/**
 * The breadcrumbs of a screen or record page (issue 29 item 4; decision 061): module › screen ›
 * record, read from the drawer's own groups (so a crumb names only what the user is entitled to)
 * and the address. A record's crumb is what its route's `handle.crumb` says from its loader data
 * (the record's name), else the id in the address. No imports beyond types: the shell loads it.
 */
import { isCurrentScreen, type MenuGroupLike } from './menu-filter'

export interface Crumb {
  label: string
  /** a link to it; the last crumb (where the user is) has none */
  href?: string
}

/** Words for what follows a record's id in an address (/{screen}/{id}/history …). */
const AFTER_RECORD: Record<string, string> = { edit: 'Edit', history: 'History', trace: 'Trace', versions: 'Versions', signatures: 'Signatures', read: 'Read', members: 'Members' }

/**
 * The trail for `pathname`, or [] when it is no screen of the drawer (the start page, settings
 * pages, the general routes). `recordName`: the record's own name when its page knows it.
 */
export function breadcrumbTrail(menu: MenuGroupLike[], pathname: string, recordName?: string | null): Crumb[] {
  // the longest matching entry: /DisSales before a shorter one that happens to be its prefix
  let best: { group: string; path: string; title: string } | null = null
  for (const g of menu) for (const i of g.items) if (isCurrentScreen(i.path, pathname) && (!best || i.path.length > best.path.length)) best = { group: g.name, ...i }
  if (!best) return []
  const rest = pathname.replace(/\/+$/, '').slice(best.path.length).split('/').filter(Boolean).map(safeDecode)
  const trail: Crumb[] = [{ label: best.group }, { label: best.title, href: best.path }]
  if (rest[0] === 'new') trail.push({ label: 'New record' })
  else if (rest[0] === 'act') trail.push({ label: 'Selected records' })
  else if (rest.length) {
    const record = recordName || rest[0]
    const after = rest[1] && AFTER_RECORD[rest[1]]
    // the record's name leads to its own page (/{screen}/{id}, issue 33 item 4)
    if (after) trail.push({ label: record, href: `${best.path}/${encodeURIComponent(rest[0])}` }, { label: after })
    else trail.push({ label: record })
  }
  delete trail[trail.length - 1].href
  return trail
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s)
  } catch {
    return s
  }
}
