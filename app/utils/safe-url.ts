/**
 * The one URL-safety rule (issue 20 item 2), used by every redirect built from input and every
 * stored link a page shows. A browser is generous with addresses: it drops tab, CR and LF anywhere,
 * strips leading and trailing spaces and control characters, and reads `\` as `/`; so `/\t/evil`,
 * `/\evil` and `\/evil` all become `//evil`, another site. Rather than list payloads, an address is
 * resolved the way a browser resolves it (the WHATWG URL parser) against a placeholder origin, and
 * only what stays on that origin is ours. Control characters and backslashes are refused outright:
 * a path of this site never needs them.
 */

const HOME = 'http://canopy.invalid'
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/

/** An address inside this site (a path, its query and fragment) as the browser will read it, else null. */
export function safePath(p: string | null | undefined): string | null {
  if (typeof p !== 'string' || !p.startsWith('/') || CONTROL.test(p) || p.includes('\\')) return null
  let u: URL
  try {
    u = new URL(p, HOME)
  } catch {
    return null
  }
  if (u.origin !== HOME) return null
  // the parsed form: percent-encoded, so it is always a valid Location header
  return u.pathname + u.search + u.hash
}

/** What an address may be when a stored record links to it. */
export type LinkKind = 'link' | 'image'

/**
 * A stored link's address as it may be put in an href or src, else null: a path of this site
 * (safePath), a fragment (links only), or an absolute https address (http, mailto and tel too for
 * links). A scheme is read as the browser reads it (`java\tscript:` is `javascript:`).
 */
export function safeLink(href: string | null | undefined, kind: LinkKind = 'link'): string | null {
  if (typeof href !== 'string') return null
  const s = href.trim()
  if (!s || CONTROL.test(s) || s.includes('\\')) return null
  if (s.startsWith('/')) return safePath(s)
  if (s.startsWith('#')) return kind === 'link' ? s : null
  let u: URL
  try {
    u = new URL(s)
  } catch {
    return null
  }
  const ok = kind === 'link' ? ['http:', 'https:', 'mailto:', 'tel:'] : ['https:']
  return ok.includes(u.protocol) ? s : null
}

/** A stored file reference as a safe address: web links and our own paths as they are, bare names from the organisation's files. */
export function fileHref(v: unknown, org: string): string | null {
  if (typeof v !== 'string' || !v.trim()) return null
  const s = v.trim()
  // a web address or a path of this site only through the one URL-safety rule; anything else is a stored file's name
  const link = /^https?:/i.test(s) || s.startsWith('/') ? safeLink(s) : null
  if (link) return link
  return `/getfiles/${encodeURIComponent(org)}/${encodeURIComponent(s)}`
}
