/**
 * The app's own icons: small line drawings in one inline SVG sprite (issue 33 item 5, issue 30: no
 * icon font, no request, the same on every tablet; an emoji may render as an empty box where the font
 * lacks it, issue 32 item 13). The drawings are defined once per page, in <IconSprite/> at the top of
 * the body (root.tsx); each icon is a <use> of its symbol, so a table page of 20 rows no longer
 * repeats the same paths hundreds of times. Each is decorative (aria-hidden): the control it sits in
 * carries the words or an aria-label.
 */
import type { ReactNode } from 'react'

/** Every drawing of the app, by name: the sprite's symbols (drawer-icons.tsx adds the drawer's groups). */
const DRAWINGS: Record<string, ReactNode> = {
  'calendar': (
    <>
      <rect x="3" y="5" width="18" height="16" rx="2" />
      <path d="M16 3v4M8 3v4M3 10h18" />
    </>
  ),
  'search': (
    <>
      <circle cx="11" cy="11" r="7" />
      <path d="m20 20-3.5-3.5" />
    </>
  ),
  'hide': (
    <>
      <path d="M3 3l18 18M10.6 10.6a2 2 0 0 0 2.8 2.8M9.9 5.1A9.8 9.8 0 0 1 12 5c5 0 9 5 10 7a17 17 0 0 1-3.2 4.2M6.6 6.6C4.4 8 2.9 10.2 2 12c1 2 5 7 10 7a9.6 9.6 0 0 0 5.4-1.6" />
    </>
  ),
  'open': (
    <>
      <path d="M14 3H6a2 2 0 0 0-2 2v14a2 2 0 0 0 2 2h12a2 2 0 0 0 2-2V9Z" />
      <path d="M14 3v6h6M8 13h8M8 17h5" />
    </>
  ),
  'edit': (
    <>
      <path d="M12 20h9M16.5 3.5a2.1 2.1 0 0 1 3 3L7 19l-4 1 1-4Z" />
    </>
  ),
  'delete': (
    <>
      <path d="M3 6h18M8 6V4h8v2M19 6l-1 14H6L5 6M10 11v6M14 11v6" />
    </>
  ),
  'trace': (
    <>
      <circle cx="5" cy="6" r="2" />
      <circle cx="12" cy="18" r="2" />
      <circle cx="19" cy="6" r="2" />
      <path d="M6.2 7.7 10.8 16.3M17.8 7.7 13.2 16.3" />
    </>
  ),
  'plus': (
    <>
      <path d="M12 5v14M5 12h14" />
    </>
  ),
  'refresh': (
    <>
      <path d="M21 12a9 9 0 1 1-2.6-6.4M21 3v6h-6" />
    </>
  ),
  'download': (
    <>
      <path d="M12 3v12M7 10l5 5 5-5M4 21h16" />
    </>
  ),
  'menu': (
    <>
      <path d="M4 6h16M4 12h16M4 18h16" />
    </>
  ),
  'user': (
    <>
      <circle cx="12" cy="8" r="4" />
      <path d="M4 21a8 8 0 0 1 16 0" />
    </>
  ),
  'printer': (
    <>
      <path d="M6 9V3h12v6M6 18H4a2 2 0 0 1-2-2v-5a2 2 0 0 1 2-2h16a2 2 0 0 1 2 2v5a2 2 0 0 1-2 2h-2" />
      <rect x="6" y="14" width="12" height="7" />
    </>
  ),
  'close': (
    <>
      <path d="M18 6 6 18M6 6l12 12" />
    </>
  ),
  'attachment': (
    <>
      <path d="m21 11-8.6 8.6a5.5 5.5 0 0 1-7.8-7.8l8.6-8.6a3.7 3.7 0 0 1 5.2 5.2l-8.6 8.6a1.8 1.8 0 0 1-2.6-2.6L15 6.6" />
    </>
  ),
  'warning': (
    <>
      <path d="M10.3 3.9 1.8 18a2 2 0 0 0 1.7 3h17a2 2 0 0 0 1.7-3L13.7 3.9a2 2 0 0 0-3.4 0ZM12 9v4M12 17h.01" />
    </>
  ),
  'check': (
    <>
      <path d="M20 6 9 17l-5-5" />
    </>
  ),
  'dot': (
    <>
      <circle cx="12" cy="12" r="2" fill="currentColor" />
    </>
  ),
}

/** The symbols of every drawing (`extra`: more by name, the drawer's groups), once per page. */
export function IconSprite({ extra = {} }: { extra?: Record<string, ReactNode> }) {
  return (
    <svg aria-hidden width="0" height="0" style={{ position: 'absolute', width: 0, height: 0, overflow: 'hidden' }}>
      <defs>
        {Object.entries({ ...DRAWINGS, ...extra }).map(([name, drawing]) => (
          <symbol key={name} id={`i-${name}`} viewBox="0 0 24 24">
            {drawing}
          </symbol>
        ))}
      </defs>
    </svg>
  )
}

/** One icon: a <use> of its symbol in the sprite; its size and stroke come from the `.i` class (tailwind.css), once for all. */
export const SpriteIcon = ({ name, size = 16 }: { name: string; size?: 16 | 20 }) => (
  <svg aria-hidden className={size === 20 ? 'i i-20' : 'i'}>
    <use href={`#i-${name}`} />
  </svg>
)

export const CalendarIcon = () => <SpriteIcon name="calendar" />
export const SearchIcon = () => <SpriteIcon name="search" />
export const HideIcon = () => <SpriteIcon name="hide" />
export const OpenIcon = () => <SpriteIcon name="open" />
export const EditIcon = () => <SpriteIcon name="edit" />
export const DeleteIcon = () => <SpriteIcon name="delete" />
/** a record's trace: where it came from and where it went (three linked nodes) */
export const TraceIcon = () => <SpriteIcon name="trace" />
export const PlusIcon = () => <SpriteIcon name="plus" />
export const RefreshIcon = () => <SpriteIcon name="refresh" />
export const DownloadIcon = () => <SpriteIcon name="download" />
export const MenuIcon = () => <SpriteIcon name="menu" />
export const UserIcon = () => <SpriteIcon name="user" />
export const PrinterIcon = () => <SpriteIcon name="printer" />
export const CloseIcon = () => <SpriteIcon name="close" />
export const AttachmentIcon = () => <SpriteIcon name="attachment" />
export const WarningIcon = () => <SpriteIcon name="warning" />
export const CheckIcon = () => <SpriteIcon name="check" />
export const DotIcon = () => <SpriteIcon name="dot" />
