/**
 * The zod schema a generic edit form post is validated with, compiled from a table schema (issue 6,
 * SPEC §2.6 and §3). One schema, two runtimes: the browser reads it through conform's
 * `getZodConstraint` and validates with `parseWithZod`, the server action parses the post with the
 * same `parseWithZod`. Values arrive as FormData strings, so every field normalises its own input
 * first (a zod preprocess); conform's own coercion then finds nothing left to do, and a plain
 * `safeParse` of an object gives the same result.
 *
 * Output, per field: blank → null (the user cleared it), not posted → left out (except check,
 * multilist, gaugearray and array fields, where "nothing posted" is the HTML way of saying "no" or
 * "none"). Dates come out as UTC ISO strings (decision 002: byte order is time order).
 *
 * Shared by server and browser: zod and pure modules only.
 */
import { z } from 'zod'
import { MSG } from '../auth/messages'
import { isYes } from '../format/format'
import { MEASURE_UNITS, convert, convertible, measureUnitOf, normaliseUnit, quantity, readMeasure, roundQty } from '../format/units'
import { isTimeZone, utcWall as utc, wallToInstant, zoneOffset } from '../format/zones'
import { referencedBy, type FieldDef, type TableSchema } from '../schemas/table-schema'
import { checkSaveRules, hasSaveRules } from './save-rules'
import { keyedRows, ROW_ID } from './row-ids'
import { safeLink, safePath } from '../utils/safe-url'
import { plainIssue } from '../utils/zod-messages'

export interface RecordSchemaOptions {
  /** Kept for the save rules and the server; the field rules are the same in both modes, because an update posts the whole form. */
  mode: 'create' | 'update'
  /** admin and super may change when a record was created (SPEC §3) */
  canEditCts?: boolean
  /** IANA zone a datetime-local value (no offset) is read in, the facility's; UTC when not given */
  timeZone?: string
  /**
   * A partial update (JSON API `PUT`): only these keys are checked, absent fields stay as stored,
   * and the save rules are left to the server, which runs them on the stored record merged with
   * the change (a rule run on half a record would see the other half as missing).
   */
  only?: ReadonlySet<string>
  /**
   * Dates from a program (JSON API) need not sit on the picker's 5-minute step (SPEC §9 is the
   * date picker's interval); a form post keeps the step check.
   */
  anyMinute?: boolean
  /** admin and super may set the row locks `ed` and `delete` (SPEC §3, §6) */
  canLockRows?: boolean
  /**
   * The record as stored (server) or as its form opened (browser): a date-time the user did not
   * change (the same instant) passes whatever its minute or seconds and is kept exactly as it was;
   * the picker's step applies to what the user picks (issue 32).
   */
  stored?: Record<string, unknown>
}

export type RecordShape = Record<string, z.ZodTypeAny>
/** The fields' object, with the table's save rules (SPEC §5) run on it: one schema in the browser and the action. */
export type RecordSchema = z.ZodIntersection<z.ZodObject<RecordShape>, z.ZodTypeAny>

/** Record keys the server owns (SPEC §3, decision 002); a post naming one is refused. */
export const SYSTEM_KEYS = ['_id', 'cts', 'ts', 'octs'] as const
const SYSTEM_LABELS: Record<(typeof SYSTEM_KEYS)[number], string> = { _id: 'Id', cts: 'Record Created', ts: 'Updated', octs: 'Original Created' }

/**
 * The generic record fields of SPEC §3 that every table takes, whether its schema lists them or
 * not: `IsUsed` ('no' = inactive; the table's Active/All toggle reads it) and the row locks `ed`
 * and `delete` ('no' blocks edit or delete for everyone but super), which only admin and super
 * set. (`octs` is the server's: SYSTEM_KEYS.) A table whose schema defines one keeps its own field.
 */
