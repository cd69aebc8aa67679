/**
 * Table schemas: the record that describes one collection's columns and form fields.
 *
 * SPEC §3 allows two stored shapes. Shape A: a list of items (key, label, pos, align, show,
 * ro, en, filter, format, type) plus a list of read-only fields. Shape B: `headers` (text,
 * value, format, show, class, align, component) and `editables` (name, readonly,
 * datetimepicker, measure, units, remote, array, headerTable, arrayTable, dir).
 * Both are accepted; `normalizeSchema` turns either into the one canonical shape we store.
 * This module is shared by server and browser: no server imports.
 */
import { z } from 'zod'
import { FormulaError, formulaFields, parseFormula } from './formula'

export const FIELD_TYPES = [
  'text', 'number', 'date', 'remote', 'code', 'fileDND', 'currency', 'textarea', 'measure',
  'list', 'multilist', 'status', 'gaugearray', 'document', 'function', 'array', 'check',
] as const
export type FieldType = (typeof FIELD_TYPES)[number]

/** Display formats of SPEC §2.5 (a column's `format`). `id:<table>:<labelField>` references another table. */
export const DISPLAY_FORMATS = [
  'date', 'currency', 'measure', 'tax', 'image', 'pdf', 'check', 'array', 'trim', 'qrcode', 'status',
] as const

/** The table and label field a display format `id:<table>:<labelField>` names, or null for any other format. */
export function referencedBy(format: string | undefined): { table: string; labelField: string } | null {
  const m = /^id:([a-z][a-z0-9_]{0,50}):([A-Za-z_][A-Za-z0-9_]{0,62})$/.exec(format ?? '')
  return m ? { table: m[1], labelField: m[2] } : null
}

// measure units live with the conversions (no zod there, so the browser's table screen stays small)
export { MEASURE_UNITS, type MeasureUnit } from '../format/units'

const fieldKey = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]{0,62}$/, 'a field key is letters, digits and _ (max 63)')

export interface FieldDef {
  key: string
  label: string
  pos: number
  align: 'left' | 'center' | 'right'
  show: boolean
  ro: boolean
  type: FieldType
  format?: string
  /** searchable from the column filter icon */
  filter: boolean
  /** gets an index so sorting on it stays fast */
  sortable: boolean
  required: boolean
  en?: { list?: string[]; table?: string; labelField?: string; dir?: string }
  min?: number
  max?: number
  units?: string[]
  remote?: boolean
  scanner?: 'rfid' | 'scale'
  /** a `function` field's formula over the record's other fields (forms/formula.ts); it is computed, never typed */
  formula?: string
  /** the form's section the field is shown in ("Weights"); fields without one come first, under "Details" */
  group?: string
  /** columns of an array sub-table */
  array?: FieldDef[]
}

export interface TableSchema {
  key: string
  label: string
  /** one record, in lower case ("planting"): the new-record form's title says "New planting" (forms/record-title.ts) */
  singular?: string
  /** editable tables show Add / edit / delete */
  editable: boolean
  fields: FieldDef[]
  readonly: string[]
  /** default date field for the date-range filter */
  dateField?: string
  /** field driving the status dot, if any */
  statusField?: string
  defaultSort?: { key: string; dir: 'asc' | 'desc' }
  /**
   * Row actions its table screen offers for selected rows (decision 038): the toolbar shows them
   * when rows are selected; each opens /{screen}/act/{key}, a confirm page, and runs in one
   * transaction. The work itself is registered by an area (records/row-actions.server.ts).
   */
  actions?: RowActionDecl[]
}

/** One row action a table declares: its key (the URL), its label, and how many rows it takes. */
export interface RowActionDecl {
  key: string
  label: string
  /** fewest / most selected rows it acts on (1/1: "Tag plants" of one batch) */
  min?: number
  max?: number
}

const actionDecl = z.object({ key: z.string().regex(/^[a-z][a-z0-9-]{0,40}$/, 'an action key is lower-case letters, digits and -'), label: z.string().min(1).max(80), min: z.number().int().min(0).optional(), max: z.number().int().min(1).optional() })

const yesNo = z.union([z.boolean(), z.string()]).transform((v) => v === true || v === 'yes' || v === 'true')

const enSchema = z
  .object({
    list: z.array(z.string()).optional(),
    table: z.string().optional(),
    labelField: z.string().optional(),
    dir: z.string().optional(),
  })
  .passthrough()

type RawItem = {
  key: string
  label?: string
  pos?: number
  align?: 'left' | 'center' | 'right'
  show?: unknown
  ro?: unknown
  en?: z.infer<typeof enSchema>
  filter?: unknown
  sortable?: unknown
  required?: unknown
  format?: string
  type?: string
  min?: number
  max?: number
  units?: string[]
  remote?: unknown
  scanner?: 'rfid' | 'scale'
  formula?: string
  group?: string
  array?: RawItem[]
}

