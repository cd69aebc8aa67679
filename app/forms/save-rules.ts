/**
 * Save rules of SPEC §5, the checks a table runs on a whole record before it is saved (SPEC §4: a
 * save callback answers stop, continue or an error text shown in an error dialog, and the save is
 * rejected). They run after the field checks of record-schema.ts, on the record as it will be
 * stored (for a partial API update: the stored record merged with the change), on server and browser.
 * Pure: no zod, no server imports.
 */
import { isYes } from '../format/format'
import { quantity } from '../format/units'
import { parseScannerField, SCANNER_FIELD_MESSAGE } from './scanner-setting'

export interface SaveContext {
  mode: 'create' | 'update'
}
export type SaveResult = { kind: 'continue' } | { kind: 'stop' } | { kind: 'error'; message: string; fields?: string[] }
export type SaveError = Extract<SaveResult, { kind: 'error' }>
/** `always`: the fields the rule needs whatever else the record holds (the form marks them required). */
export type SaveRule = ((record: Record<string, unknown>, ctx: SaveContext) => SaveResult) & { always?: readonly string[] }

/** The SPEC §5 texts, word for word (the phrase map translates them, the list prefix on its own). */
export const SAVE_MSG = {
  deadPlant: 'Waste Method, Mix Material and Dead Weight should all be specified',
  emptyFields: 'The following fields can not be empty:',
  originalCount: 'Original Count must be between 1 and 100',
} as const

/** "The following fields can not be empty: Strain, Room" (the separator of the help page's example). */
export const emptyFieldsMessage = (labels: string[]) => `${SAVE_MSG.emptyFields} ${labels.join(', ')}`

const CONTINUE: SaveResult = { kind: 'continue' }
const error = (message: string, fields?: string[]): SaveResult => ({ kind: 'error', message, ...(fields?.length ? { fields } : {}) })

/** A value was given: not absent, blank, an empty list, or a measure without a quantity. */
export function isGiven(v: unknown): boolean {
  if (v === undefined || v === null) return false
  if (typeof v === 'string') return v.trim() !== ''
  if (Array.isArray(v)) return v.length > 0
  if (typeof v === 'object' && 'qty' in v) return quantity((v as { qty: unknown }).qty) !== null
  return true
}

// ---------------------------------------------------------------- fac_plants

const DISPOSAL = ['waste_method', 'mix_material', 'dead_weight'] as const

/** A plant marked dead needs how it was destroyed: waste method, mix material and dead weight, all three. */
export const deadPlantDisposal: SaveRule = (r) => {
  if (!isYes(r.mark_as_dead)) return CONTINUE
  const missing = DISPOSAL.filter((k) => !isGiven(r[k]))
  return missing.length ? error(SAVE_MSG.deadPlant, missing) : CONTINUE
}

// ---------------------------------------------------------------- fac_plantings

/** The planting fields that can not be empty, in the order SPEC §5 lists them, with their form labels. */
export const PLANTING_REQUIRED = [
  { key: 'strain', label: 'Strain' },
  { key: 'room', label: 'Room' },
  { key: 'mtag', label: 'Tag Number' },
  { key: 'origin', label: 'Source Pkg' },
] as const

const isSeed = (type: unknown) => typeof type === 'string' && type.trim().toLowerCase() === 'seed'

/** Strain, Room and the tag number are always needed; Source Pkg too, unless the planting is from seed. */
export const plantingRequired: SaveRule = Object.assign(
  (r: Record<string, unknown>) => {
    const empty = PLANTING_REQUIRED.filter((f) => !(f.key === 'origin' && isSeed(r.type)) && !isGiven(r[f.key]))
    return empty.length ? error(emptyFieldsMessage(empty.map((f) => f.label)), empty.map((f) => f.key)) : CONTINUE
  },
  { always: ['strain', 'room', 'mtag'] },
)

/** Original Count is a whole number from 1 to 100 (SPEC §9). */
export const plantingOriginalCount: SaveRule = Object.assign(
  (r: Record<string, unknown>) => {
    const count = quantity(r.orig)
    return count !== null && Number.isInteger(count) && count >= 1 && count <= 100 ? CONTINUE : error(SAVE_MSG.originalCount, ['orig'])
  },
  { always: ['orig'] },
)

// ---------------------------------------------------------------- sen_scanner_settings

/** A scanner setting's field is a field name, or `name:prt` / `name:more` (SPEC §3, devices/scanner-setting.ts). */
export const scannerSettingField: SaveRule = Object.assign(
  (r: Record<string, unknown>) => (parseScannerField(r.field) ? CONTINUE : error(SCANNER_FIELD_MESSAGE, ['field'])),
  { always: ['field'] },
)

// ---------------------------------------------------------------- registry

/** Rules per table, run in order: every error is reported (the form shows them all at once); with none, a stop saves nothing. */
export const SAVE_RULES: Record<string, SaveRule[]> = {
  fac_plants: [deadPlantDisposal],
  fac_plantings: [plantingRequired, plantingOriginalCount],
  sen_scanner_settings: [scannerSettingField],
}

/**
 * A business area adds the rules of its own tables (app/areas, decision 022); installAreas() calls
 * this in the browser and on the server alike, so every write path runs them. Idempotent.
 */
export function registerSaveRules(table: string, ...rules: SaveRule[]): void {
  const list = (SAVE_RULES[table] ??= [])
  for (const r of rules) if (!list.includes(r)) list.push(r)
}

export const hasSaveRules = (table: string): boolean => Object.hasOwn(SAVE_RULES, table) && SAVE_RULES[table].length > 0

const rulesOf = (table: string): SaveRule[] => (Object.hasOwn(SAVE_RULES, table) ? SAVE_RULES[table] : [])

/** Every rule of the table on the record: all their errors (in rule order), and whether one said stop. */
export function checkSaveRules(table: string, record: Record<string, unknown>, ctx: SaveContext): { errors: SaveError[]; stop: boolean } {
  const errors: SaveError[] = []
  let stop = false
  for (const rule of rulesOf(table)) {
    const result = rule(record, ctx)
    if (result.kind === 'error') errors.push(result)
    else if (result.kind === 'stop') stop = true
  }
  return { errors, stop }
}

/** The first error of the table's rules, else stop when one says so, else continue (also for a table without rules). */
export function runSaveRules(table: string, record: Record<string, unknown>, ctx: SaveContext): SaveResult {
  const { errors, stop } = checkSaveRules(table, record, ctx)
  return errors[0] ?? (stop ? { kind: 'stop' } : CONTINUE)
}

/** The fields the table's save rules always need (a planting's Strain, Room, Tag Number, Original Count): the form marks them required. */
export function ruleRequired(table: string): string[] {
  return [...new Set(rulesOf(table).flatMap((r) => r.always ?? []))]
}