export const RECORD_FLAGS = ['IsUsed', 'ed', 'delete'] as const
export type RecordFlag = (typeof RECORD_FLAGS)[number]
export const RECORD_FLAG_LABELS: Record<RecordFlag, string> = { IsUsed: 'Active', ed: 'Editable', delete: 'Deletable' }
/** The generic flags `schema` does not define itself: the ones the engine adds. */
export function genericFlags(schema: TableSchema): RecordFlag[] {
  return RECORD_FLAGS.filter((k) => !schema.fields.some((f) => f.key === k))
}
/** A flag as stored means 'no' only when it says no; absent, 'yes' or anything else is 'yes'. */
export const storedFlag = (v: unknown): 'yes' | 'no' => (String(v ?? '').trim().toLowerCase() === 'no' || v === false ? 'no' : 'yes')
/** A flag as sent: yes/no (true/false, on/off, the form's hidden "no" then the box's "yes"); null when it is neither. */
export function sentFlag(v: unknown): 'yes' | 'no' | null {
  if (Array.isArray(v)) v = v.at(-1)
  if (v === true) return 'yes'
  if (v === false) return 'no'
  if (typeof v !== 'string') return null
  const s = v.trim().toLowerCase()
  return ['yes', 'on', 'true'].includes(s) ? 'yes' : ['no', 'off', 'false'].includes(s) ? 'no' : null
}

/** Longest accepted value per string type (characters); a 10 MB note is refused, not stored. */
export const MAX_LENGTH = {
  text: 500, remote: 500, list: 500, fileDND: 1000, reference: 64,
  textarea: 20_000, code: 20_000, function: 20_000, document: 100_000,
} as const
/** Most items in a multilist, gaugearray or array sub-table. */
export const MAX_ITEMS = 500
/** The date picker's minute interval (SPEC §9). */
export const MINUTE_STEP = 5

/** Referenced ids: ObjectId-shaped (decision 002) or other plain ids; never paths or markup. */
const REFERENCE_ID = /^[A-Za-z0-9_-]+$/

const n = (x: number) => x.toLocaleString('en-US')
/** Field messages. SPEC §5 shows none but the required one, which matches sign-in's (and the phrase map's). */
export const FORM_MSG = {
  required: MSG.required,
  readOnly: (label: string) => `${label} is read-only`,
  lockAdminOnly: (label: string) => `${label} is a row lock: only an administrator can change it`,
  number: (label: string) => `${label} must be a number`,
  between: (label: string, min: number, max: number) => `${label} must be between ${min} and ${max}`,
  atLeast: (label: string, min: number) => `${label} must be at least ${min}`,
  atMost: (label: string, max: number) => `${label} must be at most ${max}`,
  amount: (label: string) => `${label} must be an amount like 12.50`,
  cents: (label: string) => `${label} can have at most 2 decimals`,
  negative: (label: string) => `${label} can not be negative`,
  yesNo: (label: string) => `${label} must be yes or no`,
  date: (label: string) => `${label} must be a date and time`,
  step: (label: string) => `${label} must be on a ${MINUTE_STEP}-minute step, like 2:05 or 2:10`,
  choose: (label: string) => `Choose a ${label} from the list`,
  reference: (label: string) => `${label} is not a valid choice`,
  unit: (label: string, units: readonly string[]) => `${label} unit must be one of ${units.join(', ')}`,
  measure: (label: string) => `${label} must be a quantity and a unit`,
  text: (label: string) => `${label} must be text`,
  tooLong: (label: string, max: number) => `${label} must be at most ${n(max)} characters`,
  tooMany: (label: string, max: number) => `${label} can have at most ${n(max)} items`,
  list: (label: string) => `${label} must be a list`,
  nul: (label: string) => `${label} contains a character that is not allowed`,
  file: (label: string) => `${label} must be a file name or path`,
  rowId: 'A row id is letters, digits, - or _ (at most 40)',
  rowIdTwice: (label: string) => `${label} has two rows with the same id`,
} as const

// ---------------------------------------------------------------- which fields the form edits

/** A field the form edits: not read-only, not one of the server's keys. */
export function isEditable(f: FieldDef): boolean {
  return !f.ro && !(SYSTEM_KEYS as readonly string[]).includes(f.key)
}

/** The fields of the editable section, in schema order. */
export function editableFields(schema: TableSchema): FieldDef[] {
  return schema.fields.filter(isEditable)
}

/** The other table a list or multilist field picks from, when its options are not a fixed list. */
export function referenceOf(f: FieldDef): { table: string; labelField: string } | null {
  if ((f.type !== 'list' && f.type !== 'multilist') || f.en?.list?.length) return null
  if (f.en?.table) return { table: f.en.table, labelField: f.en.labelField ?? 'name' }
  // a column shown as `id:<table>:<labelField>` picks from that table too
  return referencedBy(f.format)
}

/**
 * A field whose value is an id in another table. The schema only checks the id's shape; the server
 * must check the ids exist (in the user's organisation) before saving.
 */
