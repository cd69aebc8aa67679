/**
 * Computed (`function`) fields on the way in: the store (db/store.server.ts) sets each one from its
 * formula over the record as it will be stored, so every path that writes (form, API, import, row
 * action, METRC sync, seed) stores the same. An insert computes them all; an update of one record
 * recomputes only those whose inputs it changes, so a value nobody touched is never rewritten. The
 * form computes the same as the user types (components/form/computed-field.tsx).
 */
import { evaluateFormula, formulaFields, parseFormula, type Formula } from './formula'
import type { FieldDef, TableSchema } from './table-schema'

const parsed = new Map<string, Formula>()

/** The formula of a function field, parsed once per text (the schema already proved it reads). */
export function formulaOf(f: FieldDef): Formula {
  const src = f.formula ?? ''
  let p = parsed.get(src)
  if (!p) {
    p = parseFormula(src)
    if (parsed.size > 500) parsed.clear()
    parsed.set(src, p)
  }
  return p
}

/** The computed fields of a schema (top level). */
export const computedFields = (schema: TableSchema): FieldDef[] => schema.fields.filter((f) => f.type === 'function' && f.formula)

/** The sub-tables (array fields) with a computed column. */
const computedSubTables = (schema: TableSchema): FieldDef[] => schema.fields.filter((f) => f.array?.some((c) => c.type === 'function' && c.formula))

/**
 * `value` with its computed fields set: all of them for a create (`row` null), on an update those
 * whose formula reads a field `value` holds. A sub-table sent with `value` (it is always sent whole)
 * gets its computed columns set on each of its rows. Returns `value` itself when there is nothing to compute.
 */
export function withComputed(schema: TableSchema | undefined, value: Record<string, unknown>, row: Record<string, unknown> | null): Record<string, unknown> {
  const fields = schema ? computedFields(schema) : []
  const subs = schema ? computedSubTables(schema).filter((f) => Array.isArray(value[f.key])) : []
  if (!fields.length && !subs.length) return value
  const out = { ...value }
  const merged = { ...(row ?? {}), ...value }
  for (const f of fields) {
    const formula = formulaOf(f)
    if (row && !formulaFields(formula).some((n) => n in value)) continue
    const v = evaluateFormula(formula, merged)
    if (row && sameNumber(v, row[f.key])) continue
    out[f.key] = v
  }
  for (const f of subs) {
    const columns = f.array!.filter((c) => c.type === 'function' && c.formula)
    out[f.key] = (value[f.key] as unknown[]).map((r) => {
      if (!r || typeof r !== 'object' || Array.isArray(r)) return r
      const sub = { ...(r as Record<string, unknown>) }
      for (const c of columns) sub[c.key] = evaluateFormula(formulaOf(c), sub)
      return sub
    })
  }
  return out
}

const sameNumber = (a: number | null, b: unknown) => (a === null ? b === null || b === undefined : typeof b === 'number' && a === b)
