/**
 * The drawings of the app's icons (the sprite's symbols, ./icons.tsx): only the server renders them,
 * once, into the sprite's markup (icon-sprite.server.tsx); the browser's bundle does not carry them.
 */
import type { ReactNode } from 'react'
import { GROUP_PATHS, groupKey } from './drawer-icons'

/** Every drawing of the app, by name: the sprite's symbols (drawer-icons.tsx adds the drawer's groups). */
export const DRAWINGS: Record<string, ReactNode> = {
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

/** The drawer's drawings: each group's, and the collapse control's two. */
export const GROUP_DRAWINGS: Record<string, ReactNode> = {
  ...Object.fromEntries(Object.entries(GROUP_PATHS).map(([name, d]) => [groupKey(name), <path key={name} d={d} />])),
  'drawer-expand': <path d="M13 6l6 6-6 6M5 6l6 6-6 6" />,
  'drawer-collapse': <path d="M11 6l-6 6 6 6M19 6l-6 6 6 6" />,
}