export interface ReferenceField {
  key: string
  label: string
  table: string
  labelField: string
  /** multilist: the value is a list of ids */
  multiple: boolean
  /** set for a column of an array sub-table: the array field's key (dotted when nested) */
  within?: string
}

/** Every editable reference field, sub-table columns included: what the server looks up after parsing. */
export function referenceFields(schema: TableSchema): ReferenceField[] {
  const out: ReferenceField[] = []
  const walk = (fields: FieldDef[], within?: string) => {
    for (const f of fields) {
      if (!isEditable(f) || (within && f.key === 'id')) continue
      const ref = referenceOf(f)
      if (ref) out.push({ key: f.key, label: f.label, ...ref, multiple: f.type === 'multilist', ...(within ? { within } : {}) })
      if (f.type === 'array' && f.array) walk(f.array, within ? `${within}.${f.key}` : f.key)
    }
  }
  walk(schema.fields)
  return out
}

// ---------------------------------------------------------------- the compiler

/**
 * The zod object a form post for `schema` is parsed with. Editable fields get their type's rules;
 * read-only fields and the server's keys (`_id`, `cts`, `ts`, `octs`) are in the shape only to refuse
 * any value posted for them (an issue on that field, so a forged post fails loudly rather than half
 * saving). `canEditCts` turns `cts` into a date that may be left out but not emptied. Keys the schema
 * does not know are dropped.
 */
export function recordSchema(schema: TableSchema, opts: RecordSchemaOptions): RecordSchema {
  const zone = checkZone(opts.timeZone)
  const step = !opts.anyMinute
  const shape: [string, z.ZodTypeAny][] = []
  for (const f of schema.fields) {
    if (opts.only && isEditable(f) && !opts.only.has(f.key)) continue
    shape.push([f.key, isEditable(f) ? fieldSchema(f, zone, step, opts.stored?.[f.key]) : refused(f.label)])
  }
  for (const key of genericFlags(schema)) shape.push([key, key === 'IsUsed' || opts.canLockRows ? flagSchema(RECORD_FLAG_LABELS[key]) : lockRefused(RECORD_FLAG_LABELS[key])])
  for (const key of SYSTEM_KEYS) {
    if (key === 'cts' && opts.canEditCts) shape.push([key, ctsSchema(zone, step, opts.mode === 'create', opts.stored?.cts)])
    else shape.push([key, refused(SYSTEM_LABELS[key])])
  }
  // fromEntries: a field keyed __proto__ becomes an own key, not the prototype
  // the table's save rules run beside the fields, so their SPEC §5 message (a form error: the red
  // Error box) comes with the field errors rather than only once every field is right
  return z.intersection(z.object(Object.fromEntries(shape)), opts.only ? z.object({}) : saveRulesOf(schema, opts.mode, zone, step, opts.stored))
}

/**
 * The table's save rules (./save-rules.ts) as a schema: run on the form as posted, each field read
 * as its own schema reads it (a field that does not parse counts as not given). Every rule's error
 * is reported at once: on each field the rule names (shown beside it; the form's summary lists each
 * message once, with links to its fields), or as a form error when it names none. Contributes no
 * value. Tables without rules get a schema that passes.
 */
function saveRulesOf(schema: TableSchema, mode: RecordSchemaOptions['mode'], zone: string, step: boolean, stored?: Record<string, unknown>): z.ZodTypeAny {
  const empty = z.object({})
  if (!hasSaveRules(schema.key)) return empty
  const fields = schema.fields.filter(isEditable).map((f) => [f.key, fieldSchema(f, zone, step, stored?.[f.key])] as const)
  return z.preprocess((raw, ctx) => {
    const input = raw && typeof raw === 'object' ? (raw as Record<string, unknown>) : {}
    const record: Record<string, unknown> = {}
    for (const [key, s] of fields) {
      const r = s.safeParse(input[key])
      if (r.success && r.data !== undefined) record[key] = r.data
    }
    const known = new Set(fields.map(([key]) => key))
    for (const e of checkSaveRules(schema.key, record, { mode }).errors) {
      const on = (e.fields ?? []).filter((k) => known.has(k))
      if (!on.length) ctx.addIssue({ code: 'custom', message: e.message, path: [] })
      for (const k of on) ctx.addIssue({ code: 'custom', message: e.message, path: [k] })
    }
    return {}
  }, empty)
}