// z.lazy calls its getter on every parse: build the object once, not once per item per read (a
// schema read built hundreds of zod objects, ~2 ms a table screen under the profiler)
let itemObject: z.ZodType<RawItem> | undefined
const itemSchema: z.ZodType<RawItem> = z.lazy(() =>
  (itemObject ??= z.object({
    key: fieldKey,
    label: z.string().max(200).optional(),
    pos: z.number().optional(),
    align: z.enum(['left', 'center', 'right']).optional(),
    show: z.unknown().optional(),
    ro: z.unknown().optional(),
    en: enSchema.optional(),
    filter: z.unknown().optional(),
    sortable: z.unknown().optional(),
    required: z.unknown().optional(),
    format: z.string().max(200).optional(),
    type: z.string().optional(),
    min: z.number().optional(),
    max: z.number().optional(),
    units: z.array(z.string()).optional(),
    remote: z.unknown().optional(),
    scanner: z.enum(['rfid', 'scale']).optional(),
    formula: z.string().max(500).optional(),
    group: z.string().trim().min(1).max(80).optional(),
    array: z.array(itemSchema).optional(),
  })),
)

const tableKey = z.string().regex(/^[a-z][a-z0-9_]{0,50}$/, 'a table key is lower-case letters, digits and _ (max 51)')

/** Shape A of SPEC §3 (also what we store, with defaults filled in). */
export const shapeASchema = z.object({
  key: tableKey,
  label: z.string().max(200).optional(),
  singular: z.string().min(1).max(80).optional(),
  editable: z.unknown().optional(),
  items: z.array(itemSchema).min(1),
  readonly: z.array(z.string()).optional(),
  dateField: z.string().optional(),
  statusField: z.string().optional(),
  defaultSort: z.object({ key: z.string(), dir: z.enum(['asc', 'desc']) }).optional(),
  actions: z.array(actionDecl).max(30).optional(),
})

/** Shape B of SPEC §3. */
export const shapeBSchema = z.object({
  key: tableKey,
  label: z.string().max(200).optional(),
  editable: z.unknown().optional(),
  headers: z
    .array(
      z.object({
        text: z.string(),
        value: fieldKey,
        format: z.string().optional(),
        show: z.unknown().optional(),
        class: z.string().optional(),
        align: z.enum(['left', 'center', 'right']).optional(),
        component: z.string().optional(),
        formula: z.string().max(500).optional(),
        group: z.string().trim().min(1).max(80).optional(),
      }),
    )
    .min(1),
  editables: z
    .array(
      z.object({
        name: fieldKey,
        readonly: z.unknown().optional(),
        datetimepicker: z.unknown().optional(),
        measure: z.unknown().optional(),
        units: z.array(z.string()).optional(),
        remote: z.unknown().optional(),
        array: z.unknown().optional(),
        headerTable: z.array(z.object({ text: z.string(), value: fieldKey })).optional(),
        arrayTable: z.string().optional(),
        dir: z.string().optional(),
      }),
    )
    .optional(),
  dateField: z.string().optional(),
  statusField: z.string().optional(),
})

function bool(v: unknown, dflt: boolean): boolean {
  if (v === undefined || v === null || v === '') return dflt
  return yesNo.parse(v as boolean | string)
}

function typeOf(raw: string | undefined, format: string | undefined): FieldType {
  if (raw && (FIELD_TYPES as readonly string[]).includes(raw)) return raw as FieldType
  if (raw === 'datetime') return 'date'
  if (format === 'date') return 'date'
  if (format === 'currency') return 'currency'
  if (format === 'measure' || format?.startsWith('measure:')) return 'measure'
  if (format === 'check') return 'check'
  if (format === 'array') return 'array'
  return 'text'
}

function normItem(it: RawItem, i: number, readonly: Set<string>): FieldDef {
  const type = typeOf(it.type, it.format)
  const f: FieldDef = {
    key: it.key,
    label: it.label ?? it.key,
    pos: it.pos ?? i + 1,
    align: it.align ?? (type === 'currency' || type === 'number' || type === 'measure' ? 'right' : 'left'),
    show: bool(it.show, true),
    ro: bool(it.ro, false) || readonly.has(it.key),
    type,
    filter: bool(it.filter, false),
    sortable: bool(it.sortable, false),
    required: bool(it.required, false),
  }
  if (it.format) f.format = it.format
  if (it.en) f.en = it.en
  if (it.min !== undefined) f.min = it.min
  if (it.max !== undefined) f.max = it.max
  if (it.units) f.units = it.units
  if (it.remote !== undefined) f.remote = bool(it.remote, false)
  if (it.scanner) f.scanner = it.scanner
  if (it.group) f.group = it.group
  // a function field is computed from its formula, never typed: read-only in every form and API
  if (type === 'function') {
    f.ro = true
    f.formula = it.formula ?? ''
  }
  if (it.array) f.array = it.array.map((a, j) => normItem(a, j, new Set()))
  return f
}

