/** What the cultivation actions share: rooms and strains by name, the form's values, refusals. */
import type { Doc } from '../../db/types'
import type { ActionContext, ActionInput, AskField } from '../../records/row-actions.server'
import { badInput } from '../../utils/errors'
import { dayOf, positive } from './rules'

export type Opt = Array<{ value: string; label: string }>

/** The facility's rooms as options (id → name). */
export async function roomOptions(c: ActionContext): Promise<Opt> {
  const rooms = await c.store.find(c.org, 'set_rooms', {}, 500)
  return rooms.map((r) => ({ value: r._id, label: String(r.name ?? r._id) })).sort((a, b) => a.label.localeCompare(b.label))
}

export const optionsOf = (values: readonly string[]): Opt => values.map((v) => ({ value: v, label: v }))

/** A room's name (for the words on the confirm page), '' when unknown. */
export async function roomName(c: ActionContext, id: unknown): Promise<string> {
  return typeof id === 'string' && id ? String((await c.record('set_rooms', id))?.name ?? '') : ''
}

/** The room the form names: it must be one of this facility's. */
export async function roomOf(c: ActionContext, input: ActionInput, key = 'room', label = 'Room'): Promise<{ id: string; name: string }> {
  const id = input.get(key)
  const name = await roomName(c, id)
  if (!id || !name) throw badInput(`${label}: choose one of this facility's rooms.`)
  return { id, name }
}

export function dateOf(input: ActionInput, key = 'date'): string {
  const d = dayOf(input.get(key))
  if (!d) throw badInput('Date: use the date picker (YYYY-MM-DD).')
  return d
}

export function needPositive(input: ActionInput, key: string, label: string): number {
  const n = positive(input.get(key))
  if (n === null) throw badInput(`${label}: enter a number more than 0.`)
  return n
}

export const today = () => new Date().toISOString().slice(0, 10)
export const dateAsk = (label = 'Date'): AskField => ({ key: 'date', label, kind: 'date', value: today() })

/** "Plants 1A4…01, 1A4…02 and 3 more" */
export function some(rows: Doc[], label: (r: Doc) => string, n = 3): string {
  const names = rows.slice(0, n).map(label)
  return rows.length > n ? `${names.join(', ')} and ${rows.length - n} more` : names.join(', ')
}

/** Refuses when some rows cannot take the action: "3 plants cannot move: …". Nothing is changed. */
export function refuseSome(rows: Doc[], why: (r: Doc) => string | null, label: (r: Doc) => string, what: string) {
  const bad = rows.map((r) => ({ r, w: why(r) })).filter((x) => x.w)
  if (bad.length) throw badInput(`${bad.length} of the ${rows.length} selected ${what}: ${bad.slice(0, 5).map((x) => `${label(x.r)} (${x.w})`).join(', ')}${bad.length > 5 ? ', …' : ''}. Nothing was changed.`)
}

/** "12 plants" / "1 plant" */
export const count = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`