/**
 * The zod schema of one editable field (exported for the edit form's per-field checks and for tests).
 * `step`: dates on the picker's 5-minute step; `stored`: the field's stored value (a date-time equal
 * to it is kept as stored; for a sub-table, its stored rows).
 */
export function fieldSchema(f: FieldDef, timeZone = 'UTC', step = true, stored?: unknown): z.ZodTypeAny {
  const L = f.label
  switch (f.type) {
    case 'number':
      return scalar(f, toNumber, range(z.number(typeErrors(L, FORM_MSG.number(L))), L, f.min, f.max))
    case 'currency':
      return scalar(f, toNumber, notNegative(z.number(typeErrors(L, FORM_MSG.amount(L))), f).refine(hasCents, FORM_MSG.cents(L)))
    case 'check':
    case 'status':
      // An unticked box posts nothing, so "not posted" is no; `required` cannot mean more than that.
      // optional() never lets undefined through (toYesNo never returns it); it keeps `required` off the checkbox.
      return z.preprocess(toYesNo, z.enum(['yes', 'no'], typeErrors(L, FORM_MSG.yesNo(L))).optional())
    case 'date':
      return scalar(f, dateText, dateSchema(L, timeZone, step, stored === undefined ? [] : [stored]))
    case 'measure':
      return measureSchema(f)
    case 'list':
      return scalar(f, trimmed, optionSchema(f))
    case 'multilist':
      return listOf(f, toStrings, optionSchema(f))
    case 'gaugearray':
      return listOf(f, toNumbers, range(z.number(typeErrors(L, FORM_MSG.number(L))), L, f.min, f.max))
    case 'array':
      return listOf(f, (v) => v, rowSchema(f, timeZone, step, stored)).superRefine((rows, ctx) => uniqueRowIds(rows, f.label, ctx))
    case 'fileDND':
      return scalar(f, trimmed, text(L, MAX_LENGTH.fileDND).refine(isFilePath, FORM_MSG.file(L)))
    case 'textarea':
    case 'code':
    case 'function':
    case 'document':
      // kept exactly as typed (indentation, markup); React escapes it when shown
      return scalar(f, asText, text(L, MAX_LENGTH[f.type]))
    case 'remote':
    case 'text':
    default:
      return scalar(f, trimmed, text(L, MAX_LENGTH.text))
  }
}

// ---------------------------------------------------------------- building blocks

const isFile = (v: unknown): v is File => typeof File !== 'undefined' && v instanceof File

/** Nothing entered: absent, null, whitespace, or a file input left empty. */
export function isBlank(v: unknown): boolean {
  return v === undefined || v === null || (typeof v === 'string' && v.trim() === '') || (isFile(v) && v.size === 0 && v.name === '')
}

/**
 * Required fields turn blank and absent into null, which their type refuses with the required
 * message; optional ones keep absent (left out) apart from blank (null, cleared).
 */
function scalar(f: FieldDef, norm: (v: unknown) => unknown, inner: z.ZodTypeAny): z.ZodTypeAny {
  const pre = (v: unknown) => (v === undefined ? (f.required ? null : undefined) : isBlank(v) ? null : norm(v))
  return z.preprocess(pre, f.required ? inner : inner.nullish())
}

/** Missing → "You must enter a … value"; wrong type or not an option → `wrong`. */
function typeErrors(label: string, wrong: string): { errorMap: z.ZodErrorMap } {
  return {
    errorMap: (issue) => {
      if (issue.code === 'invalid_type' && (issue.received === 'null' || issue.received === 'undefined')) return { message: MSG.required(label) }
      if (issue.code === 'invalid_type' || issue.code === 'invalid_enum_value') return { message: wrong }
      // a check with no words of its own: plain ones, never zod's English
      return { message: `${label}: ${plainIssue(issue)}` }
    },
  }
}

/** Amounts and weights are not negative unless the schema's min says they may be. */
function notNegative(num: z.ZodNumber, f: FieldDef): z.ZodNumber {
  return f.min === undefined ? range(num.min(0, FORM_MSG.negative(f.label)), f.label, undefined, f.max) : range(num, f.label, f.min, f.max)
}

function range(num: z.ZodNumber, label: string, min?: number, max?: number): z.ZodNumber {
  if (min !== undefined && max !== undefined) return num.min(min, FORM_MSG.between(label, min, max)).max(max, FORM_MSG.between(label, min, max))
  if (min !== undefined) return num.min(min, FORM_MSG.atLeast(label, min))
  if (max !== undefined) return num.max(max, FORM_MSG.atMost(label, max))
  return num
}

