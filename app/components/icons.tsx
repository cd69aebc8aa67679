/**
 * The app's own icons: small line drawings in one inline SVG sprite (issue 33 item 5, issue 30: no
 * icon font, no request, the same on every tablet; an emoji may render as an empty box where the font
 * lacks it, issue 32 item 13). The drawings are defined once per page, in <IconSprite/> at the top of
 * the body (root.tsx); each icon is a <use> of its symbol, so a table page of 20 rows no longer
 * repeats the same paths hundreds of times. The drawings themselves (icon-drawings.tsx) are written
 * by the server alone: the browser keeps the sprite the page came with and neither renders, hydrates
 * nor downloads them (the drawer groups' paths excepted: GroupIcon looks them up; decision 077).
 * Each is decorative (aria-hidden): the control it sits in carries the words or an aria-label.
 */
import { createContext, useContext } from 'react'

/** The sprite's symbols as markup: the server's (entry.server.tsx hands it in, icon-sprite.server.tsx). */
export const SpriteMarkupContext = createContext<string | undefined>(undefined)

// in the browser: the symbols the page came with, read once before anything renders them again
let fromPage: string | undefined
function useSpriteMarkup(): string {
  const server = useContext(SpriteMarkupContext)
  if (server !== undefined) return server
  if (typeof document === 'undefined') return ''
  return (fromPage ??= document.getElementById('icon-sprite')?.firstElementChild?.innerHTML ?? '')
}

/** Every icon's drawing, once per page: static markup, the same on the server and after hydration. */
export function IconSprite() {
  return (
    <svg id="icon-sprite" aria-hidden width="0" height="0" style={{ position: 'absolute', width: 0, height: 0, overflow: 'hidden' }}>
      <defs dangerouslySetInnerHTML={{ __html: useSpriteMarkup() }} />
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
