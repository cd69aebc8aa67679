/** What every dashboard page gets from its loader: the period, tiles, charts and lists (browser-safe types). */
import type { Chart, Kpi } from './charts/types'
import type { Period } from './period'

export interface ListBlock {
  title: string
  head: string[]
  rows: Array<{ cells: Array<{ text: string; href?: string; count?: number; tone?: 'bad' | 'warn' }> }>
  empty: string
}

export interface Board {
  path: string
  title: string
  period: Period
  notices: string[]
  tiles: Kpi[]
  charts: Chart[]
  lists: ListBlock[]
  /** collections whose changes refresh the page (live, with JavaScript) */
  watch: string[]
}