/** Numbers as SQL reads them ('12', '-3.5'); anything else becomes NaN, so conform and zod agree it is not a number. */
function toNumber(v: unknown): unknown {
  if (typeof v === 'string') return quantity(v) ?? NaN
  return v
}

// 1.1 * 100 is 110.00000000000001: compare at 15 significant digits
const hasCents = (x: number) => Number.isInteger(Number((x * 100).toPrecision(15)))

function toYesNo(v: unknown): unknown {
  // a hidden "no" before the checkbox (so a no-JS post says no explicitly) gives two values: the last one wins
  if (Array.isArray(v)) v = v.at(-1)
  if (isBlank(v) || v === false) return 'no'
  if (v === true) return 'yes'
  if (typeof v !== 'string') return v
  const s = v.trim().toLowerCase()
  return ['yes', 'on', 'true'].includes(s) ? 'yes' : ['no', 'off', 'false'].includes(s) ? 'no' : v
}

const trimmed = (v: unknown) => (typeof v === 'string' ? v.trim() : typeof v === 'number' && Number.isFinite(v) ? String(v) : v)
const asText = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? String(v) : v)

/** Plain text: markup is kept as typed (never stripped or escaped here); NUL is refused because PostgreSQL's jsonb cannot store it. */
function text(label: string, max: number) {
  return z
    .string(typeErrors(label, FORM_MSG.text(label)))
    .max(max, FORM_MSG.tooLong(label, max))
    .refine((s) => !s.includes('\u0000'), FORM_MSG.nul(label))
}

/** A stored file's name or path (the upload itself is a separate request), or an http(s) address; never javascript: or ../ */
function isFilePath(s: string): boolean {
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(s) || s.includes('\\') || s.split('/').includes('..')) return false
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(s)
  if (scheme) return /^https?$/i.test(scheme[1]) && safeLink(s) !== null
  // a path of this site (the one URL-safety rule: never `//host`), or a bare stored name
  return !s.startsWith('/') || safePath(s) !== null
}

function optionSchema(f: FieldDef): z.ZodTypeAny {
  const L = f.label
  const list = f.en?.list
  if (list?.length) return z.enum(list as [string, ...string[]], typeErrors(L, FORM_MSG.choose(L)))
  if (referenceOf(f)) {
    return z.string(typeErrors(L, FORM_MSG.reference(L))).max(MAX_LENGTH.reference, FORM_MSG.reference(L)).regex(REFERENCE_ID, FORM_MSG.reference(L))
  }
  return text(L, MAX_LENGTH.list)
}

/** multilist, gaugearray and array: nothing posted is an empty list; a required one needs an item. */
function listOf(f: FieldDef, norm: (v: unknown) => unknown, item: z.ZodTypeAny): z.ZodTypeAny {
  let arr = z.array(item, typeErrors(f.label, FORM_MSG.list(f.label))).max(MAX_ITEMS, FORM_MSG.tooMany(f.label, MAX_ITEMS))
  if (f.required) arr = arr.min(1, MSG.required(f.label))
  // the preprocess never yields undefined: optional() only keeps `required` off an optional multi-select
  return z.preprocess((v) => (isBlank(v) ? [] : norm(v)), f.required ? arr : arr.optional())
}

/** One value or several (a multi-select posts the name once per choice); blanks dropped, duplicates once. */
function toStrings(v: unknown): unknown {
  const xs = Array.isArray(v) ? v : [v]
  const out = xs.filter((x) => !isBlank(x)).map(trimmed)
  return out.every((x) => typeof x === 'string') ? [...new Set(out)] : out
}

/** A gauge array from repeated inputs, indexed inputs or one "1, 2.5, 3" text. */
function toNumbers(v: unknown): unknown {
  const xs = typeof v === 'string' ? v.split(/[,\s]+/) : Array.isArray(v) ? v : [v]
  return xs.filter((x) => !isBlank(x)).map(toNumber)
}

