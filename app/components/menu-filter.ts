/**
 * The side drawer's filter (SPEC §2.1; decision 061): the words typed narrow the drawer to the
 * screens whose title, or whose group's name, holds them, in the user's language or in English.
 * Shared by the server (the no-JavaScript GET form, `?menu=`) and the browser (as one types).
 * The shell loads it on every page: it imports one constant.
 */
import { MENU_FILTER_PARAM, viewSearch } from '../screens/table-url'

export { MENU_FILTER_PARAM }
export interface MenuEntry {
  path: string
  title: string
}
export interface MenuGroupLike {
  name: string
  items: MenuEntry[]
}


const words = (s: string) => s.toLowerCase().normalize('NFD').replace(/[\u0300-\u036f]/g, '')

/** The groups and screens that match `query` (all of them for an empty query); empty groups are left out. */
export function filterMenu<G extends MenuGroupLike>(menu: G[], query: string, t: (key: string) => string = (k) => k): G[] {
  const q = words(query.trim())
  if (!q) return menu
  const has = (text: string) => words(text).includes(q) || words(t(text)).includes(q)
  return menu.map((g) => (has(g.name) ? g : { ...g, items: g.items.filter((i) => has(i.title)) })).filter((g) => g.items.length > 0)
}

/** Is `path` (a drawer entry) the screen at `pathname`, or the screen a record page at `pathname` belongs to? */
export function isCurrentScreen(path: string, pathname: string): boolean {
  const p = path.toLowerCase()
  const here = pathname.toLowerCase().replace(/\/+$/, '')
  return here === p || here.startsWith(`${p}/`)
}

/** The drawer's group of the user's pinned saved views (decision 073). */
export const PINNED_GROUP = 'Pinned views'

/** Is the page at `pathname` + `search` the saved view `href` opens (the same screen and the same settings)? */
export function isCurrentView(href: string, pathname: string, search: string): boolean {
  const i = href.indexOf('?')
  const path = i < 0 ? href : href.slice(0, i)
  return path.toLowerCase() === pathname.toLowerCase().replace(/\/+$/, '') && viewSearch(i < 0 ? '' : href.slice(i + 1)) === viewSearch(search)
}