/** Accepts shape A, shape B or an already canonical schema; returns the canonical shape. Throws a ZodError on bad input. */
export function normalizeSchema(input: unknown): TableSchema {
  const obj = (input ?? {}) as Record<string, unknown>
  if (Array.isArray(obj.headers)) {
    const b = shapeBSchema.parse(input)
    const eds = new Map((b.editables ?? []).map((e) => [e.name, e]))
    const readonly = new Set<string>()
    const items: RawItem[] = b.headers.map((h, i) => {
      const e = eds.get(h.value)
      if (!e || bool(e.readonly, false)) readonly.add(h.value)
      const type = bool(e?.datetimepicker, false)
        ? 'date'
        : bool(e?.measure, false)
          ? 'measure'
          : e?.array
            ? 'array'
            : bool(e?.remote, false)
              ? 'remote'
              : h.component
      return {
        key: h.value,
        label: h.text,
        pos: i + 1,
        align: h.align,
        show: h.show,
        format: h.format,
        type,
        units: e?.units,
        remote: e?.remote,
        formula: h.formula,
        group: h.group,
        en: e?.dir || e?.arrayTable ? { dir: e?.dir, table: e?.arrayTable } : undefined,
        array: e?.headerTable?.map((t) => ({ key: t.value, label: t.text })),
      }
    })
    // editables not shown as headers are still form fields
    for (const e of b.editables ?? []) {
      if (!items.some((it) => it.key === e.name)) items.push({ key: e.name, show: 'no', ro: e.readonly })
    }
    return finish({ key: b.key, label: b.label, editable: b.editable, items, readonly: [...readonly], dateField: b.dateField, statusField: b.statusField })
  }
  if (Array.isArray(obj.fields) && !Array.isArray(obj.items)) {
    return normalizeSchema({ ...obj, items: obj.fields })
  }
  return finish(shapeASchema.parse(input))
}

function finish(a: z.infer<typeof shapeASchema>): TableSchema {
  const ro = new Set(a.readonly ?? [])
  const seen = new Set<string>()
  const fields = a.items
    .map((it, i) => normItem(it, i, ro))
    .filter((f) => (seen.has(f.key) ? false : (seen.add(f.key), true)))
    .sort((x, y) => x.pos - y.pos)
  const dateField = a.dateField ?? fields.find((f) => f.type === 'date')?.key
  const s: TableSchema = {
    key: a.key,
    label: a.label ?? a.key,
    ...(a.singular ? { singular: a.singular } : {}),
    editable: bool(a.editable, true),
    fields,
    readonly: [...ro],
    ...(dateField ? { dateField } : {}),
    ...(a.statusField ? { statusField: a.statusField } : {}),
    ...(a.defaultSort ? { defaultSort: a.defaultSort } : {}),
    ...(a.actions?.length ? { actions: a.actions } : {}),
  }
  checkFormulas(a.key, fields)
  for (const k of [s.dateField, s.statusField, s.defaultSort?.key]) {
    if (k && k !== 'cts' && k !== 'ts' && !fields.some((f) => f.key === k)) {
      throw new z.ZodError([{ code: 'custom', path: ['dateField'], message: `schema ${a.key} names field "${k}" which it does not define` }])
    }
  }
  return s
}

/**
 * Every function field has a formula that reads, and reads only the table's own entered fields (not
 * another formula, so no order or cycle matters; not the field itself). A sub-table's function column
 * reads the columns of its own row.
 */
function checkFormulas(table: string, fields: FieldDef[], within = ''): void {
  const fail = (key: string, message: string) => {
    throw new z.ZodError([{ code: 'custom', path: ['items', ...(within ? [within, 'array'] : []), key, 'formula'], message: `schema ${table}, field ${within ? `${within}.` : ''}${key}: ${message}` }])
  }
  for (const f of fields) {
    if (f.array?.length) checkFormulas(table, f.array, f.key)
    if (f.type !== 'function') continue
    if (!f.formula?.trim()) fail(f.key, 'a function field needs a formula (for example "dry_weight / wet_weight * 100")')
    let names: string[] = []
    try {
      names = formulaFields(parseFormula(f.formula ?? ''))
    } catch (e) {
      fail(f.key, e instanceof FormulaError ? e.message : 'the formula cannot be read')
    }
    for (const n of names) {
      const g = fields.find((x) => x.key === n)
      if (!g) fail(f.key, `the formula names "${n}", which is not a field of this ${within ? 'sub-table' : 'table'}`)
      else if (g.type === 'function') fail(f.key, `the formula names "${n}", another computed field; name the fields it is computed from`)
    }
  }
}

/** The fields that get an index: sortable or searchable ones, and the date field. */
export function indexedFields(s: TableSchema): FieldDef[] {
  return s.fields.filter((f) => f.sortable || f.filter || f.key === s.dateField || f.key === s.defaultSort?.key)
}

const DISPLAY = new Set(['date', 'currency', 'measure', 'check'])

/** A column's display format: its own, else the one its type implies. */
export function formatOf(f: Pick<FieldDef, 'format' | 'type'>): string {
  if (f.format) return f.format
  if (DISPLAY.has(f.type)) return f.type
  return f.type === 'array' ? 'array' : ''
}

/** `id:<table>:<labelField>` → the reference it names, or null. */
export function refOf(format: string): { collection: string; labelField: string } | null {
  const r = referencedBy(format)
  return r ? { collection: r.table, labelField: r.labelField } : null
}