/** A sub-table row: its columns compiled like top-level fields, plus the row id (server-assigned when absent). */
function rowSchema(f: FieldDef, timeZone: string, step: boolean, stored?: unknown): z.ZodTypeAny {
  const shape: [string, z.ZodTypeAny][] = []
  const storedRows = Array.isArray(stored) ? (stored as unknown[]).filter((r): r is Record<string, unknown> => !!r && typeof r === 'object') : []
  for (const sub of f.array ?? []) {
    // a row's date-time is kept when it is one of the column's stored values
    const kept = sub.type === 'date' ? storedRows.map((r) => r[sub.key]).filter((v) => v !== undefined && v !== null && v !== '') : undefined
    if (sub.key !== 'id') shape.push([sub.key, isEditable(sub) ? (kept ? dateField(sub, timeZone, step, kept) : fieldSchema(sub, timeZone, step)) : refused(sub.label)])
  }
  const id = z.preprocess((v) => (isBlank(v) ? undefined : trimmed(v)), z.string({ invalid_type_error: FORM_MSG.rowId }).regex(ROW_ID, FORM_MSG.rowId).optional())
  shape.push(['id', id])
  // a blank id posted is no id: leave the key out rather than carry `id: undefined`
  return z.object(Object.fromEntries(shape), typeErrors(f.label, FORM_MSG.list(f.label))).transform((row) => {
    if (row.id === undefined) delete row.id
    return row
  })
}

/** A row id names one row: a post with two rows of one id (only a forged one can) is refused on the second. */
function uniqueRowIds(rows: unknown, label: string, ctx: z.RefinementCtx): void {
  if (!Array.isArray(rows)) return
  const seen = new Set<string>()
  rows.forEach((row: { id?: string } | undefined, i) => {
    if (row?.id === undefined) return
    if (seen.has(row.id)) ctx.addIssue({ code: 'custom', path: [i, 'id'], message: FORM_MSG.rowIdTwice(label) })
    seen.add(row.id)
  })
}

/**
 * Refuses any value posted for a read-only field, even a blank one: the form never renders inputs
 * for them, so a value means a forged post. Deliberately not optional: conform would turn '' into
 * "not posted" first.
 */
/** A generic flag: not sent is left as stored; sent, it must be yes or no. */
function flagSchema(label: string): z.ZodTypeAny {
  return z.preprocess((v) => (v === undefined ? undefined : (sentFlag(v) ?? v)), z.enum(['yes', 'no'], typeErrors(label, FORM_MSG.yesNo(label))).optional())
}

/** A row lock sent by a user who may not set it. */
function lockRefused(label: string): z.ZodTypeAny {
  return z.any().transform((v, ctx) => {
    if (v !== undefined) ctx.addIssue({ code: 'custom', message: FORM_MSG.lockAdminOnly(label) })
    return undefined
  })
}

function refused(label: string): z.ZodTypeAny {
  return z.any().transform((v, ctx) => {
    if (v !== undefined) ctx.addIssue({ code: 'custom', message: FORM_MSG.readOnly(label) })
    return undefined
  })
}

// ---------------------------------------------------------------- measures

/** { qty, unit }: posted as `key.qty` and `key.unit` (conform nests them), or as one "12.5 g" text. */
function measureSchema(f: FieldDef): z.ZodTypeAny {
  const L = f.label
  const units = [...new Set((f.units?.length ? f.units : MEASURE_UNITS).map((u) => normaliseUnit(u) ?? u))] as [string, ...string[]]
  const norm = (v: unknown): unknown => {
    if (typeof v === 'string') {
      const m = /^\s*(-?[0-9]+(?:\.[0-9]+)?)\s*(.*?)\s*$/.exec(v)
      if (!m) return v
      v = { qty: m[1], unit: m[2] }
    }
    if (!v || typeof v !== 'object' || Array.isArray(v)) return v
    const { qty, unit } = v as { qty?: unknown; unit?: unknown }
    // the unit picker always has a value, so an empty quantity is an empty measure
    if (isBlank(qty)) return null
    // null, not undefined, for a missing unit: the optional() below must not let it through
    const u = isBlank(unit) ? (units.length === 1 ? units[0] : null) : normaliseUnit(unit) ?? unit
    return { qty: toNumber(qty), unit: u }
  }
  const unitMsg = FORM_MSG.unit(L, units)
  const qty = notNegative(z.number(typeErrors(L, FORM_MSG.number(L))), f)
  const unit = z.enum(units, { errorMap: () => ({ message: unitMsg }) })
  // qty and unit are never undefined after `norm`; optional() keeps `required` off the inputs of an optional measure
  const fields = z.object(f.required ? { qty, unit } : { qty: qty.optional(), unit: unit.optional() }, typeErrors(L, FORM_MSG.measure(L)))
  // a column that keeps its measures in one unit (`measure:g`) stores what was entered converted to it
  const keep = measureUnitOf(f.format)
  const inner = keep
    ? fields
        .refine((m) => !m.unit || convertible(m.unit, keep), FORM_MSG.unit(L, units.filter((u) => convertible(u, keep))))
        .transform((m) => (m.qty === undefined || !m.unit || m.unit === keep ? m : { qty: roundQty(convert(m.qty, m.unit, keep)), unit: keep }))
    : fields
  // null, not undefined, when absent: conform would turn an undefined object into {} and report "qty" instead of the field
  const pre = (v: unknown) => (v === undefined ? (f.required ? null : undefined) : isBlank(v) ? null : norm(v))
  return z.preprocess(pre, f.required ? inner : inner.nullish())
}

