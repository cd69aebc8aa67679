/**
 * Keyboard shortcuts and the keyboard-wedge scanner (issue 31 item 2; decision 067), as pure functions
 * the shell's listener (components/keyboard-shortcuts.tsx) feeds with key events: which shortcut a key
 * is, whether the focus is somewhere that types, and whether a burst of keys was a scanner typing a tag.
 */

/** the shortcuts and what they do, in the order the help dialog lists them */
export const SHORTCUTS = [
  { keys: ['/'], does: 'Search the table' },
  { keys: ['n'], does: 'Add an item' },
  { keys: ['↓', '↑'], does: 'Move through the table rows' },
  { keys: ['Enter'], does: "Open the row's record" },
  { keys: ['?'], does: 'Show the keyboard shortcuts' },
] as const

export type Shortcut = 'search' | 'add' | 'help' | 'next' | 'previous' | 'open'

export interface KeyLike {
  key: string
  ctrlKey?: boolean
  altKey?: boolean
  metaKey?: boolean
}

/** the shortcut a key stands for (Shift is allowed: `?` needs it on most layouts); none with Ctrl, Alt or Meta held */
export function shortcutOf(e: KeyLike): Shortcut | null {
  if (e.ctrlKey || e.altKey || e.metaKey) return null
  switch (e.key) {
    case '/': return 'search'
    case 'n': return 'add'
    case '?': return 'help'
    case 'ArrowDown': return 'next'
    case 'ArrowUp': return 'previous'
    case 'Enter': return 'open'
    default: return null
  }
}

export interface TargetLike {
  tagName?: string
  isContentEditable?: boolean
  type?: string
}

const NOT_TYPING = new Set(['button', 'checkbox', 'radio', 'submit', 'reset', 'image', 'file', 'color', 'range', 'hidden'])

/** true where keys type text or pick a value: shortcuts and the scanner stay out of it */
export function isTyping(t: TargetLike | null | undefined): boolean {
  if (!t) return false
  if (t.isContentEditable) return true
  const tag = (t.tagName ?? '').toUpperCase()
  if (tag === 'TEXTAREA' || tag === 'SELECT') return true
  return tag === 'INPUT' && !NOT_TYPING.has((t.type ?? 'text').toLowerCase())
}

/** the index of the row to focus after ArrowDown/ArrowUp: from none, the first (or last); kept inside the table */
export function nextRow(current: number, count: number, dir: 1 | -1): number {
  if (count <= 0) return -1
  if (current < 0) return dir === 1 ? 0 : count - 1
  return Math.min(count - 1, Math.max(0, current + dir))
}

/**
 * A keyboard-wedge scanner types a code far faster than a person and ends it with Enter. `push` each
 * printable key with its time stamp (ms) and `enter` at Enter: it answers the code when at least
 * `minLength` characters came with no gap longer than `maxGapMs` (Enter included), else null. A slow key
 * starts a new burst, so a person's typing never adds up to a scan.
 */
export class WedgeDetector {
  private chars: string[] = []
  private last = -Infinity
  constructor(
    private readonly maxGapMs = 50,
    private readonly minLength = 4,
  ) {}

  push(key: string, at: number): void {
    if (key === 'Shift') return // a scanner holds Shift for capitals, as a keyboard does
    if (key.length !== 1) return this.reset()
    if (at - this.last > this.maxGapMs) this.chars = []
    this.chars.push(key)
    this.last = at
  }

  /** true while a burst is under way (its keys should not also act as shortcuts) */
  inBurst(at: number): boolean {
    return this.chars.length > 0 && at - this.last <= this.maxGapMs
  }

  enter(at: number): string | null {
    const code = this.chars.length >= this.minLength && at - this.last <= this.maxGapMs ? this.chars.join('') : null
    this.reset()
    return code
  }

  reset(): void {
    this.chars = []
    this.last = -Infinity
  }
}

/** where a scanned code goes on a table screen: its search by tag (or the table's first searchable column), `scan=1` so one match opens its record */
export function scanUrl(pathname: string, code: string, byTag: boolean): string {
  const q = new URLSearchParams()
  if (byTag) q.set('col', 'tag')
  q.set('q', code)
  q.set('scan', '1')
  return `${pathname}?${q}`
}