// ---------------------------------------------------------------- dates

const ISO_INPUT = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?)?$/i

/**
 * A date-time as the picker posts it: datetime-local `YYYY-MM-DDTHH:mm` (facility wall time, read in
 * `timeZone`), a full ISO instant, or a date alone (midnight). On a 5-minute step (SPEC §9), so
 * seconds must be zero. → UTC ISO string.
 */
function dateSchema(label: string, timeZone: string, step = true, kept: unknown[] = []) {
  return z.string(typeErrors(label, FORM_MSG.date(label))).transform((s, ctx) => {
    const t = s.length <= 40 ? parseDateInput(s, timeZone) : null
    if (t === null) {
      ctx.addIssue({ code: 'custom', message: FORM_MSG.date(label) })
      return z.NEVER
    }
    // unchanged: the stored value exactly as it was (never floored to the step, never reformatted)
    const same = kept.find((k) => instantOf(k, timeZone) === t)
    if (same !== undefined) return typeof same === 'string' ? same : new Date(t).toISOString()
    if (step && t % (MINUTE_STEP * 60_000) !== 0) {
      ctx.addIssue({ code: 'custom', message: FORM_MSG.step(label) })
      return z.NEVER
    }
    return new Date(t).toISOString()
  })
}

function ctsSchema(timeZone: string, step: boolean, create: boolean, stored?: unknown): z.ZodTypeAny {
  // not posted: left as it is; posted empty: refused on a stored record, a record always has a
  // created time; left empty on a new one (the form's Add shows it blank): created now
  return z.preprocess((v) => (v === undefined || (create && isBlank(v)) ? undefined : isBlank(v) ? null : dateText(v)), dateSchema(SYSTEM_LABELS.cts, timeZone, step, stored === undefined ? [] : [stored]).optional())
}

/** A sub-table's date column whose stored values are kept when posted unchanged. */
function dateField(f: FieldDef, timeZone: string, step: boolean, kept: unknown[]): z.ZodTypeAny {
  return scalar(f, dateText, dateSchema(f.label, timeZone, step, kept))
}

/** Epoch ms of a stored or shown date-time (an ISO string, a datetime-local in the zone, a Date), or null. */
function instantOf(v: unknown, timeZone: string): number | null {
  if (v instanceof Date) return Number.isNaN(v.getTime()) ? null : v.getTime()
  return typeof v === 'string' && v.length <= 40 ? parseDateInput(v, timeZone) : null
}

/** Is a datetime-local value on the picker's step (no seconds, minutes a multiple of 5)? '' is. */
export function onPickerStep(v: unknown): boolean {
  if (typeof v !== 'string' || !v) return true
  const m = /T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d+))?)?$/.exec(v)
  if (!m) return true
  return +m[2] % MINUTE_STEP === 0 && !+(m[3] ?? 0) && !+(m[4] ?? 0)
}

const dateText = (v: unknown) => (v instanceof Date && !Number.isNaN(v.getTime()) ? v.toISOString() : trimmed(v))

/** Epoch ms of a date input, or null when it is not a real date (2026-02-30) or outside years 1000-9999. */
export function parseDateInput(s: string, timeZone = 'UTC'): number | null {
  const m = ISO_INPUT.exec(s.trim())
  if (!m) return null
  const [, y, mo, d, h = '0', mi = '0', sec = '0', frac = '', zone] = m
  const monthDays = [31, isLeap(+y) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][+mo - 1]
  if (!(+mo >= 1 && +mo <= 12 && +d >= 1 && +d <= monthDays && +h < 24 && +mi < 60 && +sec < 60)) return null
  const ms = frac ? Math.round(Number(`0.${frac}`) * 1000) : 0
  const wall = utc(+y, +mo, +d, +h, +mi, +sec) + ms
  let t: number
  if (!zone) t = timeZone === 'UTC' ? wall : wallToInstant(wall, timeZone)
  else if (zone.toUpperCase() === 'Z') t = wall
  else {
    const sign = zone[0] === '-' ? -1 : 1
    const digits = zone.slice(1).replace(':', '') // +05, +0530, +05:30
    const hh = +digits.slice(0, 2)
    const mm = digits.length > 2 ? +digits.slice(2) : 0
    if (hh > 23 || mm > 59) return null
    t = wall - sign * (hh * 60 + mm) * 60_000
  }
  const year = new Date(t).getUTCFullYear()
  return Number.isNaN(t) || year < 1000 || year > 9999 ? null : t
}

const isLeap = (y: number) => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0

/** The zone, checked once when the schema is built: a misconfigured facility should fail loudly, not shift every date. */
function checkZone(timeZone: string | undefined): string {
  if (!timeZone || timeZone === 'UTC') return 'UTC'
  if (!isTimeZone(timeZone)) throw new Error(`"${timeZone}" is not an IANA time zone`)
  return timeZone
}

// ---------------------------------------------------------------- the form's starting values

/**
 * A stored record → the values its edit form starts with, as the inputs hold them: strings,
 * `{ qty, unit }` for measures, string lists, rows with their ids. Dates become datetime-local
 * strings in `timeZone`, exactly (seconds and milliseconds when there are any): a value the user
 * does not touch is saved back unchanged (issue 32; `stored` lets it past the picker's step).
 */
export function formValuesOf(
  schema: TableSchema,
  doc: Record<string, unknown>,
  opts: { canEditCts?: boolean; timeZone?: string; canLockRows?: boolean } = {},
): Record<string, unknown> {
  const zone = checkZone(opts.timeZone)
  const out: Record<string, unknown> = Object.fromEntries(editableFields(schema).map((f) => [f.key, fieldValue(f, doc[f.key], zone)]))
  for (const k of genericFlags(schema)) if (k === 'IsUsed' || opts.canLockRows) out[k] = storedFlag(doc[k])
  if (opts.canEditCts) out.cts = toLocalInput(doc.cts, zone)
  return out
}

function fieldValue(f: FieldDef, v: unknown, zone: string): unknown {
  switch (f.type) {
    case 'number':
    case 'currency': {
      const q = quantity(v)
      return q === null ? '' : String(q)
    }
    case 'check':
    case 'status':
      return isYes(v) ? 'yes' : 'no'
    case 'date':
      return toLocalInput(v, zone)
    case 'measure': {
      const m = readMeasure(v)
      const first = f.units?.length ? normaliseUnit(f.units[0]) ?? f.units[0] : ''
      return m ? { qty: String(m.qty), unit: m.unit } : { qty: '', unit: first }
    }
    case 'multilist':
      return (Array.isArray(v) ? v : isBlank(v) ? [] : [v]).map((x) => String(x))
    case 'gaugearray':
      return Array.isArray(v) ? v.map((x) => String(x)) : []
    case 'array':
      // rows stored without an id are shown under the id rowsToSave will match them by
      return keyedRows(v).map((r) => {
        const cols = (f.array ?? []).filter((s) => isEditable(s) && s.key !== 'id')
        return { id: r.id, ...Object.fromEntries(cols.map((s) => [s.key, fieldValue(s, r[s.key], zone)])) }
      })
    default:
      return typeof v === 'string' ? v : typeof v === 'number' && Number.isFinite(v) ? String(v) : ''
  }
}

/** A stored date → `YYYY-MM-DDTHH:mm` in the zone (`:ss`, `:ss.mmm` when it has them); '' when it is not a date. */
export function toLocalInput(v: unknown, timeZone = 'UTC'): string {
  const t = v instanceof Date ? v.getTime() : typeof v === 'string' ? parseDateInput(v, timeZone) : null
  if (t === null || Number.isNaN(t)) return ''
  const wall = new Date(t + (timeZone === 'UTC' ? 0 : zoneOffset(t, timeZone))).toISOString()
  return wall.endsWith(':00.000Z') ? wall.slice(0, 16) : wall.endsWith('.000Z') ? wall.slice(0, 19) : wall.slice(0, 23)
}
